//! The page's part of a keystroke in the engine, natively: `screen()` (the traced report, the
//! page's model and its JSON) for the URLs `scripts/bench-web` types, a code point at a time up
//! to 2 KB, split into the report, the model and the JSON. The browser's figure
//! (`scripts/bench-web`) adds WebAssembly's cost and the DOM; this one says which of the
//! engine's parts to look at. Run with `cargo bench -p urlscope-web --bench screen`.

use std::hint::black_box;
use std::time::{Duration, Instant};

use urlscope_web::model::{self, Page};

fn main() {
    // The benchmark's URL in tests/web/bench.mjs.
    let target = format!(
        "https://user:pw@www.example.com:8080/{}?q={}#frag",
        "path/segment/".repeat(150),
        "x".repeat(40)
    );
    // `slice(0, n)` in the page's benchmark: the URL is 2,035 bytes, all ASCII.
    let prefix = |n: usize| &target[..n.min(target.len())];
    println!(
        "{:>6} {:>10} {:>10} {:>10} {:>10}",
        "bytes", "screen", "report", "model", "json"
    );
    for length in [40usize, 200, 600, 1200, 2048] {
        let texts: Vec<&str> = (0..40).map(|i| prefix(length - 40 + i)).collect();
        let mut split = [Duration::ZERO; 3];
        let started = Instant::now();
        let rounds = 20;
        for _ in 0..rounds {
            for text in &texts {
                black_box(urlscope_web::screen(text, None, 0));
            }
        }
        let screen = started.elapsed() / (rounds * texts.len() as u32);
        for _ in 0..rounds {
            for text in &texts {
                let t = Instant::now();
                let report = model::report(text, None);
                split[0] += t.elapsed();
                let t = Instant::now();
                let page = Page::of(&report);
                split[1] += t.elapsed();
                let t = Instant::now();
                black_box(serde_json::to_string(&page).unwrap());
                split[2] += t.elapsed();
            }
        }
        let per = |d: Duration| {
            format!(
                "{:.3} ms",
                d.as_secs_f64() * 1e3 / f64::from(rounds * texts.len() as u32)
            )
        };
        println!(
            "{length:>6} {:>10} {:>10} {:>10} {:>10}",
            format!("{:.3} ms", screen.as_secs_f64() * 1e3),
            per(split[0]),
            per(split[1]),
            per(split[2]),
        );
    }
    long_inputs();
}

/// A 1 MB input: its report, the screen at the Trace's first step, the screen at its last
/// (End, the report kept from the first), and the Host view on a thread whose last report is
/// of another input (the page's thread, the screens being the Web Worker's).
fn long_inputs() {
    println!();
    println!(
        "{:>28} {:>10} {:>10} {:>10} {:>10}",
        "1 MB input", "report", "screen 0", "End", "Host"
    );
    let inputs = [
        (
            "path a/a/…",
            format!("https://example.com/{}", "a/".repeat(512 * 1024)),
        ),
        (
            "path aaa…",
            format!("https://example.com/{}", "a".repeat(1_000_000)),
        ),
        (
            "query q=…",
            format!("https://example.com/?q={}", "x".repeat(1_000_000)),
        ),
        ("host a.a.…", format!("https://{}/", "a.".repeat(500_000))),
        (
            "ipv6-ish [::…",
            format!("https://[{}]/", "1:".repeat(500_000)),
        ),
    ];
    for (name, input) in &inputs {
        let ms = |d: Duration| format!("{:.1} ms", d.as_secs_f64() * 1e3);
        let t = Instant::now();
        black_box(model::report(input, None));
        let report = t.elapsed();
        let t = Instant::now();
        black_box(urlscope_web::screen(input, None, 0));
        let first = t.elapsed();
        let t = Instant::now();
        black_box(urlscope_web::screen(input, None, usize::MAX));
        let end = t.elapsed();
        // The page's thread opens Host: its engine's last report is of another input (the
        // long input's screens are made in the Web Worker).
        black_box(urlscope_web::screen("https://example.com/", None, 0));
        let t = Instant::now();
        black_box(urlscope_web::host::view_host(input, None));
        let host = t.elapsed();
        println!(
            "{name:>28} {:>10} {:>10} {:>10} {:>10}",
            ms(report),
            ms(first),
            ms(end),
            ms(host)
        );
    }
}
