// What the browser tests share: Chromium through playwright-core, as tests/web.rs runs them.
//
// tests/web.rs builds the page (scripts/build-web), serves it on a local port and runs each
// tests/web/*.test.mjs with Node, with these variables set:
//   URLSCOPE_WEB_URL    the served page's address (ends with "/")
//   URLSCOPE_CHROMIUM   the Chromium to drive (default /usr/bin/chromium)
//   URLSCOPE_WPT_FILES  (JSON) the web-platform-tests data files by name, as tests/wpt.rs finds them
//   URLSCOPE_BIN        the urlscope command line of this build (to compare with `diff --json`)
// A script passes by exiting 0; it fails by throwing (or exiting non-zero), and what it printed is
// shown by the harness. Run one by hand the same way: `URLSCOPE_WEB_URL=http://localhost:8000/
// node tests/web/wpt.test.mjs` with the page served by `python3 -m http.server -d target/web`.
import { chromium } from "playwright-core";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const pageUrl = process.env.URLSCOPE_WEB_URL ?? "http://localhost:8000/";

/// Chromium headless with a fresh profile (removed by `close`), and a new context (no cache, no
/// storage shared with another test).
export async function launch() {
  const profile = mkdtempSync(join(tmpdir(), "urlscope-chromium-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.URLSCOPE_CHROMIUM ?? "/usr/bin/chromium",
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
  const close = async () => {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  };
  return { context, close };
}

/// Opens the page (optionally at `fragment`, e.g. "#input=…") and waits until the engine has
/// loaded: app.js sets `data-engine="ready"` on <html> then.
export async function openPage(context, fragment = "") {
  const page = await context.newPage();
  const errors = [];
  page.on("pageerror", (error) => errors.push(String(error)));
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });
  await page.goto(pageUrl + fragment);
  try {
    await page.waitForSelector("html[data-engine=ready]", { timeout: 30000 });
  } catch (e) {
    throw new Error(`the engine did not load: ${errors.join("; ") || e.message}`);
  }
  return { page, errors };
}

/// Fails the script with `message` (the harness shows it).
export function check(condition, message) {
  if (!condition) throw new Error(message);
}
