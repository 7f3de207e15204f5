//! The Components pane: the URL API's getters and the query's name-value pairs; in step mode,
//! the URL record as it was after the selected step, by the standard's field names.

use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::widgets::{Paragraph, Wrap};
use ratatui::Frame;

use crate::report::Outcome;

use super::super::derived::error_text;
use super::super::list::{self, Cell, Spec};
use super::super::model::{App, Pane};
use super::super::theme::Theme;
use super::row_item;
use super::{pane_block, selection};

pub fn render(frame: &mut Frame<'_>, area: Rect, app: &App, theme: &Theme) {
    let total = app.component_count();
    let title = if app.step_mode {
        format!("Record after step {} (Components)", app.step())
    } else {
        "Components".to_owned()
    };
    let block = pane_block(app, Pane::Components, title, area, theme);
    if total == 0 {
        let text = match &app.report.outcome {
            // The library's one answer, as the verdict line and `parse` give it.
            Outcome::Failure { .. } => vec![Line::styled(
                app.report.not_a_url().map_or_else(
                    || "not a URL".to_owned(),
                    |why| super::super::derived::show(&why.message),
                ),
                theme.error(),
            )],
            Outcome::BaseFailure { cause } => vec![
                Line::styled(
                    "The base URL is not a URL, so the input was not parsed against it.",
                    theme.error(),
                ),
                Line::from(cause.as_ref().map_or(String::new(), error_text)),
            ],
            Outcome::Parsed { .. } => vec![Line::from("The trace has no step to show.")],
        };
        frame.render_widget(
            Paragraph::new(text).wrap(Wrap { trim: false }).block(block),
            area,
        );
        return;
    }
    let state = &app.lists[Pane::Components.index()];
    let mut fetch = |range: std::ops::Range<usize>| {
        let mut lines = Vec::new();
        for row in &app.component_rows_in(range) {
            let mut item = row_item(row, theme);
            if let Some(edit) = app.edit.as_ref().filter(|e| e.component.name() == row.key) {
                let text = super::super::derived::show(edit.editor.text());
                item.cells[1] = Cell::styled(format!("{text}▏"), theme.title(true)).keep_end();
                item.wrap = false;
            }
            lines.push(item);
        }
        lines
    };
    list::render(
        frame,
        area,
        block,
        &Spec {
            header: None,
            max_share: &[40],
        },
        total,
        state,
        &mut fetch,
        selection(app, Pane::Components, theme),
        theme,
    );
}
