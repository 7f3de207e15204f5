//! The host analysis' differential findings and `diff` give one answer for the same readings:
//! `parser-differential` is there exactly when `diff` over the built-in parsers says the
//! readings go elsewhere, and names exactly the built-in parsers whose reading has a host and
//! another destination (host and port, compared by `urlscope::diff::Destination`); a reading
//! without a host (a failure, no host) never makes it. `parser-refuses` is there exactly when
//! `diff` says refused and the built-in parsers ran (the authority is not exactly the
//! serialized host), with `diff`'s explanation.
//!
//! The inputs: a fixed list of tricky ones, always, and the peer suites' inputs from
//! `../shared/conformance/peer_suites.jsonl` when it is there.

mod common;

use serde_json::Value;
use urlscope::diff::{compare, Answer, Builtin, Destination, Verdict};
use urlscope::inspect::finding::quoted;
use urlscope::Report;

/// Inputs where a lenient comparison and `diff`'s part ways, or where the built-in parsers
/// read the authority otherwise.
const TRICKY: &[&str] = &[
    // Hosts typed otherwise than they serialize: some parsers keep them as typed.
    "http://0x7f.1/",
    "http://0177.0.0.1/",
    "http://2130706433/",
    "http://127.1/",
    "https://BÜCHER.de/",
    "https://xn--bcher-kva.de/",
    "https://fa\u{df}.de/",
    "https://\u{ff11}\u{ff12}\u{ff17}.0.0.1/",
    "http://ex%41mple.com/",
    "http://EXAMPLE.com./",
    "http://[::ffff:127.0.0.1]/",
    "http://[0:0::1]/",
    // Spellings of one destination: no finding (curl keeps a Unicode host and maps it when it
    // connects).
    "https://m\u{fc}nchen.de/",
    "https://Example.COM:443/",
    "http://example.com:080/",
    "http://example.com:/",
    "https://user:pa%20ss@EXAMPLE.com:443/a/./b/../c?q=1#frag",
    // The authority read otherwise.
    "http://example.com\\@evil.com",
    "http://evil.example\\@good.example/",
    "https://evil.example\\\\@good.example/",
    "http://a@b@c/",
    "http://a:b@c:81@d/",
    "http://example.com%2f@evil.com/",
    "http://good.example#@evil.example/",
    "http://good.example?@evil.example/",
    "http:/evil.example/",
    "http:///evil.example/",
    "http:\\\\evil.example\\",
    "https:evil.example",
    "http://ex\tample.com/",
    " http://example.com/ ",
    "http://example.com:8080\\@evil.com:81/",
    "http://[::1]:81\\@evil/",
    "ws://example.com:80/",
    "ftp://user@example.com:21/",
    // Refused: some parsers fail, every reading with a host goes to one destination.
    "https://\"www.mobygames.com/company/history/companyId",
    "https://attacker.net@@example.com/",
    "https://foo@attacker.net:443@example.com/",
    "https://example.com/?q=a|b",
    "https://example.com/a\\b",
    "https://exa mple.com/",
];

/// Checks one input; the problems found, each naming the input.
fn check(input: &str, problems: &mut Vec<String>) {
    let report = Report::new(input, None);
    let Some(url) = &report.url else {
        return;
    };
    // The finding reads special URLs alone (without a base); `diff` reads every input.
    if !url.is_special() {
        return;
    }
    let answers: Vec<(String, Answer)> = Builtin::ALL
        .iter()
        .map(|b| (b.name().to_owned(), b.read(input, None)))
        .collect();
    let ours = Destination::of(&answers[0].1);
    assert_eq!(answers[0].0, "whatwg");
    // The oracle, from the destinations alone: the readings that have a host and go elsewhere
    // than ours. A reading without a host goes nowhere, never elsewhere.
    let elsewhere: Vec<&(String, Answer)> = answers[1..]
        .iter()
        .filter(|(_, a)| Destination::of(a).is_some_and(|d| d.host.is_some() && Some(d) != ours))
        .collect();
    let finding = |id: &str| {
        report
            .host_analysis
            .as_ref()
            .and_then(|h| h.findings.iter().find(|f| f.id == id))
            .map(|f| f.detail.clone())
    };
    let detail = finding("parser-differential");
    let refuses = finding("parser-refuses");
    let decision = compare(input, None, answers.clone()).decision;
    let verdict = decision.verdict;
    let goes_elsewhere = !elsewhere.is_empty();
    if (verdict == Verdict::Elsewhere) != goes_elsewhere {
        problems.push(format!(
            "{input:?}: diff says {verdict:?}, but {:?} go elsewhere",
            elsewhere.iter().map(|(n, _)| n).collect::<Vec<_>>()
        ));
    }
    match (&refuses, verdict) {
        (Some(refuses), Verdict::Refused) => {
            // The finding says what `diff` says, naming every parser that refuses, without
            // the libraries' own messages (their wording changes between releases).
            if *refuses != decision.explain_with(false) {
                problems.push(format!(
                    "{input:?}: {refuses} is not diff's {}",
                    decision.explain_with(false)
                ));
            }
            for name in decision.refused_names() {
                // The empty host is no destination either (nothing connects to ""): a
                // refusal in its own words.
                if !refuses.contains(&format!("{name} refuses"))
                    && !refuses.contains(&format!("{name} reads no host"))
                    && !refuses.contains(&format!("{name} reads the empty host"))
                {
                    problems.push(format!("{input:?}: {name} not named in {refuses}"));
                }
            }
        }
        (Some(refuses), _) => problems.push(format!(
            "{input:?}: parser-refuses, but diff says {verdict:?}: {refuses}"
        )),
        // The built-in parsers run only where the authority is not exactly the serialized
        // host: a refusal elsewhere (a "|" in the query) is `diff`'s alone.
        (None, Verdict::Refused) => {
            let plain = urlscope::inspect::rfc3986::appendix_b_host(input).is_some_and(|h| {
                report
                    .host_analysis
                    .as_ref()
                    .is_some_and(|a| a.host.eq_ignore_ascii_case(h))
            }) && !input.bytes().any(|b| b <= b' ' || b == 0x7f)
                && url.scheme() != "file";
            if !plain {
                problems.push(format!(
                    "{input:?}: no parser-refuses, but diff says {}",
                    decision.explain()
                ));
            }
        }
        (None, _) => {}
    }
    match (&detail, elsewhere.is_empty()) {
        (None, true) => {}
        (None, false) => problems.push(format!(
            "{input:?}: no finding, but diff reads another destination from {:?}",
            elsewhere.iter().map(|(n, _)| n).collect::<Vec<_>>()
        )),
        (Some(detail), true) => problems.push(format!(
            "{input:?}: a finding, but diff reads one destination: {detail}"
        )),
        (Some(detail), false) => {
            // The finding names each reading that goes elsewhere, with its host, and no other.
            for (name, answer) in &answers[1..] {
                let named = detail.contains(&format!("{name} reads the host as"))
                    || detail.contains(&format!("{name} reads no host (the local machine)"));
                let expected = elsewhere.iter().any(|(n, _)| n == name);
                if named != expected {
                    problems.push(format!(
                        "{input:?}: {name} named {named}, expected {expected}: {detail}"
                    ));
                }
                if expected {
                    // A `file` URL without a host is on the local machine.
                    let host = match &answer.host {
                        Some(host) => format!("{name} reads the host as {}", quoted(host)),
                        None => format!("{name} reads no host (the local machine)"),
                    };
                    if !detail.contains(&host) {
                        problems.push(format!("{input:?}: no {host:?} in {detail}"));
                    }
                }
            }
        }
    }
}

#[test]
fn the_finding_and_diff_agree_on_tricky_inputs() {
    let mut problems = Vec::new();
    for input in TRICKY {
        check(input, &mut problems);
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn the_tricky_inputs_have_findings_where_a_lenient_comparison_had_none() {
    // Under a comparison that reparsed other hosts with our host parser, these had no finding
    // while `diff` said the parsers go to different places.
    for input in [
        "http://0x7f.1/",
        "https://fa\u{df}.de/",
        "http://ex%41mple.com/",
    ] {
        let report = Report::new(input, None);
        let ids = report.host_analysis.expect("an analysis").ids();
        assert!(ids.contains(&"parser-differential"), "{input:?}: {ids:?}");
    }
    // And a port that another parser reads otherwise is another destination, as in `diff`.
    let report = Report::new("http://example.com:8080\\@evil.com:81/", None);
    let finding = report
        .host_analysis
        .expect("an analysis")
        .findings
        .into_iter()
        .find(|f| f.id == "parser-differential")
        .expect("a parser-differential finding");
    assert!(
        finding
            .detail
            .contains("curl reads the host as \"evil.com\" with userinfo \"example.com:8080\\\", port 81 (WHATWG: 8080)"),
        "{}",
        finding.detail
    );
}

#[test]
fn a_parser_that_refuses_is_no_other_destination() {
    // libcurl, strict RFC 3986 and the http crate refuse the tab in the host; rust-url removes
    // it as we do: no reading goes elsewhere.
    let input = "https://ex\tample.com/";
    let report = Report::new(input, None);
    let analysis = report.host_analysis.expect("an analysis");
    let ids = analysis.ids();
    assert!(!ids.contains(&"parser-differential"), "{ids:?}");
    let refuses = analysis
        .findings
        .iter()
        .find(|f| f.id == "parser-refuses")
        .expect("a parser-refuses finding");
    assert_eq!(refuses.severity, urlscope::inspect::Severity::Info);
    assert_eq!(
        refuses.detail,
        "every parser that reads it goes to example.com:443; curl refuses it; rfc3986 refuses \
         \"\\t\" in the host; http refuses it"
    );
    // `diff` gives each library's message, which the library's version words.
    let readings: Vec<(String, urlscope::diff::Answer)> = Builtin::ALL
        .iter()
        .map(|b| (b.name().to_owned(), b.read(input, None)))
        .collect();
    assert!(
        urlscope::diff::decide(input, &readings)
            .explain()
            .contains(&format!("curl refuses it ({})", curl_error(input))),
        "{readings:?}"
    );
    // Where a reading goes elsewhere, the finding names it and says who refuses, but a parser
    // that refuses is never one that reads a host.
    let report = Report::new("http://example.com\\@evil.com", None);
    let differential = report
        .host_analysis
        .expect("an analysis")
        .findings
        .into_iter()
        .find(|f| f.id == "parser-differential")
        .expect("a parser-differential finding");
    assert!(
        differential.detail.contains("http refuses it")
            && !differential.detail.contains("http reads"),
        "{}",
        differential.detail
    );
}

/// The system libcurl's message for `input`, which its version words.
fn curl_error(input: &str) -> String {
    Builtin::Curl.read(input, None).error.unwrap_or_default()
}

#[test]
fn the_finding_and_diff_agree_on_the_peer_suites() {
    let path = common::manifest_dir().join("../shared/conformance/peer_suites.jsonl");
    let Ok(text) = std::fs::read_to_string(&path) else {
        eprintln!(
            "peer suites: {} is not here; skipped (CI has it)",
            path.display()
        );
        return;
    };
    let mut problems = Vec::new();
    let mut checked = 0;
    for line in text.lines() {
        let case: Value = serde_json::from_str(&common::replace_lone_surrogate_escapes(line))
            .expect("a JSON line");
        if !case["base"].is_null() {
            continue;
        }
        let Some(input) = case["input"].as_str() else {
            continue;
        };
        check(input, &mut problems);
        checked += 1;
    }
    assert!(checked > 1000, "only {checked} inputs without a base");
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
