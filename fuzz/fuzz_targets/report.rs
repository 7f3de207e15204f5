//! The whole report, as the terminal and `--json` see it: traced parse, validation errors,
//! host analysis, the writing grammar, resolution table and JSON. No panic; the traced and untraced reports agree
//! on the outcome and the errors.
//!
//! Input: the bytes as UTF-8 (lossy); a first line, when there is a newline, is the base.
#![no_main]

use libfuzzer_sys::fuzz_target;
use urlscope::Report;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let (base, input) = match text.split_once('\n') {
        Some((base, input)) => (Some(base), input),
        None => (None, &*text),
    };
    let traced = Report::new(input, base);
    let base_url = base.and_then(|b| urlscope::Url::parse(b, None).ok());
    if base.is_none() || base_url.is_some() {
        let untraced = Report::untraced(input, base_url, encoding_rs::UTF_8);
        assert_eq!(traced.errors, untraced.errors, "traced and untraced errors");
        assert_eq!(
            traced.url.as_ref().map(|u| u.href()),
            untraced.url.as_ref().map(|u| u.href())
        );
        assert_eq!(traced.host_analysis, untraced.host_analysis);
        assert_eq!(traced.writing, untraced.writing);
    }
    // The writing grammar's verdict points inside the input.
    if let Some(position) = traced.writing.position {
        assert!(position <= input.chars().count(), "writing position inside the input");
    }
    assert_eq!(traced.writing.valid, traced.writing.position.is_none());
    let json = serde_json::to_string(&traced).expect("a report serializes");
    assert!(!json.is_empty());
});
