//! The URL parser, with and without a base: no panic; parse → serialize → parse gives the same
//! serialization; the traced parse, the untraced one and the state machine without the
//! shortcut agree exactly.
//!
//! Input: the bytes as UTF-8 (lossy); a first line, when there is a newline, is the base.
#![no_main]

use libfuzzer_sys::fuzz_target;
use urlscope::trace::Recorder;
use urlscope::url::UrlRecord;
use urlscope::Url;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let (base, input) = match text.split_once('\n') {
        Some((base, input)) => (Url::parse(base, None).ok(), input),
        None => (None, &*text),
    };
    let base = base.as_ref();
    let parsed = Url::parse(input, base);
    let slow = Url::parse_without_shortcut(input, base);
    let mut recorder = Recorder::new();
    let traced = Url::parse_with(input, base, encoding_rs::UTF_8, &mut recorder);
    let trace = recorder.finish(input, UrlRecord::default());
    match (&parsed, &slow, &traced) {
        (Ok(url), Ok(slow), Ok(traced)) => {
            assert_eq!(url.href(), slow.href(), "shortcut and state machine");
            assert_eq!(url.record(), slow.record(), "records");
            assert_eq!(url.href(), traced.href(), "traced and untraced");
            assert!(!trace.failed());
            let again = Url::parse(url.href(), None).expect("a serialization parses");
            assert_eq!(again.href(), url.href(), "idempotence");
        }
        (Err(_), Err(_), Err(_)) => assert!(trace.failed()),
        _ => panic!("the parses disagree on {input:?}: {parsed:?} {slow:?} {traced:?}"),
    }
    for error in trace.errors() {
        assert!(error.span.start <= error.span.end);
        assert!(error.span.end <= input.chars().count(), "span inside the input");
    }
});
