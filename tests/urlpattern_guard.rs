//! The catastrophic-pattern guard's threads: a match past its time limit leaves its search
//! running on its own thread (regress cannot be stopped), and the guard bounds those threads.
//! Counted in /proc/self/task. One test function: the bound is per process, and the steps
//! depend on each other.

use std::time::{Duration, Instant};
use urlscope::urlpattern::component::{abandoned_searches, MAX_ABANDONED};
use urlscope::urlpattern::{
    ComponentName, Error, UrlPattern, UrlPatternInit, UrlPatternInput, UrlPatternOptions,
};

const LIMIT: Duration = Duration::from_millis(50);

fn threads() -> usize {
    std::fs::read_dir("/proc/self/task")
        .expect("/proc/self/task")
        .count()
}

/// The thread count once it has settled at or below `at_most` (a finished search's thread
/// takes a moment to exit), or the count after `wait`.
fn threads_settled(at_most: usize, wait: Duration) -> usize {
    let start = Instant::now();
    loop {
        let n = threads();
        if n <= at_most || start.elapsed() > wait {
            return n;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
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

fn run(pattern: &UrlPattern, pathname: String) -> (Result<bool, Error>, Duration) {
    let input = UrlPatternInput::Init(UrlPatternInit {
        pathname: Some(pathname),
        ..UrlPatternInit::default()
    });
    let start = Instant::now();
    let result = pattern.test(&input, None);
    (result, start.elapsed())
}

fn a_run(n: usize) -> String {
    format!("{}!", "a".repeat(n))
}

#[test]
#[cfg(target_os = "linux")]
fn abandoned_searches_are_bounded_and_end() {
    assert_eq!(MAX_ABANDONED, 2, "the steps below fill the bound of two");
    let harmless = pathname_pattern("/books/:id");
    // Warm up: the first match starts nothing that stays.
    assert!(matches!(run(&harmless, "/books/1".into()).0, Ok(true)));
    let base = threads_settled(1, Duration::from_secs(1));

    // 1. A catastrophe that ends (2^18 paths: under a few seconds even in a debug build):
    //    the error at the limit, one thread running on, and gone once its search ends.
    let finite = pathname_pattern("(b+)+");
    let (result, took) = run(&finite, "b".repeat(18) + "!");
    assert!(
        matches!(result, Err(Error::MatchTimeLimit { .. })),
        "{result:?}"
    );
    assert!(took < LIMIT * 20, "{took:?}");
    assert_eq!(abandoned_searches(), 1);
    assert_eq!(threads(), base + 1, "one search runs on");
    //    The same regular expression is not started again while it runs, even on an input
    //    it would finish at once.
    let (result, took) = run(&finite, "bb".into());
    assert!(
        matches!(result, Err(Error::MatchStillRunning { .. })),
        "{result:?}"
    );
    assert!(took < LIMIT, "it fails at once: {took:?}");
    //    Another regular expression is matched as usual.
    assert!(matches!(run(&harmless, "/books/2".into()).0, Ok(true)));
    let start = Instant::now();
    while abandoned_searches() > 0 && start.elapsed() < Duration::from_secs(120) {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert_eq!(
        abandoned_searches(),
        0,
        "the search ended and gave its place back"
    );
    assert_eq!(threads_settled(base, Duration::from_secs(1)), base);
    assert!(matches!(run(&finite, "bb".into()).0, Ok(true)));

    // 2. Catastrophes that never end (2^64 paths): each new regular expression abandons one
    //    thread, up to the bound; past it nothing starts, so the count stays at the bound.
    let first = pathname_pattern("(a+)+");
    let second = pathname_pattern("(c+)+");
    let third = pathname_pattern("(d+)+");
    let (result, _) = run(&first, a_run(64));
    assert!(
        matches!(result, Err(Error::MatchTimeLimit { .. })),
        "{result:?}"
    );
    let (result, _) = run(&first, a_run(64));
    assert!(
        matches!(result, Err(Error::MatchStillRunning { .. })),
        "{result:?}"
    );
    let (result, _) = run(&second, "c".repeat(64) + "!");
    assert!(
        matches!(result, Err(Error::MatchTimeLimit { .. })),
        "{result:?}"
    );
    assert_eq!(abandoned_searches(), MAX_ABANDONED);
    assert_eq!(threads_settled(base + 2, Duration::from_secs(1)), base + 2);
    for pattern in [&harmless, &first, &third] {
        let (result, took) = run(pattern, "d".repeat(64) + "!");
        assert!(
            matches!(result, Err(Error::MatcherBusy { running: 2 })),
            "{result:?}"
        );
        assert!(took < LIMIT, "it fails at once: {took:?}");
    }
    assert_eq!(threads_settled(base + 2, Duration::from_secs(1)), base + 2);
    //    A pattern still constructs: the constructor's own searches are never refused.
    let constructed = pathname_pattern("/(e+)+");
    assert_eq!(
        constructed.pattern_string(ComponentName::Pathname),
        "/(e+)+"
    );
    println!(
        "threads: {base} at rest, {} with {MAX_ABANDONED} searches abandoned after {} \
         catastrophic and 3 refused matches",
        threads(),
        MAX_ABANDONED + 1
    );
}
