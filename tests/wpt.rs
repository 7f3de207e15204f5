//! The web-platform-tests URL conformance suite, one named trial per case.
//!
//! The data is not part of this repository. It is read from `$URLSCOPE_WPT_DIR` if set, else from
//! `$CARGO_MANIFEST_DIR/../shared/wpt`, else from the copy the `ada-url` dev-dependency ships in
//! its package (`tests/wpt/`, found through `cargo metadata`); a file the first place lacks is
//! read from the `ada-url` copy. Every suite is required: a missing file is a failure.
//!
//! The suites follow the web-platform-tests' own drivers: `url-constructor.any.js` (plus a
//! `canParse` check and a re-parse idempotence check), `url-setters.any.js`,
//! `toascii.window.js`, `IdnaTestV2.window.js`, `IdnaTestV2-removed.window.js` and
//! `percent-encoding.window.js`.

mod common;

use common::{discover, getter, replace_lone_surrogate_escapes, setter, Source};
use std::cell::{Cell, RefCell};
use std::fmt::Write as _;
use std::panic::{catch_unwind, AssertUnwindSafe};

use libtest_mimic::{Arguments, Completion, Failed, Trial};
use serde_json::Value;
use urlscope::Url;

fn main() {
    let args = Arguments::from_args();
    let mut trials = harness_self_tests();
    let mut report = Vec::new();

    match discover() {
        Err(message) => {
            report.push(format!("wpt: {message}"));
            trials.push(Trial::test("urltestdata::missing", move || {
                Err(Failed::from(message))
            }));
        }
        Ok(source) => {
            report.push(format!(
                "wpt: data from {} ({})",
                source.dir.display(),
                source.how
            ));
            add_suites(&source, &mut trials, &mut report);
        }
    }

    for line in &report {
        eprintln!("{line}");
    }
    install_panic_hook();
    libtest_mimic::run(&args, trials).exit();
}

// --- data discovery --------------------------------------------------------------------------

fn add_suites(source: &Source, trials: &mut Vec<Trial>, report: &mut Vec<String>) {
    type Builder = fn(&str, &Value) -> Result<Vec<Trial>, String>;
    let suites: [(&str, Builder); 7] = [
        ("urltestdata.json", url_test_trials),
        ("urltestdata-javascript-only.json", url_test_trials),
        ("setters_tests.json", setter_trials),
        ("toascii.json", toascii_trials),
        ("IdnaTestV2.json", idna_trials),
        // Cases that later versions of UTS 46's test file dropped; the hosts must still fail.
        ("IdnaTestV2-removed.json", idna_trials),
        ("percent-encoding.json", percent_encoding_trials),
    ];
    let mut total = 0;
    for (file, build) in suites {
        let suite = file.trim_end_matches(".json");
        let Some(located) = source.locate(file) else {
            let message = format!(
                "{file} not found in {} nor in the `ada-url` package: the suite cannot run",
                source.dir.display()
            );
            report.push(format!("wpt: {suite}: MISSING ({file} not found)"));
            trials.push(Trial::test(format!("{suite}::missing"), move || {
                Err(Failed::from(message))
            }));
            continue;
        };
        match common::read_json(&located.path) {
            Err(message) => {
                report.push(format!("wpt: {suite}: unreadable ({message})"));
                trials.push(Trial::test(format!("{suite}::load"), move || {
                    Err(Failed::from(message))
                }));
            }
            Ok(data) => match build(suite, &data) {
                Ok(mut built) => {
                    report.push(format!(
                        "wpt: {suite}: {} cases from {}",
                        built.len(),
                        located.path.display()
                    ));
                    total += built.len();
                    trials.append(&mut built);
                }
                Err(message) => {
                    report.push(format!("wpt: {suite}: malformed ({message})"));
                    trials.push(Trial::test(format!("{suite}::load"), move || {
                        Err(Failed::from(format!("{file}: {message}")))
                    }));
                }
            },
        }
    }
    report.push(format!("wpt: {total} cases in all"));
}

// --- JSON helpers ------------------------------------------------------------------------------

fn field<'a>(case: &'a Value, key: &str) -> Result<&'a str, String> {
    case.get(key)
        .and_then(Value::as_str)
        .ok_or_else(|| format!("case without a string {key:?}: {case}"))
}

/// A test name must be one line: show control and invisible formatting characters as escapes.
/// Very long values are shortened in the middle (the failure message has them in full), so the
/// listing stays readable.
fn escape_name(s: &str) -> String {
    const KEEP_HEAD: usize = 60;
    const KEEP_TAIL: usize = 20;
    let count = s.chars().count();
    let shortened;
    let s = if count > KEEP_HEAD + KEEP_TAIL + 10 {
        let head: String = s.chars().take(KEEP_HEAD).collect();
        let tail: String = s.chars().skip(count - KEEP_TAIL).collect();
        shortened = format!("{head}…{tail}");
        shortened.as_str()
    } else {
        s
    };
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            c if c.is_control()
                || matches!(c,
                    '\u{AD}' | '\u{34F}' | '\u{61C}' | '\u{180E}' | '\u{200B}'..='\u{200F}'
                    | '\u{2028}'..='\u{202E}' | '\u{2060}'..='\u{206F}' | '\u{FE00}'..='\u{FE0F}'
                    | '\u{FEFF}' | '\u{FFF9}'..='\u{FFFB}' | '\u{E0000}'..='\u{E0FFF}') =>
            {
                let _ = write!(out, "\\u{{{:X}}}", c as u32);
            }
            c => out.push(c),
        }
    }
    out
}

/// Collects the mismatches of one case and turns them into a failure message.
struct Check {
    context: String,
    problems: Vec<String>,
}

impl Check {
    fn new(context: String) -> Self {
        Check {
            context,
            problems: Vec::new(),
        }
    }

    fn fail(&mut self, problem: impl Into<String>) {
        self.problems.push(problem.into());
    }

    fn eq(&mut self, what: &str, expected: &str, actual: &str) {
        if expected != actual {
            self.fail(format!(
                "{what}:\n      expected {expected:?}\n      actual   {actual:?}"
            ));
        }
    }

    /// Runs the checks in `body`; a panic in the library becomes one more reported problem
    /// (with the case's context) instead of a bare panic message on stderr.
    fn run(mut self, body: impl FnOnce(&mut Check)) -> Result<(), Failed> {
        IN_TRIAL.with(|flag| flag.set(true));
        let outcome = catch_unwind(AssertUnwindSafe(|| body(&mut self)));
        IN_TRIAL.with(|flag| flag.set(false));
        if outcome.is_err() {
            let panic = LAST_PANIC
                .with(|last| last.borrow_mut().take())
                .unwrap_or_else(|| "(no message)".to_owned());
            self.fail(format!("PANICKED: {panic}"));
        }
        self.finish()
    }

    fn finish(self) -> Result<(), Failed> {
        if self.problems.is_empty() {
            return Ok(());
        }
        let mut message = self.context;
        message.push_str("\n  problems:");
        for problem in &self.problems {
            message.push_str("\n    ");
            message.push_str(problem);
        }
        Err(Failed::from(message))
    }
}

thread_local! {
    static IN_TRIAL: Cell<bool> = const { Cell::new(false) };
    static LAST_PANIC: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// Panics inside `Check::run` are recorded for its report, not printed; any other panic goes to
/// the default hook.
fn install_panic_hook() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        if !IN_TRIAL.with(Cell::get) {
            return default(info);
        }
        let payload = info.payload();
        let mut message = payload
            .downcast_ref::<&str>()
            .copied()
            .or_else(|| payload.downcast_ref::<String>().map(String::as_str))
            .unwrap_or("(non-string payload)")
            .to_owned();
        if let Some(location) = info.location() {
            let _ = write!(message, " at {}:{}", location.file(), location.line());
        }
        LAST_PANIC.with(|last| *last.borrow_mut() = Some(message));
    }));
}

// --- urltestdata.json (url-constructor.any.js) -------------------------------------------------

const URL_FIELDS: [&str; 11] = [
    "href", "origin", "protocol", "username", "password", "host", "hostname", "port", "pathname",
    "search", "hash",
];

struct UrlCase {
    input: String,
    base: Option<String>,
    /// `None`: `failure: true`. Otherwise the expected getters, in `URL_FIELDS` order; `origin`
    /// only when the case has it. (`relativeTo` and `searchParams` are not used here:
    /// url-constructor.any.js ignores the former; search params are tested elsewhere.)
    expected: Option<Vec<(&'static str, String)>>,
}

fn url_test_trials(suite: &str, data: &Value) -> Result<Vec<Trial>, String> {
    let cases = data.as_array().ok_or("not a JSON array")?;
    let mut trials = Vec::new();
    for case in cases.iter().filter(|c| !c.is_string()) {
        let input = field(case, "input")?.to_owned();
        let base = match case.get("base") {
            None | Some(Value::Null) => None,
            Some(Value::String(b)) => Some(b.clone()),
            Some(other) => return Err(format!("base is neither null nor a string: {other}")),
        };
        let expected = if case.get("failure") == Some(&Value::Bool(true)) {
            None
        } else {
            let mut expected = Vec::new();
            for name in URL_FIELDS {
                if name == "origin" && case.get("origin").is_none() {
                    continue;
                }
                expected.push((name, field(case, name)?.to_owned()));
            }
            Some(expected)
        };
        let name = format!(
            "{suite}::{:04} <{}> {}",
            trials.len(),
            escape_name(&input),
            match &base {
                Some(b) => format!("against <{}>", escape_name(b)),
                None => "without base".to_owned(),
            }
        );
        let case = UrlCase {
            input,
            base,
            expected,
        };
        trials.push(Trial::test(name, move || run_url_case(&case)));
    }
    Ok(trials)
}

fn run_url_case(case: &UrlCase) -> Result<(), Failed> {
    let mut context = format!("  input: {:?}\n  base:  ", case.input);
    match &case.base {
        Some(b) => {
            let _ = write!(context, "{b:?}");
        }
        None => context.push_str("null"),
    }
    context.push_str(if case.expected.is_none() {
        "\n  expected: failure"
    } else {
        "\n  expected: success"
    });
    Check::new(context).run(|check| {
        let base = match &case.base {
            None => None,
            Some(b) => match Url::parse(b, None) {
                Ok(base) => Some(base),
                Err(e) => {
                    check.fail(format!("the base failed to parse: {e}"));
                    return;
                }
            },
        };
        let result = Url::parse(&case.input, base.as_ref());
        let can_parse = Url::can_parse(&case.input, case.base.as_deref());

        match (&case.expected, result) {
            (None, Ok(url)) => check.fail(format!(
                "parse: expected failure, got href {:?}",
                url.href()
            )),
            (None, Err(_)) => {}
            (Some(_), Err(e)) => check.fail(format!("parse: expected success, failed: {e}")),
            (Some(expected), Ok(url)) => {
                for (name, value) in expected {
                    let actual = getter(&url, name).unwrap_or_default();
                    check.eq(name, value, &actual);
                }
                // Idempotence: the serialization parses (without a base) to itself.
                let href = url.href();
                match Url::parse(href, None) {
                    Ok(again) => check.eq("idempotence: href of parse(href)", href, again.href()),
                    Err(e) => check.fail(format!("idempotence: parse({href:?}) failed: {e}")),
                }
            }
        }
        let expected_can_parse = case.expected.is_some();
        if can_parse != expected_can_parse {
            check.fail(format!(
                "can_parse: expected {expected_can_parse}, got {can_parse}"
            ));
        }
    })
}

// --- setters_tests.json (url-setters.any.js) ---------------------------------------------------

fn setter_trials(suite: &str, data: &Value) -> Result<Vec<Trial>, String> {
    let components = data.as_object().ok_or("not a JSON object")?;
    let mut trials = Vec::new();
    for (component, cases) in components {
        if component == "comment" {
            continue;
        }
        let cases = cases
            .as_array()
            .ok_or_else(|| format!("{component}: not an array"))?;
        for (index, case) in cases.iter().filter(|c| !c.is_string()).enumerate() {
            let href = field(case, "href")?.to_owned();
            let new_value = field(case, "new_value")?.to_owned();
            let expected: Vec<(String, String)> = case
                .get("expected")
                .and_then(Value::as_object)
                .ok_or_else(|| format!("case without expected: {case}"))?
                .iter()
                .map(|(k, v)| Ok((k.clone(), v.as_str().ok_or("non-string expected")?.into())))
                .collect::<Result<_, String>>()?;
            let name = format!(
                "{suite}::{component}::{index:04} <{}>.{component} = '{}'",
                escape_name(&href),
                escape_name(&new_value)
            );
            let component = component.clone();
            trials.push(Trial::test(name, move || {
                run_setter_case(&component, &href, &new_value, &expected)
            }));
        }
    }
    Ok(trials)
}

fn run_setter_case(
    component: &str,
    href: &str,
    new_value: &str,
    expected: &[(String, String)],
) -> Result<(), Failed> {
    Check::new(format!(
        "  href:      {href:?}\n  set {component} to {new_value:?}"
    ))
    .run(|check| {
        let mut url = match Url::parse(href, None) {
            Ok(url) => url,
            Err(e) => {
                check.fail(format!("the starting href failed to parse: {e}"));
                return;
            }
        };
        if setter(&mut url, component, new_value).is_none() {
            check.fail(format!("unknown component {component:?}"));
            return;
        }
        for (name, value) in expected {
            match getter(&url, name) {
                Some(actual) => check.eq(name, value, &actual),
                None => check.fail(format!("unknown expected key {name:?}")),
            }
        }
    })
}

// --- toascii.json and IdnaTestV2.json (toascii.window.js, IdnaTestV2.window.js) ---------------

struct HostCase {
    /// What goes between `https://` and `/x`, and what the setters get.
    input: String,
    /// As the file has it (before any encoding), for the report.
    original: String,
    output: Option<String>,
}

fn toascii_trials(suite: &str, data: &Value) -> Result<Vec<Trial>, String> {
    host_trials(suite, data, false)
}

fn idna_trials(suite: &str, data: &Value) -> Result<Vec<Trial>, String> {
    host_trials(suite, data, true)
}

/// IdnaTestV2.window.js percent-encodes the code points that would end the host so that the
/// whole input reaches the host parser.
fn encode_host_ending_code_points(input: &str) -> String {
    let mut out = String::with_capacity(input.len());
    for c in input.chars() {
        match c {
            ':' => out.push_str("%3A"),
            '/' => out.push_str("%2F"),
            '?' => out.push_str("%3F"),
            '#' => out.push_str("%23"),
            '\\' => out.push_str("%5C"),
            c => out.push(c),
        }
    }
    out
}

fn host_trials(suite: &str, data: &Value, idna: bool) -> Result<Vec<Trial>, String> {
    let cases = data.as_array().ok_or("not a JSON array")?;
    let mut trials = Vec::new();
    for case in cases.iter().filter(|c| !c.is_string()) {
        let original = field(case, "input")?.to_owned();
        let output = match case.get("output") {
            Some(Value::Null) => None,
            Some(Value::String(s)) => Some(s.clone()),
            _ => return Err(format!("output is neither null nor a string: {case}")),
        };
        let index = trials.len();
        let mut name = format!("{suite}::{index:04} <{}>", escape_name(&original));
        if let Some(comment) = case.get("comment").and_then(Value::as_str) {
            let _ = write!(name, " {}", escape_name(comment));
        }
        // IdnaTestV2.window.js: "cannot test empty string input through new URL()".
        if idna && original.is_empty() {
            trials.push(Trial::ignorable_test(name, || {
                Ok(Completion::ignored_with(
                    "empty input, skipped as IdnaTestV2.window.js does",
                ))
            }));
            continue;
        }
        let input = if idna {
            encode_host_ending_code_points(&original)
        } else {
            original.clone()
        };
        let case = HostCase {
            input,
            original,
            output,
        };
        trials.push(Trial::test(name, move || run_host_case(&case)));
    }
    Ok(trials)
}

fn run_host_case(case: &HostCase) -> Result<(), Failed> {
    let mut context = format!("  input:  {:?}", case.original);
    if case.input != case.original {
        let _ = write!(context, " (given as {:?})", case.input);
    }
    match &case.output {
        Some(o) => {
            let _ = write!(context, "\n  output: {o:?}");
        }
        None => context.push_str("\n  output: null (failure)"),
    }
    Check::new(context).run(|check| {
        // (a) The host as part of a URL.
        let href = format!("https://{}/x", case.input);
        match (Url::parse(&href, None), &case.output) {
            (Ok(url), None) => check.fail(format!(
                "parse {href:?}: expected failure, got href {:?}",
                url.href()
            )),
            (Err(_), None) => {}
            (Err(e), Some(_)) => {
                check.fail(format!("parse {href:?}: expected success, failed: {e}"))
            }
            (Ok(url), Some(output)) => {
                check.eq("parse: host", output, url.host());
                check.eq("parse: hostname", output, url.hostname());
                check.eq("parse: pathname", "/x", url.pathname());
                check.eq("parse: href", &format!("https://{output}/x"), url.href());
            }
        }

        // (b) The host and hostname setters on https://x/x.
        let expected = case.output.as_deref().unwrap_or("x");
        for component in ["host", "hostname"] {
            let mut url = match Url::parse("https://x/x", None) {
                Ok(url) => url,
                Err(e) => {
                    check.fail(format!("https://x/x failed to parse: {e}"));
                    break;
                }
            };
            setter(&mut url, component, &case.input);
            check.eq(&format!("set_{component}: host"), expected, url.host());
            check.eq(
                &format!("set_{component}: hostname"),
                expected,
                url.hostname(),
            );
        }
    })
}

// --- percent-encoding.json (percent-encoding.window.js) ----------------------------------------

fn percent_encoding_trials(suite: &str, data: &Value) -> Result<Vec<Trial>, String> {
    let cases = data.as_array().ok_or("not a JSON array")?;
    let mut trials = Vec::new();
    for (index, case) in cases.iter().filter(|c| !c.is_string()).enumerate() {
        let input = field(case, "input")?.to_owned();
        let outputs = case
            .get("output")
            .and_then(Value::as_object)
            .ok_or_else(|| format!("case without an output object: {case}"))?;
        let utf8 = outputs
            .get("utf-8")
            .and_then(Value::as_str)
            .ok_or_else(|| format!("case without a utf-8 output: {case}"))?
            .to_owned();
        for (label, expected) in outputs {
            let expected = expected
                .as_str()
                .ok_or_else(|| format!("non-string output for {label}: {case}"))?
                .to_owned();
            let name = format!(
                "{suite}::{index:04} <{}> with encoding {label}",
                escape_name(&input)
            );
            let (input, label, utf8) = (input.clone(), label.clone(), utf8.clone());
            trials.push(Trial::test(name, move || {
                run_percent_encoding_case(&input, &label, &expected, &utf8)
            }));
        }
    }
    Ok(trials)
}

fn run_percent_encoding_case(
    input: &str,
    label: &str,
    expected: &str,
    utf8: &str,
) -> Result<(), Failed> {
    let href = format!("https://doesnotmatter.invalid/?{input}#{input}");
    Check::new(format!("  input: {input:?}\n  encoding: {label}")).run(|check| {
        let Some(encoding) = encoding_rs::Encoding::for_label(label.as_bytes()) else {
            check.fail(format!("encoding_rs does not know the label {label:?}"));
            return;
        };
        match Url::parse_with_encoding(&href, None, encoding) {
            Err(e) => check.fail(format!("parse {href:?} failed: {e}")),
            Ok(url) => {
                // The fragment is always UTF-8; only the query uses the document's encoding.
                check.eq("hash", &format!("#{utf8}"), url.hash());
                check.eq("search", &format!("?{expected}"), url.search());
            }
        }
    })
}

// --- the harness's own tests (a #[test] would not run under harness = false) -----------------

fn harness_self_tests() -> Vec<Trial> {
    let surrogate_cases: [(&str, &str, &str); 10] = [
        ("lone-high", r#""\uD800""#, "\u{FFFD}"),
        ("lone-low", r#""\uDFFF""#, "\u{FFFD}"),
        ("lowercase-hex", r#""a\ud800b""#, "a\u{FFFD}b"),
        ("valid-pair", r#""\uD83D\uDE00""#, "\u{1F600}"),
        (
            "high-high-low",
            r#""\uD800\uD83D\uDE00""#,
            "\u{FFFD}\u{1F600}",
        ),
        ("low-high", r#""\uDC00\uD800""#, "\u{FFFD}\u{FFFD}"),
        ("high-then-bmp", r#""\uD800\u0041""#, "\u{FFFD}A"),
        ("escaped-backslash", r#""\\uD800""#, "\\uD800"),
        ("backslash-then-lone", r#""\\\uD800x""#, "\\\u{FFFD}x"),
        (
            "non-surrogates-untouched",
            r#""\u00e9\n\"\/é""#,
            "\u{E9}\n\"/é",
        ),
    ];
    let mut trials: Vec<Trial> = surrogate_cases
        .into_iter()
        .map(|(name, json, expected)| {
            Trial::test(format!("harness::lone_surrogates::{name}"), move || {
                let fixed = replace_lone_surrogate_escapes(json);
                let parsed: String =
                    serde_json::from_str(&fixed).map_err(|e| format!("{json} -> {fixed}: {e}"))?;
                if parsed != expected {
                    return Err(format!("{json} -> {parsed:?}, expected {expected:?}").into());
                }
                Ok(())
            })
        })
        .collect();
    trials.push(Trial::test("harness::lone_surrogates::document", || {
        let json = r#"[{"input": "a\uD800", "k": ["\uDBFF\uDFFF", "\uDFFF\uDBFF"]}]"#;
        let value: Value = serde_json::from_str(&replace_lone_surrogate_escapes(json))
            .map_err(|e| e.to_string())?;
        let expected = serde_json::json!([
            {"input": "a\u{FFFD}", "k": ["\u{10FFFF}", "\u{FFFD}\u{FFFD}"]}
        ]);
        if value != expected {
            return Err(format!("{value} != {expected}").into());
        }
        Ok(())
    }));
    trials.push(Trial::test("harness::escape_name", || {
        let got = escape_name("a\tb\n\u{0}\u{7F}\u{9F}\u{200B}\u{2028}\u{FEFF} é\\\"");
        let expected = "a\\tb\\n\\u{0}\\u{7F}\\u{9F}\\u{200B}\\u{2028}\\u{FEFF} é\\\"";
        if got != expected {
            return Err(format!("{got:?} != {expected:?}").into());
        }
        Ok(())
    }));
    trials.push(Trial::test("harness::escape_name::long", || {
        let long = format!("{}{}", "a".repeat(100), "b".repeat(20));
        let expected = format!("{}…{}", "a".repeat(60), "b".repeat(20));
        let got = escape_name(&long);
        if got != expected {
            return Err(format!("{got:?} != {expected:?}").into());
        }
        if escape_name(&"c".repeat(90)) != "c".repeat(90) {
            return Err("a 90-character value was shortened".into());
        }
        Ok(())
    }));
    trials.push(Trial::test(
        "harness::encode_host_ending_code_points",
        || {
            let got = encode_host_ending_code_points("a:b/c?d#e\\f%g");
            if got != "a%3Ab%2Fc%3Fd%23e%5Cf%g" {
                return Err(format!("got {got:?}").into());
            }
            Ok(())
        },
    ));
    trials
}
