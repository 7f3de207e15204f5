//! The suggested rewrites keep their promise on generated inputs: applying every fix of a URL
//! that parses gives an input that parses to the same href (unless a fix says it changes the
//! href, as dropping credentials does) with strictly fewer validation errors.

mod common;

use std::collections::BTreeMap;

use common::Rng;
use encoding_rs::UTF_8;
use urlscope::trace::ErrorCollector;
use urlscope::validation::fix::{apply, Fixer};
use urlscope::validation::{Fix, ValidationError, ValidationErrorKind};
use urlscope::Url;

const CASES: usize = 20_000;

fn pick<'a>(rng: &mut Rng, options: &[&'a str]) -> &'a str {
    options[rng.below(options.len())]
}

/// A URL-like input built from the pieces that raise validation errors.
fn generate(rng: &mut Rng) -> String {
    let mut s = String::new();
    s.push_str(pick(rng, &["", "", "", " ", "\u{1}", "\t"]));
    let scheme = pick(rng, &["http", "https", "HTTP", "ws", "file", "foo", "ftp"]);
    s.push_str(scheme);
    s.push_str(pick(
        rng,
        &[
            "://", "://", "://", ":/", ":", ":///", ":\\\\", ":/\\", "://\\",
        ],
    ));
    if rng.below(4) == 0 {
        s.push_str(pick(rng, &["user@", "user:pass@", "a b@", "@", "u:p@x@"]));
    }
    s.push_str(pick(
        rng,
        &[
            "example.com",
            "ex%41mple.com",
            "0x7f.1",
            "127.1",
            "1.2.3.4.",
            "0300.0250.0.1",
            "1.2.3.65535",
            "[0:0::01]",
            "[::1]",
            "ＥＸ.com",
            "１２７.０.０.１",
            "ex\u{3002}com",
            "C:",
            "localhost",
            "xn--nxasmq6b.com",
            "a_b.com",
            "",
        ],
    ));
    if rng.below(4) == 0 {
        s.push_str(pick(rng, &[":8080", ":80", ":", ":0443"]));
    }
    for _ in 0..rng.below(4) {
        s.push_str(pick(rng, &["/", "/", "\\", "/\t"]));
        s.push_str(pick(
            rng,
            &[
                "a", "..", ".", "%2e", "a b", "a|b", "é", "%zz", "^", "{x}", "C|", "\u{7f}", "<",
            ],
        ));
    }
    if rng.below(3) == 0 {
        s.push('?');
        s.push_str(pick(rng, &["q=1", "a b", "'x'", "é", "%", "\"<>\"", "`"]));
    }
    if rng.below(3) == 0 {
        s.push('#');
        s.push_str(pick(rng, &["f", "a b", "`x`", "é", "%2", "<"]));
    }
    s.push_str(pick(rng, &["", "", "", " ", "\n"]));
    s
}

fn parse(
    input: &str,
) -> Option<(
    Url,
    Vec<ValidationError>,
    Option<urlscope::validation::Span>,
)> {
    let mut collector = ErrorCollector::default();
    let url = Url::parse_with(input, None, UTF_8, &mut collector).ok()?;
    let host_span = collector.host_span(input);
    Some((url, collector.into_errors(input), host_span))
}

#[test]
fn applying_every_fix_keeps_the_href_and_removes_errors() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    // Per kind: URLs with it that had a fix, and how often fixing left none of it.
    let mut seen: BTreeMap<ValidationErrorKind, (usize, usize)> = BTreeMap::new();
    let mut fixed_inputs = 0;
    let mut failures = Vec::new();
    for _ in 0..CASES {
        let input = generate(&mut rng);
        let Some((url, errors, host_span)) = parse(&input) else {
            continue;
        };
        let fixer = Fixer::new(&input, Some(url.record()), host_span);
        let fixes: Vec<Fix> = errors.iter().filter_map(|e| fixer.fix(e)).collect();
        if fixes.is_empty() {
            continue;
        }
        fixed_inputs += 1;
        let rewritten = apply(&input, &fixes);
        let Some((after, after_errors, _)) = parse(&rewritten) else {
            failures.push(format!("{input:?} → {rewritten:?} fails to parse"));
            continue;
        };
        if fixes.iter().all(|f| f.same_href) && after.href() != url.href() {
            failures.push(format!(
                "{input:?} → {rewritten:?}: href {} became {}",
                url.href(),
                after.href()
            ));
        }
        if after_errors.len() >= errors.len() {
            failures.push(format!(
                "{input:?} → {rewritten:?}: {} errors before, {} after: {:?}",
                errors.len(),
                after_errors.len(),
                after_errors
                    .iter()
                    .map(|e| e.kind.name())
                    .collect::<Vec<_>>()
            ));
        }
        let mut kinds: Vec<ValidationErrorKind> = errors.iter().map(|e| e.kind).collect();
        kinds.sort();
        kinds.dedup();
        for kind in kinds {
            let entry = seen.entry(kind).or_default();
            entry.0 += 1;
            if after_errors.iter().all(|e| e.kind != kind) {
                entry.1 += 1;
            }
        }
    }
    eprintln!("{CASES} generated inputs, {fixed_inputs} parsed with at least one fix");
    eprintln!("{:<45} {:>8} {:>10}", "kind", "inputs", "to zero");
    for (kind, (inputs, zero)) in &seen {
        eprintln!("{:<45} {inputs:>8} {zero:>10}", kind.name());
    }
    failures.truncate(20);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(fixed_inputs > 5_000, "{fixed_inputs}");
}

#[test]
fn the_issue_examples() {
    let cases = [
        ("http://ex.com\\a", "http://ex.com/a"),
        ("http://user:pw@ex.com/", "http://ex.com/"),
        ("http://ex.com/a b", "http://ex.com/a%20b"),
        ("http://0x7f.1/", "http://127.0.0.1/"),
        (
            "http://\u{ff11}\u{ff12}\u{ff17}.\u{ff10}.\u{ff10}.\u{ff11}/",
            "http://127.0.0.1/",
        ),
    ];
    for (input, expected) in cases {
        let (url, errors, host_span) = parse(input).expect("parses");
        let fixer = Fixer::new(input, Some(url.record()), host_span);
        let fixes: Vec<Fix> = errors.iter().filter_map(|e| fixer.fix(e)).collect();
        assert_eq!(apply(input, &fixes), expected, "{input:?}: {fixes:?}");
    }
}
