//! Whole-screen and key-handling tests: keys go in as actions or key events, screens come out
//! of a `TestBackend` as text.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier};

use super::action::Action;
use super::app::{App, Overlay, Pane};
use super::derived::{show, RowKind};
use super::list::CUT;
use super::theme::Theme;
use crate::gallery::gallery;
use crate::url::Component;

pub(super) const SIZES: [(u16, u16); 3] = [(80, 24), (120, 40), (200, 60)];
const PLAIN: Theme = Theme { color: false };
const COLOR: Theme = Theme { color: true };

/// An inspector whose Parsers pane asks only the parsers whose answers the lockfile pins: the
/// in-process ones, without curl, which is the system's libcurl wherever one is installed (its
/// answers and error texts change with its version). Screens are then the same on every
/// machine, whichever libcurl and runtimes it has. The chromium display policy decides as on
/// Linux, whichever platform runs the tests.
pub fn pinned(input: &str, base: &str) -> App {
    crate::inspect::policy::chromium::set_platform(
        crate::inspect::policy::chromium::Platform::Linux,
    );
    let mut app = App::new(input, base);
    app.set_lab(pinned_lab());
    app
}

pub fn pinned_lab() -> crate::diff::Lab {
    super::model::Parsers::builtin_lab_without(&[crate::diff::Builtin::Curl])
}

/// A lab of ours and Python's `urlsplit`, an external reading that arrives after the frame:
/// for the tests of what the inspector shows while a reading is pending.
pub fn whatwg_and_python_lab() -> crate::diff::Lab {
    let names = vec!["whatwg".to_owned(), "python".to_owned()];
    crate::diff::Lab::new(
        Some(&names),
        Vec::new(),
        crate::diff::Timeouts::default(),
        crate::diff::Delivery::Latest,
    )
    .expect("lab")
}

/// Renders `app` on a `width`x`height` test terminal and returns the screen as text.
pub fn screen(app: &mut App, width: u16, height: u16) -> String {
    let buffer = super::snapshot::render(app, width, height, &PLAIN);
    super::snapshot::to_text(&buffer)
}

/// Presses `code` with `modifiers`, through the key table, as the terminal would.
pub fn press(app: &mut App, code: KeyCode, modifiers: KeyModifiers) {
    let event = KeyEvent::new(code, modifiers);
    if let Some(action) = super::keys::action_for(&event, &app.contexts()) {
        app.apply(action);
    }
}

pub fn key(app: &mut App, c: char) {
    press(app, KeyCode::Char(c), KeyModifiers::NONE);
}

pub fn special(app: &mut App, code: KeyCode) {
    press(app, code, KeyModifiers::NONE);
}

pub fn ctrl(app: &mut App, c: char) {
    press(app, KeyCode::Char(c), KeyModifiers::CONTROL);
}

pub(super) fn assert_shows(screen: &str, needles: &[&str]) {
    for needle in needles {
        assert!(
            screen.contains(needle),
            "screen lacks {needle:?}:\n{screen}"
        );
    }
}

/// The rows of `rect`'s inside (without the border) as strings, one char per cell.
fn rows_of(buffer: &Buffer, rect: Rect) -> Vec<Vec<char>> {
    (rect.y + 1..rect.bottom().saturating_sub(1))
        .map(|y| {
            (rect.x + 1..rect.right().saturating_sub(1))
                .map(|x| buffer[(x, y)].symbol().chars().next().unwrap_or(' '))
                .collect()
        })
        .collect()
}

/// How an occurrence of `value` starting at `rows[r][c]` ends: `Ok` when the whole value is
/// there (also across wrapped lines) or its cut is marked with `…`; `Err` with what was drawn
/// when it stops short unmarked.
fn occurrence(
    rows: &[Vec<char>],
    mut r: usize,
    mut c: usize,
    value: &[char],
) -> Result<(), String> {
    let mut k = 0;
    let mut drawn = String::new();
    loop {
        let row = &rows[r];
        while k < value.len() && c < row.len() && row[c] == value[k] {
            drawn.push(row[c]);
            k += 1;
            c += 1;
        }
        if k == value.len() {
            return Ok(());
        }
        if c < row.len() && row[c] == CUT {
            return Ok(());
        }
        // Another text that shares the value's first characters, not a cut of it.
        if c < row.len() && !matches!(row[c], ' ' | '│' | '█' | '║') {
            return Ok(());
        }
        // Wrapped: the rest of the row is blank and the next row goes on with the value.
        let blank_after = row[c.min(row.len())..]
            .iter()
            .all(|&ch| ch == ' ' || ch == '│' || ch == '█' || ch == '║');
        while k < value.len() && value[k] == ' ' {
            k += 1;
        }
        if blank_after && r + 1 < rows.len() {
            let next = &rows[r + 1];
            let start = next.iter().position(|&ch| ch != ' ').unwrap_or(next.len());
            if start < next.len() && k < value.len() && next[start] == value[k] {
                r += 1;
                c = start;
                continue;
            }
        }
        return Err(drawn);
    }
}

/// Every value of the report that `pane` lists, as the pane shows it.
fn values(app: &App, pane: Pane) -> Vec<String> {
    let mut out = Vec::new();
    match pane {
        Pane::Components => {
            for row in app.component_rows() {
                out.push(row.value.clone());
                if row.kind == RowKind::Param {
                    out.push(row.key.clone());
                }
            }
        }
        Pane::Host => {
            for row in &app.derived.host {
                out.push(row.value.clone());
                out.extend(row.note.clone());
            }
        }
        Pane::Errors => {
            for e in &app.report.errors {
                out.push(e.kind.name().to_owned());
                out.push(show(e.message));
            }
        }
        Pane::Trace => {
            if let Some(trace) = app.trace() {
                for step in trace.steps() {
                    let name = step.phase.name();
                    let name = name.strip_suffix(" state").unwrap_or(name).to_owned();
                    if !out.contains(&name) {
                        out.push(name);
                    }
                }
                // What each collapsed run appended.
                if let Some(index) = app.row_index() {
                    let total = app.trace_rows.total(trace, &index);
                    for line in 0..total {
                        if let super::rows::Shown::Run(run) = app.trace_rows.shown(line, &index) {
                            out.push(show(&run.text));
                        }
                    }
                }
            }
        }
        Pane::Resolution => {
            for row in &app.derived.resolution {
                out.push(row.value.clone());
                out.extend(row.note.clone());
            }
        }
        Pane::Pattern => {
            for i in 0..app.pattern.rows() {
                match app.pattern.row(i) {
                    Some(super::model::PatternRow::Component(c, m)) => {
                        out.push(show(&c.pattern_string));
                        out.push(show(&format!("/{}/{}", c.regexp, c.flags)));
                        if let Some(m) = m {
                            out.push(show(&serde_json::to_string(&m.value).unwrap_or_default()));
                            out.extend(m.why.as_deref().map(show));
                        }
                    }
                    Some(super::model::PatternRow::Error(e)) => out.push(show(e)),
                    _ => {}
                }
            }
        }
        _ => {}
    }
    out.retain(|v| v.chars().count() >= 4 && v.is_ascii() && !v.contains(CUT));
    out
}

/// Checks that no value `pane` lists is drawn cut without `…`: each value that shows at
/// all (by its first characters) shows whole, wrapped, or cut with the mark at least once.
pub(super) fn assert_nothing_cut_silently(app: &mut App, width: u16, height: u16, what: &str) {
    let buffer = super::snapshot::render(app, width, height, &PLAIN);
    let area = Rect::new(0, 0, width, height);
    for (pane, rect) in super::ui::pane_areas(area, app) {
        let rows = rows_of(&buffer, rect);
        let all = values(app, pane);
        for value in all.iter() {
            let chars: Vec<char> = value.chars().collect();
            let probe: Vec<char> = chars.iter().copied().take(10).collect();
            let mut seen = Vec::new();
            let mut ok = false;
            for (r, row) in rows.iter().enumerate() {
                for c in 0..row.len() {
                    if row[c..].starts_with(&probe) {
                        match occurrence(&rows, r, c, &chars) {
                            Ok(()) => ok = true,
                            // Another value that this one extends, shown whole.
                            Err(drawn) if all.iter().any(|v| *v == drawn.trim_end()) => {}
                            Err(drawn) => seen.push(drawn),
                        }
                    }
                }
            }
            assert!(
                ok || seen.is_empty(),
                "{what} at {width}x{height}, {pane:?}: {value:?} is drawn cut without {CUT} as {seen:?}\n{}",
                super::snapshot::to_text(&buffer)
            );
        }
    }
}

fn screens_of(input: &str, base: &str, what: &str) {
    for (w, h) in SIZES {
        let mut app = pinned(input, base);
        assert_nothing_cut_silently(&mut app, w, h, what);
        for pane in Pane::VIEWS {
            app.apply(Action::Focus(pane));
            assert_nothing_cut_silently(&mut app, w, h, what);
            app.apply(Action::ToggleZoom);
            assert_nothing_cut_silently(&mut app, w, h, what);
            app.apply(Action::ToggleZoom);
        }
        // The trace deep into a long input, and step mode's record.
        app.apply(Action::Focus(Pane::Trace));
        for _ in 0..40 {
            app.apply(Action::StepNext);
        }
        assert_nothing_cut_silently(&mut app, w, h, what);
        app.apply(Action::Focus(Pane::Components));
        assert_nothing_cut_silently(&mut app, w, h, what);
    }
}

fn long_host() -> String {
    let labels: Vec<String> = (0..300).map(|i| format!("label{i}")).collect();
    format!("https://{}.example/", labels.join("."))
}

fn long_query() -> String {
    let mut query = String::from(
        "redirect_uri=https%3A%2F%2Fapp.example%2Fcallback&response_type=code&client_id=abc",
    );
    let mut i = 0;
    while query.len() < 10_000 {
        query.push_str(&format!("&parameter_with_a_long_name_{i}=value_{i}"));
        i += 1;
    }
    format!("https://example.com/authorize?{query}")
}

#[test]
fn no_value_is_cut_without_a_mark_on_any_screen() {
    for example in gallery() {
        screens_of(
            &example.input,
            example.base.as_deref().unwrap_or(""),
            &example.input,
        );
    }
    screens_of(&long_host(), "", "300 labels");
    screens_of(&long_query(), "", "10 KB query");
    screens_of(
        "https://paypal.com:pw@www.paypal.com.ev\u{200b}il.co.uk\\@good.example/",
        "",
        "spoof",
    );
}

// ---- What was seen, one test each.

#[test]
fn e_keeps_every_step_of_the_trace_on_screen() {
    let mut app = pinned("https://user@example.com:8080/a/b?q#f", "");
    app.apply(Action::Focus(Pane::Trace));
    // Every step on its own line, as j counts them.
    key(&mut app, 'O');
    for _ in 0..5 {
        key(&mut app, 'j');
    }
    key(&mut app, 'e');
    let s = screen(&mut app, 120, 40);
    assert_shows(&s, &["sub-steps of every step", "6  scheme", "7  scheme"]);
    // Step mode goes on to the end, with sub-steps on, and so does a later URL.
    key(&mut app, 'G');
    for _ in 0..3 {
        key(&mut app, 'h');
    }
    let last = app.trace().map_or(0, |t| t.len()) - 4;
    let s = screen(&mut app, 120, 40);
    assert_shows(&s, &[&format!("{last} ")]);
    let mut app = pinned("http://0x7f.1/", "");
    app.apply(Action::Focus(Pane::Trace));
    key(&mut app, 'e');
    key(&mut app, 'G');
    let s = screen(&mut app, 120, 40);
    assert_shows(
        &s,
        &[
            "└ IPv4 part 0x7f (radix 16) = 127",
            "└ ends in a number: true",
        ],
    );
}

#[test]
fn step_mode_shows_the_url_record_by_the_standards_names() {
    let mut app = pinned("https://user@h.example/p?q", "");
    app.apply(Action::Focus(Pane::Trace));
    let trace = app.trace().expect("traced").clone();
    let step = (0..trace.len())
        .find(|&i| {
            trace
                .view(i)
                .changes
                .iter()
                .any(|c| c.to_string() == "username+=user")
        })
        .expect("a step appends the username");
    while app.step() < step {
        key(&mut app, 'l');
    }
    assert!(app.step_mode);
    let s = screen(&mut app, 120, 40);
    assert_shows(
        &s,
        &[
            &format!("Record after step {step}"),
            "username \"user\"",
            "password \"\"",
            "host     null",
            "port     null",
            "query    null",
            "fragment null",
            "scheme   \"https\"",
            "path     []",
        ],
    );
    key(&mut app, 'G');
    let s = screen(&mut app, 120, 40);
    assert_shows(
        &s,
        &[
            "host     \"h.example\"",
            "path     [\"p\"]",
            "query    \"q\"",
        ],
    );
}

#[test]
fn values_show_whole_or_marked() {
    // The hash at 80 columns.
    let mut app = pinned(
        "https://user:pa%20ss@EXAMPLE.com:443/a/./b/../c?q=1#frag",
        "",
    );
    app.apply(Action::Focus(Pane::Components));
    let s = screen(&mut app, 80, 24);
    assert_shows(&s, &["#frag"]);
    // Query parameter names, zoomed at 120.
    let mut app = pinned(&long_query(), "");
    app.apply(Action::Focus(Pane::Components));
    key(&mut app, 'z');
    let s = screen(&mut app, 120, 40);
    assert_shows(
        &s,
        &[
            "redirect_uri ",
            "response_type ",
            "query params (",
            "parameter_with_a_long_name_0 ",
        ],
    );
    // Trace states at 200, the buffer's newest end, an error in the changes.
    let mut app = pinned("https://u@ex%41mple.com/", "");
    app.apply(Action::Focus(Pane::Trace));
    for _ in 0..30 {
        key(&mut app, 'j');
    }
    let s = screen(&mut app, 200, 60);
    assert_shows(
        &s,
        &[
            "special authority ignore slashes ",
            "ex%41mple.co",
            "⚠ invalid-credentials",
        ],
    );
    let buffer_row = s
        .lines()
        .find(|l| {
            l.contains(" host ") && l.contains("ex%41mple.co") && !l.contains("reads the host")
        })
        .unwrap_or("");
    assert!(
        buffer_row.contains("ex%41mple.com ") || buffer_row.contains('…'),
        "{s}"
    );
    // Error messages and findings wrap instead of being cut mid-word.
    let mut app = pinned(
        "https://paypal.com:pw@www.paypal.com.ev\u{200b}il.co.uk\\@good.example/",
        "",
    );
    app.apply(Action::Focus(Pane::Host));
    assert_nothing_cut_silently(&mut app, 80, 24, "spoof");
}

#[test]
fn every_cut_in_the_trace_is_marked() {
    let mut app = pinned(&long_query(), "");
    app.apply(Action::Focus(Pane::Trace));
    for _ in 0..200 {
        key(&mut app, 'j');
    }
    let s = screen(&mut app, 80, 24);
    // The buffer column keeps its newest end after a mark.
    assert!(s.lines().any(|l| l.contains(" …")), "{s}");
}

#[test]
fn esc_never_quits_and_says_how_to_quit() {
    let mut app = pinned("https://example.com/", "");
    for pane in Pane::ALL {
        app.apply(Action::Focus(pane));
        for _ in 0..3 {
            special(&mut app, KeyCode::Esc);
        }
        assert!(!app.quit, "Esc quit from {pane:?}");
    }
    assert!(app
        .message()
        .is_some_and(|m| m.contains("ctrl-c") && m.contains("q")));
    app.apply(Action::Focus(Pane::Input));
    special(&mut app, KeyCode::Esc);
    assert!(
        app.message().is_some_and(|m| m.contains("ctrl-q")),
        "{:?}",
        app.message()
    );
    // Esc unwinds one thing at a time: help, detail, step mode, zoom.
    app.apply(Action::Focus(Pane::Trace));
    key(&mut app, 'z');
    key(&mut app, 'l');
    key(&mut app, 'd');
    special(&mut app, KeyCode::F(1));
    assert_eq!(app.overlays, [Overlay::Detail, Overlay::Help]);
    special(&mut app, KeyCode::Esc);
    assert_eq!(app.overlays, [Overlay::Detail]);
    special(&mut app, KeyCode::Esc);
    assert!(app.overlays.is_empty() && app.step_mode && app.zoom);
    special(&mut app, KeyCode::Esc);
    assert!(!app.step_mode && app.zoom);
    special(&mut app, KeyCode::Esc);
    assert!(!app.zoom && !app.quit);
    // Quitting: q from a list pane, ctrl-c or ctrl-q anywhere.
    key(&mut app, 'q');
    assert!(app.quit);
    for c in ['c', 'q'] {
        let mut app = pinned("https://example.com/", "");
        ctrl(&mut app, c);
        assert!(app.quit);
    }
}

#[test]
fn the_help_is_modal_scrolls_and_opens_from_every_pane() {
    let mut app = pinned("https://example.com/", "");
    special(&mut app, KeyCode::F(1));
    key(&mut app, 'j');
    assert_eq!(
        app.input.text(),
        "https://example.com/",
        "j went through the help"
    );
    assert_eq!(app.help_scroll.get(), 1);
    special(&mut app, KeyCode::Esc);
    app.apply(Action::Focus(Pane::Grammar));
    special(&mut app, KeyCode::F(1));
    key(&mut app, 'q');
    assert!(!app.quit, "q in the help quit the app");
    assert!(app.overlays.is_empty(), "q closes the help");
    for pane in Pane::ALL {
        app.apply(Action::Focus(pane));
        // In a text line ctrl-h is Backspace (tests_input.rs).
        if !pane.is_text() {
            ctrl(&mut app, 'h');
            assert_eq!(app.overlays, [Overlay::Help], "ctrl-h from {pane:?}");
            special(&mut app, KeyCode::Esc);
        }
        special(&mut app, KeyCode::F(1));
        assert_eq!(app.overlays, [Overlay::Help], "F1 from {pane:?}");
        special(&mut app, KeyCode::F(1));
    }
    // ? types in the Input; the status line there does not offer it.
    app.apply(Action::Focus(Pane::Input));
    key(&mut app, '?');
    assert_eq!(app.input.text(), "https://example.com/?");
    let s = screen(&mut app, 200, 60);
    let status = s.lines().last().unwrap_or("");
    assert!(!status.contains("? "), "{status}");
    assert_shows(status, &["F1"]);
    // The help scrolls to its end, where the mouse is.
    special(&mut app, KeyCode::F(1));
    key(&mut app, 'G');
    let s = screen(&mut app, 80, 24);
    assert_shows(&s, &["wheel", "Keys"]);
}

#[test]
fn at_80x24_one_pane_fills_the_body_and_the_lines_stay() {
    let mut app = pinned(
        "https://user:pa%20ss@EXAMPLE.com:443/a/./b/../c?q=1#frag",
        "http://a/",
    );
    for pane in Pane::VIEWS {
        app.apply(Action::Focus(pane));
        let area = Rect::new(0, 0, 80, 24);
        let panes = super::ui::pane_areas(area, &app);
        let shown: Vec<Pane> = panes.iter().map(|(p, _)| *p).collect();
        assert_eq!(shown, [Pane::Input, Pane::Base, pane]);
        let rect = panes[2].1;
        assert!(rect.height >= 12, "{pane:?} has {} rows", rect.height);
        let s = screen(&mut app, 80, 24);
        assert_shows(&s, &["1 Input", "2 Base", "3 Trace 4 Components"]);
    }
    // Zoom keeps the Input line, at every size.
    app.apply(Action::Focus(Pane::Trace));
    key(&mut app, 'z');
    for (w, h) in SIZES.into_iter().chain([(60, 16), (40, 12)]) {
        let s = screen(&mut app, w, h);
        assert_shows(&s, &["1 Input", "3 Trace"]);
    }
    // At 60x16 the pane has rows of content, not a bare border.
    let s = screen(&mut app, 60, 16);
    assert_shows(&s, &["authority"]);
    // At 200x60, every pane at once, the trace long: it takes its column but the Parsers
    // table's header and rows under it.
    key(&mut app, 'z');
    let panes = super::ui::pane_areas(Rect::new(0, 0, 200, 60), &app);
    assert_eq!(panes.len(), 9);
    let height = |pane: Pane| {
        panes
            .iter()
            .find(|(p, _)| *p == pane)
            .map_or(0, |(_, r)| r.height)
    };
    assert!(height(Pane::Trace) >= 40, "{}", height(Pane::Trace));
    assert_eq!(height(Pane::Trace) + height(Pane::Parsers), 50);
}

#[test]
fn the_status_line_names_only_keys_that_act_and_messages_expire() {
    let mut app = pinned("https://example.com/", "");
    app.apply(Action::Paste("a".repeat(crate::MAX_INPUT)));
    assert!(app.message().is_some_and(|m| m.contains("limit")));
    key(&mut app, 'x');
    assert_eq!(
        app.message(),
        None,
        "the refusal outlived the input it was about"
    );
    app.apply(Action::Focus(Pane::Components));
    app.lists[Pane::Components.index()].selected = 5;
    special(&mut app, KeyCode::Enter);
    assert!(app.edit.is_some());
    special(&mut app, KeyCode::Esc);
    assert!(app.edit.is_none());
    let s = screen(&mut app, 120, 40);
    assert!(!s.contains("Editing"), "{s}");
    // The hints at 80 columns end with the help key.
    for pane in Pane::ALL {
        app.apply(Action::Focus(pane));
        let s = screen(&mut app, 80, 24);
        let status = s.lines().last().unwrap_or("");
        assert!(status.trim_end().ends_with("help"), "{pane:?}: {status}");
    }
}

#[test]
fn the_base_line_has_history_too() {
    let mut app = pinned("", "");
    app.apply(Action::Focus(Pane::Input));
    for c in "../g".chars() {
        key(&mut app, c);
    }
    app.apply(Action::Focus(Pane::Base));
    for c in "http://a/b/c/d;p?q".chars() {
        key(&mut app, c);
    }
    special(&mut app, KeyCode::Enter);
    ctrl(&mut app, 'u');
    app.apply(Action::Focus(Pane::Input));
    ctrl(&mut app, 'u');
    for c in "draft".chars() {
        key(&mut app, c);
    }
    app.apply(Action::Focus(Pane::Base));
    special(&mut app, KeyCode::Up);
    assert_eq!(
        (app.input.text(), app.base.text()),
        ("../g", "http://a/b/c/d;p?q")
    );
    special(&mut app, KeyCode::Down);
    assert_eq!(
        (app.input.text(), app.base.text()),
        ("draft", ""),
        "the draft comes back"
    );
}

#[test]
fn the_clipboard_copies_say_what_and_the_host_pane_copies_its_row() {
    let mut app = pinned("https://user@例え.jp:443/x y", "");
    app.apply(Action::Focus(Pane::Host));
    key(&mut app, 'Y');
    let copied = app.pending_copy.take().map(|c| c.text).unwrap_or_default();
    assert!(
        copied.starts_with("warn credentials") || copied.contains("credentials"),
        "{copied}"
    );
    assert_ne!(copied, app.input.text());
    key(&mut app, 'u');
    assert_eq!(
        app.pending_copy.take().map(|c| c.text).as_deref(),
        Some("例え.jp")
    );
    key(&mut app, 'y');
    assert_eq!(
        app.pending_copy.take().map(|c| c.text).as_deref(),
        Some("https://user@xn--r8jz45g.jp/x%20y")
    );
}

#[test]
fn every_pane_scrolls_and_shows_where_it_is() {
    let spoof = "https://paypal.com:pw@www.paypal.com.ev\u{200b}il.co.uk\\@good.example/";
    let mut app = pinned(spoof, "");
    app.apply(Action::Focus(Pane::Host));
    let findings = app.findings().len();
    assert!(findings >= 4, "{findings}");
    let mut seen = std::collections::BTreeSet::new();
    for _ in 0..findings {
        let s = screen(&mut app, 80, 24);
        for f in app.findings() {
            if s.contains(f.id) {
                seen.insert(f.id);
            }
        }
        key(&mut app, 'j');
    }
    assert_eq!(
        seen.len(),
        app.findings()
            .iter()
            .map(|f| f.id)
            .collect::<std::collections::BTreeSet<_>>()
            .len()
    );
    let s = screen(&mut app, 120, 40);
    let counts = format!("{} danger", app.derived.danger);
    assert_shows(&s, &["6 Host · ", &counts]);
    assert!(s.contains(&format!("/{} ", app.derived.host.len())), "{s}");
    // The resolution table is reachable at 120x40 without zoom.
    let mut app = pinned("../g", "http://a/b/c/d;p?q");
    app.apply(Action::Focus(Pane::Resolution));
    key(&mut app, 'G');
    let s = screen(&mut app, 120, 40);
    assert_shows(&s, &["g\\h", "http://a/b/c/g/h"]);
    // The trace shows its position.
    app.apply(Action::Focus(Pane::Trace));
    key(&mut app, 'j');
    let s = screen(&mut app, 120, 40);
    let (trace, index) = (app.trace().expect("traced"), app.row_index().expect("rows"));
    let total = app.trace_rows.total(trace, &index);
    assert!(total < trace.len());
    assert!(s.contains(&format!(" 2/{total} ")), "{s}");
}

#[test]
fn a_failing_base_is_explained_everywhere() {
    let mut app = pinned("../g", "not a base");
    let s = screen(&mut app, 200, 60);
    assert_shows(
        &s,
        &[
            "the base URL is not a URL",
            "No trace: the base URL fails to parse",
            "The base URL fails to parse",
            "the base is not a URL: missing-scheme-non-relative-URL",
        ],
    );
    assert!(!s.contains("the input has its own scheme"), "{s}");
    // A base that parses with validation errors says so on its line.
    let mut app = pinned("g", "http://u@a/b\\c");
    let s = screen(&mut app, 120, 40);
    assert_shows(&s, &["in the base: invalid-credentials"]);
}

#[test]
fn colours_and_marks_mean_one_thing() {
    let mut app = pinned("https://user@h.example/a b", "");
    let buffer = super::snapshot::render(&mut app, 120, 40, &COLOR);
    // Input row 2 (verdict above, border), userinfo at columns 9..13.
    let userinfo = &buffer[(9, 2)];
    assert_eq!(userinfo.symbol(), "u");
    assert_ne!(userinfo.fg, Color::Red, "userinfo looks like an error");
    // The caret row underlines carets only.
    let caret_row = 4;
    for x in 1..100 {
        let cell = &buffer[(x, caret_row)];
        if cell.symbol() == " " {
            assert!(
                !cell.modifier.contains(Modifier::UNDERLINED),
                "blank at {x} underlined"
            );
        }
    }
    // The focused pane's border is coloured; the others are not.
    app.apply(Action::Focus(Pane::Errors));
    let buffer = super::snapshot::render(&mut app, 120, 40, &COLOR);
    let area = Rect::new(0, 0, 120, 40);
    let panes = super::ui::pane_areas(area, &app);
    let border = |pane: Pane| {
        let r = panes
            .iter()
            .find(|(p, _)| *p == pane)
            .map(|(_, r)| *r)
            .unwrap_or_default();
        buffer[(r.x, r.y + 1)].fg
    };
    assert_eq!(border(Pane::Errors), Color::Yellow);
    assert_ne!(border(Pane::Host), Color::Yellow);
    // The selected error stands out in the input from the others.
    let mut app = pinned("https://u@h/a b<", "");
    app.apply(Action::Focus(Pane::Errors));
    key(&mut app, 'j');
    let buffer = super::snapshot::render(&mut app, 120, 40, &COLOR);
    let e = &app.report.errors[app.selected(Pane::Errors)];
    let other = app
        .report
        .errors
        .iter()
        .find(|o| o.span != e.span)
        .expect("two errors");
    let at = |i: usize| buffer[(1 + i as u16, 2)].modifier;
    assert!(at(e.span.start).contains(Modifier::REVERSED));
    assert!(!at(other.span.start).contains(Modifier::REVERSED));
}

#[test]
fn keys_and_the_mouse_reach_what_they_point_at() {
    let mut app = pinned("https://h.example:1/p?q", "");
    // j goes through every row, origin included.
    app.apply(Action::Focus(Pane::Components));
    key(&mut app, 'j');
    assert_eq!(
        app.component_rows()[app.selected(Pane::Components)].key,
        "origin"
    );
    // The wheel scrolls the pane under the pointer, not the focused one.
    app.apply(Action::Scroll {
        pane: Pane::Trace,
        down: true,
    });
    assert_eq!(app.step(), 1);
    assert_eq!(app.focus, Pane::Components);
    // A click in the Input moves the cursor there.
    let _ = screen(&mut app, 120, 40);
    app.apply(Action::Click {
        pane: Pane::Input,
        row: 0,
        column: 3,
    });
    assert_eq!((app.focus, app.input.cursor()), (Pane::Input, 3));
    // A click on a row selects it.
    let _ = screen(&mut app, 120, 40);
    app.apply(Action::Click {
        pane: Pane::Components,
        row: 5,
        column: 2,
    });
    let _ = screen(&mut app, 120, 40);
    assert_eq!(
        app.component_rows()[app.selected(Pane::Components)].key,
        "host"
    );
    // F2 turns the mouse off and on, and says so.
    special(&mut app, KeyCode::F(2));
    assert!(!app.mouse);
    assert!(app
        .message()
        .is_some_and(|m| m.contains("terminal selects text")));
    // Tab during a component edit keeps the typed text.
    app.apply(Action::Focus(Pane::Components));
    special(&mut app, KeyCode::Enter);
    for c in "xyz".chars() {
        key(&mut app, c);
    }
    special(&mut app, KeyCode::Tab);
    assert_eq!(
        app.edit.as_ref().map(|e| e.editor.text()),
        Some("h.example:1xyz")
    );
    assert!(app
        .message()
        .is_some_and(|m| m.contains("Enter runs the setter")));
}

#[test]
fn selecting_an_error_moves_the_trace_to_its_step() {
    let mut app = pinned("https://user@例え.jp:443/x y", "");
    app.apply(Action::Focus(Pane::Errors));
    key(&mut app, 'j');
    let error = &app.report.errors[app.selected(Pane::Errors)];
    assert_eq!(error.kind.name(), "invalid-URL-unit");
    let trace = app.report.trace.as_ref().expect("trace");
    assert!(trace.view(app.step()).errors.contains(&error));
    // Its detail view has the whole message, and y copies it.
    key(&mut app, 'd');
    assert_eq!(app.overlays, [Overlay::Detail]);
    key(&mut app, 'y');
    let copied = app.pending_copy.take().map(|c| c.text).unwrap_or_default();
    assert!(copied.starts_with("invalid-URL-unit at 24..25"), "{copied}");
    let s = screen(&mut app, 80, 24);
    assert_shows(&s, &["the selected row in full", "meaning"]);
    // A click on a tab shows its pane.
    let laid_out = super::ui::screen(Rect::new(0, 0, 80, 24), &app);
    let tabs = laid_out.tabs.expect("a tab bar");
    let shown = laid_out.panes.last().map(|(p, _)| *p);
    let event = crossterm::event::Event::Mouse(crossterm::event::MouseEvent {
        kind: crossterm::event::MouseEventKind::Down(crossterm::event::MouseButton::Left),
        column: 20,
        row: tabs.y,
        modifiers: KeyModifiers::NONE,
    });
    let action = super::action_for_event(event, &app, Rect::new(0, 0, 80, 24));
    assert_eq!(
        action,
        super::ui::tab_at(20, tabs.width, shown).map(Action::Focus)
    );
    assert!(action.is_some());
}

#[test]
fn the_first_screen_welcomes_and_the_gallery_gives_the_url_back() {
    let mut app = pinned("", "");
    let s = screen(&mut app, 80, 24);
    assert_shows(&s, &["Welcome", "ctrl-n"]);
    assert!(!s.contains("Failure"), "{s}");
    for c in "mine".chars() {
        key(&mut app, c);
    }
    app.apply(Action::Focus(Pane::Base));
    for c in "http://b/".chars() {
        key(&mut app, c);
    }
    ctrl(&mut app, 'n');
    let first = &gallery()[0];
    assert_eq!(app.input.text(), first.input);
    // The lesson is there in full, wrapped.
    for (i, example) in gallery().iter().enumerate() {
        while app.gallery.as_ref().map(|g| g.position) != Some(i) {
            ctrl(&mut app, 'n');
        }
        let s = screen(&mut app, 80, 24);
        let flat: String = s.lines().take(7).collect::<Vec<_>>().join(" ");
        let flat = flat.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(
            flat.contains(
                &example
                    .text(crate::gallery::Surface::Terminal)
                    .split_whitespace()
                    .collect::<Vec<_>>()
                    .join(" ")
            ),
            "{s}"
        );
    }
    ctrl(&mut app, 'n');
    assert_eq!((app.input.text(), app.base.text()), ("mine", "http://b/"));
}

/// The ruler under the Input says where each code point ended up, as the parse put it: on
/// the lesson about `file://c:/x`, `c:` is the path (the host is empty), the first of two `@`
/// is in the username, `..` and what it removed went nowhere, and so did a removed tab.
/// Delimiters go with what they start: `?` with the query, `#` with the fragment.
#[test]
fn the_ruler_shows_where_each_code_point_ended_up() {
    let cases = [
        ("file://c:/x", "", "sssss··pppp"),
        ("http://a@b@c/", "", "sssss··uuuuhp"),
        ("https:example.com", "", "sssssshhhhhhhhhhh"),
        ("../x?y", "http://h/a/b", "··ppqq"),
        ("file:///C|/x", "", "sssss··ppppp"),
        (
            "http://ex\tample.com/a/../b c",
            "",
            "sssss··hh·hhhhhhhhh·····pppp",
        ),
        ("https://h/p?q#f", "", "ssssss··hppqqff"),
        // After a host failure, the host is what the parse failed on, and the "/" nothing.
        ("https://a b/c", "", "ssssss··hhh··"),
    ];
    for (input, base, expected) in cases {
        let mut app = pinned(input, base);
        let s = screen(&mut app, 120, 40);
        let ruler = s
            .lines()
            .skip_while(|l| !l.contains(" 1 Input "))
            .nth(2)
            .unwrap_or("");
        let ruler = ruler.trim_start_matches('│').trim_end_matches('│').trim();
        assert_eq!(ruler, expected, "{input:?} against {base:?}:\n{s}");
    }
}

/// A host that fails is named as `parse` names it: the verdict line and the Components pane
/// give the domain parser's step 8 (not the domain-to-ASCII error, whose step 2 "does not
/// return"), the Errors pane calls that error a warning and names the step, and `f` applies
/// the failure's fix.
#[test]
fn a_failing_host_is_named_by_its_step_everywhere() {
    let cases = [
        (
            "https://exa mple.com\\path",
            "11..12",
            "https://example.com\\path",
            "removed “ ”",
        ),
        ("http://a b/", "8..9", "http://ab/", "removed “ ”"),
        (
            "https://ex%20ample.com/",
            "10..13",
            "https://example.com/",
            "removed “%20”",
        ),
        (
            "https://a..b%00/",
            "12..15",
            "https://a..b/",
            "removed “%00”",
        ),
    ];
    for (input, span, fixed, edits) in cases {
        let mut app = pinned(input, "");
        let step = format!("not a URL: domain parser step 8 at {span}: The domain");
        let s = screen(&mut app, 200, 60);
        let top = s.lines().next().unwrap_or("");
        assert!(top.starts_with(&format!("✗ {step}")), "{input}: {top}");
        assert!(!s.contains("not a URL: domain-to-ASCII"), "{input}:\n{s}");
        app.apply(Action::Focus(Pane::Errors));
        let s = screen(&mut app, 200, 60);
        assert_shows(&s, &["only a warning: the URL fails at domain parser"]);
        assert!(!s.contains("this error fails the parse"), "{input}:\n{s}");
        let last = app.report.errors.len() - 1;
        assert_eq!(app.report.errors[last].kind.name(), "domain-to-ASCII");
        app.apply(Action::Focus(Pane::Components));
        app.apply(Action::Focus(Pane::Errors));
        for _ in 0..last {
            key(&mut app, 'j');
        }
        let (_, fields, _) = app.detail();
        assert_eq!(
            field(&fields, "effect"),
            "only a warning: the URL fails at domain parser step 8",
            "{input}"
        );
        assert_eq!(
            field(&fields, "fix"),
            format!("f makes the Input a URL (domain parser step 8): {edits}"),
            "{input}"
        );
        key(&mut app, 'f');
        assert_eq!(app.input.text(), fixed, "{input}");
        assert!(app.report.url.is_some(), "{input}");
        assert!(
            app.message()
                .is_some_and(|m| m.starts_with("Fixed the failure (domain parser step 8)")),
            "{input}: {:?}",
            app.message()
        );
    }
}

#[test]
fn the_verdict_line_says_where_it_goes() {
    let mut app = pinned("https://paypal.com@evil.example/", "");
    let s = screen(&mut app, 120, 40);
    let top = s.lines().next().unwrap_or("");
    assert!(top.contains("→ connects to evil.example"), "{top}");
    assert!(top.contains("danger") || top.contains("warn"), "{top}");
    let mut app = pinned("https://example.org/", "");
    let s = screen(&mut app, 120, 40);
    assert!(
        s.lines()
            .next()
            .unwrap_or("")
            .contains("✓ nothing suspicious"),
        "{s}"
    );
}

/// The verdict line says the parsers disagree on where the URL goes exactly when the Parsers
/// pane's verdict is "elsewhere", and raises no alarm for a parser that refuses the URL.
#[test]
fn the_verdict_line_says_when_the_parsers_go_elsewhere() {
    // With a base there is no host finding (it reads inputs alone), but the pane reads with
    // the base: strict RFC 3986 keeps 0x7f.1 where we and rust-url read 127.0.0.1.
    let mut app = pinned("http://0x7f.1/", "http://base.example/");
    assert_eq!(
        app.parsers.comparison.as_ref().map(|c| c.verdict()),
        Some(crate::diff::Verdict::Elsewhere)
    );
    let ids = app
        .report
        .host_analysis
        .as_ref()
        .expect("an analysis")
        .ids();
    assert!(!ids.contains(&"parser-differential"), "{ids:?}");
    let s = screen(&mut app, 120, 40);
    let top = s.lines().next().unwrap_or("");
    assert!(top.contains("✗ parsers disagree on where it goes"), "{top}");
    assert!(!top.contains("nothing suspicious"), "{top}");
    assert_eq!(
        app.derived.verdict.as_ref().and_then(|v| v.worst),
        Some(crate::inspect::Severity::Danger)
    );
    assert!(s.contains("Parsers · ✗ disagree on where it goes"), "{s}");
    // Strict RFC 3986 refuses the "|": the others all go to example.com:443.
    let mut app = pinned("https://example.com/?q=a|b", "");
    let s = screen(&mut app, 120, 40);
    let top = s.lines().next().unwrap_or("");
    assert!(top.contains("✓ nothing suspicious"), "{top}");
    assert!(!top.contains("disagree"), "{top}");
    assert!(
        s.contains("Parsers · refused by rfc3986; the others agree"),
        "{s}"
    );
}

#[test]
fn the_verdict_line_does_not_pass_an_internal_destination() {
    // The verdict reads the findings: localhost, a metadata name and an opaque host that spells
    // a loopback address are not "nothing suspicious".
    for (input, severity) in [
        ("http://localhost/", "1 warn"),
        ("http://local\u{AD}host/", "2 warn"),
        ("http://metadata.google.internal/", "1 danger"),
        ("gopher://127.0.0.1:6379/_FLUSHALL", "1 warn"),
        ("dict://localhost:11211/stat", "1 warn"),
    ] {
        let mut app = pinned(input, "");
        let s = screen(&mut app, 120, 40);
        let top = s.lines().next().unwrap_or("");
        assert!(!top.contains("nothing suspicious"), "{input}: {top}");
        assert!(top.contains(severity), "{input}: {top}");
    }
}

#[test]
fn an_input_over_the_trace_limit_is_inspected_without_a_trace() {
    let long = "a".repeat(crate::MAX_TRACED_INPUT);
    let mut app = pinned(&format!("https://example.com/{long} b"), "");
    assert!(app.report.trace.is_none());
    let url = app.report.url.as_ref().expect("it parses");
    assert_eq!(url.pathname(), format!("/{long}%20b"));
    app.apply(Action::Focus(Pane::Trace));
    app.apply(Action::StepNext);
    let s = screen(&mut app, 120, 40);
    let shown = format!("Not traced: the input is {} bytes", long.len() + 22);
    assert_shows(&s, &[&shown]);
}

#[test]
fn no_control_or_invisible_reaches_the_screen_in_any_pane() {
    let inputs = [
        "https://x/\u{1b}]52;c;QUFBQQ==\u{7}\u{1b}[2J\u{202E}?a\u{1b}[31m#\u{9b}31m\u{85}",
        "https://ex\u{202e}ample.com\u{1b}[2J/",
        "sc:\u{1b}[2J\u{200b}\u{2066}x\u{7f}",
        "\u{1b}]52;c;AAAA\u{7}",
        "https://u\u{1b}[2J:p\u{202e}@h/",
    ];
    let base = "https://b/\u{1b}]0;title\u{7}\u{202e}/";
    for input in inputs {
        let mut app = pinned(input, base);
        let mut screens = vec![screen(&mut app, 120, 40), screen(&mut app, 80, 24)];
        for pane in Pane::ALL {
            app.apply(Action::Focus(pane));
            app.apply(Action::ToggleZoom);
            app.apply(Action::ToggleExpand);
            app.apply(Action::ToggleDetail);
            screens.push(screen(&mut app, 120, 40));
            app.apply(Action::Back);
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
    let zoomed = |input: &str, base: &str| {
        let mut app = pinned(input, base);
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
        ],
    );
    let s = zoomed("https://h/a b", "");
    assert_shows(
        &s,
        &[
            "writing: not a valid URL string   parser: validation errors",
            "at 11: path segment: U+0020 is not a URL code point",
        ],
    );
    // A relative-URL string is a valid URL string only relative to a base URL.
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
}

#[test]
fn editing_a_component_runs_its_setter_with_a_trace() {
    let mut app = pinned("https://example.com/a", "");
    app.apply(Action::Focus(Pane::Components));
    let host = app
        .component_rows()
        .iter()
        .position(|r| r.key == "host")
        .unwrap_or(0);
    app.lists[Pane::Components.index()].selected = host;
    special(&mut app, KeyCode::Enter);
    assert!(app.edit.is_some());
    ctrl(&mut app, 'u');
    for c in "EXAMPLE.net:8080".chars() {
        key(&mut app, c);
    }
    special(&mut app, KeyCode::Enter);
    assert_eq!(app.input.text(), "https://example.net:8080/a");
    let run = app.setter_run.as_ref().expect("a setter run");
    assert_eq!(run.component, Component::Host);
    assert_eq!(
        run.trace.view(1).phase,
        crate::url::Phase::State(crate::url::State::Host)
    );
}

/// Whether this machine's libcurl reads `input`, a file: URL that starts with a Windows drive
/// letter (`file:///C|/…`, `file://c:/x`). The snapshots hold the screens of a libcurl that
/// refuses them, as Linux's and macOS's do (the Host pane says "curl refuses it"); Windows's
/// libcurl reads them as a drive's path. Where it reads them, the screen is checked for naming
/// curl as it reads rather than against Linux's words.
fn curl_reads_a_drive_letter(input: &str) -> bool {
    let drive = input
        .strip_prefix("file:")
        .map(|rest| rest.trim_start_matches('/').as_bytes())
        .is_some_and(|p| p.len() >= 2 && p[0].is_ascii_alphabetic() && matches!(p[1], b':' | b'|'));
    drive && !crate::diff::Builtin::Curl.read(input, None).failure
}

/// The screen of a drive letter lesson where libcurl reads it: the Host pane does not say that
/// curl refuses it, and the lesson's input is on screen.
fn assert_curl_named_as_it_reads(s: &str, input: &str) {
    assert!(!s.contains("curl refuses"), "{s}");
    assert_shows(s, &[input]);
}

/// Whole screens for the gallery's lessons, a 300-label host and a 10 KB query, at three sizes,
/// and each report pane on its own at 80x24.
#[test]
fn snapshots() {
    // The lessons that run a setter or another encoding have snapshots of their own.
    let mut cases: Vec<(String, String, String)> = gallery()
        .iter()
        .enumerate()
        .filter(|(_, e)| e.set.is_none() && e.encoding.is_none())
        .map(|(i, e)| {
            (
                format!("lesson_{i:02}"),
                e.input.clone(),
                e.base.clone().unwrap_or_default(),
            )
        })
        .collect();
    cases.push(("host_300_labels".into(), long_host(), String::new()));
    cases.push(("query_10kb".into(), long_query(), String::new()));
    for (name, input, base) in &cases {
        for (w, h) in SIZES {
            let mut app = pinned(input, base);
            let s = screen(&mut app, w, h);
            if curl_reads_a_drive_letter(input) {
                assert_curl_named_as_it_reads(&s, input);
                continue;
            }
            insta::assert_snapshot!(format!("{name}_{w}x{h}"), s);
        }
    }
    for (name, input, base) in cases.iter().filter(|(n, ..)| {
        [
            "lesson_00",
            "lesson_12",
            "lesson_19",
            "host_300_labels",
            "query_10kb",
        ]
        .contains(&n.as_str())
    }) {
        let mut app = pinned(input, base);
        for pane in Pane::VIEWS {
            app.apply(Action::Focus(pane));
            insta::assert_snapshot!(
                format!("{name}_{}_80x24", pane.tab().to_lowercase()),
                screen(&mut app, 80, 24)
            );
        }
    }
}

#[test]
fn dump() {
    let Ok(spec) = std::env::var("DUMP") else {
        return;
    };
    // DUMP="input|base|keys|WxH"
    let parts: Vec<&str> = spec.split('|').collect();
    let mut app = pinned(parts[0], parts[1]);
    for k in parts[2].split(',').filter(|k| !k.is_empty()) {
        match k {
            "tab" => press(&mut app, KeyCode::Tab, KeyModifiers::NONE),
            "esc" => press(&mut app, KeyCode::Esc, KeyModifiers::NONE),
            "enter" => press(&mut app, KeyCode::Enter, KeyModifiers::NONE),
            "f1" => press(&mut app, KeyCode::F(1), KeyModifiers::NONE),
            "down" => press(&mut app, KeyCode::Down, KeyModifiers::NONE),
            k if k.starts_with('^') => press(
                &mut app,
                KeyCode::Char(k.chars().nth(1).unwrap_or('c')),
                KeyModifiers::CONTROL,
            ),
            k if k.starts_with('@') => press(
                &mut app,
                KeyCode::Char(k.chars().nth(1).unwrap_or('1')),
                KeyModifiers::ALT,
            ),
            k => k.chars().for_each(|c| key(&mut app, c)),
        }
    }
    let (w, h) = parts[3].split_once('x').unwrap_or(("120", "40"));
    println!(
        "{}",
        screen(&mut app, w.parse().unwrap_or(120), h.parse().unwrap_or(40))
    );
    let _ = (Action::Quit, Overlay::Help, Pane::Input);
}

/// The Trace pane's explanation strip in step mode, at the step that reads the "@" of the
/// userinfo, at 80x24 and 120x40: the state, pointer and c; the standard's step and what it does; what changed; what comes
/// next. Nothing is cut without "…".
#[test]
fn explanation_strip_snapshots() {
    for (w, h) in [(80, 24), (120, 40)] {
        let mut app = pinned("https://user@ex.com/a", "");
        app.apply(Action::Focus(Pane::Trace));
        for _ in 0..14 {
            key(&mut app, 'l');
        }
        assert!(app.step_mode);
        let shown = screen(&mut app, w, h);
        assert!(shown.contains("Why? Step 14"), "{shown}");
        insta::assert_snapshot!(format!("explanation_strip_{w}x{h}"), shown);
    }
}

/// At the step that ran the host parser, the strip goes on with the host parser's own steps,
/// each named and explained: here the IPv4 number parser reading "0x7f" in radix 16. At
/// 80x24 and 120x40 the strip has no room for them and says so with "…"; zoomed, it shows them.
#[test]
fn the_strip_explains_the_host_parsers_steps() {
    let input = "http://0x7f.1/";
    let trace = crate::Report::new(input, None).trace.expect("traced");
    let host_step = (0..trace.len())
        .find(|&i| !trace.view(i).host_events.is_empty())
        .expect("a step runs the host parser");
    for (w, h) in [(80, 24), (120, 40)] {
        let mut app = pinned(input, "");
        app.apply(Action::Focus(Pane::Trace));
        for _ in 0..host_step {
            key(&mut app, 'l');
        }
        let shown = screen(&mut app, w, h);
        assert!(shown.contains(&format!("Why? Step {host_step}")), "{shown}");
        if w == 80 {
            // No room for the host's steps: the strip's last line says more follows.
            let strip_end = shown
                .lines()
                .rfind(|l| l.starts_with('│') && l.trim_end().ends_with('│'))
                .unwrap_or_default();
            assert!(strip_end.contains('…'), "{shown}");
        } else {
            // Zoomed, the strip has room for them.
            key(&mut app, 'z');
            let shown = screen(&mut app, w, h);
            assert!(shown.contains("IPv4 number parser 4"), "{shown}");
            insta::assert_snapshot!(format!("explanation_strip_host_{w}x{h}"), shown);
        }
    }
}

/// The Parsers pane on the OWASP example, at three sizes, with the built-in parsers only (an
/// App's own lab), so the screens are the same on every machine.
#[test]
fn parsers_pane_snapshots() {
    let input = "http://example.com\\@evil.com";
    for (w, h) in SIZES {
        let mut app = pinned(input, "");
        app.apply(Action::Focus(Pane::Parsers));
        insta::assert_snapshot!(format!("parsers_{w}x{h}"), screen(&mut app, w, h));
    }
}

#[test]
fn the_strip_wraps_and_marks_what_it_cuts() {
    use super::panes::trace::wrap_with_ellipsis;
    let sentences = vec!["one two three four five six".to_owned(), "seven".to_owned()];
    assert_eq!(
        wrap_with_ellipsis(&sentences, 9, 10),
        ["one two", "three", "four five", "six", "seven"]
    );
    assert_eq!(wrap_with_ellipsis(&sentences, 9, 2), ["one two", "three…"]);
    assert_eq!(
        wrap_with_ellipsis(&sentences, 9, 3),
        ["one two", "three", "four fiv…"]
    );
    // Every sentence keeps a line; the lines left go to the first.
    assert_eq!(
        super::panes::trace::fit(&sentences, 9, 3),
        ["one two", "three…", "seven"]
    );
    // Fewer lines than sentences: the last line shown says that more follows.
    let three = ["one".to_owned(), "two".to_owned(), "three".to_owned()];
    assert_eq!(super::panes::trace::fit(&three, 9, 2), ["one", "two…"]);
    assert_eq!(super::panes::trace::fit(&sentences, 9, 1), ["one two…"]);
}

#[test]
fn the_parsers_pane_marks_differences_and_the_span_a_parser_took() {
    let input = "http://example.com\\@evil.com";
    let mut app = App::new(input, "");
    key(&mut app, '\t');
    press(&mut app, KeyCode::Char('9'), KeyModifiers::ALT);
    assert_eq!(app.focus, Pane::Parsers);
    let s = screen(&mut app, 120, 40);
    // curl takes evil.com as the host (libcurl reads the backslash as part of the userinfo).
    assert_shows(&s, &["≠evil.com", "host (backslash)", "9 Parsers · ✗"]);
    let curl = app
        .parsers
        .names
        .iter()
        .position(|n| n == "curl")
        .expect("curl is built in");
    for _ in 0..curl {
        special(&mut app, KeyCode::Down);
    }
    assert_eq!(app.parsers.component(), crate::diff::Component::Host);
    // The input marks curl's host: "evil.com", after the "@".
    assert_eq!(app.parsers.marked(curl, input), Some(20..28));
    assert_eq!(app.parsers.marked(0, input), Some(7..18));
    // l moves to the path column: whatwg's "/@evil.com" is not in the input as typed.
    key(&mut app, 'l');
    key(&mut app, 'l');
    assert_eq!(app.parsers.component(), crate::diff::Component::Path);
    assert_eq!(app.parsers.marked(0, input), None);
    // The detail view gives the selected parser's reading in full, with the class.
    key(&mut app, 'h');
    key(&mut app, 'h');
    key(&mut app, 'd');
    let s = screen(&mut app, 120, 40);
    assert_shows(&s, &["\"evil.com\" ≠ whatwg (backslash)", "version"]);
}

/// An external parser's answer arrives after the frame was drawn and fills its row on a later
/// poll; drawing never waits for it.
#[test]
#[cfg_attr(windows, ignore = "reads with the python adapter, which runs python3")]
fn an_external_answer_fills_the_parsers_pane_when_it_arrives() {
    let lab = whatwg_and_python_lab();
    let mut app = App::new("http://example.com\\@evil.com", "");
    app.set_lab(lab);
    app.apply(Action::Focus(Pane::Parsers));
    // Drawing takes only what has arrived (nothing yet: answers are taken by a poll).
    let s = screen(&mut app, 120, 40);
    assert_shows(&s, &["waiting for its answer", "1 waiting"]);
    assert_eq!(app.parsers.pending(), vec!["python"]);
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while !app.poll_parsers() {
        assert!(
            std::time::Instant::now() < deadline,
            "python never answered"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    assert!(app.parsers.pending().is_empty());
    let s = screen(&mut app, 120, 40);
    // Python's urlsplit reads evil.com as the host.
    assert_shows(&s, &["python", "≠evil.com"]);
    assert!(!s.contains("waiting"), "{s}");
}

/// Every lesson as the gallery opens it (its setter run, its encoding), and at its step
/// (ctrl-t): nothing is cut without `…` at any size.
#[test]
fn no_lesson_screen_cuts_without_a_mark() {
    for (i, example) in gallery().iter().enumerate() {
        for (w, h) in SIZES {
            let mut app = pinned("", "");
            app.open_example(i);
            assert_nothing_cut_silently(&mut app, w, h, &example.input);
            ctrl(&mut app, 't');
            assert_nothing_cut_silently(&mut app, w, h, &example.input);
            app.apply(Action::Focus(Pane::Trace));
            key(&mut app, 'z');
            assert_nothing_cut_silently(&mut app, w, h, &example.input);
        }
    }
}

/// The gallery's example that satisfies `f`.
fn lesson(f: impl Fn(&crate::gallery::Example) -> bool) -> usize {
    gallery()
        .iter()
        .position(f)
        .expect("the gallery has the example")
}

/// The collapsed trace is the default: a run of steps that only append is one line (▸, ×n),
/// and a 70-step trace of an ordinary URL is 24 lines, whole on one screen at 120x40.
#[test]
fn collapsed_trace_snapshots() {
    let input = "https://example.com:8080/path/to/page?query=1#top";
    for (w, h) in [(80, 24), (120, 40)] {
        let mut app = pinned(input, "");
        app.apply(Action::Focus(Pane::Trace));
        let s = screen(&mut app, w, h);
        // The pane's 14 rows: eight lines of steps, and the compact strip for the selected one.
        assert_shows(
            &s,
            &["▸3 ", "scheme ×4", "buffer ← ttps", " 1/24 ", "Why? Step 0"],
        );
        insta::assert_snapshot!(format!("trace_collapsed_{w}x{h}"), s);
    }
    let mut app = pinned(input, "");
    app.apply(Action::Focus(Pane::Trace));
    key(&mut app, 'z');
    let s = screen(&mut app, 120, 40);
    // Zoomed, 21 of the 24 lines are on screen with the explanation strip under them.
    assert_shows(&s, &["0   remove leading", "▸58 query ×7", "Why? Step 0"]);
    insta::assert_snapshot!("trace_collapsed_zoomed_120x40", s);
    // O shows every step again, and says so in the title.
    key(&mut app, 'O');
    let s = screen(&mut app, 120, 40);
    assert_shows(&s, &["every step (O collapses)", " 1/70 ", "11 authority "]);
}

/// o on a run expands it: its steps get their own lines, marked ▾ and │, the first one
/// selected; o again collapses it and selects its line.
#[test]
fn expanded_run_snapshot() {
    let mut app = pinned("https://ex%41mple.com:443/", "");
    app.apply(Action::Focus(Pane::Trace));
    while app
        .row_index()
        .and_then(|i| i.run_of(app.step()).cloned())
        .is_none_or(|r| r.state.name() != "host state")
    {
        key(&mut app, 'j');
    }
    let run = app
        .row_index()
        .and_then(|i| i.run_of(app.step()).cloned())
        .expect("a run");
    assert_eq!(
        app.step(),
        run.steps.end - 1,
        "a collapsed run stands for its last step"
    );
    let (first, last) = (run.steps.start, run.steps.end - 1);
    // Zoomed, the pane has room for the explanation strip.
    key(&mut app, 'z');
    let collapsed = screen(&mut app, 120, 40);
    assert_shows(
        &collapsed,
        &[
            &format!("Why? Steps {first}–{last} stay in the host state"),
            &format!("▸{first} "),
        ],
    );
    key(&mut app, 'o');
    assert_eq!(app.step(), first);
    let s = screen(&mut app, 120, 40);
    assert_shows(
        &s,
        &[
            &format!("▾{first} "),
            &format!(" {} host ", first + 1),
            "authority ×17",
        ],
    );
    assert!(!s.contains(&format!("▸{first} ")));
    insta::assert_snapshot!("trace_expanded_run_120x40", s);
    // Collapsed again, its detail view says what the run holds.
    key(&mut app, 'o');
    key(&mut app, 'd');
    let s = screen(&mut app, 120, 40);
    assert_shows(
        &s,
        &[&format!(
            "steps {first}–{last} in the host state, each appending to the buffer"
        )],
    );
    special(&mut app, KeyCode::Esc);
    key(&mut app, 'o');
    // j walks the run's steps one by one now.
    key(&mut app, 'j');
    assert_eq!(app.step(), run.steps.start + 1);
    key(&mut app, ' ');
    assert_eq!(app.step(), run.steps.end - 1);
    assert!(screen(&mut app, 120, 40).contains(&format!("▸{first} ")));
    // A step that is no run says so.
    key(&mut app, 'j');
    key(&mut app, 'o');
    assert!(app.message().is_some_and(|m| m.starts_with("Not a run")));
}

/// h/l in step mode go step by step: entering a collapsed run expands it, so that the step
/// the strip explains has its own line; a click on a line selects its step.
#[test]
fn step_mode_enters_runs_and_clicks_select_lines() {
    let mut app = pinned("https://example.com/", "");
    app.apply(Action::Focus(Pane::Trace));
    for _ in 0..3 {
        key(&mut app, 'l');
    }
    assert!(app.step_mode);
    // Step 3 is the scheme state's first "t": its run is expanded.
    assert_eq!(app.step(), 3);
    let s = screen(&mut app, 120, 40);
    assert_shows(&s, &["▾3 ", "Why? Step 3 in the scheme state"]);
    // A click on the line of the authority run selects the run (its last step).
    key(&mut app, 'O');
    key(&mut app, 'O');
    key(&mut app, 'z');
    let _ = screen(&mut app, 120, 40);
    let lines = app.lists[Pane::Trace.index()].lines.borrow().clone();
    let index = app.row_index().expect("rows");
    let run = index.run_of(12).cloned().expect("the authority run");
    let line = app.trace_rows.line_of(run.steps.end - 1, &index);
    let row = lines
        .iter()
        .position(|l| *l == Some(line))
        .expect("on screen");
    app.apply(Action::Click {
        pane: Pane::Trace,
        row,
        column: 3,
    });
    assert_eq!(app.step(), run.steps.end - 1);
    // The wheel moves by lines too.
    app.apply(Action::Scroll {
        pane: Pane::Trace,
        down: true,
    });
    assert_eq!(app.step(), run.steps.end);
}

/// f in the Errors pane rewrites the Input so that the error goes away and says what it
/// rewrote; ctrl-z from the pane takes it back; an error without a fix says so.
#[test]
fn applying_a_fix_and_undoing_it() {
    let input = "https://exam%70le.org/a b";
    let mut app = pinned(input, "");
    app.apply(Action::Focus(Pane::Errors));
    assert_eq!(app.report.errors[0].kind.name(), "domain-percent-encoded");
    key(&mut app, 'f');
    assert_eq!(app.input.text(), "https://example.org/a b");
    assert!(
        app.message()
            == Some(
                "Fixed domain-percent-encoded: “exam%70le.org” → “example.org” (ctrl-z undoes)"
            ),
        "{:?}",
        app.message()
    );
    let s = screen(&mut app, 80, 24);
    insta::assert_snapshot!("fix_applied_80x24", s);
    ctrl(&mut app, 'z');
    assert_eq!(app.input.text(), input);
    let s = screen(&mut app, 80, 24);
    assert_shows(&s, &["Undone in the Input", "domain-percent-encoded"]);
    insta::assert_snapshot!("fix_undone_80x24", s);
    ctrl(&mut app, 'r');
    assert_eq!(app.input.text(), "https://example.org/a b");
    // The space in the path: the fix from the trace's selected step.
    let mut app = pinned("https://example.org/a b", "");
    app.apply(Action::Focus(Pane::Errors));
    app.apply(Action::Focus(Pane::Trace));
    assert!(!app
        .trace()
        .expect("traced")
        .view(app.step())
        .errors
        .is_empty());
    key(&mut app, 'f');
    assert_eq!(app.input.text(), "https://example.org/a%20b");
    // A step without an error, and an error without a fix.
    key(&mut app, 'g');
    key(&mut app, 'f');
    assert_eq!(app.message(), Some("This step raised no validation error."));
    let mut app = pinned("https://example.com:99999/", "");
    app.apply(Action::Focus(Pane::Errors));
    key(&mut app, 'f');
    assert!(
        app.message()
            .is_some_and(|m| m.starts_with("No fix for port-out-of-range")),
        "{:?}",
        app.message()
    );
    assert_eq!(app.input.text(), "https://example.com:99999/");
}

/// A setter lesson opens with the setter's trace; the lesson line says which setter ran on
/// what, and names the step to watch.
#[test]
fn setter_lesson_snapshots() {
    let port = lesson(|e| e.set.as_ref().is_some_and(|s| s.component == "port"));
    let mut app = pinned("", "");
    app.open_example(port);
    assert_eq!(app.input.text(), "https://example.com:8080/");
    let run = app.setter_run.as_ref().expect("the setter ran");
    assert_eq!((run.value.as_str(), run.failed), ("8080abc", false));
    app.apply(Action::Focus(Pane::Trace));
    let s = screen(&mut app, 120, 40);
    assert_shows(
        &s,
        &[
            "Trace of the port setter with \"8080abc\"",
            "step 2.1.5 (ctrl-t)",
        ],
    );
    insta::assert_snapshot!("lesson_setter_port_120x40", s);
    let protocol = lesson(|e| e.set.as_ref().is_some_and(|s| s.component == "protocol"));
    app.open_example(protocol);
    assert_eq!(app.input.text(), "https://example.com/");
    let s = screen(&mut app, 80, 24);
    insta::assert_snapshot!("lesson_setter_protocol_80x24", s);
    // ctrl-t goes to the step that returns early.
    ctrl(&mut app, 't');
    let s = screen(&mut app, 120, 40);
    assert_shows(&s, &["§ scheme state 2.1.1", "step mode"]);
}

/// A short trace leaves rows of the pane empty: the strip takes them, so that the lesson's
/// point is on screen whole. The port setter's trace is five steps; at its step 2.1.5 the
/// strip says that the rest of "8080abc" is ignored, which three lines would cut.
#[test]
fn the_strip_takes_the_rows_a_short_trace_leaves() {
    let port = lesson(|e| e.set.as_ref().is_some_and(|s| s.component == "port"));
    let mut app = pinned("", "");
    app.open_example(port);
    ctrl(&mut app, 't');
    assert!(app.step_mode);
    let s = screen(&mut app, 120, 40);
    let strip: String = s
        .lines()
        // The strip is the right column's text: between the last two borders.
        .map(|l| l.rsplit('│').nth(1).unwrap_or_default().trim_end())
        .collect::<Vec<_>>()
        .join(" ");
    for needle in [
        "Why? Step 5 in the port state, pointer 4, c “a”; the parser is done.",
        "§ port state 2.1.5: The port setter has set the port from the digits it read",
        "\"abc\" in \"8080abc\", is silently ignored.",
        "Changed: port is set to “8080”.",
    ] {
        assert!(strip.contains(needle), "strip lacks {needle:?}:\n{s}");
    }
    // Every step of the trace is still on screen.
    assert_shows(&s, &["0  remove ASCII tab", "▸1 port ×4", "5  port"]);
}

/// Editing the input gives a new trace, with its runs collapsed, while the selection stays
/// a step number. In step mode the selected step keeps its own line (its run expands);
/// otherwise a step that falls inside a run selects the run's line, and the strip and the
/// detail view speak of the step that line stands for, its last.
#[test]
fn a_new_trace_keeps_the_selection_on_a_line_it_shows() {
    let mut app = pinned("file:///x", "");
    app.apply(Action::Focus(Pane::Trace));
    for _ in 0..3 {
        key(&mut app, 'l');
    }
    assert_eq!((app.step(), app.step_mode), (3, true));
    let edit = |app: &mut App, text: &str| {
        app.apply(Action::Focus(Pane::Input));
        app.apply(Action::End);
        app.apply(Action::Insert(text.to_owned()));
        app.apply(Action::Focus(Pane::Trace));
    };
    edit(&mut app, "y");
    assert_eq!((app.step(), app.step_mode), (3, true));
    let s = screen(&mut app, 120, 40);
    assert_shows(
        &s,
        &["▾3 ", "Why? Step 3 in the scheme state, pointer 1, c “i”"],
    );
    // Out of step mode: step 3 is inside "scheme ×3" (steps 3 to 5), whose line is step 5.
    special(&mut app, KeyCode::Esc);
    assert!(!app.step_mode);
    edit(&mut app, "z");
    assert_eq!(app.step(), 5);
    key(&mut app, 'z');
    let s = screen(&mut app, 120, 40);
    assert_shows(
        &s,
        &[
            "▸3  scheme ×3",
            "Why? Steps 3–5 stay in the scheme state",
            "Its last, step 5 in the scheme state, pointer 3, c “e”",
        ],
    );
}

/// The value of `key` in a detail view's fields (the first, or "" when there is none).
fn field(fields: &[(String, String)], key: &str) -> String {
    fields
        .iter()
        .find(|(k, _)| k == key)
        .map(|(_, v)| v.clone())
        .unwrap_or_default()
}

/// Each validation error says whether browsers accept the URL with it, for this URL, and its
/// detail view says what f would rewrite. In a URL that fails, the error that failed it is
/// the one browsers reject; the others are only warnings.
#[test]
fn each_error_says_what_browsers_do_and_what_f_rewrites() {
    let errors_of = |input: &str| {
        let mut app = pinned(input, "");
        app.apply(Action::Focus(Pane::Errors));
        app
    };
    let mut app = errors_of("https://ex.com\\a");
    let s = screen(&mut app, 120, 40);
    assert_shows(
        &s,
        &[
            "invalid-reverse-solidus",
            "browsers accept the URL: it is only a warning",
        ],
    );
    let (_, fields, _) = app.detail();
    assert_eq!(
        field(&fields, "effect"),
        "browsers accept the URL: it is only a warning"
    );
    assert_eq!(field(&fields, "fix"), "f rewrites the Input: “\\” → “/”");
    let app = errors_of("https://u:p@ex.com/");
    assert_eq!(
        field(&app.detail().1, "fix"),
        "f rewrites the Input: removed “u:p@”; the href changes"
    );
    // A drive letter's "|" against a file base: "/C:", which keeps the href, as the page and
    // the command line fix it (the fix knows the base).
    let mut app = pinned("C|/d", "file:///x/y");
    app.apply(Action::Focus(Pane::Errors));
    let fix = field(&app.detail().1, "fix");
    assert!(
        fix.contains("“/C:”") && !fix.contains("href changes"),
        "{fix}"
    );
    // 4294967295 is one number, the address's last part: out of range for a byte, but the
    // last part may fill four, so the URL parses.
    let mut app = errors_of("http://4294967295/");
    let kinds: Vec<&str> = app.report.errors.iter().map(|e| e.kind.name()).collect();
    assert_eq!(kinds, ["IPv4-too-few-parts", "IPv4-out-of-range-part"]);
    key(&mut app, 'j');
    assert_eq!(
        field(&app.detail().1, "effect"),
        "browsers accept the URL: here it is only a warning"
    );
    // A tab (a warning) and then a port out of range (the failure).
    let mut app = errors_of("https://ex\t.com:99999/");
    let kinds: Vec<&str> = app.report.errors.iter().map(|e| e.kind.name()).collect();
    assert_eq!(kinds, ["invalid-URL-unit", "port-out-of-range"]);
    key(&mut app, 'z');
    let s = screen(&mut app, 120, 40);
    assert_shows(
        &s,
        &[
            "only a warning: the URL fails at port-out-of-range (port state)",
            "browsers reject the URL: this error fails the parse",
        ],
    );
    key(&mut app, 'j');
    assert_eq!(
        field(&app.detail().1, "fix"),
        "none: no rewrite is known that makes it parse (port-out-of-range (port state))"
    );
}

/// The detail view of a step explains each step of the standard the parser took there, with
/// its link, and each of the host parser's sub-steps: what the strip cuts on a small screen
/// is whole there.
#[test]
fn a_steps_detail_view_explains_every_step_it_took() {
    let input = "http://0x7f.1/";
    let trace = crate::Report::new(input, None).trace.expect("traced");
    let host_step = (0..trace.len())
        .find(|&i| !trace.view(i).host_events.is_empty())
        .expect("a step runs the host parser");
    let mut app = pinned(input, "");
    app.apply(Action::Focus(Pane::Trace));
    for _ in 0..host_step {
        key(&mut app, 'l');
    }
    let (_, fields, _) = app.detail();
    let specs: Vec<&str> = fields
        .iter()
        .filter(|(k, _)| k == "spec")
        .map(|(_, v)| v.as_str())
        .collect();
    assert_eq!(specs.len(), 3, "{fields:?}");
    assert!(
        specs[0].starts_with("§ host state 3: c ends the host")
            && specs[1].starts_with("§ host state 3.3: The buffer is parsed as a host")
            && specs[1].ends_with("<https://url.spec.whatwg.org/#host-state>")
            && specs[2].starts_with("§ host state 3.5: The parsed host becomes the URL's host"),
        "{specs:?}"
    );
    let text: Vec<String> = fields.iter().map(|(k, v)| format!("{k} {v}")).collect();
    let at = text
        .iter()
        .position(|l| l == "host IPv4 part 0x7f (radix 16) = 127")
        .expect("the sub-step");
    assert!(
        text[at + 1].starts_with(" § IPv4 number parser 4: ")
            && text[at + 1].contains("radix 16")
            && text[at + 1].ends_with("<https://url.spec.whatwg.org/#ipv4-number-parser>"),
        "{}",
        text[at + 1]
    );
}

/// The encoding lesson parses the query in windows-1252 and says so on the Input line; the
/// next lesson is UTF-8 again.
#[test]
fn encoding_lesson_snapshots() {
    let at = lesson(|e| e.encoding.is_some());
    let mut app = pinned("", "");
    app.open_example(at);
    assert_eq!(
        app.report.url.as_ref().map(|u| u.href()),
        Some("https://example.com/?%E4")
    );
    for (w, h) in [(80, 24), (120, 40)] {
        let s = screen(&mut app, w, h);
        assert_shows(&s, &["query encoding windows-1252", "%E4"]);
        insta::assert_snapshot!(format!("lesson_encoding_{w}x{h}"), s);
    }
    // Typing keeps the encoding; another lesson (or your own URL) resets it.
    app.apply(Action::Focus(Pane::Input));
    key(&mut app, 'x');
    assert_eq!(
        app.report.url.as_ref().map(|u| u.href()),
        Some("https://example.com/?%E4x")
    );
    ctrl(&mut app, 'p');
    assert_eq!(app.encoding, encoding_rs::UTF_8);
    ctrl(&mut app, 'n');
    assert_eq!(app.encoding.name(), "windows-1252");
    ctrl(&mut app, 'n');
    assert_eq!(app.encoding, encoding_rs::UTF_8);
    for _ in at + 1..gallery().len() {
        ctrl(&mut app, 'n');
    }
    assert!(app.gallery.is_none(), "back to the person's own URL");
    assert_eq!(app.encoding, encoding_rs::UTF_8);
}

/// ctrl-t selects the lesson's step in step mode, expanding the run it is in; the strip
/// explains it and the lesson line names it.
#[test]
fn jump_to_the_lessons_step_snapshot() {
    let at = lesson(|e| e.input == "../../../x");
    let mut app = pinned("", "");
    app.open_example(at);
    let s = screen(&mut app, 120, 40);
    assert_shows(&s, &["watch the path state, step 1.2.1 (ctrl-t)"]);
    ctrl(&mut app, 't');
    assert_eq!((app.focus, app.step_mode), (Pane::Trace, true));
    let s = screen(&mut app, 120, 40);
    assert_shows(
        &s,
        // The lesson names the step that decided, 1.2.1 (a double-dot segment shortens the
        // path), so the strip and the status line name it too.
        &["§ path state 1.2.1:", "Step 7: the path state, step 1.2.1"],
    );
    insta::assert_snapshot!("lesson_jump_to_step_120x40", s);
    // A step inside a run expands it.
    let at = lesson(|e| e.input == "https://user:pa%20ss@EXAMPLE.com:443/a/./b/../c?q=1#frag");
    app.open_example(at);
    ctrl(&mut app, 't');
    let trace = app.trace().expect("traced");
    assert_eq!(trace.view(app.step()).phase.name(), "port state");
    // Without a lesson, ctrl-t says where lessons are.
    let mut app = pinned("https://example.com/", "");
    ctrl(&mut app, 't');
    assert!(app.message().is_some_and(|m| m.contains("ctrl-n")));
}

/// The spec link of the strip is recorded where it is drawn, for the runner's OSC 8
/// hyperlink; the screen itself holds only its text.
#[test]
fn the_strips_spec_link_is_a_hyperlink_where_it_is_drawn() {
    for (w, h) in SIZES {
        let mut app = pinned("https://user@ex.com/a", "");
        app.apply(Action::Focus(Pane::Trace));
        for _ in 0..14 {
            key(&mut app, 'l');
        }
        let buffer = super::snapshot::render(&mut app, w, h, &PLAIN);
        let links = app.links.borrow().clone();
        // "user" (no ":") is appended to the username: 1.4.4.
        assert_eq!(links[0].text, "§ authority state 1.4.4", "{links:?}");
        for link in &links {
            assert_eq!(link.url, "https://url.spec.whatwg.org/#authority-state");
            let drawn: String = (0..link.text.chars().count() as u16)
                .map(|i| buffer[(link.x + i, link.y)].symbol().to_owned())
                .collect();
            assert_eq!(drawn, link.text);
        }
        assert!(!super::snapshot::to_text(&buffer).contains('\u{1b}'));
    }
    let lines = ["§ path state 1.2: x <https://url.spec.whatwg.org/#path-st…".to_owned()];
    let links = super::panes::trace::links_in(
        &lines,
        "§ path state 1.2",
        "https://url.spec.whatwg.org/#path-state",
        3,
        4,
    );
    assert_eq!(
        links
            .iter()
            .map(|l| (l.x, l.y, l.text.as_str()))
            .collect::<Vec<_>>(),
        [
            (3, 4, "§ path state 1.2"),
            (24, 4, "https://url.spec.whatwg.org/#path-st")
        ]
    );
    // The variable decides; else the terminal's name.
    use super::hyperlinks_wanted as wanted;
    assert!(wanted(Some("1"), Some("dumb"), None));
    assert!(!wanted(Some("0"), Some("xterm-256color"), None));
    assert!(wanted(None, Some("xterm-256color"), None));
    for version in ["3.4", "3.5a", "next-3.6", "4.0"] {
        assert!(
            wanted(None, Some("tmux-256color"), Some(version)),
            "{version}"
        );
    }
    for version in ["3.3a", "2.9", ""] {
        assert!(
            !wanted(None, Some("tmux-256color"), Some(version)),
            "{version}"
        );
    }
    for term in [
        None,
        Some(""),
        Some("dumb"),
        Some("linux"),
        Some("vt100"),
        Some("screen"),
    ] {
        assert!(!wanted(None, term, None), "{term:?}");
    }
}

/// A setter that does not run the basic URL parser leaves no steps: the Trace pane names the
/// setter's own step that decided and what it does, at every size, cut only with "…". The
/// port setter on a file: URL returns at its step 1 (whatwg/url#623: it silently does nothing).
#[test]
fn a_setter_without_steps_names_the_step_that_decided() {
    let mut app = pinned("file:///x", "");
    app.apply(Action::Focus(Pane::Components));
    let port = app
        .component_rows()
        .iter()
        .position(|r| r.key == "port")
        .expect("a port row");
    app.lists[Pane::Components.index()].selected = port;
    special(&mut app, KeyCode::Enter);
    for c in "8080".chars() {
        key(&mut app, c);
    }
    special(&mut app, KeyCode::Enter);
    let run = app.setter_run.as_ref().expect("the setter ran");
    assert!(run.trace.is_empty());
    assert_eq!(
        app.message(),
        Some("The port setter changed nothing: its step 1 decided, without the parser (3 Trace says why)")
    );
    app.apply(Action::Focus(Pane::Trace));
    for (w, h) in SIZES {
        let s = screen(&mut app, w, h);
        assert_shows(
            &s,
            &[
                "Trace of the port setter",
                "The port setter did not run the basic URL parser",
            ],
        );
        assert_nothing_cut_silently(&mut app, w, h, "a setter without steps");
        if w == 200 {
            assert_shows(
                &s,
                &[
                    "§ port setter 1: The URL cannot have a port (it has no host, the empty host, or is a",
                    "the port setter returns and does nothing.",
                    "<https://url.spec.whatwg.org/#dom-url-port>",
                    "The URL did not change: file:///x",
                ],
            );
        }
    }
    let s = screen(&mut app, 80, 24);
    // No step to step to: the status line names no step keys.
    let status = s.lines().last().unwrap_or_default();
    assert!(
        !status.contains("h/l") && !status.contains(" run "),
        "{status}"
    );
    insta::assert_snapshot!("setter_without_steps_80x24", s);
}

/// At 80x24 a lesson's lines leave the Trace pane nine rows: after ctrl-t the strip still
/// gets two of them, for the step and the standard's step the lesson is about.
#[test]
fn at_80x24_a_lessons_step_is_explained_under_its_lines() {
    let protocol = lesson(|e| e.set.as_ref().is_some_and(|s| s.component == "protocol"));
    let mut app = pinned("", "");
    app.open_example(protocol);
    ctrl(&mut app, 't');
    let s = screen(&mut app, 80, 24);
    assert_shows(
        &s,
        &[
            "│Why? Step 4 in the scheme state, pointer 3, c “:”; the parser is done.",
            "│§ scheme state 2.1.1: The protocol setter may not turn a special URL (http,…  │",
        ],
    );
    assert_nothing_cut_silently(&mut app, 80, 24, "the protocol lesson's step");
}

/// The lesson's words are about the example: once the input is edited, the lesson line says
/// so, and undoing the edit takes the mark away.
#[test]
fn an_edited_example_says_it_is_edited() {
    let mut app = pinned("", "");
    app.open_example(0);
    let s = screen(&mut app, 120, 40);
    assert_shows(&s, &["Example 1/"]);
    assert!(!s.contains("edited since"), "{s}");
    app.apply(Action::Focus(Pane::Input));
    app.apply(Action::End);
    key(&mut app, 'x');
    let s = screen(&mut app, 120, 40);
    let mark = format!("Example 1/{}, edited since (ctrl-n/p;", gallery().len());
    assert_shows(&s, &[&mark]);
    ctrl(&mut app, 'z');
    let s = screen(&mut app, 120, 40);
    assert!(!s.contains("edited since"), "{s}");
    // A setter lesson opens with the setter's result: that is not an edit.
    let port = lesson(|e| e.set.as_ref().is_some_and(|s| s.component == "port"));
    app.open_example(port);
    let s = screen(&mut app, 120, 40);
    assert!(!s.contains("edited since"), "{s}");
}

/// Outside step mode the Trace pane of about 14 rows (80x24 and 120x40) keeps eight lines of
/// steps and explains the selected one in the compact strip under them; j and k move the
/// selection, and the strip follows it. Nothing in it is cut without "…".
#[test]
fn the_strip_explains_the_selected_row_outside_step_mode() {
    for (w, h) in [(80, 24), (120, 40)] {
        let mut app = pinned("https://example.com:8080/path/to/page?query=1#top", "");
        app.apply(Action::Focus(Pane::Trace));
        key(&mut app, 'j');
        key(&mut app, 'j');
        assert!(!app.step_mode);
        let s = screen(&mut app, w, h);
        assert_shows(
            &s,
            &[
                "Why? Step 2 in the scheme start state, pointer 0, c “h”; next:",
                "§ scheme start state 1: c is an ASCII letter",
                "▸3  scheme ×4",
            ],
        );
        // A collapsed run's line: the strip speaks of the run.
        key(&mut app, 'j');
        let s = screen(&mut app, w, h);
        assert_shows(&s, &["Why? Steps 3–6 stay in the scheme state"]);
        key(&mut app, 'k');
        let s = screen(&mut app, w, h);
        assert_shows(&s, &["Why? Step 2 in the scheme start state"]);
        assert_nothing_cut_silently(&mut app, w, h, "the strip outside step mode");
    }
}

/// With every step's host sub-steps on (e), a pane of 14 rows is theirs: no strip outside
/// step mode, so that the host parser's steps stay under their row.
#[test]
fn the_sub_steps_view_keeps_its_rows_outside_step_mode() {
    let mut app = pinned("http://0x7f.1/", "");
    app.apply(Action::Focus(Pane::Trace));
    key(&mut app, 'e');
    key(&mut app, 'G');
    let s = screen(&mut app, 120, 40);
    assert!(!s.contains("Why?"), "{s}");
    assert_shows(&s, &["└ IPv4 part 0x7f (radix 16) = 127"]);
}

/// A space as c is drawn as ␠, as the controls are drawn as their Control Pictures: in the
/// step's row, in the strip and in the detail view. A blank cell would read as no c at all.
#[test]
fn a_space_as_c_is_shown_as_a_symbol() {
    let input = "sc:a b";
    let trace = crate::Report::new(input, None).trace.expect("traced");
    let space = (0..trace.len())
        .find(|&i| trace.step(i).c == Some(' '))
        .expect("a step reads the space");
    let mut app = pinned(input, "");
    app.apply(Action::Focus(Pane::Trace));
    // Every step on its own line, so that j reaches the space's.
    key(&mut app, 'O');
    for _ in 0..space {
        key(&mut app, 'j');
    }
    let s = screen(&mut app, 120, 40);
    let row = s
        .lines()
        .find(|l| l.contains(&format!("│{space} opaque path")))
        .unwrap_or_default();
    assert!(row.contains(" 4   ␠ "), "the space's row: {row:?}\n{s}");
    assert_shows(
        &s,
        &[&format!(
            "Why? Step {space} in the opaque path state, pointer 4, c “␠”"
        )],
    );
    let (_, fields, _) = app.detail();
    assert!(
        fields.contains(&("c".to_owned(), "␠".to_owned())),
        "{fields:?}"
    );
}

/// The Base resolution pane says where each component of `../c?q` against
/// `https://example.org/a/b/d?old=1` came from, edit by edit, with the trace's step and the
/// standard's step: the relative state copies the base's query (5.1) and sets it to null
/// (5.4.1); the path state starts a query of its own (1.6) and the query state appends "q"
/// (2.2). For `../c` the copied query is set to null and stays null.
#[test]
fn the_resolution_pane_says_where_each_component_came_from() {
    fn edits(app: &App, field: &str) -> Vec<String> {
        let rows = &app.derived.resolution;
        let start = rows
            .iter()
            .position(|r| r.key == field)
            .unwrap_or_else(|| panic!("no {field} row in {rows:#?}"));
        rows[start..]
            .iter()
            .enumerate()
            .take_while(|(i, r)| *i == 0 || r.key.is_empty())
            .map(|(_, r)| r.value.clone())
            .collect()
    }
    let base = "https://example.org/a/b/d?old=1";
    let app = pinned("../c?q", base);
    let query = edits(&app, "query");
    let expected = [
        ("old=1 · from the base", "step 4, relative state 5.1"),
        ("null · set to null", "step 4, relative state 5.4.1"),
        ("\"\" · set", "step 9, path state 1.6"),
        ("q · “q” appended", "step 11, query state 2.2"),
    ];
    assert_eq!(query.len(), expected.len(), "{query:#?}");
    for (row, (what, at)) in query.iter().zip(expected) {
        assert!(row.starts_with(&format!("{what} ({at}")), "{row}");
    }
    let path = edits(&app, "path");
    let expected = [
        ("/a/b/d · from the base", "step 4, relative state 5.1"),
        ("/a/b · shortened", "step 4, relative state 5.4.2"),
        ("/a · shortened", "step 7, path state 1.2.1"),
        ("/a/c · segment “c” appended", "step 9, path state 1.4.2"),
    ];
    assert_eq!(path.len(), expected.len(), "{path:#?}");
    for (row, (what, at)) in path.iter().zip(expected) {
        assert!(row.starts_with(what) && row.contains(at), "{row}");
    }
    let scheme = edits(&app, "scheme");
    assert!(
        scheme[0].starts_with("https · from the base (step 4, relative state 2"),
        "{scheme:?}"
    );
    assert!(edits(&app, "fragment")[0].starts_with("null (no step set it"));
    // The result is the href, and the last value of each field is the URL's.
    let url = app.report.url.as_ref().expect("parses");
    assert_eq!(url.to_string(), "https://example.org/a/c?q");
    assert!(app
        .derived
        .resolution
        .iter()
        .any(|r| r.key == "result" && r.value == url.to_string()));

    let app = pinned("../c", base);
    let query = edits(&app, "query");
    assert_eq!(query.len(), 2, "{query:#?}");
    assert!(query[1].starts_with("null · set to null (step 4, relative state 5.4.1"));
    assert_eq!(
        app.report.url.as_ref().map(|u| u.to_string()).as_deref(),
        Some("https://example.org/a/c")
    );

    // A query of its own: "?y" keeps the base's path and replaces only the query.
    let app = pinned("?y", base);
    let path = edits(&app, "path");
    assert_eq!(path.len(), 1, "{path:#?}");
    assert!(path[0].starts_with("/a/b/d · from the base"));

    // A file: base: the file state sets the scheme itself (1-2) and copies the base's host,
    // path and query (4.1), drive letter and all.
    let app = pinned("?y", "file:///C:/dir/file");
    let scheme = edits(&app, "scheme");
    assert!(
        scheme[0].starts_with("file · set (step 4, file state 1-2)"),
        "{scheme:?}"
    );
    let path = edits(&app, "path");
    assert!(
        path[0].starts_with("/C:/dir/file · from the base (step 4, file state 4.1)"),
        "{path:?}"
    );

    for (w, h) in SIZES {
        let mut app = pinned("../c?q", base);
        app.apply(Action::Focus(Pane::Resolution));
        insta::assert_snapshot!(format!("resolution_{w}x{h}"), screen(&mut app, w, h));
    }
}

/// In step mode, `o` on an expanded run collapses it and skips it: step mode goes on, the
/// run's line stands for its last step, and the next `l` moves past the run without opening
/// it again.
#[test]
fn o_in_step_mode_skips_a_run() {
    let mut app = pinned("https://example.com/a-long-path-segment", "");
    app.apply(Action::Focus(Pane::Trace));
    let index = app.row_index().expect("a trace");
    let trace = app.trace().expect("a trace");
    let run = (0..trace.len())
        .find_map(|i| index.run_of(i).filter(|r| r.steps.len() > 5))
        .cloned()
        .expect("a long run");
    while app.step() < run.steps.start || !app.step_mode {
        key(&mut app, 'l');
    }
    assert!(app.trace_rows.expanded.contains(&run.steps.start));
    key(&mut app, 'l');
    key(&mut app, 'o');
    assert!(app.step_mode, "o left step mode");
    assert_eq!(app.step(), run.steps.end - 1);
    assert!(!app.trace_rows.expanded.contains(&run.steps.start));
    key(&mut app, 'l');
    assert!(app.step_mode);
    assert_eq!(app.step(), run.steps.end);
    assert!(
        !app.trace_rows.expanded.contains(&run.steps.start),
        "l opened the skipped run again"
    );
    for (w, h) in [(80, 24), (120, 40)] {
        insta::assert_snapshot!(
            format!("step_mode_run_skipped_{w}x{h}"),
            screen(&mut app, w, h)
        );
    }
}

/// The verdict is one line at every size, cut with "…" where it does not fit, so the panes
/// under it stay where they are while typing; at 50x14 it is still there.
#[test]
fn the_verdict_is_one_line_at_every_size() {
    let input = "https://paypal.com.evil.co.uk@аррӏе.com:8080/a";
    for (w, h) in [(50, 14), (80, 24), (120, 40), (200, 60)] {
        let mut typed = pinned("", "");
        let mut rows_of_input = Vec::new();
        for c in input.chars() {
            key(&mut typed, c);
            let shown = screen(&mut typed, w, h);
            let lines: Vec<&str> = shown.lines().collect();
            rows_of_input.push(lines.iter().position(|l| l.starts_with("┌ 1 Input")));
        }
        assert!(
            rows_of_input.iter().all(|r| *r == Some(1)),
            "{w}x{h}: the Input line moved: {rows_of_input:?}"
        );
        let mut app = pinned(input, "");
        let shown = screen(&mut app, w, h);
        let verdict = shown.lines().next().unwrap_or_default().trim_end();
        let full = app
            .derived
            .verdict
            .as_ref()
            .expect("a verdict")
            .text
            .clone();
        assert!(verdict.starts_with('→'), "{w}x{h}: {verdict}");
        if list_width(&full) > usize::from(w) {
            assert!(verdict.ends_with(CUT), "{w}x{h}: {verdict}");
        } else {
            assert_eq!(verdict, full.trim_end());
        }
    }
    let mut app = pinned(input, "");
    insta::assert_snapshot!("verdict_50x14", screen(&mut app, 50, 14));
}

fn list_width(s: &str) -> usize {
    super::list::width(s)
}

/// At 200x60 the Parsers table sits under the Trace in the widest column: its host column is
/// whole, and the Trace pane leaves no more than a few rows empty; at 120x40 the Base
/// resolution gets the rows its edits need.
#[test]
fn the_space_goes_to_the_pane_that_needs_it() {
    let input = "https://user:pa%20ss@EXAMPLE.com:443/a/./b/../c?q=1#frag";
    let mut app = pinned(input, "");
    let buffer = super::snapshot::render(&mut app, 200, 60, &PLAIN);
    let screen = super::ui::screen(buffer.area, &app);
    let rect = |pane: Pane| {
        screen
            .panes
            .iter()
            .find(|(p, _)| *p == pane)
            .map(|(_, r)| *r)
            .expect("on screen")
    };
    let parsers = rect(Pane::Parsers);
    let trace = rect(Pane::Trace);
    assert!(parsers.width >= 80, "{parsers:?}");
    let rows = rows_of(&buffer, parsers);
    let whatwg: String = rows
        .iter()
        .map(|r| r.iter().collect::<String>())
        .find(|r| r.starts_with("whatwg"))
        .expect("a whatwg row");
    assert!(whatwg.contains(" example.com "), "{whatwg}");
    let empty = rows_of(&buffer, trace)
        .iter()
        .filter(|r| r.iter().all(|c| *c == ' '))
        .count();
    assert!(empty <= 2, "{empty} empty rows in the Trace pane");

    let mut app = pinned("../c?q", "https://example.org/a/b/d?old=1");
    let buffer = super::snapshot::render(&mut app, 120, 40, &PLAIN);
    let screen = super::ui::screen(buffer.area, &app);
    let resolution = screen
        .panes
        .iter()
        .find(|(p, _)| *p == Pane::Resolution)
        .map(|(_, r)| *r)
        .expect("on screen");
    assert!(resolution.height >= 8, "{resolution:?}");
}

/// NO_COLOR drops the colours and keeps the reverse video that marks a host finding's
/// letters: the bytes written to the terminal set reverse video on the look-alike letters,
/// and no colour is written as the empty SGR sequence `ESC [ m`, which would reset it.
#[test]
fn no_color_keeps_reverse_video() {
    use ratatui::backend::{Backend, CrosstermBackend};
    // As crossterm finds it with NO_COLOR set; the theme's constructor overrides it.
    crossterm::style::force_color_output(false);
    let _ = Theme::from_env();
    let theme = PLAIN;
    let mut app = pinned("https://аррӏе.com/", "");
    app.apply(Action::Focus(Pane::Host));
    let buffer = super::snapshot::render(&mut app, 120, 40, &theme);
    let lookalike = (0..buffer.area.width)
        .map(|x| &buffer[(x, 2)])
        .find(|cell| cell.symbol() == "а")
        .expect("the Cyrillic a on the Input line");
    assert!(lookalike.modifier.contains(Modifier::REVERSED));
    let mut bytes = Vec::new();
    {
        let mut backend = CrosstermBackend::new(&mut bytes);
        let content = buffer.content().iter().enumerate().map(|(i, cell)| {
            let (x, y) = buffer.pos_of(i);
            (x, y, cell)
        });
        backend.draw(content).expect("draws into memory");
    }
    let text = String::from_utf8_lossy(&bytes);
    assert!(
        !text.contains("\u{1b}[m"),
        "an empty SGR resets reverse video"
    );
    let at = text.find("\u{1b}[7m").expect("reverse video is set");
    assert!(text[at..].starts_with("\u{1b}[7m") && text[at..].contains('а'));
}

/// The drive letter lesson watches path state 1.4.1, which turns "C|" into "C:"; the step of
/// the trace that takes it also cites 1.4.2, which decides (it appends the segment). ctrl-t
/// selects that step, and the strip explains the lesson's step as well as the deciding one.
#[test]
fn the_strip_explains_the_lessons_step_when_another_decides() {
    let at = lesson(|e| e.input == "file:///C|/Windows/system32");
    let mut app = pinned("", "");
    app.open_example(at);
    let s = screen(&mut app, 120, 40);
    assert_shows(&s, &["watch the path state, step 1.4.1 (ctrl-t)"]);
    ctrl(&mut app, 't');
    assert!(app.step_mode);
    for (w, h) in SIZES {
        let s = screen(&mut app, w, h);
        if w > 80 {
            assert_shows(&s, &["The lesson's step: § path state 1.4.1", "1.4.2"]);
        }
        if curl_reads_a_drive_letter(app.input.text()) {
            assert_curl_named_as_it_reads(&s, app.input.text());
            continue;
        }
        insta::assert_snapshot!(format!("lesson_step_not_deciding_{w}x{h}"), s);
    }
    // Edited, the input is no longer the lesson's: the strip explains the step as usual.
    key(&mut app, '\t');
    let mut edited = pinned("file:///C|/Windows/system32/x", "");
    edited.apply(Action::Focus(Pane::Trace));
    let s = screen(&mut edited, 120, 40);
    assert!(!s.contains("The lesson's step"), "{s}");
}

/// A path of 150 "%": the Errors pane counts every error raised and the entries, and the entry
/// of the 50 past the first 100 says how many, where the last is, and that it has no fix.
#[test]
fn the_errors_pane_shows_folded_repeats() {
    let input = format!("http://a/{}", "%".repeat(150));
    let mut app = pinned(&input, "");
    app.apply(Action::Focus(Pane::Errors));
    assert_eq!(app.report.errors.len(), 101);
    let s = screen(&mut app, 120, 30);
    assert_shows(&s, &["Validation errors (150, 101 entries)"]);
    let (rows, _) = super::panes::errors::detail(&app, 100);
    let field = |name: &str| {
        rows.iter()
            .find(|(key, _)| key == name)
            .map(|(_, value)| value.clone())
    };
    assert_eq!(
        field("where").as_deref(),
        Some("109..110 (×50 from here, the last at 158..159)")
    );
    assert_eq!(
        field("fix").as_deref(),
        Some("none here: this entry stands for 50 errors of its kind, past the first 100")
    );
}

/// On a projector (80x24) zoom gives the Trace the lesson's and the Base line's rows, and the
/// strip shows the step the lesson watches in full, wrapped: for every lesson that watches a
/// step, at its step (ctrl-t), zoomed at 80x24 and 120x40; the drive letter lesson's step
/// 1.4.1 is whole at 120x40 without zoom.
#[test]
fn zoom_shows_the_lessons_step_whole_at_80x24() {
    // The rightmost pane's text, its lines joined: the Trace is on the right at 120x40.
    let flat = |s: &str| {
        s.lines()
            .filter_map(|l| l.split('│').rev().find(|part| !part.trim().is_empty()))
            .collect::<Vec<_>>()
            .join(" ")
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
    };
    let mut checked = 0;
    let mut drive_letter = false;
    for (i, example) in gallery().iter().enumerate() {
        if example.watch.is_none() || example.set.is_some() {
            continue;
        }
        let mut app = pinned("", "");
        app.open_example(i);
        ctrl(&mut app, 't');
        app.apply(Action::Focus(Pane::Trace));
        let trace = app.trace().expect("a trace");
        let step = app.step().min(trace.len() - 1);
        let view = trace.view(step);
        let Some(watched) = view
            .explained()
            .find(|s| Some(s.number) == example.watch.as_ref().map(|w| w.step.as_str()))
        else {
            continue;
        };
        if view.spec().map(|s| s.number) == Some(watched.number) {
            continue;
        }
        let sentence = format!(
            "The lesson's step: § {} {}: {}",
            watched.section_name(),
            watched.number,
            watched.explanation.unwrap_or(watched.words)
        );
        let sentence = sentence.split_whitespace().collect::<Vec<_>>().join(" ");
        if watched.number == "1.4.1" {
            drive_letter = true;
            let big = screen(&mut app, 120, 40);
            assert!(
                flat(&big).contains(&sentence),
                "{}: {sentence}\n{big}",
                example.input
            );
        }
        key(&mut app, 'z');
        let big = screen(&mut app, 120, 40);
        assert!(
            flat(&big).contains(&sentence),
            "{}: {sentence}\n{big}",
            example.input
        );
        let s = screen(&mut app, 80, 24);
        assert!(
            !s.contains(" 2 Base"),
            "{}: the Base line stays:\n{s}",
            example.input
        );
        assert!(
            !s.contains("Example "),
            "{}: the lesson stays:\n{s}",
            example.input
        );
        assert!(
            flat(&s).contains(&sentence),
            "{}: {sentence}\n{s}",
            example.input
        );
        checked += 1;
    }
    assert!(checked >= 5 && drive_letter, "{checked} {drive_letter}");
}

/// The rows of the Trace pane's explanation strip on `screen`, the last pane: the bordered
/// rows above the last bottom border, and that border.
fn strip_rows(screen: &str) -> (Vec<String>, String) {
    let lines: Vec<&str> = screen.lines().collect();
    let end = lines
        .iter()
        .rposition(|l| l.starts_with('└'))
        .expect("a strip under the list");
    let start = lines[..end]
        .iter()
        .rposition(|l| !l.starts_with('│'))
        .map_or(0, |i| i + 1);
    let rows = lines[start..end]
        .iter()
        .map(|l| l.trim_end().to_owned())
        .collect();
    (rows, lines[end].trim_end().to_owned())
}

/// A lesson open in zoom at 80x24: the strip keeps to half the pane, says there is more on its
/// border, and scrolls with J/K (and shift-↓/↑) through the whole explanation, the lesson's
/// step first; a line whose sentence goes on below ends with `…`. Another step starts at rest.
#[test]
fn the_lessons_strip_scrolls_in_zoom_at_80x24() {
    let at = lesson(|e| e.input == "http://0x7f.1/");
    let mut app = pinned("", "");
    app.open_example(at);
    ctrl(&mut app, 't');
    assert!(app.step_mode);
    key(&mut app, 'z');
    assert!(app.zoom);
    let (w, h) = (80, 24);
    let rest = screen(&mut app, w, h);
    insta::assert_snapshot!("lesson_strip_zoom_rest_80x24", rest);
    let (rows, border) = strip_rows(&rest);
    // Half the Trace pane at most: the steps keep their rows.
    assert!(rows.len() <= 8, "{rest}");
    assert!(border.ends_with(" ↓ J/K more ┘"), "{rest}");
    assert!(rows[0].contains("Why? Step 22 in the host state"), "{rest}");

    // Scrolled, a window on the whole text from its first line on, the border saying where.
    key(&mut app, 'J');
    let first = screen(&mut app, w, h);
    let (first_rows, border) = strip_rows(&first);
    assert_eq!(first_rows.len(), rows.len(), "{first}");
    assert!(
        border.contains(&format!(" ↕ J/K 1–{}/", rows.len())),
        "{first}"
    );
    assert!(first_rows[0].contains("Why? Step 22"), "{first}");
    key(&mut app, 'J');
    press(&mut app, KeyCode::Down, KeyModifiers::SHIFT);
    let third = screen(&mut app, w, h);
    let (third_rows, border) = strip_rows(&third);
    assert!(
        border.contains(&format!(" ↕ J/K 3–{}/", rows.len() + 2)),
        "{third}"
    );
    assert_eq!(third_rows[0], first_rows[2], "{third}");
    insta::assert_snapshot!("lesson_strip_zoom_scrolled_80x24", third);

    // To the end: the last sentence, whole; J stops there.
    for _ in 0..100 {
        key(&mut app, 'J');
    }
    let end = screen(&mut app, w, h);
    let (end_rows, border) = strip_rows(&end);
    let total: usize = border
        .rsplit('/')
        .next()
        .and_then(|t| t.trim_end_matches(" ┘").trim().parse().ok())
        .expect("the position");
    assert!(border.contains(&format!("–{total}/{total}")), "{end}");
    assert!(!end_rows.last().expect("a row").ends_with("…│"), "{end}");
    assert!(end.contains("IPv4 parser"), "{end}");
    // Back up to the rest, with K and shift-↑.
    for _ in 0..100 {
        key(&mut app, 'K');
    }
    press(&mut app, KeyCode::Up, KeyModifiers::SHIFT);
    assert_eq!(screen(&mut app, w, h), rest);

    // Another step is shown at rest.
    key(&mut app, 'J');
    key(&mut app, 'J');
    key(&mut app, 'l');
    let next = screen(&mut app, w, h);
    assert!(next.contains("Why? Step 23"), "{next}");
    key(&mut app, 'h');
    assert_eq!(screen(&mut app, w, h), rest);

    // The wheel over the strip scrolls it; over the list, it moves the selection.
    let strip = app.strip_area.get().expect("the strip is drawn");
    let wheel = |row: u16, down: bool| {
        crossterm::event::Event::Mouse(crossterm::event::MouseEvent {
            kind: if down {
                crossterm::event::MouseEventKind::ScrollDown
            } else {
                crossterm::event::MouseEventKind::ScrollUp
            },
            column: strip.x + 5,
            row,
            modifiers: KeyModifiers::NONE,
        })
    };
    let area = Rect::new(0, 0, w, h);
    assert_eq!(
        super::action_for_event(wheel(strip.y + 1, true), &app, area),
        Some(Action::StripDown)
    );
    assert_eq!(
        super::action_for_event(wheel(strip.y + 1, false), &app, area),
        Some(Action::StripUp)
    );
    assert_eq!(
        super::action_for_event(wheel(strip.y - 3, true), &app, area),
        Some(Action::Scroll {
            pane: Pane::Trace,
            down: true
        })
    );

    // The help names the keys.
    key(&mut app, '?');
    let help = screen(&mut app, 120, 60);
    assert_shows(
        &help,
        &["J/K S-↓/↑", "scroll the explanation under the list"],
    );
}

/// A closed console (Windows) or a hangup ends the inspector through its normal way out, and the
/// console's close handler, after which Windows ends the process at once, returns only once the
/// history is saved: the save here comes a while after the stop, as a slow disk's would.
#[test]
fn the_close_handler_returns_after_the_history_is_saved() {
    use super::history::History;
    use super::{on_close, Finished};
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::Arc;
    use std::time::Duration;

    let dir = std::env::temp_dir().join(format!("urlscope-close-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let file = dir.join("history");
    let stop = Arc::new(AtomicBool::new(false));
    let finished = Finished::default();
    // The event loop's side: it sees `stop`, leaves, saves the history and marks the end.
    let inspector = {
        let (stop, finished, file) = (Arc::clone(&stop), finished.clone(), file.clone());
        std::thread::spawn(move || {
            let mut app = App::with_history("https://example.com/", "", History::open(Some(file)));
            while !stop.load(Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(10));
            }
            std::thread::sleep(Duration::from_millis(300));
            let saved = app.finish();
            finished.mark();
            saved
        })
    };
    on_close(&stop, &finished);
    let entries = History::open(Some(file)).entries;
    assert_eq!(
        entries.len(),
        1,
        "the history was not saved before the handler returned"
    );
    assert_eq!(entries[0].input, "https://example.com/");
    inspector
        .join()
        .expect("the inspector's thread")
        .expect("saved");
    // Once finished, a later close returns at once.
    assert!(finished.wait(Duration::ZERO));
    let _ = std::fs::remove_dir_all(&dir);
}
