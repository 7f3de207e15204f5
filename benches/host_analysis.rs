//! The host analysis of one parsed URL (findings, labels, display decision), on a prepared
//! report. Run with `cargo bench --bench host_analysis`; a further argument keeps only the cases
//! whose name contains it (`cargo bench --bench host_analysis -- ASCII`), for profiling one.

use std::hint::black_box;
use std::time::Instant;

use urlscope::inspect::analyse;
use urlscope::Report;

fn main() {
    // The well-known list is indexed on first use; do that outside the measurement.
    let _ = analyse(&Report::new("https://example.com/", None).subject());
    // Cargo passes `--bench` to a harness-less bench; only the other arguments filter.
    let filter: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    for (name, input) in [
        ("ASCII host", "https://www.example.com/path?q=1"),
        ("IDN, 4 labels", "https://mail.bücher.例え.jp/"),
        ("homograph", "https://аррӏе.com/login"),
        ("IPv4 trick", "http://0x7f.1/"),
        // The built-in parsers run: a backslash in the authority.
        ("differential", "http://example.com\\@evil.com/"),
    ] {
        if !filter.is_empty() && !filter.iter().any(|f| name.contains(f.as_str())) {
            continue;
        }
        let report = Report::new(input, None);
        let subject = report.subject();
        let runs = 20_000;
        let mut best = f64::MAX;
        for _ in 0..5 {
            let start = Instant::now();
            for _ in 0..runs {
                black_box(analyse(black_box(&subject)));
            }
            best = best.min(start.elapsed().as_secs_f64() / f64::from(runs));
        }
        println!("{name:<14} {:>8.2} µs per analysis", best * 1e6);
    }
}
