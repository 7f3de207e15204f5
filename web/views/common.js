// Helpers the views share: elements made with the DOM, text always as text (never markup:
// inputs come from permalinks anyone can send).

export const SVG_NS = 'http://www.w3.org/2000/svg';

// An element with attributes (set one by one: never markup) and children (strings become text).
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (name === 'class') node.className = value;
    else if (name === 'text') node.textContent = value;
    else if (name.startsWith('on') && typeof value === 'function') node.addEventListener(name.slice(2), value);
    else node.setAttribute(name, value === true ? '' : String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : String(child));
  }
  return node;
}

// An SVG element, attributes set one by one.
export function svg(tag, attrs = {}) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === null || value === undefined) continue;
    if (name === 'class') node.setAttribute('class', value);
    else node.setAttribute(name, String(value));
  }
  return node;
}

export function clear(root) {
  root.replaceChildren();
}

// The engine's answer, read as JSON; a thrown engine is a message, never a blank view.
export function ask(root, call) {
  try {
    return JSON.parse(call());
  } catch (e) {
    root.append(el('p', { class: 'vw-error', role: 'alert' }, `The engine failed: ${e && e.message ? e.message : e}`));
    return undefined;
  }
}

// The Base line as the engine takes it: empty is no base.
export function baseOf(state) {
  return state.base ? state.base : undefined;
}

// A table with a caption, column headers and rows of cells (strings or nodes).
export function table(caption, headers, rows, attrs = {}) {
  const t = el('table', { class: 'vw-table', ...attrs });
  if (caption) t.append(el('caption', {}, caption));
  const head = el('tr', {}, headers.map((h) => el('th', { scope: 'col' }, h)));
  t.append(el('thead', {}, head));
  const body = el('tbody');
  for (const row of rows) {
    const tr = el('tr', row.attrs || {});
    for (const cell of row.cells || row) {
      tr.append(cell instanceof Node && cell.tagName === 'TD' ? cell : el('td', {}, cell));
    }
    body.append(tr);
  }
  t.append(body);
  // In a box that scrolls sideways: its columns are as wide as their longest word (words are
  // not broken inside), which can be wider than a phone.
  const box = el('div', { class: 'vw-scroll' }, t);
  scrollable.observe(box);
  return box;
}

// A box that scrolls is a stop for the keyboard (its arrows scroll it), named by its table's
// caption; one that does not scroll is none.
const scrollable = new ResizeObserver((entries) => {
  for (const { target } of entries) {
    const scrolls = target.scrollWidth > target.clientWidth + 1;
    if (scrolls === target.hasAttribute('tabindex')) continue;
    if (scrolls) {
      target.setAttribute('tabindex', '0');
      target.setAttribute('role', 'region');
      const caption = target.querySelector('caption')?.textContent;
      const heading = target.previousElementSibling?.matches('h3') ? target.previousElementSibling.textContent : null;
      target.setAttribute('aria-label', `${caption || heading || 'Table'} (scrolls sideways)`);
    } else {
      for (const name of ['tabindex', 'role', 'aria-label']) target.removeAttribute(name);
    }
  }
});

// A value shown as code, the empty string and null told apart: the empty string said in words,
// as whatwg-url's viewer says it, and null (absent) with a mark of its own, neither one blank.
export function value(v) {
  if (v === null || v === undefined) return el('span', { class: 'vw-null', 'data-value': 'null' }, '(null: absent)');
  if (v === '') return el('span', { class: 'vw-null', 'data-value': 'empty' }, '(empty string)');
  return el('code', { class: 'vw-value' }, String(v));
}
