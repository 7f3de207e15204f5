//! URL Pattern Standard: 4.1 Encoding callbacks. Each canonicalizes a component's fixed text by
//! running our URL engine's basic URL parser on a dummy URL record, as the standard does.

use encoding_rs::UTF_8;

use super::{ComponentName, Error};
use crate::trace::NoTrace;
use crate::url::parser::basic_parse;
use crate::url::percent;
use crate::url::record::{Path, UrlRecord};
use crate::url::State;

/// Which encoding callback a component's pattern is compiled with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Callback {
    Protocol,
    Username,
    Password,
    Hostname,
    Ipv6Hostname,
    Port,
    Pathname,
    OpaquePathname,
    Search,
    Hash,
}

impl Callback {
    /// The algorithm's name in the standard.
    pub const fn name(self) -> &'static str {
        match self {
            Callback::Protocol => "canonicalize a protocol",
            Callback::Username => "canonicalize a username",
            Callback::Password => "canonicalize a password",
            Callback::Hostname => "canonicalize a hostname",
            Callback::Ipv6Hostname => "canonicalize an IPv6 hostname",
            Callback::Port => "canonicalize a port",
            Callback::Pathname => "canonicalize a pathname",
            Callback::OpaquePathname => "canonicalize an opaque pathname",
            Callback::Search => "canonicalize a search",
            Callback::Hash => "canonicalize a hash",
        }
    }

    /// The component whose text the callback canonicalizes.
    pub const fn component(self) -> ComponentName {
        match self {
            Callback::Protocol => ComponentName::Protocol,
            Callback::Username => ComponentName::Username,
            Callback::Password => ComponentName::Password,
            Callback::Hostname | Callback::Ipv6Hostname => ComponentName::Hostname,
            Callback::Port => ComponentName::Port,
            Callback::Pathname | Callback::OpaquePathname => ComponentName::Pathname,
            Callback::Search => ComponentName::Search,
            Callback::Hash => ComponentName::Hash,
        }
    }

    /// Runs the callback on `value` (the port callback without a protocol value).
    pub fn run(self, value: &str) -> Result<String, Error> {
        match self {
            Callback::Protocol => canonicalize_protocol(value),
            Callback::Username => Ok(canonicalize_username(value)),
            Callback::Password => Ok(canonicalize_password(value)),
            Callback::Hostname => canonicalize_hostname(value),
            Callback::Ipv6Hostname => canonicalize_ipv6_hostname(value),
            Callback::Port => canonicalize_port(value, None),
            Callback::Pathname => canonicalize_pathname(value),
            Callback::OpaquePathname => canonicalize_opaque_pathname(value),
            Callback::Search => canonicalize_search(value),
            Callback::Hash => canonicalize_hash(value),
        }
    }
}

fn failure(callback: Callback, value: &str) -> Error {
    Error::Canonicalize {
        callback,
        value: value.to_owned(),
    }
}

/// URL Pattern Standard: create a dummy URL: `https://dummy.invalid/` parsed. Its special
/// scheme makes hostnames domains (IDNA, forbidden domain code points) and `\` a path
/// separator.
fn create_a_dummy_url() -> UrlRecord {
    let mut url = UrlRecord::default();
    let parsed = parse_into("https://dummy.invalid/", &mut url, None);
    debug_assert!(parsed, "the dummy URL parses");
    url
}

/// Runs the basic URL parser on `input` with `url` and a state override.
fn parse_into(input: &str, url: &mut UrlRecord, state: Option<State>) -> bool {
    basic_parse(input, None, UTF_8, url, state, &mut NoTrace).is_ok()
}

/// URL Pattern Standard: canonicalize a protocol. The standard parses `value://dummy.test`
/// rather than using the protocol setter's state override, whose restrictions (no switching
/// between special and non-special schemes) are for setters only.
pub fn canonicalize_protocol(value: &str) -> Result<String, Error> {
    if value.is_empty() {
        return Ok(String::new());
    }
    let mut dummy = UrlRecord::default();
    if !parse_into(&format!("{value}://dummy.test"), &mut dummy, None) {
        return Err(failure(Callback::Protocol, value));
    }
    Ok(dummy.scheme)
}

/// URL Pattern Standard: canonicalize a username (URL Standard: set the username).
pub fn canonicalize_username(value: &str) -> String {
    percent::utf8_percent_encode(value, percent::USERINFO)
}

/// URL Pattern Standard: canonicalize a password (URL Standard: set the password).
pub fn canonicalize_password(value: &str) -> String {
    percent::utf8_percent_encode(value, percent::USERINFO)
}

/// URL Pattern Standard: canonicalize a hostname (the hostname state as state override).
pub fn canonicalize_hostname(value: &str) -> Result<String, Error> {
    if value.is_empty() {
        return Ok(String::new());
    }
    let mut dummy = create_a_dummy_url();
    if !parse_into(value, &mut dummy, Some(State::Hostname)) {
        return Err(failure(Callback::Hostname, value));
    }
    Ok(dummy.host.map(|h| h.to_string()).unwrap_or_default())
}

/// URL Pattern Standard: canonicalize an IPv6 hostname: only hex digits, `[`, `]` and `:`,
/// lowercased.
pub fn canonicalize_ipv6_hostname(value: &str) -> Result<String, Error> {
    let mut result = String::with_capacity(value.len());
    for c in value.chars() {
        if !c.is_ascii_hexdigit() && !matches!(c, '[' | ']' | ':') {
            return Err(failure(Callback::Ipv6Hostname, value));
        }
        result.push(c.to_ascii_lowercase());
    }
    Ok(result)
}

/// URL Pattern Standard: canonicalize a port. With a protocol value, its default port
/// canonicalizes to the empty string.
pub fn canonicalize_port(port_value: &str, protocol_value: Option<&str>) -> Result<String, Error> {
    if port_value.is_empty() {
        return Ok(String::new());
    }
    let mut dummy = create_a_dummy_url();
    dummy.scheme = protocol_value.unwrap_or("").to_owned();
    if !parse_into(port_value, &mut dummy, Some(State::Port)) {
        return Err(failure(Callback::Port, port_value));
    }
    Ok(dummy.port.map(|p| p.to_string()).unwrap_or_default())
}

/// URL Pattern Standard: canonicalize a pathname. A piece of a pathname that does not start
/// with `/` is parsed after `/-`, which is removed again, so that the parser neither prepends a
/// slash nor takes a leading dot for a dot segment.
pub fn canonicalize_pathname(value: &str) -> Result<String, Error> {
    if value.is_empty() {
        return Ok(String::new());
    }
    let leading_slash = value.starts_with('/');
    let modified_value = if leading_slash {
        value.to_owned()
    } else {
        format!("/-{value}")
    };
    let mut dummy = create_a_dummy_url();
    dummy.path = Path::List(Vec::new());
    if !parse_into(&modified_value, &mut dummy, Some(State::PathStart)) {
        return Err(failure(Callback::Pathname, value));
    }
    let mut result = String::new();
    dummy.path.serialize_into(&mut result);
    if !leading_slash {
        result = result.chars().skip(2).collect();
    }
    Ok(result)
}

/// URL Pattern Standard: canonicalize an opaque pathname.
pub fn canonicalize_opaque_pathname(value: &str) -> Result<String, Error> {
    if value.is_empty() {
        return Ok(String::new());
    }
    let mut dummy = UrlRecord {
        path: Path::Opaque(String::new()),
        ..create_a_dummy_url()
    };
    if !parse_into(value, &mut dummy, Some(State::OpaquePath)) {
        return Err(failure(Callback::OpaquePathname, value));
    }
    let mut result = String::new();
    dummy.path.serialize_into(&mut result);
    Ok(result)
}

/// URL Pattern Standard: canonicalize a search.
pub fn canonicalize_search(value: &str) -> Result<String, Error> {
    if value.is_empty() {
        return Ok(String::new());
    }
    let mut dummy = UrlRecord {
        query: Some(String::new()),
        ..create_a_dummy_url()
    };
    if !parse_into(value, &mut dummy, Some(State::Query)) {
        return Err(failure(Callback::Search, value));
    }
    Ok(dummy.query.unwrap_or_default())
}

/// URL Pattern Standard: canonicalize a hash.
pub fn canonicalize_hash(value: &str) -> Result<String, Error> {
    if value.is_empty() {
        return Ok(String::new());
    }
    let mut dummy = UrlRecord {
        fragment: Some(String::new()),
        ..create_a_dummy_url()
    };
    if !parse_into(value, &mut dummy, Some(State::Fragment)) {
        return Err(failure(Callback::Hash, value));
    }
    Ok(dummy.fragment.unwrap_or_default())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fixed_text_is_canonicalized_by_the_url_parser() {
        assert_eq!(canonicalize_protocol("HTTPS").ok(), Some("https".into()));
        assert!(canonicalize_protocol("1http").is_err());
        assert_eq!(
            canonicalize_port("443", Some("https")).ok(),
            Some(String::new())
        );
        assert_eq!(canonicalize_port("0080", None).ok(), Some("80".into()));
        assert!(canonicalize_port("99999", None).is_err());
        assert_eq!(canonicalize_pathname("./b c").ok(), Some("./b%20c".into()));
        assert_eq!(canonicalize_pathname("/a/../b").ok(), Some("/b".into()));
        assert_eq!(canonicalize_search("a b").ok(), Some("a%20b".into()));
        assert_eq!(
            canonicalize_ipv6_hostname("[::AB]").ok(),
            Some("[::ab]".into())
        );
        assert!(canonicalize_ipv6_hostname("[::g]").is_err());
    }
}
