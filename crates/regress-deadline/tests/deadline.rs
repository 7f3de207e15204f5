//! The deadline this fork adds to regress (PATCHED.md): `with_deadline` stops a search at its
//! deadline and says so; a search that ends in time is unchanged; one search's deadline does
//! not outlive its call.

use std::time::{Duration, Instant};

use regress_deadline::{Regex, with_deadline};

/// `^(a+)+$` against n a's and a `!`: 2^n ways to split the a's, none of which matches.
fn catastrophe(n: usize) -> (Regex, String) {
    let regexp = Regex::with_flags("^(a+)+$", "v").expect("compiles");
    (regexp, format!("{}!", "a".repeat(n)))
}

#[test]
fn a_catastrophic_search_is_cut_at_the_deadline() {
    let (regexp, input) = catastrophe(64);
    let limit = Duration::from_millis(30);
    let start = Instant::now();
    let (found, cut) = with_deadline(start + limit, || regexp.find(&input));
    let took = start.elapsed();
    assert!(found.is_none());
    assert!(cut, "the search was cut, not finished");
    assert!(took >= limit, "{took:?}");
    assert!(took < limit + Duration::from_secs(2), "{took:?}");
}

#[test]
fn a_search_unanchored_at_the_start_is_cut_at_every_start_position() {
    // Without `^` the search tries every start position; each would take 2^(64-k) paths.
    let regexp = Regex::with_flags("(a+)+$", "v").expect("compiles");
    let input = format!("{}!", "a".repeat(64));
    let start = Instant::now();
    let (found, cut) = with_deadline(start + Duration::from_millis(30), || regexp.find(&input));
    assert!(found.is_none());
    assert!(cut);
    assert!(start.elapsed() < Duration::from_secs(2));
}

#[test]
fn a_search_whose_steps_each_scan_the_input_is_cut_too() {
    // Each turn of the loop runs the lookahead's `.*` over the rest of the input: n^2/2
    // characters in about 4n steps. Counted by steps alone, 65,536 steps between two reads
    // of the clock would be minutes of scanning; the run's characters count too.
    let regexp = Regex::with_flags("^(?:(?=.*)a)*b", "v").expect("compiles");
    let input = "a".repeat(100_000);
    let limit = Duration::from_millis(30);
    let start = Instant::now();
    let (found, cut) = with_deadline(start + limit, || regexp.find(&input));
    let took = start.elapsed();
    assert!(found.is_none());
    assert!(cut);
    assert!(took < limit + Duration::from_secs(2), "{took:?}");
}

#[test]
fn a_search_that_ends_in_time_is_unchanged() {
    let regexp = Regex::with_flags(r"^\/books(?:\/([^\/]+?))$", "v").expect("compiles");
    let far = Instant::now() + Duration::from_secs(60);
    let (found, cut) = with_deadline(far, || regexp.find("/books/12"));
    assert!(!cut);
    let found = found.expect("a match");
    assert_eq!(found.range(), 0..9);
    assert_eq!(found.group(1), Some(7..9));
    let (found, cut) = with_deadline(far, || regexp.find("/films/12"));
    assert!(found.is_none());
    assert!(!cut, "no match, and not cut");
    // A catastrophe small enough to end (2^12 paths) ends with the same answer as without
    // a deadline.
    let (regexp, input) = catastrophe(12);
    let (found, cut) = with_deadline(far, || regexp.find(&input));
    assert!(found.is_none());
    assert!(!cut);
    assert!(regexp.find(&"a".repeat(12)).is_some());
}

#[test]
fn a_deadline_does_not_leak_into_the_next_search() {
    let (regexp, input) = catastrophe(64);
    let passed = Instant::now();
    let (_, cut) = with_deadline(passed, || regexp.find(&input));
    assert!(cut);
    // After the call, the thread has no deadline: a search that tries 2^18 paths before it
    // matches finds its match (under the deadline that passed, it would be cut within 65,536
    // steps and find none).
    let slow_match = Regex::with_flags("^(?:(a+)+b|a+)$", "v").expect("compiles");
    assert!(slow_match.find(&"a".repeat(18)).is_some());
    let (small, small_input) = catastrophe(16);
    // A new call has its own deadline and its own flag.
    let far = Instant::now() + Duration::from_secs(60);
    let (found, cut) = with_deadline(far, || small.find(&"a".repeat(16)));
    assert!(found.is_some());
    assert!(!cut, "the earlier cut is not reported again");
    let (found, cut) = with_deadline(far, || small.find(&small_input));
    assert!(found.is_none());
    assert!(!cut);
}

#[test]
fn a_nested_deadline_keeps_the_earlier_one() {
    let (regexp, input) = catastrophe(64);
    let start = Instant::now();
    let ((inner_cut, after), outer_cut) = with_deadline(start + Duration::from_millis(30), || {
        let (_, inner_cut) =
            with_deadline(start + Duration::from_secs(3600), || regexp.find(&input));
        // The outer deadline has passed: the next search is cut too.
        let (after, _) = catastrophe(64);
        (inner_cut, after.find(&input).is_none())
    });
    assert!(
        inner_cut,
        "cut by the outer deadline, well before the inner one"
    );
    assert!(after);
    assert!(outer_cut);
    assert!(start.elapsed() < Duration::from_secs(4));
}
