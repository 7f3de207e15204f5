//! Linear time on hostile input: nanoseconds per input byte from 1 KB to 10 MB for the shapes
//! attackers use, through the untraced parse, the traced parse, and the report with the host
//! analysis. A quadratic step shows as a per-byte cost growing with the size.
//! Then, from 1 KB to 1 MB, what a trace costs to look at: `urlscope trace` (text) and
//! `urlscope trace --json` run as a process on standard input, with their output bytes per
//! input byte, and walking every step of the trace as the inspector's step mode does.
//! Then the explained and collapsed trace, 1 KB to 1 MB: `urlscope trace --explain` and
//! `urlscope trace --collapse` as processes, and in process every step's explanation and the
//! collapsed rows.
//! Then URL patterns of many groups, `https://e.com/:a0/:a1/…`, from 200 to 12,800 groups:
//! the report `urlscope pattern` builds (constructor, match, the explanation of a failure and
//! the second reading), against an input that matches and one that stops half-way, in
//! microseconds per group; and a pattern of a long hostname and a long pathname, per byte.
//! The explanation once compiled a regular expression for every prefix of the parts, and the
//! second reading's `regex` crate kept every group's slot in every state: both quadratic.
//! `cargo bench --bench hostile` (`-- --quick` stops at 1 MB; `-- --trace` runs only the
//! trace part, `-- --explain` only the explained and collapsed part, `-- --pattern` only the
//! URL patterns).

use std::io::{Read, Write};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use urlscope::trace::Recorder;
use urlscope::url::UrlRecord;
use urlscope::urlpattern::{PatternReport, DEFAULT_MATCH_TIME_LIMIT};
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

/// Shapes whose trace carries a long buffer (a query or a host read to its end, a long
/// scheme) or many steps that each edit the record.
const TRACE_SHAPES: [Shape; 4] = [
    ("query", |n| format!("https://h/?{}", "q".repeat(n))),
    ("host", |n| format!("https://{}/", "a".repeat(n))),
    ("path segments", |n| {
        format!("https://h/{}", "a/".repeat(n / 2))
    }),
    ("userinfo @", |n| {
        format!("https://{}h/", "u@".repeat(n / 2))
    }),
];

/// Runs the command line on `input` (one line on standard input); its time and the bytes it
/// wrote.
fn run_cli(args: &[&str], input: &str) -> (Duration, usize) {
    let start = Instant::now();
    let mut child = Command::new(env!("CARGO_BIN_EXE_urlscope"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("run urlscope");
    let mut stdin = child.stdin.take().expect("stdin");
    let line = format!("{input}\n");
    let writer = std::thread::spawn(move || stdin.write_all(line.as_bytes()));
    let mut stdout = child.stdout.take().expect("stdout");
    let mut chunk = vec![0; 1 << 16];
    let mut bytes = 0;
    loop {
        match stdout.read(&mut chunk) {
            Ok(0) => break,
            Ok(n) => bytes += n,
            Err(e) => panic!("reading urlscope's output: {e}"),
        }
    }
    let _ = writer.join();
    assert!(child.wait().expect("urlscope exits").success());
    (start.elapsed(), bytes)
}

fn trace_part() {
    println!(
        "\n{:<16} {:>10} {:>12} {:>10} {:>12} {:>10} {:>12} {:>12}",
        "shape",
        "bytes",
        "text ns/B",
        "text B/B",
        "json ns/B",
        "json B/B",
        "walk ns/B",
        "report ns/B"
    );
    for (name, make) in TRACE_SHAPES {
        for size in [1 << 10, 10 << 10, 100 << 10, 1 << 20] {
            let input = make(size);
            let runs = match size {
                s if s >= 1 << 20 => 1,
                s if s >= 100 << 10 => 2,
                _ => 3,
            };
            let per_byte = |d: Duration| d.as_secs_f64() * 1e9 / input.len() as f64;
            let mut text = (Duration::MAX, 0);
            let mut json = (Duration::MAX, 0);
            for _ in 0..runs {
                let t = run_cli(&["trace", "-"], &input);
                text = (text.0.min(t.0), t.1);
                let j = run_cli(&["trace", "--json", "-"], &input);
                json = (json.0.min(j.0), j.1);
            }
            // Step mode: every step's record and buffer, and the Trace pane's window of rows
            // around it.
            let report = Report::new(&input, None);
            let trace = report.trace.as_ref().expect("a trace");
            let walk = best(runs, || {
                let mut cursor = trace.cursor();
                let mut seen = 0;
                for step in 0..trace.len() {
                    cursor.seek(step);
                    seen += cursor.buffer().len() + cursor.record().scheme.len();
                    trace.for_each_in(step.saturating_sub(10)..step + 10, |view, buffer| {
                        seen += view.index + buffer.len();
                    });
                }
                seen
            });
            let build = best(runs, || {
                Report::for_inspector(&input, None).trace.map(|t| t.len())
            });
            println!(
                "{:<16} {:>10} {:>12.1} {:>10.1} {:>12.1} {:>10.1} {:>12.1} {:>12.1}",
                name,
                input.len(),
                per_byte(text.0),
                text.1 as f64 / input.len() as f64,
                per_byte(json.0),
                json.1 as f64 / input.len() as f64,
                per_byte(walk),
                per_byte(build),
            );
        }
    }
}

fn explain_part() {
    println!(
        "\n{:<16} {:>10} {:>13} {:>11} {:>14} {:>12} {:>14}",
        "shape",
        "bytes",
        "explain ns/B",
        "explain B/B",
        "collapse ns/B",
        "rows ns/B",
        "explained ns/B"
    );
    for (name, make) in TRACE_SHAPES {
        for size in [1 << 10, 10 << 10, 100 << 10, 1 << 20] {
            let input = make(size);
            let runs = if size >= 1 << 20 { 1 } else { 3 };
            let per_byte = |d: Duration| d.as_secs_f64() * 1e9 / input.len() as f64;
            let mut explain = (Duration::MAX, 0);
            let mut collapse = Duration::MAX;
            for _ in 0..runs {
                let e = run_cli(&["trace", "--explain", "-"], &input);
                explain = (explain.0.min(e.0), e.1);
                collapse = collapse.min(run_cli(&["trace", "--collapse", "-"], &input).0);
            }
            let report = Report::new(&input, None);
            let trace = report.trace.as_ref().expect("a trace");
            let rows = best(runs, || trace.rows().count());
            let explained = best(runs, || {
                let mut seen = 0;
                for index in 0..trace.len() {
                    let view = trace.view(index);
                    seen += view
                        .explained()
                        .map(|s| s.explanation.map_or(0, str::len))
                        .sum::<usize>();
                }
                seen
            });
            println!(
                "{:<16} {:>10} {:>13.1} {:>11.1} {:>14.1} {:>12.1} {:>14.1}",
                name,
                input.len(),
                per_byte(explain.0),
                explain.1 as f64 / input.len() as f64,
                per_byte(collapse),
                per_byte(rows),
                per_byte(explained),
            );
        }
    }
}

/// The report of `pattern` against `input`, as `urlscope pattern` builds it for one input.
fn pattern_report(pattern: &str, input: &str) -> PatternReport {
    PatternReport::build(
        pattern,
        None,
        false,
        Some(input),
        None,
        DEFAULT_MATCH_TIME_LIMIT,
    )
}

fn pattern_part() {
    println!(
        "\n{:<16} {:>8} {:>10} {:>14} {:>14}",
        "pattern", "groups", "bytes", "match µs/group", "half µs/group"
    );
    for groups in [200, 800, 1600, 6400, 12800] {
        let path: String = (0..groups).map(|i| format!("/:a{i}")).collect();
        let pattern = format!("https://e.com{path}");
        let matching = format!("https://e.com{}", "/x".repeat(groups));
        let half = format!("https://e.com{}", "/x".repeat(groups / 2));
        let runs = if groups >= 6400 { 2 } else { 5 };
        let per_group = |d: Duration| d.as_secs_f64() * 1e6 / groups as f64;
        let matched = best(runs, || pattern_report(&pattern, &matching));
        let stopped = best(runs, || pattern_report(&pattern, &half));
        println!(
            "{:<16} {:>8} {:>10} {:>14.2} {:>14.2}",
            "/:a0/:a1/…",
            groups,
            pattern.len(),
            per_group(matched),
            per_group(stopped)
        );
    }
    println!("\n{:<16} {:>10} {:>14}", "pattern", "bytes", "report ns/B");
    for size in [1 << 10, 10 << 10, 100 << 10] {
        // The constructor string parser's trace once copied the hostname at every token of
        // the pathname.
        let pattern = format!(
            "https://{}.com/{}",
            "a".repeat(size / 2),
            "b".repeat(size / 2)
        );
        let per_byte = |d: Duration| d.as_secs_f64() * 1e9 / pattern.len() as f64;
        let report = best(3, || pattern_report(&pattern, &pattern));
        println!(
            "{:<16} {:>10} {:>14.1}",
            "host + path",
            pattern.len(),
            per_byte(report)
        );
    }
}

fn main() {
    if std::env::args().any(|a| a == "--pattern") {
        pattern_part();
        return;
    }
    if std::env::args().any(|a| a == "--explain") {
        explain_part();
        return;
    }
    if std::env::args().any(|a| a == "--trace") {
        trace_part();
        return;
    }
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
    trace_part();
    explain_part();
    pattern_part();
}
