// The page's readings of the parser differential, and the one verdict over them: the
// coordinator. The parsers compiled into the engine's module (urlscope's URL Standard parser,
// rust-url, strict RFC 3986, the http crate) read each input there; every other reading the
// terminal's `urlscope diff` has runs in a Web Worker of its own, readings/NAME/worker.js
// (protocol: web/readings/README.md). This module starts the workers, sends each the latest
// input only, keeps their answers for that input, and asks the engine's `readings()`
// (crates/urlscope-web/src/parsers.rs) to judge them: the verdict line, the Host view's
// findings and the Parsers view come from that one call, which is the library's decision that
// `urlscope diff` and `urlscope check` make. A parser without a reading here (not answered
// yet, not loaded, not built into this page, Java's terminal only) is never counted as
// agreeing: the engine names it with why.

/// Every worker reading the page knows: its folder under readings/, the parsers it gives (what
/// the page shows before the worker says), and whether it loads only on demand (Python: about
/// 6 MB, loaded on a click on its button or once the page is idle after load).
export const READINGS = [
  { name: 'curl', parsers: ['curl'] },
  { name: 'node', parsers: ['node'] },
  { name: 'node-legacy', parsers: ['node-legacy'] },
  { name: 'go', parsers: ['go'] },
  { name: 'whatwg-url', parsers: ['whatwg-url'] },
  { name: 'python', parsers: ['python', 'urllib3'], lazy: true, load: 'Load Python (≈6 MB)' },
];

// Past this many UTF-16 code units of input and base, the readings are neither asked for nor
// judged: app.js's ON_THREAD_MAX, past which the page's own screen comes from its worker (the
// judgement uses the report the page's thread made for its screen, and would make a long
// one here, on the page's thread).
const JUDGED_MAX = 64 * 1024;

let engine = null;
let redraw = () => {};
// One entry per worker reading: {spec, state, why, worker, parsers: [{name, implementation,
// version}], busy (an id sent and not answered), sent (the last id sent)}.
const workers = new Map();
// The latest input: {id, input, base}; the answers for it, by parser name.
let latest = null;
let answers = new Map();
// The engine's last judgement, and for which input (id) it was made.
let result = null;
let judgeScheduled = false;

/// Starts the eager readings' workers; `onJudged` is called after each new judgement (the
/// verdict line and the open view redraw from `current()`).
export function start(theEngine, onJudged) {
  engine = theEngine;
  redraw = onJudged ?? redraw;
  for (const spec of READINGS) {
    const entry = { spec, state: spec.lazy ? 'not-loaded' : 'starting', why: null, worker: null,
      parsers: spec.parsers.map((name) => ({ name })), busy: null, sent: null };
    workers.set(spec.name, entry);
    if (!spec.lazy) launch(entry);
  }
}

/// Loads the lazy readings (Python): on a click, or when the page is idle after load.
export function loadLazy() {
  for (const entry of workers.values()) {
    if (entry.state === 'not-loaded') launch(entry);
  }
  schedule();
}

/// Whether a lazy reading is still to load (the Parsers view shows its button then).
export function lazyToLoad() {
  return [...workers.values()].filter((e) => e.state === 'not-loaded').map((e) => e.spec);
}

function launch(entry) {
  entry.state = 'starting';
  let worker;
  try {
    worker = new Worker(new URL(`./readings/${entry.spec.name}/worker.js`, import.meta.url));
  } catch (error) {
    missing(entry, String(error));
    return;
  }
  entry.worker = worker;
  worker.onmessage = (event) => received(entry, event.data);
  // A worker script that is not there (404) or does not start: the build wrote why, or the
  // reading was never built into this page.
  worker.onerror = (event) => {
    event.preventDefault?.();
    if (entry.state === 'starting') missing(entry, event.message || null);
    else unavailable(entry, `its worker failed: ${event.message || 'an error'}`);
  };
}

/// A worker that did not start: readings/NAME/unavailable.txt says why when the build could
/// not make it; without it, the reading is not built into this page.
async function missing(entry, error) {
  entry.worker?.terminate();
  entry.worker = null;
  let why = null;
  try {
    const response = await fetch(new URL(`./readings/${entry.spec.name}/unavailable.txt`, import.meta.url));
    if (response.ok) why = (await response.text()).trim().split('\n')[0] || null;
  } catch {
    // Offline, or no file: the reading is not here.
  }
  if (why === null && error && !/404|not found|failed to fetch|load/i.test(error)) {
    unavailable(entry, error);
    return;
  }
  entry.state = 'not-built';
  entry.why = why;
  settle(entry);
}

function unavailable(entry, why) {
  entry.worker?.terminate();
  entry.worker = null;
  entry.state = 'unavailable';
  entry.why = why;
  settle(entry);
}

/// A reading that will not answer: no request of it stays out.
function settle(entry) {
  entry.busy = null;
  schedule();
}

function received(entry, message) {
  if (!message || typeof message !== 'object') return;
  if (message.type === 'ready') {
    entry.state = 'ready';
    if (Array.isArray(message.parsers) && message.parsers.length) {
      entry.parsers = message.parsers.filter((p) => p && typeof p.name === 'string');
    }
    send(entry);
    if (latest) watch(entry);
    schedule();
  } else if (message.type === 'unavailable') {
    unavailable(entry, String(message.why ?? 'it cannot start here'));
  } else if (message.type === 'reading') {
    entry.busy = null;
    // How long its last answer took, sent to received (the benchmark reads it).
    entry.ms = performance.now() - entry.sentAt;
    // An answer to an older input is dropped; the latest is sent if it was not yet.
    if (latest && message.id === latest.id && message.answers && typeof message.answers === 'object') {
      for (const p of entry.parsers) {
        const answer = message.answers[p.name];
        if (answer && typeof answer === 'object') answers.set(p.name, answer);
      }
      schedule();
    }
    send(entry);
  }
}

/// Sends the latest input to a ready worker that is not reading another: a worker busy with an
/// older input gets the latest once it answers, so keystrokes never queue up in a worker.
function send(entry) {
  if (!latest || entry.state !== 'ready' || entry.busy !== null || entry.sent === latest.id) return;
  entry.busy = latest.id;
  entry.sent = latest.id;
  entry.sentAt = performance.now();
  entry.worker.postMessage({ type: 'read', id: latest.id, input: latest.input, base: latest.base });
}

let nextId = 0;

/// A new input (or base: '' is none): sent to the workers, and judged at once with the module's
/// own readings (the workers' then pending), so the verdict line is this input's in this frame.
export function read(input, base) {
  const b = base === '' || base == null ? null : base;
  if (latest && latest.input === input && latest.base === b) return;
  nextId += 1;
  latest = { id: nextId, input, base: b };
  answers = new Map();
  if (input.length + (b ?? '').length > JUDGED_MAX) {
    // Not judged (see JUDGED_MAX), so not read either: no worker spends itself on it.
    result = { id: latest.id, input, base: b, model: null };
    return;
  }
  judge({ quiet: true });
  sendAfterFrame();
}

let sendPending = false;

/// Sends the latest input to the workers at the next frame's start, not in the keystroke's
/// frame: the workers then read while the page's thread has nothing else to draw, rather than
/// while it lays out and paints the keystroke (the machine's cores are shared: on two, six
/// workers woken in the keystroke's frame took its CPU). In `scripts/bench-web`, at load 6 to 7:
/// the keystroke 20.9 ms to the screen painted at the 95th percentile (median 9.4) and each
/// reading on screen 44.4 ms after it (36.6), against 84.5 (18.8) and 32.5 (23.6) when the
/// input was posted at once. Keystrokes faster than frames send one input.
function sendAfterFrame() {
  if (sendPending) return;
  sendPending = true;
  const go = () => {
    sendPending = false;
    if (!latest) return;
    for (const entry of workers.values()) {
      send(entry);
      watch(entry);
    }
  };
  if (typeof requestAnimationFrame === 'function' && document.visibilityState !== 'hidden') {
    requestAnimationFrame(go);
  } else {
    setTimeout(go, 0);
  }
}

// How long a worker may take over an input before the page says it gave no answer (the
// terminal's adapters have 5 s; a worker's first call may compile its module's functions).
const ANSWER_MS = 10000;

/// Gives a ready worker ANSWER_MS to answer the latest input; past that its parsers read
/// "no answer" for this input (an answer that comes later still counts), so that a worker
/// that hangs never leaves the verdict judging.
function watch(entry) {
  if (entry.state !== 'ready') return;
  const { id } = latest;
  setTimeout(() => {
    if (!latest || latest.id !== id || entry.state !== 'ready') return;
    let late = false;
    for (const p of entry.parsers) {
      if (answers.has(p.name)) continue;
      answers.set(p.name, { available: false, version: p.version ?? null, failure: false,
        error: `no answer within ${ANSWER_MS / 1000} s`, scheme: null, username: null, password: null,
        host: null, port: null, path: null, query: null, fragment: null, late: true });
      late = true;
    }
    if (late) schedule();
  }, ANSWER_MS);
}

/// Loads the lazy readings once the page has been idle a while after load (its first screen
/// drawn, the engine warmed up): a class that opens the page gets Python without a click.
export function loadWhenIdle(rounds = 3) {
  if (typeof requestIdleCallback !== 'function') {
    setTimeout(loadLazy, 5000);
    return;
  }
  // A few idle periods in a row, each at least a second apart: not while the page is busy.
  requestIdleCallback(() => {
    if (rounds <= 1) loadLazy();
    else setTimeout(() => loadWhenIdle(rounds - 1), 1000);
  });
}

/// Judges once in the next frame however many answers come before it: the engine is asked
/// when the answers changed, not once a message.
function schedule() {
  if (judgeScheduled || !latest) return;
  judgeScheduled = true;
  const run = () => {
    judgeScheduled = false;
    judge();
  };
  if (typeof requestAnimationFrame === 'function' && document.visibilityState !== 'hidden') requestAnimationFrame(run);
  else setTimeout(run, 0);
}

/// The coordinator's list for the engine: each worker parser with its state and answer.
function given() {
  const list = [];
  for (const entry of workers.values()) {
    for (const p of entry.parsers) {
      const item = { name: p.name, implementation: p.implementation ?? null, version: p.version ?? null };
      const answer = answers.get(p.name);
      if (answer) {
        item.state = 'answered';
        item.answer = answer;
      } else if (entry.state === 'ready') {
        item.state = 'pending';
      } else if (entry.state === 'starting') {
        // Not ready yet: no answer is awaited, and the verdict line does not wait for it.
        item.state = 'loading';
      } else {
        item.state = entry.state;
        // Not loaded: the Parsers view's button says what loading it costs.
        if (entry.state !== 'not-loaded') item.why = entry.why;
      }
      list.push(item);
    }
  }
  return list;
}

function judge({ quiet = false } = {}) {
  if (!engine || !latest) return;
  const { id, input, base } = latest;
  if (input.length + (base ?? '').length > JUDGED_MAX) return;
  let model;
  const list = given();
  // For the tests: how many parsers are still loading (no answer awaited from them yet).
  document.documentElement.dataset.readingsLoading = String(list.filter((p) => p.state === 'loading').length);
  try {
    model = JSON.parse(engine.readings(input, base ?? undefined, JSON.stringify(list)));
  } catch (error) {
    model = { error: String(error) };
  }
  result = { id, input, base, model };
  document.documentElement.dataset.readings = String(id);
  document.documentElement.dataset.readingsPending = String(model.pending?.length ?? 0);
  if (!quiet) redraw(result);
}

/// The latest judgement when it is of `input` and `base` ('' is none), else null: the model
/// `readings()` returns (`verdict`, `findings`, `headline`, `parsers`, `comparison`, …).
export function current(input, base) {
  const b = base === '' || base == null ? null : base;
  if (!result || result.input !== input || result.base !== b) return null;
  return result.model;
}

/// Each worker reading's state, for the tests and the console: name → {state, why, parsers}.
export function status() {
  return Object.fromEntries([...workers.values()].map((e) => [e.spec.name,
    { state: e.state, why: e.why, parsers: e.parsers.map((p) => p.name), ms: e.ms ?? null }]));
}
