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
            // The host parser's sub-steps too, each with its algorithm's step.
            for event in step["host"].as_array().expect("host") {
                let spec = &event["spec"];
                assert!(
                    spec["algorithm"].as_str().is_some_and(|a| !a.is_empty())
                        && spec["step"].as_str().is_some_and(|s| !s.is_empty())
                        && spec["url"]
                            .as_str()
                            .is_some_and(|u| u.starts_with("https://url.spec.whatwg.org/#"))
                        && event["explanation"].as_str().is_some_and(|e| !e.is_empty()),
                    "{input:?} step {index}: {event}"
                );
            }
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
    // The missing "]" would make a failing host parse: a new destination, withheld without
    // --fix-host (the line as it was), applied with it.
    assert_eq!(
        out,
        "http://127.0.0.1/a%20b\nhttps://example.com/?q\nhttp://[::1\nhttp://ok.example/\n"
    );
    let out = urlscope_stdin(&["check", "--fix", "--fix-host"], "http://[::1\n");
    assert_eq!(out, "http://[::1]\n");
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

/// The host sub-steps of `input`'s JSON trace: `(event, algorithm, step, explanation)`.
fn host_steps(input: &str) -> Vec<(String, String, String, String)> {
    let json: Value = serde_json::from_str(&urlscope(&["trace", "--json", input])).expect("JSON");
    let mut found = Vec::new();
    for step in json["steps"].as_array().expect("steps") {
        for event in step["host"].as_array().expect("host") {
            let spec = &event["spec"];
            let anchor = spec["url"].as_str().expect("a link");
            assert!(
                anchor.starts_with("https://url.spec.whatwg.org/#"),
                "{event}"
            );
            found.push((
                event["event"].as_str().expect("event").to_owned(),
                spec["algorithm"].as_str().expect("algorithm").to_owned(),
                spec["step"].as_str().expect("step").to_owned(),
                event["explanation"]
                    .as_str()
                    .expect("explanation")
                    .to_owned(),
            ));
        }
    }
    found
}

/// Asserts each sub-step's event, algorithm and step number, and that its explanation has the
/// given words.
fn assert_host_steps(input: &str, expected: &[(&str, &str, &str, &[&str])]) {
    let found = host_steps(input);
    assert_eq!(found.len(), expected.len(), "{input}: {found:#?}");
    for (got, want) in found.iter().zip(expected) {
        assert_eq!(
            (got.0.as_str(), got.1.as_str(), got.2.as_str()),
            (want.0, want.1, want.2),
            "{input}: {got:?}"
        );
        for words in want.3 {
            assert!(
                got.3.contains(words),
                "{input}: {words:?} not in {:?}",
                got.3
            );
        }
    }
}

#[test]
fn an_ipv4_host_in_two_radixes_names_each_step() {
    // "0x7f.1": an ASCII domain (strict ToASCII accepts it, then the lowercasing), whose last
    // label is digits, so the IPv4 parser reads it: 0x7f in radix 16, 1 in radix 10, and with
    // two parts the last one fills three bytes: 127 × 2^24 + 1 = 2130706433.
    assert_host_steps(
        "http://0x7f.1/",
        &[
            ("domain-to-ascii", "domain parser", "1", &["\"0x7f.1\""]),
            ("ascii-lowercase", "domain parser", "5", &["lowercased"]),
            ("idna-label", "domain to Unicode", "1", &["\"0x7f\""]),
            ("idna-label", "domain to Unicode", "1", &["\"1\""]),
            (
                "ends-in-a-number",
                "ends in a number checker",
                "5",
                &["\"1\"", "digits"],
            ),
            (
                "ipv4-part",
                "IPv4 number parser",
                "4",
                &[
                    "\"0x7f\" starts with 0x, so it is read in radix 16: 127",
                    "IPv4-non-decimal-part",
                ],
            ),
            ("ipv4-part", "IPv4 number parser", "3", &["radix 10: 1."]),
            (
                "ipv4-address",
                "IPv4 parser",
                "14",
                &["2130706433", "127.0.0.1", "last 3 bytes"],
            ),
        ],
    );
}

#[test]
fn an_ipv4_address_inside_an_ipv6_address_names_each_step() {
    // "::" first (step 5: piece 0 is skipped, compress is 1), then the piece ffff (piece 1),
    // then 127.0.0.1 as two pieces of two bytes each (pieces 2 and 3); compression moves the 3
    // pieces after "::" to the end (pieces 5 to 7), leaving pieces 0 to 4 at 0.
    assert_host_steps(
        "http://[::ffff:127.0.0.1]/",
        &[
            (
                "ipv6-input",
                "host parser",
                "1",
                &["\"[::ffff:127.0.0.1]\"", "IPv6"],
            ),
            (
                "ipv6-compress",
                "IPv6 parser",
                "5.3",
                &["piece 0 stays 0", "remembers piece 1"],
            ),
            (
                "ipv6-piece",
                "IPv6 parser",
                "6.9",
                &["\"ffff\"", "0xffff", "piece 1."],
            ),
            (
                "ipv4-in-ipv6-part",
                "IPv6 parser",
                "6.5.5.5",
                &["\"127\"", "high byte of piece 2"],
            ),
            (
                "ipv4-in-ipv6-part",
                "IPv6 parser",
                "6.5.5.5",
                &["\"0\"", "low byte of piece 2"],
            ),
            (
                "ipv4-in-ipv6-part",
                "IPv6 parser",
                "6.5.5.5",
                &["\"0\"", "high byte of piece 3"],
            ),
            (
                "ipv4-in-ipv6-part",
                "IPv6 parser",
                "6.5.5.5",
                &["\"1\"", "low byte of piece 3"],
            ),
            (
                "ipv6-swap",
                "IPv6 parser",
                "7.3",
                &["(3 pieces)", "pieces 0 to 4 stay 0"],
            ),
            ("ipv6-address", "IPv6 parser", "9", &["[::ffff:7f00:1]"]),
        ],
    );
}

#[test]
fn an_idn_host_names_each_step() {
    // Not ASCII: strict ToASCII accepts it (step 1), and the relaxed run the host parser uses
    // gives the same (step 6.1); "de" is not a number, so the host is a domain.
    assert_host_steps(
        "http://Bücher.de/",
        &[
            (
                "domain-to-ascii",
                "domain parser",
                "1",
                &["\"Bücher.de\"", "\"xn--bcher-kva.de\""],
            ),
            (
                "domain-to-ascii",
                "domain parser",
                "6.1",
                &["not ASCII", "relaxed", "\"xn--bcher-kva.de\"", "Punycode"],
            ),
            (
                "idna-label",
                "domain to Unicode",
                "1",
                &["\"xn--bcher-kva\"", "\"bücher\""],
            ),
            ("idna-label", "domain to Unicode", "1", &["\"de\""]),
            (
                "ends-in-a-number",
                "ends in a number checker",
                "7",
                &["\"de\"", "not a number"],
            ),
        ],
    );
}

#[test]
fn explain_puts_the_host_sub_steps_under_the_row_that_parsed_the_host() {
    let text = urlscope(&["trace", "--explain", "http://0x7f.1/"]);
    let lines: Vec<&str> = text.lines().collect();
    let at = lines
        .iter()
        .position(|l| l.trim_start().starts_with("§ host state 3.3:"))
        .expect("the host state's step 3.3");
    // The host parser's sub-steps come right under 3.3, the step that ran it.
    assert!(
        lines[at + 1].starts_with("          § domain parser 1: "),
        "{text}"
    );
    let ipv4 = "          § IPv4 number parser 4: \"0x7f\" starts with 0x, so it is read in radix 16: 127 (a validation error, IPv4-non-decimal-part, but only a warning).  <https://url.spec.whatwg.org/#ipv4-number-parser>";
    let address = "          § IPv4 parser 14: The parts make the 32-bit number 2130706433, which is the address 127.0.0.1. With 2 parts, the last one fills the last 3 bytes.  <https://url.spec.whatwg.org/#concept-ipv4-parser>";
    let ipv4_at = lines.iter().position(|l| *l == ipv4).expect(&text);
    let address_at = lines.iter().position(|l| *l == address).expect(&text);
    assert!(at < ipv4_at && ipv4_at < address_at, "{text}");
    // Then the row's last step, 3.5 (set the host, the path start state), which uses the
    // host parser's result, and the next row.
    assert!(
        lines[address_at + 1].starts_with("        § host state 3.5:"),
        "{text}"
    );
    assert!(
        !lines[address_at + 2].trim_start().starts_with('§'),
        "{text}"
    );
    // Without --explain, no host sub-steps.
    assert!(!urlscope(&["trace", "http://0x7f.1/"]).contains("IPv4 number parser"));
}

#[test]
fn a_host_failure_names_the_step_that_failed() {
    let steps = host_steps("http://[1:2:3]/");
    let last = steps.last().expect("sub-steps");
    assert_eq!(
        (last.0.as_str(), last.1.as_str(), last.2.as_str()),
        ("failure", "IPv6 parser", "8")
    );
    assert!(last.3.contains("only 3 pieces"), "{last:?}");
    let steps = host_steps("http://1.256.3.4/");
    let last = steps.last().expect("sub-steps");
    assert_eq!(
        (last.0.as_str(), last.1.as_str(), last.2.as_str()),
        ("failure", "IPv4 parser", "8")
    );
    assert!(last.3.contains("256"), "{last:?}");
}

/// The terminal column where each column of the text trace starts, counted by display width:
/// a wide code point (an emoji) takes two columns.
#[test]
fn wide_code_points_keep_the_trace_columns_aligned() {
    use unicode_width::UnicodeWidthStr;
    let input = "https://😀.example/👍?q=🎉";
    for args in [&["trace", input][..], &["trace", "--collapse", input][..]] {
        let text = urlscope(args);
        let header = text.lines().nth(1).expect("the header");
        let start = |name: &str| UnicodeWidthStr::width(&header[..header.find(name).expect(name)]);
        let (c, buffer, changes) = (start(" c ") + 1, start("buffer"), start("changes"));
        let mut checked = 0;
        for row in text.lines().skip(2).take_while(|l| !l.is_empty()) {
            // The text of a row before each column, cut at that column's terminal cell.
            let before = |column: usize| {
                let mut width = 0;
                let end = row
                    .char_indices()
                    .find(|(_, ch)| {
                        width += UnicodeWidthStr::width(ch.to_string().as_str());
                        width > column
                    })
                    .map_or(row.len(), |(at, _)| at);
                (&row[..end], &row[end..])
            };
            for (column, next) in [(c, buffer), (buffer, changes), (changes, usize::MAX)] {
                let (head, rest) = before(column);
                let cell = match next {
                    usize::MAX => rest,
                    _ => before(next).0.get(head.len()..).unwrap_or(""),
                };
                if cell.trim().is_empty() {
                    continue;
                }
                // Each column is left-aligned after the space that ends the one before it.
                assert!(
                    head.ends_with(' ') && !rest.starts_with(' '),
                    "{args:?}: column {column} starts elsewhere in\n{row}"
                );
                checked += 1;
            }
        }
        assert!(checked > 20, "{checked} cells checked\n{text}");
    }
}
