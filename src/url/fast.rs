//! A shortcut past the state machine for input that is already in the form the URL serializer
//! writes, which is nearly all URLs met in practice.
//!
//! The basic URL parser visits every code point; for input such as
//! `https://example.com/a/b?q=1#top` every visit copies the code point unchanged. When nobody
//! watches the parse (no tracer, no validation errors wanted), [`parse`] checks in one pass
//! over the bytes that the state machine would only copy, and if so builds the URL from the
//! input directly. Anything it is not sure of (non-ASCII, credentials, IP addresses, dot
//! segments, percent-encoding to do, default ports, Windows drive letters, relative
//! references) returns `None` and goes to the state machine. `tests/shortcut.rs` holds the
//! shortcut to the state machine's result on the web-platform-tests inputs, the benchmark
//! corpora and generated input.

use crate::url::api::{HostKind, Url};
use crate::url::parser::{is_double_dot, is_single_dot};
use crate::url::record::{default_port, Offsets};

/// The byte may stay as it is in a special URL's path: printable ASCII outside the path
/// percent-encode set, and not a delimiter ("/" is handled by the caller; "\" is a separator
/// in special URLs).
const PATH: u8 = 1;
/// ... in a special URL's query: outside the special-query percent-encode set, not "#".
const QUERY: u8 = 2;
/// ... in a fragment: outside the fragment percent-encode set.
const FRAGMENT: u8 = 4;
/// ... in a domain the domain parser returns unchanged (see `scan_domain` for the rest).
const DOMAIN: u8 = 8;

static CLASSES: [u8; 256] = classes();

const fn classes() -> [u8; 256] {
    let mut table = [0u8; 256];
    // C0 controls, space, DEL and non-ASCII are in every percent-encode set (URL Standard:
    // C0 control percent-encode set), so they never take the shortcut.
    let mut b = 0x21;
    while b < 0x7F {
        let c = b as u8;
        let mut class = 0;
        // URL Standard: path percent-encode set; "?" and "#" end the path.
        if !matches!(
            c,
            b'"' | b'#' | b'<' | b'>' | b'?' | b'^' | b'`' | b'{' | b'}' | b'\\'
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
        if c.is_ascii_lowercase() || c.is_ascii_digit() || c == b'-' || c == b'.' {
            class |= DOMAIN;
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

/// Parses `input` without the state machine when the state machine would return the input
/// itself (or the input with the "/" of an empty special path), whatever `base` is.
pub(crate) fn parse(input: &str, _base: Option<&Url>) -> Option<Url> {
    let bytes = input.as_bytes();
    // URL Standard: scheme start and scheme states, for the special schemes in lowercase.
    // "scheme://" never consults the base: the scheme state goes to the special authority
    // states (or the file state) whatever the base's scheme is.
    let colon = bytes.iter().take(6).position(|&b| b == b':')?;
    let scheme = &input[..colon];
    let file = scheme == "file";
    let default = match scheme {
        "http" | "ws" => Some(80),
        "https" | "wss" => Some(443),
        "ftp" => Some(21),
        "file" => None,
        _ => return None,
    };
    debug_assert_eq!(default, default_port(scheme));
    if bytes.get(colon + 1..colon + 3)? != b"//" {
        return None;
    }
    let host_start = colon + 3;
    let host_end = scan_domain(bytes, host_start, file)?;
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
    let (path_end, query_start, fragment_start) = scan_rest(bytes, path_start, file)?;

    // An empty path of a special URL serializes as "/".
    let insert_slash = path_start == path_end;
    let mut serialization = String::with_capacity(input.len() + usize::from(insert_slash));
    let shift = |offset: usize| (offset + usize::from(insert_slash)) as u32;
    if insert_slash {
        serialization.push_str(&input[..path_start]);
        serialization.push('/');
        serialization.push_str(&input[path_start..]);
    } else {
        serialization.push_str(input);
    }
    let offsets = Offsets {
        scheme_end: colon as u32,
        username_end: host_start as u32,
        host_start: host_start as u32,
        host_end: host_end as u32,
        path_start: path_start as u32,
        query_start: query_start.map(shift),
        fragment_start: fragment_start.map(shift),
    };
    Some(Url::from_parts(serialization, offsets, host, port))
}

/// Scans a host that the host parser returns unchanged as a domain: lowercase ASCII letters,
/// digits, "-" and "." that strict domain to ASCII returns as they are, not ending in a number.
/// Returns where it ends: at "/", "?", "#", ":" (not for file) or the end of the input.
fn scan_domain(bytes: &[u8], start: usize, file: bool) -> Option<usize> {
    let mut end = start;
    while let Some(&b) = bytes.get(end) {
        if is(b, DOMAIN) {
            end += 1;
        } else if matches!(b, b'/' | b'?' | b'#') || (b == b':' && !file) {
            break;
        } else {
            return None;
        }
    }
    let domain = &bytes[start..end];
    if domain.is_empty() {
        // URL Standard: file host state: an empty buffer is the empty host.
        return file.then_some(end);
    }
    // URL Standard: file host state: "localhost" becomes the empty host.
    if domain.len() > 253 || (file && domain == b"localhost") {
        return None;
    }
    // The conditions under which strict domain to ASCII only lowercases (see
    // `host::is_strictly_valid_ascii_domain`, which a test holds this to).
    let mut last = &domain[..0];
    for label in domain.split(|&b| b == b'.') {
        if label.is_empty()
            || label.len() > 63
            || label[0] == b'-'
            || label[label.len() - 1] == b'-'
            || (label.len() >= 4 && label[2] == b'-' && label[3] == b'-')
        {
            return None;
        }
        last = label;
    }
    // URL Standard: ends in a number checker (no label is empty, so the last one decides).
    let hex = last.len() >= 2 && last[0] == b'0' && last[1] == b'x';
    if last.iter().all(u8::is_ascii_digit) || (hex && last[2..].iter().all(u8::is_ascii_hexdigit)) {
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

/// Scans path, query and fragment from `start` (a "/", "?", "#" or the end of the input).
/// Returns the path's end and where the "?" and "#" are.
fn scan_rest(
    bytes: &[u8],
    start: usize,
    file: bool,
) -> Option<(usize, Option<usize>, Option<usize>)> {
    let mut i = start;
    // URL Standard: path state, one segment at a time.
    while bytes.get(i) == Some(&b'/') {
        let segment_start = i + 1;
        i = segment_start;
        while i < bytes.len() && is(bytes[i], PATH) && bytes[i] != b'/' {
            i += 1;
        }
        let segment = &bytes[segment_start..i];
        if matches!(segment.first(), Some(b'.' | b'%')) {
            // Only ASCII here, so the segment is a str.
            let segment = std::str::from_utf8(segment).ok()?;
            if is_single_dot(segment) || is_double_dot(segment) {
                return None;
            }
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
    let path_end = i;
    let mut query_start = None;
    if bytes.get(i) == Some(&b'?') {
        query_start = Some(i);
        i += 1;
        while i < bytes.len() && is(bytes[i], QUERY) {
            i += 1;
        }
    }
    let mut fragment_start = None;
    if bytes.get(i) == Some(&b'#') {
        fragment_start = Some(i);
        i += 1;
        while i < bytes.len() && is(bytes[i], FRAGMENT) {
            i += 1;
        }
    }
    (i == bytes.len()).then_some((path_end, query_start, fragment_start))
}
