//! The cost of a traced parse on large inputs: time per byte and trace memory per byte, next to
//! the untraced parse; then the memory of the largest input the inspector traces, walked end to
//! end. Run with `cargo bench --bench trace_cost` (`-- --quick` skips the 10 MB sizes and the
//! largest input).

use std::time::Duration;

use urlscope::trace::{NoTrace, Recorder};
use urlscope::Url;

mod support;
use support::best;

/// Runs of each timing; the best is kept.
const RUNS: usize = 5;

/// A name, and how to make an input of about n bytes of that shape.
type Shape = (&'static str, fn(usize) -> String);

/// A line of `/proc/self/status` in kB (Linux), as bytes.
fn status(key: &str) -> Option<usize> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with(key))?;
    let kb: usize = line[key.len()..]
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .ok()?;
    Some(kb << 10)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if let Some(i) = args.iter().position(|a| a == "--largest") {
        return largest(args[i + 1].parse().expect("a shape"));
    }
    let quick = args.iter().any(|a| a == "--quick");
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
        "{:<14} {:>10} {:>12} {:>12} {:>8} {:>12} {:>10} {:>10}",
        "input", "bytes", "untraced", "traced", "ratio", "trace heap", "heap/B", "walk/B"
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
        // What a cursor holds at the end of the trace (the buffer, the record, and what it
        // keeps to go back): step mode's memory on top of the trace's.
        let mut recorder = Recorder::new();
        let _ = Url::parse_with(input, None, encoding_rs::UTF_8, &mut recorder);
        let trace = recorder.finish(input, Default::default());
        let mut cursor = trace.cursor();
        cursor.seek(trace.len() - 1);
        let walk = cursor.heap_bytes();
        println!(
            "{:<14} {:>10} {:>10.2}ms {:>10.2}ms {:>7.1}x {:>10.1}MB {:>10.1} {:>10.1}",
            name,
            input.len(),
            untraced.as_secs_f64() * 1e3,
            traced.as_secs_f64() * 1e3,
            traced.as_secs_f64() / untraced.as_secs_f64(),
            heap as f64 / 1e6,
            heap as f64 / input.len() as f64,
            walk as f64 / input.len() as f64,
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
            if quick && size > 1 << 20 {
                continue;
            }
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

    if quick {
        return;
    }
    // The largest input the inspector traces: the trace's heap, a cursor walked to the end and
    // back step by step (as step mode moves), and the peak resident memory (VmHWM) of a process
    // that parses the input with the trace (the URL, its record and the trace) and walks it:
    // each shape in a process of its own, so that one's freed memory is not another's.
    println!();
    println!(
        "{:<14} {:>10} {:>12} {:>12} {:>12} {:>10}",
        "input", "bytes", "trace heap", "walk heap", "peak RSS", "walk"
    );
    for shape in 0..LARGEST.len() {
        let exe = std::env::current_exe().expect("the bench's path");
        let status = std::process::Command::new(exe)
            .args(["--largest", &shape.to_string()])
            .status()
            .expect("the bench runs itself");
        assert!(status.success());
    }
}

/// The shapes of the largest traced input.
const LARGEST: [Shape; 5] = [
    ("path segments", |n| {
        format!("https://example.com/{}", "seg/".repeat(n / 4))
    }),
    ("query", |n| {
        format!("https://example.com/?{}", "a=b&".repeat(n / 4))
    }),
    ("fragment", |n| {
        format!("https://example.com/#{}", "x".repeat(n))
    }),
    ("long host", |n| {
        format!("https://{}.com/", "a.".repeat(n / 2))
    }),
    ("dot segments", |n| {
        format!("https://example.com/{}", "a/../".repeat(n / 5))
    }),
];

/// One line of the largest input's table, for shape `shape` of [`LARGEST`].
fn largest(shape: usize) {
    let (name, make) = LARGEST[shape];
    let input = make(urlscope::MAX_TRACED_INPUT - 64);
    let mut recorder = Recorder::new();
    let result = Url::parse_with(&input, None, encoding_rs::UTF_8, &mut recorder);
    let trace = recorder.finish(&input, Default::default());
    let start = std::time::Instant::now();
    let mut cursor = trace.cursor();
    let mut walk = 0;
    for i in (0..trace.len()).chain((0..trace.len()).rev()) {
        cursor.seek(i);
        // Sampled: the record's size is counted segment by segment.
        if i % (1 << 16) == 0 || i + 1 == trace.len() {
            walk = walk.max(cursor.heap_bytes());
        }
    }
    let elapsed = start.elapsed();
    let peak = status("VmHWM:").unwrap_or(0);
    println!(
        "{:<14} {:>10} {:>10.1}MB {:>10.1}MB {:>10.1}MB {:>8.2}s",
        name,
        input.len(),
        trace.heap_bytes() as f64 / 1e6,
        walk as f64 / 1e6,
        peak as f64 / 1e6,
        elapsed.as_secs_f64(),
    );
    drop(result);
}
