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

/// Why a code point must not reach a terminal as itself, from the Unicode Character Database.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Hidden {
    /// General_Category Cc: the C0 controls, DEL and the C1 controls, which terminals obey
    /// (ESC starts escape sequences, C1 CSI U+009B starts one on its own).
    Control,
    /// Bidi_Control: the code points that reorder displayed text (RLO U+202E, the isolates).
    BidiControl,
    /// The rest of General_Category Cf, Zl and Zp, and Default_Ignorable_Code_Point: format
    /// characters, line and paragraph separators, and code points that render as nothing
    /// (U+200B, variation selectors, tag characters, Hangul fillers).
    Invisible,
}

/// What makes `c` unsafe to show as itself, or `None` when it shows as what it is.
pub fn hidden(c: char) -> Option<Hidden> {
    use icu_properties::props::{
        BidiControl, DefaultIgnorableCodePoint, GeneralCategory, GeneralCategoryGroup,
    };
    use icu_properties::{CodePointMapData, CodePointSetData};
    if c.is_ascii() {
        return (c.is_ascii_control()).then_some(Hidden::Control);
    }
    let category = CodePointMapData::<GeneralCategory>::new().get(c);
    if category == GeneralCategory::Control {
        Some(Hidden::Control)
    } else if CodePointSetData::new::<BidiControl>().contains(c) {
        Some(Hidden::BidiControl)
    } else if GeneralCategoryGroup::Format.contains(category)
        || GeneralCategoryGroup::LineSeparator.contains(category)
        || GeneralCategoryGroup::ParagraphSeparator.contains(category)
        || CodePointSetData::new::<DefaultIgnorableCodePoint>().contains(c)
    {
        Some(Hidden::Invisible)
    } else {
        None
    }
}

/// Whether `c` must not reach a terminal as itself (see [`Hidden`]).
pub fn needs_escape(c: char) -> bool {
    hidden(c).is_some()
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
    // Printable ASCII, the common case, is checked eight bytes at a time without decoding.
    if printable_ascii(s.as_bytes()) || !s.chars().any(needs_escape) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        out.push_str(&escape_char(c, style));
    }
    Cow::Owned(out)
}

/// Display text as the inspector and the page show it: control, bidi and invisible code points
/// as symbols (`␉`, `⟨U+202E⟩`), never as themselves.
pub fn show(s: &str) -> String {
    escape(s, EscapeStyle::Symbols).into_owned()
}

/// Whether every byte is printable ASCII (U+0020 to U+007E): nothing to escape.
fn printable_ascii(bytes: &[u8]) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    // A byte below 0x20 (the has-less-than trick), or from 0x7F up: adding one sets the high
    // bit of 0x7F, and the high bit is already set from 0x80 (a carry only leaves a byte
    // 0xFF, which is caught itself).
    let outside = |x: u64| (x.wrapping_sub(ONES * 0x20) & !x | x | x.wrapping_add(ONES)) & HIGHS;
    let mut words = bytes.chunks_exact(8);
    let mut any = 0;
    for word in &mut words {
        any |= outside(u64::from_le_bytes(word.try_into().unwrap_or_default()));
    }
    any == 0 && words.remainder().iter().all(|b| (0x20..0x7F).contains(b))
}

/// The end of `s`, escaped, in at most `width` columns: when it does not fit, `…` and as many
/// of its last code points as fit after it. Reads only the code points it shows (and one
/// more), so showing the end of a long buffer costs the width, not the buffer's length.
pub fn tail(s: &str, width: usize, style: EscapeStyle) -> Cow<'_, str> {
    let mut used = 0;
    let mut start = s.len();
    for (i, c) in s.char_indices().rev() {
        let w = display_width(c, style);
        if used + w > width {
            // Make room for the ellipsis.
            let mut shown = &s[start..];
            while used + 1 > width && !shown.is_empty() {
                let c = shown.chars().next().map_or(' ', |c| c);
                used -= display_width(c, style);
                shown = &shown[c.len_utf8()..];
            }
            return Cow::Owned(format!("…{}", escape(shown, style)));
        }
        used += w;
        start = i;
    }
    escape(s, style)
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
    fn printable_ascii_is_exact_for_every_byte_in_every_position() {
        for b in 0..=255u8 {
            for len in 1..20 {
                for at in 0..len {
                    let mut bytes = vec![b'a'; len];
                    bytes[at] = b;
                    assert_eq!(
                        printable_ascii(&bytes),
                        (0x20..0x7F).contains(&b),
                        "{b:#x} at {at} of {len}"
                    );
                }
            }
        }
    }

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

    /// Controls, bidi controls, format characters, separators and default ignorables are
    /// escaped, including format characters that the hand-written list missed (U+0600,
    /// U+110BD, U+13430), and ordinary letters and spaces are not.
    #[test]
    fn hidden_follows_the_unicode_data() {
        for (c, expected) in [
            ('\u{1B}', Some(Hidden::Control)),
            ('\u{7F}', Some(Hidden::Control)),
            ('\u{9B}', Some(Hidden::Control)),
            ('\u{202E}', Some(Hidden::BidiControl)),
            ('\u{2067}', Some(Hidden::BidiControl)),
            ('\u{61C}', Some(Hidden::BidiControl)),
            ('\u{200B}', Some(Hidden::Invisible)),
            ('\u{2028}', Some(Hidden::Invisible)),
            ('\u{2029}', Some(Hidden::Invisible)),
            ('\u{FE0F}', Some(Hidden::Invisible)),
            ('\u{E0041}', Some(Hidden::Invisible)),
            ('\u{3164}', Some(Hidden::Invisible)),
            ('\u{AD}', Some(Hidden::Invisible)),
            ('\u{FFFB}', Some(Hidden::Invisible)),
            ('\u{2064}', Some(Hidden::Invisible)),
            // Cf code points that the hand-written list did not have.
            ('\u{600}', Some(Hidden::Invisible)),
            ('\u{110BD}', Some(Hidden::Invisible)),
            ('\u{13430}', Some(Hidden::Invisible)),
            ('\u{1D173}', Some(Hidden::Invisible)),
            ('a', None),
            ('é', None),
            ('例', None),
            (' ', None),
            ('\u{A0}', None),
        ] {
            assert_eq!(hidden(c), expected, "U+{:04X}", u32::from(c));
        }
    }

    #[test]
    fn tail_shows_the_end_with_an_ellipsis() {
        assert_eq!(tail("abc", 3, EscapeStyle::Backslash), "abc");
        assert_eq!(tail("abcdef", 4, EscapeStyle::Backslash), "…def");
        assert_eq!(tail("ab\u{1b}", 8, EscapeStyle::Backslash), "ab\\u{1B}");
        assert_eq!(tail("ab\u{1b}", 7, EscapeStyle::Backslash), "…\\u{1B}");
        assert_eq!(tail("例例例", 5, EscapeStyle::Backslash), "…例例");
        assert_eq!(tail("", 0, EscapeStyle::Backslash), "");
    }

    #[test]
    fn columns_follow_escapes_and_wide_characters() {
        assert_eq!(columns("a\t例b", EscapeStyle::Symbols), vec![0, 1, 2, 4, 5]);
        assert_eq!(columns("a\tb", EscapeStyle::Backslash), vec![0, 1, 3, 4]);
        assert_eq!(columns("\u{200B}x", EscapeStyle::Symbols), vec![0, 8, 9]);
    }
}

/// One word of a command for bash: in single quotes (a quote as `'\''`) when every code point
/// shows as itself; else in bash's ANSI-C quotes, `$'…'`, with a backslash and a quote escaped,
/// tab, newline and carriage return by name, and every other code point that must not reach a
/// terminal as itself ([`needs_escape`]: controls, bidi controls, invisible
/// ones) as its UTF-8 bytes, `\xHH`, which bash puts back together whatever the locale. (The
/// shell-quote crate writes such code points as themselves, which is what must not happen.)
/// A U+0000 cannot be in an argument at all: bash ends the word there.
pub fn shell_word(s: &str) -> String {
    if !s.chars().any(needs_escape) {
        return format!("'{}'", s.replace('\'', r"'\''"));
    }
    let mut word = String::from("$'");
    for c in s.chars() {
        match c {
            '\\' => word.push_str(r"\\"),
            '\'' => word.push_str(r"\'"),
            '\t' => word.push_str(r"\t"),
            '\n' => word.push_str(r"\n"),
            '\r' => word.push_str(r"\r"),
            c if needs_escape(c) => {
                for byte in c.encode_utf8(&mut [0; 4]).bytes() {
                    word.push_str(&format!("\\x{byte:02X}"));
                }
            }
            c => word.push(c),
        }
    }
    word.push('\'');
    word
}

/// What the inspector is opened on: the `urlscope` command that opens the same screen in a
/// terminal, for the inspector's `y` and the classroom page's "Copy command".
#[derive(Clone, Copy, Debug, Default)]
pub struct Handout<'a> {
    pub input: &'a str,
    pub base: Option<&'a str>,
    /// The query encoding's name, when it is not UTF-8.
    pub encoding: Option<&'a str>,
    /// The `--view` value.
    pub view: Option<&'a str>,
    pub pattern: Option<&'a str>,
    pub ignore_case: bool,
    /// The Trace's step, in step mode.
    pub step: Option<usize>,
}

/// The subcommands of `urlscope`: an input spelled as one of them is read as that subcommand,
/// unless it follows `--` (the command line checks this list against its own).
pub const SUBCOMMANDS: [&str; 7] = [
    "parse", "trace", "check", "diff", "pattern", "generate", "help",
];

impl Handout<'_> {
    /// The command, each word quoted for bash ([`shell_word`]) so that the shell hands the
    /// binary exactly the input. An input that the command line would read as an option (it
    /// starts with `-`) or a subcommand comes last, after `--`. `None` when the input, base or
    /// pattern holds U+0000: no program's argument can carry it (an argument ends at the first
    /// NUL), so no command opens that screen.
    pub fn command(&self) -> Option<String> {
        if [Some(self.input), self.base, self.pattern]
            .into_iter()
            .flatten()
            .any(|value| value.contains('\0'))
        {
            return None;
        }
        let mut options = String::new();
        if let Some(base) = self.base {
            options.push_str(&format!(" --base {}", shell_word(base)));
        }
        if let Some(encoding) = self.encoding {
            options.push_str(&format!(" --encoding {encoding}"));
        }
        if let Some(view) = self.view {
            options.push_str(&format!(" --view {view}"));
        }
        if let Some(pattern) = self.pattern {
            options.push_str(&format!(" --pattern {}", shell_word(pattern)));
            if self.ignore_case {
                options.push_str(" --ignore-case");
            }
        }
        if let Some(step) = self.step {
            options.push_str(&format!(" --step {step}"));
        }
        let input = shell_word(self.input);
        Some(
            if self.input.starts_with('-') || SUBCOMMANDS.contains(&self.input) {
                format!("urlscope{options} -- {input}")
            } else {
                format!("urlscope {input}{options}")
            },
        )
    }
}
