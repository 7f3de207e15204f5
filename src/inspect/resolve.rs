//! What a lookup shows: the addresses a reading's name resolves to, judged by the internal
//! table ([`crate::inspect::internal`]). A name may resolve anywhere (`company.example` to
//! `10.0.0.5`); only a lookup tells, and the tools of record for SSRF (Python's advocate, Ruby's
//! ssrf_filter, Doyensec's safeurl, Node's request-filtering-agent) resolve the name and judge
//! every address. This module holds the judging, which needs no network; the lookups are the
//! caller's ([`Resolver`]; the command line's is `system::SystemResolver`, with the `native`
//! feature).
//!
//! **What a check at validation time cannot do.** A name can resolve to a public address when
//! it is checked and to an internal one when the client connects (DNS rebinding: a time to live
//! of zero, or a server that answers each query differently). A check that resolves the name
//! protects only a client that then connects to the address that was checked, not to the name
//! again.

#[cfg(feature = "native")]
pub mod system;

use serde::Serialize;
use std::net::IpAddr;

use crate::diff::destination::HostKey;
use crate::diff::{Answer, Destination};
use crate::inspect::finding::{Finding, FindingId as F, Severity};
use crate::inspect::internal::{classify_ipv4, classify_ipv6, Internal};

/// What one lookup gave.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "snake_case", tag = "outcome")]
pub enum Outcome {
    /// Every address the resolver gave, in its order.
    Addresses { addresses: Vec<IpAddr> },
    /// The resolver gave no address: the name does not exist, has no address record, or the
    /// resolver failed. `error` says which, in the resolver's words.
    Failed { error: String },
    /// No answer within the time limit (`seconds`).
    TimedOut { seconds: f64 },
}

/// One name's lookup.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Lookup {
    /// The name asked for, as a resolver is asked (ASCII, lowercase, no final dot).
    pub name: String,
    /// Who answered: `the system resolver`, `the DNS server 127.0.0.1:5353`.
    pub by: String,
    #[serde(flatten)]
    pub outcome: Outcome,
}

/// Looks names up. Implementations bound their time and their concurrency, and cache.
pub trait Resolver: Sync {
    /// One lookup per name, in the order of `names`.
    fn lookup(&self, names: &[String]) -> Vec<Lookup>;
}

/// The name a client asks a resolver for to reach a reading's destination; `None` when the
/// destination is not a name (an IP address in any notation the URL Standard's IPv4 parser
/// reads, a `file` URL's local machine, no host), is a name the internal table already judges
/// internal, or is not one a resolver can be asked for.
pub fn name_of(answer: &Answer) -> Option<String> {
    let Some(HostKey::Name(name)) = Destination::of(answer)?.host else {
        return None;
    };
    // An opaque host is percent-decoded by the client that connects to it.
    let decoded = crate::url::percent::percent_decode(name.as_bytes());
    let name = String::from_utf8(decoded.into_owned())
        .ok()?
        .to_ascii_lowercase();
    let name = name.strip_suffix('.').unwrap_or(&name).to_owned();
    // A name every reading would read as an address (`0x7f.1`) is judged by the internal
    // table, not asked for.
    if let Ok(crate::url::record::Host::Ipv4(_) | crate::url::record::Host::Ipv6(_)) =
        crate::url::host::parse_host(&mut crate::url::sink::NoSink, &name, 0, false)
    {
        return None;
    }
    // A name the internal table already places inside (`localhost`, `10.0.0.1.nip.io`) needs
    // no lookup to be judged.
    if crate::inspect::internal::classify(&name).is_some() {
        return None;
    }
    let dns = !name.is_empty()
        && name.len() <= 253
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'))
        && name.split('.').all(|l| !l.is_empty() && l.len() <= 63);
    dns.then_some(name)
}

/// The distinct names to look up for `readings`, in the order the readings first name them.
pub fn names(readings: &[(String, Answer)]) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    for (_, answer) in readings {
        if let Some(name) = name_of(answer) {
            if !names.contains(&name) {
                names.push(name);
            }
        }
    }
    names
}

/// The internal table's entry of an address.
pub fn classify(address: IpAddr) -> Option<Internal> {
    match address {
        IpAddr::V4(v4) => classify_ipv4(v4),
        IpAddr::V6(v6) => classify_ipv6(v6),
    }
}

/// The lookup of `name` among `lookups`.
fn lookup_of<'a>(lookups: &'a [Lookup], name: &str) -> Option<&'a Lookup> {
    lookups.iter().find(|l| l.name == name)
}

/// For one reading, the internal table's entry of the first internal address its name
/// resolved to (`private-use`).
pub fn internal_entry(answer: &Answer, lookups: &[Lookup]) -> Option<&'static str> {
    let lookup = lookup_of(lookups, &name_of(answer)?)?;
    let Outcome::Addresses { addresses } = &lookup.outcome else {
        return None;
    };
    addresses.iter().find_map(|&a| classify(a).map(|i| i.what))
}

/// For one reading, the internal addresses its name resolved to, as the gate's finding names
/// them: `10.0.0.5 by the system resolver, private-use (IANA …)`.
pub fn internal_addresses(answer: &Answer, lookups: &[Lookup]) -> Option<String> {
    let name = name_of(answer)?;
    let lookup = lookup_of(lookups, &name)?;
    let Outcome::Addresses { addresses } = &lookup.outcome else {
        return None;
    };
    let internal: Vec<String> = addresses
        .iter()
        .filter_map(|&a| classify(a).map(|i| format!("{a}, {} ({})", i.what, i.source)))
        .collect();
    (!internal.is_empty()).then(|| {
        format!(
            "resolves by {} to {}",
            lookup.by,
            internal.join(", and to ")
        )
    })
}

/// The findings of the lookups of `readings`' names: an internal address (`resolves-internal`,
/// a warning, where no gate asks; under `--deny-internal` the gate names it among its
/// `internal-destination`s instead) and a lookup that gave no address (`lookup-failed`: danger
/// under `deny_internal`, where the gate fails closed, else a warning). Each names the readings
/// whose name it is.
pub fn judge(
    readings: &[(String, Answer)],
    lookups: &[Lookup],
    deny_internal: bool,
) -> Vec<Finding> {
    let mut internal: Vec<(String, Vec<&str>)> = Vec::new();
    let mut failed: Vec<(String, Vec<&str>)> = Vec::new();
    fn add<'a>(groups: &mut Vec<(String, Vec<&'a str>)>, text: String, parser: &'a str) {
        match groups.iter_mut().find(|(t, _)| *t == text) {
            Some((_, names)) => names.push(parser),
            None => groups.push((text, vec![parser])),
        }
    }
    for (parser, answer) in readings {
        let Some(name) = name_of(answer) else {
            continue;
        };
        let Some(lookup) = lookup_of(lookups, &name) else {
            continue;
        };
        match &lookup.outcome {
            Outcome::Addresses { .. } => {
                if !deny_internal {
                    if let Some(text) = internal_addresses(answer, lookups) {
                        add(&mut internal, format!("{name} {text}"), parser.as_str());
                    }
                }
            }
            Outcome::Failed { error } => add(
                &mut failed,
                format!("{name}: {} gave no address ({error})", lookup.by),
                parser.as_str(),
            ),
            Outcome::TimedOut { seconds } => add(
                &mut failed,
                format!("{name}: {} gave no answer within {seconds} s", lookup.by),
                parser.as_str(),
            ),
        }
    }
    let join = |groups: Vec<(String, Vec<&str>)>| {
        groups
            .into_iter()
            .map(|(text, names)| format!("{text}: {}", names.join(", ")))
            .collect::<Vec<_>>()
            .join("; ")
    };
    let mut findings = Vec::new();
    if !internal.is_empty() {
        findings.push(Finding::new(F::ResolvesInternal, join(internal)));
    }
    if !failed.is_empty() {
        let mut finding = Finding::new(F::LookupFailed, join(failed));
        if deny_internal {
            // Fails closed: a name that gave no address now may give an internal one when the
            // client looks it up.
            finding.severity = Severity::Danger;
            finding.detail.push_str(
                "; not shown to be public, so the gate fails closed (the client's own lookup may \
                 give any address)",
            );
        }
        findings.push(finding);
    }
    findings
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diff::Builtin;

    fn readings(input: &str) -> Vec<(String, Answer)> {
        Builtin::ALL
            .iter()
            .map(|b| (b.name().to_owned(), b.read(input, None)))
            .collect()
    }

    fn looked_up(name: &str, addresses: &[&str]) -> Lookup {
        Lookup {
            name: name.into(),
            by: "a test's table".into(),
            outcome: Outcome::Addresses {
                addresses: addresses
                    .iter()
                    .map(|a| a.parse().expect("address"))
                    .collect(),
            },
        }
    }

    #[test]
    fn names_are_what_a_resolver_is_asked() {
        assert_eq!(names(&readings("http://Example.COM./x")), ["example.com"]);
        assert_eq!(
            names(&readings("http://b\u{FC}cher.example/")),
            ["xn--bcher-kva.example"]
        );
        // Addresses, in any notation, are the internal table's.
        assert!(names(&readings("http://127.0.0.1/")).is_empty());
        assert!(names(&readings("http://0x7f.1/")).is_empty());
        assert!(names(&readings("http://[::1]/")).is_empty());
        assert!(names(&readings("file:///etc/passwd")).is_empty());
        assert!(names(&readings("not a url")).is_empty());
    }

    #[test]
    fn internal_addresses_and_failures_are_named() {
        let r = readings("http://intranet.example/");
        let lookups = [looked_up(
            "intranet.example",
            &["93.184.216.34", "10.0.0.5"],
        )];
        let findings = judge(&r, &lookups, false);
        assert_eq!(findings.len(), 1);
        assert_eq!(findings[0].id, "resolves-internal");
        assert!(
            findings[0].detail.starts_with(
                "intranet.example resolves by a test's table to 10.0.0.5, private-use"
            ),
            "{}",
            findings[0].detail
        );
        // Public addresses only: nothing to say.
        let lookups = [looked_up("intranet.example", &["93.184.216.34"])];
        assert!(judge(&r, &lookups, false).is_empty());
        // A failure is a warning, or danger when the gate denies internal destinations.
        let failed = [Lookup {
            name: "intranet.example".into(),
            by: "a test's table".into(),
            outcome: Outcome::TimedOut { seconds: 2.0 },
        }];
        let warn = judge(&r, &failed, false);
        assert_eq!(
            (warn[0].id, warn[0].severity),
            ("lookup-failed", Severity::Warn)
        );
        let danger = judge(&r, &failed, true);
        assert_eq!(
            (danger[0].id, danger[0].severity),
            ("lookup-failed", Severity::Danger)
        );
    }
}
