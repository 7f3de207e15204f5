//! The Validation errors pane: the standard's name, where, which state, what it means, and
//! whether browsers accept the URL with it.
//! Selecting one moves the trace to the step that raised it.

use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::widgets::Paragraph;
use ratatui::Frame;

use super::super::derived::{browsers, error_text, show};
use super::super::list::{self, Cell, Item, Spec};
use super::super::model::{App, Pane};
use super::super::theme::Theme;
use super::{pane_block, selection};

pub fn render(frame: &mut Frame<'_>, area: Rect, app: &App, theme: &Theme) {
    let errors = &app.report.errors;
    // Every error raised, the repeats folded into one entry counted too.
    let raised: usize = errors.iter().map(crate::ValidationError::count).sum();
    let title = match raised == errors.len() {
        true => format!("Validation errors ({raised})"),
        false => format!("Validation errors ({raised}, {} entries)", errors.len()),
    };
    let block = pane_block(app, Pane::Errors, title, area, theme);
    if errors.is_empty() {
        let text = if app.report.url.is_some() || app.report.trace.is_some() {
            "none: the parser raised no validation error"
        } else {
            "none: the parser did not run on the input"
        };
        frame.render_widget(
            Paragraph::new(Line::styled(text, theme.dim())).block(block),
            area,
        );
        return;
    }
    let state = &app.lists[Pane::Errors.index()];
    let why = app.report.not_a_url();
    let mut fetch = |range: std::ops::Range<usize>| {
        let start = range.start;
        errors[range]
            .iter()
            .enumerate()
            .map(|(i, e)| {
                Item::new(vec![
                    Cell::styled(e.kind.name(), theme.error()),
                    Cell::new(where_in_words(e)),
                    Cell::styled(e.state.to_string(), theme.dim()),
                ])
                .note(show(e.message), Default::default())
                .note(browsers(errors, start + i, why.as_ref()), theme.dim())
            })
            .collect()
    };
    list::render(
        frame,
        area,
        block,
        &Spec {
            header: None,
            max_share: &[50, 20],
        },
        errors.len(),
        state,
        &mut fetch,
        selection(app, Pane::Errors, theme),
        theme,
    );
}

/// Where `e` is: its span, and for the entry of repeats past the limit their count and the
/// last one's span.
fn where_in_words(e: &crate::validation::ValidationError) -> String {
    match e.repeats {
        Some(r) => format!("{}..{} {r}", e.span.start, e.span.end),
        None => format!("{}..{}", e.span.start, e.span.end),
    }
}

/// What `f` would do about `e`, in words.
pub fn fix_in_words(app: &App, e: &crate::validation::ValidationError) -> String {
    if let Some(r) = e.repeats {
        return format!(
            "none here: this entry stands for {} errors of its kind, past the first {}",
            r.count,
            crate::validation::REPEAT_LIMIT
        );
    }
    let input = app.input.text();
    let fixer = crate::validation::fix::Fixer::new(
        input,
        app.report.url.as_ref().map(crate::Url::record),
        app.report.host_span,
    )
    .with_base(app.report.base_url.as_ref());
    match fixer.fix(e) {
        Some(fix) => format!(
            "f rewrites the Input: {}{}",
            edits_in_words(input, &fix),
            if fix.same_href {
                ""
            } else {
                "; the href changes"
            }
        ),
        None if app.report.url.is_none() => match app.report.not_a_url() {
            // The failure's fix, the one `f` applies to an input that is not a URL.
            Some(why) => match &why.fix {
                Some(fix) => format!(
                    "f makes the Input a URL ({}): {}",
                    why.step,
                    edits_in_words(input, fix)
                ),
                None => format!(
                    "none: no rewrite is known that makes it parse ({})",
                    why.step
                ),
            },
            None => "none: the input does not parse, so no rewrite keeps its meaning".to_owned(),
        },
        None => "none: only a change of the URL's meaning would remove it".to_owned(),
    }
}

/// A fix's edits of `input` in words, as the pane describes them (see [`Fix::in_words`]).
///
/// [`Fix::in_words`]: crate::validation::Fix::in_words
pub fn edits_in_words(input: &str, fix: &crate::validation::Fix) -> String {
    fix.in_words(input, "removed")
}

/// The selected error in full: its name, where, the state, what it means, what browsers do,
/// and what `f` would do about it.
pub fn detail(app: &App, at: usize) -> super::Detail {
    app.report
        .errors
        .get(at)
        .map(|e| {
            (
                vec![
                    ("error".to_owned(), e.kind.name().to_owned()),
                    ("where".to_owned(), where_in_words(e)),
                    ("state".to_owned(), e.state.to_string()),
                    ("meaning".to_owned(), show(e.message)),
                    (
                        "effect".to_owned(),
                        browsers(&app.report.errors, at, app.report.not_a_url().as_ref()),
                    ),
                    ("fix".to_owned(), fix_in_words(app, e)),
                ],
                Some(error_text(e)),
            )
        })
        .unwrap_or_default()
}
