// The page's node reading (readings/node/worker.js: Ada, the URL parser of Node's global URL,
// from the source the ada-url crate carries, compiled to WebAssembly with reading.cpp of
// scripts/web-readings/node/) in Chromium, on every input of tests/data/diff_corpus.jsonl, a
// few more, and a few resolved against a base.
//
// Two oracles:
// - the same reading.cpp and the same Ada source compiled natively with the system's C++
//   compiler (`scripts/web-readings/node/build --native`): the page must give its answers byte
//   for byte, version included.
// - `urlscope diff --json --parsers node`: Node's own URL, with the Ada that Node bundles (Node
//   20: Ada 2.9.2): equal field for field where that Ada is the page's, else only what every
//   Ada gives alike is compared (see `invariant`).
//
// Without clang 16 for wasm32-wasi the page has no node reading (readings/node/unavailable.txt
// says why) and this says it skipped, unless URLSCOPE_REQUIRE_BROWSER=1.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { launch, pageUrl, stop } from './page.mjs';
import { corpus, diffReading, notBuilt, percentile, repo } from './reading.mjs';


/// Beyond the corpus: an IPv6 zone, an encoded host, a port too large, a non-special scheme,
/// code points outside ASCII and the BMP, IDNA's deviation characters and ideographic full stop,
/// a soft hyphen, punycode labels, IPv4 in five parts and past 2^32, a forbidden host code point,
/// opaque paths with spaces, the empty port, and 1 MiB of path.
const extra = ['http://[fe80::1%25eth0]:8080/', 'http://%41.com/', 'HTTP://USER:PW@HOST:65536/',
  'sftp://a/~/x', 'http://ä.de/ÿ?\u2028#😀', 'http://ß.de/', 'http://a.b\u3002c/', 'http://a/\u00ad',
  'http://\u00ad/', 'http://xn--a.com/', 'http://xn--/', 'http://1.2.3.4.5/', 'http://0x100000000/',
  'http://a^b/', 'foo://a^b/', 'javascript:alert(1) ', 'data:text/html, x ?y', 'http://a/%zz',
  'mailto:a@b', 'http://a:/', 'http://a/' + 'b'.repeat(1 << 20)];
/// Resolved against a base (`new URL(input, base)`); a base that is no URL, and (for the native
/// oracle only: no command line carries it) a NUL in the base.
const based = [
  { base: 'http://user:pass@example.com:8080/a/b/c;p?q#f', inputs: ['../d', '//evil.com/x', '?y', '#g', 'https:evil.com', '/\\evil.com', '\\\\evil.com', '../../../..//x', ''] },
  { base: 'file:///etc/passwd', inputs: ['?q', 'x'] },
  { base: 'http://[::1', inputs: ['x'] },
  { base: 'http://a/\u0000', inputs: ['x'], nativeOnly: true },
];
const requests = [
  ...[...corpus.map((row) => row.input), ...extra].map((input) => ({ input, base: null })),
  ...based.flatMap(({ base, inputs, nativeOnly }) => inputs.map((input) => ({ input, base, nativeOnly: !!nativeOnly }))),
];
const FIELDS = ['available', 'version', 'failure', 'error', 'scheme', 'username', 'password', 'host', 'port', 'path', 'query', 'fragment'];

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); await stop(); });

/// The native build's answers, in order (native.c's protocol: a header line of byte lengths,
/// then the bytes). Its output is decoded as the worker decodes the module's (UTF-8, U+FFFD for
/// what is not).
function native(requests) {
  const build = spawnSync(path.join(repo, 'scripts', 'web-readings', 'node', 'build'), ['--native'], { encoding: 'utf8' });
  assert.equal(build.status, 0, `scripts/web-readings/node/build --native failed:\n${build.stderr}`);
  const command = build.stdout.trim();
  const chunks = [];
  for (const { input, base } of requests) {
    const i = Buffer.from(input, 'utf8');
    const b = base === null ? null : Buffer.from(base, 'utf8');
    chunks.push(Buffer.from(`${i.length} ${b === null ? -1 : b.length}\n`), i, ...(b === null ? [] : [b]));
  }
  const run = spawnSync(command, [], { input: Buffer.concat(chunks), maxBuffer: 64 << 20 });
  assert.equal(run.status, 0, `${command}: exit ${run.status}\n${run.stderr}`);
  const lines = new TextDecoder().decode(run.stdout).split('\n').slice(0, -1);
  assert.equal(lines.length, requests.length, `${command}: ${lines.length} answers for ${requests.length} requests`);
  return lines.map((line) => JSON.parse(line));
}

/// `urlscope diff --json --parsers node`'s reading of each request it can take, by request: one
/// run per base over standard input (split at "\n" only; no input holds one).
function terminal() {
  return diffReading(requests.filter((r) => !r.nativeOnly), 'node');
}

/// What two Adas (and so two Nodes) read alike, whatever their versions: where both parse an
/// input and base of ASCII without a punycode label ("xn--"), the same scheme, hostname and
/// port, the destination as `decide` compares it. Both implement the URL Standard's basic URL
/// parser, whose scheme, authority and port states and whose ASCII host parsing (forbidden
/// domain code points, the IPv4 and IPv6 parsers) did not change between Ada 2.0 (2023) and
/// now. What did change, and is not compared: the checks of punycode labels (Ada 4 reads
/// "http://xn--a.com/", which Ada 2.9.2 refuses), the Unicode data behind IDNA for a
/// non-ASCII host, and, anywhere else, which inputs fail.
function invariant(request, page, term, what) {
  if ([request.input, request.base ?? ''].some((text) => /[^\u0000-\u007f]|xn--/i.test(text))) return false;
  if (page.failure || term.failure) return false;
  for (const part of ['scheme', 'host', 'port']) {
    assert.equal(page[part], term[part], `${what}: ${part}: the page ${JSON.stringify(page[part])}, the terminal (Node ${term.version}) ${JSON.stringify(term[part])}`);
  }
  return true;
}

/// What every answer is: diff's fields in diff's order; a failure with Node's words for the
/// TypeError and no part; else a string in every part (the URL API has no null).
function shape(answer, what) {
  assert.deepEqual(Object.keys(answer), FIELDS, what);
  assert.equal(answer.available, true, what);
  assert.equal(typeof answer.version, 'string', what);
  if (answer.failure) {
    assert.equal(answer.error, 'ERR_INVALID_URL: Invalid URL', what);
    for (const part of FIELDS.slice(4)) assert.equal(answer[part], null, `${what}: ${part}`);
    return;
  }
  assert.equal(answer.error, null, what);
  for (const part of FIELDS.slice(4)) assert.equal(typeof answer[part], 'string', `${what}: ${part}`);
}


test("the page's node reading is Ada's, input for input", async (t) => {
  const root = await pageUrl();
  if (await notBuilt(t, root, 'node')) return;
  const early = { input: 'http://early.example/', base: null };
  const natively = native([...requests, early]);
  const earlyAnswer = natively.pop();
  const expected = terminal();

  const context = await browser.newContext();
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  const elsewhere = [];
  context.on('request', (r) => { if (!r.url().startsWith(root)) elsewhere.push(r.url()); });
  // The page's own origin and Content-Security-Policy (worker-src 'self'), as the page starts it.
  await page.goto(root);
  const run = await page.evaluate(async ({ requests, early }) => {
    const start = (options) => {
      const worker = new Worker('readings/node/worker.js', options);
      const messages = [];
      let wake = null;
      worker.onmessage = (event) => { messages.push(event.data); wake?.(); };
      worker.onerror = (event) => { messages.push({ type: 'error', message: event.message }); wake?.(); };
      const next = async () => {
        while (messages.length === 0) await new Promise((resolve) => { wake = resolve; });
        return messages.shift();
      };
      return { worker, next };
    };
    const { worker, next } = start();
    const started = performance.now();
    // A request sent before the worker is ready is answered once it is, after "ready".
    worker.postMessage({ type: 'read', id: -1, ...early });
    const ready = await next();
    const startup = performance.now() - started;
    if (ready.type !== 'ready') return { ready };
    const earlyMessage = await next();
    // One at a time, timed from the request to its answer.
    const answers = [];
    const times = [];
    for (const [id, { input, base }] of requests.entries()) {
      const sent = performance.now();
      worker.postMessage({ type: 'read', id, input, base });
      answers.push(await next());
      times.push(performance.now() - sent);
    }
    // All at once, as a fast typist's keystrokes come: answered in order, each once.
    requests.forEach(({ input, base }, id) => worker.postMessage({ type: 'read', id: 1000 + id, input, base }));
    const order = [];
    for (let i = 0; i < requests.length; i += 1) order.push((await next()).id);
    worker.terminate();
    // Started as a module worker (the page may start either), it reads alike.
    const module = start({ type: 'module' });
    const moduleReady = await module.next();
    let moduleAnswer = null;
    if (moduleReady.type === 'ready') {
      module.worker.postMessage({ type: 'read', id: 7, input: requests[0].input, base: requests[0].base });
      moduleAnswer = await module.next();
    }
    module.worker.terminate();
    return { ready, startup, earlyMessage, answers, times, order, moduleReady, moduleAnswer };
  }, { requests: requests.map(({ input, base }) => ({ input, base })), early });

  assert.equal(run.ready.type, 'ready', `the worker did not start: ${JSON.stringify(run.ready)}`);
  const version = natively[0].version;
  assert.deepEqual(run.ready.parsers, [{ name: 'node', implementation: `Ada ${version} (Node's URL parser) compiled to WebAssembly`, version }]);
  // The ada-url crate's Ada, whose version is the crate's (Cargo.lock pins it).
  const pinned = fs.readFileSync(path.join(repo, 'Cargo.lock'), 'utf8').match(/name = "ada-url"\nversion = "([^"]+)"/);
  assert.ok(pinned, 'Cargo.lock pins no ada-url');
  assert.equal(version, pinned[1]);
  assert.deepEqual(run.earlyMessage, { type: 'reading', id: -1, answers: { node: earlyAnswer } });
  assert.deepEqual(run.moduleReady, run.ready);
  assert.deepEqual(run.moduleAnswer, { type: 'reading', id: 7, answers: { node: natively[0] } });
  assert.deepEqual(run.order, requests.map((_, id) => 1000 + id), 'answers out of order');

  const anyTerminal = [...expected.values()][0];
  // The terminal's Node is the one on PATH, as is this script's: its Ada is process.versions.ada.
  const sameVersion = anyTerminal.version === process.versions.node && process.versions.ada === version;
  const counts = { native: 0, terminalExact: 0, terminalInvariant: 0, terminalVersionDependent: 0 };
  requests.forEach((request, i) => {
    const { input, base } = request;
    const what = `input ${JSON.stringify(input.length > 200 ? `${input.slice(0, 200)}…` : input)}${base === null ? '' : ` against ${JSON.stringify(base)}`}`;
    const message = run.answers[i];
    assert.equal(message.type, 'reading', what);
    assert.equal(message.id, i, what);
    assert.deepEqual(Object.keys(message.answers), ['node'], what);
    const mine = message.answers.node;
    shape(mine, what);
    assert.deepEqual(mine, natively[i], `${what}: the page's reading differs from the same code built natively`);
    counts.native += 1;
    if (request.nativeOnly) return;
    const want = expected.get(JSON.stringify([base, input]));
    shape(want, `${what} (the terminal)`);
    if (sameVersion) {
      assert.deepEqual(mine, want, `${what}: the page's node reading differs from urlscope diff --json (the same Ada, ${version})`);
      counts.terminalExact += 1;
    } else if (invariant(request, mine, want, what)) {
      counts.terminalInvariant += 1;
    } else {
      counts.terminalVersionDependent += 1;
    }
  });
  assert.deepEqual(errors, []);
  assert.deepEqual(elsewhere, [], 'the worker asked another origin');

  const sorted = [...run.times].sort((a, b) => a - b);
  t.diagnostic(`page: Ada ${version}; terminal: Node ${anyTerminal.version} (Ada ${process.versions.ada})`);
  t.diagnostic(`${requests.length} requests: ${counts.native} equal to the native build; against the terminal, ${counts.terminalExact} equal, `
    + `${counts.terminalInvariant} with the same destination, ${counts.terminalVersionDependent} left to the versions (a failure, non-ASCII or punycode)`);
  t.diagnostic(`start ${run.startup.toFixed(1)} ms; read to answer: p50 ${percentile(sorted, 0.5).toFixed(2)} ms, p95 ${percentile(sorted, 0.95).toFixed(2)} ms, max ${sorted.at(-1).toFixed(2)} ms`);
  await context.close();
});
