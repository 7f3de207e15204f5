//! The Base resolution pane: which branch of the parser used the base, where each component of
//! the result came from, edit by edit as the trace recorded them, and common relative references
//! resolved against it (derived once per report).

use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::widgets::{Paragraph, Wrap};
use ratatui::Frame;

use super::super::list::{self, Spec};
use super::super::model::{App, Pane};
use super::super::theme::Theme;
use super::row_item;
use super::{pane_block, selection};

pub fn render(frame: &mut Frame<'_>, area: Rect, app: &App, theme: &Theme) {
    let rows = &app.derived.resolution;
    let block = pane_block(
        app,
        Pane::Resolution,
        "Base resolution".to_owned(),
        area,
        theme,
    );
    if rows.is_empty() {
        let text = Line::styled(
            "No base URL: type one in the Base line (2) to see relative resolution.",
            theme.dim(),
        );
        frame.render_widget(
            Paragraph::new(text).wrap(Wrap { trim: false }).block(block),
            area,
        );
        return;
    }
    let state = &app.lists[Pane::Resolution.index()];
    let mut fetch =
        |range: std::ops::Range<usize>| rows[range].iter().map(|r| row_item(r, theme)).collect();
    list::render(
        frame,
        area,
        block,
        &Spec {
            header: None,
            max_share: &[30],
        },
        rows.len(),
        state,
        &mut fetch,
        selection(app, Pane::Resolution, theme),
        theme,
    );
}

/// The rows the pane fills on a screen `width` columns wide: its borders and rows, and a line
/// more for a row that wraps.
pub fn wanted_height(app: &App, width: u16) -> u16 {
    let rows = &app.derived.resolution;
    if rows.is_empty() {
        // The message, wrapped.
        return 4;
    }
    let inner = usize::from(width.saturating_sub(2));
    let lines: usize = rows
        .iter()
        .map(|r| 1 + usize::from(r.key.chars().count() + r.value.chars().count() + 2 > inner))
        .sum();
    u16::try_from(lines + 2).unwrap_or(u16::MAX)
}
