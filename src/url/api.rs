//! The URL API (URL Standard: 6.1 URL class): parsing, the getters and the setters.

use encoding_rs::{Encoding, UTF_8};
use std::borrow::Cow;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::str::FromStr;
use std::sync::OnceLock;

use crate::trace::{NoTrace, Tracer};
use crate::url::fast;
use crate::url::input::OffsetMap;
use crate::url::parser::{basic_parse, Failure};
use crate::url::percent;
use crate::url::record::{Host, HostKind, Offsets, Origin, Path, Serialized, UrlRecord};
use crate::url::search_params::{UrlSearchParams, UrlSearchParamsMut};
use crate::url::state::State;
use crate::validation::ValidationError;

/// A parsed URL: a URL record that the basic URL parser produced, kept as its serialization
/// with the components' offsets, so that the getters slice one string and a parse allocates
/// once. The record itself is built when first asked for (or kept, when the state machine
/// built it anyway).
#[derive(Clone)]
pub struct Url {
    serialization: String,
    offsets: Offsets,
    host: HostKind,
    port: Option<u16>,
    opaque_path: bool,
    record: OnceLock<Box<UrlRecord>>,
}

impl PartialEq for Url {
    fn eq(&self, other: &Self) -> bool {
        self.serialization == other.serialization
    }
}

impl Eq for Url {}

impl Hash for Url {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.serialization.hash(state);
    }
}

impl fmt::Debug for Url {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("Url").field(&self.serialization).finish()
    }
}

/// The basic URL parser returned failure.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    cause: Option<ValidationError>,
    /// Set when the input was refused before parsing: its offsets would not fit in 32 bits.
    too_long: Option<crate::InputTooLong>,
}

impl ParseError {
    /// The validation error that made the parser fail. Every failure of a parse without a state
    /// override has one, but for an input refused as [too long](ParseError::too_long); the
    /// failures the standard reserves for setters do not.
    pub fn cause(&self) -> Option<&ValidationError> {
        self.cause.as_ref()
    }

    /// Set when the input was refused before parsing because it is 4 GiB or longer (as rust-url
    /// and ada refuse it): there is no validation error then.
    pub fn too_long(&self) -> Option<crate::InputTooLong> {
        self.too_long
    }

    pub(crate) fn from_failure(failure: Failure, original: &str) -> Self {
        let cause = failure.cause.map(|(kind, span, phase)| {
            ValidationError::new(kind, OffsetMap::new(original).span(span), phase)
        });
        ParseError {
            cause,
            too_long: None,
        }
    }

    /// Refuses an input whose length is out of the offsets' range, before any parsing.
    fn check_length(len: usize) -> Result<(), ParseError> {
        crate::check_input_length(len).map_err(|e| ParseError {
            cause: None,
            too_long: Some(e),
        })
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (&self.cause, &self.too_long) {
            (_, Some(too_long)) => write!(f, "not parsed: {too_long}"),
            (Some(cause), None) => write!(f, "not a URL: {cause}"),
            (None, None) => f.write_str("not a URL"),
        }
    }
}

impl std::error::Error for ParseError {}

/// The URL API's settable attributes, named as the standard's URL class names them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Component {
    Href,
    Protocol,
    Username,
    Password,
    Host,
    Hostname,
    Port,
    Pathname,
    Search,
    Hash,
}

impl Component {
    pub const ALL: [Component; 10] = [
        Component::Href,
        Component::Protocol,
        Component::Username,
        Component::Password,
        Component::Host,
        Component::Hostname,
        Component::Port,
        Component::Pathname,
        Component::Search,
        Component::Hash,
    ];

    pub const fn name(self) -> &'static str {
        match self {
            Component::Href => "href",
            Component::Protocol => "protocol",
            Component::Username => "username",
            Component::Password => "password",
            Component::Host => "host",
            Component::Hostname => "hostname",
            Component::Port => "port",
            Component::Pathname => "pathname",
            Component::Search => "search",
            Component::Hash => "hash",
        }
    }
}

impl fmt::Display for Component {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Component {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Component::ALL
            .into_iter()
            .find(|c| c.name() == s)
            .ok_or_else(|| {
                let names: Vec<_> = Component::ALL.iter().map(|c| c.name()).collect();
                format!(
                    "unknown URL component {s:?} (expected one of {})",
                    names.join(", ")
                )
            })
    }
}

impl Url {
    /// The API URL parser with an already parsed base: the basic URL parser on `input`.
    pub fn parse(input: &str, base: Option<&Url>) -> Result<Url, ParseError> {
        Self::parse_with_encoding(input, base, UTF_8)
    }

    /// Parses with a query encoding other than UTF-8 (any WHATWG encoding; UTF-16 and
    /// replacement become UTF-8, as "getting an output encoding" says).
    pub fn parse_with_encoding(
        input: &str,
        base: Option<&Url>,
        encoding: &'static Encoding,
    ) -> Result<Url, ParseError> {
        ParseError::check_length(input.len())?;
        // Nobody watches an untraced parse, so input the state machine would only copy can
        // skip it (the encoding only matters for non-ASCII queries, which the shortcut leaves
        // to the state machine).
        if let Some(url) = fast::parse(input, base.map(Url::parts)) {
            return Ok(Url::from_parts(url));
        }
        Self::parse_with(input, base, encoding, &mut NoTrace)
    }

    /// The href of `input` parsed against `base` ([`Url::parse_with_encoding`], then
    /// [`Url::href`]), borrowed from `input` when the input is already its href, as nearly every
    /// URL met is: a batch that wants only hrefs builds no URL and copies nothing for those.
    pub fn parse_href<'a>(
        input: &'a str,
        base: Option<&Url>,
        encoding: &'static Encoding,
    ) -> Result<Cow<'a, str>, ParseError> {
        ParseError::check_length(input.len())?;
        if let Some(href) = fast::href(input, base.map(Url::parts)) {
            return Ok(href);
        }
        Self::parse_with(input, base, encoding, &mut NoTrace)
            .map(|url| Cow::Owned(url.serialization))
    }

    /// The hostname of `input` parsed against `base` ([`Url::parse_with_encoding`], then
    /// [`Url::hostname`]), borrowed from `input` (or `base`) when a special URL's host is one
    /// the host parser keeps as typed: then no URL is built and nothing past the host (or the
    /// port) is read, since nothing there can make the parse fail or change the host. A caller
    /// that wants only hosts (a column of hosts) copies nothing of nearly every URL.
    pub fn parse_hostname<'a>(
        input: &'a str,
        base: Option<&'a Url>,
        encoding: &'static Encoding,
    ) -> Result<Cow<'a, str>, ParseError> {
        ParseError::check_length(input.len())?;
        if let Some(hostname) = fast::hostname(input, base.map(Url::parts)) {
            return Ok(Cow::Borrowed(hostname));
        }
        Self::parse_with_encoding(input, base, encoding)
            .map(|url| Cow::Owned(url.hostname().to_owned()))
    }

    /// The state machine alone, never the shortcut: what the shortcut is checked against.
    #[doc(hidden)]
    pub fn parse_without_shortcut(input: &str, base: Option<&Url>) -> Result<Url, ParseError> {
        Self::parse_with(input, base, UTF_8, &mut NoTrace)
    }

    /// The basic URL parser with a tracer: the entry point for traces and error collection.
    pub fn parse_with<T: Tracer>(
        input: &str,
        base: Option<&Url>,
        encoding: &'static Encoding,
        tracer: &mut T,
    ) -> Result<Url, ParseError> {
        ParseError::check_length(input.len())?;
        let mut record = UrlRecord::default();
        match basic_parse(
            input,
            base.map(Url::record),
            encoding,
            &mut record,
            None,
            tracer,
        ) {
            Ok(()) => Ok(Url::from_record(record)),
            Err(failure) => Err(ParseError::from_failure(failure, input)),
        }
    }

    /// URL Standard: the static `canParse(url, base)`: the API URL parser did not fail.
    pub fn can_parse(input: &str, base: Option<&str>) -> bool {
        let base = match base.map(|b| Url::parse(b, None)) {
            None => None,
            Some(Ok(base)) => Some(base),
            Some(Err(_)) => return false,
        };
        Url::parse(input, base.as_ref()).is_ok()
    }

    /// A URL from a record: serialized once, the record kept.
    pub fn from_record(record: UrlRecord) -> Url {
        let mut serialization = String::with_capacity(record.estimated_len());
        let offsets = record.serialize_with_offsets(false, &mut serialization);
        let host = match &record.host {
            None => HostKind::Null,
            Some(Host::Empty) => HostKind::Empty,
            Some(Host::Domain(_)) => HostKind::Domain,
            Some(Host::Opaque(_)) => HostKind::Opaque,
            Some(Host::Ipv4(address)) => HostKind::Ipv4(*address),
            Some(Host::Ipv6(pieces)) => HostKind::Ipv6(*pieces),
        };
        Url {
            serialization,
            offsets,
            host,
            port: record.port,
            opaque_path: record.has_opaque_path(),
            record: OnceLock::from(Box::new(record)),
        }
    }

    /// A URL from a serialization the parser would produce and its layout; the record is
    /// built when asked for.
    pub(crate) fn from_parts(parts: Serialized<String>) -> Url {
        Url {
            serialization: parts.serialization,
            offsets: parts.offsets,
            host: parts.host,
            port: parts.port,
            opaque_path: false,
            record: OnceLock::new(),
        }
    }

    /// The URL record.
    pub fn record(&self) -> &UrlRecord {
        self.record.get_or_init(|| Box::new(self.build_record()))
    }

    /// The record's host, without building the rest of the record (what a host analysis
    /// needs of a URL).
    pub fn host_record(&self) -> Option<Host> {
        match self.host {
            HostKind::Null => None,
            HostKind::Empty => Some(Host::Empty),
            HostKind::Domain => Some(Host::Domain(self.hostname().to_owned())),
            HostKind::Opaque => Some(Host::Opaque(self.hostname().to_owned())),
            HostKind::Ipv4(address) => Some(Host::Ipv4(address)),
            HostKind::Ipv6(pieces) => Some(Host::Ipv6(pieces)),
        }
    }

    /// The host when it is a domain, as the URL keeps it (a domain serializes as itself):
    /// what a host analysis reads of most URLs, without a copy.
    pub(crate) fn domain(&self) -> Option<&str> {
        matches!(self.host, HostKind::Domain).then(|| self.hostname())
    }

    /// Whether the URL's scheme is special.
    pub fn is_special(&self) -> bool {
        crate::url::record::is_special_scheme(self.scheme())
    }

    fn build_record(&self) -> UrlRecord {
        let host = self.host_record();
        let path = self.pathname();
        let path = if self.opaque_path {
            Path::Opaque(path.to_owned())
        } else if path.is_empty() {
            Path::List(Vec::new())
        } else {
            // A list path serializes as "/" before each segment, and no segment holds a "/".
            Path::List(path[1..].split('/').map(str::to_owned).collect())
        };
        UrlRecord {
            scheme: self.scheme().to_owned(),
            username: self.username().to_owned(),
            password: self.password().to_owned(),
            host,
            port: self.port,
            path,
            query: self.query().map(str::to_owned),
            fragment: self.fragment().map(str::to_owned),
        }
    }

    /// Edits the record and serializes it again.
    pub(crate) fn edit_record<R>(&mut self, edit: impl FnOnce(&mut UrlRecord) -> R) -> R {
        let mut record = match self.record.take() {
            Some(record) => record,
            None => Box::new(self.build_record()),
        };
        let result = edit(&mut record);
        *self = Url::from_record(*record);
        result
    }

    /// URL Standard: URL equivalence.
    pub fn equals(&self, other: &Url, exclude_fragments: bool) -> bool {
        if exclude_fragments {
            self.without_fragment() == other.without_fragment()
        } else {
            self.serialization == other.serialization
        }
    }

    fn without_fragment(&self) -> &str {
        let end = self
            .offsets
            .fragment_start
            .map_or(self.serialization.len(), |f| f as usize);
        &self.serialization[..end]
    }

    fn slice(&self, start: u32, end: u32) -> &str {
        &self.serialization[start as usize..end as usize]
    }

    fn includes_credentials(&self) -> bool {
        self.host != HostKind::Null && self.offsets.host_start > self.offsets.scheme_end + 3
    }

    /// The serialization and its layout, for the shortcut's relative references.
    pub(crate) fn parts(&self) -> Serialized<&str> {
        Serialized {
            serialization: &self.serialization,
            offsets: self.offsets,
            host: self.host,
            port: self.port,
        }
    }

    pub(crate) fn path_end(&self) -> u32 {
        self.offsets.path_end(self.serialization.len())
    }

    /// The query without its "?", or `None` when it is null.
    pub fn query(&self) -> Option<&str> {
        let start = self.offsets.query_start?;
        let end = self
            .offsets
            .fragment_start
            .unwrap_or(self.serialization.len() as u32);
        Some(self.slice(start + 1, end))
    }

    /// The fragment without its "#", or `None` when it is null.
    pub fn fragment(&self) -> Option<&str> {
        let start = self.offsets.fragment_start?;
        Some(&self.serialization[start as usize + 1..])
    }

    // --- getters -----------------------------------------------------------------------------

    /// The href getter: the URL serializer.
    pub fn href(&self) -> &str {
        &self.serialization
    }

    /// URL Standard: 4.7 Origin.
    pub fn origin_record(&self) -> Origin {
        match self.scheme() {
            // The blob URL entry is always null here (no blob URL store), so the origin comes
            // from the URL in the path.
            "blob" => match Url::parse(self.pathname(), None) {
                Ok(inner) if matches!(inner.scheme(), "http" | "https" | "file") => {
                    inner.origin_record()
                }
                _ => Origin::Opaque,
            },
            "ftp" | "http" | "https" | "ws" | "wss" => Origin::Tuple {
                scheme: self.scheme().to_owned(),
                host: self.record().host.clone().unwrap_or(Host::Empty),
                port: self.port,
            },
            // "file": "left as an exercise to the reader. When in doubt, return a new opaque
            // origin."
            _ => Origin::Opaque,
        }
    }

    /// The origin getter: the serialization of the origin ("null" when opaque).
    pub fn origin(&self) -> String {
        match self.scheme() {
            // A tuple origin's serialization is the scheme, "://", and the host getter's value
            // (the serialized host, and ":" and the port when there is one): read from the
            // serialization rather than built from a record.
            scheme @ ("ftp" | "http" | "https" | "ws" | "wss") => {
                let host = self.host();
                let mut out = String::with_capacity(scheme.len() + 3 + host.len());
                out.push_str(scheme);
                out.push_str("://");
                out.push_str(host);
                out
            }
            _ => self.origin_record().ascii_serialization(),
        }
    }

    pub fn protocol(&self) -> &str {
        self.slice(0, self.offsets.scheme_end + 1)
    }

    pub fn scheme(&self) -> &str {
        self.slice(0, self.offsets.scheme_end)
    }

    pub fn username(&self) -> &str {
        if !self.includes_credentials() {
            return "";
        }
        self.slice(self.offsets.scheme_end + 3, self.offsets.username_end)
    }

    pub fn password(&self) -> &str {
        if !self.includes_credentials() || self.offsets.username_end + 1 >= self.offsets.host_start
        {
            return "";
        }
        self.slice(self.offsets.username_end + 1, self.offsets.host_start - 1)
    }

    /// The host getter: host and port ("" when the host is null).
    pub fn host(&self) -> &str {
        if self.host == HostKind::Null {
            return "";
        }
        self.slice(self.offsets.host_start, self.offsets.path_start)
    }

    pub fn hostname(&self) -> &str {
        self.slice(self.offsets.host_start, self.offsets.host_end)
    }

    pub fn port(&self) -> &str {
        match self.port {
            Some(_) => self.slice(self.offsets.host_end + 1, self.offsets.path_start),
            None => "",
        }
    }

    /// The port number, or `None` when the port is null.
    pub fn port_number(&self) -> Option<u16> {
        self.port
    }

    pub fn pathname(&self) -> &str {
        self.slice(self.offsets.path_start, self.path_end())
    }

    pub fn search(&self) -> &str {
        match self.query() {
            None | Some("") => "",
            Some(_) => self.slice(self.offsets.query_start.unwrap_or(0), self.query_end()),
        }
    }

    fn query_end(&self) -> u32 {
        self.offsets
            .fragment_start
            .unwrap_or(self.serialization.len() as u32)
    }

    pub fn hash(&self) -> &str {
        match self.fragment() {
            None | Some("") => "",
            Some(_) => &self.serialization[self.offsets.fragment_start.unwrap_or(0) as usize..],
        }
    }

    /// The value of the getter named by `component`.
    pub fn get(&self, component: Component) -> String {
        self.component(component).to_owned()
    }

    /// The value of the getter named by `component`, borrowed from the serialization.
    pub fn component(&self, component: Component) -> &str {
        match component {
            Component::Href => self.href(),
            Component::Protocol => self.protocol(),
            Component::Username => self.username(),
            Component::Password => self.password(),
            Component::Host => self.host(),
            Component::Hostname => self.hostname(),
            Component::Port => self.port(),
            Component::Pathname => self.pathname(),
            Component::Search => self.search(),
            Component::Hash => self.hash(),
        }
    }

    /// The query's name-value pairs (a copy; see [`Url::search_params_mut`] to edit them).
    pub fn search_params(&self) -> UrlSearchParams {
        UrlSearchParams::from_query(self.query())
    }

    /// The URL's query object: every edit updates the URL's query, as the standard's
    /// URLSearchParams "update" steps do.
    pub fn search_params_mut(&mut self) -> UrlSearchParamsMut<'_> {
        UrlSearchParamsMut::new(self)
    }

    // --- setters -----------------------------------------------------------------------------

    /// Runs the setter of `component` with `value`, tracing the basic URL parser's run (if the
    /// setter runs it). `Err` means the parser returned failure: for `href` the URL is left
    /// unchanged (where a browser throws a TypeError); for the other setters the URL is left
    /// as the standard leaves it, which the browsers report as no change.
    pub fn set<T: Tracer>(
        &mut self,
        component: Component,
        value: &str,
        tracer: &mut T,
    ) -> Result<(), ParseError> {
        let run = |url: &mut UrlRecord, input: &str, state: State, tracer: &mut T| {
            basic_parse(input, None, UTF_8, url, Some(state), tracer)
                .map_err(|failure| ParseError::from_failure(failure, input))
        };
        if component == Component::Href {
            // URL Standard: href setter.
            *self = Url::parse_with(value, None, UTF_8, tracer)?;
            return Ok(());
        }
        self.edit_record(|url| match component {
            Component::Href => unreachable!("handled above"),
            // URL Standard: protocol setter.
            Component::Protocol => run(url, &format!("{value}:"), State::SchemeStart, tracer),
            // URL Standard: username and password setters.
            Component::Username => {
                if !url.cannot_have_username_password_port() {
                    url.username = percent::utf8_percent_encode(value, percent::USERINFO);
                }
                Ok(())
            }
            Component::Password => {
                if !url.cannot_have_username_password_port() {
                    url.password = percent::utf8_percent_encode(value, percent::USERINFO);
                }
                Ok(())
            }
            // URL Standard: host and hostname setters.
            Component::Host | Component::Hostname => {
                if url.has_opaque_path() {
                    return Ok(());
                }
                let state = if component == Component::Host {
                    State::Host
                } else {
                    State::Hostname
                };
                run(url, value, state, tracer)
            }
            // URL Standard: port setter.
            Component::Port => {
                if url.cannot_have_username_password_port() {
                    return Ok(());
                }
                if value.is_empty() {
                    url.port = None;
                    return Ok(());
                }
                run(url, value, State::Port, tracer)
            }
            // URL Standard: pathname setter.
            Component::Pathname => {
                if url.has_opaque_path() {
                    return Ok(());
                }
                url.path = Path::List(Vec::new());
                run(url, value, State::PathStart, tracer)
            }
            // URL Standard: search setter.
            Component::Search => {
                if value.is_empty() {
                    url.query = None;
                    return Ok(());
                }
                let input = value.strip_prefix('?').unwrap_or(value);
                url.query = Some(String::new());
                run(url, input, State::Query, tracer)
            }
            // URL Standard: hash setter.
            Component::Hash => {
                if value.is_empty() {
                    url.fragment = None;
                    return Ok(());
                }
                let input = value.strip_prefix('#').unwrap_or(value);
                url.fragment = Some(String::new());
                run(url, input, State::Fragment, tracer)
            }
        })
    }

    /// The href setter: `Err` (and no change) when `value` is not a URL.
    pub fn set_href(&mut self, value: &str) -> Result<(), ParseError> {
        self.set(Component::Href, value, &mut NoTrace)
    }

    pub fn set_protocol(&mut self, value: &str) {
        let _ = self.set(Component::Protocol, value, &mut NoTrace);
    }

    pub fn set_username(&mut self, value: &str) {
        let _ = self.set(Component::Username, value, &mut NoTrace);
    }

    pub fn set_password(&mut self, value: &str) {
        let _ = self.set(Component::Password, value, &mut NoTrace);
    }

    pub fn set_host(&mut self, value: &str) {
        let _ = self.set(Component::Host, value, &mut NoTrace);
    }

    pub fn set_hostname(&mut self, value: &str) {
        let _ = self.set(Component::Hostname, value, &mut NoTrace);
    }

    pub fn set_port(&mut self, value: &str) {
        let _ = self.set(Component::Port, value, &mut NoTrace);
    }

    pub fn set_pathname(&mut self, value: &str) {
        let _ = self.set(Component::Pathname, value, &mut NoTrace);
    }

    pub fn set_search(&mut self, value: &str) {
        let _ = self.set(Component::Search, value, &mut NoTrace);
    }

    pub fn set_hash(&mut self, value: &str) {
        let _ = self.set(Component::Hash, value, &mut NoTrace);
    }
}

impl fmt::Display for Url {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.href())
    }
}

impl FromStr for Url {
    type Err = ParseError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Url::parse(s, None)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An input of 4 GiB or more is refused before parsing, with no validation error; the
    /// check takes the length, so the test needs no 4 GiB input.
    #[test]
    fn inputs_beyond_32_bit_offsets_are_refused_before_parsing() {
        assert!(ParseError::check_length(u32::MAX as usize).is_ok());
        let refused = ParseError::check_length(1 << 32).expect_err("4 GiB");
        assert_eq!(refused.cause(), None);
        assert_eq!(refused.too_long().map(|e| e.len), Some(1 << 32));
        assert!(refused
            .to_string()
            .starts_with("not parsed: the input is 4294967296 bytes"));
    }

    #[test]
    fn the_record_rebuilt_from_the_serialization_is_the_parsers() {
        for input in [
            "https://user:pass@example.com:8080/a//b/?q=1#f",
            "https://user@example.com/",
            "https://:pass@example.com/",
            "http://192.168.0.1/",
            "http://[2001:db8::1]:81/x",
            "file:///C:/a/b",
            "file://host/share",
            "sc://h/",
            "sc://@h:1",
            "sc:opaque path?q#f",
            "sc:/.//p",
            "web+demo:/.//not-a-host/",
            "sc:",
            "sc://",
            "https://h/?#",
            "https://h/#",
            "blob:https://h/x",
        ] {
            let url = Url::parse_without_shortcut(input, None).expect(input);
            let mut rebuilt = url.clone();
            rebuilt.record = OnceLock::new();
            assert_eq!(rebuilt.record(), url.record(), "{input}");
            assert_eq!(
                rebuilt.record().serialize(false),
                url.href(),
                "{input}: the record serializes to the href"
            );
        }
    }

    #[test]
    fn getters_slice_the_serialization() {
        let url = Url::parse("https://u:p@h.example:8080/a/b?q=1#f", None).expect("parses");
        assert_eq!(url.protocol(), "https:");
        assert_eq!(url.username(), "u");
        assert_eq!(url.password(), "p");
        assert_eq!(url.host(), "h.example:8080");
        assert_eq!(url.hostname(), "h.example");
        assert_eq!(url.port(), "8080");
        assert_eq!(url.pathname(), "/a/b");
        assert_eq!(url.search(), "?q=1");
        assert_eq!(url.hash(), "#f");
        let url = Url::parse("sc:/.//p?#", None).expect("parses");
        assert_eq!((url.host(), url.pathname()), ("", "//p"));
        assert_eq!((url.search(), url.query(), url.hash()), ("", Some(""), ""));
        assert!(url.equals(&Url::parse("sc:/.//p?#x", None).expect("parses"), true));
        assert!(!url.equals(&Url::parse("sc:/.//p?#x", None).expect("parses"), false));
    }
}
