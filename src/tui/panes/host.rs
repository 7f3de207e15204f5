//! The Host pane: the host's kind, its ASCII and Unicode forms, one row per label, and the
//! numeric forms of IP addresses, read from the host parser's sub-steps in the trace.

use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph, Wrap};
use ratatui::Frame;

use crate::display::{escape, EscapeStyle};
use crate::trace::HostEvent;
use crate::url::host::domain_to_unicode;
use crate::url::Host;

use super::super::app::{App, Pane};
use super::super::theme::Theme;

pub fn render(frame: &mut Frame<'_>, area: Rect, app: &App, theme: &Theme) {
    let focused = app.focus == Pane::Host;
    let block = Block::default()
        .borders(Borders::ALL)
        .title(Span::styled(" 6 Host ", theme.title(focused)));
    let mut lines: Vec<Line<'_>> = Vec::new();
    let host = app
        .report
        .url
        .as_ref()
        .and_then(|u| u.record().host.clone());
    let show = |s: &str| escape(s, EscapeStyle::Symbols).into_owned();
    match &host {
        None => lines.push(Line::styled("no host", theme.dim())),
        Some(Host::Empty) => lines.push(Line::from("the empty host")),
        Some(Host::Opaque(s)) => {
            lines.push(Line::from(format!(
                "opaque host (not special): {}",
                show(s)
            )));
        }
        Some(Host::Domain(domain)) => {
            let unicode = domain_to_unicode(domain);
            lines.push(Line::from(vec![
                Span::styled("domain  ", theme.dim()),
                Span::raw(show(domain)),
            ]));
            lines.push(Line::from(vec![
                Span::styled("Unicode ", theme.dim()),
                Span::raw(show(&unicode)),
            ]));
            // Exactly what was typed (`ex%41mple.com`), not the percent-decoded buffer.
            if let Some(typed) = app
                .report
                .host_analysis
                .as_ref()
                .and_then(|a| a.typed.clone())
            {
                lines.push(Line::from(vec![
                    Span::styled("as typed ", theme.dim()),
                    Span::raw(show(&typed)),
                ]));
            }
            // One row per label, from the host analysis.
            let labels = app
                .report
                .host_analysis
                .as_ref()
                .map_or(&[][..], |a| a.labels.as_slice());
            if !labels.is_empty() {
                lines.push(Line::styled(
                    "label          ASCII               scripts / UTS 39 level",
                    theme.dim(),
                ));
            }
            for label in labels {
                lines.push(Line::from(format!(
                    "{:<14} {:<19} {} / {}",
                    show(&label.unicode),
                    show(&label.ascii),
                    label.scripts.join("+"),
                    label.restriction
                )));
            }
        }
        Some(Host::Ipv4(address)) => {
            let ip = std::net::Ipv4Addr::from(*address);
            lines.push(Line::from(format!("IPv4 {ip}")));
            lines.push(Line::from(format!(
                "  integer {address}   hex 0x{address:08x}"
            )));
            if let Some(trace) = &app.report.trace {
                for e in trace.host_events() {
                    if let HostEvent::Ipv4Part {
                        text,
                        radix,
                        value: Some(v),
                    } = e
                    {
                        lines.push(Line::styled(
                            format!("  part {} radix {radix} = {v}", show(text)),
                            theme.dim(),
                        ));
                    }
                }
            }
        }
        Some(Host::Ipv6(pieces)) => {
            let ip = std::net::Ipv6Addr::from(*pieces);
            lines.push(Line::from(format!("IPv6 [{ip}]")));
            let full: Vec<String> = pieces.iter().map(|p| format!("{p:04x}")).collect();
            lines.push(Line::styled(format!("  {}", full.join(":")), theme.dim()));
            if let Some(v4) = ip.to_ipv4_mapped() {
                lines.push(Line::from(format!("  IPv4-mapped: {v4}")));
            }
        }
    }
    // What decides and what misleads comes first: the owner, the display decision, the
    // findings; the forms and labels follow.
    let mut head: Vec<Line<'_>> = Vec::new();
    if let Some(analysis) = &app.report.host_analysis {
        if let Some(owner) = &analysis.registrable_domain {
            let unicode = domain_to_unicode(owner);
            let also = if unicode == *owner {
                String::new()
            } else {
                format!("  ({})", show(&unicode))
            };
            head.push(Line::from(vec![
                Span::styled("owner   ", theme.dim()),
                Span::styled(show(owner), theme.title(true)),
                Span::styled(format!("{also}  registrable domain"), theme.dim()),
            ]));
        }
        // One line per display policy: Unicode or Punycode, and the rule that decided.
        for decision in &analysis.display {
            let verdict = if decision.unicode {
                "shown in Unicode".to_owned()
            } else {
                format!("shown as {}", show(&decision.shown))
            };
            let why = match (&decision.host_rule, decision.first_refusal()) {
                (Some(h), _) => format!(": {}", h.rule),
                (None, Some(l)) => match l.code_points.first() {
                    Some(c) => format!(": {} ({c})", l.rule.unwrap_or("")),
                    None => format!(": {}", l.rule.unwrap_or("")),
                },
                (None, None) => String::new(),
            };
            head.push(Line::from(vec![
                Span::styled(format!("{:<9}", decision.policy), theme.dim()),
                Span::raw(format!("{verdict}{why}")),
            ]));
        }
        for (i, f) in analysis.findings.iter().enumerate() {
            let mut style = match f.severity {
                crate::inspect::Severity::Danger => theme.error(),
                _ => ratatui::style::Style::default(),
            };
            if focused && i == app.finding_row {
                style = theme.selected();
            }
            head.push(Line::styled(
                format!("[{}] {}: {}", f.severity, f.id, show(&f.detail)),
                style,
            ));
        }
    }
    head.extend(lines);
    let lines = head;
    frame.render_widget(
        Paragraph::new(lines)
            .wrap(Wrap { trim: false })
            .block(block),
        area,
    );
}
