//! The parsers built into urlscope: Rust crates called in-process, synchronously.

use super::{Answer, Component};
use std::str::FromStr;

#[cfg(feature = "native")]
pub use super::libcurl::LIBCURL_BUNDLED;

/// The version of the `url` crate (rust-url) linked in; Cargo.toml pins it.
pub const RUST_URL_VERSION: &str = "2.5.8";
/// The version of fluent-uri linked in (checked against Cargo.lock by a test).
pub const FLUENT_URI_VERSION: &str = "0.4.1";
/// The version of the `http` crate linked in (checked against Cargo.lock by a test).
pub const HTTP_VERSION: &str = "1.5.0";

/// A parser that runs in-process.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Builtin {
    /// urlscope's own URL Standard parser: the URL record.
    Whatwg,
    /// The `url` crate: what reqwest and most Rust programs use.
    RustUrl,
    /// libcurl's URL API (with the `native` feature: libcurl is C).
    #[cfg(feature = "native")]
    Curl,
    /// Strict RFC 3986 through fluent-uri.
    Rfc3986,
    /// The `http` crate's `Uri`: what hyper takes as a request target.
    Http,
}

impl Builtin {
    /// Every parser built in, in the order they are shown.
    #[cfg(feature = "native")]
    pub const ALL: [Builtin; 5] = [
        Builtin::Whatwg,
        Builtin::RustUrl,
        Builtin::Curl,
        Builtin::Rfc3986,
        Builtin::Http,
    ];
    /// Every parser built in, in the order they are shown: without the `native` feature,
    /// every one but libcurl's.
    #[cfg(not(feature = "native"))]
    pub const ALL: [Builtin; 4] = [
        Builtin::Whatwg,
        Builtin::RustUrl,
        Builtin::Rfc3986,
        Builtin::Http,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Builtin::Whatwg => "whatwg",
            Builtin::RustUrl => "rust-url",
            #[cfg(feature = "native")]
            Builtin::Curl => "curl",
            Builtin::Rfc3986 => "rfc3986",
            Builtin::Http => "http",
        }
    }

    pub fn from_name(name: &str) -> Option<Builtin> {
        Builtin::ALL.into_iter().find(|b| b.name() == name)
    }

    /// Whether the library gives `component` at all. The `http` crate's `Uri` has no
    /// accessor for the userinfo and drops the fragment (an HTTP request target carries
    /// neither), so its null there says nothing about the input.
    pub fn gives(self, component: Component) -> bool {
        !matches!(
            (self, component),
            (
                Builtin::Http,
                Component::Username | Component::Password | Component::Fragment
            )
        )
    }

    pub fn version(self) -> String {
        match self {
            Builtin::Whatwg => format!("urlscope {}", env!("CARGO_PKG_VERSION")),
            Builtin::RustUrl => RUST_URL_VERSION.to_owned(),
            #[cfg(feature = "native")]
            Builtin::Curl => super::libcurl::version().to_owned(),
            Builtin::Rfc3986 => format!("fluent-uri {FLUENT_URI_VERSION}"),
            Builtin::Http => HTTP_VERSION.to_owned(),
        }
    }

    /// How this parser reads `input`, resolved against `base` when one is given.
    pub fn read(self, input: &str, base: Option<&str>) -> Answer {
        match self {
            Builtin::Whatwg => whatwg(input, base),
            Builtin::RustUrl => rust_url(input, base),
            #[cfg(feature = "native")]
            Builtin::Curl => super::libcurl::read(input, base),
            Builtin::Rfc3986 => rfc3986(input, base),
            Builtin::Http => http(input, base),
        }
    }
}

fn some(s: &str) -> Option<String> {
    Some(s.to_owned())
}

/// The URL record: `host` is the record's host serialized, null when it has none.
fn whatwg(input: &str, base: Option<&str>) -> Answer {
    let version = Some(Builtin::Whatwg.version());
    let base = match base.map(|b| crate::Url::parse(b, None)) {
        None => None,
        Some(Ok(base)) => Some(base),
        Some(Err(e)) => return Answer::failed(version, format!("the base is not a URL: {e}")),
    };
    let url = match crate::Url::parse(input, base.as_ref()) {
        Ok(url) => url,
        // Why, as every surface says it (the step that returned failure, not the last
        // validation error: the domain parser's domain-to-ASCII error does not return).
        Err(_) => {
            let report = crate::report::Report::untraced_parts(
                input,
                base,
                encoding_rs::UTF_8,
                crate::report::Parts::NONE,
            );
            let why = report
                .not_a_url()
                .map_or_else(|| "not a URL".to_owned(), |why| why.message);
            return Answer::failed(version, why);
        }
    };
    // The serializer writes "//" after the scheme exactly when the host is not null (a null
    // host with a path starting "//" is written "/.//"), so the getters suffice and the
    // record need not be built.
    let has_host = url.href()[url.scheme().len() + 1..].starts_with("//");
    Answer {
        available: true,
        version,
        failure: false,
        error: None,
        scheme: some(url.scheme()),
        username: some(url.username()),
        password: some(url.password()),
        host: has_host.then(|| url.hostname().to_owned()),
        port: url.port_number().map(|p| p.to_string()),
        path: some(url.pathname()),
        query: url.query().map(str::to_owned),
        fragment: url.fragment().map(str::to_owned),
    }
}

/// rust-url: `host_str()`; the username is always a string, the password optional.
fn rust_url(input: &str, base: Option<&str>) -> Answer {
    let version = Some(RUST_URL_VERSION.to_owned());
    let base = match base.map(url::Url::parse) {
        None => None,
        Some(Ok(base)) => Some(base),
        Some(Err(e)) => return Answer::failed(version, format!("the base is not a URL: {e}")),
    };
    let url = match url::Url::options().base_url(base.as_ref()).parse(input) {
        Ok(url) => url,
        Err(e) => return Answer::failed(version, e.to_string()),
    };
    Answer {
        available: true,
        version,
        failure: false,
        error: None,
        scheme: some(url.scheme()),
        username: some(url.username()),
        password: url.password().map(str::to_owned),
        host: url.host_str().map(str::to_owned),
        port: url.port().map(|p| p.to_string()),
        path: some(url.path()),
        query: url.query().map(str::to_owned),
        fragment: url.fragment().map(str::to_owned),
    }
}

/// fluent-uri's strict `UriRef`: the authority's host verbatim (brackets kept, nothing decoded
/// or lowercased). No fallback: a string the grammar rejects is a failure.
fn rfc3986(input: &str, base: Option<&str>) -> Answer {
    use fluent_uri::{Uri, UriRef};
    let version = Some(Builtin::Rfc3986.version());
    let reference = match UriRef::parse(input) {
        Ok(r) => r,
        Err(e) => return Answer::failed(version, e.to_string()),
    };
    let owned;
    let uri: &UriRef<&str> = match base {
        None => &reference,
        Some(base) => {
            let base = match Uri::parse(base) {
                Ok(b) => b,
                Err(e) => return Answer::failed(version, format!("the base is not a URI: {e}")),
            };
            match reference.resolve_against(&base) {
                Ok(resolved) => {
                    owned = resolved;
                    return rfc3986_answer(version, UriRef::from(owned.borrow()));
                }
                Err(e) => return Answer::failed(version, e.to_string()),
            }
        }
    };
    rfc3986_answer(version, *uri)
}

fn rfc3986_answer(version: Option<String>, uri: fluent_uri::UriRef<&str>) -> Answer {
    let authority = uri.authority();
    let (username, password) = match authority.and_then(|a| a.userinfo()) {
        None => (None, None),
        Some(userinfo) => match userinfo.as_str().split_once(':') {
            Some((u, p)) => (some(u), some(p)),
            None => (some(userinfo.as_str()), None),
        },
    };
    Answer {
        available: true,
        version,
        failure: false,
        error: None,
        scheme: uri.scheme().map(|s| s.as_str().to_owned()),
        username,
        password,
        host: authority.map(|a| a.host().to_owned()),
        port: authority
            .and_then(|a| a.port())
            .map(|p| p.as_str().to_owned()),
        path: some(uri.path().as_str()),
        query: uri.query().map(|q| q.as_str().to_owned()),
        fragment: uri.fragment().map(|f| f.as_str().to_owned()),
    }
}

/// The `http` crate: `Uri::host()`. It has no userinfo or fragment accessors, so those are null.
fn http(input: &str, base: Option<&str>) -> Answer {
    let version = Some(HTTP_VERSION.to_owned());
    if base.is_some() {
        // Not a failure to parse: there is no reading to compare.
        return Answer {
            version,
            ..Answer::unavailable(
                "the http crate's Uri does not resolve a reference against a base",
            )
        };
    }
    let uri = match http::Uri::from_str(input) {
        Ok(uri) => uri,
        Err(e) => return Answer::failed(version, e.to_string()),
    };
    Answer {
        available: true,
        version,
        failure: false,
        error: None,
        scheme: uri.scheme_str().map(str::to_owned),
        username: None,
        password: None,
        host: uri.host().map(str::to_owned),
        port: uri.port().map(|p| p.as_str().to_owned()),
        path: some(uri.path()),
        query: uri.query().map(str::to_owned),
        fragment: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whatwg_host_is_the_record_host() {
        for input in [
            "http://example.com/",
            "web+demo:/.//not-a-host/",
            "web+demo://h/",
            "web+demo:///x",
            "file:///etc/hosts",
            "javascript:alert(1)",
            "http://[::1]:8080/",
        ] {
            let url = crate::Url::parse(input, None).expect("parses");
            let record = url.record().host.as_ref().map(ToString::to_string);
            assert_eq!(
                Builtin::Whatwg.read(input, None).host,
                record,
                "input {input:?}"
            );
        }
        assert_eq!(Builtin::Whatwg.read("javascript:alert(1)", None).host, None);
        assert_eq!(
            Builtin::Whatwg.read("file:///etc/hosts", None).host,
            Some(String::new())
        );
        assert_eq!(
            Builtin::Whatwg
                .read("/x", Some("http://h/"))
                .host
                .as_deref(),
            Some("h")
        );
    }

    #[test]
    fn the_reported_crate_versions_are_the_linked_ones() {
        let lock = include_str!("../../Cargo.lock");
        for (name, version) in [
            ("url", RUST_URL_VERSION),
            ("fluent-uri", FLUENT_URI_VERSION),
            ("http", HTTP_VERSION),
        ] {
            let entry = format!("name = \"{name}\"\nversion = \"{version}\"");
            assert!(
                lock.contains(&entry),
                "Cargo.lock has no {name} {version}: update the constant"
            );
        }
    }
}
