//! urlscope's engine for the classroom page (`web/`), compiled to WebAssembly.
//!
//! The page calls these functions through wasm-bindgen; each returns the page's model as JSON
//! text, which the page renders in the DOM. The functions are plain Rust, so the model is tested
//! natively as well as in the browser.
//!
//! The last report is kept (one per thread: the page's Web Worker has its own), so that
//! stepping through the trace of a long input does not parse it again.

pub mod model;

use std::cell::RefCell;

use serde::Serialize;
use urlscope::report::Report;
use wasm_bindgen::prelude::*;

use model::{Page, StepDetail, TraceRow, TRACE_WINDOW};

/// The version of the engine, as `urlscope --version` gives it.
#[wasm_bindgen]
pub fn version() -> String {
    env!("CARGO_PKG_VERSION").to_owned()
}

thread_local! {
    /// The last report, with the input and base it was made from.
    static LAST: RefCell<Option<Report>> = const { RefCell::new(None) };
}

/// Runs `f` on the report of `input` against `base`, parsing only when they changed.
fn with_report<R>(input: &str, base: Option<&str>, f: impl FnOnce(&Report) -> R) -> R {
    LAST.with(|last| {
        let mut last = last.borrow_mut();
        let fresh = last
            .as_ref()
            .is_some_and(|r| r.input == input && r.base.as_deref() == base);
        if !fresh {
            *last = Some(model::report(input, base));
        }
        f(last.as_ref().expect("just made"))
    })
}

fn json(value: &impl Serialize) -> String {
    // The model holds strings, numbers and lists only: serializing it cannot fail.
    serde_json::to_string(value).unwrap_or_else(|e| format!("{{\"error\":{:?}}}", e.to_string()))
}

/// The page's model of `input` against `base` (see [`model::Page`]) as JSON.
#[wasm_bindgen]
pub fn inspect(input: &str, base: Option<String>) -> String {
    with_report(input, base.as_deref(), |report| json(&Page::of(report)))
}

/// Everything one screen shows: the page's model, the trace rows around `step` (at most
/// [`TRACE_WINDOW`]), and that step in full.
#[derive(Debug, Serialize)]
pub struct Screen {
    pub page: Page,
    /// The step shown (`step` clamped to the trace).
    pub step: usize,
    pub rows: Vec<TraceRow>,
    pub detail: Option<StepDetail>,
}

/// The screen for `input` against `base` with the Trace on `step`.
pub fn screen_of(input: &str, base: Option<&str>, step: usize) -> Screen {
    with_report(input, base, |report| {
        let (step, rows, detail) = match &report.trace {
            Some(trace) if !trace.is_empty() => {
                let step = step.min(trace.len() - 1);
                let from = step
                    .saturating_sub(TRACE_WINDOW / 2)
                    .min(trace.len().saturating_sub(TRACE_WINDOW));
                (
                    step,
                    model::trace_rows(trace, from, from + TRACE_WINDOW),
                    model::step_detail(trace, step),
                )
            }
            _ => (0, Vec::new(), None),
        };
        Screen {
            page: Page::of(report),
            step,
            rows,
            detail,
        }
    })
}

/// [`screen_of`] as JSON.
#[wasm_bindgen]
pub fn screen(input: &str, base: Option<String>, step: usize) -> String {
    json(&screen_of(input, base.as_deref(), step))
}

/// The `urlscope` command that opens the same view in a terminal.
#[wasm_bindgen]
pub fn command(
    input: &str,
    base: Option<String>,
    view: &str,
    step: Option<usize>,
    pattern: Option<String>,
) -> String {
    model::command(input, base.as_deref(), view, step, pattern.as_deref())
}

/// The href `input` parses to against no base, or `None`: the benchmark's parse + href,
/// without the trace.
#[wasm_bindgen]
pub fn href(input: &str) -> Option<String> {
    urlscope::Url::parse(input, None)
        .ok()
        .map(|u| u.href().to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_screen_clamps_its_step_and_shows_the_rows_around_it() {
        let screen = screen_of("file://c:/x", None, 999);
        assert_eq!(screen.step, 14, "the last of 15 steps");
        assert_eq!(screen.rows.len(), 15);
        assert_eq!(screen.detail.as_ref().map(|d| d.row.index), Some(14));
        // A long input: the window of rows is TRACE_WINDOW long and holds the step.
        let input = format!("http://h/{}", "a".repeat(1000));
        let screen = screen_of(&input, None, 500);
        assert_eq!(screen.rows.len(), TRACE_WINDOW);
        assert!(screen.rows.iter().any(|r| r.index == 500));
        assert_eq!(screen.rows[0].index, 500 - TRACE_WINDOW / 2);
    }

    #[test]
    fn the_last_report_is_kept_for_the_next_step_and_replaced_for_a_new_input() {
        let first = screen_of("http://a/", Some("http://b/"), 3);
        let again = screen_of("http://a/", Some("http://b/"), 4);
        assert_eq!((first.step, again.step), (3, 4));
        let other = screen_of("http://a/", None, 4);
        assert!(other.page.base.is_none());
        LAST.with(|last| {
            let last = last.borrow();
            let report = last.as_ref().expect("kept");
            assert_eq!(
                (report.input.as_str(), report.base.as_deref()),
                ("http://a/", None)
            );
        });
    }
}
