//! The Host pane: the findings first (what decides and what misleads), then who owns the
//! name, how a browser would display it, the host's forms, one row per label, and the numeric
//! forms of IP addresses. The rows are derived once per report.

use ratatui::layout::Rect;
use ratatui::Frame;

use super::super::app::{App, Pane};
use super::super::list::{self, Spec};
use super::super::theme::Theme;
use super::super::ui::{pane_block, selection};
use super::row_item;

pub fn render(frame: &mut Frame<'_>, area: Rect, app: &App, theme: &Theme) {
    let d = &app.derived;
    let mut title = "Host".to_owned();
    let counts: Vec<String> = [(d.danger, "danger"), (d.warn, "warn"), (d.info, "info")]
        .iter()
        .filter(|(n, _)| *n > 0)
        .map(|(n, what)| format!("{n} {what}"))
        .collect();
    if !counts.is_empty() {
        title = format!("Host · {}", counts.join(" "));
    }
    let block = pane_block(app, Pane::Host, title, area, theme);
    let rows = &d.host;
    let state = &app.lists[Pane::Host.index()];
    let mut fetch =
        |range: std::ops::Range<usize>| rows[range].iter().map(|r| row_item(r, theme)).collect();
    list::render(
        frame,
        area,
        block,
        &Spec {
            header: None,
            max_share: &[35],
        },
        rows.len(),
        state,
        &mut fetch,
        selection(app, Pane::Host, theme),
        theme,
    );
}
