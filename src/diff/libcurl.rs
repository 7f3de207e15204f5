//! libcurl's reading ([`super::Builtin::Curl`]), in-process through crates/curl-urlapi. libcurl is
//! C, so this module is built only with the `native` feature: the engine for the web has every
//! other built-in reading.

use super::Answer;

/// Whether `curl` is the libcurl bundled into urlscope (built by curl-sys when the system has
/// none it can link) rather than the system's.
pub const LIBCURL_BUNDLED: bool = curl_urlapi::BUNDLED;

/// libcurl's version, "(bundled)" after it for the bundled copy: a reading of the system's
/// libcurl and of the bundled one differ as two versions do.
pub(super) fn version() -> &'static str {
    static VERSION: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    VERSION.get_or_init(|| {
        let version = curl_urlapi::version();
        if LIBCURL_BUNDLED {
            format!("{version} (bundled)")
        } else {
            version
        }
    })
}

/// libcurl: `curl_url_set(CURLUPART_URL, input, CURLU_NON_SUPPORT_SCHEME)` and nothing else,
/// then each part with no flags. With a base, the base is set first and the input set on the
/// same handle, which resolves it the way libcurl follows a redirect.
pub(super) fn read(input: &str, base: Option<&str>) -> Answer {
    use curl_urlapi::{Part, Url, NON_SUPPORT_SCHEME};
    let version = Some(version().to_owned());
    let parsed = match base {
        None => Url::parse(input, NON_SUPPORT_SCHEME),
        Some(base) => Url::parse(base, NON_SUPPORT_SCHEME)
            .map_err(|e| curl_urlapi::Error {
                message: format!("the base is not a URL: {}", e.message),
                ..e
            })
            .and_then(|url| url.set(Part::Url, input, NON_SUPPORT_SCHEME).map(|()| url)),
    };
    let url = match parsed {
        Ok(url) => url,
        Err(e) => return Answer::failed(version, e.to_string()),
    };
    let mut errors = Vec::new();
    let mut get = |part: Part, name: &str| match url.get(part, 0) {
        Ok(value) => value,
        Err(e) => {
            errors.push(format!("{name}: {e}"));
            None
        }
    };
    let mut answer = Answer {
        available: true,
        version,
        failure: false,
        error: None,
        scheme: get(Part::Scheme, "scheme"),
        username: get(Part::User, "username"),
        password: get(Part::Password, "password"),
        host: get(Part::Host, "host"),
        port: get(Part::Port, "port"),
        path: get(Part::Path, "path"),
        query: get(Part::Query, "query"),
        fragment: get(Part::Fragment, "fragment"),
    };
    if !errors.is_empty() {
        answer.error = Some(errors.join("; "));
    }
    answer
}
