//! Code points and strings the standard names and tests for, shared by the parser, the host
//! parser, the shortcut, the writing grammar and the record. The bottom layer: it imports
//! nothing of urlscope.

/// URL Standard: a Windows drive letter: an ASCII alpha followed by U+003A (:) or U+007C (|).
pub fn is_windows_drive_letter(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() == 2 && b[0].is_ascii_alphabetic() && (b[1] == b':' || b[1] == b'|')
}

/// URL Standard: a normalized Windows drive letter: the second code point is U+003A (:).
pub fn is_normalized_windows_drive_letter(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() == 2 && b[0].is_ascii_alphabetic() && b[1] == b':'
}

/// URL Standard: a string starts with a Windows drive letter.
pub fn starts_with_windows_drive_letter(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() >= 2
        && b[0].is_ascii_alphabetic()
        && (b[1] == b':' || b[1] == b'|')
        && (b.len() == 2 || matches!(b[2], b'/' | b'\\' | b'?' | b'#'))
}

/// URL Standard: URL code points (4.3 URL writing).
#[inline]
pub fn is_url_code_point(c: char) -> bool {
    match c {
        'a'..='z' | 'A'..='Z' | '0'..='9' => true,
        '!' | '$' | '&' | '\'' | '(' | ')' | '*' | '+' | ',' | '-' | '.' | '/' | ':' | ';'
        | '=' | '?' | '@' | '_' | '~' => true,
        // U+00A0 to U+10FFFD, excluding surrogates (not `char`s) and noncharacters.
        '\u{A0}'..='\u{10FFFD}' => !is_noncharacter(c),
        _ => false,
    }
}

/// Infra: a noncharacter is U+FDD0 to U+FDEF, or a code point ending in FFFE or FFFF.
#[inline]
pub fn is_noncharacter(c: char) -> bool {
    let c = u32::from(c);
    (0xFDD0..=0xFDEF).contains(&c) || (c & 0xFFFE) == 0xFFFE
}

/// URL Standard: a single-dot URL path segment: "." or an ASCII case-insensitive "%2e".
pub fn is_single_dot(segment: &str) -> bool {
    segment == "." || segment.eq_ignore_ascii_case("%2e")
}

/// URL Standard: a double-dot URL path segment: "..", or an ASCII case-insensitive ".%2e",
/// "%2e." or "%2e%2e".
pub fn is_double_dot(segment: &str) -> bool {
    match segment.len() {
        2 => segment == "..",
        4 => segment.eq_ignore_ascii_case(".%2e") || segment.eq_ignore_ascii_case("%2e."),
        6 => segment.eq_ignore_ascii_case("%2e%2e"),
        _ => false,
    }
}

/// URL Standard: forbidden host code point.
#[inline]
pub fn is_forbidden_host_code_point(c: char) -> bool {
    matches!(
        c,
        '\0' | '\t'
            | '\n'
            | '\r'
            | ' '
            | '#'
            | '/'
            | ':'
            | '<'
            | '>'
            | '?'
            | '@'
            | '['
            | '\\'
            | ']'
            | '^'
            | '|'
    )
}

/// URL Standard: forbidden domain code point.
#[inline]
pub fn is_forbidden_domain_code_point(c: char) -> bool {
    is_forbidden_host_code_point(c) || c <= '\u{1F}' || c == '%' || c == '\u{7F}'
}
