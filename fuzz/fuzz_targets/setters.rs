//! Every setter applied to a parsed URL: no panic, and the result is still idempotent
//! (parse(href) gives href back).
//!
//! Input: the first byte picks the setter; the rest is "URL\nvalue" (UTF-8, lossy).
#![no_main]

use libfuzzer_sys::fuzz_target;
use urlscope::trace::{NoTrace, Recorder};
use urlscope::url::Component;
use urlscope::Url;

fuzz_target!(|data: &[u8]| {
    let Some((&selector, rest)) = data.split_first() else {
        return;
    };
    let component = Component::ALL[usize::from(selector) % Component::ALL.len()];
    let text = String::from_utf8_lossy(rest);
    let (input, value) = text.split_once('\n').unwrap_or((&text, ""));
    let Ok(url) = Url::parse(input, None) else {
        return;
    };
    let mut untraced = url.clone();
    let result = untraced.set(component, value, &mut NoTrace);
    let mut traced = url.clone();
    let traced_result = traced.set(component, value, &mut Recorder::new());
    assert_eq!(untraced.href(), traced.href(), "traced and untraced setter");
    assert_eq!(result.is_ok(), traced_result.is_ok());
    let again = Url::parse(untraced.href(), None).expect("a serialization parses");
    assert_eq!(again.href(), untraced.href(), "idempotence after {component}");
    assert_eq!(again.record(), untraced.record(), "record after {component}");
});
