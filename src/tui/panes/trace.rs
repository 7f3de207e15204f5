//! The Trace pane: one row per step (state, pointer, c, buffer, what changed), a run of steps
//! that only append collapsed to one row until it is expanded, only the visible window built,
//! host parsing sub-steps under the selected step (or under every step).

use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::widgets::{Block, Borders, Paragraph, Wrap};
use ratatui::Frame;
use unicode_width::UnicodeWidthChar;

use crate::report::Outcome;
use crate::trace::{ChangeView, HostEvent, PointerMove, StepView, Trace};
use crate::url::explain::SetterStep;
use crate::url::Phase;

use super::super::action::Action;
use super::super::derived::{error_text, show, show_c};
use super::super::list::{self, Cell, Item, Spec};
use super::super::model::{App, Hyperlink, Pane, SetterRun};
use super::super::rows::{RowIndex, RunInfo, RunPart, Shown, StepCells};
use super::super::theme::Theme;
use super::{pane_block, selection};

/// State names without the trailing " state" (the column says it).
fn short_state(name: &str) -> &str {
    name.strip_suffix(" state").unwrap_or(name)
}

/// One line per host parsing sub-step.
pub fn host_event_text(event: &HostEvent) -> String {
    match event {
        HostEvent::Ipv6Input { input } => format!("IPv6 parser on {input}"),
        HostEvent::OpaqueHost { input, output } => format!("opaque host {input} → {output}"),
        HostEvent::PercentDecoded { input, domain } => {
            format!("percent-decoded {input} → {domain}")
        }
        HostEvent::DomainToAscii { strict, output, .. } => format!(
            "{} ToASCII → {}",
            if *strict { "strict" } else { "relaxed" },
            output.as_deref().unwrap_or("error")
        ),
        HostEvent::AsciiLowercase { output } => format!("ASCII domain lowercased → {output}"),
        HostEvent::IdnaLabel { unicode, ascii } => format!("label {unicode} ⇄ {ascii}"),
        HostEvent::EndsInANumber { result, .. } => format!("ends in a number: {result}"),
        HostEvent::Ipv4Part { text, radix, value } => match value {
            Some(v) => format!("IPv4 part {text} (radix {radix}) = {v}"),
            None => format!("IPv4 part {text}: not a number"),
        },
        HostEvent::Ipv4Address { address } => {
            format!("IPv4 address {}", std::net::Ipv4Addr::from(*address))
        }
        HostEvent::Ipv6Piece { index, text, value } => {
            format!("piece {index} = {text} (0x{value:x})")
        }
        HostEvent::Ipv6Compress { piece_index } => format!(":: compress at piece {piece_index}"),
        HostEvent::Ipv4InIpv6Part { text, value } => format!("embedded IPv4 part {text} = {value}"),
        HostEvent::Ipv6Swap { swaps, compress } => {
            format!("move {swaps} pieces after {compress} to the end")
        }
        HostEvent::Ipv6Address { pieces } => {
            format!("IPv6 address {}", std::net::Ipv6Addr::from(*pieces))
        }
        HostEvent::Failure => "host parser: failure".to_owned(),
    }
}

pub fn render(frame: &mut Frame<'_>, area: Rect, app: &App, theme: &Theme) {
    let mut title = match &app.setter_run {
        Some(run) => format!(
            "Trace of the {} setter with {}",
            run.component,
            show(&format!("{:?}", run.value))
        ),
        None => "Trace".to_owned(),
    };
    if app.step_mode {
        title.push_str(" · step mode (h/l, Esc leaves)");
    }
    if app.expand_all {
        title.push_str(" · sub-steps of every step (e)");
    }
    if !app.trace_rows.collapse {
        title.push_str(" · every step (O collapses)");
    }
    let block = pane_block(app, Pane::Trace, title, area, theme);
    let Some(trace) = app.trace() else {
        let length = app.report.input.len();
        let why = match &app.report.outcome {
            Outcome::BaseFailure { cause } => format!(
                "No trace: the base URL fails to parse ({}), so the input was never parsed. Fix the Base line (2) or clear it.",
                cause.as_ref().map_or("failure".to_owned(), error_text)
            ),
            _ if length > crate::MAX_TRACED_INPUT => format!(
                "Not traced: the input is {length} bytes, over the {} the trace is recorded for. \
                 The other panes are complete.",
                crate::MAX_TRACED_INPUT
            ),
            _ => "No trace.".to_owned(),
        };
        frame.render_widget(
            Paragraph::new(show(&why))
                .style(theme.dim())
                .wrap(Wrap { trim: true })
                .block(block),
            area,
        );
        return;
    };
    if let Some((run, step)) = app
        .setter_run
        .as_ref()
        .filter(|_| trace.is_empty())
        .and_then(|run| Some((run, run.decided?)))
    {
        render_setter_step(frame, area, app, block, run, step);
        return;
    }
    let state = &app.lists[Pane::Trace.index()];
    let selected = state.selected.min(trace.len().saturating_sub(1));
    let index = app.row_index().unwrap_or_default();
    let rows = &app.trace_rows;
    // The explanation strip under the list, for the selected row: whenever the pane has room
    // for it and still shows MIN_STEP_ROWS steps, and always in step mode, where it follows
    // the step.
    let run = index
        .run_of(selected)
        .filter(|r| rows.collapse && !rows.expanded.contains(&r.steps.start));
    // A collapsed run's line stands for its last step, whichever of its steps is selected.
    let explained = run.map_or(selected, |r| r.steps.end - 1);
    let lesson = lesson_step(app, trace, explained);
    let (sentences, link) = strip_text(trace, explained, run, lesson);
    // A tall pane gives the strip what it needs (the host parser's steps can be many), up to
    // half its height.
    let wanted = || {
        let width = usize::from(area.width.saturating_sub(2));
        let lines: usize = sentences
            .iter()
            .map(|s| wrap_with_ellipsis(std::slice::from_ref(s), width, usize::MAX).len())
            .sum();
        u16::try_from(lines + 1).unwrap_or(u16::MAX)
    };
    let strip_height = match area.height {
        30.. => wanted().clamp(6, area.height / 2),
        // The lesson's step, explained besides the deciding one: what the lesson is about.
        12.. if lesson.is_some() => wanted().clamp(4, area.height / 2),
        20.. => 4,
        12.. if app.step_mode => 4,
        // The compact strip, two lines (the step, the standard's step): in step mode under a
        // lesson's lines at 80x24, and outside step mode in a pane of 8 to 19 rows (about 14
        // at 80x24 and 120x40). With every step's host sub-steps on (e), those rows are
        // theirs: the notes under each row explain the host parser's steps.
        8.. if app.step_mode || !app.expand_all => 3,
        _ => 0,
    };
    // Zoomed, the strip takes what the step's explanation needs, as long as the list keeps
    // MIN_STEP_ROWS steps: zoom is for reading one step on a projector. In a pane under 30
    // rows (80x24), up to half of it: the rest of a longer explanation scrolls (J/K) rather
    // than push the steps off the screen.
    let strip_height = if app.zoom {
        let most = area
            .height
            .saturating_sub(LIST_CHROME + MIN_STEP_ROWS)
            .saturating_add(1);
        let most = if area.height < 30 {
            most.min(area.height / 2)
        } else {
            most
        };
        strip_height.max(wanted().min(most))
    } else {
        strip_height
    };
    let step_rows = area.height.saturating_sub(strip_height + LIST_CHROME);
    let strip_height = if app.step_mode || step_rows >= MIN_STEP_ROWS {
        strip_height
    } else {
        0
    };
    // Rows the list leaves empty (a short trace, such as a setter's) go to the strip.
    let strip_height = match spare_rows(app, trace, &index, selected, area.height) {
        spare @ 3.. => strip_height.max(spare.min(wanted())),
        _ => strip_height,
    };
    let (area, strip) = if strip_height > 0 && !trace.is_empty() {
        let list = Rect {
            height: area.height - strip_height,
            ..area
        };
        let strip = Rect {
            y: area.y + list.height,
            height: strip_height,
            ..area
        };
        (list, Some(strip))
    } else {
        (area, None)
    };
    if let Some(strip) = strip {
        render_strip(frame, strip, app, explained, &sentences, link, theme);
    }
    let mut fetch = |range: std::ops::Range<usize>| {
        let shown: Vec<Shown<'_>> = range.map(|line| rows.shown(line, &index)).collect();
        // A collapsed run shows the buffer after its last step.
        let mut needed: Vec<usize> = shown.iter().map(Shown::step).collect();
        needed.sort_unstable();
        needed.dedup();
        let cells = rows.cells(trace, &needed, step_cells);
        let cells_of = |step: usize| {
            needed
                .binary_search(&step)
                .ok()
                .map(|i| std::rc::Rc::clone(&cells[i]))
                .unwrap_or_default()
        };
        shown
            .iter()
            .map(|line| match line {
                Shown::Run(run) => run_item(trace, run, &cells_of(line.step())),
                Shown::Step { index, run } => {
                    let cells = cells_of(*index);
                    let phase = trace.step(*index).phase;
                    let row_style = if cells.errors.is_empty() {
                        Default::default()
                    } else {
                        theme.error()
                    };
                    // The errors first: they matter most, and a cut takes the end.
                    let changes: Vec<&str> = cells
                        .errors
                        .iter()
                        .chain(&cells.changes)
                        .map(String::as_str)
                        .collect();
                    // The steps of an expanded run: ▾ on the first, the others indented
                    // under it.
                    let number = match run {
                        None => index.to_string(),
                        Some(RunPart::First) => format!("▾{index}"),
                        Some(RunPart::Inner | RunPart::Last) => format!(" {index}"),
                    };
                    let mut item = Item::new(vec![
                        Cell::new(number),
                        Cell::new(short_state(phase.name())),
                        Cell::new(cells.pointer.clone()),
                        Cell::new(cells.c.clone()),
                        Cell::new(cells.buffer.clone()).keep_end(),
                        Cell::styled(show(&changes.join("  ")), row_style),
                    ]);
                    if *index == selected || app.expand_all {
                        for event in &cells.host_events {
                            item = item.note(event.clone(), theme.dim());
                        }
                    }
                    item
                }
            })
            .collect()
    };
    list::render_at(
        frame,
        area,
        block,
        &Spec {
            header: Some(&["#", "state", "ptr", "c", "buffer", "changes"]),
            max_share: &[8, 38, 7, 6, 20],
        },
        rows.total(trace, &index),
        state,
        rows.line_of(selected, &index),
        &mut fetch,
        selection(app, Pane::Trace, theme),
        theme,
    );
}

/// The rows the pane would use on a screen `width` columns wide with no limit: the list's
/// lines, borders and header, the host parser's steps noted under the selected step, and the
/// strip explaining the selected row. The screen gives the other panes what this leaves.
pub fn wanted_height(app: &App, width: u16) -> u16 {
    let Some(trace) = app.trace().filter(|t| !t.is_empty()) else {
        // A message, or a setter's single step: a few wrapped lines.
        return 8;
    };
    let index = app.row_index().unwrap_or_default();
    let rows = &app.trace_rows;
    let selected = app.lists[Pane::Trace.index()]
        .selected
        .min(trace.len().saturating_sub(1));
    let run = index
        .run_of(selected)
        .filter(|r| rows.collapse && !rows.expanded.contains(&r.steps.start));
    let explained = run.map_or(selected, |r| r.steps.end - 1);
    let (sentences, _) = strip_text(trace, explained, run, lesson_step(app, trace, explained));
    let inner = usize::from(width.saturating_sub(2));
    let strip: usize = sentences
        .iter()
        .map(|s| wrap_with_ellipsis(std::slice::from_ref(s), inner, usize::MAX).len())
        .sum::<usize>()
        + 1;
    // No screen is this tall; a longer list (every step of a long input) is not walked.
    const TALLEST: u16 = 500;
    let list = usize::from(TALLEST - spare_rows(app, trace, &index, selected, TALLEST));
    u16::try_from(list + strip).unwrap_or(u16::MAX)
}

/// A setter that did not run the basic URL parser has no steps: the pane says which of the
/// setter's own steps decided, what it does, and what became of the URL.
fn render_setter_step(
    frame: &mut Frame<'_>,
    area: Rect,
    app: &App,
    block: Block<'_>,
    run: &SetterRun,
    step: SetterStep,
) {
    let name = step.setter.name();
    let url = step.setter.url();
    let sentences = [
        format!("The {name} did not run the basic URL parser: it has no steps to show."),
        format!("§ {name} {}: {} <{url}>", step.number, step.explanation),
        if run.before == run.after {
            format!("The URL did not change: {}", show(&run.after))
        } else {
            format!("The URL is now {}", show(&run.after))
        },
    ];
    let inner = block.inner(area);
    let lines = fit(
        &sentences,
        usize::from(inner.width),
        usize::from(inner.height),
    );
    let label = format!("§ {name} {}", step.number);
    app.links
        .borrow_mut()
        .extend(links_in(&lines, &label, &url, inner.x, inner.y));
    frame.render_widget(Paragraph::new(lines.join("\n")).block(block), area);
}

/// The rows the list takes besides its lines when the strip is under it: its top border, its
/// header, and its bottom border (the strip's top).
const LIST_CHROME: u16 = 3;

/// The fewest step rows the list keeps outside step mode for the strip to show.
const MIN_STEP_ROWS: u16 = 4;

/// The rows of a pane `height` rows tall that its list leaves empty: its borders, header,
/// lines and the host parser's sub-steps noted under a step take the others.
fn spare_rows(app: &App, trace: &Trace, index: &RowIndex, selected: usize, height: u16) -> u16 {
    let rows = &app.trace_rows;
    let lines = rows.total(trace, index);
    // Borders and the header.
    let mut used = lines + 3;
    if used >= usize::from(height) {
        return 0;
    }
    let shown: Vec<Shown<'_>> = (0..lines).map(|line| rows.shown(line, index)).collect();
    let noted: Vec<usize> = shown
        .iter()
        .filter_map(|line| match line {
            Shown::Step { index, .. } if app.expand_all || *index == selected => Some(*index),
            _ => None,
        })
        .collect();
    used += rows
        .cells(trace, &noted, step_cells)
        .iter()
        .map(|cells| cells.host_events.len())
        .sum::<usize>();
    u16::try_from(usize::from(height).saturating_sub(used)).unwrap_or(0)
}

/// The most code points of a buffer a row keeps: its end, which the column shows.
const BUFFER_END: usize = 256;

/// What a row shows of one step (built once per step, see [`StepCells`]).
fn step_cells(view: StepView<'_>, buffer: &str) -> StepCells {
    let in_state = matches!(view.phase, Phase::State(_));
    let c = if in_state {
        show_c(view.c)
    } else {
        String::new()
    };
    // A buffer may be megabytes long: its end is what the column keeps.
    let end = match buffer.char_indices().rev().nth(BUFFER_END) {
        Some((at, c)) => format!("{}{}", list::CUT, show(&buffer[at + c.len_utf8()..])),
        None => show(buffer),
    };
    let mut changes: Vec<String> = view.changes.iter().map(ToString::to_string).collect();
    changes.extend(view.pointer_moves.iter().map(ToString::to_string));
    StepCells {
        pointer: if in_state {
            view.pointer.to_string()
        } else {
            String::new()
        },
        c,
        buffer: end,
        errors: view
            .errors
            .iter()
            .map(|e| format!("⚠ {}", e.kind))
            .collect(),
        changes,
        host_events: view
            .host_events
            .iter()
            .map(|e| format!("   └ {}", show(&host_event_text(e))))
            .collect(),
    }
}

/// The line of a collapsed run: ▸ and its first step, the state and how many steps, the
/// pointer it starts at, the buffer after it (`last`: its last step's cells), and what it
/// appended to what.
fn run_item(trace: &Trace, run: &RunInfo, last: &StepCells) -> Item {
    let pointer = trace.step(run.steps.start).pointer;
    let text = format!(
        "{} ← {}{}",
        run.target,
        show(&run.text),
        if run.whole { "" } else { "…" }
    );
    Item::new(vec![
        Cell::new(format!("▸{}", run.steps.start)),
        Cell::new(format!(
            "{} ×{}",
            short_state(run.state.name()),
            run.steps.len()
        )),
        Cell::new(pointer.to_string()),
        Cell::new(""),
        Cell::new(last.buffer.clone()).keep_end(),
        Cell::new(text),
    ])
}

/// A record edit in words.
fn change_in_words(change: &ChangeView<'_>) -> String {
    match change {
        ChangeView::Set {
            field,
            value: Some(v),
        } => format!("{field} is set to “{}”", show(v)),
        ChangeView::Set { field, value: None } => format!("{field} becomes null"),
        ChangeView::Append { field, value } => format!("“{}” is appended to {field}", show(value)),
        ChangeView::PathPush { value } => {
            format!("the segment “{}” is appended to the path", show(value))
        }
        ChangeView::PathShorten => "the path loses its last segment".to_owned(),
    }
}

fn pointer_in_words(mv: &PointerMove) -> String {
    match mv {
        PointerMove::Decrease(n) => format!("the pointer moves back {n}"),
        PointerMove::Increase(n) => format!("the pointer skips {n} more"),
        PointerMove::StartOver => "the pointer starts over from the first code point".to_owned(),
    }
}

/// The sentences of the explanation strip for one step: where the parser is and what comes
/// next; the step of the standard that decided it and what that step does; what changed.
/// `input` is the traced input (host sub-steps quote it).
pub fn explain_step(
    view: &StepView<'_>,
    input: &str,
    buffer: &str,
    last: bool,
    failed: bool,
) -> Vec<String> {
    let next = match view.next {
        Some(next) if next == view.phase => "next: the same state".to_owned(),
        Some(Phase::State(next)) => format!("next: the {}", next.name()),
        // Steps 1 to 3 of the basic URL parser come before its state machine: not states.
        Some(step) => format!("next: the basic URL parser's step “{}”", step.name()),
        None if !last => "next: the basic URL parser's next step".to_owned(),
        None if failed => "the parser returns failure".to_owned(),
        None => "the parser is done".to_owned(),
    };
    let mut sentences = Vec::new();
    sentences.push(match view.phase {
        Phase::State(state) => {
            let c = match view.c {
                Some(_) => format!("“{}”", show_c(view.c)),
                None => "EOF".to_owned(),
            };
            format!(
                "Step {} in the {}, pointer {}, c {c}; {next}.",
                view.index,
                state.name(),
                view.pointer
            )
        }
        phase => format!(
            "Step {}, before the state machine: {}; {next}.",
            view.index,
            phase.name()
        ),
    });
    if let Some(spec) = view.spec() {
        sentences.push(spec.citation());
    }
    let mut changed: Vec<String> = view
        .errors
        .iter()
        .map(|e| format!("validation error {} ({})", e.kind, e.kind.description()))
        .collect();
    changed.extend(view.changes.iter().map(change_in_words));
    changed.extend(view.pointer_moves.iter().map(pointer_in_words));
    if !buffer.is_empty() {
        changed.push(format!("the buffer is now “{}”", show(buffer)));
    }
    sentences.push(if changed.is_empty() {
        "Nothing changed.".to_owned()
    } else {
        format!("Changed: {}.", changed.join("; "))
    });
    // The host parser's own steps, last: there can be many (a label each), and what does not
    // fit ends in "…".
    sentences.extend(view.host_steps(input).into_iter().flatten().map(|step| {
        format!(
            "· {} {}: {}",
            step.name(),
            step.number,
            show(&step.explanation)
        )
    }));
    sentences
}

/// How the strip's sentence on the step the open lesson watches starts.
const LESSON_STEP: &str = "The lesson's step: ";

/// Fits `sentences` in `height` lines of `width` columns: the first (what the step did) gets
/// a line, the lesson's step, when one is there, every line it needs (it is what the lesson
/// is about); then each other sentence gets a line, and the lines left go to the sentences in
/// order. A sentence cut short ends with `…`; when sentences are left out, the last line
/// shown ends with `…`.
pub fn fit(sentences: &[String], width: usize, height: usize) -> Vec<String> {
    let wrapped: Vec<usize> = sentences
        .iter()
        .map(|s| wrap_with_ellipsis(std::slice::from_ref(s), width, usize::MAX).len())
        .collect();
    let mut share = vec![0; sentences.len()];
    let mut left = height;
    let mut give = |i: usize, n: usize, share: &mut [usize]| {
        let more = n.saturating_sub(share[i]).min(left);
        share[i] += more;
        left -= more;
    };
    if !sentences.is_empty() {
        give(0, 1, &mut share);
    }
    if let Some(i) = sentences.iter().position(|s| s.starts_with(LESSON_STEP)) {
        give(i, wrapped[i], &mut share);
    }
    for i in 0..sentences.len() {
        give(i, 1, &mut share);
    }
    for (i, &n) in wrapped.iter().enumerate() {
        give(i, n, &mut share);
    }
    let mut lines: Vec<String> = Vec::new();
    let mut left_out = false;
    for (s, &n) in sentences.iter().zip(&share) {
        if n == 0 {
            left_out = true;
            continue;
        }
        lines.extend(wrap_with_ellipsis(std::slice::from_ref(s), width, n));
    }
    // More sentences than lines: the last line shown says that more follows.
    if left_out {
        if let Some(last) = lines.last_mut().filter(|l| !l.ends_with('…')) {
            mark_cut(last, width);
        }
    }
    lines
}

/// `sentences` wrapped to `width` columns in at most `height` lines; text that does not fit
/// ends the last line with `…`.
pub fn wrap_with_ellipsis(sentences: &[String], width: usize, height: usize) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    for sentence in sentences {
        let mut line = String::new();
        let mut used = 0;
        for word in sentence.split(' ') {
            let w: usize = word.chars().map(|c| c.width().unwrap_or(0)).sum();
            if used > 0 && used + 1 + w > width {
                lines.push(std::mem::take(&mut line));
                used = 0;
            }
            if used > 0 {
                line.push(' ');
                used += 1;
            }
            // A word longer than the line is split.
            for c in word.chars() {
                let cw = c.width().unwrap_or(0);
                if used + cw > width {
                    lines.push(std::mem::take(&mut line));
                    used = 0;
                }
                line.push(c);
                used += cw;
            }
        }
        lines.push(line);
    }
    cut_to(&mut lines, width, height);
    lines
}

/// Keeps the first `height` of `lines`; when some are dropped, the last one kept ends with `…`
/// (within `width` columns), unless it already does.
fn cut_to(lines: &mut Vec<String>, width: usize, height: usize) {
    if lines.len() <= height || height == 0 {
        return;
    }
    lines.truncate(height);
    if let Some(last) = lines.last_mut().filter(|l| !l.ends_with('…')) {
        mark_cut(last, width);
    }
}

/// Ends `line` with `…`, within `width` columns.
fn mark_cut(line: &mut String, width: usize) {
    let mut used: usize = line.chars().map(|c| c.width().unwrap_or(0)).sum();
    while used + 1 > width {
        match line.pop() {
            Some(c) => used -= c.width().unwrap_or(0),
            None => break,
        }
    }
    line.push('…');
}

/// The strip's sentences for step `index` (or the collapsed `run` it ends), and the link of
/// the standard's section it cites: its label as drawn, and its address.
/// The step of the standard the open lesson watches, when `step` of the trace on screen is the
/// one it names: the strip explains it too, besides the step that decided (a step of the trace
/// cites several, and the lesson's may be an earlier one: path state 1.4.1 before 1.4.2).
fn lesson_step(app: &App, trace: &Trace, step: usize) -> Option<&'static str> {
    let g = app.gallery.as_ref()?;
    if g.edited(app.input.text(), app.base.text()) {
        return None;
    }
    let watch = app.example()?.watch.as_ref()?;
    (watch.find(trace) == Some(step)).then_some(watch.step.as_str())
}

fn strip_text(
    trace: &Trace,
    index: usize,
    run: Option<&RunInfo>,
    lesson: Option<&str>,
) -> (Vec<String>, Option<(String, String)>) {
    let mut sentences = Vec::new();
    let mut link = None;
    let last = index + 1 == trace.len();
    trace.for_each_in(index..index + 1, |view, buffer| {
        sentences = explain_step(&view, trace.input(), buffer, last, trace.failed());
        let deciding = view.spec().map(|s| s.number);
        if let Some(watched) = view
            .explained()
            .find(|s| Some(s.number) == lesson && Some(s.number) != deciding)
        {
            // Without the link: the step that decided, in the same state, has it.
            sentences.insert(
                1,
                format!(
                    "{LESSON_STEP}§ {} {}: {}",
                    watched.section_name(),
                    watched.number,
                    watched.explanation.unwrap_or(watched.words)
                ),
            );
        }
        // The section's name links to it too: the address is often cut.
        link = view.spec().map(|spec| {
            (
                format!("§ {} {}", spec.section_name(), spec.number),
                spec.url().to_string(),
            )
        });
        if let Some(first) = sentences.first_mut() {
            first.insert_str(0, "Why? ");
        }
    });
    if let Some(run) = run {
        // A collapsed run: what its steps did together, then its last step.
        sentences.insert(
            0,
            format!(
                "Why? Steps {}–{} stay in the {} and each appends to the {}: “{}{}” (o shows them).",
                run.steps.start,
                run.steps.end - 1,
                run.state.name(),
                run.target,
                show(&run.text),
                if run.whole { "" } else { "…" }
            ),
        );
        if let Some(first) = sentences.get_mut(1) {
            *first = first.replacen("Why? Step", "Its last, step", 1);
        }
    }
    (sentences, link)
}

fn render_strip(
    frame: &mut Frame<'_>,
    area: Rect,
    app: &App,
    explained: usize,
    sentences: &[String],
    link: Option<(String, String)>,
    theme: &Theme,
) {
    // The list's bottom border is the strip's top: it costs one row besides its text.
    let block = Block::default()
        .borders(Borders::LEFT | Borders::RIGHT | Borders::BOTTOM)
        .border_style(theme.dim());
    let inner = block.inner(area);
    app.strip_area.set(Some(area));
    let (width, height) = (usize::from(inner.width), usize::from(inner.height));
    let (lines, position) = strip_window(app, explained, sentences, width, height);
    let block = match position {
        Some(position) => block.title_bottom(Line::styled(position, theme.dim()).right_aligned()),
        None => block,
    };
    if let Some((label, url)) = link {
        app.links
            .borrow_mut()
            .extend(links_in(&lines, &label, &url, inner.x, inner.y));
    }
    frame.render_widget(Paragraph::new(lines.join("\n")).block(block), area);
}

/// The lines of the strip explaining step `explained`, `height` lines of `width` columns, and
/// when its text is longer, what its border says of the rest. At rest the strip shows each
/// sentence's start ([`fit`]: the lesson's step whole), and its border says there is more
/// (`↓ J/K more`). Scrolled (J/K), it is a window on the sentences wrapped whole, the border
/// saying where (`↕ J/K 3–6/9`), and the last line ends with `…` when its sentence goes on
/// below. Another step, or another trace, is shown at rest.
pub fn strip_window(
    app: &App,
    explained: usize,
    sentences: &[String],
    width: usize,
    height: usize,
) -> (Vec<String>, Option<String>) {
    // Each sentence wrapped whole, with whether a line ends its sentence.
    let mut lines: Vec<(String, bool)> = Vec::new();
    for sentence in sentences {
        let wrapped = wrap_with_ellipsis(std::slice::from_ref(sentence), width, usize::MAX);
        let last = wrapped.len().saturating_sub(1);
        lines.extend(wrapped.into_iter().enumerate().map(|(i, l)| (l, i == last)));
    }
    if lines.len() <= height || height == 0 {
        app.strip_scroll.set(0);
        return (fit(sentences, width, height), None);
    }
    if app.strip_of.get() != (app.trace_key, explained) {
        app.strip_of.set((app.trace_key, explained));
        app.strip_scroll.set(0);
    }
    let keys = super::super::keys::shown_for(&Action::StripDown).unwrap_or_default();
    let keys = keys.split(' ').next().unwrap_or_default();
    let total = lines.len();
    // 0 is the strip at rest; 1 and on, the window from the first line on.
    let scroll = app.strip_scroll.get().min(total - height + 1);
    app.strip_scroll.set(scroll);
    if scroll == 0 {
        return (
            fit(sentences, width, height),
            Some(format!(" ↓ {keys} more ")),
        );
    }
    let offset = scroll - 1;
    lines.drain(..offset);
    lines.truncate(height);
    // A sentence that goes on below the strip says so where it is cut.
    if let Some((last, false)) = lines.last_mut() {
        if !last.ends_with('…') {
            mark_cut(last, width);
        }
    }
    let lines = lines.into_iter().map(|(l, _)| l).collect();
    let position = format!(" ↕ {keys} {}–{}/{total} ", offset + 1, offset + height);
    (lines, Some(position))
}

/// The links to `url` in `lines` drawn from `x`, `y`: the section's `label` at the start of
/// a line, and the address itself, whole or its start before a cut's `…`.
pub fn links_in(lines: &[String], label: &str, url: &str, x: u16, y: u16) -> Vec<Hyperlink> {
    let mut out = Vec::new();
    for (row, line) in lines.iter().enumerate() {
        if line.starts_with(label) {
            out.push(Hyperlink {
                x,
                y: y + row as u16,
                text: label.to_owned(),
                url: url.to_owned(),
            });
        }
        let found = match line.find(url) {
            Some(at) => Some((at, url.len())),
            None => line.strip_suffix(list::CUT).and_then(|kept| {
                // The longest end of the line that starts the address (at least "https://").
                (0..kept.len())
                    .filter(|&at| kept.is_char_boundary(at))
                    .find(|&at| kept.len() - at >= 8 && url.starts_with(&kept[at..]))
                    .map(|at| (at, kept.len() - at))
            }),
        };
        if let Some((at, len)) = found {
            out.push(Hyperlink {
                x: x + list::width(&line[..at]) as u16,
                y: y + row as u16,
                text: line[at..at + len].to_owned(),
                url: url.to_owned(),
            });
        }
    }
    out
}

/// The selected step in full: the state, the pointer, c, the buffer, what changed, the errors
/// it raised and each step of the standard it took, explained.
pub fn detail(app: &App, at: usize) -> super::Detail {
    match app.trace().filter(|t| !t.is_empty()) {
        Some(trace) => {
            let step = at.min(trace.len() - 1);
            let view = trace.view(step);
            let (buffer, _) = trace.state_after(step);
            let mut fields = Vec::new();
            // A collapsed run's line stands for its last step: say what it holds.
            if let Some(run) = app.row_index().and_then(|index| {
                index.run_of(step).cloned().filter(|r| {
                    app.trace_rows.collapse && !app.trace_rows.expanded.contains(&r.steps.start)
                })
            }) {
                fields.push((
                    "run".to_owned(),
                    format!(
                        "steps {}–{} in the {}, each appending to the {}: “{}{}”",
                        run.steps.start,
                        run.steps.end - 1,
                        run.state.name(),
                        run.target,
                        show(&run.text),
                        if run.whole { "" } else { "…" }
                    ),
                ));
            }
            fields.extend([
                ("step".to_owned(), step.to_string()),
                ("state".to_owned(), view.phase.name().to_owned()),
                ("pointer".to_owned(), view.pointer.to_string()),
                ("c".to_owned(), show_c(view.c)),
                ("buffer".to_owned(), show(&buffer)),
            ]);
            for change in &view.changes {
                fields.push(("change".to_owned(), show(&change.to_string())));
            }
            for m in &view.pointer_moves {
                fields.push(("pointer".to_owned(), m.to_string()));
            }
            for e in &view.errors {
                fields.push(("error".to_owned(), show(&error_text(e))));
            }
            // Each step of the standard the parser took, explained, with its link.
            for spec in view.explained() {
                fields.push(("spec".to_owned(), spec.citation()));
            }
            let explained = view.host_steps(trace.input());
            for (i, e) in view.host_events.iter().enumerate() {
                fields.push(("host".to_owned(), show(&host_event_text(e))));
                if let Some(step) = explained.get(i).and_then(Option::as_ref) {
                    fields.push((
                        String::new(),
                        format!(
                            "§ {} {}: {} <{}>",
                            step.name(),
                            step.number,
                            show(&step.explanation),
                            step.link
                        ),
                    ));
                }
            }
            let copy = Some(format!("{} {}", step, view.phase.name()));
            (fields, copy)
        }
        None => Default::default(),
    }
}

#[cfg(test)]
mod tests {
    use super::{explain_step, lesson_step, strip_text};
    use crate::gallery::gallery;
    use crate::report::Report;
    use crate::tui::action::Action;
    use crate::tui::model::App;
    use crate::tui::pane::Pane;
    use crate::url::explain::Section;

    /// Every lesson that names a step of the standard, opened in the inspector and with ctrl-t
    /// (the lesson's step), selects a trace step in the lesson's state whose explanation strip
    /// cites that step of the standard, in the setter's trace for a setter lesson: the step
    /// shown is the step the lesson names.
    #[test]
    fn every_lesson_highlights_the_step_it_names() {
        for (i, e) in gallery().iter().enumerate() {
            let Some(watch) = &e.watch else { continue };
            let mut app = App::new("", "");
            app.open_example(i);
            app.apply(Action::LessonStep);
            let trace = app.trace().expect("a trace");
            let selected = app.lists[Pane::Trace.index()].selected;
            let index = app.row_index().unwrap_or_default();
            let run = index.run_of(selected).filter(|r| {
                app.trace_rows.collapse && !app.trace_rows.expanded.contains(&r.steps.start)
            });
            let explained = run.map_or(selected, |r| r.steps.end - 1);
            let view = trace.view(explained);
            assert_eq!(view.phase.name(), watch.state, "lesson {}", i + 1);
            let (sentences, _) =
                strip_text(trace, explained, run, lesson_step(&app, trace, explained));
            let cited = format!("§ {} {}: ", Section::of(view.phase).name(), watch.step);
            assert!(
                sentences.iter().any(|s| s.contains(&cited)),
                "lesson {}: step {explained} does not cite {cited:?}: {sentences:#?}",
                i + 1
            );
        }
    }

    /// The strip's first sentence names what comes after the step: after step 0 (strip C0
    /// control or space) the basic URL parser's step that removes tabs and newlines, which is
    /// not a state; after step 1 the scheme start state; after the last, the parser's return.
    #[test]
    fn the_strip_names_the_preprocessing_step_that_comes_next() {
        let report = Report::new("http://a/", None);
        let trace = report.trace.as_ref().expect("a trace");
        let first = |i: usize| {
            let last = i + 1 == trace.len();
            explain_step(&trace.view(i), trace.input(), "", last, trace.failed())[0].clone()
        };
        assert_eq!(
            first(0),
            "Step 0, before the state machine: remove leading and trailing C0 control or \
             space; next: the basic URL parser's step “remove ASCII tab or newline”."
        );
        assert!(
            first(1).ends_with("next: the scheme start state."),
            "{}",
            first(1)
        );
        let end = first(trace.len() - 1);
        assert!(end.ends_with("the parser is done."), "{end}");
    }
}
