#!/usr/bin/env node
// urlscope pattern adapter: how Node reads a URL pattern.
//
// Speaks urlscope's adapter protocol (JSON Lines, see docs/diff.md): one hello line,
// {"urlscope-adapter": 1, "available": true, "version": "node 24.1.0 URLPattern"} (or
// "urlpattern-polyfill 10.1.0"), then one answer per request line, in order. A request is a
// case in the web-platform-tests' shape, {"id": N, "pattern": [...], "inputs": [...]}: the
// URLPattern constructor's and exec()'s arguments. The answer is
// {"id": N, "error": null | "…", "components": {…} | null, "has_regexp_groups": bool | null,
//  "test": bool | null, "match": {…} | null}, as `urlscope pattern --json` writes its own.
//
// Arguments: [global|polyfill] [NPM_PREFIX]
//   global    (the default) Node's own URLPattern (Node 24 and later), else the polyfill
//   polyfill  urlpattern-polyfill only
//   NPM_PREFIX  where `npm install --prefix NPM_PREFIX urlpattern-polyfill@10.1.0` put it;
//               by default the `npm` directory of urlscope's cache, two levels above this
//               file (urlscope writes it to CACHE/adapters/HASH/).
'use strict';
const path = require('node:path');
const readline = require('node:readline');

const prefer = process.argv[2] || 'global';
const prefix = process.argv[3] || path.resolve(__dirname, '..', '..', 'npm');

const COMPONENTS = ['protocol', 'username', 'password', 'hostname', 'port', 'pathname', 'search', 'hash'];

function load() {
  if (prefer !== 'global' && prefer !== 'polyfill') {
    return { error: `unknown reading ${JSON.stringify(prefer)} (global or polyfill)` };
  }
  if (prefer === 'global' && typeof globalThis.URLPattern === 'function') {
    return { URLPattern: globalThis.URLPattern, version: `node ${process.versions.node} URLPattern` };
  }
  const dir = path.join(prefix, 'node_modules', 'urlpattern-polyfill');
  try {
    // The class without installing it as a global.
    const { URLPattern } = require(path.join(dir, 'dist', 'urlpattern.cjs'));
    const { version } = require(path.join(dir, 'package.json'));
    return { URLPattern, version: `urlpattern-polyfill ${version}` };
  } catch (e) {
    const global = prefer === 'global' ? `node ${process.versions.node} has no global URLPattern, and ` : '';
    return {
      error: `${global}urlpattern-polyfill is not installed in ${prefix} ` +
        `(npm install --prefix ${prefix} urlpattern-polyfill@10.1.0): ${e.message.split('\n')[0]}`,
    };
  }
}

// A group that did not participate is undefined, which JSON.stringify would drop: null.
function groups(g) {
  const out = {};
  for (const [name, value] of Object.entries(g)) out[name] = value === undefined ? null : value;
  return out;
}

function answer(URLPattern, request) {
  const out = { error: null, components: null, has_regexp_groups: null, test: null, match: null };
  let pattern;
  try {
    pattern = new URLPattern(...request.pattern);
  } catch (e) {
    out.error = `${e.name}: ${e.message}`;
    return out;
  }
  out.components = {};
  for (const c of COMPONENTS) out.components[c] = pattern[c];
  out.has_regexp_groups = typeof pattern.hasRegExpGroups === 'boolean' ? pattern.hasRegExpGroups : null;
  let result;
  try {
    out.test = pattern.test(...request.inputs);
    result = pattern.exec(...request.inputs);
  } catch (e) {
    // The input throws: neither test nor exec has an answer.
    out.test = null;
    out.input_error = `${e.name}: ${e.message}`;
    return out;
  }
  if (result) {
    out.match = {};
    for (const c of COMPONENTS) out.match[c] = { input: result[c].input, groups: groups(result[c].groups) };
  }
  return out;
}

const loaded = load();
const hello = { 'urlscope-adapter': 1 };
if (loaded.URLPattern) {
  Object.assign(hello, { available: true, version: loaded.version });
} else {
  Object.assign(hello, { available: false, error: loaded.error });
}
process.stdout.write(JSON.stringify(hello) + '\n');
if (loaded.URLPattern) {
  const lines = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
  lines.on('line', (line) => {
    let request;
    try {
      request = JSON.parse(line);
    } catch (e) {
      process.stdout.write(JSON.stringify({ id: null, error: `bad request: ${e.message}` }) + '\n');
      return;
    }
    const out = answer(loaded.URLPattern, request);
    out.id = request.id;
    process.stdout.write(JSON.stringify(out) + '\n');
  });
}
