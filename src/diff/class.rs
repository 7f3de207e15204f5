//! The classes of parser confusion that explain a disagreement: the five of Claroty and Snyk's
//! 2022 study (scheme confusion, slashes, backslash, URL-encoded data, scheme mix-up) and four
//! that recur in SSRF advisories (whitespace and control characters, "@" in the userinfo, IPv4
//! notations, IDN). Below them all, a difference that is only one of spelling: the parsers write
//! the same destination differently.

use super::destination::{effective_port, Destination};
use super::{Answer, Component};
use serde::Serialize;

/// A known way for two parsers to read one string differently.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum Class {
    /// A scheme that is missing, or that the parsers do not agree is one.
    SchemeConfusion,
    /// Other than two slashes after the scheme (`http:/x`, `http:///x`, `https:x`).
    Slashes,
    /// A backslash, which the URL Standard takes for a slash in special URLs and others do not.
    Backslash,
    /// A delimiter that is percent-encoded (`%2f`, `%40`, `%3a`, …), or any percent-encoded
    /// byte in the authority: decoded by some parsers, kept by others.
    EncodedDelimiter,
    /// A scheme other than http(s), which each parser handles by its own rules.
    SchemeMixUp,
    /// Leading or trailing spaces, tabs, newlines, controls, or Unicode white space.
    WhitespaceOrControl,
    /// An "@": which one ends the userinfo, if any, depends on where the authority ends.
    AtInUserinfo,
    /// A host in a numeric form other than four decimal parts: hex, octal, fewer parts.
    Ipv4Notation,
    /// A non-ASCII or punycode host.
    Idn,
    /// No confusion: the same host, port or scheme written differently (letter case, a
    /// default port given or left out, an IP address in another textual form), which a
    /// connection uses alike. See [`super::destination`].
    SameDestination,
}

impl Class {
    pub const ALL: [Class; 10] = [
        Class::SchemeConfusion,
        Class::Slashes,
        Class::Backslash,
        Class::EncodedDelimiter,
        Class::SchemeMixUp,
        Class::WhitespaceOrControl,
        Class::AtInUserinfo,
        Class::Ipv4Notation,
        Class::Idn,
        Class::SameDestination,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Class::SchemeConfusion => "scheme confusion",
            Class::Slashes => "slashes",
            Class::Backslash => "backslash",
            Class::EncodedDelimiter => "URL-encoded delimiter",
            Class::SchemeMixUp => "scheme mix-up",
            Class::WhitespaceOrControl => "whitespace or control characters",
            Class::AtInUserinfo => "@ in userinfo",
            Class::Ipv4Notation => "IPv4 notation",
            Class::Idn => "IDN",
            Class::SameDestination => "same destination, spelled differently",
        }
    }

    /// The class that explains a disagreement on `component` for `input`: the first that the
    /// input shows, most specific first (a backslash before the "@" it hides, for instance).
    /// A difference of spelling alone is [`Class::SameDestination`], whatever the input shows:
    /// the other classes explain why parsers go to different places.
    pub fn explain(
        input: &str,
        component: Component,
        answers: &[(String, Answer)],
    ) -> Option<Class> {
        if spelled_differently(component, answers) {
            return Some(Class::SameDestination);
        }
        let shape = Shape::of(input);
        let order = [
            Class::WhitespaceOrControl,
            Class::Backslash,
            Class::EncodedDelimiter,
            Class::AtInUserinfo,
            Class::Slashes,
            Class::Idn,
            Class::Ipv4Notation,
            Class::SchemeConfusion,
            Class::SchemeMixUp,
        ];
        order.into_iter().find(|class| match class {
            Class::WhitespaceOrControl => shape.whitespace_or_control,
            Class::Backslash => shape.backslash,
            Class::EncodedDelimiter => shape.encoded_delimiter,
            Class::AtInUserinfo => shape.at_sign,
            Class::Slashes => shape.scheme.is_some_and(is_special) && shape.slashes != 2,
            // Only a disagreement about the host (or whether there is a URL at all) comes of
            // how the parsers map a host: a port or a path on an input with a non-ASCII host
            // is another story.
            Class::Idn => {
                matches!(component, Component::Host | Component::Failure) && shape.idn_authority
            }
            Class::Ipv4Notation => {
                component == Component::Host
                    && answers
                        .iter()
                        .filter_map(|(_, a)| a.host.as_deref())
                        .any(is_unusual_ipv4)
            }
            Class::SchemeConfusion => shape.scheme.is_none() || component == Component::Scheme,
            Class::SchemeMixUp => shape.scheme.is_some_and(|s| !matches!(s, "http" | "https")),
            Class::SameDestination => false,
        })
    }
}

/// Whether the parsers that read the input give `component` values that a connection uses
/// alike: hosts as [`Destination::host_of`] gives them, ports with the scheme's default
/// applied, schemes in any case (RFC 3986 § 3.1: schemes are case-insensitive).
fn spelled_differently(component: Component, answers: &[(String, Answer)]) -> bool {
    let readings = answers
        .iter()
        .map(|(_, a)| a)
        .filter(|a| a.available && !a.failure);
    fn all_equal<T: PartialEq>(mut keys: impl Iterator<Item = T>) -> bool {
        match keys.next() {
            Some(first) => keys.all(|k| k == first),
            None => false,
        }
    }
    match component {
        Component::Host => all_equal(readings.map(Destination::host_of)),
        Component::Port => {
            all_equal(readings.map(|a| effective_port(a.scheme.as_deref(), a.port.as_deref())))
        }
        Component::Scheme => {
            all_equal(readings.map(|a| a.scheme.as_deref().map(str::to_ascii_lowercase)))
        }
        _ => false,
    }
}

/// The features of an input that the classes look for.
struct Shape<'a> {
    whitespace_or_control: bool,
    backslash: bool,
    encoded_delimiter: bool,
    /// An "@" anywhere: where the userinfo ends depends on where each parser ends the
    /// authority, and on which "@" it takes.
    at_sign: bool,
    /// The scheme, as written, when the input starts with one (RFC 3986 syntax).
    scheme: Option<&'a str>,
    /// Slashes and backslashes right after the scheme's colon.
    slashes: usize,
    /// A non-ASCII or punycode ("xn--") authority.
    idn_authority: bool,
}

impl<'a> Shape<'a> {
    fn of(input: &'a str) -> Shape<'a> {
        let whitespace_or_control = input
            .chars()
            .any(|c| c.is_control() || c.is_whitespace() || c == '\u{feff}');
        let lower = input.to_ascii_lowercase();
        let encoded_delimiter = [
            "%2f", "%5c", "%40", "%3a", "%3f", "%23", "%2e", "%00", "%25",
        ]
        .iter()
        .any(|d| lower.contains(d));
        // Percent-encoded bytes in the authority: decoded by some parsers before they split it
        // or compare the host, kept by others.
        let scheme = input.find(':').map(|i| &input[..i]).filter(|s| {
            let mut chars = s.chars();
            chars.next().is_some_and(|c| c.is_ascii_alphabetic())
                && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
        });
        let after_scheme = scheme.map_or(input, |s| &input[s.len() + 1..]);
        let slashes = after_scheme
            .chars()
            .take_while(|c| matches!(c, '/' | '\\'))
            .count();
        let authority_on = after_scheme.trim_start_matches(['/', '\\']);
        let authority = &authority_on[..authority_on
            .find(['/', '?', '#'])
            .unwrap_or(authority_on.len())];
        let encoded_authority = authority
            .as_bytes()
            .windows(3)
            .any(|w| w[0] == b'%' && w[1].is_ascii_hexdigit() && w[2].is_ascii_hexdigit());
        Shape {
            whitespace_or_control,
            backslash: input.contains('\\'),
            encoded_delimiter: encoded_delimiter || encoded_authority,
            // Only where some parser may see an authority: after slashes, or in a special URL.
            at_sign: input.contains('@') && (slashes > 0 || scheme.is_none_or(is_special)),
            scheme: scheme.map(|s| {
                if s.bytes().all(|b| b.is_ascii_lowercase()) {
                    s
                } else {
                    ""
                }
            }),
            slashes,
            idn_authority: !authority.is_ascii() || authority.to_ascii_lowercase().contains("xn--"),
        }
    }
}

/// The URL Standard's special schemes, whose URLs always have a host after two slashes.
fn is_special(scheme: &str) -> bool {
    matches!(scheme, "http" | "https" | "ftp" | "ws" | "wss" | "file")
}

/// A host that some parser may take for an IPv4 address although it is not four decimal parts:
/// hexadecimal or octal parts, or fewer than four parts, all numeric.
fn is_unusual_ipv4(host: &str) -> bool {
    let host = host.strip_suffix('.').unwrap_or(host);
    let parts: Vec<&str> = host.split('.').collect();
    if parts.is_empty() || parts.len() > 4 {
        return false;
    }
    let numeric = |p: &str| {
        let lower = p.to_ascii_lowercase();
        match lower.strip_prefix("0x") {
            Some(hex) => hex.chars().all(|c| c.is_ascii_hexdigit()),
            None => !p.is_empty() && p.chars().all(|c| c.is_ascii_digit()),
        }
    };
    if !parts.iter().all(|p| numeric(p)) {
        return false;
    }
    parts.len() < 4
        || parts.iter().any(|p| {
            p.to_ascii_lowercase().starts_with("0x") || (p.len() > 1 && p.starts_with('0'))
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn class(input: &str, component: Component, hosts: &[&str]) -> Option<Class> {
        let answers: Vec<(String, Answer)> = hosts
            .iter()
            .map(|h| {
                (
                    String::new(),
                    Answer {
                        available: true,
                        host: Some((*h).to_owned()),
                        ..Answer::default()
                    },
                )
            })
            .collect();
        Class::explain(input, component, &answers)
    }

    #[test]
    fn each_class_has_an_input_it_explains() {
        let h = Component::Host;
        let cases = [
            (
                "example.com:80/x",
                Component::Scheme,
                &[][..],
                Class::SchemeConfusion,
            ),
            ("http:/evil.com/", h, &[], Class::Slashes),
            ("http://example.com\\@evil.com", h, &[], Class::Backslash),
            (
                "http://example.com%2f@evil.com",
                h,
                &[],
                Class::EncodedDelimiter,
            ),
            ("ftp://a/b", Component::Path, &[], Class::SchemeMixUp),
            (" http://example.com", h, &[], Class::WhitespaceOrControl),
            ("http://a@b@c/", h, &[], Class::AtInUserinfo),
            (
                "http://0x7f.1/",
                h,
                &["127.0.0.1", "0x7f.1"],
                Class::Ipv4Notation,
            ),
            ("http://ex\u{e4}mple.com/", h, &[], Class::Idn),
            (
                "https://Example.com/",
                h,
                &["example.com", "Example.com"],
                Class::SameDestination,
            ),
        ];
        for class_ in Class::ALL {
            assert!(
                cases.iter().any(|c| c.3 == class_),
                "no case for {}",
                class_.name()
            );
        }
        for (input, component, hosts, expected) in cases {
            assert_eq!(
                class(input, component, hosts),
                Some(expected),
                "input {input:?}"
            );
        }
        assert_eq!(class("http://a/b", h, &["a", "b"]), None);
    }

    #[test]
    fn idn_explains_the_host_not_what_comes_with_it() {
        // curl keeps a default port that the URL Standard drops: nothing to do with the IDN
        // host, nor does a non-ASCII path make the host an IDN.
        let port = class("http://b\u{fc}cher.example:80/", Component::Port, &[]);
        assert_eq!(port, None);
        assert_eq!(class("http://a.example/\u{e9}", Component::Host, &[]), None);
        // A parser that rejects the input may be refusing the IDN host.
        assert_eq!(
            class("http://xn--bcher-kva.example/", Component::Failure, &[]),
            Some(Class::Idn)
        );
    }

    #[test]
    fn a_difference_of_spelling_is_no_confusion_whatever_the_input_shows() {
        // The gallery's first example: "%20" in the userinfo, the host in capitals, the
        // default port given. curl keeps the case and the port; the URL Standard drops both.
        let input = "https://user:pa%20ss@EXAMPLE.com:443/a/./b/../c?q=1#frag";
        let reading = |host: &str, port: Option<&str>| {
            (
                String::new(),
                Answer {
                    available: true,
                    scheme: Some("https".into()),
                    host: Some(host.into()),
                    port: port.map(str::to_owned),
                    ..Answer::default()
                },
            )
        };
        let answers = [
            reading("example.com", None),
            reading("EXAMPLE.com", Some("443")),
        ];
        for component in [Component::Host, Component::Port] {
            assert_eq!(
                Class::explain(input, component, &answers),
                Some(Class::SameDestination),
                "{component}"
            );
        }
        // Another port is another destination: the input's shape explains it.
        let answers = [
            reading("example.com", None),
            reading("example.com", Some("8443")),
        ];
        assert_eq!(
            Class::explain(input, Component::Port, &answers),
            Some(Class::EncodedDelimiter)
        );
        // Three spellings of one IPv6 address.
        let answers = [
            reading("[::ffff:7f00:1]", None),
            reading("::ffff:127.0.0.1", None),
            reading("[::ffff:127.0.0.1]", None),
        ];
        assert_eq!(
            Class::explain("http://[::ffff:127.0.0.1]/", Component::Host, &answers),
            Some(Class::SameDestination)
        );
    }
}
