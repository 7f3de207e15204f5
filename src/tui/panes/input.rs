//! The Input and Base lines: the text with each code point coloured by the URL part it ended up
//! in, a ruler of part letters, error carets, and the selected step's pointer in step mode.
//! Control and invisible code points are drawn as escapes; a line longer than the pane scrolls
//! around the cursor, with `…` where text goes on out of sight.

use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph};
use ratatui::Frame;

use crate::display::{self, EscapeStyle};
use crate::url::Phase;
use crate::validation::ValidationError;

use super::super::derived::part_of;
use super::super::list::{self, cut_end, CUT};
use super::super::model::{App, Pane};
use super::super::theme::{Part, Theme};

/// The first visible column so that `cursor_column` stays on screen.
fn scroll_start(cursor_column: usize, width: usize) -> usize {
    cursor_column.saturating_sub(width.saturating_sub(1))
}

pub fn render(frame: &mut Frame<'_>, area: Rect, app: &App, pane: Pane, theme: &Theme) {
    let focused = app.focus == pane && app.edit.is_none() && app.overlays.is_empty();
    let is_input = pane == Pane::Input;
    let editor = if is_input { &app.input } else { &app.base };
    let text = editor.text();
    let chars: Vec<char> = text.chars().collect();
    let columns = display::columns(text, EscapeStyle::Symbols);
    let total = columns[chars.len()];
    // A short screen draws the Base line without a border, its title in front.
    let label = format!("{} {}: ", pane.digit(), pane.title());
    let inner = if area.height < 3 {
        usize::from(area.width).saturating_sub(list::width(&label))
    } else {
        usize::from(area.width.saturating_sub(2))
    };
    let cursor_column = columns[editor.cursor().min(chars.len())];
    // Room for the text, less a column at each end that may hold `…`.
    let (room, start) = if total < inner {
        (inner, 0)
    } else {
        let room = inner.saturating_sub(2).max(1);
        (room, scroll_start(cursor_column, room))
    };
    let left_cut = start > 0;
    let right_cut = start + room < total;
    let lead = usize::from(total >= inner);
    if is_input {
        app.input_start.set(start.saturating_sub(lead));
    }
    let visible = |a: usize, b: usize| a >= start && b <= start + room;

    let (parts, errors): (&[Option<Part>], &[ValidationError]) = if is_input {
        (&app.derived.parts, &app.report.errors)
    } else {
        (&app.derived.base_parts, &app.derived.base_errors)
    };
    let selected_error = (is_input && !app.report.errors.is_empty())
        .then(|| app.report.errors.get(app.selected(Pane::Errors)))
        .flatten();
    let in_span =
        |e: &ValidationError, i: usize| e.span.start <= i && i < e.span.end.max(e.span.start + 1);
    let error_at = |i: usize| errors.iter().any(|e| in_span(e, i));
    let selected_at = |i: usize| selected_error.is_some_and(|e| in_span(e, i));

    // With the Components pane focused, the selected component's code points stand out.
    let highlighted = (is_input && app.focus == Pane::Components && !app.step_mode)
        .then(|| {
            let rows = &app.derived.components;
            let row = rows.get(app.selected(Pane::Components))?;
            crate::url::Component::ALL
                .iter()
                .find(|c| c.name() == row.key)
                .and_then(|&c| part_of(c))
        })
        .flatten();
    // With the Host pane focused, the selected finding's code points stand out.
    let finding_spans = if is_input && app.focus == Pane::Host {
        app.findings()
            .get(app.selected(Pane::Host))
            .map(|f| f.spans.clone())
            .unwrap_or_default()
    } else if is_input && app.focus == Pane::Parsers {
        // The span the selected parser took as the selected component.
        app.parsers
            .marked(app.selected(Pane::Parsers), text)
            .map(|r| crate::validation::Span {
                start: r.start,
                end: r.end,
            })
            .into_iter()
            .collect()
    } else {
        Vec::new()
    };
    let cut_mark = |cut: bool| {
        Span::styled(
            if cut {
                CUT.to_string()
            } else {
                " ".repeat(lead)
            },
            theme.dim(),
        )
    };
    let mut text_line = vec![cut_mark(left_cut)];
    let mut ruler = String::from(if left_cut { "…" } else { "" });
    if !left_cut {
        ruler.push_str(&" ".repeat(lead));
    }
    let mut marks: Vec<Span<'static>> = vec![Span::raw(" ".repeat(lead))];
    for (i, &c) in chars.iter().enumerate() {
        let (a, b) = (columns[i], columns[i + 1]);
        if !visible(a, b) {
            continue;
        }
        let shown = display::escape_char(c, EscapeStyle::Symbols);
        let part = parts.get(i).copied().flatten();
        let mut style = part.map_or_else(Style::default, |p| theme.part(p));
        if display::needs_escape(c) {
            style = theme.escape();
        }
        // Underlined, not recoloured: the colour still says which part it is.
        if error_at(i) {
            style = style.add_modifier(ratatui::style::Modifier::UNDERLINED);
        }
        if selected_at(i) && app.focus == Pane::Errors {
            style = style.patch(theme.error_selected());
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
        let (mark, mark_style) = if selected_at(i) && app.focus == Pane::Errors {
            ('^', theme.error_selected())
        } else if error_at(i) {
            ('^', theme.error())
        } else {
            (' ', Style::default())
        };
        marks.push(Span::styled(mark.to_string().repeat(width), mark_style));
    }
    if right_cut {
        text_line.push(cut_mark(true));
        ruler.push(CUT);
    }
    // The pointer of the selected step (step mode), also at EOF.
    if is_input && app.step_mode {
        if let Some(step) = app
            .trace()
            .filter(|t| !t.is_empty())
            .map(|t| t.view(app.step().min(t.len() - 1)))
        {
            if matches!(step.phase, Phase::State(_)) {
                let column = columns[step.pointer.min(chars.len())];
                if column >= start && column <= start + room {
                    let col = column - start + lead;
                    let mut flat: Vec<(char, Style)> = marks
                        .iter()
                        .flat_map(|s| s.content.chars().map(move |c| (c, s.style)))
                        .collect();
                    while flat.len() <= col {
                        flat.push((' ', Style::default()));
                    }
                    flat[col] = ('▲', theme.title(true));
                    marks = flat
                        .into_iter()
                        .map(|(c, s)| Span::styled(c.to_string(), s))
                        .collect();
                }
            }
        }
    }
    if area.height < 3 {
        let x = list::width(&label) as u16;
        let mut spans = vec![Span::styled(label, theme.title(focused))];
        spans.extend(text_line);
        frame.render_widget(
            Paragraph::new(list::cut_line(Line::from(spans), usize::from(area.width))),
            area,
        );
        if focused {
            let cx = area.x + x + (cursor_column - start + lead) as u16;
            frame.set_cursor_position((cx.min(area.right().saturating_sub(1)), area.y));
        }
        return;
    }
    let mut lines = vec![Line::from(text_line)];
    if is_input {
        lines.push(Line::styled(ruler, theme.dim()));
        lines.push(Line::from(marks));
    }
    let width = usize::from(area.width.saturating_sub(4));
    let bottom = if is_input {
        " s scheme u userinfo h host n port p path q query f fragment · none ^ error ".to_owned()
    } else {
        base_summary(app)
    };
    let title = format!(" {} {} ", pane.digit(), pane.title());
    // The query is encoded in another encoding than UTF-8: said where the input is.
    let title = if is_input && app.encoding != encoding_rs::UTF_8 {
        format!("{title}· query encoding {} ", app.encoding.name())
    } else {
        title
    };
    let title = if !is_input && app.base.text().is_empty() {
        format!("{title}(optional: a base URL to resolve the input against) ")
    } else {
        title
    };
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(theme.border(focused))
        .title(Span::styled(title, theme.title(focused)))
        .title_bottom(Line::styled(
            cut_end(&bottom, width),
            if !is_input && !app.derived.base_errors.is_empty() {
                theme.error()
            } else {
                theme.dim()
            },
        ));
    frame.render_widget(Paragraph::new(lines).block(block), area);
    if focused {
        let x = area.x + 1 + (cursor_column - start + lead) as u16;
        frame.set_cursor_position((x.min(area.right().saturating_sub(2)), area.y + 1));
    }
}

/// What the Base line says about its own parse: its validation errors, or its failure.
fn base_summary(app: &App) -> String {
    if app.base.text().is_empty() {
        return String::new();
    }
    if let crate::report::Outcome::BaseFailure { cause } = &app.report.outcome {
        return format!(
            " the base is not a URL: {} ",
            cause
                .as_ref()
                .map_or("failure".to_owned(), |c| c.kind.to_string())
        );
    }
    let errors = &app.derived.base_errors;
    if errors.is_empty() {
        return " the base parses with no validation error ".to_owned();
    }
    let names: Vec<&str> = errors.iter().map(|e| e.kind.name()).collect();
    format!(" ⚠ {} in the base: {} ", errors.len(), names.join(", "))
}
