// What the page's browser tests share: Chromium through playwright-core, and the built page
// (scripts/build-web → target/web/) served over HTTP: at URLSCOPE_WEB_URL when the harness
// serves it, else by a small static server started here.
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(process.env.URLSCOPE_WEB_DIR ?? path.join(here, '..', '..', 'target', 'web'));
const TYPES = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.mjs': 'text/javascript',
  '.css': 'text/css', '.wasm': 'application/wasm', '.json': 'application/json', '.svg': 'image/svg+xml',
  '.png': 'image/png', '.txt': 'text/plain; charset=utf-8',
};

let server = null;

/// The page's address: the harness's, or a server of target/web started here.
export async function pageUrl() {
  if (process.env.URLSCOPE_WEB_URL) return process.env.URLSCOPE_WEB_URL.replace(/\/?$/, '/');
  if (!server) {
    server = http.createServer((request, response) => {
      const url = new URL(request.url, 'http://localhost');
      let file = path.join(root, decodeURIComponent(url.pathname));
      if (!file.startsWith(root)) file = root;
      if (file.endsWith(path.sep) || file === root) file = path.join(file, 'index.html');
      fs.readFile(file, (error, data) => {
        if (error) {
          response.writeHead(404).end();
          return;
        }
        response.writeHead(200, { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream' });
        response.end(data);
      });
    });
    await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  }
  return `http://127.0.0.1:${server.address().port}/`;
}

export async function launch() {
  return chromium.launch({
    executablePath: process.env.URLSCOPE_CHROMIUM ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync'],
  });
}

/// Opens the page at `fragment` in a fresh context; resolves once the engine has drawn the
/// first screen. `requests` collects every request the page makes after that.
export async function open(browser, fragment = '', options = {}) {
  const context = await browser.newContext(options);
  const page = await context.newPage();
  const requests = [];
  const errors = [];
  const dialogs = [];
  let loaded = false;
  page.on('request', (r) => { if (loaded) requests.push(r.url()); });
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('dialog', (d) => { dialogs.push(d.message()); d.dismiss().catch(() => {}); });
  await page.goto(`${await pageUrl()}${fragment}`);
  await page.waitForSelector('body[data-ready="true"][data-busy="false"]');
  loaded = true;
  return { context, page, requests, errors, dialogs };
}

/// Waits until the screen shows the engine's answer to the latest change, and the address
/// follows it (the page writes the fragment once the frame that shows a change is painted).
export async function settled(page) {
  await page.waitForFunction(() => document.body.dataset.busy === 'false' && document.body.dataset.linked !== 'false');
  // One more frame for the DOM to be drawn.
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => r())));
}

export async function stop() {
  if (server) await new Promise((resolve) => server.close(resolve));
  server = null;
}
