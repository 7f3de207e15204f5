//! The Trace pane: one row per step (state, pointer, c, buffer, what changed), only the visible
//! window built, host parsing sub-steps under the selected step (or under every step).

use ratatui::layout::Rect;
use ratatui::widgets::{Paragraph, Wrap};
use ratatui::Frame;

use crate::report::Outcome;
use crate::trace::HostEvent;
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
                "Not traced: the input is {length} bytes, over the {} the trace is recorded for \
                 (a trace takes 75 to 240 bytes per input byte). The other panes are complete.",
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
