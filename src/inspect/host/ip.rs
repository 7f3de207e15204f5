//! IP address hosts: every notation that reaches the address, its range, and the findings
//! about non-canonical forms and internal ranges.

use serde::Serialize;
use std::net::{Ipv4Addr, Ipv6Addr};

use crate::inspect::finding::{quoted, Finding, FindingId as F};
use crate::validation::Span;

/// An IP address host: every notation that reaches it, and its range.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct IpAnalysis {
    pub notations: Vec<(String, String)>,
    pub range: Option<&'static str>,
}

const CLOUD_METADATA: &str = "cloud metadata service";

/// The range an IPv4 address is in, when it is not ordinary public space.
pub fn ipv4_range(ip: Ipv4Addr) -> Option<&'static str> {
    let o = ip.octets();
    Some(match o {
        // AWS, GCP, Azure, OpenStack and most others answer here with instance credentials;
        // Alibaba Cloud at 100.100.100.200.
        [169, 254, 169, 254] | [100, 100, 100, 200] => CLOUD_METADATA,
        [127, ..] => "loopback",
        [0, 0, 0, 0] => "unspecified",
        [0, ..] => "this network",
        [10, ..] => "private",
        [172, b, ..] if (16..=31).contains(&b) => "private",
        [192, 168, ..] => "private",
        [169, 254, ..] => "link-local",
        [100, b, ..] if (64..=127).contains(&b) => "carrier-grade NAT",
        [192, 0, 2, _] | [198, 51, 100, _] | [203, 0, 113, _] => "documentation",
        [198, 18..=19, ..] => "benchmarking",
        [224..=239, ..] => "multicast",
        [255, 255, 255, 255] => "broadcast",
        [240..=255, ..] => "reserved",
        _ => return None,
    })
}

/// The range of an IPv6 address; an IPv4-mapped address is in its IPv4 address's range.
pub fn ipv6_range(ip: Ipv6Addr) -> Option<&'static str> {
    if let Some(v4) = ip.to_ipv4_mapped() {
        return ipv4_range(v4);
    }
    Some(match ip.segments() {
        [0, 0, 0, 0, 0, 0, 0, 1] => "loopback",
        [0, 0, 0, 0, 0, 0, 0, 0] => "unspecified",
        [0xfe80..=0xfebf, ..] => "link-local",
        // AWS's IPv6 instance metadata endpoint.
        [0xfd00, 0xec2, 0, 0, 0, 0, 0, 0x254] => CLOUD_METADATA,
        [0xfc00..=0xfdff, ..] => "unique local (private)",
        [0x2001, 0xdb8, ..] => "documentation",
        [0xff00..=0xffff, ..] => "multicast",
        _ => return None,
    })
}

/// The one finding for an address in a special range: a cloud metadata endpoint is what a
/// server-side request forgery reaches for, the others are internal.
fn range_finding(address: &str, range: &'static str) -> Finding {
    if range == CLOUD_METADATA {
        Finding::new(
            F::CloudMetadata,
            format!("{address} is a {range} endpoint: a server that fetches this URL can hand over its cloud credentials"),
        )
    } else {
        Finding::new(
            F::InternalAddress,
            format!("{address} is in {range} address space"),
        )
    }
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
    let range = ipv4_range(ip);
    if let Some(range) = range {
        findings.push(range_finding(&dotted, range));
    }
    IpAnalysis { notations, range }
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
    let range = ipv6_range(ip);
    if let Some(range) = range {
        let address = match mapped {
            Some(v4) => format!("[{ip}], the IPv4-mapped form of {v4},"),
            None => format!("[{ip}]"),
        };
        findings.push(range_finding(&address, range));
    }
    IpAnalysis { notations, range }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges() {
        assert_eq!(
            ipv4_range(Ipv4Addr::new(169, 254, 169, 254)),
            Some(CLOUD_METADATA)
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
            Some(CLOUD_METADATA)
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
            "[::ffff:127.0.0.1], the IPv4-mapped form of 127.0.0.1, is in loopback address space"
        );
    }
}
