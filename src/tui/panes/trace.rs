//! The Trace pane: one row per step (state, pointer, c, buffer, what changed), only the visible
//! window rendered, host parsing sub-steps under the selected step.

use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph, Wrap};
use ratatui::Frame;

use crate::display::{escape, EscapeStyle};
use crate::trace::HostEvent;
use crate::url::Phase;

use super::super::app::{App, Pane};
use super::super::theme::Theme;

/// `s` cut or padded to `width` terminal columns.
fn fit(s: &str, width: usize) -> String {
    use unicode_width::UnicodeWidthChar;
    let mut out = String::new();
    let mut used = 0;
    for c in s.chars() {
        let w = c.width().unwrap_or(0);
        if used + w > width {
            break;
        }
        out.push(c);
        used += w;
    }
    out.extend(std::iter::repeat_n(' ', width - used));
    out
}

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
        let length = app.report.input.len();
        let why = (length > crate::MAX_TRACED_INPUT).then(|| {
            format!(
                "Not traced: the input is {length} bytes, over the {} the trace is recorded for \
                 (a trace takes 75 to 240 bytes per input byte). The other panes are complete.",
                crate::MAX_TRACED_INPUT
            )
        });
        frame.render_widget(
            Paragraph::new(why.unwrap_or_default())
                .style(theme.dim())
                .wrap(Wrap { trim: true })
                .block(block),
            area,
        );
        return;
    };
    let height = area.height.saturating_sub(3) as usize;
    let selected = app.step.min(trace.len().saturating_sub(1));
    // Room for the selected step's host sub-steps under it.
    let host_rows = trace.view(selected).host_events.len().min(height / 2);
    let rows_for_steps = height.saturating_sub(host_rows).max(1);
    let start = if app.expand_all {
        // Every step takes its line and its sub-steps' lines: walk back from the selected step
        // while they fit, so that it stays on screen.
        let mut used = 1 + host_rows;
        let mut start = selected;
        while start > 0 {
            let cost = 1 + trace.view(start - 1).host_events.len();
            if used + cost > height {
                break;
            }
            used += cost;
            start -= 1;
        }
        start
    } else {
        selected
            .saturating_sub(rows_for_steps.saturating_sub(1) / 2)
            .min(trace.len().saturating_sub(rows_for_steps))
    };
    let narrow = area.width < 60;
    // Column widths: step, state, pointer, c, buffer; the changes take the rest.
    let widths = if narrow {
        [3, 18, 3, 3, 6]
    } else {
        [4, 26, 4, 3, 12]
    };
    let row = |cells: [&str; 5], rest: &str| {
        let mut line = String::new();
        for (cell, width) in cells.iter().zip(widths) {
            line.push_str(&fit(cell, width));
            line.push(' ');
        }
        line.push_str(rest);
        line
    };
    let mut lines = vec![Line::styled(
        row(["#", "state", "ptr", "c", "buffer"], "changes"),
        theme.dim(),
    )];
    let end = if app.expand_all {
        selected + 1
    } else {
        start + rows_for_steps
    };
    trace.for_each_in(start..end, |view, buffer| {
        let c = match (view.phase, view.c) {
            (Phase::State(_), Some(c)) => escape(&c.to_string(), EscapeStyle::Symbols).into_owned(),
            (Phase::State(_), None) => "EOF".to_owned(),
            _ => String::new(),
        };
        let mut what: Vec<String> = view.changes.iter().map(ToString::to_string).collect();
        what.extend(view.pointer_moves.iter().map(ToString::to_string));
        what.extend(view.errors.iter().map(|e| format!("⚠ {}", e.kind)));
        let pointer = if matches!(view.phase, Phase::State(_)) {
            view.pointer.to_string()
        } else {
            String::new()
        };
        let text = row(
            [
                &view.index.to_string(),
                short_state(view.phase.name()),
                &pointer,
                &c,
                &escape(buffer, EscapeStyle::Symbols),
            ],
            &escape(&what.join("  "), EscapeStyle::Symbols),
        );
        let mut style = ratatui::style::Style::default();
        if !view.errors.is_empty() {
            style = theme.error();
        }
        if view.index == selected && (focused || app.step_mode) {
            style = theme.selected();
        }
        lines.push(Line::styled(text, style));
        if view.index == selected || app.expand_all {
            let limit = if view.index == selected {
                host_rows
            } else {
                usize::MAX
            };
            for event in view.host_events.iter().take(limit) {
                let text = escape(&host_event_text(event), EscapeStyle::Symbols).into_owned();
                lines.push(Line::styled(format!("     └ {text}"), theme.dim()));
            }
        }
    });
    frame.render_widget(Paragraph::new(lines).block(block), area);
}
