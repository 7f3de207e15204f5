// The Host, Base resolution, Grammar, Pattern and Lessons views in Chromium, each held to real
// values: the engine's (the Punycode of a known IDN, the grammar's stop as `urlscope parse
// --json` gives it, the lessons of assets/examples.json) and the browser's own URLPattern.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { launch, open, settled, stop } from './page.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '..', '..');

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); await stop(); });

const link = (params) => `#${new URLSearchParams(params)}`;
const panel = (page, view) => page.locator(`#panel-${view}`);

/// The command line's answer for `input`, the oracle the page's engine is held to: the built
/// binary when the harness has one (URLSCOPE_BIN, or target/debug/urlscope).
function cli(...args) {
  const bin = process.env.URLSCOPE_BIN ?? path.join(repo, 'target', 'debug', 'urlscope');
  if (!fs.existsSync(bin)) return null;
  // A URL that is not valid exits non-zero; its JSON is on the standard output all the same.
  return JSON.parse(spawnSync(bin, args, { encoding: 'utf8' }).stdout);
}

test('Host: the Punycode and Unicode of an IDN, each browser\'s decision, the findings', async () => {
  const { page, context, errors } = await open(browser, link({ input: 'https://аррӏе.com/', view: 'host' }));
  const host = panel(page, 'host');
  assert.equal(await host.locator('[data-form="ascii"]').innerText(), 'xn--80ak6aa92e.com');
  assert.equal(await host.locator('[data-form="unicode"]').innerText(), 'аррӏе.com');
  // Chromium's policy shows a whole-script confusable of "apple" as Punycode.
  const chromium = host.locator('tr[data-policy="chromium"]');
  assert.match(await chromium.innerText(), /xn--80ak6aa92e\.com/);
  assert.match(await chromium.innerText(), /Punycode/);
  assert.equal(await host.locator('.vw-labels tbody tr').count(), 2);
  const findings = await host.locator('.vw-finding').evaluateAll((f) => f.map((x) => x.dataset.id));
  assert.ok(findings.includes('whole-script-confusable'), findings.join(' '));
  assert.ok(findings.includes('lookalike-domain'), findings.join(' '));
  // Chromium's host rule says what it reads as.
  assert.match(await chromium.innerText(), /reads as apple\.com/);
  assert.deepEqual(errors, []);
  await context.close();
});

test('Base resolution: each component from the input or the base', async () => {
  const { page, context } = await open(browser, link({ input: '../g;x?y#s', base: 'http://a/b/c/d;p?q', view: 'resolution' }));
  const view = panel(page, 'resolution');
  assert.equal(await view.locator('[data-field="result"]').innerText(), 'http://a/b/g;x?y#s');
  assert.equal(await view.locator('tr[data-field="scheme"]').first().getAttribute('data-from'), 'base');
  assert.equal(await view.locator('tr[data-field="host"]').first().getAttribute('data-from'), 'base');
  assert.equal(await view.locator('tr[data-field="fragment"]').last().getAttribute('data-from'), 'input');
  // A step of the trace is a button that opens the Trace on it, the focus with it (Enter).
  const step = view.locator('tr[data-field="scheme"] button').first();
  const n = Number((await step.innerText()).match(/step (\d+)/)[1]);
  await step.focus();
  await page.keyboard.press('Enter');
  await settled(page);
  assert.equal(Number(await page.$eval('#trace-body tr.current td', (td) => td.textContent)), n);
  assert.equal(await page.evaluate(() => document.activeElement.id), 'trace-wrap');
  // A reference resolved against the base is a button that inspects it; the focus stays on it.
  await page.locator('#tab-resolution').click();
  const reference = view.locator('.vw-references button').nth(2);
  const name = await reference.innerText();
  await reference.focus();
  await page.keyboard.press('Enter');
  await settled(page);
  assert.equal(await page.getByLabel('Input', { exact: true }).inputValue(), name);
  assert.equal(await page.evaluate(() => document.activeElement.textContent), name);
  assert.equal(await page.evaluate(() => document.activeElement.closest('.vw-references') !== null), true);
  await context.close();
});

test('Grammar: the stop is where the command line puts it, and the diagrams are SVG with the path marked', async () => {
  const input = 'https://exa mple.com/';
  const { page, context, errors } = await open(browser, link({ input, view: 'grammar' }));
  const view = panel(page, 'grammar');
  const position = Number(await view.locator('.vw-stop').getAttribute('data-position'));
  const oracle = cli('parse', '--json', input);
  if (oracle) assert.equal(position, oracle.writing.position);
  // "https://exa" begins a valid URL string; no valid domain holds the space at 11.
  assert.equal(position, 11);
  assert.match(await view.locator('.vw-stop').innerText(), /^Stops at code point 11: no U\+0020 in a host/);
  const svgs = await view.locator('svg.rr').count();
  assert.ok(svgs >= 2, `${svgs} diagrams`);
  // Made with createElementNS: SVG elements, not HTML ones of the same name.
  assert.equal(await view.locator('svg.rr').first().evaluate((s) => s.namespaceURI), 'http://www.w3.org/2000/svg');
  // The host box is where it stopped; the scheme is on the path; the opaque path is not.
  assert.ok(await view.locator('svg.rr g.rr-stop[data-label="host"]').count() > 0);
  assert.ok(await view.locator('svg.rr g.rr-on[data-label="scheme"]').count() > 0);
  assert.ok(await view.locator('svg.rr g.rr-off[data-label="opaque path"]').count() > 0);
  assert.deepEqual(errors, []);
  await context.close();
});

test('Pattern: our match and groups, and Chromium\'s own URLPattern beside them', async () => {
  const { page, context, errors } = await open(browser, link({
    input: 'https://cdn.example.com/img/logo.png', view: 'pattern', pattern: 'https://*.example.com/*',
  }));
  const view = panel(page, 'pattern');
  assert.equal(await view.getByLabel('Pattern', { exact: true }).inputValue(), 'https://*.example.com/*');
  assert.equal(await view.locator('.vw-outcome').getAttribute('data-test'), 'true');
  assert.match(await view.locator('tr[data-component="hostname"]').innerText(), /0 = "cdn"/);
  // The browser's own answer, computed here, is the one the view compares with.
  const theirs = await page.evaluate(() => new URLPattern('https://*.example.com/*').exec('https://cdn.example.com/img/logo.png').pathname.groups[0]);
  assert.equal(theirs, 'img/logo.png');
  assert.match(await view.locator('.vw-browser h3').innerText(), /Chrom/);
  assert.equal(await view.locator('.vw-browser [data-agrees]').getAttribute('data-agrees'), 'true');
  // Typing a pattern keeps the focus in the box and updates the match.
  const box = view.getByLabel('Pattern', { exact: true });
  await box.fill('');
  await box.pressSequentially('https://cdn.example.com/:id(\\d+)');
  await settled(page);
  assert.equal(await page.evaluate(() => document.activeElement.id), 'vw-pattern');
  assert.equal(await view.locator('.vw-outcome').getAttribute('data-test'), 'false');
  assert.match(await view.locator('.vw-outcome').innerText(), /pathname/);
  assert.match(page.url(), /pattern=https%3A%2F%2Fcdn\.example\.com%2F%3Aid%28%5Cd%2B%29/);
  // A pattern that does not compile: the constructor's TypeError, and the browser throws too.
  await box.fill('https://example.com/(');
  await settled(page);
  assert.match(await view.locator('[data-error="pattern"]').innerText(), /^The constructor throws: /);
  assert.equal(await view.locator('.vw-browser [data-agrees]').getAttribute('data-agrees'), 'true');
  // Both throw, each with its own message: they agree, and no row says otherwise (the page
  // said "agrees" beside an error row marked "differs").
  assert.equal(await view.locator('.vw-browser tr[data-row="error"]').count(), 1);
  assert.equal(await view.locator('.vw-browser tr.vw-differs-row').count(), 0);
  // Every header of the table beside ours has a name (axe: empty-table-header).
  for (const th of await view.locator('.vw-beside th').allInnerTexts()) assert.notEqual(th.trim(), '');
  // The terminal's hints, in the page's words: a \d that lost its backslash, a hostname that
  // needs a subdomain.
  await box.fill('https://*.example.com/:id(d+)');
  await settled(page);
  const hints = await view.locator('.vw-hints li').allInnerTexts();
  assert.equal(hints.length, 2, hints.join('\n'));
  assert.match(hints[0], /"\(d\+\)" is the letter d, not "\\d"/);
  assert.doesNotMatch(hints[0], /shell/);
  assert.match(hints[1], /needs a subdomain/);
  assert.deepEqual(errors, []);
  await context.close();
});

test('Lessons: listed from the gallery, opened by keyboard, a setter lesson shows its steps', async () => {
  const gallery = JSON.parse(fs.readFileSync(path.join(repo, 'assets', 'examples.json'), 'utf8'));
  const { page, context, errors } = await open(browser, link({ input: '', view: 'lessons' }), { viewport: { width: 1280, height: 720 } });
  const view = panel(page, 'lessons');
  // The Lessons view's command is the gallery's: `urlscope` alone opens it (docs/inspector.md).
  assert.equal(await page.locator('#command-text').innerText(), 'urlscope');
  assert.equal(await view.locator('.vw-lesson-button').count(), gallery.length);
  // The drive letter lesson, reached with the keyboard: focus the first, arrow down, Enter.
  const at = gallery.findIndex((e) => e.input === 'file:///C|/Windows/system32');
  await view.locator('.vw-lesson-button').first().focus();
  for (let i = 0; i < at; i += 1) await page.keyboard.press('ArrowDown');
  assert.equal(await page.evaluate(() => document.activeElement.dataset.lesson), String(at));
  await page.keyboard.press('Enter');
  await settled(page);
  assert.equal(await page.getByLabel('Input', { exact: true }).inputValue(), 'file:///C|/Windows/system32');
  assert.equal(await page.locator('#tab-trace').getAttribute('aria-selected'), 'true');
  // The Trace is on the lesson's step: the path state.
  assert.match(await page.locator('#trace-body tr.current').innerText(), /path state/);
  // The focus is on the Trace (the arrows step from the lesson's step), not dropped to <body>;
  // the lesson's text stays on screen with the Trace, and the step is in the window.
  await page.waitForFunction(() => document.activeElement.id === 'trace-wrap');
  const lessonBox = page.locator('#lesson-box');
  assert.equal(await lessonBox.isVisible(), true);
  assert.equal(await lessonBox.locator('.vw-lesson-text').innerText(), gallery[at].lesson);
  const inWindow = async (selector) => page.$eval(selector, (node) => {
    const r = node.getBoundingClientRect();
    return r.top >= 0 && r.bottom <= innerHeight && r.height > 0;
  });
  assert.equal(await inWindow('#trace-body tr.current'), true);
  assert.equal(await inWindow('#lesson-box'), true);
  const current = () => page.$eval('#trace-body tr.current td', (td) => Number(td.textContent));
  const before = await current();
  await page.keyboard.press('ArrowRight');
  await settled(page);
  assert.equal(await current(), before + 1);
  // The port setter lesson: the setter's run, the watched step in the port state.
  await page.locator('#tab-lessons').click();
  const port = gallery.findIndex((e) => e.set && e.set.component === 'port');
  await view.locator(`[data-lesson="${port}"]`).focus();
  await page.keyboard.press('Enter');
  await settled(page);
  assert.equal(await lessonBox.locator('.vw-setter [data-field="after"]').innerText(), 'https://example.com:8080/');
  assert.match(await lessonBox.locator('.vw-setter-steps li.vw-watched').innerText(), /^port state/);
  assert.match(await lessonBox.locator('.vw-lesson-text').innerText(), /port setter keeps the digits/);
  // A lesson that stays on Lessons: the focus on its text, its start in the window (the
  // setter's steps below it may be taller than the window).
  await page.waitForFunction(() => document.activeElement.id === 'lesson-box');
  assert.equal(await page.$eval('#lesson-box', (b) => b.getBoundingClientRect().top >= 0 && b.getBoundingClientRect().top < innerHeight / 2), true);
  // Emptying the Input ends the lesson.
  await page.getByLabel('Input', { exact: true }).fill('');
  await settled(page);
  assert.equal(await lessonBox.isVisible(), false);
  assert.deepEqual(errors, []);
  await context.close();
});

test('Lessons: the ignoreCase lesson\'s link and command show the student the teacher\'s match; the next lesson drops the pattern', async () => {
  const gallery = JSON.parse(fs.readFileSync(path.join(repo, 'assets', 'examples.json'), 'utf8'));
  const { page, context } = await open(browser, link({ input: '', view: 'lessons' }));
  const at = gallery.findIndex((e) => e.ignore_case);
  assert.ok(at >= 0);
  await panel(page, 'lessons').locator(`[data-lesson="${at}"]`).click();
  await settled(page);
  const outcome = () => panel(page, 'pattern').locator('.vw-outcome');
  assert.equal(await outcome().getAttribute('data-test'), 'true');
  assert.equal(await panel(page, 'pattern').getByLabel('ignoreCase').isChecked(), true);
  const command = await page.locator('#command-text').innerText();
  assert.match(command, / --ignore-case$/);
  // The command line agrees that the input matches with ignoreCase (and not without it).
  const withCase = cli('pattern', '--json', gallery[at].pattern, gallery[at].input, '--ignore-case');
  if (withCase) assert.equal(withCase.test, true);
  const without = cli('pattern', '--json', gallery[at].pattern, gallery[at].input);
  if (without) assert.equal(without.test, false);
  // The link, opened afresh, shows the same match.
  await page.evaluate(() => dispatchEvent(new FocusEvent('blur')));
  const fresh = await open(browser, new URL(page.url()).hash);
  assert.equal(await panel(fresh.page, 'pattern').locator('.vw-outcome').getAttribute('data-test'), 'true');
  assert.equal(await panel(fresh.page, 'pattern').getByLabel('ignoreCase').isChecked(), true);
  assert.equal(await fresh.page.locator('#command-text').innerText(), command);
  // Unticked in the fresh page: the link and the command follow.
  await panel(fresh.page, 'pattern').getByLabel('ignoreCase').uncheck();
  await settled(fresh.page);
  assert.equal(await panel(fresh.page, 'pattern').locator('.vw-outcome').getAttribute('data-test'), 'false');
  assert.doesNotMatch(fresh.page.url(), /ignorecase/);
  assert.doesNotMatch(await fresh.page.locator('#command-text').innerText(), /--ignore-case/);
  await fresh.context.close();
  // The next lesson has no pattern: neither the link nor the command keeps this one's.
  await page.locator('#tab-lessons').click();
  await panel(page, 'lessons').locator('[data-lesson="0"]').click();
  await settled(page);
  assert.doesNotMatch(page.url(), /pattern=|ignorecase/);
  assert.doesNotMatch(await page.locator('#command-text').innerText(), /--pattern|--ignore-case/);
  await context.close();
});

test('no word is broken inside at phone width or at 1920 px: only URLs break anywhere', async () => {
  // Words of the page's own text (the states' names, "Punycode", the headings) wrap between
  // words; a URL or a value, which has no spaces to wrap at, may break anywhere.
  const broken = [];
  for (const width of [390, 1920]) {
    for (const [view, params] of [
      ['trace', { input: 'https://xn--bcher-kva.example/a/b?c#d', step: '12' }],
      ['host', { input: 'https://аррӏе.com/' }],
      ['resolution', { input: '../g;x?y#s', base: 'http://a/b/c/d;p?q' }],
      ['grammar', { input: 'https://exa mple.com/' }],
      ['lessons', { input: '' }],
      ['parsers', { input: 'http://example.com\\@evil.com/' }],
    ]) {
      const { page, context } = await open(browser, link({ ...params, view }), { viewport: { width, height: 900 } });
      const found = await page.evaluate(() => {
        // Where URLs and values are shown: these may break anywhere.
        // A value's "(empty string)" and a short value in the Parsers table are words too:
        // that table is as wide as its content (it scrolls sideways).
        const values = 'code, textarea, pre, .ruler, td.value, .vw-value:not(.pv-table .vw-value), .vw-null:not(.pv-table .vw-null), .vw-lesson-input, .vw-stop-at, #open-box, .verdict, table.trace td:nth-child(n+4), .welcome-example, svg';
        const out = [];
        const walker = document.createTreeWalker(document.querySelector('main'), NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          const parent = node.parentElement;
          if (!parent || parent.closest(values) || !parent.checkVisibility()) continue;
          for (const m of node.data.matchAll(/[A-Za-z]{4,}/g)) {
            const range = document.createRange();
            range.setStart(node, m.index);
            range.setEnd(node, m.index + m[0].length);
            const tops = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
            if (tops.size > 1) out.push(`${m[0]} (in ${parent.tagName.toLowerCase()}.${parent.className})`);
          }
        }
        return out;
      });
      broken.push(...found.map((f) => `${width} px, ${view}: ${f}`));
      await context.close();
    }
  }
  assert.deepEqual(broken, []);
});
