// One verdict: on the README's spoofing inputs the page's verdict line and its Host findings are
// `urlscope check --json`'s, judged over the readings the page has (its module's parsers and
// every worker reading built into it, web/readings.js), by the library's one decision. The
// Parsers view (`#view=parsers`) shows every parser of `urlscope diff`, what ran and its
// version, ≠ and ≈ marks with their classes, where each reading goes, and names a parser
// without a reading (Java: terminal only) as such.
//
// The test waits until every reading built into the page has answered (a reading not built
// says so and is not waited for), so a reading that lands in the page is compared with the
// terminal here without a change to this script. Where the page lacks one of the terminal's
// built-in parsers (curl, when emcc was missing at build time), its verdict is held to
// `urlscope diff --json` over the parsers the page has instead: the same decision, on the same
// readings.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { launch, open, stop } from './page.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '..', '..');
const bin = process.env.URLSCOPE_BIN ?? path.join(repo, 'target', 'debug', 'urlscope');
// The terminal's built-in parsers: `check`'s findings are judged over these.
const TERMINAL_BUILTINS = ['whatwg', 'rust-url', 'curl', 'rfc3986', 'http'];
const SPOOFS = ['http://example.com\\@evil.com/', 'https://evil.example\\@good.example/', 'https://faß.de/'];

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); await stop(); });

function urlscope(args) {
  const run = spawnSync(bin, args, { encoding: 'utf8', timeout: 120000 });
  assert.ok(run.stdout, `urlscope ${args.join(' ')}: no output (${run.error ?? run.stderr})`);
  return run.stdout.trim().split('\n').map((line) => JSON.parse(line));
}

/// The page with `input`, once every reading it has built in has answered: the engine's last
/// judgement has none pending or loading (Python, loaded once the page is idle, is waited for
/// when it has started to load) and is of this input.
async function judged(fragment) {
  const opened = await open(browser, fragment);
  await opened.page.waitForFunction(() => document.documentElement.dataset.readings !== undefined
    && document.documentElement.dataset.readingsPending === '0'
    && document.documentElement.dataset.readingsLoading === '0', null, { timeout: 120000 });
  // One more frame: the verdict line and the open view are drawn from the judgement.
  await opened.page.evaluate(() => new Promise((r) => requestAnimationFrame(() => r())));
  return opened;
}

/// The page's judgement of its input: the engine's readings() model, as web/readings.js keeps it.
async function model(page) {
  return page.evaluate(async () => {
    const readings = await import('./readings.js');
    const input = document.getElementById('input').value;
    const base = document.getElementById('base').value;
    return readings.current(input, base);
  });
}

const idsOf = (findings) => findings.map((f) => `${f.id} (${f.severity})`).sort();

test('the page gives the README\'s spoofing inputs the terminal\'s verdict', async () => {
  assert.ok(fs.existsSync(bin), `no urlscope command line at ${bin} (URLSCOPE_BIN)`);
  for (const input of SPOOFS) {
    const { page, context, errors } = await judged(`#input=${encodeURIComponent(input)}&view=host`);
    const m = await model(page);
    assert.ok(m, `${input}: no judgement of this input`);
    const answered = m.parsers.filter((p) => p.state === 'answered').map((p) => p.name);
    const [check] = urlscope(['check', '--json', input]);
    let expected = idsOf(check.findings);
    if (!TERMINAL_BUILTINS.every((name) => answered.includes(name))) {
      // The page lacks one of check's parsers: its differential is diff's over the readings
      // the page has (the other findings are check's).
      const known = answered.filter((name) => !['whatwg-url'].includes(name));
      const [diff] = urlscope(['diff', '--json', '--parsers', known.join(','), input]);
      assert.equal(m.comparison.verdict, diff.verdict, `${input}: the page's comparison, then diff's over ${known}`);
      expected = expected.filter((s) => !s.startsWith('parser-'));
      if (diff.verdict === 'elsewhere') expected.push('parser-differential (danger)');
      if (diff.verdict === 'refused') expected.push('parser-refuses (info)');
      expected.sort();
      console.log(`${input}: the page has no reading of ${TERMINAL_BUILTINS.filter((n) => !answered.includes(n))}: held to diff over ${known}`);
    }
    // The findings the page judged, and those the Host view lists.
    assert.deepEqual(idsOf(m.findings), expected, `${input}: the page's findings, then the terminal's`);
    const shown = await page.$$eval('#panel-host li.vw-finding', (items) => items.map((li) => {
      const severity = li.className.match(/vw-(danger|warn|info)/)?.[1];
      return `${li.dataset.id} (${severity})`;
    }));
    assert.deepEqual(shown.sort(), expected, `${input}: the Host view's findings, then the terminal's`);
    // The verdict line: the worst severity, the disagreement said, the counts of check's.
    const verdict = page.locator('#verdict');
    const text = await verdict.textContent();
    const worst = ['danger', 'warn'].find((s) => expected.some((e) => e.endsWith(`(${s})`)));
    assert.match(await verdict.getAttribute('class'), new RegExp(`\\b${worst ?? 'ok'}\\b`), `${input}: ${text}`);
    const count = (s) => expected.filter((e) => e.endsWith(`(${s})`)).length;
    const counts = [['danger', count('danger')], ['warn', count('warn')]].filter(([, n]) => n).map(([s, n]) => `${n} ${s}`).join(' ');
    assert.ok(text.includes(counts), `${input}: the line ${JSON.stringify(text)} lacks the terminal's counts ${counts}`);
    assert.equal(text.includes('✗ parsers disagree on where it goes'), m.comparison.verdict === 'elsewhere', `${input}: ${text}`);
    assert.ok(!text.includes('judging'), `${input}: still judging: ${text}`);
    // The differential's finding names the parsers read and those without a reading.
    const differential = m.findings.find((f) => f.id.startsWith('parser-'));
    assert.ok(differential, `${input}: no differential finding`);
    assert.match(differential.detail, /\(read by whatwg, rust-url, .*; without .*java: terminal only/, differential.detail);
    assert.ok(!/the others agree/.test(differential.detail), differential.detail);
    assert.deepEqual(errors, [], `${input}: ${errors}`);
    await context.close();
  }
});

test('#view=parsers opens the Parsers view: every parser, what ran, the marks and who is not consulted', async () => {
  const input = SPOOFS[0];
  const { page, context, errors } = await judged(`#input=${encodeURIComponent(input)}&view=parsers`);
  assert.equal(await page.getByRole('tab', { name: 'Parsers' }).getAttribute('aria-selected'), 'true');
  const panel = page.locator('#panel-parsers');
  assert.ok(await panel.isVisible(), 'the Parsers panel is shown');
  const m = await model(page);
  const rows = await panel.locator('tbody tr[data-parser]').evaluateAll((trs) => trs.map((tr) => ({
    name: tr.dataset.parser, state: tr.dataset.state, text: tr.textContent,
    goes: tr.querySelector('[data-goes]')?.dataset.goes ?? null,
    host: tr.querySelector('[data-component=host]')?.textContent ?? null,
  })));
  // Every parser of `urlscope diff`, in its order.
  const names = rows.map((r) => r.name);
  const terminal = ['whatwg', 'rust-url', 'curl', 'rfc3986', 'http', 'python', 'urllib3', 'node', 'node-legacy', 'java', 'go'];
  assert.deepEqual(names.filter((n) => terminal.includes(n)), terminal);
  // Java is the terminal's alone: shown so, never a reading.
  const java = rows.find((r) => r.name === 'java');
  assert.equal(java.state, 'terminal-only');
  assert.match(java.text, /terminal only/);
  assert.equal(m.comparison.parsers.java.available, false);
  // The module's own parsers name what ran and its version; a refusal is not "elsewhere".
  const whatwg = rows.find((r) => r.name === 'whatwg');
  assert.match(whatwg.text, /urlscope's URL Standard parser, in this page's WebAssembly module, urlscope \d/);
  assert.equal(rows.find((r) => r.name === 'http').goes, 'refused');
  assert.equal(rows.find((r) => r.name === 'rust-url').goes, 'same');
  // Each worker reading that answered names its implementation and version, as its row shows.
  for (const p of m.parsers.filter((x) => x.runs === 'worker' && x.state === 'answered')) {
    assert.ok(p.version, `${p.name}: no version`);
    const row = rows.find((r) => r.name === p.name);
    assert.ok(row.text.includes(p.version), `${p.name}'s row does not name ${p.version}: ${row.text}`);
  }
  // Where curl answered, its host is marked ≠ with the class, and it goes elsewhere.
  const curl = rows.find((r) => r.name === 'curl');
  if (curl.state === 'answered') {
    assert.equal(curl.goes, 'elsewhere');
    assert.match(curl.host, /≠.*evil\.com/);
    assert.match(curl.text, /host \(backslash\)/);
    assert.match(await panel.locator('.pv-headline').textContent(), /✗ disagree on where it goes: backslash/);
  } else {
    assert.match(curl.text, /not built into this page|unavailable/);
  }
  // The view's verdict is diff's, over these readings.
  assert.equal(await panel.locator('.pv-headline').getAttribute('data-verdict'), m.comparison.verdict);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a reading not consulted is named as such, and the verdict waits for a pending one', async () => {
  // Before a worker answers, the judgement is on the module's parsers: curl (when built) is
  // pending, and the finding never counts it as agreeing.
  const { page, context } = await open(browser, '#view=parsers');
  const states = await page.evaluate(async () => {
    const readings = await import('./readings.js');
    readings.read('http://example.com\\@evil.com/', '');
    const m = readings.current('http://example.com\\@evil.com/', '');
    return { pending: m.pending, findings: m.findings, parsers: m.parsers.map((p) => [p.name, p.state]) };
  });
  const workers = states.parsers.filter(([name]) => !['whatwg', 'rust-url', 'rfc3986', 'http', 'java'].includes(name));
  for (const [name, state] of workers) {
    // A worker still starting (under load, a second or more after the page) is loading.
    assert.ok(['pending', 'loading', 'not-loaded', 'not-built', 'unavailable'].includes(state), `${name}: ${state}`);
  }
  const differential = states.findings.find((f) => f.id.startsWith('parser-'));
  if (states.pending.includes('curl')) {
    // Without curl's answer the readings that are in go to one place: refused, not agreed.
    assert.equal(differential.id, 'parser-refuses');
    assert.match(differential.detail, /without curl: waiting for its answer/);
  }
  assert.match(differential.detail, /java: terminal only/);
  await context.close();
});

test('Python loads on a click on its button, and its reading joins the verdict', async () => {
  const input = SPOOFS[0];
  const { page, context, errors } = await open(browser, `#input=${encodeURIComponent(input)}&view=parsers`);
  const button = page.getByRole('button', { name: 'Load Python (≈6 MB)' });
  // The page may have started loading it already, idle after load.
  const state = await page.evaluate(async () => (await import('./readings.js')).status().python.state);
  if (state === 'not-loaded') {
    await button.click();
    // The focus stays in the view, on the table that takes the button's place.
    await page.waitForFunction(() => document.activeElement?.closest('#panel-parsers') !== null);
  }
  await page.waitForFunction(() => ['answered', 'not-built', 'unavailable']
    .includes(document.querySelector('#panel-parsers tr[data-parser=python]')?.dataset.state)
    && document.documentElement.dataset.readingsPending === '0'
    && document.documentElement.dataset.readingsLoading === '0', null, { timeout: 120000, polling: 250 });
  assert.equal(await button.count(), 0, 'the button is gone once Python loads');
  const m = await model(page);
  const python = m.parsers.find((p) => p.name === 'python');
  if (python.state === 'not-built') {
    console.log(`# Python is not built into this page (${python.why}): its loading is not checked`);
  } else {
    assert.equal(python.state, 'answered', JSON.stringify(python));
    // urllib.parse ends the userinfo at the last "@": Python goes to evil.com, as in the terminal.
    const [diff] = urlscope(['diff', '--json', '--parsers', 'whatwg,python', input]);
    if (diff.parsers.python.available) assert.equal(m.comparison.parsers.python.host, diff.parsers.python.host);
    assert.equal(python.goes, 'elsewhere');
    assert.match(await page.locator('tr[data-parser=python]').textContent(), /evil\.com/);
  }
  assert.deepEqual(errors, []);
  await context.close();
});
