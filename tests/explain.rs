//! The explained and collapsed trace of six inputs, worked out by hand from the standard: for
//! each step, the state and the step of its algorithm that decided it (the last one cited);
//! and the rows of the collapsed trace.

use urlscope::trace::{Recorder, Row, Trace};
use urlscope::url::Component;
use urlscope::{Report, Url};

/// `"scheme state 2.7"` for each step: the state (or the basic URL parser's own steps) and the
/// deciding step.
fn decided(trace: &Trace) -> Vec<String> {
    (0..trace.len())
        .map(|index| {
            let view = trace.view(index);
            let spec = view.spec().expect("every step cites a step");
            assert!(spec.explanation.is_some(), "step {index}: {spec:?}");
            format!("{} {}", spec.section_name(), spec.number)
        })
        .collect()
}

/// The collapsed rows: a step's index, or a run's first index and the run.
fn rows(trace: &Trace) -> Vec<String> {
    trace
        .rows()
        .map(|row| match row {
            Row::Step(index) => index.to_string(),
            Row::Run(run) => format!("{} {run}", run.steps.start),
        })
        .collect()
}

fn trace_of(input: &str, base: Option<&str>) -> Trace {
    let report = Report::new(input, base);
    report.trace.expect("a trace")
}

/// `n` copies of a step.
fn times(n: usize, step: &str) -> Vec<String> {
    vec![step.to_owned(); n]
}

fn expect(parts: &[Vec<String>]) -> Vec<String> {
    parts.concat()
}

fn one(step: &str) -> Vec<String> {
    vec![step.to_owned()]
}

const PREPROCESSING: [&str; 2] = ["basic URL parser 1.3", "basic URL parser 3"];

fn preprocessing() -> Vec<String> {
    PREPROCESSING.iter().map(|s| (*s).to_owned()).collect()
}

#[test]
fn the_readme_example() {
    let trace = trace_of("HTTPS://user@ex%41mple.com:443/a/./b/../c?q=1#frag", None);
    let expected = expect(&[
        preprocessing(),
        one("scheme start state 1"),
        times(4, "scheme state 1"),
        // ":" ends a special scheme without a base: an authority must follow.
        one("scheme state 2.7"),
        one("special authority slashes state 1"),
        one("special authority ignore slashes state 1"),
        times(4, "authority state 3"),
        // "@": the buffer is userinfo, and "user", with no ":", all username (1.1 and 1.4
        // cited on the way).
        one("authority state 1.4.4"),
        times(17, "authority state 3"),
        // "/": back to the host's start, in the host state.
        one("authority state 2.2"),
        // Each code point of the host is appended by 4.3 ("otherwise", no bracket).
        times(13, "host state 4.3"),
        // ":": the host is parsed (2.3), set, and the port state follows.
        one("host state 2.5"),
        times(3, "port state 1"),
        // 443 is https's default port: null (2.1.3), then the path start state (2.3).
        one("port state 2.3"),
        // Special: the path state, and c ("/") is not read again.
        one("path start state 1.2"),
        one("path state 2.3"),
        one("path state 1.4.2"),
        one("path state 2.3"),
        // "./": skipped.
        one("path state 1.3"),
        one("path state 2.3"),
        one("path state 1.4.2"),
        times(2, "path state 2.3"),
        // "../": shorten (1.2, then 1.2.1; a slash follows, so no empty segment).
        one("path state 1.2.1"),
        one("path state 2.3"),
        one("path state 1.6"),
        times(3, "query state 3.3"),
        one("query state 2.4"),
        times(4, "fragment state 1.3"),
        // EOF: no step of the fragment state applies; its step 1 is the one that looked.
        one("fragment state 1"),
    ]);
    assert_eq!(decided(&trace), expected);
    let expected_rows = [
        "0",
        "1",
        "2",
        "3 scheme ×4  buffer ← ttps",
        "7",
        "8",
        "9",
        "10 authority ×4  buffer ← user",
        "14",
        "15 authority ×17  buffer ← ex%41mple.com:443",
        "32",
        "33 host ×13  buffer ← ex%41mple.com",
        "46",
        "47 port ×3  buffer ← 443",
        "50",
        "51",
        "52",
        "53",
        "54",
        "55",
        "56",
        "57",
        "58 path ×2  buffer ← ..",
        "60",
        "61",
        "62",
        "63 query ×3  buffer ← q=1",
        "66",
        "67 fragment ×4  fragment ← frag",
        "71",
    ];
    assert_eq!(rows(&trace), expected_rows);
}

#[test]
fn a_file_url_with_a_drive_letter() {
    let trace = trace_of("file:///C:/dir/f", None);
    let expected = expect(&[
        preprocessing(),
        one("scheme start state 1"),
        times(3, "scheme state 1"),
        // "file" (2.5), and "//" follows, so no validation error (2.5.1): the file state.
        one("scheme state 2.5.2"),
        one("file state 3.2"),
        one("file slash state 1.2"),
        // The third slash: the host is empty (1.2.1), and the path start state reads the
        // slash again (1.2.3).
        one("file host state 1.2.3"),
        one("path start state 1.2"),
        times(2, "path state 2.3"),
        // "C:" is a drive letter (1.4.1 cited on the way), then appended.
        one("path state 1.4.2"),
        times(3, "path state 2.3"),
        one("path state 1.4.2"),
        one("path state 2.3"),
        one("path state 1.4.2"),
    ]);
    assert_eq!(decided(&trace), expected);
    let view = trace.view(13);
    assert_eq!(
        view.spec_steps
            .iter()
            .map(|s| s.split(':').next().unwrap_or(""))
            .collect::<Vec<_>>(),
        ["1", "1.4.1", "1.4.2"]
    );
    let expected_rows = [
        "0",
        "1",
        "2",
        "3 scheme ×3  buffer ← ile",
        "6",
        "7",
        "8",
        "9",
        "10",
        "11 path ×2  buffer ← C:",
        "13",
        "14 path ×3  buffer ← dir",
        "17",
        "18",
        "19",
    ];
    assert_eq!(rows(&trace), expected_rows);
}

#[test]
fn an_ipv6_host() {
    let trace = trace_of("http://[::1]:8080/", None);
    let expected = expect(&[
        preprocessing(),
        one("scheme start state 1"),
        times(3, "scheme state 1"),
        one("scheme state 2.7"),
        one("special authority slashes state 1"),
        one("special authority ignore slashes state 1"),
        times(10, "authority state 3"),
        one("authority state 2.2"),
        // The ":"s inside the brackets are part of the host: "[" sets insideBrackets (4.1),
        // "]" clears it (4.2), and each code point is appended (4.3).
        times(5, "host state 4.3"),
        one("host state 2.5"),
        times(4, "port state 1"),
        one("port state 2.3"),
        one("path start state 1.2"),
        one("path state 1.4.2"),
    ]);
    assert_eq!(decided(&trace), expected);
    let expected_rows = [
        "0",
        "1",
        "2",
        "3 scheme ×3  buffer ← ttp",
        "6",
        "7",
        "8",
        "9 authority ×10  buffer ← [::1]:8080",
        "19",
        "20 host ×5  buffer ← [::1]",
        "25",
        "26 port ×4  buffer ← 8080",
        "30",
        "31",
        "32",
    ];
    assert_eq!(rows(&trace), expected_rows);
}

#[test]
fn a_relative_reference_against_a_base() {
    let trace = trace_of("../x?y", Some("http://h/a/b/c"));
    let expected = expect(&[
        preprocessing(),
        one("scheme start state 2"),
        one("no scheme state 3"),
        // Not "/", "?" or "#" (5.4): no query (5.4.1), shorten the base's path (5.4.2), then
        // the path state (5.4.3).
        one("relative state 5.4.3"),
        times(2, "path state 2.3"),
        one("path state 1.2.1"),
        one("path state 2.3"),
        one("path state 1.6"),
        one("query state 3.3"),
        // EOF: the buffer goes into the query.
        one("query state 2.2"),
    ]);
    assert_eq!(decided(&trace), expected);
    let expected_rows = [
        "0",
        "1",
        "2",
        "3",
        "4",
        "5 path ×2  buffer ← ..",
        "7",
        "8",
        "9",
        "10",
        "11",
    ];
    assert_eq!(rows(&trace), expected_rows);
}

#[test]
fn the_protocol_setter_from_special_to_non_special_does_nothing() {
    let mut url = Url::parse("https://ex.com/", None).expect("a URL");
    let initial = url.record().clone();
    let mut recorder = Recorder::new();
    assert!(url.set(Component::Protocol, "foo", &mut recorder).is_ok());
    assert_eq!(url.href(), "https://ex.com/");
    let trace = recorder.finish("foo", initial);
    let expected = expect(&[
        // A setter does not trim: only the tab-and-newline step runs before the states.
        one("basic URL parser 3"),
        one("scheme start state 1"),
        times(2, "scheme state 1"),
        // The step that returned early.
        one("scheme state 2.1.1"),
    ]);
    assert_eq!(decided(&trace), expected);
    let last = trace.view(trace.len() - 1).spec().expect("a step");
    assert!(
        last.explanation
            .is_some_and(|e| e.contains("silently does nothing")),
        "{last:?}"
    );
    assert_eq!(rows(&trace), ["0", "1", "2 scheme ×2  buffer ← oo", "4"]);
}

#[test]
fn a_failure() {
    let trace = trace_of("http://ex.com:99999/", None);
    assert!(trace.failed());
    let expected = expect(&[
        preprocessing(),
        one("scheme start state 1"),
        times(3, "scheme state 1"),
        one("scheme state 2.7"),
        one("special authority slashes state 1"),
        one("special authority ignore slashes state 1"),
        times(12, "authority state 3"),
        one("authority state 2.2"),
        times(6, "host state 4.3"),
        one("host state 2.5"),
        times(5, "port state 1"),
        one("port state 2.1.2"),
    ]);
    assert_eq!(decided(&trace), expected);
    let expected_rows = [
        "0",
        "1",
        "2",
        "3 scheme ×3  buffer ← ttp",
        "6",
        "7",
        "8",
        "9 authority ×12  buffer ← ex.com:99999",
        "21",
        "22 host ×6  buffer ← ex.com",
        "28",
        "29 port ×5  buffer ← 99999",
        "34",
    ];
    assert_eq!(rows(&trace), expected_rows);
}
