//! The Components pane: the URL API's getters (or, in step mode, the record as it was after
//! the selected step) and the query's name-value pairs.

use ratatui::layout::{Constraint, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Cell, Paragraph, Row, Table, Wrap};
use ratatui::Frame;

use crate::display::{escape, EscapeStyle};
use crate::report::Outcome;
use crate::url::Component;

use super::super::app::{App, Pane, COMPONENT_ROWS};
use super::super::theme::{Part, Theme};

/// The input part a component comes from (`None` for href, which is all of them).
pub fn part_of(component: Component) -> Option<Part> {
    match component {
        Component::Protocol => Some(Part::Scheme),
        Component::Username | Component::Password => Some(Part::Userinfo),
        Component::Host | Component::Hostname => Some(Part::Host),
        Component::Port => Some(Part::Port),
        Component::Pathname => Some(Part::Path),
        Component::Search => Some(Part::Query),
        Component::Hash => Some(Part::Fragment),
        Component::Href => None,
    }
}

pub fn render(frame: &mut Frame<'_>, area: Rect, app: &App, theme: &Theme) {
    let focused = app.focus == Pane::Components;
    let title = if app.step_mode {
        format!(" 4 Components (as after step {}) ", app.step)
    } else {
        " 4 Components ".to_owned()
    };
    let block = Block::default()
        .borders(Borders::ALL)
        .title(Span::styled(title, theme.title(focused)));
    if !app.has_shown_record() {
        let text = match &app.report.outcome {
            Outcome::Failure { cause } => vec![
                Line::from("Failure: the input is not a URL."),
                Line::from(cause.as_ref().map_or(String::new(), |c| {
                    format!(
                        "{} at {}..{} ({}): {}",
                        c.kind, c.span.start, c.span.end, c.state, c.message
                    )
                })),
            ],
            Outcome::BaseFailure { cause } => vec![
                Line::from("Failure: the base URL is not a URL."),
                Line::from(cause.as_ref().map_or(String::new(), |c| c.to_string())),
            ],
            Outcome::Parsed { .. } => vec![],
        };
        frame.render_widget(
            Paragraph::new(text).wrap(Wrap { trim: false }).block(block),
            area,
        );
        return;
    }
    let mut rows: Vec<Row<'_>> = Vec::new();
    // Rows and cells never wrap: only what fits is built (a 1 MB URL has a 1 MB href and
    // 100k query parameters, of which a screenful shows).
    let visible_rows = usize::from(area.height.saturating_sub(2));
    let visible_chars = usize::from(area.width);
    let shown = |value: &str| {
        let end = value
            .char_indices()
            .nth(visible_chars)
            .map_or(value.len(), |(i, _)| i);
        escape(&value[..end], EscapeStyle::Symbols).into_owned()
    };
    let origin = app
        .report
        .components()
        .map(|c| c.origin.clone())
        .unwrap_or_default();
    for (i, &component) in COMPONENT_ROWS.iter().enumerate() {
        let editing = app.editing.as_ref().filter(|(c, _)| *c == component);
        let value = match editing {
            Some((_, editor)) => format!("{}▏", editor.text()),
            None => app.component_value(component).unwrap_or_default(),
        };
        let style = part_of(component).map_or_else(Default::default, |p| theme.part(p));
        let mut row = Row::new(vec![
            Cell::from(component.name()),
            Cell::from(Span::styled(shown(&value), style)),
        ]);
        if focused && i == app.component_row {
            row = row.style(theme.selected());
        }
        rows.push(row);
        if component == Component::Href && !app.step_mode {
            rows.push(Row::new(vec![
                Cell::from("origin"),
                Cell::from(shown(&origin)),
            ]));
        }
    }
    let params = app
        .report
        .components()
        .filter(|_| !app.step_mode)
        .map_or(&[][..], |c| &c.search_params[..]);
    if !params.is_empty() {
        rows.push(Row::new(vec![Cell::from(""), Cell::from("")]));
        rows.push(Row::new(vec![
            Cell::from(Span::styled("query params", theme.dim())),
            Cell::from(""),
        ]));
        let room = visible_rows.saturating_sub(rows.len()).max(1);
        let listed = if params.len() > room { room - 1 } else { room };
        for (name, value) in params.iter().take(listed) {
            rows.push(Row::new(vec![
                Cell::from(format!("  {}", shown(name))),
                Cell::from(format!("= {}", shown(value))),
            ]));
        }
        if params.len() > listed {
            rows.push(Row::new(vec![
                Cell::from(""),
                Cell::from(Span::styled(
                    format!("… {} more", params.len() - listed),
                    theme.dim(),
                )),
            ]));
        }
    }
    let table = Table::new(rows, [Constraint::Length(13), Constraint::Min(10)]).block(block);
    frame.render_widget(table, area);
}
