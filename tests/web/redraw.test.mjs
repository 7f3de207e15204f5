// A keystroke redraws only what changed: the page keeps the elements and text nodes of what
// stayed the same (the Trace's rows, the panes' rows, the errors), writes the new text into the
// text nodes that were there, and keeps the focus and a selection in a pane it did not change.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, open, settled, stop } from './page.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); await stop(); });

// A 2 KB URL with a validation error (the credentials) early on: typing at its end changes the
// href and the last of the trace, not the first 101 steps the Trace shows.
const LONG = `https://user@example.com/${'segment/'.repeat(250)}`.slice(0, 2040);

/// Marks the nodes a keystroke should keep: each is given a number, read back afterwards.
const mark = (page) => page.evaluate(() => {
  const nodes = {
    rows: [...document.querySelectorAll('#trace-body tr')],
    cells: [...document.querySelectorAll('#trace-body td')].map((td) => td.firstChild).filter(Boolean),
    components: [...document.querySelectorAll('#components tr')],
    href: document.querySelector('#href').firstChild,
    browser: [...document.querySelectorAll('#browser tr')],
    errors: [...document.querySelectorAll('#errors li')],
    detail: [...document.querySelectorAll('#step-detail *')],
    ruler: [...document.querySelectorAll('#ruler span')],
  };
  window.marked = nodes;
  return Object.fromEntries(Object.entries(nodes).map(([k, v]) => [k, Array.isArray(v) ? v.length : 1]));
});

/// How many of the marked nodes of each kind are still in the page.
const kept = (page) => page.evaluate(() => Object.fromEntries(Object.entries(window.marked)
  .map(([k, v]) => [k, (Array.isArray(v) ? v : [v]).filter((n) => n && n.isConnected).length])));

test('a keystroke keeps the nodes of what it did not change, and writes text in place', async () => {
  const { page, context, errors } = await open(browser, `#input=${encodeURIComponent(LONG)}`);
  const before = await mark(page);
  assert.equal(before.rows, 101);
  const input = page.getByLabel('Input', { exact: true });
  await input.focus();
  await page.keyboard.press('End');
  await page.keyboard.type('x');
  await settled(page);
  // The screen is the new input's …
  const href = await page.locator('#href').textContent();
  assert.ok(href.endsWith('segment/x'), href.slice(-20));
  // … drawn into the nodes that were there.
  assert.deepEqual(await kept(page), before);
  assert.equal(await page.evaluate(() => window.marked.href.data), href, "the href's text node, updated");
  // The focus and the caret stay in the Input, at its end.
  assert.deepEqual(await page.evaluate(() => [document.activeElement.id,
    document.activeElement.selectionStart, document.activeElement.value.length]), ['input', LONG.length + 1, LONG.length + 1]);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a step keeps the rows that stay in the window and a selection in the panes', async () => {
  const { page, context } = await open(browser, `#input=${encodeURIComponent(LONG)}&step=500`);
  const before = await mark(page);
  // The protocol's value selected, as one selects it to copy it.
  await page.evaluate(() => {
    const row = [...document.querySelectorAll('#components tr')].find((r) => r.querySelector('th')?.textContent === 'protocol');
    getSelection().selectAllChildren(row.querySelector('td span'));
  });
  await page.evaluate(() => document.getElementById('step-next').click());
  await settled(page);
  assert.equal(await page.$eval('#trace-body tr.current td', (td) => td.textContent), '501');
  // The window moved by one row: one row went, one came, the hundred others stayed.
  const now = await kept(page);
  assert.equal(now.rows, before.rows - 1);
  assert.equal(now.components, before.components);
  assert.equal(now.errors, before.errors);
  assert.equal(await page.evaluate(() => getSelection().toString()), 'https:');
  await context.close();
});
