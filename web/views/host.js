// The Host view: the host in Punycode and Unicode, who owns the name, each browser's display
// policy decision, the findings (the internal destinations and lures among them), the label
// table and an IP address's notations; the engine's host analysis (crates/urlscope-web/src/host.rs).

import { el, clear, ask, baseOf, table, value } from './common.js';
// The findings with the parser differential judged on every reading the page has.
import { current } from '../readings.js';

const SEVERITY_ORDER = { danger: 0, warn: 1, info: 2 };
const POLICY_NAMES = { chromium: 'Chromium', firefox: 'Firefox', uts39: 'UTS #39' };

function findings(list) {
  const sorted = [...list].sort((a, b) => (SEVERITY_ORDER[a.severity] ?? 3) - (SEVERITY_ORDER[b.severity] ?? 3));
  if (sorted.length === 0) return el('p', { class: 'vw-quiet' }, 'No findings: nothing about this host misleads.');
  return el('ul', { class: 'vw-findings', 'aria-label': 'Findings' },
    sorted.map((f) => el('li', { class: `vw-finding vw-${f.severity}`, 'data-id': f.id },
      el('span', { class: 'vw-severity' }, f.severity),
      ' ',
      el('strong', {}, f.title),
      el('div', { class: 'vw-detail' }, f.detail),
      f.code_points && f.code_points.length
        ? el('div', { class: 'vw-detail' }, f.code_points.map((c) => `at ${c.position}: ${c.code_point}`).join('; '))
        : null)));
}

function policies(display) {
  if (!display.length) {
    return el('p', { class: 'vw-quiet' }, 'Every browser shows this host as it is (it has no internationalised label).');
  }
  return table('How each browser displays the host', ['Policy', 'Shows', 'As', 'Why'],
    display.map((d) => {
      const rules = d.labels.filter((l) => l.rule).map((l) => `${l.label}: ${l.rule}${l.step ? ` (${l.step})` : ''}`);
      if (d.host_rule) rules.push(`${d.host_rule.rule}: ${d.host_rule.detail || d.host_rule.step}`);
      return {
        attrs: { 'data-policy': d.policy },
        cells: [
          `${POLICY_NAMES[d.policy] || d.policy}${d.platform ? ` (${d.platform})` : ''}`,
          value(d.shown),
          d.unicode ? 'Unicode' : 'Punycode',
          rules.join('; ') || 'every label allowed',
        ],
      };
    }), { class: 'vw-table vw-policies' });
}

export function render(root, engine, state) {
  clear(root);
  root.append(el('h2', {}, 'Host'));
  const m = ask(root, () => engine.view_host(state.input, baseOf(state)));
  if (!m) return;
  if (m.why) root.append(el('p', { class: 'vw-quiet' }, m.why));
  const a = m.analysis;
  if (!a) return;
  const judged = current(state.input, state.base ?? '')?.findings ?? a.findings;
  const counts = ['danger', 'warn', 'info']
    .map((s) => [s, judged.filter((f) => f.severity === s).length])
    .filter(([, n]) => n > 0)
    .map(([s, n]) => `${n} ${s}`);
  if (counts.length) root.append(el('p', { class: 'vw-counts' }, counts.join(' · ')));
  root.append(el('h3', {}, 'Findings'), findings(judged));
  const forms = el('dl', { class: 'vw-forms' },
    el('dt', {}, 'Punycode (as sent)'), el('dd', { 'data-form': 'ascii' }, value(a.host)),
    el('dt', {}, 'Unicode'), el('dd', { 'data-form': 'unicode' }, value(a.unicode)),
    a.typed !== null && a.typed !== undefined ? [el('dt', {}, 'As typed'), el('dd', { 'data-form': 'typed' }, value(a.typed))] : null,
    el('dt', {}, 'Public suffix'), el('dd', {}, value(a.public_suffix)),
    el('dt', {}, 'Registrable domain (who owns it)'), el('dd', {}, value(a.registrable_domain)));
  root.append(el('h3', {}, 'The host'), forms);
  if (a.imitates && a.imitates.length) {
    root.append(el('p', { class: 'vw-danger-text' },
      `Imitates: ${a.imitates.map((i) => `${i.domain} (${i.how})`).join('; ')}`));
  }
  root.append(el('h3', {}, 'Display policies'), policies(a.display));
  if (a.labels.length) {
    root.append(el('h3', {}, 'Labels'), table(null, ['Typed', 'Unicode', 'Punycode', 'Scripts', 'Restriction'],
      a.labels.map((l) => [value(l.typed), value(l.unicode), value(l.ascii), l.scripts.join(', ') || 'no script', l.restriction]),
      { class: 'vw-table vw-labels' }));
    if (a.labels_omitted) root.append(el('p', { class: 'vw-quiet' }, `${a.labels_omitted} more labels have no row.`));
  }
  if (a.ip) {
    root.append(el('h3', {}, 'IP address'), table(a.ip.range ? `In range: ${a.ip.range}` : null, ['Notation', 'Value'],
      a.ip.notations.map(([k, v]) => [k, value(v)])));
  }
}
