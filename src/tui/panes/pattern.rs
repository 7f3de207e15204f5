//! The Pattern view: a URL pattern (URL Pattern Standard) matched against the Input. The
//! pattern line on top; whether the input matches, and if not the first component that failed
//! and why; a row per component with its pattern string, its regular expression, the input's
//! value and the groups; then the constructor string parser's steps, with the selected row
//! explained in a strip under the list, as in the Trace pane.

use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph};
use ratatui::Frame;

use crate::urlpattern::{ConstructorStep, InputOutcomeReport, PatternReport};

use super::super::derived::show;
use super::super::keys::Context;
use super::super::list::{self, cut_end, cut_start, Cell, Item, Spec};
use super::super::model::{App, Pane, PatternRow};
use super::super::theme::Theme;
use super::trace::{links_in, wrap_with_ellipsis};
use super::{pane_block, selection, Detail};

/// The section of the URL Pattern Standard the constructor string parser's steps cite.
const CONSTRUCTOR_SECTION: &str = "https://urlpattern.spec.whatwg.org/#parse-a-constructor-string";

/// Lines above the list: the pattern line, the verdict, the second reading.
const HEAD_LINES: u16 = 3;

/// What the pattern line shows before anything is typed.
const PLACEHOLDER: &str = "Enter types a pattern, e.g. https://*.example.com/books/:id";

/// The view's keys (while the pattern line is edited, the contexts are the line's).
pub fn keys(_: &App) -> Option<Context> {
    Some(Context::Pattern)
}

/// Whether `report`'s input matched: `Some(true)`, `Some(false)`, or `None` when it threw or
/// there is no input.
fn verdict(report: &PatternReport) -> (Option<bool>, String) {
    let Some(input) = &report.input else {
        return (
            None,
            "no input: type a URL in the Input line (1) to match it".to_owned(),
        );
    };
    match &input.outcome {
        outcome @ InputOutcomeReport::Error(e) if outcome.cut_at_time_limit() => (
            None,
            format!("no answer: urlscope stopped the match at its time limit ({e})"),
        ),
        InputOutcomeReport::Error(e) => (None, format!("the input throws a TypeError: {e}")),
        InputOutcomeReport::NotAUrl(why) => {
            (Some(false), format!("no match: {why} (exec returns null)"))
        }
        InputOutcomeReport::Matched {
            first_failure: None,
            ..
        } => (Some(true), "match: every component matches".to_owned()),
        InputOutcomeReport::Matched {
            components,
            first_failure: Some(name),
        } => {
            let why = components
                .iter()
                .find(|c| c.name == *name)
                .and_then(|c| c.why.clone())
                .unwrap_or_else(|| format!("the {} does not match", name.name()));
            (Some(false), format!("no match: {why}"))
        }
    }
}

pub fn render(frame: &mut Frame<'_>, area: Rect, app: &App, theme: &Theme) {
    let state = &app.pattern;
    let title = if state.ignore_case {
        "URL pattern · ignoreCase"
    } else {
        "URL pattern"
    };
    let block = pane_block(app, Pane::Pattern, title.to_owned(), area, theme);
    let inner = block.inner(area);
    frame.render_widget(block, area);
    if inner.height == 0 || inner.width == 0 {
        return;
    }
    let width = usize::from(inner.width);
    // The pattern line: the end stays in view while typing, as in the Input line.
    let label = "pattern ";
    let room = width.saturating_sub(label.len() + 1);
    let text = show(state.editor.text());
    let pattern_line = if state.editing {
        let before: String = state
            .editor
            .text()
            .chars()
            .take(state.editor.cursor())
            .collect();
        let before = cut_start(&show(&before), room.saturating_sub(1));
        let after: String = state
            .editor
            .text()
            .chars()
            .skip(state.editor.cursor())
            .collect();
        let after_room = room.saturating_sub(list::width(&before) + 1);
        let after = cut_end(&show(&after), after_room);
        Line::from(vec![
            Span::styled(label, theme.title(true)),
            Span::raw(before),
            Span::styled("▏", theme.title(true)),
            Span::raw(after),
        ])
    } else if text.is_empty() {
        Line::from(vec![
            Span::styled(label, theme.dim()),
            Span::styled(cut_end(PLACEHOLDER, room), theme.dim()),
        ])
    } else {
        Line::from(vec![
            Span::styled(label, theme.dim()),
            Span::raw(cut_end(&text, room)),
        ])
    };
    let (verdict_line, reading_line) = match &state.report {
        None => (
            Line::styled(
                cut_end(
                    "The pattern is matched against the Input, with the Base as both base URLs.",
                    width,
                ),
                theme.dim(),
            ),
            Line::from(""),
        ),
        Some(report) => {
            let (matched, words) = verdict(report);
            let words = match &report.compiled {
                Err(e) => format!("the pattern throws a TypeError: {e}"),
                Ok(_) => words,
            };
            let style = match (&report.compiled, matched) {
                (Err(_), _) | (_, Some(false)) => theme.error(),
                (_, Some(true)) => theme.ok(),
                _ => theme.dim(),
            };
            let mark = match (&report.compiled, matched) {
                (Err(_), _) | (_, Some(false)) => "✗ ",
                (_, Some(true)) => "✓ ",
                _ => "",
            };
            let (said, differs) = readings(app, report);
            let reading_style = if differs { theme.warn() } else { theme.dim() };
            (
                Line::styled(cut_end(&show(&format!("{mark}{words}")), width), style),
                Line::styled(cut_end(&show(&said), width), reading_style),
            )
        }
    };
    let head_height = HEAD_LINES.min(inner.height);
    let head = Rect {
        height: head_height,
        ..inner
    };
    frame.render_widget(
        Paragraph::new(vec![pattern_line, verdict_line, reading_line]),
        head,
    );
    let rest = Rect {
        y: inner.y + head_height,
        height: inner.height - head_height,
        ..inner
    };
    let total = state.rows();
    if total == 0 || rest.height == 0 {
        return;
    }
    let list_state = &app.lists[Pane::Pattern.index()];
    let selected = list_state.selected.min(total - 1);
    // The strip explaining the selected row, when the list keeps a few rows beside it.
    let sentences = strip(app, selected);
    let strip_height = if rest.height >= 12 {
        let lines = wrap_with_ellipsis(&sentences, width, usize::MAX).len() as u16;
        (lines + 1).clamp(3, rest.height / 3)
    } else {
        0
    };
    let list_area = Rect {
        height: rest.height - strip_height,
        ..rest
    };
    let mut fetch = |range: std::ops::Range<usize>| {
        range
            .filter_map(|i| state.row(i).map(|row| item(row, theme)))
            .collect()
    };
    // The list's scrollbar goes on the pane's right border, as in the other panes: the list
    // reaches over it with a right border of its own drawn in the same place.
    let focused = app.focus == Pane::Pattern && app.overlays.is_empty() && app.edit.is_none();
    list::render(
        frame,
        Rect {
            width: list_area.width + 1,
            ..list_area
        },
        Block::default()
            .borders(Borders::RIGHT)
            .border_style(theme.border(focused)),
        &Spec {
            header: Some(&["", "component", "pattern", "input's value", "groups"]),
            max_share: &[3, 14, 30, 30],
        },
        total,
        list_state,
        &mut fetch,
        selection(app, Pane::Pattern, theme),
        theme,
    );
    // Clicks count lines from the pane's border: the head's lines select nothing.
    let mut lines = list_state.lines.borrow_mut();
    lines.splice(0..0, std::iter::repeat_n(None, usize::from(head_height)));
    drop(lines);
    if strip_height > 0 {
        let area = Rect {
            y: list_area.y + list_area.height,
            height: strip_height,
            ..rest
        };
        let block = Block::default()
            .borders(Borders::TOP)
            .border_style(theme.dim());
        let inner = block.inner(area);
        let lines = wrap_with_ellipsis(
            &sentences,
            usize::from(inner.width),
            usize::from(inner.height),
        );
        app.links
            .borrow_mut()
            .extend(links_in(&lines, "§", CONSTRUCTOR_SECTION, inner.x, inner.y));
        frame.render_widget(Paragraph::new(lines.join("\n")).block(block), area);
    }
}

/// The second readings in words (the `urlpattern` crate's, then Node's where it is asked),
/// and whether one of them differs from ours.
fn readings(app: &App, report: &PatternReport) -> (String, bool) {
    let reading = &report.second_reading;
    let mut said = match reading.agrees {
        Some(true) => format!("{}: agrees", reading.reader),
        Some(false) => format!("{}: differs: {}", reading.reader, reading.summary),
        None => format!(
            "{}: no second reading ({})",
            reading.reader, reading.summary
        ),
    };
    let mut differs = reading.agrees == Some(false);
    let ours_cut = report
        .input
        .as_ref()
        .is_some_and(|i| i.outcome.cut_at_time_limit());
    if let Some(node) = &app.pattern.node {
        let words = match node.answer() {
            // Differs only where both answered; where Node did not, why it did not.
            Some(answer) if ours_cut && answer["available"] == true => {
                "node: no comparison (ours stopped at the time limit)".to_owned()
            }
            Some(answer) => {
                let (agrees, words) =
                    crate::urlpattern::node_reading::in_words(answer, &report.comparable_answer());
                differs |= agrees == Some(false);
                words
            }
            None if node.pending() => "node: asking…".to_owned(),
            None => "node: not asked (the input is not a URL nor a URLPatternInit)".to_owned(),
        };
        said.push_str(" · ");
        said.push_str(&words);
    }
    (said, differs)
}

/// A row of the list.
fn item(row: PatternRow<'_>, theme: &Theme) -> Item {
    match row {
        PatternRow::Component(component, matched) => {
            let (mark, style) = match matched.map(|m| m.groups.is_some()) {
                Some(true) => ("✓", theme.ok()),
                Some(false) => ("✗", theme.error()),
                None => ("", Default::default()),
            };
            let value = matched.map_or(String::new(), |m| show(&quote(&m.value)));
            let groups = matched
                .and_then(|m| m.groups.as_ref())
                .map_or(String::new(), |g| show(&groups_text(g)));
            let mut item = Item::new(vec![
                Cell::styled(mark, style),
                Cell::new(component.name.name()),
                Cell::new(show(&component.pattern_string)),
                Cell::new(value),
                Cell::new(groups),
            ])
            .note(
                show(&format!("/{}/{}", component.regexp, component.flags)),
                theme.dim(),
            );
            if let Some(why) = matched.and_then(|m| m.why.as_deref()) {
                item = item.note(show(why), theme.error());
            }
            item
        }
        PatternRow::Error(e) => Item::new(vec![
            Cell::styled("✗", theme.error()),
            Cell::styled("error", theme.error()),
            Cell::new(show(e)),
        ])
        .wrapped(),
        // Under its row, as a component's notes: a sentence in a cell would widen the column.
        PatternRow::Hint(hint) => Item::new(vec![
            Cell::styled("!", theme.warn()),
            Cell::styled("hint", theme.warn()),
        ])
        .note(show(hint), theme.warn()),
        // The constructor string parser's steps follow, under their own column names.
        PatternRow::Heading => Item::new(vec![
            Cell::styled("#", theme.dim()),
            Cell::styled("parser state", theme.dim()),
            Cell::styled("token", theme.dim()),
            Cell::styled("sets", theme.dim()),
        ]),
        PatternRow::Step(index, step) => {
            let state = if step.state == step.next_state {
                step.state.name().to_owned()
            } else {
                format!("{} → {}", step.state.name(), step.next_state.name())
            };
            Item::new(vec![
                Cell::new(index.to_string()),
                Cell::new(state),
                Cell::new(show(&format!(
                    "{} {}",
                    step.token.kind.name(),
                    quote(&step.token.value)
                ))),
                Cell::new(show(&set_text(step))),
            ])
        }
    }
}

/// In double quotes as it is: a pattern's `\d` shown as typed (JSON would double the
/// backslash); `show` escapes what the terminal must not get.
fn quote(s: &str) -> String {
    crate::urlpattern::Quoted(s).to_string()
}

fn groups_text(groups: &crate::urlpattern::Groups) -> String {
    groups
        .iter()
        .map(|(name, value)| match value {
            Some(v) => format!("{name} = {}", quote(v)),
            None => format!("{name} = undefined"),
        })
        .collect::<Vec<_>>()
        .join(", ")
}

fn set_text(step: &ConstructorStep) -> String {
    step.set
        .iter()
        .map(|(c, v)| format!("{} = {}", c.name(), quote(v)))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The sentences of the strip for row `row`: a step's place in the standard and why it does
/// what it does; a component's regular expression and, for the first that failed, why.
fn strip(app: &App, row: usize) -> Vec<String> {
    match app.pattern.row(row) {
        Some(PatternRow::Step(index, step)) => {
            let mut out = vec![format!(
                "Step {index}: the {} token {} in the {} state.",
                step.token.kind.name(),
                quote(&step.token.value),
                step.state.name()
            )];
            out.push(format!(
                "§ {}: {}.",
                step.action.citation(),
                step.action.explanation()
            ));
            if step.state != step.next_state {
                out.push(format!("Next: the {} state.", step.next_state.name()));
            }
            if !step.set.is_empty() {
                out.push(format!("Sets {}.", set_text(step)));
            }
            out.iter().map(|s| show(s)).collect()
        }
        Some(PatternRow::Component(component, matched)) => {
            let mut out = vec![format!(
                "The {} pattern {} compiles to /{}/{}{}.",
                component.name.name(),
                quote(&component.pattern_string),
                component.regexp,
                component.flags,
                if component.group_names.is_empty() {
                    String::new()
                } else {
                    format!(", groups {}", component.group_names.join(", "))
                }
            )];
            if let Some(why) = matched.and_then(|m| m.why.as_deref()) {
                out.push(why.to_owned());
            }
            out.iter().map(|s| show(s)).collect()
        }
        Some(PatternRow::Heading) => {
            let report = app.pattern.report.as_ref();
            vec![if report.is_some_and(|r| r.is_init) {
                "The pattern is a URLPatternInit (JSON): the constructor string parser does not run."
                    .to_owned()
            } else {
                format!(
                    "The constructor string parser splits the pattern into components, one token at a time: {} steps.",
                    report.map_or(0, |r| r.steps.len())
                )
            }]
        }
        Some(PatternRow::Error(e)) => {
            vec![show(&format!("The constructor throws a TypeError: {e}"))]
        }
        Some(PatternRow::Hint(hint)) => vec![show(hint)],
        None => Vec::new(),
    }
}

/// The selected row in full.
pub fn detail(app: &App, at: usize) -> Detail {
    let Some(row) = app.pattern.row(at) else {
        return Default::default();
    };
    let mut fields: Vec<(String, String)> = Vec::new();
    let copy = match row {
        PatternRow::Component(component, matched) => {
            fields.push(("component".to_owned(), component.name.name().to_owned()));
            fields.push((
                "pattern".to_owned(),
                show(&quote(&component.pattern_string)),
            ));
            fields.push((
                "regexp".to_owned(),
                show(&format!("/{}/{}", component.regexp, component.flags)),
            ));
            if !component.group_names.is_empty() {
                fields.push(("group names".to_owned(), component.group_names.join(", ")));
            }
            if let Some(m) = matched {
                fields.push(("value".to_owned(), show(&quote(&m.value))));
                fields.push((
                    "matches".to_owned(),
                    match &m.groups {
                        Some(g) if g.is_empty() => "yes".to_owned(),
                        Some(g) => format!("yes: {}", show(&groups_text(g))),
                        None => "no".to_owned(),
                    },
                ));
                if let Some(why) = &m.why {
                    fields.push(("why".to_owned(), show(why)));
                }
            }
            Some(component.pattern_string.clone())
        }
        PatternRow::Error(e) => {
            fields.push(("error".to_owned(), show(e)));
            Some(e.to_owned())
        }
        PatternRow::Hint(hint) => {
            fields.push(("hint".to_owned(), show(hint)));
            Some(hint.to_owned())
        }
        PatternRow::Heading => {
            fields.extend(strip(app, at).into_iter().map(|s| (String::new(), s)));
            None
        }
        PatternRow::Step(index, step) => {
            fields.extend([
                ("step".to_owned(), index.to_string()),
                (
                    "token".to_owned(),
                    format!(
                        "{} {} at {}",
                        step.token.kind.name(),
                        show(&quote(&step.token.value)),
                        step.token.index
                    ),
                ),
                ("state".to_owned(), step.state.name().to_owned()),
                ("next state".to_owned(), step.next_state.name().to_owned()),
            ]);
            if !step.set.is_empty() {
                fields.push(("sets".to_owned(), show(&set_text(step))));
            }
            fields.push((
                "spec".to_owned(),
                format!(
                    "§ {}: {} <{CONSTRUCTOR_SECTION}>",
                    step.action.citation(),
                    step.action.explanation()
                ),
            ));
            Some(format!("{index} {}", step.state.name()))
        }
    };
    // Every row ends with the pattern and the readings in full: the view's lines cut them.
    if let Some(report) = &app.pattern.report {
        fields.push(("pattern line".to_owned(), show(&report.pattern)));
        for reading in readings(app, report).0.split(" · ") {
            fields.push(("reading".to_owned(), show(reading)));
        }
    }
    (fields, copy)
}
