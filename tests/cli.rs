//! The command line, run as a real process: the JSON contract, exit codes, bad input, streaming,
//! text output (insta snapshots), and the web-platform-tests driven through one `parse` process.

mod common;

use common::urlscope;

use serde_json::{json, Value};
use std::io::{Read, Write};
use std::process::{Command, Output, Stdio};

fn json_lines(output: &Output) -> Vec<Value> {
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON: {l}: {e}")))
        .collect()
}

#[test]
fn parse_json_success_has_every_field() {
    let out = urlscope(
        &[
            "parse",
            "--json",
            "https://user:pw@EXAMPLE.com:8080/a/../b?x=1&y=%20#f",
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(0));
    let mut v = json_lines(&out).remove(0);
    let analysis = v
        .as_object_mut()
        .and_then(|o| o.shift_remove("host_analysis"))
        .expect("host_analysis");
    assert_eq!(analysis["registrable_domain"], json!("example.com"));
    assert_eq!(analysis["findings"][0]["id"], json!("credentials"));
    assert_eq!(
        v,
        json!({
            "input": "https://user:pw@EXAMPLE.com:8080/a/../b?x=1&y=%20#f", "base": null,
            "href": "https://user:pw@example.com:8080/b?x=1&y=%20#f", "origin": "https://example.com:8080",
            "protocol": "https:", "username": "user", "password": "pw", "host": "example.com:8080",
            "hostname": "example.com", "port": "8080", "pathname": "/b", "search": "?x=1&y=%20", "hash": "#f",
            "searchParams": [["x", "1"], ["y", " "]], "valid": false,
            "errors": [{"type": "invalid-credentials", "start": 8, "end": 16,
                        "message": "the URL includes a username or password",
                        "browsers": "accepted",
                        "fix": {"edits": [{"start": 8, "end": 16, "replacement": ""}],
                                "same_href": false}}],
            "writing": {
                "valid": false,
                "production_path": ["valid URL string", "absolute-URL-with-fragment string",
                                    "absolute-URL string", "scheme-relative-special-URL string",
                                    "URL-port string"],
                // "https://user:" (an empty port) begins a valid URL string; "p" is no digit.
                "position": 13,
                "expected": "an ASCII digit, not U+0070 (p); the \"@\" further on ends a username or password, which a valid URL string cannot hold"
            },
        })
    );
    let keys: Vec<&str> = v
        .as_object()
        .map(|o| o.keys().map(String::as_str).collect())
        .unwrap_or_default();
    assert_eq!(
        keys,
        [
            "input",
            "base",
            "href",
            "origin",
            "protocol",
            "username",
            "password",
            "host",
            "hostname",
            "port",
            "pathname",
            "search",
            "hash",
            "searchParams",
            "valid",
            "errors",
            "writing"
        ]
    );
}

#[test]
fn parse_json_failure_and_bad_base() {
    let out = urlscope(&["parse", "--json", "https://[::1"], b"");
    assert_eq!(out.status.code(), Some(1));
    let v = &json_lines(&out)[0];
    assert_eq!(v["failure"], json!(true));
    assert_eq!(v["errors"][0]["type"], json!("IPv6-unclosed"));
    assert_eq!(
        (
            v["errors"][0]["start"].as_u64(),
            v["errors"][0]["end"].as_u64()
        ),
        (Some(8), Some(12))
    );
    assert!(v.get("href").is_none());

    let out = urlscope(&["parse", "--json", "--base", "not a base", "x"], b"");
    assert_eq!(out.status.code(), Some(1));
    let v = &json_lines(&out)[0];
    assert_eq!(v["failure"], json!(true));
    assert!(
        v["message"]
            .as_str()
            .is_some_and(|m| m.contains("base URL")),
        "{v}"
    );
}

/// A drive letter's "|" in a relative reference against a file base is fixed as "/C:" (where
/// "C:" alone would start a scheme) on every surface that fixes: `parse --json`'s fix keeps the
/// href and `check --fix` writes it, as the page does; never "%7C", which loses the letter.
#[test]
fn a_relative_drive_letter_is_fixed_against_its_base_everywhere() {
    let base = "file:///x/y";
    let href = |input: &str| {
        let out = urlscope(&["parse", "--json", "--base", base, input], b"");
        json_lines(&out)[0]["href"].clone()
    };
    let out = urlscope(&["parse", "--json", "--base", base, "C|/d"], b"");
    let v = &json_lines(&out)[0];
    let fixes: Vec<&Value> = v["errors"]
        .as_array()
        .expect("errors")
        .iter()
        .map(|e| &e["fix"])
        .filter(|f| !f.is_null())
        .collect();
    assert!(!fixes.is_empty(), "{v}");
    for fix in fixes {
        assert_eq!(fix["same_href"], json!(true), "{v}");
        assert_eq!(fix["edits"][0]["replacement"], json!("/C:"), "{v}");
    }
    let out = urlscope(&["check", "--fix", "--base", base], b"C|/d\n");
    let written = String::from_utf8_lossy(&out.stdout).trim_end().to_owned();
    assert_eq!(written, "/C:/d");
    assert_eq!(href(&written), href("C|/d"));
}

/// A base that fails says why in `base_errors`, with spans into the base as given; the
/// input's own `errors` stay empty, as it was not parsed.
#[test]
fn a_failing_base_gives_its_errors() {
    let base = " http://[::1";
    let types = |v: &Value| -> Vec<(String, u64, u64)> {
        v.as_array()
            .expect("an array")
            .iter()
            .map(|e| {
                let field = |k: &str| e[k].as_u64().expect("an offset");
                (
                    e["type"].as_str().expect("a type").to_owned(),
                    field("start"),
                    field("end"),
                )
            })
            .collect()
    };
    let expected = vec![
        ("invalid-URL-unit".to_owned(), 0, 1),
        ("IPv6-unclosed".to_owned(), 8, 12),
    ];
    for args in [
        &["parse", "--json", "--base", base, "x"][..],
        &["trace", "--json", "--base", base, "x"],
    ] {
        let out = urlscope(args, b"");
        assert_eq!(out.status.code(), Some(1));
        let v = &json_lines(&out)[0];
        let v = if args[0] == "trace" { &v["result"] } else { v };
        assert_eq!(v["base"], json!(base));
        assert_eq!(v["errors"], json!([]));
        assert_eq!(types(&v["base_errors"]), expected, "{args:?}: {v}");
    }
    let out = urlscope(
        &["parse", "--json", "--jsonl-in"],
        b"{\"input\": \"x\", \"base\": \"http://a:99999\"}\n",
    );
    let v = &json_lines(&out)[0];
    assert_eq!(
        types(&v["base_errors"]),
        vec![("port-out-of-range".to_owned(), 9, 14)]
    );
    let text = urlscope(&["parse", "--base", base, "x"], b"");
    assert!(
        String::from_utf8_lossy(&text.stdout)
            .contains("base errors:\n   http://[::1\n  ^ invalid-URL-unit"),
        "{text:?}"
    );
    // A base that parses has no field.
    let v = &json_lines(&urlscope(
        &["parse", "--json", "--base", "http://a/", "x"],
        b"",
    ))[0];
    assert!(v.get("base_errors").is_none(), "{v}");
}

/// A setter that leaves the URL as it was says so on standard error, naming the step of the
/// standard that decided (whatwg/url#623: "the protocol setter silently does nothing"); one
/// that changes the URL says nothing.
#[test]
fn a_setter_that_changes_nothing_names_the_step_that_decided() {
    let cases = [
        // The scheme state's state-override step: special to non-special returns.
        (
            "protocol=foo",
            "https://example.com/",
            "https://example.com/",
            "the protocol setter with \"foo\" changed nothing: scheme state step 2.1.1:",
        ),
        // The port setter's own step 1: a file URL cannot have a port.
        (
            "port=81",
            "file:///x",
            "file:///x",
            "the port setter with \"81\" changed nothing: port setter step 1:",
        ),
        // The host setter's own step 1: an opaque path has no host.
        (
            "host=x",
            "mailto:a@b",
            "mailto:a@b",
            "the host setter with \"x\" changed nothing: host setter step 1:",
        ),
        // The port state fails on no digits (2.2: state override given, return failure).
        (
            "port=xyz",
            "https://e.com:8/",
            "https://e.com:8/",
            "the port setter with \"xyz\" changed nothing: port state step 2.2:",
        ),
    ];
    for (set, input, href, said) in cases {
        let out = urlscope(&["parse", "--get", "{href}", "--set", set, input], b"");
        assert!(out.status.success(), "{set} on {input}");
        assert_eq!(String::from_utf8_lossy(&out.stdout), format!("{href}\n"));
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.starts_with(&format!("urlscope: {input}: {said}")),
            "{set} on {input}: {stderr}"
        );
        assert!(
            stderr.contains("<https://url.spec.whatwg.org/#"),
            "{stderr}"
        );
    }
    // A long value is shown by its start, and not traced again.
    let long = format!("port={}", "x".repeat(70_000));
    let out = urlscope(
        &[
            "parse",
            "--get",
            "{href}",
            "--set",
            &long,
            "https://e.com:8/",
        ],
        b"",
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.len() < 400, "{} bytes", stderr.len());
    assert!(
        stderr.contains("\"… (70000 bytes) changed nothing"),
        "{stderr}"
    );
    let out = urlscope(
        &[
            "parse",
            "--get",
            "{href}",
            "--set",
            "port=8080abc",
            "https://e.com/",
        ],
        b"",
    );
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "https://e.com:8080/\n"
    );
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// After `--set`, every key of the object describes the URL the setters made: the object is the
/// one its href gets when parsed on its own, but for `input`. A report built from the input
/// before its setters would show the old host's analysis (`x`, `example.com`) and the input's
/// errors.
#[test]
fn a_report_after_setters_describes_the_url_they_made() {
    let cases = [
        (
            "host=аррӏе.com",
            "http://x/p",
            "http://xn--80ak6aa92e.com/p",
        ),
        (
            "hostname=127.0.0.1",
            "http://example.com/",
            "http://127.0.0.1/",
        ),
        // The input's invalid-reverse-solidus and invalid-credentials are not the new URL's.
        (
            "pathname=/a",
            "http://u@example.com\\x",
            "http://u@example.com/a",
        ),
        ("href=https://0x7f.1/", "http://a/", "https://127.0.0.1/"),
        ("search=%zz", "http://a/", "http://a/?%zz"),
    ];
    for (set, input, href) in cases {
        let out = urlscope(&["parse", "--json", "--set", set, input], b"");
        assert!(out.status.success(), "{set} on {input}");
        let mut after = json_lines(&out).remove(0);
        assert_eq!(after["href"], json!(href), "{set} on {input}");
        assert_eq!(after["input"], json!(input));
        let mut direct = json_lines(&urlscope(&["parse", "--json", href], b"")).remove(0);
        after["input"] = Value::Null;
        direct["input"] = Value::Null;
        assert_eq!(after, direct, "{set} on {input}");
    }
    let findings = |set: &str, input: &str| {
        let out = urlscope(&["parse", "--json", "--set", set, input], b"");
        let v = json_lines(&out).remove(0);
        let analysis = &v["host_analysis"];
        let ids: Vec<String> = analysis["findings"]
            .as_array()
            .expect("findings")
            .iter()
            .map(|f| f["id"].as_str().unwrap_or("").to_owned())
            .collect();
        (analysis["host"].as_str().unwrap_or("").to_owned(), ids)
    };
    let (host, ids) = findings("host=аррӏе.com", "http://x/p");
    assert_eq!(host, "xn--80ak6aa92e.com");
    assert!(
        ids.contains(&"lookalike-domain".to_owned())
            && ids.contains(&"whole-script-confusable".to_owned()),
        "{ids:?}"
    );
    let (host, ids) = findings("hostname=127.0.0.1", "http://example.com/");
    assert_eq!(
        (host.as_str(), ids),
        ("127.0.0.1", vec!["internal-address".to_owned()])
    );
    // A setter that leaves the href as it was leaves the URL the input parsed to, and its
    // errors with it.
    let out = urlscope(
        &["parse", "--json", "--set", "hash=", "http://example.com\\x"],
        b"",
    );
    let v = json_lines(&out).remove(0);
    assert_eq!(
        v["errors"][0]["type"],
        json!("invalid-reverse-solidus"),
        "{v}"
    );
    // The text form says whose errors it shows; --jsonl-in's "set" is the same report.
    let out = urlscope(
        &["parse", "--jsonl-in", "--json"],
        "{\"input\": \"http://x/p\", \"set\": {\"host\": \"аррӏе.com\"}}\n".as_bytes(),
    );
    let v = json_lines(&out).remove(0);
    assert_eq!(
        v["host_analysis"]["host"],
        json!("xn--80ak6aa92e.com"),
        "{v}"
    );
    let out = urlscope(
        &["parse", "--set", "pathname=/a b", "http://u@example.com/"],
        b"",
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("href      http://u@example.com/a%20b\n")
            && text.contains("errors of the href:\n  http://u@example.com/a%20b\n")
            && text.contains("writing   not a valid URL string (the href): at 8,"),
        "{text}"
    );
}

#[test]
fn setters_encoding_and_get() {
    let out = urlscope(
        &[
            "parse",
            "--json",
            "--set",
            "host=example.net",
            "--set",
            "port=81",
            "http://x/p",
        ],
        b"",
    );
    assert_eq!(
        json_lines(&out)[0]["href"],
        json!("http://example.net:81/p")
    );
    let out = urlscope(
        &[
            "parse",
            "--json",
            "--encoding",
            "windows-1252",
            "https://x/?é#é",
        ],
        b"",
    );
    let v = &json_lines(&out)[0];
    assert_eq!(
        (v["search"].as_str(), v["hash"].as_str()),
        (Some("?%E9"), Some("#%C3%A9"))
    );
    let out = urlscope(
        &[
            "parse",
            "--get",
            "{hostname}:{port} {protocol}",
            "https://e.com:8080/",
            "http://[::1]/",
        ],
        b"",
    );
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "e.com:8080 https:\n[::1]: http:\n"
    );
    let out = urlscope(&["parse", "--get", "{nope}", "x:"], b"");
    assert_eq!(out.status.code(), Some(2));
    let out = urlscope(&["parse", "--encoding", "klingon", "x:"], b"");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("not a WHATWG Encoding label"));
}

#[test]
fn stdin_lines_bad_json_non_utf8_and_oversize() {
    let mut input = b"https://a/\n\xff\xfe\n{\"input\": \"../x\", \"base\": \"http://h/a/b\", \"set\": {\"hash\": \"h\"}}\nnot json\n".to_vec();
    input.extend(std::iter::repeat_n(b'a', (16 << 20) + 5));
    input.extend(b"\n\"sc:x\"\n");
    let out = urlscope(&["parse", "--json", "--jsonl-in"], &input);
    assert_eq!(out.status.code(), Some(1));
    let lines = json_lines(&out);
    assert_eq!(lines.len(), 6, "{lines:?}");
    assert_eq!(lines[0], json!({"line": 1, "error": lines[0]["error"]}));
    assert_eq!(
        lines[1],
        json!({"line": 2, "error": "not UTF-8", "bytes": "fffe"})
    );
    assert_eq!(lines[2]["href"], json!("http://h/x#h"));
    assert_eq!(lines[3]["line"], json!(4));
    assert_eq!(
        lines[4],
        json!({"line": 5, "error": "longer than 16 MiB", "length": 16777221})
    );
    assert_eq!(lines[5]["href"], json!("sc:x"));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("line 2: not UTF-8; skipped"), "{stderr}");
    assert!(
        stderr.contains("line 5: longer than 16 MiB (16777221 bytes); skipped"),
        "{stderr}"
    );
}

#[test]
fn plain_stdin_and_exit_codes() {
    let out = urlscope(&["parse", "--json", "-"], b"https://a/\r\nhttps://b/\n");
    assert_eq!(out.status.code(), Some(0));
    let hrefs: Vec<_> = json_lines(&out).iter().map(|v| v["href"].clone()).collect();
    assert_eq!(hrefs, vec![json!("https://a/"), json!("https://b/")]);
    let out = urlscope(&["parse", "--json"], b"nope\n");
    assert_eq!(out.status.code(), Some(1));
    let out = urlscope(&["parse", "--frobnicate"], b"");
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn broken_pipe_exits_quietly() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_urlscope"))
        .args(["parse", "--json", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run urlscope");
    let mut stdin = child.stdin.take().expect("stdin");
    let writer = std::thread::spawn(move || {
        let line = b"https://example.com/some/path?query=value\n";
        for _ in 0..200_000 {
            if stdin.write_all(line).is_err() {
                break;
            }
        }
    });
    let mut stdout = child.stdout.take().expect("stdout");
    let mut first = [0u8; 64];
    stdout.read_exact(&mut first).expect("some output");
    drop(stdout);
    let status = child.wait().expect("exit");
    let _ = writer.join();
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .expect("stderr")
        .read_to_string(&mut stderr)
        .expect("stderr");
    assert_eq!(status.code(), Some(0), "stderr: {stderr}");
    assert!(stderr.is_empty(), "{stderr}");
}

#[test]
fn trace_json_contract() {
    let out = urlscope(&["trace", "--json", "a:b"], b"");
    assert_eq!(out.status.code(), Some(0));
    let v = &json_lines(&out)[0];
    let states: Vec<&str> = v["steps"]
        .as_array()
        .expect("steps")
        .iter()
        .filter_map(|s| s["state"].as_str())
        .collect();
    assert_eq!(
        states,
        [
            "remove leading and trailing C0 control or space",
            "remove ASCII tab or newline",
            "scheme start state",
            "scheme state",
            "opaque path state",
            "opaque path state"
        ]
    );
    let step = &v["steps"][3];
    for key in [
        "state", "pointer", "c", "buffer", "changes", "errors", "next",
    ] {
        assert!(step.get(key).is_some(), "step lacks {key}: {step}");
    }
    assert_eq!(step["next"], json!("opaque path state"));
    assert_eq!(v["result"]["href"], json!("a:b"));
}

#[test]
fn check_findings_summary_and_fail_on() {
    let out = urlscope(&["check", "--json"], b"https://a/\nhttps://u@a/\nnope\n");
    assert_eq!(out.status.code(), Some(0), "default --fail-on danger");
    let lines = json_lines(&out);
    assert_eq!(lines[0]["findings"], json!([]));
    assert_eq!(lines[1]["findings"][0]["id"], json!("credentials"));
    assert_eq!(lines[1]["findings"][0]["spans"], json!([[8, 10]]));
    assert_eq!(
        lines[2]["findings"]
            .as_array()
            .map(|f| f.iter().any(|f| f["id"] == "failure")),
        Some(true)
    );
    assert_eq!(lines[3]["summary"]["credentials"], json!(1));
    let out = urlscope(&["check", "--fail-on", "warn"], b"https://u@a/\n");
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stdout)
        .contains("summary: 1 lines read, 1 rows written, 0 lines not read"));
}

/// `check` takes URLs as arguments like the other commands, beside `-` and files; an argument
/// is a URL when it starts with a scheme, whatever the file system holds.
#[test]
fn check_reads_urls_files_and_standard_input_from_its_arguments() {
    let dir = std::env::temp_dir().join(format!("urlscope-check-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a scratch directory");
    std::fs::write(dir.join("list"), "https://u@a/\nhttps://b/\n").expect("written");
    // A file whose name starts like a URL.
    std::fs::write(dir.join("x:list"), "https://c/\n").expect("written");
    let run = |args: &[&str], stdin: &[u8]| {
        let output = Command::new(env!("CARGO_BIN_EXE_urlscope"))
            .args(args)
            .current_dir(&dir)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .and_then(|mut child| {
                child.stdin.take().expect("stdin").write_all(stdin)?;
                child.wait_with_output()
            })
            .expect("urlscope runs");
        let inputs: Vec<String> = String::from_utf8_lossy(&output.stdout)
            .lines()
            .filter_map(|l| serde_json::from_str::<Value>(l).ok())
            .filter_map(|v| v["input"].as_str().map(str::to_owned))
            .collect();
        (output, inputs)
    };
    let (out, inputs) = run(
        &[
            "check",
            "--json",
            "https://exa mple.com\\path",
            "list",
            "-",
            "x:list",
            "./x:list",
        ],
        b"https://d/\n",
    );
    assert_eq!(
        inputs,
        [
            "https://exa mple.com\\path",
            "https://u@a/",
            "https://b/",
            "https://d/",
            "x:list",
            "https://c/"
        ],
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        stderr,
        "urlscope: x:list is checked as a URL (it starts with a scheme); to read the file of that \
         name, write ./x:list\n"
    );
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    // Text lines name each finding with its severity; the summary counts every input.
    let (out, _) = run(
        &[
            "check",
            "--fail-on",
            "warn",
            "https://аррӏе.com/",
            "http://127.0.0.1/",
            "https://b/",
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[..3],
        [
            // Strict RFC 3986 and the http crate refuse a non-ASCII host: information only.
            "https://аррӏе.com/  lookalike-domain (danger), whole-script-confusable (danger), \
             parser-refuses (info) (imitates apple.com)",
            "http://127.0.0.1/  internal-address (warn)",
            "https://b/  ok",
        ],
        "{text}"
    );
    assert!(
        text.contains(
            "summary: 0 lines read, 3 rows written (3 for URL arguments), 0 lines not read"
        ),
        "{text}"
    );
    // An argument that is neither a URL nor a file says both readings, and the arguments
    // after it are still checked.
    let (out, _) = run(&["check", "missing.txt", "https://b/"], b"");
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "urlscope: missing.txt: not a URL (no scheme) and no file named missing.txt\n"
    );
    assert!(String::from_utf8_lossy(&out.stdout).starts_with("https://b/  ok\n"));
    // check --fix reads the same arguments.
    let (out, _) = run(&["check", "--fix", "http://a\\b", "list"], b"");
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "http://a/b\nhttps://a/\nhttps://b/\n"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A line `check` does not read (too long, not UTF-8) exits 1: it could have held the finding
/// to fail on. `check --fix` prints an empty line in its place.
#[test]
fn a_line_check_skips_exits_non_zero() {
    let mut stdin = b"https://a/\n".to_vec();
    stdin.extend(std::iter::repeat_n(b'a', urlscope::MAX_INPUT + 1));
    stdin.extend(b"\nhttps://b/\n");
    let out = urlscope(&["check", "--jobs", "1"], &stdin);
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8_lossy(&out.stdout);
    // The line not checked keeps its row, in its place.
    assert!(
        text.starts_with("https://a/  ok\nline 2: error: longer than 16 MiB\nhttps://b/  ok\n"),
        "{text}"
    );
    assert!(
        String::from_utf8_lossy(&out.stderr)
            .contains("line 2: longer than 16 MiB (16777217 bytes); skipped"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = urlscope(&["check", "--fix"], &stdin);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "https://a/\n\nhttps://b/\n"
    );
    let out = urlscope(&["check"], b"https://a/\nhttps://b/\n");
    assert_eq!(out.status.code(), Some(0));
}

/// `parse --get` prints one line per input: an empty one for an input that fails or a line
/// that cannot be read, so that output line n is input line n's.
#[test]
fn parse_get_keeps_one_line_per_input() {
    let stdin = b"https://a:1/\nnope\n\xff\nhttp://[::1/\nhttp://b/\n";
    for jobs in ["1", "4"] {
        let out = urlscope(&["parse", "--get", "{host}", "--jobs", jobs], stdin);
        assert_eq!(out.status.code(), Some(1));
        assert_eq!(String::from_utf8_lossy(&out.stdout), "a:1\n\n\n\nb\n");
    }
    let out = urlscope(&["parse", "--get", "{host}", "nope", "http://c/"], b"");
    assert_eq!(String::from_utf8_lossy(&out.stdout), "\nc\n");
    let out = urlscope(
        &["parse", "--get", "{host}", "--jsonl-in"],
        b"{bad\n\"http://d/\"\n",
    );
    assert_eq!(String::from_utf8_lossy(&out.stdout), "\nd\n");
}

/// A host that fails names the step that returned failure, with a caret under the code point
/// it is about and the input its fix makes; JSON carries the same as `cause`, and `check` puts
/// the span on its failure finding.
#[test]
fn a_host_failure_points_at_its_code_point() {
    let cases = [
        (
            "https://exa mple.com\\path",
            "domain parser step 8 at 11..12: The domain \"exa mple.com\" contains U+0020, a \
             forbidden domain code point: the domain parser fails.",
            "^ fix: https://example.com\\path",
            [11, 12],
        ),
        (
            "https://a<b.com/",
            "domain parser step 8 at 9..10: The domain \"a<b.com\" contains \"<\", a forbidden \
             domain code point: the domain parser fails.",
            "^ fix: https://ab.com/",
            [9, 10],
        ),
        (
            "https://exa%23mple.org/",
            "domain parser step 8 at 11..14: The domain \"exa#mple.org\" contains \"#\", a \
             forbidden domain code point: the domain parser fails.",
            "^^^ fix: https://example.org/",
            [11, 14],
        ),
    ];
    for (input, message, carets, span) in cases {
        let out = urlscope(&["parse", input], b"");
        assert_eq!(out.status.code(), Some(1));
        let text = String::from_utf8_lossy(&out.stdout);
        // The caret starts at the failure's code point offset (the input is ASCII).
        let expected = format!(
            "failure   not a URL: {message}\n          {input}\n          {}{carets}\n",
            " ".repeat(span[0])
        );
        assert!(text.contains(&expected), "{text}\nexpected:\n{expected}");
        let v = json_lines(&urlscope(&["parse", "--json", input], b"")).remove(0);
        assert_eq!(v["message"], json!(format!("not a URL: {message}")));
        assert_eq!(
            (&v["cause"]["algorithm"], &v["cause"]["step"]),
            (&json!("domain parser"), &json!("8"))
        );
        assert_eq!(
            [&v["cause"]["start"], &v["cause"]["end"]],
            [&json!(span[0]), &json!(span[1])]
        );
        assert_eq!(
            v["cause"]["fix"]["edits"],
            json!([{"start": span[0], "end": span[1], "replacement": ""}])
        );
        let v = json_lines(&urlscope(&["check", "--json", input], b"")).remove(0);
        assert_eq!(v["findings"][0]["spans"], json!([span]), "{v}");
        // --get says the same on standard error.
        let out = urlscope(&["parse", "--get", "{href}", input], b"");
        assert!(
            String::from_utf8_lossy(&out.stderr).contains(message),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

#[test]
fn text_output_snapshots() {
    let inputs = [
        "https://user:pa%20ss@EXAMPLE.com:443/a/./b/../c?q=1&r=%F0%9F%92%A9#frag",
        "sc://opaque-host:99/p?q",
        "file:///C|/Windows/../x",
        "mailto:someone@example.org?subject=a b",
        "http://0x7f.1/",
        "http://[0:0:0:0:0:ffff:7f00:1]:80/",
        "https://Bücher.example/ü",
        "https://paypal.com@evil.example/",
        "https://[::1",
        "ht\ttps://exa\u{200B}mple.com/\u{1b}[2J",
        "  https://example.com/  ",
        "https://example.org\\path\\to",
    ];
    let mut all = String::new();
    for input in inputs {
        let out = urlscope(&["parse", input], b"");
        all.push_str(&String::from_utf8_lossy(&out.stdout));
    }
    assert!(
        !all.contains('\u{1b}') && !all.contains('\u{200B}'),
        "raw control or invisible in text output"
    );
    insta::assert_snapshot!("parse_text", all);
}

#[test]
fn trace_text_marks_the_pointer() {
    let out = urlscope(&["trace", "http://h/"], b"");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("scheme start state"), "{text}");
    assert!(text.contains("path state"), "{text}");
    insta::assert_snapshot!("trace_text", text);
}

/// The web-platform-tests urltestdata, setters and percent-encoding cases, all through one
/// `parse --json --jsonl-in` process.
#[test]
fn wpt_through_one_process() {
    let source = common::discover().expect("web-platform-tests data");
    let data = |file: &str| -> Value {
        common::load(&source.dir, file)
            .unwrap_or_else(|| panic!("{file} missing"))
            .expect("readable")
    };
    let mut lines = Vec::new();
    let mut expected = Vec::new();
    let fields = [
        "href", "origin", "protocol", "username", "password", "host", "hostname", "port",
        "pathname", "search", "hash",
    ];
    for case in data("urltestdata.json")
        .as_array()
        .expect("array")
        .iter()
        .filter(|c| c.is_object())
    {
        lines.push(json!({"input": case["input"], "base": case["base"]}));
        expected.push(case.clone());
    }
    if let Some(Ok(setters)) = common::load(&source.dir, "setters_tests.json") {
        for (component, cases) in setters.as_object().expect("object") {
            if component == "comment" {
                continue;
            }
            for case in cases.as_array().expect("array") {
                let mut set = serde_json::Map::new();
                set.insert(component.clone(), case["new_value"].clone());
                lines.push(json!({"input": case["href"], "base": null, "set": set}));
                expected.push(case["expected"].clone());
            }
        }
    }
    if let Some(Ok(encodings)) = common::load(&source.dir, "percent-encoding.json") {
        for case in encodings
            .as_array()
            .expect("array")
            .iter()
            .filter(|c| c.is_object())
        {
            let input = case["input"].as_str().expect("input");
            for (label, output) in case["output"].as_object().expect("object") {
                lines.push(json!({"input": format!("https://doesnotmatter.invalid/?{input}#{input}"), "encoding": label}));
                expected.push(json!({"search": format!("?{}", output.as_str().expect("string"))}));
            }
        }
    }
    let stdin: String = lines.iter().map(|l| format!("{l}\n")).collect();
    let out = urlscope(&["parse", "--json", "--jsonl-in"], stdin.as_bytes());
    let results = json_lines(&out);
    assert_eq!(results.len(), lines.len());
    let mut failures = Vec::new();
    for ((line, want), got) in lines.iter().zip(&expected).zip(&results) {
        if want.get("failure") == Some(&json!(true)) {
            if got.get("failure") != Some(&json!(true)) {
                failures.push(format!("{line}: expected failure, got {got}"));
            }
            continue;
        }
        for field in fields {
            if let Some(w) = want.get(field) {
                if got.get(field) != Some(w) {
                    failures.push(format!(
                        "{line}: {field} expected {w}, got {}",
                        got.get(field).unwrap_or(&Value::Null)
                    ));
                }
            }
        }
    }
    eprintln!(
        "cli wpt: {} cases through one process from {}",
        lines.len(),
        source.dir.display()
    );
    assert!(
        failures.is_empty(),
        "{} mismatches:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Terminal safety: whatever the input holds (an OSC 52 clipboard write, a screen clear, a
/// right-to-left override, C1 controls), the text output of every command shows it escaped,
/// and no control byte but the newline reaches stdout or stderr.
#[test]
fn text_output_never_carries_raw_controls() {
    let inputs = [
        "https://x/\u{1b}]52;c;QUFBQQ==\u{7}\u{1b}[2J\u{202E}?a#\u{9b}31m\u{85}",
        "https://ex\u{202e}ample.com\u{1b}[2J/",
        "sc:\u{1b}[2J\u{200b}\u{2066}x\u{7f}",
        "\u{1b}]52;c;AAAA\u{7}",
        // Format characters and a line separator that no hand-written list had.
        "https://x/\u{600}\u{13430}\u{2028}\u{1D173}?\u{E0041}\u{110BD}",
    ];
    let base = "https://b/\u{1b}]0;title\u{7}\u{202e}/";
    for input in inputs {
        let runs = [
            urlscope(&["parse", input], b""),
            urlscope(&["parse", "--base", base, input], b""),
            urlscope(
                &["parse", "--get", "{href} {hostname} {pathname}", input],
                b"",
            ),
            urlscope(
                &["parse", "--get", "{input}", "-"],
                format!("{input}\n").as_bytes(),
            ),
            urlscope(&["parse", "--get", "{input}", input], b""),
            urlscope(&["trace", input], b""),
            urlscope(&["trace", "-"], format!("{input}\n").as_bytes()),
            urlscope(&["trace", "--base", base, input], b""),
            urlscope(&["check", "-"], format!("{input}\n").as_bytes()),
            // Arguments the option parser rejects, which its message quotes.
            urlscope(&["parse", "--set", &format!("{input}=x"), "a:"], b""),
            urlscope(&["parse", "--get", &format!("{{{input}}}")], b""),
            urlscope(&["parse", "-"], format!("{input}\n").as_bytes()),
        ];
        for output in runs {
            for (name, bytes) in [("stdout", &output.stdout), ("stderr", &output.stderr)] {
                let text = String::from_utf8_lossy(bytes);
                let raw: Vec<char> = text
                    .chars()
                    .filter(|&c| c != '\n' && urlscope::display::needs_escape(c))
                    .collect();
                assert!(raw.is_empty(), "{input:?}: {name} carries {raw:?}:\n{text}");
            }
        }
    }
}

/// `--raw` is the only way to get the input's bytes as they are in text output, and JSON is
/// exact without it.
#[test]
fn raw_text_only_when_asked_and_json_exact() {
    let input = "https://x/\u{1b}[2J\u{202e}\u{2064}";
    let escaped = urlscope(
        &["parse", "--get", "{input}"],
        format!("{input}\n").as_bytes(),
    );
    assert_eq!(
        String::from_utf8_lossy(&escaped.stdout),
        "https://x/\\u{1B}[2J\\u{202E}\\u{2064}\n"
    );
    let raw = urlscope(
        &["parse", "--raw", "--get", "{input}"],
        format!("{input}\n").as_bytes(),
    );
    assert_eq!(String::from_utf8_lossy(&raw.stdout), format!("{input}\n"));
    let raw = urlscope(&["parse", "--raw", input], b"");
    assert!(
        String::from_utf8_lossy(&raw.stdout).contains(&format!("input     {input}\n")),
        "{raw:?}"
    );
    for args in [&["parse", "--json", input][..], &["trace", "--json", input]] {
        let v = &json_lines(&urlscope(args, b""))[0];
        assert_eq!(v["input"], json!(input), "{args:?}");
    }
}

/// An input with a NUL, read from standard input, and one longer than a command-line
/// argument may be (128 KiB on Linux) are traced; `--jsonl-in` lines too.
#[test]
fn trace_reads_standard_input() {
    let out = urlscope(&["trace", "--json", "-"], b"a:\0b\n");
    assert_eq!(out.status.code(), Some(0));
    let v = &json_lines(&out)[0];
    assert_eq!(v["input"], json!("a:\u{0}b"));
    assert_eq!(v["result"]["href"], json!("a:%00b"));

    let long = format!("https://h/?{}", "q".repeat(140_000));
    let out = urlscope(&["trace", "--json"], format!("{long}\n").as_bytes());
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(json_lines(&out)[0]["result"]["href"], json!(long));

    let out = urlscope(
        &["trace", "--json", "--jsonl-in"],
        b"\"http://a/\\u0000b\"\n{\"input\": \"b\", \"base\": \"http://c/d\"}\nnot json\n",
    );
    assert_eq!(out.status.code(), Some(1), "the bad line fails the run");
    let lines = json_lines(&out);
    assert_eq!(lines[0]["result"]["href"], json!("http://a/%00b"));
    assert_eq!(lines[1]["result"]["href"], json!("http://c/b"));
    assert_eq!(lines[2]["line"], json!(3));
}

/// The JSON trace gives each step's buffer as an edit of the previous one; replaying the
/// edits gives the buffer the library reports after every step, and the lengths agree.
#[test]
fn trace_json_buffer_edits_replay_to_the_buffer() {
    let inputs = [
        "HTTPS://user:pa@ss@ex%41mple.com:443/a/./b/../c?q=1#frag",
        "file:///C|/x/é",
        "https://a@b@c@例え.jp/",
    ];
    for input in inputs {
        let report = urlscope::Report::new(input, None);
        let trace = report.trace.as_ref().expect("trace");
        let mut expected = Vec::new();
        trace.for_each_with_buffer(|_, buffer| expected.push(buffer.to_owned()));
        let v = &json_lines(&urlscope(&["trace", "--json", input], b""))[0];
        let steps = v["steps"].as_array().expect("steps");
        assert_eq!(steps.len(), expected.len());
        let mut buffer: Vec<char> = Vec::new();
        for (step, expected) in steps.iter().zip(&expected) {
            let edit = &step["buffer"];
            let keep = edit["keep"].as_u64().expect("keep") as usize;
            assert!(keep <= buffer.len(), "{input}: {step}");
            buffer.truncate(keep);
            buffer.extend(edit["append"].as_str().expect("append").chars());
            let replayed: String = buffer.iter().collect();
            assert_eq!(&replayed, expected, "{input}: {step}");
            assert_eq!(edit["length"].as_u64(), Some(buffer.len() as u64));
        }
    }
}

/// The text trace shows the end of the buffer in a bounded column, and a long input's
/// validation errors each get an excerpt: the output of `trace` and `parse` grows linearly
/// with the input (the trace printed the whole buffer on every row, and each error's caret
/// line was as long as its offset: both quadratic).
/// An input shape: its name, and the input of about n bytes.
type Shape = (&'static str, fn(usize) -> String);

#[test]
fn text_output_is_linear_in_the_input() {
    let shapes: [Shape; 2] = [
        ("query", |n| format!("https://h/?{}", "q".repeat(n))),
        ("userinfo", |n| format!("https://{}h/", "u@".repeat(n / 2))),
    ];
    for (name, make) in shapes {
        for command in ["trace", "parse"] {
            let bytes = |n: usize| {
                let input = make(n);
                let out = urlscope(&[command, "-"], format!("{input}\n").as_bytes());
                assert_eq!(out.status.code(), Some(0));
                if command == "trace" && name == "query" {
                    let text = String::from_utf8_lossy(&out.stdout);
                    assert!(text.contains(&format!("…{}", "q".repeat(23))), "{text}");
                }
                (out.stdout.len() as f64) / (input.len() as f64)
            };
            let (small, large) = (bytes(2_000), bytes(20_000));
            assert!(
                large < small * 1.2,
                "{command} {name}: bytes per input byte grew from {small:.1} to {large:.1}"
            );
        }
    }
}

/// `check --fix --fix-host` applies a failing host's fix (the failure's `fix`, as `parse
/// --json` gives it in `cause`) when the rewritten input parses, then the fixes of that input's
/// validation errors, and says so on standard error; an input whose failure has no fix stays
/// as it is. Without --fix-host those rewrites are withheld: a failing host made to parse is a
/// new destination.
#[test]
fn check_fix_applies_a_failing_hosts_fix_and_says_so() {
    let stdin =
        b"http://[::1\nhttps://user@exa mple.com\\a\nhttp://h:99999/\nhttps://ex<ample.com/\n";
    let out = urlscope(&["check", "--fix", "--fix-host"], stdin);
    assert_eq!(out.status.code(), Some(3));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        stdout,
        "http://[::1]\nhttps://example.com/a\nhttp://h:99999/\nhttps://example.com/\n"
    );
    // Each rewritten input parses; the one without a fix still fails.
    for (line, parses) in stdout.lines().zip([true, true, false, true]) {
        assert_eq!(urlscope::Url::parse(line, None).is_ok(), parses, "{line:?}");
    }
    let stderr = String::from_utf8_lossy(&out.stderr);
    let notes: Vec<&str> = stderr.lines().collect();
    assert_eq!(
        notes,
        [
            "urlscope: line 1: the input is not a URL (host parser step 1.1) and the fix makes \
             it go to [::1]: http://[::1]",
            "urlscope: line 2: the input is not a URL (domain parser step 8) and the fix makes \
             it go to example.com: https://example.com/a",
            "urlscope: line 4: the input is not a URL (domain parser step 8) and the fix makes \
             it go to example.com: https://example.com/",
        ]
    );
    // Without --fix-host: each line as it was, each withheld fix named, exit 1.
    let out = urlscope(&["check", "--fix"], stdin);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(out.stdout, stdin);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        stderr.lines().collect::<Vec<_>>(),
        [
            "urlscope: line 1: fix withheld: the input is not a URL (host parser step 1.1) and \
             the fix makes it go to [::1]: http://[::1] (--fix-host applies it)",
            "urlscope: line 2: fix withheld: the input is not a URL (domain parser step 8) and \
             the fix makes it go to example.com: https://example.com/a (--fix-host applies it)",
            "urlscope: line 4: fix withheld: the input is not a URL (domain parser step 8) and \
             the fix makes it go to example.com: https://example.com/ (--fix-host applies it)",
        ]
    );
    // A URL argument is named as it is.
    let out = urlscope(&["check", "--fix", "--fix-host", "http://[::1"], b"");
    assert_eq!(String::from_utf8_lossy(&out.stdout), "http://[::1]\n");
    assert!(
        String::from_utf8_lossy(&out.stderr).starts_with(
            "urlscope: \"http://[::1\": the input is not a URL (host parser step 1.1)"
        ),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// A fix never sends a URL to another host without being asked: a percent-encoded NUL or "/"
/// that fails the host is removed only with --fix-host (the result is a subdomain of another
/// registrable domain), and the line says so; fixes that keep the destination (a host respelled,
/// a backslash, a space in the path, an IPv4 address in dotted decimal) stay applied silently.
#[test]
fn check_fix_never_moves_a_destination_silently() {
    let moving = b"http://evil.com%00.example.com/\nhttps://good.com%2f.evil.net/\n";
    let out = urlscope(&["check", "--fix"], moving);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        out.stdout,
        moving,
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(stderr.matches("fix withheld").count(), 2, "{stderr}");
    assert!(stderr.contains("line 1: fix withheld"), "{stderr}");
    assert!(stderr.contains("go to evil.com.example.com"), "{stderr}");
    assert!(stderr.contains("line 2: fix withheld"), "{stderr}");
    let out = urlscope(&["check", "--fix", "--fix-host"], moving);
    assert_eq!(out.status.code(), Some(3));
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "http://evil.com.example.com/\nhttps://good.com.evil.net/\n"
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("line 1: the input is not a URL (domain parser step 8)"),
        "{stderr}"
    );
    assert!(
        stderr.contains("line 2: the input is not a URL (domain parser step 8)"),
        "{stderr}"
    );
    // Fixes that keep the host and port: applied, nothing said, exit 0.
    let keeping = b"HTTPS://EXAMPLE.com\\a b\nhttp://0x7f.1/\nhttps://example.com:443/x\n";
    for args in [&["check", "--fix"][..], &["check", "--fix", "--fix-host"]] {
        let out = urlscope(args, keeping);
        assert_eq!(out.status.code(), Some(0), "{args:?}");
        assert_eq!(
            String::from_utf8_lossy(&out.stdout),
            "HTTPS://EXAMPLE.com/a%20b\nhttp://127.0.0.1/\nhttps://example.com:443/x\n"
        );
        assert_eq!(String::from_utf8_lossy(&out.stderr), "", "{args:?}");
    }
}

/// `check --base` resolves each input against the base, as `parse --base` does, and the
/// findings are about the URL it resolves to; `--jsonl-in` takes inputs that hold a line
/// break. An argument with no scheme that names no file says both readings.
#[test]
fn check_resolves_against_a_base_and_reads_json_lines() {
    let out = urlscope(
        &["check", "--base", "https://example.com/a/"],
        b"//evil.net\n/\\evil.net\nb?c\n",
    );
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[..3],
        [
            "//evil.net → https://evil.net/  ok",
            "/\\evil.net → https://evil.net/  backslash-as-slash (warn)",
            "b?c → https://example.com/a/b?c  ok",
        ],
        "{text}"
    );
    // JSON says the base, the resolved href and host; a line's own base (or null) wins.
    let out = urlscope(
        &[
            "check",
            "--json",
            "--jsonl-in",
            "--base",
            "https://example.com/",
        ],
        b"\"\\r\\n//attacker.net\"\n{\"input\": \"/x\", \"base\": \"https://b.example/\"}\n\
          {\"input\": \"//evil.net\", \"base\": null}\nnot json\n",
    );
    assert_eq!(out.status.code(), Some(1));
    let v = json_lines(&out);
    assert_eq!(v[0]["input"], json!("\r\n//attacker.net"));
    assert_eq!(v[0]["base"], json!("https://example.com/"));
    assert_eq!(v[0]["href"], json!("https://attacker.net/"));
    assert_eq!(v[0]["host"], json!("attacker.net"));
    assert_eq!(v[1]["base"], json!("https://b.example/"));
    assert_eq!(v[1]["href"], json!("https://b.example/x"));
    assert_eq!(v[2]["href"], json!(null));
    assert_eq!(v[2]["findings"][0]["id"], json!("failure"));
    assert_eq!(v[3]["line"], json!(4));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("line 4: not JSON"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // Without a base they are not URLs; as arguments they name no file either.
    for argument in ["//evil.net", "www.evil.com"] {
        let out = urlscope(&["check", argument], b"");
        assert_eq!(out.status.code(), Some(1));
        assert_eq!(
            String::from_utf8_lossy(&out.stderr),
            format!("urlscope: {argument}: not a URL (no scheme) and no file named {argument}\n")
        );
    }
    // A base that is not a URL is a usage error, before any input is read.
    let out = urlscope(&["check", "--base", "nope"], b"https://a/\n");
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    assert!(
        String::from_utf8_lossy(&out.stderr).starts_with("urlscope: --base \"nope\" is not a URL"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The four host failures every surface must name alike: `parse` (text and JSON) and `check`
/// (text and JSON) give the domain parser's step 8, its span, and the fix.
#[test]
fn parse_and_check_name_a_failing_host_alike() {
    let cases = [
        (
            "https://exa mple.com\\path",
            [11, 12],
            "https://example.com\\path",
        ),
        ("http://a b/", [8, 9], "http://ab/"),
        ("https://ex%20ample.com/", [10, 13], "https://example.com/"),
        ("https://a..b%00/", [12, 15], "https://a..b/"),
    ];
    for (input, span, fixed) in cases {
        let head = format!(
            "not a URL: domain parser step 8 at {}..{}: ",
            span[0], span[1]
        );
        let parsed = json_lines(&urlscope(&["parse", "--json", input], b"")).remove(0);
        let message = parsed["message"].as_str().expect("message").to_owned();
        assert!(message.starts_with(&head), "{input}: {message}");
        let checked = json_lines(&urlscope(&["check", "--json", input], b"")).remove(0);
        let finding = checked["findings"]
            .as_array()
            .and_then(|f| f.iter().find(|f| f["id"] == "failure"))
            .cloned()
            .expect("a failure finding");
        assert_eq!(finding["detail"], json!(message), "{input}");
        assert_eq!(finding["step"], json!("domain parser step 8"), "{input}");
        assert_eq!(finding["spans"], json!([span]), "{input}");
        assert_eq!(finding["fix"], json!(fixed), "{input}");
        let text = String::from_utf8_lossy(&urlscope(&["check", input], b"").stdout).into_owned();
        assert!(text.contains(&format!("failure (warn): {head}")), "{text}");
        let text = String::from_utf8_lossy(&urlscope(&["parse", input], b"").stdout).into_owned();
        assert!(text.contains(&format!("failure   {head}")), "{text}");
        assert!(text.contains(&format!("fix: {fixed}")), "{text}");
    }
}
