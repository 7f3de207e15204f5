#!/usr/bin/env node
// urlscope parser adapter: how Node.js reads a URL.
//
// Speaks urlscope's adapter protocol (JSON Lines, see docs/diff.md): one hello line, then one
// reading per request line, in order. The argument picks the reading:
//   whatwg  the global URL (Node's bundled ada): new URL(input, base)
//   legacy  url.parse(input) (after url.resolve(base, input) when a base is given)
'use strict';
const url = require('node:url');
const readline = require('node:readline');

const reading = process.argv[2] || 'whatwg';

function withoutColon(protocol) {
  if (protocol === null || protocol === undefined) return null;
  return protocol.endsWith(':') ? protocol.slice(0, -1) : protocol;
}

function withoutPrefix(value, prefix) {
  if (value === null || value === undefined) return null;
  return value.startsWith(prefix) ? value.slice(prefix.length) : value;
}

function whatwg(request) {
  let u;
  try {
    u = request.base === null || request.base === undefined
      ? new URL(request.input)
      : new URL(request.input, request.base);
  } catch (e) {
    return { failure: true, error: `${e.code || e.name}: ${e.message}` };
  }
  // The URL API's getters: strings, empty when absent (the API cannot say null).
  return {
    failure: false,
    error: null,
    scheme: withoutColon(u.protocol),
    username: u.username,
    password: u.password,
    host: u.hostname,
    port: u.port,
    path: u.pathname,
    query: withoutPrefix(u.search, '?'),
    fragment: withoutPrefix(u.hash, '#'),
  };
}

function legacy(request) {
  let u;
  try {
    const target = request.base === null || request.base === undefined
      ? request.input
      : url.resolve(request.base, request.input);
    u = url.parse(target);
  } catch (e) {
    return { failure: true, error: `${e.code || e.name}: ${e.message}` };
  }
  let username = null;
  let password = null;
  if (u.auth !== null && u.auth !== undefined) {
    const colon = u.auth.indexOf(':');
    username = colon < 0 ? u.auth : u.auth.slice(0, colon);
    password = colon < 0 ? null : u.auth.slice(colon + 1);
  }
  return {
    failure: false,
    error: null,
    scheme: withoutColon(u.protocol),
    username,
    password,
    host: u.hostname,
    port: u.port,
    path: u.pathname,
    query: u.query,
    fragment: withoutPrefix(u.hash, '#'),
  };
}

const read = reading === 'legacy' ? legacy : reading === 'whatwg' ? whatwg : null;
const hello = { 'urlscope-adapter': 1 };
if (read === null) {
  Object.assign(hello, { available: false, error: `unknown reading ${JSON.stringify(reading)}` });
} else {
  // url.parse warns (DEP0169) on stderr; the warning is not a reading.
  process.noDeprecation = true;
  Object.assign(hello, { available: true, version: process.version.replace(/^v/, '') });
}
process.stdout.write(JSON.stringify(hello) + '\n');
if (read !== null) {
  const lines = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
  lines.on('line', (line) => {
    let answer;
    let request;
    try {
      request = JSON.parse(line);
    } catch (e) {
      process.stdout.write(JSON.stringify({ id: null, failure: true, error: `bad request: ${e.message}` }) + '\n');
      return;
    }
    answer = read(request);
    answer.id = request.id;
    process.stdout.write(JSON.stringify(answer) + '\n');
  });
}
