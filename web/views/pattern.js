// The Pattern view: a URL pattern (the URL Pattern Standard, the engine's src/urlpattern), its
// components, the input matched against it with the groups, the errors; and the browser's own
// URLPattern beside ours where it has one, compared by the library's rule
// (crates/urlscope-web/src/pattern.rs). urlscope's time limit on a match is not the standard's
// "throws" (a TypeError): nothing is compared then, and "differs" only when both answered.

import { el, clear, ask, baseOf, table, value } from './common.js';

const COMPONENTS = ['protocol', 'username', 'password', 'hostname', 'port', 'pathname', 'search', 'hash'];

// ignoreCase is the view's own (a lesson sets it); the pattern is the page's state.
let ignoreCase = false;

export function setIgnoreCase(on) {
  ignoreCase = Boolean(on);
}

// The browser's name and version, from its own words.
export function browserName() {
  const brands = navigator.userAgentData && navigator.userAgentData.brands;
  if (brands && brands.length) {
    const b = brands.find((x) => !/Not.?A.?Brand/i.test(x.brand)) || brands[0];
    return `${b.brand} ${b.version}`;
  }
  const ua = navigator.userAgent;
  const m = /(Firefox|Edg|Chrome|Chromium|Version)\/([\d.]+)/.exec(ua);
  if (!m) return 'this browser';
  if (m[1] === 'Version') return `Safari ${m[2]}`;
  return `${m[1] === 'Edg' ? 'Edge' : m[1]} ${m[2].split('.')[0]}`;
}

// A group that did not participate is undefined: null, as the engine writes it.
function groups(g) {
  const out = {};
  for (const [name, v] of Object.entries(g)) out[name] = v === undefined ? null : v;
  return out;
}

// The browser's answer in the engine's shape (assets/parsers/urlpattern.js asks Node alike).
export function browserAnswer(args) {
  const out = { error: null, components: null, has_regexp_groups: null, test: null, match: null };
  let pattern;
  try {
    pattern = new URLPattern(...args.pattern);
  } catch (e) {
    out.error = `${e.name}: ${e.message}`;
    return out;
  }
  out.components = {};
  for (const c of COMPONENTS) out.components[c] = pattern[c];
  out.has_regexp_groups = typeof pattern.hasRegExpGroups === 'boolean' ? pattern.hasRegExpGroups : null;
  if (!args.inputs.length) return out;
  let result;
  try {
    out.test = pattern.test(...args.inputs);
    result = pattern.exec(...args.inputs);
  } catch (e) {
    out.test = null;
    out.input_error = `${e.name}: ${e.message}`;
    return out;
  }
  if (result) {
    out.match = {};
    for (const c of COMPONENTS) out.match[c] = { input: result[c].input, groups: groups(result[c].groups) };
  }
  return out;
}

// The form: made once and kept, so that the box keeps its focus and selection while the shell
// draws the view again (on every change of the Input or Base) and while the results below it
// are drawn again on every keystroke in it (the shell does not draw on a pattern's change).
function form(root, engine, state, ctx) {
  let box = root.querySelector('#vw-pattern');
  if (box) {
    if (document.activeElement !== box && box.value !== (state.pattern || '')) box.value = state.pattern || '';
    return box.closest('.vw-pattern-form');
  }
  box = el('input', {
    id: 'vw-pattern', type: 'text', class: 'vw-pattern-box',
    spellcheck: 'false', autocomplete: 'off', autocapitalize: 'off',
    placeholder: 'https://*.example.com/books/:id(\\d+)',
  });
  box.value = state.pattern || '';
  const ic = el('input', { id: 'vw-ignore-case', type: 'checkbox' });
  ic.checked = ignoreCase;
  const again = () => {
    ctx.setPattern(box.value);
    results(root.querySelector('.vw-pattern-results'), engine, { ...current, pattern: box.value });
  };
  box.addEventListener('input', again);
  ic.addEventListener('change', () => {
    ignoreCase = ic.checked;
    again();
  });
  return el('div', { class: 'vw-pattern-form' },
    el('label', { for: 'vw-pattern' }, 'Pattern'), box,
    el('label', { class: 'vw-check' }, ic, ' ignoreCase'));
}

function outcome(input, cut) {
  if (!input) return el('p', { class: 'vw-quiet' }, 'No input to match: type one in the Input box.');
  const p = el('p', { class: 'vw-outcome', 'data-test': String(input.test) });
  if (cut) {
    p.append(el('span', { class: 'vw-bad' }, 'No answer: '),
      `the match stopped at urlscope's time limit (${input.message}). The standard has no such answer: this is not its TypeError.`);
  } else if (input.outcome === 'matched') {
    p.append(el('span', { class: 'vw-ok' }, 'The input matches'), ' (test() is true).');
  } else if (input.outcome === 'no_match') {
    const failing = input.components.find((c) => c.name === input.first_failure);
    p.append(el('span', { class: 'vw-bad' }, 'No match'), `: the ${input.first_failure} is the first component that does not match`,
      failing && failing.why ? ` (${failing.why})` : '', '.');
  } else if (input.outcome === 'not_a_url') {
    p.append(el('span', { class: 'vw-bad' }, 'No match'), `: exec() returns null, ${input.message}`);
  } else {
    p.append(el('span', { class: 'vw-bad' }, 'Throws'), `: ${input.message}`);
  }
  return p;
}

function components(m) {
  const matched = new Map(((m.input && m.input.components) || []).map((c) => [c.name, c]));
  return table('Components', ['Component', 'Pattern', 'Regular expression', 'Input', 'Groups'],
    m.compiled.components.map((c) => {
      const i = matched.get(c.name);
      const groups = i && i.groups ? Object.entries(i.groups).map(([k, v]) => `${k} = ${v === null ? 'undefined' : JSON.stringify(v)}`).join(', ') : '';
      return {
        attrs: { 'data-component': c.name, class: i && !i.matched ? 'vw-failed' : null },
        cells: [c.name, value(c.pattern_string), el('code', { class: 'vw-regexp' }, `/${c.regexp}/${c.flags}`),
          i ? value(i.value) : '', i && !i.matched ? el('span', { class: 'vw-bad' }, 'no match') : groups],
      };
    }), { class: 'vw-table vw-pattern-components' });
}

function browser(root, engine, m) {
  const name = browserName();
  const section = el('section', { class: 'vw-browser', 'aria-label': 'The browser\'s own URLPattern' });
  section.append(el('h3', {}, `${name}'s own URLPattern`));
  root.append(section);
  if (typeof globalThis.URLPattern !== 'function') {
    section.append(el('p', { class: 'vw-quiet', 'data-browser': 'none' }, `${name} has no URLPattern: there is nothing to compare ours with.`));
    return;
  }
  if (!m.arguments.pattern || !m.arguments.inputs) {
    section.append(el('p', { class: 'vw-quiet' }, 'Not asked: the pattern or the input is neither a string nor a URLPatternInit.'));
    return;
  }
  const theirs = browserAnswer(m.arguments);
  // The sentence and the rows' marks are one comparison, the engine's (the library's rule):
  // a row is marked "differs" exactly where the sentence's "differs" comes from.
  const compared = JSON.parse(engine.compare_pattern(JSON.stringify(m.ours), JSON.stringify(theirs), Boolean(m.cut_at_time_limit), name));
  section.append(el('p', {
    class: compared.agrees === false ? 'vw-differs' : 'vw-agrees',
    'data-agrees': String(compared.agrees),
  }, compared.words));
  const text = (v) => (v === null || v === undefined ? value(null) : value(typeof v === 'string' ? v : JSON.stringify(v)));
  const rows = compared.rows.map((r) => ({
    attrs: { 'data-row': r.what, class: r.differs ? 'vw-differs-row' : null },
    cells: [r.what, text(r.ours), text(r.theirs),
      r.differs ? el('span', { class: 'vw-bad' }, 'differs') : el('span', { class: 'vw-quiet' }, 'same')],
  }));
  section.append(table(null, ['Compared', 'urlscope', name, 'Verdict'], rows, { class: 'vw-table vw-beside' }));
}

// The usual mistakes the pattern shows, as the inspector and `urlscope pattern` give them,
// in the page's words (the engine's PatternReport::hints_on).
function hints(m) {
  if (!m.hints || !m.hints.length) return null;
  return el('ul', { class: 'vw-hints', 'aria-label': 'Hints' },
    m.hints.map((h) => el('li', { 'data-hint': '' }, el('strong', {}, 'Hint: '), h)));
}

// The state the view was last drawn with (the pattern box changes only the pattern).
let current = { input: '', base: '', pattern: '' };

function results(box, engine, state) {
  clear(box);
  if (!state.pattern || !state.pattern.trim()) {
    box.append(el('p', { class: 'vw-quiet' }, 'Type a URL pattern: the input is matched against it. A relative pattern (/books/:id) takes its protocol and host from the Base box.'));
    return;
  }
  const m = ask(box, () => engine.view_pattern(state.pattern, state.input, baseOf(state), ignoreCase));
  if (!m) return;
  if (m.compiled.error) {
    box.append(el('p', { class: 'vw-error', role: 'status', 'data-error': 'pattern' }, `The constructor throws: ${m.compiled.error}`));
  } else {
    box.append(outcome(m.input, m.cut_at_time_limit));
  }
  const hinted = hints(m);
  if (hinted) box.append(hinted);
  if (!m.compiled.error) box.append(components(m));
  browser(box, engine, m);
}

export function render(root, engine, state, ctx) {
  current = { ...state };
  const kept = root.querySelector('#vw-pattern') ? root : null;
  const formBox = form(root, engine, state, ctx);
  let box = root.querySelector('.vw-pattern-results');
  if (!kept) {
    clear(root);
    box = el('div', { class: 'vw-pattern-results' });
    root.append(el('h2', {}, 'URL pattern'), formBox, box);
  }
  const ic = root.querySelector('#vw-ignore-case');
  if (ic) ic.checked = ignoreCase;
  results(box, engine, state);
}
