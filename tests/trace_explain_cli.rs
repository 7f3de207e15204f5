//! `trace --json` names the standard's step behind every row; `trace --explain` and
//! `trace --collapse` show them in the text trace.

use std::process::Command;

use serde_json::Value;

fn urlscope(args: &[&str]) -> String {
    let output = Command::new(env!("CARGO_BIN_EXE_urlscope"))
        .args(args)
        .output()
        .expect("urlscope runs");
    String::from_utf8(output.stdout).expect("UTF-8 output")
}

#[test]
fn every_json_step_carries_its_spec_step_link_and_explanation() {
    let inputs = [
        "HTTPS://user@ex%41mple.com:443/a/./b/../c?q=1#frag",
        "file:///C|/x/../y",
        "http://[::1]:8080/",
        "http://0x7f.1/",
        "mailto:a b?c",
        "http://ex.com:99999/",
        " \tjavascript:alert(1)",
        "http://user:pass@@host/",
    ];
    for input in inputs {
        let json: Value = serde_json::from_str(&urlscope(&["trace", "--json", input]))
            .unwrap_or_else(|e| panic!("{input:?}: {e}"));
        let steps = json["steps"].as_array().expect("steps");
        assert!(!steps.is_empty());
        for (index, step) in steps.iter().enumerate() {
            let spec = &step["spec"];
            let number = spec["step"].as_str().unwrap_or("");
            let url = spec["url"].as_str().unwrap_or("");
            let explanation = step["explanation"].as_str().unwrap_or("");
            assert!(
                !number.is_empty()
                    && url.starts_with("https://url.spec.whatwg.org/#")
                    && !explanation.is_empty(),
                "{input:?} step {index}: {step}"
            );
            // The deciding step is the last one cited.
            let cited = step["spec_steps"].as_array().expect("spec_steps");
            let last = cited.last().and_then(Value::as_str).unwrap_or("");
            assert!(last.starts_with(&format!("{number}:")), "{step}");
            assert_eq!(
                step["explained"].as_array().map(Vec::len),
                Some(cited.len())
            );
        }
    }
    let json: Value =
        serde_json::from_str(&urlscope(&["trace", "--json", "https://a@b/"])).expect("JSON");
    let at = &json["steps"][11];
    assert_eq!(at["c"], "@");
    assert_eq!(at["spec"]["state"], "authority state");
    assert_eq!(
        at["spec"]["url"],
        "https://url.spec.whatwg.org/#authority-state"
    );
}

#[test]
fn explain_puts_the_steps_under_each_row() {
    let text = urlscope(&["trace", "--explain", "http://ex.com:99999/"]);
    assert!(
        text.contains("§ port state 2.1.2: The port is larger than 65535: the parse fails (port-out-of-range).  <https://url.spec.whatwg.org/#port-state>"),
        "{text}"
    );
    let rows = text
        .lines()
        .filter(|l| l.starts_with("  ") && !l.trim_start().starts_with('§'))
        .count();
    let explained = text
        .lines()
        .filter(|l| l.trim_start().starts_with('§'))
        .count();
    assert!(
        explained >= rows - 1,
        "{rows} rows, {explained} explanations\n{text}"
    );
}

#[test]
fn collapse_makes_each_run_one_row() {
    let input = "HTTPS://user@ex%41mple.com:443/a/./b/../c?q=1#frag";
    let full = urlscope(&["trace", input]);
    let collapsed = urlscope(&["trace", "--collapse", input]);
    let table = |text: &str| {
        text.lines()
            .skip(2)
            .take_while(|l| !l.is_empty())
            .map(str::to_owned)
            .collect::<Vec<_>>()
    };
    assert_eq!(table(&full).len(), 72);
    let rows = table(&collapsed);
    assert_eq!(rows.len(), 30, "{collapsed}");
    let run = rows
        .iter()
        .find(|r| r.contains("authority state ×17"))
        .expect("the host's run in the authority state");
    assert!(run.trim_start().starts_with("15 "), "{run}");
    assert!(run.ends_with("buffer ← ex%41mple.com:443"), "{run}");
}

fn urlscope_stdin(args: &[&str], stdin: &str) -> String {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_urlscope"))
        .args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("urlscope runs");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(stdin.as_bytes())
        .expect("written");
    let output = child.wait_with_output().expect("urlscope ends");
    String::from_utf8(output.stdout).expect("UTF-8 output")
}

#[test]
fn check_fix_prints_each_input_rewritten() {
    let out = urlscope_stdin(
        &["check", "--fix"],
        "http://user@0x7f.1\\a b\n  https:/ex%41mple.com/?q\nhttp://[::1\nhttp://ok.example/\n",
    );
    assert_eq!(
        out,
        "http://127.0.0.1/a%20b\nhttps://example.com/?q\nhttp://[::1\nhttp://ok.example/\n"
    );
}

#[test]
fn parse_json_carries_a_fix_with_each_error() {
    let json: Value =
        serde_json::from_str(&urlscope(&["parse", "--json", "http://ex.com\\a"])).expect("JSON");
    let error = &json["errors"][0];
    assert_eq!(error["type"], "invalid-reverse-solidus");
    assert_eq!(error["browsers"], "accepted");
    assert_eq!(
        error["fix"],
        serde_json::json!({"edits": [{"start": 13, "end": 14, "replacement": "/"}], "same_href": true})
    );
    let failed: Value =
        serde_json::from_str(&urlscope(&["parse", "--json", "http://h:99999/"])).expect("JSON");
    assert_eq!(failed["errors"][0]["browsers"], "rejected");
    assert_eq!(failed["errors"][0]["fix"], Value::Null);
}
