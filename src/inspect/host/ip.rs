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
                format!(
                    "{} is the address {dotted}, written with {}",
                    quoted(typed),
                    notation(typed)
                ),
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

/// What makes the typed form of an IPv4 address other than dotted decimal: what the host
/// parser decodes and maps (percent-encoding, full-width digits, other full stops), then the
/// IPv4 parser's notations (hexadecimal, octal, fewer than four parts, a trailing dot).
fn notation(typed: &str) -> String {
    let mut used: Vec<&str> = Vec::new();
    if typed.contains('%') {
        used.push("percent-encoded bytes that the host parser decodes");
    }
    let decoded = String::from_utf8_lossy(&crate::url::percent::percent_decode(typed.as_bytes()))
        .into_owned();
    let is_full_width_digit = |c: char| ('\u{FF10}'..='\u{FF19}').contains(&c);
    let is_other_full_stop = |c: char| matches!(c, '\u{3002}' | '\u{FF0E}' | '\u{FF61}');
    if decoded.chars().any(is_full_width_digit) {
        used.push("full-width digits that IDNA maps to ASCII digits");
    }
    if decoded.chars().any(is_other_full_stop) {
        used.push("full stops that IDNA maps to \".\" (ideographic, full-width or half-width)");
    }
    if decoded
        .chars()
        .any(|c| !c.is_ascii() && !is_full_width_digit(c) && !is_other_full_stop(c))
    {
        used.push("other code points that IDNA maps to ASCII");
    }
    // The host parser's domain to ASCII gives what the IPv4 parser reads.
    let ascii = crate::url::host::domain_parser(&decoded, false).unwrap_or(decoded);
    let mut parts: Vec<&str> = ascii.split('.').collect();
    // URL Standard: IPv4 parser, step 3: a last empty part is removed (a validation error).
    if parts.len() > 1 && parts.last() == Some(&"") {
        parts.pop();
        used.push("a trailing dot");
    }
    let is_hex = |p: &&str| p.starts_with("0x") || p.starts_with("0X");
    if parts.iter().any(is_hex) {
        used.push("hexadecimal parts (0x)");
    }
    if parts
        .iter()
        .any(|p| !is_hex(p) && p.len() > 1 && p.starts_with('0'))
    {
        used.push("octal parts (a leading 0)");
    }
    match parts.len() {
        1 => used.push("a single number for the whole address"),
        2 | 3 => used.push("fewer than four parts (the last fills the rest)"),
        _ => {}
    }
    if used.is_empty() {
        used.push("a notation other than dotted decimal");
    }
    match used.split_last() {
        Some((last, [])) => (*last).to_owned(),
        Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
        None => String::new(),
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
