// urlscope's classroom page: the shell. It reads the screen from the engine (WebAssembly, in a
// Web Worker) and builds the DOM from it. Every value reaches the DOM as text (textContent,
// createElement): nothing from the input, the base, the pattern or the engine is ever parsed
// as markup. The page never parses a URL itself: the standard's reading is the engine's, and
// the browser's reading is the browser's own URL API.

import init, * as engine from './pkg/urlscope_web.js';
// The other parsers' readings and the one verdict over them (the Parsers view, the verdict line).
import * as readings from './readings.js';

const VIEWS = [
  { id: 'trace', title: 'Trace' },
  { id: 'host', title: 'Host' },
  { id: 'parsers', title: 'Parsers' },
  { id: 'resolution', title: 'Base resolution' },
  { id: 'grammar', title: 'Grammar' },
  { id: 'pattern', title: 'Pattern' },
  { id: 'lessons', title: 'Lessons' },
];
// The URL API's getters, compared with the browser's reading.
const GETTERS = ['href', 'origin', 'protocol', 'username', 'password', 'host', 'hostname',
  'port', 'pathname', 'search', 'hash'];
// Past this many code points a value is cut on screen (the copy buttons copy all of it).
const SHOWN_MAX = 4096;
// Past this many characters the address bar does not follow the input (a link that long is
// not one a browser keeps), and the page says so.
const LINK_MAX = 32 * 1024;
const SPEC = 'https://url.spec.whatwg.org/';
// Views the inspector has that the page always shows (beside the tabs): the Trace tab stays
// open, and the command names them.
const SHOWN_PANES = ['components', 'errors'];
const tabOf = (view) => (VIEWS.some((v) => v.id === view) ? view : 'trace');

const state = { input: '', base: '', view: 'trace', step: 0, pattern: '', ignoreCase: false };
let screen = null; // the engine's last screen
const views = {}; // the other views' modules, by id
const $ = (id) => document.getElementById(id);

// ---- DOM helpers: text only --------------------------------------------------------------

function el(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (key === 'class') node.className = value;
    else if (key === 'text') node.textContent = value;
    else if (key.startsWith('aria-') || key === 'role' || key === 'tabindex' || key === 'scope') {
      node.setAttribute(key, value);
    } else node[key] = value;
  }
  for (const child of children) {
    if (child == null) continue;
    node.append(typeof child === 'string' ? document.createTextNode(child) : child);
  }
  return node;
}

/// A link to the standard: only ever to url.spec.whatwg.org.
function specLink(url, text) {
  if (typeof url !== 'string' || !url.startsWith(SPEC)) return document.createTextNode(text);
  return el('a', { href: url, text, target: '_blank', rel: 'noopener noreferrer' });
}

function cut(value, max = SHOWN_MAX) {
  if (value.length <= max) return value;
  // Cut on a code point's boundary: a lone high surrogate at the end is left out.
  let end = max;
  if (/[\ud800-\udbff]/.test(value[end - 1])) end -= 1;
  return `${value.slice(0, end)}… (${value.length - end} more UTF-16 code units)`;
}

/// Shows a value as text with its hidden code points visible: the engine escapes what it
/// returns; the browser's values are escaped here the same way for the few code points that
/// the URL serializer leaves (none that the engine's escapes miss in an href).
function visible(value) {
  return cut(value).replace(/[\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]/gu,
    (c) => {
      const code = c.codePointAt(0);
      if (code < 0x20) return String.fromCodePoint(0x2400 + code);
      if (code === 0x7f) return '␡';
      return `⟨U+${code.toString(16).toUpperCase().padStart(4, '0')}⟩`;
    });
}

// ---- Permalinks ----------------------------------------------------------------------------

function readFragment() {
  const params = new URLSearchParams(location.hash.slice(1));
  state.input = params.get('input') ?? '';
  state.base = params.get('base') ?? '';
  const view = params.get('view');
  state.view = VIEWS.some((v) => v.id === view) || SHOWN_PANES.includes(view) ? view : 'trace';
  const step = Number.parseInt(params.get('step') ?? '0', 10);
  state.step = Number.isFinite(step) && step >= 0 ? step : 0;
  state.pattern = params.get('pattern') ?? '';
  state.ignoreCase = params.get('ignorecase') === '1';
}

function fragment() {
  const params = new URLSearchParams();
  params.set('input', state.input);
  if (state.base) params.set('base', state.base);
  params.set('view', state.view);
  if (state.view === 'trace') params.set('step', String(state.step));
  if (state.pattern) params.set('pattern', state.pattern);
  // The Pattern view's ignoreCase: the link shows the student the match the teacher sees.
  if (state.ignoreCase) params.set('ignorecase', '1');
  return `#${params}`;
}

const tooLongForLink = () => state.input.length + state.base.length + state.pattern.length > LINK_MAX;

function writeFragment() {
  const long = tooLongForLink();
  const copyLink = $('copy-link');
  if (copyLink.disabled !== long) copyLink.disabled = long;
  const title = long ? 'The input is too long for a link' : '';
  if (copyLink.title !== title) copyLink.title = title;
  if (long) return;
  // The address was changed from outside (typed, or Back) and its hashchange is still to come:
  // that handler reads it, and writing now would put the old screen back over it.
  if (location.hash !== addressRead) return;
  const next = fragment();
  if (next !== location.hash) history.replaceState(null, '', next);
  addressRead = location.hash;
}

/// How long the input and the step must rest before the address is written. Each change of the
/// address gives the browser's own process work (in Chromium, milliseconds of its main thread:
/// the history entry, the address bar), which on a small machine takes the CPU from the
/// keystroke after it: written after every keystroke it doubled the keystroke's 95th
/// percentile (docs/page.md). Keys come faster than this while one types; a pause writes it.
const LINK_REST_MS = 400;

let linkTimer = null;
// The fragment as this page last wrote or read it.
let addressRead = location.hash;

/// Writes the fragment once the changes have rested LINK_REST_MS, once for all of them, or at
/// once when the page is left or loses the focus (to the address bar, say) or a link is
/// copied: `writeFragmentNow`. `data-linked` is "false" until it is written.
function writeFragmentSoon() {
  document.body.dataset.linked = 'false';
  clearTimeout(linkTimer);
  linkTimer = setTimeout(writeFragmentNow, LINK_REST_MS);
}

function writeFragmentNow() {
  if (linkTimer === null) return;
  clearTimeout(linkTimer);
  linkTimer = null;
  writeFragment();
  if (!behindPending) document.body.dataset.linked = 'true';
}

// ---- The engine ---------------------------------------------------------------------------

/// The engine's module, compiled: pkg/urlscope_web_bg.wasm.gz (scripts/build-web), fetched from
/// the page's folder and inflated here (DecompressionStream), compiled as it inflates
/// (WebAssembly.compileStreaming): the gzip is what travels, from a server that compresses
/// nothing (python3 -m http.server) too. A server that sends it with `Content-Encoding: gzip`
/// has the browser inflate it first: the gzip's magic bytes (1f 8b) say whether it still is.
async function compileModule() {
  const response = await fetch(new URL('./pkg/urlscope_web_bg.wasm.gz', import.meta.url));
  if (!response.ok) throw new Error(`pkg/urlscope_web_bg.wasm.gz: HTTP ${response.status}`);
  const reader = response.body.getReader();
  let head = new Uint8Array(0);
  while (head.length < 2) {
    const { done, value } = await reader.read();
    if (done) break;
    const joined = new Uint8Array(head.length + value.length);
    joined.set(head);
    joined.set(value, head.length);
    head = joined;
  }
  const body = new ReadableStream({
    start(controller) {
      if (head.length) controller.enqueue(head);
    },
    async pull(controller) {
      const { done, value } = await reader.read();
      if (done) controller.close();
      else controller.enqueue(value);
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
  const gzipped = head[0] === 0x1f && head[1] === 0x8b;
  const wasm = new Response(gzipped ? body.pipeThrough(new DecompressionStream('gzip')) : body,
    { headers: { 'content-type': 'application/wasm' } });
  if (typeof WebAssembly.compileStreaming === 'function') return WebAssembly.compileStreaming(wasm);
  return WebAssembly.compile(await wasm.arrayBuffer());
}

let worker = null;
let requestId = 0;
let inFlight = false;
let pending = false;
const timings = []; // for the benchmark: [sent, shown] per keystroke

// Up to this many UTF-16 code units of input and base, the page's thread asks the engine
// itself (a 2 KB URL's screen takes a few milliseconds); a longer input goes to the worker, so
// that a 1 MB paste never blocks typing.
const ON_THREAD_MAX = 64 * 1024;

function request() {
  if (!engineReady) return;
  document.body.dataset.busy = 'true';
  if (inFlight) {
    pending = true; // keystrokes coalesce: only the latest state is asked for next
    return;
  }
  requestId += 1;
  const base = state.base === '' ? undefined : state.base;
  if (!worker || state.input.length + state.base.length <= ON_THREAD_MAX) {
    let message;
    try {
      message = { id: requestId, json: engine.screen(state.input, base, state.step) };
    } catch (error) {
      message = { id: requestId, error: String(error) };
    }
    show(message);
    document.body.dataset.busy = 'false';
    return;
  }
  inFlight = true;
  worker.postMessage({ id: requestId, input: state.input, base, step: state.step });
}

function received(message) {
  inFlight = false;
  show(message);
  if (pending) {
    pending = false;
    request();
  } else {
    document.body.dataset.busy = 'false';
  }
}

function show(message) {
  if (message.error) {
    $('verdict').textContent = `The engine failed: ${message.error}`;
    $('verdict').className = 'verdict danger';
    return;
  }
  // A screen from the worker comes parsed, its Trace's values cut there (worker.js).
  screen = message.screen ?? JSON.parse(message.json);
  if (!pending && screen.step !== state.step) {
    // The step asked for was past the trace's end: the screen shows the last one.
    state.step = screen.step;
    writeFragmentSoon();
  }
  // The first screen is drawn whole; a later one leaves what is off the screen for after it.
  render({ later: document.body.dataset.shown !== undefined });
  timings.push(performance.now());
  document.body.dataset.shown = String(message.id);
  document.body.dataset.firstScreen ??= String(Math.round(performance.now()));
}

function changed({ parse = true } = {}) {
  writeFragmentSoon();
  renderCommand();
  if (parse) {
    // Judged first: the screen drawn next shows this input's verdict (web/readings.js).
    if (engineReady) readings.read(state.input, state.base);
    request();
  }
}

/// New answers from the readings' workers: the verdict line, and the view that shows them.
function readingsJudged() {
  if (!screen) return;
  renderVerdict(screen.page);
  if (state.view === 'parsers' || state.view === 'host') renderPanel();
  if (openFor !== null) showOpenBox(openFor, screen.page); // its warnings, judged again
}

// ---- Rendering ----------------------------------------------------------------------------
//
// A keystroke redraws only what changed: a pane whose model is the one it last drew is left
// alone, and within a pane the elements stay and only their text nodes, classes and
// attributes that differ are written. Layout then has little to redo, and the focus and the
// selection inside the panes stay where they were.

/// Writes `text` into `node` (one text node, updated in place) when it differs.
function setText(node, text) {
  const first = node.firstChild;
  if (first !== null && first === node.lastChild && first.nodeType === Node.TEXT_NODE) {
    if (first.data !== text) first.data = text;
  } else if (text === '' ? first !== null : node.textContent !== text) {
    node.textContent = text;
  }
}

function setClass(node, name) {
  if (node.className !== name) node.className = name;
}

/// Sets an attribute when it differs; `null` removes it.
function setAttr(node, name, value) {
  if (value === null) {
    if (node.hasAttribute(name)) node.removeAttribute(name);
  } else if (node.getAttribute(name) !== value) {
    node.setAttribute(name, value);
  }
}

/// Gives `parent` exactly `n` element children, making the missing ones with `make(i)`;
/// returns them.
function slots(parent, n, make) {
  while (parent.children.length > n) parent.lastElementChild.remove();
  while (parent.children.length < n) parent.append(make(parent.children.length));
  return [...parent.children];
}

// What each pane last drew: a pane whose key is unchanged is not drawn again.
const drawn = new WeakMap();
function unchanged(node, key) {
  if (drawn.get(node) === key) return true;
  drawn.set(node, key);
  return false;
}

/// Makes `parent`'s children the nodes `items` describe (`[key, make]` pairs, keys unique):
/// a child whose key is among them stays (moved into place if it must), the others go, and
/// only the missing ones are made.
const keys = new WeakMap();
function patch(parent, items) {
  const wanted = new Set(items.map(([key]) => key));
  const kept = new Map();
  for (const child of [...parent.childNodes]) {
    const key = keys.get(child);
    if (key !== undefined && wanted.has(key) && !kept.has(key)) kept.set(key, child);
    else child.remove();
  }
  let cursor = parent.firstChild;
  for (const [key, make] of items) {
    let node = kept.get(key);
    if (node === undefined) {
      node = make();
      keys.set(node, key);
    }
    if (node === cursor) cursor = cursor.nextSibling;
    else parent.insertBefore(node, cursor);
  }
}

/// Draws the screen. With `later`, a pane or the views' panel that is off the screen (below
/// the window, where a long URL pushes them) is drawn once the frame that shows the rest has
/// been painted, not in it: Chromium renders them although they are not on the screen (they
/// are within content-visibility's margin), and they were a quarter to a third of the main
/// thread's work in a keystroke's frame: the Trace's rows for a short URL, the panes' 2 KB
/// values for a long one.
function render({ later = false } = {}) {
  if (!screen) return;
  const { page } = screen;
  renderWelcome();
  followOpenBox(page);
  renderVerdict(page);
  renderRuler(page);
  renderTabs();
  const now = (section) => !later || onScreen.get(section) !== false;
  for (const [section, draw] of SECTIONS) {
    if (now(section)) {
      draw(page);
      behind.delete(section);
    } else {
      behind.add(section);
    }
  }
  renderCommand();
  if (behind.size) drawBehindSoon();
}

// The sections that may be drawn after the frame, each with how it is drawn; whether each is
// on the screen, as an IntersectionObserver last said (unknown: on it); those left to draw.
const SECTIONS = new Map([
  ['components', (page) => renderComponents(page)],
  ['browser', (page) => renderBrowser(page)],
  ['errors', (page) => renderErrors(page)],
  ['panels', () => renderPanel()],
]);
const onScreen = new Map();
const behind = new Set();
let behindPending = false;

/// Draws what `render` left, in the browser's first idle moment after the frame (at most
/// 50 ms later), or as soon as it comes on the screen. `data-linked` stays "false" until then,
/// as until the fragment is written: the page has caught up with the input when it is "true".
function drawBehindSoon() {
  document.body.dataset.linked = 'false';
  if (behindPending) return;
  behindPending = true;
  if (window.requestIdleCallback) requestIdleCallback(drawBehind, { timeout: 50 });
  else requestAnimationFrame(() => setTimeout(drawBehind, 0)); // Safari: after the paint
}

function drawBehind() {
  behindPending = false;
  if (screen) for (const section of behind) SECTIONS.get(section)(screen.page);
  behind.clear();
  if (linkTimer === null) document.body.dataset.linked = 'true';
}

function watchSections() {
  const sections = new Map([
    [$('components').closest('.pane'), 'components'],
    [$('browser').closest('.pane'), 'browser'],
    [$('errors').closest('.pane'), 'errors'],
    [$('panels'), 'panels'],
  ]);
  const observer = new IntersectionObserver((entries) => {
    for (const entry of entries) {
      const section = sections.get(entry.target);
      onScreen.set(section, entry.isIntersecting);
      if (entry.isIntersecting && behind.delete(section) && screen) SECTIONS.get(section)(screen.page);
    }
  });
  for (const node of sections.keys()) observer.observe(node);
}

function renderVerdict(page) {
  const verdict = $('verdict');
  // The verdict over every reading the page has (web/readings.js), else the engine's own.
  const line = readings.current(state.input, state.base)?.verdict ?? page.verdict;
  if (!line) {
    setText(verdict, 'Type a URL in the Input box.');
    setClass(verdict, 'verdict');
    return;
  }
  setText(verdict, line.text);
  const worst = line.worst;
  setClass(verdict, `verdict ${worst === 'danger' ? 'danger' : worst === 'warn' ? 'warn'
    : page.outcome === 'parsed' ? 'ok' : 'danger'}`);
}

function renderRuler(page) {
  const ruler = $('ruler');
  const pointer = state.view === 'trace' ? screen.detail?.row.pointer : null;
  if (unchanged(ruler, JSON.stringify([page.runs, page.length, pointer]))) return;
  const total = page.length;
  const shown = page.runs.length ? page.runs[page.runs.length - 1].end : 0;
  const more = shown < total;
  const spans = slots(ruler, page.runs.length + (more ? 1 : 0), () => document.createElement('span'));
  page.runs.forEach((run, i) => {
    const span = spans[i];
    let cls = `part-${run.part ?? 'none'}`;
    if (run.error) cls += ' error';
    if (pointer != null && pointer >= run.start && pointer < run.end) cls += ' pointer';
    setClass(span, cls);
    setText(span, run.text);
    setAttr(span, 'title', `${run.part ?? 'no part'}${run.error ? ', validation error' : ''} (code points ${run.start}..${run.end})`);
  });
  if (more) {
    const note = spans[spans.length - 1];
    setClass(note, 'note');
    setText(note, ` … ${total - shown} more code points, not coloured`);
    setAttr(note, 'title', null);
  }
}

function renderComponents(page) {
  const body = $('components').tBodies[0];
  if (unchanged(body, JSON.stringify([page.components, page.params, page.outcome, !!page.verdict]))) return;
  if (!page.components) {
    const why = page.outcome === 'base-failure' ? 'The base is not a URL, so the input was not parsed.'
      : page.verdict ? 'The input is not a URL: the parser returned failure.' : '';
    patch(body, [[`why ${why}`, () => el('tr', {}, el('td', { text: why, colSpan: 2 }))]]);
    $('open-box').hidden = true;
    return;
  }
  // One row per getter, kept from keystroke to keystroke: only a value that changed is written.
  const rows = page.components.map((c) => [`component ${c.name}`, () => {
    // The href's own element (#href) holds the href alone, for the page's tests.
    const value = el('td', {}, el('span', c.name === 'href' ? { id: 'href' } : {}));
    const row = el('tr', {}, el('th', { scope: 'row', text: c.name }), value);
    if (c.name === 'href') {
      const open = el('button', { type: 'button', text: 'Open…', class: 'small', id: 'open-button', 'aria-expanded': 'false' });
      open.setAttribute('aria-controls', 'open-box');
      open.addEventListener('click', () => {
        const href = screen?.page.components?.find((x) => x.name === 'href');
        if (href) showOpenBox(href.value, screen.page);
      });
      value.append(' ', open);
    }
    return row;
  }]);
  if (page.params.length) {
    rows.push(['params', () => el('tr', {}, el('th', { scope: 'row' }), el('td'))]);
  }
  patch(body, rows);
  page.components.forEach((c, i) => {
    const td = body.rows[i].cells[1];
    setClass(td, `value part-${c.part ?? 'none'}`);
    setValue(td.firstChild, c.value, c.absent);
  });
  if (page.params.length) {
    const row = body.rows[page.components.length];
    setText(row.cells[0], `query params (${page.params.length})`);
    setText(row.cells[1], page.params.slice(0, 50).map(([k, v]) => `${shownValue(k)} = ${shownValue(v)}`).join('\n'));
  }
}

// The href the Open… box shows while it is open, else null.
let openFor = null;

/// The inspected URL is never followed by a click without its href shown first, and only an
/// http(s) URL is ever a link: a javascript: URL is never made into one. A host that the host
/// analysis finds misleading (a warn or danger finding: a look-alike, mixed scripts, an
/// internal address…) has its findings beside the link, as the Host view words them.
function showOpenBox(href, page) {
  const box = $('open-box');
  const protocol = page.components.find((c) => c.name === 'protocol')?.value;
  const children = [el('p', { text: 'This URL goes to:' }), el('code', { text: visible(href) })];
  const web = protocol === 'http:' || protocol === 'https:';
  const warnings = web ? hostWarnings(page) : [];
  // Drawn again only when it changed (the readings' judgement comes later): a focus on the
  // link stays.
  const key = JSON.stringify([href, warnings]);
  if (openFor === href && drawn.get(box) === key) return;
  drawn.set(box, key);
  if (web) {
    if (warnings.length) {
      children.push(el('div', { class: 'open-warning', role: 'alert' },
        el('p', { class: 'open-warning-title', text: 'Look before you open it: this host is not what it seems.' }),
        el('ul', {}, ...warnings.map((w) => el('li', {}, el('strong', { text: `${w.severity}: ${w.title}` }), ` ${w.detail}`)))));
    }
    children.push(el('p', {}, el('a', { href, text: warnings.length ? 'Open it in a new tab anyway' : 'Open it in a new tab', target: '_blank', rel: 'noopener noreferrer' })));
  } else {
    children.push(el('p', { class: 'note', text: `A ${protocol} URL is not opened from this page.` }));
  }
  box.replaceChildren(...children);
  box.hidden = false;
  openFor = href;
  setAttr($('open-button'), 'aria-expanded', 'true');
}

/// The warn and danger findings of the host analysis (the Host view's: judged over every
/// reading the page has, the parsers' differential among them, web/readings.js), worst first;
/// the verdict line's words when the analysis has none but the verdict warns.
function hostWarnings(page) {
  let findings = readings.current(state.input, state.base)?.findings ?? null;
  if (!findings) {
    try {
      findings = JSON.parse(engine.view_host(state.input, state.base === '' ? undefined : state.base)).analysis?.findings ?? [];
    } catch {
      findings = []; // The verdict below still warns.
    }
  }
  findings = findings.filter((f) => f.severity === 'danger' || f.severity === 'warn');
  findings.sort((a, b) => (a.severity === b.severity ? 0 : a.severity === 'danger' ? -1 : 1));
  const verdict = readings.current(state.input, state.base)?.verdict ?? page.verdict;
  if (!findings.length && (verdict?.worst === 'danger' || verdict?.worst === 'warn')) {
    return [{ severity: verdict.worst, title: verdict.text, detail: '' }];
  }
  return findings.map((f) => ({ severity: f.severity, title: f.title, detail: f.detail }));
}

/// The Open… box is about the href it was opened on: once the screen's href is another (or
/// none), it closes, and Open… shows the new one.
function followOpenBox(page) {
  if (openFor === null) return;
  const href = page.components?.find((c) => c.name === 'href')?.value;
  if (href === openFor) return;
  openFor = null;
  const box = $('open-box');
  box.hidden = true;
  box.replaceChildren();
  const button = document.getElementById('open-button');
  if (button) setAttr(button, 'aria-expanded', 'false');
}

/// The welcome, in place of the panes and the Trace, while the Input and Base are empty and
/// the Trace is the view, as the inspector shows its welcome (docs/inspector.md): the trace
/// of the empty string (four steps to failure) and "None yet." taught nothing. The Input is
/// left empty rather than given an example: it is the page's state for a link without input
/// and for a student who clears the box to start again, and an example typed for them would be
/// text to delete and would be in their link.
function renderWelcome() {
  const welcome = state.input === '' && state.base === '' && tabOf(state.view) === 'trace';
  const value = String(welcome);
  if (document.body.dataset.welcome !== value) document.body.dataset.welcome = value;
  const box = $('welcome');
  if (box.hidden === welcome) box.hidden = !welcome;
}

// A value that is the empty string is said so, as whatwg-url's viewer says it. A getter whose
// field of the URL record is null (no host, port, query or fragment, where the model says so)
// still returns the empty string: it says both, as `port` returns "" for a null port and for
// no other. Both are in the `mark` style, so that neither reads as a value typed.
const EMPTY = '(empty string)';
const ABSENT = '(empty string: null in the record)';
const NULL = '(null)';
const shownValue = (value, absent = false) => (absent ? ABSENT : value === null ? NULL : value === '' ? EMPTY : visible(value));

/// Writes a value into `node`: the value, or the mark of the empty string or of an absent one.
function setValue(node, value, absent = false) {
  setText(node, shownValue(value, absent));
  setClass(node, absent || value === null || value === '' ? 'mark' : '');
}

/// The browser's name, from User-Agent Client Hints or the User-Agent string.
let browserNamed = null;
function browserName() {
  browserNamed ??= readBrowserName();
  return browserNamed;
}

function readBrowserName() {
  const brands = navigator.userAgentData?.brands?.filter((b) => !/not.?a.?brand/i.test(b.brand));
  if (brands?.length) {
    const b = brands.find((x) => !/^Chromium$/.test(x.brand)) ?? brands[0];
    return `${b.brand} ${b.version}`;
  }
  const ua = navigator.userAgent;
  for (const [re, name] of [[/Firefox\/([\d.]+)/, 'Firefox'], [/Edg\/([\d.]+)/, 'Edge'],
    [/Chrome\/([\d.]+)/, 'Chrome'], [/Version\/([\d.]+).*Safari/, 'Safari']]) {
    const m = ua.match(re);
    if (m) return `${name} ${m[1]}`;
  }
  return 'this browser';
}

/// `new URL(input, base)` in this browser: each getter, or the exception's name.
/// Kept for the input and base it read: a step through the trace does not read a 1 MB input
/// again (tens of milliseconds of the page's thread).
let lastReading = null;
function browserReading() {
  if (lastReading?.input === state.input && lastReading.base === state.base) return lastReading.reading;
  let reading;
  try {
    const url = state.base === '' ? new URL(state.input) : new URL(state.input, state.base);
    reading = { url: Object.fromEntries(GETTERS.map((g) => [g, url[g]])) };
  } catch (error) {
    reading = { error: error?.name ?? 'Error', message: String(error?.message ?? '') };
  }
  lastReading = { input: state.input, base: state.base, reading };
  return reading;
}

/// A value cell: the browser's value as text, and after it, when it differs, the standard's.
function setValueCell(td, text, flag) {
  if (td.firstChild?.nodeType !== Node.TEXT_NODE) td.prepend(document.createTextNode(''));
  if (td.firstChild.data !== text) td.firstChild.data = text;
  let span = td.firstChild.nextSibling;
  if (flag === null) {
    span?.remove();
    return;
  }
  if (!span) span = td.appendChild(el('span', { class: 'flag' }));
  setText(span, flag);
}

const getterRow = (g) => [`getter ${g}`, () => el('tr', {}, el('th', { scope: 'row', text: g }), el('td', { class: 'value' }))];

function renderBrowser(page) {
  const name = browserName();
  const body = $('browser').tBodies[0];
  if (!state.input && !state.base) {
    unchanged(body, null);
    setText($('browser-name'), `${name}: new URL(input, base)`);
    patch(body, []);
    return;
  }
  const reading = browserReading();
  const ours = page.components ? Object.fromEntries(page.components.map((c) => [c.name, c.value])) : null;
  if (unchanged(body, JSON.stringify([reading, ours, state.base !== '']))) return;
  let differences = 0;
  if (reading.error) {
    const agree = !ours;
    if (!agree) differences += 1;
    const thrown = `throws ${reading.error}${reading.message ? `: ${visible(reading.message)}` : ''}`;
    patch(body, [[`${thrown} ${agree}`, () => el('tr', { class: agree ? '' : 'differs' }, el('th', { scope: 'row', text: 'new URL' }),
      el('td', {}, el('span', { class: 'throws', text: thrown }),
        agree ? ' (the standard: failure too)' : el('span', { class: 'flag', text: ' ≠ the standard, which parses it' })))]]);
  } else if (!ours) {
    differences += 1;
    patch(body, [['parses', () => el('tr', { class: 'differs' }, el('th', { scope: 'row', text: 'new URL' }),
      el('td', {}, 'parses it; ', el('span', { class: 'flag', text: '≠ the standard, which returns failure' })))],
    ...GETTERS.map(getterRow)]);
    GETTERS.forEach((g, i) => setValueCell(body.rows[i + 1].cells[1], shownValue(reading.url[g]), null));
  } else {
    patch(body, GETTERS.map(getterRow));
    GETTERS.forEach((g, i) => {
      const theirs = reading.url[g];
      const differs = theirs !== ours[g];
      if (differs) differences += 1;
      const row = body.rows[i];
      setClass(row, differs ? 'differs' : '');
      setValueCell(row.cells[1], shownValue(theirs), differs ? ` ≠ the standard: ${shownValue(ours[g])}` : null);
    });
  }
  setText($('browser-name'), `${name}: new URL(input${state.base ? ', base' : ''}) — ${differences ? `${differences} difference${differences === 1 ? '' : 's'} from the standard` : 'agrees with the standard'}`);
  setAttr($('browser'), 'data-differences', String(differences));
}

function renderErrors(page) {
  const list = $('errors');
  // An empty Input is waiting for a URL, as the verdict says: the standard's error for the empty
  // string (missing-scheme-non-relative-URL) is not listed until something is typed.
  const errors = !page.verdict ? []
    : page.outcome === 'base-failure' ? page.base_errors : page.errors;
  setText($('errors-title'), page.outcome === 'base-failure'
    ? `Validation errors of the base (${errors.length})` : `Validation errors (${errors.reduce((n, e) => n + e.count, 0)})`);
  if (!errors.length) {
    const none = page.verdict ? 'None: the parser raised no validation error.' : 'None yet.';
    patch(list, [[`none ${none}`, () => el('li', { class: 'note', text: none })]]);
    return;
  }
  // Each error's item is made once and kept while the error is the same (its button too).
  const seen = new Map();
  patch(list, errors.map((e) => {
    let key = JSON.stringify(e);
    const n = (seen.get(key) ?? 0) + 1;
    seen.set(key, n);
    if (n > 1) key += ` #${n}`;
    return [key, () => errorItem(e)];
  }));
  errors.forEach((e, i) => errorIndex.set(list.children[i], i));
}

// Each error item's index among the screen's errors, which its Fix button asks the engine
// for the fixed input of (the screen has the fix's words only).
const errorIndex = new WeakMap();

function errorItem(e) {
  const item = el('li', {},
    el('span', { class: 'name', text: e.name }), ' ',
    el('span', { class: 'where', text: `at ${e.start}..${e.end}${e.count > 1 ? ` (${e.count} of them)` : ''}, ` }),
    specLink(e.link, e.state),
    el('br'), e.explanation,
    el('br'), el('span', { class: 'effect', text: e.effect }));
  if (e.fix) {
    const label = e.fix.makes_url ? `Fix: make it a URL (${e.fix.words})` : `Fix: ${e.fix.words}`;
    const button = el('button', { type: 'button', text: label });
    button.addEventListener('click', () => {
      const fixed = engine.fixedInput(state.input, state.base === '' ? undefined : state.base, errorIndex.get(item));
      if (fixed === undefined) return;
      setInput(fixed);
      $('input').focus();
    });
    item.append(el('br'), button, ' ',
      el('span', { class: 'effect', text: e.fix.same_href ? 'keeps the href' : e.fix.makes_url ? 'the input then parses' : 'the href changes' }));
  }
  return item;
}

function renderTabs() {
  const tabs = $('tabs');
  if (!tabs.children.length) {
    for (const view of VIEWS) {
      const tab = el('button', { type: 'button', id: `tab-${view.id}`, role: 'tab', text: view.title });
      tab.setAttribute('aria-controls', `panel-${view.id}`);
      tab.addEventListener('click', () => setView(view.id));
      tab.addEventListener('keydown', (event) => {
        const i = VIEWS.findIndex((v) => v.id === tabOf(state.view));
        const to = { ArrowRight: i + 1, ArrowLeft: i - 1, Home: 0, End: VIEWS.length - 1 }[event.key];
        if (to === undefined) return;
        event.preventDefault();
        const next = VIEWS[(to + VIEWS.length) % VIEWS.length];
        setView(next.id);
        $(`tab-${next.id}`).focus();
      });
      tabs.append(tab);
      const panel = el('section', { id: `panel-${view.id}`, class: 'panel', role: 'tabpanel' });
      panel.setAttribute('aria-labelledby', `tab-${view.id}`);
      $('panels').append(panel);
    }
  }
  for (const view of VIEWS) {
    const selected = view.id === tabOf(state.view);
    const tab = $(`tab-${view.id}`);
    setAttr(tab, 'aria-selected', String(selected));
    if (tab.tabIndex !== (selected ? 0 : -1)) tab.tabIndex = selected ? 0 : -1;
    const panel = $(`panel-${view.id}`);
    if (panel.hidden === selected) panel.hidden = !selected;
  }
}

function renderPanel() {
  const panel = $(`panel-${tabOf(state.view)}`);
  if (tabOf(state.view) === 'trace') {
    renderTrace(panel);
    return;
  }
  const view = views[state.view];
  if (!view) {
    panel.replaceChildren(el('p', { class: 'note', text: `The ${state.view} view is not in this build yet.` }));
    return;
  }
  try {
    view.render(panel, engine, { ...state }, context);
  } catch (error) {
    panel.replaceChildren(el('p', { class: 'throws', text: `The ${state.view} view failed: ${error}` }));
  }
}


function renderTrace(panel) {
  const steps = screen.page.trace?.steps ?? 0;
  if (!panel.firstChild) buildTracePanel(panel);
  const label = $('step-of');
  const number = $('step-number');
  setAttr(number, 'max', String(Math.max(0, steps - 1)));
  if (document.activeElement !== number && number.value !== String(state.step)) number.value = String(state.step);
  const body = $('trace-body');
  if (!screen.page.trace) {
    setText(label, state.input.length ? 'The trace is not recorded for an input this long (over 1 MiB), as in the terminal inspector.' : 'No trace yet.');
    patch(body, []);
    renderDetail(null);
    return;
  }
  setText(label, `of ${steps - 1} (${steps} steps${screen.page.trace.failed ? ', ending in failure' : ''})`);
  // A row per step in the window, keyed by its step: stepping moves the window by a row or
  // a few (one row goes, one comes), and a keystroke that leaves a step as it was leaves its
  // row alone.
  patch(body, screen.rows.map((r) => [r.index, () => {
    const row = el('tr', {}, ...Array.from({ length: 6 }, () => el('td')));
    row.dataset.index = String(r.index);
    return row;
  }]));
  screen.rows.forEach((r, i) => {
    const row = body.rows[i];
    const current = r.index === state.step;
    setClass(row, `${current ? 'current' : ''} ${r.error ? 'has-error' : ''}`);
    setAttr(row, 'aria-current', current ? 'step' : null);
    const cells = row.cells;
    setText(cells[0], String(r.index));
    setText(cells[1], r.state);
    setText(cells[2], r.pointer == null ? '' : String(r.pointer));
    setText(cells[3], rowText(r.c ?? ''));
    setText(cells[4], rowText(r.buffer));
    setText(cells[5], r.changes.map(rowText).join(' '));
  });
  renderDetail(screen.detail);
  scrollToStep(body);
}

/// A value of the Trace as shown: cut past SHOWN_MAX in the step's detail and past ROW_MAX in a
/// row (a buffer holds up to the whole input: a 1 MB input's 101 rows were 100 MB of text, a
/// minute of layout; at 4 KB a row they were still 0.4 MB, 280 ms), unless the worker has cut
/// it already (worker.js, with the same two limits).
const ROW_MAX = 256;
const traceText = (value) => (screen.trimmed ? value : cut(value));
const rowText = (value) => (screen.trimmed ? value : cut(value, ROW_MAX));

// The window and step the Trace last scrolled to, and where its scroll is (kept by its
// scroll events; `null` when not known).
let scrolled = null;
let traceScrollTop = null;

/// Scrolls the trace so that the current step's row is in the middle. Reading the layout (a
/// row's place, or the scroll itself) makes the browser lay the page out there and then, so
/// it is done only when the row may have moved: on the window's first row the answer is the
/// top, and a keystroke that leaves the window and the step as they were leaves the scroll.
function scrollToStep(body) {
  const wrap = $('trace-wrap');
  const first = screen.rows[0]?.index ?? 0;
  const at = `${first} ${state.step} ${screen.rows.length}`;
  if (state.step === first) {
    if (traceScrollTop !== 0) wrap.scrollTop = 0;
    traceScrollTop = 0;
  } else if (at !== scrolled) {
    const current = body.querySelector('tr.current');
    if (current) wrap.scrollTop = Math.max(0, current.offsetTop - wrap.clientHeight / 2);
    traceScrollTop = null;
  }
  scrolled = at;
}

function buildTracePanel(panel) {
  // The arrows come from the Arrows block, which the common fonts have (DejaVu, Debian's only
  // font by default, lacks the media symbols ⏮ ⏭), and are hidden from screen readers, which
  // read the word.
  const arrow = (glyph) => el('span', { text: glyph, 'aria-hidden': 'true' });
  const button = (id, children, to) => {
    const b = el('button', { type: 'button', id }, ...children);
    b.addEventListener('click', () => setStep(to()));
    return b;
  };
  const last = () => Math.max(0, (screen?.page.trace?.steps ?? 1) - 1);
  const number = el('input', { id: 'step-number', type: 'number', min: '0' });
  // A step past either end is the first or the last, in the box too.
  number.addEventListener('change', () => {
    const to = Math.max(0, Math.min(last(), Number.parseInt(number.value, 10) || 0));
    number.value = String(to);
    setStep(to);
  });
  const numberLabel = el('label', { htmlFor: 'step-number', text: 'Step' });
  const body = el('tbody', { id: 'trace-body' });
  // One listener for the rows, which are kept from screen to screen.
  body.addEventListener('click', (event) => {
    const row = event.target.closest?.('tr');
    if (row?.dataset.index) setStep(Number(row.dataset.index));
  });
  const wrap = el('div', { id: 'trace-wrap', class: 'trace-wrap', tabindex: '0', role: 'region', 'aria-label': 'Trace steps (← → to step, Home and End for the first and last)' },
    el('table', { class: 'trace' },
      el('thead', {}, el('tr', {}, ...['step', 'state', 'pointer', 'c', 'buffer', 'changes'].map((h) => el('th', { scope: 'col', text: h })))),
      body));
  wrap.addEventListener('scroll', () => { traceScrollTop = wrap.scrollTop; }, { passive: true });
  panel.replaceChildren(
    el('div', { class: 'stepper', role: 'group', 'aria-label': 'Step through the trace' },
      button('step-first', [arrow('⇤'), ' First'], () => 0),
      button('step-prev', [arrow('◀'), ' Previous'], () => Math.max(0, state.step - 1)),
      button('step-next', ['Next ', arrow('▶')], () => Math.min(last(), state.step + 1)),
      button('step-last', ['Last ', arrow('⇥')], last),
      numberLabel, number, el('span', { id: 'step-of', class: 'note' })),
    wrap,
    el('div', { id: 'step-detail', class: 'detail', 'aria-live': 'polite' }));
  panel.addEventListener('keydown', (event) => {
    if (event.target === number) return;
    const to = { ArrowRight: state.step + 1, ArrowDown: state.step + 1, ArrowLeft: state.step - 1,
      ArrowUp: state.step - 1, PageDown: state.step + 10, PageUp: state.step - 10, Home: 0, End: last() }[event.key];
    if (to === undefined) return;
    event.preventDefault();
    setStep(Math.max(0, Math.min(last(), to)));
  });
}

function renderDetail(detail) {
  const box = $('step-detail');
  if (unchanged(box, JSON.stringify(detail))) return;
  if (!detail) {
    patch(box, []);
    return;
  }
  // Each part (the heading, the citation, the explanations, the facts) is made again only
  // when it changed: stepping within one state keeps the explanations' list, for one.
  const r = detail.row;
  const where = r.pointer == null ? 'a preprocessing step' : `pointer ${r.pointer}, c = ${r.c}`;
  const heading = `Step ${r.index}: ${r.state} (${where})`;
  const parts = [[`h ${heading}`, () => el('h3', { text: heading })]];
  if (detail.spec) {
    const { url, section, step } = detail.spec;
    parts.push([`p ${JSON.stringify(detail.spec)}`, () => el('p', {}, 'The standard: ', specLink(url, `${section}, step ${step}`))]);
  }
  const steps = [...detail.explained, ...detail.host];
  parts.push([`ul ${JSON.stringify(steps)}`, () => {
    const explained = el('ul');
    for (const e of steps) explained.append(el('li', {}, specLink(e.url, `step ${e.step}`), `: ${e.explanation}`));
    return explained;
  }]);
  const facts = [['buffer', r.buffer === '' ? EMPTY : traceText(r.buffer)],
    ['changes', r.changes.length ? r.changes.join(', ') : 'none'],
    ['next state', detail.next ?? '(the parser returns)'],
    ...detail.record.map(([k, v]) => [`record ${k}`, traceText(v)])];
  parts.push(['dl', () => el('dl')]);
  patch(box, parts);
  // The facts, one dt and dd each, their text written in place.
  const dl = box.lastElementChild;
  const cells = slots(dl, facts.length * 2, (i) => el(i % 2 ? 'dd' : 'dt'));
  facts.forEach(([k, v], i) => {
    setText(cells[2 * i], k);
    setText(cells[2 * i + 1], v);
  });
}

// Past this many characters the command is not shown (Copy command still copies it all).
const COMMAND_SHOWN_MAX = 2048;

/// The command, or `undefined` when the input, base or pattern holds U+0000 (NO_COMMAND).
function currentCommand() {
  return engine.command(state.input, state.base || undefined, state.view,
    state.view === 'trace' ? state.step : undefined, state.pattern || undefined, state.ignoreCase);
}

// No argument of a command can hold U+0000: an argument is a C string, and bash ends a word at
// the NUL ($'a\x00b' is "a"). The page says so rather than copy a command for another input.
const NO_COMMAND = 'No command: the input, base or pattern holds U+0000 (NUL), which no command-line argument can carry (bash ends the word there). Copy link keeps it.';

function renderCommand() {
  const shown = $('command-text');
  if (unchanged(shown, JSON.stringify([engineReady, state.input, state.base, state.view, state.step, state.pattern, state.ignoreCase]))) return;
  setText($('command-label'), state.view === 'lessons'
    ? 'The lessons in a terminal (ctrl-n walks through them):' : 'This view in a terminal:');
  const length = state.input.length + state.base.length + state.pattern.length;
  let text = '';
  if (!engineReady) text = '';
  else if (length > COMMAND_SHOWN_MAX) text = `(the input is ${length} characters long: Copy command copies the whole command)`;
  else text = currentCommand() ?? NO_COMMAND;
  setText(shown, text);
}

// ---- State changes -----------------------------------------------------------------------

// A text box shows as many lines as its value has, up to this many (it scrolls past them):
// an input with a newline is not cut to its first line.
const BOX_LINES_MAX = 8;

function fitLines(box) {
  let lines = 1;
  for (let at = box.value.indexOf('\n'); at !== -1 && lines < BOX_LINES_MAX; at = box.value.indexOf('\n', at + 1)) {
    lines += 1;
  }
  if (box.rows !== lines) box.rows = lines;
}

/// Puts `value` in the Input or the Base box (by id), the box sized to its lines.
function showValue(id, value) {
  const box = $(id);
  box.value = value;
  fitLines(box);
}

function setInput(value) {
  state.input = value;
  showValue('input', value);
  changed();
}

function setStep(n) {
  state.step = Math.max(0, n);
  changed();
}

function setView(view) {
  state.view = VIEWS.some((v) => v.id === view) || SHOWN_PANES.includes(view) ? view : 'trace';
  // A Trace shown again is scrolled to its step again.
  scrolled = null;
  traceScrollTop = null;
  changed({ parse: false });
  render();
  if (SHOWN_PANES.includes(view)) $(`${view}-title`).scrollIntoView({ block: 'nearest' });
}

const context = {
  setInput,
  setBase(value) {
    state.base = value;
    showValue('base', value);
    changed();
  },
  setView,
  setStep,
  setPattern(value) {
    state.pattern = value;
    changed({ parse: false });
  },
  setIgnoreCase(on) {
    state.ignoreCase = Boolean(on);
    syncIgnoreCase();
    changed({ parse: false });
  },
  openLesson,
};

/// Gives the Pattern view (its module and its box, when drawn) the page's ignoreCase.
function syncIgnoreCase() {
  views.pattern?.setIgnoreCase?.(state.ignoreCase);
  const box = document.getElementById('vw-ignore-case');
  if (box && box.checked !== state.ignoreCase) box.checked = state.ignoreCase;
}

// ---- The lesson --------------------------------------------------------------------------
//
// A lesson opened from the Lessons view stays on screen above the views while it is on (the
// view it opens is another tab): it is closed by its button, by another lesson, by an emptied
// Input or by another link.

/// Shows `node` (the lesson's text, made by the Lessons view) in the lesson box; once the view
/// the lesson opens is drawn, the focus goes to it when it is the Trace (on the lesson's
/// step, so that the arrows step from there), else to the lesson's text, and the step (or the
/// text) is scrolled into the window.
function openLesson(node, { toTrace }) {
  const box = $('lesson-box');
  const close = el('button', { type: 'button', class: 'small', text: 'Close the lesson' });
  close.addEventListener('click', () => {
    closeLesson();
    $('input').focus();
  });
  box.replaceChildren(node, close);
  box.hidden = false;
  requestAnimationFrame(() => {
    const trace = toTrace && tabOf(state.view) === 'trace' ? $('trace-wrap') : null;
    (trace ?? box).focus({ preventScroll: true });
    box.scrollIntoView({ block: 'start' });
    const row = trace?.querySelector('tr.current');
    if (row) {
      const { top, bottom } = row.getBoundingClientRect();
      if (top < 0 || bottom > innerHeight) row.scrollIntoView({ block: 'nearest' });
    }
  });
}

function closeLesson() {
  const box = $('lesson-box');
  if (box.hidden) return;
  box.hidden = true;
  box.replaceChildren();
}

// ---- Copying -----------------------------------------------------------------------------

async function copy(text, what) {
  let done = false;
  try {
    await navigator.clipboard.writeText(text);
    done = true;
  } catch {
    const area = el('textarea', { value: text, readOnly: true });
    area.setAttribute('aria-hidden', 'true');
    document.body.append(area);
    area.select();
    done = document.execCommand('copy');
    area.remove();
  }
  $('copied').textContent = done ? `Copied the ${what}.` : `Could not copy the ${what}: select it by hand.`;
  document.body.dataset.copied = text;
}

// ---- Start -------------------------------------------------------------------------------

let engineReady = false;

async function start() {
  watchSections();
  readFragment();
  showValue('input', state.input);
  showValue('base', state.base);
  for (const id of ['input', 'base']) {
    // Enter types no newline (a URL is one line, and the newline was an invalid-URL-unit
    // error): a newline pasted stays, as the lessons on tabs and newlines paste them.
    $(id).addEventListener('keydown', (event) => {
      if (event.key === 'Enter' && !event.isComposing) event.preventDefault();
    });
    $(id).addEventListener('input', () => {
      fitLines($(id));
      state[id] = $(id).value;
      if (id === 'input' && state.input === '') closeLesson();
      state.step = 0;
      changed();
    });
  }
  // The welcome's first example and its way to the lessons; the focus goes where they lead.
  $('welcome-example').addEventListener('click', (event) => {
    setInput(event.currentTarget.textContent);
    $('input').focus();
  });
  $('welcome-lessons').addEventListener('click', () => {
    setView('lessons');
    $('tab-lessons').focus();
  });
  // The Pattern view's ignoreCase box (pattern.js keeps its own): the page's state follows it,
  // so that the link and the command carry it.
  $('panels').addEventListener('change', (event) => {
    if (event.target.id !== 'vw-ignore-case') return;
    state.ignoreCase = event.target.checked;
    changed({ parse: false });
  });
  addEventListener('hashchange', () => {
    addressRead = location.hash;
    if (location.hash === fragment()) return;
    readFragment();
    syncIgnoreCase();
    closeLesson();
    showValue('input', state.input);
    showValue('base', state.base);
    changed();
    render();
  });
  // The address is written at once when the page is left, hidden or loses the focus, and
  // before it is copied: it is never behind the screen when someone takes it.
  addEventListener('blur', writeFragmentNow);
  addEventListener('pagehide', writeFragmentNow);
  document.addEventListener('visibilitychange', writeFragmentNow);
  $('copy-link').addEventListener('click', () => {
    writeFragmentNow();
    // Clicked before the button could be disabled: the address is the last short input's.
    if (tooLongForLink()) $('copied').textContent = 'The input is too long for a link: Copy command copies it whole.';
    else copy(location.href, 'link');
  });
  $('copy-href').addEventListener('click', () => {
    const href = screen?.page.components?.find((c) => c.name === 'href')?.value;
    copy(href ?? state.input, href ? 'href' : 'input (it is not a URL)');
  });
  $('copy-command').addEventListener('click', () => {
    const command = currentCommand();
    if (command === undefined) $('copied').textContent = NO_COMMAND;
    else copy(command, 'command');
  });

  // The engine: compiled once, as it is inflated; the worker is handed the compiled module.
  const compiling = compileModule();
  // The other views, loaded meanwhile, so that nothing is fetched later.
  const loading = Promise.all(VIEWS.filter((v) => v.id !== 'trace').map(async (v) => {
    try {
      views[v.id] = await import(`./views/${v.id}.js`);
    } catch {
      // A view whose module failed to load says so on its tab.
    }
  }));
  const module = await compiling;
  await init({ module_or_path: module });
  engineReady = true;
  readings.start(engine, readingsJudged);
  $('version').textContent = engine.version();
  // The first screen comes from the page's thread, as every input up to ON_THREAD_MAX does: it
  // does not wait for the worker to start (a longer one, in a link made by hand, waits for it).
  // The Trace tab needs no view's module: its first screen does not wait for them either.
  const onThread = state.input.length + state.base.length <= ON_THREAD_MAX;
  const early = onThread && tabOf(state.view) === 'trace';
  if (early) changed();
  await loading;
  syncIgnoreCase();
  if (early && tabOf(state.view) !== 'trace') render(); // a tab opened meanwhile
  else if (onThread && !early) changed();
  try {
    const starting = new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
    await new Promise((resolve, reject) => {
      starting.onerror = reject;
      starting.onmessage = (event) => {
        if (event.data.ready) resolve();
      };
      starting.postMessage({ module });
    });
    starting.onmessage = (event) => received(event.data);
    worker = starting;
  } catch {
    // No module workers here: every input is parsed on the page's thread.
  }
  // For the browser tests and the console: the engine's functions, and whether the worker runs.
  window.urlscope = engine;
  document.body.dataset.worker = worker ? 'running' : 'none';
  document.body.dataset.ready = 'true';
  if (!onThread) changed();
  document.documentElement.dataset.engine = 'ready';
  warmUp();
  readings.loadWhenIdle();
}

// URLs that take the engine through most of its code: special and not, credentials, a port,
// dot segments, IPv4 in hex and IPv6, an international host and a spoofed one, a Windows drive
// letter, an opaque path, a relative reference against a base, tabs and failures.
const WARM_UP = [
  ['https://user:pw@www.example.com:8080/a/./b/../%7e?q=1&r=%zz#f'],
  ['http://0x7f.1/'],
  ['http://[::ffff:1.2.3.4]:0/'],
  ['https://b\u00fccher.example\\p'],
  ['https://\u0430pple.com/'], // a Cyrillic a
  ['file:///C|/x/y'],
  ['mailto:a@b?subject=x'],
  ['../a b?c#d', 'https://example.com/x/y'],
  ['ht\ttps://exa\nmple.com/'],
  ['https://exa mple.com/'],
];

/// Runs the engine once on each of WARM_UP, one a browser's idle moment, the answers dropped.
/// V8 compiles the module's functions on their first call: the first URL that parsed took 20 to
/// 30 ms more than the one after it, and with this it is not the first keystrokes that pay.
function warmUp(next = 0) {
  if (next >= WARM_UP.length) return;
  const later = () => {
    const [input, base] = WARM_UP[next];
    try {
      engine.screen(input, base, 0);
      engine.command(input, base, 'trace', 0, undefined, false);
    } catch {
      // A warm-up only: the screen of a real input says what failed.
    }
    warmUp(next + 1);
  };
  if (window.requestIdleCallback) requestIdleCallback(later, { timeout: 1000 });
  else setTimeout(later, 50);
}

start().catch((error) => {
  $('verdict').textContent = `The engine could not start: ${error}`;
  $('verdict').className = 'verdict danger';
});

// Offline: a service worker (sw.js) keeps the page's files, so that once loaded the page and its
// readings keep working with the server gone. Registered in an idle moment after the load, so
// that its fetches do not compete with the first screen's. Browsers have none outside a secure
// context (a page served over http from another machine): the page then works online only.
if ('serviceWorker' in navigator) {
  // A load the worker did not serve (the first): the readings loaded meanwhile (Python's) went
  // past it, and it is asked to keep them once it runs.
  const unseen = navigator.serviceWorker.controller === null;
  addEventListener('load', () => {
    const register = () => navigator.serviceWorker.register('./sw.js')
      .then(() => navigator.serviceWorker.ready)
      .then((registration) => unseen && registration.active?.postMessage('keep-later'))
      .catch(() => {});
    if (window.requestIdleCallback) requestIdleCallback(register, { timeout: 2000 });
    else setTimeout(register, 500);
  });
}

// For the benchmark script and the tests: the engine and the keystroke timings.
export { engine, timings, state };
