//! The parser differential's cost. Run with `cargo bench --bench diff`.
//!
//! 1. Each built-in parser, and all five together, on a 100-byte URL: what the inspector adds
//!    to a keystroke (the built-ins answer synchronously).
//! 2. `Lab::read` over 1,000 URLs with every parser, external runtimes included: the first
//!    1,000 of `kasztp.txt` and the confusion corpus repeated to 1,000, after the adapters
//!    have started (their start-up is reported on its own).
//!
//! `-- --quick` skips the 1,000-URL runs.

use std::hint::black_box;
use std::time::{Duration, Instant};

use urlscope::diff::{Builtin, Delivery, Lab, Timeouts};

fn per_call(mut f: impl FnMut()) -> Duration {
    let runs = 2_000u32;
    let mut best = Duration::MAX;
    for _ in 0..5 {
        let start = Instant::now();
        for _ in 0..runs {
            f();
        }
        best = best.min(start.elapsed() / runs);
    }
    best
}

fn corpus_inputs() -> Vec<String> {
    let text = include_str!("../tests/data/diff_corpus.jsonl");
    text.lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter_map(|v| v.get("input").and_then(|i| i.as_str()).map(str::to_owned))
        .collect()
}

fn web_urls() -> Option<Vec<String>> {
    let dir = std::env::var("URLSCOPE_BENCH_DIR").unwrap_or_else(|_| "../shared/bench".into());
    let text = std::fs::read_to_string(format!("{dir}/kasztp.txt")).ok()?;
    Some(text.lines().take(1_000).map(str::to_owned).collect())
}

fn main() {
    let quick = std::env::args().any(|a| a == "--quick");
    // A 100-byte URL with userinfo, port, path, query and fragment.
    let input = "https://user:pw@www.example.com:8443/a/b/c/index.html?query=value&other=12345#fragment-part-01234567";
    assert_eq!(input.len(), 100);
    println!(
        "built-in parsers on a {}-byte URL (best of 5 × 2,000):",
        input.len()
    );
    let mut total = Duration::ZERO;
    for builtin in Builtin::ALL {
        let t = per_call(|| {
            black_box(builtin.read(black_box(input), None));
        });
        total += t;
        println!("  {:<10} {:>8.2} µs", builtin.name(), t.as_secs_f64() * 1e6);
    }
    let lab = Lab::new(
        Some(&Builtin::ALL.map(|b| b.name().to_owned())),
        Vec::new(),
        Timeouts::default(),
        Delivery::Every,
    )
    .expect("the built-in parsers");
    let all = per_call(|| {
        black_box(lab.read_builtins(black_box(input), None));
    });
    println!(
        "  all five (Lab::read_builtins) {:>8.2} µs (sum of the above {:.2} µs)",
        all.as_secs_f64() * 1e6,
        total.as_secs_f64() * 1e6
    );
    if quick {
        return;
    }

    let mut lab =
        Lab::new(None, Vec::new(), Timeouts::default(), Delivery::Every).expect("the parsers");
    let start = Instant::now();
    let first = lab.read("https://example.com/", None);
    println!(
        "\nstarting every adapter (first input): {:.2} s",
        start.elapsed().as_secs_f64()
    );
    for (name, answer) in &first.parsers {
        if !answer.available {
            println!(
                "  {name} unavailable: {}",
                answer.error.as_deref().unwrap_or("")
            );
        }
    }
    let confusions: Vec<String> = corpus_inputs().into_iter().cycle().take(1_000).collect();
    let mut sets = vec![("confusion corpus, repeated to 1,000", confusions)];
    if let Some(web) = web_urls() {
        sets.push(("kasztp.txt, first 1,000", web));
    }
    for (name, inputs) in sets {
        let start = Instant::now();
        let mut elsewhere = 0;
        let mut refused = 0;
        for input in &inputs {
            match lab.read(input, None).verdict() {
                urlscope::diff::Verdict::Elsewhere => elsewhere += 1,
                urlscope::diff::Verdict::Refused => refused += 1,
                _ => {}
            }
        }
        let elapsed = start.elapsed();
        println!(
            "{name}: {} inputs × {} parsers in {:.2} s ({:.0} µs per input; {elsewhere} go elsewhere, {refused} refused)",
            inputs.len(),
            first.parsers.len(),
            elapsed.as_secs_f64(),
            elapsed.as_secs_f64() * 1e6 / inputs.len() as f64
        );
    }
}
