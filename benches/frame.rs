//! One interactive frame: a keystroke re-parses (with the trace, under the trace limit) and
//! redraws the whole screen on a 120x40 TestBackend. Run with `cargo bench --bench frame`. The
//! inspector traces inputs up to `MAX_TRACED_INPUT` (1 MiB) and parses longer ones without the
//! trace, up to `MAX_INPUT` (16 MiB): the sizes take each side of the trace limit and end just
//! under the input limit, and the `traced` column says which parse each size got. The last
//! columns split a keystroke: the report, what the inspector derives from it once, and one draw.
//! The last lines give what the Parsers pane's built-in parsers add to a 100 B keystroke (the
//! same keystroke with no parser), to the edit alone and to the whole frame.

use std::hint::black_box;
use std::time::{Duration, Instant};

use urlscope::diff::{Delivery, Lab, Timeouts};
use urlscope::tui::action::Action;
use urlscope::tui::app::App;
use urlscope::tui::snapshot;
use urlscope::tui::theme::Theme;

fn main() {
    let theme = Theme { color: true };

    // The largest traced input leaves room for the URL's head and the keystroke under the trace
    // limit; the next is just over it; the last is the largest input the inspector takes.
    let sizes = [
        100usize,
        10 << 10,
        urlscope::MAX_TRACED_INPUT - 64,
        urlscope::MAX_TRACED_INPUT + 64,
        4 << 20,
        urlscope::MAX_INPUT - 64,
    ];
    println!(
        "{:>10} {:>7} {:>12} {:>12} {:>12} {:>12} {:>12}",
        "input", "traced", "keystroke", "per byte", "report", "derived", "draw"
    );
    for size in sizes {
        let input = format!("https://example.com/{}", "a/b?c=d&".repeat(size / 8));
        assert!(input.len() <= urlscope::MAX_INPUT, "{} bytes", input.len());
        let mut app = App::new(&input, "");
        let runs = if size > 100_000 { 5 } else { 50 };
        // The parts of a keystroke: the report, what is derived from it, one draw.
        let (mut report, mut derived, mut draw) = (Duration::MAX, Duration::MAX, Duration::MAX);
        let mut traced = false;
        for _ in 0..runs.min(10) {
            let start = Instant::now();
            let r = black_box(urlscope::Report::for_inspector(&input, None));
            report = report.min(start.elapsed());
            traced = r.trace.is_some();
            let start = Instant::now();
            black_box(urlscope::tui::derived::Derived::of(&r));
            derived = derived.min(start.elapsed());
            let start = Instant::now();
            black_box(snapshot::render(&mut app, 120, 40, &theme));
            draw = draw.min(start.elapsed());
        }
        let best = keystroke(&mut app, runs, &theme);
        let ms = |d: Duration| d.as_secs_f64() * 1e3;
        println!(
            "{:>10} {:>7} {:>10.3}ms {:>10.1}ns {:>10.3}ms {:>10.3}ms {:>10.3}ms",
            input.len(),
            if traced { "yes" } else { "no" },
            ms(best),
            best.as_secs_f64() * 1e9 / input.len() as f64,
            ms(report),
            ms(derived),
            ms(draw)
        );
    }
    // The built-in parsers' share of a 100 B keystroke: the same frame with no parser at all.
    let input = format!("https://example.com/{}", "a/b?c=d&".repeat(10));
    let mut with = App::new(&input, "");
    let mut without = App::new(&input, "");
    without.set_lab(
        Lab::new(Some(&[]), Vec::new(), Timeouts::default(), Delivery::Latest).expect("no parser"),
    );
    for draw in [false, true] {
        let (mut a, mut b) = (Duration::MAX, Duration::MAX);
        for _ in 0..20 {
            a = a.min(keystroke_drawn(&mut with, 50, &theme, draw));
            b = b.min(keystroke_drawn(&mut without, 50, &theme, draw));
        }
        println!(
            "built-in parsers at {} B, {}: {:.1}µs with, {:.1}µs without, {:.1}µs added",
            input.len(),
            if draw {
                "whole frame (the Parsers pane drawn)"
            } else {
                "edit and re-parse only"
            },
            a.as_secs_f64() * 1e6,
            b.as_secs_f64() * 1e6,
            (a.as_secs_f64() - b.as_secs_f64()) * 1e6
        );
    }
}

/// The fastest of `runs` keystrokes at the end of the input: edit, re-parse, redraw.
fn keystroke(app: &mut App, runs: usize, theme: &Theme) -> Duration {
    keystroke_drawn(app, runs, theme, true)
}

/// As [`keystroke`], with or without the redraw.
fn keystroke_drawn(app: &mut App, runs: usize, theme: &Theme, draw: bool) -> Duration {
    let mut best = Duration::MAX;
    for i in 0..runs {
        let start = Instant::now();
        app.apply(if i % 2 == 0 {
            Action::Insert("x".into())
        } else {
            Action::Backspace
        });
        if draw {
            black_box(snapshot::render(app, 120, 40, theme));
        }
        best = best.min(start.elapsed());
    }
    best
}
