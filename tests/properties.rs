//! Properties of the engine over generated inputs (a fixed pseudo-random sequence, so a failure
//! reproduces): idempotence of parsing and of every setter, traced = untraced, the trace replays
//! to the final record, spans lie inside the input, and every failure carries its cause.

mod common;

use urlscope::report::Outcome;
use urlscope::trace::NoTrace;
use urlscope::url::Component;
use urlscope::{Report, Url};

const ALPHABET: &str = "ab0:/\\?#@[]%.x\t \u{0}\u{7f}é💩ß。Ａ1fF:.2-_+~'\"<>|^`{}\u{200b}\u{ad}";
const PREFIXES: &[&str] = &[
    "",
    "http://",
    "https:",
    "file:",
    "file:///",
    "sc:",
    "sc://",
    "blob:https://",
    "ws://[",
    "ftp://u:p@",
];
const BASES: &[Option<&str>] = &[
    None,
    Some("http://h/p/q?x#y"),
    Some("file:///C:/a/b"),
    Some("sc:opaque"),
    Some("sc://h/x"),
];

fn reparse(href: &str) -> Option<String> {
    Url::parse(href, None).ok().map(|u| u.href().to_owned())
}

#[test]
fn generated_inputs_keep_the_engine_invariants() {
    let alphabet: Vec<char> = ALPHABET.chars().collect();
    let mut rng = common::Rng(0x9E37_79B9_7F4A_7C15);
    let mut parsed = 0;
    let cases = 20_000;
    for _ in 0..cases {
        let mut input = PREFIXES[rng.below(PREFIXES.len())].to_owned();
        for _ in 0..rng.below(24) {
            input.push(alphabet[rng.below(alphabet.len())]);
        }
        let base = BASES[rng.below(BASES.len())];
        let report = Report::new(&input, base);
        let length = input.chars().count();
        for e in &report.errors {
            assert!(
                e.span.start <= e.span.end && e.span.end <= length,
                "{e:?} in {input:?}"
            );
        }
        if let Outcome::Failure { cause } = &report.outcome {
            assert!(
                cause.is_some(),
                "failure without a cause: {input:?} against {base:?}"
            );
        }
        let Some(url) = &report.url else { continue };
        parsed += 1;
        let href = url.href();
        assert_eq!(
            reparse(href).as_deref(),
            Some(href),
            "idempotence: {input:?}"
        );
        let untraced = Url::parse(&input, report.base_url.as_ref()).map(|u| u.href().to_owned());
        assert_eq!(
            untraced.as_deref(),
            Ok(href),
            "traced vs untraced: {input:?}"
        );
        let trace = report.trace.as_ref().expect("a trace");
        let (_, replayed) = trace.state_after(trace.len() - 1);
        assert_eq!(&replayed, url.record(), "trace replay: {input:?}");
        let value: String = input.chars().skip(length / 2).collect();
        for component in Component::ALL {
            let mut edited = url.clone();
            let _ = edited.set(component, &value, &mut NoTrace);
            let h = edited.href();
            assert_eq!(
                reparse(h).as_deref(),
                Some(h),
                "{component} setter with {value:?} on {href:?}"
            );
        }
    }
    eprintln!("properties: {cases} generated inputs, {parsed} parsed");
    assert!(
        parsed > cases / 3,
        "the generator should produce mostly parseable inputs"
    );
}
