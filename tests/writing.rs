//! The two kinds of validity side by side: the parser's (parsed, no validation error) and the
//! writing grammar's (a valid URL string). Over the web-platform-tests inputs the test prints
//! how many fall in each of the four combinations; for chosen inputs it asserts the exact one.

mod common;

use serde_json::Value;
use std::collections::BTreeMap;
use urlscope::Report;

fn report_path(input: &str) -> Vec<&'static str> {
    Report::new(input, None).writing.production_path
}

fn combination(input: &str, base: Option<&str>) -> (bool, bool) {
    let report = Report::new(input, base);
    (
        report.url.is_some() && report.errors.is_empty(),
        report.writing.valid,
    )
}

#[test]
fn web_platform_tests_inputs_in_the_four_combinations() {
    let source = common::discover().expect("web-platform-tests data");
    let data = common::load(&source.dir, "urltestdata.json")
        .expect("urltestdata.json")
        .expect("valid JSON");
    let mut counts: BTreeMap<(bool, bool), usize> = BTreeMap::new();
    for case in data.as_array().expect("an array") {
        let Some(input) = case.get("input").and_then(Value::as_str) else {
            continue;
        };
        let base = case.get("base").and_then(Value::as_str);
        let both = combination(input, base);
        *counts.entry(both).or_default() += 1;
        // A relative-URL-with-fragment string is valid only relative to a base URL, as the
        // parser needs one: without a base both definitions say no.
        if base.is_none() && both.1 {
            assert!(
                report_path(input)[..2]
                    == ["valid URL string", "absolute-URL-with-fragment string"],
                "{input:?} is valid without a base: {:?}",
                report_path(input)
            );
        }
    }
    println!(
        "(parser-valid, writing-valid) over {} urltestdata cases from {} ({}): {counts:?}",
        counts.values().sum::<usize>(),
        source.dir.display(),
        source.how
    );
    assert!(counts.values().sum::<usize>() > 800);
    // The two definitions agree on every input: where the parser raises nothing the input is a
    // valid URL string, and a relative string without a base is neither.
    assert_eq!(counts.get(&(true, false)), None);
    assert_eq!(counts.get(&(false, true)), None);
}

/// (input, base, parser-valid, writing-valid).
const CHOSEN: &[(&str, Option<&str>, bool, bool)] = &[
    // Both valid.
    ("https://example.com/a?b#c", None, true, true),
    ("https://example.com:/", None, true, true),
    ("https://example.com:0080/", None, true, true),
    ("https://[::1]:/", None, true, true),
    ("http://[1:0:0:0:0:0:0:1]/", None, true, true),
    ("http://[::1.2.3.4]/", None, true, true),
    ("https://EXAMPLE.com/", None, true, true),
    ("https://\u{FF45}xample.com/", None, true, true),
    ("https://fa\u{DF}.de/", None, true, true),
    ("https://\u{AD}example.com/", None, true, true),
    ("https://example.com/%7e", None, true, true),
    ("https://example.com:65535/", None, true, true),
    ("sc://%41/", None, true, true),
    ("file:///C:/x", None, true, true),
    ("mailto:a@example.com", None, true, true),
    ("../a?b#c", Some("https://h/x/y"), true, true),
    ("#f", Some("sc:opaque"), true, true),
    ("//other.example/x", Some("https://h/"), true, true),
    // A relative-URL-with-fragment string is valid only relative to a base URL: with one,
    // both say yes; without one, or with a base that fails, both say no.
    ("a", Some("https://h/"), true, true),
    ("#", Some("https://h/"), true, true),
    ("", Some("https://h/"), true, true),
    ("a", None, false, false),
    ("a/", None, false, false),
    ("#", None, false, false),
    ("?", None, false, false),
    ("", None, false, false),
    ("/hello-world", None, false, false),
    ("a", Some("not a URL"), false, false),
    // Both invalid.
    // A percent-encoded domain: the host parser percent-decodes (host parsing, step 5) and
    // raises domain-percent-encoded; valid domain runs the domain parser on the string as
    // written, where UseSTD3ASCIIRules rejects "%".
    ("https://ex%61mple.com/", None, false, false),
    ("https://%e2%98%83", None, false, false),
    ("ftp://%e2%98%83", None, false, false),
    ("https://a%C2%ADb/", None, false, false),
    ("file://a%C2%ADb/p", None, false, false),
    ("http://[0001::1]/", None, false, false),
    ("http://[::00]/", None, false, false),
    ("https://example.com./", None, false, false),
    ("https://a..b/", None, false, false),
    ("file:///C|/x", None, false, false),
    ("https://example.com#a#b", None, false, false),
    ("https://ex\u{200D}ample.com/", None, false, false),
    ("https://example.com/\u{FDD0}", None, false, false),
    ("http://1.2.3.4./", None, false, false),
    ("https://0x7f.0.0.1/", None, false, false),
    ("https://ex_ample.com/", None, false, false),
    ("https://example.com/a^b", None, false, false),
    ("sc:/a\\b", None, false, false),
    ("https://user:pw@example.com/", None, false, false),
    ("https:example.com", None, false, false),
    (" https://example.com/", None, false, false),
    ("x", Some("sc:opaque"), false, false),
];

#[test]
fn chosen_inputs_have_their_exact_combination() {
    assert!(CHOSEN.len() >= 40);
    for &(input, base, parser, writing) in CHOSEN {
        assert_eq!(
            combination(input, base),
            (parser, writing),
            "{input:?} against {base:?}: (parser-valid, writing-valid)"
        );
    }
}
