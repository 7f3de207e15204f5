// The page's curl reading (readings/curl/worker.js: libcurl's URL API compiled to WebAssembly
// with Emscripten from curl-sys's libcurl, and scripts/web-readings/curl/reading.c) in Chromium,
// on every input of tests/data/diff_corpus.jsonl, a few more, and a few resolved against a base.
//
// Two oracles:
// - the same reading.c and the same libcurl source compiled natively with the system's C
//   compiler (`scripts/web-readings/curl/build --native`): the page must give its answers byte
//   for byte, version included. This holds whatever libcurl the terminal links.
// - `urlscope diff --json --parsers curl`. The terminal reads with the system's libcurl when
//   pkg-config finds one (Debian 12: 7.88.1), else with curl-sys's (the page's, "(bundled)"):
//   with the same version the answers must be equal field for field; with another, only what
//   every libcurl since 7.80 (curl-urlapi's floor) gives alike is compared (see `invariant`).
//
// - where the Python package is built (.venv, or URLSCOPE_PYTHON), its urlscope.diff: the
//   terminal's own reading (src/diff/libcurl.rs) over the libcurl curl-sys builds into the
//   package, the page's version: equal field for field, NULs included. This is what holds
//   reading.c to src/diff/libcurl.rs when the command line links another libcurl.
//
// Without emcc the page has no curl reading (readings/curl/unavailable.txt says why) and this
// says it skipped, unless URLSCOPE_REQUIRE_BROWSER=1.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { launch, pageUrl, stop } from './page.mjs';
import { corpus, diffReading, notBuilt, percentile, repo } from './reading.mjs';


/// Beyond the corpus: an IPv6 zone, an encoded host, a port too large, a scheme libcurl knows
/// but was built without, code points outside ASCII and the BMP (libcurl's bytes, decoded), a
/// bad escape, a scheme without authority, the empty port, and 1 MiB of path.
const extra = ['http://[fe80::1%25eth0]:8080/', 'http://%41.com/', 'HTTP://USER:PW@HOST:65536/',
  'sftp://a/~/x', 'ftp://a/;type=i', 'http://ä.de/ÿ?\u2028#😀', 'http://a/%zz', 'mailto:a@b',
  'http://a:/', 'http://a/' + 'b'.repeat(1 << 20)];
/// Resolved against a base, as libcurl follows a redirect (the input set on the base's handle);
/// a base libcurl refuses, and (for the native oracle only: no command line carries it) a NUL.
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
const IMPLEMENTATION = "libcurl's URL API (curl_url) compiled to WebAssembly with Emscripten";

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); await stop(); });

/// The native build's answers, in order (native.c's protocol: a header line of byte lengths,
/// then the bytes). Its output is decoded as the worker decodes the module's (UTF-8, U+FFFD for
/// what is not).
function native(requests) {
  const build = spawnSync(path.join(repo, 'scripts', 'web-readings', 'curl', 'build'), ['--native'], { encoding: 'utf8' });
  assert.equal(build.status, 0, `scripts/web-readings/curl/build --native failed:\n${build.stderr}`);
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

/// `urlscope diff --json --parsers curl`'s reading of each request it can take, by request: one
/// run per base over standard input (split at "\n" only; no input holds one).
function terminal() {
  return diffReading(requests.filter((r) => !r.nativeOnly), 'curl');
}

/// The Python package's urlscope.diff reading of every request, when the package is importable
/// (else null): the terminal's reading code with the libcurl linked into the package.
function pythonPackage() {
  const python = process.env.URLSCOPE_PYTHON ?? path.join(repo, '.venv', 'bin', 'python');
  if (!fs.existsSync(python)) return null;
  const run = spawnSync(python, ['-c', `
import json, sys, urlscope
for line in sys.stdin:
    request = json.loads(line)
    print(json.dumps(urlscope.diff(request["input"], parsers=["curl"], base=request["base"])["parsers"]["curl"]))
`], { input: requests.map(({ input, base }) => `${JSON.stringify({ input, base })}\n`).join(''), encoding: 'utf8', maxBuffer: 64 << 20 });
  if (run.status !== 0) return null;
  const lines = run.stdout.split('\n').filter((line) => line !== '');
  assert.equal(lines.length, requests.length, `${python}: ${lines.length} answers for ${requests.length} requests\n${run.stderr}`);
  return lines.map((line) => JSON.parse(line));
}

/// Whether a host ends in a number, as the URL Standard's ends-in-a-number checker reads a host
/// (its last label, less one trailing dot, is digits or 0x and hex digits): an IPv4 address in
/// some notation. libcurl's rewriting of such hosts changed between releases (8.x writes
/// "127.0.0.1." as "127.0.0.1", 7.88.1 keeps the dot), so their spelling is version-dependent.
function endsInANumber(host) {
  const labels = host.split('.');
  if (labels.at(-1) === '' && labels.length > 1) labels.pop();
  return /^(\d+|0x[0-9a-f]*)$/i.test(labels.at(-1));
}

/// What two libcurls since 7.80 read alike, whatever their versions: a URL holding a control
/// code or a space is refused; where both parse, the scheme, host and port (the destination, as
/// `decide` compares it) are the same unless the host ends in a number. Since the URL API came
/// (7.62) the scheme is what precedes "://" (or the base's), lowercased; the authority runs to
/// the first "/", "?" or "#"; the userinfo ends at its first "@", and the port starts at the
/// first ":" after the host (after the "]" of a bracketed one); none of that moved in any
/// release. What did move, and is not compared:
/// which other inputs are refused and with which CURLUcode (8.x refuses a file: URL with
/// backslashes that 7.88.1 reads, and says "Malformed input" where 7.88.1 says "Bad hostname"
/// of a space or a control), how a path is normalised, and an IPv4 host's spelling.
function invariant(request, page, term, what) {
  // Every URL API since 7.62 scans the whole URL first and refuses a control code or a space
  // (junkscan, CURLUE_MALFORMED_INPUT then, a more specific code in 7.8x): which code is
  // version-dependent, the refusal is not.
  if ([request.input, request.base ?? ''].some((text) => /[\u0000-\u0020\u007f]/.test(text))) {
    assert.ok(page.failure && term.failure, `${what}: a URL with a control code or a space is read: the page ${JSON.stringify(page)}, the terminal ${JSON.stringify(term)}`);
    return true;
  }
  if (page.failure || term.failure) return false;
  if (page.host !== null && endsInANumber(page.host)) return false;
  if (term.host !== null && endsInANumber(term.host)) return false;
  for (const part of ['scheme', 'host', 'port']) {
    assert.equal(page[part], term[part], `${what}: ${part}: the page ${JSON.stringify(page[part])}, the terminal (libcurl ${term.version}) ${JSON.stringify(term[part])}`);
  }
  return true;
}

/// What every answer is: diff's fields in diff's order; a failure with libcurl's (or curl-urlapi's)
/// message and its CURLUcode and no part; a reading with text or null in each part and in
/// `error` only "PART: MESSAGE (CURLUcode N)"s.
function shape(answer, what) {
  assert.deepEqual(Object.keys(answer), FIELDS, what);
  assert.equal(answer.available, true, what);
  assert.equal(typeof answer.version, 'string', what);
  if (answer.failure) {
    assert.match(answer.error, /^(the base is not a URL: )?.+ \(CURLUcode -?\d+\)$/, what);
    for (const part of FIELDS.slice(4)) assert.equal(answer[part], null, `${what}: ${part}`);
    return;
  }
  for (const part of FIELDS.slice(4)) assert.ok(answer[part] === null || typeof answer[part] === 'string', `${what}: ${part}`);
  if (answer.error !== null) assert.match(answer.error, /^[a-z]+: .+ \(CURLUcode \d+\)(; [a-z]+: .+ \(CURLUcode \d+\))*$/, what);
}


test("the page's curl reading is libcurl's, input for input", async (t) => {
  const root = await pageUrl();
  if (await notBuilt(t, root, 'curl')) return;
  const early = { input: 'http://early.example/', base: null };
  const natively = native([...requests, early]);
  const packaged = pythonPackage();
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
      const worker = new Worker('readings/curl/worker.js', options);
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
  assert.deepEqual(run.ready.parsers, [{ name: 'curl', implementation: IMPLEMENTATION, version }]);
  // curl-sys's libcurl, at the version of the curl-sys that Cargo.lock pins, named as the
  // terminal names a libcurl curl-sys built ("(bundled)").
  const pinned = fs.readFileSync(path.join(repo, 'Cargo.lock'), 'utf8').match(/name = "curl-sys"\nversion = "[^"]*\+curl-([^"]+)"/);
  assert.ok(pinned, 'Cargo.lock pins no curl-sys');
  assert.match(version, new RegExp(`^${pinned[1].replace(/\./g, '\\.')}(-DEV)? \\(bundled\\)$`));
  assert.deepEqual(run.earlyMessage, { type: 'reading', id: -1, answers: { curl: earlyAnswer } });
  assert.deepEqual(run.moduleReady, run.ready);
  assert.deepEqual(run.moduleAnswer, { type: 'reading', id: 7, answers: { curl: natively[0] } });
  assert.deepEqual(run.order, requests.map((_, id) => 1000 + id), 'answers out of order');

  const anyTerminal = [...expected.values()][0];
  const sameVersion = anyTerminal.version === version;
  const counts = { native: 0, python: 0, terminalExact: 0, terminalInvariant: 0, terminalVersionDependent: 0 };
  requests.forEach((request, i) => {
    const { input, base } = request;
    const what = `input ${JSON.stringify(input.length > 200 ? `${input.slice(0, 200)}…` : input)}${base === null ? '' : ` against ${JSON.stringify(base)}`}`;
    const message = run.answers[i];
    assert.equal(message.type, 'reading', what);
    assert.equal(message.id, i, what);
    assert.deepEqual(Object.keys(message.answers), ['curl'], what);
    const mine = message.answers.curl;
    shape(mine, what);
    assert.deepEqual(mine, natively[i], `${what}: the page's reading differs from the same code built natively`);
    counts.native += 1;
    if (packaged && packaged[i].version === mine.version) {
      assert.deepEqual(mine, packaged[i], `${what}: the page's reading differs from the Python package's urlscope.diff (the same libcurl, ${mine.version})`);
      counts.python += 1;
    }
    if (request.nativeOnly) return;
    const want = expected.get(JSON.stringify([base, input]));
    shape(want, `${what} (the terminal)`);
    if (sameVersion) {
      assert.deepEqual(mine, want, `${what}: the page's curl reading differs from urlscope diff --json (the same libcurl, ${version})`);
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
  t.diagnostic(`page: libcurl ${version}; terminal: libcurl ${anyTerminal.version}`);
  t.diagnostic(`${requests.length} requests: ${counts.native} equal to the native build, ${counts.python} to the Python package's urlscope.diff${packaged ? '' : ' (not built here)'}; against the terminal, ${counts.terminalExact} equal, `
    + `${counts.terminalInvariant} alike where every version is (the same destination, or refused), ${counts.terminalVersionDependent} left to the versions (a refusal, an IPv4 host)`);
  t.diagnostic(`start ${run.startup.toFixed(1)} ms; read to answer: p50 ${percentile(sorted, 0.5).toFixed(2)} ms, p95 ${percentile(sorted, 0.95).toFixed(2)} ms, max ${sorted.at(-1).toFixed(2)} ms`);
  await context.close();
});
