//! proptest properties of the engine over generated URLs (URL-shaped strings: a scheme, an
//! authority, a path, a query and a fragment, each from alphabets that mix delimiters,
//! controls, percent signs, digits, dots and non-ASCII), shrunk to a minimal case on failure:
//! - idempotence: parse(href) gives href back, and so after every setter;
//! - the traced parse, the untraced one and the state machine without the shortcut agree;
//! - every validation error span lies inside the input;
//! - percent-encoding is complete: the serialization holds no code point of the C0 control
//!   percent-encode set (C0 controls, DEL, non-ASCII), which every component's set contains.
//!   It may hold other non-URL code points: the standard leaves "|", "^" (outside paths),
//!   "[", "\\" in non-special URLs, and spaces in opaque paths as they are (validation errors
//!   only), so "URL code points only" is not a property of the standard;
//! - `can_parse` agrees with `parse`;
//! - the trace's recorded edits replay to the record the parse returned;
//! - every failure carries the validation error that caused it.

use proptest::prelude::*;
use urlscope::trace::{NoTrace, Recorder};
use urlscope::url::{Component, UrlRecord};
use urlscope::{Report, Url};

fn piece() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-zA-Z0-9]{0,6}",
        prop::sample::select(vec![
            "/", "\\", "?", "#", "@", ":", ".", "..", "%", "%2e", "%zz", "%41", "[", "]", "::1",
            "0x", "1.2", "255", " ", "\t", "\n", "\u{0}", "\u{1b}", "\u{7f}", "é", "ß", "\u{200b}",
            "\u{202e}", "Ａ", "。", "xn--", "-", "|", "C:", "^", "`", "{", "<", "'", "\"", "💩",
            "\u{fdd0}", "&", "=", "+",
        ])
        .prop_map(str::to_owned),
    ]
}

fn url_like() -> impl Strategy<Value = String> {
    (
        prop::sample::select(vec![
            "",
            "http:",
            "https://",
            "HTTP://",
            "file:",
            "file:///",
            "file://",
            "sc:",
            "sc://",
            "ws://[",
            "blob:https://",
            "ftp://u:p@",
            "mailto:",
            "javascript:",
        ]),
        prop::collection::vec(piece(), 0..8),
    )
        .prop_map(|(scheme, pieces)| format!("{scheme}{}", pieces.concat()))
}

fn base() -> impl Strategy<Value = Option<&'static str>> {
    prop::sample::select(vec![
        None,
        Some("http://h/p/q?x#y"),
        Some("file:///C:/a/b"),
        Some("sc:opaque"),
        Some("sc://h/x"),
    ])
}

/// URL Standard: C0 control percent-encode set: C0 controls and code points above U+007E.
fn in_c0_control_percent_encode_set(c: char) -> bool {
    c <= '\u{1f}' || c > '~'
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn parsing_is_idempotent_and_the_three_parses_agree(input in url_like(), base in base()) {
        let base = base.map(|b| Url::parse(b, None).expect("base parses"));
        let parsed = Url::parse(&input, base.as_ref());
        let slow = Url::parse_without_shortcut(&input, base.as_ref());
        let mut recorder = Recorder::new();
        let traced = Url::parse_with(&input, base.as_ref(), encoding_rs::UTF_8, &mut recorder);
        let trace = recorder.finish(&input, UrlRecord::default());
        prop_assert_eq!(parsed.is_ok(), !trace.failed());
        match (&parsed, &slow, &traced) {
            (Ok(url), Ok(slow), Ok(traced)) => {
                prop_assert_eq!(url.href(), slow.href());
                prop_assert_eq!(url.href(), traced.href());
                let again = Url::parse(url.href(), None).expect("a serialization parses");
                prop_assert_eq!(again.href(), url.href());
                prop_assert!(
                    !url.href().chars().any(in_c0_control_percent_encode_set),
                    "{:?} serializes to {:?}", input, url.href()
                );
                // A space survives only in an opaque path.
                if url.href().contains(' ') {
                    prop_assert!(url.record().has_opaque_path(), "{:?}", url.href());
                    prop_assert!(!url.hash().contains(' ') && !url.search().contains(' '));
                }
            }
            (Err(e), Err(_), Err(_)) => {
                // Outside a setter, every failure is caused by a validation error.
                prop_assert!(e.cause().is_some(), "{:?} failed without a cause", input);
            }
            _ => prop_assert!(false, "{:?}: {:?} {:?} {:?}", input, parsed, slow, traced),
        }
        // The recorded edits replay to the record the parse returned.
        if let Ok(traced) = &traced {
            let (_, replayed) = trace.state_after(trace.len() - 1);
            prop_assert_eq!(&replayed, traced.record(), "trace replay of {:?}", input);
        }
        let chars = input.chars().count();
        for error in trace.errors() {
            prop_assert!(error.span.start <= error.span.end && error.span.end <= chars);
        }
        if base.is_none() {
            prop_assert_eq!(Url::can_parse(&input, None), parsed.is_ok());
        }
    }

    #[test]
    fn setters_keep_the_url_idempotent(
        input in url_like(),
        value in prop::collection::vec(piece(), 0..4).prop_map(|p| p.concat()),
        which in 0..Component::ALL.len(),
    ) {
        let Ok(mut url) = Url::parse(&input, None) else { return Ok(()) };
        let component = Component::ALL[which];
        let mut traced = url.clone();
        let result = url.set(component, &value, &mut NoTrace);
        let traced_result = traced.set(component, &value, &mut Recorder::new());
        prop_assert_eq!(result.is_ok(), traced_result.is_ok());
        prop_assert_eq!(url.href(), traced.href());
        let again = Url::parse(url.href(), None).expect("a serialization parses");
        prop_assert_eq!(again.href(), url.href(), "after {} = {:?}", component, value);
    }

    #[test]
    fn report_spans_lie_inside_the_input(input in url_like(), base in base()) {
        let report = Report::new(&input, base);
        let chars = input.chars().count();
        for error in &report.errors {
            prop_assert!(error.span.start <= error.span.end && error.span.end <= chars);
        }
        if let Some(span) = report.host_span {
            prop_assert!(span.start <= span.end && span.end <= chars);
        }
    }
}
