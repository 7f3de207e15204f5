// The page's benchmark (scripts/bench-web; not a timed test): first screen, keystroke to
// the screen painted at the 95th percentile for URLs up to 2 KB, each of the other parsers'
// readings (readings/NAME/, Web Workers) from load to ready and from a keystroke to its reading
// on screen, parse + href over kasztp.txt in WebAssembly against the browser's own
// new URL(s).href, and what each file, the first screen and each reading weigh gzipped.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { launch, open, stop, pageUrl } from './page.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(process.env.URLSCOPE_WEB_DIR ?? path.join(here, '..', '..', 'target', 'web'));
// The corpus: $KASZTP, else ../shared/bench/kasztp.txt beside the checkout (or a worktree's).
const corpus = process.env.KASZTP ?? [path.join(here, '..', '..', '..', 'shared', 'bench', 'kasztp.txt'),
  path.join(here, '..', '..', '..', '..', 'shared', 'bench', 'kasztp.txt')].find((f) => fs.existsSync(f));

const browser = await launch();

// First screen: from navigation to the engine's first drawn screen, in a fresh context.
const first = [];
for (let i = 0; i < 5; i += 1) {
  const { page, context } = await open(browser, `#input=${encodeURIComponent('https://example.com/a?b#c')}`);
  first.push(Number(await page.evaluate(() => document.body.dataset.firstScreen)));
  await context.close();
}
first.sort((a, b) => a - b);
console.log(`first screen: median ${first[2]} ms (of ${first.join(', ')})`);

// The first screen of a later visit, from the service worker's cache (sw.js): one context
// whose worker has kept the page, the page loaded five times more.
{
  const { page, context } = await open(browser, `#input=${encodeURIComponent('https://example.com/a?b#c')}`);
  await page.waitForFunction(() => navigator.serviceWorker?.controller, null, { timeout: 60000 }).catch(() => {});
  if (await page.evaluate(() => Boolean(navigator.serviceWorker?.controller))) {
    const again = [];
    for (let i = 0; i < 5; i += 1) {
      await page.reload();
      await page.waitForSelector('body[data-ready="true"][data-busy="false"]');
      again.push(Number(await page.evaluate(() => document.body.dataset.firstScreen)));
    }
    again.sort((a, b) => a - b);
    console.log(`first screen from the service worker's cache: median ${again[2]} ms (of ${again.join(', ')})`);
  } else {
    console.log('first screen from the service worker\'s cache: no service worker took the page over within a minute');
  }
  await context.close();
}

// The readings the build holds: readings/NAME/worker.js (a reading that could not be built has
// unavailable.txt instead).
const built = fs.existsSync(path.join(root, 'readings'))
  ? fs.readdirSync(path.join(root, 'readings')).filter((n) => fs.existsSync(path.join(root, 'readings', n, 'worker.js'))).sort()
  : [];

// Every Worker the page starts for a reading is watched from inside the page (an init script
// wraps the Worker constructor before the page's scripts run): when it said "ready", each
// "read" posted to it with the keystroke it followed, and for each "reading" that came back
// the end of the first frame painted after the page's own handlers had it (a requestAnimationFrame
// callback queued by a listener that runs before the page's, then a message posted from it,
// which is delivered once that frame's style, layout and paint are done, as for a keystroke).
// Whatever the page draws in its handler, or in a frame callback queued from it, is in that frame.
const WATCH = () => {
  const Native = window.Worker;
  const watch = { ready: {}, reads: [], keystroke: null, controlled: null };
  window.__readings = watch;
  navigator.serviceWorker?.addEventListener('controllerchange', () => { watch.controlled ??= performance.now(); });
  window.Worker = class extends Native {
    constructor(url, options) {
      super(url, options);
      const match = /\/readings\/([^/]+)\/worker\.js$/.exec(new URL(url, location.href).pathname);
      this.reading = match ? match[1] : null;
      if (!this.reading) return;
      const name = this.reading;
      watch.ready[name] ??= null;
      // A worker that does not start (a reading not built into the page: its script is not there).
      this.addEventListener('error', () => {
        if (watch.ready[name] === null) watch.ready[name] = { type: 'error', why: 'its worker did not start' };
      });
      this.addEventListener('message', (event) => {
        const message = event.data ?? {};
        if (message.type === 'ready' || message.type === 'unavailable') {
          watch.ready[name] = { type: message.type, at: performance.now(),
            parsers: (message.parsers ?? []).map((p) => `${p.name} ${p.version}`), why: message.why };
        }
        if (message.type !== 'reading') return;
        const read = watch.reads.find((r) => r.name === name && r.id === message.id);
        if (!read) return;
        read.answered = performance.now();
        requestAnimationFrame(() => {
          const channel = new MessageChannel();
          channel.port1.onmessage = () => { read.painted = performance.now(); };
          channel.port2.postMessage(null);
        });
      });
    }

    postMessage(message, ...rest) {
      super.postMessage(message, ...rest);
      if (this.reading && message?.type === 'read') {
        watch.reads.push({ name: this.reading, id: message.id, posted: performance.now(), keystroke: watch.keystroke });
      }
    }
  };
};

// Keystrokes: a URL typed a code point at a time, then grown to 2 KB. Each keystroke is
// dispatched at the start of a frame (in a requestAnimationFrame callback, where the loop
// resumes), so the frame that shows it is that one: "to the screen painted" is from the
// keystroke to the end of that frame's style, layout and paint (a message posted then is
// delivered after them), the page's whole part of a keystroke, which must stay under 16 ms
// for the keystroke to be on screen at the next frame. "To the next frame" (the figure
// measured before) is to the next requestAnimationFrame callback: at least one frame
// interval (16.7 ms at 60 Hz) by construction, whatever the page does.
const context = await browser.newContext();
await context.addInitScript(WATCH);
const page = await context.newPage();
await page.goto(await pageUrl());
await page.waitForSelector('body[data-ready="true"][data-busy="false"]');

// The readings from the page's load to "ready": every reading the build holds that the page
// starts (Python's when the page is idle or on a click: one the page has not started after a
// minute is told as not loaded).
const readyBy = Date.now() + 60000;
let ready = {};
while (Date.now() < readyBy) {
  ready = await page.evaluate(() => window.__readings.ready);
  if (built.every((name) => ready[name])) break;
  await page.waitForTimeout(500);
}
const loaded = built.filter((name) => ready[name]?.type === 'ready');
// The service worker (sw.js) keeps the page's files once registered: its install fetches them
// all again, so the keystrokes are timed after it, as a page loaded once before sees them.
const offline = await page.evaluate(async () => {
  if (!navigator.serviceWorker) return 'no service worker here';
  const deadline = performance.now() + 60000;
  while (!navigator.serviceWorker.controller && performance.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  const at = window.__readings.controlled;
  return navigator.serviceWorker.controller
    ? `the service worker has kept the page's files and serves it ${at === null ? '(at an unknown time)' : `${Math.round(at)} ms after navigation`}`
    : 'the service worker did not take the page over within a minute';
});
console.log(offline);
for (const name of built) {
  const r = ready[name];
  if (!r) console.log(`reading ${name}: not started by the page within a minute of its load`);
  else if (r.type !== 'ready') console.log(`reading ${name}: ${r.type} (${r.why})`);
  else console.log(`reading ${name}: ready ${Math.round(r.at)} ms after navigation (${r.parsers.join(', ')})`);
}

const { times, afterLink } = await page.evaluate(async () => {
  const input = document.getElementById('input');
  const frame = () => new Promise((r) => requestAnimationFrame(() => r()));
  // When the frame under way has been painted: the time a message posted now is delivered.
  const painted = () => new Promise((r) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => r(performance.now());
    channel.port2.postMessage(null);
  });
  const idle = async () => {
    while (document.body.dataset.busy !== 'false') await new Promise((r) => setTimeout(r, 0));
  };
  // One keystroke, typed at the start of a frame: its times to the DOM, the paint, the next frame.
  const keystroke = async (text) => {
    await frame();
    const started = performance.now();
    window.__readings.keystroke = started;
    input.value = text;
    input.dispatchEvent(new Event('input'));
    await idle();
    const drawn = performance.now();
    const shown = painted();
    await frame();
    const next = performance.now();
    return { next: next - started, dom: drawn - started, painted: (await shown) - started };
  };
  const out = [];
  const target = `https://user:pw@www.example.com:8080/${'path/segment/'.repeat(150)}?q=${'x'.repeat(40)}#frag`.slice(0, 2048);
  for (const length of [40, 200, 600, 1200, 2048]) {
    for (let i = 0; i < 40; i += 1) {
      out.push({ length, ...await keystroke(target.slice(0, length - 40 + i)) });
    }
  }
  // The worst moment to type: in the frame after the address has been written (a pause in the
  // typing long enough for the page to write it), while the browser's process updates its
  // history entry and address bar.
  const afterLink = [];
  for (let i = 0; i < 20; i += 1) {
    while (document.body.dataset.linked !== 'true') await new Promise((r) => setTimeout(r, 10));
    afterLink.push(await keystroke(target.slice(0, 600 + i)));
  }
  return { times: out, afterLink };
});
// The 95th percentile, and the median after it in brackets.
const quantile = (xs, q) => xs.sort((a, b) => a - b)[Math.floor(xs.length * q)];
const figures = (ts) => ['painted', 'dom', 'next'].map((k) => {
  const xs = ts.map((t) => t[k]);
  return `${quantile(xs, 0.95).toFixed(1)} (${quantile(xs, 0.5).toFixed(1)})`;
});
const [painted, dom, next] = figures(times);
const paintedP95 = quantile(times.map((t) => t.painted), 0.95);
console.log(`keystroke to screen, 95th percentile (median) over ${times.length} keystrokes of URLs up to 2 KB${loaded.length ? ` with the readings of ${loaded.join(', ')} in` : ''}: ${painted} ms to the screen painted${paintedP95 > 16 ? ' (over 16 ms)' : ''}, ${dom} ms to the DOM updated, ${next} ms to the next frame`);
for (const length of [40, 200, 600, 1200, 2048]) {
  const [p, d, n] = figures(times.filter((t) => t.length === length));
  console.log(`  up to ${length} bytes: ${p} ms painted, ${d} ms DOM, ${n} ms next frame`);
}
{
  const [p, d, n] = figures(afterLink);
  console.log(`  ${afterLink.length} keystrokes in the frame after the address was written: ${p} ms painted, ${d} ms DOM, ${n} ms next frame`);
}

// Each loaded reading, from a keystroke to its reading on screen: confusion inputs typed a
// code point at a time, each keystroke at the start of a frame, the next one once every loaded
// reading's answer to it has been painted (or after 5 s). The page asks a reading for the
// latest input only: the answer counted is the one to the last read posted after the keystroke.
const CONFUSIONS = ['http://example.com\\@evil.com/', 'https://evil.example\\@good.example/', 'https://fa\u00df.de/',
  'http://0x7f.1/admin', 'https://user@[::1]:8080/a/../b?q#f', 'HTTP://EXAMPLE.COM:80/%2e%2E/x'];
const latencies = await page.evaluate(async ({ inputs, names }) => {
  const watch = window.__readings;
  const input = document.getElementById('input');
  const frame = () => new Promise((r) => requestAnimationFrame(() => r()));
  const out = Object.fromEntries(names.map((n) => [n, []]));
  const missed = Object.fromEntries(names.map((n) => [n, 0]));
  for (const text of inputs) {
    for (let end = 8; end <= text.length; end += 1) {
      await frame();
      const started = performance.now();
      watch.keystroke = started;
      input.value = text.slice(0, end);
      input.dispatchEvent(new Event('input'));
      const latest = () => Object.fromEntries(names.map((n) => [n, watch.reads.filter((r) => r.name === n && r.keystroke === started).at(-1)]));
      const deadline = started + 5000;
      while (performance.now() < deadline && !names.every((n) => latest()[n]?.painted)) {
        await new Promise((r) => setTimeout(r, 2));
      }
      for (const [n, read] of Object.entries(latest())) {
        if (read?.painted) out[n].push({ painted: read.painted - started, posted: read.posted - started, answered: read.answered - started });
        else missed[n] += 1;
      }
    }
  }
  return { out, missed };
}, { inputs: CONFUSIONS, names: loaded });
const p95 = (xs) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * 0.95))];
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
for (const name of loaded) {
  const xs = latencies.out[name].map((t) => t.painted);
  const asked = latencies.out[name].map((t) => t.posted);
  const answered = latencies.out[name].map((t) => t.answered);
  const missed = latencies.missed[name] ? `, ${latencies.missed[name]} keystrokes without its reading on screen within 5 s` : '';
  if (xs.length === 0) {
    console.log(`reading ${name}: no reading on screen after a keystroke (the page did not ask it${missed})`);
    continue;
  }
  const over = p95(xs) > 100 ? ' (over 100 ms)' : '';
  console.log(`reading ${name}: keystroke to its reading on screen, 95th percentile ${p95(xs).toFixed(1)} ms${over} (median ${median(xs).toFixed(1)}) over ${xs.length} keystrokes${missed}; to the read posted ${p95(asked).toFixed(1)} (${median(asked).toFixed(1)}), to its answer on the page's thread ${p95(answered).toFixed(1)} (${median(answered).toFixed(1)})`);
}

// Parse + href over the corpus, in WebAssembly and in the browser, in one page.
const lines = fs.readFileSync(corpus, 'utf8').replace(/^\uFEFF/, '').split('\n').filter(Boolean);
const result = await page.evaluate(async (lines) => {
  const { engine } = await import('./app.js');
  const run = (f) => {
    const started = performance.now();
    let n = 0;
    for (const line of lines) if (f(line) !== undefined) n += 1;
    return [performance.now() - started, n];
  };
  const browser = (s) => { try { return new URL(s).href; } catch { return undefined; } };
  const wasm = (s) => engine.href(s);
  // Warm both, then take each one's best of seven passes, the two in turn: a burst of load
  // from elsewhere on the machine then falls on both rather than on one side's passes.
  run(browser); run(wasm);
  const best = { browser: [Infinity, 0], wasm: [Infinity, 0] };
  for (let i = 0; i < 7; i += 1) {
    for (const [name, f] of [['browser', browser], ['wasm', wasm]]) {
      const r = run(f);
      if (r[0] < best[name][0]) best[name] = r;
    }
  }
  return best;
}, lines);
console.log(`kasztp.txt (${lines.length} URLs): WebAssembly ${result.wasm[0].toFixed(1)} ms (${result.wasm[1]} parsed), browser new URL ${result.browser[0].toFixed(1)} ms (${result.browser[1]} parsed): ratio ${(result.wasm[0] / result.browser[0]).toFixed(2)}`);
await context.close();
await browser.close();
await stop();

// What each file weighs over the wire, gzipped, and in the groups tests/web.rs limits: the
// first screen (all but readings/, at most 2 MiB), the readings but Python's (at most 2 MiB
// more), each reading, and Python's (told, not limited).
const walk = (dir) => fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)]));
const groups = new Map();
const add = (group, size) => groups.set(group, (groups.get(group) ?? 0) + size);
for (const file of walk(root).sort()) {
  const name = path.relative(root, file).split(path.sep).join('/');
  const size = zlib.gzipSync(fs.readFileSync(file), { level: 9 }).length;
  console.log(`  ${name}: ${(size / 1024).toFixed(1)} KiB gzipped`);
  add('all', size);
  if (!name.startsWith('readings/')) add('first', size);
  else if (name.startsWith('readings/python/')) add('python', size);
  else {
    add('readings', size);
    if (name.split('/').length > 2) add(`reading ${name.split('/')[1]}`, size);
  }
}
const kib = (group) => `${((groups.get(group) ?? 0) / 1024).toFixed(1)} KiB`;
console.log(`the first screen (all but readings/): ${kib('first')} gzipped (limit 2048 KiB)`);
console.log(`the readings but Python's: ${kib('readings')} gzipped (limit 2048 KiB more)`);
for (const group of [...groups.keys()].filter((g) => g.startsWith('reading ')).sort()) {
  console.log(`  ${group.slice(8)}: ${kib(group)}`);
}
console.log(`Python's reading (readings/python/): ${kib('python')} gzipped (not limited)`);
console.log(`transfer size, gzipped, all: ${kib('all')}`);
