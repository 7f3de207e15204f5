//! One interactive frame: a keystroke re-parses (with the trace) and redraws the whole screen
//! on a 120x40 TestBackend. Run with `cargo bench --bench frame`. The 1 MB input is the longest
//! the inspector traces; the 4 MB one is parsed without the trace.

use std::hint::black_box;
use std::time::{Duration, Instant};

use urlscope::tui::action::Action;
use urlscope::tui::app::App;
use urlscope::tui::snapshot;
use urlscope::tui::theme::Theme;

fn main() {
    let theme = Theme { color: true };
    // Room for the URL's head and the keystroke under the trace limit.
    let sizes = [100usize, 10 << 10, urlscope::MAX_TRACED_INPUT - 64, 4 << 20];
    println!("{:>10} {:>12} {:>12}", "input", "keystroke", "per byte");
    for size in sizes {
        let input = format!("https://example.com/{}", "a/b?c=d&".repeat(size / 8));
        let mut app = App::new(&input, "");
        let runs = if size > 100_000 { 5 } else { 50 };
        let mut best = Duration::MAX;
        for i in 0..runs {
            let start = Instant::now();
            // A keystroke at the end of the input: edit, re-parse, redraw.
            app.apply(if i % 2 == 0 {
                Action::Insert("x".into())
            } else {
                Action::Backspace
            });
            black_box(snapshot::render(&mut app, 120, 40, &theme));
            best = best.min(start.elapsed());
        }
        println!(
            "{:>10} {:>10.3}ms {:>10.1}ns",
            input.len(),
            best.as_secs_f64() * 1e3,
            best.as_secs_f64() * 1e9 / input.len() as f64
        );
    }
}
