// Permalinks are links anyone can send: their input, base and pattern are the attacker's.
// Opened, they must open no dialog, make no element from the payload, run no javascript: URL,
// and fetch nothing.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, open, pageUrl, settled, stop } from './page.mjs';

const PAYLOADS = [
  '<img src=x onerror=alert(1)>',
  '"><script>alert(2)</script>',
  'javascript:alert(3)',
  'javascript:alert(document.domain)//<svg onload=alert(4)>',
  'https://example.com/\u202Egnp.exe\u202C<iframe src=javascript:alert(5)>',
  'https://\u202Eelgoog.com\u2066/<b>bold</b>',
];

let browser;
/// The census of a harmless input's page, which each payload's page is held against.
let expected;
before(async () => {
  browser = await launch();
  const harmless = await open(browser, `#input=${encodeURIComponent('https://example.com/')}`);
  expected = await census(harmless.page);
  await harmless.context.close();
});
after(async () => { await browser?.close(); await stop(); });

/// Every element of the page, by tag: what the page made, to compare with a harmless input's.
const census = (page) => page.evaluate(() => {
  const counts = {};
  for (const e of document.querySelectorAll('img, script, iframe, object, embed, b, form, link, style, video, audio, base')) {
    const key = e.tagName.toLowerCase();
    counts[key] = (counts[key] ?? 0) + 1;
  }
  // An event handler attribute anywhere (onerror, onload) would be the payload's.
  for (const e of document.querySelectorAll('*')) {
    for (const a of e.getAttributeNames()) if (a.startsWith('on')) counts[`[${a}]`] = (counts[`[${a}]`] ?? 0) + 1;
  }
  return counts;
});

for (const payload of PAYLOADS) {
  test(`a permalink carrying ${JSON.stringify(payload)} stays text`, async () => {
    const fragment = new URLSearchParams({ input: payload, base: payload, pattern: payload, view: 'trace' });
    const { page, context, requests, dialogs, errors } = await open(browser, `#${fragment}`);
    // Every view, with the payload in it.
    for (const tab of ['Host', 'Base resolution', 'Grammar', 'Pattern', 'Lessons', 'Trace']) {
      await page.getByRole('tab', { name: tab }).click();
    }
    const base = 'http://example.com/';
    await page.getByLabel('Base', { exact: true }).fill(base);
    await settled(page);
    for (const open of await page.getByRole('button', { name: 'Open…' }).all()) await open.click();
    // A javascript: URL is never a link.
    const links = await page.$$eval('a', (as) => as.map((a) => a.getAttribute('href')));
    assert.ok(links.every((href) => /^https?:/.test(href)), JSON.stringify(links));
    for (const a of await page.locator('#open-box a').all()) {
      assert.match(await a.getAttribute('href'), /^https?:\/\//);
    }
    await page.waitForTimeout(200);
    assert.deepEqual(await census(page), expected, 'no element made from the payload');
    assert.deepEqual(dialogs, [], 'no dialog opened');
    // Nothing fetched but the other parsers' readings, from the page's own folder.
    const readings = `${await pageUrl()}readings/`;
    assert.deepEqual(requests.filter((r) => !r.startsWith(readings)), [], 'nothing fetched');
    assert.deepEqual(errors, []);
    // The payload is on the page as text: the Input box holds it exactly.
    assert.equal(await page.getByLabel('Input', { exact: true }).inputValue(), payload);
    // A bidi control never reaches the screen as itself.
    const shown = await page.locator('#ruler').innerText();
    assert.ok(!/[\u202A-\u202E\u2066-\u2069]/.test(shown), shown);
    await context.close();
  });
}
