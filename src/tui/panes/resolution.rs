//! The Base resolution pane: which branch of the parser used the base, what came from it, and
//! common relative references resolved against it (derived once per report).

use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::widgets::{Paragraph, Wrap};
use ratatui::Frame;

use super::super::app::{App, Pane};
use super::super::list::{self, Spec};
use super::super::theme::Theme;
use super::super::ui::{pane_block, selection};
use super::row_item;

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
