//! The one way the inspector draws rows and documents: columns sized to their content, every
//! cut marked with `…`, notes wrapped under their row, a scrollbar and the position in the
//! title. Panes build [`Item`]s (or lines) and hand them here; none of them cuts text itself.

use std::cell::{Cell as Shared, RefCell};
use std::ops::Range;

use ratatui::layout::{Margin, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph, Scrollbar, ScrollbarOrientation, ScrollbarState};
use ratatui::Frame;
use unicode_width::{UnicodeWidthChar, UnicodeWidthStr};

use super::theme::Theme;

/// The mark of a cut.
pub const CUT: char = '…';

/// Which end of a cell survives when it is cut.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Keep {
    Start,
    /// The end (a parser's buffer, where the newest code points are).
    End,
}

#[derive(Clone, Debug)]
pub struct Cell {
    /// Display text: already escaped (no control or invisible code point).
    pub text: String,
    pub style: Style,
    pub keep: Keep,
}

impl Cell {
    pub fn new(text: impl Into<String>) -> Self {
        Cell {
            text: text.into(),
            style: Style::default(),
            keep: Keep::Start,
        }
    }

    pub fn styled(text: impl Into<String>, style: Style) -> Self {
        Cell {
            style,
            ..Cell::new(text)
        }
    }

    pub fn keep_end(mut self) -> Self {
        self.keep = Keep::End;
        self
    }
}

/// One row: cells in columns, then notes that wrap under it.
#[derive(Clone, Debug, Default)]
pub struct Item {
    pub cells: Vec<Cell>,
    /// The last cell wraps onto more lines instead of being cut.
    pub wrap: bool,
    pub notes: Vec<(String, Style)>,
    /// The row's own style (under the cells' styles).
    pub style: Style,
}

impl Item {
    pub fn new(cells: Vec<Cell>) -> Self {
        Item {
            cells,
            ..Item::default()
        }
    }

    pub fn wrapped(mut self) -> Self {
        self.wrap = true;
        self
    }

    pub fn note(mut self, text: impl Into<String>, style: Style) -> Self {
        self.notes.push((text.into(), style));
        self
    }
}

/// The most lines one item takes; past it the last line ends in `…` (the detail view has all).
const MAX_ITEM_LINES: usize = 8;

pub fn width(s: &str) -> usize {
    s.width()
}

/// `s` in at most `w` columns: whole, or cut at the end with `…`. Reads no further into `s`
/// than the cut (a value may be megabytes long).
pub fn cut_end(s: &str, w: usize) -> String {
    let mut out = String::new();
    let mut used = 0;
    // Where the text stands when it reaches `w - 1` columns: what is kept if it is cut.
    let mut kept = None;
    for c in s.chars() {
        let cw = c.width().unwrap_or(0);
        if used + cw > w.saturating_sub(1) && kept.is_none() {
            kept = Some(out.len());
        }
        if used + cw > w {
            let mut cut = out;
            cut.truncate(kept.unwrap_or(0));
            if w > 0 {
                cut.push(CUT);
            }
            return cut;
        }
        out.push(c);
        used += cw;
    }
    out
}

/// `s` in at most `w` columns: whole, or its end after `…`.
pub fn cut_start(s: &str, w: usize) -> String {
    let mut kept = Vec::new();
    let mut used = 0;
    let mut fits_in_less = None;
    for c in s.chars().rev() {
        let cw = c.width().unwrap_or(0);
        if used + cw > w.saturating_sub(1) && fits_in_less.is_none() {
            fits_in_less = Some(kept.len());
        }
        if used + cw > w {
            kept.truncate(fits_in_less.unwrap_or(0));
            if w == 0 {
                return String::new();
            }
            return std::iter::once(CUT).chain(kept.into_iter().rev()).collect();
        }
        kept.push(c);
        used += cw;
    }
    kept.into_iter().rev().collect()
}

fn pad(mut s: String, w: usize) -> String {
    let used = s.width();
    s.extend(std::iter::repeat_n(' ', w.saturating_sub(used)));
    s
}

/// `text` in lines of at most `w` columns, broken after spaces where there are any and
/// anywhere in a word longer than a line. At most `max` lines; a longer text ends in `…`.
pub fn wrap(text: &str, w: usize, max: usize) -> Vec<String> {
    let w = w.max(1);
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    let mut used = 0;
    // Words keep their trailing space, so that joining the lines gives the text back.
    let max = max.max(1);
    for word in text.split_inclusive(' ') {
        // One line past the most is enough to know that the text is cut.
        if lines.len() > max {
            break;
        }
        // Its width up to a line's worth is all the decision needs.
        let ww: usize = word
            .trim_end_matches(' ')
            .chars()
            .take(w + 1)
            .map(|c| c.width().unwrap_or(0))
            .sum();
        // A word that fits a line starts one; a longer one starts where it is and breaks.
        if used > 0 && used + ww > w && ww <= w {
            lines.push(std::mem::take(&mut line));
            used = 0;
        }
        for c in word.chars() {
            let cw = c.width().unwrap_or(0);
            if used + cw > w && c != ' ' {
                lines.push(std::mem::take(&mut line));
                used = 0;
                if lines.len() > max {
                    break;
                }
            }
            line.push(c);
            used += cw;
        }
    }
    if !line.is_empty() || lines.is_empty() {
        lines.push(line);
    }
    let lines: Vec<String> = lines.into_iter().map(|l| l.trim_end().to_owned()).collect();
    if lines.len() > max {
        let mut kept: Vec<String> = lines[..max].to_vec();
        let last = kept.last_mut().expect("one line at least");
        let mut marked = cut_end(last, w.saturating_sub(1));
        if !marked.ends_with(CUT) {
            marked.push(CUT);
        }
        *last = marked;
        return kept;
    }
    lines
}

/// A styled line cut to `w` columns with `…` when longer.
pub fn cut_line(line: Line<'static>, w: usize) -> Line<'static> {
    if line.width() <= w {
        return line;
    }
    let mut spans = Vec::new();
    let mut used = 0;
    let style = line.style;
    for span in line.spans {
        let sw = span.content.width();
        if used + sw <= w.saturating_sub(1) {
            used += sw;
            spans.push(span);
            continue;
        }
        let room = w.saturating_sub(1) - used;
        let mut part = String::new();
        let mut pw = 0;
        for c in span.content.chars() {
            let cw = c.width().unwrap_or(0);
            if pw + cw > room {
                break;
            }
            part.push(c);
            pw += cw;
        }
        spans.push(Span::styled(part, span.style));
        break;
    }
    spans.push(Span::raw(CUT.to_string()));
    Line::from(spans).style(style)
}

/// A pane's selection and where its view starts (kept by the renderer between frames).
#[derive(Debug, Default)]
pub struct ListState {
    pub selected: usize,
    pub offset: Shared<usize>,
    /// For each line drawn inside the border, the item it shows (for mouse clicks).
    pub lines: RefCell<Vec<Option<usize>>>,
}

/// How a list is drawn.
#[derive(Debug)]
pub struct Spec<'a> {
    pub header: Option<&'a [&'a str]>,
    /// The widest each column but the last may be, as a fraction of the width (percent).
    pub max_share: &'a [u16],
}

/// Draws `total` items, fetched by range, with `selected` in view, inside `block`.
#[allow(clippy::too_many_arguments)]
pub fn render(
    frame: &mut Frame<'_>,
    area: Rect,
    block: Block<'_>,
    spec: &Spec<'_>,
    total: usize,
    state: &ListState,
    fetch: &mut dyn FnMut(Range<usize>) -> Vec<Item>,
    selection: Style,
    theme: &Theme,
) {
    render_at(
        frame,
        area,
        block,
        spec,
        total,
        state,
        state.selected,
        fetch,
        selection,
        theme,
    );
}

/// [`render`] with the selected item given apart from `state` (a pane whose selection is kept
/// in other terms, such as the Trace pane's step); `state.lines` still records the items.
#[allow(clippy::too_many_arguments)]
pub fn render_at(
    frame: &mut Frame<'_>,
    area: Rect,
    block: Block<'_>,
    spec: &Spec<'_>,
    total: usize,
    state: &ListState,
    selected: usize,
    fetch: &mut dyn FnMut(Range<usize>) -> Vec<Item>,
    selection: Style,
    theme: &Theme,
) {
    let offset = &state.offset;
    state.lines.borrow_mut().clear();
    let position = if total == 0 {
        String::new()
    } else {
        format!(" {}/{total} ", selected.min(total - 1) + 1)
    };
    let block = block.title(Line::styled(position, theme.dim()).right_aligned());
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let w = usize::from(inner.width);
    let mut h = usize::from(inner.height);
    if w == 0 || h == 0 || total == 0 {
        return;
    }
    let mut y = inner.y;
    let selected = selected.min(total - 1);
    // The window: enough items before and after the selection to fill the pane either way.
    let first = selected.saturating_sub(h).min(offset.get());
    let last = (selected + h + 1).min(total);
    let items = fetch(first..last);
    let columns = items.iter().map(|i| i.cells.len()).max().unwrap_or(1);
    let widths = column_widths(&items, spec, columns, w);
    if let Some(header) = spec.header {
        let cells: Vec<String> = header
            .iter()
            .zip(&widths)
            .map(|(name, &cw)| pad(cut_end(name, cw), cw))
            .collect();
        let line = Line::styled(cut_end(cells.join(" ").trim_end(), w), theme.dim());
        frame.render_widget(Paragraph::new(line), Rect { height: 1, ..inner });
        state.lines.borrow_mut().push(None);
        y += 1;
        h -= 1;
        if h == 0 {
            return;
        }
    }
    let drawn: Vec<Vec<Line<'static>>> = items
        .iter()
        .map(|item| item_lines(item, &widths, w, h))
        .collect();
    // Scroll so that the selected item is whole on screen, moving as little as possible.
    let at = |i: usize| i - first;
    let mut off = offset.get().clamp(first, selected);
    while off < selected && (off..=selected).map(|i| drawn[at(i)].len()).sum::<usize>() > h {
        off += 1;
    }
    offset.set(off);
    let mut lines: Vec<Line<'static>> = Vec::new();
    for i in off..last {
        let mut item = drawn[at(i)].clone();
        if i == selected {
            for line in &mut item {
                *line = std::mem::take(line).patch_style(selection);
            }
        }
        state
            .lines
            .borrow_mut()
            .extend(std::iter::repeat_n(Some(i), item.len()));
        lines.extend(item);
        if lines.len() >= h {
            break;
        }
    }
    if lines.len() > h {
        // The last item does not fit whole: say so where it stops.
        lines.truncate(h);
        if let Some(last) = lines.pop() {
            let mut last = cut_line(last, w.saturating_sub(1));
            if !last.spans.last().is_some_and(|s| s.content.ends_with(CUT)) {
                last.spans.push(Span::styled(CUT.to_string(), theme.dim()));
            }
            lines.push(last);
        }
    }
    state
        .lines
        .borrow_mut()
        .truncate(h + usize::from(spec.header.is_some()));
    let body = Rect {
        y,
        height: h as u16,
        ..inner
    };
    frame.render_widget(Paragraph::new(lines), body);
    if total > 1 && (last - off < total || off > 0) {
        scrollbar(frame, area, total, selected);
    }
}

fn scrollbar(frame: &mut Frame<'_>, area: Rect, total: usize, position: usize) {
    let mut state = ScrollbarState::new(total).position(position);
    frame.render_stateful_widget(
        Scrollbar::new(ScrollbarOrientation::VerticalRight)
            .begin_symbol(None)
            .end_symbol(None),
        area.inner(Margin {
            vertical: 1,
            horizontal: 0,
        }),
        &mut state,
    );
}

/// Natural widths, with the columns before the last held to their share so that the last
/// one keeps room; a column held below its content is cut with `…`.
fn column_widths(items: &[Item], spec: &Spec<'_>, columns: usize, w: usize) -> Vec<usize> {
    let mut widths = vec![0; columns];
    if let Some(header) = spec.header {
        for (i, name) in header.iter().enumerate().take(columns) {
            widths[i] = name.width();
        }
    }
    for item in items {
        // The last column takes what is left: its cells need no measuring but the first.
        for (i, cell) in item.cells.iter().enumerate().take(columns - 1) {
            widths[i] = widths[i].max(cell.text.width());
        }
        if let Some(last) = item.cells.get(columns - 1) {
            let w = last
                .text
                .chars()
                .take(w + 1)
                .map(|c| c.width().unwrap_or(0))
                .sum();
            widths[columns - 1] = widths[columns - 1].max(w);
        }
    }
    let gaps = columns.saturating_sub(1);
    // The last column keeps room for its content, up to half the width, and at least a
    // quarter whatever the rows in view hold.
    let min_last = widths[columns - 1].clamp((w / 4).max(12).min(w / 2), (w / 2).max(1));
    let floors: Vec<usize> = (0..columns)
        .map(|i| {
            spec.max_share
                .get(i)
                .map_or(widths[i], |&share| (w * usize::from(share) / 100).max(3))
        })
        .collect();
    // Shrink the column that is furthest above its floor, as little as needed.
    loop {
        let fixed: usize = widths[..columns - 1].iter().sum::<usize>() + gaps;
        let Some(excess) = (fixed + min_last).checked_sub(w).filter(|&e| e > 0) else {
            break;
        };
        let Some((i, room)) = (0..columns - 1)
            .map(|i| (i, widths[i].saturating_sub(floors[i])))
            .filter(|&(_, room)| room > 0)
            .max_by_key(|&(_, room)| room)
        else {
            break;
        };
        widths[i] -= excess.min(room);
    }
    let fixed: usize = widths[..columns - 1].iter().sum::<usize>() + gaps;
    widths[columns - 1] = w.saturating_sub(fixed).max(1);
    widths
}

fn item_lines(item: &Item, widths: &[usize], w: usize, h: usize) -> Vec<Line<'static>> {
    let last = item.cells.len().saturating_sub(1);
    let mut spans = Vec::new();
    let mut x = 0;
    let mut rest = Vec::new();
    for (i, cell) in item.cells.iter().enumerate() {
        let cw = if i == last {
            w.saturating_sub(x)
        } else {
            widths[i]
        };
        if i == last && item.wrap {
            let mut parts = wrap(&cell.text, cw.max(1), MAX_ITEM_LINES.min(h.max(1)));
            let first = if parts.is_empty() {
                String::new()
            } else {
                parts.remove(0)
            };
            spans.push(Span::styled(first, cell.style));
            rest = parts
                .into_iter()
                .map(|p| Line::from(vec![Span::raw(" ".repeat(x)), Span::styled(p, cell.style)]))
                .collect();
        } else {
            let text = match cell.keep {
                Keep::Start => cut_end(&cell.text, cw),
                Keep::End => cut_start(&cell.text, cw),
            };
            let text = if i == last { text } else { pad(text, cw) };
            spans.push(Span::styled(text, cell.style));
        }
        if i != last {
            spans.push(Span::raw(" "));
            x += cw + 1;
        }
    }
    let mut lines = vec![Line::from(spans).style(item.style)];
    lines.extend(rest.into_iter().map(|l| l.style(item.style)));
    for (note, style) in &item.notes {
        for part in wrap(
            note,
            w.saturating_sub(2).max(1),
            MAX_ITEM_LINES.min(h.max(1)),
        ) {
            lines.push(Line::from(vec![
                Span::raw("  "),
                Span::styled(part, *style),
            ]));
        }
    }
    lines
}

/// Draws a document: lines cut with `…` where longer than the pane, scrolled by `scroll`
/// (clamped), with a scrollbar and the visible range in the title.
pub fn render_doc(
    frame: &mut Frame<'_>,
    area: Rect,
    block: Block<'_>,
    lines: Vec<Line<'static>>,
    scroll: &Shared<usize>,
    theme: &Theme,
) {
    let inner = block.inner(area);
    let h = usize::from(inner.height);
    let total = lines.len();
    let top = scroll.get().min(total.saturating_sub(h));
    scroll.set(top);
    let position = if total > h {
        format!(" {}–{}/{total} ", top + 1, (top + h).min(total))
    } else {
        String::new()
    };
    let block = block.title(Line::styled(position, theme.dim()).right_aligned());
    frame.render_widget(block, area);
    let w = usize::from(inner.width);
    let shown: Vec<Line<'static>> = lines
        .into_iter()
        .skip(top)
        .take(h)
        .map(|l| cut_line(l, w))
        .collect();
    frame.render_widget(Paragraph::new(shown), inner);
    if total > h {
        let mut state = ScrollbarState::new(total.saturating_sub(h) + 1).position(top);
        frame.render_stateful_widget(
            Scrollbar::new(ScrollbarOrientation::VerticalRight)
                .begin_symbol(None)
                .end_symbol(None),
            area.inner(Margin {
                vertical: 1,
                horizontal: 0,
            }),
            &mut state,
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cuts_are_marked() {
        assert_eq!(cut_end("redirect_uri", 12), "redirect_uri");
        assert_eq!(cut_end("redirect_uri", 11), "redirect_u…");
        assert_eq!(cut_start("ex%41mple.com", 8), "…ple.com");
        assert_eq!(cut_start("abc", 3), "abc");
        assert_eq!(cut_end("例え例え", 5), "例え…");
    }

    #[test]
    fn wrapping_keeps_every_character() {
        let text = "the host is evil.example, not paypal.com: credentials come before the @";
        for w in [10, 17, 30, 80] {
            let lines = wrap(text, w, 100);
            assert!(lines.iter().all(|l| l.width() <= w), "{w}: {lines:?}");
            let joined: String = lines.join(" ");
            assert_eq!(
                joined.split_whitespace().collect::<String>(),
                text.split_whitespace().collect::<String>()
            );
        }
        let long = "x".repeat(50);
        assert_eq!(wrap(&long, 20, 100).len(), 3);
        let cut = wrap(&long, 20, 2);
        assert_eq!(cut.len(), 2);
        assert!(cut[1].ends_with(CUT));
    }
}
