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
