//! urlscope's engine for the classroom page (`web/`), compiled to WebAssembly.
//!
//! The page calls these functions through wasm-bindgen; each returns the page's model as JSON
//! text, which the page renders in the DOM. The functions are plain Rust, so the model is tested
//! natively as well as in the browser.
//!
//! The last report is kept (one per thread: the page's Web Worker has its own), so that
//! stepping through the trace of a long input does not parse it again.
//!
//! The URL API functions ([`parse`], [`can_parse`], [`set`]) are the URL Standard's `URL` class
//! on urlscope's engine: the browser tests run the web-platform-tests' URL data through them
//! inside the browser (tests/web/wpt.test.mjs), so the page's engine is the command line's.

pub mod model;

use std::cell::RefCell;

use serde::Serialize;
use serde_json::{Map, Value};
use urlscope::report::Report;
use urlscope::url::Component;
use urlscope::Url;
use wasm_bindgen::prelude::*;

use model::{Page, StepDetail, TraceRow, TRACE_WINDOW};

// The views of the page beyond its shell: each exports a `view_…` function (see web/views/).
pub mod grammar;
pub mod host;
pub mod lessons;
pub mod parsers;
pub mod pattern;
pub mod resolution;

/// The Base line as the inspector reads it: empty is no base.
pub(crate) fn base_of(base: Option<&str>) -> Option<&str> {
    base.filter(|b| !b.is_empty())
}

/// The version of the engine, as `urlscope --version` gives it.
#[wasm_bindgen]
pub fn version() -> String {
    env!("CARGO_PKG_VERSION").to_owned()
}

/// The last report, and what of its screen does not depend on the Trace's step.
#[derive(Debug)]
struct Last {
    /// The report, with the input and base it was made from.
    report: Report,
    /// Its [`Page`] as JSON, made when a screen first asks for it: stepping through the
    /// trace changes only the rows and the step in full.
    page: Option<String>,
}

thread_local! {
    static LAST: RefCell<Option<Last>> = const { RefCell::new(None) };
}

/// Runs `f` on the last report, made again only when `input` or `base` changed.
fn with_last<R>(input: &str, base: Option<&str>, f: impl FnOnce(&mut Last) -> R) -> R {
    LAST.with(|last| {
        let mut last = last.borrow_mut();
        let fresh = last
            .as_ref()
            .is_some_and(|l| l.report.input == input && l.report.base.as_deref() == base);
        if !fresh {
            *last = Some(Last {
                report: model::report(input, base),
                page: None,
            });
        }
        f(last.as_mut().expect("just made"))
    })
}

/// Runs `f` on the report of `input` against `base`, parsing only when they changed.
fn with_report<R>(input: &str, base: Option<&str>, f: impl FnOnce(&Report) -> R) -> R {
    with_last(input, base, |last| f(&last.report))
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

/// What of a screen depends on the Trace's step: `step` clamped to the trace, the rows of the
/// window around it (at most [`TRACE_WINDOW`]: only those are explained, however long the
/// trace), and that step in full.
#[derive(Debug, Serialize)]
struct Window {
    step: usize,
    rows: Vec<TraceRow>,
    detail: Option<StepDetail>,
}

fn window(report: &Report, step: usize) -> Window {
    match &report.trace {
        Some(trace) if !trace.is_empty() => {
            let step = step.min(trace.len() - 1);
            let from = step
                .saturating_sub(TRACE_WINDOW / 2)
                .min(trace.len().saturating_sub(TRACE_WINDOW));
            Window {
                step,
                rows: model::trace_rows(trace, from, from + TRACE_WINDOW),
                detail: model::step_detail(trace, step),
            }
        }
        _ => Window {
            step: 0,
            rows: Vec::new(),
            detail: None,
        },
    }
}

/// The screen for `input` against `base` with the Trace on `step`.
pub fn screen_of(input: &str, base: Option<&str>, step: usize) -> Screen {
    with_report(input, base, |report| {
        let Window { step, rows, detail } = window(report, step);
        Screen {
            page: Page::of(report),
            step,
            rows,
            detail,
        }
    })
}

/// [`screen_of`] as JSON. The page's part is made once for an input and base, and kept for
/// the next steps through its trace.
#[wasm_bindgen]
pub fn screen(input: &str, base: Option<String>, step: usize) -> String {
    with_last(input, base.as_deref(), |last| {
        let page = last
            .page
            .get_or_insert_with(|| json(&Page::of(&last.report)));
        let window = json(&window(&last.report, step));
        // `{"page":…,"step":…,"rows":…,"detail":…}`, the fields in Screen's order.
        format!("{{\"page\":{page},{}", &window[1..])
    })
}

/// The input that the fix of error `error` (its index in the screen's `errors`) makes, for a
/// click on it: the screen has the fix's words, not this text (see [`model::ErrorFix`]).
/// `None` when the error has no fix. From the last report when it is this input's; otherwise
/// (an input long enough to be read in the Web Worker) from the report made as the worker made
/// the screen's, so that `error` indexes the same errors.
#[wasm_bindgen(js_name = fixedInput)]
pub fn fixed_input(input: &str, base: Option<String>, error: usize) -> Option<String> {
    with_report(input, base.as_deref(), |report| {
        model::fixed_input(report, error)
    })
}

/// The `urlscope` command that opens the same view in a terminal (`ignore_case`: the Pattern
/// view's ignoreCase), or `undefined` when the input, base or pattern holds U+0000, which no
/// command-line argument can carry (see [`model::command`]).
#[wasm_bindgen]
pub fn command(
    input: &str,
    base: Option<String>,
    view: &str,
    step: Option<usize>,
    pattern: Option<String>,
    ignore_case: Option<bool>,
) -> Option<String> {
    model::command(
        input,
        base.as_deref(),
        view,
        step,
        pattern.as_deref(),
        ignore_case.unwrap_or(false),
    )
}

/// The href `input` parses to against no base, or `None`: the benchmark's parse + href,
/// without the trace.
#[wasm_bindgen]
pub fn href(input: &str) -> Option<String> {
    urlscope::Url::parse(input, None)
        .ok()
        .map(|u| u.href().to_owned())
}

/// The URL's getters, in the URL class's order (href, origin, protocol … hash).
fn getters(url: &Url) -> Map<String, Value> {
    let mut object = Map::new();
    object.insert("href".into(), url.href().into());
    object.insert("origin".into(), url.origin().into());
    for component in Component::ALL {
        if component != Component::Href {
            object.insert(component.name().into(), url.get(component).into());
        }
    }
    object
}

/// A failure as the model has it: `{"failure": true, "error": why}`.
fn failure(error: impl std::fmt::Display) -> Map<String, Value> {
    let mut object = Map::new();
    object.insert("failure".into(), true.into());
    object.insert("error".into(), error.to_string().into());
    object
}

/// `new URL(input, base)` on urlscope's engine, with the query percent-encoded in the encoding
/// named by `encoding` (a WHATWG Encoding label; UTF-8 when absent), as a document of that
/// encoding would. JSON text: the getters (`href`, `origin`, `protocol`, `username`,
/// `password`, `host`, `hostname`, `port`, `pathname`, `search`, `hash`), or `{"failure":
/// true, "error": …}` when the input (or the base) is not a URL or the label is unknown.
#[wasm_bindgen]
pub fn parse(input: &str, base: Option<String>, encoding: Option<String>) -> String {
    Value::Object(parse_model(input, base.as_deref(), encoding.as_deref())).to_string()
}

fn parse_model(input: &str, base: Option<&str>, encoding: Option<&str>) -> Map<String, Value> {
    let encoding = match encoding {
        None => encoding_rs::UTF_8,
        Some(label) => match encoding_rs::Encoding::for_label(label.as_bytes()) {
            Some(encoding) => encoding,
            None => return failure(format!("{label:?} is not an encoding's label")),
        },
    };
    let base = match base.map(|base| Url::parse(base, None)) {
        None => None,
        Some(Ok(base)) => Some(base),
        Some(Err(e)) => return failure(format!("the base is not a URL: {e}")),
    };
    match Url::parse_with_encoding(input, base.as_ref(), encoding) {
        Ok(url) => getters(&url),
        Err(e) => failure(e),
    }
}

/// `URL.canParse(input, base)`.
#[wasm_bindgen(js_name = canParse)]
pub fn can_parse(input: &str, base: Option<String>) -> bool {
    Url::can_parse(input, base.as_deref())
}

/// Parses `href`, then runs the URL API setter named `setter` (`href`, `protocol`, … `hash`)
/// with `value`. JSON text: the getters afterwards (a failing setter leaves the URL as the
/// standard leaves it: the href setter's failure changes nothing), or a failure when `href`
/// is not a URL or `setter` names no setter.
#[wasm_bindgen]
pub fn set(href: &str, setter: &str, value: &str) -> String {
    Value::Object(set_model(href, setter, value)).to_string()
}

fn set_model(href: &str, setter: &str, value: &str) -> Map<String, Value> {
    let Ok(component) = setter.parse::<Component>() else {
        return failure(format!("{setter:?} is not a setter of the URL class"));
    };
    let mut url = match Url::parse(href, None) {
        Ok(url) => url,
        Err(e) => return failure(e),
    };
    let _ = url.set(component, value, &mut urlscope::trace::NoTrace);
    getters(&url)
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
            let report = &last.as_ref().expect("kept").report;
            assert_eq!(
                (report.input.as_str(), report.base.as_deref()),
                ("http://a/", None)
            );
        });
    }

    #[test]
    fn the_screens_json_is_the_screen_with_its_page_kept_across_steps() {
        let input = format!("https://user@example.com/{}", "a/".repeat(300));
        for (base, step) in [(None, 0), (None, 450), (None, 451), (Some("http://b/"), 3)] {
            let expected = json(&screen_of(&input, base, step));
            let got = screen(&input, base.map(str::to_owned), step);
            assert_eq!(got, expected, "{base:?} {step}");
            let value: Value = serde_json::from_str(&got).expect("JSON");
            let keys: Vec<&str> = value
                .as_object()
                .expect("object")
                .keys()
                .map(String::as_str)
                .collect();
            assert_eq!(keys, ["page", "step", "rows", "detail"]);
        }
        // The page's JSON is kept for the input's next step, and made again for a new input.
        let page_of = || LAST.with(|l| l.borrow().as_ref().and_then(|l| l.page.clone()));
        screen("http://a/", None, 0);
        let kept = page_of().expect("made");
        screen("http://a/", None, 5);
        assert_eq!(page_of(), Some(kept.clone()));
        screen("http://a/b", None, 5);
        assert_ne!(page_of(), Some(kept));
    }

    #[test]
    fn a_fixed_input_is_the_same_from_the_last_report_or_parsed_again() {
        for (input, base) in [
            ("https://user@example.com/a\\b", None),
            ("https://exa mple.com/", None),
            ("\\x|y", Some("file:///c:/")),
        ] {
            let errors = model::report(input, base).errors.len();
            assert!(errors > 0, "{input}");
            for i in 0..=errors {
                LAST.with(|l| *l.borrow_mut() = None);
                let parsed_again = fixed_input(input, base.map(str::to_owned), i);
                screen(input, base.map(str::to_owned), 0);
                let kept = fixed_input(input, base.map(str::to_owned), i);
                assert_eq!(parsed_again, kept, "{input} error {i}");
            }
        }
        assert_eq!(
            fixed_input("https://user@example.com/", None, 0).as_deref(),
            Some("https://example.com/")
        );
        assert_eq!(fixed_input("x", Some("not a base".into()), 0), None);
    }

    #[test]
    fn parse_gives_the_getters_or_a_failure() {
        let model: Value = serde_json::from_str(&parse(
            "/a b?é",
            Some("HTTP://Example.COM:80/x".into()),
            None,
        ))
        .expect("JSON");
        assert_eq!(model["href"], "http://example.com/a%20b?%C3%A9");
        assert_eq!(model["origin"], "http://example.com");
        assert_eq!(model["pathname"], "/a%20b");
        assert_eq!(model["port"], "");
        let keys: Vec<&str> = model
            .as_object()
            .expect("object")
            .keys()
            .map(String::as_str)
            .collect();
        assert_eq!(
            keys,
            [
                "href", "origin", "protocol", "username", "password", "host", "hostname", "port",
                "pathname", "search", "hash"
            ]
        );
        let failed: Value = serde_json::from_str(&parse("http://[::", None, None)).expect("JSON");
        assert_eq!(failed["failure"], true);
        let bad_base: Value =
            serde_json::from_str(&parse("x", Some("not a base".into()), None)).expect("JSON");
        assert_eq!(bad_base["failure"], true);
    }

    #[test]
    fn the_query_takes_the_documents_encoding() {
        let model: Value = serde_json::from_str(&parse(
            "https://h/?\u{e9}#\u{e9}",
            None,
            Some("windows-1252".into()),
        ))
        .expect("JSON");
        assert_eq!(model["search"], "?%E9");
        assert_eq!(model["hash"], "#%C3%A9");
        let unknown: Value =
            serde_json::from_str(&parse("https://h/", None, Some("nope".into()))).expect("JSON");
        assert_eq!(unknown["failure"], true);
    }

    #[test]
    fn setters_follow_the_standard() {
        let model: Value =
            serde_json::from_str(&set("https://x/x", "hostname", "EXAMPLE.com")).expect("JSON");
        assert_eq!(model["href"], "https://example.com/x");
        // The href setter's failure leaves the URL unchanged.
        let kept: Value = serde_json::from_str(&set("https://x/x", "href", "::")).expect("JSON");
        assert_eq!(kept["href"], "https://x/x");
        let unknown: Value = serde_json::from_str(&set("https://x/", "nope", "")).expect("JSON");
        assert_eq!(unknown["failure"], true);
        assert!(can_parse("/x", Some("https://h/".into())));
        assert!(!can_parse("/x", None));
    }
}
