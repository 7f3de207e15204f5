//! The parser differential against the real runtimes: a corpus of classic confusion inputs
//! (the five Claroty/Snyk classes, Orange Tsai's 2017 SSRF payloads, the OWASP cheat sheet's
//! backslash example, encoded delimiters, IPv6 zones, IPv4 notations, IDN) with the host each
//! parser gave when the expectations were taken, and the versions they were taken with.
//!
//! A parser whose version is the recorded one must read every host as recorded; the verdict
//! and the class are exact when every parser ran at its recorded version. Another version (a new
//! Python, Node, Java, Go, the system's libcurl or the bundled one) is still held to what must
//! hold everywhere: every input answered by every parser, well-formed readings, and the
//! verdict consistent with the readings. How it reads differently is printed, not failed.
//! `URLSCOPE_BLESS=1 cargo test --test diff_corpus` rewrites the expectations from the runtimes
//! installed, for review in the diff. `URLSCOPE_REQUIRE_RUNTIMES=1` (set by CI, which installs
//! the recorded versions) makes a missing runtime or another version a failure.

use serde_json::{json, Map, Value};
use urlscope::diff::{
    Answer, Class, Comparison, Component, Delivery, Destination, Lab, Timeouts, PARSERS,
};

const CORPUS: &str = "tests/data/diff_corpus.jsonl";

fn host_value(answer: &Answer) -> Value {
    if answer.failure {
        json!({"failure": true})
    } else {
        json!(answer.host)
    }
}

/// What is wrong with the shape of a reading, whatever the parser's version.
fn malformed(answer: &Answer) -> Option<&'static str> {
    let components = [
        &answer.scheme,
        &answer.username,
        &answer.password,
        &answer.host,
        &answer.port,
        &answer.path,
        &answer.query,
        &answer.fragment,
    ];
    if !answer.available {
        return answer
            .error
            .is_none()
            .then_some("unavailable without a reason");
    }
    if answer.version.is_none() {
        return Some("a reading without a version");
    }
    if answer.failure {
        if answer.error.is_none() {
            return Some("a failure without a message");
        }
        if components.iter().any(|c| c.is_some()) {
            return Some("a failure with component values");
        }
    }
    None
}

/// The verdict the readings imply, worked out here from the destinations alone: elsewhere when
/// two readings with a host go to different destinations; refused when they go to one but a
/// parser fails where another parses, or reads no host where another reads one; `None` for
/// fewer than two readings.
fn implied_verdict(c: &Comparison) -> Option<&'static str> {
    let readings: Vec<&Answer> = c
        .parsers
        .iter()
        .map(|(_, a)| a)
        .filter(|a| a.available)
        .collect();
    if readings.len() < 2 {
        return None;
    }
    let destinations: Vec<Destination> = readings
        .iter()
        .filter_map(|a| Destination::of(a))
        .filter(|d| d.host.is_some())
        .collect();
    if destinations.iter().any(|d| *d != destinations[0]) {
        return Some("elsewhere");
    }
    let failures = readings.iter().filter(|a| a.failure).count();
    let without_host = readings
        .iter()
        .filter(|a| Destination::of(a).is_some_and(|d| d.host.is_none()))
        .count();
    if (failures > 0 && failures < readings.len()) || (without_host > 0 && !destinations.is_empty())
    {
        return Some("refused");
    }
    Some("agree")
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
    // Readings that contradict the recorded ones at the recorded version: failures.
    let mut failures = Vec::new();
    // Readings of another version that differ from the recorded ones: printed only.
    let mut moved = Vec::new();
    let mut blessed = Vec::new();
    for entry in &entries {
        let input = entry["input"].as_str().expect("an input string");
        let comparison = lab.read(input, None);
        let names: Vec<&str> = comparison.parsers.iter().map(|(n, _)| n.as_str()).collect();
        if names != PARSERS {
            failures.push(format!(
                "input {input:?}: answered by {names:?}, not all of {PARSERS:?}"
            ));
        }
        let mut hosts = Map::new();
        let mut all_recorded = true;
        for (name, answer) in &comparison.parsers {
            if let Some(problem) = malformed(answer) {
                failures.push(format!("input {input:?}: {name}: {problem}: {answer:?}"));
            }
            if !answer.available {
                unavailable.insert(name.clone(), json!(answer.error));
                all_recorded = false;
                continue;
            }
            if let Some(v) = &answer.version {
                versions.insert(name.clone(), json!(v));
            }
            let recorded = recorded_versions.get(name).and_then(Value::as_str);
            let same_version = answer.version.as_deref() == recorded;
            all_recorded &= same_version;
            let actual = host_value(answer);
            if !bless {
                let expected = entry.get("hosts").and_then(|h| h.get(name));
                if expected != Some(&actual) {
                    let message = format!(
                        "input {input:?}: {name} {} reads {actual}, recorded {} (with {})",
                        answer.version.as_deref().unwrap_or("?"),
                        expected.map_or("nothing".to_owned(), ToString::to_string),
                        recorded.unwrap_or("?"),
                    );
                    if same_version {
                        failures.push(message);
                    } else {
                        moved.push(message);
                    }
                }
            }
            hosts.insert(name.clone(), actual);
        }
        if comparison.verdict().name() != implied_verdict(&comparison) {
            failures.push(format!(
                "input {input:?}: the verdict is {:?}, but the readings imply {:?}",
                comparison.verdict(),
                implied_verdict(&comparison)
            ));
        }
        // The class that explains where the URL goes: the host disagreement's, else the
        // failure disagreement's; a host spelled differently only when nothing else differs.
        // A stale class fails as surely as a changed host.
        let on = |component: Component| {
            comparison
                .disagreements
                .iter()
                .find(move |d| d.component == component)
        };
        let class = on(Component::Host)
            .filter(|d| d.class != Some(Class::SameDestination))
            .or_else(|| on(Component::Failure))
            .or_else(|| on(Component::Host))
            .map_or(Value::Null, |d| json!(d.class.map(Class::name)));
        if !bless {
            let verdict = json!(comparison.verdict().name());
            let mut differences = Vec::new();
            if entry.get("verdict") != Some(&verdict) {
                differences.push(format!(
                    "input {input:?}: the verdict is {verdict}, recorded {}",
                    entry
                        .get("verdict")
                        .map_or("nothing".to_owned(), ToString::to_string)
                ));
            }
            if entry.get("class") != Some(&class) {
                differences.push(format!(
                    "input {input:?}: the class is {class}, recorded {}",
                    entry
                        .get("class")
                        .map_or("nothing".to_owned(), ToString::to_string)
                ));
            }
            if all_recorded {
                failures.extend(differences);
            } else {
                moved.extend(differences);
            }
        }
        blessed.push(
            json!({"input": input, "verdict": comparison.verdict().name(), "class": class, "hosts": hosts}),
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
    let other_versions: Map<String, Value> = versions
        .iter()
        .filter(|(name, v)| recorded_versions.get(*name) != Some(*v))
        .map(|(name, v)| (name.clone(), v.clone()))
        .collect();
    if !other_versions.is_empty() {
        let message = format!(
            "versions other than the recorded ones: {other_versions:?} (recorded: {recorded_versions:?}); \
             {} readings differ:\n{}",
            moved.len(),
            moved.join("\n")
        );
        assert!(!require, "{message}");
        eprintln!("{message}");
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

/// The version each parser had when the corpus was recorded.
fn recorded_version(name: &str) -> Option<String> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(CORPUS);
    let text = std::fs::read_to_string(path).expect("the corpus");
    let first: Value = serde_json::from_str(text.lines().next()?).ok()?;
    first["versions"][name].as_str().map(str::to_owned)
}

/// The OWASP example, pinned by hand from the runtimes' documented behaviour, so that a
/// re-recorded corpus cannot silently lose the case that matters most.
#[test]
fn the_owasp_backslash_example_splits_node_from_python() {
    let mut lab =
        Lab::new(None, Vec::new(), Timeouts::default(), Delivery::Every).expect("the parsers");
    let c = lab.read("http://example.com\\@evil.com", None);
    let host = |name: &str| c.answer(name).and_then(|a| a.host.clone());
    // Checked only where the parser is the version the behaviour was pinned with.
    let pinned = |name: &str| {
        c.answer(name)
            .is_some_and(|a| a.available && a.version == recorded_version(name))
    };
    assert_eq!(host("whatwg").as_deref(), Some("example.com"));
    assert_eq!(host("rust-url").as_deref(), Some("example.com"));
    if pinned("curl") {
        assert_eq!(host("curl").as_deref(), Some("evil.com"));
    }
    if pinned("python") {
        assert_eq!(host("python").as_deref(), Some("evil.com"));
    }
    if pinned("node") {
        assert_eq!(host("node").as_deref(), Some("example.com"));
    }
    // evil.com beside example.com: a host disagreement, which the backslash explains.
    if pinned("curl") || pinned("python") {
        assert_eq!(c.verdict(), urlscope::diff::Verdict::Elsewhere);
        let d = c
            .disagreements
            .iter()
            .find(|d| d.component == urlscope::diff::Component::Host)
            .expect("a host disagreement");
        assert_eq!(d.class.map(|c| c.name()), Some("backslash"));
    }
}
