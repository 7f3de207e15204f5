// A keystroke draws what is on the screen in its frame, and the panes off the screen (below
// the window, where a long URL pushes them) once that frame is painted: the page has caught up
// (data-linked "true") with every pane drawn for the new input.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, open, settled, stop } from './page.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); await stop(); });

const LONG = `https://example.com/${'segment/'.repeat(250)}`.slice(0, 2040);

test('a keystroke leaves the panes below the window for after its frame, then draws them', async () => {
  const { page, context, errors } = await open(browser, `#input=${encodeURIComponent(LONG)}`);
  // Two frames: the page knows by then which panes are on the screen.
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  const below = await page.evaluate(() => document.getElementById('components').getBoundingClientRect().top > innerHeight);
  assert.ok(below, 'the Components pane is below the window');
  // The state right after the keystroke's task, before its frame.
  const during = await page.evaluate((long) => {
    const input = document.getElementById('input');
    input.value = `${long}x`;
    input.dispatchEvent(new Event('input'));
    const d = document.body.dataset;
    return { busy: d.busy, linked: d.linked, ruler: document.getElementById('ruler').textContent,
      href: document.getElementById('href').textContent };
  }, LONG);
  assert.equal(during.busy, 'false');
  assert.ok(during.ruler.endsWith('/x'), `the ruler, on the screen, is drawn: …${during.ruler.slice(-12)}`);
  assert.ok(!during.href.endsWith('/x'), 'the href, off the screen, is left for after the frame');
  assert.equal(during.linked, 'false', 'the page has not caught up yet');
  await settled(page);
  assert.ok((await page.locator('#href').textContent()).endsWith('/x'), 'then drawn');
  assert.deepEqual(errors, []);
  await context.close();
});
