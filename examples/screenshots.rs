//! Regenerates `screenshots/*.png` from the inspector's own rendering code:
//! `cargo run --example screenshots`. Each screen is drawn on a TestBackend, turned into SVG
//! (`urlscope::tui::snapshot`), and rasterised with resvg.

use std::path::Path;
use std::time::{Duration, Instant};

use urlscope::diff::{AdapterSpec, Delivery, Lab, Timeouts};
use urlscope::tui::action::Action;
use urlscope::tui::app::{App, Pane};
use urlscope::tui::snapshot;
use urlscope::tui::theme::Theme;

struct Shot {
    file: &'static str,
    input: &'static str,
    base: &'static str,
    actions: Vec<Action>,
    size: (u16, u16),
    /// Every parser, external runtimes included (waiting for their answers), not only the
    /// built-in ones.
    every_parser: bool,
    /// The Pattern view's pattern.
    pattern: Option<&'static str>,
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let step_mode: Vec<Action> = [Action::Focus(Pane::Trace), Action::Top]
        .into_iter()
        .chain(std::iter::repeat_n(Action::StepNext, 25))
        .collect();
    let spoof = "https://paypal.com:pw@www.paypal.com.evil.co.uk\\@good.example/";
    let shots = [
        Shot {
            file: "https.png",
            input: "https://user@EXAMPLE.com:443/a/./b/../c?q=1&lang=en#top",
            base: "",
            actions: vec![],
            size: (120, 40),
            every_parser: false,
            pattern: None,
        },
        Shot {
            file: "homograph.png",
            input: "https://аррӏе.com/login",
            base: "",
            actions: vec![Action::Focus(Pane::Host)],
            size: (120, 40),
            every_parser: false,
            pattern: None,
        },
        Shot {
            file: "ipv4-trick.png",
            input: "http://0x7f.0.1/admin",
            base: "",
            actions: vec![Action::Focus(Pane::Errors), Action::Down],
            size: (120, 40),
            every_parser: false,
            pattern: None,
        },
        Shot {
            file: "file-base.png",
            input: "../g?y#s",
            base: "file:///C:/dir/sub/file.txt",
            // Zoomed: where each component came from, edit by edit, on one screen.
            actions: vec![Action::Focus(Pane::Resolution), Action::ToggleZoom],
            size: (120, 40),
            every_parser: false,
            pattern: None,
        },
        Shot {
            file: "failure.png",
            input: "https://example.com:99999/",
            base: "",
            actions: vec![Action::Focus(Pane::Errors)],
            size: (120, 40),
            every_parser: false,
            pattern: None,
        },
        Shot {
            file: "step-mode.png",
            input: "https://exa%6Dple.com/p",
            base: "",
            actions: step_mode,
            size: (120, 40),
            every_parser: false,
            pattern: None,
        },
        Shot {
            file: "grammar.png",
            input: "a/b?c#d",
            base: "",
            actions: vec![Action::Focus(Pane::Grammar), Action::ToggleZoom],
            size: (120, 40),
            every_parser: false,
            pattern: None,
        },
        Shot {
            file: "grammar-stop.png",
            input: "https://ex%61mple.com/a?q",
            base: "",
            actions: vec![Action::Focus(Pane::Grammar), Action::ToggleZoom],
            size: (120, 40),
            every_parser: false,
            pattern: None,
        },
        Shot {
            file: "parsers.png",
            input: "http://example.com\\@evil.com",
            base: "",
            // curl's row: the input marks the host it took.
            actions: vec![
                Action::Focus(Pane::Parsers),
                Action::ToggleZoom,
                Action::Down,
                Action::Down,
            ],
            size: (120, 40),
            every_parser: true,
            pattern: None,
        },
        Shot {
            file: "spoof-80x24.png",
            input: spoof,
            base: "",
            actions: vec![Action::Focus(Pane::Host)],
            size: (80, 24),
            every_parser: false,
            pattern: None,
        },
        Shot {
            file: "step-mode-80x24.png",
            input: "https://user@exa%6Dple.com/p?q",
            base: "",
            actions: [Action::Focus(Pane::Trace)]
                .into_iter()
                .chain(std::iter::repeat_n(Action::StepNext, 14))
                .chain([Action::Focus(Pane::Components)])
                .collect(),
            size: (80, 24),
            every_parser: false,
            pattern: None,
        },
        Shot {
            file: "help-80x24.png",
            input: "https://example.com/",
            base: "",
            actions: vec![Action::Focus(Pane::Trace), Action::ToggleHelp],
            size: (80, 24),
            every_parser: false,
            pattern: None,
        },
        Shot {
            file: "pattern.png",
            input: "https://example.com/books/abc?lang=en",
            base: "",
            actions: vec![
                Action::Focus(Pane::Pattern),
                Action::Down,
                Action::Down,
                Action::Down,
                Action::Down,
                Action::Down,
            ],
            size: (120, 40),
            every_parser: false,
            pattern: Some("https://example.com/books/:id(\\d+)"),
        },
        Shot {
            file: "pattern-steps.png",
            input: "https://www.example.com/foo/bar",
            base: "",
            // A step of the constructor string parser, explained in the strip.
            actions: [Action::Focus(Pane::Pattern)]
                .into_iter()
                .chain(std::iter::repeat_n(Action::Down, 14))
                .collect(),
            size: (120, 40),
            every_parser: false,
            pattern: Some("https://{*.}?example.com/foo{/bar}?"),
        },
        Shot {
            file: "pattern-80x24.png",
            input: "https://cdn.example.com/img/logo.png",
            base: "",
            actions: vec![Action::Focus(Pane::Pattern)],
            size: (80, 24),
            every_parser: false,
            pattern: Some("https://*.example.com/*"),
        },
    ];
    let out = Path::new(env!("CARGO_MANIFEST_DIR")).join("screenshots");
    std::fs::create_dir_all(&out)?;
    let mut options = resvg::usvg::Options::default();
    options.fontdb_mut().load_system_fonts();
    for shot in &shots {
        let mut app = App::new(shot.input, shot.base);
        if shot.every_parser {
            let lab = Lab::new(
                None,
                AdapterSpec::configured()?,
                Timeouts::default(),
                Delivery::Latest,
            )?;
            app.set_lab(lab);
            let deadline = Instant::now() + Duration::from_secs(60);
            while !app.parsers.pending().is_empty() && Instant::now() < deadline {
                app.poll_parsers();
                std::thread::sleep(Duration::from_millis(50));
            }
        }
        if let Some(pattern) = shot.pattern {
            app.set_pattern(pattern);
        }
        for action in &shot.actions {
            app.apply(action.clone());
        }
        let (width, height) = shot.size;
        let buffer = snapshot::render(&mut app, width, height, &Theme { color: true });
        let svg = snapshot::to_svg(&buffer);
        let tree = resvg::usvg::Tree::from_str(&svg, &options)?;
        let size = tree.size().to_int_size();
        let mut pixmap =
            resvg::tiny_skia::Pixmap::new(size.width(), size.height()).ok_or("empty picture")?;
        resvg::render(
            &tree,
            resvg::tiny_skia::Transform::default(),
            &mut pixmap.as_mut(),
        );
        let path = out.join(shot.file);
        pixmap.save_png(&path)?;
        println!("wrote {}", path.display());
    }
    Ok(())
}
