//! `urlscope diff` and `check --allow-host`, run as the binary with the real parsers (the
//! gate's own cases are in tests/gate.rs).
//!
//! A reading that depends on a runtime's or the system libcurl's version is checked exactly
//! only when that version is the one `tests/data/diff_corpus.jsonl` was recorded with (or the
//! parser is a crate the lockfile pins); otherwise what must hold for every version is checked.

mod common;

use serde_json::Value;
use std::io::Write;
use std::process::{Command, Output, Stdio};

fn urlscope(args: &[&str], stdin: &[u8], env: &[(&str, &str)]) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_urlscope"));
    command
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for (k, v) in env {
        command.env(k, v);
    }
    // A user's own configuration must not change what the tests see.
    command.env("URLSCOPE_PARSERS", "/nonexistent/urlscope-parsers.conf");
    let mut child = command.spawn().expect("run urlscope");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(stdin)
        .expect("write stdin");
    child.wait_with_output().expect("urlscope ends")
}

fn json_lines(output: &Output) -> Vec<Value> {
    String::from_utf8(output.stdout.clone())
        .expect("UTF-8")
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect()
}

const BUILT_IN: &str = "whatwg,rust-url,curl,rfc3986,http";
/// The parsers whose readings the lockfile pins: no installed library changes them.
const PINNED: &str = "whatwg,rust-url,rfc3986,http";

/// The version each parser had when the corpus was recorded.
fn recorded_version(name: &str) -> Option<String> {
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/diff_corpus.jsonl");
    let text = std::fs::read_to_string(path).expect("the corpus");
    let first: Value = serde_json::from_str(text.lines().next()?).ok()?;
    first["versions"][name].as_str().map(str::to_owned)
}

/// Whether `name`'s reading in a `--json` line is from the version the tests were written with.
fn pinned(line: &Value, name: &str) -> bool {
    let reading = &line["parsers"][name];
    reading["available"] == true && reading["version"].as_str() == recorded_version(name).as_deref()
}

/// The exit code `--fail-on elsewhere` (the default) gives for these `--json` lines: 1 when
/// readings go elsewhere (`agree` false) or nothing was compared (`agree` null).
fn exit_for(lines: &[Value]) -> i32 {
    i32::from(!lines.iter().all(|l| l["agree"] == true))
}

#[test]
fn stdin_is_split_at_newlines_only_and_inputs_are_echoed_exactly() {
    let inputs = [
        " http://a.example/",
        "http://b.example/\r",
        "http://c.example/\u{b}",
        "\u{a0}http://d.example/",
        "http://e.example/\u{2028}",
        "",
        "http://f.example/\u{7f}",
    ];
    let mut stdin = inputs.join("\n").into_bytes();
    stdin.extend_from_slice(b"\n");
    let output = urlscope(&["diff", "--json", "--parsers", BUILT_IN, "-"], &stdin, &[]);
    let lines = json_lines(&output);
    let echoed: Vec<&str> = lines
        .iter()
        .map(|l| l["input"].as_str().expect("input"))
        .collect();
    assert_eq!(echoed, inputs);
    // The CR is the whatwg parser's to strip, not the reader's: it reads the host.
    assert_eq!(lines[1]["parsers"]["whatwg"]["host"], "b.example");
    if pinned(&lines[1], "curl") {
        assert_eq!(lines[1]["parsers"]["curl"]["failure"], true);
    }
    assert_eq!(output.status.code(), Some(exit_for(&lines)));
}

#[test]
fn json_has_every_field_and_disagreements_name_their_class() {
    let output = urlscope(
        &["diff", "--json", "http://example.com\\@evil.com"],
        b"",
        &[],
    );
    let line = &json_lines(&output)[0];
    assert_eq!(
        output.status.code(),
        Some(exit_for(std::slice::from_ref(line))),
        "a host disagreement exits 1"
    );
    assert_eq!(line["input"], "http://example.com\\@evil.com");
    assert_eq!(line["base"], Value::Null);
    let parsers = line["parsers"].as_object().expect("parsers");
    for name in urlscope::diff::PARSERS {
        let p = parsers.get(name).unwrap_or_else(|| panic!("no {name}"));
        for field in [
            "available",
            "version",
            "failure",
            "error",
            "scheme",
            "username",
            "password",
            "host",
            "port",
            "path",
            "query",
            "fragment",
        ] {
            assert!(p.get(field).is_some(), "{name} has no {field}: {p}");
        }
    }
    assert_eq!(parsers["whatwg"]["host"], "example.com");
    if !pinned(line, "curl") {
        return;
    }
    assert_eq!(line["agree"], false);
    assert_eq!(parsers["curl"]["host"], "evil.com");
    let host = line["disagreements"]
        .as_array()
        .expect("disagreements")
        .iter()
        .find(|d| d["component"] == "host")
        .expect("a host disagreement");
    assert_eq!(host["class"], "backslash");
    assert_eq!(host["values"]["whatwg"], "example.com");
    assert_eq!(host["values"]["curl"], "evil.com");
}

#[test]
fn exit_status_follows_fail_on() {
    let same = urlscope(
        &["diff", "--parsers", PINNED, "https://example.com/"],
        b"",
        &[],
    );
    assert_eq!(
        same.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&same.stdout)
    );
    // Hosts agree; the paths are spelled differently (RFC 3986 reads "" where the URL Standard
    // reads "/", which an HTTP client sends for the empty path), a difference `--fail-on any`
    // counts.
    let input = "https://example.com";
    let host = urlscope(&["diff", "--parsers", "whatwg,rfc3986", input], b"", &[]);
    assert_eq!(host.status.code(), Some(0));
    let any = urlscope(
        &[
            "diff",
            "--parsers",
            "whatwg,rfc3986",
            "--fail-on",
            "any",
            input,
        ],
        b"",
        &[],
    );
    assert_eq!(any.status.code(), Some(1));
    let text = String::from_utf8_lossy(&any.stdout);
    assert!(
        text.contains("≈ path [same destination, spelled differently]"),
        "{text}"
    );
    assert!(text.contains("agree: yes"), "{text}");
}

/// A parser that refuses the URL sends it nowhere: every other reading goes to one place, so the
/// verdict is "refused", which exits 0 unless `--fail-on refused` (or its older name, `host`)
/// asks otherwise; readings that go to two places are "elsewhere" and always exit 1.
#[test]
fn a_refusal_is_not_elsewhere_and_fails_only_when_asked() {
    let input = "https://example.com/?q=a|b";
    let code = |fail_on: &[&str]| {
        let mut args = vec!["diff", "--parsers", PINNED];
        args.extend_from_slice(fail_on);
        args.push(input);
        urlscope(&args, b"", &[]).status.code()
    };
    assert_eq!(code(&[]), Some(0));
    assert_eq!(code(&["--fail-on", "elsewhere"]), Some(0));
    assert_eq!(code(&["--fail-on", "refused"]), Some(1));
    assert_eq!(code(&["--fail-on", "host"]), Some(1));
    let text = urlscope(&["diff", "--parsers", PINNED, input], b"", &[]);
    let text = String::from_utf8_lossy(&text.stdout);
    assert!(
        text.contains(
            "\nrefused: every parser that reads it goes to example.com:443; rfc3986 refuses \"|\" \
             in the query (unexpected character at index 24)\n"
        ),
        "{text}"
    );
    let output = urlscope(&["diff", "--json", "--parsers", PINNED, input], b"", &[]);
    let line = &json_lines(&output)[0];
    assert_eq!(line["verdict"], "refused", "{line}");
    assert_eq!(line["agree"], true, "{line}");
    assert_eq!(line["refused"], serde_json::json!(["rfc3986"]), "{line}");
    assert_eq!(line["destination"], "example.com:443", "{line}");

    // RFC 3986 and the http crate keep 0x7f.1, which we read as 127.0.0.1.
    let input = "http://0x7f.1/";
    for fail_on in ["elsewhere", "refused", "any"] {
        let output = urlscope(
            &["diff", "--parsers", PINNED, "--fail-on", fail_on, input],
            b"",
            &[],
        );
        assert_eq!(output.status.code(), Some(1), "--fail-on {fail_on}");
    }
    let output = urlscope(&["diff", "--parsers", PINNED, input], b"", &[]);
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(
        text.contains(
            "\nelsewhere: the parsers do not agree on where this URL goes: 127.0.0.1:80 \
             (whatwg, rust-url) vs 0x7f.1:80 (rfc3986, http)\n"
        ),
        "{text}"
    );
    let output = urlscope(&["diff", "--json", "--parsers", PINNED, input], b"", &[]);
    let line = &json_lines(&output)[0];
    assert_eq!(line["verdict"], "elsewhere", "{line}");
    assert_eq!(line["agree"], false, "{line}");
    assert_eq!(line["destination"], Value::Null, "{line}");
    assert_eq!(
        line["destinations"],
        serde_json::json!([
            {"destination": "127.0.0.1:80", "parsers": ["whatwg", "rust-url"]},
            {"destination": "0x7f.1:80", "parsers": ["rfc3986", "http"]},
        ]),
        "{line}"
    );
}

/// `java.net.URI` reads no host where it cannot split the authority: no host is no other
/// destination, so the danger `diff` used to see there is a refusal.
#[test]
fn a_null_host_is_a_refusal() {
    for input in [
        "https://attacker.net@@example.com/",
        "https://foo@attacker.net:443@example.com/",
    ] {
        let output = urlscope(
            &["diff", "--json", "--parsers", "whatwg,java", input],
            b"",
            &[],
        );
        let line = &json_lines(&output)[0];
        if !pinned(line, "java") {
            eprintln!(
                "java is not the recorded version here: {}",
                line["parsers"]["java"]
            );
            continue;
        }
        assert_eq!(line["parsers"]["java"]["host"], Value::Null, "{line}");
        assert_eq!(line["verdict"], "refused", "{line}");
        assert_eq!(line["refused"], serde_json::json!(["java"]), "{line}");
        assert_eq!(output.status.code(), Some(0), "{line}");
        let text = urlscope(&["diff", "--parsers", "whatwg,java", input], b"", &[]);
        let text = String::from_utf8_lossy(&text.stdout);
        assert!(
            text.contains(
                "refused: every parser that reads it goes to example.com:443; java reads no host"
            ),
            "{text}"
        );
    }
}

#[test]
fn the_empty_host_is_a_refusal() {
    // Go reads these with the host "": no client connects to it (Go's own client refuses a
    // URL without a host), so the reading refuses the URL; it never goes elsewhere.
    for input in [
        "https:/example.com",
        "https:\\\\example.com",
        "http:example.com/path",
    ] {
        let output = urlscope(
            &["diff", "--json", "--parsers", "whatwg,go", input],
            b"",
            &[],
        );
        let line = &json_lines(&output)[0];
        if !pinned(line, "go") {
            eprintln!(
                "go is not the recorded version here: {}",
                line["parsers"]["go"]
            );
            continue;
        }
        assert_eq!(line["parsers"]["go"]["host"], "", "{line}");
        assert_eq!(line["verdict"], "refused", "{line}");
        assert_eq!(line["refused"], serde_json::json!(["go"]), "{line}");
        assert_eq!(output.status.code(), Some(0), "{line}");
        let text = urlscope(&["diff", "--parsers", "whatwg,go", input], b"", &[]);
        let text = String::from_utf8_lossy(&text.stdout);
        assert!(text.contains("go reads the empty host"), "{text}");
    }
}

#[test]
fn one_name_in_two_spellings_is_one_destination() {
    // Arabic-Indic digits: the URL Standard's ToASCII refuses the label (the bidi rule), Node
    // writes the name a resolver looks up, xn--9hbcd.com; curl, Python and Go keep it as typed
    // and ask the resolver for the same name.
    let input = "http://\u{661}\u{662}\u{663}.com/";
    let output = urlscope(
        &["diff", "--json", "--parsers", "node,python,go", input],
        b"",
        &[],
    );
    let line = &json_lines(&output)[0];
    let pinned_all = ["node", "python", "go"].iter().all(|n| pinned(line, n));
    if !pinned_all {
        eprintln!("node, python or go is not the recorded version here: {line}");
        return;
    }
    assert_eq!(line["parsers"]["node"]["host"], "xn--9hbcd.com", "{line}");
    assert_eq!(
        line["parsers"]["go"]["host"], "\u{661}\u{662}\u{663}.com",
        "{line}"
    );
    assert_eq!(line["verdict"], "agree", "{line}");
    assert_eq!(line["destination"], "xn--9hbcd.com:80", "{line}");
    assert_eq!(output.status.code(), Some(0), "{line}");
}

#[test]
fn an_unknown_parser_is_a_usage_error_and_help_names_them_all() {
    let output = urlscope(&["diff", "--parsers", "whatwg,nodejs", "x"], b"", &[]);
    assert_eq!(
        output.status.code(),
        Some(2),
        "2 is a usage error, 1 a disagreement"
    );
    assert!(output.stdout.is_empty());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("invalid value 'nodejs' for '--parsers <LIST>': unknown parser"),
        "{stderr}"
    );
    // The names it knows, the configured ones among them.
    let configured = urlscope(
        &["diff", "--adapter", "mine=true", "--parsers", "perl", "x"],
        b"",
        &[],
    );
    assert_eq!(configured.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&configured.stderr);
    assert!(stderr.contains("node-legacy, java, go, mine)"), "{stderr}");
    let help = urlscope(&["diff", "--help"], b"", &[]);
    assert_eq!(help.status.code(), Some(0));
    let help = String::from_utf8_lossy(&help.stdout);
    let parsers_help = help
        .split("--parsers <LIST>")
        .nth(1)
        .and_then(|h| h.split("--fail-on").next())
        .expect("--parsers in the help");
    for name in urlscope::diff::PARSERS {
        assert!(
            parsers_help.contains(&format!(" {name},")),
            "{name}: {parsers_help}"
        );
    }
}

#[test]
fn one_destination_spelled_differently_agrees_and_says_so() {
    // Pinned parsers only: the URL Standard lowercases the host, drops the default port and
    // compresses the address; rfc3986 and http keep them as written.
    let cases = [
        ("https://Example.com/", "host"),
        ("http://[::ffff:127.0.0.1]/", "host"),
        (
            "https://user:pa%20ss@EXAMPLE.com:443/a/./b/../c?q=1#frag",
            "port",
        ),
        ("http://EXAMPLE.com./", "host"),
        ("http://example.com:080/", "port"),
    ];
    for (input, component) in cases {
        let output = urlscope(&["diff", "--json", "--parsers", PINNED, input], b"", &[]);
        let line = &json_lines(&output)[0];
        assert_eq!(line["agree"], true, "{line}");
        assert_eq!(output.status.code(), Some(0), "{line}");
        let d = line["disagreements"]
            .as_array()
            .expect("disagreements")
            .iter()
            .find(|d| d["component"] == component)
            .unwrap_or_else(|| panic!("no {component} difference: {line}"));
        assert_eq!(
            d["class"], "same destination, spelled differently",
            "{line}"
        );
        // --fail-on any still counts the spelling.
        let any = urlscope(
            &["diff", "--fail-on", "any", "--parsers", PINNED, input],
            b"",
            &[],
        );
        assert_eq!(any.status.code(), Some(1), "{input}");
        let text = String::from_utf8_lossy(&any.stdout);
        assert!(
            text.contains(&format!(
                "≈ {component} [same destination, spelled differently]"
            )),
            "{text}"
        );
    }
}

#[test]
fn fewer_than_two_readings_compare_nothing_and_do_not_pass() {
    // A runtime that is not installed, configured as the only other parser.
    let output = urlscope(
        &[
            "diff",
            "--adapter",
            "gone=urlscope-no-such-runtime",
            "--parsers",
            "whatwg,gone",
            "-",
        ],
        b"http://a/\nhttp://b/\nhttp://c/\n",
        &[],
    );
    assert_eq!(output.status.code(), Some(1));
    let text = String::from_utf8_lossy(&output.stdout);
    assert_eq!(
        text.matches("agree: nothing to compare: only whatwg read this input (gone unavailable)")
            .count(),
        3,
        "{text}"
    );
    assert!(!text.contains("agree: yes"), "{text}");
    // The absent runtime is reported once for the run, not once per input.
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(stderr.matches("gone is unavailable").count(), 1, "{stderr}");
    assert!(
        stderr.contains("urlscope-no-such-runtime is not installed"),
        "{stderr}"
    );
    let json = urlscope(
        &[
            "diff",
            "--json",
            "--adapter",
            "gone=urlscope-no-such-runtime",
            "--parsers",
            "gone,whatwg",
            "http://a b/",
        ],
        b"",
        &[],
    );
    assert_eq!(json.status.code(), Some(1));
    let line = &json_lines(&json)[0];
    assert_eq!(line["agree"], Value::Null, "{line}");
    assert_eq!(line["parsers"]["gone"]["available"], false);
    assert_eq!(line["parsers"]["whatwg"]["failure"], true);
    let single = urlscope(&["diff", "--parsers", "whatwg", "http://a/"], b"", &[]);
    assert_eq!(single.status.code(), Some(1));
}

#[test]
fn the_text_form_ends_each_input_with_a_blank_line_not_an_escaped_newline() {
    let output = urlscope(
        &["diff", "--parsers", PINNED, "-"],
        b"http://a/\nhttp://b/\n",
        &[],
    );
    let text = String::from_utf8(output.stdout).expect("UTF-8");
    assert!(!text.contains("\\n"), "{text}");
    assert_eq!(text.matches("agree: yes\n\n").count(), 2, "{text}");
    assert!(text.ends_with("agree: yes\n\n"), "{text}");
}

/// A parser added with one line of configuration: a real process speaking the protocol.
#[test]
fn a_configured_parser_takes_part() {
    let adapter = r#"
import json, sys
print(json.dumps({"urlscope-adapter": 1, "available": True, "version": "upper 1"}), flush=True)
for line in sys.stdin:
    r = json.loads(line)
    scheme, rest = r["input"].split("://", 1)
    host = rest.split("/")[0]
    host = host.upper() if host.startswith("a.") else host.replace("b", "d")
    print(json.dumps({"id": r["id"], "failure": False, "error": None, "scheme": scheme,
                      "host": host}), flush=True)
"#;
    let dir = std::env::temp_dir().join(format!("urlscope-diff-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let script = dir.join("upper.py");
    std::fs::write(&script, adapter).expect("write adapter");
    let config = dir.join("parsers.conf");
    std::fs::write(
        &config,
        format!(
            "# a parser of our own\nupper = python3 {}\n",
            script.display()
        ),
    )
    .expect("write config");
    let mut command = Command::new(env!("CARGO_BIN_EXE_urlscope"));
    let output = command
        .args([
            "diff",
            "--json",
            "--parsers",
            "whatwg,upper",
            "http://a.example/x",
            "http://b.example/x",
        ])
        .env("URLSCOPE_PARSERS", &config)
        .output()
        .expect("run");
    let _ = std::fs::remove_dir_all(&dir);
    let lines = json_lines(&output);
    let line = &lines[0];
    assert_eq!(line["parsers"]["upper"]["host"], "A.EXAMPLE", "{line}");
    assert_eq!(line["parsers"]["upper"]["version"], "upper 1");
    assert_eq!(line["parsers"]["upper"]["port"], Value::Null);
    // The same host in capitals: spelled differently, one destination.
    assert_eq!(line["agree"], true, "{line}");
    assert_eq!(
        line["disagreements"][0]["class"],
        "same destination, spelled differently"
    );
    assert_eq!(lines[1]["parsers"]["upper"]["host"], "d.example");
    assert_eq!(lines[1]["agree"], false, "{}", lines[1]);
    assert_eq!(output.status.code(), Some(1));
}

#[test]
fn check_allow_host_reports_an_allowlist_bypass() {
    let output = urlscope(
        &["check", "--json", "--allow-host", "example.com"],
        b"http://example.com\\@evil.com\nhttps://example.com/\n",
        &[],
    );
    let lines = json_lines(&output);
    // Which side curl takes is its version's answer.
    let version = urlscope(&["diff", "--json", "--parsers", "curl", "x"], b"", &[]);
    if !pinned(&json_lines(&version)[0], "curl") {
        eprintln!(
            "curl is not the recorded version: {:?}",
            lines[0]["findings"]
        );
        return;
    }
    assert_eq!(output.status.code(), Some(1), "a bypass is danger");
    let bypass = lines[0]["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .find(|f| f["id"] == "allowlist-bypass")
        .expect("an allowlist-bypass finding");
    assert_eq!(bypass["severity"], "danger");
    let readings = &lines[0]["gate"]["readings"];
    assert_eq!(readings["whatwg"]["host"], "example.com");
    assert_eq!(readings["whatwg"]["allowed"], true);
    assert_eq!(readings["curl"]["host"], "evil.com");
    assert_eq!(readings["curl"]["allowed"], false);
    assert_eq!(lines[0]["gate"]["pass"], false);
    assert_eq!(lines[1]["gate"]["pass"], true);
    let clean = lines[1]["findings"].as_array().expect("findings");
    assert!(
        clean
            .iter()
            .all(|f| !f["id"].as_str().unwrap_or("").starts_with("allow")),
        "{clean:?}"
    );
}

/// `diff` and `check --allow-host` compare hosts with one function: the parsers that `diff`
/// counts as going where the URL Standard goes are exactly those `check` counts as going to
/// the allowed host, whatever versions are installed.
#[test]
fn check_allow_host_and_diff_call_the_same_hosts_the_same() {
    let inputs = [
        "https://Example.com/",
        "http://[::ffff:127.0.0.1]/",
        "http://EXAMPLE.org./",
        "http://example.net\\@evil.com",
    ];
    let mut stdin = inputs.join("\n");
    stdin.push('\n');
    let diff = urlscope(&["diff", "--json", "-"], stdin.as_bytes(), &[]);
    let diff = json_lines(&diff);
    // Every host the URL Standard reads is allowed: a parser goes to an allowed host exactly
    // when `diff` calls its host the same as one of them.
    let allowed: Vec<String> = diff
        .iter()
        .map(|line| {
            line["parsers"]["whatwg"]["host"]
                .as_str()
                .expect("a whatwg host")
                .to_owned()
        })
        .collect();
    let mut args = vec!["check", "--json"];
    for host in &allowed {
        args.extend(["--allow-host", host]);
    }
    let check = json_lines(&urlscope(&args, stdin.as_bytes(), &[]));
    for (line, checked) in diff.iter().zip(&check) {
        let input = &line["input"];
        assert_eq!(*input, checked["input"]);
        let mut same = Vec::new();
        let mut other = Vec::new();
        for (name, reading) in line["parsers"].as_object().expect("parsers") {
            if reading["available"] != true || reading["failure"] == true {
                continue;
            }
            let host = reading["host"].as_str();
            match host {
                Some(host) if allowed.iter().any(|a| urlscope::diff::same_host(host, a)) => {
                    same.push(name.clone())
                }
                _ => other.push(name.clone()),
            }
        }
        let allowlist = checked["findings"]
            .as_array()
            .expect("findings")
            .iter()
            .find(|f| f["id"] == "allowlist-bypass" || f["id"] == "not-allowed")
            .cloned();
        // The gate's readings: which were allowed and which went elsewhere.
        let names = |allowed: bool| -> Vec<String> {
            let mut names: Vec<String> = checked["gate"]["readings"]
                .as_object()
                .expect("the gate's readings")
                .iter()
                .filter(|(_, r)| r["allowed"] == allowed)
                .map(|(name, _)| name.clone())
                .collect();
            names.sort();
            names
        };
        same.sort();
        other.sort();
        if other.is_empty() {
            assert_eq!(allowlist, None, "{input}: diff reads one host: {line}");
        }
        assert_eq!(names(true), same, "{input}");
        assert_eq!(names(false), other, "{input}");
        // The spelled-differently inputs: where every parser parses, `diff` agrees exactly
        // when `check` finds nothing.
        if line["disagreements"]
            .as_array()
            .is_some_and(|d| d.iter().all(|d| d["component"] != "failure"))
        {
            assert_eq!(
                line["agree"] == true,
                allowlist.is_none(),
                "{input}: {line}"
            );
        }
    }
}

#[test]
fn a_base_is_resolved_by_each_parser_and_those_without_resolution_step_aside() {
    let output = urlscope(
        &[
            "diff",
            "--json",
            "--base",
            "http://example.com/a/b",
            "//evil.com/x",
        ],
        b"",
        &[],
    );
    let line = &json_lines(&output)[0];
    assert_eq!(line["base"], "http://example.com/a/b");
    let parsers = line["parsers"].as_object().expect("parsers");
    for (name, reading) in parsers {
        if name == "http" || name == "urllib3" {
            assert_eq!(reading["available"], false, "{name}: {reading}");
            assert_eq!(reading["failure"], false, "{name}: {reading}");
        } else if name == "whatwg" || name == "rust-url" || pinned(line, name) {
            assert_eq!(reading["host"], "evil.com", "{name}: {reading}");
            assert_eq!(reading["path"], "/x", "{name}: {reading}");
        }
    }
    let all_pinned = parsers.iter().all(|(name, r)| {
        r["available"] == false || name == "whatwg" || name == "rust-url" || pinned(line, name)
    });
    if all_pinned {
        assert_eq!(line["agree"], true, "{line}");
    }
    assert_eq!(
        output.status.code(),
        Some(exit_for(std::slice::from_ref(line)))
    );
}

/// The verdict names the parsers it leaves out: "agree" among the parsers that read the input
/// says nothing of one that could not run, and parsers that all reject an input agree only on
/// that.
#[test]
fn the_verdict_names_the_parsers_it_is_without() {
    let output = urlscope(
        &[
            "diff",
            "--parsers",
            "whatwg,rust-url,http",
            "--base",
            "http://x/",
            "-",
        ],
        b"a\nhttp://[\n",
        &[],
    );
    let text = String::from_utf8_lossy(&output.stdout);
    let verdicts: Vec<&str> = text.lines().filter(|l| l.starts_with("agree")).collect();
    assert_eq!(
        verdicts,
        [
            "agree: yes (without http: unavailable)",
            "agree: yes: every parser that read it rejects it (without http: unavailable)",
        ],
        "{text}"
    );
    // With every parser read, the verdict stands alone.
    let output = urlscope(
        &["diff", "--parsers", "whatwg,rust-url", "http://a/"],
        b"",
        &[],
    );
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(text.ends_with("agree: yes\n\n"), "{text}");
}

/// java.net.URI's reading: its adapter is compiled once into the cache with javac (a start then
/// takes a tenth of `java JavaUri.java`'s), and without javac it is run as a single-file
/// program, reading the same.
#[cfg(unix)]
#[test]
fn java_is_compiled_once_into_the_cache_and_reads_without_javac_too() {
    let Some(java) = common::find("java") else {
        assert!(
            std::env::var_os("URLSCOPE_REQUIRE_RUNTIMES").is_none(),
            "java is not on PATH"
        );
        eprintln!("java is not installed here: not checked");
        return;
    };
    let root = std::env::temp_dir().join(format!("urlscope-java-cache-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    // Java's classes of the adapter, under one cache.
    let classes = |cache: &std::path::Path| -> Vec<std::path::PathBuf> {
        let adapters = cache.join("urlscope/adapters");
        std::fs::read_dir(adapters)
            .into_iter()
            .flatten()
            .flatten()
            .map(|e| e.path().join("classes/JavaUri.class"))
            .filter(|p| p.is_file())
            .collect()
    };
    let read = |cache: &std::path::Path, path: Option<&std::path::Path>| -> Value {
        let cache = cache.to_string_lossy().into_owned();
        let mut env = vec![("XDG_CACHE_HOME", cache.as_str())];
        let path = path.map(|p| p.to_string_lossy().into_owned());
        if let Some(path) = &path {
            env.push(("PATH", path.as_str()));
        }
        let output = urlscope(
            &[
                "diff",
                "--json",
                "--parsers",
                "whatwg,java",
                "http://a.example:8080/x?y",
            ],
            b"",
            &env,
        );
        let lines = json_lines(&output);
        lines[0]["parsers"]["java"].clone()
    };
    let expect_read = |java: &Value| {
        assert_eq!(java["available"], true, "{java}");
        assert_eq!(java["host"], "a.example", "{java}");
        assert_eq!(java["port"], "8080", "{java}");
        assert_eq!(java["query"], "y", "{java}");
    };
    if common::find("javac").is_some() {
        let cache = root.join("with-javac");
        let first = read(&cache, None);
        if first["available"] != true && std::env::var_os("URLSCOPE_REQUIRE_RUNTIMES").is_none() {
            // A Java before 11 runs neither the class compiled for 11 nor a single-file program.
            eprintln!(
                "java gives no reading here ({}): not checked",
                first["error"]
            );
            let _ = std::fs::remove_dir_all(&root);
            return;
        }
        expect_read(&first);
        assert_eq!(classes(&cache).len(), 1, "compiled into the cache");
        // The next run starts from the class file.
        expect_read(&read(&cache, None));
    } else {
        eprintln!("javac is not installed here: only the single-file program is checked");
    }
    // A PATH with java alone.
    let bin = root.join("bin");
    std::fs::create_dir_all(&bin).expect("a PATH directory");
    let java = std::fs::canonicalize(&java).expect("java's program");
    std::os::unix::fs::symlink(&java, bin.join("java")).expect("a link");
    let cache = root.join("without-javac");
    expect_read(&read(&cache, Some(&bin)));
    assert!(classes(&cache).is_empty(), "nothing compiled without javac");
    let _ = std::fs::remove_dir_all(&root);
}
