//! The suggested rewrites keep their promise on generated inputs: applying every fix of a URL
//! that parses gives an input that parses to the same href (unless a fix says it changes the
//! href, as dropping credentials does) with strictly fewer validation errors. Each fix alone
//! keeps its word too: one that says the href stays the same keeps it, and one that says it
//! changes (a percent-encoding) changes only how a code point is written, never what the URL
//! means: the href, percent-decoded, is the same ("file:///C|/x" fixed as "file:///C%7C/x"
//! lost its drive letter, where "C:" keeps the href).

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
            "4294967295",
            "1.16777215",
            "0x7fffffff",
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

/// A relative reference and the base it is resolved against: drive letters against file
/// bases, backslashes, dot segments, spaces and credentials after a scheme-relative "//".
fn generate_relative(rng: &mut Rng) -> (String, &'static str) {
    let base = pick(
        rng,
        &[
            "file:///C:/dir/file",
            "file://host/dir/file",
            "http://example.com/a/b",
            "https://u:p@example.com:8080/a/b?q#f",
        ],
    );
    let mut s = String::new();
    s.push_str(pick(rng, &["", "", "", " ", "\t"]));
    s.push_str(pick(
        rng,
        &[
            "",
            "",
            "/",
            "\\",
            "//",
            "\\\\",
            "file:",
            "file:/",
            "file:\\",
            "http:",
            "C:",
            "D|",
            "/C:",
            "\\D:",
            "//u@ex.com",
            "//ex%41mple.com",
            "//0x7f.1",
        ],
    ));
    for _ in 0..rng.below(4) {
        s.push_str(pick(rng, &["/", "/", "\\", "/\t"]));
        s.push_str(pick(
            rng,
            &["a", "..", ".", "%2e", "a b", "C:", "C|", "é", "^"],
        ));
    }
    if rng.below(3) == 0 {
        s.push('?');
        s.push_str(pick(rng, &["q=1", "a b", "'x'", "é"]));
    }
    if rng.below(3) == 0 {
        s.push('#');
        s.push_str(pick(rng, &["f", "a b", "`x`"]));
    }
    s.push_str(pick(rng, &["", "", "", " ", "\n"]));
    (s, base)
}

fn parse(
    input: &str,
    base: Option<&Url>,
) -> Option<(
    Url,
    Vec<ValidationError>,
    Option<urlscope::validation::Span>,
)> {
    let mut collector = ErrorCollector::default();
    let url = Url::parse_with(input, base, UTF_8, &mut collector).ok()?;
    let host_span = collector.host_span(input);
    Some((url, collector.into_errors(input), host_span))
}

/// What applying every fix did over many inputs: per kind, the inputs with it that had a fix
/// and how often fixing left none of it; the inputs that had a fix; what went wrong.
#[derive(Default)]
struct Tally {
    seen: BTreeMap<ValidationErrorKind, (usize, usize)>,
    fixed_inputs: usize,
    failures: Vec<String>,
}

impl Tally {
    /// Applies every fix of `input` (against `base`) and checks the promise.
    fn check(&mut self, input: &str, base: Option<&Url>) {
        let Some((url, errors, host_span)) = parse(input, base) else {
            return;
        };
        let fixer = Fixer::new(input, Some(url.record()), host_span).with_base(base);
        let fixes: Vec<Fix> = errors.iter().filter_map(|e| fixer.fix(e)).collect();
        if fixes.is_empty() {
            return;
        }
        self.fixed_inputs += 1;
        let against = base.map_or(String::new(), |b| format!(" against {}", b.href()));
        for (error, fix) in errors.iter().filter_map(|e| Some((e, fixer.fix(e)?))) {
            self.check_one(input, &url, error, fix, base, &against);
        }
        let rewritten = apply(input, &fixes);
        let Some((after, after_errors, _)) = parse(&rewritten, base) else {
            self.failures
                .push(format!("{input:?} → {rewritten:?}{against} fails to parse"));
            return;
        };
        if fixes.iter().all(|f| f.same_href) && after.href() != url.href() {
            self.failures.push(format!(
                "{input:?} → {rewritten:?}{against}: href {} became {}",
                url.href(),
                after.href()
            ));
        }
        if after_errors.len() >= errors.len() {
            self.failures.push(format!(
                "{input:?} → {rewritten:?}{against}: {} errors before, {} after: {:?}",
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
            let entry = self.seen.entry(kind).or_default();
            entry.0 += 1;
            if after_errors.iter().all(|e| e.kind != kind) {
                entry.1 += 1;
            }
        }
    }

    /// One fix applied alone: the href it promises. A fix that keeps the href keeps it; one
    /// that changes it (a code point percent-encoded where the href kept it as typed) changes
    /// only the writing, so that the two hrefs percent-decode alike; dropping credentials is
    /// the one fix that changes what the URL means.
    fn check_one(
        &mut self,
        input: &str,
        url: &Url,
        error: &ValidationError,
        fix: Fix,
        base: Option<&Url>,
        against: &str,
    ) {
        let rewritten = apply(input, std::slice::from_ref(&fix));
        let Some((after, _, _)) = parse(&rewritten, base) else {
            self.failures.push(format!(
                "{input:?} → {rewritten:?}{against} ({} alone) fails to parse",
                error.kind.name()
            ));
            return;
        };
        let decoded = |href: &str| {
            percent_encoding::percent_decode_str(href)
                .decode_utf8_lossy()
                .into_owned()
        };
        let kept = if fix.same_href {
            after.href() == url.href()
        } else {
            error.kind == ValidationErrorKind::InvalidCredentials
                || decoded(after.href()) == decoded(url.href())
        };
        if !kept {
            self.failures.push(format!(
                "{input:?} → {rewritten:?}{against} ({} alone, the href {}): href {} became {}",
                error.kind.name(),
                if fix.same_href {
                    "stays the same"
                } else {
                    "changes its writing"
                },
                url.href(),
                after.href()
            ));
        }
    }

    /// Prints the count per kind and fails on anything that went wrong.
    fn finish(mut self, what: &str) -> BTreeMap<ValidationErrorKind, (usize, usize)> {
        eprintln!(
            "{CASES} {what}, {} parsed with at least one fix",
            self.fixed_inputs
        );
        eprintln!("{:<45} {:>8} {:>10}", "kind", "inputs", "to zero");
        for (kind, (inputs, zero)) in &self.seen {
            eprintln!("{:<45} {inputs:>8} {zero:>10}", kind.name());
        }
        self.failures.truncate(20);
        assert!(self.failures.is_empty(), "{}", self.failures.join("\n"));
        assert!(self.fixed_inputs > 5_000, "{}", self.fixed_inputs);
        self.seen
    }
}

#[test]
fn applying_every_fix_keeps_the_href_and_removes_errors() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut tally = Tally::default();
    for _ in 0..CASES {
        let input = generate(&mut rng);
        tally.check(&input, None);
    }
    let seen = tally.finish("generated inputs");
    // The accepted IPv4 forms that only the last part can take.
    assert!(seen.contains_key(&ValidationErrorKind::Ipv4OutOfRangePart));
}

/// The same promise for relative references resolved against a base, where the drive-letter
/// and backslash fixes of file: references apply.
#[test]
fn applying_every_fix_of_a_relative_reference_keeps_the_href_and_removes_errors() {
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    let mut tally = Tally::default();
    for _ in 0..CASES {
        let (input, base) = generate_relative(&mut rng);
        let base = Url::parse(base, None).expect("the bases parse");
        tally.check(&input, Some(&base));
    }
    let seen = tally.finish("generated relative references");
    for kind in [
        ValidationErrorKind::FileInvalidWindowsDriveLetter,
        ValidationErrorKind::InvalidReverseSolidus,
        ValidationErrorKind::InvalidCredentials,
    ] {
        assert!(seen.contains_key(&kind), "no {} generated", kind.name());
    }
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
        // A fullwidth full stop: "." once IDNA has mapped it.
        ("http://127\u{ff0e}0.0.1/", "http://127.0.0.1/"),
        // Against no base "http:/x" is http://x/; the references against a base are in the
        // property test above.
        ("http:/x", "http://x"),
        ("http:///x", "http://x"),
        // The path state writes a drive letter's "|" as ":": the fix keeps the drive letter.
        ("file:///C|/x", "file:///C:/x"),
        ("file:///a/../C|/x", "file:///a/../C:/x"),
        // A second "C|" is no drive letter: the path was not empty.
        ("file:///C|/C|", "file:///C:/C%7C"),
    ];
    for (input, expected) in cases {
        let (url, errors, host_span) = parse(input, None).expect("parses");
        let fixer = Fixer::new(input, Some(url.record()), host_span);
        let fixes: Vec<Fix> = errors.iter().filter_map(|e| fixer.fix(e)).collect();
        assert_eq!(apply(input, &fixes), expected, "{input:?}: {fixes:?}");
    }
}

/// Against a base, the fixes keep a relative reference relative.
#[test]
fn relative_references_are_fixed_as_references() {
    let cases = [
        // Same scheme as the base: the special relative or authority state reads a reference.
        (
            "http:/x",
            "http://example.com/a/b",
            "/x",
            "http://example.com/x",
        ),
        // No scheme: the third slash goes, the first two stay.
        ("///x", "http://example.com/a/b", "//x", "http://x/"),
        // A drive letter where a host would be starts the path, normalized.
        (
            "file://C|/a",
            "file:///D:/b",
            "file:///C:/a",
            "file:///C:/a",
        ),
        ("C|/a", "file:///D:/b", "/C:/a", "file:///C:/a"),
    ];
    for (input, base, expected, href) in cases {
        let base = Url::parse(base, None).expect("the base parses");
        let (url, errors, host_span) = parse(input, Some(&base)).expect("parses");
        assert_eq!(url.href(), href, "{input:?}");
        let fixer = Fixer::new(input, Some(url.record()), host_span).with_base(Some(&base));
        let fixes: Vec<Fix> = errors.iter().filter_map(|e| fixer.fix(e)).collect();
        let rewritten = apply(input, &fixes);
        assert_eq!(rewritten, expected, "{input:?}: {fixes:?}");
        let (after, after_errors, _) = parse(&rewritten, Some(&base)).expect("still parses");
        assert_eq!(
            (after.href(), after_errors.len()),
            (href, 0),
            "{rewritten:?}"
        );
    }
}
