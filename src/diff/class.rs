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
    /// A percent-encoded byte that some parsers decode (or write) and others keep, where that
    /// explains the difference: two readings that are the same once decoded (`ex%41mple.com`
    /// and `example.com`, `%F0%9F%98%80` and `😀`), a reading that is what the input says with
    /// its encoded delimiters (`%2f`, `%40`, `%3a`, …) decoded, or a failure over an encoded
    /// byte in the host or a "%" that is no escape.
    EncodedDelimiter,
    /// A scheme other than http(s), which each parser handles by its own rules.
    SchemeMixUp,
    /// Leading or trailing spaces, tabs, newlines, controls, or Unicode white space.
    WhitespaceOrControl,
    /// An "@": which one ends the userinfo, if any, depends on where the authority ends.
    AtInUserinfo,
    /// A host in a numeric form other than four decimal parts: hex, octal, fewer parts.
    Ipv4Notation,
    /// `.` and `..` path segments that some parsers resolve and others keep: the path a
    /// server serves is not the one a filter saw.
    DotSegments,
    /// A non-ASCII or punycode host.
    Idn,
    /// No confusion: the same host, port or scheme written differently (letter case, a
    /// default port given or left out, an IP address in another textual form), which a
    /// connection uses alike. See [`super::destination`].
    SameDestination,
}

impl Class {
    pub const ALL: [Class; 11] = [
        Class::SchemeConfusion,
        Class::Slashes,
        Class::Backslash,
        Class::EncodedDelimiter,
        Class::SchemeMixUp,
        Class::WhitespaceOrControl,
        Class::AtInUserinfo,
        Class::Ipv4Notation,
        Class::DotSegments,
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
            Class::DotSegments => "dot segments",
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
        base: Option<&str>,
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
            Class::DotSegments,
            Class::Slashes,
            Class::Idn,
            Class::Ipv4Notation,
            Class::SchemeConfusion,
            Class::SchemeMixUp,
        ];
        order.into_iter().find(|class| match class {
            Class::WhitespaceOrControl => shape.whitespace_or_control,
            Class::Backslash => shape.backslash,
            Class::EncodedDelimiter => decoding_explains(input, base, component, answers, &shape),
            // The "@" explains a difference only where the readings end the userinfo at
            // different places: they disagree on the host or the userinfo (a parser that
            // rejects a second "@" disagrees on whether there is a URL).
            Class::AtInUserinfo => {
                shape.at_sign
                    && component != Component::Scheme
                    && (split_differs(answers)
                        || (component == Component::Failure && shape.userinfo_refused))
            }
            Class::DotSegments => component == Component::Path && dots_explain(answers),
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
        // An empty path is "/" to an HTTP client (RFC 9110 § 4.2.3: it sends "/" as the
        // request target's path), and to a WebSocket one.
        Component::Path => all_equal(readings.map(|a| {
            let path = a.path.as_deref().unwrap_or("");
            let http = a.scheme.as_deref().is_some_and(|s| {
                ["http", "https", "ws", "wss"]
                    .iter()
                    .any(|h| s.eq_ignore_ascii_case(h))
            });
            if path.is_empty() && http {
                "/"
            } else {
                path
            }
        })),
        _ => false,
    }
}

/// Whether the readings that parsed split the authority differently: another host (as a
/// connection uses it), or another username or password, among the parsers that give them.
fn split_differs(answers: &[(String, Answer)]) -> bool {
    let readings: Vec<&(String, Answer)> = answers
        .iter()
        .filter(|(_, a)| a.available && !a.failure)
        .collect();
    let differs = |component: Component| {
        let mut values = readings
            .iter()
            .filter(|(name, _)| super::gives(name, component))
            .map(|(_, a)| match a.get(component) {
                super::Value::Text(t) => t,
                super::Value::Failure(_) => None,
            });
        let Some(first) = values.next() else {
            return false;
        };
        // Decoded: how the userinfo is encoded is the URL-encoded class's question; where it
        // ends is this one's.
        let decoded = |v: Option<&str>| {
            percent_encoding::percent_decode_str(v.unwrap_or(""))
                .decode_utf8_lossy()
                .into_owned()
        };
        let first = decoded(first);
        values.any(|v| decoded(v) != first)
    };
    let mut hosts = readings.iter().map(|(_, a)| Destination::host_of(a));
    let first = hosts.next();
    hosts.any(|h| Some(h) != first) || differs(Component::Username) || differs(Component::Password)
}

/// The features of an input that the classes look for.
struct Shape<'a> {
    whitespace_or_control: bool,
    backslash: bool,
    /// A percent sign followed by two hex digits, anywhere.
    percent_escape: bool,
    /// A userinfo (the authority up to its last "@") that RFC 3986's `userinfo` production
    /// refuses: another "@", "[", "]", a space, a non-ASCII code point… A strict parser
    /// rejects what the "@" made a userinfo (`http://[::1]:80@evil.com/`).
    userinfo_refused: bool,
    /// A percent sign not followed by two hex digits: strict parsers refuse it, others keep it
    /// or encode it as "%25".
    malformed_percent: bool,
    /// The percent-encoded bytes in the authority's host (after its last "@"), lowercased:
    /// `%40` in `http://example.com%40evil.com`.
    host_escapes: Vec<String>,
    /// An "@" anywhere: where the userinfo ends depends on where each parser ends the
    /// authority, and on which "@" it takes.
    at_sign: bool,
    /// The scheme, as written, when the input starts with one (RFC 3986 syntax).
    scheme: Option<&'a str>,
    /// Slashes and backslashes right after the scheme's colon.
    slashes: usize,
    /// A non-ASCII or punycode ("xn--") host in the authority (after its last "@": a
    /// non-ASCII userinfo is not an IDN).
    idn_authority: bool,
}

impl<'a> Shape<'a> {
    fn of(input: &'a str) -> Shape<'a> {
        let whitespace_or_control = input
            .chars()
            .any(|c| c.is_control() || c.is_whitespace() || c == '\u{feff}');
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
        let host = authority.rsplit('@').next().unwrap_or(authority);
        Shape {
            whitespace_or_control,
            backslash: input.contains('\\'),
            percent_escape: has_percent_escape(input),
            malformed_percent: input.match_indices('%').any(|(at, _)| {
                let hex = input.as_bytes().get(at + 1..at + 3);
                !hex.is_some_and(|h| h.iter().all(u8::is_ascii_hexdigit))
            }),
            host_escapes: percent_escapes(host),
            userinfo_refused: authority.rfind('@').is_some_and(|at| {
                authority[..at]
                    .chars()
                    .any(|c| !(c.is_ascii_alphanumeric() || "-._~!$&'()*+,;=:%".contains(c)))
            }),
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
            idn_authority: !host.is_ascii() || host.to_ascii_lowercase().contains("xn--"),
        }
    }
}

/// Whether `s` holds a percent-encoded byte: "%" and two ASCII hex digits.
fn has_percent_escape(s: &str) -> bool {
    s.as_bytes()
        .windows(3)
        .any(|w| w[0] == b'%' && w[1].is_ascii_hexdigit() && w[2].is_ascii_hexdigit())
}

/// The percent-encoded bytes of `s`, lowercased.
fn percent_escapes(s: &str) -> Vec<String> {
    s.as_bytes()
        .windows(3)
        .filter(|w| w[0] == b'%' && w[1].is_ascii_hexdigit() && w[2].is_ascii_hexdigit())
        .map(|w| String::from_utf8_lossy(w).to_ascii_lowercase())
        .collect()
}

/// The encoded delimiters a parser may decode before it splits the input: "/", "\\", "@", ":",
/// "?" and "#", in either case of hex digit.
const ENCODED_DELIMITERS: [(&str, char); 6] = [
    ("%2f", '/'),
    ("%5c", '\\'),
    ("%40", '@'),
    ("%3a", ':'),
    ("%3f", '?'),
    ("%23", '#'),
];

/// Whether percent-decoding explains the disagreement on `component`: for a failure, an
/// encoded byte in the host (which some parsers decode, others keep and others refuse); for a
/// value, two readings that differ as given but not once decoded, or a reading that is the
/// reference parser's value for the input with its encoded delimiters decoded where the
/// reference's own value for the input differs.
fn decoding_explains(
    input: &str,
    base: Option<&str>,
    component: Component,
    answers: &[(String, Answer)],
    shape: &Shape<'_>,
) -> bool {
    if component == Component::Failure {
        return !shape.host_escapes.is_empty() || shape.malformed_percent;
    }
    let values: Vec<&str> = answers
        .iter()
        .filter(|(name, a)| a.available && !a.failure && super::gives(name, component))
        .map(|(_, a)| a)
        .filter_map(|a| match a.get(component) {
            super::Value::Text(t) => Some(t.unwrap_or("")),
            super::Value::Failure(_) => None,
        })
        .collect();
    let key = |v: &str, decode: bool| -> String {
        let v = if decode {
            percent_encoding::percent_decode_str(v)
                .decode_utf8_lossy()
                .into_owned()
        } else {
            v.to_owned()
        };
        match component {
            Component::Host | Component::Scheme => v.to_ascii_lowercase(),
            Component::Path => remove_dot_segments(&v),
            _ => v,
        }
    };
    let keys: Vec<(String, String)> = values
        .iter()
        .map(|v| (key(v, false), key(v, true)))
        .collect();
    let decoded_alike = keys.iter().enumerate().any(|(i, (raw, decoded))| {
        keys[i + 1..]
            .iter()
            .any(|(other_raw, other_decoded)| raw != other_raw && decoded == other_decoded)
    });
    if decoded_alike {
        return true;
    }
    // The other two need an encoded byte in the input.
    if !shape.percent_escape {
        return false;
    }
    // An encoded byte of the host that some readings keep in this component and others do
    // not: decoded, refused, or taken for the end of the host (Node's legacy parser ends the
    // host at "%").
    let keeps = |v: &str| {
        let v = v.to_ascii_lowercase();
        shape.host_escapes.iter().any(|e| v.contains(e.as_str()))
    };
    if values.iter().any(|v| keeps(v)) && values.iter().any(|v| !keeps(v)) {
        return true;
    }
    // The input with its encoded delimiters decoded, read by the reference parser.
    let lower = input.to_ascii_lowercase();
    if !ENCODED_DELIMITERS.iter().any(|(e, _)| lower.contains(e)) {
        return false;
    }
    let mut decoded_input = String::with_capacity(input.len());
    let mut rest = input;
    while let Some(at) = rest.find('%') {
        decoded_input.push_str(&rest[..at]);
        let escape = rest.get(at..at + 3).map(str::to_ascii_lowercase);
        match ENCODED_DELIMITERS
            .iter()
            .find(|(e, _)| escape.as_deref() == Some(*e))
        {
            Some((_, delimiter)) => {
                decoded_input.push(*delimiter);
                rest = &rest[at + 3..];
            }
            None => {
                decoded_input.push('%');
                rest = &rest[at + 1..];
            }
        }
    }
    decoded_input.push_str(rest);
    let reference = super::Builtin::Whatwg;
    let decoded = reference.read(&decoded_input, base);
    if decoded.failure {
        return false;
    }
    let text = |a: &Answer| match a.get(component) {
        super::Value::Text(t) => t.map(str::to_owned),
        super::Value::Failure(_) => None,
    };
    let decoded = text(&decoded);
    // Where the reference reads the input as it is the same way, decoding changes nothing
    // for it to explain.
    let original = reference.read(input, base);
    if !original.failure && super::same(component, text(&original).as_deref(), decoded.as_deref()) {
        return false;
    }
    values
        .iter()
        .any(|v| super::same(component, Some(v), decoded.as_deref()))
}

/// Whether two readings' paths differ as given but not once their dot segments are removed.
fn dots_explain(answers: &[(String, Answer)]) -> bool {
    let paths: Vec<&str> = answers
        .iter()
        .filter(|(_, a)| a.available && !a.failure)
        .map(|(_, a)| a.path.as_deref().unwrap_or(""))
        .collect();
    paths.iter().enumerate().any(|(i, a)| {
        paths[i + 1..]
            .iter()
            .any(|b| a != b && remove_dot_segments(a) == remove_dot_segments(b))
    })
}

/// RFC 3986 § 5.2.4, "Remove Dot Segments": so that a path whose dot segments one parser
/// removed and another kept compares by what decoding changes alone.
fn remove_dot_segments(path: &str) -> String {
    let mut output: Vec<&str> = Vec::new();
    let segments: Vec<&str> = path.split('/').collect();
    for (i, segment) in segments.iter().enumerate() {
        let last = i + 1 == segments.len();
        match *segment {
            "." => {
                if last {
                    output.push("");
                }
            }
            ".." => {
                if output.len() > 1 {
                    output.pop();
                }
                if last {
                    output.push("");
                }
            }
            s => output.push(s),
        }
    }
    output.join("/")
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

    /// The class of a disagreement among readings with these hosts (these paths, for a
    /// disagreement on the path).
    fn class(input: &str, component: Component, values: &[&str]) -> Option<Class> {
        let answers: Vec<(String, Answer)> = values
            .iter()
            .map(|v| {
                let v = Some((*v).to_owned());
                let answer = Answer {
                    available: true,
                    ..Answer::default()
                };
                let answer = if component == Component::Path {
                    Answer { path: v, ..answer }
                } else {
                    Answer { host: v, ..answer }
                };
                (String::new(), answer)
            })
            .collect();
        Class::explain(input, None, component, &answers)
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
                &["evil.com", "example.com"],
                Class::EncodedDelimiter,
            ),
            ("ftp://a/b", Component::Path, &[], Class::SchemeMixUp),
            (" http://example.com", h, &[], Class::WhitespaceOrControl),
            ("http://a@b@c/", h, &["c", "b@c"], Class::AtInUserinfo),
            (
                "http://0x7f.1/",
                h,
                &["127.0.0.1", "0x7f.1"],
                Class::Ipv4Notation,
            ),
            ("http://ex\u{e4}mple.com/", h, &[], Class::Idn),
            (
                "http://a/b/../c",
                Component::Path,
                &["/c", "/b/../c"],
                Class::DotSegments,
            ),
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
                Class::explain(input, None, component, &answers),
                Some(Class::SameDestination),
                "{component}"
            );
        }
        // Another port is another destination, and the "%20" in the password has nothing to do
        // with it.
        let answers = [
            reading("example.com", None),
            reading("example.com", Some("8443")),
        ];
        assert_ne!(
            Class::explain(input, None, Component::Port, &answers),
            Some(Class::EncodedDelimiter)
        );
        // Three spellings of one IPv6 address.
        let answers = [
            reading("[::ffff:7f00:1]", None),
            reading("::ffff:127.0.0.1", None),
            reading("[::ffff:127.0.0.1]", None),
        ];
        assert_eq!(
            Class::explain(
                "http://[::ffff:127.0.0.1]/",
                None,
                Component::Host,
                &answers
            ),
            Some(Class::SameDestination)
        );
    }

    /// Readings with the given values of `component`, every other component alike.
    fn readings(component: Component, values: &[Option<&str>]) -> Vec<(String, Answer)> {
        values
            .iter()
            .enumerate()
            .map(|(i, v)| {
                let mut a = Answer {
                    available: true,
                    scheme: Some("http".into()),
                    host: Some("h".into()),
                    path: Some("/".into()),
                    ..Answer::default()
                };
                let v = v.map(str::to_owned);
                match component {
                    Component::Username => a.username = v,
                    Component::Password => a.password = v,
                    Component::Host => a.host = v,
                    Component::Port => a.port = v,
                    Component::Path => a.path = v,
                    Component::Query => a.query = v,
                    Component::Fragment => a.fragment = v,
                    Component::Scheme => a.scheme = v,
                    Component::Failure => a.failure = v.is_some(),
                }
                (format!("p{i}"), a)
            })
            .collect()
    }

    #[test]
    fn an_encoded_delimiter_explains_what_decoding_it_explains() {
        let explained = |input: &str, component: Component, values: &[Option<&str>]| {
            Class::explain(input, None, component, &readings(component, values))
                == Some(Class::EncodedDelimiter)
        };
        // Two readings the same once decoded: one parser decodes, another keeps.
        assert!(explained(
            "http://ex%41mple.com/",
            Component::Host,
            &[Some("example.com"), Some("ex%41mple.com")]
        ));
        assert!(explained(
            "http://a%40b@c/",
            Component::Username,
            &[Some("a%40b"), Some("a@b"), None]
        ));
        // An encoded dot segment that one parser removes and another keeps.
        assert!(explained(
            "http://a/b/%2e%2e/c",
            Component::Path,
            &[Some("/c"), Some("/b/%2e%2e/c")]
        ));
        // A reading that splits where the encoded delimiter would be: what the URL Standard
        // reads once it is decoded.
        assert!(explained(
            "http://example.com%3a8080/",
            Component::Host,
            &[Some("example.com%3a8080"), Some("example.com")]
        ));
        // A parser that keeps an encoded byte of the host, and one that ends the host there
        // and puts the rest in the path.
        assert!(explained(
            "http://example.com%40evil.com",
            Component::Host,
            &[Some("example.com%40evil.com"), Some("example.com")]
        ));
        assert!(explained(
            "http://example.com%40evil.com",
            Component::Path,
            &[Some(""), Some("%40evil.com")]
        ));
        // A parser that refuses an encoded byte in the host.
        assert!(explained(
            "http://ex%41mple.com/",
            Component::Failure,
            &[None, Some("fails")]
        ));
    }

    #[test]
    fn an_encoded_byte_elsewhere_explains_nothing() {
        let class = |input: &str, component: Component, values: &[Option<&str>]| {
            Class::explain(input, None, component, &readings(component, values))
        };
        let input = "https://user:pa%20ss@EXAMPLE.com:443/a/./b/../c?q=1#frag";
        // Dot segments removed or kept: no escape in either path, and the "@" is where every
        // parser ends the userinfo.
        assert_eq!(
            class(input, Component::Path, &[Some("/a/c"), Some("/a/./b/../c")]),
            Some(Class::DotSegments)
        );
        // A userinfo one library does not give.
        assert_ne!(
            class(input, Component::Username, &[Some("user"), None]),
            Some(Class::EncodedDelimiter)
        );
        // An escape in the userinfo does not explain a failure: RFC 3986 allows it there.
        assert_ne!(
            class(input, Component::Failure, &[None, Some("fails")]),
            Some(Class::EncodedDelimiter)
        );
        // An escape in the path does not explain a query.
        assert_eq!(
            class("http://a/%2f?x", Component::Query, &[Some("x"), Some("y")]),
            None
        );
        // Before, any escape in the authority explained every component.
        assert_ne!(
            class("http://a%20b@c/", Component::Path, &[Some("/"), Some("")]),
            Some(Class::EncodedDelimiter)
        );
    }

    #[test]
    fn an_at_sign_explains_only_where_the_readings_end_the_userinfo_differently() {
        // Every parser ends the userinfo at the one "@": a fragment read otherwise is not its
        // doing.
        let input = "https://username:password@host:8000/path?query#fragment";
        let fragments = readings(Component::Fragment, &[Some("fragment"), Some("")]);
        assert_eq!(
            Class::explain(input, None, Component::Fragment, &fragments),
            None
        );
        // Nor is a userinfo encoded otherwise.
        let users = readings(Component::Username, &[Some("a%40b"), Some("a@b")]);
        assert_ne!(
            Class::explain("http://a%40b@c/", None, Component::Path, &users),
            Some(Class::AtInUserinfo)
        );
        // Another host is; and a parser that refuses a second "@".
        assert_eq!(
            class("http://a@b@c/", Component::Host, &["c", "b@c"]),
            Some(Class::AtInUserinfo)
        );
        assert_eq!(
            class("http://a@b@c/", Component::Failure, &[]),
            Some(Class::AtInUserinfo)
        );
        // A userinfo that strict parsers refuse: what looks like a host before the "@".
        assert_eq!(
            class("http://[::1]:80@evil.com/", Component::Failure, &[]),
            Some(Class::AtInUserinfo)
        );
        assert_eq!(
            class("http://user:pass@h/\u{e9}", Component::Failure, &[]),
            None
        );
    }

    #[test]
    fn what_the_readings_show_is_classed_without_the_inputs_shape() {
        let class = |input: &str, component: Component, values: &[Option<&str>]| {
            Class::explain(input, None, component, &readings(component, values))
        };
        // One parser percent-encodes what another keeps: no escape in the input.
        assert_eq!(
            class(
                "http://\u{1f600}x@host/",
                Component::Username,
                &[Some("%F0%9F%98%80x"), Some("\u{1f600}x")]
            ),
            Some(Class::EncodedDelimiter)
        );
        assert_eq!(
            class(
                "https://x/?%=a",
                Component::Query,
                &[Some("%=a"), Some("%25=a")]
            ),
            Some(Class::EncodedDelimiter)
        );
        // A "%" that is no escape, which strict parsers refuse.
        assert_eq!(
            class("https://x/?%=a", Component::Failure, &[None, Some("fails")]),
            Some(Class::EncodedDelimiter)
        );
        // A non-ASCII userinfo is not an IDN host.
        assert_ne!(
            class(
                "http://\u{1f600}x@host/",
                Component::Failure,
                &[None, Some("fails")]
            ),
            Some(Class::Idn)
        );
        // An empty path is "/" to an HTTP client.
        let answers: Vec<(String, Answer)> = ["/", ""]
            .iter()
            .map(|p| {
                let answer = Answer {
                    available: true,
                    scheme: Some("https".into()),
                    path: Some((*p).into()),
                    ..Answer::default()
                };
                (String::new(), answer)
            })
            .collect();
        assert_eq!(
            Class::explain("https://user@example.org", None, Component::Path, &answers),
            Some(Class::SameDestination)
        );
        // Not to a file URL's reader, nor for any other path.
        let file: Vec<(String, Answer)> = answers
            .iter()
            .map(|(n, a)| {
                let answer = Answer {
                    scheme: Some("file".into()),
                    ..a.clone()
                };
                (n.clone(), answer)
            })
            .collect();
        assert_ne!(
            Class::explain("file://h", None, Component::Path, &file),
            Some(Class::SameDestination)
        );
    }
}
