//! The Validation errors pane: the standard's name, where, which state, and what it means.
//! Selecting one moves the trace to the step that raised it.

use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, List, ListItem};
use ratatui::Frame;

use super::super::app::{App, Pane};
use super::super::theme::Theme;

pub fn render(frame: &mut Frame<'_>, area: Rect, app: &App, theme: &Theme) {
    let focused = app.focus == Pane::Errors;
    let errors = &app.report.errors;
    let title = format!(" 5 Validation errors ({}) ", errors.len());
    let block = Block::default()
        .borders(Borders::ALL)
        .title(Span::styled(title, theme.title(focused)));
    let items: Vec<ListItem<'_>> = if errors.is_empty() {
        vec![ListItem::new(Line::styled(
            "none: the parser raised no validation error",
            theme.dim(),
        ))]
    } else {
        errors
            .iter()
            .enumerate()
            .map(|(i, e)| {
                let lines = vec![
                    Line::from(vec![
                        Span::styled(e.kind.name(), theme.error()),
                        Span::raw(format!("  {}..{}  {}", e.span.start, e.span.end, e.state)),
                    ]),
                    Line::styled(format!("  {}", e.message), theme.dim()),
                ];
                let item = ListItem::new(lines);
                if focused && i == app.error_row {
                    item.style(theme.selected())
                } else {
                    item
                }
            })
            .collect()
    };
    // Keep the selected error in view: skip whole items above it.
    let per_item = 2;
    let visible = (area.height.saturating_sub(2) as usize / per_item).max(1);
    let skip = app
        .error_row
        .saturating_sub(visible - 1)
        .min(items.len().saturating_sub(1));
    let items: Vec<_> = items.into_iter().skip(skip).collect();
    frame.render_widget(List::new(items).block(block), area);
}
