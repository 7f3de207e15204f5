//! `urlscope pattern` as a user runs it: the text output, `--jsonl-in` in the
//! web-platform-tests' shape, the trace, bad input, and the catastrophic-pattern guard.

mod common;

use serde_json::Value;
use std::process::Output;
use std::time::{Duration, Instant};

/// Runs urlscope with `stdin` as text, through the shared runner that writes it from a thread.
fn urlscope(args: &[&str], stdin: &str) -> Output {
    common::urlscope(args, stdin.as_bytes())
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

#[test]
fn text_output_names_the_first_component_that_failed_and_the_groups() {
    let output = urlscope(
        &[
            "pattern",
            "https://*.example.com/books/:id(\\d+)",
            "https://shop.example.com/books/12",
            "https://example.com/books/12",
        ],
        "",
    );
    let text = stdout(&output);
    // One input did not match: exit 1.
    assert_eq!(output.status.code(), Some(1), "{text}");
    assert!(
        text.contains("  pathname  /books/:id(\\d+)          /^\\/books(?:\\/(\\d+))$/v"),
        "{text}"
    );
    assert!(
        text.contains("  hostname  *.example.com            /^(.*)\\.example\\.com$/v"),
        "{text}"
    );
    assert!(
        text.contains("  ✓ pathname  \"/books/12\"              id = \"12\""),
        "{text}"
    );
    assert!(
        text.contains("  ✓ hostname  \"shop.example.com\"       0 = \"shop\""),
        "{text}"
    );
    assert!(
        text.contains(
            "  no match: the hostname \"example.com\" does not match \"*.example.com\" \
             (/^(.*)\\.example\\.com$/v)"
        ),
        "{text}"
    );
}

#[test]
fn jsonl_in_answers_each_case_with_the_standards_values() {
    let cases = concat!(
        r#"{"pattern": [{"pathname": "/foo/:bar?"}], "inputs": [{"pathname": "/foo"}]}"#,
        "\n",
        r#"{"pattern": ["https://example.com/(\\m)"], "inputs": []}"#,
        "\n",
        r#"{"pattern": [{"pathname": "/\ud800"}], "inputs": [{"pathname": "/\ud800"}]}"#,
        "\n",
        r#"{"pattern": [{"pathname": "/a"}], "inputs": [{"pathname": "/a"}, "https://example.com"]}"#,
        "\n",
    );
    let output = urlscope(&["pattern", "--jsonl-in"], cases);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let lines: Vec<Value> = stdout(&output)
        .lines()
        .map(|l| serde_json::from_str(l).expect("JSON line"))
        .collect();
    assert_eq!(lines.len(), 4);
    // An optional group that did not participate is undefined: null.
    assert_eq!(lines[0]["test"], true);
    assert_eq!(lines[0]["match"]["pathname"]["groups"]["bar"], Value::Null);
    assert_eq!(lines[0]["components"]["pathname"], "/foo/:bar?");
    assert_eq!(
        lines[0]["regexps"]["pathname"],
        "^\\/foo(?:\\/([^\\/]+?))?$"
    );
    assert_eq!(lines[0]["has_regexp_groups"], false);
    // `\m` is not a valid escape under the v flag: the constructor throws.
    assert!(lines[1]["error"].is_string(), "{}", lines[1]);
    assert_eq!(lines[1]["test"], Value::Null);
    // A lone surrogate reads as U+FFFD, which the pathname percent-encodes.
    assert_eq!(lines[2]["components"]["pathname"], "/%EF%BF%BD");
    assert_eq!(lines[2]["test"], true);
    // A base URL beside an init throws in test() and exec(): both null.
    assert_eq!(lines[3]["error"], Value::Null);
    assert_eq!(lines[3]["test"], Value::Null);
    assert_eq!(lines[3]["match"], Value::Null);
}

#[test]
fn a_line_that_is_not_a_case_is_a_message_and_exit_1() {
    let output = urlscope(&["pattern", "--jsonl-in"], "{\"pattern\": 3}\nnot json\n");
    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("line 1: a case has a \"pattern\" array"),
        "{stderr}"
    );
    assert!(stderr.contains("line 2: not JSON"), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
}

#[test]
fn trace_shows_the_constructor_string_parsers_steps() {
    let output = urlscope(&["pattern", "--trace", "https://example.com:8080/a"], "");
    let text = stdout(&output);
    assert!(text.contains("constructor string parser"), "{text}");
    assert!(
        text.contains("\"//\" after the protocol: an authority follows"),
        "{text}"
    );
    assert!(text.contains("hostname → port"), "{text}");
    assert!(text.contains("hostname = \"example.com\""), "{text}");
    assert!(text.contains("port = \"8080\""), "{text}");
}

/// `(a+)+$` backtracks exponentially on a run of `a` that cannot match: the match fails with
/// a clear error at the time limit instead of hanging.
#[test]
fn a_catastrophic_pattern_is_an_error_not_a_hang() {
    let start = Instant::now();
    let input = format!("{{\"pathname\":\"{}!\"}}", "a".repeat(64));
    let output = urlscope(
        &[
            "pattern",
            "--time-limit-ms",
            "200",
            "{\"pathname\":\"(a+)+$\"}",
            &input,
        ],
        "",
    );
    let text = stdout(&output);
    assert_eq!(output.status.code(), Some(1), "{text}");
    assert!(
        text.contains("error: matching the pathname component took longer than 200 ms"),
        "{text}"
    );
    assert!(
        start.elapsed() < Duration::from_secs(20),
        "{:?}",
        start.elapsed()
    );
}

/// In a `--jsonl-in` run, a catastrophic case is the time limit's error and the cases after
/// it are answered, the same regular expression's too: the stopped search left nothing
/// running to refuse them.
#[test]
fn cases_after_a_catastrophic_one_are_answered() {
    let pattern = r#"[{"pathname":"(a+)+$"}]"#;
    let lines = [
        format!(
            r#"{{"pattern":{pattern},"inputs":[{{"pathname":"{}!"}}]}}"#,
            "a".repeat(64)
        ),
        format!(r#"{{"pattern":{pattern},"inputs":[{{"pathname":"aa$"}}]}}"#),
        format!(
            r#"{{"pattern":{pattern},"inputs":[{{"pathname":"{}!"}}]}}"#,
            "a".repeat(64)
        ),
        r#"{"pattern":[{"pathname":"/books/:id"}],"inputs":[{"pathname":"/books/1"}]}"#.into(),
    ];
    let start = Instant::now();
    let output = urlscope(
        &["pattern", "--jsonl-in", "--time-limit-ms", "100"],
        &(lines.join("\n") + "\n"),
    );
    let text = stdout(&output);
    let answers: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect();
    assert_eq!(answers.len(), 4, "{text}");
    let stopped = "matching the pathname component took longer than 100 ms: the regular \
                   expression backtracks catastrophically on this input";
    assert_eq!(answers[0]["input_error"], stopped, "{text}");
    assert_eq!(answers[1]["test"], true, "{text}");
    assert_eq!(answers[2]["input_error"], stopped, "{text}");
    assert_eq!(answers[3]["test"], true, "{text}");
    assert_eq!(answers[3]["match"]["pathname"]["groups"]["id"], "1");
    // A stopped match is written, but it is no answer of the standard's: the run says so on
    // standard error, line by line, and exits 1.
    assert_eq!(output.status.code(), Some(1), "{text}");
    let errors = String::from_utf8_lossy(&output.stderr);
    assert!(
        errors.contains("line 1: not answered: matching the pathname"),
        "{errors}"
    );
    assert!(errors.contains("line 3: not answered"), "{errors}");
    assert!(
        !errors.contains("line 2") && !errors.contains("line 4"),
        "{errors}"
    );
    // Two stops at 100 ms each, with a generous bound for a loaded machine.
    assert!(
        start.elapsed() < Duration::from_secs(20),
        "{:?}",
        start.elapsed()
    );
}

/// `--generate` (a proposal outside the standard): the value, canonicalized as the
/// component's fixed text is; a value that cannot be generated is a message and exit 1.
#[test]
fn generate_fills_the_named_groups() {
    let output = urlscope(
        &[
            "pattern",
            "https://example.com/books/:id",
            "--generate",
            "pathname",
            r#"{"id": "a b"}"#,
        ],
        "",
    );
    assert!(output.status.success(), "{output:?}");
    assert_eq!(stdout(&output), "/books/a%20b\n");
    let output = urlscope(
        &[
            "pattern",
            "https://example.com/books/:id",
            "--generate",
            "pathname",
            r#"{"id": "a/b"}"#,
        ],
        "",
    );
    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("holds the delimiter '/'"), "{stderr}");
    assert!(stdout(&output).is_empty());
}

/// `--json` carries two other readings: the `urlpattern` crate's, and Node's (its own
/// URLPattern, or urlpattern-polyfill) when Node can give one. `agrees` is null without a
/// reading. A non-special pathname is where the crate parts from the standard.
#[test]
fn json_has_the_crates_and_nodes_readings() {
    let output = urlscope(
        &[
            "pattern",
            "--json",
            "foo://example.com/books/:id",
            "foo://example.com/books/12",
        ],
        "",
    );
    assert!(output.status.success(), "{output:?}");
    let answer: Value = serde_json::from_str(stdout(&output).trim()).expect("one JSON object");
    assert_eq!(answer["test"], true);
    assert_eq!(answer["match"]["pathname"]["groups"]["id"], "12");
    assert_eq!(answer["second_reading"]["reader"], "urlpattern 0.3.0");
    assert_eq!(answer["second_reading"]["agrees"], false);
    let node = &answer["node_reading"];
    match (node["available"].as_bool(), node["reader"].as_str()) {
        (Some(true), Some("urlpattern-polyfill 10.1.0")) => {
            assert_eq!(node["agrees"], true, "{node}");
            assert_eq!(node["answer"]["components"]["pathname"], "/books/:id");
        }
        (Some(true), Some(reader)) => {
            assert!(reader.starts_with("node "), "{node}");
            assert!(node["agrees"].is_boolean(), "{node}");
        }
        _ => {
            assert_eq!(
                node["agrees"],
                Value::Null,
                "no reading, no agreement: {node}"
            );
            assert!(
                node["error"].as_str().is_some_and(|e| !e.is_empty()),
                "{node}"
            );
            eprintln!("node's reading: skipped ({})", node["error"]);
        }
    }
}

/// A "]" before any "[" in a constructor string's hostname: the standard's bracket depth goes
/// below zero, where the `urlpattern` crate's unsigned one would panic. The command answers
/// (the hostname does not canonicalize) and says the crate was not asked.
#[test]
fn a_pattern_the_second_reading_cannot_take_is_still_answered() {
    let output = urlscope(
        &["pattern", "https://].example.com/", "https://example.com/"],
        "",
    );
    assert_eq!(output.status.code(), Some(1), "{output:?}");
    assert!(stdout(&output).contains("error: canonicalize a hostname"));
    let output = urlscope(
        &[
            "pattern",
            "--json",
            "https://].example.com/",
            "https://example.com/",
        ],
        "",
    );
    let answer: Value = serde_json::from_str(stdout(&output).trim()).expect("one JSON object");
    assert!(answer["error"].is_string(), "{answer}");
    assert_eq!(answer["second_reading"]["agrees"], Value::Null);
    assert!(answer["second_reading"]["error"]
        .as_str()
        .is_some_and(|e| e.starts_with("not asked")));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
}

/// A pattern of 6,400 groups, `https://e.com/:a0/:a1/…`, against an input that stops half-way:
/// the command says where the match stops (the explanation bisects the parts, where it once
/// compiled an expression for every prefix of them: 5.8 GB), and the `urlpattern` crate is not
/// asked (its matcher's memory grows with the groups times the expression's length).
#[test]
fn a_pattern_of_many_groups_is_answered_and_explained() {
    let path: String = (0..6400).map(|i| format!("/:a{i}")).collect();
    let pattern = format!("https://e.com{path}");
    let input = format!("https://e.com{}", "/x".repeat(3200));
    let output = urlscope(&["pattern", &pattern, &input], "");
    assert_eq!(output.status.code(), Some(1), "{output:?}");
    let text = stdout(&output);
    let stops = format!(
        "{:?} matches {:?}, but no prefix of the value matches once the next part, \"/:a3200\", \
         follows",
        (0..3200).map(|i| format!("/:a{i}")).collect::<String>(),
        "/x".repeat(3200)
    );
    assert!(
        text.lines()
            .any(|l| l.starts_with("  no match: the pathname") && l.ends_with(&stops)),
        "{text:.2000}"
    );
    let output = urlscope(&["pattern", "--json", &pattern, &input], "");
    assert_eq!(output.status.code(), Some(1), "{output:?}");
    let answer: Value = serde_json::from_str(stdout(&output).trim()).expect("one JSON object");
    assert_eq!(answer["test"], false);
    let second = &answer["second_reading"];
    assert_eq!(second["agrees"], Value::Null, "{second}");
    assert_eq!(
        second["error"],
        "not asked: urlpattern 0.3.0 matches with the regex crate, whose memory grows with the \
         groups times the regular expression's length, and its pathname has 6400 groups \
         (more than 64)"
    );
}

/// The hints the inspector's Pattern view gives (the library's `hints`), on the command line:
/// each usual mistake in a `hint:` line, and none for a clean pattern.
#[test]
fn text_output_gives_the_pattern_views_hints() {
    let cases = [
        (
            vec!["pattern", "https://*.example.com", "https://example.com/"],
            "  hint: The hostname \"*.example.com\" needs a subdomain: \"example.com\" itself does \
             not match. \"{*.}?example.com\" matches both.",
        ),
        // What a shell leaves of an unquoted https://example.com/:id(\d+).
        (
            vec!["pattern", "https://example.com/:id(d+)"],
            "  hint: \"(d+)\" is the letter d, not \"\\d\": a shell drops the backslash of an \
             unquoted \\d.",
        ),
        (
            vec!["pattern", "/books/:id"],
            "  hint: A pattern without a protocol is relative: give a base URL (the inspector's \
             Base line, or --base on the command line)",
        ),
    ];
    for (args, hint) in cases {
        let output = urlscope(&args, "");
        let text = stdout(&output);
        assert!(text.contains(hint), "{args:?}: no {hint:?} in:\n{text}");
    }
    // The relative pattern throws: the hint follows the error, and the exit status is 1.
    let output = urlscope(&["pattern", "/books/:id"], "");
    let text = stdout(&output);
    assert_eq!(output.status.code(), Some(1), "{text}");
    assert!(
        text.contains("  error: a relative constructor string")
            || text
                .lines()
                .nth(1)
                .is_some_and(|l| l.starts_with("  error: ")),
        "{text}"
    );
    // With the base, nothing to say.
    let output = urlscope(
        &["pattern", "--base", "https://example.com", "/books/:id"],
        "",
    );
    let text = stdout(&output);
    assert!(output.status.success(), "{text}");
    assert!(!text.contains("hint:"), "{text}");
    let output = urlscope(
        &[
            "pattern",
            "https://{*.}?example.com/books/:id(\\d+)",
            "https://example.com/books/12",
        ],
        "",
    );
    let text = stdout(&output);
    assert!(output.status.success(), "{text}");
    assert!(!text.contains("hint:"), "{text}");
}

/// `--json` has the hints as a `hints` array, empty for a clean pattern, beside the answer's
/// members as they were.
#[test]
fn json_output_has_the_hints() {
    let output = urlscope(
        &[
            "pattern",
            "--json",
            "https://*.example.com",
            "https://example.com/",
        ],
        "",
    );
    let answer: Value = serde_json::from_str(stdout(&output).trim()).expect("one JSON object");
    assert_eq!(answer["test"], false);
    assert_eq!(
        answer["hints"],
        serde_json::json!([
            "The hostname \"*.example.com\" needs a subdomain: \"example.com\" itself does not \
             match. \"{*.}?example.com\" matches both."
        ])
    );
    let keys: Vec<&str> = answer
        .as_object()
        .expect("an object")
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(
        keys[..8],
        [
            "pattern",
            "inputs",
            "error",
            "components",
            "regexps",
            "has_regexp_groups",
            "test",
            "match"
        ],
        "{keys:?}"
    );
    let output = urlscope(
        &[
            "pattern",
            "--json",
            "https://{*.}?example.com",
            "https://example.com/",
        ],
        "",
    );
    let answer: Value = serde_json::from_str(stdout(&output).trim()).expect("one JSON object");
    assert_eq!(answer["test"], true);
    assert_eq!(answer["hints"], serde_json::json!([]));
}

/// A tokenizing error names its cause and where it is in the pattern as typed.
#[test]
fn a_tokenizing_error_names_its_cause_and_position() {
    let output = urlscope(&["pattern", "https://example.com/:id(\\d+"], "");
    let text = stdout(&output);
    assert_eq!(output.status.code(), Some(1), "{text}");
    assert!(
        text.contains(
            "  error: tokenizing error at code point 23 of the pattern (\"(\\d+\"): a regexp \
             group's \"(\" has no \")\""
        ),
        "{text}"
    );
}
