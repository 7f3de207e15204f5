//! One row per line read, in every mode: a line that is not UTF-8, over the 16 MiB limit, not
//! JSON, empty or ended by CRLF still gives its row, in its place; `check --fix` writes URLs
//! exactly; a byte order mark is taken off the first line and said once; repeated validation
//! errors fold into one entry; messages name the line.

mod common;

use common::urlscope;
use serde_json::{json, Value};

/// The seven lines every mode is fed: a byte order mark before the first, a line that is not
/// UTF-8, one over the limit (16 MiB: skipping it is cheap, so the real limit is the one
/// tested), one that is not JSON, an empty one, one ended by CRLF, and one with an invisible
/// code point.
fn every_kind_of_line() -> Vec<u8> {
    let mut input = b"\xEF\xBB\xBFhttps://a.example/\n\xFF\xFEhttps://x/\n".to_vec();
    input.extend(std::iter::repeat_n(b'a', urlscope::MAX_INPUT + 1));
    input.extend(b"\n{not json\n\nhttps://b.example/\r\nhttps://exa\xE2\x80\x8Bmple.com/\n");
    input
}

const LONG: usize = urlscope::MAX_INPUT + 1;

fn stdout(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn json_rows(out: &std::process::Output) -> Vec<Value> {
    stdout(out)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

/// The error rows of lines 2 and 3, as every JSON mode writes them.
fn error_rows() -> [Value; 2] {
    [
        json!({"line": 2, "error": "not UTF-8", "bytes": "fffe68747470733a2f2f782f"}),
        json!({"line": 3, "error": "longer than 16 MiB", "length": LONG}),
    ]
}

/// The messages every mode gives for lines 2 and 3, and the byte order mark's.
fn assert_messages(what: &str, out: &std::process::Output) {
    let stderr = String::from_utf8_lossy(&out.stderr);
    for expected in [
        "urlscope: standard input starts with a UTF-8 byte order mark; it is not part of the \
         first line",
        "urlscope: line 2: not UTF-8; skipped",
        &format!("urlscope: line 3: longer than 16 MiB ({LONG} bytes); skipped"),
    ] {
        assert_eq!(
            stderr.matches(expected).count(),
            1,
            "{what}: expected {expected:?} once in\n{stderr}"
        );
    }
    assert_eq!(out.status.code(), Some(1), "{what}: {stderr}");
}

#[test]
fn json_modes_give_one_object_per_line_in_order() {
    let input = every_kind_of_line();
    for args in [
        &["parse", "--json", "--fields", "href", "--jobs", "1"][..],
        &["parse", "--json", "--fields", "href", "--jobs", "3"],
        &["check", "--json", "--jobs", "2"],
        &["trace", "--json"],
        &["diff", "--json", "--parsers", "whatwg,rust-url"],
    ] {
        let out = urlscope(args, &input);
        let mut rows = json_rows(&out);
        if args[0] == "check" {
            let summary = rows.pop().expect("a summary");
            assert_eq!(summary["lines_read"], 7, "{args:?}: {summary}");
            assert_eq!(summary["rows_written"], 7, "{args:?}: {summary}");
            assert_eq!(summary["error_rows"], 2, "{args:?}: {summary}");
        }
        assert_eq!(rows.len(), 7, "{args:?}: {rows:#?}");
        assert_eq!(rows[1..3], error_rows(), "{args:?}");
        let href = |row: &Value| {
            row.get("href")
                .or_else(|| row.pointer("/result/href"))
                .or_else(|| row.pointer("/parsers/whatwg/host"))
                .cloned()
        };
        // The byte order mark is not part of the first input; CRLF ends a line (diff keeps the
        // "\r", which the URL parser removes).
        match args[0] {
            "diff" => {
                assert_eq!(rows[0]["input"], "https://a.example/", "{args:?}");
                assert_eq!(rows[5]["input"], "https://b.example/\r", "{args:?}");
                assert_eq!(href(&rows[0]), Some(json!("a.example")));
                assert_eq!(href(&rows[5]), Some(json!("b.example")));
            }
            _ => {
                assert_eq!(
                    href(&rows[0]),
                    Some(json!("https://a.example/")),
                    "{args:?}"
                );
                assert_eq!(
                    href(&rows[5]),
                    Some(json!("https://b.example/")),
                    "{args:?}"
                );
                assert_eq!(
                    href(&rows[6]),
                    Some(json!("https://example.com/")),
                    "{args:?}"
                );
            }
        }
        assert_messages(&format!("{args:?}"), &out);
    }
}

#[test]
fn jsonl_in_modes_keep_bad_lines_in_their_place() {
    let mut input = b"\"https://a.example/\"\n\xFF\xFEhttps://x/\n".to_vec();
    input.extend(std::iter::repeat_n(b'a', LONG));
    input.extend(b"\n{not json\n\n\"https://b.example/\"\r\n");
    for args in [
        &["parse", "--json", "--jsonl-in", "--fields", "href"][..],
        &["trace", "--json", "--jsonl-in"],
    ] {
        let out = urlscope(args, &input);
        let rows = json_rows(&out);
        assert_eq!(rows.len(), 6, "{args:?}: {rows:#?}");
        assert_eq!(rows[1..3], error_rows(), "{args:?}");
        assert_eq!(rows[3]["line"], 4, "{args:?}");
        assert_eq!(rows[4]["line"], 5, "{args:?}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains("urlscope: line 4: not JSON"), "{stderr}");
        assert!(stderr.contains("urlscope: line 5: not JSON"), "{stderr}");
        assert!(
            rows[5].to_string().contains("https://b.example/"),
            "{args:?}"
        );
    }
    // The pattern command's cases: every line gets its answer or its error row.
    let mut input =
        b"\xFF\n{\"pattern\": [\"https://a/*\"], \"inputs\": [\"https://a/b\"]}\n".to_vec();
    input.extend(b"\nnot json\n");
    let out = urlscope(&["pattern", "--jsonl-in"], &input);
    let rows = json_rows(&out);
    assert_eq!(rows.len(), 4, "{rows:#?}");
    assert_eq!(
        rows[0],
        json!({"line": 1, "error": "not UTF-8", "bytes": "ff"})
    );
    assert_eq!(rows[1]["pattern"], json!(["https://a/*"]));
    assert_eq!(rows[2], json!({"line": 3, "error": "empty line"}));
    assert_eq!(rows[3]["line"], 4);
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn get_and_fix_give_one_line_per_line() {
    let input = every_kind_of_line();
    let out = urlscope(&["parse", "--get", "{hostname}"], &input);
    assert_eq!(
        stdout(&out),
        "a.example\n\n\n\n\nb.example\nexample.com\n",
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_messages("--get", &out);
    // --fix writes the line unchanged when it cannot read it (a line over the limit, not kept,
    // as an empty line), and every URL exactly: the invisible code point is not the ten
    // characters of an escape, with or without --raw.
    for args in [&["check", "--fix"][..], &["check", "--fix", "--raw"]] {
        let out = urlscope(args, &input);
        let mut expected = b"https://a.example/\n\xFF\xFEhttps://x/\n\n{not json\n\n".to_vec();
        expected.extend(b"https://b.example/\nhttps://exa\xE2\x80\x8Bmple.com/\n");
        assert_eq!(
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&expected),
            "{args:?}"
        );
        assert_eq!(out.stdout, expected, "{args:?}");
        assert_messages("--fix", &out);
    }
}

#[test]
fn text_modes_give_one_row_per_line() {
    let input = every_kind_of_line();
    let out = urlscope(&["check"], &input);
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[..7],
        [
            "https://a.example/  ok",
            "line 2: error: not UTF-8: \u{FFFD}\u{FFFD}https://x/",
            "line 3: error: longer than 16 MiB",
            "{not json  failure (warn): not a URL: missing-scheme-non-relative-URL at 0..9 (no \
             scheme state): there is no scheme, and no base URL that a relative reference could \
             use",
            "  failure (warn): not a URL: missing-scheme-non-relative-URL at 0..0 (no scheme \
             state): there is no scheme, and no base URL that a relative reference could use",
            "https://b.example/  ok",
            "https://exa\\u{200B}mple.com/  invisible-code-point (warn), parser-refuses (info)",
        ],
        "{text}"
    );
    assert!(
        text.contains("summary: 7 lines read, 7 rows written, 2 lines not read"),
        "{text}"
    );
    assert_messages("check", &out);
    // The tables of parse, trace and diff: one block per line, each ended by an empty line.
    for (args, start) in [
        (&["parse"][..], "input     "),
        (&["trace"], "input: "),
        (&["diff", "--parsers", "whatwg,rust-url"], "input: "),
    ] {
        let out = urlscope(args, &input);
        let text = stdout(&out);
        let starts: Vec<&str> = text
            .lines()
            .filter(|l| l.starts_with(start) || l.starts_with("line "))
            .collect();
        assert_eq!(starts.len(), 7, "{args:?}: {starts:#?}");
        assert!(
            starts[1].starts_with("line 2: error: not UTF-8"),
            "{args:?}"
        );
        assert_eq!(starts[2], "line 3: error: longer than 16 MiB", "{args:?}");
        assert_messages(&format!("{args:?}"), &out);
    }
}

/// Check over a file: a byte order mark is taken off its first URL, said once with the file's
/// name, and each message names the line and the file.
#[test]
fn a_file_with_a_byte_order_mark_checks_its_first_url() {
    let dir = std::env::temp_dir().join(format!("urlscope-rows-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a directory");
    let file = dir.join("list.txt");
    std::fs::write(&file, b"\xEF\xBB\xBFhttps://a.example/\n\xFF\n").expect("written");
    let path = file.to_str().expect("a path");
    let out = urlscope(&["check", "--json", path], b"");
    let rows = json_rows(&out);
    assert_eq!(rows[0]["href"], "https://a.example/");
    assert_eq!(rows[0]["findings"], json!([]));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        format!(
            "urlscope: {path} starts with a UTF-8 byte order mark; it is not part of the first \
             line\nurlscope: line 2 of {path}: not UTF-8; skipped\n"
        )
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--get`'s message for an input that is not a URL names its line.
#[test]
fn messages_name_the_line() {
    let out = urlscope(&["parse", "--get", "{host}"], b"https://a/\nnot a url\n");
    assert_eq!(stdout(&out), "a\n\n");
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "urlscope: line 2: not a URL: missing-scheme-non-relative-URL at 0..9 (no scheme state): \
         there is no scheme, and no base URL that a relative reference could use\n"
    );
}

/// A line of 1,000 "%" has 1,000 invalid-URL-unit errors: the first 100 one by one, the other
/// 900 as one entry with their count and last span, in the JSON and in the text; --fix leaves
/// the line as it is and says why.
#[test]
fn repeated_errors_fold_into_one_entry() {
    let input = format!("http://a/{}", "%".repeat(1000));
    let out = urlscope(&["parse", "--json", "--fields", "errors"], input.as_bytes());
    let rows = json_rows(&out);
    let errors = rows[0]["errors"].as_array().expect("errors");
    assert_eq!(errors.len(), urlscope::validation::REPEAT_LIMIT + 1);
    let folded = &errors[100];
    assert_eq!(folded["type"], "invalid-URL-unit");
    assert_eq!(
        (&folded["start"], &folded["end"]),
        (&json!(109), &json!(110))
    );
    assert_eq!(folded["count"], 900);
    assert_eq!(folded["last"], json!({"start": 1008, "end": 1009}));
    assert_eq!(folded["fix"], Value::Null);
    assert!(errors[99].get("count").is_none());
    let out = urlscope(&["parse", input.as_str()], b"");
    let text = stdout(&out);
    assert_eq!(text.matches("invalid-URL-unit").count(), 101, "{text}");
    assert!(
        text.contains("(×900 from here, the last at 1008..1009)"),
        "{text}"
    );
    let out = urlscope(&["check", "--fix"], format!("{input}\n").as_bytes());
    assert_eq!(stdout(&out), format!("{input}\n"));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "urlscope: line 1: 1000 invalid-URL-unit errors; left as it is\n"
    );
}

/// Standard error that is a terminal gets the progress line (under `script`, which gives the
/// command one); --quiet takes it away, and the output is the same.
#[test]
fn progress_shows_on_a_terminal_only() {
    if std::process::Command::new("script")
        .arg("--version")
        .output()
        .is_err()
    {
        eprintln!("note: script (util-linux) missing; the terminal run is skipped");
        return;
    }
    let dir = std::env::temp_dir().join(format!("urlscope-progress-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a directory");
    let list = dir.join("list.txt");
    let lines: String = (0..50_000)
        .map(|i| format!("https://h{i}.example/\n"))
        .collect();
    std::fs::write(&list, lines).expect("written");
    let run = |quiet: &str| {
        let command = format!(
            "{} check {quiet} --fix {} > {}",
            env!("CARGO_BIN_EXE_urlscope"),
            list.display(),
            dir.join("out.txt").display()
        );
        let out = std::process::Command::new("script")
            .args(["-qec", &command, "/dev/null"])
            .stdin(std::process::Stdio::null())
            .output()
            .expect("script");
        let fixed = std::fs::read(dir.join("out.txt")).expect("the output");
        (String::from_utf8_lossy(&out.stdout).into_owned(), fixed)
    };
    let (terminal, fixed) = run("");
    assert!(terminal.contains("lines"), "{terminal:?}");
    assert_eq!(fixed, std::fs::read(&list).expect("the list"));
    let (terminal, fixed) = run("--quiet");
    assert!(!terminal.contains("lines"), "{terminal:?}");
    assert_eq!(fixed, std::fs::read(&list).expect("the list"));
    let _ = std::fs::remove_dir_all(&dir);
}
