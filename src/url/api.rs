//! The URL API (URL Standard: 6.1 URL class): parsing, the getters and the setters.

use encoding_rs::{Encoding, UTF_8};
use std::fmt;
use std::str::FromStr;

use crate::trace::{NoTrace, Tracer};
use crate::url::input::OffsetMap;
use crate::url::parser::{basic_parse, Failure};
use crate::url::percent;
use crate::url::record::{Host, Origin, Path, UrlRecord};
use crate::url::search_params::{UrlSearchParams, UrlSearchParamsMut};
use crate::url::state::State;
use crate::validation::ValidationError;

/// A parsed URL: a URL record that the basic URL parser produced.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Url {
    pub(crate) record: UrlRecord,
}

/// The basic URL parser returned failure.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    cause: Option<ValidationError>,
}

impl ParseError {
    /// The validation error that made the parser fail. Every failure of a parse without a state
    /// override has one; the failures the standard reserves for setters do not.
    pub fn cause(&self) -> Option<&ValidationError> {
        self.cause.as_ref()
    }

    pub(crate) fn from_failure(failure: Failure, original: &str) -> Self {
        let cause = failure.cause.map(|(kind, span, phase)| {
            ValidationError::new(kind, OffsetMap::new(original).span(span), phase)
        });
        ParseError { cause }
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.cause {
            Some(cause) => write!(f, "not a URL: {cause}"),
            None => f.write_str("not a URL"),
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
        Self::parse_with(input, base, UTF_8, &mut NoTrace)
    }

    /// Parses with a query encoding other than UTF-8 (any WHATWG encoding; UTF-16 and
    /// replacement become UTF-8, as "getting an output encoding" says).
    pub fn parse_with_encoding(
        input: &str,
        base: Option<&Url>,
        encoding: &'static Encoding,
    ) -> Result<Url, ParseError> {
        Self::parse_with(input, base, encoding, &mut NoTrace)
    }

    /// The basic URL parser with a tracer: the entry point for traces and error collection.
    pub fn parse_with<T: Tracer>(
        input: &str,
        base: Option<&Url>,
        encoding: &'static Encoding,
        tracer: &mut T,
    ) -> Result<Url, ParseError> {
        let mut record = UrlRecord::default();
        match basic_parse(
            input,
            base.map(|b| &b.record),
            encoding,
            &mut record,
            None,
            tracer,
        ) {
            Ok(()) => Ok(Url { record }),
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

    /// The URL record.
    pub fn record(&self) -> &UrlRecord {
        &self.record
    }

    /// URL Standard: URL equivalence.
    pub fn equals(&self, other: &Url, exclude_fragments: bool) -> bool {
        self.record.serialize(exclude_fragments) == other.record.serialize(exclude_fragments)
    }

    // --- getters -----------------------------------------------------------------------------

    /// The href getter: the URL serializer.
    pub fn href(&self) -> String {
        self.record.serialize(false)
    }

    /// URL Standard: 4.7 Origin.
    pub fn origin_record(&self) -> Origin {
        let r = &self.record;
        match r.scheme.as_str() {
            // The blob URL entry is always null here (no blob URL store), so the origin comes
            // from the URL in the path.
            "blob" => {
                let mut path = String::new();
                r.path.serialize_into(&mut path);
                match Url::parse(&path, None) {
                    Ok(inner)
                        if matches!(inner.record.scheme.as_str(), "http" | "https" | "file") =>
                    {
                        inner.origin_record()
                    }
                    _ => Origin::Opaque,
                }
            }
            "ftp" | "http" | "https" | "ws" | "wss" => Origin::Tuple {
                scheme: r.scheme.clone(),
                host: r.host.clone().unwrap_or(Host::Empty),
                port: r.port,
            },
            // "file": "left as an exercise to the reader. When in doubt, return a new opaque
            // origin."
            _ => Origin::Opaque,
        }
    }

    /// The origin getter: the serialization of the origin ("null" when opaque).
    pub fn origin(&self) -> String {
        self.origin_record().ascii_serialization()
    }

    pub fn protocol(&self) -> String {
        format!("{}:", self.record.scheme)
    }

    pub fn scheme(&self) -> &str {
        &self.record.scheme
    }

    pub fn username(&self) -> &str {
        &self.record.username
    }

    pub fn password(&self) -> &str {
        &self.record.password
    }

    pub fn host(&self) -> String {
        let mut out = String::new();
        if let Some(host) = &self.record.host {
            host.serialize_into(&mut out);
            if let Some(port) = self.record.port {
                out.push(':');
                out.push_str(&port.to_string());
            }
        }
        out
    }

    pub fn hostname(&self) -> String {
        self.record
            .host
            .as_ref()
            .map(Host::to_string)
            .unwrap_or_default()
    }

    pub fn port(&self) -> String {
        self.record.port.map(|p| p.to_string()).unwrap_or_default()
    }

    pub fn pathname(&self) -> String {
        let mut out = String::new();
        self.record.path.serialize_into(&mut out);
        out
    }

    pub fn search(&self) -> String {
        match self.record.query.as_deref() {
            None | Some("") => String::new(),
            Some(q) => format!("?{q}"),
        }
    }

    pub fn hash(&self) -> String {
        match self.record.fragment.as_deref() {
            None | Some("") => String::new(),
            Some(f) => format!("#{f}"),
        }
    }

    /// The value of the getter named by `component`.
    pub fn get(&self, component: Component) -> String {
        match component {
            Component::Href => self.href(),
            Component::Protocol => self.protocol(),
            Component::Username => self.username().to_owned(),
            Component::Password => self.password().to_owned(),
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
        UrlSearchParams::from_query(self.record.query.as_deref())
    }

    /// The URL's query object: every edit updates the URL's query, as the standard's
    /// URLSearchParams "update" steps do.
    pub fn search_params_mut(&mut self) -> UrlSearchParamsMut<'_> {
        UrlSearchParamsMut::new(&mut self.record)
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
        match component {
            // URL Standard: href setter.
            Component::Href => {
                *self = Url::parse_with(value, None, UTF_8, tracer)?;
                Ok(())
            }
            // URL Standard: protocol setter.
            Component::Protocol => run(
                &mut self.record,
                &format!("{value}:"),
                State::SchemeStart,
                tracer,
            ),
            // URL Standard: username and password setters.
            Component::Username => {
                if !self.record.cannot_have_username_password_port() {
                    self.record.username = percent::utf8_percent_encode(value, percent::USERINFO);
                }
                Ok(())
            }
            Component::Password => {
                if !self.record.cannot_have_username_password_port() {
                    self.record.password = percent::utf8_percent_encode(value, percent::USERINFO);
                }
                Ok(())
            }
            // URL Standard: host and hostname setters.
            Component::Host | Component::Hostname => {
                if self.record.has_opaque_path() {
                    return Ok(());
                }
                let state = if component == Component::Host {
                    State::Host
                } else {
                    State::Hostname
                };
                run(&mut self.record, value, state, tracer)
            }
            // URL Standard: port setter.
            Component::Port => {
                if self.record.cannot_have_username_password_port() {
                    return Ok(());
                }
                if value.is_empty() {
                    self.record.port = None;
                    return Ok(());
                }
                run(&mut self.record, value, State::Port, tracer)
            }
            // URL Standard: pathname setter.
            Component::Pathname => {
                if self.record.has_opaque_path() {
                    return Ok(());
                }
                self.record.path = Path::List(Vec::new());
                run(&mut self.record, value, State::PathStart, tracer)
            }
            // URL Standard: search setter.
            Component::Search => {
                if value.is_empty() {
                    self.record.query = None;
                    return Ok(());
                }
                let input = value.strip_prefix('?').unwrap_or(value);
                self.record.query = Some(String::new());
                run(&mut self.record, input, State::Query, tracer)
            }
            // URL Standard: hash setter.
            Component::Hash => {
                if value.is_empty() {
                    self.record.fragment = None;
                    return Ok(());
                }
                let input = value.strip_prefix('#').unwrap_or(value);
                self.record.fragment = Some(String::new());
                run(&mut self.record, input, State::Fragment, tracer)
            }
        }
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
        f.write_str(&self.href())
    }
}

impl FromStr for Url {
    type Err = ParseError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Url::parse(s, None)
    }
}
