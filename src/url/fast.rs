//! A shortcut past the state machine for input that is already in the form the URL serializer
//! writes, which is nearly all URLs met in practice.
//!
//! The basic URL parser visits every code point; for input such as
//! `https://example.com/a/b?q=1#top` every visit copies the code point unchanged. When nobody
//! watches the parse (no tracer, no validation errors wanted), `parse` checks in one pass
//! over the bytes that the state machine would only copy, and if so builds the URL from the
//! input directly. Anything it is not sure of (non-ASCII, credentials, IP addresses, dot
//! segments, percent-encoding to do, default ports, Windows drive letters, relative
//! references) returns `None` and goes to the state machine. `hostname` goes further for a
//! caller that wants the hostname alone: it stops reading at the host's end, since nothing after
//! a special URL's host can make the parse fail or change the host. `tests/shortcut.rs` holds
//! the shortcut to the state machine's result on the web-platform-tests inputs, the benchmark
//! corpora, the peer suites' inputs and generated input.

use std::borrow::Cow;
use std::ops::Range;

use crate::url::host::{ends_in_a_number, is_strictly_valid_ascii_domain};
use crate::url::record::{
    is_special_scheme, special_scheme_default_port, HostKind, Offsets, Serialized,
};

/// The byte may stay as it is in a special URL's path segment: printable ASCII outside the path
/// percent-encode set, and not a delimiter ("/" ends the segment, and so does "\" in special
/// URLs).
const PATH: u8 = 1;
/// ... in a special URL's query: outside the special-query percent-encode set, not "#".
const QUERY: u8 = 2;
/// ... in a fragment: outside the fragment percent-encode set.
const FRAGMENT: u8 = 4;
/// ... a URL code point (URL Standard: URL code points); "%" and the fragment's "#" are
/// checked on their own.
const URL_UNIT: u8 = 16;
/// ... in an ASCII domain that the host parser returns as it is: not a forbidden domain code
/// point, not an ASCII upper alpha (see `scan_domain`).
const HOST: u8 = 8;
/// ... in a scheme after its first code point: an ASCII alphanumeric, "+", "-" or ".".
const SCHEME: u8 = 32;
/// ... in a run of a special URL's path that [`scan_rest`] skips without looking at its
/// segments: a path byte or "/", but not "." or "%", with which a dot segment starts.
const PATH_RUN: u8 = 64;

static CLASSES: [u8; 256] = classes();

const fn classes() -> [u8; 256] {
    let mut table = [0u8; 256];
    // C0 controls, space, DEL and non-ASCII are in every percent-encode set (URL Standard:
    // C0 control percent-encode set), so they never take the shortcut.
    let mut b = 0x21;
    while b < 0x7F {
        let c = b as u8;
        let mut class = 0;
        // URL Standard: path percent-encode set; "?" and "#" end the path, "/" the segment.
        if !matches!(
            c,
            b'"' | b'#' | b'<' | b'>' | b'?' | b'^' | b'`' | b'{' | b'}' | b'\\' | b'/'
        ) {
            class |= PATH;
        }
        // URL Standard: special-query percent-encode set; "#" ends the query.
        if !matches!(c, b'"' | b'#' | b'<' | b'>' | b'\'') {
            class |= QUERY;
        }
        // URL Standard: fragment percent-encode set.
        if !matches!(c, b'"' | b'<' | b'>' | b'`') {
            class |= FRAGMENT;
        }
        // URL Standard: forbidden domain code point (the rest of them: C0 controls, space and
        // DEL are left out above); domain parser step 5 lowercases ASCII upper alphas.
        if !matches!(
            c,
            b'#' | b'/'
                | b':'
                | b'<'
                | b'>'
                | b'?'
                | b'@'
                | b'['
                | b'\\'
                | b']'
                | b'^'
                | b'|'
                | b'%'
        ) && !c.is_ascii_uppercase()
        {
            class |= HOST;
        }
        // URL Standard: scheme state, step 1.
        if c.is_ascii_alphanumeric() || matches!(c, b'+' | b'-' | b'.') {
            class |= SCHEME;
        }
        if c.is_ascii_alphanumeric()
            || matches!(
                c,
                b'!' | b'$'
                    | b'&'
                    | b'\''
                    | b'('
                    | b')'
                    | b'*'
                    | b'+'
                    | b','
                    | b'-'
                    | b'.'
                    | b'/'
                    | b':'
                    | b';'
                    | b'='
                    | b'?'
                    | b'@'
                    | b'_'
                    | b'~'
            )
        {
            class |= URL_UNIT;
        }
        if (class & PATH != 0 || c == b'/') && !matches!(c, b'.' | b'%') {
            class |= PATH_RUN;
        }
        table[b] = class;
        b += 1;
    }
    table
}

#[inline]
fn is(b: u8, class: u8) -> bool {
    CLASSES[b as usize] & class != 0
}

/// The offset of the first byte from `from` on that is not of `class`.
#[inline]
fn skip(bytes: &[u8], from: usize, class: u8) -> usize {
    let mut i = from;
    // Eight bytes at a time while all eight are of the class: their classes are combined and
    // tested once, where a byte loop tests and branches eight times.
    while let Some(chunk) = bytes.get(i..).and_then(<[u8]>::first_chunk::<8>) {
        if chunk
            .iter()
            .fold(class, |all, &b| all & CLASSES[usize::from(b)])
            == 0
        {
            break;
        }
        i += 8;
    }
    while let Some(&b) = bytes.get(i) {
        if !is(b, class) {
            break;
        }
        i += 1;
    }
    i
}

/// Parses `input` without the state machine when the state machine would only copy it: an
/// absolute URL of a special scheme already in serialized form, or a simple relative reference
/// to a special base. `None` leaves the input to the state machine.
pub(crate) fn parse(input: &str, base: Option<Serialized<&str>>) -> Option<Serialized<String>> {
    match scheme_end(input.as_bytes()) {
        Some(colon) => absolute(&input[..colon], &input[colon + 1..], Some(input)),
        None => relative(input, base?),
    }
}

/// [`parse`] for an input on which the state machine would raise no validation error either,
/// with the host's byte range in the input (where the state machine runs the host parser).
/// Everything but invalid-URL-unit is excluded by the shortcut's own conditions.
pub(crate) fn parse_without_errors(
    input: &str,
) -> Option<(Serialized<String>, Option<Range<usize>>)> {
    let url = parse(input, None)?;
    // URL Standard: invalid-URL-unit: a code point that is not a URL code point (the first "#"
    // is the fragment's delimiter, consumed before the fragment state), or a "%" not followed
    // by two ASCII hex digits.
    // The URL code points are skipped eight at a time; what stops the skip is looked at.
    let bytes = input.as_bytes();
    let mut fragment = false;
    let mut i = 0;
    loop {
        i = skip(bytes, i, URL_UNIT);
        let Some(&b) = bytes.get(i) else {
            break;
        };
        let ok = match b {
            b'%' => bytes
                .get(i + 1..i + 3)
                .is_some_and(|h| h.iter().all(u8::is_ascii_hexdigit)),
            // The first "#" only.
            b'#' => !std::mem::replace(&mut fragment, true),
            _ => false,
        };
        if !ok {
            return None;
        }
        i += 1;
    }
    // The absolute shortcut copies the input up to the path, so the offsets are the input's.
    let span = (url.host == HostKind::Domain)
        .then_some(url.offsets.host_start as usize..url.offsets.host_end as usize);
    // URL Standard: domain parser, step 2: domain-to-ASCII, unless the strict run would keep
    // the domain as it is. A domain the cheap test cannot vouch for goes to the state machine.
    if let Some(span) = &span {
        if !is_strictly_valid_ascii_domain(&input[span.clone()]) {
            return None;
        }
    }
    Some((url, span))
}

/// URL Standard: scheme start and scheme states: where the ":" after a scheme is, if the input
/// starts with one.
fn scheme_end(bytes: &[u8]) -> Option<usize> {
    if !bytes.first()?.is_ascii_alphabetic() {
        return None;
    }
    bytes
        .iter()
        .position(|&b| !is(b, SCHEME))
        .filter(|&i| bytes[i] == b':')
}

/// `scheme` ":" `rest`, where `rest` starts with "//". The base plays no part: the scheme state
/// goes to the special authority states (or the file state) whatever the base's scheme is,
/// and the file state consults the base only when no "/" follows. `typed` is the input when it
/// is `scheme` ":" `rest`, which the serialization then copies in one piece.
fn absolute(scheme: &str, rest: &str, typed: Option<&str>) -> Option<Serialized<String>> {
    let scan = scan_absolute(scheme, rest)?;
    Some(scan.serialize(scheme, rest, typed))
}

/// Where [`scan_absolute`] found the parts of `scheme ":" rest`, to serialize them.
struct Absolute {
    host_start: usize,
    host_end: usize,
    path_start: usize,
    port: Option<u16>,
    host: HostKind,
    rest: Rest,
}

/// [`absolute`]'s checks and the parts' places, without the serialization (inlined into both
/// callers, as it was when it was part of [`absolute`]: called apart, it cost each URL more).
#[inline(always)]
fn scan_absolute(scheme: &str, rest: &str) -> Option<Absolute> {
    let default = special_scheme_default_port(scheme)?;
    let file = scheme == "file";
    let bytes = rest.as_bytes();
    if bytes.get(..2)? != b"//" {
        return None;
    }
    let host_start = 2;
    let host_end = scan_domain(rest, host_start, file)?;
    let mut path_start = host_end;
    let mut port = None;
    if !file && bytes.get(host_end) == Some(&b':') {
        let (value, end) = scan_port(bytes, host_end + 1)?;
        if Some(value) == default {
            return None;
        }
        port = Some(value);
        path_start = end;
    }
    let host = if host_start == host_end {
        // URL Standard: file host state: an empty buffer makes the empty host. Special
        // URLs other than file fail on an empty host.
        if !file {
            return None;
        }
        HostKind::Empty
    } else {
        HostKind::Domain
    };
    let rest = scan_rest(bytes, path_start, file)?;
    Some(Absolute {
        host_start,
        host_end,
        path_start,
        port,
        host,
        rest,
    })
}

impl Absolute {
    /// Whether the serialization is `scheme ":" rest` exactly as typed: no "/" to add for an
    /// empty path, no "\" to write as "/".
    fn is_as_typed(&self) -> bool {
        self.path_start != self.rest.path_end && !self.rest.reverse_solidus
    }

    #[inline(always)]
    fn serialize(self, scheme: &str, rest: &str, typed: Option<&str>) -> Serialized<String> {
        let Absolute {
            host_start,
            host_end,
            path_start,
            port,
            host,
            rest:
                Rest {
                    path_end,
                    query_start,
                    fragment_start,
                    reverse_solidus,
                },
        } = self;
        // An empty path of a special URL serializes as "/".
        let insert_slash = path_start == path_end;
        let at = |offset: usize| (scheme.len() + 1 + offset) as u32;
        let after_path = |offset: usize| at(offset + usize::from(insert_slash));
        let mut serialization = match typed {
            Some(typed) if !insert_slash => typed.to_owned(),
            _ => {
                let mut serialization = String::with_capacity(
                    scheme.len() + 1 + rest.len() + usize::from(insert_slash),
                );
                serialization.push_str(scheme);
                serialization.push(':');
                serialization.push_str(&rest[..path_start]);
                if insert_slash {
                    serialization.push('/');
                }
                serialization.push_str(&rest[path_start..]);
                serialization
            }
        };
        if reverse_solidus {
            // URL Standard: path start and path states: "\" in a special URL's path is a "/".
            let path = at(path_start) as usize..after_path(path_end) as usize;
            let slashed = serialization[path.clone()].replace('\\', "/");
            serialization.replace_range(path, &slashed);
        }
        let offsets = Offsets {
            scheme_end: scheme.len() as u32,
            username_end: at(host_start),
            host_start: at(host_start),
            host_end: at(host_end),
            path_start: at(path_start),
            query_start: query_start.map(after_path),
            fragment_start: fragment_start.map(after_path),
        };
        Serialized {
            serialization,
            offsets,
            host,
            port,
        }
    }
}

/// The href [`parse`] gives `input` against `base`, borrowed from `input` where it is the
/// input as typed: a caller that wants only the href (a batch of hrefs) copies nothing of
/// nearly every URL. `None` leaves the input to the state machine, as [`parse`] does.
pub(crate) fn href<'a>(input: &'a str, base: Option<Serialized<&str>>) -> Option<Cow<'a, str>> {
    match scheme_end(input.as_bytes()) {
        Some(colon) => {
            let (scheme, rest) = (&input[..colon], &input[colon + 1..]);
            let scan = scan_absolute(scheme, rest)?;
            Some(match scan.is_as_typed() {
                true => Cow::Borrowed(input),
                false => Cow::Owned(scan.serialize(scheme, rest, Some(input)).serialization),
            })
        }
        None => relative(input, base?).map(|url| Cow::Owned(url.serialization)),
    }
}

/// The hostname [`parse`] gives `input` against `base` (the URL's `hostname` getter, had the
/// basic URL parser been run), found without building the URL or reading past the host:
/// borrowed from the input, or from the base for a relative reference that keeps the base's
/// host. `None` leaves the input to the parser.
///
/// Once the host of a special URL other than file is known, the rest of the input cannot make
/// the parse fail or change the host: the path start, path, query and fragment states return no
/// failure, and the input's leading and trailing C0 controls and spaces and its tabs and
/// newlines, removed before parsing, can lie only past the host here (the scheme, host and port
/// this reads hold none). So the input is read only up to the host's end, or the port's.
pub(crate) fn hostname<'a>(input: &'a str, base: Option<Serialized<&'a str>>) -> Option<&'a str> {
    match scheme_end(input.as_bytes()) {
        Some(colon) => authority_hostname(&input[..colon], &input[colon + 1..]),
        None => relative_hostname(input.as_bytes(), base?),
    }
}

/// [`hostname`] for `scheme` ":" `rest`: a special scheme other than file, "//", then a host that
/// the host parser returns as it was typed and a port the port state accepts, ending where the
/// host state or the port state ends them. The base plays no part (as in [`absolute`]).
fn authority_hostname<'a>(scheme: &str, rest: &'a str) -> Option<&'a str> {
    // URL Standard: scheme state, step 1: the scheme is lowercased, then "is special" asked of it.
    // file's host states differ ("localhost", Windows drive letters): the parser's business.
    if !["http", "https", "ws", "wss", "ftp"]
        .iter()
        .any(|special| scheme.eq_ignore_ascii_case(special))
    {
        return None;
    }
    let bytes = rest.as_bytes();
    // URL Standard: special authority slashes state (or special relative or authority state,
    // for a base of the same scheme): "//" goes on to the special authority ignore slashes state,
    // which skips any further "/" or "\" (then the host starts later; left to the parser).
    if bytes.get(..2)? != b"//" {
        return None;
    }
    let host_start = 2;
    // URL Standard: authority state and host state: the host runs to the first ":" (no "[" is
    // taken, so none is inside brackets), "/", "?", "#" or "\" (the URL is special), or the end.
    // No byte of the HOST class is "@", so the authority state sees no credentials up to there.
    let host_end = skip(bytes, host_start, HOST);
    let host = &rest[host_start..host_end];
    // URL Standard: host state: an empty host of a special URL is host-missing, a failure; host
    // parser step 8: a host that ends in a number is parsed as an IPv4 address (or fails).
    if host.is_empty() || ends_in_a_number(host) {
        return None;
    }
    let mut end = host_end;
    if bytes.get(end) == Some(&b':') {
        // URL Standard: port state: ASCII digits, any number of them (leading zeros included)
        // up to the same delimiters; a value past 65535 is port-out-of-range, a failure. An
        // empty port or the scheme's default port makes the port null, the host unchanged.
        end += 1;
        let mut value: u32 = 0;
        while let Some(&b) = bytes.get(end).filter(|b| b.is_ascii_digit()) {
            value = (value * 10 + u32::from(b - b'0')).min(1 << 16);
            end += 1;
        }
        if value > u32::from(u16::MAX) {
            return None;
        }
    }
    match bytes.get(end) {
        Some(b'/' | b'?' | b'#' | b'\\') | None => Some(host),
        _ => None,
    }
}

/// [`hostname`] for an input with no scheme and a base of a special scheme other than file: the
/// base's host, where the relative state or the relative slash state takes it (nothing after
/// them changes the host or fails). A scheme-relative reference and anything the removal of
/// C0 controls, spaces, tabs and newlines could make into a scheme or a "//" go to the parser.
fn relative_hostname<'a>(bytes: &[u8], base: Serialized<&'a str>) -> Option<&'a str> {
    let Serialized {
        serialization: base_href,
        offsets,
        ..
    } = base;
    let scheme = &base_href[..offsets.scheme_end as usize];
    // URL Standard: no scheme state: a file base goes to the file state.
    if !is_special_scheme(scheme) || scheme == "file" {
        return None;
    }
    let keeps_the_base_host = match bytes.first() {
        // URL Standard: relative state: EOF, "?" and "#" keep the base's host.
        None | Some(b'?' | b'#') => true,
        // URL Standard: relative state, then relative slash state: a second "/" or "\" is an
        // authority of its own; anything else keeps the base's host. A tab or newline there is
        // removed before parsing, so what follows it would be second.
        Some(b'/' | b'\\') => !matches!(bytes.get(1), Some(b'/' | b'\\' | b'\t' | b'\n' | b'\r')),
        // URL Standard: basic URL parser, step 1.3: leading C0 controls and spaces are removed,
        // and what follows could be anything.
        Some(&b) if b <= b' ' => false,
        // URL Standard: scheme state: `scheme_end` found no ":" after the scheme code points,
        // so the no scheme state follows, unless a tab or newline (removed before parsing)
        // stopped the scan and more scheme code points and a ":" come after it.
        Some(b) if b.is_ascii_alphabetic() => !matches!(
            bytes.iter().find(|&&b| !is(b, SCHEME)),
            Some(b'\t' | b'\n' | b'\r')
        ),
        // URL Standard: scheme start state: no scheme; relative state, "otherwise".
        Some(_) => true,
    };
    keeps_the_base_host.then(|| &base_href[offsets.host_start as usize..offsets.host_end as usize])
}

/// URL Standard: relative state and what follows it, for a base of a special scheme other than
/// file (file's Windows drive letter quirks stay with the state machine): a scheme-relative
/// reference, a path-absolute or path-relative one (leading "./" and "../" included), a query
/// or a fragment, each already in serialized form.
fn relative(input: &str, base: Serialized<&str>) -> Option<Serialized<String>> {
    let Serialized {
        serialization: base_href,
        offsets: base_offsets,
        host,
        port,
    } = base;
    let scheme = &base_href[..base_offsets.scheme_end as usize];
    if !is_special_scheme(scheme) || scheme == "file" {
        return None;
    }
    let bytes = input.as_bytes();
    let path_end = base_offsets.path_end(base_href.len()) as usize;
    let mut offsets = base_offsets;
    // What of the base is kept, and where the input goes on from.
    let (kept, rest) = match bytes.first() {
        // URL Standard: relative slash state, then the special authority ignore slashes state.
        Some(b'/') if matches!(bytes.get(1), Some(b'/' | b'\\')) => {
            return absolute(scheme, input, None);
        }
        // URL Standard: relative slash state: the base's credentials, host and port.
        Some(b'/') => (&base_href[..base_offsets.path_start as usize], input),
        // URL Standard: relative state: the base's path (and query) stay.
        Some(b'?') => (&base_href[..path_end], input),
        Some(b'#') | None => {
            let end = base_offsets
                .fragment_start
                .map_or(base_href.len(), |f| f as usize);
            (&base_href[..end], input)
        }
        Some(b'\\') => return None,
        // URL Standard: relative state, "shorten url's path", then the path state. Only the
        // path-absolute and query cases leave no doubt about a ":" in the first segment.
        Some(_) => {
            let first = bytes
                .iter()
                .position(|&b| matches!(b, b'/' | b'?' | b'#'))
                .unwrap_or(bytes.len());
            if bytes[..first].contains(&b':') {
                return None;
            }
            let path = &base_href[base_offsets.path_start as usize..path_end];
            let mut dir_end = base_offsets.path_start as usize + path.rfind('/')? + 1;
            let mut rest = input;
            // URL Standard: path state: a leading "./" does nothing, "../" shortens the path.
            loop {
                if let Some(after) = rest.strip_prefix("./") {
                    rest = after;
                } else if let Some(after) = rest.strip_prefix("../") {
                    rest = after;
                    let dir = &base_href[base_offsets.path_start as usize..dir_end - 1];
                    if let Some(slash) = dir.rfind('/') {
                        dir_end = base_offsets.path_start as usize + slash + 1;
                    }
                } else {
                    break;
                }
            }
            (&base_href[..dir_end], rest)
        }
    };
    let mut serialization = String::with_capacity(kept.len() + rest.len());
    serialization.push_str(kept);
    serialization.push_str(rest);
    let scanned = serialization.as_bytes();
    let at = |offset: usize| offset as u32;
    match bytes.first() {
        Some(b'#') | None => {
            let rest = scan_rest(scanned, kept.len(), false)?;
            if rest.path_end != kept.len() || rest.query_start.is_some() {
                return None;
            }
            offsets.fragment_start = rest.fragment_start.map(at);
        }
        Some(b'?') => {
            let rest = scan_rest(scanned, kept.len(), false)?;
            if rest.path_end != kept.len() {
                return None;
            }
            offsets.query_start = rest.query_start.map(at);
            offsets.fragment_start = rest.fragment_start.map(at);
        }
        _ => {
            // From the "/" that ends the kept part (path-relative) or starts the input.
            let from = if bytes[0] == b'/' {
                kept.len()
            } else {
                kept.len() - 1
            };
            let rest = scan_rest(scanned, from, false)?;
            // A "\\" would be serialized as "/": the state machine's business here.
            if rest.path_end == from || rest.reverse_solidus {
                return None;
            }
            offsets.query_start = rest.query_start.map(at);
            offsets.fragment_start = rest.fragment_start.map(at);
        }
    }
    Some(Serialized {
        serialization,
        offsets,
        host,
        port,
    })
}

/// URL Standard: host state and host parser, for a host the host parser returns as it was
/// typed: an ASCII domain, which the domain parser only lowercases (its step 5), already in
/// lowercase, with no "%" to decode (host parser step 5), no forbidden domain code point
/// (domain parser step 8), not empty (step 7) and not ending in a number (host parser step 8).
/// Returns where it ends: at "/", "?", "#", ":" (not for file) or the end of the input.
fn scan_domain(rest: &str, start: usize, file: bool) -> Option<usize> {
    let bytes = rest.as_bytes();
    let end = skip(bytes, start, HOST);
    match bytes.get(end) {
        Some(b'/' | b'?' | b'#') | None => {}
        Some(b':') if !file => {}
        Some(_) => return None,
    }
    if end == start {
        // URL Standard: file host state: an empty buffer is the empty host.
        return file.then_some(end);
    }
    // Every byte of the domain is ASCII, so it ends on a character boundary.
    let domain = &rest[start..end];
    // URL Standard: file host state: "localhost" becomes the empty host.
    if file && domain == "localhost" {
        return None;
    }
    if ends_in_a_number(domain) {
        return None;
    }
    Some(end)
}

/// URL Standard: port state, for a port the serializer writes as it was typed: 1 to 5 digits
/// without a leading zero, at most 65535, ending at "/", "?", "#" or the end of the input.
fn scan_port(bytes: &[u8], start: usize) -> Option<(u16, usize)> {
    let mut end = start;
    let mut value: u32 = 0;
    while let Some(&b) = bytes.get(end) {
        if !b.is_ascii_digit() {
            if !matches!(b, b'/' | b'?' | b'#') {
                return None;
            }
            break;
        }
        value = value * 10 + u32::from(b - b'0');
        end += 1;
        if end - start > 5 {
            return None;
        }
    }
    let digits = &bytes[start..end];
    if digits.is_empty() || (digits.len() > 1 && digits[0] == b'0') {
        return None;
    }
    Some((u16::try_from(value).ok()?, end))
}

/// URL Standard: single-dot and double-dot URL path segments (".", "..", and their forms with
/// "%2e" in any case), which the path state removes.
fn is_dot_segment(segment: &[u8]) -> bool {
    let dot = |s: &[u8]| s == b"." || s.eq_ignore_ascii_case(b"%2e");
    match segment.len() {
        1 | 3 => dot(segment),
        2 => segment == b"..",
        4 => dot(&segment[..1]) && dot(&segment[1..]) || dot(&segment[..3]) && dot(&segment[3..]),
        6 => dot(&segment[..3]) && dot(&segment[3..]),
        _ => false,
    }
}

/// Where [`scan_rest`] found the path's end and the query's and fragment's delimiters.
struct Rest {
    path_end: usize,
    /// The "?" before the query.
    query_start: Option<usize>,
    /// The "#" before the fragment.
    fragment_start: Option<usize>,
    /// A segment of the path ends at a "\\", which the serialization writes as "/".
    reverse_solidus: bool,
}

/// Scans path, query and fragment from `start` (a "/", "?", "#" or the end of the input) of a
/// special URL.
fn scan_rest(bytes: &[u8], start: usize, file: bool) -> Option<Rest> {
    // The path is skipped eight bytes at a time, up to what may start a dot segment: a "." or
    // "%" (of "%2e") right after a "/". Anything else that stops the skip ends the path, but a
    // "\\", which the segments' scan writes as "/"; file URLs' drive letters are that scan's too.
    if file {
        return scan_segments(bytes, start, file);
    }
    let mut i = start;
    if bytes.get(i) == Some(&b'/') {
        loop {
            i = skip(bytes, i, PATH_RUN);
            match bytes.get(i) {
                // The path starts with "/", so a byte stopped at has one before it.
                Some(b'.' | b'%') if bytes[i - 1] == b'/' => {
                    let end = segment_end(bytes, i);
                    if is_dot_segment(&bytes[i..end]) {
                        return None;
                    }
                    i = end;
                }
                Some(b'.' | b'%') => i += 1,
                Some(b'\\') => return scan_segments(bytes, start, file),
                _ => break,
            }
        }
    }
    scan_query_and_fragment(bytes, i, false)
}

/// Where the path segment starting at `start` ends: at the first byte that is not a path byte.
fn segment_end(bytes: &[u8], start: usize) -> usize {
    bytes[start..]
        .iter()
        .position(|&b| !is(b, PATH))
        .map_or(bytes.len(), |n| start + n)
}

/// [`scan_rest`] one segment at a time.
fn scan_segments(bytes: &[u8], start: usize, file: bool) -> Option<Rest> {
    let mut i = start;
    let mut reverse_solidus = false;
    // URL Standard: path state, one segment at a time; in a special URL "\\" ends a segment
    // as "/" does.
    while let Some(&separator @ (b'/' | b'\\')) = bytes.get(i) {
        reverse_solidus |= separator == b'\\';
        let segment_start = i + 1;
        // Byte by byte: segments are mostly shorter than the eight bytes `skip` tests at once.
        i = segment_end(bytes, segment_start);
        let segment = &bytes[segment_start..i];
        if is_dot_segment(segment) {
            return None;
        }
        // URL Standard: path state, the Windows drive letter quirks of file URLs.
        if file
            && segment_start == start + 1
            && segment.len() == 2
            && segment[0].is_ascii_alphabetic()
            && matches!(segment[1], b':' | b'|')
        {
            return None;
        }
    }
    scan_query_and_fragment(bytes, i, reverse_solidus)
}

/// The query and fragment from `path_end`, which must reach the end of the input.
fn scan_query_and_fragment(bytes: &[u8], path_end: usize, reverse_solidus: bool) -> Option<Rest> {
    let mut i = path_end;
    let mut query_start = None;
    if bytes.get(i) == Some(&b'?') {
        query_start = Some(i);
        i = skip(bytes, i + 1, QUERY);
    }
    let mut fragment_start = None;
    if bytes.get(i) == Some(&b'#') {
        fragment_start = Some(i);
        i = skip(bytes, i + 1, FRAGMENT);
    }
    (i == bytes.len()).then_some(Rest {
        path_end,
        query_start,
        fragment_start,
        reverse_solidus,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::url::code_points::is_forbidden_domain_code_point;
    use crate::url::code_points::{is_double_dot, is_single_dot};
    use crate::url::host::domain_parser;

    /// The shortcut takes a host exactly when the host parser (the relaxed domain parser and the
    /// ends in a number checker) returns it as it was typed.
    #[test]
    fn domains_are_taken_only_when_the_host_parser_keeps_them() {
        let long_label = "a".repeat(63);
        let too_long_label = "a".repeat(64);
        let long_domain = format!("{}b.c", "a.".repeat(125));
        let too_long_domain = format!("{}b.c", "a.".repeat(200));
        let mut domains: Vec<String> = [
            "example.com",
            "a",
            "a-b.c",
            "-a.com",
            "a-.com",
            "ab--c.com",
            "xn--zca.de",
            "xn--8i7caa",
            "xn--",
            "a.",
            "a..",
            ".a",
            "a..b",
            ".",
            "1.2.3.4",
            "a.1",
            "a.1.",
            "a.1..",
            "a.0x1f",
            "a.0X1F",
            "a.0x",
            "a.0xg",
            "a.09",
            "a.1a",
            "EXAMPLE",
            "exAmple.com",
            "a_b.com",
            "\"www.example.com",
            "a!$&'()*+,;=`{}~.com",
            "a%41.com",
            "a%2e.com",
            "localhost",
            "a b",
            "a\tb",
            "a\u{7f}b",
            "a^b",
            "a|b",
            "a<b",
            "é.com",
            "",
        ]
        .iter()
        .map(|d| d.to_string())
        .collect();
        domains.extend([long_label, too_long_label, long_domain, too_long_domain]);
        for d in &domains {
            let scanned = scan_domain(&format!("{d}/"), 0, false);
            let expected =
                domain_parser(d, false).as_deref() == Some(d.as_str()) && !ends_in_a_number(d);
            assert_eq!(scanned == Some(d.len()), expected, "{d:?}");
            // The hostname alone takes the same hosts, before each delimiter of the host state.
            for end in ["", "/", "?x", "#", "\\x", ":8080/", ":/"] {
                let rest = format!("//{d}{end}");
                let taken = authority_hostname("http", &rest);
                assert_eq!(taken.is_some(), expected, "{rest:?}");
                assert!(taken.is_none_or(|h| h == d), "{rest:?}");
            }
        }
    }

    /// The hostname alone takes a port exactly when the port state accepts it: ASCII digits
    /// whose value is at most 65535, up to a delimiter.
    #[test]
    fn ports_are_taken_only_when_the_port_state_accepts_them() {
        for port in [
            "",
            "0",
            "00",
            "80",
            "0080",
            "443",
            "65535",
            "065535",
            "0000000000065535",
            "65536",
            "99999",
            "4294967376",
            "184467440737095516160",
            "8a",
            "-1",
            "+1",
            " 1",
            "1 ",
            "@",
            "8@x",
            "1:2",
        ] {
            let accepted = port.is_empty()
                || port.bytes().all(|b| b.is_ascii_digit())
                    && port.trim_start_matches('0').len() <= 5
                    && port.parse::<u64>().is_ok_and(|n| n <= 65535);
            for end in ["", "/", "?", "#", "\\"] {
                let rest = format!("//example.com:{port}{end}");
                let taken = authority_hostname("wss", &rest);
                assert_eq!(taken, accepted.then_some("example.com"), "{rest:?}");
            }
        }
    }

    /// The scheme is asked in any case, and only the special schemes other than file pass.
    #[test]
    fn only_special_schemes_other_than_file_are_taken() {
        for (scheme, taken) in [
            ("http", true),
            ("HTTPS", true),
            ("Ws", true),
            ("wss", true),
            ("ftp", true),
            ("file", false),
            ("FILE", false),
            ("httpx", false),
            ("htt", false),
            ("data", false),
        ] {
            let hostname = authority_hostname(scheme, "//example.com/");
            assert_eq!(hostname.is_some(), taken, "{scheme}");
        }
    }

    /// The class table is the percent-encode sets and URL code points, byte for byte.
    #[test]
    fn the_class_table_is_the_standards_sets_for_every_ascii_byte() {
        use crate::url::code_points::is_url_code_point;
        use crate::url::percent::{set_contains, FRAGMENT as F, PATH as P, SPECIAL_QUERY as Q};
        for b in 0u8..128 {
            let c = char::from(b);
            // What may stay as typed: outside the set, and not a delimiter of the component
            // ("/" is, but the callers split segments on it; "\\" is a separator in special URLs).
            let path = !set_contains(P, b) && b != b'\\' && b != b'/';
            let query = !set_contains(Q, b) && b != b'#';
            let fragment = !set_contains(F, b);
            let unit = is_url_code_point(c);
            let host = c.is_ascii_graphic()
                && !is_forbidden_domain_code_point(c)
                && !c.is_ascii_uppercase();
            let scheme = b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'.');
            assert_eq!(is(b, PATH), path, "PATH {c:?}");
            assert_eq!(is(b, QUERY), query, "QUERY {c:?}");
            assert_eq!(is(b, FRAGMENT), fragment, "FRAGMENT {c:?}");
            assert_eq!(is(b, URL_UNIT), unit, "URL_UNIT {c:?}");
            assert_eq!(is(b, HOST), host, "HOST {c:?}");
            assert_eq!(is(b, SCHEME), scheme, "SCHEME {c:?}");
        }
    }

    #[test]
    fn dot_segments_are_the_parsers() {
        let pieces = ["", ".", "%2e", "%2E", "%2", "e", "x", "..", "%"];
        for a in pieces {
            for b in pieces {
                for c in pieces {
                    let segment = format!("{a}{b}{c}");
                    assert_eq!(
                        is_dot_segment(segment.as_bytes()),
                        is_single_dot(&segment) || is_double_dot(&segment),
                        "{segment:?}"
                    );
                }
            }
        }
    }
}
