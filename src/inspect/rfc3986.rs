//! The RFC 3986 reading of the same string: what a generic URI parser takes for the userinfo,
//! host and port. fluent-uri parses strictly; a string it rejects is split the way RFC 3986,
//! Appendix B says any string can be (which is what lenient URI libraries do).

/// The authority an RFC 3986 parser extracts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rfc3986Authority {
    pub userinfo: Option<String>,
    pub host: String,
    pub port: Option<String>,
    /// True when fluent-uri accepted the string; false when it was read by Appendix B.
    pub strict: bool,
}

/// The authority of `input` under RFC 3986, if it has one.
pub fn authority(input: &str) -> Option<Rfc3986Authority> {
    if let Ok(iri) = fluent_uri::IriRef::parse(input) {
        let authority = iri.authority()?;
        return Some(Rfc3986Authority {
            userinfo: authority.userinfo().map(|u| u.as_str().to_owned()),
            host: authority.host().to_owned(),
            port: authority.port().map(|p| p.as_str().to_owned()),
            strict: true,
        });
    }
    appendix_b(input)
}

/// The host RFC 3986 reads in `input`, by Appendix B, without allocating.
///
/// Whenever fluent-uri accepts `input` with an authority, its host is this one as well: the
/// strict grammar keeps "/", "?" and "#" out of the authority, "@" out of the userinfo and the
/// host, and ":" out of a reg-name and the port, so both splits fall on the same characters. A
/// caller that only needs the host to compare can therefore skip the strict parse.
pub fn appendix_b_host(input: &str) -> Option<&str> {
    appendix_b_parts(input).map(|(_, host, _)| host)
}

/// RFC 3986, Appendix B: `^(([^:/?#]+):)?(//([^/?#]*))?([^?#]*)(\?([^#]*))?(#(.*))?`, then
/// the authority split at its last "@" and the port after the last ":" outside brackets.
fn appendix_b(input: &str) -> Option<Rfc3986Authority> {
    let (userinfo, host, port) = appendix_b_parts(input)?;
    Some(Rfc3986Authority {
        userinfo: userinfo.map(str::to_owned),
        host: host.to_owned(),
        port: port.map(str::to_owned),
        strict: false,
    })
}

/// The userinfo, host and port of the Appendix B reading.
fn appendix_b_parts(input: &str) -> Option<(Option<&str>, &str, Option<&str>)> {
    // The delimiters are ASCII, so byte positions are char boundaries. This is asked of every
    // URL a batch checks: one pass over the scheme and one over the authority, a table lookup
    // a byte, cost less than a search for each delimiter (memchr's set-up is longer than the
    // few bytes it would search).
    let bytes = input.as_bytes();
    let class = |b: u8| DELIMITERS[usize::from(b)];
    // A scheme: the first of ":/?#" is a ":" that is not the first byte.
    let rest = match bytes.iter().position(|&b| class(b) & (COLON | END) != 0) {
        Some(colon) if colon > 0 && bytes[colon] == b':' => &input[colon + 1..],
        _ => input,
    };
    let rest = rest.strip_prefix("//")?;
    // The authority runs to the first of "/?#"; it splits at its last "@", and its host and
    // port at the last ":" after that, unless a "]" follows the ":".
    let (mut end, mut at, mut colon, mut bracket) = (rest.len(), None, None, None);
    for (i, &b) in rest.as_bytes().iter().enumerate() {
        match class(b) {
            0 => {}
            END => {
                end = i;
                break;
            }
            AT => at = Some(i),
            COLON => colon = Some(i),
            _ => bracket = Some(i),
        }
    }
    let (userinfo, host_start) = match at {
        Some(at) => (Some(&rest[..at]), at + 1),
        None => (None, 0),
    };
    let (host, port) = match colon {
        Some(colon) if colon >= host_start && bracket.is_none_or(|b| b < colon) => {
            (&rest[host_start..colon], Some(&rest[colon + 1..end]))
        }
        _ => (&rest[host_start..end], None),
    };
    Some((userinfo, host, port))
}

/// The classes of [`DELIMITERS`]: "/", "?" or "#" end the scheme's search and the authority.
const END: u8 = 1;
const COLON: u8 = 2;
const AT: u8 = 4;
const CLOSE_BRACKET: u8 = 8;

/// Each byte's class in Appendix B's splits; 0 for the others.
static DELIMITERS: [u8; 256] = {
    let mut table = [0; 256];
    table[b'/' as usize] = END;
    table[b'?' as usize] = END;
    table[b'#' as usize] = END;
    table[b':' as usize] = COLON;
    table[b'@' as usize] = AT;
    table[b']' as usize] = CLOSE_BRACKET;
    table
};

#[cfg(test)]
mod tests {
    use super::*;

    /// RFC 3986, Appendix B, read as its regular expression reads: the scheme is what comes
    /// before the first of ":/?#" when that is a ":" after at least one byte, the authority
    /// follows "//" up to the next of "/?#", and it splits at its last "@" and at its last ":"
    /// with no "]" after it.
    fn by_the_regular_expression(input: &str) -> Option<(Option<&str>, &str, Option<&str>)> {
        let first = input.find([':', '/', '?', '#']);
        let rest = match first {
            Some(i) if i > 0 && input[i..].starts_with(':') => &input[i + 1..],
            _ => input,
        };
        let rest = rest.strip_prefix("//")?;
        let authority = &rest[..rest.find(['/', '?', '#']).unwrap_or(rest.len())];
        let (userinfo, host_port) = match authority.rfind('@') {
            Some(at) => (Some(&authority[..at]), &authority[at + 1..]),
            None => (None, authority),
        };
        let (host, port) = match host_port.rfind(':') {
            Some(colon) if !host_port[colon..].contains(']') => {
                (&host_port[..colon], Some(&host_port[colon + 1..]))
            }
            _ => (host_port, None),
        };
        Some((userinfo, host, port))
    }

    #[test]
    fn the_byte_searches_split_as_appendix_b_does() {
        let pieces = ["", "a", ":", "/", "//", "?", "#", "@", "[", "]", "é", "ab"];
        let mut all = crate::test_support::every_string_of(&pieces, 5);
        all.extend(
            [
                "https://user:pw@[::1]:8080/p?q#f",
                "http://a@b@c:1:2/",
                "x://[v1.x]/",
                "1http://h/",
            ]
            .map(String::from),
        );
        for input in &all {
            assert_eq!(
                appendix_b_parts(input),
                by_the_regular_expression(input),
                "{input:?}"
            );
        }
        assert!(all.iter().filter(|i| appendix_b_parts(i).is_some()).count() > 10_000);
    }

    #[test]
    fn strict_and_appendix_b_readings() {
        let a = authority("https://user@Example.com:8080/x").expect("authority");
        assert_eq!(
            (
                a.userinfo.as_deref(),
                a.host.as_str(),
                a.port.as_deref(),
                a.strict
            ),
            (Some("user"), "Example.com", Some("8080"), true)
        );
        let a = authority("http://evil.example\\@good.example/").expect("authority");
        assert_eq!(
            (a.userinfo.as_deref(), a.host.as_str(), a.strict),
            (Some("evil.example\\"), "good.example", false)
        );
        let a = authority("http://[::1]:80/").expect("authority");
        assert_eq!((a.host.as_str(), a.port.as_deref()), ("[::1]", Some("80")));
        assert_eq!(authority("mailto:a@b"), None);
    }

    #[test]
    fn a_strict_reading_finds_the_appendix_b_host() {
        let inputs = [
            "https://example.com/",
            "https://user:pass@Example.COM:8080/x?y#z",
            "https://a@b@c/",
            "http://evil.example\\@good.example/",
            "https://[::1]/",
            "https://[::1]:443/",
            "https://[v1.x]/",
            "https://[v1.x:y]:80/",
            "https://host:/",
            "https://host:80:90/",
            "https://ho st/",
            "https://mail.b\u{fc}cher.\u{4f8b}\u{3048}.jp/",
            "https://%61%62.com/",
            "https://x.com?q#f",
            "https://x.com#f/@y",
            "https:x.com",
            "https:/x.com",
            "https:///x.com",
            "https:////x.com",
            "file:///etc/hosts",
            "file://localhost/",
            "file://C:/x",
            "//host/path",
            "a:b:c//d",
            " https://x.com/",
            "https://x.com\t.evil/",
            "https://x.com\\y@z/",
            "https://u:p:q@h:1/",
            "HTTPS://EXAMPLE.COM",
            "https://0x7f.1/",
            "https://\u{430}\u{440}\u{440}\u{4cf}\u{435}.com/",
        ];
        for input in inputs {
            let Ok(iri) = fluent_uri::IriRef::parse(input) else {
                continue;
            };
            if let Some(authority) = iri.authority() {
                assert_eq!(
                    appendix_b_host(input),
                    Some(authority.host()),
                    "input {input:?}"
                );
            }
        }
    }
}
