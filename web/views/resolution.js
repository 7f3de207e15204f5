// The Base resolution view: which branch of the parser used the base, where each component of
// the result came from (the input or the base), edit by edit with the step of the trace and of
// the standard that made it, and common references resolved against the base
// (crates/urlscope-web/src/resolution.rs; the inspector's Base resolution pane reads the same).

import { el, clear, ask, baseOf, table, value } from './common.js';

export function render(root, engine, state, ctx) {
  clear(root);
  root.append(el('h2', {}, 'Base resolution'));
  const m = ask(root, () => engine.view_resolution(state.input, baseOf(state)));
  if (!m) return;
  if (m.base === null || m.base === undefined) {
    root.append(el('p', { class: 'vw-quiet' }, 'No base URL: type one in the Base box to see relative resolution.'));
    return;
  }
  root.append(el('dl', { class: 'vw-forms' }, el('dt', {}, 'Base'), el('dd', {}, value(m.base))));
  if (m.failure) {
    root.append(el('p', { class: 'vw-error', role: 'status' }, m.failure));
    return;
  }
  root.append(el('dl', { class: 'vw-forms' },
    el('dt', {}, 'Branch'), el('dd', { 'data-field': 'branch' }, m.branch_words),
    m.result ? [el('dt', {}, 'Result'), el('dd', { 'data-field': 'result' }, value(m.result))] : null));
  if (m.components.length) {
    const rows = [];
    for (const c of m.components) {
      if (!c.edits.length) {
        rows.push({ attrs: { 'data-field': c.field, class: 'vw-unset' },
          cells: [c.field, value(c.unset === 'null' ? null : ''), 'no step set it: the new URL\'s', ''] });
        continue;
      }
      c.edits.forEach((e, k) => {
        const from = e.from_base ? el('span', { class: 'vw-from-base' }, 'base') : el('span', { class: 'vw-from-input' }, 'input');
        // The button's name is its text (what is seen is what a voice command says), and the
        // focus follows it to the Trace, on that step, as the view goes.
        const step = el('button', {
          type: 'button', class: 'vw-link', title: 'Open the Trace on this step',
          onclick: () => {
            ctx.setStep(e.step);
            ctx.setView('trace');
            document.getElementById('trace-wrap')?.focus();
          },
        }, `step ${e.step}, ${e.state}${e.number ? ` ${e.number}` : ''}`);
        rows.push({ attrs: { 'data-field': c.field, 'data-from': e.from_base ? 'base' : 'input' },
          cells: [k === 0 ? c.field : '', value(e.value), el('td', {}, from, ' ', e.how), el('td', {}, step)] });
      });
    }
    root.append(table('Each component, edit by edit', ['Component', 'Value after the edit', 'From', 'Step'], rows,
      { class: 'vw-table vw-provenance' }));
  }
  if (m.references.length) {
    root.append(table('Common references resolved against the base', ['Reference', 'Resolves to'],
      m.references.map((r) => [
        el('button', {
          type: 'button', class: 'vw-link', title: 'Inspect this reference', 'data-reference': r.reference,
          // The view is drawn again for the new input: the focus stays on this reference's button.
          onclick: () => {
            ctx.setInput(r.reference);
            const again = [...root.querySelectorAll('button[data-reference]')].find((b) => b.dataset.reference === r.reference);
            (again ?? document.getElementById('input')).focus();
          },
        }, r.reference === '' ? '(empty string)' : r.reference),
        r.href === null ? el('span', { class: 'vw-error' }, 'failure') : value(r.href),
      ]), { class: 'vw-table vw-references' }));
  }
}
