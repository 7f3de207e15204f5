//! Rendering the inspector off-screen: into a `TestBackend` buffer (for tests and benchmarks),
//! as plain text, and as SVG (for the screenshots in `screenshots/`, rasterised by
//! `cargo run --example screenshots`). The same drawing code as on a terminal.

use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;
use ratatui::style::{Color, Modifier};
use ratatui::Terminal;
use std::fmt::Write as _;

use super::model::App;
use super::theme::Theme;
use super::ui;

/// Draws `app` on a `width`x`height` screen and returns the buffer.
pub fn render(app: &mut App, width: u16, height: u16, theme: &Theme) -> Buffer {
    // A TestBackend never fails: it draws into memory.
    let Ok(mut terminal) = Terminal::new(TestBackend::new(width, height)) else {
        return Buffer::empty(ratatui::layout::Rect::new(0, 0, width, height));
    };
    let _ = terminal.draw(|frame| ui::draw(frame, app, theme));
    terminal.backend().buffer().clone()
}

/// The buffer as text, one line per row.
pub fn to_text(buffer: &Buffer) -> String {
    let area = buffer.area;
    let mut out = String::with_capacity(usize::from(area.width + 1) * usize::from(area.height));
    for y in area.top()..area.bottom() {
        for x in area.left()..area.right() {
            out.push_str(buffer[(x, y)].symbol());
        }
        out.push('\n');
    }
    out
}

/// A palette for a dark terminal.
fn rgb(color: Color, default: &'static str) -> String {
    let named = match color {
        Color::Reset => default,
        Color::Black => "#1d1f21",
        Color::Red => "#e06c75",
        Color::Green => "#98c379",
        Color::Yellow => "#e5c07b",
        Color::Blue => "#61afef",
        Color::Magenta => "#c678dd",
        Color::Cyan => "#56b6c2",
        Color::Gray => "#abb2bf",
        Color::DarkGray => "#7f848e",
        Color::LightRed => "#ff7b86",
        Color::LightGreen => "#b5e890",
        Color::LightYellow => "#ffd68a",
        Color::LightBlue => "#8cc8ff",
        Color::LightMagenta => "#e3a1f0",
        Color::LightCyan => "#8be9fd",
        Color::White => "#ffffff",
        Color::Rgb(r, g, b) => return format!("#{r:02x}{g:02x}{b:02x}"),
        Color::Indexed(208) => "#e5a15b",
        Color::Indexed(237) => "#3a3f4b",
        Color::Indexed(_) => default,
    };
    named.to_owned()
}

fn xml_escape(s: &str, out: &mut String) {
    for c in s.chars() {
        match c {
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '&' => out.push_str("&amp;"),
            '"' => out.push_str("&quot;"),
            ' ' => out.push('\u{A0}'),
            c => out.push(c),
        }
    }
}

/// The buffer as an SVG picture of a terminal (cells of 9×18 pixels, DejaVu Sans Mono).
pub fn to_svg(buffer: &Buffer) -> String {
    const W: f32 = 8.6;
    const H: f32 = 18.0;
    const BACKGROUND: &str = "#282c34";
    const FOREGROUND: &str = "#dcdfe4";
    let area = buffer.area;
    let (width, height) = (
        f32::from(area.width) * W + 16.0,
        f32::from(area.height) * H + 16.0,
    );
    let mut svg = String::new();
    let _ = write!(
        svg,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}">"#
    );
    let _ = write!(
        svg,
        r#"<rect width="100%" height="100%" fill="{BACKGROUND}"/>"#
    );
    svg.push_str(r#"<g font-family="DejaVu Sans Mono, monospace" font-size="14.3">"#);
    for y in area.top()..area.bottom() {
        let top = 8.0 + f32::from(y - area.top()) * H;
        for x in area.left()..area.right() {
            let cell = &buffer[(x, y)];
            let reversed = cell.modifier.contains(Modifier::REVERSED);
            let mut fg = rgb(cell.fg, FOREGROUND);
            let mut bg = rgb(cell.bg, BACKGROUND);
            if reversed {
                std::mem::swap(&mut fg, &mut bg);
            }
            let left = 8.0 + f32::from(x - area.left()) * W;
            if bg != BACKGROUND {
                let _ = write!(
                    svg,
                    r#"<rect x="{left}" y="{top}" width="{W}" height="{H}" fill="{bg}"/>"#
                );
            }
            let symbol = cell.symbol();
            if symbol.trim().is_empty() {
                continue;
            }
            let weight = if cell.modifier.contains(Modifier::BOLD) {
                r#" font-weight="bold""#
            } else {
                ""
            };
            let style = if cell.modifier.contains(Modifier::ITALIC) {
                r#" font-style="italic""#
            } else {
                ""
            };
            let underline = if cell.modifier.contains(Modifier::UNDERLINED) {
                r#" text-decoration="underline""#
            } else {
                ""
            };
            let _ = write!(
                svg,
                r#"<text x="{left}" y="{}" fill="{fg}"{weight}{style}{underline}>"#,
                top + H * 0.78
            );
            xml_escape(symbol, &mut svg);
            svg.push_str("</text>");
        }
    }
    svg.push_str("</g></svg>\n");
    svg
}
