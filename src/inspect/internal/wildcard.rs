//! Public names that resolve inside: services on the public DNS whose names resolve to the
//! address they spell (`10.0.0.1.nip.io`), to loopback (`anything.localtest.me`), or to what
//! whoever wrote the name asked for, changing between one lookup and the next (DNS rebinding:
//! `make-1.2.3.4-rebind-169.254-169.254-rr.1u.ms`). Each service is read as its own
//! documentation says it answers, without a lookup: the host alone shows where it goes.
//!
//! A gate fails closed: where a rebinding service's name cannot be read (an encoded record, a
//! CNAME), it is taken as internal, since its owner decides where it goes. A name of a spelling
//! service that spells no address goes to the service's own web site, a public host.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

/// How a service maps its names to addresses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// The name spells an address at its end, in dots or dashes (`app.10.0.0.1`,
    /// `app-10-0-0-1`); with `hex`, also eight hexadecimal digits (`app-0a000001`); with
    /// `ipv6`, a last label of an IPv6 address written with dashes for colons (`--1` is
    /// `::1`). `otherwise_loopback`: a name that spells nothing resolves to 127.0.0.1.
    Spelled {
        hex: bool,
        ipv6: bool,
        otherwise_loopback: bool,
    },
    /// The name and every name under it resolve to 127.0.0.1.
    Loopback,
    /// The name alone resolves to 127.0.0.1 (the names under it are another service's).
    LoopbackName,
    /// 1u.ms: `make-<record>[-and-<record>…][-rebind-<record>]-rr`, each record an IPv4
    /// address in dots or dashes, or `ip-v6-` and an IPv6 address with `c` for colons.
    OneUms,
    /// rbndr.us: `<hex IPv4>.<hex IPv4>.rbndr.us`, either address at random.
    Rbndr,
    /// whonow (rebind.network): `A.<IPv4>.<rule>[.<IPv4>.<rule>…]`, and 127.0.0.1 once the
    /// rules run out unless the last is `forever` or `repeat`.
    Whonow,
}

/// One service of the table.
#[derive(Clone, Copy, Debug)]
pub struct Service {
    /// The service's domain; the table covers it and every name under it.
    pub domain: &'static str,
    kind: Kind,
    /// Where the mapping is documented.
    pub source: &'static str,
}

impl Service {
    /// Whether the service's names can resolve to another address each time (DNS rebinding).
    pub fn rebinds(&self) -> bool {
        matches!(self.kind, Kind::OneUms | Kind::Rbndr | Kind::Whonow)
    }
}

const fn spelled(domain: &'static str, hex: bool, ipv6: bool, source: &'static str) -> Service {
    Service {
        domain,
        kind: Kind::Spelled {
            hex,
            ipv6,
            otherwise_loopback: false,
        },
        source,
    }
}

const fn loopback(domain: &'static str, source: &'static str) -> Service {
    Service {
        domain,
        kind: Kind::Loopback,
        source,
    }
}

/// The table: each service with its own documentation's words for what it does.
pub static SERVICES: &[Service] = &[
    spelled("nip.io", true, false, "nip.io's documentation: a name that ends in an IPv4 address, written with dots, dashes or eight hexadecimal digits, resolves to it"),
    spelled("sslip.io", false, true, "sslip.io's documentation: a name with an embedded IPv4 address (dots or dashes) or IPv6 address (dashes for colons) resolves to it"),
    spelled("xip.io", false, false, "xip.io's documentation: a name that ends in an IPv4 address resolves to it"),
    Service {
        domain: "traefik.me",
        kind: Kind::Spelled { hex: false, ipv6: false, otherwise_loopback: true },
        source: "traefik.me's documentation: a name that ends in an IPv4 address (dots or dashes) resolves to it, any other name to 127.0.0.1",
    },
    loopback("localtest.me", "localtest.me's documentation: the name and every name under it resolve to 127.0.0.1"),
    loopback("lvh.me", "lvh.me (\"local virtual host\"): the name and every name under it resolve to 127.0.0.1"),
    loopback("vcap.me", "vcap.me (Cloud Foundry's local development domain): every name under it resolves to 127.0.0.1"),
    loopback("localhost.direct", "localhost.direct's documentation: every name under it resolves to 127.0.0.1"),
    loopback("local.gd", "local.gd's documentation: the name and every name under it resolve to 127.0.0.1"),
    loopback("localh.st", "PayloadsAllTheThings' SSRF list: localh.st resolves to 127.0.0.1"),
    Service {
        domain: "spoofed.burpcollaborator.net",
        kind: Kind::LoopbackName,
        source: "PortSwigger's Web Security Academy: spoofed.burpcollaborator.net resolves to 127.0.0.1",
    },
    Service {
        domain: "1u.ms",
        kind: Kind::OneUms,
        source: "1u.ms's documentation (github.com/neex/1u.ms): make-<IP>-rr resolves to the address, make-<IP1>-rebind-<IP2>-rr first to IP1 and then to IP2",
    },
    Service {
        domain: "rbndr.us",
        kind: Kind::Rbndr,
        source: "rbndr's documentation (github.com/taviso/rbndr): <hex IPv4>.<hex IPv4>.rbndr.us resolves to either address at random",
    },
    Service {
        domain: "rebind.network",
        kind: Kind::Whonow,
        source: "whonow's documentation (github.com/brannondorsey/whonow): A.<IP>.<rule>… resolves to each address in turn, then to 127.0.0.1",
    },
];

/// What a service's name resolves to, read from the name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reading {
    /// Every address the name can resolve to.
    Addresses(Vec<IpAddr>),
    /// A rebinding service's name whose records cannot be read: its owner decides.
    Unreadable,
}

/// The service `name` (ASCII lowercase, no final dot) falls under, and the part before its
/// domain (empty for the domain itself).
fn service_of(name: &str) -> Option<(&'static Service, &str)> {
    SERVICES.iter().find_map(|s| {
        if name == s.domain {
            return Some((s, ""));
        }
        let sub = name.strip_suffix(s.domain)?.strip_suffix('.')?;
        Some((s, sub))
    })
}

/// Whether `host` (any case, a final dot or not) may be a name of the table: the keystroke
/// path's early exit, without allocating.
pub fn may_be_service(host: &str) -> bool {
    let host = host.strip_suffix('.').unwrap_or(host).as_bytes();
    // Most names end in none of the services' last letters: a one-byte test before the
    // suffixes are compared.
    let Some(&last) = host.last() else {
        return false;
    };
    if !SERVICES.iter().any(|s| {
        s.domain
            .as_bytes()
            .last()
            .is_some_and(|d| d.eq_ignore_ascii_case(&last))
    }) {
        return false;
    }
    SERVICES.iter().any(|s| {
        let d = s.domain.as_bytes();
        host.len() >= d.len()
            && host[host.len() - d.len()..].eq_ignore_ascii_case(d)
            && (host.len() == d.len() || host[host.len() - d.len() - 1] == b'.')
    })
}

/// The service a name falls under and what its name resolves to; `None` for a name of no
/// service, or one that spells no address and goes to its service's own site.
pub fn read(name: &str) -> Option<(&'static Service, Reading)> {
    let (service, sub) = service_of(name)?;
    let reading = match service.kind {
        Kind::Loopback => Reading::Addresses(vec![IpAddr::V4(Ipv4Addr::LOCALHOST)]),
        Kind::LoopbackName if sub.is_empty() => {
            Reading::Addresses(vec![IpAddr::V4(Ipv4Addr::LOCALHOST)])
        }
        Kind::LoopbackName => return None,
        Kind::Spelled {
            hex,
            ipv6,
            otherwise_loopback,
        } => {
            let address = spelled_at_end(sub, hex)
                .map(IpAddr::V4)
                .or_else(|| ipv6.then(|| dashed_ipv6(sub)).flatten().map(IpAddr::V6));
            match address {
                Some(a) => Reading::Addresses(vec![a]),
                None if otherwise_loopback => {
                    Reading::Addresses(vec![IpAddr::V4(Ipv4Addr::LOCALHOST)])
                }
                None => return None,
            }
        }
        Kind::OneUms => one_ums(sub),
        Kind::Rbndr => rbndr(sub),
        Kind::Whonow => whonow(sub),
    };
    Some((service, reading))
}

/// An IPv4 address at the end of `sub`: its last four parts split at dots and dashes, each a
/// decimal octet; with `hex`, else the last eight characters as hexadecimal digits after the
/// start, a dot or a dash.
fn spelled_at_end(sub: &str, hex: bool) -> Option<Ipv4Addr> {
    let parts: Vec<&str> = sub.split(['.', '-']).collect();
    if parts.len() >= 4 {
        if let Some(ip) = octets(&parts[parts.len() - 4..]) {
            return Some(ip);
        }
    }
    if hex && sub.len() >= 8 {
        let (before, digits) = sub.split_at(sub.len() - 8);
        if (before.is_empty() || before.ends_with(['.', '-']))
            && digits.bytes().all(|b| b.is_ascii_hexdigit())
        {
            return u32::from_str_radix(digits, 16).ok().map(Ipv4Addr::from);
        }
    }
    None
}

/// Four decimal octets (no sign, at most three digits each).
fn octets(parts: &[&str]) -> Option<Ipv4Addr> {
    let mut out = [0u8; 4];
    if parts.len() != 4 {
        return None;
    }
    for (o, p) in out.iter_mut().zip(parts) {
        if p.is_empty() || p.len() > 3 || !p.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        *o = p.parse().ok()?;
    }
    Some(Ipv4Addr::from(out))
}

/// sslip.io's IPv6 spelling: the last label with dashes for colons (`--1`, `2a01-4f8--2`).
fn dashed_ipv6(sub: &str) -> Option<Ipv6Addr> {
    let label = sub.rsplit('.').next()?;
    if !label.contains('-') {
        return None;
    }
    label.replace('-', ":").parse().ok()
}

/// An IPv4 address written with dots, dashes or both (`169.254-169.254`).
fn dotted_or_dashed(s: &str) -> Option<Ipv4Addr> {
    let parts: Vec<&str> = s.split(['.', '-']).collect();
    octets(&parts)
}

/// 1u.ms: the records between `make-` and `-rr`; unreadable when any record is not an
/// address (a CNAME, a hex-encoded record) or the name has no `make-…-rr`.
fn one_ums(sub: &str) -> Reading {
    let Some(start) = sub.find("make-") else {
        return Reading::Unreadable;
    };
    let body = &sub[start + "make-".len()..];
    let Some(end) = body.rfind("-rr") else {
        return Reading::Unreadable;
    };
    let body = &body[..end];
    let mut addresses = Vec::new();
    for rebind_part in body.split("-rebind-") {
        for record in rebind_part.split("-and-") {
            let address = match record.strip_prefix("ip-v6-") {
                Some(v6) => v6.replace('c', ":").parse().ok().map(IpAddr::V6),
                None => dotted_or_dashed(record).map(IpAddr::V4),
            };
            match address {
                Some(a) => addresses.push(a),
                None => return Reading::Unreadable,
            }
        }
    }
    Reading::Addresses(addresses)
}

/// rbndr.us: the two labels before the domain, each eight hexadecimal digits.
fn rbndr(sub: &str) -> Reading {
    let labels: Vec<&str> = sub.split('.').collect();
    if labels.len() < 2 {
        return Reading::Unreadable;
    }
    let mut addresses = Vec::new();
    for label in &labels[labels.len() - 2..] {
        if label.len() != 8 || !label.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Reading::Unreadable;
        }
        match u32::from_str_radix(label, 16) {
            Ok(n) => addresses.push(IpAddr::V4(Ipv4Addr::from(n))),
            Err(_) => return Reading::Unreadable,
        }
    }
    Reading::Addresses(addresses)
}

/// whonow: every dotted quad among the labels, and its default answer (127.0.0.1) unless
/// the last rule keeps answering (`forever`, `repeat`).
fn whonow(sub: &str) -> Reading {
    let labels: Vec<&str> = sub.split('.').collect();
    let mut addresses = Vec::new();
    let mut i = 0;
    while i < labels.len() {
        if let Some(ip) = labels.get(i..i + 4).and_then(octets) {
            addresses.push(IpAddr::V4(ip));
            i += 4;
        } else {
            i += 1;
        }
    }
    let keeps_answering = labels
        .iter()
        .rev()
        .find(|l| {
            **l == "forever" || **l == "repeat" || l.ends_with("time") || l.ends_with("times")
        })
        .is_some_and(|l| *l == "forever" || *l == "repeat");
    if !keeps_answering || addresses.is_empty() {
        addresses.push(IpAddr::V4(Ipv4Addr::LOCALHOST));
    }
    Reading::Addresses(addresses)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn addresses(name: &str) -> Option<Vec<String>> {
        match read(name)?.1 {
            Reading::Addresses(a) => Some(a.iter().map(ToString::to_string).collect()),
            Reading::Unreadable => Some(vec!["unreadable".into()]),
        }
    }

    /// The examples each service's documentation gives, with the addresses it says they
    /// resolve to.
    #[test]
    fn documented_examples() {
        let cases: &[(&str, &[&str])] = &[
            // nip.io
            ("10.0.0.1.nip.io", &["10.0.0.1"]),
            ("app.10.8.0.1.nip.io", &["10.8.0.1"]),
            ("app-116-203-255-68.nip.io", &["116.203.255.68"]),
            ("app-c0a801fc.nip.io", &["192.168.1.252"]),
            ("customer1.app.10.0.0.1.nip.io", &["10.0.0.1"]),
            ("magic-127-0-0-1.nip.io", &["127.0.0.1"]),
            ("0a000803.nip.io", &["10.0.8.3"]),
            // sslip.io
            ("192.168.0.1.sslip.io", &["192.168.0.1"]),
            ("www-192-168-0-1.sslip.io", &["192.168.0.1"]),
            ("--1.sslip.io", &["::1"]),
            ("2a01-4f8-c17-b8f--2.sslip.io", &["2a01:4f8:c17:b8f::2"]),
            // traefik.me
            ("10.0.0.1.traefik.me", &["10.0.0.1"]),
            ("app.traefik.me", &["127.0.0.1"]),
            // loopback services
            ("localtest.me", &["127.0.0.1"]),
            ("a.b.lvh.me", &["127.0.0.1"]),
            ("localh.st", &["127.0.0.1"]),
            ("spoofed.burpcollaborator.net", &["127.0.0.1"]),
            // 1u.ms
            ("make-1.2.3.4-rr.1u.ms", &["1.2.3.4"]),
            ("make-1-2-3-4-rr.1u.ms", &["1.2.3.4"]),
            ("a.prefix-make-1-2-3-4-rr-and.a-suffix.1u.ms", &["1.2.3.4"]),
            ("make-1-2-3-4-and-5-6-7-8-rr.1u.ms", &["1.2.3.4", "5.6.7.8"]),
            (
                "make-1.2.3.4-rebind-169.254-169.254-rr.1u.ms",
                &["1.2.3.4", "169.254.169.254"],
            ),
            ("prefix-make-ip-v6-1c2cc3-rr-suffix.1u.ms", &["1:2::3"]),
            ("make-example.com-rr.1u.ms", &["unreadable"]),
            ("make-hex-312e322e332e34-rr.1u.ms", &["unreadable"]),
            // rbndr.us
            ("7f000001.c0a80001.rbndr.us", &["127.0.0.1", "192.168.0.1"]),
            // whonow
            (
                "a.52.23.194.42.1time.192.168.1.1.forever.rebind.network",
                &["52.23.194.42", "192.168.1.1"],
            ),
            (
                "a.52.23.194.42.1time.rebind.network",
                &["52.23.194.42", "127.0.0.1"],
            ),
        ];
        for (name, want) in cases {
            let want: Vec<String> = want.iter().map(|s| s.to_string()).collect();
            assert_eq!(addresses(name), Some(want), "{name}");
        }
    }

    /// Names of a spelling service that spell nothing go to its own site; names of no
    /// service, or that only end like one, are none of the table's.
    #[test]
    fn not_the_table() {
        for name in [
            "nip.io",
            "www.nip.io",
            "sslip.io",
            "example.com",
            "notnip.io",
            "nip.io.example.com",
            "1.2.3.4.5.nip.io.evil",
            "other.spoofed.burpcollaborator.net",
        ] {
            assert_eq!(addresses(name), None, "{name}");
        }
        assert!(may_be_service("A.B.NIP.IO."));
        assert!(!may_be_service("notnip.io"));
        assert!(!may_be_service("example.com"));
    }
}
