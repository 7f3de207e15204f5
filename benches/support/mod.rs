//! What the hand-timed benches share (a directory module, so cargo does not take it for a
//! bench of its own).

use std::hint::black_box;
use std::time::{Duration, Instant};

/// The best of `runs` timings of `f`: the machine is shared and noisy, and the minimum is the
/// run least disturbed by it.
pub fn best<R>(runs: usize, mut f: impl FnMut() -> R) -> Duration {
    (0..runs)
        .map(|_| {
            let start = Instant::now();
            black_box(f());
            start.elapsed()
        })
        .min()
        .unwrap_or_default()
}
