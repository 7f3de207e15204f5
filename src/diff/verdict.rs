//! The verdict of a differential: whether the readings of one input go to one destination.
//!
//! [`decide`] is the one function that judges the readings, for every surface (`diff` and its
//! exit code, `check`'s `parser-differential` and `parser-refuses` findings, the inspector's
//! Parsers pane and verdict line). It tells apart two answers that a boolean ran together:
//!
//! - [`Verdict::Elsewhere`]: two readings that have a destination (a host, see
//!   [`Destination`]) go to different ones, another host or another port. A validator that
//!   uses one parser and a client that uses the other send the URL somewhere nobody checked.
//! - [`Verdict::Refused`]: every reading that has a destination goes to the same one, and some
//!   parser refuses the URL (fails where another parses) or reads no host where another reads
//!   one (`java.net.URI`'s null host for an authority it cannot split). A parser that refuses
//!   sends the URL nowhere: that is no other destination.
//!
//! A reading without a host is never a destination of its own, so it never makes the readings
//! go elsewhere; a verdict is judged on every reading that gives a destination, and says which
//! reading went where.

use std::fmt;

use serde::Serialize;

use super::destination::{HostKey, PortKey};
use super::{Answer, Destination};
use crate::display::EscapeStyle;

/// What the readings of one input say about where it goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Verdict {
    /// Every reading goes to one destination, or every reading alike reads no host or fails.
    Agree,
    /// Two readings that have a destination go to different destinations.
    Elsewhere,
    /// The readings that have a destination go to one, but some parser refuses the URL or reads
    /// no host where another reads one.
    Refused,
    /// Fewer than two parsers gave a reading (the others unavailable): nothing was compared.
    NothingToCompare,
}

impl Verdict {
    /// The name in `diff --json`'s `"verdict"`; `None` (null) when nothing was compared.
    pub fn name(self) -> Option<&'static str> {
        match self {
            Verdict::Agree => Some("agree"),
            Verdict::Elsewhere => Some("elsewhere"),
            Verdict::Refused => Some("refused"),
            Verdict::NothingToCompare => None,
        }
    }
}

/// Why a parser refused the URL.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Why {
    /// The parse failed where another parser's succeeded. `message` is the library's;
    /// `cause` says what in the input it refused, when the library's error locates it.
    Fails {
        message: Option<String>,
        cause: Option<String>,
    },
    /// The parse gave no host where another reading has one.
    NoHost,
    /// The parse gave the empty host (outside a `file` URL) where another reading has a host:
    /// Go's `https:/example.com`. Nothing connects to "" (see [`Destination`]), so this is
    /// no destination, as [`Why::NoHost`] is none.
    EmptyHost,
}

/// A parser that refuses the URL, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal {
    pub parser: String,
    pub why: Why,
}

impl Refusal {
    /// The refusal in words: who refuses, what (the cause urlscope locates, for RFC 3986), and
    /// with `message` the library's own message.
    pub fn describe(&self, message: bool) -> String {
        let (cause, library) = match &self.why {
            Why::NoHost => return format!("{} reads no host", self.parser),
            Why::EmptyHost => return format!("{} reads the empty host", self.parser),
            Why::Fails { message, cause } => (cause.as_deref(), message.as_deref()),
        };
        let mut text = match cause {
            Some(cause) => format!("{} refuses {cause}", self.parser),
            None => format!("{} refuses it", self.parser),
        };
        if let Some(library) = library.filter(|_| message) {
            text.push_str(&format!(" ({library})"));
        }
        text
    }
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.describe(true))
    }
}

/// The judgement of the readings of one input: the verdict, which reading goes where, and who
/// refuses.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decision {
    pub verdict: Verdict,
    /// Each destination a reading goes to, with the parsers that go there, in the order of the
    /// parsers. Readings without a destination (a failure, no host) are in none.
    pub destinations: Vec<(Destination, Vec<String>)>,
    /// The parsers that refuse the URL, in the order of the parsers: those that fail where
    /// another parses, and those that read no host where another reading has one.
    pub refused: Vec<Refusal>,
    /// Every available parser failed.
    pub all_fail: bool,
}

impl Decision {
    /// The one destination of every reading that has one; `None` when the readings go to
    /// several (elsewhere) or none has a destination.
    pub fn destination(&self) -> Option<&Destination> {
        match self.destinations.as_slice() {
            [(only, _)] => Some(only),
            _ => None,
        }
    }

    /// The names of the parsers that refuse the URL.
    pub fn refused_names(&self) -> Vec<&str> {
        self.refused.iter().map(|r| r.parser.as_str()).collect()
    }

    /// Whether the readings that have a destination go to one: `None` when nothing was
    /// compared. `diff --json`'s `"agree"`.
    pub fn agree(&self) -> Option<bool> {
        match self.verdict {
            Verdict::NothingToCompare => None,
            Verdict::Elsewhere => Some(false),
            Verdict::Agree | Verdict::Refused => Some(true),
        }
    }

    /// The verdict in a sentence: where the readings go and who refuses, with the library's
    /// reason where it is known. Not for [`Verdict::NothingToCompare`], which a front end says
    /// with the parsers it missed.
    pub fn explain(&self) -> String {
        self.explain_with(true)
    }

    /// [`Decision::explain`], with the libraries' own messages or without them. A finding is
    /// worded without: libcurl's message for one refusal changes between releases ("Bad
    /// scheme" in 7.88, "Malformed input to a URL function" in 8.22 for a URL with a leading
    /// space), and a finding says the same of a URL wherever it runs; `diff` gives them.
    pub fn explain_with(&self, messages: bool) -> String {
        let refusals = self
            .refused
            .iter()
            .map(|r| r.describe(messages))
            .collect::<Vec<_>>()
            .join("; ");
        match self.verdict {
            Verdict::NothingToCompare => "nothing to compare".to_owned(),
            Verdict::Agree => match self.destination() {
                Some(destination) => format!("every parser goes to {destination}"),
                None if self.all_fail => "every parser that read it rejects it".to_owned(),
                None => "no parser reads a host in it".to_owned(),
            },
            Verdict::Refused => match self.destination() {
                Some(destination) => {
                    format!("every parser that reads it goes to {destination}; {refusals}")
                }
                None => format!("no parser that reads it reads a host; {refusals}"),
            },
            Verdict::Elsewhere => {
                let groups: Vec<String> = self
                    .destinations
                    .iter()
                    .map(|(destination, names)| format!("{destination} ({})", names.join(", ")))
                    .collect();
                let mut text = format!(
                    "the parsers do not agree on where this URL goes: {}",
                    groups.join(" vs ")
                );
                if !refusals.is_empty() {
                    text.push_str("; ");
                    text.push_str(&refusals);
                }
                text
            }
        }
    }
}

/// Judges the readings of `input`: the one decision of where the parsers send it. Unavailable
/// parsers are no reading.
pub fn decide(input: &str, parsers: &[(String, Answer)]) -> Decision {
    let readings: Vec<&(String, Answer)> = parsers.iter().filter(|(_, a)| a.available).collect();
    let mut destinations: Vec<(Destination, Vec<String>)> = Vec::new();
    let mut without_host = Vec::new();
    let mut failed = 0;
    for (name, answer) in &readings {
        match Destination::of(answer) {
            None => failed += 1,
            Some(destination) if destination.host.is_none() => without_host.push(name),
            Some(destination) => match destinations.iter_mut().find(|(d, _)| *d == destination) {
                Some((_, names)) => names.push(name.clone()),
                None => destinations.push((destination, vec![name.clone()])),
            },
        }
    }
    let all_fail = !readings.is_empty() && failed == readings.len();
    let mut refused = Vec::new();
    // A failure refuses only where another parser parses; a missing host only where another
    // reading has one. Alike, they are all the parsers agree on.
    for (name, answer) in readings.iter().map(|r| (&r.0, &r.1)) {
        let fails = answer.failure && !all_fail;
        let no_host = without_host.contains(&name) && !destinations.is_empty();
        if fails {
            refused.push(Refusal {
                parser: name.clone(),
                why: Why::Fails {
                    message: answer.error.clone(),
                    cause: cause(name, input, answer.error.as_deref()),
                },
            });
        } else if no_host {
            let why = match answer.host.as_deref() {
                Some("") => Why::EmptyHost,
                _ => Why::NoHost,
            };
            refused.push(Refusal {
                parser: name.clone(),
                why,
            });
        }
    }
    let verdict = if readings.len() < 2 {
        Verdict::NothingToCompare
    } else if destinations.len() > 1 {
        Verdict::Elsewhere
    } else if !refused.is_empty() {
        Verdict::Refused
    } else {
        Verdict::Agree
    };
    Decision {
        verdict,
        destinations,
        refused,
        all_fail,
    }
}

/// What in `input` the parser `name` refused, where its error locates it: fluent-uri (the
/// `rfc3986` parser) gives the byte index in the input (the reference, when there is a base:
/// a base it refuses has its own message) of the character outside RFC 3986's grammar, named
/// with the component it is in (RFC 3986, Appendix B's split).
fn cause(name: &str, input: &str, error: Option<&str>) -> Option<String> {
    if name != "rfc3986" {
        return None;
    }
    let error = error?;
    let (what, index) = [
        ("unexpected character at index ", None),
        (
            "invalid percent-encoded octet at index ",
            Some("a \"%\" that is no percent-encoded byte"),
        ),
        (
            "invalid IPv6 address at index ",
            Some("an invalid IPv6 address"),
        ),
    ]
    .into_iter()
    .find_map(|(prefix, what)| {
        let index = error.strip_prefix(prefix)?.parse::<usize>().ok()?;
        Some((what, index))
    })?;
    let c = input.get(index..)?.chars().next()?;
    let what = match what {
        Some(what) => what.to_owned(),
        // Shown as the findings show text: controls and invisibles escaped, the rest as is.
        None => format!(
            "\"{}\"",
            crate::display::escape(c.encode_utf8(&mut [0; 4]), EscapeStyle::Backslash)
        ),
    };
    Some(format!(
        "{what} in the {}",
        appendix_b_component(input, index)
    ))
}

/// The component of `input` that holds the byte at `index`, as RFC 3986, Appendix B splits any
/// string: `^(([^:/?#]+):)?(//([^/?#]*))?([^?#]*)(\?([^#]*))?(#(.*))?`, the authority then
/// split at its last "@" and at the last ":" after the host.
fn appendix_b_component(input: &str, index: usize) -> &'static str {
    let bytes = input.as_bytes();
    let mut at = 0;
    if let Some(colon) = bytes
        .iter()
        .position(|b| matches!(b, b':' | b'/' | b'?' | b'#'))
        .filter(|&i| bytes[i] == b':' && i > 0)
    {
        if index < colon {
            return "scheme";
        }
        at = colon + 1;
    }
    if input[at..].starts_with("//") {
        let start = at + 2;
        let end = input[start..]
            .bytes()
            .position(|b| matches!(b, b'/' | b'?' | b'#'))
            .map_or(input.len(), |i| start + i);
        if index < end {
            let authority = &input[start..end];
            let host_start = authority.rfind('@').map_or(start, |i| start + i + 1);
            if index < host_start {
                return "userinfo";
            }
            let host_port = &input[host_start..end];
            let port_start = match host_port.rfind(':') {
                Some(i) if !host_port[i..].contains(']') => host_start + i + 1,
                _ => end,
            };
            return if index < port_start { "host" } else { "port" };
        }
        at = end;
    }
    let path_end = input[at..].find(['?', '#']).map_or(input.len(), |i| at + i);
    let fragment = input[path_end..]
        .find('#')
        .map_or(input.len(), |i| path_end + i);
    if index < path_end {
        "path"
    } else if index < fragment {
        "query"
    } else {
        "fragment"
    }
}

impl fmt::Display for Destination {
    /// `example.com:443`, `[::1]:80`, `127.0.0.1:80`, `"":443` for the empty host; a host
    /// without a port (no port given and no default for the scheme) alone.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.host {
            Some(HostKey::Name(name)) if name.is_empty() => f.write_str("\"\"")?,
            Some(HostKey::Name(name)) => f.write_str(name)?,
            Some(HostKey::Ipv4(address)) => write!(f, "{address}")?,
            Some(HostKey::Ipv6(address)) => write!(f, "[{address}]")?,
            Some(HostKey::LocalFile) => f.write_str("the local machine (file)")?,
            None => f.write_str("no host")?,
        }
        match &self.port {
            Some(PortKey::Number(n)) => write!(f, ":{n}"),
            Some(PortKey::Text(t)) => write!(f, ":{t}"),
            None => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reading(
        name: &str,
        scheme: &str,
        host: Option<&str>,
        port: Option<&str>,
    ) -> (String, Answer) {
        (
            name.to_owned(),
            Answer {
                available: true,
                scheme: Some(scheme.to_owned()),
                host: host.map(str::to_owned),
                port: port.map(str::to_owned),
                ..Answer::default()
            },
        )
    }

    fn failed(name: &str, error: &str) -> (String, Answer) {
        (name.to_owned(), Answer::failed(None, error))
    }

    #[test]
    fn a_refusal_alone_is_refused_not_elsewhere() {
        let input = "https://example.com/?q=a|b";
        let d = decide(
            input,
            &[
                reading("whatwg", "https", Some("example.com"), None),
                reading("curl", "https", Some("Example.COM"), Some("443")),
                failed("rfc3986", "unexpected character at index 24"),
                ("go".into(), Answer::unavailable("not installed")),
            ],
        );
        assert_eq!(d.verdict, Verdict::Refused);
        assert_eq!(d.agree(), Some(true));
        assert_eq!(d.refused_names(), ["rfc3986"]);
        assert_eq!(
            d.destination().map(ToString::to_string).as_deref(),
            Some("example.com:443")
        );
        assert_eq!(
            d.explain(),
            "every parser that reads it goes to example.com:443; rfc3986 refuses \"|\" in the \
             query (unexpected character at index 24)"
        );
    }

    #[test]
    fn another_destination_is_elsewhere_even_with_a_refusal() {
        let d = decide(
            "http://example.com\\@evil.com",
            &[
                reading("whatwg", "http", Some("example.com"), None),
                reading("curl", "http", Some("evil.com"), None),
                failed("http", "invalid uri character"),
                reading("rust-url", "http", Some("example.com"), Some("80")),
            ],
        );
        assert_eq!(d.verdict, Verdict::Elsewhere);
        assert_eq!(d.agree(), Some(false));
        assert_eq!(d.destination(), None);
        assert_eq!(d.refused_names(), ["http"]);
        assert_eq!(
            d.explain(),
            "the parsers do not agree on where this URL goes: example.com:80 (whatwg, \
             rust-url) vs evil.com:80 (curl); http refuses it (invalid uri character)"
        );
        // Another port is another destination.
        let port = decide(
            "x",
            &[
                reading("a", "http", Some("h"), None),
                reading("b", "http", Some("h"), Some("8080")),
            ],
        );
        assert_eq!(port.verdict, Verdict::Elsewhere);
    }

    #[test]
    fn a_reading_without_a_host_refuses_and_never_goes_elsewhere() {
        // java.net.URI gives a null host for an authority it cannot split.
        let d = decide(
            "https://attacker.net@@example.com/",
            &[
                reading("whatwg", "https", Some("example.com"), None),
                reading("java", "https", None, None),
                reading("go", "https", Some("example.com"), Some("")),
            ],
        );
        assert_eq!(d.verdict, Verdict::Refused);
        assert_eq!(
            d.refused,
            [Refusal {
                parser: "java".into(),
                why: Why::NoHost
            }]
        );
        assert_eq!(
            d.explain(),
            "every parser that reads it goes to example.com:443; java reads no host"
        );
        // Where no reading has a host, none is missing one: `mailto:` has no authority.
        let none = decide(
            "mailto:a@b",
            &[
                reading("whatwg", "mailto", None, None),
                reading("java", "mailto", None, None),
            ],
        );
        assert_eq!(none.verdict, Verdict::Agree);
        assert_eq!(none.explain(), "no parser reads a host in it");
        // The empty host of a non-file URL is no destination: nothing connects to "". Where
        // no reading has a host but "" there is nothing to refuse.
        let empty = decide(
            "sc://",
            &[
                reading("whatwg", "sc", Some(""), None),
                reading("rust-url", "sc", None, None),
            ],
        );
        assert_eq!(empty.verdict, Verdict::Agree);
        assert_eq!(empty.explain(), "no parser reads a host in it");
    }

    #[test]
    fn the_empty_host_refuses_and_never_goes_elsewhere() {
        // Go reads `https:/example.com` with the host "": a refusal, not a second destination
        // (Go's own client refuses a URL without a host).
        let d = decide(
            "https:/example.com",
            &[
                reading("whatwg", "https", Some("example.com"), None),
                reading("go", "https", Some(""), Some("")),
                reading("python", "https", None, None),
            ],
        );
        assert_eq!(d.verdict, Verdict::Refused);
        assert_eq!(d.refused_names(), ["go", "python"]);
        assert_eq!(
            d.explain(),
            "every parser that reads it goes to example.com:443; go reads the empty host; \
             python reads no host"
        );
    }

    #[test]
    fn every_parser_failing_alike_agrees() {
        let d = decide(
            "http://[",
            &[failed("whatwg", "invalid-IPv6"), failed("curl", "Bad IPv6")],
        );
        assert_eq!(d.verdict, Verdict::Agree);
        assert!(d.all_fail);
        assert_eq!(d.refused, []);
        assert_eq!(d.explain(), "every parser that read it rejects it");
        // A failure where another parses without a host still refuses it.
        let d = decide(
            "javascript:alert(1)",
            &[
                reading("whatwg", "javascript", None, None),
                failed("http", "invalid format"),
            ],
        );
        assert_eq!(d.verdict, Verdict::Refused);
        assert_eq!(
            d.explain(),
            "no parser that reads it reads a host; http refuses it (invalid format)"
        );
    }

    #[test]
    fn fewer_than_two_readings_compare_nothing() {
        let unavailable = ("b".to_owned(), Answer::unavailable("not installed"));
        for parsers in [
            vec![],
            vec![reading("a", "http", Some("h"), None), unavailable.clone()],
            vec![failed("a", "no"), unavailable.clone()],
        ] {
            let d = decide("x", &parsers);
            assert_eq!(d.verdict, Verdict::NothingToCompare, "{parsers:?}");
            assert_eq!(d.agree(), None);
            assert_eq!(d.verdict.name(), None);
        }
    }

    #[test]
    fn fluent_uri_errors_are_located_by_appendix_b() {
        let located = |input: &str, error: &str| cause("rfc3986", input, Some(error));
        let at = |input: &str, c: char| {
            let i = input.find(c).expect("the character");
            located(input, &format!("unexpected character at index {i}"))
        };
        assert_eq!(
            at("https://example.com/?q=a|b", '|').as_deref(),
            Some("\"|\" in the query")
        );
        assert_eq!(
            at("https://example.com/a b", ' ').as_deref(),
            Some("\" \" in the path")
        );
        assert_eq!(
            located(
                "https://example.com/#a#b",
                "unexpected character at index 22"
            )
            .as_deref(),
            Some("\"#\" in the fragment")
        );
        assert_eq!(
            at("https://a@b@example.com/", '@').as_deref(),
            Some("\"@\" in the userinfo")
        );
        assert_eq!(
            at("https://exa_mple{.com/", '{').as_deref(),
            Some("\"{\" in the host")
        );
        assert_eq!(
            at("https://h.test:8q/", 'q').as_deref(),
            Some("\"q\" in the port")
        );
        assert_eq!(
            at("ht^tp://example.com/", '^').as_deref(),
            Some("\"^\" in the scheme")
        );
        assert_eq!(
            located("http://h/%zz", "invalid percent-encoded octet at index 9").as_deref(),
            Some("a \"%\" that is no percent-encoded byte in the path")
        );
        // Another parser's message is its own; an index out of the input locates nothing.
        assert_eq!(
            cause(
                "curl",
                "http://h/|",
                Some("unexpected character at index 9")
            ),
            None
        );
        assert_eq!(
            located("http://h/", "unexpected character at index 99"),
            None
        );
    }
}
