//! The parser differential against the real runtimes: a corpus of classic confusion inputs
//! (the five Claroty/Snyk classes, Orange Tsai's 2017 SSRF payloads, the OWASP cheat sheet's
//! backslash example, encoded delimiters, IPv6 zones, IPv4 notations, IDN) with the host each
//! parser gave when the expectations were taken, and the runtime versions they were taken with.
//!
//! If a runtime's answer changes (a new Python, Node, Java, Go, libcurl or crate version), the
//! test fails and shows the new answer. `URLSCOPE_BLESS=1 cargo test --test diff_corpus`
//! rewrites the expectations from the runtimes installed, for review in the diff.
//! `URLSCOPE_REQUIRE_RUNTIMES=1` (set by CI) makes a missing runtime a failure, not a skip.

use serde_json::{json, Map, Value};
use urlscope::diff::{Answer, Delivery, Lab, Timeouts};

const CORPUS: &str = "tests/data/diff_corpus.jsonl";

fn host_value(answer: &Answer) -> Value {
    if answer.failure {
        json!({"failure": true})
    } else {
        json!(answer.host)
    }
}

#[test]
fn every_parser_reads_the_corpus_hosts_as_recorded() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(CORPUS);
    let text = std::fs::read_to_string(&path).expect("the corpus");
    let bless = std::env::var_os("URLSCOPE_BLESS").is_some();
    let require = std::env::var_os("URLSCOPE_REQUIRE_RUNTIMES").is_some();
    let mut lab =
        Lab::new(None, Vec::new(), Timeouts::default(), Delivery::Every).expect("the parsers");
    let mut entries: Vec<Map<String, Value>> = Vec::new();
    let mut recorded_versions = Map::new();
    for line in text.lines() {
        let value: Value = serde_json::from_str(line).expect("a JSON line");
        let object = value.as_object().expect("an object").clone();
        match object.get("versions") {
            Some(Value::Object(v)) => recorded_versions = v.clone(),
            _ => entries.push(object),
        }
    }
    assert!(
        entries.len() >= 60,
        "the corpus has {} inputs",
        entries.len()
    );

    let mut versions = Map::new();
    let mut unavailable = Map::new();
    let mut failures = Vec::new();
    let mut blessed = Vec::new();
    for entry in &entries {
        let input = entry["input"].as_str().expect("an input string");
        let comparison = lab.read(input, None);
        let mut hosts = Map::new();
        for (name, answer) in &comparison.parsers {
            if !answer.available {
                unavailable.insert(name.clone(), json!(answer.error));
                continue;
            }
            if let Some(v) = &answer.version {
                versions.insert(name.clone(), json!(v));
            }
            let actual = host_value(answer);
            if !bless {
                match entry.get("hosts").and_then(|h| h.get(name)) {
                    Some(expected) if *expected == actual => {}
                    expected => failures.push(format!(
                        "input {input:?}: {name} {} now reads {actual}, recorded {} (with {})",
                        answer.version.as_deref().unwrap_or("?"),
                        expected.map_or("nothing".to_owned(), ToString::to_string),
                        recorded_versions
                            .get(name)
                            .map_or("?".to_owned(), ToString::to_string),
                    )),
                }
            }
            hosts.insert(name.clone(), actual);
        }
        if !bless && unavailable.is_empty() {
            if let Some(expected) = entry.get("agree").and_then(Value::as_bool) {
                if expected != comparison.agree {
                    failures.push(format!(
                        "input {input:?}: agree is {}, recorded {expected}",
                        comparison.agree
                    ));
                }
            }
        }
        // The class that explains where the URL goes: the host disagreement's, else the
        // failure disagreement's. A stale class fails as surely as a changed host.
        let class = ["host", "failure"].iter().find_map(|component| {
            comparison
                .disagreements
                .iter()
                .find(|d| d.component.name() == *component)
                .map(|d| json!(d.class.map(|c| c.name())))
        });
        let class = class.unwrap_or(Value::Null);
        if !bless && unavailable.is_empty() && entry.get("class") != Some(&class) {
            failures.push(format!(
                "input {input:?}: the class is now {class}, recorded {}",
                entry
                    .get("class")
                    .map_or("nothing".to_owned(), ToString::to_string)
            ));
        }
        blessed.push(
            json!({"input": input, "agree": comparison.agree, "class": class, "hosts": hosts}),
        );
    }
    if bless {
        assert!(
            unavailable.is_empty(),
            "bless with every runtime installed; missing: {unavailable:?}"
        );
        let mut out = serde_json::to_string(&json!({"versions": versions})).expect("JSON");
        out.push('\n');
        for line in blessed {
            out.push_str(&serde_json::to_string(&line).expect("JSON"));
            out.push('\n');
        }
        std::fs::write(&path, out).expect("write the corpus");
        return;
    }
    if !unavailable.is_empty() {
        let message = format!("runtimes not available here: {unavailable:?}");
        assert!(!require, "{message}");
        eprintln!("skipped their readings: {message}");
    }
    assert!(
        failures.is_empty(),
        "{} readings changed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// The OWASP example, pinned by hand from the runtimes' documented behaviour, so that a
/// re-recorded corpus cannot silently lose the case that matters most.
#[test]
fn the_owasp_backslash_example_splits_node_from_python() {
    let mut lab =
        Lab::new(None, Vec::new(), Timeouts::default(), Delivery::Every).expect("the parsers");
    let c = lab.read("http://example.com\\@evil.com", None);
    let host = |name: &str| c.answer(name).and_then(|a| a.host.clone());
    assert_eq!(host("whatwg").as_deref(), Some("example.com"));
    assert_eq!(host("rust-url").as_deref(), Some("example.com"));
    assert_eq!(host("curl").as_deref(), Some("evil.com"));
    if c.answer("python").is_some_and(|a| a.available) {
        assert_eq!(host("python").as_deref(), Some("evil.com"));
    }
    if c.answer("node").is_some_and(|a| a.available) {
        assert_eq!(host("node").as_deref(), Some("example.com"));
    }
    assert!(!c.agree);
    let d = c
        .disagreements
        .iter()
        .find(|d| d.component == urlscope::diff::Component::Host)
        .expect("a host disagreement");
    assert_eq!(d.class.map(|c| c.name()), Some("backslash"));
}
