// The page's python and urllib3 readings (readings/python/worker.js: assets/parsers/python.py,
// imported as a module into Pyodide, with the pinned urllib3 and idna wheels) in Chromium, held
// to the terminal's: every input of tests/data/diff_corpus.jsonl and a few resolved against a
// base, each answer compared with what `urlscope diff --json --parsers python,urllib3` prints
// under parsers.python and parsers.urllib3 for the same request.
//
// The two sides run different CPythons (Pyodide's, the terminal's python3), so each comparison
// is exact only where what decides the field is the same on both sides (see `pythonRule` and
// `urllib3Rule`); everything else is held to what every version gives (`shape`). Without the
// Pyodide npm package or the wheels the page has no Python reading (readings/python/
// unavailable.txt says why) and this says it skipped, unless URLSCOPE_REQUIRE_BROWSER=1.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { launch, pageUrl, stop } from './page.mjs';
import { corpus, diffReadings, notBuilt, percentile } from './reading.mjs';


/// Inputs beyond the corpus: a non-ASCII path and userinfo (urllib3 percent-encodes them
/// itself), a host idna refuses, code points outside the BMP, a bracketed host that is no IPv6
/// address, a port with a sign.
const extra = ['http://ü:ö@example.com/ä?ö#ü', 'http://a_b.de/', 'http://☃.net/', 'http://😀.example/😀?😀#😀',
  'http://[evil.com]/', 'http://h:+80/', '\t http://evil.com/'];
/// Inputs resolved against a base: by urljoin then urlsplit for python; urllib3's parse_url
/// resolves no base, which python.py says (`available: false`) whatever the input.
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

/// `urlscope diff --json --parsers python,urllib3`'s parsers for each request: one run per base,
/// over standard input (split at "\n" only, so a CR stays in its input; no input holds a "\n").
function terminal() {
  return diffReadings(requests, 'python,urllib3');
}

/// What decides a urllib3 reading besides urllib3 itself, on the terminal's side: whether idna
/// is importable (and its version) and the Unicode data idna and str.lower() use. The terminal
/// runs `python3` from PATH (src/diff/adapter.rs), as this does.
function terminalPython() {
  const run = spawnSync('python3', ['-c', `
import json, platform, unicodedata
try:
    import idna
    idna = idna.__version__
except ImportError:
    idna = None
print(json.dumps({"python": platform.python_version(), "unicode": unicodedata.unidata_version, "idna": idna}))
`], { encoding: 'utf8' });
  return run.status === 0 ? JSON.parse(run.stdout) : null;
}

const FIELDS = ['available', 'version', 'failure', 'error', 'scheme', 'username', 'password', 'host', 'port', 'path', 'query', 'fragment'];
const PARTS = FIELDS.slice(4);

/// What holds for either reading whatever the versions: diff's fields in diff's order; a
/// declined request (urllib3 with a base) with python.py's reason and nothing else; a failure
/// with its message and no part; a reading with text or null in every part, and for urlsplit
/// the four parts it always gives as text (scheme, path, query, fragment).
function shape(answer, parser, what) {
  assert.deepEqual(Object.keys(answer), FIELDS, what);
  assert.equal(typeof answer.version, 'string', what);
  if (!answer.available) {
    assert.equal(parser, 'urllib3', what);
    assert.equal(answer.error, "urllib3's parse_url does not resolve a base", what);
  }
  if (answer.failure || !answer.available) {
    assert.equal(typeof answer.error, 'string', what);
    for (const part of PARTS) assert.equal(answer[part], null, `${what}: ${part}`);
    return;
  }
  for (const part of PARTS) assert.ok(answer[part] === null || typeof answer[part] === 'string', `${what}: ${part}`);
  // python.py joins the errors of urlsplit's properties (.port's ValueError) into `error`.
  assert.ok(answer.error === null || typeof answer.error === 'string', what);
  if (parser === 'python') {
    for (const part of ['scheme', 'path', 'query', 'fragment']) assert.equal(typeof answer[part], 'string', `${what}: ${part}`);
  }
}

const version = (text) => text.split('.').map(Number);
const before_ = (a, b) => {
  const [x, y] = [version(a), version(b)];
  for (let i = 0; i < 3; i += 1) if ((x[i] ?? 0) !== (y[i] ?? 0)) return (x[i] ?? 0) < (y[i] ?? 0);
  return false;
};
/// CPython 3.11.4 (and 3.12) strip leading C0 controls and spaces in urlsplit (gh-102153,
/// CVE-2023-24329), as the URL Standard does; earlier 3.11s keep them.
const strips = (v) => !before_(v, '3.11.4');
const C0_OR_SPACE = /^[\u0000-\u0020]+/;
/// urlsplit removes ASCII tab and newline anywhere first, in every 3.11 (bpo-43882).
const withoutTabOrNewline = (s) => s.replace(/[\t\r\n]/g, '');

/// How the page's urlsplit reading compares with the terminal's, for a request:
///   "same"      equal field for field (but `version`): the same CPython release, or the same
///               3.x series and nothing in the request that a release of the series changed;
///   "stripped"  the terminal strips leading C0 controls and spaces and the page does not: the
///               terminal's reading of the request is the page's reading of it stripped;
///   "brackets"  a "[" or "]" in the request: the checks of bracketed hosts only add refusals
///               (ValueError) in later releases, so where the later release reads the request
///               (no failure) the earlier reads it alike, field for field;
///   null        nothing beyond `shape`: another 3.x series, whose urllib.parse may differ
///               anywhere.
/// Within the 3.11 series urllib.parse changed only by gh-102153 (the leading C0/space strip,
/// 3.11.4), by the checks of bracketed hosts (gh-103848, 3.11.4; gh-105704, a later security
/// release) and by "rtsps" joining the schemes urljoin resolves (3.11.4): a request that starts
/// with no C0 control or space (once tabs and newlines are removed), holds no "[" or "]" and
/// names no rtsps is read alike by every 3.11 (Pyodide 0.25's 3.11.3 and 3.11.7's
/// urllib/parse.py differ by exactly these). Both sides' unicodedata is Unicode 14.0.0 in every
/// 3.11 (the NFKC check of a non-ASCII netloc, bpo-36216).
function pythonRule(request, page, terminal) {
  if (page === terminal) return 'same';
  if (version(page).slice(0, 2).join('.') !== version(terminal).slice(0, 2).join('.')) return null;
  const texts = [request.input, ...(request.base === null ? [] : [request.base])];
  if (texts.some((text) => /rtsps/i.test(text))) return null;
  const leading = texts.some((text) => C0_OR_SPACE.test(withoutTabOrNewline(text)));
  if (texts.some((text) => /[[\]]/.test(text))) return leading ? null : 'brackets';
  if (!leading) return 'same';
  // urljoin splits the base and the input, then the join: only an input alone is stripped here.
  return request.base === null && strips(terminal) && !strips(page) ? 'stripped' : null;
}

/// How the page's urllib3 reading compares with the terminal's: equal field for field (but the
/// Python version inside `version`) when both run the same urllib3 and, for a request with a
/// non-ASCII code point, the same idna (or none) over the same Unicode data. urllib3's
/// parse_url decides everything else itself: its own regular expressions and percent-encoding
/// (str.encode of UTF-8), none of CPython's urllib; only a non-ASCII host goes to idna (with
/// CPython's unicodedata, and str.lower()). A declined request (with a base) is python.py's
/// own answer, equal whatever the versions.
function urllib3Rule(request, pageAbout, terminalAbout) {
  if (request.base !== null) return true;
  if (pageAbout.urllib3 !== terminalAbout.urllib3) return false;
  if (/^[\u0000-\u007f]*$/.test(request.input)) return true;
  return terminalAbout.idna !== undefined && pageAbout.idna === terminalAbout.idna && pageAbout.unicode === terminalAbout.unicode;
}


test('the page\'s python and urllib3 readings are the terminal\'s, input for input', async (t) => {
  const root = await pageUrl();
  if (await notBuilt(t, root, 'python')) return;
  const expected = terminal();
  const stripped = requests.map(({ input }) => input.replace(C0_OR_SPACE, ''));

  const context = await browser.newContext();
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  // Nothing the worker loads may come from another origin (Pyodide's default is its CDN).
  const elsewhere = [];
  context.on('request', (r) => { if (!r.url().startsWith(root)) elsewhere.push(r.url()); });
  // The page's own origin and Content-Security-Policy (worker-src 'self'), as the page starts it.
  await page.goto(root);
  const run = await page.evaluate(async ({ requests, stripped }) => {
    const start = (options) => {
      const worker = new Worker('readings/python/worker.js', options);
      const next = () => new Promise((resolve) => {
        worker.onmessage = (event) => resolve(event.data);
        worker.onerror = (event) => resolve({ type: 'error', message: event.message });
      });
      return { worker, next };
    };
    const { worker, next } = start();
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
      answers.push(await answered);
      times.push(performance.now() - sent);
    }
    const strippedAnswers = [];
    for (const [id, input] of stripped.entries()) {
      const answered = next();
      worker.postMessage({ type: 'read', id, input, base: requests[id].base });
      strippedAnswers.push(await answered);
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
    // The same worker started as a module worker reads alike (the page may start either).
    const module = start({ type: 'module' });
    const moduleReady = await module.next();
    let moduleAnswer = null;
    if (moduleReady.type === 'ready') {
      const answered = module.next();
      module.worker.postMessage({ type: 'read', id: 7, input: requests[0].input, base: requests[0].base });
      moduleAnswer = await answered;
    }
    module.worker.terminate();
    return { ready, startup, answers, strippedAnswers, times, order, moduleReady, moduleAnswer };
  }, { requests, stripped });

  assert.equal(run.ready.type, 'ready', `the worker did not start: ${JSON.stringify(run.ready)}`);
  assert.deepEqual(run.ready.parsers.map((p) => p.name), ['python', 'urllib3'], JSON.stringify(run.ready));
  const [python, urllib3] = run.ready.parsers;
  // The versions as python.py's hello gives them: platform.python_version(), and
  // "urllib3 V, Python V".
  assert.match(python.version, /^\d+\.\d+\.\d+$/);
  const u3 = urllib3.version.match(/^urllib3 (\S+), Python (\S+)$/);
  assert.ok(u3, urllib3.version);
  assert.equal(u3[2], python.version);
  assert.match(python.implementation, new RegExp(`^CPython ${python.version.replace(/\./g, '\\.')}'s urllib\\.parse \\(urlsplit\\) in Pyodide (\\d+\\.\\d+\\.\\d+)$`));
  const pyodideVersion = python.implementation.match(/in Pyodide (\S+)$/)[1];
  const about = urllib3.implementation.match(/^urllib3's util\.parse_url(?:, with idna (\S+),| \(without idna\)) on CPython (\S+) \(Unicode (\S+)\) in Pyodide (\S+)$/);
  assert.ok(about, urllib3.implementation);
  assert.equal(about[2], python.version);
  assert.equal(about[4], pyodideVersion);
  const pageAbout = { urllib3: u3[1], idna: about[1] ?? null, unicode: about[3] };

  const anyTerminal = [...expected.values()][0];
  const terminalVersions = { python: anyTerminal.python.available ? anyTerminal.python.version : null };
  const tu3 = anyTerminal.urllib3.available ? anyTerminal.urllib3.version.match(/^urllib3 (\S+), Python (\S+)$/) : null;
  const local = terminalPython();
  const terminalAbout = {
    urllib3: tu3?.[1] ?? null,
    // Known only when the python3 here is the terminal's (the same version as diff's).
    idna: local && tu3 && local.python === tu3[2] ? local.idna : undefined,
    unicode: local?.unicode,
  };
  t.diagnostic(`page: CPython ${python.version}, urllib3 ${pageAbout.urllib3}, idna ${pageAbout.idna}, Unicode ${pageAbout.unicode}, Pyodide ${pyodideVersion}; `
    + `terminal: Python ${terminalVersions.python}, urllib3 ${terminalAbout.urllib3}, idna ${terminalAbout.idna}, Unicode ${terminalAbout.unicode}`);

  const counts = { python: { same: 0, stripped: 0, brackets: 0, shape: 0 }, urllib3: { same: 0, shape: 0 } };
  requests.forEach((request, i) => {
    const { input, base } = request;
    const what = `input ${JSON.stringify(input)}${base === null ? '' : ` against ${JSON.stringify(base)}`}`;
    const message = run.answers[i];
    assert.equal(message.type, 'reading', what);
    assert.equal(message.id, i, what);
    assert.deepEqual(Object.keys(message.answers), ['python', 'urllib3'], what);
    const want = expected.get(JSON.stringify([base, input]));
    const mine = message.answers;
    shape(mine.python, 'python', `${what}: python`);
    shape(mine.urllib3, 'urllib3', `${what}: urllib3`);
    assert.equal(mine.python.version, python.version, what);
    assert.equal(mine.urllib3.version, urllib3.version, what);
    const other = (answer, versionText) => ({ ...answer, version: versionText });

    if (want.python.available) {
      shape(want.python, 'python', `${what}: python (the terminal)`);
      let rule = pythonRule(request, python.version, want.python.version);
      if (rule === 'same') {
        assert.deepEqual(mine.python, other(want.python, python.version), `${what}: the page's python reading differs from urlscope diff --json`);
      } else if (rule === 'brackets') {
        const later = before_(python.version, want.python.version) ? want.python : mine.python;
        if (later.failure) {
          rule = null;
        } else {
          assert.deepEqual(mine.python, other(want.python, python.version), `${what}: the page's python reading differs from urlscope diff --json (the later CPython reads it)`);
        }
      } else if (rule === 'stripped') {
        assert.deepEqual(run.strippedAnswers[i].answers.python, other(want.python, python.version),
          `${what}: the terminal's python (which strips leading C0 controls and spaces) differs from the page's reading of ${JSON.stringify(stripped[i])}`);
      }
      counts.python[rule ?? 'shape'] += 1;
    }
    if (want.urllib3.available || base !== null) {
      shape(want.urllib3, 'urllib3', `${what}: urllib3 (the terminal)`);
      if (urllib3Rule(request, pageAbout, terminalAbout)) {
        assert.deepEqual(mine.urllib3, other(want.urllib3, urllib3.version), `${what}: the page's urllib3 reading differs from urlscope diff --json`);
        counts.urllib3.same += 1;
      } else {
        counts.urllib3.shape += 1;
      }
    }
  });
  assert.deepEqual(run.order, requests.map((_, id) => 1000 + id), 'answers to requests sent at once come back in order');
  assert.equal(run.moduleReady.type, 'ready', `as a module worker: ${JSON.stringify(run.moduleReady)}`);
  assert.deepEqual(run.moduleAnswer.answers, run.answers[0].answers, 'a module worker reads as a classic one');
  assert.deepEqual(elsewhere, [], 'requests left for another origin');
  assert.deepEqual(errors, []);

  // In the same CPython series with the same urllib3 (as here: 3.11.3 and 3.11.7, urllib3
  // 2.7.0) nearly every request is compared exactly; say how many were.
  t.diagnostic(`compared exactly: python ${counts.python.same} (and ${counts.python.stripped} once stripped, ${counts.python.brackets} with brackets that the later CPython reads), urllib3 ${counts.urllib3.same}; `
    + `shape only: python ${counts.python.shape}, urllib3 ${counts.urllib3.shape}, of ${requests.length}`);
  const sorted = [...run.times].sort((a, b) => a - b);
  t.diagnostic(`Python reading: ready in ${run.startup.toFixed(0)} ms; ${requests.length} reads, request to answer `
    + `median ${percentile(sorted, 0.5).toFixed(1)} ms, p95 ${percentile(sorted, 0.95).toFixed(1)} ms, max ${sorted.at(-1).toFixed(1)} ms`);
  await context.close();
});
