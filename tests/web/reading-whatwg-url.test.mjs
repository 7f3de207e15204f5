// The page's whatwg-url reading (readings/whatwg-url/worker.js: the URL Standard's reference
// implementation from npm, bundled by scripts/web-readings/whatwg-url/build) in Chromium, on
// every input of tests/data/diff_corpus.jsonl and a few resolved against a base, held to two
// oracles:
//
// - urlscope's own engine, `urlscope diff --json --parsers whatwg`: the reference and urlscope
//   read the same URL record (tests/reference.rs holds them to the same href, and
//   tests/data/disagreements.txt lists no class for whatwg-url), so every component must be the
//   URL API's view of urlscope's record: the same strings, with the record's null (no host, no
//   port, no query, no fragment) read as "", which is what the API's getters return for it.
// - the same package run natively by Node, read by the terminal's own code for a URL API
//   (assets/parsers/node.js's whatwg(), with the global URL replaced by whatwg-url's): the page's
//   answer must be exactly that, field for field, message for message. The terminal's `diff`
//   has no whatwg-url reading, so this is its reading as the terminal's code would give it.
//
// And the version is the one pinned for tests/reference.rs (its WHATWG_URL), read by the worker
// from the package it bundles. Without the locked npm packages the page has no whatwg-url
// reading (readings/whatwg-url/unavailable.txt says why) and this says it skipped, unless
// URLSCOPE_REQUIRE_BROWSER=1.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { launch, pageUrl, stop } from './page.mjs';
import { corpus, diffReading, generatedHosts, key, notBuilt, percentile, repo } from './reading.mjs';

const reading = path.join(repo, 'scripts', 'web-readings', 'whatwg-url');

/// Inputs beyond the corpus: code points outside the BMP, a deviation character, an opaque path
/// with a space before its query, the empty string.
const extra = ['http://😀.example/😀?😀#😀', 'https://faß.de/', 'sc:a ?b', 'http://[::1]:8080/', ''];
/// Inputs resolved against a base (the URL Standard's basic URL parser with a base); the last
/// base does not parse, which is a failure of its own.
const based = [
  { base: 'http://user:pass@example.com:8080/a/b/c;p?q#f', inputs: ['../d', '//evil.com/x', '?y', '#g', 'https:evil.com', '/\\evil.com', 'g;x?y#s', '../../../..//x', ''] },
  { base: 'file:///C:/dir/file', inputs: ['..', '/x', 'C|/y', '//host/share'] },
  { base: 'sc:opaque', inputs: ['#f', 'x'] },
  { base: 'http://[::1', inputs: ['x'] },
];
/// Inputs only the native oracle can take: the command line reads UTF-8, which has no lone
/// surrogate; the URL API turns one into U+FFFD (USVString).
const surrogates = ['http://\uD800/', 'http://h/\uDC00?\uD83D#x'];
const requests = [
  ...[...corpus.map((row) => row.input), ...extra, ...generatedHosts(400)].map((input) => ({ input, base: null })),
  ...based.flatMap(({ base, inputs }) => inputs.map((input) => ({ input, base }))),
];
const all = [...requests, ...surrogates.map((input) => ({ input, base: null }))];
/// A reading's fields after `available` and `version`, in diff --json's order.
const FIELDS = ['failure', 'error', 'scheme', 'username', 'password', 'host', 'port', 'path', 'query', 'fragment'];

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); await stop(); });

/// `urlscope diff --json --parsers whatwg`'s parsers.whatwg for each request: one run per base,
/// over standard input (split at "\n" only, so a CR stays in its input; no input holds a "\n").
function engine() {
  return diffReading(requests, 'whatwg');
}

/// whatwg-url as the terminal's code reads a URL API: assets/parsers/node.js's `whatwg` reading,
/// run by Node with the global URL replaced by the class of the whatwg-url installed beside the
/// page's build (the same lock file), over the adapter protocol. The answers by request.
function native() {
  const module = path.join(reading, 'node_modules', 'whatwg-url');
  const adapter = path.join(repo, 'assets', 'parsers', 'node.js');
  const program = `globalThis.URL = require(${JSON.stringify(module)}).URL; process.argv[2] = 'whatwg'; require(${JSON.stringify(adapter)});`;
  const input = all.map(({ input, base }, id) => `${JSON.stringify({ id, input, base })}\n`).join('');
  const run = spawnSync('node', ['-e', program], { input, encoding: 'utf8' });
  assert.equal(run.status, 0, `node assets/parsers/node.js with whatwg-url: ${run.stderr}`);
  const [hello, ...lines] = run.stdout.split('\n').filter((line) => line !== '').map((line) => JSON.parse(line));
  assert.equal(hello.available, true, JSON.stringify(hello));
  assert.equal(lines.length, all.length, run.stderr);
  const answers = new Map();
  lines.forEach((answer, id) => {
    assert.equal(answer.id, id);
    // The adapter protocol's missing field is null, as the terminal reads it (docs/diff.md).
    answers.set(key(all[id]), Object.fromEntries(FIELDS.map((field) => [field, answer[field] ?? null])));
  });
  return answers;
}

/// The URL API's view of urlscope's reading: its getters return "" where the record has null.
function throughTheApi(record) {
  if (record.failure) return { failure: true };
  const view = { failure: false };
  for (const part of ['scheme', 'username', 'password', 'host', 'port', 'path', 'query', 'fragment']) {
    view[part] = record[part] ?? '';
  }
  return view;
}

/// The version tests/reference.rs installs for the native comparison with the reference.
function referenceVersion() {
  const source = fs.readFileSync(path.join(repo, 'tests', 'reference.rs'), 'utf8');
  const pinned = source.match(/const WHATWG_URL: &str = "whatwg-url@([^"]+)";/);
  assert.ok(pinned, 'tests/reference.rs pins no whatwg-url version (const WHATWG_URL)');
  return pinned[1];
}


test('the page\'s whatwg-url is the version tests/reference.rs pins, locked', () => {
  const version = referenceVersion();
  const manifest = JSON.parse(fs.readFileSync(path.join(reading, 'package.json'), 'utf8'));
  const lock = JSON.parse(fs.readFileSync(path.join(reading, 'package-lock.json'), 'utf8'));
  assert.equal(manifest.dependencies['whatwg-url'], version, 'scripts/web-readings/whatwg-url/package.json');
  assert.equal(lock.packages['node_modules/whatwg-url'].version, version, 'scripts/web-readings/whatwg-url/package-lock.json');
  assert.equal(lock.packages[''].dependencies['whatwg-url'], version, 'the lock file is of this package.json');
});

test('the page\'s whatwg-url reading is the reference\'s, input for input', async (t) => {
  const root = await pageUrl();
  if (await notBuilt(t, root, 'whatwg-url')) return;
  const ours = engine();
  const theirs = native();

  const context = await browser.newContext();
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  // The page's own origin and Content-Security-Policy (worker-src 'self'), as the page starts it.
  await page.goto(root);
  const run = await page.evaluate(async (requests) => {
    const worker = new Worker('readings/whatwg-url/worker.js', { type: 'module' });
    const next = () => new Promise((resolve) => {
      worker.onmessage = (event) => resolve(event.data);
      worker.onerror = (event) => resolve({ type: 'error', message: event.message });
    });
    const started = performance.now();
    const ready = await next();
    const startup = performance.now() - started;
    if (ready.type !== 'ready') return { ready };
    // One at a time, timed from the request to its answer.
    const answers = [];
    const times = [];
    for (const [id, { input, base }] of requests.entries()) {
      const answered = next();
      const sent = performance.now();
      worker.postMessage({ type: 'read', id, input, base });
      const answer = await answered;
      times.push(performance.now() - sent);
      answers.push(answer);
    }
    // All at once, as a fast typist's keystrokes come: answered in order, each once.
    const order = [];
    const all = new Promise((resolve) => {
      worker.onmessage = (event) => {
        order.push(event.data.id);
        if (order.length === requests.length) resolve();
      };
    });
    requests.forEach(({ input, base }, id) => worker.postMessage({ type: 'read', id: 1000 + id, input, base }));
    await all;
    worker.terminate();
    return { ready, startup, answers, times, order };
  }, all);

  assert.equal(run.ready.type, 'ready', `the worker did not start: ${JSON.stringify(run.ready)}`);
  assert.equal(run.ready.parsers.length, 1, JSON.stringify(run.ready));
  const { name, implementation, version } = run.ready.parsers[0];
  assert.equal(name, 'whatwg-url');
  assert.equal(version, referenceVersion(), 'the version the worker read from the package it bundles');
  assert.equal(implementation, `whatwg-url ${version} (the URL Standard's reference implementation)`);

  const differences = [];
  all.forEach((request, i) => {
    const { input, base } = request;
    const what = `input ${JSON.stringify(input)}${base === null ? '' : ` against ${JSON.stringify(base)}`}`;
    const message = run.answers[i];
    assert.equal(message.type, 'reading', what);
    assert.equal(message.id, i, what);
    assert.deepEqual(Object.keys(message.answers), ['whatwg-url'], what);
    const answer = message.answers['whatwg-url'];
    // diff --json's fields, in its order.
    assert.deepEqual(Object.keys(answer), ['available', 'version', ...FIELDS], what);
    assert.equal(answer.available, true, what);
    assert.equal(answer.version, version, what);
    // The terminal's code over the same package in Node: exactly, the failures' messages too.
    const { available, version: _, ...reading } = answer;
    assert.deepEqual(reading, theirs.get(key(request)), `${what}: the page's whatwg-url differs from the same package read natively by assets/parsers/node.js`);
    // urlscope's record, through the API's getters.
    const record = ours.get(key(request));
    if (record === undefined) return;
    const view = throughTheApi(record);
    const api = answer.failure ? { failure: true } : Object.fromEntries(Object.keys(view).map((k) => [k, answer[k]]));
    if (JSON.stringify(api) !== JSON.stringify(view)) {
      differences.push(`${what}\n  whatwg-url ${JSON.stringify(answer)}\n  urlscope   ${JSON.stringify(record)}`);
    }
  });
  assert.deepEqual(differences, [], `whatwg-url and urlscope read ${differences.length} inputs differently:\n${differences.join('\n')}`);
  assert.deepEqual(run.order, all.map((_, id) => 1000 + id), 'answers to requests sent at once come back in order');
  assert.deepEqual(errors, []);

  const sorted = [...run.times].sort((a, b) => a - b);
  t.diagnostic(`whatwg-url reading: ready in ${run.startup.toFixed(0)} ms; ${all.length} reads, request to answer `
    + `median ${percentile(sorted, 0.5).toFixed(1)} ms, p95 ${percentile(sorted, 0.95).toFixed(1)} ms, max ${sorted.at(-1).toFixed(1)} ms`);
  await context.close();
});
