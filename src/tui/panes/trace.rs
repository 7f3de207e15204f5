//! The Trace pane: one row per step (state, pointer, c, buffer, what changed), only the visible
//! window built, host parsing sub-steps under the selected step (or under every step).

use ratatui::layout::Rect;
use ratatui::widgets::{Block, Borders, Paragraph, Wrap};
use ratatui::Frame;
use unicode_width::UnicodeWidthChar;

use crate::report::Outcome;
use crate::trace::{ChangeView, HostEvent, PointerMove, StepView, Trace};
use crate::url::Phase;

use super::super::app::{App, Pane};
use super::super::derived::{error_text, show};
use super::super::list::{self, Cell, Item, Spec};
use super::super::theme::Theme;
use super::super::ui::{pane_block, selection};

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
    let state = &app.lists[Pane::Trace.index()];
    let selected = state.selected.min(trace.len().saturating_sub(1));
    // The explanation strip under the list: in step mode, where it follows the step, and in a
    // pane tall enough to give it rows without hiding the steps.
    let strip_height = match area.height {
        30.. => 6,
        20.. => 4,
        12.. if app.step_mode => 4,
        _ => 0,
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
        render_strip(frame, strip, trace, selected, theme);
    }
    let mut fetch = |range: std::ops::Range<usize>| {
        let mut items = Vec::with_capacity(range.len());
        trace.for_each_in(range, |view, buffer| {
            let c = match (view.phase, view.c) {
                (Phase::State(_), Some(c)) => show(&c.to_string()),
                (Phase::State(_), None) => "EOF".to_owned(),
                _ => String::new(),
            };
            let mut what: Vec<String> = view.changes.iter().map(ToString::to_string).collect();
            what.extend(view.pointer_moves.iter().map(ToString::to_string));
            let pointer = if matches!(view.phase, Phase::State(_)) {
                view.pointer.to_string()
            } else {
                String::new()
            };
            let row_style = if view.errors.is_empty() {
                Default::default()
            } else {
                theme.error()
            };
            // The errors first: they matter most, and a cut takes the end.
            let mut changes: Vec<String> = view
                .errors
                .iter()
                .map(|e| format!("⚠ {}", e.kind))
                .collect();
            changes.extend(what);
            let mut item = Item::new(vec![
                Cell::new(view.index.to_string()),
                Cell::new(short_state(view.phase.name())),
                Cell::new(pointer),
                Cell::new(c),
                Cell::new(show(buffer)).keep_end(),
                Cell::styled(show(&changes.join("  ")), row_style),
            ]);
            if view.index == selected || app.expand_all {
                for event in &view.host_events {
                    item = item.note(
                        format!("   └ {}", show(&host_event_text(event))),
                        theme.dim(),
                    );
                }
            }
            items.push(item);
        });
        items
    };
    list::render(
        frame,
        area,
        block,
        &Spec {
            header: Some(&["#", "state", "ptr", "c", "buffer", "changes"]),
            max_share: &[8, 38, 7, 6, 20],
        },
        trace.len(),
        state,
        &mut fetch,
        selection(app, Pane::Trace, theme),
        theme,
    );
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
pub fn explain_step(view: &StepView<'_>, buffer: &str, last: bool, failed: bool) -> Vec<String> {
    let next = match (view.next, view.phase) {
        (Some(next), Phase::State(now)) if next == now => "next: the same state".to_owned(),
        (Some(next), _) => format!("next: the {}", next.name()),
        (None, _) if !last => "next: the basic URL parser's next step".to_owned(),
        (None, _) if failed => "the parser returns failure".to_owned(),
        (None, _) => "the parser is done".to_owned(),
    };
    let mut sentences = Vec::new();
    sentences.push(match view.phase {
        Phase::State(state) => {
            let c = match view.c {
                Some(c) => format!("“{}”", show(&c.to_string())),
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
        sentences.push(format!(
            "§ {} {}: {} <{}>",
            spec.section_name(),
            spec.number,
            spec.explanation.unwrap_or(spec.words),
            spec.url()
        ));
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
    sentences
}

/// Fits `sentences` in `height` lines of `width` columns: each gets a line, and the lines left
/// go to the sentences in order; a sentence cut short ends with `…`.
pub fn fit(sentences: &[String], width: usize, height: usize) -> Vec<String> {
    let wrapped: Vec<Vec<String>> = sentences
        .iter()
        .map(|s| wrap_with_ellipsis(std::slice::from_ref(s), width, usize::MAX))
        .collect();
    let mut share: Vec<usize> = wrapped.iter().map(|_| 1).collect();
    let mut left = height.saturating_sub(share.len());
    for (i, lines) in wrapped.iter().enumerate() {
        let more = (lines.len() - 1).min(left);
        share[i] += more;
        left -= more;
    }
    sentences
        .iter()
        .zip(share)
        .flat_map(|(s, n)| wrap_with_ellipsis(std::slice::from_ref(s), width, n))
        .take(height)
        .collect()
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
    if lines.len() > height && height > 0 {
        lines.truncate(height);
        if let Some(last) = lines.last_mut() {
            let mut used: usize = last.chars().map(|c| c.width().unwrap_or(0)).sum();
            while used + 1 > width {
                match last.pop() {
                    Some(c) => used -= c.width().unwrap_or(0),
                    None => break,
                }
            }
            last.push('…');
        }
    }
    lines
}

fn render_strip(frame: &mut Frame<'_>, area: Rect, trace: &Trace, index: usize, theme: &Theme) {
    let mut sentences = Vec::new();
    let last = index + 1 == trace.len();
    trace.for_each_in(index..index + 1, |view, buffer| {
        sentences = explain_step(&view, buffer, last, trace.failed());
        if let Some(first) = sentences.first_mut() {
            first.insert_str(0, "Why? ");
        }
    });
    // The list's bottom border is the strip's top: it costs one row besides its text.
    let block = Block::default()
        .borders(Borders::LEFT | Borders::RIGHT | Borders::BOTTOM)
        .border_style(theme.dim());
    let inner = block.inner(area);
    let lines = fit(
        &sentences,
        usize::from(inner.width),
        usize::from(inner.height),
    );
    frame.render_widget(Paragraph::new(lines.join("\n")).block(block), area);
}
