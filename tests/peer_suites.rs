//! Cases that other URL projects wrote for their own suites (whatwg-url's validation tests, ada,
//! rust-url, Node, Deno, upa, and web-platform-tests cases kept inside test scripts), read from
//! `../shared/conformance/peer_suites.jsonl` when it is there (CI has it; a clone without it
//! skips this test and says so).
//!
//! Each line is a case in urltestdata's shape plus `source` and optional `set` (setters applied
//! in order), `errors` (validation error names in the order raised), `writing_valid`,
//! `searchParams` (pairs, or the serialization) and `roundtrip`. Every expectation a line states
//! is checked; a case the reference implementation (whatwg-url) disagrees with is listed in
//! [`STALE`] with the reason, and must keep disagreeing with us the same way.

mod common;

use serde_json::Value;
use urlscope::url::writing;
use urlscope::{Report, Url};

/// Expectations that the reference implementation does not share: `(source, input, field, what
/// whatwg-url 17.3.0 and urlscope give)`. The test fails if one of them starts to agree with
/// the file, so the list cannot go stale.
const STALE: &[(&str, &str, &str, &str)] = &[
    // Node's test predates the standard's change of origins to "null" for schemes it does not
    // list (gopher was dropped from the special schemes).
    (
        "nodejs/node:test/parallel/test-whatwg-url-custom-properties.js:special-origins",
        "gopher://gopher.quux.org/1/",
        "origin",
        "null",
    ),
    // Deno's tests expect a file URL's host to be dropped before a drive letter; the standard
    // keeps a file host that is not "localhost" (file host state).
    (
        "denoland/deno:tests/unit/url_test.ts:urlDriveLetter",
        "file://foo/C:",
        "href",
        "file://foo/C:",
    ),
    (
        "denoland/deno:tests/unit/url_test.ts:urlPathRepeatedSlashes",
        "file://foo///bar//",
        "pathname",
        "///bar//",
    ),
];

const COMPONENTS: [&str; 11] = [
    "href", "origin", "protocol", "username", "password", "host", "hostname", "port", "pathname",
    "search", "hash",
];

/// What one case's expectations came to: a problem per field that differed.
fn check_case(case: &Value) -> Vec<(String, String)> {
    let mut problems = Vec::new();
    let mut problem = |field: &str, detail: String| problems.push((field.to_owned(), detail));
    let input = case["input"].as_str().unwrap_or_default();
    let base = case["base"].as_str();

    let base_url = match base.map(|b| Url::parse(b, None)) {
        None => None,
        Some(Ok(url)) => Some(url),
        Some(Err(_)) => {
            if case["failure"] != Value::Bool(true) {
                problem("base", "the base fails to parse".into());
            }
            return problems;
        }
    };
    let parsed = Url::parse(input, base_url.as_ref());

    if let Some(names) = case["errors"].as_array() {
        let expected: Vec<&str> = names.iter().filter_map(Value::as_str).collect();
        let report = Report::new(input, base);
        let actual: Vec<String> = report.errors.iter().map(|e| e.kind.to_string()).collect();
        if actual != expected {
            problem("errors", format!("expected {expected:?}, got {actual:?}"));
        }
    }
    if let Some(expected) = case["writing_valid"].as_bool() {
        let actual = writing::check(input, base_url.as_ref()).valid;
        if actual != expected {
            problem(
                "writing_valid",
                format!("expected {expected}, got {actual}"),
            );
        }
    }

    let mut url = match (parsed, case["failure"] == Value::Bool(true)) {
        (Err(_), true) => return problems,
        (Ok(url), true) => {
            problem("failure", format!("expected failure, got {}", url.href()));
            return problems;
        }
        // ada's idempotence cases hold only for inputs that parse.
        (Err(_), false) if case["roundtrip"] == Value::Bool(true) => return problems,
        (Err(e), false) => {
            problem("failure", format!("expected a URL, the parse failed: {e}"));
            return problems;
        }
        (Ok(url), false) => url,
    };

    // `set` is an object, or a list of [name, value] pairs when a setter runs more than once.
    let setters: Vec<(&str, &str)> = match &case["set"] {
        Value::Object(set) => set
            .iter()
            .map(|(name, value)| (name.as_str(), value.as_str().unwrap_or_default()))
            .collect(),
        Value::Array(pairs) => pairs
            .iter()
            .map(|p| {
                (
                    p[0].as_str().unwrap_or_default(),
                    p[1].as_str().unwrap_or_default(),
                )
            })
            .collect(),
        _ => Vec::new(),
    };
    for (name, value) in setters {
        if common::setter(&mut url, name, value).is_none() {
            problem("set", format!("no setter named {name}"));
        }
    }
    for field in COMPONENTS {
        if let Some(expected) = case[field].as_str() {
            let actual = common::getter(&url, field).unwrap_or_default();
            if actual != expected {
                problem(field, format!("expected {expected:?}, got {actual:?}"));
            }
        }
    }
    match &case["searchParams"] {
        Value::Array(pairs) => {
            let expected: Vec<(String, String)> = pairs
                .iter()
                .filter_map(|p| Some((p[0].as_str()?.to_owned(), p[1].as_str()?.to_owned())))
                .collect();
            let actual = url.search_params().into_pairs();
            if actual != expected {
                problem(
                    "searchParams",
                    format!("expected {expected:?}, got {actual:?}"),
                );
            }
        }
        Value::String(expected) => {
            let actual = url.search_params().to_string();
            if &actual != expected {
                problem(
                    "searchParams",
                    format!("expected {expected:?}, got {actual:?}"),
                );
            }
        }
        _ => {}
    }
    if case["roundtrip"] == Value::Bool(true) {
        match Url::parse(url.href(), None) {
            Ok(again) if again.href() == url.href() => {}
            Ok(again) => problem(
                "roundtrip",
                format!("{} parses again as {}", url.href(), again.href()),
            ),
            Err(e) => problem(
                "roundtrip",
                format!("{} fails to parse again: {e}", url.href()),
            ),
        }
    }
    problems
}

#[test]
fn every_peer_suite_case_holds() {
    let path = common::manifest_dir().join("../shared/conformance/peer_suites.jsonl");
    let Ok(text) = std::fs::read_to_string(&path) else {
        eprintln!(
            "peer suites: {} is not here; skipped (CI has it)",
            path.display()
        );
        return;
    };
    let mut cases = 0;
    let mut failures = Vec::new();
    let mut stale_seen = vec![false; STALE.len()];
    for (number, line) in text.lines().enumerate() {
        let case: Value = serde_json::from_str(&common::replace_lone_surrogate_escapes(line))
            .unwrap_or_else(|e| panic!("line {}: {e}", number + 1));
        cases += 1;
        let source = case["source"].as_str().unwrap_or_default();
        let input = case["input"].as_str().unwrap_or_default();
        for (field, detail) in check_case(&case) {
            // A stale expectation is excused only while we still give the reference's value.
            match STALE.iter().position(|s| {
                s.0 == source
                    && s.1 == input
                    && s.2 == field
                    && detail.ends_with(&format!("got {:?}", s.3))
            }) {
                Some(i) => stale_seen[i] = true,
                None => failures.push(format!(
                    "line {} ({source}) input {input:?} base {}: {field}: {detail}",
                    number + 1,
                    case["base"]
                )),
            }
        }
    }
    for (i, seen) in stale_seen.iter().enumerate() {
        if !seen {
            failures.push(format!(
                "the stale expectation {:?} now holds: remove it from STALE",
                STALE[i]
            ));
        }
    }
    eprintln!(
        "peer suites: {cases} cases, {} stale expectations, {} failures",
        STALE.len(),
        failures.len()
    );
    assert!(
        failures.is_empty(),
        "{} of {cases} cases differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
