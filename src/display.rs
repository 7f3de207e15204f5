//! Showing untrusted text safely: every control, bidi control and invisible code point is
//! replaced by a visible escape, so that a URL can never write to the terminal or hide part of
//! itself. Front ends print only what these functions return.

use std::borrow::Cow;
use unicode_width::UnicodeWidthChar;

/// How escapes look.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EscapeStyle {
    /// For the terminal interface: control pictures (`␉`, `␛`) and `⟨U+200B⟩`.
    Symbols,
    /// For text output meant to be copied: `\t`, `\n`, `\u{200B}`.
    Backslash,
}

/// Whether `c` must not reach a terminal as itself: C0 and C1 controls, DEL, bidi controls,
/// and invisible or default-ignorable code points that could hide or reorder text.
pub fn needs_escape(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{AD}'
                | '\u{34F}'
                | '\u{61C}'
                | '\u{115F}'
                | '\u{1160}'
                | '\u{17B4}'
                | '\u{17B5}'
                | '\u{180B}'..='\u{180F}'
                | '\u{200B}'..='\u{200F}'
                | '\u{2028}'..='\u{202E}'
                | '\u{2060}'..='\u{206F}'
                | '\u{3164}'
                | '\u{FE00}'..='\u{FE0F}'
                | '\u{FEFF}'
                | '\u{FFA0}'
                | '\u{FFF0}'..='\u{FFFB}'
                | '\u{1BCA0}'..='\u{1BCA3}'
                | '\u{1D173}'..='\u{1D17A}'
                | '\u{E0000}'..='\u{E0FFF}'
        )
}

/// The visible form of one code point.
pub fn escape_char(c: char, style: EscapeStyle) -> Cow<'static, str> {
    if !needs_escape(c) {
        return Cow::Owned(c.to_string());
    }
    match style {
        EscapeStyle::Symbols => match c {
            '\0'..='\u{1F}' => Cow::Owned(
                char::from_u32(0x2400 + u32::from(c))
                    .map_or_else(|| format!("⟨U+{:04X}⟩", u32::from(c)), String::from),
            ),
            '\u{7F}' => Cow::Borrowed("␡"),
            _ => Cow::Owned(format!("⟨U+{:04X}⟩", u32::from(c))),
        },
        EscapeStyle::Backslash => match c {
            '\t' => Cow::Borrowed("\\t"),
            '\n' => Cow::Borrowed("\\n"),
            '\r' => Cow::Borrowed("\\r"),
            _ => Cow::Owned(format!("\\u{{{:X}}}", u32::from(c))),
        },
    }
}

/// `s` with every code point that [`needs_escape`] escaped. Borrows when nothing needs it.
pub fn escape(s: &str, style: EscapeStyle) -> Cow<'_, str> {
    if !s.chars().any(needs_escape) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        out.push_str(&escape_char(c, style));
    }
    Cow::Owned(out)
}

/// The display width of `c` once escaped (0-width code points count as their escape).
pub fn display_width(c: char, style: EscapeStyle) -> usize {
    if needs_escape(c) {
        escape_char(c, style)
            .chars()
            .map(|e| e.width().unwrap_or(0))
            .sum()
    } else {
        c.width().unwrap_or(0)
    }
}

/// The terminal column where each code point of `s` starts once escaped, plus one entry for
/// the end, so that a span of code points `a..b` covers columns `columns[a]..columns[b]`.
pub fn columns(s: &str, style: EscapeStyle) -> Vec<usize> {
    let mut columns = Vec::with_capacity(s.len() + 1);
    let mut column = 0;
    for c in s.chars() {
        columns.push(column);
        column += display_width(c, style);
    }
    columns.push(column);
    columns
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_controls_bidi_and_invisibles() {
        let hostile = "a\u{1b}]52;c;x\u{7}\u{1b}[2J\u{202E}b\u{200B}\u{9B}";
        let shown = escape(hostile, EscapeStyle::Symbols);
        assert_eq!(shown, "a␛]52;c;x␇␛[2J⟨U+202E⟩b⟨U+200B⟩⟨U+009B⟩");
        assert!(!shown.chars().any(needs_escape));
        assert_eq!(
            escape("a\tb\u{200B}", EscapeStyle::Backslash),
            "a\\tb\\u{200B}"
        );
        assert!(matches!(
            escape("https://例え.jp/", EscapeStyle::Symbols),
            Cow::Borrowed(_)
        ));
    }

    #[test]
    fn columns_follow_escapes_and_wide_characters() {
        assert_eq!(columns("a\t例b", EscapeStyle::Symbols), vec![0, 1, 2, 4, 5]);
        assert_eq!(columns("a\tb", EscapeStyle::Backslash), vec![0, 1, 3, 4]);
        assert_eq!(columns("\u{200B}x", EscapeStyle::Symbols), vec![0, 8, 9]);
    }
}
