//! Every validation error the standard names is raised where the standard raises it, over the
//! span of the input (code points, as typed) that caused it. Most inputs are the examples of the
//! standard's validation error table.

mod common;

use urlscope::{Report, ValidationErrorKind};

struct Case {
    input: &'static str,
    base: Option<&'static str>,
    /// The error's name as the standard writes it.
    error: &'static str,
    /// Its span in code points of the input.
    span: (usize, usize),
    /// The state (or preprocessing step) that raised it.
    state: &'static str,
    /// Whether the parse fails.
    fails: bool,
}

const fn case(
    input: &'static str,
    error: &'static str,
    span: (usize, usize),
    state: &'static str,
    fails: bool,
) -> Case {
    Case {
        input,
        base: None,
        error,
        span,
        state,
        fails,
    }
}

const fn with_base(c: Case, base: &'static str) -> Case {
    Case {
        base: Some(base),
        ..c
    }
}

const HOST: &str = "host state";
const PATH: &str = "path state";

const CASES: &[Case] = &[
    // IDNA and host parsing.
    case(
        "https://exa%23mple.org",
        "domain-to-ASCII",
        (8, 22),
        HOST,
        true,
    ),
    case("https://xn--a/", "domain-to-ASCII", (8, 13), HOST, false),
    case(
        "https://exam%70le.org",
        "domain-percent-encoded",
        (12, 15),
        HOST,
        false,
    ),
    case(
        "foo://exa[mple.org",
        "host-invalid-code-point",
        (9, 10),
        HOST,
        true,
    ),
    // The standard's examples (whatwg/url#925): IDNA maps these to an IPv4 address.
    case(
        "https://１２７.０.０.１",
        "IPv4-non-ASCII-input",
        (8, 17),
        HOST,
        false,
    ),
    case(
        "https://127.0.0.1./",
        "IPv4-empty-part",
        (17, 18),
        HOST,
        false,
    ),
    case("https://1.2.3/", "IPv4-too-few-parts", (8, 13), HOST, false),
    case(
        "https://1.2.3.4.5/",
        "IPv4-too-many-parts",
        (8, 17),
        HOST,
        true,
    ),
    case(
        "https://test.42",
        "IPv4-non-numeric-part",
        (8, 12),
        HOST,
        true,
    ),
    case(
        "https://127.0.0x0.1",
        "IPv4-non-decimal-part",
        (14, 17),
        HOST,
        false,
    ),
    case(
        "https://255.255.4000.1",
        "IPv4-out-of-range-part",
        (16, 20),
        HOST,
        true,
    ),
    case("https://[::1", "IPv6-unclosed", (8, 12), HOST, true),
    case(
        "https://[:1]",
        "IPv6-invalid-compression",
        (9, 10),
        HOST,
        true,
    ),
    case(
        "https://[1:2:3:4:5:6:7:8:9]",
        "IPv6-too-many-pieces",
        (25, 26),
        HOST,
        true,
    ),
    case(
        "https://[1::1::1]",
        "IPv6-multiple-compression",
        (14, 15),
        HOST,
        true,
    ),
    case(
        "https://[1:2:3!:4]",
        "IPv6-invalid-code-point",
        (14, 15),
        HOST,
        true,
    ),
    case(
        "https://[1:2:3:]",
        "IPv6-invalid-code-point",
        (15, 15),
        HOST,
        true,
    ),
    case(
        "https://[1:2:3]",
        "IPv6-too-few-pieces",
        (9, 14),
        HOST,
        true,
    ),
    case(
        "https://[::01]",
        "IPv6-piece-leading-zero",
        (11, 13),
        HOST,
        false,
    ),
    case(
        "https://[1:1:1:1:1:1:1:127.0.0.1]",
        "IPv4-in-IPv6-too-many-pieces",
        (23, 32),
        HOST,
        true,
    ),
    case(
        "https://[ffff::.0.0.1]",
        "IPv4-in-IPv6-invalid-code-point",
        (15, 16),
        HOST,
        true,
    ),
    case(
        "https://[ffff::127.0.xyz.1]",
        "IPv4-in-IPv6-invalid-code-point",
        (21, 22),
        HOST,
        true,
    ),
    case(
        "https://[ffff::127.0xyz]",
        "IPv4-in-IPv6-invalid-code-point",
        (20, 21),
        HOST,
        true,
    ),
    case(
        "https://[ffff::127.00.0.1]",
        "IPv4-in-IPv6-invalid-code-point",
        (19, 20),
        HOST,
        true,
    ),
    case(
        "https://[ffff::127.0.0.1.2]",
        "IPv4-in-IPv6-invalid-code-point",
        (24, 25),
        HOST,
        true,
    ),
    case(
        "https://[ffff::127.0.0.4000]",
        "IPv4-in-IPv6-out-of-range-part",
        (23, 27),
        HOST,
        true,
    ),
    case(
        "https://[ffff::127.0.0]",
        "IPv4-in-IPv6-too-few-parts",
        (15, 22),
        HOST,
        true,
    ),
    // URL parsing.
    case(
        "https://example.org/>",
        "invalid-URL-unit",
        (20, 21),
        PATH,
        false,
    ),
    case(
        " https://example.org ",
        "invalid-URL-unit",
        (0, 1),
        "remove leading and trailing C0 control or space",
        false,
    ),
    case(
        "https://example.org ",
        "invalid-URL-unit",
        (19, 20),
        "remove leading and trailing C0 control or space",
        false,
    ),
    case(
        "ht\ntps://example.org",
        "invalid-URL-unit",
        (2, 3),
        "remove ASCII tab or newline",
        false,
    ),
    case(
        "https://example.org/%s",
        "invalid-URL-unit",
        (20, 21),
        PATH,
        false,
    ),
    case(
        "https://x/?a b",
        "invalid-URL-unit",
        (12, 13),
        "query state",
        false,
    ),
    case(
        "https://x/#a`b",
        "invalid-URL-unit",
        (12, 13),
        "fragment state",
        false,
    ),
    case(
        "sc:a b",
        "invalid-URL-unit",
        (4, 5),
        "opaque path state",
        false,
    ),
    case("sc://a`b/", "invalid-URL-unit", (6, 7), HOST, false),
    // One error for every non-URL code point of an opaque host, covering first to last.
    case("sc://a`b{c/", "invalid-URL-unit", (6, 9), HOST, false),
    case(
        "file:c:/my-secret-folder",
        "special-scheme-missing-following-solidus",
        (5, 7),
        "scheme state",
        false,
    ),
    case(
        "https:example.org",
        "special-scheme-missing-following-solidus",
        (6, 7),
        "special authority slashes state",
        false,
    ),
    with_base(
        case(
            "https:foo.html",
            "special-scheme-missing-following-solidus",
            (6, 7),
            "special relative or authority state",
            false,
        ),
        "https://example.org/",
    ),
    case(
        "https:///example.org",
        "special-scheme-missing-following-solidus",
        (8, 9),
        "special authority ignore slashes state",
        false,
    ),
    case(
        "💩",
        "missing-scheme-non-relative-URL",
        (0, 1),
        "no scheme state",
        true,
    ),
    with_base(
        case(
            "💩",
            "missing-scheme-non-relative-URL",
            (0, 1),
            "no scheme state",
            true,
        ),
        "mailto:user@example.org",
    ),
    case(
        "https://example.org\\path\\to\\file",
        "invalid-reverse-solidus",
        (19, 20),
        "path start state",
        false,
    ),
    with_base(
        case(
            "\\\\x/",
            "invalid-reverse-solidus",
            (0, 1),
            "relative state",
            false,
        ),
        "https://a/",
    ),
    case(
        "https://user@example.org",
        "invalid-credentials",
        (8, 13),
        "authority state",
        false,
    ),
    case(
        "ssh://user@example.org",
        "invalid-credentials",
        (6, 11),
        "authority state",
        false,
    ),
    case("https://#fragment", "host-missing", (8, 8), HOST, true),
    case("https://:443", "host-missing", (8, 9), HOST, true),
    case(
        "https://user:pass@",
        "host-missing",
        (18, 18),
        "authority state",
        true,
    ),
    case(
        "https://example.org:70000",
        "port-out-of-range",
        (20, 25),
        "port state",
        true,
    ),
    case(
        "https://example.org:7z",
        "port-invalid",
        (21, 22),
        "port state",
        true,
    ),
    with_base(
        case(
            "C|/foo",
            "file-invalid-Windows-drive-letter",
            (0, 2),
            "file state",
            false,
        ),
        "file:///x/y",
    ),
    case(
        "file://c:",
        "file-invalid-Windows-drive-letter-host",
        (7, 9),
        "file host state",
        false,
    ),
];

#[test]
fn each_validation_error_is_raised_at_its_span() {
    let mut failures = Vec::new();
    for c in CASES {
        let report = Report::new(c.input, c.base);
        let found = report.errors.iter().find(|e| e.kind.name() == c.error);
        let ok = match found {
            Some(e) => {
                (e.span.start, e.span.end) == c.span
                    && e.state.name() == c.state
                    && report.parsed() != c.fails
            }
            None => false,
        };
        if !ok {
            let errors: Vec<String> = report
                .errors
                .iter()
                .map(|e| format!("{} {}..{} in {}", e.kind, e.span.start, e.span.end, e.state))
                .collect();
            failures.push(format!(
                "input {:?} base {:?}: expected {} {}..{} in {} (fails: {}), got [{}] (parsed: {})",
                c.input,
                c.base,
                c.error,
                c.span.0,
                c.span.1,
                c.state,
                c.fails,
                errors.join("; "),
                report.parsed()
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} mismatches:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Where the standard says "if input contains …" or "if any item …", the error is raised once
/// for the input, not once per code point or part; elsewhere once per iteration that meets it.
#[test]
fn errors_the_standard_raises_once_per_input_are_raised_once() {
    let cases: &[(&str, &[&str])] = &[
        // IPv4 parser, step 7: any item of numbers greater than 255.
        ("http://256.256.256.256", &["IPv4-out-of-range-part"]),
        // Opaque-host parser, steps 2 and 3: one error each.
        (
            "sc://\u{1}\u{2}\u{3}\u{4}\u{5}\u{6}\u{7}\u{8}\u{b}\u{c}\u{e}\u{f}%zz%/",
            &["invalid-URL-unit", "invalid-URL-unit"],
        ),
        ("sc://a\"b`c/", &["invalid-URL-unit"]),
        ("sc://%zz%y/", &["invalid-URL-unit"]),
        // Host parser: non-ASCII input that becomes IPv4, with the IPv4 parser's own errors after.
        (
            "https://①.②.③",
            &["IPv4-non-ASCII-input", "IPv4-too-few-parts"],
        ),
        (
            "https://%E2%91%A0.%E2%91%A1.%E2%91%A2.%E2%91%A3",
            &["domain-percent-encoded", "IPv4-non-ASCII-input"],
        ),
        (
            "http://💩.123/",
            &[
                "IPv4-non-ASCII-input",
                "IPv4-too-few-parts",
                "IPv4-non-numeric-part",
            ],
        ),
        ("https://1。2。3。4", &["IPv4-non-ASCII-input"]),
        // ASCII that is an IPv4 address raises nothing of the kind.
        ("https://1.2.3.4", &[]),
        // The basic URL parser's preprocessing: leading and trailing spaces once, tabs and
        // newlines once.
        (
            " https://x/a\tb\nc ",
            &["invalid-URL-unit", "invalid-URL-unit"],
        ),
        ("https://x/a\tb\nc", &["invalid-URL-unit"]),
    ];
    for (input, expected) in cases {
        let report = Report::new(input, None);
        let names: Vec<&str> = report.errors.iter().map(|e| e.kind.name()).collect();
        assert_eq!(&names, expected, "input {input:?}");
    }
}

#[test]
fn every_named_error_has_a_case() {
    for kind in ValidationErrorKind::ALL {
        assert!(
            CASES.iter().any(|c| c.error == kind.name()),
            "no test case raises {}",
            kind.name()
        );
    }
}

#[test]
fn failure_carries_the_error_that_caused_it() {
    for c in CASES.iter().filter(|c| c.fails) {
        let base = c
            .base
            .map(|b| urlscope::Url::parse(b, None).expect("base parses"));
        let error = urlscope::Url::parse(c.input, base.as_ref()).expect_err(c.input);
        let cause = error
            .cause()
            .unwrap_or_else(|| panic!("{:?} failed without a cause", c.input));
        assert_eq!(cause.kind.name(), c.error, "input {:?}", c.input);
    }
}

#[test]
fn error_names_match_the_standard_table() {
    // The names in the validation error table of the standard's source, when it is at hand.
    let spec = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/spec/url.bs");
    let Ok(text) = std::fs::read_to_string(spec) else {
        eprintln!("note: {spec} not found; the names are checked by the unit tests only");
        return;
    };
    let start = text.find("<h3 id=writing>").expect("the Writing section");
    let end = text.find("<h3 id=parsers>").expect("the Parsers section");
    let names: Vec<&str> = text[start..end]
        .split("<dfn")
        .skip(1)
        .filter_map(|s| {
            s.split_once('>')
                .and_then(|(_, rest)| rest.split_once("</dfn>"))
        })
        .map(|(name, _)| name)
        .filter(|name| *name != "validation error")
        .collect();
    // Names the standard added after the copy in ../shared (2 July 2026), as the reference
    // implementation (whatwg-url 17.3.0) has them. Once the copy has one, this list must drop it.
    const LATER: &[&str] = &["IPv4-non-ASCII-input"];
    for later in LATER {
        assert!(
            !names.contains(later),
            "{later} is in {spec} now: remove it from LATER"
        );
    }
    let ours: Vec<&str> = ValidationErrorKind::ALL
        .iter()
        .map(|k| k.name())
        .filter(|name| !LATER.contains(name))
        .collect();
    assert_eq!(ours, names);
}

/// A host failure: the input, the algorithm and step that returned failure, the span of the
/// failure in code points of the input, and the input rewritten by its fix (`None`: no fix).
type HostFailureCase = (
    &'static str,
    &'static str,
    &'static str,
    (usize, usize),
    Option<&'static str>,
);

/// Every step at which the host parser, or an algorithm it runs, returns failure.
const HOST_FAILURES: &[HostFailureCase] = &[
    // Host parser step 1.1: the "]" is missing at the host's end.
    (
        "http://[::1",
        "host parser",
        "1.1",
        (11, 11),
        Some("http://[::1]"),
    ),
    // The IPv6 parser's steps, each over the code point it stopped at.
    ("http://[:1]/", "IPv6 parser", "5.1", (8, 9), None),
    (
        "http://[1:2:3:4:5:6:7:8:9]/",
        "IPv6 parser",
        "6.1",
        (24, 25),
        None,
    ),
    ("http://[1::2::3]/", "IPv6 parser", "6.2.1", (13, 14), None),
    ("http://[::.1.2.3]/", "IPv6 parser", "6.5.1", (10, 11), None),
    (
        "http://[1:2:3:4:5:6:7:1.2.3.4]/",
        "IPv6 parser",
        "6.5.3",
        (22, 29),
        None,
    ),
    (
        "http://[::1.2.3.4.5]/",
        "IPv6 parser",
        "6.5.5.2.2",
        (17, 18),
        None,
    ),
    (
        "http://[::1.2.x.4]/",
        "IPv6 parser",
        "6.5.5.3",
        (14, 15),
        None,
    ),
    (
        "http://[::1.02.3.4]/",
        "IPv6 parser",
        "6.5.5.4.3",
        (12, 13),
        None,
    ),
    (
        "http://[::1.2.3.256]/",
        "IPv6 parser",
        "6.5.5.4.5",
        (16, 19),
        None,
    ),
    ("http://[::1.2.3]/", "IPv6 parser", "6.5.6", (10, 15), None),
    ("http://[1:2:]/", "IPv6 parser", "6.6.2", (12, 12), None),
    ("http://[1:x]/", "IPv6 parser", "6.7", (10, 11), None),
    ("http://[1:2:3]/", "IPv6 parser", "8", (8, 13), None),
    // Opaque-host parser step 1: the forbidden host code point, percent-encoded by the fix.
    (
        "sc://a<b/",
        "opaque-host parser",
        "1",
        (6, 7),
        Some("sc://a%3Cb/"),
    ),
    (
        "sc://a b/",
        "opaque-host parser",
        "1",
        (6, 7),
        Some("sc://a%20b/"),
    ),
    // Domain parser step 6.2: relaxed Unicode ToASCII refuses a code point (a joiner with
    // nothing to join; a byte that is not UTF-8), or a label (Punycode that does not decode).
    (
        "https://a\u{200D}b.com/",
        "domain parser",
        "6.2",
        (9, 10),
        Some("https://ab.com/"),
    ),
    (
        "http://a%ffb.com/",
        "domain parser",
        "6.2",
        (8, 11),
        Some("http://ab.com/"),
    ),
    ("https://xn--a.ß/", "domain parser", "6.2", (8, 13), None),
    // Domain parser step 7: nothing is left (a soft hyphen maps to nothing).
    ("https://\u{AD}/", "domain parser", "7", (8, 9), None),
    ("https://%C2%AD/", "domain parser", "7", (8, 14), None),
    // Domain parser step 8: the code point that puts a forbidden domain code point in the
    // result, as typed: itself, percent-encoded, or mapped to one by IDNA; removed by the fix.
    (
        "https://exa mple.com\\path",
        "domain parser",
        "8",
        (11, 12),
        Some("https://example.com\\path"),
    ),
    (
        "https://a<b.com/",
        "domain parser",
        "8",
        (9, 10),
        Some("https://ab.com/"),
    ),
    (
        "https://exa%23mple.org/",
        "domain parser",
        "8",
        (11, 14),
        Some("https://example.org/"),
    ),
    (
        "https://ｅｘａ\u{FF1C}ｍｐｌｅ.com/",
        "domain parser",
        "8",
        (11, 12),
        Some("https://ｅｘａｍｐｌｅ.com/"),
    ),
    // Tabs and newlines the parser removed still count: offsets are of the input as given.
    (
        "http://a\tb c/",
        "domain parser",
        "8",
        (10, 11),
        Some("http://a\tbc/"),
    ),
    // The IPv4 parser's steps, over the part they read (or the address).
    ("http://1.2.3.4.5/", "IPv4 parser", "4", (7, 16), None),
    ("http://1.2.3.09/", "IPv4 parser", "6.2", (13, 15), None),
    ("http://999.1.1.1/", "IPv4 parser", "8", (7, 10), None),
    ("http://1.2.3.256/", "IPv4 parser", "9", (13, 16), None),
];

/// A host failure names the step that returned failure, not the last validation error raised
/// (domain-to-ASCII does not return), with the code points it is about and a fix that parses.
#[test]
fn each_host_failure_names_its_step_code_points_and_fix() {
    let mut mismatches = Vec::new();
    for &(input, algorithm, step, (start, end), fixed) in HOST_FAILURES {
        let report = Report::new(input, None);
        let Some(failure) = &report.failure else {
            mismatches.push(format!("{input:?}: no failure reported"));
            continue;
        };
        let rewritten = failure
            .fix
            .as_ref()
            .map(|fix| urlscope::validation::fix::apply(input, std::slice::from_ref(fix)));
        let got = (
            failure.algorithm,
            failure.step,
            (failure.span.start, failure.span.end),
            rewritten.as_deref(),
        );
        if got != (algorithm, step, (start, end), fixed) {
            mismatches.push(format!("{input:?}: got {got:?}"));
        }
        if let Some(rewritten) = &rewritten {
            assert!(
                urlscope::Url::parse(rewritten, None).is_ok(),
                "{input:?}: the fix {rewritten:?} does not parse"
            );
        }
        assert!(
            failure.url.starts_with("https://url.spec.whatwg.org/#")
                && !failure.explanation.is_empty(),
            "{failure:?}"
        );
    }
    assert!(
        mismatches.is_empty(),
        "{} mismatches:\n{}",
        mismatches.len(),
        mismatches.join("\n")
    );
}

/// The failure's step is the one the trace cites for the host parser's failure (the trace's
/// steps stay as they were): the same, but where relaxed ToASCII failed, whose failure the
/// trace cites at the host parser's step 7, which passes it on.
#[test]
fn a_host_failure_agrees_with_the_trace() {
    for &(input, ..) in HOST_FAILURES {
        let report = Report::new(input, None);
        let failure = report.failure.as_ref().expect("a failure");
        let trace = report.trace.as_ref().expect("a trace");
        let cited = (0..trace.len())
            .rev()
            .map(|i| trace.view(i))
            .find_map(|view| {
                let steps = view.host_steps(trace.input());
                view.host_events
                    .iter()
                    .zip(steps)
                    .rev()
                    .find(|(event, _)| matches!(event, urlscope::trace::HostEvent::Failure))
                    .and_then(|(_, step)| step)
            })
            .unwrap_or_else(|| panic!("{input:?}: the trace cites no host failure"));
        let expected = match (cited.name(), cited.number) {
            ("host parser", "7") => ("domain parser", "6.2"),
            other => other,
        };
        assert_eq!((failure.algorithm, failure.step), expected, "{input:?}");
    }
}

/// Over the web-platform-tests inputs: every failure whose cause the host parser raised gets a
/// failure report inside the host, and every fix offered parses.
#[test]
fn every_host_failure_of_the_web_platform_tests_is_located() {
    let source = common::discover().expect("web-platform-tests data");
    let data = common::load(&source.dir, "urltestdata.json")
        .expect("urltestdata.json")
        .expect("valid JSON");
    let mut located = 0;
    for case in data.as_array().expect("an array") {
        let (Some(input), base) = (case["input"].as_str(), case["base"].as_str()) else {
            continue;
        };
        let report = Report::new(input, base);
        let Some(failure) = &report.failure else {
            continue;
        };
        let host = report.host_span.expect("a host span");
        assert!(
            host.start <= failure.span.start
                && failure.span.start <= failure.span.end
                && failure.span.end <= host.end,
            "{input:?}: {failure:?} outside the host {host:?}"
        );
        if let Some(fix) = &failure.fix {
            let rewritten = urlscope::validation::fix::apply(input, std::slice::from_ref(fix));
            let base = base.and_then(|b| urlscope::Url::parse(b, None).ok());
            assert!(
                urlscope::Url::parse(&rewritten, base.as_ref()).is_ok(),
                "{input:?}: {rewritten:?}"
            );
        }
        located += 1;
    }
    assert!(located > 50, "{located} host failures");
}
