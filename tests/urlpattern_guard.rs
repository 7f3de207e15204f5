//! The catastrophic-pattern guard: a match past its time limit is stopped on the calling
//! thread, so it fails near the limit, leaves no thread and no work behind (counted in
//! /proc/self/task and /proc/self/stat on Linux; other systems have no /proc, and there only
//! the limits are checked), and the matches after it run at once. One test function: the
//! counts are per process, and libtest runs each test on a thread of its own.

use std::time::{Duration, Instant};
use urlscope::urlpattern::{
    ComponentName, Error, UrlPattern, UrlPatternInit, UrlPatternInput, UrlPatternOptions,
};

const LIMIT: Duration = Duration::from_millis(50);

/// A bound on when a stopped match returns, generous for a loaded machine and a debug build:
/// a match that ran on to its end would take far longer (2^33 paths and more).
const STOPPED_WITHIN: Duration = Duration::from_secs(2);

/// Whether this system counts a process's threads and CPU time in /proc (Linux's).
const COUNTED: bool = cfg!(target_os = "linux");

/// The process's threads, on Linux; `None` elsewhere.
fn threads() -> Option<usize> {
    COUNTED.then(|| {
        std::fs::read_dir("/proc/self/task")
            .expect("/proc/self/task")
            .count()
    })
}

/// The process's CPU time so far (user and system), in clock ticks: fields 14 and 15 of
/// /proc/self/stat, counted after the command name's closing parenthesis. On Linux; `None`
/// elsewhere.
fn cpu_ticks() -> Option<u64> {
    COUNTED.then(|| {
        let stat = std::fs::read_to_string("/proc/self/stat").expect("/proc/self/stat");
        let after_name = &stat[stat.rfind(')').expect("(comm)") + 2..];
        let fields: Vec<&str> = after_name.split_whitespace().collect();
        // Field 3 (state) is the first after the name: utime is field 14, stime field 15.
        fields[11].parse::<u64>().expect("utime") + fields[12].parse::<u64>().expect("stime")
    })
}

fn pattern(input: &str) -> UrlPattern {
    UrlPattern::new(
        &UrlPatternInput::String(input.to_owned()),
        None,
        UrlPatternOptions::default(),
    )
    .expect("compiles")
    .with_match_time_limit(LIMIT)
}

fn pathname_pattern(pathname: &str) -> UrlPattern {
    let init = UrlPatternInit {
        pathname: Some(pathname.to_owned()),
        ..UrlPatternInit::default()
    };
    UrlPattern::new(
        &UrlPatternInput::Init(init),
        None,
        UrlPatternOptions::default(),
    )
    .expect("compiles")
    .with_match_time_limit(LIMIT)
}

fn run(pattern: &UrlPattern, input: &str) -> (Result<bool, Error>, Duration) {
    let start = Instant::now();
    let result = pattern.test(&UrlPatternInput::String(input.to_owned()), None);
    (result, start.elapsed())
}

fn assert_stopped(result: &Result<bool, Error>, took: Duration) {
    assert_eq!(
        result,
        &Err(Error::MatchTimeLimit {
            component: ComponentName::Pathname,
            limit: LIMIT
        })
    );
    assert!(took >= LIMIT, "stopped at the limit, not before: {took:?}");
    assert!(took < LIMIT + STOPPED_WITHIN, "{took:?}");
}

#[test]
fn a_catastrophic_match_is_stopped_and_leaves_nothing_running() {
    let harmless = pathname_pattern("/books/:id");
    let (result, _) = run(&harmless, "https://example.com/books/1");
    assert_eq!(result, Ok(true));
    let base = threads();

    // The ReDoS of the inspector's Pattern view: 2^33 ways to split the a's before the b
    // that is not there.
    let redos = pattern("https://example.com/:x((?:a+)+b)");
    let long = format!("https://example.com/{}", "a".repeat(33));
    let (result, took) = run(&redos, &long);
    assert_stopped(&result, took);
    assert_eq!(
        result.expect_err("stopped").to_string(),
        "matching the pathname component took longer than 50 ms: the regular expression \
         backtracks catastrophically on this input"
    );
    assert_eq!(threads(), base, "the search ran on the calling thread");

    // Nothing runs on: the process spends no CPU time while it sleeps.
    let before = cpu_ticks();
    std::thread::sleep(Duration::from_millis(300));
    let spent = cpu_ticks()
        .zip(before)
        .map(|(after, before)| after - before);
    if let Some(spent) = spent {
        assert!(spent <= 5, "{spent} ticks spent in 300 ms of sleep");
    }

    // The matches after it run, with the same regular expression too (an input it
    // matches, and one it fails on at once), and another pattern.
    let (result, took) = run(&redos, "https://example.com/aaab");
    assert_eq!(result, Ok(true));
    assert!(took < STOPPED_WITHIN, "{took:?}");
    let (result, _) = run(&redos, "https://example.com/b");
    assert_eq!(result, Ok(false));
    let (result, _) = run(&harmless, "https://example.com/books/2");
    assert_eq!(result, Ok(true));

    // Every catastrophe is stopped in turn, none refused and none left running: in the
    // inspector, one per keystroke.
    for n in 34..40 {
        let (result, took) = run(&redos, &format!("https://example.com/{}", "a".repeat(n)));
        assert_stopped(&result, took);
        assert_eq!(threads(), base);
    }
    let (result, _) = run(&harmless, "https://example.com/books/3");
    assert_eq!(result, Ok(true));

    // A pattern still constructs after them (the constructor matches its protocol).
    let constructed = pathname_pattern("/(e+)+");
    assert_eq!(
        constructed.pattern_string(ComponentName::Pathname),
        "/(e+)+"
    );
    match (base, spent) {
        (Some(base), Some(spent)) => println!(
            "threads: {base} at rest and after 7 catastrophic matches; {spent} CPU ticks in \
             300 ms after the first"
        ),
        _ => println!("threads and CPU time not counted: this system has no /proc"),
    }
}
