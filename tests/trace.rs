//! The trace follows the standard's text: one step per iteration of the basic URL parser's loop,
//! in the order the standard visits states (rewinds included), with pointers mapped to the
//! input as typed. The expected sequences below are worked out by hand from the standard.

use urlscope::trace::{ChangeView, PointerMove, Recorder, Tracer};
use urlscope::url::{Phase, State};
use urlscope::{Report, Url};

/// (state name, pointer, c) for every step of the state machine (the two preprocessing steps
/// are checked separately).
fn machine_steps(input: &str, base: Option<&str>) -> Vec<(&'static str, usize, Option<char>)> {
    let report = Report::new(input, base);
    let trace = report.trace.as_ref().expect("a trace");
    trace
        .steps()
        .iter()
        .filter_map(|s| match s.phase {
            Phase::State(state) => Some((state.name(), s.pointer, s.c)),
            _ => None,
        })
        .collect()
}

#[test]
fn special_url_visits_the_authority_states_and_rewinds_to_the_host() {
    let steps = machine_steps("https://a/", None);
    let expected = vec![
        ("scheme start state", 0, Some('h')),
        ("scheme state", 1, Some('t')),
        ("scheme state", 2, Some('t')),
        ("scheme state", 3, Some('p')),
        ("scheme state", 4, Some('s')),
        ("scheme state", 5, Some(':')),
        ("special authority slashes state", 6, Some('/')),
        // "increase pointer by 1" skipped the second slash.
        ("special authority ignore slashes state", 8, Some('a')),
        // "decrease pointer by 1": the authority state starts on the same code point.
        ("authority state", 8, Some('a')),
        ("authority state", 9, Some('/')),
        // "decrease pointer by buffer's code point length + 1": back to the host's start.
        ("host state", 8, Some('a')),
        ("host state", 9, Some('/')),
        ("path start state", 9, Some('/')),
        ("path state", 10, None),
    ];
    assert_eq!(steps, expected);
}

#[test]
fn scheme_state_starts_over_in_no_scheme_state() {
    let steps = machine_steps("foo", None);
    assert_eq!(
        steps,
        vec![
            ("scheme start state", 0, Some('f')),
            ("scheme state", 1, Some('o')),
            ("scheme state", 2, Some('o')),
            ("scheme state", 3, None),
            ("no scheme state", 0, Some('f')),
        ]
    );
    let report = Report::new("foo", None);
    assert!(!report.parsed());
    let trace = report.trace.as_ref().expect("a trace");
    let start_over = trace.view(5);
    assert_eq!(start_over.pointer_moves, vec![PointerMove::StartOver]);
    assert_eq!(start_over.next, Some(Phase::State(State::NoScheme)));
    assert_eq!(report.errors.len(), 1);
    assert_eq!(
        report.errors[0].kind.name(),
        "missing-scheme-non-relative-URL"
    );
    assert!(trace.failed());
}

#[test]
fn relative_reference_uses_the_base() {
    let steps = machine_steps("/x", Some("http://h/p"));
    assert_eq!(
        steps,
        vec![
            ("scheme start state", 0, Some('/')),
            ("no scheme state", 0, Some('/')),
            ("relative state", 0, Some('/')),
            ("relative slash state", 1, Some('x')),
            ("path state", 1, Some('x')),
            ("path state", 2, None),
        ]
    );
    let report = Report::new("/x", Some("http://h/p"));
    assert_eq!(
        report.components().map(|c| c.href.as_str()),
        Some("http://h/x")
    );
}

#[test]
fn pointers_are_offsets_into_the_input_as_typed() {
    // The leading space and the tab at offset 2 are removed before the state machine runs.
    let input = " a\tb:x";
    let steps = machine_steps(input, None);
    assert_eq!(
        steps,
        vec![
            ("scheme start state", 1, Some('a')),
            ("scheme state", 3, Some('b')),
            ("scheme state", 4, Some(':')),
            ("opaque path state", 5, Some('x')),
            ("opaque path state", 6, None),
        ]
    );
    let report = Report::new(input, None);
    let trace = report.trace.as_ref().expect("a trace");
    assert_eq!(trace.step(0).phase, Phase::TrimControlOrSpace);
    assert_eq!(trace.step(1).phase, Phase::RemoveTabOrNewline);
    let spans: Vec<_> = report
        .errors
        .iter()
        .map(|e| (e.span.start, e.span.end, e.state))
        .collect();
    assert_eq!(
        spans,
        vec![
            (0, 1, Phase::TrimControlOrSpace),
            (2, 3, Phase::RemoveTabOrNewline)
        ]
    );
}

#[test]
fn a_step_shows_the_record_as_it_was() {
    let report = Report::new("https://a/b?c#d", None);
    let trace = report.trace.as_ref().expect("a trace");
    let host_done = (0..trace.len())
        .find(|&i| {
            trace
                .view(i)
                .changes
                .iter()
                .any(|c| matches!(c, ChangeView::Set { field: "host", .. }))
        })
        .expect("a step sets the host");
    let (buffer, record) = trace.state_after(host_done);
    assert_eq!(buffer, "");
    assert_eq!(record.scheme, "https");
    assert_eq!(record.host.map(|h| h.to_string()), Some("a".to_owned()));
    assert_eq!(record.query, None);
    let (_, last) = trace.state_after(trace.len() - 1);
    assert_eq!(last, *report.url.as_ref().expect("parsed").record());
}

#[test]
fn traced_and_untraced_parses_agree() {
    for (input, base) in [
        ("https://a/b", None),
        ("HTTP://EXAMPLE.COM:80/%7e?x#y", None),
        ("file:///C|/x", None),
        ("../g;x?y#s", Some("http://a/b/c/d;p?q")),
        ("a:\t foo.com", None),
        ("http://[::1]:8080/", None),
    ] {
        let base = base.map(|b| Url::parse(b, None).expect("base parses"));
        let plain = Url::parse(input, base.as_ref());
        let mut recorder = Recorder::new();
        let traced = Url::parse_with(input, base.as_ref(), encoding_rs::UTF_8, &mut recorder);
        assert_eq!(plain, traced, "input {input:?}");
    }
}

#[test]
fn the_no_op_tracer_is_disabled() {
    const { assert!(!urlscope::trace::NoTrace::ENABLED) };
    const { assert!(Recorder::ENABLED) };
}

/// Walking a trace forward, backward and by jumps (the inspector's step mode) gives at every
/// step the state a replay from the first step gives: the replay position a trace keeps
/// between calls, and the undoing of edits to move back, never show through.
#[test]
fn walking_a_trace_in_any_order_gives_the_replayed_states() {
    let long = format!(
        "https://u:p@h/{}?{}#{}",
        "seg/../a/".repeat(300),
        "q=1&".repeat(300),
        "f".repeat(300)
    );
    let inputs = [
        (long.as_str(), None),
        // A drive letter that shortening keeps, and the drive letter quirk on the buffer.
        ("file:///C:/a/../../..", None),
        ("file:c|/x/../y", None),
        ("file:///C|/..", Some("file:///D:/base/")),
        // "%40" prepended to the buffer, credentials appended.
        ("https://a@b:c@d@h/", None),
        // A path, query and fragment from the base, then replaced.
        ("?q#f", Some("http://h/a/b?x#y")),
        ("..", Some("http://h/a/b")),
        ("sc:opaque path?q#f", None),
        ("\t http://[::1]:99/é?é#é ", None),
    ];
    for (input, base) in inputs {
        let name = &input[..input.len().min(40)];
        let report = Report::new(input, base);
        let trace = report.trace.as_ref().expect("a trace");
        let mut buffers = Vec::new();
        trace.for_each_with_buffer(|_, buffer| buffers.push(buffer.to_owned()));
        // From step 0, on a copy that shares no replay position.
        let fresh = |i: usize| trace.clone().state_after(i);
        let n = trace.len();
        let expected: Vec<_> = (0..n)
            .filter(|i| n < 100 || i % 97 == 0 || i + 1 == n)
            .map(|i| (i, fresh(i)))
            .collect();
        let mut order: Vec<usize> = (0..n).collect();
        order.extend((0..n).rev());
        order.extend((0..n).map(|i| (i * 7919) % n));
        let mut cursor = trace.cursor();
        for &i in &order {
            let (buffer, record) = trace.state_after(i);
            assert_eq!(buffer, buffers[i], "{name:?}: buffer after step {i}");
            cursor.seek(i);
            assert_eq!(
                cursor.buffer(),
                buffers[i],
                "{name:?}: cursor after step {i}"
            );
            assert_eq!(cursor.record(), &record, "{name:?}: cursor after step {i}");
            if let Ok(at) = expected.binary_search_by_key(&i, |(j, _)| *j) {
                assert_eq!((buffer, record), expected[at].1, "{name:?}: step {i}");
            }
        }
        if let Some(url) = &report.url {
            assert_eq!(trace.state_after(n - 1).1, *url.record(), "{name:?}");
        }
        // Windows of rows, as the Trace pane asks for them, moving back and forth.
        for start in [n / 2, n / 3, n / 2 + 1, 0, n.saturating_sub(3)] {
            let mut rows = Vec::new();
            trace.for_each_in(start..start + 5, |view, buffer| {
                rows.push((view.index, buffer.to_owned()))
            });
            let wanted: Vec<(usize, String)> = (start..(start + 5).min(n))
                .map(|i| (i, buffers[i].clone()))
                .collect();
            assert_eq!(rows, wanted, "{name:?}: rows from {start}");
        }
    }
}

/// The basic URL parser's steps 1 to 3 (strip leading and trailing C0 control or space, remove
/// ASCII tab or newline) come before its state machine: step 0 is followed by the remove-tab
/// step, not by the parser returning, and step 1 by the scheme start state. Every step but the
/// last names the phase the next step is in; the last names none.
#[test]
fn each_step_names_the_step_after_it_preprocessing_too() {
    for input in ["http://a/", " \tht\ntp://a/ ", "", "foo"] {
        let report = Report::new(input, None);
        let trace = report.trace.as_ref().expect("a trace");
        assert_eq!(
            trace.view(0).next,
            Some(Phase::RemoveTabOrNewline),
            "{input:?}: step 0"
        );
        assert_eq!(
            trace.view(1).next,
            Some(Phase::State(State::SchemeStart)),
            "{input:?}: step 1"
        );
        let steps: Vec<_> = trace.steps().iter().collect();
        for i in 0..steps.len() {
            let next = trace.view(i).next;
            assert_eq!(
                next,
                steps.get(i + 1).map(|s| s.phase),
                "{input:?}: step {i} names {next:?}"
            );
        }
    }
}
