//! The Parsers pane: how other parsers read the same input, one row per parser. The built-in
//! parsers answer with the report; the external runtimes answer in the background and their
//! rows fill in as they arrive. A value that differs from `whatwg`'s is marked `≠`, and the
//! row's note names the confusion class that explains it.

use ratatui::layout::Rect;
use ratatui::Frame;

use crate::diff::Value;

use super::super::app::{class_note, App, Pane, Parsers};
use super::super::derived::show;
use super::super::list::{self, Cell, Item, Spec};
use super::super::theme::Theme;
use super::super::ui::{pane_block, selection};

pub fn render(frame: &mut Frame<'_>, area: Rect, app: &App, theme: &Theme) {
    let parsers = &app.parsers;
    let comparison = parsers.comparison.as_ref();
    let pending = parsers.pending();
    let mut title = "Parsers".to_owned();
    if let Some(c) = comparison {
        let hosts_differ = c.disagreements.iter().any(|d| {
            matches!(
                d.component,
                crate::diff::Component::Host | crate::diff::Component::Failure
            )
        });
        let verdict = if c.agree {
            "agree on the host".to_owned()
        } else if hosts_differ {
            let classes: Vec<&str> = c
                .disagreements
                .iter()
                .filter_map(|d| d.class.map(|class| class.name()))
                .collect();
            if classes.is_empty() {
                "✗ disagree on where it goes".to_owned()
            } else {
                format!("✗ disagree on where it goes: {}", dedup(classes).join(", "))
            }
        } else {
            String::new()
        };
        title = format!("Parsers · {verdict}");
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
                let mut differing = Vec::new();
                for (i, part) in Parsers::COLUMNS.iter().enumerate() {
                    let Value::Text(value) = answer.get(*part) else {
                        continue;
                    };
                    let differs = comparison.is_some_and(|c| c.differs_from_reference(name, *part));
                    let mut style = match value {
                        None | Some("") => theme.dim(),
                        Some(_) => Default::default(),
                    };
                    if differs {
                        style = theme.error();
                        differing.push(format!("{}{}", part.name(), class_note(comparison, *part)));
                    }
                    if row == selected_row && i == selected_column {
                        style = style.add_modifier(ratatui::style::Modifier::UNDERLINED);
                    }
                    let text = match value {
                        None => "null".to_owned(),
                        Some("") => "\"\"".to_owned(),
                        Some(v) => show(v),
                    };
                    let text = if differs { format!("≠{text}") } else { text };
                    cells.push(Cell::styled(text, style));
                }
                let item = Item::new(cells);
                if differing.is_empty() {
                    item
                } else {
                    item.note(format!("≠ whatwg: {}", differing.join(", ")), theme.error())
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

fn dedup(mut names: Vec<&str>) -> Vec<&str> {
    let mut seen = Vec::new();
    names.retain(|n| {
        let new = !seen.contains(n);
        seen.push(*n);
        new
    });
    names
}
