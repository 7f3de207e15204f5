// urlscope's classroom page: the shell. It reads the screen from the engine (WebAssembly, in a
// Web Worker) and builds the DOM from it. Every value reaches the DOM as text (textContent,
// createElement): nothing from the input, the base, the pattern or the engine is ever parsed
// as markup. The page never parses a URL itself: the standard's reading is the engine's, and
// the browser's reading is the browser's own URL API.

import init, * as engine from './pkg/urlscope_web.js';
// The module comes in a script, gzipped (scripts/build-web): the policy allows no fetch at all.
import { compileModule } from './pkg/urlscope_web_bg.wasm.js';

const VIEWS = [
  { id: 'trace', title: 'Trace' },
  { id: 'host', title: 'Host' },
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

const state = { input: '', base: '', view: 'trace', step: 0, pattern: '' };
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

function cut(value) {
  if (value.length <= SHOWN_MAX) return value;
  // Cut on a code point's boundary: a lone high surrogate at the end is left out.
  let end = SHOWN_MAX;
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
}

function fragment() {
  const params = new URLSearchParams();
  params.set('input', state.input);
  if (state.base) params.set('base', state.base);
  params.set('view', state.view);
  if (state.view === 'trace') params.set('step', String(state.step));
  if (state.pattern) params.set('pattern', state.pattern);
  return `#${params}`;
}

function writeFragment() {
  const long = state.input.length + state.base.length + state.pattern.length > LINK_MAX;
  $('copy-link').disabled = long;
  $('copy-link').title = long ? 'The input is too long for a link' : '';
  if (long) return;
  const next = fragment();
  if (next !== location.hash) history.replaceState(null, '', next);
}

// ---- The engine ---------------------------------------------------------------------------

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
  screen = JSON.parse(message.json);
  if (!pending && screen.step !== state.step) {
    // The step asked for was past the trace's end: the screen shows the last one.
    state.step = screen.step;
    writeFragment();
  }
  render();
  timings.push(performance.now());
  document.body.dataset.shown = String(message.id);
  document.body.dataset.firstScreen ??= String(Math.round(performance.now()));
}

function changed({ parse = true } = {}) {
  writeFragment();
  renderCommand();
  if (parse) request();
}

// ---- Rendering ----------------------------------------------------------------------------

function render() {
  if (!screen) return;
  const { page } = screen;
  renderVerdict(page);
  renderRuler(page);
  renderComponents(page);
  renderBrowser(page);
  renderErrors(page);
  renderTabs();
  renderPanel();
  renderCommand();
}

function renderVerdict(page) {
  const verdict = $('verdict');
  if (!page.verdict) {
    verdict.textContent = 'Type a URL in the Input box.';
    verdict.className = 'verdict';
    return;
  }
  verdict.textContent = page.verdict.text;
  const worst = page.verdict.worst;
  verdict.className = `verdict ${worst === 'danger' ? 'danger' : worst === 'warn' ? 'warn'
    : page.outcome === 'parsed' ? 'ok' : 'danger'}`;
}

function renderRuler(page) {
  const ruler = $('ruler');
  const pointer = screen.detail?.row.pointer;
  const nodes = [];
  for (const run of page.runs) {
    const cls = [`part-${run.part ?? 'none'}`];
    if (run.error) cls.push('error');
    const span = el('span', { class: cls.join(' '), text: run.text });
    span.title = `${run.part ?? 'no part'}${run.error ? ', validation error' : ''} (code points ${run.start}..${run.end})`;
    if (state.view === 'trace' && pointer != null && pointer >= run.start && pointer < run.end) {
      span.classList.add('pointer');
    }
    nodes.push(span);
  }
  const total = page.length;
  const shown = page.runs.length ? page.runs[page.runs.length - 1].end : 0;
  if (shown < total) {
    nodes.push(el('span', { class: 'note', text: ` … ${total - shown} more code points, not coloured` }));
  }
  ruler.replaceChildren(...nodes);
}

function renderComponents(page) {
  const body = $('components').tBodies[0];
  if (!page.components) {
    const why = page.outcome === 'base-failure' ? 'The base is not a URL, so the input was not parsed.'
      : page.verdict ? 'The input is not a URL: the parser returned failure.' : '';
    body.replaceChildren(el('tr', {}, el('td', { text: why, colSpan: 2 })));
    $('open-box').hidden = true;
    return;
  }
  const rows = page.components.map((c) => {
    // The href's own element (#href) holds the href alone, for the page's tests.
    const value = el('td', { class: `value part-${c.part ?? 'none'}` },
      el('span', c.name === 'href' ? { id: 'href', text: visible(c.value) } : { text: visible(c.value) }));
    const row = el('tr', {}, el('th', { scope: 'row', text: c.name }), value);
    if (c.name === 'href') {
      const open = el('button', { type: 'button', text: 'Open…', class: 'small' });
      open.setAttribute('aria-controls', 'open-box');
      open.addEventListener('click', () => showOpenBox(c.value, page));
      value.append(' ', open);
    }
    return row;
  });
  if (page.params.length) {
    rows.push(el('tr', {}, el('th', { scope: 'row', text: `query params (${page.params.length})` }),
      el('td', { text: page.params.slice(0, 50).map(([k, v]) => `${visible(k)} = ${visible(v)}`).join('\n') })));
  }
  body.replaceChildren(...rows);
}

/// The inspected URL is never followed by a click without its href shown first, and only an
/// http(s) URL is ever a link: a javascript: URL is never made into one.
function showOpenBox(href, page) {
  const box = $('open-box');
  const protocol = page.components.find((c) => c.name === 'protocol')?.value;
  const children = [el('p', { text: 'This URL goes to:' }), el('code', { text: visible(href) })];
  if (protocol === 'http:' || protocol === 'https:') {
    children.push(el('p', {}, el('a', { href, text: 'Open it in a new tab', target: '_blank', rel: 'noopener noreferrer' })));
  } else {
    children.push(el('p', { class: 'note', text: `A ${protocol} URL is not opened from this page.` }));
  }
  box.replaceChildren(...children);
  box.hidden = false;
}

/// The browser's name, from User-Agent Client Hints or the User-Agent string.
function browserName() {
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
function browserReading() {
  try {
    const url = state.base === '' ? new URL(state.input) : new URL(state.input, state.base);
    return { url: Object.fromEntries(GETTERS.map((g) => [g, url[g]])) };
  } catch (error) {
    return { error: error?.name ?? 'Error' };
  }
}

function renderBrowser(page) {
  const name = browserName();
  const reading = browserReading();
  const ours = page.components ? Object.fromEntries(page.components.map((c) => [c.name, c.value])) : null;
  const body = $('browser').tBodies[0];
  const rows = [];
  let differences = 0;
  if (!state.input && !state.base) {
    $('browser-name').textContent = `${name}: new URL(input, base)`;
    body.replaceChildren();
    return;
  }
  if (reading.error) {
    const agree = !ours;
    if (!agree) differences += 1;
    rows.push(el('tr', { class: agree ? '' : 'differs' }, el('th', { scope: 'row', text: 'new URL' }),
      el('td', {}, el('span', { class: 'throws', text: `throws ${reading.error}` }),
        agree ? ' (the standard: failure too)' : el('span', { class: 'flag', text: ' ≠ the standard, which parses it' }))));
  } else if (!ours) {
    differences += 1;
    rows.push(el('tr', { class: 'differs' }, el('th', { scope: 'row', text: 'new URL' }),
      el('td', {}, 'parses it; ', el('span', { class: 'flag', text: '≠ the standard, which returns failure' }))));
    for (const g of GETTERS) rows.push(el('tr', {}, el('th', { scope: 'row', text: g }), el('td', { class: 'value', text: visible(reading.url[g]) })));
  } else {
    for (const g of GETTERS) {
      const theirs = reading.url[g];
      const differs = theirs !== ours[g];
      if (differs) differences += 1;
      const cell = el('td', { class: 'value', text: visible(theirs) });
      if (differs) cell.append(el('span', { class: 'flag', text: ` ≠ the standard: ${visible(ours[g])}` }));
      rows.push(el('tr', { class: differs ? 'differs' : '' }, el('th', { scope: 'row', text: g }), cell));
    }
  }
  $('browser-name').textContent = `${name}: new URL(input${state.base ? ', base' : ''}) — ${differences ? `${differences} difference${differences === 1 ? '' : 's'} from the standard` : 'agrees with the standard'}`;
  $('browser').dataset.differences = String(differences);
  body.replaceChildren(...rows);
}

function renderErrors(page) {
  const list = $('errors');
  const errors = page.outcome === 'base-failure' ? page.base_errors : page.errors;
  $('errors-title').textContent = page.outcome === 'base-failure'
    ? `Validation errors of the base (${errors.length})` : `Validation errors (${errors.reduce((n, e) => n + e.count, 0)})`;
  if (!errors.length) {
    list.replaceChildren(el('li', { class: 'note', text: page.verdict ? 'None: the parser raised no validation error.' : 'None yet.' }));
    return;
  }
  list.replaceChildren(...errors.map((e) => {
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
        setInput(e.fix.fixed);
        $('input').focus();
      });
      item.append(el('br'), button, ' ',
        el('span', { class: 'effect', text: e.fix.same_href ? 'keeps the href' : e.fix.makes_url ? 'the input then parses' : 'the href changes' }));
    }
    return item;
  }));
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
    tab.setAttribute('aria-selected', String(selected));
    tab.tabIndex = selected ? 0 : -1;
    $(`panel-${view.id}`).hidden = !selected;
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
  number.max = String(Math.max(0, steps - 1));
  if (document.activeElement !== number) number.value = String(state.step);
  if (!screen.page.trace) {
    label.textContent = state.input.length ? 'The trace is not recorded for an input this long (over 1 MiB), as in the terminal inspector.' : 'No trace yet.';
    $('trace-body').replaceChildren();
    $('step-detail').replaceChildren();
    return;
  }
  label.textContent = `of ${steps - 1} (${steps} steps${screen.page.trace.failed ? ', ending in failure' : ''})`;
  $('trace-body').replaceChildren(...screen.rows.map((r) => {
    const row = el('tr', { class: `${r.index === state.step ? 'current' : ''} ${r.error ? 'has-error' : ''}` },
      el('td', { text: String(r.index) }), el('td', { text: r.state }),
      el('td', { text: r.pointer == null ? '' : String(r.pointer) }), el('td', { text: r.c ?? '' }),
      el('td', { text: r.buffer }), el('td', { text: r.changes.join(' ') }));
    row.addEventListener('click', () => setStep(r.index));
    if (r.index === state.step) row.setAttribute('aria-current', 'step');
    return row;
  }));
  const current = $('trace-body').querySelector('tr.current');
  const wrap = $('trace-wrap');
  if (current) {
    const top = current.offsetTop - wrap.clientHeight / 2;
    wrap.scrollTop = Math.max(0, top);
  }
  renderDetail(screen.detail);
}

function buildTracePanel(panel) {
  const button = (id, text, to) => {
    const b = el('button', { type: 'button', id, text });
    b.addEventListener('click', () => setStep(to()));
    return b;
  };
  const last = () => Math.max(0, (screen?.page.trace?.steps ?? 1) - 1);
  const number = el('input', { id: 'step-number', type: 'number', min: '0' });
  number.addEventListener('change', () => setStep(Number.parseInt(number.value, 10) || 0));
  const numberLabel = el('label', { htmlFor: 'step-number', text: 'Step' });
  const wrap = el('div', { id: 'trace-wrap', class: 'trace-wrap', tabindex: '0', role: 'region', 'aria-label': 'Trace steps (← → to step, Home and End for the first and last)' },
    el('table', { class: 'trace' },
      el('thead', {}, el('tr', {}, ...['step', 'state', 'pointer', 'c', 'buffer', 'changes'].map((h) => el('th', { scope: 'col', text: h })))),
      el('tbody', { id: 'trace-body' })));
  panel.replaceChildren(
    el('div', { class: 'stepper', role: 'group', 'aria-label': 'Step through the trace' },
      button('step-first', '⏮ First', () => 0),
      button('step-prev', '◀ Previous', () => Math.max(0, state.step - 1)),
      button('step-next', 'Next ▶', () => Math.min(last(), state.step + 1)),
      button('step-last', 'Last ⏭', last),
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
  if (!detail) {
    box.replaceChildren();
    return;
  }
  const r = detail.row;
  const where = r.pointer == null ? 'a preprocessing step' : `pointer ${r.pointer}, c = ${r.c}`;
  const children = [el('h3', {}, `Step ${r.index}: ${r.state}`, ` (${where})`)];
  if (detail.spec) {
    children.push(el('p', {}, 'The standard: ', specLink(detail.spec.url, `${detail.spec.section}, step ${detail.spec.step}`)));
  }
  const explained = el('ul');
  for (const e of [...detail.explained, ...detail.host]) {
    explained.append(el('li', {}, specLink(e.url, `step ${e.step}`), `: ${e.explanation}`));
  }
  children.push(explained);
  const facts = el('dl');
  const fact = (k, v) => facts.append(el('dt', { text: k }), el('dd', { text: v }));
  fact('buffer', r.buffer === '' ? '(empty)' : r.buffer);
  fact('changes', r.changes.length ? r.changes.join(', ') : 'none');
  fact('next state', detail.next ?? '(the parser returns)');
  for (const [k, v] of detail.record) fact(`record ${k}`, v);
  children.push(facts);
  box.replaceChildren(...children);
}

// Past this many characters the command is not shown (Copy command still copies it all).
const COMMAND_SHOWN_MAX = 2048;

function currentCommand() {
  return engine.command(state.input, state.base || undefined, state.view,
    state.view === 'trace' ? state.step : undefined, state.pattern || undefined);
}

function renderCommand() {
  const length = state.input.length + state.base.length + state.pattern.length;
  let text = '';
  if (!engineReady) text = '';
  else if (length > COMMAND_SHOWN_MAX) text = `(the input is ${length} characters long: Copy command copies the whole command)`;
  else text = currentCommand();
  $('command-text').textContent = text;
}

// ---- State changes -----------------------------------------------------------------------

function setInput(value) {
  state.input = value;
  $('input').value = value;
  changed();
}

function setStep(n) {
  state.step = Math.max(0, n);
  changed();
}

function setView(view) {
  state.view = VIEWS.some((v) => v.id === view) || SHOWN_PANES.includes(view) ? view : 'trace';
  changed({ parse: false });
  render();
  if (SHOWN_PANES.includes(view)) $(`${view}-title`).scrollIntoView({ block: 'nearest' });
}

const context = {
  setInput,
  setBase(value) {
    state.base = value;
    $('base').value = value;
    changed();
  },
  setView,
  setStep,
  setPattern(value) {
    state.pattern = value;
    changed({ parse: false });
  },
};

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
  readFragment();
  $('input').value = state.input;
  $('base').value = state.base;
  for (const id of ['input', 'base']) {
    $(id).addEventListener('input', () => {
      state[id] = $(id).value;
      state.step = 0;
      changed();
    });
  }
  addEventListener('hashchange', () => {
    if (location.hash === fragment()) return;
    readFragment();
    $('input').value = state.input;
    $('base').value = state.base;
    changed();
    render();
  });
  $('copy-link').addEventListener('click', () => copy(location.href, 'link'));
  $('copy-href').addEventListener('click', () => {
    const href = screen?.page.components?.find((c) => c.name === 'href')?.value;
    copy(href ?? state.input, href ? 'href' : 'input (it is not a URL)');
  });
  $('copy-command').addEventListener('click', () => copy(currentCommand(), 'command'));

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
  $('version').textContent = engine.version();
  // The first screen comes from the page's thread, as every input up to ON_THREAD_MAX does: it
  // does not wait for the worker to start (a longer one, in a link made by hand, waits for it).
  // The Trace tab needs no view's module: its first screen does not wait for them either.
  const onThread = state.input.length + state.base.length <= ON_THREAD_MAX;
  const early = onThread && tabOf(state.view) === 'trace';
  if (early) changed();
  await loading;
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
}

start().catch((error) => {
  $('verdict').textContent = `The engine could not start: ${error}`;
  $('verdict').className = 'verdict danger';
});

// For the benchmark script and the tests: the engine and the keystroke timings.
export { engine, timings, state };
