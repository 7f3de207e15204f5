// The page's screenshots (run by hand after scripts/build-web): screenshots/page-phone.png at
// a phone's width (390 px), screenshots/page-projector.png at a projector's 1280x720, and
// screenshots/page-tabs-lesson.png, the lesson on tabs and newlines there (their pictures, ␉ ␊,
// come from the page's own font), and screenshots/page-parsers.png, the Parsers view of the
// README's spoofing example with every reading in.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { launch, open, stop } from './page.mjs';

const out = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'screenshots');
// A URL with something in every part, an error and a difference from Chromium, on the step
// where the host state takes the host.
const fragment = `#${new URLSearchParams({ input: 'HTTPS://user@EXAMPLE.com:443/a/./b/../c d?q=1#f', view: 'trace', step: '35' })}`;
const browser = await launch();
const tabs = `#${new URLSearchParams({ input: 'ht\ttps://exa\nmple.com/', view: 'trace', step: '1' })}`;
// The README's spoofing example in the Parsers view, once every reading built into the page
// (Python's too, which the page loads when idle) has answered.
const parsers = `#${new URLSearchParams({ input: 'http://example.com\\@evil.com/', view: 'parsers' })}`;
for (const [name, link, viewport, fullPage] of [
  ['page-phone.png', fragment, { width: 390, height: 844 }, false],
  ['page-projector.png', fragment, { width: 1280, height: 720 }, false],
  ['page-tabs-lesson.png', tabs, { width: 1280, height: 720 }, false],
  ['page-parsers.png', parsers, { width: 1280, height: 1000 }, false],
]) {
  const { page, context } = await open(browser, link, { viewport, deviceScaleFactor: 1 });
  if (link === parsers) {
    await page.waitForFunction(() => document.documentElement.dataset.readingsPending === '0'
      && document.documentElement.dataset.readingsLoading === '0'
      && document.querySelector('#panel-parsers tr[data-parser=python]')?.dataset.state !== 'not-loaded',
    null, { timeout: 120000, polling: 250 });
    await page.locator('#panel-parsers').scrollIntoViewIfNeeded();
  }
  await page.screenshot({ path: path.join(out, name), fullPage });
  await context.close();
}
await browser.close();
await stop();
