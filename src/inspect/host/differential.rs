//! Other parsers' readings of the same string, and the finding when one of them reaches a
//! different host. Today the other reading is RFC 3986's (strict, or Appendix B's regular
//! expression); [`parser_differential`] takes any number of readings.

use super::Subject;
use crate::inspect::finding::{Finding, FindingId as F};
use crate::inspect::rfc3986;
use crate::url::Host;
use crate::validation::Span;

/// Another parser's reading of the host, where it differs from ours.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reading {
    /// Who reads it so, as a phrase ("an RFC 3986 parser").
    pub parser: String,
    pub host: String,
    pub userinfo: Option<String>,
}

/// The RFC 3986 reading, when it reaches another host than the WHATWG one.
pub(super) fn rfc3986_reading(
    subject: &Subject<'_>,
    host: &Host,
    serialized: &str,
    host_points: &[(usize, char)],
) -> Option<Reading> {
    let url = subject.url?;
    if !url.record().is_special() || subject.has_base {
        return None;
    }
    // Nearly every input agrees, and showing that needs only the Appendix B host, which a
    // strict reading with an authority shares (see `rfc3986::appendix_b_host`): the strict
    // parse and the re-parse below are for the disagreements.
    if let Some(theirs) = rfc3986::appendix_b_host(subject.input) {
        if theirs.eq_ignore_ascii_case(serialized) {
            return None;
        }
        // The host exactly as typed (no tab or newline the preprocessing removed inside it):
        // that is the buffer our host parser turned into `host`, so the re-parse below, which
        // puts it alone between "scheme://" and "/", would give `host` again.
        if subject.host_span.is_some()
            && !theirs.contains(|c: char| c.is_control())
            && theirs.chars().eq(host_points.iter().map(|&(_, c)| c))
        {
            return None;
        }
    }
    let rfc = rfc3986::authority(subject.input)?;
    if rfc.host.eq_ignore_ascii_case(serialized) {
        return None;
    }
    // Normalise the RFC host with our own host parser, so that case, IDNA and IPv4 notations
    // are not mistaken for a differential. A tab or newline would be dropped by our
    // preprocessing, hiding the very difference looked for: such a host is different by
    // definition.
    let theirs = (!rfc.host.contains(|c: char| c.is_control()))
        .then(|| crate::url::Url::parse(&format!("{}://{}/", url.scheme(), rfc.host), None).ok())
        .flatten()
        .and_then(|u| u.record().host.clone());
    if theirs.as_ref() == Some(host) {
        return None;
    }
    Some(Reading {
        parser: if rfc.strict {
            "an RFC 3986 parser".to_owned()
        } else {
            "a lenient RFC 3986 parser (Appendix B)".to_owned()
        },
        host: rfc.host,
        userinfo: rfc.userinfo,
    })
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
                "{} reads the host as {:?}{}",
                r.parser,
                r.host,
                r.userinfo
                    .as_ref()
                    .map_or(String::new(), |u| format!(" with userinfo {u:?}"))
            )
        })
        .collect();
    Some(
        Finding::new(
            F::ParserDifferential,
            format!(
                "this URL goes to {serialized:?} here (WHATWG), but {}",
                theirs.join("; ")
            ),
        )
        .span(span),
    )
}
