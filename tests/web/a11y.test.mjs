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
    for (const tab of ['Trace', 'Host', 'Base resolution', 'Grammar', 'Pattern', 'Lessons']) {
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
