//! The URL record (URL Standard: 4.1 URL representation), hosts (3.1 Host representation),
//! the URL serializer (4.5), and origins (4.7).

use serde::Serialize;
use std::fmt::{self, Write as _};

use crate::url::code_points::is_normalized_windows_drive_letter;

/// URL Standard: 3.1 Host representation.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(tag = "kind", content = "value", rename_all = "lowercase")]
pub enum Host {
    /// A domain: a non-empty ASCII string, the result of the domain parser.
    Domain(String),
    /// A 32-bit unsigned integer.
    Ipv4(u32),
    /// Eight 16-bit pieces.
    Ipv6([u16; 8]),
    /// A non-empty ASCII string of a URL that is not special.
    Opaque(String),
    /// The empty host.
    Empty,
}

impl Host {
    /// URL Standard: host serializer.
    pub fn serialize_into(&self, out: &mut String) {
        match self {
            Host::Ipv4(address) => serialize_ipv4(*address, out),
            Host::Ipv6(pieces) => {
                out.push('[');
                serialize_ipv6(pieces, out);
                out.push(']');
            }
            Host::Domain(s) | Host::Opaque(s) => out.push_str(s),
            Host::Empty => {}
        }
    }

    pub fn is_empty_host(&self) -> bool {
        matches!(self, Host::Empty)
    }
}

impl fmt::Display for Host {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut s = String::new();
        self.serialize_into(&mut s);
        f.write_str(&s)
    }
}

/// URL Standard: IPv4 serializer.
pub fn serialize_ipv4(address: u32, out: &mut String) {
    let [a, b, c, d] = address.to_be_bytes();
    // Writing into a String cannot fail.
    let _ = write!(out, "{a}.{b}.{c}.{d}");
}

/// URL Standard: find the IPv6 address compressed piece index.
pub fn ipv6_compressed_piece_index(pieces: &[u16; 8]) -> Option<usize> {
    let mut longest_index = None;
    let mut longest_size = 1;
    let mut found_index = None;
    let mut found_size = 0;
    for (index, &piece) in pieces.iter().enumerate() {
        if piece != 0 {
            if found_size > longest_size {
                longest_index = found_index;
                longest_size = found_size;
            }
            found_index = None;
            found_size = 0;
        } else {
            if found_index.is_none() {
                found_index = Some(index);
            }
            found_size += 1;
        }
    }
    if found_size > longest_size {
        return found_index;
    }
    longest_index
}

/// URL Standard: IPv6 serializer (without the brackets).
pub fn serialize_ipv6(pieces: &[u16; 8], out: &mut String) {
    let compress = ipv6_compressed_piece_index(pieces);
    let mut ignore0 = false;
    for (index, &piece) in pieces.iter().enumerate() {
        if ignore0 && piece == 0 {
            continue;
        }
        ignore0 = false;
        if compress == Some(index) {
            out.push_str(if index == 0 { "::" } else { ":" });
            ignore0 = true;
            continue;
        }
        let _ = write!(out, "{piece:x}");
        if index != 7 {
            out.push(':');
        }
    }
}

/// URL Standard: a URL path: an opaque path (a single ASCII string) or a list of segments.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(untagged)]
pub enum Path {
    Opaque(String),
    List(Vec<String>),
}

impl Default for Path {
    fn default() -> Self {
        Path::List(Vec::new())
    }
}

impl Path {
    /// URL Standard: URL path serializer.
    pub fn serialize_into(&self, out: &mut String) {
        match self {
            Path::Opaque(s) => out.push_str(s),
            Path::List(segments) => {
                for segment in segments {
                    out.push('/');
                    out.push_str(segment);
                }
            }
        }
    }

    pub fn is_opaque(&self) -> bool {
        matches!(self, Path::Opaque(_))
    }
}

/// The special schemes and their default ports (URL Standard: 4.2 URL miscellaneous).
pub fn special_scheme_default_port(scheme: &str) -> Option<Option<u16>> {
    match scheme {
        "ftp" => Some(Some(21)),
        "file" => Some(None),
        "http" | "ws" => Some(Some(80)),
        "https" | "wss" => Some(Some(443)),
        _ => None,
    }
}

pub fn is_special_scheme(scheme: &str) -> bool {
    special_scheme_default_port(scheme).is_some()
}

/// The default port of `scheme`, or `None`.
pub fn default_port(scheme: &str) -> Option<u16> {
    special_scheme_default_port(scheme).flatten()
}

/// URL Standard: 4.1 URL representation. The fields are exactly the standard's; the blob URL
/// entry is always null here, as urlscope has no blob URL store.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize)]
pub struct UrlRecord {
    pub scheme: String,
    pub username: String,
    pub password: String,
    pub host: Option<Host>,
    pub port: Option<u16>,
    pub path: Path,
    pub query: Option<String>,
    pub fragment: Option<String>,
}

impl UrlRecord {
    /// URL Standard: shorten a URL's path.
    pub fn shorten_path(&mut self) {
        let is_file = self.scheme == "file";
        if let Path::List(path) = &mut self.path {
            if is_file && path.len() == 1 && is_normalized_windows_drive_letter(&path[0]) {
                return;
            }
            path.pop();
        }
    }

    /// A URL is special if its scheme is a special scheme.
    pub fn is_special(&self) -> bool {
        is_special_scheme(&self.scheme)
    }

    /// A URL includes credentials if its username or password is not the empty string.
    pub fn includes_credentials(&self) -> bool {
        !self.username.is_empty() || !self.password.is_empty()
    }

    pub fn has_opaque_path(&self) -> bool {
        self.path.is_opaque()
    }

    /// A URL cannot have a username/password/port if its host is null or the empty string, or
    /// its scheme is "file".
    pub fn cannot_have_username_password_port(&self) -> bool {
        matches!(self.host, None | Some(Host::Empty)) || self.scheme == "file"
    }

    /// URL Standard: URL serializer.
    pub fn serialize(&self, exclude_fragment: bool) -> String {
        let mut out = String::with_capacity(self.estimated_len());
        self.serialize_into(exclude_fragment, &mut out);
        out
    }

    pub(crate) fn estimated_len(&self) -> usize {
        let path = match &self.path {
            Path::Opaque(s) => s.len(),
            Path::List(segments) => segments.iter().map(|s| s.len() + 1).sum(),
        };
        let host = match &self.host {
            Some(Host::Domain(s) | Host::Opaque(s)) => s.len() + 2,
            Some(_) => 43,
            None => 0,
        };
        self.scheme.len()
            + 1
            + host
            + self.username.len()
            + self.password.len()
            + 8
            + path
            + self.query.as_ref().map_or(0, |q| q.len() + 1)
            + self.fragment.as_ref().map_or(0, |f| f.len() + 1)
    }

    pub fn serialize_into(&self, exclude_fragment: bool, out: &mut String) {
        self.serialize_with_offsets(exclude_fragment, out);
    }

    /// The URL serializer, also saying where each component landed in `out` (the URL API
    /// answers its getters by slicing one serialization).
    pub(crate) fn serialize_with_offsets(
        &self,
        exclude_fragment: bool,
        out: &mut String,
    ) -> Offsets {
        let base = out.len();
        let at = |out: &String| (out.len() - base) as u32;
        out.push_str(&self.scheme);
        let scheme_end = at(out);
        out.push(':');
        let mut offsets = Offsets {
            scheme_end,
            username_end: scheme_end + 1,
            host_start: scheme_end + 1,
            host_end: scheme_end + 1,
            path_start: scheme_end + 1,
            query_start: None,
            fragment_start: None,
        };
        if let Some(host) = &self.host {
            out.push_str("//");
            offsets.username_end = at(out);
            if self.includes_credentials() {
                out.push_str(&self.username);
                offsets.username_end = at(out);
                if !self.password.is_empty() {
                    out.push(':');
                    out.push_str(&self.password);
                }
                out.push('@');
            }
            offsets.host_start = at(out);
            host.serialize_into(out);
            offsets.host_end = at(out);
            if let Some(port) = self.port {
                let _ = write!(out, ":{port}");
            }
        }
        // URL Standard: URL serializer, step 3: keep "web+demo:/.//not-a-host/" from turning
        // into a URL with a host when reparsed.
        if self.host.is_none() {
            if let Path::List(segments) = &self.path {
                if segments.len() > 1 && segments[0].is_empty() {
                    out.push_str("/.");
                }
            }
        }
        offsets.path_start = at(out);
        self.path.serialize_into(out);
        if let Some(query) = &self.query {
            offsets.query_start = Some(at(out));
            out.push('?');
            out.push_str(query);
        }
        if !exclude_fragment {
            if let Some(fragment) = &self.fragment {
                offsets.fragment_start = Some(at(out));
                out.push('#');
                out.push_str(fragment);
            }
        }
        offsets
    }
}

/// Byte offsets of the components in a URL's serialization. Without a host, the username,
/// host and (empty) password all sit right after the scheme's ":"; `path_start` is after the
/// serializer's "/." when it added one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Offsets {
    /// The ":" after the scheme.
    pub scheme_end: u32,
    /// The end of the username; with credentials, a password follows its ":".
    pub username_end: u32,
    pub host_start: u32,
    pub host_end: u32,
    pub path_start: u32,
    /// The "?" before the query.
    pub query_start: Option<u32>,
    /// The "#" before the fragment.
    pub fragment_start: Option<u32>,
}

impl Offsets {
    /// Where the path ends in a serialization `len` bytes long.
    pub(crate) fn path_end(&self, len: usize) -> u32 {
        self.query_start
            .or(self.fragment_start)
            .unwrap_or(len as u32)
    }
}

/// What kind of host sits between `host_start` and `host_end`, with the numbers an IP address
/// host is made of (the serialization alone would need parsing again to recover them).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum HostKind {
    Null,
    Empty,
    Domain,
    Opaque,
    Ipv4(u32),
    Ipv6([u16; 8]),
}

/// A URL as the serializer writes it (`S` is `String`, or `&str` to look at one) with where
/// its components lie: what the shortcut reads of a base and builds without a record.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Serialized<S> {
    pub serialization: S,
    pub offsets: Offsets,
    pub host: HostKind,
    pub port: Option<u16>,
}

/// URL Standard: 4.7 Origin, with the HTML standard's serialization of an origin.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum Origin {
    /// A new opaque origin. Each is distinct from every other, so two opaque origins are never
    /// the same origin; this type only records that the origin is opaque.
    Opaque,
    Tuple {
        scheme: String,
        host: Host,
        port: Option<u16>,
    },
}

impl Origin {
    /// HTML Standard: ASCII serialization of an origin.
    pub fn ascii_serialization(&self) -> String {
        match self {
            Origin::Opaque => "null".to_owned(),
            Origin::Tuple { scheme, host, port } => {
                let mut out = String::with_capacity(scheme.len() + 24);
                out.push_str(scheme);
                out.push_str("://");
                host.serialize_into(&mut out);
                if let Some(port) = port {
                    let _ = write!(out, ":{port}");
                }
                out
            }
        }
    }

    pub fn is_opaque(&self) -> bool {
        matches!(self, Origin::Opaque)
    }
}

impl fmt::Display for Origin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.ascii_serialization())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v6(pieces: [u16; 8]) -> String {
        let mut s = String::new();
        serialize_ipv6(&pieces, &mut s);
        s
    }

    #[test]
    fn ipv6_serializer_compresses_the_first_longest_run() {
        // URL Standard: example in "find the IPv6 address compressed piece index".
        assert_eq!(
            ipv6_compressed_piece_index(&[0, 0xf, 0, 0, 0xf, 0xf, 0, 0]),
            Some(2)
        );
        assert_eq!(v6([0, 0xf, 0, 0, 0xf, 0xf, 0, 0]), "0:f::f:f:0:0");
        assert_eq!(v6([0; 8]), "::");
        assert_eq!(v6([0, 0, 0, 0, 0, 0, 0, 1]), "::1");
        assert_eq!(v6([1, 0, 0, 0, 0, 0, 0, 0]), "1::");
        // A single zero piece is not compressed.
        assert_eq!(v6([1, 0, 2, 3, 4, 5, 6, 7]), "1:0:2:3:4:5:6:7");
        assert_eq!(v6([0x2001, 0xdb8, 0, 0, 1, 0, 0, 1]), "2001:db8::1:0:0:1");
    }

    #[test]
    fn ipv4_serializer() {
        let mut s = String::new();
        serialize_ipv4(0xC0A8_0001, &mut s);
        assert_eq!(s, "192.168.0.1");
    }
}
