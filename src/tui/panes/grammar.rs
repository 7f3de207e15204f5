//! The Grammar pane: the standard's second definition of validity. Whether the input is a valid
//! URL string by the writing grammar, where that and the parser's validation errors disagree,
//! and the input's path through the grammar as railroad diagrams.

use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::Frame;

use crate::report::grammar::agreement;
use crate::report::grammar::railroad::marked_diagrams;
use crate::report::Outcome;

use super::super::derived::error_text;
use super::super::list::render_doc;
use super::super::model::{App, Pane};
use super::super::railroad::{draw, Mark};
use super::super::theme::Theme;
use super::pane_block;

/// `text` in lines of at most `width` characters, broken at spaces.
fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines = vec![String::new()];
    for word in text.split(' ') {
        let last = lines.last_mut().expect("one line at least");
        if !last.is_empty() && last.chars().count() + 1 + word.chars().count() > width {
            lines.push(word.to_owned());
        } else {
            if !last.is_empty() {
                last.push(' ');
            }
            last.push_str(word);
        }
    }
    lines
}

fn style(mark: Mark, theme: &Theme) -> Style {
    match mark {
        Mark::Off => theme.dim(),
        Mark::On => theme.on_path(),
        Mark::Stop => theme.error(),
    }
}

pub fn render(frame: &mut Frame<'_>, area: Rect, app: &App, theme: &Theme) {
    let block = pane_block(app, Pane::Grammar, "Grammar".to_owned(), area, theme);
    let report = &app.report;
    let writing = &report.writing;
    let verdict = |ok: bool, yes: &'static str, no: &'static str| {
        if ok {
            Span::styled(yes, theme.on_path())
        } else {
            Span::styled(no, theme.error())
        }
    };
    let parser_ok = report.url.is_some() && report.errors.is_empty();
    let mut lines = vec![Line::from(vec![
        Span::raw("writing: "),
        verdict(writing.valid, "valid URL string", "not a valid URL string"),
        Span::raw("   parser: "),
        verdict(
            parser_ok,
            "no validation error",
            if report.url.is_some() {
                "validation errors"
            } else {
                "failure"
            },
        ),
    ])];
    // Sentences wrap at spaces to the pane's width; diagrams do not wrap (a cut shows `…`).
    let width = usize::from(area.width.saturating_sub(2)).max(20);
    if let Outcome::BaseFailure { cause } = &report.outcome {
        let why = cause.as_ref().map_or("failure".to_owned(), error_text);
        let text = format!(
            "The base URL fails to parse ({why}), so the parser never ran on the input: the parser's verdict is the base's failure."
        );
        for line in wrap(
            &crate::display::escape(&text, crate::display::EscapeStyle::Symbols),
            width,
        ) {
            lines.push(Line::styled(line, theme.error()));
        }
    }
    for line in wrap(&agreement(report), width) {
        lines.push(Line::from(line));
    }
    if let (false, Some(position), Some(expected)) =
        (writing.valid, writing.position, &writing.expected)
    {
        for (i, line) in wrap(&format!("at {position}: {expected}"), width)
            .into_iter()
            .enumerate()
        {
            lines.push(if i == 0 {
                Line::styled(line, theme.error())
            } else {
                Line::from(line)
            });
        }
    }
    // The productions, wrapped between names.
    let mut current = String::new();
    for name in &writing.production_path {
        let piece = if current.is_empty() {
            (*name).to_owned()
        } else {
            format!(" › {name}")
        };
        if !current.is_empty() && current.chars().count() + piece.chars().count() > width {
            lines.push(Line::styled(std::mem::take(&mut current), theme.dim()));
            current = format!("› {name}");
        } else {
            current.push_str(&piece);
        }
    }
    if !current.is_empty() {
        lines.push(Line::styled(current, theme.dim()));
    }
    for diagram in marked_diagrams(writing) {
        lines.push(Line::from(""));
        lines.push(Line::styled(format!("{}:", diagram.name), theme.dim()));
        for row in draw(&diagram.rail).rows {
            let mut spans: Vec<Span<'_>> = Vec::new();
            let mut run = String::new();
            let mut run_mark = None;
            for (c, mark) in row {
                if run_mark.is_some_and(|m| m != mark) {
                    spans.push(Span::styled(
                        std::mem::take(&mut run),
                        style(run_mark.unwrap_or(Mark::Off), theme),
                    ));
                }
                run_mark = Some(mark);
                run.push(c);
            }
            if let Some(mark) = run_mark {
                spans.push(Span::styled(run, style(mark, theme)));
            }
            lines.push(Line::from(spans));
        }
    }
    let lines: Vec<Line<'static>> = lines.into_iter().map(owned_line).collect();
    render_doc(
        frame,
        area,
        block,
        lines,
        &app.lists[Pane::Grammar.index()].offset,
        theme,
    );
}

fn owned_line(line: Line<'_>) -> Line<'static> {
    Line::from(
        line.spans
            .into_iter()
            .map(|s| Span::styled(s.content.into_owned(), s.style))
            .collect::<Vec<_>>(),
    )
    .style(line.style)
}

/// The writing grammar's verdict in full: the agreement, where it stops and what it expected,
/// and the productions it went through.
pub fn detail(app: &App, _: usize) -> super::Detail {
    let writing = &app.report.writing;
    let mut fields = vec![("agreement".to_owned(), agreement(&app.report))];
    if let (Some(p), Some(e)) = (writing.position, &writing.expected) {
        fields.push(("stops".to_owned(), format!("at {p}: {e}")));
    }
    fields.push(("path".to_owned(), writing.production_path.join(" › ")));
    let copy = fields.first().map(|f| f.1.clone());
    (fields, copy)
}
