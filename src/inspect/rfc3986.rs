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

/// RFC 3986, Appendix B: `^(([^:/?#]+):)?(//([^/?#]*))?([^?#]*)(\?([^#]*))?(#(.*))?`, then
/// the authority split at its last "@" and the port after the last ":" outside brackets.
fn appendix_b(input: &str) -> Option<Rfc3986Authority> {
    let rest = match input.find([':', '/', '?', '#']) {
        Some(i) if input.as_bytes()[i] == b':' && i > 0 => &input[i + 1..],
        _ => input,
    };
    let rest = rest.strip_prefix("//")?;
    let end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let authority = &rest[..end];
    let (userinfo, host_port) = match authority.rfind('@') {
        Some(at) => (Some(authority[..at].to_owned()), &authority[at + 1..]),
        None => (None, authority),
    };
    let (host, port) = match host_port.rfind(':') {
        Some(colon) if !host_port[colon..].contains(']') => {
            (&host_port[..colon], Some(host_port[colon + 1..].to_owned()))
        }
        _ => (host_port, None),
    };
    Some(Rfc3986Authority {
        userinfo,
        host: host.to_owned(),
        port,
        strict: false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
