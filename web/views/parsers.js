// The Parsers view: how every parser of the terminal's `urlscope diff` reads the input, as the
// inspector's Parsers pane shows it (src/tui/panes/parsers.rs): one row per parser, a value
// that differs from whatwg's marked ≠ with the class of confusion that explains it, one that
// only spells the same destination otherwise marked ≈, where each reading goes (elsewhere, or
// refused: a parser that refuses sends the URL nowhere), and the verdict in `diff`'s words.
// Each row names what actually ran and its version; a parser without a reading here says why
// (waiting for its answer, not loaded yet, not built into this page, terminal only) and is
// never counted as agreeing. The model is the engine's `readings()` (crates/urlscope-web/src/
// parsers.rs), judged by web/readings.js over the readings the page has.

import { el, clear, value } from './common.js';
import { current, lazyToLoad, loadLazy } from '../readings.js';

const COLUMNS = ['scheme', 'username', 'password', 'host', 'port', 'path', 'query', 'fragment'];
const HEADERS = ['scheme', 'user', 'pass', 'host', 'port', 'path', 'query', 'frag'];
const STATES = {
  answered: 'answered',
  pending: 'waiting for its answer',
  'not-loaded': 'not loaded yet',
  loading: 'loading',
  'not-built': 'not built into this page',
  unavailable: 'unavailable here',
  'terminal-only': 'terminal only',
};

/// The parser's cell: its name, then what ran and its version.
function parserCell(p) {
  const ran = [p.implementation, p.version].filter((x) => x).join(', ');
  return el('th', { scope: 'row', class: 'pv-parser' },
    el('span', { class: 'pv-name' }, p.name),
    ran ? el('span', { class: 'vw-note pv-ran' }, ` ${ran}`) : null);
}

/// A component's cell: the value (null and "" told apart) after its mark.
function valueCell(cell) {
  const td = el('td', { 'data-component': cell.component });
  if (cell.mark) {
    td.dataset.mark = cell.mark;
    td.className = cell.mark === '≠' ? 'pv-differs' : 'pv-spelling';
    const words = cell.mark === '≠' ? 'differs from whatwg: ' : 'the same destination, spelled differently: ';
    td.append(el('span', { class: 'visually-hidden' }, words), el('span', { 'aria-hidden': 'true' }, cell.mark));
  }
  td.append(value(cell.value));
  return td;
}

function goesCell(p) {
  if (p.goes === 'elsewhere') {
    return el('td', { class: 'vw-bad', 'data-goes': 'elsewhere' }, `✗ elsewhere: ${p.destination}`);
  }
  if (p.goes === 'refused') {
    return el('td', { 'data-goes': 'refused' }, `refused: ${p.refusal ?? 'it fails'}`);
  }
  if (p.goes === 'same') {
    return el('td', { 'data-goes': 'same' }, p.destination ? `→ ${p.destination}` : 'no host, as the others');
  }
  return el('td', {}, '');
}

function row(p) {
  const tr = el('tr', { 'data-parser': p.name, 'data-state': p.state });
  tr.append(parserCell(p));
  if (p.state !== 'answered' || !(p.cells || p.failure)) {
    // No reading: the row says why, across the components, and is no reading in the verdict.
    const what = STATES[p.state] ?? p.state;
    const why = p.note ?? p.why;
    const text = why && why !== what && !why.startsWith(what) ? `${what}: ${why}` : why ?? what;
    tr.className = 'pv-missing';
    tr.append(el('td', { colspan: String(COLUMNS.length + 2), class: 'vw-quiet' }, text));
    return tr;
  }
  if (p.failure) {
    tr.className = p.mark ? 'vw-failed' : '';
    tr.append(goesCell(p), el('td', { colspan: String(COLUMNS.length), class: p.mark ? 'vw-bad' : '' },
      p.mark ? el('span', { class: 'visually-hidden' }, 'differs from whatwg: ') : null, p.note));
    tr.append(el('td', {}, ''));
    return tr;
  }
  // Where it goes first, beside the parser's name: the verdict's column, in view on a phone.
  tr.append(goesCell(p));
  for (const name of COLUMNS) {
    const cell = p.cells.find((c) => c.component === name);
    tr.append(cell ? valueCell(cell) : el('td', { 'data-component': name }, ''));
  }
  if (p.goes === 'elsewhere') tr.className = 'vw-differs-row';
  tr.append(el('td', { class: 'vw-note' }, p.note ?? ''));
  return tr;
}

/// The disagreements as `urlscope diff` lists them: the component, its class, who reads what.
function disagreements(comparison) {
  const list = comparison.disagreements ?? [];
  if (!list.length) return null;
  return el('ul', { class: 'pv-disagreements', 'aria-label': 'Disagreements' }, list.map((d) => {
    const groups = new Map();
    for (const [name, v] of Object.entries(d.values)) {
      const key = JSON.stringify(v);
      if (!groups.has(key)) groups.set(key, []);
      groups.get(key).push(name);
    }
    const spelled = d.class === 'same destination, spelled differently';
    return el('li', { 'data-component': d.component },
      `${spelled ? '≈' : '≠'} ${d.component}${d.class ? ` [${d.class}]` : ''}: `,
      [...groups.entries()].flatMap(([key, names], i) => [i ? ' vs ' : '', value(JSON.parse(key)), ` (${names.join(', ')})`]));
  }));
}

// What each root last drew: a judgement drawn already is not drawn again (a keystroke and each
// answer redraw the open view), so that the focus and the scroll in the table stay.
const drawn = new WeakMap();

export function render(root, engine, state) {
  const m = current(state.input, state.base ?? '');
  const lazy = lazyToLoad();
  const key = JSON.stringify([state.input, state.base, m, lazy.map((spec) => spec.name)]);
  if (drawn.get(root) === key && root.firstChild) return;
  drawn.set(root, key);
  // The focus on the table or the Load button is put back on the one drawn in its place.
  const focused = root.contains(document.activeElement) ? document.activeElement.className : null;
  clear(root);
  root.append(el('h2', {}, 'Parsers'));
  draw(root, state, m, lazy);
  if (focused !== null) {
    const name = focused.split(' ')[0];
    const same = name && /^[\w-]+$/.test(name) ? root.querySelector(`.${name}`) : null;
    (same ?? root.querySelector('.pv-wrap'))?.focus();
  }
}

function draw(root, state, m, lazy) {
  if (lazy.length) {
    root.append(el('p', {}, lazy.map((spec) => el('button', { type: 'button', class: 'pv-load', onclick: () => loadLazy() }, spec.load))));
  }
  if (!state.input) {
    root.append(el('p', { class: 'vw-quiet' }, 'Type a URL: every parser of `urlscope diff` reads it here, each in its own worker.'));
    return;
  }
  if (!m) {
    root.append(el('p', { class: 'vw-quiet' }, 'The readings are not compared for an input this long (over 64 KiB): `urlscope diff` in a terminal compares them.'));
    return;
  }
  if (m.error) {
    root.append(el('p', { class: 'vw-error', role: 'alert' }, `The engine failed: ${m.error}`));
    return;
  }
  const c = m.comparison;
  const danger = c.verdict === 'elsewhere';
  root.append(el('p', { class: `pv-headline ${danger ? 'vw-bad' : ''}`, 'data-verdict': c.verdict ?? 'none' },
    `Verdict: ${m.headline}`));
  if (c.explanation) root.append(el('p', { class: 'pv-explanation' }, `${c.verdict}: ${c.explanation}`));
  if (m.asked) root.append(el('p', { class: 'vw-note pv-asked' }, `The verdict is on the readings this page has${m.asked}.`));
  const head = el('tr', {}, el('th', { scope: 'col' }, 'parser'), el('th', { scope: 'col' }, 'where it goes'),
    HEADERS.map((h) => el('th', { scope: 'col' }, h)), el('th', { scope: 'col' }, 'notes'));
  const table = el('table', { class: 'vw-table pv-table' },
    el('caption', {}, 'How each parser reads the input: ≠ differs from whatwg, ≈ the same destination spelled differently'),
    el('thead', {}, head),
    el('tbody', {}, m.parsers.map(row)));
  root.append(el('div', { class: 'pv-wrap', role: 'region', 'aria-label': 'The parsers\' readings', tabindex: '0' }, table));
  const list = disagreements(c);
  if (list) root.append(el('h3', {}, 'Disagreements'), list);
  if (state.base) {
    root.append(el('p', { class: 'vw-note' }, 'With a base, each parser resolves the input by its own resolution (as `urlscope diff --base`); the host findings are judged without a base only.'));
  }
}
