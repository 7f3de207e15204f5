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
  return t;
}

// A value shown as code, the empty string and null told apart.
export function value(v) {
  if (v === null || v === undefined) return el('span', { class: 'vw-null' }, 'null');
  if (v === '') return el('span', { class: 'vw-null' }, '""');
  return el('code', { class: 'vw-value' }, String(v));
}
