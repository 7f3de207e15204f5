//! Findings: a stable id, a severity, a title, an explanation in our words, and the code points
//! involved with their positions in the input.

use serde::Serialize;
use std::fmt;

use crate::validation::Span;

/// How much a finding matters.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// Worth knowing (a legitimate IDN, an uppercase letter mapped).
    Info,
    /// Could mislead (credentials, non-canonical IPv4, deviation characters, internal ranges).
    Warn,
    /// Built to deceive (homographs, look-alikes, credentials shaped like a host, bidi
    /// controls, parser differentials on the host).
    Danger,
}

impl Severity {
    pub fn name(self) -> &'static str {
        match self {
            Severity::Info => "info",
            Severity::Warn => "warn",
            Severity::Danger => "danger",
        }
    }
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A code point of the input, as `U+XXXX NAME`, with its code point offset.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CodePointRef {
    pub position: usize,
    pub code_point: String,
}

/// `U+0430 CYRILLIC SMALL LETTER A`.
pub fn describe(c: char) -> String {
    // By hand rather than with `format!`: the name comes in many small pieces, each of which
    // would take a trip through the formatter and a reallocation, and a homograph host
    // describes every one of its code points.
    let code = u32::from(c);
    let digits = (32 - code.leading_zeros()).div_ceil(4).max(4);
    let mut out = String::with_capacity(64);
    out.push_str("U+");
    for shift in (0..digits).rev() {
        out.push(char::from(
            b"0123456789ABCDEF"[(code >> (4 * shift) & 0xF) as usize],
        ));
    }
    if let Some(name) = unicode_names2::name(c) {
        out.push(' ');
        out.extend(name);
    }
    out
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Finding {
    pub id: &'static str,
    pub severity: Severity,
    pub title: &'static str,
    pub detail: String,
    pub code_points: Vec<CodePointRef>,
    pub spans: Vec<Span>,
}

impl Finding {
    pub fn new(id: &'static str, severity: Severity, title: &'static str, detail: String) -> Self {
        Finding {
            id,
            severity,
            title,
            detail,
            code_points: Vec::new(),
            spans: Vec::new(),
        }
    }

    /// Adds code points (with their positions) and one span per code point.
    pub fn at(mut self, points: impl IntoIterator<Item = (usize, char)>) -> Self {
        for (position, c) in points {
            self.code_points.push(CodePointRef {
                position,
                code_point: describe(c),
            });
            self.spans.push(Span {
                start: position,
                end: position + 1,
            });
        }
        self
    }

    pub fn span(mut self, span: Span) -> Self {
        self.spans.push(span);
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn describe_matches_the_formatted_name() {
        let samples = (0..0x3400)
            .step_by(7)
            .chain([
                0x4E00, 0x9FFF, 0xAC00, 0xD7A3, 0xFFFD, 0xFFFF, 0x1_F600, 0x2_0000, 0x10_FFFF,
            ])
            .filter_map(char::from_u32);
        for c in samples {
            let expected = match unicode_names2::name(c) {
                Some(name) => format!("U+{:04X} {name}", u32::from(c)),
                None => format!("U+{:04X}", u32::from(c)),
            };
            assert_eq!(describe(c), expected, "code point {c:?}");
        }
    }
}
