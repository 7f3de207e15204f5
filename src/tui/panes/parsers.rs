//! The Parsers pane: how other parsers read the same input, one row per parser. The built-in
//! parsers answer with the report; the external runtimes answer in the background and their
//! rows fill in as they arrive. A value that differs from `whatwg`'s is marked `≠`, and the
//! row's note names the confusion class that explains it; one that only spells the same
//! destination otherwise (letter case, a default port) is marked `≈`, without alarm. The title
//! gives the verdict `diff` gives ([`crate::diff::decide`]): the parsers agree on where the URL
//! goes, some refuse it while the others agree, or they go elsewhere.

use ratatui::layout::Rect;
use ratatui::Frame;

use crate::diff::{Comparison, Mark, Value, Verdict};

use super::super::derived::show;
use super::super::list::{self, Cell, Item, Spec};
use super::super::model::{App, Pane, Parsers};
use super::super::theme::Theme;
use super::{pane_block, selection};

pub fn render(frame: &mut Frame<'_>, area: Rect, app: &App, theme: &Theme) {
    let parsers = &app.parsers;
    let comparison = parsers.comparison.as_ref();
    let pending = parsers.pending();
    let mut title = "Parsers".to_owned();
    // With answers still out, "nothing to compare" may only mean "not yet".
    if let Some(c) =
        comparison.filter(|c| c.verdict() != Verdict::NothingToCompare || pending.is_empty())
    {
        title = format!("Parsers · {}", verdict(c));
    }
    if !pending.is_empty() {
        title = format!("{title} · {} waiting", pending.len());
    }
    let block = pane_block(app, Pane::Parsers, title, area, theme);
    let selected_column = parsers.column.min(Parsers::COLUMNS.len() - 1);
    let header: Vec<String> = std::iter::once("parser".to_owned())
        .chain(Parsers::COLUMNS.iter().enumerate().map(|(i, part)| {
            let name = match part {
                crate::diff::Component::Username => "user",
                crate::diff::Component::Password => "pass",
                crate::diff::Component::Fragment => "frag",
                other => other.name(),
            };
            if i == selected_column {
                format!("[{name}]")
            } else {
                name.to_owned()
            }
        }))
        .collect();
    let header: Vec<&str> = header.iter().map(String::as_str).collect();
    let selected_row = app.selected(Pane::Parsers);
    let mut fetch = |range: std::ops::Range<usize>| {
        range
            .map(|row| {
                let name = &parsers.names[row];
                let mut cells = vec![Cell::new(name.clone())];
                let Some((_, answer)) = parsers.answer(row) else {
                    return Item::new(cells).note("waiting for its answer", theme.dim());
                };
                if !answer.available {
                    return Item::new(cells).note(
                        format!(
                            "unavailable: {}",
                            show(answer.error.as_deref().unwrap_or(""))
                        ),
                        theme.dim(),
                    );
                }
                if answer.failure {
                    let marked = comparison.is_some_and(|c| {
                        c.differs_from_reference(name, crate::diff::Component::Failure)
                    });
                    cells[0] = Cell::styled(
                        name.clone(),
                        if marked {
                            theme.error()
                        } else {
                            Default::default()
                        },
                    );
                    return Item::new(cells).note(
                        format!(
                            "{}fails: {}",
                            if marked { "≠ " } else { "" },
                            show(answer.error.as_deref().unwrap_or(""))
                        ),
                        theme.error(),
                    );
                }
                // The note is in the error's colour when a value differs, not only in spelling.
                let mut differs = false;
                for (i, part) in Parsers::COLUMNS.iter().enumerate() {
                    let Value::Text(value) = answer.get(*part) else {
                        continue;
                    };
                    let mark = comparison.and_then(|c| c.mark(name, *part));
                    let mut style = match value {
                        None | Some("") => theme.dim(),
                        Some(_) => Default::default(),
                    };
                    if matches!(mark, Some(Mark::Differs(_))) {
                        differs = true;
                        style = theme.error();
                    }
                    if row == selected_row && i == selected_column {
                        style = style.add_modifier(ratatui::style::Modifier::UNDERLINED);
                    }
                    let text = match value {
                        None => "null".to_owned(),
                        Some("") => "\"\"".to_owned(),
                        Some(v) => show(v),
                    };
                    let text = match mark {
                        Some(mark) => format!("{}{text}", mark.sign()),
                        None => text,
                    };
                    cells.push(Cell::styled(text, style));
                }
                let mut notes: Vec<String> = comparison
                    .and_then(|c| c.marks_note(name))
                    .into_iter()
                    .collect();
                if name == "curl" && crate::diff::builtin::LIBCURL_BUNDLED {
                    notes.push(format!(
                        "libcurl {}: no system libcurl was found at build time",
                        show(answer.version.as_deref().unwrap_or(""))
                    ));
                }
                let item = Item::new(cells);
                match (notes.is_empty(), differs) {
                    (true, _) => item,
                    (false, false) => item.note(notes.join("; "), theme.dim()),
                    (false, true) => item.note(notes.join("; "), theme.error()),
                }
            })
            .collect()
    };
    list::render(
        frame,
        area,
        block,
        &Spec {
            header: Some(&header),
            max_share: &[14, 10, 8, 8, 20, 7, 16, 10],
        },
        parsers.names.len(),
        &app.lists[Pane::Parsers.index()],
        &mut fetch,
        selection(app, Pane::Parsers, theme),
        theme,
    );
}

/// The title's verdict on where the URL goes, in `diff`'s terms (the page's Parsers view gives
/// the same words).
fn verdict(c: &Comparison) -> String {
    c.headline()
}
