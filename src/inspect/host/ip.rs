//! IP address hosts: every notation that reaches the address, its range, and the findings
//! about non-canonical forms and internal ranges.

use serde::Serialize;
use std::net::{Ipv4Addr, Ipv6Addr};

use super::internal_finding;
use crate::inspect::finding::{quoted, Finding, FindingId as F};
use crate::inspect::internal::{self, Destination};
use crate::validation::Span;

/// An IP address host: every notation that reaches it, and its range.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct IpAnalysis {
    pub notations: Vec<(String, String)>,
    pub range: Option<&'static str>,
}

/// The range an IPv4 address is in, when it is an internal destination: the name of its entry
/// in the one table ([`crate::inspect::internal`]).
pub fn ipv4_range(ip: Ipv4Addr) -> Option<&'static str> {
    internal::classify_ipv4(ip).map(|i| i.what)
}

/// The range of an IPv6 address (an IPv6 address that carries an IPv4 address, by that
/// address's range), from the same table.
pub fn ipv6_range(ip: Ipv6Addr) -> Option<&'static str> {
    internal::classify_ipv6(ip).map(|i| i.what)
}

pub(super) fn ipv4(
    address: u32,
    typed: &str,
    host_span: Option<Span>,
    findings: &mut Vec<Finding>,
) -> IpAnalysis {
    let ip = Ipv4Addr::from(address);
    let dotted = ip.to_string();
    let mut notations = Vec::with_capacity(5);
    if !typed.is_empty() {
        notations.push(("as typed".to_owned(), typed.to_owned()));
    }
    notations.extend([
        ("dotted decimal".to_owned(), dotted.clone()),
        ("hexadecimal".to_owned(), format!("0x{address:08x}")),
        ("integer".to_owned(), address.to_string()),
        ("octal".to_owned(), format!("0{address:o}")),
    ]);
    if !typed.is_empty() && typed != dotted {
        findings.push(
            Finding::new(
                F::NonCanonicalIpv4,
                format!("{} is the address {dotted}: hex, octal, a plain integer or fewer than four parts all reach it", quoted(typed)),
            )
            .span(host_span.unwrap_or(Span { start: 0, end: 0 })),
        );
    }
    let internal = internal::classify_ipv4(ip);
    if let Some(internal) = internal {
        let destination = Destination {
            host: dotted,
            internal,
        };
        findings.push(internal_finding(&destination, None));
    }
    IpAnalysis {
        notations,
        range: internal.map(|i| i.what),
    }
}

pub(super) fn ipv6(pieces: [u16; 8], findings: &mut Vec<Finding>) -> IpAnalysis {
    let ip = Ipv6Addr::from(pieces);
    let full: Vec<String> = pieces.iter().map(|p| format!("{p:04x}")).collect();
    let mut notations = vec![
        ("compressed".to_owned(), format!("[{ip}]")),
        ("full".to_owned(), full.join(":")),
    ];
    let mapped = ip.to_ipv4_mapped();
    if let Some(v4) = mapped {
        notations.push(("IPv4-mapped".to_owned(), v4.to_string()));
    }
    let internal = internal::classify_ipv6(ip);
    if let Some(internal) = internal {
        let destination = Destination {
            host: format!("[{ip}]"),
            internal,
        };
        findings.push(internal_finding(&destination, None));
    }
    IpAnalysis {
        notations,
        range: internal.map(|i| i.what),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges() {
        assert_eq!(
            ipv4_range(Ipv4Addr::new(169, 254, 169, 254)),
            Some("cloud metadata")
        );
        assert_eq!(
            ipv4_range(Ipv4Addr::new(169, 254, 1, 1)),
            Some("link-local")
        );
        assert_eq!(ipv4_range(Ipv4Addr::new(8, 8, 8, 8)), None);
        assert_eq!(
            ipv6_range("::ffff:127.0.0.1".parse().expect("ip")),
            Some("loopback")
        );
        assert_eq!(ipv6_range("::ffff:8.8.8.8".parse().expect("ip")), None);
        assert_eq!(
            ipv6_range("fd00:ec2::254".parse().expect("ip")),
            Some("cloud metadata")
        );
    }

    #[test]
    fn an_ipv4_mapped_address_reads_cleanly() {
        let mut findings = Vec::new();
        let pieces = "::ffff:127.0.0.1"
            .parse::<Ipv6Addr>()
            .expect("ip")
            .segments();
        ipv6(pieces, &mut findings);
        assert_eq!(
            findings[0].detail,
            "[::ffff:127.0.0.1], the IPv4-mapped form (RFC 4291 § 2.5.5.2) of 127.0.0.1, is in \
             loopback address space (IANA IPv4 Special-Purpose Address Registry: 127.0.0.0/8 \
             (RFC 1122 § 3.2.1.3)): a server that fetches this URL fetches from itself"
        );
    }
}
