// The page's Go reading (readings/go/worker.js: assets/parsers/go.go's read() compiled to
// WebAssembly) in Chromium, held to the terminal's: every input of tests/data/diff_corpus.jsonl
// and a few resolved against a base, each answer compared with what `urlscope diff --json
// --parsers go` prints under parsers.go for the same input. Both come from Debian's golang-go
// here, so they must be equal, field for field; where the two Go versions differ, only what
// every version gives is checked (the reading's shape: see `shape`). Without go the page has no
// Go reading (readings/go/unavailable.txt says why) and this says it skipped, unless
// URLSCOPE_REQUIRE_BROWSER=1.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, pageUrl, stop } from './page.mjs';
import { corpus, diffReading, notBuilt, percentile } from './reading.mjs';


/// Inputs beyond the corpus: a byte that is not UTF-8 once Go decodes the host (each bad byte is
/// U+FFFD in the terminal's JSON, and must be here too), code points outside the BMP, the empty
/// string.
const extra = ['http://%ff/', 'http://%e2%82/x', 'http://ex%41mple.com/%zz', 'http://😀.example/😀?😀#😀', ''];
/// Inputs resolved against a base, by Go's URL.Parse on the parsed base (go.go's read()); the
/// last base does not parse, which is its own failure.
const based = [
  { base: 'http://user:pass@example.com:8080/a/b/c;p?q#f', inputs: ['../d', '//evil.com/x', '?y', '#g', 'https:evil.com', '/\\evil.com', 'g;x?y#s', '../../../..//x', ''] },
  { base: 'http://[::1', inputs: ['x'] },
];
const requests = [
  ...[...corpus.map((row) => row.input), ...extra].map((input) => ({ input, base: null })),
  ...based.flatMap(({ base, inputs }) => inputs.map((input) => ({ input, base }))),
];

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); await stop(); });

/// `urlscope diff --json --parsers go`'s parsers.go for each request: one run per base, over
/// standard input (split at "\n" only, so a CR stays in its input; no input holds a "\n").
function terminal() {
  return diffReading(requests, 'go');
}

/// What holds for the Go reading whatever Go's version: its fields, a failure with its message
/// and no part, a success with every part go.go always sets (scheme, host, port, path, query,
/// fragment: Go has no null for them) and userinfo null or text.
function shape(answer, what) {
  assert.deepEqual(Object.keys(answer), ['available', 'version', 'failure', 'error', 'scheme', 'username',
    'password', 'host', 'port', 'path', 'query', 'fragment'], what);
  assert.equal(answer.available, true, what);
  const parts = ['scheme', 'host', 'port', 'path', 'query', 'fragment'];
  if (answer.failure) {
    assert.equal(typeof answer.error, 'string', what);
    for (const part of [...parts, 'username', 'password']) assert.equal(answer[part], null, `${what}: ${part}`);
  } else {
    assert.equal(answer.error, null, what);
    for (const part of parts) assert.equal(typeof answer[part], 'string', `${what}: ${part}`);
    for (const part of ['username', 'password']) assert.ok(answer[part] === null || typeof answer[part] === 'string', `${what}: ${part}`);
  }
}


test('the page\'s Go reading is the terminal\'s, input for input', async (t) => {
  const root = await pageUrl();
  if (await notBuilt(t, root, 'go')) return;
  const expected = terminal();

  const context = await browser.newContext();
  const page = await context.newPage();
  // The page's own origin and Content-Security-Policy (worker-src 'self'), as the page starts it.
  await page.goto(root);
  const run = await page.evaluate(async (requests) => {
    const worker = new Worker('readings/go/worker.js', { type: 'module' });
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
  }, requests);

  assert.equal(run.ready.type, 'ready', `the worker did not start: ${JSON.stringify(run.ready)}`);
  assert.equal(run.ready.parsers.length, 1, JSON.stringify(run.ready));
  const { name, implementation, version } = run.ready.parsers[0];
  assert.equal(name, 'go');
  assert.equal(implementation, 'Go net/url (url.Parse, Hostname()) compiled to WebAssembly');
  // Go's version as go.go's hello gives it: runtime.Version() without its "go" ("1.19.8").
  assert.match(version, /^\d+\.\d+/);
  // The terminal's Go adapter is built once into the cache: after an upgrade of Go it may be
  // older than the page's module, whose readings may then differ.
  const terminalVersion = [...expected.values()][0].version;
  const same = version === terminalVersion;
  if (!same) t.diagnostic(`Go ${version} in the page, ${terminalVersion} in the terminal: only the readings' shape is compared`);

  requests.forEach(({ input, base }, i) => {
    const what = `input ${JSON.stringify(input)}${base === null ? '' : ` against ${JSON.stringify(base)}`}`;
    const message = run.answers[i];
    assert.equal(message.type, 'reading', what);
    assert.equal(message.id, i, what);
    assert.deepEqual(Object.keys(message.answers), ['go'], what);
    const answer = message.answers.go;
    const want = expected.get(JSON.stringify([base, input]));
    if (same) {
      assert.deepEqual(answer, want, `${what}: the page's Go reading differs from urlscope diff --json --parsers go`);
      // The same fields in diff's order too.
      assert.deepEqual(Object.keys(answer), Object.keys(want), what);
    }
    shape(answer, what);
    assert.equal(answer.version, version, what);
    shape(want, `${what} (the terminal)`);
  });
  assert.deepEqual(run.order, requests.map((_, id) => 1000 + id), 'answers to requests sent at once come back in order');

  const sorted = [...run.times].sort((a, b) => a - b);
  t.diagnostic(`Go reading: ready in ${run.startup.toFixed(0)} ms; ${requests.length} reads, request to answer `
    + `median ${percentile(sorted, 0.5).toFixed(1)} ms, p95 ${percentile(sorted, 0.95).toFixed(1)} ms, max ${sorted.at(-1).toFixed(1)} ms`);
  await context.close();
});
