//! The Base resolution pane: which branch of the parser used the base, what came from it, and
//! common relative references resolved against it.

use ratatui::layout::{Constraint, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Cell, Row, Table};
use ratatui::Frame;

use crate::display::{escape, EscapeStyle};
use crate::trace::ChangeView;
use crate::url::{Phase, State};

use super::super::app::{App, Pane};
use super::super::theme::Theme;

/// The states in which the parser reads the base.
fn uses_base(state: State) -> bool {
    matches!(
        state,
        State::NoScheme | State::Relative | State::RelativeSlash | State::File | State::FileSlash
    )
}

pub fn render(frame: &mut Frame<'_>, area: Rect, app: &App, theme: &Theme) {
    let focused = app.focus == Pane::Resolution;
    let block = Block::default()
        .borders(Borders::ALL)
        .title(Span::styled(" 7 Base resolution ", theme.title(focused)));
    let Some(base) = &app.report.base else {
        let text = Line::styled(
            "No base URL: type one in the Base line (2) to see relative resolution.",
            theme.dim(),
        );
        frame.render_widget(ratatui::widgets::Paragraph::new(text).block(block), area);
        return;
    };
    let mut rows = Vec::new();
    let mut branch = Vec::new();
    let mut from_base = Vec::new();
    if let Some(trace) = &app.report.trace {
        for i in 0..trace.len() {
            let view = trace.view(i);
            let Phase::State(state) = view.phase else {
                continue;
            };
            if !uses_base(state) {
                continue;
            }
            if !branch.contains(&state.name()) {
                branch.push(state.name());
            }
            for change in &view.changes {
                if let ChangeView::Set { field, .. } = change {
                    if !from_base.contains(field) {
                        from_base.push(*field);
                    }
                }
            }
        }
    }
    rows.push(Row::new(vec![
        Cell::from("base"),
        Cell::from(escape(base, EscapeStyle::Symbols).into_owned()),
    ]));
    let branch = if branch.is_empty() {
        "not used: the input has its own scheme".to_owned()
    } else {
        branch.join(" → ")
    };
    rows.push(Row::new(vec![Cell::from("branch"), Cell::from(branch)]));
    if !from_base.is_empty() {
        rows.push(Row::new(vec![
            Cell::from("from base"),
            Cell::from(from_base.join(", ")),
        ]));
    }
    rows.push(Row::new(vec![Cell::from(""), Cell::from("")]));
    rows.push(
        Row::new(vec![Cell::from("reference"), Cell::from("resolves to")]).style(theme.dim()),
    );
    let height = area.height.saturating_sub(2) as usize;
    let fixed = rows.len();
    let room = height.saturating_sub(fixed).max(1);
    let skip = app.resolution_row.saturating_sub(room - 1);
    for (i, r) in app.report.resolutions.iter().enumerate().skip(skip) {
        let href = r.href.as_deref().map_or("failure".to_owned(), |h| {
            escape(h, EscapeStyle::Symbols).into_owned()
        });
        let reference = if r.reference.is_empty() {
            "\"\"".to_owned()
        } else {
            r.reference.to_owned()
        };
        let mut row = Row::new(vec![Cell::from(reference), Cell::from(href)]);
        if focused && i == app.resolution_row {
            row = row.style(theme.selected());
        }
        rows.push(row);
    }
    frame.render_widget(
        Table::new(rows, [Constraint::Length(12), Constraint::Min(10)]).block(block),
        area,
    );
}
