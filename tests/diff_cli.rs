//! `urlscope diff` and `check --allow-host`, run as the binary with the real parsers.

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
    assert_eq!(lines[1]["parsers"]["curl"]["failure"], true);
}

#[test]
fn json_has_every_field_and_disagreements_name_their_class() {
    let output = urlscope(
        &["diff", "--json", "http://example.com\\@evil.com"],
        b"",
        &[],
    );
    assert_eq!(output.status.code(), Some(1), "a host disagreement exits 1");
    let line = &json_lines(&output)[0];
    assert_eq!(line["input"], "http://example.com\\@evil.com");
    assert_eq!(line["base"], Value::Null);
    assert_eq!(line["agree"], false);
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
        &["diff", "--parsers", BUILT_IN, "https://example.com/"],
        b"",
        &[],
    );
    assert_eq!(
        same.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&same.stdout)
    );
    // Hosts agree; the paths do not (RFC 3986 reads "" where the URL Standard reads "/").
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
    assert!(text.contains("≠ path"), "{text}");
    assert!(text.contains("agree: yes"), "{text}");
}

#[test]
fn an_unknown_parser_is_an_error() {
    let output = urlscope(&["diff", "--parsers", "whatwg,perl", "x"], b"", &[]);
    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("unknown parser \"perl\""), "{stderr}");
}

/// A parser added with one line of configuration: a real process speaking the protocol.
#[test]
fn a_configured_parser_takes_part() {
    let adapter = r#"
import json, sys
print(json.dumps({"urlscope-adapter": 1, "available": True, "version": "upper 1"}), flush=True)
for line in sys.stdin:
    r = json.loads(line)
    host = r["input"].split("//")[-1].split("/")[0].upper()
    print(json.dumps({"id": r["id"], "failure": False, "error": None, "host": host}), flush=True)
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
        ])
        .env("URLSCOPE_PARSERS", &config)
        .output()
        .expect("run");
    let _ = std::fs::remove_dir_all(&dir);
    let line = &json_lines(&output)[0];
    assert_eq!(line["parsers"]["upper"]["host"], "A.EXAMPLE", "{line}");
    assert_eq!(line["parsers"]["upper"]["version"], "upper 1");
    assert_eq!(line["parsers"]["upper"]["port"], Value::Null);
    assert_eq!(line["agree"], false);
}

#[test]
fn check_allow_host_reports_an_allowlist_bypass() {
    let output = urlscope(
        &["check", "--json", "--allow-host", "example.com"],
        b"http://example.com\\@evil.com\nhttps://example.com/\n",
        &[],
    );
    assert_eq!(output.status.code(), Some(1), "a bypass is danger");
    let lines = json_lines(&output);
    let bypass = lines[0]["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .find(|f| f["id"] == "allowlist-bypass")
        .expect("an allowlist-bypass finding");
    assert_eq!(bypass["severity"], "danger");
    assert_eq!(bypass["parsers"]["allowed"]["whatwg"], "example.com");
    assert_eq!(bypass["parsers"]["elsewhere"]["curl"], "evil.com");
    let clean = lines[1]["findings"].as_array().expect("findings");
    assert!(
        clean
            .iter()
            .all(|f| !f["id"].as_str().unwrap_or("").starts_with("allow")),
        "{clean:?}"
    );
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
        } else if reading["available"] == true {
            assert_eq!(reading["host"], "evil.com", "{name}: {reading}");
            assert_eq!(reading["path"], "/x", "{name}: {reading}");
        }
    }
    assert_eq!(line["agree"], true, "{line}");
    assert_eq!(output.status.code(), Some(0));
}
