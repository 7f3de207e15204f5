//! The Trace pane: one row per step (state, pointer, c, buffer, what changed), only the visible
//! window rendered, host parsing sub-steps under the selected step.

use ratatui::layout::{Constraint, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Cell, Row, Table};
use ratatui::Frame;

use crate::display::{escape, EscapeStyle};
use crate::trace::HostEvent;
use crate::url::Phase;

use super::super::app::{App, Pane};
use super::super::theme::Theme;

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
    let focused = app.focus == Pane::Trace;
    let title = match &app.setter_run {
        Some(run) => format!(
            " 3 Trace of the {} setter with {:?} ",
            run.component, run.value
        ),
        None if app.step_mode => " 3 Trace (step mode: h/l, Esc leaves) ".to_owned(),
        None => " 3 Trace ".to_owned(),
    };
    let block = Block::default()
        .borders(Borders::ALL)
        .title(Span::styled(title, theme.title(focused)));
    let Some(trace) = app.trace() else {
        frame.render_widget(block, area);
        return;
    };
    let height = area.height.saturating_sub(3) as usize;
    let selected = app.step.min(trace.len().saturating_sub(1));
    // Room for the selected step's host sub-steps under it.
    let host_rows = trace.view(selected).host_events.len().min(height / 2);
    let rows_for_steps = height.saturating_sub(host_rows).max(1);
    let start = selected
        .saturating_sub(rows_for_steps.saturating_sub(1) / 2)
        .min(trace.len().saturating_sub(rows_for_steps));
    let mut rows = Vec::new();
    trace.for_each_in(start..start + rows_for_steps, |view, buffer| {
        let c = match (view.phase, view.c) {
            (Phase::State(_), Some(c)) => escape(&c.to_string(), EscapeStyle::Symbols).into_owned(),
            (Phase::State(_), None) => "EOF".to_owned(),
            _ => String::new(),
        };
        let mut what: Vec<String> = view.changes.iter().map(ToString::to_string).collect();
        what.extend(view.pointer_moves.iter().map(ToString::to_string));
        what.extend(view.errors.iter().map(|e| format!("⚠ {}", e.kind)));
        let changes = escape(&what.join("  "), EscapeStyle::Symbols).into_owned();
        let mut row = Row::new(vec![
            Cell::from(view.index.to_string()),
            Cell::from(short_state(view.phase.name())),
            Cell::from(if matches!(view.phase, Phase::State(_)) {
                view.pointer.to_string()
            } else {
                String::new()
            }),
            Cell::from(c),
            Cell::from(escape(buffer, EscapeStyle::Symbols).into_owned()),
            Cell::from(changes),
        ]);
        if !view.errors.is_empty() {
            row = row.style(theme.error());
        }
        if view.index == selected && (focused || app.step_mode) {
            row = row.style(theme.selected());
        }
        let host: Vec<String> = view
            .host_events
            .iter()
            .map(|e| host_event_text(e))
            .collect();
        rows.push(row);
        if view.index == selected {
            for line in host.into_iter().take(host_rows) {
                rows.push(
                    Row::new(vec![
                        Cell::from(""),
                        Cell::from("  └ host parsing"),
                        Cell::from(""),
                        Cell::from(""),
                        Cell::from(""),
                        Cell::from(Line::from(line)),
                    ])
                    .style(theme.dim()),
                );
            }
        }
    });
    let header = Row::new(vec!["#", "state", "ptr", "c", "buffer", "changes"]).style(theme.dim());
    let narrow = area.width < 60;
    let widths = [
        Constraint::Length(if narrow { 3 } else { 4 }),
        Constraint::Length(if narrow { 18 } else { 26 }),
        Constraint::Length(if narrow { 3 } else { 4 }),
        Constraint::Length(3),
        Constraint::Length(if narrow { 6 } else { 12 }),
        Constraint::Min(if narrow { 4 } else { 12 }),
    ];
    frame.render_widget(Table::new(rows, widths).header(header).block(block), area);
}
