//! Linear time on hostile input: nanoseconds per input byte from 1 KB to 10 MB for the shapes
//! attackers use, through the untraced parse, the traced parse, and the report with the host
//! analysis. A quadratic step shows as a per-byte cost growing with the size.
//! `cargo bench --bench hostile` (`-- --quick` stops at 1 MB).

use std::time::Duration;

use urlscope::trace::Recorder;
use urlscope::url::UrlRecord;
use urlscope::{Report, Url};

mod support;
use support::best;

/// A name, and how to make an input of about `n` bytes of that shape.
type Shape = (&'static str, fn(usize) -> String);

const SHAPES: [Shape; 9] = [
    ("../ segments", |n| {
        format!("https://h/{}", "../".repeat(n / 3))
    }),
    ("./ segments", |n| {
        format!("https://h/{}", "./".repeat(n / 2))
    }),
    ("path segments", |n| {
        format!("https://h/{}", "a/".repeat(n / 2))
    }),
    ("% signs", |n| format!("https://h/{}", "%".repeat(n))),
    ("host labels", |n| {
        format!("https://{}com/", "a.".repeat(n / 2))
    }),
    ("IDN host labels", |n| {
        format!("https://{}com/", "é.".repeat(n / 3))
    }),
    ("IPv4 number", |n| format!("https://0x{}/", "f".repeat(n))),
    ("IPv6-like", |n| {
        format!("https://[{}]/", "1:".repeat(n / 2))
    }),
    ("query &", |n| {
        format!("https://h/?{}", "a=b&".repeat(n / 4))
    }),
];

fn main() {
    let quick = std::env::args().any(|a| a == "--quick");
    let sizes: &[usize] = if quick {
        &[1 << 10, 100 << 10, 1 << 20]
    } else {
        &[1 << 10, 100 << 10, 1 << 20, 10 << 20]
    };
    println!(
        "{:<16} {:>10} {:>14} {:>14} {:>14}",
        "shape", "bytes", "parse ns/B", "traced ns/B", "report ns/B"
    );
    for (name, make) in SHAPES {
        for &size in sizes {
            let input = make(size);
            let runs = if size > 2 << 20 { 2 } else { 5 };
            let per_byte = |d: Duration| d.as_secs_f64() * 1e9 / input.len() as f64;
            let parse = best(runs, || Url::parse(&input, None).map(|u| u.href().len()));
            let traced = best(runs, || {
                let mut recorder = Recorder::new();
                let url = Url::parse_with(&input, None, encoding_rs::UTF_8, &mut recorder);
                (
                    url.is_ok(),
                    recorder.finish(&input, UrlRecord::default()).len(),
                )
            });
            // The inspector's report: traced parse, errors, host analysis.
            let report = best(runs, || Report::new(&input, None).host_analysis.is_some());
            println!(
                "{:<16} {:>10} {:>14.1} {:>14.1} {:>14.1}",
                name,
                input.len(),
                per_byte(parse),
                per_byte(traced),
                per_byte(report)
            );
        }
    }
}
