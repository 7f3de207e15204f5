//! One file per pane. Each renders from the App's finished report and what was derived from
//! it; none of them parses, and none of them cuts text: [`super::list`] does, with `…`.

pub mod components;
pub mod errors;
pub mod grammar;
pub mod host;
pub mod input;
pub mod parsers;
pub mod resolution;
pub mod trace;

use ratatui::layout::Rect;
use ratatui::Frame;

use super::app::{App, Pane};
use super::derived::{Row, RowKind};
use super::list::{Cell, Item};
use super::theme::Theme;

/// Draws `pane` in `area`.
pub fn render(frame: &mut Frame<'_>, area: Rect, app: &App, pane: Pane, theme: &Theme) {
    match pane {
        Pane::Input | Pane::Base => input::render(frame, area, app, pane, theme),
        Pane::Trace => trace::render(frame, area, app, theme),
        Pane::Components => components::render(frame, area, app, theme),
        Pane::Errors => errors::render(frame, area, app, theme),
        Pane::Host => host::render(frame, area, app, theme),
        Pane::Resolution => resolution::render(frame, area, app, theme),
        Pane::Grammar => grammar::render(frame, area, app, theme),
        Pane::Parsers => parsers::render(frame, area, app, theme),
    }
}

/// A key-value row as a list item, styled by what it is.
pub fn row_item(row: &Row, theme: &Theme) -> Item {
    use crate::inspect::Severity;
    let (key_style, value_style) = match row.kind {
        RowKind::Component(part) => (
            Default::default(),
            part.map_or_else(Default::default, |p| theme.part(p)),
        ),
        RowKind::Finding(Severity::Danger) => (theme.error(), Default::default()),
        RowKind::Finding(Severity::Warn) => (theme.warn(), Default::default()),
        RowKind::Reference { failed: true } => (Default::default(), theme.error()),
        RowKind::ParamHeading | RowKind::Heading => (theme.dim(), theme.dim()),
        _ => (Default::default(), Default::default()),
    };
    let key = match row.kind {
        RowKind::Param => format!("  {}", row.key),
        _ => row.key.clone(),
    };
    let mut item = Item::new(vec![
        Cell::styled(key, key_style),
        Cell::styled(row.value.clone(), value_style),
    ]);
    if matches!(
        row.kind,
        RowKind::Heading | RowKind::Finding(_) | RowKind::Info
    ) || row.key == "href"
    {
        item = item.wrapped();
    }
    if let Some(note) = &row.note {
        item = item.note(note.clone(), theme.dim());
    }
    item
}
