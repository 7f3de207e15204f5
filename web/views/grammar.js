// The Grammar view: the writing grammar's verdict (the standard's second definition of
// validity) beside the parser's, where the input stops and what was expected there, the
// production path, and railroad diagrams drawn as SVG (createElementNS, never markup) with the
// rail the input took highlighted and the production where it stopped marked. The marks are
// the library's marked tree (src/report/grammar/railroad.rs, serialised by the engine), the
// one the inspector draws: this decides none.

import { el, svg, clear, ask, baseOf } from './common.js';

const CW = 7.4; // width of a character of the diagrams' 12px monospace text
const H = 24; // a box's height
const G = 14; // the rail between two items of a sequence
const R = 14; // the room a branch takes to turn
const VG = 10; // the gap between alternatives, and under a rail

function cls(on, stop) {
  return stop ? 'rr-stop' : on ? 'rr-on' : 'rr-off';
}

function path(g, d, on) {
  g.append(svg('path', { d, class: `rr-line ${cls(on)}` }));
}

function box(node, text, rounded) {
  const w = Math.max(H, Math.round(text.length * CW + 18));
  return {
    w, h: H, y0: H / 2,
    draw(g, x, y) {
      const part = svg('g', { class: `rr-box ${cls(node.on, node.stop)}`, 'data-label': text });
      part.append(svg('rect', { x, y, width: w, height: H, rx: rounded ? H / 2 : 3 }));
      const t = svg('text', { x: x + w / 2, y: y + H / 2 + 4, 'text-anchor': 'middle' });
      t.textContent = text;
      part.append(t);
      g.append(part);
    },
  };
}

// The layout of a marked rail: its width, height and rail's offset from its top, and how to draw
// it at (x, y), its top left corner.
function layout(node) {
  switch (node.type) {
    case 'term':
      return box(node, node.text, true);
    case 'production':
      return box(node, node.label, false);
    case 'seq': {
      const items = node.items.map(layout);
      const y0 = Math.max(...items.map((i) => i.y0));
      const below = Math.max(...items.map((i) => i.h - i.y0));
      const w = items.reduce((s, i) => s + i.w, 0) + G * (items.length - 1);
      return {
        w, h: y0 + below, y0,
        draw(g, x, y) {
          let cx = x;
          items.forEach((item, k) => {
            if (k > 0) path(g, `M${cx - G} ${y + y0}H${cx}`, node.links[k - 1]);
            item.draw(g, cx, y + y0 - item.y0);
            cx += item.w + G;
          });
        },
      };
    }
    case 'optional': {
      const inner = layout(node.inner);
      const y0 = 2;
      return {
        w: inner.w + 2 * R, h: y0 + VG + inner.h, y0,
        draw(g, x, y) {
          const Y = y + y0;
          const top = Y + VG;
          const IY = top + inner.y0;
          const w = inner.w + 2 * R;
          const h = R / 2;
          path(g, `M${x} ${Y}H${x + w}`, node.bypass);
          path(g, `M${x} ${Y}Q${x + h} ${Y} ${x + h} ${Y + h}V${IY - h}Q${x + h} ${IY} ${x + R} ${IY}`, node.branch);
          path(g, `M${x + R + inner.w} ${IY}Q${x + w - h} ${IY} ${x + w - h} ${IY - h}V${Y + h}Q${x + w - h} ${Y} ${x + w} ${Y}`, node.back);
          inner.draw(g, x + R, top);
        },
      };
    }
    case 'repeat': {
      const body = layout(node.body);
      return {
        w: body.w + 2 * R, h: body.h + VG + 2, y0: body.y0,
        draw(g, x, y) {
          const Y = y + body.y0;
          const bottom = y + body.h + VG;
          const end = x + R + body.w;
          path(g, `M${x} ${Y}H${x + R}`, node.on);
          path(g, `M${end} ${Y}H${end + R}`, node.out);
          // The way round, back to the body's start.
          path(g, `M${end} ${Y}Q${end + R / 2} ${Y} ${end + R / 2} ${Y + R / 2}V${bottom}H${x + R / 2}V${Y + R / 2}Q${x + R / 2} ${Y} ${x + R} ${Y}`, node.out);
          body.draw(g, x + R, y);
        },
      };
    }
    case 'choice': {
      const alts = node.alts.map((a) => ({ ...a, l: layout(a.node) }));
      const inner = Math.max(...alts.map((a) => a.l.w));
      const w = inner + 2 * R;
      const y0 = alts[0].l.y0;
      let h = 0;
      for (const a of alts) {
        a.top = h;
        h += a.l.h + VG;
      }
      return {
        w, h: h - VG, y0,
        draw(g, x, y) {
          const Y = y + y0;
          const q = R / 2;
          // The rails off the input's path first, those on it over them.
          const order = [...alts].sort((a, b) => Number(a.taken) - Number(b.taken));
          for (const a of order) {
            const top = y + a.top;
            const AY = top + a.l.y0;
            const end = x + R + a.l.w;
            if (AY === Y) {
              path(g, `M${x} ${Y}H${x + R}`, a.taken);
              path(g, `M${end} ${Y}H${x + w}`, a.exit);
            } else {
              path(g, `M${x} ${Y}Q${x + q} ${Y} ${x + q} ${Y + q}V${AY - q}Q${x + q} ${AY} ${x + R} ${AY}`, a.taken);
              path(g, `M${end} ${AY}H${x + w - R}Q${x + w - q} ${AY} ${x + w - q} ${AY - q}V${Y + q}Q${x + w - q} ${Y} ${x + w} ${Y}`, a.exit);
            }
            a.l.draw(g, x + R, top);
          }
        },
      };
    }
    default:
      return { w: 0, h: 0, y0: 0, draw() {} };
  }
}

// The labels on the input's path, and the one where it stopped, for the diagram's text
// alternative.
function walk(node, on, stops) {
  if (node.type === 'term' || node.type === 'production') {
    const label = node.text || node.label;
    if (node.stop) stops.push(label);
    else if (node.on) on.push(label);
    return;
  }
  const children = node.items || (node.inner && [node.inner]) || (node.body && [node.body]) ||
    (node.alts && node.alts.map((a) => a.node)) || [];
  for (const child of children) walk(child, on, stops);
}

let diagramCount = 0;

export function diagram(name, rail, valid) {
  const l = layout(rail);
  const pad = 8;
  const stub = 12;
  const width = Math.ceil(l.w + 2 * (pad + stub));
  const height = Math.ceil(l.h + 2 * pad);
  const id = `rr-title-${++diagramCount}`;
  const root = svg('svg', {
    class: 'rr', width, height, viewBox: `0 0 ${width} ${height}`, role: 'img', 'aria-labelledby': id,
    'data-production': name,
  });
  const on = [];
  const stops = [];
  walk(rail, on, stops);
  const title = svg('title', { id });
  title.textContent = `Railroad diagram of the ${name}. On the input's path: ${on.join(', ') || 'nothing'}` +
    (stops.length ? `. Stopped in: ${stops.join(', ')}.` : '.');
  root.append(title);
  const g = svg('g');
  const Y = pad + l.y0;
  path(g, `M${pad} ${Y - 6}V${Y + 6}M${pad} ${Y}H${pad + stub}`, true);
  l.draw(g, pad + stub, pad);
  const end = pad + stub + l.w;
  path(g, `M${end} ${Y}H${end + stub}M${end + stub} ${Y - 6}V${Y + 6}`, valid);
  root.append(g);
  return root;
}

export function render(root, engine, state) {
  clear(root);
  root.append(el('h2', {}, 'Grammar'));
  const m = ask(root, () => engine.view_grammar(state.input, baseOf(state)));
  if (!m) return;
  const w = m.writing;
  const verdict = (ok, yes, no) => el('span', { class: ok ? 'vw-ok' : 'vw-bad' }, ok ? yes : no);
  root.append(el('p', { class: 'vw-verdict', 'data-writing': w.valid ? 'valid' : 'invalid' },
    'Writing: ', verdict(w.valid, 'a valid URL string', 'not a valid URL string'),
    ' · Parser: ', verdict(m.parser.valid, 'no validation error', m.parser.parsed ? 'validation errors' : 'failure')));
  if (m.base_failure) {
    root.append(el('p', { class: 'vw-error' },
      `${m.base_failure[0].toUpperCase()}${m.base_failure.slice(1)}, so the parser never ran on the input: the parser's verdict is the base's failure.`));
  }
  root.append(el('p', { class: 'vw-agreement' }, m.agreement));
  if (!w.valid && w.position !== null) {
    root.append(el('p', { class: 'vw-stop', 'data-position': w.position },
      `Stops at code point ${w.position}: ${w.expected || ''}`));
    if (m.stop) {
      root.append(el('p', { class: 'vw-stop-at' },
        el('code', {}, m.stop.before),
        el('mark', { class: 'vw-stop-mark', title: `code point ${w.position}`, 'aria-label': `the grammar stops here, at code point ${w.position}` }, '▲'),
        el('code', {}, m.stop.after)));
    }
  }
  if (w.production_path.length) {
    root.append(el('h3', {}, w.valid ? 'The productions the input matched' : 'The productions it was in where it stopped'),
      el('ol', { class: 'vw-productions', 'aria-label': 'Production path' }, w.production_path.map((p) => el('li', {}, p))));
  }
  for (const d of m.diagrams) {
    root.append(el('figure', { class: 'rr-figure' },
      el('figcaption', {}, d.name),
      el('div', { class: 'rr-scroll', tabindex: '0', 'aria-label': `${d.name}, scrollable` }, diagram(d.name, d.rail, w.valid))));
  }
}
