//! `parse` and `check` over many lines: on one thread and on four, with the default object and
//! with `--fields`, the output is byte for byte what the full report of each line gives, and
//! lines that cannot be read are reported by their number, in order.

mod common;

use common::urlscope;

use serde_json::{json, Map, Value};
use std::path::PathBuf;

use encoding_rs::UTF_8;
use urlscope::report::{Outcome, Report};
use urlscope::validation::fix::Fixer;
use urlscope::Url;

/// The inputs: the first lines of the two bench lists (when `../shared/bench` is there) and
/// every urltestdata input that fits on one line.
fn inputs() -> Vec<String> {
    let mut inputs = Vec::new();
    let bench = common::manifest_dir()
        .join("..")
        .join("shared")
        .join("bench");
    for (file, take) in [("kasztp.txt", 2000), ("node_files.txt", 1000)] {
        let path: PathBuf = bench.join(file);
        if let Ok(text) = std::fs::read_to_string(&path) {
            // kasztp.txt starts with a UTF-8 BOM, which the command line takes off the first
            // line of its input (and only that one): the oracle reads the URLs without it.
            let text = text.strip_prefix('\u{feff}').unwrap_or(&text);
            inputs.extend(text.lines().take(take).map(str::to_owned));
        }
    }
    let source = common::discover().expect("web-platform-tests data");
    let data = common::load(&source.dir, "urltestdata.json")
        .expect("urltestdata.json")
        .expect("readable urltestdata.json");
    for case in data.as_array().expect("an array") {
        if let Some(input) = case.get("input").and_then(Value::as_str) {
            // A line of input cannot hold a newline, and its "\r" before one is dropped.
            if !input.contains(['\n', '\r']) {
                inputs.push(input.to_owned());
            }
        }
    }
    assert!(inputs.len() > 500, "only {} inputs", inputs.len());
    inputs
}

/// The `parse --json` object the contract describes, built from the full report.
fn full_parse_object(input: &str) -> Value {
    let report = Report::untraced(input, None, UTF_8);
    let fixer = Fixer::new(
        &report.input,
        report.url.as_ref().map(Url::record),
        report.host_span,
    );
    let errors: Vec<Value> = report
        .errors
        .iter()
        .map(|e| {
            json!({"type": e.kind.name(), "start": e.span.start, "end": e.span.end,
                   "message": e.message, "browsers": e.kind.acceptance(), "fix": fixer.fix(e)})
        })
        .collect();
    let writing = serde_json::to_value(&report.writing).expect("writing");
    match report.components() {
        Some(c) => json!({
            "input": input, "base": null, "href": c.href, "origin": c.origin,
            "protocol": c.protocol, "username": c.username, "password": c.password,
            "host": c.host, "hostname": c.hostname, "port": c.port, "pathname": c.pathname,
            "search": c.search, "hash": c.hash, "searchParams": c.search_params,
            "valid": report.errors.is_empty(), "errors": errors, "writing": writing,
            "host_analysis": report.host_analysis,
        }),
        None => {
            let mut object = json!({
                "input": input, "base": null, "failure": true, "errors": errors,
                "writing": writing,
            });
            // A host failure says the step that returned it; any other, its validation error.
            match (&report.failure, &report.outcome) {
                (Some(failure), _) => {
                    object["message"] = json!(format!("not a URL: {failure}"));
                    object["cause"] = json!(failure);
                }
                (None, Outcome::Failure { cause: Some(cause) }) => {
                    object["message"] = json!(format!("not a URL: {cause}"));
                }
                _ => {}
            }
            object
        }
    }
}

/// `object` with only `fields` (and what says a failure and why), in its order.
fn only(object: &Value, fields: &[&str]) -> Value {
    let kept: Map<String, Value> = object
        .as_object()
        .expect("an object")
        .iter()
        .filter(|(k, _)| {
            fields.contains(&k.as_str()) || ["failure", "message", "cause"].contains(&k.as_str())
        })
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    Value::Object(kept)
}

/// The `check --json` object of one URL, built from the full report.
fn full_check_object(
    input: &str,
    summary: &mut std::collections::BTreeMap<String, usize>,
) -> Value {
    let report = Report::untraced(input, None, UTF_8);
    let mut findings: Vec<Value> = report
        .host_analysis
        .iter()
        .flat_map(|a| &a.findings)
        .map(|f| {
            let spans: Vec<[usize; 2]> = f.spans.iter().map(|s| [s.start, s.end]).collect();
            json!({"id": f.id, "severity": f.severity, "title": f.title, "detail": f.detail,
                   "spans": spans, "code_points": f.code_points})
        })
        .collect();
    if let Some(why) = report.not_a_url() {
        let spans: Vec<[usize; 2]> = why.span.iter().map(|s| [s.start, s.end]).collect();
        findings.push(
            json!({"id": "failure", "severity": "warn", "title": "failure",
                             "detail": why.message, "spans": spans, "step": why.step,
                             "explanation": why.explanation, "fix": why.fixed}),
        );
    }
    for f in &findings {
        *summary
            .entry(f["id"].as_str().expect("id").to_owned())
            .or_default() += 1;
    }
    let href = report.url.as_ref().map(|u| u.href().to_owned());
    let host = report.url.as_ref().map(|u| u.hostname().to_owned());
    let imitates = report.host_analysis.as_ref().map(|a| &a.imitates);
    // Without --allow-host or --deny-internal there is no gate: "gate" is null.
    json!({"input": input, "href": href, "host": host, "findings": findings,
           "imitates": imitates.cloned().unwrap_or_default(), "gate": null})
}

fn lines_of(values: impl IntoIterator<Item = Value>) -> String {
    values.into_iter().map(|v| format!("{v}\n")).collect()
}

/// The first line where two outputs differ, for a readable failure.
fn assert_same(what: &str, expected: &str, actual: &[u8]) {
    let actual = String::from_utf8_lossy(actual);
    if expected == actual {
        return;
    }
    for (i, (e, a)) in expected.lines().zip(actual.lines()).enumerate() {
        assert_eq!(e, a, "{what}: line {} differs", i + 1);
    }
    panic!(
        "{what}: {} lines expected, {} written",
        expected.lines().count(),
        actual.lines().count()
    );
}

#[test]
fn parse_json_on_one_and_four_threads_is_the_full_report_byte_for_byte() {
    let inputs = inputs();
    let stdin = inputs.join("\n") + "\n";
    let full: Vec<Value> = inputs.iter().map(|i| full_parse_object(i)).collect();
    let expected_default = lines_of(full.iter().cloned());
    let fields = ["href", "host", "errors"];
    let expected_fields = lines_of(full.iter().map(|o| only(o, &fields)));
    for jobs in ["1", "4"] {
        let output = urlscope(&["parse", "--json", "--jobs", jobs, "-"], stdin.as_bytes());
        assert_same(
            &format!("parse --json --jobs {jobs}"),
            &expected_default,
            &output.stdout,
        );
        let output = urlscope(
            &[
                "parse",
                "--json",
                "--fields",
                "href,host,errors",
                "--jobs",
                jobs,
                "-",
            ],
            stdin.as_bytes(),
        );
        assert_same(
            &format!("parse --json --fields href,host,errors --jobs {jobs}"),
            &expected_fields,
            &output.stdout,
        );
    }
}

#[test]
fn get_on_four_threads_matches_one_thread() {
    let stdin = inputs().join("\n") + "\n";
    let args = |jobs| ["parse", "--get", "{href} {hostname}", "--jobs", jobs, "-"];
    let one = urlscope(&args("1"), stdin.as_bytes());
    let four = urlscope(&args("4"), stdin.as_bytes());
    assert!(one.stdout.len() > 1000);
    assert_same(
        "parse --get --jobs 4",
        &String::from_utf8_lossy(&one.stdout),
        &four.stdout,
    );
    assert_eq!(one.stderr, four.stderr, "the failures' warnings, in order");
    assert_eq!(one.status.code(), four.status.code());
}

#[test]
fn check_json_on_one_and_four_threads_is_the_full_report_byte_for_byte() {
    let inputs = inputs();
    let stdin = inputs.join("\n") + "\n";
    let mut summary = std::collections::BTreeMap::new();
    let mut expected: Vec<Value> = inputs
        .iter()
        .map(|i| full_check_object(i, &mut summary))
        .collect();
    expected.push(json!({
        "summary": summary, "lines_read": inputs.len(), "rows_written": inputs.len(),
        "error_rows": 0,
    }));
    let expected = lines_of(expected);
    for jobs in ["1", "4"] {
        let output = urlscope(&["check", "--json", "--jobs", jobs, "-"], stdin.as_bytes());
        assert_same(
            &format!("check --json --jobs {jobs}"),
            &expected,
            &output.stdout,
        );
    }
}

/// Good lines with unreadable ones among them: every unreadable line is named by its number,
/// in input order, and every good line's output stays in its place.
#[test]
fn unreadable_lines_are_reported_by_number_in_order_on_four_threads() {
    let mut stdin = Vec::new();
    let mut bad = Vec::new();
    let long = vec![b'a'; urlscope::MAX_INPUT + 1];
    // More lines than a chunk holds (8,192), so that chunks are handed over while others are
    // written.
    for number in 1..=20_000usize {
        match number % 97 {
            0 => {
                stdin.extend_from_slice(b"https://a.example/\xff\xfe");
                bad.push(format!("urlscope: line {number}: not UTF-8; skipped"));
            }
            50 if number < 400 => {
                stdin.extend_from_slice(&long);
                bad.push(format!(
                    "urlscope: line {number}: longer than 16 MiB ({} bytes); skipped",
                    long.len(),
                ));
            }
            _ => stdin.extend_from_slice(format!("https://h{number}.example/p").as_bytes()),
        }
        stdin.push(b'\n');
    }
    let output = urlscope(
        &["parse", "--get", "{hostname}", "--jobs", "4", "-"],
        &stdin,
    );
    assert_eq!(
        String::from_utf8_lossy(&output.stderr),
        bad.join("\n") + "\n"
    );
    let hosts: Vec<String> = String::from_utf8_lossy(&output.stdout)
        .lines()
        .map(str::to_owned)
        .collect();
    // An unreadable line gets an empty line, so that output line n is input line n's.
    let expected: Vec<String> = (1..=20_000usize)
        .map(|n| match n % 97 == 0 || (n % 97 == 50 && n < 400) {
            true => String::new(),
            false => format!("h{n}.example"),
        })
        .collect();
    assert_eq!(hosts, expected);
    assert_eq!(output.status.code(), Some(1));

    // check names the same lines, and a line it did not check makes it exit 1: that line
    // could have held the finding to fail on.
    let output = urlscope(&["check", "--jobs", "4", "-"], &stdin);
    assert_eq!(
        String::from_utf8_lossy(&output.stderr),
        bad.join("\n") + "\n"
    );
    let summary = format!(
        "summary: 20000 lines read, 20000 rows written, {} lines not read",
        bad.len()
    );
    assert!(String::from_utf8_lossy(&output.stdout).contains(&summary));
    assert_eq!(output.status.code(), Some(1));
}

/// `--jsonl-in` lines that are not JSON get their `{"line", "error"}` object in their place.
#[test]
fn bad_json_lines_keep_their_place_on_four_threads() {
    let mut stdin = String::new();
    let mut expected = Vec::new();
    for number in 1..=20_000usize {
        if number % 89 == 0 {
            stdin.push_str("{not json\n");
            expected.push(format!("line {number}"));
        } else {
            stdin.push_str(&format!("\"https://h{number}.example/\"\n"));
            expected.push(format!("h{number}.example"));
        }
    }
    let output = urlscope(
        &[
            "parse",
            "--json",
            "--jsonl-in",
            "--fields",
            "hostname",
            "--jobs",
            "4",
            "-",
        ],
        stdin.as_bytes(),
    );
    let seen: Vec<String> = String::from_utf8_lossy(&output.stdout)
        .lines()
        .map(|l| {
            let v: Value = serde_json::from_str(l).expect("a JSON line");
            match (&v["hostname"], &v["line"]) {
                (Value::String(host), _) => host.clone(),
                (_, Value::Number(n)) => format!("line {n}"),
                _ => panic!("unexpected line {l}"),
            }
        })
        .collect();
    assert_eq!(seen, expected);
    let warned: Vec<String> = String::from_utf8_lossy(&output.stderr)
        .lines()
        .map(|l| {
            l.split(':')
                .nth(1)
                .expect("a line number")
                .trim()
                .to_owned()
        })
        .collect();
    let bad: Vec<String> = expected
        .into_iter()
        .filter(|e| e.starts_with("line"))
        .collect();
    assert_eq!(warned, bad);
}
