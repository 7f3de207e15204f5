//! `check --allow-host` and `--deny-internal`, run as the binary: every parser reads each URL
//! (the built-in ones and the external runtimes installed here), and the gate fails closed.
//! Each case asserts the exit code, the gate's finding ids and their severity.

mod common;

use serde_json::Value;
use std::process::Output;

fn urlscope(args: &[&str], stdin: &[u8]) -> Output {
    // A user's own configuration must not change what the tests see.
    let env = [("URLSCOPE_PARSERS", "/nonexistent/urlscope-parsers.conf")];
    common::urlscope_with(args, stdin, &env)
}

/// One input's gate findings (id, severity) and its JSON line.
type Judged = (Vec<(String, String)>, Value);

const GATE_IDS: [&str; 3] = ["allowlist-bypass", "not-allowed", "internal-destination"];

/// Checks `inputs` in one run with `args` (one line each: every parser reads them through one
/// set of adapters), and returns the exit code and, per input, the gate's findings (id,
/// severity) and its JSON line.
fn check_all(args: &[&str], inputs: &[&str]) -> (i32, Vec<Judged>) {
    let mut all = vec!["check", "--json"];
    all.extend(args);
    let mut stdin = Vec::new();
    for input in inputs {
        assert!(!input.contains('\n'), "one line per input: {input:?}");
        stdin.extend_from_slice(input.as_bytes());
        stdin.push(b'\n');
    }
    let output = urlscope(&all, &stdin);
    let stdout = String::from_utf8(output.stdout).expect("UTF-8");
    let lines: Vec<Value> = stdout
        .lines()
        .map(|l| serde_json::from_str(l).expect("JSON"))
        .collect();
    assert_eq!(
        lines.len(),
        inputs.len() + 1,
        "one line per input and a summary"
    );
    let judged = lines[..inputs.len()]
        .iter()
        .zip(inputs)
        .map(|(line, input)| {
            assert_eq!(line["input"], *input);
            let gate = line["findings"]
                .as_array()
                .expect("findings")
                .iter()
                .filter(|f| GATE_IDS.contains(&f["id"].as_str().unwrap_or("")))
                .map(|f| {
                    (
                        f["id"].as_str().unwrap_or("").to_owned(),
                        f["severity"].as_str().unwrap_or("").to_owned(),
                    )
                })
                .collect();
            (gate, line.clone())
        })
        .collect();
    (output.status.code().expect("an exit code"), judged)
}

/// One input alone: its exit code, gate findings and JSON line.
fn check(args: &[&str], input: &str) -> (i32, Vec<(String, String)>, Value) {
    let (code, mut judged) = check_all(args, &[input]);
    let (gate, line) = judged.remove(0);
    (code, gate, line)
}

fn danger(id: &str) -> Vec<(String, String)> {
    vec![(id.to_owned(), "danger".to_owned())]
}

/// Asserts each of `inputs` fails the gate of `args` with `id` (danger), so the run exits 1.
fn assert_fails(args: &[&str], id: &str, inputs: &[&str]) {
    let (code, judged) = check_all(args, inputs);
    for (input, (gate, line)) in inputs.iter().zip(&judged) {
        assert_eq!(
            gate,
            &danger(id),
            "input {input:?} with {args:?}: expected {id}; got {line}"
        );
        assert_eq!(line["gate"]["pass"], false, "{line}");
    }
    assert_eq!(code, 1, "{args:?} {inputs:?}");
}

/// Asserts each of `inputs` passes the gate of `args` with no danger finding at all: the run
/// exits 0.
fn assert_passes(args: &[&str], inputs: &[&str]) {
    let (code, judged) = check_all(args, inputs);
    for (input, (gate, line)) in inputs.iter().zip(&judged) {
        assert_eq!(
            gate.as_slice(),
            &[][..],
            "input {input:?} with {args:?}: expected no gate finding; got {line}"
        );
        assert_eq!(line["gate"]["pass"], true, "{line}");
    }
    assert_eq!(code, 0, "{args:?} {inputs:?}: {judged:?}");
}

const EXAMPLE: &[&str] = &["--allow-host", "example.com"];

#[test]
fn urls_that_go_elsewhere_on_every_reading_are_not_allowed() {
    assert_fails(
        EXAMPLE,
        "not-allowed",
        &[
            "https://attacker.net/",
            "https://example.com.attacker.net/",
            "https://example.comattacker.net/",
            "https://attacker.net/?example.com",
            "https://attacker.net#@example.com",
            "https://example.com@attacker.net/",
            "https://example.com%2F@attacker.net/",
            "https://example.com%23@attacker.net/",
            "https://example.com%3F@attacker.net/",
            "https://example.com%40attacker.net@attacker.net/",
            "\u{0}http://attacker.net",
            "\u{1}\u{1F} https://attacker.net/",
            "http:\\\\attacker.net",
            "http:/attacker.net",
            "https:attacker.net",
            "https://example.com\u{3002}attacker/",
            "https://exa%2Fmple.com/",
            "https://example.com.attacker.net\t/",
            "foo://attacker.net/",
            // No parser finds a destination at all: the gate cannot show it is allowed.
            "not a url",
        ],
    );
}

#[test]
fn readings_that_part_ways_are_an_allowlist_bypass() {
    // The URL Standard ends the host at the backslash; curl and Python's urlsplit read
    // "attacker.net\" as userinfo and go to example.com.
    let (code, gate, line) = check(EXAMPLE, "https://attacker.net\\@example.com/");
    assert_eq!((code, gate), (1, danger("allowlist-bypass")), "{line}");
    let readings = &line["gate"]["readings"];
    assert_eq!(readings["whatwg"]["host"], "attacker.net", "{line}");
    assert_eq!(readings["whatwg"]["allowed"], false, "{line}");
    assert_eq!(readings["curl"]["host"], "example.com", "{line}");
    assert_eq!(readings["curl"]["allowed"], true, "{line}");
    let detail = line["findings"]
        .as_array()
        .and_then(|f| f.iter().find(|f| f["id"] == "allowlist-bypass"))
        .and_then(|f| f["detail"].as_str())
        .expect("the bypass's detail")
        .to_owned();
    assert!(
        detail.starts_with("attacker.net:443 (not allowed): whatwg, rust-url"),
        "{detail}"
    );
    assert!(
        detail.contains("curl") && detail.contains("example.com:443"),
        "{detail}"
    );
    // Against an IP allowlist, other IPv4 notations: the URL Standard reads 127.0.0.1, RFC 3986
    // parsers keep the name a resolver may read otherwise.
    assert_fails(
        &["--allow-host", "127.0.0.1"],
        "allowlist-bypass",
        &[
            "http://0x7f.1/",
            "http://2130706433/",
            "http://127.1/",
            "http://0177.0.0.1/",
        ],
    );
}

#[test]
fn urls_whose_every_reading_goes_to_an_allowed_host_pass() {
    assert_passes(
        EXAMPLE,
        &[
            "https://example.com/",
            "https://example.com./",
            "HTTPS://EXAMPLE.COM/",
            "https://example.com:443/path?q=1#f",
            "http://example.com:8080/",
            // Mapped and ignored code points: every parser that keeps the Unicode name connects
            // to what IDNA maps it to, example.com.
            "https://exa\u{AD}mple.com/",
            "https://\u{FF45}xample.com/",
            // An opaque host: every reading names example.com.
            "foo://example.com/",
        ],
    );
    assert_passes(
        &["--allow-host", "[::1]"],
        &[
            "http://[::1]/",
            "http://[0:0::1]/",
            "http://[0:0:0:0:0:0:0:1]:8080/",
        ],
    );
    assert_passes(&["--allow-host", "127.0.0.1"], &["http://127.0.0.1/"]);
    assert_fails(
        &["--allow-host", "[::1]"],
        "not-allowed",
        &["http://[::2]/"],
    );
    assert_fails(
        &["--allow-host", "127.0.0.1"],
        "not-allowed",
        &["http://[::ffff:127.0.0.1]/", "http://127.0.0.2/"],
    );
}

#[test]
fn entries_with_ports_and_subdomains() {
    let port = &["--allow-host", "example.com:8443"];
    assert_passes(
        port,
        &["https://example.com:8443/", "http://EXAMPLE.com.:8443/"],
    );
    assert_fails(
        port,
        "not-allowed",
        &["https://example.com/", "https://example.com:8444/"],
    );
    let sub = &["--allow-host", "*.example.com"];
    assert_passes(
        sub,
        &["https://a.example.com/", "https://a.b.example.com./"],
    );
    assert_fails(
        sub,
        "not-allowed",
        &[
            "https://example.com/",
            "https://evilexample.com/",
            "https://a.example.com.evil/",
        ],
    );
    assert_passes(
        &[
            "--allow-host",
            "*.example.com",
            "--allow-host",
            "example.com",
        ],
        &["https://example.com/", "https://www.example.com/"],
    );
}

#[test]
fn a_value_that_cannot_be_a_host_is_a_usage_error() {
    for (value, message) in [
        ("https://example.com/", "give the host: example.com"),
        ("example.com/path", "give the host: example.com"),
        ("", "is empty"),
        ("*", "only as a leading"),
        ("exa*mple.com", "only as a leading"),
        ("example.com:99999", "not a number from 0 to 65535"),
        ("exa mple.com", "host parser fails"),
    ] {
        let output = urlscope(
            &["check", "--allow-host", value, "https://example.com/"],
            b"",
        );
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{value:?}: {stderr}");
        assert!(
            stderr.contains(message),
            "{value:?}: expected {message:?} in {stderr}"
        );
        assert!(output.stdout.is_empty(), "{value:?}");
    }
}

#[test]
fn deny_internal_flags_internal_hosts_on_every_reading() {
    assert_fails(
        &["--deny-internal"],
        "internal-destination",
        &[
            "http://127.0.0.1/",
            "http://localhost/",
            "http://[::1]:8080/",
            "http://169.254.169.254/latest/meta-data/",
            "http://10.1.2.3/",
        ],
    );
    assert_passes(
        &["--deny-internal"],
        &["https://example.com/", "http://8.8.8.8/"],
    );
    // Where readings part ways, each internal destination is named with its readings.
    let (code, _, line) = check(&["--deny-internal"], "http://0x7f.1/");
    assert_eq!(code, 1, "{line}");
    let details: Vec<&str> = line["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .filter(|f| f["id"] == "internal-destination")
        .filter_map(|f| f["detail"].as_str())
        .collect();
    assert!(
        details.iter().any(|d| d.contains("127.0.0.1:80, loopback"))
            && details.iter().any(|d| d.contains("0x7f.1:80, loopback")),
        "{details:?}"
    );
    assert_eq!(
        line["gate"]["readings"]["whatwg"]["internal"], "loopback",
        "{line}"
    );
}

#[test]
fn deny_internal_flags_the_local_machine() {
    let (code, gate, line) = check(&["--deny-internal"], "file:///etc/passwd");
    assert_eq!((code, gate), (1, danger("internal-destination")), "{line}");
    let (code, gate, line) = check(&["--deny-internal"], "https://example.com/");
    assert_eq!((code, gate.as_slice()), (0, &[][..]), "{line}");
    // Without a gate there is no "gate" verdict.
    let (_, _, line) = check(&[], "https://example.com/");
    assert_eq!(line["gate"], Value::Null);
}

#[test]
fn the_text_line_names_where_the_readings_go() {
    let output = urlscope(
        &[
            "check",
            "--allow-host",
            "example.com",
            "https://attacker.net/",
        ],
        b"",
    );
    let stdout = String::from_utf8(output.stdout).expect("UTF-8");
    assert_eq!(output.status.code(), Some(1));
    let first = stdout.lines().next().expect("a line");
    assert!(
        first.starts_with(
            "https://attacker.net/  not-allowed (danger); not-allowed: attacker.net:443 (not \
             allowed): whatwg, rust-url, curl"
        ),
        "{first}"
    );
}

#[test]
fn the_empty_host_is_no_destination() {
    // Go reads these with the host "", every other reading that has a host goes to
    // example.com: the URL passes, as it does where Go is not installed.
    assert_passes(
        EXAMPLE,
        &[
            "https:/example.com",
            "https:\\\\example.com",
            "http:example.com/path",
        ],
    );
    // Where the readings go elsewhere, the empty host is named among those with no
    // destination, never as a destination `"":80 (not allowed)`.
    let (code, gate, line) = check(EXAMPLE, "http:\\\\attacker.net");
    assert_eq!(code, 1);
    assert_eq!(gate, danger("not-allowed"), "{line}");
    // Whatever a runtime here reads, "" is never a destination: no reading's host is "".
    for (name, reading) in line["gate"]["readings"].as_object().expect("readings") {
        assert_ne!(reading["host"], "", "{name}: {line}");
    }
    let text = urlscope(
        &[
            "check",
            "--allow-host",
            "example.com",
            "http:\\\\attacker.net",
        ],
        b"",
    );
    let text = String::from_utf8_lossy(&text.stdout);
    assert!(!text.contains("\"\":80"), "{text}");
}

#[test]
fn a_host_shaped_userinfo_where_every_reading_goes_to_the_host_is_a_warning() {
    // Every reading goes to example.com: the userinfo misleads a reader, not a client, so
    // `check` warns and exits 0 (issue 46's rows, dotted and dotless addresses alike).
    let inputs = [
        "https://attacker.net@example.com/",
        "https://attacker.net%2f@example.com/",
        "https://foo@attacker.net:443@example.com/",
        "http://W4Acq9GFz6Y1t9E@0x7f.0x0.0x0.0x1:80@example.com/",
        "http://example.com+&@example.com#+@2130706433:80/",
        "http://2130706433@example.com/",
        "http://[::ffff:127.0.0.1]@example.com/",
    ];
    let (code, judged) = check_all(EXAMPLE, &inputs);
    for (input, (gate, line)) in inputs.iter().zip(&judged) {
        assert_eq!(gate.as_slice(), &[][..], "{input:?}: {line}");
        let credentials: Vec<&Value> = line["findings"]
            .as_array()
            .expect("findings")
            .iter()
            .filter(|f| f["id"] == "credentials-look-like-host")
            .collect();
        assert_eq!(credentials.len(), 1, "{input:?}: {line}");
        assert_eq!(credentials[0]["severity"], "warn", "{input:?}: {line}");
    }
    assert_eq!(code, 0, "{judged:?}");
    // The phishing lure stays a danger: a well-known domain that is not the URL's host, or an
    // allowed host the URL does not go to.
    let (code, _, line) = check(&[], "https://paypal.com@example.com/");
    assert_eq!(code, 1, "{line}");
    let lure = &[
        "--allow-host",
        "intranet.example",
        "--allow-host",
        "files.example",
    ];
    let (code, _, line) = check(lure, "https://intranet.example@files.example/");
    assert_eq!(code, 1, "{line}");
    assert!(
        line["findings"]
            .as_array()
            .expect("findings")
            .iter()
            .any(|f| f["id"] == "credentials-look-like-host" && f["severity"] == "danger"),
        "{line}"
    );
}
