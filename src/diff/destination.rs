//! Where a connection would go: the host and port a client would connect to, compared the way
//! the network compares them. `diff` decides whether the parsers agree with it, and
//! `check --allow-host` matches a host against the allowlist with it, so that the two never
//! disagree about what counts as the same host.
//!
//! Two spellings of one destination are the same destination: a host in another letter case
//! (DNS compares names case-insensitively, RFC 4343), with or without the root's trailing dot,
//! an IP address written another way (`[::ffff:127.0.0.1]`, `::ffff:7f00:1`), an absent port
//! and the scheme's default one, and for a `file` URL no host, the empty host and "localhost"
//! (all the local machine), and a Unicode name and the ASCII name that every IDNA mapping in use
//! takes it to (a client that keeps the Unicode host maps it when it connects). The empty host
//! of any other URL is no destination at all: no client connects to it (Go's `net/http`
//! refuses a request whose URL has no host, "http: no Host in request URL"), so a reading with
//! it refuses the URL as a failure does. Anything else
//! that differs (an IPv4 address in another notation, a Unicode name with a character the
//! mappings take to different places, a percent-encoded byte) is left different: a client
//! would have to decode or map it first, and that decoding is where parsers part ways.

use std::net::{Ipv4Addr, Ipv6Addr};

use super::Answer;

/// A host as a connection uses it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum HostKey {
    /// Four decimal parts, as every parser and resolver reads them.
    Ipv4(Ipv4Addr),
    /// An IPv6 address, bracketed or not, in any of its textual forms (RFC 5952 §2).
    Ipv6(Ipv6Addr),
    /// A name, ASCII-lowercased (a Unicode one mapped to ASCII when that is unambiguous) and
    /// without the trailing dot of a fully qualified name.
    Name(String),
    /// The machine that reads the URL: a `file` URL with no host, the empty host or
    /// "localhost" (RFC 8089 § 2: "localhost" and an empty authority both mean it; the URL
    /// Standard's file host state turns "localhost" into the empty host).
    LocalFile,
}

impl HostKey {
    /// The key of `host` as a parser gave it.
    pub fn of(host: &str) -> HostKey {
        let unbracketed = host
            .strip_prefix('[')
            .and_then(|h| h.strip_suffix(']'))
            .unwrap_or(host);
        if let Ok(address) = unbracketed.parse::<Ipv6Addr>() {
            return HostKey::Ipv6(address);
        }
        let mapped = unambiguous_to_ascii(host);
        let host = mapped.as_deref().unwrap_or(host);
        // A lone "." stays itself: stripping it would make it the empty host.
        let name = match host.strip_suffix('.') {
            Some(name) if !name.is_empty() => name,
            _ => host,
        };
        // Rust's parser takes exactly four decimal parts without leading zeros, the one
        // notation that no parser reads differently.
        match name.parse::<Ipv4Addr>() {
            Ok(address) => HostKey::Ipv4(address),
            Err(_) => HostKey::Name(name.to_ascii_lowercase()),
        }
    }
}

/// The deviation characters of UTS 46 § 4 (ß, final sigma, ZWNJ, ZWJ): the only code points
/// that transitional processing (the IDNA2003 mapping some libraries still use, ß to "ss")
/// maps otherwise than nontransitional processing (IDNA2008's libidn2, the URL Standard).
const DEVIATION_CHARACTERS: [char; 4] = ['\u{df}', '\u{3c2}', '\u{200c}', '\u{200d}'];

/// A non-ASCII name as every IDNA mapping in use connects to it: the URL Standard's domain to
/// ASCII (UTS 46, nontransitional, beStrict false), which a client that keeps the Unicode host
/// (libcurl, Go, Python's `urlsplit`) applies when it connects. Where that refuses the name
/// only for a validity rule of UTS 46 § 4.1 (CheckBidi refuses `١٢٣.com`, a label of
/// Arabic-Indic digits alone), the name is what a resolver looks up: the UTS 46 mapping
/// ([`resolver_to_ascii`]), the form Node writes (`xn--9hbcd.com`) and the one curl's, Go's and
/// Python's clients ask the resolver for. `None` for an ASCII host, a name with a deviation
/// character (the mappings part ways there: that is the IDN confusion) and a name the mapping
/// disallows.
fn unambiguous_to_ascii(host: &str) -> Option<String> {
    if host.is_ascii() || host.contains(DEVIATION_CHARACTERS) {
        return None;
    }
    crate::url::host::domain_parser_to_ascii(host, false).or_else(|| resolver_to_ascii(host))
}

/// The name a resolver looks up for `host`: UTS 46 § 4 Processing's mapping step (the
/// nontransitional mapping and NFC, `icu_normalizer`'s, which the `idna` crate runs) and
/// § 4.2 ToASCII's Punycode for each label that is not ASCII, without § 4.1's validity
/// criteria (the bidi rule, joiners, hyphens), which decide whether a name may be registered,
/// not what a given name is spelled as. `None` when the mapping disallows a code point (it
/// gives U+FFFD) or a label cannot be encoded.
fn resolver_to_ascii(host: &str) -> Option<String> {
    let mapper = icu_normalizer::uts46::Uts46MapperBorrowed::new();
    let mapped: String = mapper.map_normalize(host.chars()).collect();
    if mapped.contains('\u{FFFD}') {
        return None;
    }
    let labels: Option<Vec<String>> = mapped
        .split('.')
        .map(|label| match label.is_ascii() {
            true => Some(label.to_ascii_lowercase()),
            false => idna::punycode::encode_str(label).map(|p| format!("xn--{p}")),
        })
        .collect();
    labels.map(|labels| labels.join("."))
}

/// Whether two hosts, as parsers give them, are the same destination.
pub fn same_host(a: &str, b: &str) -> bool {
    HostKey::of(a) == HostKey::of(b)
}

/// A port as a connection uses it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum PortKey {
    Number(u32),
    /// A port that is not decimal digits, kept as given (no connection could use it as is).
    Text(String),
}

/// The port a connection to a URL with `scheme` uses when none is given: the URL Standard's
/// default port for the special schemes (§ 4.1, "default port"), none for the others.
pub fn default_port(scheme: &str) -> Option<u16> {
    match scheme.to_ascii_lowercase().as_str() {
        "http" | "ws" => Some(80),
        "https" | "wss" => Some(443),
        "ftp" => Some(21),
        _ => None,
    }
}

/// The host and port a connection would use for one parser's reading.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Destination {
    /// `None` when the reading has no host or the empty host (outside a `file` URL): there is
    /// nothing to connect to.
    pub host: Option<HostKey>,
    /// The port given, else the scheme's default; `None` when there is neither.
    pub port: Option<PortKey>,
}

impl Destination {
    /// Where `answer` goes; `None` for a parse that failed or a parser that did not run.
    pub fn of(answer: &Answer) -> Option<Destination> {
        if !answer.available || answer.failure {
            return None;
        }
        Some(Destination {
            host: Destination::host_of(answer),
            port: effective_port(answer.scheme.as_deref(), answer.port.as_deref()),
        })
    }

    /// The host of `answer` as a connection uses it: its [`HostKey`], except that every way a
    /// `file` URL names the local machine is [`HostKey::LocalFile`]. `None` when the reading
    /// has no host or the empty host (and is not a `file` URL): Go reads `https:/example.com`
    /// and `http:example.com/path` with the host "", which no client can connect to.
    pub fn host_of(answer: &Answer) -> Option<HostKey> {
        let file = answer
            .scheme
            .as_deref()
            .is_some_and(|s| s.eq_ignore_ascii_case("file"));
        match answer.host.as_deref() {
            None if file => Some(HostKey::LocalFile),
            Some(h) if file && (h.is_empty() || h.eq_ignore_ascii_case("localhost")) => {
                Some(HostKey::LocalFile)
            }
            Some("") => None,
            host => host.map(HostKey::of),
        }
    }
}

/// The port given (the empty string is Node's and Go's "none"), else `scheme`'s default.
pub fn effective_port(scheme: Option<&str>, port: Option<&str>) -> Option<PortKey> {
    match port.filter(|p| !p.is_empty()) {
        // Leading zeros are the same number to every socket API.
        Some(p) if p.bytes().all(|b| b.is_ascii_digit()) => Some(
            p.parse::<u32>()
                .map_or_else(|_| PortKey::Text(p.to_owned()), PortKey::Number),
        ),
        Some(p) => Some(PortKey::Text(p.to_owned())),
        None => scheme
            .and_then(default_port)
            .map(|p| PortKey::Number(u32::from(p))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_compare_as_dns_compares_them() {
        assert!(same_host("Example.COM", "example.com"));
        assert!(same_host("example.com.", "example.com"));
        assert!(!same_host("example.com", "example.org"));
        // A Unicode name is where every IDNA mapping takes it, when they all take it to one
        // place: libcurl keeps the host as typed and maps it when it connects.
        assert!(same_host("bücher.example", "xn--bcher-kva.example"));
        assert!(same_host("B\u{dc}CHER.example", "xn--bcher-kva.example"));
        assert!(same_host("m\u{fc}nchen\u{3002}de", "xn--mnchen-3ya.de"));
        // A deviation character is mapped otherwise by transitional processing (IDNA2003's
        // "fass.de") and nontransitional (IDNA2008's "xn--fa-hia.de"): the IDN confusion.
        assert!(!same_host("fa\u{df}.de", "xn--fa-hia.de"));
        assert!(!same_host("fa\u{df}.de", "fass.de"));
        // A name that the URL Standard's ToASCII refuses for a validity rule alone (CheckBidi:
        // a label of Arabic-Indic digits) is the name a resolver looks up: Node writes
        // xn--9hbcd.com, curl, Python and Go keep it and map it when they connect.
        assert!(same_host("\u{661}\u{662}\u{663}.com", "xn--9hbcd.com"));
        assert!(same_host("\u{661}\u{662}\u{663}.COM.", "XN--9hbcd.com"));
        assert!(!same_host(
            "\u{661}\u{662}\u{663}.com",
            "\u{661}\u{662}.com"
        ));
        // A name the mapping disallows stays as it is.
        assert!(!same_host("a\u{fffd}.example", "a.example"));
        assert!(!same_host("a\u{fffd}.example", "xn--a-.example"));
        assert!(!same_host("ex%41mple.com", "example.com"));
        assert!(!same_host(".", ""));
    }

    #[test]
    fn addresses_compare_as_addresses() {
        for spelling in ["::ffff:127.0.0.1", "[::ffff:7f00:1]", "[::FFFF:127.0.0.1]"] {
            assert!(same_host(spelling, "[::ffff:7f00:1]"), "{spelling}");
        }
        assert!(same_host("[0:0::1]", "::1"));
        assert!(same_host("127.0.0.1.", "127.0.0.1"));
        // Other notations are where parsers disagree: they stay different.
        assert!(!same_host("0x7f.1", "127.0.0.1"));
        assert!(!same_host("0177.0.0.1", "127.0.0.1"));
        // An IPv4-mapped IPv6 address is another address than the IPv4 one.
        assert!(!same_host("::ffff:127.0.0.1", "127.0.0.1"));
    }

    #[test]
    fn a_file_url_without_a_host_is_on_the_local_machine() {
        let file = |host: Option<&str>| Answer {
            available: true,
            scheme: Some("file".into()),
            host: host.map(str::to_owned),
            ..Answer::default()
        };
        // The URL Standard gives "" for file:///, rust-url and curl give no host.
        let local = Destination::of(&file(Some("")));
        assert_eq!(local, Destination::of(&file(None)));
        assert_eq!(local, Destination::of(&file(Some("LocalHost"))));
        assert_ne!(local, Destination::of(&file(Some("foo"))));
        // Only for file: an http URL without a host goes nowhere, and so does one with the
        // empty host (Go's reading of `https:/example.com`): no client connects to "".
        let http = |host: Option<&str>| Answer {
            scheme: Some("http".into()),
            ..file(host)
        };
        let nowhere = Destination::of(&http(None));
        assert_eq!(nowhere.as_ref().map(|d| &d.host), Some(&None));
        assert_eq!(Destination::of(&http(Some(""))), nowhere);
        for scheme in ["https", "sc", "ws"] {
            let empty = Answer {
                scheme: Some(scheme.into()),
                ..http(Some(""))
            };
            assert_eq!(Destination::host_of(&empty), None, "{scheme}");
        }
        assert_ne!(Destination::of(&http(Some("localhost"))), nowhere);
    }

    #[test]
    fn a_missing_port_is_the_schemes_default() {
        let number = |n| Some(PortKey::Number(n));
        assert_eq!(effective_port(Some("https"), None), number(443));
        assert_eq!(effective_port(Some("HTTP"), Some("")), number(80));
        assert_eq!(effective_port(Some("http"), Some("080")), number(80));
        assert_eq!(effective_port(Some("http"), Some("0")), number(0));
        assert_eq!(effective_port(Some("http"), Some("00")), number(0));
        assert_eq!(effective_port(Some("foo"), None), None);
        assert_eq!(
            effective_port(Some("http"), Some("8O")),
            Some(PortKey::Text("8O".into()))
        );
        assert_eq!(
            effective_port(Some("http"), Some("99999999999")),
            Some(PortKey::Text("99999999999".into()))
        );
    }
}
