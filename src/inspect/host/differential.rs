//! Other parsers' readings of the same string, and the finding when one of them reaches a
//! different host. The readings are the built-in parsers' of the differential ([`crate::diff`]):
//! rust-url, libcurl, strict RFC 3986 and the `http` crate, each the real library, in-process.

use super::Subject;
use crate::diff::{Builtin, Component};
use crate::inspect::finding::{quoted, Finding, FindingId as F};
use crate::inspect::rfc3986;
use crate::url::Host;
use crate::validation::Span;

/// Another parser's reading of the host, where it differs from ours.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reading {
    /// Who reads it so: the parser's name in the differential (`curl`, `rust-url`).
    pub parser: String,
    pub host: String,
    pub userinfo: Option<String>,
    /// The confusion that explains the difference, when a known class does.
    pub class: Option<&'static str>,
}

/// The built-in parsers' readings that reach another host than the WHATWG one.
pub(super) fn builtin_readings(
    subject: &Subject<'_>,
    host: &Host,
    serialized: &str,
    host_points: &[(usize, char)],
) -> Vec<Reading> {
    let Some(url) = subject.url else {
        return Vec::new();
    };
    // The other parsers read the input alone, and only special URLs have a host everyone looks
    // for.
    if !url.is_special() || subject.has_base {
        return Vec::new();
    }
    if nothing_to_disagree_about(subject, serialized, host_points) {
        return Vec::new();
    }
    let answers: Vec<(String, crate::diff::Answer)> = Builtin::ALL
        .iter()
        .map(|b| (b.name().to_owned(), b.read(subject.input, None)))
        .collect();
    let mut readings = Vec::new();
    for (name, answer) in &answers {
        if name == Builtin::Whatwg.name() || !answer.available || answer.failure {
            continue;
        }
        // A parser that rejects the input, or finds no host in it, sends it nowhere: that is
        // not another destination.
        let Some(theirs) = answer.host.as_deref().filter(|h| !h.is_empty()) else {
            continue;
        };
        if same_host(url.scheme(), host, serialized, theirs) {
            continue;
        }
        let userinfo = match (answer.username.as_deref(), answer.password.as_deref()) {
            (None | Some(""), None | Some("")) => None,
            (user, None | Some("")) => user.map(str::to_owned),
            (user, Some(password)) => Some(format!("{}:{password}", user.unwrap_or(""))),
        };
        readings.push(Reading {
            parser: name.clone(),
            host: theirs.to_owned(),
            userinfo,
            class: None,
        });
    }
    if !readings.is_empty() {
        let comparison = crate::diff::compare(subject.input, None, answers);
        let class = comparison
            .disagreements
            .iter()
            .find(|d| d.component == Component::Host)
            .and_then(|d| d.class)
            .map(crate::diff::Class::name);
        for reading in &mut readings {
            reading.class = class;
        }
    }
    readings
}

/// Whether every parser is bound to read the host as typed: the input's authority, as RFC
/// 3986's Appendix B splits it, holds exactly the host our parser ran on (or its
/// serialization), so there is no backslash, "@", tab or newline in it to read otherwise.
/// Nearly every real URL is so; the built-in parsers run only for the others.
fn nothing_to_disagree_about(
    subject: &Subject<'_>,
    serialized: &str,
    host_points: &[(usize, char)],
) -> bool {
    let Some(theirs) = rfc3986::appendix_b_host(subject.input) else {
        return false;
    };
    if subject.input.bytes().any(|b| b <= b' ' || b == 0x7f) {
        return false;
    }
    if theirs.eq_ignore_ascii_case(serialized) {
        return true;
    }
    subject.host_span.is_some() && theirs.chars().eq(host_points.iter().map(|&(_, c)| c))
}

/// Whether a parser's `theirs` is our host: the same text but for ASCII case, or the same host
/// once our host parser reads it (so that case, IDNA, percent-encoding and IPv4 notations are not
/// mistaken for a differential). A control code point would be dropped by our preprocessing,
/// hiding the very difference looked for: such a host is different by definition.
fn same_host(scheme: &str, host: &Host, serialized: &str, theirs: &str) -> bool {
    if theirs.eq_ignore_ascii_case(serialized) {
        return true;
    }
    if theirs.contains(|c: char| c.is_control()) {
        return false;
    }
    crate::url::Url::parse(&format!("{scheme}://{theirs}/"), None)
        .ok()
        .and_then(|u| u.host_record())
        .as_ref()
        == Some(host)
}

/// The finding for readings of the host that differ from ours (`serialized`), if any.
pub fn parser_differential(serialized: &str, readings: &[Reading], span: Span) -> Option<Finding> {
    if readings.is_empty() {
        return None;
    }
    let theirs: Vec<String> = readings
        .iter()
        .map(|r| {
            format!(
                "{} reads the host as {}{}",
                r.parser,
                quoted(&r.host),
                r.userinfo
                    .as_ref()
                    .map_or(String::new(), |u| format!(" with userinfo {}", quoted(u)))
            )
        })
        .collect();
    let class = readings
        .iter()
        .find_map(|r| r.class)
        .map_or(String::new(), |c| format!(" ({c})"));
    Some(
        Finding::new(
            F::ParserDifferential,
            format!(
                "this URL goes to {} here (WHATWG), but {}{class}",
                quoted(serialized),
                theirs.join("; ")
            ),
        )
        .span(span),
    )
}
