//! The standard's second definition of validity: the grammar of URL writing (URL Standard:
//! 4.3 URL writing) and host writing (3.4 Host writing), recognised on the input as typed.
//!
//! The parser's validation errors say what the parser tolerated; this says whether the input is
//! a *valid URL string*. The two are separate definitions, which is why both are shown. A
//! relative-URL-with-fragment string is valid only relative to a base URL ("A non-null base URL
//! is necessary when parsing a relative-URL-with-fragment string", and the relative-URL string
//! productions switch on the base's scheme), so without a base only an
//! absolute-URL-with-fragment string is valid, as the reference implementation reads it.
//!
//! The recogniser is a recursive descent over code points that follows the productions' prose.
//! When the input is not valid it reports the furthest point any production reached, the
//! productions it was in (outermost first) and what was expected there.

use serde::Serialize;
use std::borrow::Cow;

use crate::url::api::Url;
use crate::url::code_points::{
    is_forbidden_domain_code_point, is_forbidden_host_code_point, is_url_code_point,
};
use crate::url::host::{domain_parser, ends_in_a_number};
use crate::url::record::is_special_scheme;

/// Whether the input is a valid URL string, and if not, where and why the grammar stops.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Writing {
    pub valid: bool,
    /// The productions, outermost first: those the input matched when valid, else those the
    /// recogniser was in where it could not continue.
    pub production_path: Vec<&'static str>,
    /// Code point offset in the input where the grammar cannot continue.
    pub position: Option<usize>,
    /// What the grammar needed there.
    pub expected: Option<String>,
}

/// What the grammar needs to know of the base URL (the relative-URL productions switch on it).
#[derive(Clone, Copy, Debug)]
struct BaseKind {
    special_not_file: bool,
    file: bool,
    opaque_path: bool,
}

struct Failure {
    position: usize,
    path: Vec<&'static str>,
    expected: String,
}

/// The input as the recogniser reads it: by code point offset, as the grammar counts. An ASCII
/// input (nearly every one) is read as its bytes, and its text between two offsets is a slice
/// of it; any other is decoded into code points first.
enum Points<'a> {
    Ascii(&'a [u8]),
    Decoded(Vec<char>),
}

impl<'a> Points<'a> {
    fn new(input: &'a str) -> Points<'a> {
        if input.is_ascii() {
            Points::Ascii(input.as_bytes())
        } else {
            Points::Decoded(input.chars().collect())
        }
    }

    #[inline]
    fn at(&self, i: usize) -> Option<char> {
        match self {
            Points::Ascii(bytes) => bytes.get(i).map(|&b| char::from(b)),
            Points::Decoded(chars) => chars.get(i).copied(),
        }
    }

    /// The code points from `start` to `end`.
    fn text(&self, start: usize, end: usize) -> Cow<'a, str> {
        match *self {
            // ASCII bytes are UTF-8 as they are.
            Points::Ascii(bytes) => String::from_utf8_lossy(&bytes[start..end]),
            Points::Decoded(ref chars) => Cow::Owned(chars[start..end].iter().collect()),
        }
    }
}

struct Recogniser<'a> {
    input: Points<'a>,
    /// `None` without a base URL: then no relative-URL string is valid.
    base: Option<BaseKind>,
    path: Vec<&'static str>,
    /// Every production that matched, in the order they were entered.
    matched: Vec<(usize, &'static str)>,
    entered: usize,
    furthest: Option<Failure>,
}

/// What a production returns, and whether that is a match.
trait Matched {
    fn matched(&self) -> bool;
}

impl Matched for bool {
    fn matched(&self) -> bool {
        *self
    }
}

impl<T> Matched for Option<T> {
    fn matched(&self) -> bool {
        self.is_some()
    }
}

impl Matched for usize {
    fn matched(&self) -> bool {
        true
    }
}

/// Recognises `input` as a valid URL string, against `base` for the relative forms (pass `None`
/// for a base that failed to parse too).
pub fn check(input: &str, base: Option<&Url>) -> Writing {
    let base = base.map(|b| BaseKind {
        special_not_file: b.scheme() != "file" && is_special_scheme(b.scheme()),
        file: b.scheme() == "file",
        opaque_path: b.record().has_opaque_path(),
    });
    let mut r = Recogniser {
        input: Points::new(input),
        base,
        // Room for the productions of a typical URL, so that the recogniser does not grow them.
        path: Vec::with_capacity(16),
        matched: Vec::with_capacity(32),
        entered: 0,
        furthest: None,
    };
    if r.valid_url_string() {
        r.matched.sort_by_key(|&(order, _)| order);
        let mut production_path: Vec<&'static str> = Vec::with_capacity(r.matched.len());
        for (_, name) in r.matched {
            if !production_path.contains(&name) {
                production_path.push(name);
            }
        }
        Writing {
            valid: true,
            production_path,
            position: None,
            expected: None,
        }
    } else {
        let failure = r.furthest.unwrap_or(Failure {
            position: 0,
            path: vec!["valid URL string"],
            expected: "a URL".to_owned(),
        });
        Writing {
            valid: false,
            production_path: failure.path,
            position: Some(failure.position),
            expected: Some(failure.expected),
        }
    }
}

/// "U+0020 (space)" and the like, for messages.
fn describe(c: char) -> String {
    if c.is_ascii_graphic() {
        format!("U+{:04X} ({c})", u32::from(c))
    } else {
        format!("U+{:04X}", u32::from(c))
    }
}

fn is_ascii_hex(c: char) -> bool {
    c.is_ascii_hexdigit()
}

impl Recogniser<'_> {
    fn at(&self, i: usize) -> Option<char> {
        self.input.at(i)
    }

    fn starts_with(&self, i: usize, s: &str) -> bool {
        s.chars()
            .enumerate()
            .all(|(k, c)| self.at(i + k) == Some(c))
    }

    /// Runs `body` inside production `name` (for the path of a failure, and the productions
    /// matched).
    fn within<T: Matched>(&mut self, name: &'static str, body: impl FnOnce(&mut Self) -> T) -> T {
        let order = self.entered;
        self.entered += 1;
        self.path.push(name);
        let result = body(self);
        self.path.pop();
        if result.matched() {
            self.matched.push((order, name));
        }
        result
    }

    /// Records that the grammar cannot continue at `position`. The furthest point is reported,
    /// and at the same point the deepest production (the one that knows what it wanted).
    fn fail(&mut self, position: usize, expected: impl Into<String>) {
        if self.furthest.as_ref().is_none_or(|f| {
            position > f.position || (position == f.position && self.path.len() >= f.path.len())
        }) {
            self.furthest = Some(Failure {
                position,
                path: self.path.clone(),
                expected: expected.into(),
            });
        }
    }

    /// URL Standard: URL units: a URL code point, or a percent-encoded byte. Returns its length.
    fn url_unit(&self, i: usize) -> Option<usize> {
        let c = self.at(i)?;
        if c == '%' {
            return (self.at(i + 1).is_some_and(is_ascii_hex)
                && self.at(i + 2).is_some_and(is_ascii_hex))
            .then_some(3);
        }
        is_url_code_point(c).then_some(1)
    }

    /// Zero or more URL units, none of them in `excluded`; returns where they end. Stopping on
    /// something that is no URL unit at all records why.
    fn url_units(&mut self, mut i: usize, excluded: &[char], what: &str) -> usize {
        while let Some(c) = self.at(i) {
            if excluded.contains(&c) {
                break;
            }
            match self.url_unit(i) {
                Some(n) => i += n,
                None => {
                    let why = if c == '%' {
                        "\"%\" followed by two ASCII hex digits (a percent-encoded byte)".to_owned()
                    } else {
                        format!("{what}: {} is not a URL code point", describe(c))
                    };
                    self.fail(i, why);
                    break;
                }
            }
        }
        i
    }

    /// The end of the input, or a failure saying what was there instead.
    fn end(&mut self, i: usize, after: &str) -> bool {
        match self.at(i) {
            None => true,
            Some(c) => {
                self.fail(
                    i,
                    format!(
                        "the end of the input after the {after}, not {}",
                        describe(c)
                    ),
                );
                false
            }
        }
    }

    /// URL Standard: valid URL string.
    fn valid_url_string(&mut self) -> bool {
        self.within("valid URL string", |r| {
            if r.scheme(0).is_some_and(|end| r.at(end) == Some(':')) {
                r.absolute_url_with_fragment()
            } else if let Some(base) = r.base {
                r.relative_url_with_fragment(base)
            } else {
                // Only an absolute URL can be valid: it stops where the scheme needs its ":".
                let at = r.scheme(0).unwrap_or(0);
                let needed = if at == 0 {
                    "a URL-scheme string"
                } else {
                    "\":\" after the URL-scheme string"
                };
                r.within("absolute-URL-with-fragment string", |r| {
                    r.fail(
                        at,
                        format!(
                            "{needed}: without a base URL, a relative-URL string is not a valid \
                             URL string"
                        ),
                    );
                    false
                })
            }
        })
    }

    /// URL Standard: URL-scheme string. Returns its end.
    fn scheme(&self, i: usize) -> Option<usize> {
        if !self.at(i)?.is_ascii_alphabetic() {
            return None;
        }
        let mut end = i + 1;
        while self
            .at(end)
            .is_some_and(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
        {
            end += 1;
        }
        Some(end)
    }

    /// Optional "?" query, optional "#" fragment, then the end of the input.
    fn query_fragment_end(&mut self, mut i: usize, after: &str) -> bool {
        if self.at(i) == Some('?') {
            i = self.within("URL-query string", |r| r.url_units(i + 1, &['#'], "query"));
        }
        self.fragment_end(i, after)
    }

    fn fragment_end(&mut self, mut i: usize, after: &str) -> bool {
        if self.at(i) == Some('#') {
            i = self.within("URL-fragment string", |r| {
                r.url_units(i + 1, &[], "fragment")
            });
            return self.end(i, "fragment");
        }
        self.end(i, after)
    }

    /// URL Standard: absolute-URL-with-fragment string (and absolute-URL string within it).
    fn absolute_url_with_fragment(&mut self) -> bool {
        self.within("absolute-URL-with-fragment string", |r| {
            r.within("absolute-URL string", |r| {
                let colon = r.within("URL-scheme string", |r| r.scheme(0)).unwrap_or(0);
                let scheme = r.input.text(0, colon).to_ascii_lowercase();
                let rest = colon + 1;
                let (name, end) = if scheme == "file" {
                    (
                        "scheme-relative-file-URL string",
                        r.scheme_relative_file(rest),
                    )
                } else if is_special_scheme(&scheme) {
                    (
                        "scheme-relative-special-URL string",
                        r.scheme_relative_special(rest),
                    )
                } else if r.starts_with(rest, "//") {
                    ("scheme-relative-URL string", r.scheme_relative(rest))
                } else if r.at(rest) == Some('/') {
                    (
                        "path-absolute-non-authority-URL string",
                        r.within("path-absolute-non-authority-URL string", |r| {
                            r.path_absolute(rest)
                        }),
                    )
                } else {
                    ("opaque-path-URL string", r.opaque_path(rest))
                };
                let Some(end) = end else { return false };
                r.query_fragment_end(end, name)
            })
        })
    }

    /// URL Standard: relative-URL-with-fragment string (and relative-URL string within it).
    fn relative_url_with_fragment(&mut self, base: BaseKind) -> bool {
        self.within("relative-URL-with-fragment string", |r| {
            if base.opaque_path {
                // Against a base with an opaque path only a fragment can be written.
                if r.at(0) != Some('#') {
                    r.fail(
                        0,
                        "\"#\": the base URL has an opaque path, so only a fragment",
                    );
                    return false;
                }
                return r.fragment_end(0, "fragment");
            }
            r.within("relative-URL string", |r| {
                let (name, end) = if r.starts_with(0, "//") {
                    if base.special_not_file {
                        (
                            "scheme-relative-special-URL string",
                            r.scheme_relative_special(0),
                        )
                    } else if base.file {
                        ("scheme-relative-file-URL string", r.scheme_relative_file(0))
                    } else {
                        ("scheme-relative-URL string", r.scheme_relative(0))
                    }
                } else if r.at(0) == Some('/') {
                    (
                        "path-absolute-non-authority-URL string",
                        r.within("path-absolute-non-authority-URL string", |r| {
                            r.path_absolute(0)
                        }),
                    )
                } else {
                    (
                        "path-relative-scheme-less-URL string",
                        r.path_relative_scheme_less(0),
                    )
                };
                let Some(end) = end else { return false };
                r.query_fragment_end(end, name)
            })
        })
    }

    /// A username or password cannot be written (URL Standard: the note closing URL writing).
    /// Where the grammar stops in an authority that goes on to an "@" (before "/", "?" or "#"),
    /// the input tries to write one: the failure says so. The "@" is not where it stops unless
    /// everything before it can begin a valid URL string: `http://example.com\@evil.com/`
    /// stops at the `\` (no valid host holds it), `https://user:pass@h/` at the `p` (a
    /// URL-port string is digits).
    fn credentials_note(&self, authority: usize, failed: usize) -> &'static str {
        let mut i = authority;
        while let Some(c) = self.at(i) {
            match c {
                '/' | '?' | '#' => break,
                '@' if i >= failed => {
                    return "; the \"@\" further on ends a username or password, which a valid \
                            URL string cannot hold"
                }
                _ => i += 1,
            }
        }
        ""
    }

    /// The furthest failure, when it lies in the authority starting at `authority` before an
    /// "@": its expectation gets the credentials note.
    fn note_credentials(&mut self, authority: usize) {
        let Some(failed) = self.furthest.as_ref().map(|f| f.position) else {
            return;
        };
        if failed < authority {
            return;
        }
        let note = self.credentials_note(authority, failed);
        if let Some(f) = self.furthest.as_mut() {
            if !note.is_empty() && !f.expected.contains("username or password") {
                f.expected.push_str(note);
            }
        }
    }

    /// The host, as far as the grammar delimits it: up to ":", "/", "?", "#" or the end; an
    /// IPv6 address up to its "]".
    fn host_end(&self, i: usize) -> usize {
        let mut end = i;
        if self.at(i) == Some('[') {
            while let Some(c) = self.at(end) {
                end += 1;
                if c == ']' {
                    return end;
                }
            }
            return end;
        }
        while self
            .at(end)
            .is_some_and(|c| !matches!(c, ':' | '/' | '?' | '#'))
        {
            end += 1;
        }
        end
    }

    /// URL Standard: scheme-relative-special-URL string.
    fn scheme_relative_special(&mut self, i: usize) -> Option<usize> {
        self.within("scheme-relative-special-URL string", |r| {
            if !r.starts_with(i, "//") {
                r.fail(i, "\"//\" after a special scheme");
                return None;
            }
            let host_start = i + 2;
            let host_end = r.host_end(host_start);
            if !r.valid_host_string(host_start, host_end) {
                r.note_credentials(host_start);
                return None;
            }
            let mut end = host_end;
            if r.at(end) == Some(':') {
                let Some(port_end) = r.port(end + 1) else {
                    r.note_credentials(host_start);
                    return None;
                };
                end = port_end;
            }
            if r.at(end) == Some('/') {
                end = r.path_absolute(end)?;
            }
            Some(end)
        })
    }

    /// URL Standard: URL-port string: empty, or digits for a 16-bit unsigned integer.
    fn port(&mut self, i: usize) -> Option<usize> {
        self.within("URL-port string", |r| {
            let mut end = i;
            let mut value: u32 = 0;
            while let Some(d) = r.at(end).and_then(|c| c.to_digit(10)) {
                value = (value * 10 + d).min(1 << 20);
                end += 1;
            }
            if value > u32::from(u16::MAX) {
                r.fail(i, "a port from 0 to 65535");
                return None;
            }
            match r.at(end) {
                None | Some('/' | '?' | '#') => Some(end),
                Some(c) => {
                    r.fail(end, format!("an ASCII digit, not {}", describe(c)));
                    None
                }
            }
        })
    }

    /// URL Standard: scheme-relative-URL string, with its opaque-host-and-port string.
    fn scheme_relative(&mut self, i: usize) -> Option<usize> {
        self.within("scheme-relative-URL string", |r| {
            let host_start = i + 2;
            let host_end = r.host_end(host_start);
            let mut end = host_end;
            if host_end > host_start {
                let host = r.within("opaque-host-and-port string", |r| {
                    r.valid_opaque_host(host_start, host_end)
                });
                if host.is_none() {
                    r.note_credentials(host_start);
                    return None;
                }
                if r.at(end) == Some(':') {
                    let port = r.within("opaque-host-and-port string", |r| r.port(end + 1));
                    let Some(port_end) = port else {
                        r.note_credentials(host_start);
                        return None;
                    };
                    end = port_end;
                }
            } else if r.at(end) == Some(':') {
                r.fail(end, "a host before the port");
                return None;
            }
            if r.at(end) == Some('/') {
                end = r.path_absolute(end)?;
            }
            Some(end)
        })
    }

    /// URL Standard: scheme-relative-file-URL string.
    fn scheme_relative_file(&mut self, i: usize) -> Option<usize> {
        self.within("scheme-relative-file-URL string", |r| {
            if !r.starts_with(i, "//") {
                r.fail(i, "\"//\" after \"file:\"");
                return None;
            }
            let host_start = i + 2;
            let host_end = r.host_end(host_start);
            if host_end > host_start && !r.valid_host_string(host_start, host_end) {
                r.note_credentials(host_start);
                return None;
            }
            let mut end = host_end;
            match r.at(end) {
                Some('/') => end = r.path_absolute(end)?,
                Some(':') => {
                    r.fail(
                        end,
                        "\"/\", \"?\", \"#\" or the end: a file URL has no port",
                    );
                    return None;
                }
                _ => {}
            }
            Some(end)
        })
    }

    /// URL Standard: path-absolute-URL string: "/" and URL-path-segment strings.
    fn path_absolute(&mut self, i: usize) -> Option<usize> {
        self.within("path-absolute-URL string", |r| {
            Some(r.more_path_segments(i))
        })
    }

    /// URL Standard: URL-path-segment string; "#" ends it too, since it starts the
    /// URL-fragment string.
    fn path_segment(&mut self, i: usize) -> usize {
        self.within("URL-path-segment string", |r| {
            r.url_units(i, &['/', '?', '#'], "path segment")
        })
    }

    /// The URL-path-segment strings "separated from each other by U+002F (/)" that follow the
    /// one ending at `end`.
    fn more_path_segments(&mut self, mut end: usize) -> usize {
        while self.at(end) == Some('/') {
            end = self.path_segment(end + 1);
        }
        end
    }

    /// URL Standard: path-relative-scheme-less-URL string.
    fn path_relative_scheme_less(&mut self, i: usize) -> Option<usize> {
        self.within("path-relative-scheme-less-URL string", |r| {
            if r.scheme(i).is_some_and(|end| r.at(end) == Some(':')) {
                r.fail(i, "no URL-scheme string followed by \":\" at the start");
                return None;
            }
            r.within("path-relative-URL string", |r| {
                let end = r.path_segment(i);
                Some(r.more_path_segments(end))
            })
        })
    }

    /// URL Standard: opaque-path-URL string: URL units but "?", not starting with "/".
    fn opaque_path(&mut self, i: usize) -> Option<usize> {
        self.within("opaque-path-URL string", |r| {
            Some(r.url_units(i, &['?', '#'], "opaque path"))
        })
    }

    /// URL Standard: valid host string.
    fn valid_host_string(&mut self, start: usize, end: usize) -> bool {
        self.within("valid host string", |r| {
            let host = r.input.text(start, end);
            if host.is_empty() {
                r.fail(start, "a host");
                return false;
            }
            if let Some(inner) = host.strip_prefix('[') {
                return r.within("valid IPv6-address string", |r| {
                    match inner.strip_suffix(']') {
                        Some(address) if is_valid_ipv6(address) => true,
                        _ => {
                            r.fail(start + 1, "a valid IPv6 address (RFC 5952 form: no leading zeros) between \"[\" and \"]\"");
                            false
                        }
                    }
                });
            }
            if is_valid_ipv4(&host) {
                return true;
            }
            r.within("valid domain string", |r| {
                if is_valid_domain(&host) {
                    return true;
                }
                // A forbidden domain code point is in no valid domain (the domain to ASCII
                // check fails on it): the grammar stops there when what comes before it is a
                // valid host, which a valid URL string can go on from (`example.com` of
                // `example.com\@evil.com`). Otherwise the host as a whole is not valid.
                if let Some((k, c)) = host
                    .chars()
                    .enumerate()
                    .find(|(_, c)| is_forbidden_domain_code_point(*c))
                {
                    let before: String = host.chars().take(k).collect();
                    if is_valid_domain(&before) || is_valid_ipv4(&before) {
                        let why = if c == '@' {
                            "no \"@\": a valid URL string cannot hold a username or password"
                                .to_owned()
                        } else {
                            format!(
                                "no {} in a host: it is a forbidden domain code point, in no \
                                 valid domain",
                                describe(c)
                            )
                        };
                        r.fail(start + k, why);
                        return false;
                    }
                }
                let why = if ends_in_a_number(&host) {
                    "a valid domain or a valid IPv4 address (four decimal numbers 0 to 255 without leading zeros)"
                } else {
                    "a valid domain (one the domain parser accepts with beStrict true, not ending in a number)"
                };
                r.fail(start, why);
                false
            })
        })
    }

    /// URL Standard: valid opaque-host string.
    fn valid_opaque_host(&mut self, start: usize, end: usize) -> Option<()> {
        self.within("valid opaque-host string", |r| {
            if r.at(start) == Some('[') {
                let inner = r.input.text(start + 1, end);
                return match inner.strip_suffix(']') {
                    Some(address) if is_valid_ipv6(address) => Some(()),
                    _ => {
                        r.fail(start + 1, "a valid IPv6 address between \"[\" and \"]\"");
                        None
                    }
                };
            }
            let mut i = start;
            while let Some(c) = r.at(i).filter(|_| i < end) {
                if c == '@' {
                    r.fail(
                        i,
                        "no \"@\": a valid URL string cannot hold a username or password",
                    );
                    return None;
                }
                if is_forbidden_host_code_point(c) {
                    r.fail(i, format!("{} is a forbidden host code point", describe(c)));
                    return None;
                }
                match r.url_unit(i) {
                    Some(n) => i += n,
                    None => {
                        r.fail(i, format!("host: {} is not a URL unit", describe(c)));
                        return None;
                    }
                }
            }
            Some(())
        })
    }
}

/// The shape of a production, for drawing it as a railroad diagram: terminals, productions
/// (by the standard's name, with a short label), sequences, optional parts, repetitions and
/// alternatives, as the prose of URL writing describes them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Rail {
    Term(&'static str),
    Production {
        name: &'static str,
        label: &'static str,
    },
    Seq(Vec<Rail>),
    Optional(Box<Rail>),
    /// One or more times.
    Repeat(Box<Rail>),
    Choice(Vec<Rail>),
}

fn prod(name: &'static str, label: &'static str) -> Rail {
    Rail::Production { name, label }
}

fn optional(rail: Rail) -> Rail {
    Rail::Optional(Box::new(rail))
}

fn query_and_fragment() -> [Rail; 2] {
    [
        optional(Rail::Seq(vec![
            Rail::Term("?"),
            prod("URL-query string", "query"),
        ])),
        optional(Rail::Seq(vec![
            Rail::Term("#"),
            prod("URL-fragment string", "fragment"),
        ])),
    ]
}

fn path_absolute() -> Rail {
    prod("path-absolute-URL string", "/path")
}

/// The diagram of `production`, for the productions the Grammar pane draws.
pub fn diagram(production: &str) -> Option<Rail> {
    let [query, fragment] = query_and_fragment();
    Some(match production {
        "valid URL string" => Rail::Choice(vec![
            prod("absolute-URL-with-fragment string", "absolute URL"),
            prod("relative-URL-with-fragment string", "relative URL"),
        ]),
        "absolute-URL-with-fragment string" | "absolute-URL string" => Rail::Seq(vec![
            prod("URL-scheme string", "scheme"),
            Rail::Term(":"),
            Rail::Choice(vec![
                prod("scheme-relative-special-URL string", "//host:port/path"),
                prod("scheme-relative-file-URL string", "//host/path (file)"),
                prod("scheme-relative-URL string", "//opaque-host:port/path"),
                prod("path-absolute-non-authority-URL string", "/path"),
                prod("opaque-path-URL string", "opaque path"),
            ]),
            query,
            fragment,
        ]),
        "relative-URL-with-fragment string" | "relative-URL string" => Rail::Seq(vec![
            Rail::Choice(vec![
                prod("path-relative-scheme-less-URL string", "path"),
                prod("path-absolute-non-authority-URL string", "/path"),
                prod("scheme-relative-special-URL string", "//host:port/path"),
                prod("scheme-relative-file-URL string", "//host/path (file)"),
                prod("scheme-relative-URL string", "//opaque-host:port/path"),
            ]),
            query,
            fragment,
        ]),
        "scheme-relative-special-URL string" => Rail::Seq(vec![
            Rail::Term("//"),
            prod("valid host string", "host"),
            optional(Rail::Seq(vec![
                Rail::Term(":"),
                prod("URL-port string", "port"),
            ])),
            optional(path_absolute()),
        ]),
        "scheme-relative-URL string" => Rail::Seq(vec![
            Rail::Term("//"),
            optional(Rail::Seq(vec![
                prod("valid opaque-host string", "opaque host"),
                optional(Rail::Seq(vec![
                    Rail::Term(":"),
                    prod("URL-port string", "port"),
                ])),
            ])),
            optional(path_absolute()),
        ]),
        "scheme-relative-file-URL string" => Rail::Seq(vec![
            Rail::Term("//"),
            optional(Rail::Choice(vec![
                Rail::Seq(vec![
                    prod("valid host string", "host"),
                    optional(path_absolute()),
                ]),
                path_absolute(),
            ])),
        ]),
        "path-absolute-URL string" | "path-absolute-non-authority-URL string" => {
            Rail::Repeat(Box::new(Rail::Seq(vec![
                Rail::Term("/"),
                prod("URL-path-segment string", "segment"),
            ])))
        }
        "path-relative-scheme-less-URL string" | "path-relative-URL string" => Rail::Seq(vec![
            prod("URL-path-segment string", "segment"),
            optional(Rail::Repeat(Box::new(Rail::Seq(vec![
                Rail::Term("/"),
                prod("URL-path-segment string", "segment"),
            ])))),
        ]),
        "opaque-path-URL string" => Rail::Repeat(Box::new(prod("URL units", "URL unit but ?"))),
        _ => return None,
    })
}

/// URL Standard: valid domain: the domain parser with beStrict true succeeds and the result
/// does not end in a number.
pub fn is_valid_domain(input: &str) -> bool {
    // The string itself goes to the domain parser: percent-decoding is the host parser's step
    // (host parsing, step 5), not part of valid domain, so a percent-encoded domain is not a
    // valid domain string (with beStrict, UseSTD3ASCIIRules rejects "%").
    domain_parser(input, true).is_some_and(|ascii| !ends_in_a_number(&ascii))
}

/// URL Standard: valid IPv4-address string: four shortest decimal numbers 0 to 255.
pub fn is_valid_ipv4(s: &str) -> bool {
    let mut parts = 0;
    s.split('.').all(|p| {
        parts += 1;
        parts <= 4 && is_shortest_number(p, 10, 255)
    }) && parts == 4
}

/// A shortest possible string of digits of `radix` for a number up to `max`.
fn is_shortest_number(s: &str, radix: u32, max: u32) -> bool {
    !s.is_empty()
        && s.len() <= 5
        && s.chars().all(|c| c.is_digit(radix))
        && !(s.len() > 1 && s.starts_with('0'))
        && u32::from_str_radix(s, radix).is_ok_and(|v| v <= max)
}

/// URL Standard: valid IPv6-pieces string: its effective piece length, if valid.
fn pieces(s: &str) -> Option<usize> {
    let mut parts = 0;
    s.split(':')
        .all(|p| {
            parts += 1;
            is_shortest_number(p, 16, 0xFFFF)
        })
        .then_some(parts)
}

/// URL Standard: valid IPv6-pieces-and-IPv4 string: its effective piece length, if valid.
fn pieces_and_ipv4(s: &str) -> Option<usize> {
    match s.rsplit_once(':') {
        Some((p, v4)) => Some(pieces(p)? + 2).filter(|_| is_valid_ipv4(v4)),
        None => is_valid_ipv4(s).then_some(2),
    }
}

/// URL Standard: valid IPv6-address string.
pub fn is_valid_ipv6(s: &str) -> bool {
    match s.split_once("::") {
        None => pieces(s) == Some(8) || pieces_and_ipv4(s) == Some(8),
        Some((before, after)) => {
            let before = if before.is_empty() {
                Some(0)
            } else {
                pieces(before)
            };
            let after = if after.is_empty() {
                Some(0)
            } else {
                pieces(after).or_else(|| pieces_and_ipv4(after))
            };
            matches!((before, after), (Some(b), Some(a)) if b + a <= 7)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn valid(input: &str, base: Option<&str>) -> Writing {
        let base = base.map(|b| Url::parse(b, None).expect("base parses"));
        check(input, base.as_ref())
    }

    fn assert_valid(input: &str, base: Option<&str>, production: &str) {
        let w = valid(input, base);
        assert!(w.valid, "{input:?} should be valid: {w:?}");
        assert!(
            w.production_path.contains(&production),
            "{input:?} should match {production}: {:?}",
            w.production_path
        );
    }

    fn assert_invalid(input: &str, base: Option<&str>, at: usize, production: &str) {
        let w = valid(input, base);
        assert!(!w.valid, "{input:?} should be invalid");
        assert_eq!(w.position, Some(at), "{input:?}: {w:?}");
        assert!(
            w.production_path.contains(&production),
            "{input:?} should stop in {production}: {w:?}"
        );
    }

    #[test]
    fn absolute_urls_of_each_kind() {
        assert_valid(
            "https://example.com/a?b#c",
            None,
            "scheme-relative-special-URL string",
        );
        assert_valid(
            "https://example.com:/",
            None,
            "scheme-relative-special-URL string",
        );
        assert_valid(
            "HTTPS://EXAMPLE.COM",
            None,
            "scheme-relative-special-URL string",
        );
        assert_valid("file:///C:/x", None, "scheme-relative-file-URL string");
        assert_valid("file://", None, "scheme-relative-file-URL string");
        assert_valid(
            "file://localhost/x",
            None,
            "scheme-relative-file-URL string",
        );
        assert_valid("sc://h:1/p", None, "scheme-relative-URL string");
        assert_valid("sc://", None, "scheme-relative-URL string");
        assert_valid("sc:/p/q", None, "path-absolute-non-authority-URL string");
        assert_valid("mailto:a@example.com", None, "opaque-path-URL string");
        assert_valid("sc:", None, "opaque-path-URL string");
        assert_valid("https://münchen.de/", None, "valid domain string");
    }

    #[test]
    fn valid_domains_are_what_the_strict_domain_parser_accepts_as_written() {
        assert!(is_valid_domain("example.com") && is_valid_domain("EXAMPLE.com"));
        assert!(is_valid_domain("münchen.de") && is_valid_domain("xn--mnchen-3ya.de"));
        // Not percent-decoded first: that is the host parser's step, not valid domain's.
        assert!(!is_valid_domain("ex%61mple.com"));
        assert!(!is_valid_domain("%e2%98%83"));
        assert!(!is_valid_domain(""));
        assert!(!is_valid_domain("a..b") && !is_valid_domain("-a.com"));
        assert!(!is_valid_domain("ex_ample.com"));
        // Ends in a number.
        assert!(!is_valid_domain("a.1") && !is_valid_domain("a.0x1"));
        assert!(is_valid_domain("a.1b"));
        // "https://ex" begins a valid URL string; no valid domain holds "%".
        assert_invalid("https://ex%61mple.com/", None, 10, "valid domain string");
    }

    #[test]
    fn schemes_ports_and_hosts_that_are_not_valid() {
        assert_invalid(
            "https:example.com",
            None,
            6,
            "scheme-relative-special-URL string",
        );
        assert_invalid(
            "https://user@h/",
            None,
            12,
            "scheme-relative-special-URL string",
        );
        // "https://u:" (an empty port) begins a valid URL string: the "p" is no digit.
        assert_invalid("https://u:p@h/", None, 10, "URL-port string");
        assert_invalid("sc://u@h/", None, 6, "scheme-relative-URL string");
        assert_invalid("https://exa mple.com/", None, 11, "valid domain string");
        assert_invalid("https://xn--a.com/", None, 8, "valid domain string");
        assert_invalid("https://1.2.3/", None, 8, "valid domain string");
        assert_invalid("https://h:65536/", None, 10, "URL-port string");
        assert_invalid("https://h:8a/", None, 11, "URL-port string");
        assert_invalid("file://h:1/", None, 8, "scheme-relative-file-URL string");
        assert_invalid("sc://a b/", None, 6, "valid opaque-host string");
    }

    #[test]
    fn ip_addresses() {
        assert_valid("http://1.2.3.4/", None, "valid host string");
        assert_valid("http://[::1]/", None, "valid IPv6-address string");
        assert_valid(
            "http://[1:2:3:4:5:6:7:8]/",
            None,
            "valid IPv6-address string",
        );
        assert_valid(
            "http://[::ffff:1.2.3.4]/",
            None,
            "valid IPv6-address string",
        );
        assert_valid(
            "http://[1:2:3:4:5:6:1.2.3.4]/",
            None,
            "valid IPv6-address string",
        );
        assert!(is_valid_ipv6("1:2:3:4:5:6:7::"));
        assert!(is_valid_ipv6("::2:3:4:5:6:7:8"));
        assert!(!is_valid_ipv6("1:2:3:4:5:6:7:8::"));
        assert!(!is_valid_ipv6("1::2::3"));
        assert!(!is_valid_ipv6("0001::"));
        assert!(!is_valid_ipv6("1:2:3:4:5:6:7"));
        assert!(!is_valid_ipv6("::1.2.3.04"));
        assert!(!is_valid_ipv6("12345::"));
        assert!(is_valid_ipv4("0.0.0.0") && is_valid_ipv4("255.255.255.255"));
        assert!(!is_valid_ipv4("01.2.3.4") && !is_valid_ipv4("256.1.1.1"));
        assert!(!is_valid_ipv4("1.2.3") && !is_valid_ipv4("0x7f.0.0.1"));
        assert_invalid("http://[0001::1]/", None, 8, "valid IPv6-address string");
        assert_invalid("http://010.0.0.1/", None, 7, "valid domain string");
    }

    #[test]
    fn paths_queries_and_fragments() {
        assert_valid("https://h/a/./b/../%2e/c", None, "path-absolute-URL string");
        assert_invalid("https://h/a b", None, 11, "URL-path-segment string");
        assert_invalid("https://h/a\\b", None, 11, "URL-path-segment string");
        assert_invalid("https://h/%zz", None, 10, "URL-path-segment string");
        assert_invalid("https://h/?a b", None, 12, "URL-query string");
        assert_invalid("https://h/#a#b", None, 12, "URL-fragment string");
        assert_invalid("https://h/#a\u{7f}", None, 12, "URL-fragment string");
        assert_valid("https://h/?a?b#c/d?e", None, "URL-fragment string");
        assert_invalid("sc:a b", None, 4, "opaque-path-URL string");
        assert_invalid(" https://h/", None, 0, "absolute-URL-with-fragment string");
        assert_invalid(
            " https://h/",
            Some("https://b/"),
            0,
            "path-relative-URL string",
        );
    }

    #[test]
    fn relative_urls_switch_on_the_base() {
        assert_valid(
            "../a?b#c",
            Some("https://h/x/y"),
            "path-relative-scheme-less-URL string",
        );
        assert_valid(
            "/a",
            Some("https://h/"),
            "path-absolute-non-authority-URL string",
        );
        assert_valid(
            "//other.example/x",
            Some("https://h/"),
            "scheme-relative-special-URL string",
        );
        assert_valid(
            "//server/share",
            Some("file:///c:/"),
            "scheme-relative-file-URL string",
        );
        assert_valid("//h:1", Some("sc://x/"), "scheme-relative-URL string");
        assert_invalid("//a b/", Some("https://h/"), 3, "valid domain string");
        assert_valid("#f", Some("sc:opaque"), "URL-fragment string");
        assert_invalid(
            "x",
            Some("sc:opaque"),
            0,
            "relative-URL-with-fragment string",
        );
        // A relative-URL-with-fragment string is valid only relative to a base URL.
        for (relative, at) in [
            ("a/b", 1),
            ("", 0),
            ("#x", 0),
            ("/hello-world", 0),
            ("//h/", 0),
        ] {
            assert_invalid(relative, None, at, "absolute-URL-with-fragment string");
            assert!(valid(relative, Some("https://h/")).valid, "{relative:?}");
        }
    }

    /// Where the grammar stops is the first code point that no valid URL string can hold
    /// after what comes before it: the input up to there begins a valid URL string (each case
    /// gives one, checked valid), and the code point there is one the standard's productions
    /// exclude at that place (a forbidden domain code point in a host, not a digit in a
    /// URL-port string, "@" anywhere in an authority). An "@" further on is reported in words,
    /// not as the place: `http://example.com\@evil.com/` stopped at the "@" (19), where
    /// "http://example.com" is a valid URL string and no valid host holds "\" (18).
    #[test]
    fn it_stops_at_the_first_code_point_no_valid_url_string_holds() {
        let cases = [
            (
                "http://example.com\\@evil.com/",
                18,
                "/",
                "forbidden domain code point",
            ),
            (
                "https://evil.example\\@good.example/",
                20,
                "/",
                "forbidden domain code point",
            ),
            (
                "https://paypal.com@evil.example/",
                18,
                "/",
                "username or password",
            ),
            (
                "https://user:pa%20ss@EXAMPLE.com:443/",
                13,
                "/",
                "username or password",
            ),
            ("http://a b@c/", 8, "/", "forbidden domain code point"),
            (
                "https://ex%61mple.com/",
                10,
                "/",
                "forbidden domain code point",
            ),
            ("sc://u@h/", 6, "/", "username or password"),
            ("file://h\\x/", 8, "/", "forbidden domain code point"),
            ("https://h:8a/", 11, "/", "an ASCII digit"),
        ];
        for (input, at, completion, said) in cases {
            let w = valid(input, None);
            assert_eq!(w.position, Some(at), "{input:?}: {w:?}");
            let expected = w.expected.as_deref().unwrap_or_default();
            assert!(expected.contains(said), "{input:?}: {expected:?}");
            let prefix: String = input.chars().take(at).collect();
            let witness = format!("{prefix}{completion}");
            assert!(
                valid(&witness, None).valid,
                "{input:?}: {witness:?} should be a valid URL string beginning with {prefix:?}"
            );
        }
        // A host invalid before its forbidden code point stops at its start, as before.
        assert_eq!(valid("https://a..b\\x/", None).position, Some(8));
    }

    #[test]
    fn the_failure_says_what_was_expected() {
        let w = valid("https://h/a b", None);
        assert_eq!(
            w.expected.as_deref(),
            Some("path segment: U+0020 is not a URL code point")
        );
        assert_eq!(
            w.production_path,
            vec![
                "valid URL string",
                "absolute-URL-with-fragment string",
                "absolute-URL string",
                "scheme-relative-special-URL string",
                "path-absolute-URL string",
                "URL-path-segment string"
            ]
        );
    }
}
