//! The gate: whether a URL may be fetched, judged on every reading of it. One function,
//! [`Gate::judge`], decides the verdict for every surface (`check --allow-host`/`--deny-internal`,
//! the inspector, Python's `check_batch` and Spark's `check`).
//!
//! It fails closed (OWASP's SSRF prevention cheat sheet: allow-list, validate the destination
//! the client will really reach). A validator and the client that fetches may be different
//! parsers, so a URL passes the allowlist only when the destination of *every* reading that has
//! one (the host and port a connection would use, compared as `diff` compares them:
//! [`Destination`], [`HostKey`]) is allowed, and at least one reading has one. Each finding
//! says which reading went where.

use serde::Serialize;
use std::net::Ipv6Addr;

use crate::diff::destination::HostKey;
use crate::diff::destination::PortKey;
use crate::diff::{Answer, Destination};
use crate::inspect::finding::{Finding, FindingId as F};
use crate::inspect::resolve;
use crate::url::host::parse_host;
use crate::url::record::Host;
use crate::url::sink::NoSink;

/// The hosts a URL may go to: each entry a host as the URL Standard's host parser reads it,
/// optionally with a port, or `*.` and a domain for its subdomains.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Allowlist {
    entries: Vec<Entry>,
}

/// One allowed destination.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Entry {
    /// The host, as [`HostKey`] compares it; for a subdomain entry, the parent domain.
    host: HostKey,
    /// `*.example.com`: the subdomains of `host`, not `host` itself.
    subdomains: bool,
    /// `None`: any port.
    port: Option<u16>,
}

impl Allowlist {
    /// Reads each of `values` as one entry: `HOST`, `HOST:PORT`, `*.DOMAIN` or `*.DOMAIN:PORT`.
    /// HOST is what the URL Standard's host parser reads as a special URL's host (so
    /// `EXAMPLE.com`, `bücher.example`, `example.com.`, `[::1]` and `0x7f.1` are the hosts they
    /// serialize to); an IPv6 address may also be given without its brackets. A value that
    /// cannot be a host (a URL, a path, the empty string, `*` elsewhere than a leading `*.`, a
    /// host the parser refuses) is refused with a message that says why.
    pub fn parse<S: AsRef<str>>(values: &[S]) -> Result<Allowlist, String> {
        let entries = values
            .iter()
            .map(|v| Entry::parse(v.as_ref()))
            .collect::<Result<_, _>>()?;
        Ok(Allowlist { entries })
    }

    /// Whether the allowlist has no entry (it then allows nothing).
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Whether a connection to `destination` is allowed.
    pub fn allows(&self, destination: &Destination) -> bool {
        let Some(host) = &destination.host else {
            return false;
        };
        self.entries.iter().any(|entry| {
            let port = entry
                .port
                .is_none_or(|p| destination.port == Some(PortKey::Number(u32::from(p))));
            port && entry.covers(host)
        })
    }
}

/// What the `*.` of a subdomain entry covers: one or more labels of letters, digits, `-` and
/// `_`. Anything else in front of the parent domain (a NUL, a `/`, a `#` that a client could
/// cut the name at) is not shown to be a subdomain, so it is not allowed.
fn is_subdomain_prefix(prefix: &str) -> bool {
    !prefix.is_empty()
        && prefix.split('.').all(|label| {
            !label.is_empty()
                && label
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
        })
}

impl Entry {
    fn covers(&self, host: &HostKey) -> bool {
        match (&self.host, host) {
            (HostKey::Name(parent), HostKey::Name(name)) if self.subdomains => name
                .strip_suffix(parent.as_str())
                .and_then(|rest| rest.strip_suffix('.'))
                .is_some_and(is_subdomain_prefix),
            _ => !self.subdomains && &self.host == host,
        }
    }

    fn parse(value: &str) -> Result<Entry, String> {
        let shown = crate::inspect::finding::quoted(value);
        if value.trim().is_empty() {
            return Err(format!(
                "{shown} is empty: give a host, such as example.com"
            ));
        }
        if let Some(host) = url_host(value) {
            return Err(match host {
                Some(host) => format!("{shown} is a URL, not a host: give the host: {host}"),
                None => format!("{shown} is a URL without a host: give a host"),
            });
        }
        if let Some(at) = value.find(['/', '\\', '?', '#', '@']) {
            let what = match value.as_bytes()[at] {
                b'/' | b'\\' => "a path",
                b'?' => "a query",
                b'#' => "a fragment",
                _ => "credentials",
            };
            let host = &value[..at];
            return Err(match host.is_empty() || host.contains('@') {
                false => format!(
                    "{shown} has {what}: give the host: {}",
                    crate::display::escape(host, crate::display::EscapeStyle::Backslash)
                ),
                true => format!("{shown} has {what}: give the host alone"),
            });
        }
        let (subdomains, rest) = match value.strip_prefix("*.") {
            Some(rest) => (true, rest),
            None => (false, value),
        };
        if rest.contains('*') {
            return Err(format!(
                "{shown}: \"*\" is allowed only as a leading \"*.\" (\"*.example.com\": the \
                 subdomains of example.com)"
            ));
        }
        let (host, port) = split_port(rest).map_err(|why| format!("{shown}: {why}"))?;
        if host.is_empty() {
            return Err(format!("{shown} has no host"));
        }
        // The host parser, as for a special URL's host (URL Standard: host parser, with
        // isOpaque false): case, IDNA, IPv4 notations and IPv6 forms normalised.
        let parsed = parse_host(&mut NoSink, &host, 0, false).map_err(|()| {
            format!("{shown} is not a host: the URL Standard's host parser fails on it")
        })?;
        if subdomains && !matches!(parsed, Host::Domain(_)) {
            return Err(format!("{shown}: \"*.\" takes a domain, not an IP address"));
        }
        Ok(Entry {
            host: HostKey::of(&parsed.to_string()),
            subdomains,
            port,
        })
    }
}

/// When `value` is a URL (a scheme, ":" and a slash or backslash: what a user copies from a
/// browser), its host if it has one.
fn url_host(value: &str) -> Option<Option<String>> {
    let (scheme, rest) = value.split_once(':')?;
    let is_scheme = scheme.starts_with(|c: char| c.is_ascii_alphabetic())
        && scheme
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'.'));
    if !is_scheme || !rest.starts_with(['/', '\\']) {
        return None;
    }
    Some(
        crate::url::Url::parse(value, None)
            .ok()
            .map(|url| url.host().to_owned())
            .filter(|host| !host.is_empty()),
    )
}

/// Splits `HOST:PORT`; a bracketed IPv6 address keeps its colons, and an unbracketed one is
/// given its brackets.
fn split_port(value: &str) -> Result<(String, Option<u16>), String> {
    if value.parse::<Ipv6Addr>().is_ok() {
        return Ok((format!("[{value}]"), None));
    }
    let (host, port) = match value.find(']') {
        Some(end) if value.starts_with('[') && end + 1 < value.len() => {
            match value[end + 1..].strip_prefix(':') {
                Some(port) => (&value[..=end], Some(port)),
                None => return Err("after \"]\" only \":PORT\" may follow".to_owned()),
            }
        }
        _ if value.starts_with('[') => (value, None),
        _ => match value.rsplit_once(':') {
            Some((host, port)) => (host, Some(port)),
            None => (value, None),
        },
    };
    let port = match port {
        None => None,
        Some(port) => Some(
            port.parse::<u16>()
                .ok()
                .filter(|_| port.bytes().all(|b| b.is_ascii_digit()))
                .ok_or_else(|| {
                    format!(
                        "the port {} is not a number from 0 to 65535",
                        crate::inspect::finding::quoted(port)
                    )
                })?,
        ),
    };
    Ok((host.to_owned(), port))
}

/// What a gate asks of every URL.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Gate {
    /// Only these destinations are allowed; `None`: any (only `deny_internal` applies).
    pub allowlist: Option<Allowlist>,
    /// No reading may go to an internal destination
    /// ([`crate::inspect::internal::classify_host`]).
    pub deny_internal: bool,
}

/// One reading's destination, as a finding names it: the host as the parser gave it and the
/// port a connection uses.
fn destination_text(answer: &Answer, destination: &Destination) -> String {
    let host = match (&destination.host, answer.host.as_deref()) {
        (Some(HostKey::LocalFile), _) => "the local machine".to_owned(),
        (_, Some("")) => "\"\"".to_owned(),
        // Python's, Go's and Node's legacy readings give an IPv6 address without brackets.
        (Some(HostKey::Ipv6(_)), Some(host)) if !host.starts_with('[') => format!("[{host}]"),
        (_, Some(host)) => {
            crate::display::escape(host, crate::display::EscapeStyle::Backslash).into_owned()
        }
        (_, None) => String::new(),
    };
    match &destination.port {
        Some(PortKey::Number(n)) => format!("{host}:{n}"),
        Some(PortKey::Text(t)) => format!(
            "{host}:{}",
            crate::display::escape(t, crate::display::EscapeStyle::Backslash)
        ),
        None => host,
    }
}

/// The readings with no destination, and why each has none.
fn nowhere(readings: &[(String, Answer)]) -> Vec<String> {
    readings
        .iter()
        .filter_map(|(name, answer)| {
            let why = if !answer.available {
                "unavailable"
            } else if answer.failure {
                "fails"
            } else if Destination::of(answer).is_some_and(|d| d.host.is_none()) {
                // The empty host (Go's reading of `https:/example.com`) is no destination:
                // nothing connects to "" (see [`Destination::host_of`]).
                match answer.host.as_deref() {
                    Some("") => "empty host",
                    _ => "no host",
                }
            } else {
                return None;
            };
            Some(format!("{name} ({why})"))
        })
        .collect()
}

impl Gate {
    /// Whether the gate asks anything at all.
    pub fn is_active(&self) -> bool {
        self.allowlist.is_some() || self.deny_internal
    }

    /// The gate's findings for one URL, from every reading of it (`readings`: the parser
    /// differential's answers, ours, "whatwg", among them). Empty when the URL passes.
    pub fn judge(&self, readings: &[(String, Answer)]) -> Vec<Finding> {
        self.judge_looked_up(readings, &[])
    }

    /// [`Gate::judge`], with the lookups of the readings' names ([`resolve::names`]): every
    /// address they gave is judged by the internal table, and under `deny_internal` a lookup
    /// that gave no address fails the URL (`lookup-failed`, danger). Without `deny_internal`,
    /// the lookups' warnings ([`resolve::judge`]).
    pub fn judge_looked_up(
        &self,
        readings: &[(String, Answer)],
        lookups: &[resolve::Lookup],
    ) -> Vec<Finding> {
        let mut findings = Vec::new();
        if let Some(allowlist) = &self.allowlist {
            match judge_allowlist(allowlist, readings) {
                Some(finding) => findings.push(finding),
                // A URL that fails the allowlist is named by where it goes; one that passes
                // may still show a reader an allowed host it does not go to.
                None => findings.extend(judge_userinfo(allowlist, readings)),
            }
        }
        if self.deny_internal {
            findings.extend(judge_internal(readings, lookups));
        }
        findings.extend(resolve::judge(readings, lookups, self.deny_internal));
        findings
    }

    /// [`Gate::judge`] on the readings of the parsers built into urlscope
    /// ([`crate::diff::Builtin::ALL`], in-process): for a caller that cannot run the external
    /// parsers' runtimes for every URL (the Python batches).
    pub fn judge_builtins(&self, input: &str) -> Vec<Finding> {
        if !self.is_active() {
            return Vec::new();
        }
        let readings: Vec<(String, Answer)> = crate::diff::Builtin::ALL
            .iter()
            .map(|b| (b.name().to_owned(), b.read(input, None)))
            .collect();
        self.judge(&readings)
    }
}

/// The allowlist's rule: every reading that has a destination goes to an allowed one, and at
/// least one does.
fn judge_allowlist(allowlist: &Allowlist, readings: &[(String, Answer)]) -> Option<Finding> {
    // Readings grouped by destination, in the order of the readings. Each group is written
    // destination first (`attacker.net:443 (not allowed): whatwg, curl`): where the URL goes is
    // what a narrow verdict line must not cut off.
    let mut groups: Vec<(Destination, String, bool, Vec<&str>)> = Vec::new();
    for (name, answer) in readings {
        let Some(destination) = Destination::of(answer).filter(|d| d.host.is_some()) else {
            continue;
        };
        match groups.iter_mut().find(|(d, ..)| *d == destination) {
            Some((.., names)) => names.push(name),
            None => {
                let text = destination_text(answer, &destination);
                let allowed = allowlist.allows(&destination);
                groups.push((destination, text, allowed, vec![name]));
            }
        }
    }
    let nowhere = nowhere(readings);
    if groups.is_empty() {
        let why = match nowhere.as_slice() {
            [] => "there is no reading".to_owned(),
            _ => nowhere.join(", "),
        };
        return Some(Finding::new(
            F::NotAllowed,
            format!("no reading has a destination to allow: {why}"),
        ));
    }
    if groups.iter().all(|(_, _, allowed, _)| *allowed) {
        return None;
    }
    let any_allowed = groups.iter().any(|(_, _, allowed, _)| *allowed);
    let mut parts: Vec<String> = groups
        .iter()
        .filter(|(_, _, allowed, _)| !allowed)
        .map(|(_, text, _, names)| format!("{text} (not allowed): {}", names.join(", ")))
        .chain(
            groups
                .iter()
                .filter(|(_, _, allowed, _)| *allowed)
                .map(|(_, text, _, names)| format!("{text}: {}", names.join(", "))),
        )
        .collect();
    if !nowhere.is_empty() {
        parts.push(format!("no destination: {}", nowhere.join(", ")));
    }
    let id = if any_allowed {
        F::AllowlistBypass
    } else {
        F::NotAllowed
    };
    Some(Finding::new(id, parts.join("; ")))
}

/// The phishing lure aimed at the allowlist, on a URL that passes it: a reading's userinfo
/// names an allowed host that is not where the reading goes (`https://intranet.example@elsewhere.example/` with
/// `--allow-host intranet.example`). Each part of the userinfo is read as
/// [`crate::inspect::credential_finding`] reads it; a well-known domain is left to that
/// finding, which already calls it a danger.
fn judge_userinfo(allowlist: &Allowlist, readings: &[(String, Answer)]) -> Option<Finding> {
    let known = crate::inspect::known::known();
    for (_, answer) in readings {
        let Some(destination) = Destination::of(answer).filter(|d| d.host.is_some()) else {
            continue;
        };
        let parts = crate::inspect::host::userinfo_parts(
            answer.username.as_deref().unwrap_or(""),
            answer.password.as_deref().unwrap_or(""),
        );
        for part in parts {
            let Ok(host) = parse_host(&mut NoSink, &part, 0, false) else {
                continue;
            };
            let key = HostKey::of(&host.to_string());
            if Some(&key) == destination.host.as_ref()
                || !allowlist.entries.iter().any(|e| e.covers(&key))
                || matches!(&key, HostKey::Name(name) if known.known_suffix_of(name).is_some())
            {
                continue;
            }
            return Some(Finding::new(
                F::CredentialsLookLikeHost,
                format!(
                    "{} in the userinfo is an allowed host, but this URL goes to {}",
                    crate::inspect::finding::quoted(&part),
                    destination_text(answer, &destination)
                ),
            ));
        }
    }
    None
}

/// Why the destination of a reading is internal: its entry's name and the text a finding gives
/// (the entry and its source), or `None` for a public one.
fn internal_of(answer: &Answer, destination: &Destination) -> Option<(&'static str, String)> {
    match (&destination.host, answer.host.as_deref()) {
        (Some(HostKey::LocalFile), _) => {
            Some(("local machine", "a file URL (RFC 8089 § 2)".to_owned()))
        }
        (Some(_), Some(host)) => crate::inspect::internal::classify_host(host)
            .map(|internal| (internal.what, internal.why())),
        _ => None,
    }
}

/// The internal gate: every reading's host asked of the internal table, and a `file` URL's
/// local machine. One finding for the URL, naming each internal destination with the readings
/// that go there (parsers that spell one host differently, `0x7f.1` and `127.0.0.1`, are two
/// destinations of one URL).
fn judge_internal(readings: &[(String, Answer)], lookups: &[resolve::Lookup]) -> Option<Finding> {
    // Readings grouped by destination (shown as the first of them spells it) and entry.
    let mut groups: Vec<(Destination, String, String, Vec<&str>)> = Vec::new();
    for (name, answer) in readings {
        let Some(destination) = Destination::of(answer) else {
            continue;
        };
        let Some(why) = internal_of(answer, &destination)
            .map(|(_, why)| why)
            .or_else(|| resolve::internal_addresses(answer, lookups))
        else {
            continue;
        };
        match groups
            .iter_mut()
            .find(|(d, _, w, _)| *d == destination && *w == why)
        {
            Some((.., names)) => names.push(name),
            None => {
                let host = destination_text(answer, &destination);
                groups.push((destination, host, why, vec![name]));
            }
        }
    }
    if groups.is_empty() {
        return None;
    }
    let parts: Vec<String> = groups
        .into_iter()
        .map(|(_, host, why, names)| format!("{host}, {why}: {}", names.join(", ")))
        .collect();
    Some(Finding::new(F::InternalDestination, parts.join("; ")))
}

/// Where one reading goes, as the gate sees it: the data behind its findings.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Judged {
    /// The parser's name in the differential.
    pub parser: String,
    /// The host as the parser gave it, exactly; `None`: the reading has no destination (the
    /// parse failed, it has no host, or the parser is unavailable).
    pub host: Option<String>,
    /// The port a connection uses: the one given, else the scheme's default.
    pub port: Option<String>,
    /// With an allowlist, whether the destination is allowed (`None` without a destination).
    pub allowed: Option<bool>,
    /// With `deny_internal`, the internal table's entry the destination falls under.
    pub internal: Option<&'static str>,
}

impl Gate {
    /// Each reading's destination and what the gate makes of it, in the order of `readings`.
    pub fn destinations(&self, readings: &[(String, Answer)]) -> Vec<Judged> {
        self.destinations_looked_up(readings, &[])
    }

    /// [`Gate::destinations`], with the lookups of the readings' names: a destination whose
    /// name resolved to an internal address has that address's entry.
    pub fn destinations_looked_up(
        &self,
        readings: &[(String, Answer)],
        lookups: &[resolve::Lookup],
    ) -> Vec<Judged> {
        readings
            .iter()
            .map(|(name, answer)| {
                let destination = Destination::of(answer).filter(|d| d.host.is_some());
                let port = destination.as_ref().and_then(|d| match &d.port {
                    Some(PortKey::Number(n)) => Some(n.to_string()),
                    Some(PortKey::Text(t)) => Some(t.clone()),
                    None => None,
                });
                Judged {
                    parser: name.clone(),
                    host: destination.as_ref().and(answer.host.clone()),
                    port,
                    allowed: self
                        .allowlist
                        .as_ref()
                        .zip(destination.as_ref())
                        .map(|(list, d)| list.allows(d)),
                    internal: destination
                        .as_ref()
                        .filter(|_| self.deny_internal)
                        .and_then(|d| {
                            internal_of(answer, d)
                                .map(|(what, _)| what)
                                .or_else(|| resolve::internal_entry(answer, lookups))
                        }),
                }
            })
            .collect()
    }
}

#[cfg(test)]
mod tests;
