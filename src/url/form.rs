//! application/x-www-form-urlencoded (URL Standard: 5).

use encoding_rs::{Encoding, UTF_8};
use std::borrow::Cow;

use crate::url::percent::{
    output_encoding, percent_decode, percent_encode_after_encoding, FORM_URLENCODED,
};

/// URL Standard: application/x-www-form-urlencoded parser.
pub fn parse(input: &[u8]) -> Vec<(String, String)> {
    input
        .split(|&b| b == b'&')
        // Step 3.1: empty sequences are skipped.
        .filter(|bytes| !bytes.is_empty())
        .map(|bytes| {
            // Steps 3.2 and 3.3.
            let (name, value) = match bytes.iter().position(|&b| b == b'=') {
                Some(i) => (&bytes[..i], &bytes[i + 1..]),
                None => (bytes, &[][..]),
            };
            (decode(name), decode(value))
        })
        .collect()
}

/// URL Standard: application/x-www-form-urlencoded string parser.
pub fn parse_str(input: &str) -> Vec<(String, String)> {
    parse(input.as_bytes())
}

/// Steps 3.4 and 3.5: "+" becomes a space, then percent-decode and UTF-8 decode without BOM.
fn decode(bytes: &[u8]) -> String {
    let plus_replaced: Cow<'_, [u8]> = if bytes.contains(&b'+') {
        Cow::Owned(
            bytes
                .iter()
                .map(|&b| if b == b'+' { b' ' } else { b })
                .collect(),
        )
    } else {
        Cow::Borrowed(bytes)
    };
    let decoded = percent_decode(&plus_replaced);
    String::from_utf8_lossy(&decoded).into_owned()
}

/// URL Standard: application/x-www-form-urlencoded serializer.
pub fn serialize<'a>(
    pairs: impl IntoIterator<Item = (&'a str, &'a str)>,
    encoding: &'static Encoding,
) -> String {
    // Step 1.
    let encoding = output_encoding(encoding);
    let mut output = String::new();
    for (name, value) in pairs {
        if !output.is_empty() {
            output.push('&');
        }
        percent_encode_after_encoding(encoding, name, FORM_URLENCODED, true, &mut output);
        output.push('=');
        percent_encode_after_encoding(encoding, value, FORM_URLENCODED, true, &mut output);
    }
    output
}

/// The serializer with UTF-8.
pub fn serialize_utf8<'a>(pairs: impl IntoIterator<Item = (&'a str, &'a str)>) -> String {
    serialize(pairs, UTF_8)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pairs(input: &str) -> Vec<(String, String)> {
        parse_str(input)
    }

    fn p(name: &str, value: &str) -> (String, String) {
        (name.to_owned(), value.to_owned())
    }

    #[test]
    fn parser_corners() {
        assert_eq!(pairs("&&a=1&&"), vec![p("a", "1")]);
        assert_eq!(pairs("=x"), vec![p("", "x")]);
        assert_eq!(pairs("a"), vec![p("a", "")]);
        assert_eq!(pairs("a=b=c"), vec![p("a", "b=c")]);
        assert_eq!(pairs("+%20%2B=1"), vec![p("  +", "1")]);
        assert_eq!(pairs("a=%zz"), vec![p("a", "%zz")]);
        assert_eq!(pairs("a=%FF"), vec![p("a", "\u{FFFD}")]);
        assert_eq!(pairs("a=%"), vec![p("a", "%")]);
        assert_eq!(pairs(""), vec![]);
    }

    #[test]
    fn serializer() {
        assert_eq!(serialize_utf8([("*-._", "a b~")]), "*-._=a+b%7E");
        assert_eq!(
            serialize_utf8([("é", "💩"), ("x", "")]),
            "%C3%A9=%F0%9F%92%A9&x="
        );
        let windows_1252 = Encoding::for_label(b"windows-1252").expect("label");
        assert_eq!(serialize([("é", "1")], windows_1252), "%E9=1");
        let shift_jis = Encoding::for_label(b"shift_jis").expect("label");
        assert_eq!(serialize([("‽", "1")], shift_jis), "%26%238253%3B=1");
        // UTF-16 is not an output encoding: it serializes as UTF-8.
        let utf16 = Encoding::for_label(b"utf-16le").expect("label");
        assert_eq!(serialize([("é", "1")], utf16), "%C3%A9=1");
    }

    #[test]
    fn round_trip() {
        let original = vec![p("a b", "c&d=e"), p("+", "%"), p("ü", "")];
        let serialized = serialize_utf8(original.iter().map(|(n, v)| (n.as_str(), v.as_str())));
        assert_eq!(pairs(&serialized), original);
    }
}
