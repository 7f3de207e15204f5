// The Lessons view: the gallery's lessons (the library's src/gallery.rs, which the inspector
// steps through with ctrl-n), each a button: choosing one sets the input, base, pattern, step and
// view it is about. A setter lesson stays here and shows the setter's run step by step (its
// trace is the setter's, not the input's); a lesson with another query encoding says so. The
// lesson's text stays on screen above the views (the page's lesson box) while it is on.

import { el, clear, ask, value } from './common.js';

// The lesson chosen last, marked in the list.
let chosen = null;

/// Opens a lesson: its whole screen, so that a pattern (and its ignoreCase) of the lesson before
/// is not left in the link and the command of one without. The page shows its text, and puts
/// the focus on the view it opens (the Trace on its step) or on its text.
function open(engine, lesson, ctx) {
  chosen = lesson.index;
  ctx.setIgnoreCase(Boolean(lesson.ignore_case));
  ctx.setInput(lesson.input);
  ctx.setBase(lesson.base);
  ctx.setPattern(lesson.pattern ?? '');
  const stepped = lesson.step !== null && lesson.step !== undefined;
  if (stepped) ctx.setStep(lesson.step);
  const text = detail(engine, lesson.index);
  ctx.setView(lesson.view);
  if (text) ctx.openLesson(text, { toTrace: stepped && lesson.view === 'trace' });
}

function setterRun(run) {
  const section = el('section', { class: 'vw-setter', 'aria-label': 'The setter\'s run' });
  section.append(el('h3', {}, `The ${run.component} setter with ${JSON.stringify(run.value)}`),
    el('dl', { class: 'vw-forms' },
      el('dt', {}, 'Before'), el('dd', {}, value(run.before)),
      el('dt', {}, 'After'), el('dd', { 'data-field': 'after' }, value(run.after)),
      run.failed ? [el('dt', {}, 'Returned'), el('dd', {}, 'failure')] : null));
  const steps = el('ol', { class: 'vw-setter-steps', start: '0', 'aria-label': 'The setter\'s steps' });
  for (const s of run.steps) {
    const watched = s.index === run.watched;
    steps.append(el('li', { class: watched ? 'vw-watched' : null, 'aria-current': watched ? 'step' : null, 'data-step': s.index },
      el('strong', {}, s.state),
      s.effects.length
        ? el('ul', {}, s.effects.map((e) => (e.effect === null || e.effect === undefined
          // A step the setter took that changed nothing: its citation alone.
          ? el('li', {}, e.cites ?? '', ' (changes nothing)')
          : el('li', {}, e.cites ? `${e.cites}: ` : '', el('code', {}, e.effect)))))
        : null,
      watched ? el('span', { class: 'vw-note' }, ' ← the step this lesson is about') : null));
  }
  section.append(steps);
  return section;
}

function detail(engine, index) {
  const lesson = JSON.parse(engine.lesson(index));
  if (!lesson) return null;
  const box = el('div', { class: 'vw-lesson', 'data-lesson': index });
  box.append(el('h3', {}, `Lesson ${index + 1}`), el('p', { class: 'vw-lesson-text' }, lesson.lesson));
  if (lesson.watch) {
    box.append(el('p', { class: 'vw-note' },
      `Watch the ${lesson.watch.state}, step ${lesson.watch.step} of the standard` +
      (lesson.step !== null ? ` (step ${lesson.step} of the trace).` : '.')));
  }
  if (lesson.encoding) {
    box.append(el('p', { class: 'vw-note' },
      `This lesson parses with ${lesson.encoding} as the query encoding; the page parses with UTF-8. With ${lesson.encoding} the href is `,
      value(lesson.href), '.'));
  }
  if (lesson.setter) box.append(setterRun(lesson.setter));
  return box;
}

export function render(root, engine, state, ctx) {
  clear(root);
  root.append(el('h2', {}, 'Lessons'));
  const lessons = ask(root, () => engine.lessons());
  if (!lessons) return;
  root.append(el('p', { class: 'vw-quiet' }, `${lessons.length} lessons: choose one to open the input and the step it is about.`));
  const list = el('ol', { class: 'vw-lessons', 'aria-label': 'Lessons' });
  for (const lesson of lessons) {
    const current = lesson.index === chosen;
    const button = el('button', {
      type: 'button', class: 'vw-lesson-button', 'aria-current': current ? 'true' : null,
      'data-lesson': lesson.index,
      onclick: () => open(engine, lesson, ctx),
    }, el('span', { class: 'vw-lesson-input' }, lesson.input), el('span', { class: 'vw-lesson-summary' }, lesson.lesson));
    // Up and down move between the lessons.
    button.addEventListener('keydown', (event) => {
      const items = [...list.querySelectorAll('button')];
      const at = items.indexOf(button);
      const to = event.key === 'ArrowDown' ? at + 1 : event.key === 'ArrowUp' ? at - 1 : -1;
      if (to >= 0 && to < items.length && event.key !== 'Tab') {
        event.preventDefault();
        items[to].focus();
      }
    });
    list.append(el('li', {}, button));
  }
  root.append(list);
}
