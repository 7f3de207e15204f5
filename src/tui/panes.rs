//! The views: one file each, and [`VIEWS`], the list of them. A view draws itself from the
//! model's finished report and what was derived from it, counts its rows, says what its
//! selected row holds in full, and names the keys it adds; none of them parses, and none of
//! them cuts text: [`super::list`] does, with `…`. Adding a view is one entry in [`VIEWS`] (and
//! its pane in [`super::pane`]); the layout, the tab bar, the detail view, `--view` and the key
//! contexts read them from here.

pub mod components;
pub mod errors;
pub mod grammar;
pub mod host;
pub mod input;
pub mod parsers;
pub mod pattern;
pub mod resolution;
pub mod trace;

use ratatui::layout::Rect;
use ratatui::Frame;

use ratatui::style::Style;
use ratatui::text::Span;
use ratatui::widgets::{Block, Borders};

use super::derived::{Row, RowKind};
use super::keys::Context;
use super::list::cut_end;
use super::list::{Cell, Item};
use super::model::{App, Overlay, Pane};
use super::theme::Theme;

/// What the detail view shows of a selected row: (label, value) pairs, and what `Y` copies.
pub type Detail = (Vec<(String, String)>, Option<String>);

/// A view of the report.
#[derive(Debug)]
pub struct View {
    pub pane: Pane,
    pub render: fn(&mut Frame<'_>, Rect, &App, &Theme),
    /// How many rows can be selected.
    pub rows: fn(&App) -> usize,
    /// The selected row (its index) in full.
    pub detail: fn(&App, usize) -> Detail,
    /// The keys the view adds to those of every list, when it has any now.
    pub keys: fn(&App) -> Option<Context>,
}

fn no_keys(_: &App) -> Option<Context> {
    None
}

/// Every view, in the order of [`Pane::VIEWS`].
pub static VIEWS: [View; Pane::VIEWS.len()] = [
    View {
        pane: Pane::Trace,
        render: trace::render,
        rows: |app| app.trace().map_or(0, crate::trace::Trace::len),
        detail: trace::detail,
        // No steps (no trace, or a setter that did not run the parser): no step keys.
        keys: |app| {
            app.trace()
                .is_some_and(|t| !t.is_empty())
                .then_some(Context::Trace)
        },
    },
    View {
        pane: Pane::Components,
        render: components::render,
        rows: App::component_count,
        detail: |app, at| {
            app.component_row(at)
                .as_ref()
                .map(row_detail)
                .unwrap_or_default()
        },
        // Step mode shows a record, not the URL: there is nothing to run a setter on.
        keys: |app| (!app.step_mode).then_some(Context::Components),
    },
    View {
        pane: Pane::Errors,
        render: errors::render,
        rows: |app| app.report.errors.len(),
        detail: errors::detail,
        keys: |_| Some(Context::Errors),
    },
    View {
        pane: Pane::Host,
        render: host::render,
        rows: |app| app.derived.host.len(),
        detail: |app, at| app.derived.host.get(at).map(row_detail).unwrap_or_default(),
        keys: |_| Some(Context::Host),
    },
    View {
        pane: Pane::Resolution,
        render: resolution::render,
        rows: |app| app.derived.resolution.len(),
        detail: |app, at| {
            app.derived
                .resolution
                .get(at)
                .map(row_detail)
                .unwrap_or_default()
        },
        keys: no_keys,
    },
    View {
        pane: Pane::Grammar,
        render: grammar::render,
        rows: |_| 0,
        detail: grammar::detail,
        keys: no_keys,
    },
    View {
        pane: Pane::Parsers,
        render: parsers::render,
        rows: |app| app.parsers.names.len(),
        detail: |app, at| app.parsers.detail(at),
        keys: |_| Some(Context::Parsers),
    },
    View {
        pane: Pane::Pattern,
        render: pattern::render,
        rows: |app| app.pattern.rows(),
        detail: pattern::detail,
        keys: pattern::keys,
    },
];

/// The view that shows `pane` (none for the Input and Base lines).
pub fn view(pane: Pane) -> Option<&'static View> {
    VIEWS.iter().find(|v| v.pane == pane)
}

/// Draws `pane` in `area`.
pub fn render(frame: &mut Frame<'_>, area: Rect, app: &App, pane: Pane, theme: &Theme) {
    match view(pane) {
        Some(v) => (v.render)(frame, area, app, theme),
        None => input::render(frame, area, app, pane, theme),
    }
}

/// How many rows of `pane` can be selected.
pub fn rows(app: &App, pane: Pane) -> usize {
    view(pane).map_or(0, |v| (v.rows)(app))
}

/// A key-value row in full.
fn row_detail(row: &Row) -> Detail {
    let mut fields = vec![(row.key.clone(), row.value.clone())];
    if let Some(note) = &row.note {
        fields.push((String::new(), note.clone()));
    }
    (fields, Some(row.copy.clone()))
}

impl App {
    /// The focused view's selected row in full: the view's title, the (label, value) pairs,
    /// and what `Y` copies.
    pub fn detail(&self) -> (String, Vec<(String, String)>, Option<String>) {
        let pane = self.focus;
        let (fields, copy) = view(pane)
            .map(|v| (v.detail)(self, self.selected(pane)))
            .unwrap_or_default();
        (pane.title().to_owned(), fields, copy)
    }

    /// The keys' contexts now, innermost first.
    pub fn contexts(&self) -> Vec<Context> {
        use Context as C;
        match self.overlays.last() {
            Some(Overlay::Help) if self.help_filtering => {
                return vec![C::HelpFilter, C::Help, C::Always]
            }
            Some(Overlay::Help) => return vec![C::Help, C::Always],
            Some(Overlay::Detail) => return vec![C::Detail, C::Always],
            None => {}
        }
        if self.edit.is_some() {
            return vec![C::Edit, C::Text, C::Global, C::Always];
        }
        if self.focus == Pane::Pattern && self.pattern.editing {
            return vec![C::PatternEdit, C::Text, C::Global, C::Always];
        }
        let Some(view) = view(self.focus) else {
            return vec![C::Text, C::Global, C::Always];
        };
        (view.keys)(self)
            .into_iter()
            .chain([C::List, C::Global, C::Always])
            .collect()
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

/// The block of a pane: the number and title, counts, the border coloured where the focus is.
/// The title is cut with `…` to leave room for the position at the right.
pub fn pane_block<'a>(
    app: &App,
    pane: Pane,
    title: String,
    area: Rect,
    theme: &Theme,
) -> Block<'a> {
    let focused = app.focus == pane && app.overlays.is_empty() && app.edit.is_none();
    let focused = focused || (pane == Pane::Components && app.edit.is_some());
    let room = usize::from(area.width).saturating_sub(14);
    Block::default()
        .borders(Borders::ALL)
        .border_style(theme.border(focused))
        .title(Span::styled(
            format!(" {} ", cut_end(&format!("{} {title}", pane.digit()), room)),
            theme.title(focused),
        ))
}

/// The selection style of a pane: strong where the focus is, dim elsewhere.
pub fn selection(app: &App, pane: Pane, theme: &Theme) -> Style {
    if app.focus == pane {
        theme.selected()
    } else {
        theme.selected_unfocused()
    }
}
