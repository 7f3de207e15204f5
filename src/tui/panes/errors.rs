//! The Validation errors pane: the standard's name, where, which state, what it means, and
//! whether browsers accept the URL with it.
//! Selecting one moves the trace to the step that raised it.

use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::widgets::Paragraph;
use ratatui::Frame;

use super::super::app::{App, Pane};
use super::super::derived::{browsers, show};
use super::super::list::{self, Cell, Item, Spec};
use super::super::theme::Theme;
use super::super::ui::{pane_block, selection};

pub fn render(frame: &mut Frame<'_>, area: Rect, app: &App, theme: &Theme) {
    let errors = &app.report.errors;
    let block = pane_block(
        app,
        Pane::Errors,
        format!("Validation errors ({})", errors.len()),
        area,
        theme,
    );
    if errors.is_empty() {
        let text = if app.report.url.is_some() || app.report.trace.is_some() {
            "none: the parser raised no validation error"
        } else {
            "none: the parser did not run on the input"
        };
        frame.render_widget(
            Paragraph::new(Line::styled(text, theme.dim())).block(block),
            area,
        );
        return;
    }
    let state = &app.lists[Pane::Errors.index()];
    let parsed = app.report.url.is_some();
    let mut fetch = |range: std::ops::Range<usize>| {
        let start = range.start;
        errors[range]
            .iter()
            .enumerate()
            .map(|(i, e)| {
                Item::new(vec![
                    Cell::styled(e.kind.name(), theme.error()),
                    Cell::new(format!("{}..{}", e.span.start, e.span.end)),
                    Cell::styled(e.state.to_string(), theme.dim()),
                ])
                .note(show(e.message), Default::default())
                .note(browsers(errors, start + i, parsed), theme.dim())
            })
            .collect()
    };
    list::render(
        frame,
        area,
        block,
        &Spec {
            header: None,
            max_share: &[50, 20],
        },
        errors.len(),
        state,
        &mut fetch,
        selection(app, Pane::Errors, theme),
        theme,
    );
}
