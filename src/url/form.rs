//! application/x-www-form-urlencoded (URL Standard: 5).
//!
//! The name-value format of HTML form submissions and of `URLSearchParams`: the parser, the
//! serializer, and the string parser hook.

use encoding_rs::{Encoding, UTF_8};

use crate::url::percent::{
    output_encoding, percent_encode_after_encoding, set_contains, FORM_URLENCODED,
};

/// URL Standard: application/x-www-form-urlencoded parser.
///
/// Never fails: bytes that are not a percent-encoded byte stay as they are, and byte sequences
/// that are not UTF-8 decode to U+FFFD.
pub fn parse(input: &[u8]) -> Vec<(String, String)> {
    // Every tuple comes from one "&"-separated sequence, so this many slots are enough.
    let upper_bound = input.iter().filter(|&&b| b == b'&').count() + 1;
    let mut output = Vec::with_capacity(upper_bound);
    // Step 1.
    for bytes in input.split(|&b| b == b'&') {
        // Step 3.1.
        if bytes.is_empty() {
            continue;
        }
        // Steps 3.2 and 3.3: the first "=" separates; any later "=" belongs to the value.
        let (name, value) = match bytes.iter().position(|&b| b == b'=') {
            Some(i) => (&bytes[..i], &bytes[i + 1..]),
            None => (bytes, &[][..]),
        };
        // Steps 3.4 to 3.6.
        output.push((decode(name), decode(value)));
    }
    output
}

/// URL Standard: application/x-www-form-urlencoded string parser.
///
/// A `&str` is already a scalar value string, and its bytes are its UTF-8 encoding.
pub fn parse_str(input: &str) -> Vec<(String, String)> {
    parse(input.as_bytes())
}

/// URL Standard: application/x-www-form-urlencoded parser, steps 3.4 and 3.5: replace "+" with
/// a space, percent-decode, then UTF-8 decode without BOM.
///
/// One allocation when the result is UTF-8. Instead of rewriting "+" in a copy first, each
/// "+"-separated piece is percent-decoded straight into the output with a space between pieces.
/// That is the same thing: neither "+" nor a space is an ASCII hex digit, so no percent-encoded
/// byte can span a "+", and a "%2B" decoded here stays "+" as step 3.4 came before it.
fn decode(bytes: &[u8]) -> String {
    // Percent-decoding never lengthens its input.
    let mut decoded = Vec::with_capacity(bytes.len());
    for (i, piece) in bytes.split(|&b| b == b'+').enumerate() {
        if i > 0 {
            decoded.push(b' ');
        }
        decoded.extend(percent_encoding::percent_decode(piece));
    }
    match String::from_utf8(decoded) {
        Ok(string) => string,
        // Encoding Standard: UTF-8 decode without BOM. Each maximal ill-formed subsequence
        // becomes one U+FFFD, and a leading U+FEFF is kept (it is not a BOM to strip here).
        Err(error) => UTF_8
            .decode_without_bom_handling(error.as_bytes())
            .0
            .into_owned(),
    }
}

/// URL Standard: application/x-www-form-urlencoded serializer.
///
/// `encoding` is the form's encoding; the output is always ASCII.
pub fn serialize<'a>(
    pairs: impl IntoIterator<Item = (&'a str, &'a str)>,
    encoding: &'static Encoding,
) -> String {
    let mut output = String::new();
    serialize_into(pairs, encoding, &mut output);
    output
}

/// URL Standard: application/x-www-form-urlencoded serializer with the default encoding, UTF-8.
pub fn serialize_utf8<'a>(pairs: impl IntoIterator<Item = (&'a str, &'a str)>) -> String {
    serialize(pairs, UTF_8)
}

/// [`serialize`], appending to `output`, which callers may have sized with
/// [`serialized_len_utf8`] or may reuse.
pub fn serialize_into<'a>(
    pairs: impl IntoIterator<Item = (&'a str, &'a str)>,
    encoding: &'static Encoding,
    output: &mut String,
) {
    // Step 1: UTF-16 and replacement cannot encode a form; they serialize as UTF-8.
    let encoding = output_encoding(encoding);
    // Step 3.1 (both are scalar value strings) holds by type: a `&str` cannot hold a surrogate.
    for (i, (name, value)) in pairs.into_iter().enumerate() {
        // Step 3.4 asks whether the output is empty; `output` may start with a caller's text,
        // and after one tuple it always holds at least "=", so the tuple's index answers that.
        if i > 0 {
            output.push('&');
        }
        // Steps 3.2, 3.3 and 3.5. Space-as-plus is on because this is the
        // application/x-www-form-urlencoded percent-encode set.
        percent_encode_after_encoding(encoding, name, FORM_URLENCODED, true, output);
        output.push('=');
        percent_encode_after_encoding(encoding, value, FORM_URLENCODED, true, output);
    }
}

/// The exact length of [`serialize_utf8`]'s output for `pairs`, so that one allocation holds it.
pub fn serialized_len_utf8<'a>(pairs: impl IntoIterator<Item = (&'a str, &'a str)>) -> usize {
    let encoded_len = |s: &str| -> usize {
        s.bytes()
            .map(|b| {
                // A space becomes "+"; other ASCII outside the set is kept; every other byte
                // (including each byte of a non-ASCII code point) becomes "%XX".
                if b == b' ' || (b.is_ascii() && !set_contains(FORM_URLENCODED, b)) {
                    1
                } else {
                    3
                }
            })
            .sum()
    };
    pairs
        .into_iter()
        .enumerate()
        // "=" inside each tuple, "&" before every tuple but the first.
        .map(|(i, (name, value))| encoded_len(name) + 1 + encoded_len(value) + usize::from(i > 0))
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(name: &str, value: &str) -> (String, String) {
        (name.to_owned(), value.to_owned())
    }

    fn label(name: &str) -> &'static Encoding {
        Encoding::for_label(name.as_bytes()).expect("a label the Encoding Standard knows")
    }

    #[track_caller]
    fn assert_parses(input: &str, expected: &[(&str, &str)]) {
        let expected: Vec<_> = expected.iter().map(|(n, v)| p(n, v)).collect();
        assert_eq!(parse_str(input), expected, "input: {input:?}");
    }

    #[test]
    fn parser_splits_on_ampersand_and_the_first_equals_sign() {
        assert_parses("", &[]);
        assert_parses("&", &[]);
        // Step 3.1: empty sequences are skipped, wherever they are.
        assert_parses("&&a=1&&", &[("a", "1")]);
        assert_parses("&&&a=b&&&&c=d&", &[("a", "b"), ("c", "d")]);
        // Step 3.2: "=" first gives an empty name, last an empty value.
        assert_parses("=x", &[("", "x")]);
        assert_parses("a=", &[("a", "")]);
        assert_parses("=", &[("", "")]);
        // Step 3.3: no "=" at all.
        assert_parses("a", &[("a", "")]);
        assert_parses("a&a", &[("a", ""), ("a", "")]);
        // Only the first "=" separates.
        assert_parses("a=b=c", &[("a", "b=c")]);
        assert_parses("a==a", &[("a", "=a")]);
        assert_parses("a=a&a=b&a=c", &[("a", "a"), ("a", "b"), ("a", "c")]);
    }

    #[test]
    fn parser_replaces_plus_before_percent_decoding() {
        // Step 3.4 comes before step 3.5: a literal "+" is a space, "%2B" is a "+".
        assert_parses("+%20%2B", &[("  +", "")]);
        assert_parses("a=a+b+c+d", &[("a", "a b c d")]);
        assert_parses("%2B+%2B=++", &[("+ +", "  ")]);
        // A "+" inside what would be a percent-encoded byte breaks it, as a space would.
        assert_parses("a=%2+B&b=%+2B", &[("a", "%2 B"), ("b", "% 2B")]);
        assert_parses("%61+%4d%4D=", &[("a MM", "")]);
    }

    #[test]
    fn parser_keeps_invalid_percent_sequences() {
        assert_parses("a=%zz", &[("a", "%zz")]);
        assert_parses("a=%", &[("a", "%")]);
        assert_parses("%=a", &[("%", "a")]);
        assert_parses("%a=a", &[("%a", "a")]);
        assert_parses("%a_=a", &[("%a_", "a")]);
        assert_parses("b=%2sf%2a", &[("b", "%2sf*")]);
        assert_parses("b=%2%2af%2a", &[("b", "%2*f*")]);
        assert_parses("b=%%2a", &[("b", "%*")]);
        assert_parses("id=0&value=%", &[("id", "0"), ("value", "%")]);
        // Decoding happens once: "%2541" is "%41", not "A".
        assert_parses("%2541=%25", &[("%41", "%")]);
    }

    #[test]
    fn parser_decodes_utf8_without_bom_with_replacement() {
        assert_parses("a=%FF", &[("a", "\u{FFFD}")]);
        assert_parses("%FE%FF", &[("\u{FFFD}\u{FFFD}", "")]);
        assert_parses("%C2x", &[("\u{FFFD}x", "")]);
        // One U+FFFD per maximal ill-formed subsequence: a truncated four-byte sequence is one,
        // an encoded surrogate (ED A0 80) is three.
        assert_parses(
            "%F0%9F%92=%ED%A0%80",
            &[("\u{FFFD}", "\u{FFFD}\u{FFFD}\u{FFFD}")],
        );
        // "Without BOM": a leading U+FEFF, raw or percent-encoded, stays in the name.
        assert_parses("\u{FEFF}test=\u{FEFF}", &[("\u{FEFF}test", "\u{FEFF}")]);
        assert_parses("%EF%BB%BFtest=%EF%BB%BF", &[("\u{FEFF}test", "\u{FEFF}")]);
        assert_parses("%EF%BF%BF=%EF%BF%BF", &[("\u{FFFF}", "\u{FFFF}")]);
        assert_parses("†&†=x", &[("†", ""), ("†", "x")]);
        // The byte parser takes bytes that are not UTF-8 at all.
        assert_eq!(
            parse(b"\xFF=\xC3\xA9&x"),
            vec![p("\u{FFFD}", "é"), p("x", "")]
        );
    }

    #[test]
    fn serializer_uses_the_form_set_and_space_as_plus() {
        assert_eq!(serialize_utf8([("*-._", "a b~")]), "*-._=a+b%7E");
        assert_eq!(
            serialize_utf8([("!'()", "+=&%")]),
            "%21%27%28%29=%2B%3D%26%25"
        );
        assert_eq!(serialize_utf8([("\0", "\u{7F}")]), "%00=%7F");
        assert_eq!(
            serialize_utf8([("é", "💩"), ("x", "")]),
            "%C3%A9=%F0%9F%92%A9&x="
        );
        assert_eq!(serialize_utf8([("", "")]), "=");
        assert_eq!(serialize_utf8([("", ""), ("", "")]), "=&=");
        assert_eq!(serialize_utf8([]), "");
    }

    #[test]
    fn serializer_encodes_with_the_output_encoding() {
        assert_eq!(serialize([("é", "é")], label("windows-1252")), "%E9=%E9");
        assert_eq!(serialize([("≡", " ")], label("shift_jis")), "%81%DF=+");
        // Percent-encode after encoding, step 7.4: unmappable code points become "&#N;".
        assert_eq!(
            serialize([("‽", "1")], label("shift_jis")),
            "%26%238253%3B=1"
        );
        assert_eq!(
            serialize([("a", "💩")], label("windows-1252")),
            "a=%26%23128169%3B"
        );
        // Step 1: UTF-16 and replacement are not output encodings; both serialize as UTF-8.
        assert_eq!(serialize([("é", "1")], label("utf-16le")), "%C3%A9=1");
        assert_eq!(serialize([("é", "1")], label("utf-16be")), "%C3%A9=1");
        assert_eq!(serialize([("é", "1")], label("iso-2022-kr")), "%C3%A9=1");
    }

    #[test]
    fn serialize_into_appends_and_separates_by_tuple() {
        let mut out = String::from("?");
        serialize_into([("a", "1"), ("b", "2")], UTF_8, &mut out);
        assert_eq!(out, "?a=1&b=2");
    }

    #[test]
    fn serialized_len_utf8_is_exact() {
        let cases: &[&[(&str, &str)]] = &[
            &[],
            &[("", "")],
            &[("a b", "~*-._"), ("é💩", "\0+&="), ("", "x")],
            &[("\u{FEFF}", "\u{10FFFF}"), ("AZaz09", "!'()")],
        ];
        for pairs in cases {
            let expected = serialize_utf8(pairs.iter().copied());
            assert_eq!(
                serialized_len_utf8(pairs.iter().copied()),
                expected.len(),
                "pairs: {pairs:?}, serialization: {expected:?}"
            );
        }
    }

    #[test]
    fn serialize_then_parse_round_trips() {
        let original = vec![
            p("a b", "c&d=e"),
            p("+", "%"),
            p("ü", ""),
            p("", "\u{FEFF}"),
            p("%2B", "~"),
        ];
        let serialized = serialize_utf8(original.iter().map(|(n, v)| (n.as_str(), v.as_str())));
        assert_eq!(parse_str(&serialized), original, "via {serialized:?}");
    }
}
