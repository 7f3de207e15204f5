//! The screen: layout, the status bar, the help overlay, zoom and the small-terminal message.

use ratatui::layout::{Constraint, Direction, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph, Wrap};
use ratatui::Frame;

use super::app::{App, Pane};
use super::panes;
use super::theme::Theme;

/// Below this size the panes cannot be drawn usefully.
pub const MIN_WIDTH: u16 = 60;
pub const MIN_HEIGHT: u16 = 16;

pub fn draw(frame: &mut Frame<'_>, app: &mut App, theme: &Theme) {
    let area = frame.area();
    if area.width < MIN_WIDTH || area.height < MIN_HEIGHT {
        let text = format!(
            "urlscope needs at least {MIN_WIDTH}x{MIN_HEIGHT} (this terminal is {}x{}). Enlarge it, or press q to quit.",
            area.width, area.height
        );
        frame.render_widget(Paragraph::new(text).wrap(Wrap { trim: true }), area);
        return;
    }
    let [main, status] = Layout::vertical([Constraint::Min(1), Constraint::Length(1)]).areas(area);
    let areas = pane_areas(area, app.zoom, app.focus);
    if let Some((_, r)) = areas.iter().find(|(p, _)| *p == Pane::Trace) {
        app.page = r.height.saturating_sub(4) as usize;
    }
    for (pane, rect) in areas {
        draw_pane(frame, rect, app, pane, theme);
    }
    draw_status(frame, status, app, theme);
    if app.help {
        draw_help(frame, main, theme);
    }
}

/// Where each pane goes on a screen of `area` (the status bar takes the last row).
pub fn pane_areas(area: Rect, zoom: bool, focus: Pane) -> Vec<(Pane, Rect)> {
    let [main, _status] = Layout::vertical([Constraint::Min(1), Constraint::Length(1)]).areas(area);
    if zoom {
        return vec![(focus, main)];
    }
    let [input, base, body] = Layout::vertical([
        Constraint::Length(5),
        Constraint::Length(3),
        Constraint::Min(6),
    ])
    .areas(main);
    let [left, right] = Layout::default()
        .direction(Direction::Horizontal)
        .constraints([Constraint::Percentage(42), Constraint::Percentage(58)])
        .areas(body);
    // The components need 14 rows; on a tall screen they get them and the host analysis the
    // most of the rest, on a short one the three share by proportion.
    let left_constraints = if left.height >= 26 {
        [
            Constraint::Length(14),
            Constraint::Fill(1),
            Constraint::Fill(2),
        ]
    } else {
        [
            Constraint::Percentage(45),
            Constraint::Percentage(25),
            Constraint::Percentage(30),
        ]
    };
    let [components, errors, host] = Layout::vertical(left_constraints).areas(left);
    let [trace, grammar, resolution] = Layout::vertical([
        Constraint::Percentage(50),
        Constraint::Percentage(28),
        Constraint::Percentage(22),
    ])
    .areas(right);
    vec![
        (Pane::Input, input),
        (Pane::Base, base),
        (Pane::Components, components),
        (Pane::Errors, errors),
        (Pane::Host, host),
        (Pane::Trace, trace),
        (Pane::Grammar, grammar),
        (Pane::Resolution, resolution),
    ]
}

fn draw_pane(frame: &mut Frame<'_>, area: Rect, app: &App, pane: Pane, theme: &Theme) {
    match pane {
        Pane::Input | Pane::Base => panes::input::render(frame, area, app, pane, theme),
        Pane::Trace => panes::trace::render(frame, area, app, theme),
        Pane::Components => panes::components::render(frame, area, app, theme),
        Pane::Errors => panes::errors::render(frame, area, app, theme),
        Pane::Host => panes::host::render(frame, area, app, theme),
        Pane::Resolution => panes::resolution::render(frame, area, app, theme),
        Pane::Grammar => panes::grammar::render(frame, area, app, theme),
    }
}

fn hints(app: &App) -> &'static str {
    if app.editing.is_some() {
        return "Enter run setter · Esc cancel";
    }
    match app.focus {
        Pane::Input | Pane::Base => "type · ←→ ctrl-←→ · ctrl-w/u/k · ctrl-z/r undo · ↑↓ history · Tab next · ctrl-y copy · ctrl-n example · F1 help",
        Pane::Trace => "j/k move · h/l step mode · e host sub-steps · g/G ends · z zoom · ? help · q quit",
        Pane::Components => "j/k move · Enter edit via setter · Y copy value · u copy Unicode host · ? help",
        Pane::Errors => "j/k select (trace follows) · Y copy name · ? help · q quit",
        Pane::Host => "j/k select a finding (marked in the input) · u copy Unicode host · ? help",
        Pane::Resolution => "j/k move · Y copy resolved URL · ? help · q quit",
        Pane::Grammar => "the writing grammar: z zoom for the whole diagram · ? help · q quit",
    }
}

fn draw_status(frame: &mut Frame<'_>, area: Rect, app: &App, theme: &Theme) {
    // The last message first: it is what the person is waiting for; the hints fill the rest.
    let status = crate::display::escape(&app.status, crate::display::EscapeStyle::Symbols);
    let line = Line::from(vec![
        Span::raw(format!(" {status} ")),
        Span::styled(format!("│ {}", hints(app)), theme.dim()),
    ]);
    frame.render_widget(Paragraph::new(line), area);
}

pub const HELP: &[(&str, &str)] = &[
    (
        "Tab / Shift-Tab, 1-8",
        "move between panes (alt-1 … alt-8 also from a text line)",
    ),
    ("typing, ←/→, Home/End", "edit the Input or Base line"),
    ("ctrl-←/→, alt-b/f", "move by word"),
    ("ctrl-w, ctrl-u, ctrl-k", "delete word, to start, to end"),
    ("ctrl-z, ctrl-r", "undo, redo"),
    ("↑/↓ in Input", "history of inputs (Enter remembers one)"),
    ("j/k, PgUp/PgDn, g/G", "move in a list"),
    (
        "h/l or ←/→ in Trace",
        "step mode: the input marks the pointer, components show that step",
    ),
    (
        "Enter in Components",
        "edit a component through the URL API setter",
    ),
    ("y, ctrl-y", "copy the href"),
    ("Y", "copy the selected row's value"),
    ("u", "copy the host's Unicode form"),
    ("ctrl-n, ctrl-p", "next / previous example of the gallery"),
    (
        "e in Trace",
        "host parsing sub-steps under every step (else under the selected one)",
    ),
    ("z", "zoom the focused pane"),
    ("?, F1", "this help"),
    (
        "q, Esc, ctrl-c",
        "quit (Esc first leaves step mode, an edit or this help)",
    ),
];

fn draw_help(frame: &mut Frame<'_>, area: Rect, theme: &Theme) {
    let width = area.width.min(86);
    let height = area.height.min(HELP.len() as u16 + 2);
    let popup = Rect {
        x: area.x + (area.width - width) / 2,
        y: area.y + (area.height - height) / 2,
        width,
        height,
    };
    let lines: Vec<Line<'_>> = HELP
        .iter()
        .map(|(keys, what)| {
            Line::from(vec![
                Span::styled(format!("{keys:<24}"), theme.title(true)),
                Span::raw(*what),
            ])
        })
        .collect();
    frame.render_widget(Clear, popup);
    let block = Block::default()
        .borders(Borders::ALL)
        .title(" Keys (Esc closes) ");
    frame.render_widget(Paragraph::new(lines).block(block), popup);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tui::action::Action;

    /// Renders `app` on a `width`x`height` test terminal and returns the screen as text.
    fn screen(app: &mut App, width: u16, height: u16) -> String {
        let buffer = crate::tui::snapshot::render(app, width, height, &Theme { color: false });
        crate::tui::snapshot::to_text(&buffer)
    }

    #[test]
    fn an_input_over_the_trace_limit_is_inspected_without_a_trace() {
        let long = "a".repeat(crate::MAX_TRACED_INPUT);
        let mut app = App::new(&format!("https://example.com/{long} b"), "");
        assert!(app.report.trace.is_none());
        // Everything but the trace is there: the URL, the error and its place, the analysis.
        let url = app.report.url.as_ref().expect("it parses");
        assert_eq!(url.pathname(), format!("/{long}%20b"));
        let errors: Vec<_> = app
            .report
            .errors
            .iter()
            .map(|e| (e.kind.name(), e.span.start))
            .collect();
        assert_eq!(errors, [("invalid-URL-unit", 20 + long.len())]);
        assert!(app.report.host_analysis.is_some());
        app.apply(Action::Focus(Pane::Trace));
        app.apply(Action::StepNext);
        let s = screen(&mut app, 120, 40);
        assert_shows(&s, &["Not traced: the input is 1048598 bytes"]);
        // Up to the limit, the trace is recorded.
        let at_limit = format!("https://h/{}", "a".repeat(crate::MAX_TRACED_INPUT - 10));
        assert!(crate::Report::for_inspector(&at_limit, None)
            .trace
            .is_some());
    }

    fn assert_shows(screen: &str, needles: &[&str]) {
        for needle in needles {
            assert!(
                screen.contains(needle),
                "screen lacks {needle:?}:\n{screen}"
            );
        }
    }

    #[test]
    fn special_url_at_both_sizes() {
        for (w, h) in [(120, 40), (80, 24)] {
            let mut app = App::new("HTTPS://user@EXAMPLE.com:443/a/../b?x=1#f", "");
            let s = screen(&mut app, w, h);
            assert_shows(
                &s,
                &["Input", "Components", "Trace", "scheme start", "https:"],
            );
            assert_shows(&s, &["example.com"]);
            if w == 120 {
                assert_shows(
                    &s,
                    &[
                        "https://user@example.com/b?x=1#f",
                        "invalid-credentials  8..13  authority state",
                    ],
                );
            }
        }
    }

    #[test]
    fn components_list_the_query_parameters_that_fit_and_count_the_rest() {
        let query: Vec<String> = (0..500).map(|i| format!("k{i}=v{i}")).collect();
        let mut app = App::new(&format!("https://example.com/?{}", query.join("&")), "");
        app.apply(Action::Focus(crate::tui::app::Pane::Components));
        app.apply(Action::ToggleZoom);
        let s = screen(&mut app, 120, 40);
        assert_shows(&s, &["query params", "k0", "= v0", "k1", "more"]);
        let listed = (0..500).filter(|i| s.contains(&format!("= v{i} "))).count();
        assert!(listed < 40, "only a screenful is listed, not {listed}");
        assert_shows(&s, &[&format!("… {} more", 500 - listed)]);
    }

    #[test]
    fn ruler_marks_parts_and_errors() {
        let mut app = App::new("https://a b/", "");
        let s = screen(&mut app, 120, 40);
        // The space in the host is a forbidden host code point... for a special URL it fails
        // in the domain parser; the ruler still shows what each code point was read as.
        assert_shows(&s, &["sssss", "hhh", "Failure"]);
        let mut app = App::new("https://x/a<b", "");
        let s = screen(&mut app, 120, 40);
        assert_shows(&s, &["sssss·", "pppp", "^", "invalid-URL-unit"]);
    }

    #[test]
    fn hostile_input_is_escaped_on_screen() {
        let mut app = App::new("https://x/\u{1b}]52;c;AAAA\u{7}\u{1b}[2J\u{202E}?a", "");
        let s = screen(&mut app, 120, 40);
        assert!(
            !s.chars().any(crate::display::needs_escape)
                || s.chars()
                    .all(|c| c == '\n' || !crate::display::needs_escape(c))
        );
        assert_shows(&s, &["␛]52;c;AAAA␇␛[2J⟨U+202E⟩"]);
    }

    #[test]
    fn no_control_or_invisible_reaches_the_screen_in_any_pane() {
        use crate::tui::app::Pane;
        let inputs = [
            "https://x/\u{1b}]52;c;QUFBQQ==\u{7}\u{1b}[2J\u{202E}?a\u{1b}[31m#\u{9b}31m\u{85}",
            "https://ex\u{202e}ample.com\u{1b}[2J/",
            "sc:\u{1b}[2J\u{200b}\u{2066}x\u{7f}",
            "\u{1b}]52;c;AAAA\u{7}",
            "https://u\u{1b}[2J:p\u{202e}@h/",
        ];
        let base = "https://b/\u{1b}]0;title\u{7}\u{202e}/";
        for input in inputs {
            let mut app = App::new(input, base);
            let mut screens = vec![screen(&mut app, 120, 40), screen(&mut app, 80, 24)];
            for pane in Pane::ALL {
                app.apply(Action::Focus(pane));
                app.apply(Action::ToggleZoom);
                app.apply(Action::ToggleExpand);
                screens.push(screen(&mut app, 120, 40));
                app.apply(Action::ToggleExpand);
                app.apply(Action::ToggleZoom);
            }
            app.apply(Action::Focus(Pane::Trace));
            for _ in 0..12 {
                app.apply(Action::StepNext);
                screens.push(screen(&mut app, 120, 40));
            }
            app.apply(Action::ToggleHelp);
            screens.push(screen(&mut app, 120, 40));
            for s in &screens {
                let raw: Vec<char> = s
                    .chars()
                    .filter(|&c| c != '\n' && crate::display::needs_escape(c))
                    .collect();
                assert!(raw.is_empty(), "{input:?}: raw {raw:?} on screen:\n{s}");
            }
        }
    }

    #[test]
    fn grammar_pane_shows_both_validities_and_the_path() {
        use crate::tui::app::Pane;
        let zoomed = |input: &str, base: &str| {
            let mut app = App::new(input, base);
            app.apply(Action::Focus(Pane::Grammar));
            app.apply(Action::ToggleZoom);
            screen(&mut app, 120, 40)
        };
        let s = zoomed("https://example.com:/a?q", "");
        assert_shows(
            &s,
            &[
                "8 Grammar",
                "writing: valid URL string   parser: no validation error",
                "Both agree",
                "absolute-URL-with-fragment string:",
                "┤scheme├─(:)─┬─┤//host:port/path├",
                "└─(?)─┤query├─┘",
                "scheme-relative-special-URL string:",
                "(//)─┤host├",
            ],
        );
        let s = zoomed("https://ex%61mple.com/", "");
        assert_shows(
            &s,
            &[
                "Both agree it is not valid: the parser raises domain-percent-encoded",
                "› valid host string › valid domain string",
            ],
        );
        let s = zoomed("a/b?c", "");
        assert_shows(
            &s,
            &[
                "Both agree it is not valid: a relative-URL string needs a base URL",
                "┤scheme├",
            ],
        );
        let s = zoomed("a/b?c", "https://example.com/");
        assert_shows(&s, &["Both agree: a valid URL string", "┤path├"]);
        let s = zoomed("https://h/a b", "");
        assert_shows(
            &s,
            &[
                "writing: not a valid URL string   parser: validation errors",
                "Both agree it is not valid",
                "at 11: path segment: U+0020 is not a URL code point",
                "› path-absolute-URL string › URL-path-segment string",
            ],
        );
        // Unzoomed, the verdict and the agreement line come first.
        let mut app = App::new("a/b?c#d", "");
        let s = screen(&mut app, 120, 40);
        assert_shows(
            &s,
            &[
                "8 Grammar",
                "writing: not a valid URL string",
                "needs a base URL",
            ],
        );
    }

    #[test]
    fn host_pane_ipv4_and_idn() {
        let mut app = App::new("http://0x7f.1/", "");
        let s = screen(&mut app, 120, 40);
        assert_shows(&s, &["IPv4 127.0.0.1", "integer 2130706433", "radix 16"]);
        let mut app = App::new("https://Bücher.example/", "");
        let s = screen(&mut app, 120, 40);
        assert_shows(&s, &["xn--bcher-kva.example", "bücher.example"]);
    }

    #[test]
    fn resolution_pane_with_a_base() {
        let mut app = App::new("../g", "http://a/b/c/d;p?q");
        let s = screen(&mut app, 120, 40);
        assert_shows(&s, &["Base resolution", "relative state", "http://a/b/g"]);
    }

    #[test]
    fn step_mode_marks_the_pointer_and_zoom_and_help() {
        let mut app = App::new("sc:x", "");
        app.apply(Action::Focus(Pane::Trace));
        app.apply(Action::Top);
        app.apply(Action::StepNext);
        app.apply(Action::StepNext);
        let s = screen(&mut app, 120, 40);
        assert_shows(&s, &["▲", "as after step 2", "step mode"]);
        app.apply(Action::ToggleZoom);
        let s = screen(&mut app, 80, 24);
        assert!(!s.contains("Components"), "zoomed on the trace only:\n{s}");
        app.apply(Action::ToggleHelp);
        let s = screen(&mut app, 80, 24);
        assert_shows(&s, &["Keys (Esc closes)", "step mode"]);
    }

    #[test]
    fn small_terminal_gets_a_message() {
        let mut app = App::new("https://a/", "");
        let s = screen(&mut app, 40, 10);
        assert_shows(&s, &["needs at least 60x16"]);
    }

    /// Whole screens for the gallery's lessons, at both sizes, as insta snapshots.
    #[test]
    fn full_screen_snapshots() {
        let inputs: &[(&str, &str, &str)] = &[
            (
                "special",
                "https://user:pa%20ss@EXAMPLE.com:443/a/./b/../c?q=1#frag",
                "",
            ),
            (
                "opaque_path",
                "mailto:someone@example.org?subject=hi there",
                "",
            ),
            ("file_drive_letter", "file:///C|/Windows/system32", ""),
            ("backslashes", "https:\\\\example.org\\a", ""),
            ("ipv4_hex_short", "http://0x7f.1/", ""),
            ("ipv6_compression", "http://[0:0:0:0:0:ffff:7f00:1]/", ""),
            ("idn", "https://Bücher.example/", ""),
            ("credentials", "https://paypal.com@evil.example/", ""),
            ("tabs_newlines", "ht\ttps://exa\nmple.com/", ""),
            ("relative", "../g;x?y#s", "http://a/b/c/d;p?q"),
            ("failure", "https://[::1", ""),
        ];
        for (name, input, base) in inputs {
            for (w, h) in [(120, 40), (80, 24)] {
                let mut app = App::new(input, base);
                let text = screen(&mut app, w, h);
                insta::assert_snapshot!(format!("{name}_{w}x{h}"), text);
            }
        }
    }

    #[test]
    fn selecting_a_component_highlights_its_span_in_the_input() {
        let mut app = App::new("https://h.example/p", "");
        app.apply(Action::Click {
            pane: Pane::Components,
            row: 5,
        });
        let buffer = crate::tui::snapshot::render(&mut app, 120, 40, &Theme { color: false });
        let reversed: String = (1..30)
            .filter(|&x| {
                buffer[(x, 1)]
                    .modifier
                    .contains(ratatui::style::Modifier::REVERSED)
            })
            .map(|x| buffer[(x, 1)].symbol().to_owned())
            .collect();
        assert_eq!(reversed, "h.example");
    }

    #[test]
    fn host_sub_steps_expand_under_every_step() {
        let mut app = App::new("http://0x7f.1/", "");
        app.apply(Action::Focus(Pane::Trace));
        app.apply(Action::Bottom);
        let collapsed = screen(&mut app, 120, 40);
        assert!(!collapsed.contains("IPv4 part 0x7f"), "{collapsed}");
        app.apply(Action::ToggleExpand);
        let expanded = screen(&mut app, 120, 40);
        assert_shows(
            &expanded,
            &[
                "└ IPv4 part 0x7f (radix 16) = 127",
                "└ ends in a number: true",
            ],
        );
    }
}
