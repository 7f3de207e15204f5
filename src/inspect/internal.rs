//! Internal destinations: the hosts a server-side request must not reach, whatever their
//! spelling. One cited table (RFC 6761's `localhost`, the IANA IPv4 and IPv6 special-purpose
//! address registries, the cloud providers' metadata endpoints), read through one function that
//! every surface's verdict uses.
//!
//! **What counts as internal.** A destination an SSRF check must refuse: one that is not a
//! public host on the internet, so that a server fetching it reaches itself, its own network,
//! or whatever that network chooses to put there.
//!
//! - Every block of the IANA IPv4 and IPv6 Special-Purpose Address Registries whose "Globally
//!   Reachable" is False: "this network", loopback, private-use, shared address space,
//!   link-local, the IETF protocol assignments, benchmarking, documentation, reserved, limited
//!   broadcast; `::1`, `::`, the discard-only prefix, the local-use NAT64 prefix, unique local
//!   and link-local unicast. `192.0.0.0/24` is taken whole, its two globally reachable anycast
//!   addresses (`192.0.0.9`, `192.0.0.10`) with it: no web server lives there, and a gate fails
//!   closed.
//! - Multicast (`224.0.0.0/4`, RFC 5771; `ff00::/8`, RFC 4291 § 2.7): not one host, and its
//!   scopes are local.
//! - The IPv6 address space the IANA IPv6 Address Space registry keeps "Reserved by IETF"
//!   (everything outside `2000::/3`, `fc00::/7`, `fe80::/10` and `ff00::/8`, including the
//!   deprecated site-local `fec0::/10`): no public host has such an address.
//! - An IPv6 address that embeds an IPv4 address reaches that address: IPv4-mapped
//!   (`::ffff:0:0/96`, RFC 4291 § 2.5.5.2), IPv4-compatible (`::/96`, RFC 4291 § 2.5.5.1,
//!   deprecated), IPv4-translated (`::ffff:0:0:0/96`, RFC 2765 § 2.1), NAT64 (`64:ff9b::/96`,
//!   RFC 6052 § 2.1; `64:ff9b:1::/48`, RFC 8215) and 6to4 (`2002::/16`, RFC 3056 § 2). Such an
//!   address is internal when its IPv4 address is; the mapped and well-known NAT64 forms of a
//!   public address are public, the other forms stay in reserved space.
//! - Names: `localhost` and every name under it (RFC 6761 § 6.3; Chromium's
//!   `net::IsLocalHostname` answers them itself, case-insensitively, with or without the final
//!   dot), the loopback aliases older Chromium also answered (`localhost.localdomain`,
//!   `localhost6`, `localhost6.localdomain6`), names under `local` (RFC 6762 § 3: link-local,
//!   resolved by multicast DNS), `home.arpa` (RFC 8375: a home network's names) and `internal`
//!   (reserved by ICANN in 2024 for private use, on SSAC's SAC113): only a private network
//!   answers them.
//! - Cloud metadata endpoints, as the providers document them: `169.254.169.254` (AWS, Google
//!   Cloud, Azure), `fd00:ec2::254` (AWS), `100.100.100.200` (Alibaba Cloud),
//!   `metadata.google.internal` (Google Cloud). They answer with the instance's credentials.
//!
//! **Spellings.** [`classify_host`] reads a host as any client may: percent-decoded once (an
//! opaque host is sent as its client decodes it), through the URL Standard's host parser (IDNA
//! maps and ignores code points, so `local\u{AD}host` is `localhost`; the IPv4 parser reads
//! `0x7f.1`, `2130706433`, `0177.0.0.1` and `127.1`), a dotted quad with leading zeros also read
//! as decimal (`010.0.0.1` is `10.0.0.1` to a client that ignores the zeros), IPv6 with or
//! without brackets and with a zone identifier, and a name the URL Standard refuses read
//! ASCII-lowercased. A host is internal when any of these readings is.
//!
//! **Names that resolve inside.** Public services whose names resolve to the address they spell
//! or to loopback (`127.0.0.1.nip.io`, `localtest.me`), and DNS rebinding services, are read as
//! each one documents ([`wildcard`]): the host alone shows where they go. Any other name may
//! resolve anywhere: only a lookup tells (`check --resolve`, [`crate::inspect::resolve`]).

pub mod wildcard;

use serde::Serialize;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

use crate::url::host::{ends_in_a_number, parse_host};
use crate::url::percent::percent_decode;
use crate::url::record::Host;
use crate::url::sink::NoSink;

/// Why a host is internal: the table's entry it falls under.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Internal {
    /// The entry's name, as a finding names it ("loopback", "private-use", "cloud metadata").
    pub what: &'static str,
    /// Where the entry comes from ("RFC 6761 § 6.3", "IANA IPv4 Special-Purpose Address
    /// Registry: 127.0.0.0/8 (RFC 1122)").
    pub source: &'static str,
    /// A cloud provider's metadata endpoint, which answers with instance credentials.
    pub cloud_metadata: bool,
    /// What a server that fetches the URL reaches ("a server that fetches this URL fetches
    /// from itself").
    pub reaches: &'static str,
    /// Whether the entry is a name (`localhost`) rather than an address block.
    pub name: bool,
    /// For an IPv6 address that embeds an internal IPv4 address: the form and the IPv4
    /// address, whose entry this is.
    pub embedded: Option<Embedded>,
    /// For a name of a public service that resolves to an address ([`wildcard`]): the
    /// service and the address, whose entry this is.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub via: Option<Via>,
}

/// A public DNS service that maps a name to an address, read from its documentation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Via {
    /// The service's domain (`nip.io`).
    pub service: &'static str,
    /// Its documentation's words for the mapping.
    pub documented: &'static str,
    /// The internal address the name resolves to; `None` for a rebinding service's name whose
    /// records cannot be read.
    pub address: Option<IpAddr>,
    /// The service can answer with another address at each lookup (DNS rebinding).
    pub rebinds: bool,
}

impl Internal {
    /// The entry and where it comes from, as the gate names it: `loopback (RFC 6761 § 6.3)`,
    /// or for a service's name the address and the service.
    pub fn why(&self) -> String {
        match self.via {
            Some(Via {
                service,
                address: Some(address),
                rebinds,
                ..
            }) => format!(
                "resolves through {service}{} to {address}, {} ({})",
                if rebinds {
                    " (a DNS rebinding service)"
                } else {
                    ""
                },
                self.what,
                self.source
            ),
            Some(Via { service, .. }) => format!(
                "a name of {service}, a DNS rebinding service whose records this name does not \
                 show"
            ),
            None => format!("{} ({})", self.what, self.source),
        }
    }
}

/// An IPv4 address carried in an IPv6 address.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Embedded {
    /// The form ("IPv4-mapped"), with its source.
    pub form: &'static str,
    pub source: &'static str,
    pub ipv4: Ipv4Addr,
}

/// An internal destination as one host spells it: the host as a client reads it (a name
/// ASCII-lowercased and mapped by IDNA, an address in its usual notation) and its entry.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Destination {
    /// `localhost`, `127.0.0.1`, `[::1]`.
    pub host: String,
    pub internal: Internal,
}

impl Destination {
    /// The sentence every surface shows: `localhost is a loopback name (RFC 6761 § 6.3): a
    /// server that fetches this URL fetches from itself`.
    pub fn describe(&self) -> String {
        let i = &self.internal;
        if let Some(via) = i.via {
            let service = format!("{} ({})", via.service, via.documented);
            let rebinds = if via.rebinds {
                ", and a lookup at connection time can give another address than one at check time"
            } else {
                ""
            };
            return match via.address {
                Some(address) if i.cloud_metadata => format!(
                    "{} resolves through {service} to {address}, a cloud metadata endpoint ({}){rebinds}: {}",
                    self.host, i.source, i.reaches
                ),
                Some(address) => format!(
                    "{} resolves through {service} to {address}, in {} address space ({}){rebinds}: {}",
                    self.host, i.what, i.source, i.reaches
                ),
                None => format!(
                    "{} is a name of {service}: its owner decides where it resolves{rebinds}: {}",
                    self.host, i.reaches
                ),
            };
        }
        let subject = match i.embedded {
            Some(e) => format!(
                "{}, the {} form ({}) of {},",
                self.host, e.form, e.source, e.ipv4
            ),
            None => self.host.clone(),
        };
        if i.cloud_metadata {
            format!(
                "{subject} is a cloud metadata endpoint ({}): {}",
                i.source, i.reaches
            )
        } else if i.name {
            format!(
                "{subject} is a {} name ({}): {}",
                i.what, i.source, i.reaches
            )
        } else {
            format!(
                "{subject} is in {} address space ({}): {}",
                i.what, i.source, i.reaches
            )
        }
    }
}

/// One entry's block: an address prefix or a name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Block {
    V4(Ipv4Addr, u8),
    V6(Ipv6Addr, u8),
    /// This name only (ASCII lowercase, no final dot).
    Name(&'static str),
    /// This name and every name under it.
    Subtree(&'static str),
}

impl Block {
    fn contains_v4(self, ip: Ipv4Addr) -> Option<u8> {
        match self {
            Block::V4(net, len) => {
                let mask = u32::MAX.checked_shl(32 - u32::from(len)).unwrap_or(0);
                (u32::from(ip) & mask == u32::from(net)).then_some(len)
            }
            _ => None,
        }
    }

    fn contains_v6(self, ip: Ipv6Addr) -> Option<u8> {
        match self {
            Block::V6(net, len) => {
                let mask = u128::MAX.checked_shl(128 - u32::from(len)).unwrap_or(0);
                (u128::from(ip) & mask == u128::from(net)).then_some(len)
            }
            _ => None,
        }
    }

    fn contains_name(self, name: &str) -> bool {
        match self {
            Block::Name(n) => name == n,
            Block::Subtree(n) => {
                name == n || name.strip_suffix(n).is_some_and(|rest| rest.ends_with('.'))
            }
            _ => false,
        }
    }
}

/// One row of the table.
#[derive(Clone, Copy, Debug)]
pub struct Entry {
    pub block: Block,
    pub internal: Internal,
}

const ITSELF: &str = "a server that fetches this URL fetches from itself";
const NETWORK: &str = "a server that fetches this URL reaches into its own network";
const NO_PUBLIC_HOST: &str =
    "no public host has such an address: a server that fetches this URL reaches whatever its own network puts there";
const CREDENTIALS: &str = "a server that fetches this URL can hand over its cloud credentials";

const fn entry(
    block: Block,
    what: &'static str,
    source: &'static str,
    reaches: &'static str,
) -> Entry {
    Entry {
        block,
        internal: Internal {
            what,
            source,
            cloud_metadata: false,
            reaches,
            name: matches!(block, Block::Name(_) | Block::Subtree(_)),
            embedded: None,
            via: None,
        },
    }
}

const fn metadata(block: Block, source: &'static str) -> Entry {
    let mut e = entry(block, "cloud metadata", source, CREDENTIALS);
    e.internal.cloud_metadata = true;
    e
}

const fn v4(a: u8, b: u8, c: u8, d: u8, len: u8) -> Block {
    Block::V4(Ipv4Addr::new(a, b, c, d), len)
}

#[allow(clippy::too_many_arguments)]
const fn v6(a: u16, b: u16, c: u16, d: u16, e: u16, f: u16, g: u16, h: u16, len: u8) -> Block {
    Block::V6(Ipv6Addr::new(a, b, c, d, e, f, g, h), len)
}

const RESERVED_V6: &str = "IANA IPv6 Address Space registry: Reserved by IETF (RFC 4291)";

/// The table. An address is classified by its longest matching prefix, so a cloud metadata
/// address is that rather than link-local.
pub static TABLE: &[Entry] = &[
    // IANA IPv4 Special-Purpose Address Registry (RFC 6890), the blocks not globally reachable.
    entry(v4(0, 0, 0, 0, 8), "\"this network\"", "IANA IPv4 Special-Purpose Address Registry: 0.0.0.0/8 (RFC 791 § 3.2)", ITSELF),
    entry(v4(0, 0, 0, 0, 32), "unspecified", "IANA IPv4 Special-Purpose Address Registry: 0.0.0.0/32, \"this host on this network\" (RFC 1122 § 3.2.1.3)", ITSELF),
    entry(v4(10, 0, 0, 0, 8), "private-use", "IANA IPv4 Special-Purpose Address Registry: 10.0.0.0/8 (RFC 1918)", NETWORK),
    entry(v4(100, 64, 0, 0, 10), "shared (carrier-grade NAT)", "IANA IPv4 Special-Purpose Address Registry: 100.64.0.0/10 (RFC 6598)", NETWORK),
    entry(v4(127, 0, 0, 0, 8), "loopback", "IANA IPv4 Special-Purpose Address Registry: 127.0.0.0/8 (RFC 1122 § 3.2.1.3)", ITSELF),
    entry(v4(169, 254, 0, 0, 16), "link-local", "IANA IPv4 Special-Purpose Address Registry: 169.254.0.0/16 (RFC 3927)", NETWORK),
    entry(v4(172, 16, 0, 0, 12), "private-use", "IANA IPv4 Special-Purpose Address Registry: 172.16.0.0/12 (RFC 1918)", NETWORK),
    entry(v4(192, 0, 0, 0, 24), "IETF protocol assignments", "IANA IPv4 Special-Purpose Address Registry: 192.0.0.0/24 (RFC 6890 § 2.1)", NETWORK),
    entry(v4(192, 0, 2, 0, 24), "documentation (TEST-NET-1)", "IANA IPv4 Special-Purpose Address Registry: 192.0.2.0/24 (RFC 5737)", NO_PUBLIC_HOST),
    entry(v4(192, 168, 0, 0, 16), "private-use", "IANA IPv4 Special-Purpose Address Registry: 192.168.0.0/16 (RFC 1918)", NETWORK),
    entry(v4(198, 18, 0, 0, 15), "benchmarking", "IANA IPv4 Special-Purpose Address Registry: 198.18.0.0/15 (RFC 2544)", NO_PUBLIC_HOST),
    entry(v4(198, 51, 100, 0, 24), "documentation (TEST-NET-2)", "IANA IPv4 Special-Purpose Address Registry: 198.51.100.0/24 (RFC 5737)", NO_PUBLIC_HOST),
    entry(v4(203, 0, 113, 0, 24), "documentation (TEST-NET-3)", "IANA IPv4 Special-Purpose Address Registry: 203.0.113.0/24 (RFC 5737)", NO_PUBLIC_HOST),
    entry(v4(240, 0, 0, 0, 4), "reserved", "IANA IPv4 Special-Purpose Address Registry: 240.0.0.0/4 (RFC 1112 § 4)", NO_PUBLIC_HOST),
    entry(v4(255, 255, 255, 255, 32), "limited broadcast", "IANA IPv4 Special-Purpose Address Registry: 255.255.255.255/32 (RFC 919 § 7)", NETWORK),
    // IANA IPv4 Multicast Address Space Registry.
    entry(v4(224, 0, 0, 0, 4), "multicast", "IANA IPv4 Multicast Address Space Registry: 224.0.0.0/4 (RFC 5771)", NETWORK),
    // IANA IPv6 Special-Purpose Address Registry (RFC 6890), the blocks not globally reachable.
    // The IPv4-mapped and NAT64 prefixes are read through the IPv4 address they carry.
    entry(v6(0, 0, 0, 0, 0, 0, 0, 1, 128), "loopback", "IANA IPv6 Special-Purpose Address Registry: ::1/128 (RFC 4291)", ITSELF),
    entry(v6(0, 0, 0, 0, 0, 0, 0, 0, 128), "unspecified", "IANA IPv6 Special-Purpose Address Registry: ::/128 (RFC 4291)", ITSELF),
    entry(v6(0x64, 0xff9b, 1, 0, 0, 0, 0, 0, 48), "local-use IPv4/IPv6 translation", "IANA IPv6 Special-Purpose Address Registry: 64:ff9b:1::/48 (RFC 8215)", NETWORK),
    entry(v6(0x100, 0, 0, 0, 0, 0, 0, 0, 64), "discard-only", "IANA IPv6 Special-Purpose Address Registry: 100::/64 (RFC 6666)", NO_PUBLIC_HOST),
    entry(v6(0x2001, 2, 0, 0, 0, 0, 0, 0, 48), "benchmarking", "IANA IPv6 Special-Purpose Address Registry: 2001:2::/48 (RFC 5180)", NO_PUBLIC_HOST),
    entry(v6(0x2001, 0xdb8, 0, 0, 0, 0, 0, 0, 32), "documentation", "IANA IPv6 Special-Purpose Address Registry: 2001:db8::/32 (RFC 3849)", NO_PUBLIC_HOST),
    entry(v6(0x3fff, 0, 0, 0, 0, 0, 0, 0, 20), "documentation", "IANA IPv6 Special-Purpose Address Registry: 3fff::/20 (RFC 9637)", NO_PUBLIC_HOST),
    entry(v6(0xfc00, 0, 0, 0, 0, 0, 0, 0, 7), "unique local", "IANA IPv6 Special-Purpose Address Registry: fc00::/7 (RFC 4193)", NETWORK),
    entry(v6(0xfe80, 0, 0, 0, 0, 0, 0, 0, 10), "link-local", "IANA IPv6 Special-Purpose Address Registry: fe80::/10 (RFC 4291)", NETWORK),
    // IANA IPv6 Address Space registry: multicast, and what is reserved by the IETF (all but
    // 2000::/3, fc00::/7, fe80::/10 and ff00::/8; fec0::/10 was site-local, RFC 3879).
    entry(v6(0xff00, 0, 0, 0, 0, 0, 0, 0, 8), "multicast", "IANA IPv6 Address Space registry: ff00::/8 (RFC 4291 § 2.7)", NETWORK),
    entry(v6(0, 0, 0, 0, 0, 0, 0, 0, 3), "reserved", RESERVED_V6, NO_PUBLIC_HOST),
    entry(v6(0x4000, 0, 0, 0, 0, 0, 0, 0, 2), "reserved", RESERVED_V6, NO_PUBLIC_HOST),
    entry(v6(0x8000, 0, 0, 0, 0, 0, 0, 0, 2), "reserved", RESERVED_V6, NO_PUBLIC_HOST),
    entry(v6(0xc000, 0, 0, 0, 0, 0, 0, 0, 3), "reserved", RESERVED_V6, NO_PUBLIC_HOST),
    entry(v6(0xe000, 0, 0, 0, 0, 0, 0, 0, 4), "reserved", RESERVED_V6, NO_PUBLIC_HOST),
    entry(v6(0xf000, 0, 0, 0, 0, 0, 0, 0, 5), "reserved", RESERVED_V6, NO_PUBLIC_HOST),
    entry(v6(0xf800, 0, 0, 0, 0, 0, 0, 0, 6), "reserved", RESERVED_V6, NO_PUBLIC_HOST),
    entry(v6(0xfe00, 0, 0, 0, 0, 0, 0, 0, 9), "reserved", RESERVED_V6, NO_PUBLIC_HOST),
    entry(v6(0xfec0, 0, 0, 0, 0, 0, 0, 0, 10), "site-local (deprecated)", "IANA IPv6 Address Space registry: fec0::/10, Reserved by IETF (RFC 3879)", NETWORK),
    // Cloud metadata endpoints, as each provider documents them.
    metadata(v4(169, 254, 169, 254, 32), "AWS EC2, Google Compute Engine and Azure Instance Metadata Service documentation: 169.254.169.254"),
    metadata(v4(100, 100, 100, 200, 32), "Alibaba Cloud ECS instance metadata documentation: 100.100.100.200"),
    metadata(v6(0xfd00, 0xec2, 0, 0, 0, 0, 0, 0x254, 128), "AWS EC2 instance metadata documentation: fd00:ec2::254"),
    metadata(Block::Name("metadata.google.internal"), "Google Compute Engine metadata server documentation: metadata.google.internal"),
    // Names.
    entry(Block::Subtree("localhost"), "loopback", "RFC 6761 § 6.3", ITSELF),
    entry(Block::Name("localhost.localdomain"), "loopback", "older Chromium net::IsLocalHostname, as in /etc/hosts", ITSELF),
    entry(Block::Name("localhost6"), "loopback", "older Chromium net::IsLocalHostname, as in /etc/hosts", ITSELF),
    entry(Block::Name("localhost6.localdomain6"), "loopback", "older Chromium net::IsLocalHostname, as in /etc/hosts", ITSELF),
    entry(Block::Name("ip6-localhost"), "loopback", "Debian's and Ubuntu's /etc/hosts: ::1", ITSELF),
    entry(Block::Name("ip6-loopback"), "loopback", "Debian's and Ubuntu's /etc/hosts: ::1", ITSELF),
    entry(Block::Name("ip6-allnodes"), "multicast", "Debian's and Ubuntu's /etc/hosts: ff02::1", NETWORK),
    entry(Block::Name("ip6-allrouters"), "multicast", "Debian's and Ubuntu's /etc/hosts: ff02::2", NETWORK),
    entry(Block::Subtree("local"), "link-local (multicast DNS)", "RFC 6762 § 3", NETWORK),
    entry(Block::Subtree("home.arpa"), "home network", "RFC 8375", NETWORK),
    entry(Block::Subtree("internal"), "private-use", "ICANN's reservation of .internal for private use (2024, SSAC SAC113)", NETWORK),
];

/// The last label of every name entry: a name whose last label is none of these is no entry's
/// (the keystroke path's early exit).
const NAME_LAST_LABELS: &[&str] = &[
    "localhost",
    "localdomain",
    "localhost6",
    "localdomain6",
    "ip6-localhost",
    "ip6-loopback",
    "ip6-allnodes",
    "ip6-allrouters",
    "local",
    "arpa",
    "internal",
];

/// Whether `host`, as one parser gives it (any spelling: a domain, an IPv4 address in any
/// notation a client reads, an IPv6 address with or without brackets, an opaque host that
/// spells one of those), is an internal destination; `None` for a public one.
pub fn classify_host(host: &str) -> Option<Internal> {
    classify(host).map(|d| d.internal)
}

/// [`classify_host`], with the host as a client reads it.
pub fn classify(host: &str) -> Option<Destination> {
    if host.is_empty() || plainly_public(host) {
        return None;
    }
    // An opaque host is percent-decoded by the client that connects to it; the host parser
    // does the same for a domain (URL Standard: host parser, step 5).
    let decoded = percent_decode(host.as_bytes());
    let decoded = String::from_utf8_lossy(&decoded);
    if let Some(ip) = ipv6_literal(&decoded) {
        return classify_ipv6(ip).map(|internal| Destination {
            host: format!("[{ip}]"),
            internal,
        });
    }
    // URL Standard: host parser, not opaque: percent-decoding, domain to ASCII (IDNA maps and
    // ignores code points, so `local\u{AD}host` is `localhost`), and the IPv4 parser for every
    // notation it reads (`0x7f.1`, `2130706433`, `0177.0.0.1`, `127.1`).
    match parse_host(&mut NoSink, host, 0, false) {
        Ok(Host::Ipv4(address)) => {
            let ip = Ipv4Addr::from(address);
            let reading = classify_ipv4(ip).map(|internal| Destination {
                host: ip.to_string(),
                internal,
            });
            reading.or_else(|| decimal_reading(&decoded))
        }
        Ok(Host::Domain(domain)) => classify_name(&domain),
        Ok(Host::Ipv6(pieces)) => {
            let ip = Ipv6Addr::from(pieces);
            classify_ipv6(ip).map(|internal| Destination {
                host: format!("[{ip}]"),
                internal,
            })
        }
        // A host the URL Standard refuses (a forbidden code point, a failing IDNA label) is
        // still a name to other clients: read it ASCII-lowercased.
        Ok(Host::Opaque(_) | Host::Empty) | Err(()) => {
            decimal_reading(&decoded).or_else(|| classify_name(&decoded.to_ascii_lowercase()))
        }
    }
}

/// An ASCII host with nothing to decode, not ending in a number (so not an IPv4 address), not
/// an IPv6 address, and whose last label ends no name entry: public, decided without
/// allocating.
pub(crate) fn plainly_public(host: &str) -> bool {
    let b = host.as_bytes();
    if !host.is_ascii() || b.iter().any(|&c| matches!(c, b'%' | b':' | b'[')) {
        return false;
    }
    if ends_in_a_number(host) {
        return false;
    }
    // The last label, found from the end: a byte search rather than the string splitter,
    // whose set-up costs more than these short scans.
    let trimmed = b.strip_suffix(b".").unwrap_or(b);
    let last = match trimmed.iter().rposition(|&c| c == b'.') {
        Some(dot) => &trimmed[dot + 1..],
        None => trimmed,
    };
    !NAME_LAST_LABELS
        .iter()
        .any(|l| last.eq_ignore_ascii_case(l.as_bytes()))
        && !wildcard::may_be_service(host)
}

/// An IPv6 address with or without brackets, with a zone identifier (`fe80::1%eth0`, RFC 6874)
/// set aside, as std reads it.
fn ipv6_literal(s: &str) -> Option<Ipv6Addr> {
    let inner = match s.strip_prefix('[') {
        Some(rest) => rest.strip_suffix(']')?,
        None => s,
    };
    if !inner.contains(':') {
        return None;
    }
    let address = inner.split_once('%').map_or(inner, |(a, _)| a);
    address.parse().ok()
}

/// A dotted quad of decimal parts with leading zeros (`0127.0.0.1`) read as decimal, as some
/// clients read it where the URL Standard reads octal: internal when that reading is.
fn decimal_reading(s: &str) -> Option<Destination> {
    let s = s.strip_suffix('.').unwrap_or(s);
    let parts: Vec<&str> = s.split('.').collect();
    if parts.len() != 4 || !parts.iter().any(|p| p.len() > 1 && p.starts_with('0')) {
        return None;
    }
    let mut octets = [0u8; 4];
    for (octet, part) in octets.iter_mut().zip(&parts) {
        if part.is_empty() || !part.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        *octet = part.parse().ok()?;
    }
    let ip = Ipv4Addr::from(octets);
    classify_ipv4(ip).map(|internal| Destination {
        host: ip.to_string(),
        internal,
    })
}

/// The entry of an ASCII-lowercase name (the final dot set aside).
fn classify_name(name: &str) -> Option<Destination> {
    let name = name.trim_end_matches('.');
    let last = name.rfind('.').map_or(name, |dot| &name[dot + 1..]);
    if !NAME_LAST_LABELS.contains(&last) {
        return classify_service_name(name);
    }
    // The longest matching name: `metadata.google.internal` before `internal`.
    TABLE
        .iter()
        .filter(|e| e.block.contains_name(name))
        .max_by_key(|e| match e.block {
            Block::Name(n) | Block::Subtree(n) => n.len(),
            _ => 0,
        })
        .map(|e| Destination {
            host: name.to_owned(),
            internal: e.internal,
        })
}

/// A name of a public service that resolves inside ([`wildcard`]): the entry of the first
/// internal address it resolves to, or, for a rebinding service's name that shows no records,
/// an entry of its own (the gate fails closed).
fn classify_service_name(name: &str) -> Option<Destination> {
    let (service, reading) = wildcard::read(name)?;
    let via = |address| Via {
        service: service.domain,
        documented: service.source,
        address,
        rebinds: service.rebinds(),
    };
    let internal = match reading {
        wildcard::Reading::Addresses(addresses) => addresses.into_iter().find_map(|a| {
            let internal = match a {
                IpAddr::V4(v4) => classify_ipv4(v4),
                IpAddr::V6(v6) => classify_ipv6(v6),
            }?;
            Some(Internal {
                via: Some(via(Some(a))),
                name: true,
                ..internal
            })
        })?,
        wildcard::Reading::Unreadable => Internal {
            what: "DNS rebinding service",
            source: service.source,
            cloud_metadata: false,
            reaches: "a server that fetches this URL goes wherever the name's owner points it, inside its own network included",
            name: true,
            embedded: None,
            via: Some(via(None)),
        },
    };
    Some(Destination {
        host: name.to_owned(),
        internal,
    })
}

/// The entry of an IPv4 address: the longest matching prefix.
pub fn classify_ipv4(ip: Ipv4Addr) -> Option<Internal> {
    TABLE
        .iter()
        .filter_map(|e| e.block.contains_v4(ip).map(|len| (len, e)))
        .max_by_key(|&(len, _)| len)
        .map(|(_, e)| e.internal)
}

/// The entry of an IPv6 address: through the IPv4 address it embeds, or the longest matching
/// prefix.
pub fn classify_ipv6(ip: Ipv6Addr) -> Option<Internal> {
    let s = ip.segments();
    let low = Ipv4Addr::from(u128::from(ip) as u32);
    let through = |form: &'static str, source: &'static str, ipv4: Ipv4Addr| {
        classify_ipv4(ipv4).map(|internal| Internal {
            embedded: Some(Embedded { form, source, ipv4 }),
            ..internal
        })
    };
    // Where the IPv4 address is the destination, it alone decides.
    if let Some(v4) = ip.to_ipv4_mapped() {
        return through("IPv4-mapped", "RFC 4291 § 2.5.5.2", v4);
    }
    if s[..6] == [0x64, 0xff9b, 0, 0, 0, 0] {
        return through("NAT64", "RFC 6052 § 2.1", low);
    }
    // The other embeddings: the IPv4 address's entry when it is internal, else the table's.
    let embedded = match s {
        [0x64, 0xff9b, 1, ..] => through("local-use NAT64", "RFC 8215", low),
        [0, 0, 0, 0, 0, 0, ..] if u128::from(ip) > 1 => {
            through("IPv4-compatible", "RFC 4291 § 2.5.5.1, deprecated", low)
        }
        [0, 0, 0, 0, 0xffff, 0, ..] => through("IPv4-translated", "RFC 2765 § 2.1", low),
        [0x2002, hi, lo, ..] => through(
            "6to4",
            "RFC 3056 § 2",
            Ipv4Addr::from((u32::from(hi) << 16) | u32::from(lo)),
        ),
        _ => None,
    };
    embedded.or_else(|| {
        TABLE
            .iter()
            .filter_map(|e| e.block.contains_v6(ip).map(|len| (len, e)))
            .max_by_key(|&(len, _)| len)
            .map(|(_, e)| e.internal)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A block as its registry lists it: its first and last address, the addresses just
    /// outside it, and the entry's name. Written from the registry, not from the table.
    struct Row {
        first: &'static str,
        last: &'static str,
        outside: &'static [&'static str],
        what: &'static str,
    }

    const fn row(
        first: &'static str,
        last: &'static str,
        outside: &'static [&'static str],
        what: &'static str,
    ) -> Row {
        Row {
            first,
            last,
            outside,
            what,
        }
    }

    /// What `host` classifies as, by entry name.
    fn what(host: &str) -> Option<&'static str> {
        classify_host(host).map(|i| i.what)
    }

    fn check_rows(rows: &[Row], registry: &str) {
        let mut failures = Vec::new();
        for r in rows {
            for inside in [r.first, r.last] {
                let got = what(inside);
                // An IPv6 address that carries an internal IPv4 address is named by that
                // address's entry (the first and last of 64:ff9b:1::/48 carry 0.0.0.0 and
                // 255.255.255.255).
                let carried = classify_host(inside).is_some_and(|i| i.embedded.is_some());
                if got != Some(r.what) && !carried {
                    failures.push(format!("{inside}: expected {:?}, got {got:?}", r.what));
                }
                // Every entry of the registries cites the registry.
                let source = classify_host(inside).map_or("", |i| i.source);
                if !source.contains(registry) && !carried {
                    failures.push(format!("{inside}: source {source:?} is not {registry}"));
                }
            }
            for outside in r.outside {
                let got = what(outside);
                if got == Some(r.what) {
                    failures.push(format!("{outside} (outside {}): got {got:?}", r.first));
                }
            }
        }
        assert!(failures.is_empty(), "{}", failures.join("\n"));
    }

    #[test]
    fn the_ipv4_special_purpose_registry_block_by_block() {
        // IANA IPv4 Special-Purpose Address Registry, the blocks whose "Globally Reachable" is
        // False; the address just outside each is public or another block's.
        check_rows(
            &[
                row("0.0.0.1", "0.255.255.255", &["1.0.0.0"], "\"this network\""),
                row("0.0.0.0", "0.0.0.0", &["0.0.0.1"], "unspecified"),
                row(
                    "10.0.0.0",
                    "10.255.255.255",
                    &["9.255.255.255", "11.0.0.0"],
                    "private-use",
                ),
                row(
                    "100.64.0.0",
                    "100.127.255.255",
                    &["100.63.255.255", "100.128.0.0"],
                    "shared (carrier-grade NAT)",
                ),
                row(
                    "127.0.0.0",
                    "127.255.255.255",
                    &["126.255.255.255", "128.0.0.0"],
                    "loopback",
                ),
                row(
                    "169.254.0.0",
                    "169.254.255.255",
                    &["169.253.255.255", "169.255.0.0"],
                    "link-local",
                ),
                row(
                    "172.16.0.0",
                    "172.31.255.255",
                    &["172.15.255.255", "172.32.0.0"],
                    "private-use",
                ),
                row(
                    "192.0.0.0",
                    "192.0.0.255",
                    &["191.255.255.255", "192.0.1.0"],
                    "IETF protocol assignments",
                ),
                row(
                    "192.0.2.0",
                    "192.0.2.255",
                    &["192.0.1.255", "192.0.3.0"],
                    "documentation (TEST-NET-1)",
                ),
                row(
                    "192.168.0.0",
                    "192.168.255.255",
                    &["192.167.255.255", "192.169.0.0"],
                    "private-use",
                ),
                row(
                    "198.18.0.0",
                    "198.19.255.255",
                    &["198.17.255.255", "198.20.0.0"],
                    "benchmarking",
                ),
                row(
                    "198.51.100.0",
                    "198.51.100.255",
                    &["198.51.99.255", "198.51.101.0"],
                    "documentation (TEST-NET-2)",
                ),
                row(
                    "203.0.113.0",
                    "203.0.113.255",
                    &["203.0.112.255", "203.0.114.0"],
                    "documentation (TEST-NET-3)",
                ),
                row(
                    "240.0.0.0",
                    "255.255.255.254",
                    &["239.255.255.255"],
                    "reserved",
                ),
                row(
                    "255.255.255.255",
                    "255.255.255.255",
                    &["255.255.255.254"],
                    "limited broadcast",
                ),
            ],
            "IANA IPv4 Special-Purpose Address Registry",
        );
        for public in [
            "1.0.0.0",
            "9.255.255.255",
            "11.0.0.0",
            "126.255.255.255",
            "128.0.0.0",
            "8.8.8.8",
        ] {
            assert_eq!(what(public), None, "{public}");
        }
    }

    #[test]
    fn ipv4_multicast_by_its_registry() {
        check_rows(
            &[row(
                "224.0.0.0",
                "239.255.255.255",
                &["223.255.255.255", "240.0.0.0"],
                "multicast",
            )],
            "IANA IPv4 Multicast Address Space Registry",
        );
        assert_eq!(what("223.255.255.255"), None);
    }

    #[test]
    fn the_ipv6_special_purpose_registry_block_by_block() {
        check_rows(
            &[
                row("::1", "[::1]", &["::2"], "loopback"),
                row("::", "[::]", &["::1"], "unspecified"),
                row(
                    "64:ff9b:1::",
                    "64:ff9b:1:ffff:ffff:ffff:ffff:ffff",
                    &["64:ff9b:0:ffff:ffff:ffff:ffff:ffff", "64:ff9b:2::"],
                    "local-use IPv4/IPv6 translation",
                ),
                row(
                    "100::",
                    "100::ffff:ffff:ffff:ffff",
                    &["100:0:0:1::"],
                    "discard-only",
                ),
                row(
                    "2001:2::",
                    "2001:2:0:ffff:ffff:ffff:ffff:ffff",
                    &["2001:1:ffff:ffff:ffff:ffff:ffff:ffff", "2001:2:1::"],
                    "benchmarking",
                ),
                row(
                    "2001:db8::",
                    "2001:db8:ffff:ffff:ffff:ffff:ffff:ffff",
                    &["2001:db7:ffff:ffff:ffff:ffff:ffff:ffff", "2001:db9::"],
                    "documentation",
                ),
                row(
                    "3fff::",
                    "3fff:fff:ffff:ffff:ffff:ffff:ffff:ffff",
                    &["3ffe:ffff:ffff:ffff:ffff:ffff:ffff:ffff", "3fff:1000::"],
                    "documentation",
                ),
                row(
                    "fc00::",
                    "fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff",
                    &["fbff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", "fe00::"],
                    "unique local",
                ),
                row(
                    "fe80::",
                    "febf:ffff:ffff:ffff:ffff:ffff:ffff:ffff",
                    &["fe7f:ffff:ffff:ffff:ffff:ffff:ffff:ffff", "fec0::"],
                    "link-local",
                ),
            ],
            "IANA IPv6 Special-Purpose Address Registry",
        );
        // Just outside the special-purpose blocks in global unicast space: public.
        for public in [
            "2001:1:ffff:ffff:ffff:ffff:ffff:ffff",
            "2001:2:1::",
            "2001:db7:ffff:ffff:ffff:ffff:ffff:ffff",
            "2001:db9::",
            "3ffe:ffff:ffff:ffff:ffff:ffff:ffff:ffff",
            "3fff:1000::",
            "2606:4700::1111",
            "[2a00:1450:4001:80b::200e]",
        ] {
            assert_eq!(what(public), None, "{public}");
        }
    }

    #[test]
    fn the_ipv6_address_space_registry_outside_global_unicast() {
        // IANA IPv6 Address Space registry: multicast, and every block Reserved by IETF.
        check_rows(
            &[
                row(
                    "ff00::",
                    "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff",
                    &["feff:ffff:ffff:ffff:ffff:ffff:ffff:ffff"],
                    "multicast",
                ),
                row(
                    "fec0::",
                    "feff:ffff:ffff:ffff:ffff:ffff:ffff:ffff",
                    &["febf:ffff:ffff:ffff:ffff:ffff:ffff:ffff"],
                    "site-local (deprecated)",
                ),
                row(
                    "::1:0:0",
                    "1fff:ffff:ffff:ffff:ffff:ffff:ffff:ffff",
                    &["2000::"],
                    "reserved",
                ),
                row(
                    "4000::",
                    "fbff:ffff:ffff:ffff:ffff:ffff:ffff:ffff",
                    &["3fff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", "fc00::"],
                    "reserved",
                ),
                row(
                    "fe00::",
                    "fe7f:ffff:ffff:ffff:ffff:ffff:ffff:ffff",
                    &["fe80::"],
                    "reserved",
                ),
            ],
            "IANA IPv6 Address Space registry",
        );
        assert_eq!(what("2000::"), None);
        assert_eq!(what("3ffe:ffff:ffff:ffff:ffff:ffff:ffff:ffff"), None);
    }

    #[test]
    fn cloud_metadata_endpoints_as_the_providers_document_them() {
        for host in [
            "169.254.169.254",
            "100.100.100.200",
            "[fd00:ec2::254]",
            "fd00:ec2::254",
            "metadata.google.internal",
            "METADATA.google.internal.",
        ] {
            let internal = classify_host(host).expect(host);
            assert!(internal.cloud_metadata, "{host}: {internal:?}");
            assert_eq!(internal.what, "cloud metadata", "{host}");
        }
        // Their neighbours are the blocks around them, not metadata.
        assert_eq!(what("169.254.169.253"), Some("link-local"));
        assert_eq!(what("169.254.169.255"), Some("link-local"));
        assert_eq!(what("100.100.100.199"), Some("shared (carrier-grade NAT)"));
        assert_eq!(what("fd00:ec2::253"), Some("unique local"));
        assert_eq!(what("foo.google.internal"), Some("private-use"));
    }

    #[test]
    fn localhost_and_the_names_under_it() {
        for host in [
            "localhost",
            "LOCALHOST",
            "localhost.",
            "LocalHost.",
            "foo.localhost",
            "a.b.localhost.",
            "localhost.localdomain",
            "localhost6",
            "localhost6.localdomain6",
        ] {
            let internal = classify_host(host).expect(host);
            assert_eq!(internal.what, "loopback", "{host}");
            assert!(internal.name && !internal.cloud_metadata, "{host}");
        }
        assert_eq!(
            classify_host("localhost").map(|i| i.source),
            Some("RFC 6761 § 6.3")
        );
        for public in [
            "localhost.example.com",
            "notlocalhost",
            "localhostx",
            "xlocalhost.com",
            "example.com",
            "local.example",
        ] {
            assert_eq!(what(public), None, "{public}");
        }
    }

    #[test]
    fn private_use_names() {
        assert_eq!(what("printer.local"), Some("link-local (multicast DNS)"));
        assert_eq!(what("router.home.arpa."), Some("home network"));
        assert_eq!(what("db.corp.internal"), Some("private-use"));
        assert_eq!(what("in-addr.arpa"), None);
        assert_eq!(what("home.arpa.example"), None);
    }

    #[test]
    fn localhost_behind_code_points_idna_ignores_or_maps() {
        for host in [
            "local\u{AD}host",
            "local\u{200B}host",
            "loca\u{180B}lhost",
            "localho\u{FB06}",
            "lo\u{3388}host",
            "ｌｏｃａｌｈｏｓｔ",
            "localhost\u{3002}",
            "LOCAL%68OST",
            "local%C2%ADhost",
        ] {
            let d = classify(host).expect(host);
            assert_eq!(d.host, "localhost", "{host:?}");
            assert_eq!(d.internal.what, "loopback", "{host:?}");
        }
    }

    #[test]
    fn ipv4_in_every_notation_the_url_standard_reads() {
        for host in [
            "127.0.0.1",
            "0x7f.1",
            "2130706433",
            "0177.0.0.1",
            "127.1",
            "0x7f000001",
            "017700000001",
            "127.0.0.1.",
            "%31%32%37.0.0.1",
            "１２７.０.０.１",
        ] {
            let d = classify(host).expect(host);
            assert_eq!(d.host, "127.0.0.1", "{host}");
            assert_eq!(d.internal.what, "loopback", "{host}");
        }
        // A leading zero some clients read as decimal: 010.0.0.1 is 8.0.0.1 to the URL Standard
        // and 10.0.0.1 to them.
        assert_eq!(
            classify("010.0.0.1").map(|d| d.host),
            Some("10.0.0.1".into())
        );
        assert_eq!(what("8.0.0.1"), None);
    }

    #[test]
    fn ipv6_with_or_without_brackets_and_with_a_zone() {
        for host in [
            "::1",
            "[::1]",
            "[0:0:0:0:0:0:0:1]",
            "%5B::1%5D",
            "fe80::1%eth0",
            "fe80::1%25eth0",
        ] {
            assert!(classify_host(host).is_some(), "{host}");
        }
        assert_eq!(classify("[::1]").map(|d| d.host), Some("[::1]".into()));
    }

    #[test]
    fn ipv6_forms_of_internal_ipv4_addresses() {
        let forms = [
            ("::ffff:127.0.0.1", "IPv4-mapped"),
            ("::ffff:7f00:1", "IPv4-mapped"),
            ("::127.0.0.1", "IPv4-compatible"),
            ("::ffff:0:127.0.0.1", "IPv4-translated"),
            ("64:ff9b::127.0.0.1", "NAT64"),
            ("64:ff9b:1::127.0.0.1", "local-use NAT64"),
            ("2002:7f00:1::", "6to4"),
        ];
        for (host, form) in forms {
            let i = classify_host(host).expect(host);
            assert_eq!(i.what, "loopback", "{host}");
            let e = i.embedded.expect(host);
            assert_eq!(
                (e.form, e.ipv4),
                (form, Ipv4Addr::new(127, 0, 0, 1)),
                "{host}"
            );
        }
        for host in [
            "::ffff:169.254.169.254",
            "::169.254.169.254",
            "::ffff:0:169.254.169.254",
            "64:ff9b::169.254.169.254",
            "64:ff9b:1::a9fe:a9fe",
            "2002:a9fe:a9fe::",
        ] {
            let i = classify_host(host).expect(host);
            assert!(i.cloud_metadata, "{host}: {i:?}");
            assert_eq!(
                i.embedded.map(|e| e.ipv4),
                Some(Ipv4Addr::new(169, 254, 169, 254))
            );
        }
        // The mapped and well-known NAT64 forms of a public address reach that address; the
        // other forms of it stay in space no public host has; 6to4 of it is public.
        assert_eq!(what("::ffff:8.8.8.8"), None);
        assert_eq!(what("64:ff9b::8.8.8.8"), None);
        assert_eq!(what("::8.8.8.8"), Some("reserved"));
        assert_eq!(what("::ffff:0:8.8.8.8"), Some("reserved"));
        assert_eq!(
            what("64:ff9b:1::8.8.8.8"),
            Some("local-use IPv4/IPv6 translation")
        );
        assert_eq!(what("2002:808:808::"), None);
    }

    #[test]
    fn opaque_hosts_spelling_internal_destinations() {
        for (host, reached) in [
            ("127.0.0.1", "127.0.0.1"),
            ("%31%32%37.0.0.1", "127.0.0.1"),
            ("localhost", "localhost"),
            ("169.254.169.254", "169.254.169.254"),
            // Code points the URL Standard forbids in a domain, which another client keeps.
            ("localhost*", "localhost*"),
        ] {
            assert_eq!(
                classify(host).map(|d| d.host),
                if host == "localhost*" {
                    None
                } else {
                    Some(reached.to_owned())
                },
                "{host}"
            );
        }
    }

    #[test]
    fn public_hosts_stay_unflagged() {
        for host in [
            "8.8.8.8",
            "example.com",
            "EXAMPLE.COM.",
            "localhost.example.com",
            "notlocalhost",
            "münchen.de",
            "xn--mnchen-3ya.de",
            "1.1.1.1",
            "[2606:4700::1111]",
            "",
            "%",
            "[",
            "[::1",
            "999.0.0.1",
        ] {
            assert_eq!(classify_host(host), None, "{host:?}");
        }
    }

    #[test]
    fn the_early_exit_agrees_with_the_full_reading() {
        // The keystroke path: a plainly public host skips the host parser; it must be a host
        // the full reading finds public too.
        for host in [
            "example.com",
            "a.b.c",
            "LOCALHOST.example",
            "x-localhost",
            "localhost-x.com",
            "foo.localhost.com",
        ] {
            assert!(plainly_public(host), "{host}");
            assert_eq!(classify_name(&host.to_ascii_lowercase()), None, "{host}");
        }
        for host in [
            "localhost",
            "a.LOCAL",
            "x.internal.",
            "home.arpa",
            "127.1",
            "[::1]",
            "::1",
            "%6c",
        ] {
            assert!(!plainly_public(host), "{host}");
        }
    }

    #[test]
    fn every_entry_is_reached_and_cited() {
        // Each block once; each name entry past the early exit, and found by its own name; each
        // address block's network address classified as that entry or one inside it.
        for (i, e) in TABLE.iter().enumerate() {
            assert!(!e.internal.source.is_empty(), "{:?}", e.block);
            assert!(
                TABLE[i + 1..].iter().all(|o| o.block != e.block),
                "{:?} twice",
                e.block
            );
            match e.block {
                Block::Name(n) | Block::Subtree(n) => {
                    assert!(
                        !plainly_public(n),
                        "{n} is taken for public by the early exit"
                    );
                    assert_eq!(classify_host(n), Some(e.internal), "{n}");
                    assert_eq!(
                        classify_host(&format!("{}.", n.to_ascii_uppercase())),
                        Some(e.internal),
                        "{n}"
                    );
                }
                Block::V4(net, len) => {
                    let got = classify_ipv4(net).expect("internal");
                    let inner = TABLE.iter().any(|o| {
                        o.internal == got
                            && matches!(o.block, Block::V4(_, l) if l >= len)
                            && o.block.contains_v4(net).is_some()
                    });
                    assert!(inner, "{net}/{len}: {got:?}");
                }
                Block::V6(net, len) => {
                    let got = classify_ipv6(net).expect("internal");
                    assert!(
                        got.embedded.is_some()
                            || TABLE.iter().any(|o| o.internal == got
                                && matches!(o.block, Block::V6(_, l) if l >= len)),
                        "{net}/{len}: {got:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn the_sentence_names_the_entry_and_its_source() {
        let d = classify("localhost").expect("localhost");
        assert_eq!(
            d.describe(),
            "localhost is a loopback name (RFC 6761 § 6.3): a server that fetches this URL \
             fetches from itself"
        );
        let d = classify("[::ffff:a9fe:a9fe]").expect("mapped");
        assert_eq!(
            d.describe(),
            "[::ffff:169.254.169.254], the IPv4-mapped form (RFC 4291 § 2.5.5.2) of \
             169.254.169.254, is a cloud metadata endpoint (AWS EC2, Google Compute Engine and \
             Azure Instance Metadata Service documentation: 169.254.169.254): a server that \
             fetches this URL can hand over its cloud credentials"
        );
    }
}
