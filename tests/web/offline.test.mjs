// Nothing leaves the machine, and the page keeps working with its server gone.
//
// The page is served here, from URLSCOPE_WEB_DIR (tests/web.rs sets it; by hand, default
// target/web), by a server this script starts and stops. Every request Chromium makes (the
// page's, its workers' and its service worker's) is recorded and must be to the page's origin.
// Once the page has loaded, its service worker has taken it over and every reading the build
// holds (readings/NAME/worker.js) has answered, the server is stopped: typed URLs still get the
// engine's screen, each reading still answers (its worker started again, its files from the
// service worker's cache), and the page loads again from the cache alone. Then the server comes
// back with another build: the service worker replaces its cache with the new build's, and one
// whose file is not the one its list names is refused.
import http from "node:http";
import fs from "node:fs";
import path from "node:path";
import crypto from "node:crypto";
import { fileURLToPath } from "node:url";
import { launch, check } from "./browser.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(process.env.URLSCOPE_WEB_DIR ?? path.join(here, "..", "..", "target", "web"));
const TYPES = {
  ".html": "text/html; charset=utf-8", ".js": "text/javascript", ".mjs": "text/javascript",
  ".css": "text/css", ".wasm": "application/wasm", ".json": "application/json",
  ".txt": "text/plain; charset=utf-8", ".zip": "application/zip", ".whl": "application/zip",
  ".py": "text/plain; charset=utf-8",
};

// The build's list, as scripts/build-web wrote it into sw.js.
const sw = fs.readFileSync(path.join(root, "sw.js"), "utf8");
const listLine = sw.split("\n").find((line) => line.startsWith("const BUILD = "));
const build = JSON.parse(listLine.slice("const BUILD = ".length, listLine.lastIndexOf(";")));
check(Object.keys(build.files).length > 0, "sw.js holds no list of files: was it built by scripts/build-web?");
for (const [file, hash] of Object.entries(build.files)) {
  const bytes = fs.readFileSync(path.join(root, file));
  check(crypto.createHash("sha256").update(bytes).digest("hex") === hash, `sw.js lists another ${file}`);
}
check(Object.keys(build.files).length === walk(root).length - 1, "sw.js does not list every file of the page");
// The readings this build holds (a reading that could not be built has unavailable.txt instead).
const readings = Object.keys(build.files)
  .filter((f) => /^readings\/[^/]+\/worker\.js$/.test(f))
  .map((f) => f.split("/")[1]);
console.log(`the build: ${Object.keys(build.files).length} files, readings: ${readings.join(", ") || "none"}`);

function walk(dir) {
  return fs.readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)]));
}

// ---- The server: the folder, with files replaced by `overlay` (another build), on a fixed port.
let overlay = new Map();
const served = [];
const server = http.createServer((request, response) => {
  served.push(request.url);
  let file = decodeURIComponent(new URL(request.url, "http://localhost").pathname);
  if (file.endsWith("/")) file += "index.html";
  const data = overlay.get(file) ?? (() => {
    const full = path.join(root, file);
    return full.startsWith(root + path.sep) && fs.existsSync(full) && fs.statSync(full).isFile()
      ? fs.readFileSync(full) : null;
  })();
  if (data === null) {
    response.writeHead(404).end();
    return;
  }
  response.writeHead(200, {
    "content-type": TYPES[path.extname(file)] ?? "application/octet-stream",
    "cache-control": "no-store",
  });
  response.end(data);
});
const listen = (port) => new Promise((resolve, reject) => {
  server.once("error", reject);
  server.listen(port, "127.0.0.1", () => resolve(server.address().port));
});
const stopServing = () => new Promise((resolve) => {
  server.close(resolve);
  server.closeAllConnections();
});
const port = await listen(0);
const address = `http://127.0.0.1:${port}/`;
const origin = new URL(address).origin;

const { context, close } = await launch();
try {
  // Every request Chromium makes for this context: the pages', their workers' and the service
  // worker's (playwright-core reports a service worker's requests on the context).
  const requests = [];
  context.on("request", (request) => {
    requests.push({ url: request.url(), by: request.serviceWorker() ? "the service worker" : "the page" });
  });
  // The page's own reading workers, watched from inside the page (the Worker constructor
  // wrapped before the page's scripts run): which said "ready", and each "read" the page posted
  // with its answer. The page's coordinator (readings.js) may start them as it likes; what it
  // started must answer offline as online.
  await context.addInitScript(() => {
    const Native = window.Worker;
    const watch = { ready: {}, reads: [] };
    window.__readings = watch;
    window.Worker = class extends Native {
      constructor(url, options) {
        super(url, options);
        const match = /\/readings\/([^/]+)\/worker\.js$/.exec(new URL(url, location.href).pathname);
        // The test's own workers are named "offline test" (WorkerOptions.name).
        this.reading = match && options?.name !== "offline test" ? match[1] : null;
        if (!this.reading) return;
        const name = this.reading;
        watch.ready[name] ??= null;
        // A worker that does not start (a reading not built into the page: its script is not there).
        this.addEventListener("error", () => {
          if (watch.ready[name] === null) watch.ready[name] = "error";
        });
        this.addEventListener("message", (event) => {
          const message = event.data ?? {};
          if (message.type === "ready" || message.type === "unavailable") watch.ready[name] = message.type;
          const read = watch.reads.find((r) => r.name === name && r.id === message.id);
          if (message.type === "reading" && read) read.answers = message.answers;
        });
      }

      postMessage(message, ...rest) {
        super.postMessage(message, ...rest);
        if (this.reading && message?.type === "read") {
          watch.reads.push({ name: this.reading, id: message.id, input: message.input, base: message.base, answers: null });
        }
      }
    };
  });
  const page = await context.newPage();
  const errors = [];
  page.on("pageerror", (error) => errors.push(String(error)));
  page.on("console", (message) => {
    // The worker of a reading this build does not hold (not built here: unavailable.txt says
    // why) is not found, online as offline: the page then names the reading as not built.
    const notBuilt = /\/readings\/([^/]+)\/worker\.js$/.exec(message.location()?.url ?? "");
    if (notBuilt && !readings.includes(notBuilt[1])) return;
    if (message.type() === "error") errors.push(message.text());
  });
  const ready = async () => {
    await page.waitForSelector("html[data-engine=ready]", { timeout: 60000 });
  };
  await page.goto(address);
  await ready();
  console.log(`load: ${requests.length} requests`);

  // The service worker takes the page over once it has kept every file but the later ones.
  await page.waitForFunction(() => navigator.serviceWorker?.controller?.state === "activated", null, { timeout: 120000 });
  const cacheName = await page.evaluate(async () => (await caches.keys()).filter((k) => k.startsWith("urlscope ")));
  check(cacheName.length === 1 && cacheName[0] === `urlscope / ${build.id}`,
    `the caches: ${JSON.stringify(cacheName)}, not this build's ("urlscope / ${build.id}")`);

  // Each reading, in a worker of its own, started as the page starts it (by its address): it
  // says it is ready and answers. Its files are fetched through the service worker, which keeps
  // those of a later reading (Python's) as they come.
  const INPUTS = [["http://example.com\\@evil.com/", null], ["HTTPS://EXAMPLE.com/a/../b?q#f", null],
    ["../x y", "https://example.org/dir/"], ["http://[::1]:80/%7e", null]];
  const ask = (names, inputs) => page.evaluate(async ({ names, inputs }) => {
    const out = {};
    for (const name of names) {
      const worker = new Worker(`readings/${name}/worker.js`, { name: "offline test" });
      const messages = [];
      let wake = () => {};
      worker.onmessage = (event) => { messages.push(event.data); wake(); };
      worker.onerror = (event) => { messages.push({ type: "error", why: event.message ?? "an error" }); wake(); };
      const next = async () => {
        const deadline = Date.now() + 180000;
        while (messages.length === 0) {
          if (Date.now() > deadline) return { type: "timeout" };
          await new Promise((r) => { wake = r; setTimeout(r, 1000); });
        }
        return messages.shift();
      };
      const hello = await next();
      if (hello.type !== "ready") {
        out[name] = { hello };
        worker.terminate();
        continue;
      }
      const answers = [];
      for (const [id, [input, base]] of inputs.entries()) {
        worker.postMessage({ type: "read", id, input, base });
        const reply = await next();
        answers.push(reply.type === "reading" && reply.id === id ? reply.answers : reply);
      }
      worker.terminate();
      out[name] = { hello: hello.parsers.map((p) => `${p.name} ${p.version}`).join(", "), answers };
    }
    return out;
  }, { names, inputs });
  // The page's own readings: once every one it started has said ready (or unavailable), the
  // answers it got to `input`, by reading (none when the page started none).
  const pageReady = () => page.waitForFunction(() => Object.values(window.__readings.ready).every((r) => r !== null),
    null, { timeout: 180000 });
  const pageAnswers = async (input) => (await page.waitForFunction((input) => {
    const watch = window.__readings;
    const got = {};
    for (const name of Object.keys(watch.ready).filter((n) => watch.ready[n] === "ready")) {
      const read = watch.reads.filter((r) => r.name === name && r.input === input).at(-1);
      if (!read?.answers) return false;
      got[name] = read.answers;
    }
    return got;
  }, input, { timeout: 60000 })).jsonValue();
  // The coordinator's account of each reading (web/readings.js's status()), once every one is
  // loaded (Python's too, as a click loads it) and none is still starting; null in a page
  // without one.
  const coordinated = Object.hasOwn(build.files, "readings.js");
  const settledStatus = async () => {
    if (!coordinated) return null;
    await page.evaluate(async () => (await import("./readings.js")).loadLazy());
    const deadline = Date.now() + 180000;
    for (;;) {
      const status = await page.evaluate(async () => (await import("./readings.js")).status());
      const states = Object.values(status).map((r) => r.state);
      if (!states.some((s) => s === "starting" || s === "not-loaded")) return status;
      check(Date.now() < deadline, `readings still loading after 3 minutes: ${JSON.stringify(status)}`);
      await page.waitForTimeout(250);
    }
  };
  const states = (status) => JSON.stringify(Object.fromEntries(Object.entries(status ?? {}).map(([n, r]) => [n, r.state])));
  const statusOnline = await settledStatus();
  if (statusOnline) console.log(`online, the page's readings: ${states(statusOnline)}`);
  await pageReady();
  const online = await ask(readings, INPUTS);
  for (const name of readings) {
    // A reading that does not start online is its own test's failure (reading-NAME.test.mjs);
    // here it must do offline what it did online.
    if (online[name].answers === undefined) {
      console.log(`online: the ${name} reading did not start (${JSON.stringify(online[name].hello)})`);
      continue;
    }
    console.log(`online: ${name} ready (${online[name].hello})`);
    for (const answers of online[name].answers) {
      check(Object.values(answers).length > 0 && Object.values(answers).every((a) => a && typeof a.failure === "boolean"),
        `the ${name} reading answered ${JSON.stringify(answers)}`);
    }
  }

  // The later readings' files (Python's) that a first load fetched before the service worker
  // ran are kept when the page says so ("keep-later", as app.js does after such a load): taken
  // out of the cache here, they all come back (those the reading never fetches, too).
  const laterFiles = Object.keys(build.files).filter((f) => build.later.some((l) => f.startsWith(l)));
  if (laterFiles.length > 0) {
    const cacheOf = `urlscope / ${build.id}`;
    const count = () => page.evaluate(async ({ name, files }) => {
      const cache = await caches.open(name);
      let kept = 0;
      for (const f of files) if (await cache.match(f)) kept += 1;
      return kept;
    }, { name: cacheOf, files: laterFiles });
    await page.evaluate(async ({ name, files }) => {
      const cache = await caches.open(name);
      for (const f of files) await cache.delete(f);
      navigator.serviceWorker.controller.postMessage("keep-later");
    }, { name: cacheOf, files: laterFiles });
    const deadline = Date.now() + 120000;
    while (await count() < laterFiles.length) {
      check(Date.now() < deadline, `keep-later kept ${await count()} of ${laterFiles.length} later files`);
      await page.waitForTimeout(250);
    }
    console.log(`keep-later: the ${laterFiles.length} later files (${build.later.join(", ")}) kept again`);
  }

  // The page at rest: typing makes no request at all.
  const type = async (text) => {
    await page.fill("#input", text);
    await page.waitForFunction(() => document.body.dataset.busy === "false");
    return (await page.textContent("#href")) ?? "";
  };
  await page.waitForTimeout(1000);
  const before = requests.length;
  const typed = await type("HTTPS://EXAMPLE.com/a/../b?q#f");
  check(typed === "https://example.com/b?q#f", `typing showed ${JSON.stringify(typed)}`);
  await page.fill("#base", "https://example.org/dir/");
  const relative = await type("../x y");
  check(relative === "https://example.org/x%20y", `a relative input showed ${JSON.stringify(relative)}`);
  await page.waitForTimeout(500);
  check(requests.length === before, `requests while typing: ${requests.slice(before).map((r) => r.url).join(", ")}`);
  console.log("after load: no request while typing");

  // ---- The server gone.
  await stopServing();
  const refused = await fetch(address).then(() => false, () => true);
  check(refused, "the server still answers");
  const servedBefore = served.length;
  await page.fill("#base", "");
  const offline = await type("http://[::1]:80/%7e");
  check(offline === "http://[::1]/%7e", `offline, typing showed ${JSON.stringify(offline)}`);
  const spoof = await type("http://example.com\\@evil.com/");
  check(spoof === "http://example.com/@evil.com/", `offline, typing showed ${JSON.stringify(spoof)}`);
  console.log("offline: the screen still comes as one types");
  // What the page's own readings gave the typed input, offline, is what they give online.
  const samePage = async (input, when) => {
    const got = await pageAnswers(input);
    const index = INPUTS.findIndex(([i, base]) => i === input && base === null);
    for (const [name, answers] of Object.entries(got)) {
      const expected = online[name]?.answers?.[index];
      check(JSON.stringify(answers) === JSON.stringify(expected),
        `${when}, the page's ${name} reading of ${input} was ${JSON.stringify(answers)}, online ${JSON.stringify(expected)}`);
    }
    return Object.keys(got);
  };
  const shown = await samePage("http://example.com\\@evil.com/", "offline");
  console.log(`offline: the page's readings still come (${shown.join(", ") || "the page started none"})`);
  const again = await ask(readings, INPUTS);
  for (const name of readings) {
    check(JSON.stringify(again[name]) === JSON.stringify(online[name]),
      `offline, the ${name} reading gave ${JSON.stringify(again[name])}, online ${JSON.stringify(online[name])}`);
  }
  console.log(`offline: every reading starts again and answers as online (${readings.join(", ") || "none built"})`);

  // A reload with the server gone: the page comes from the service worker's cache.
  await page.reload();
  await ready();
  const reloaded = await type("https://EXAMPLE.org:443/./a");
  check(reloaded === "https://example.org/a", `offline, after a reload, typing showed ${JSON.stringify(reloaded)}`);
  const statusOffline = await settledStatus();
  check(states(statusOffline) === states(statusOnline),
    `offline after a reload, the page's readings are ${states(statusOffline)}, online ${states(statusOnline)}`);
  await pageReady();
  check(await type("http://[::1]:80/%7e") === "http://[::1]/%7e", "offline, after a reload, the screen did not come");
  const shownAgain = await samePage("http://[::1]:80/%7e", "offline after a reload");
  console.log(`offline after a reload: the page's readings come (${shownAgain.join(", ") || "the page started none"})`);
  check(served.length === servedBefore, `the stopped server was asked ${served.slice(servedBefore)}`);
  console.log("offline: the page loads again from the cache");
  check(errors.length === 0, `the page reported errors: ${errors.join("; ")}`);

  // ---- Another build on the same server: the service worker keeps it in place of this one.
  // build B has another controls-OFL.txt (a file the page never fetches itself); its list in
  // sw.js names it, so its id is another.
  const rebuilt = (file, bytes, listed = bytes) => {
    const files = { ...build.files, [file]: crypto.createHash("sha256").update(listed).digest("hex") };
    const list = Object.entries(files).map(([f, h]) => `"${f}":"${h}"`).join(",");
    const id = crypto.createHash("sha256").update(list).digest("hex").slice(0, 16);
    const line = `const BUILD = ${JSON.stringify({ id, files, later: build.later })};`;
    return { id, sw: sw.replace(listLine, line) };
  };
  const license = fs.readFileSync(path.join(root, "controls-OFL.txt"));
  // The page asks for sw.js again (as a load does): the new worker's end, once installed
  // (activated, as it takes over at once) or refused (redundant).
  const update = () => page.evaluate(async () => {
    const registration = await navigator.serviceWorker.getRegistration();
    const found = new Promise((resolve) => {
      registration.addEventListener("updatefound", () => resolve(registration.installing), { once: true });
      setTimeout(() => resolve(null), 30000);
    });
    await registration.update().catch(() => {});
    const worker = await found;
    if (!worker) return "no new worker";
    return new Promise((resolve) => {
      const settled = () => {
        if (worker.state === "activated" || worker.state === "redundant") resolve(worker.state);
      };
      worker.addEventListener("statechange", settled);
      settled();
    });
  });
  const keys = () => page.evaluate(async () => (await caches.keys()).filter((k) => k.startsWith("urlscope ")));

  // build C's list names a controls-OFL.txt other than the one served: its install fails and
  // build A stays.
  const c = rebuilt("controls-OFL.txt", Buffer.concat([license, Buffer.from("\nbuild C\n")]),
    Buffer.concat([license, Buffer.from("\nsomething else\n")]));
  overlay = new Map([["/sw.js", Buffer.from(c.sw)], ["/controls-OFL.txt", Buffer.concat([license, Buffer.from("\nbuild C\n")])]]);
  await listen(port);
  check(await update() === "redundant", "a build whose file is not its list's was installed");
  check(JSON.stringify(await keys()) === JSON.stringify([`urlscope / ${build.id}`]),
    `after a refused build, the caches are ${JSON.stringify(await keys())}`);
  console.log("another build whose file is not its list's: refused, this build's cache kept");

  const bBytes = Buffer.concat([license, Buffer.from("\nbuild B\n")]);
  const b = rebuilt("controls-OFL.txt", bBytes);
  overlay = new Map([["/sw.js", Buffer.from(b.sw)], ["/controls-OFL.txt", bBytes]]);
  check(await update() === "activated", "the new build's service worker did not take over");
  check(JSON.stringify(await keys()) === JSON.stringify([`urlscope / ${b.id}`]),
    `after the new build, the caches are ${JSON.stringify(await keys())}, not build B's alone`);
  const kept = await page.evaluate(async (name) => {
    const cache = await caches.open(name);
    return (await (await cache.match("controls-OFL.txt")).text()).slice(-9);
  }, `urlscope / ${b.id}`);
  check(kept === "\nbuild B\n", `the new cache holds another controls-OFL.txt (${JSON.stringify(kept)})`);
  console.log("another build: its cache replaces this build's");

  // The record holds the workers' own requests too (Go's module and Pyodide's files are fetched
  // by their workers): what is checked below is every request, not only the page's.
  const byReadings = requests.filter((r) => r.by === "the page" && /\/readings\/(go|python)\/(?!worker\.js$)[^/]+$/.test(new URL(r.url).pathname));
  check(!readings.some((n) => n === "go" || n === "python") || byReadings.length > 0,
    "no request of a reading's worker (Go's module, Pyodide's files) was recorded");

  // Every request, from the first: to the page's origin alone.
  const foreign = requests.filter((r) => new URL(r.url).origin !== origin);
  check(foreign.length === 0, `requests to other origins: ${foreign.map((r) => `${r.url} (by ${r.by})`).join(", ")}`);
  const byWorker = requests.filter((r) => r.by === "the service worker").length;
  console.log(`every request (${requests.length}, ${byWorker} by the service worker) was to ${origin}`);
} finally {
  await close();
  await stopServing().catch(() => {});
}
