//! The screen: where each pane goes at each size, the verdict line, the tab bar, the status
//! line, and the help and detail layers.
//!
//! Below [`ROOMY_WIDTH`]x[`ROOMY_HEIGHT`] one report pane fills the body under a tab bar; the
//! Input and Base lines are on screen at every size and in zoom, since step mode marks the
//! input.

use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph, Wrap};
use ratatui::Frame;

use super::keys;
use super::list::{self, cut_end, wrap};
use super::model::{App, Overlay, Pane};
use super::panes;
use super::theme::Theme;
use crate::gallery::gallery;

/// Below this size nothing useful can be drawn.
pub const MIN_WIDTH: u16 = 40;
pub const MIN_HEIGHT: u16 = 12;
/// From this size on, every pane has a place on screen; below it one pane shows at a time.
pub const ROOMY_WIDTH: u16 = 110;
pub const ROOMY_HEIGHT: u16 = 32;

/// Where everything goes on one screen.
#[derive(Debug, Default)]
pub struct Screen {
    pub verdict: Rect,
    pub lesson: Option<Rect>,
    pub tabs: Option<Rect>,
    pub panes: Vec<(Pane, Rect)>,
    /// The body, when it shows the welcome instead of the panes.
    pub welcome: Option<Rect>,
    pub status: Rect,
}

/// Whether the screen has room for every pane at once.
pub fn roomy(area: Rect) -> bool {
    area.width >= ROOMY_WIDTH && area.height >= ROOMY_HEIGHT
}

pub fn lesson_lines(app: &App, width: u16) -> Vec<String> {
    let Some(g) = &app.gallery else {
        return Vec::new();
    };
    let examples = gallery();
    let Some(example) = examples.get(g.position) else {
        return Vec::new();
    };
    let edited = if g.edited(app.input.text(), app.base.text()) {
        ", edited since"
    } else {
        ""
    };
    let mut text = format!(
        "Example {}/{}{edited} (ctrl-n/p; your own URL comes back after the last): {}",
        g.position + 1,
        examples.len(),
        example.text(crate::gallery::Surface::Terminal)
    );
    if let Some(set) = &example.set {
        text.push_str(&format!(
            " · the {} setter with “{}” ran on {}",
            set.component,
            super::derived::show(&set.value),
            super::derived::show(&example.input)
        ));
    }
    if let Some(watch) = &example.watch {
        text.push_str(&format!(
            " · watch the {}, step {} (ctrl-t)",
            watch.state, watch.step
        ));
    }
    wrap(&text, usize::from(width), 6)
}

/// Below this height the lesson's lines go and the Base line loses its border, so that the
/// pane under the tab bar keeps rows to show.
pub const SHORT_HEIGHT: u16 = 20;

/// Whether zoom gives the pane the lesson's and the Base line's rows too: below the roomy
/// size (a projector's 80x24), where the one pane shown has little else.
pub fn zoom_hides_lines(area: Rect, app: &App) -> bool {
    app.zoom && !roomy(area) && app.focus != Pane::Base
}

pub fn screen(area: Rect, app: &App) -> Screen {
    let short = area.height < SHORT_HEIGHT;
    let hide = zoom_hides_lines(area, app);
    let lesson = if short || hide {
        0
    } else {
        lesson_lines(app, area.width).len() as u16
    };
    let [verdict, lesson_area, input, base, body, status] = Layout::vertical([
        // One line at every size: a verdict that wrapped would move every pane under it
        // while typing.
        Constraint::Length(1),
        Constraint::Length(lesson),
        Constraint::Length(5),
        Constraint::Length(match (hide, short) {
            (true, _) => 0,
            (false, true) => 1,
            (false, false) => 3,
        }),
        Constraint::Min(1),
        Constraint::Length(1),
    ])
    .areas(area);
    let mut s = Screen {
        verdict,
        lesson: (lesson > 0).then_some(lesson_area),
        status,
        panes: if hide {
            vec![(Pane::Input, input)]
        } else {
            vec![(Pane::Input, input), (Pane::Base, base)]
        },
        ..Screen::default()
    };
    let shown = if app.focus.is_text() {
        app.view
    } else {
        app.focus
    };
    if app.input.text().is_empty() && app.gallery.is_none() && shown != Pane::Pattern {
        s.welcome = Some(body);
        return s;
    }
    if !roomy(area) {
        let [tabs, main] =
            Layout::vertical([Constraint::Length(1), Constraint::Min(1)]).areas(body);
        s.tabs = Some(tabs);
        s.panes.push((shown, main));
        return s;
    }
    // The Pattern view is about matching, not about the URL's parts: it has the body to
    // itself, as in zoom.
    if app.zoom || shown == Pane::Pattern {
        s.panes.push((shown, body));
        return s;
    }
    if area.width >= 180 && area.height >= 45 {
        // Three columns: what the URL is, how it was parsed, what it means. The Parsers table
        // goes under the Trace, in the widest column, where its host column fits; the Trace
        // keeps the rows its steps and strip need.
        let [left, middle, right] = Layout::horizontal([
            Constraint::Percentage(28),
            Constraint::Percentage(44),
            Constraint::Percentage(28),
        ])
        .areas(body);
        // The Components their rows, then (with a base) the Base resolution up to half the
        // column; the Validation errors, three lines each, take the rest without a base.
        let based = !app.derived.resolution.is_empty();
        let errors_want = Want::new(4, errors_height(app));
        let resolution_want = Want::new(
            4,
            panes::resolution::wanted_height(app, left.width).min(left.height / 2),
        );
        let [components, errors, resolution] = split(
            left,
            &[
                Want::new(
                    6,
                    u16::try_from(app.component_count() + 3).unwrap_or(u16::MAX),
                ),
                if based {
                    errors_want
                } else {
                    errors_want.rest()
                },
                if based {
                    resolution_want.rest()
                } else {
                    resolution_want
                },
            ],
            [0, 2, 1],
        );
        let [trace, parsers] = split(
            middle,
            &[
                Want::new(10, panes::trace::wanted_height(app, middle.width)),
                Want::new(6, parsers_height(app)).rest(),
            ],
            [0, 1],
        );
        let [host, grammar] =
            Layout::vertical([Constraint::Percentage(55), Constraint::Percentage(45)]).areas(right);
        s.panes.extend([
            (Pane::Components, components),
            (Pane::Errors, errors),
            (Pane::Resolution, resolution),
            (Pane::Trace, trace),
            (Pane::Parsers, parsers),
            (Pane::Host, host),
            (Pane::Grammar, grammar),
        ]);
        return s;
    }
    let [left, right] =
        Layout::horizontal([Constraint::Percentage(45), Constraint::Percentage(55)]).areas(body);
    let [components, errors, host] = Layout::vertical([
        Constraint::Percentage(40),
        Constraint::Percentage(25),
        Constraint::Percentage(35),
    ])
    .areas(left);
    // With a base, the Base resolution first (up to a third of the column): where the
    // components came from is what a relative input is about. Then the Trace, up to half the
    // column, and the Parsers table, the rows its content needs; then the Trace again, up to
    // what it needs (a lesson's short trace and its strip, whole); the Grammar's diagrams
    // take what is left.
    let trace_need = panes::trace::wanted_height(app, right.width);
    let [trace, parsers, resolution, grammar] = split(
        right,
        &[
            Want::new(8, trace_need.min(right.height.div_ceil(2))).then(trace_need),
            Want::new(5, parsers_height(app)),
            Want::new(
                4,
                panes::resolution::wanted_height(app, right.width).min(right.height / 3),
            ),
            Want::new(4, u16::MAX).rest(),
        ],
        [2, 0, 1, 3],
    );
    s.panes.extend([
        (Pane::Components, components),
        (Pane::Errors, errors),
        (Pane::Host, host),
        (Pane::Trace, trace),
        (Pane::Parsers, parsers),
        (Pane::Grammar, grammar),
        (Pane::Resolution, resolution),
    ]);
    s
}

/// What a pane of a column wants: at least `min` rows, up to `need` (the rows its content
/// fills); the pane marked `rest` also takes the rows no pane needs.
#[derive(Clone, Copy, Debug)]
struct Want {
    min: u16,
    need: u16,
    /// What it takes in a second round, when every pane has had its need.
    then: u16,
    rest: bool,
}

impl Want {
    fn new(min: u16, need: u16) -> Self {
        let need = need.max(min);
        Want {
            min,
            need,
            then: need,
            rest: false,
        }
    }

    fn then(self, then: u16) -> Self {
        Want {
            then: then.max(self.need),
            ..self
        }
    }

    fn rest(self) -> Self {
        Want { rest: true, ..self }
    }
}

/// Splits `area` into rows top to bottom: every pane gets its minimum, then the rows left go
/// to the panes in the order `first`, each up to its need, then once more up to what it takes
/// in the second round; what remains goes to the pane marked `rest`.
fn split<const N: usize>(area: Rect, wants: &[Want; N], first: [usize; N]) -> [Rect; N] {
    let mut heights = wants.map(|w| w.min);
    let mut left = area.height.saturating_sub(heights.iter().sum::<u16>());
    for round in [|w: &Want| w.need, |w: &Want| w.then] {
        for i in first {
            let more = round(&wants[i]).saturating_sub(heights[i]).min(left);
            heights[i] += more;
            left -= more;
        }
    }
    if let Some(i) = wants.iter().position(|w| w.rest) {
        heights[i] += left;
    }
    Layout::vertical(heights.map(Constraint::Length)).areas(area)
}

/// The rows the Validation errors pane fills: its borders and about three lines an error
/// (its name, what it means, whether browsers accept it).
fn errors_height(app: &App) -> u16 {
    u16::try_from(2 + 3 * app.report.errors.len().max(1)).unwrap_or(u16::MAX)
}

/// The rows the Parsers pane fills: its borders and header, a row per parser and about a
/// line of notes each.
fn parsers_height(app: &App) -> u16 {
    u16::try_from(3 + 2 * app.parsers.names.len()).unwrap_or(u16::MAX)
}

/// Where each pane is on a screen of `area` (for the mouse).
pub fn pane_areas(area: Rect, app: &App) -> Vec<(Pane, Rect)> {
    screen(area, app).panes
}

pub fn draw(frame: &mut Frame<'_>, app: &mut App, theme: &Theme) {
    let area = frame.area();
    app.links.borrow_mut().clear();
    app.strip_area.set(None);
    if area.width < MIN_WIDTH || area.height < MIN_HEIGHT {
        let text = format!(
            "urlscope needs at least {MIN_WIDTH}x{MIN_HEIGHT} (this terminal is {}x{}). Enlarge it; ctrl-c quits.",
            area.width, area.height
        );
        frame.render_widget(Paragraph::new(text).wrap(Wrap { trim: true }), area);
        return;
    }
    let s = screen(area, app);
    draw_verdict(frame, s.verdict, app, theme);
    if let Some(lesson) = s.lesson {
        let lines: Vec<Line<'_>> = lesson_lines(app, area.width)
            .into_iter()
            .map(|l| Line::styled(l, theme.title(true)))
            .collect();
        frame.render_widget(Paragraph::new(lines), lesson);
    }
    if let Some(tabs) = s.tabs {
        draw_tabs(frame, tabs, &s, theme);
    }
    for (pane, rect) in &s.panes {
        if *pane == Pane::Trace {
            app.page
                .set(usize::from(rect.height.saturating_sub(4)).max(1));
        }
        panes::render(frame, *rect, app, *pane, theme);
    }
    if let Some(welcome) = s.welcome {
        draw_welcome(frame, welcome, app, theme);
    }
    draw_status(frame, s.status, app, theme);
    let body = Rect {
        y: s.verdict.bottom(),
        height: area.height.saturating_sub(s.verdict.height + 1),
        ..area
    };
    for overlay in &app.overlays {
        match overlay {
            Overlay::Help => draw_help(frame, body, app, theme),
            Overlay::Detail => draw_detail(frame, body, app, theme),
        }
    }
}

/// The verdict line, cut with `…` to the width: the Host pane has its findings in full.
pub fn verdict_line(app: &App, width: u16) -> String {
    let text = match &app.derived.verdict {
        None => "urlscope: type or paste a URL · ctrl-n shows examples · F1 every key",
        Some(v) => v.text.as_str(),
    };
    cut_end(text, usize::from(width))
}

fn draw_verdict(frame: &mut Frame<'_>, area: Rect, app: &App, theme: &Theme) {
    let style = match &app.derived.verdict {
        None => theme.dim(),
        Some(v) => match v.worst {
            Some(crate::inspect::Severity::Danger) => theme.error(),
            Some(_) => theme.warn(),
            None if v.text.starts_with('✗') => theme.error(),
            None => theme.ok(),
        },
    };
    frame.render_widget(
        Paragraph::new(Line::styled(verdict_line(app, area.width), style)),
        area,
    );
}

/// The tab bar's labels on a bar `width` columns wide: every view's number and name, spaced,
/// when they fit; else with one space between them; else the view shown keeps its name and the
/// others show their number alone.
pub fn tab_labels(width: u16, shown: Option<Pane>) -> Vec<(Pane, String)> {
    let fits = |labels: &[(Pane, String)]| {
        labels.iter().map(|(_, l)| list::width(l)).sum::<usize>() <= usize::from(width)
    };
    let spaced: Vec<(Pane, String)> = Pane::VIEWS
        .into_iter()
        .map(|p| (p, format!(" {} {} ", p.digit(), p.tab())))
        .collect();
    if fits(&spaced) {
        return spaced;
    }
    let close: Vec<(Pane, String)> = Pane::VIEWS
        .into_iter()
        .map(|p| (p, format!(" {} {}", p.digit(), p.tab())))
        .collect();
    if fits(&close) {
        return close;
    }
    close
        .into_iter()
        .map(|(p, label)| {
            if Some(p) == shown {
                (p, label)
            } else {
                (p, format!(" {}", p.digit()))
            }
        })
        .collect()
}

/// The view whose tab is at `column` of a tab bar `width` columns wide.
pub fn tab_at(column: u16, width: u16, shown: Option<Pane>) -> Option<Pane> {
    let mut x = 0;
    for (pane, label) in tab_labels(width, shown) {
        let w = list::width(&label) as u16;
        if column >= x && column < x + w {
            return Some(pane);
        }
        x += w;
    }
    None
}

fn draw_tabs(frame: &mut Frame<'_>, area: Rect, s: &Screen, theme: &Theme) {
    let shown = s.panes.last().map(|(p, _)| *p);
    let mut spans = Vec::new();
    for (pane, label) in tab_labels(area.width, shown) {
        let style = if Some(pane) == shown {
            theme.selected()
        } else {
            theme.dim()
        };
        spans.push(Span::styled(label, style));
    }
    let line = list::cut_line(Line::from(spans), usize::from(area.width));
    frame.render_widget(Paragraph::new(line), area);
}

fn draw_welcome(frame: &mut Frame<'_>, area: Rect, app: &App, theme: &Theme) {
    let previous = app.history.entries.last().map(|e| e.input.clone());
    let mut text = vec![
        Line::styled("Welcome to urlscope", theme.title(true)),
        Line::from(""),
        Line::from("Type or paste a URL in the Input line: every keystroke parses it as the WHATWG URL Standard does."),
        Line::from("Put a base URL in the Base line (Tab) to resolve relative references."),
        Line::from("ctrl-n walks through a gallery of examples, each with what it teaches."),
        Line::from("F1 lists every key; ctrl-c or ctrl-q quits."),
    ];
    if let Some(previous) = previous {
        text.push(Line::from(""));
        text.push(Line::from(format!(
            "↑ brings back your last URL: {}",
            super::derived::show(&previous)
        )));
    }
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(theme.border(false));
    frame.render_widget(
        Paragraph::new(text).wrap(Wrap { trim: false }).block(block),
        area,
    );
}

/// The status line: the message, if it is still about what is on screen, then the keys that
/// act here (from the key table), with the help key kept at the right end.
fn draw_status(frame: &mut Frame<'_>, area: Rect, app: &App, theme: &Theme) {
    let w = usize::from(area.width);
    let contexts = app.contexts();
    let hints = keys::hints(&contexts);
    let (help, rest): (Vec<_>, Vec<_>) = hints
        .into_iter()
        .partition(|(_, hint)| *hint == "help" || *hint == "close");
    let right: String = help
        .iter()
        .map(|(k, h)| format!("{k} {h}"))
        .collect::<Vec<_>>()
        .join(" · ");
    let mut right = format!(" {right} ");
    let mut left_width = w.saturating_sub(list::width(&right));
    let mut spans = Vec::new();
    let mut used = 0;
    if let Some(message) = app.message() {
        let text = format!(" {} ", super::derived::show(message));
        // A message takes priority over the fixed hint: it gets the whole line if it needs it.
        if list::width(&text) > left_width {
            right.clear();
            left_width = w;
        }
        let text = cut_end(&text, left_width);
        used += list::width(&text);
        spans.push(Span::styled(text, theme.title(true)));
    }
    let hints: Vec<String> = rest.iter().map(|(k, h)| format!("{k} {h}")).collect();
    let hints = format!(" {}", hints.join(" · "));
    if used < left_width {
        spans.push(Span::styled(
            cut_end(&hints, left_width - used),
            theme.dim(),
        ));
    }
    let left = Line::from(spans);
    frame.render_widget(Paragraph::new(left), area);
    frame.render_widget(
        Paragraph::new(Line::styled(right, theme.dim())).right_aligned(),
        area,
    );
}

fn popup(area: Rect, width: u16, height: u16) -> Rect {
    let width = width.min(area.width);
    let height = height.min(area.height);
    Rect {
        x: area.x + (area.width - width) / 2,
        y: area.y + (area.height - height) / 2,
        width,
        height,
    }
}

fn draw_help(frame: &mut Frame<'_>, area: Rect, app: &App, theme: &Theme) {
    let rect = popup(area, 100, area.height);
    let inner_width = usize::from(rect.width.saturating_sub(2));
    let key_width = 20.min(inner_width / 3);
    let mut lines: Vec<Line<'static>> = Vec::new();
    for (title, keys, what) in app.help_lines() {
        if let Some(title) = title {
            if !lines.is_empty() {
                lines.push(Line::from(""));
            }
            lines.push(Line::styled(title.to_owned(), theme.title(true)));
            continue;
        }
        // A line without keys (the command for this view) takes the whole width.
        let key_width = if keys.is_empty() { 0 } else { key_width };
        for (i, part) in wrap(&what, inner_width.saturating_sub(key_width + 1), 6)
            .into_iter()
            .enumerate()
        {
            let key = if i == 0 { keys.as_str() } else { "" };
            let key = if key_width == 0 {
                String::new()
            } else {
                format!("{:<key_width$} ", cut_end(key, key_width))
            };
            lines.push(Line::from(vec![
                Span::styled(key, theme.warn()),
                Span::raw(part),
            ]));
        }
    }
    frame.render_widget(Clear, rect);
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(theme.border(true))
        .title(Span::styled(app.help_title(), theme.title(true)));
    list::render_doc(frame, rect, block, lines, &app.help_scroll, theme);
}

fn draw_detail(frame: &mut Frame<'_>, area: Rect, app: &App, theme: &Theme) {
    let (title, fields, _) = app.detail();
    let width = area.width.saturating_sub(4).max(20);
    let inner_width = usize::from(width.saturating_sub(2));
    let label_width = fields
        .iter()
        .map(|(k, _)| list::width(k))
        .max()
        .unwrap_or(0)
        .min(inner_width / 3);
    let mut lines: Vec<Line<'static>> = Vec::new();
    for (key, value) in fields {
        for (i, part) in wrap(
            &value,
            inner_width.saturating_sub(label_width + 1).max(1),
            usize::MAX,
        )
        .into_iter()
        .enumerate()
        {
            let label = if i == 0 { key.as_str() } else { "" };
            lines.push(Line::from(vec![
                Span::styled(format!("{label:<label_width$} "), theme.dim()),
                Span::raw(part),
            ]));
        }
    }
    // As tall as the row needs, up to the screen.
    let rect = popup(area, width, (lines.len() as u16).saturating_add(2));
    frame.render_widget(Clear, rect);
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(theme.border(true))
        .title(Span::styled(
            format!(" {title}: the selected row in full · y copies · Esc closes "),
            theme.title(true),
        ));
    list::render_doc(frame, rect, block, lines, &app.detail_scroll, theme);
}
