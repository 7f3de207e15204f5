// The page's node-legacy reading (readings/node-legacy/worker.js: Node's own lib/url.js and the
// modules url.parse runs, as the Node that built the page embeds them, read by
// assets/parsers/node.js's legacy(), with ada's IDNA compiled to idna.wasm: see
// scripts/web-readings/node-legacy/assemble.mjs) in Chromium, held to the terminal's: every
// input of tests/data/diff_corpus.jsonl, hosts that reach the IDNA (toASCII) and a few resolved
// against a base, each answer compared with what `urlscope diff --json --parsers node-legacy`
// prints under parsers["node-legacy"], exactly when the two Node versions are the same (else
// only the reading's shape), and with the terminal's adapter run directly for the inputs the
// command line cannot take (lone surrogates). Without the reading (readings/node-legacy/
// unavailable.txt says why) this says it skipped, unless URLSCOPE_REQUIRE_BROWSER=1.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { launch, pageUrl, stop } from './page.mjs';
import { corpus, diffReading, generatedHosts, key, notBuilt, percentile, repo } from './reading.mjs';

const NAME = 'node-legacy';
const FIELDS = ['failure', 'error', 'scheme', 'username', 'password', 'host', 'port', 'path', 'query', 'fragment'];

/// Inputs beyond the corpus, on url.parse's own paths: hosts through ada's IDNA (a deviation
/// character, an upper-case Unicode name, Punycode that does not decode, an empty label, a soft
/// hyphen alone, an emoji, a host over 255 code points), the hostless javascript:, an IPv6
/// host, a space, userinfo with an "@", a port out of range (DEP0170), the empty string.
const extra = ['http://faß.de/', 'http://BÜCHER.de/x', 'http://xn--a/', 'http://a..b/', 'http://\u00AD/',
  'http://😀.example/😀?😀#😀', `http://${'a'.repeat(300)}/`, 'javascript:alert(1)', 'http://[::1]:80/',
  'http://a b/', 'HTTP://User:Pa@ss@Host:99/p?q#f', 'mailto:x@y', 'http://x:99999/', 'http://%41/', ''];
/// Inputs resolved against a base (url.resolve(base, input), then url.parse).
const based = [
  { base: 'http://user:pass@example.com:8080/a/b/c;p?q#f', inputs: ['../d', '//evil.com/x', '?y', '#g', 'https:evil.com', '/\\evil.com', 'g;x?y#s', '../../../..//x', ''] },
  { base: 'file:///C:/dir/file', inputs: ['..', '/x', 'C|/y', '//host/share'] },
  { base: 'javascript:void(0)', inputs: ['x', '#f'] },
];
/// Inputs only the terminal's adapter, run directly, can take: the command line reads UTF-8.
const surrogates = ['http://\uD800/', 'http://u\uDC00:p@h/', 'http://h/\uDC00?\uD83D#x'];
const requests = [
  ...[...corpus.map((row) => row.input), ...extra, ...generatedHosts(400)].map((input) => ({ input, base: null })),
  ...based.flatMap(({ base, inputs }) => inputs.map((input) => ({ input, base }))),
];
const all = [...requests, ...surrogates.map((input) => ({ input, base: null }))];

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); await stop(); });

/// `urlscope diff --json --parsers node-legacy`'s reading of each request: one run per base.
function terminal() {
  return diffReading(requests, NAME);
}

/// The terminal's adapter, `node assets/parsers/node.js legacy`, run directly over the adapter
/// protocol: its version and its answers by request, a missing field null as the terminal
/// reads it.
function adapter() {
  const input = all.map(({ input, base }, id) => `${JSON.stringify({ id, input, base })}\n`).join('');
  const run = spawnSync('node', [path.join(repo, 'assets', 'parsers', 'node.js'), 'legacy'], { input, encoding: 'utf8' });
  assert.equal(run.status, 0, `node assets/parsers/node.js legacy: ${run.stderr}`);
  const [hello, ...lines] = run.stdout.split('\n').filter((line) => line !== '').map((line) => JSON.parse(line));
  assert.equal(hello.available, true, JSON.stringify(hello));
  assert.equal(lines.length, all.length, run.stderr);
  const answers = new Map();
  lines.forEach((answer, id) => {
    assert.equal(answer.id, id);
    answers.set(key(all[id]), Object.fromEntries(FIELDS.map((field) => [field, answer[field] ?? null])));
  });
  return { version: hello.version, answers };
}

/// What holds for url.parse's reading whatever Node's version: its fields, a failure with its
/// message and no part, a success whose parts are strings or null.
function shape(answer, what) {
  assert.deepEqual(Object.keys(answer), ['available', 'version', ...FIELDS], what);
  assert.equal(answer.available, true, what);
  if (answer.failure) {
    assert.equal(typeof answer.error, 'string', what);
    for (const part of FIELDS.slice(2)) assert.equal(answer[part], null, `${what}: ${part}`);
  } else {
    assert.equal(answer.error, null, what);
    for (const part of FIELDS.slice(2)) assert.ok(answer[part] === null || typeof answer[part] === 'string', `${what}: ${part}`);
  }
}


test('the page\'s node-legacy reading is the terminal\'s, input for input', async (t) => {
  const root = await pageUrl();
  if (await notBuilt(t, root, NAME)) return;
  const expected = terminal();
  const direct = adapter();

  const context = await browser.newContext();
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  // The page's own origin and Content-Security-Policy (worker-src 'self'), as the page starts it.
  await page.goto(root);
  const run = await page.evaluate(async ({ requests, name }) => {
    const worker = new Worker(`readings/${name}/worker.js`, { type: 'module' });
    const next = () => new Promise((resolve) => {
      worker.onmessage = (event) => resolve(event.data);
      worker.onerror = (event) => resolve({ type: 'error', message: event.message });
    });
    const started = performance.now();
    const ready = await next();
    const startup = performance.now() - started;
    if (ready.type !== 'ready') return { ready };
    const answers = [];
    const times = [];
    for (const [id, { input, base }] of requests.entries()) {
      const answered = next();
      const sent = performance.now();
      worker.postMessage({ type: 'read', id, input, base });
      answers.push(await answered);
      times.push(performance.now() - sent);
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
  }, { requests: all, name: NAME });

  assert.equal(run.ready.type, 'ready', `the worker did not start: ${JSON.stringify(run.ready)}`);
  assert.equal(run.ready.parsers.length, 1, JSON.stringify(run.ready));
  const { name, implementation, version } = run.ready.parsers[0];
  assert.equal(name, NAME);
  // The version as the terminal's adapter gives it: Node's, without its "v".
  assert.match(version, /^\d+\.\d+\.\d+$/);
  assert.match(implementation, new RegExp(`^Node ${version.replaceAll('.', '\\.')}'s url\\.parse \\(its lib/url\\.js, with ada \\d+\\.\\d+\\.\\d+'s IDNA compiled to WebAssembly\\)$`));
  const terminalVersion = [...expected.values()][0].version;
  const same = version === terminalVersion && version === direct.version;
  if (!same) t.diagnostic(`Node ${version} built the page, ${terminalVersion} reads in the terminal: only the readings' shape is compared`);

  all.forEach((request, i) => {
    const what = `input ${JSON.stringify(request.input)}${request.base === null ? '' : ` against ${JSON.stringify(request.base)}`}`;
    const message = run.answers[i];
    assert.equal(message.type, 'reading', what);
    assert.equal(message.id, i, what);
    assert.deepEqual(Object.keys(message.answers), [NAME], what);
    const answer = message.answers[NAME];
    shape(answer, what);
    assert.equal(answer.version, version, what);
    if (!same) return;
    const { available, version: _, ...reading } = answer;
    assert.deepEqual(reading, direct.answers.get(key(request)), `${what}: the page's url.parse differs from node assets/parsers/node.js legacy`);
    const want = expected.get(key(request));
    if (want !== undefined) {
      assert.deepEqual(answer, want, `${what}: the page's url.parse differs from urlscope diff --json --parsers ${NAME}`);
      assert.deepEqual(Object.keys(answer), Object.keys(want), what);
    }
  });
  assert.deepEqual(run.order, all.map((_, id) => 1000 + id), 'answers to requests sent at once come back in order');
  assert.deepEqual(errors, []);

  const sorted = [...run.times].sort((a, b) => a - b);
  t.diagnostic(`${NAME} reading: ready in ${run.startup.toFixed(0)} ms; ${all.length} reads, request to answer `
    + `median ${percentile(sorted, 0.5).toFixed(1)} ms, p95 ${percentile(sorted, 0.95).toFixed(1)} ms, max ${sorted.at(-1).toFixed(1)} ms`);
  await context.close();
});
