//! The Input and Base lines: the text with each code point coloured by the URL part it ended up
//! in, a ruler of part letters, error carets, and the selected step's pointer in step mode.
//! Control and invisible code points are drawn as escapes; long inputs scroll around the cursor.

use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph};
use ratatui::Frame;

use crate::display::{self, EscapeStyle};
use crate::trace::Trace;
use crate::url::{Phase, State};

use super::super::app::{App, Pane, COMPONENT_ROWS};
use super::super::theme::{Part, Theme};

/// The URL part each input code point ended up in: the last state that read it decides (the
/// host state re-reads what the authority state scanned).
pub fn parts(trace: &Trace, len: usize) -> Vec<Option<Part>> {
    let mut parts = vec![None; len];
    for step in trace.steps() {
        let Phase::State(state) = step.phase else {
            continue;
        };
        if step.c.is_none() || step.pointer >= len {
            continue;
        }
        parts[step.pointer] = match state {
            State::SchemeStart | State::Scheme => Some(Part::Scheme),
            State::Authority => Some(Part::Userinfo),
            State::Host | State::Hostname | State::FileHost => Some(Part::Host),
            State::Port => Some(Part::Port),
            State::PathStart | State::Path | State::OpaquePath => Some(Part::Path),
            State::Query => Some(Part::Query),
            State::Fragment => Some(Part::Fragment),
            _ => None,
        };
    }
    parts
}

/// The first visible column so that `cursor_column` stays on screen.
fn scroll_start(cursor_column: usize, width: usize) -> usize {
    if width == 0 {
        return 0;
    }
    cursor_column.saturating_sub(width.saturating_sub(2))
}

pub fn render(frame: &mut Frame<'_>, area: Rect, app: &App, pane: Pane, theme: &Theme) {
    let focused = app.focus == pane && app.editing.is_none();
    let editor = if pane == Pane::Input {
        &app.input
    } else {
        &app.base
    };
    let text = editor.text();
    let chars: Vec<char> = text.chars().collect();
    let columns = display::columns(text, EscapeStyle::Symbols);
    let inner_width = area.width.saturating_sub(2) as usize;
    let cursor_column = columns[editor.cursor().min(chars.len())];
    let start = scroll_start(cursor_column, inner_width);
    let visible = |a: usize, b: usize| b > start && a < start + inner_width;

    let is_input = pane == Pane::Input;
    let trace = if is_input {
        app.report.trace.as_ref()
    } else {
        None
    };
    let parts = trace.map(|t| parts(t, chars.len())).unwrap_or_default();
    let error_at = |i: usize| {
        is_input
            && app
                .report
                .errors
                .iter()
                .any(|e| e.span.start <= i && i < e.span.end.max(e.span.start + 1))
    };

    // With the Components pane focused, the selected component's code points stand out.
    let highlighted = (is_input && app.focus == Pane::Components)
        .then(|| {
            super::components::part_of(
                COMPONENT_ROWS[app.component_row.min(COMPONENT_ROWS.len() - 1)],
            )
        })
        .flatten();
    // With the Host pane focused, the selected finding's code points stand out.
    let finding_spans = if is_input && app.focus == Pane::Host {
        app.findings()
            .get(app.finding_row)
            .map(|f| f.spans.clone())
            .unwrap_or_default()
    } else {
        Vec::new()
    };
    let mut text_line = Vec::new();
    let mut ruler = String::new();
    let mut marks = String::new();
    for (i, &c) in chars.iter().enumerate() {
        let (a, b) = (columns[i], columns[i + 1]);
        if !visible(a, b) {
            continue;
        }
        let shown = display::escape_char(c, EscapeStyle::Symbols);
        let part = parts.get(i).copied().flatten();
        let mut style = part.map_or_else(Default::default, |p| theme.part(p));
        if display::needs_escape(c) {
            style = theme.escape();
        }
        if error_at(i) {
            style = style.patch(theme.error());
        }
        if part.is_some() && part == highlighted {
            style = style.patch(theme.selected());
        }
        if finding_spans.iter().any(|s| s.start <= i && i < s.end) {
            style = style.patch(theme.selected());
        }
        text_line.push(Span::styled(shown.into_owned(), style));
        let width = b - a;
        let letter = part.map_or('·', Part::letter);
        ruler.extend(std::iter::repeat_n(letter, width));
        let mark = if error_at(i) { '^' } else { ' ' };
        marks.extend(std::iter::repeat_n(mark, width));
    }
    // The pointer of the selected step (step mode), also at EOF.
    if is_input && app.step_mode {
        if let Some(step) = app
            .trace()
            .filter(|t| !t.is_empty())
            .map(|t| t.view(app.step.min(t.len() - 1)))
        {
            if matches!(step.phase, Phase::State(_)) {
                let col = columns[step.pointer.min(chars.len())].saturating_sub(start);
                let mut line: Vec<char> = marks.chars().collect();
                while line.len() <= col {
                    line.push(' ');
                }
                line[col] = '▲';
                marks = line.into_iter().collect();
            }
        }
    }
    let mut lines = vec![Line::from(text_line)];
    if is_input {
        lines.push(Line::styled(ruler, theme.dim()));
        lines.push(Line::styled(marks, theme.error()));
    }
    let title = format!(" {} {} ", pane.number(), pane.title());
    let hint = if is_input {
        " s scheme u userinfo h host n port p path q query f fragment ^ error "
    } else {
        ""
    };
    let block = Block::default()
        .borders(Borders::ALL)
        .title(Span::styled(title, theme.title(focused)))
        .title_bottom(Line::styled(hint, theme.dim()));
    frame.render_widget(Paragraph::new(lines).block(block), area);
    if focused {
        let x = area.x + 1 + (cursor_column - start) as u16;
        frame.set_cursor_position((x.min(area.right().saturating_sub(2)), area.y + 1));
    }
}
