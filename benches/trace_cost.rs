//! The cost of a traced parse on large inputs: time per byte and trace memory per byte, next to
//! the untraced parse. Run with `cargo bench --bench trace_cost`.

use std::time::Duration;

use urlscope::trace::{NoTrace, Recorder};
use urlscope::Url;

mod support;
use support::best;

/// Runs of each timing; the best is kept.
const RUNS: usize = 5;

/// A name, and how to make an input of about n bytes of that shape.
type Shape = (&'static str, fn(usize) -> String);

fn main() {
    let mb = 1 << 20;
    let inputs = [
        (
            "path segments",
            format!("https://example.com/{}", "seg/".repeat(mb / 4)),
        ),
        (
            "query",
            format!("https://example.com/?{}", "a=b&".repeat(mb / 4)),
        ),
        (
            "fragment",
            format!("https://example.com/#{}", "x".repeat(mb)),
        ),
        ("long host", format!("https://{}.com/", "a.".repeat(mb / 2))),
        (
            "dot segments",
            format!("https://example.com/{}", "a/../".repeat(mb / 5)),
        ),
    ];
    println!(
        "{:<14} {:>10} {:>12} {:>12} {:>8} {:>12} {:>10}",
        "input", "bytes", "untraced", "traced", "ratio", "trace heap", "heap/B"
    );
    for (name, input) in &inputs {
        let untraced = best(RUNS, || {
            Url::parse_with(input, None, encoding_rs::UTF_8, &mut NoTrace).map(|u| u.href().len())
        });
        let mut heap = 0;
        let traced = best(RUNS, || {
            let mut recorder = Recorder::new();
            let result = Url::parse_with(input, None, encoding_rs::UTF_8, &mut recorder);
            let trace = recorder.finish(input, Default::default());
            heap = trace.heap_bytes();
            (result.is_ok(), trace.len())
        });
        println!(
            "{:<14} {:>10} {:>10.2}ms {:>10.2}ms {:>7.1}x {:>10.1}MB {:>10.1}",
            name,
            input.len(),
            untraced.as_secs_f64() * 1e3,
            traced.as_secs_f64() * 1e3,
            traced.as_secs_f64() / untraced.as_secs_f64(),
            heap as f64 / 1e6,
            heap as f64 / input.len() as f64,
        );
    }

    // Linearity: the same shapes from 1 KB to 10 MB, in nanoseconds per input byte.
    println!();
    println!(
        "{:<14} {:>10} {:>16} {:>16} {:>16}",
        "input", "bytes", "untraced ns/B", "traced ns/B", "trace heap/B"
    );
    let shapes: [Shape; 3] = [
        ("path segments", |n| {
            format!("https://example.com/{}", "seg/".repeat(n / 4))
        }),
        ("query", |n| {
            format!("https://example.com/?{}", "a=b&".repeat(n / 4))
        }),
        ("dot segments", |n| {
            format!("https://example.com/{}", "a/../".repeat(n / 5))
        }),
    ];
    for (name, make) in shapes {
        for size in [1 << 10, 100 << 10, 1 << 20, 10 << 20] {
            let input = make(size);
            let untraced = best(RUNS, || {
                Url::parse_with(&input, None, encoding_rs::UTF_8, &mut NoTrace)
                    .map(|u| u.href().len())
            });
            let mut heap = 0;
            let traced = best(RUNS, || {
                let mut recorder = Recorder::new();
                let result = Url::parse_with(&input, None, encoding_rs::UTF_8, &mut recorder);
                let trace = recorder.finish(&input, Default::default());
                heap = trace.heap_bytes();
                (result.is_ok(), trace.len())
            });
            let per_byte = |d: Duration| d.as_secs_f64() * 1e9 / input.len() as f64;
            println!(
                "{:<14} {:>10} {:>16.1} {:>16.1} {:>16.1}",
                name,
                input.len(),
                per_byte(untraced),
                per_byte(traced),
                heap as f64 / input.len() as f64,
            );
        }
    }
}
