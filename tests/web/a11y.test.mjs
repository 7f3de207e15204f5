// axe-core on the page in light and dark: no serious or critical violation. Every control
// has a name; the two text boxes are labelled Input and Base.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { launch, open, settled, stop } from './page.mjs';

const axe = path.join(path.dirname(fileURLToPath(import.meta.url)), 'node_modules', 'axe-core', 'axe.min.js');

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); await stop(); });

for (const colorScheme of ['light', 'dark']) {
  test(`axe-core finds no serious or critical violation (${colorScheme})`, async () => {
    const input = 'https://user@exa mple.com:99999/a b?c#d';
    const { page, context } = await open(browser, `#input=${encodeURIComponent('https://user@EXAMPLE.com/a/../b c?q#f')}&base=${encodeURIComponent('http://b/')}&step=5`, { colorScheme });
    // The page's Content-Security-Policy forbids inline script: axe is evaluated by the test,
    // once per page.
    const source = fs.readFileSync(axe, 'utf8');
    const report = async () => {
      if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(source);
      return page.evaluate(() => window.axe.run(document, { resultTypes: ['violations'] }));
    };
    const failing = [];
    for (const tab of ['Trace', 'Host', 'Parsers', 'Base resolution', 'Grammar', 'Pattern', 'Lessons']) {
      await page.getByRole('tab', { name: tab }).click();
      await settled(page);
      const result = await report();
      for (const v of result.violations.filter((x) => x.impact === 'serious' || x.impact === 'critical')) {
        failing.push(`${tab}: ${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')}`);
      }
    }
    await page.getByLabel('Input', { exact: true }).fill(input);
    await settled(page);
    const result = await report();
    for (const v of result.violations.filter((x) => x.impact === 'serious' || x.impact === 'critical')) {
      failing.push(`failing input: ${v.id} (${v.impact})`);
    }
    // More screens: a relative reference's Base resolution (its step buttons: a name that is
    // the text seen), the port setter's lesson (its watched step's note on the marked row),
    // the Open… box's warning on a look-alike, and the welcome.
    const more = async (what, act) => {
      await act();
      await settled(page);
      for (const v of (await report()).violations.filter((x) => x.impact === 'serious' || x.impact === 'critical')) {
        failing.push(`${what}: ${v.id} (${v.impact}), ${v.nodes.length} nodes: ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')}`);
      }
    };
    await more('Base resolution of ../g;x?y#s', async () => {
      await page.getByLabel('Base', { exact: true }).fill('http://a/b/c/d;p?q');
      await page.getByLabel('Input', { exact: true }).fill('../g;x?y#s');
      await page.getByRole('tab', { name: 'Base resolution' }).click();
    });
    await more('the port setter lesson', async () => {
      await page.getByRole('tab', { name: 'Lessons' }).click();
      await page.locator('#panel-lessons [data-lesson]').filter({ hasText: '8080abc' }).first().click();
    });
    await more('the Open… box on a look-alike', async () => {
      await page.getByRole('tab', { name: 'Trace' }).click();
      await page.getByLabel('Base', { exact: true }).fill('');
      await page.getByLabel('Input', { exact: true }).fill('https://\u0440\u0430\u0443\u0440\u0430l.com/login');
      await settled(page);
      await page.getByRole('button', { name: 'Open…' }).click();
    });
    await more('the Parsers view of a spoofed URL', async () => {
      await page.getByLabel('Input', { exact: true }).fill('http://example.com\\@evil.com/');
      await page.getByRole('tab', { name: 'Parsers' }).click();
      await page.waitForFunction(() => document.documentElement.dataset.readingsPending === '0'
        && document.documentElement.dataset.readingsLoading === '0', null, { timeout: 120000 });
    });
    await more('the welcome', async () => {
      await page.getByLabel('Input', { exact: true }).fill('');
    });
    assert.deepEqual(failing, []);
    await context.close();
  });
}

test('keyboard only: Tab reaches the boxes, the tabs and the trace; arrows step', async () => {
  const { page, context } = await open(browser, `#input=${encodeURIComponent('a:b')}`);
  const seen = [];
  for (let i = 0; i < 40; i += 1) {
    await page.keyboard.press('Tab');
    seen.push(await page.evaluate(() => document.activeElement.id || document.activeElement.textContent));
  }
  for (const id of ['input', 'base', 'copy-link', 'tab-trace', 'step-next', 'trace-wrap']) {
    assert.ok(seen.includes(id), `${id} in ${seen}`);
  }
  await page.locator('#trace-wrap').focus();
  await page.keyboard.press('ArrowRight');
  await settled(page);
  assert.match(page.url(), /step=1/);
  await context.close();
});
