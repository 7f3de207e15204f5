//! Percent-encoded bytes and percent-encode sets (URL Standard: 1.3 Percent-encoded bytes).
//!
//! The sets are built from one another exactly as the standard defines them. `AsciiSet` only
//! lists ASCII code points; every code point above U+007F is percent-encoded by all of them,
//! which is what the standard's sets say ("all code points greater than U+007E (~)").

use encoding_rs::{EncoderResult, Encoding, UTF_8};
use percent_encoding::{AsciiSet, CONTROLS};
use std::borrow::Cow;

/// URL Standard: C0 control percent-encode set (C0 controls and U+007F and above).
pub const C0_CONTROL: &AsciiSet = CONTROLS;

/// URL Standard: fragment percent-encode set.
pub const FRAGMENT: &AsciiSet = &C0_CONTROL.add(b' ').add(b'"').add(b'<').add(b'>').add(b'`');

/// URL Standard: query percent-encode set. Not built from the fragment set: it omits U+0060 (`).
pub const QUERY: &AsciiSet = &C0_CONTROL.add(b' ').add(b'"').add(b'#').add(b'<').add(b'>');

/// URL Standard: special-query percent-encode set.
pub const SPECIAL_QUERY: &AsciiSet = &QUERY.add(b'\'');

/// URL Standard: path percent-encode set.
pub const PATH: &AsciiSet = &QUERY.add(b'?').add(b'^').add(b'`').add(b'{').add(b'}');

/// URL Standard: userinfo percent-encode set.
pub const USERINFO: &AsciiSet = &PATH
    .add(b'/')
    .add(b':')
    .add(b';')
    .add(b'=')
    .add(b'@')
    .add(b'[')
    .add(b'\\')
    .add(b']')
    .add(b'|');

/// URL Standard: component percent-encode set.
pub const COMPONENT: &AsciiSet = &USERINFO.add(b'$').add(b'%').add(b'&').add(b'+').add(b',');

/// URL Standard: application/x-www-form-urlencoded percent-encode set.
pub const FORM_URLENCODED: &AsciiSet =
    &COMPONENT.add(b'!').add(b'\'').add(b'(').add(b')').add(b'~');

/// The percent-encode sets by the standard's names, for display and for tests.
pub const NAMED_SETS: &[(&str, &AsciiSet)] = &[
    ("C0 control percent-encode set", C0_CONTROL),
    ("fragment percent-encode set", FRAGMENT),
    ("query percent-encode set", QUERY),
    ("special-query percent-encode set", SPECIAL_QUERY),
    ("path percent-encode set", PATH),
    ("userinfo percent-encode set", USERINFO),
    ("component percent-encode set", COMPONENT),
    (
        "application/x-www-form-urlencoded percent-encode set",
        FORM_URLENCODED,
    ),
];

const UPPER_HEX: &[u8; 16] = b"0123456789ABCDEF";

/// Whether the ASCII byte `byte` is in `set`. (`AsciiSet` keeps its membership test private; a
/// one-byte encode answers the same question.)
#[inline]
pub fn set_contains(set: &'static AsciiSet, byte: u8) -> bool {
    debug_assert!(byte.is_ascii());
    percent_encoding::percent_encode(&[byte], set)
        .next()
        .is_some_and(|chunk| chunk.len() == 3)
}

/// URL Standard: percent-encode a byte (uppercase hex).
#[inline]
pub fn push_percent_encoded_byte(byte: u8, out: &mut String) {
    out.push('%');
    out.push(UPPER_HEX[usize::from(byte >> 4)] as char);
    out.push(UPPER_HEX[usize::from(byte & 0xF)] as char);
}

/// URL Standard: UTF-8 percent-encode a code point using `set`, appending to `out`.
#[inline]
pub fn utf8_percent_encode_char(c: char, set: &'static AsciiSet, out: &mut String) {
    if c.is_ascii() {
        if set_contains(set, c as u8) {
            push_percent_encoded_byte(c as u8, out);
        } else {
            out.push(c);
        }
    } else {
        let mut buf = [0; 4];
        for &byte in c.encode_utf8(&mut buf).as_bytes() {
            push_percent_encoded_byte(byte, out);
        }
    }
}

/// URL Standard: UTF-8 percent-encode a string using `set`, appending to `out`.
pub fn utf8_percent_encode_into(input: &str, set: &'static AsciiSet, out: &mut String) {
    for chunk in percent_encoding::utf8_percent_encode(input, set) {
        out.push_str(chunk);
    }
}

/// URL Standard: UTF-8 percent-encode a string using `set`.
pub fn utf8_percent_encode(input: &str, set: &'static AsciiSet) -> String {
    let mut out = String::with_capacity(input.len());
    utf8_percent_encode_into(input, set, &mut out);
    out
}

/// URL Standard: percent-encode after encoding, appending to `out`.
///
/// `encoding` must already be an output encoding (never UTF-16 or replacement); `space_as_plus`
/// is true exactly when `set` is the application/x-www-form-urlencoded percent-encode set.
pub fn percent_encode_after_encoding(
    encoding: &'static Encoding,
    input: &str,
    set: &'static AsciiSet,
    space_as_plus: bool,
    out: &mut String,
) {
    let push_byte = |byte: u8, out: &mut String| {
        if space_as_plus && byte == b' ' {
            out.push('+');
        } else if byte.is_ascii() && !set_contains(set, byte) {
            out.push(byte as char);
        } else {
            push_percent_encoded_byte(byte, out);
        }
    };
    if encoding == UTF_8 {
        for &byte in input.as_bytes() {
            push_byte(byte, out);
        }
        return;
    }
    let mut encoder = encoding.new_encoder();
    let mut rest = input;
    let mut buffer = [0u8; 1024];
    loop {
        let (result, read, written) =
            encoder.encode_from_utf8_without_replacement(rest, &mut buffer, true);
        for &byte in &buffer[..written] {
            push_byte(byte, out);
        }
        rest = &rest[read..];
        match result {
            EncoderResult::InputEmpty => break,
            EncoderResult::OutputFull => {}
            // URL Standard: percent-encode after encoding, step 7.4: an unmappable code point
            // becomes a percent-encoded HTML numeric character reference.
            EncoderResult::Unmappable(c) => {
                out.push_str("%26%23");
                out.push_str(&u32::from(c).to_string());
                out.push_str("%3B");
            }
        }
    }
}

/// Whether `bytes[i..]` starts with a percent-encoded byte ("%" and two ASCII hex digits).
#[inline]
pub fn starts_with_percent_encoded_byte(bytes: &[u8]) -> bool {
    bytes.len() >= 3
        && bytes[0] == b'%'
        && bytes[1].is_ascii_hexdigit()
        && bytes[2].is_ascii_hexdigit()
}

/// URL Standard: percent-decode a byte sequence. Borrows when there is nothing to decode.
pub fn percent_decode(input: &[u8]) -> Cow<'_, [u8]> {
    percent_encoding::percent_decode(input).into()
}

/// URL Standard: getting an output encoding (Encoding Standard): replacement, UTF-16BE and
/// UTF-16LE give UTF-8.
pub fn output_encoding(encoding: &'static Encoding) -> &'static Encoding {
    encoding.output_encoding()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn after_encoding(label: &str, input: &str, set: &'static AsciiSet, plus: bool) -> String {
        let encoding = Encoding::for_label(label.as_bytes()).expect("known label");
        let mut out = String::new();
        percent_encode_after_encoding(output_encoding(encoding), input, set, plus, &mut out);
        out
    }

    // URL Standard: the example table at the end of "Percent-encoded bytes".
    #[test]
    fn spec_examples() {
        let mut s = String::new();
        push_percent_encoded_byte(0x23, &mut s);
        push_percent_encoded_byte(0x7F, &mut s);
        assert_eq!(s, "%23%7F");
        assert_eq!(&*percent_decode(b"%25%s%1G"), b"%%s%1G");
        assert_eq!(
            &*percent_decode("‽%25%2E".as_bytes()),
            b"\xE2\x80\xBD\x25\x2E"
        );
        assert_eq!(
            after_encoding("shift_jis", " ", SPECIAL_QUERY, false),
            "%20"
        );
        assert_eq!(
            after_encoding("shift_jis", "≡", SPECIAL_QUERY, false),
            "%81%DF"
        );
        assert_eq!(
            after_encoding("shift_jis", "‽", SPECIAL_QUERY, false),
            "%26%238253%3B"
        );
        assert_eq!(
            after_encoding("iso-2022-jp", "¥", SPECIAL_QUERY, false),
            "%1B(J\\%1B(B"
        );
        assert_eq!(
            after_encoding("shift_jis", "1+1 ≡ 2%20‽", FORM_URLENCODED, true),
            "1%2B1+%81%DF+2%2520%26%238253%3B"
        );
        assert_eq!(utf8_percent_encode("≡", USERINFO), "%E2%89%A1");
        assert_eq!(utf8_percent_encode("‽", USERINFO), "%E2%80%BD");
        assert_eq!(
            utf8_percent_encode("Say what‽", USERINFO),
            "Say%20what%E2%80%BD"
        );
    }

    #[test]
    fn form_urlencoded_set_leaves_exactly_the_documented_code_points() {
        // URL Standard: the note under the application/x-www-form-urlencoded set.
        let kept: String = (0u8..0x80)
            .filter(|b| !set_contains(FORM_URLENCODED, *b))
            .map(char::from)
            .collect();
        assert_eq!(
            kept,
            "*-.0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz"
        );
    }

    #[test]
    fn component_set_matches_encode_uri_component() {
        // encodeURIComponent leaves A-Z a-z 0-9 - _ . ! ~ * ' ( ) unescaped.
        let kept: String = (0u8..0x80)
            .filter(|b| !set_contains(COMPONENT, *b))
            .map(char::from)
            .collect();
        assert_eq!(
            kept,
            "!'()*-.0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz~"
        );
    }
}
