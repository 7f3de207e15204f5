//! Other parsers' readings of the same string, and the finding when one of them goes to another
//! destination (another host or port) or refuses the URL, judged by the decision `diff` makes
//! ([`crate::diff::decide`]). [`judge`] is the one function that turns a set of readings into
//! these findings: the terminal (`check`, `parse`, the inspector's Host pane) gives it the
//! built-in parsers' readings ([`crate::diff`]: rust-url, libcurl, strict RFC 3986 and the
//! `http` crate, each the real library, in-process); the classroom page gives it the readings
//! it has (those compiled into its module and its Web Workers' answers), the others marked
//! unavailable with why, so that a finding names the parsers it asked and counts none of the
//! others as agreeing.

use super::Subject;
use crate::diff::destination::PortKey;
use crate::diff::{Answer, Builtin, Comparison, Component, Destination, Verdict};
use crate::inspect::finding::{quoted, Finding, FindingId as F};
use crate::inspect::rfc3986;
use crate::validation::Span;

/// Another parser's reading of where the URL goes, where it differs from ours.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reading {
    /// Who reads it so: the parser's name in the differential (`curl`, `rust-url`).
    pub parser: String,
    /// The host it reads; `None` when it reads none: a `file` URL's local machine (a reading
    /// without a host goes nowhere else, see [`crate::diff::decide`]).
    pub host: Option<String>,
    /// The port it connects to and ours, when they differ: each the port given, else the
    /// scheme's default ([`crate::diff::destination::effective_port`]).
    pub ports: Option<(String, String)>,
    pub userinfo: Option<String>,
    /// The confusion that explains the difference, when a known class does.
    pub class: Option<&'static str>,
}

/// The differential's findings over the built-in parsers' readings (the terminal's): read only
/// where [`judged`] says the readings matter, then [`judge`]d; with the verdict they were
/// judged on (`None` where they were not read).
pub(super) fn findings(
    subject: &Subject<'_>,
    serialized: &str,
    span: Span,
) -> (Vec<Finding>, Option<Verdict>) {
    if !judged(subject, serialized) {
        return (Vec::new(), None);
    }
    let answers: Vec<(String, Answer)> = Builtin::ALL
        .iter()
        .map(|b| (b.name().to_owned(), b.read(subject.input, None)))
        .collect();
    let comparison = crate::diff::compare(subject.input, None, answers);
    (
        verdict_findings(&comparison, serialized, span),
        Some(comparison.decision.verdict),
    )
}

/// Whether `verdict`, the differential's verdict on a URL's readings, shows that every reading
/// goes to one destination: they agree, or those that have a destination do and the others
/// refuse it; or, not read (`None`, exactly where [`judged`] is false), a special URL read
/// without a base whose authority ends in exactly our host. Nothing compared shows nothing.
pub(super) fn one_destination(
    subject: &Subject<'_>,
    serialized: &str,
    verdict: Option<Verdict>,
) -> bool {
    match verdict {
        Some(verdict) => matches!(verdict, Verdict::Agree | Verdict::Refused),
        // Not read because every parser is bound to go where we do: [`judged`] was false, so
        // for a special URL read without a base the authority is exactly our host, which
        // need not be looked at again.
        None => {
            debug_assert!(!judged(subject, serialized));
            subject.url.is_some_and(|url| url.is_special()) && !subject.has_base
        }
    }
}

/// Whether the differential's findings are judged for `subject` at all: a special URL read
/// without a base (the other parsers read the input alone, and only special URLs have a host
/// everyone looks for) whose authority is not exactly the host we serialize (where every
/// parser is bound to go where we do).
pub fn judged(subject: &Subject<'_>, serialized: &str) -> bool {
    let Some(url) = subject.url else {
        return false;
    };
    url.is_special() && !subject.has_base && !nothing_to_disagree_about(subject, serialized)
}

/// The differential's findings for `subject` (whose host serializes to `serialized`, typed at
/// `span`) over the readings of `comparison`, judged by the one decision `diff` makes
/// ([`crate::diff::decide`]): `parser-differential` exactly when readings go to different
/// destinations ([`Verdict::Elsewhere`]), naming each reading that goes elsewhere than the
/// WHATWG one; `parser-refuses` when they all go to one but some parser refuses the URL or
/// reads no host ([`Verdict::Refused`]). A reading without a host never goes elsewhere, but a
/// `file` URL's local machine is a destination.
///
/// A parser of `comparison` without a reading (unavailable: not installed, not built into the
/// page, not answered yet, terminal only) is no reading: it neither agrees nor disagrees, and
/// the finding names the parsers that read the URL and those without a reading, with why.
pub fn judge(
    subject: &Subject<'_>,
    serialized: &str,
    span: Span,
    comparison: &Comparison,
) -> Vec<Finding> {
    if !judged(subject, serialized) {
        return Vec::new();
    }
    verdict_findings(comparison, serialized, span)
}

fn verdict_findings(comparison: &Comparison, serialized: &str, span: Span) -> Vec<Finding> {
    let decision = &comparison.decision;
    let mut findings = match decision.verdict {
        Verdict::Elsewhere => {
            let readings = elsewhere(comparison);
            let mut findings: Vec<Finding> = parser_differential(serialized, &readings, span)
                .into_iter()
                .collect();
            for finding in &mut findings {
                for refusal in &decision.refused {
                    finding.detail.push_str("; ");
                    finding.detail.push_str(&refusal.describe(false));
                }
            }
            findings
        }
        Verdict::Refused => {
            vec![Finding::new(F::ParserRefuses, decision.explain_with(false)).span(span)]
        }
        Verdict::Agree | Verdict::NothingToCompare => Vec::new(),
    };
    if let Some(asked) = asked(comparison) {
        for finding in &mut findings {
            finding.detail.push_str(&asked);
        }
    }
    findings
}

/// Which parsers a verdict is about, when some of `comparison`'s gave no reading: " (read by
/// whatwg, rust-url; without curl: waiting for its answer; java: terminal only)". `None` when
/// every parser read the input (the terminal's built-in parsers always do).
pub fn asked(comparison: &Comparison) -> Option<String> {
    let without: Vec<String> = comparison
        .parsers
        .iter()
        .filter(|(_, a)| !a.available)
        .map(|(name, a)| match a.error.as_deref() {
            Some(why) if !why.is_empty() => format!("{name}: {why}"),
            _ => format!("{name}: unavailable"),
        })
        .collect();
    if without.is_empty() {
        return None;
    }
    let read: Vec<&str> = comparison
        .parsers
        .iter()
        .filter(|(_, a)| a.available)
        .map(|(name, _)| name.as_str())
        .collect();
    Some(format!(
        " (read by {}; without {})",
        read.join(", "),
        without.join("; ")
    ))
}

/// The readings of `comparison` that go to another destination than the WHATWG one, each with
/// its host, userinfo and port, and the class of the host's disagreement (else the port's).
fn elsewhere(comparison: &Comparison) -> Vec<Reading> {
    let decision = &comparison.decision;
    let ours = comparison
        .answer(Builtin::Whatwg.name())
        .and_then(Destination::of)
        .filter(|d| d.host.is_some());
    let class = [Component::Host, Component::Port]
        .into_iter()
        .find_map(|component| {
            comparison
                .disagreements
                .iter()
                .find(|d| d.component == component)
        })
        .and_then(|d| d.class)
        .map(crate::diff::Class::name);
    let mut readings = Vec::new();
    for (name, answer) in &comparison.parsers {
        let Some((theirs, _)) = decision
            .destinations
            .iter()
            .find(|(_, names)| names.contains(name))
        else {
            continue;
        };
        if name == Builtin::Whatwg.name() || Some(theirs) == ours.as_ref() {
            continue;
        }
        let userinfo = match (answer.username.as_deref(), answer.password.as_deref()) {
            (None | Some(""), None | Some("")) => None,
            (user, None | Some("")) => user.map(str::to_owned),
            (user, Some(password)) => Some(format!("{}:{password}", user.unwrap_or(""))),
        };
        let ports = ours
            .as_ref()
            .filter(|ours| theirs.port != ours.port)
            .map(|ours| (port_text(theirs), port_text(ours)));
        readings.push(Reading {
            parser: name.clone(),
            host: answer.host.clone(),
            ports,
            userinfo,
            class,
        });
    }
    readings
}

/// A destination's port as the finding shows it: the number, or "none" for a scheme without a
/// default port and no port given.
fn port_text(destination: &Destination) -> String {
    match &destination.port {
        Some(PortKey::Number(n)) => n.to_string(),
        Some(PortKey::Text(t)) => quoted(t),
        None => "none".to_owned(),
    }
}

/// Whether every parser is bound to go where we do: the input's authority, as RFC 3986's
/// Appendix B splits it, holds exactly our host's serialization (but for ASCII case), so there is
/// no backslash, "@", tab, newline, percent-encoded byte, IDN or IPv4 notation in it to read
/// otherwise. Nearly every real URL is so; the built-in parsers run only for the others. A host
/// typed otherwise than we serialize it (`0x7f.1`, `BÜCHER.de`) is read by all of them:
/// some keep it as typed, which `diff` counts as another destination. So is a `file` URL:
/// rust-url drops the host before a Windows drive letter (`file://host/C:`).
fn nothing_to_disagree_about(subject: &Subject<'_>, serialized: &str) -> bool {
    if subject.url.is_some_and(|url| url.scheme() == "file") {
        return false;
    }
    let Some(theirs) = rfc3986::appendix_b_host(subject.input) else {
        return false;
    };
    theirs.eq_ignore_ascii_case(serialized) && !has_space_or_control(subject.input.as_bytes())
}

/// Whether `bytes` holds a C0 control, a space or U+007F DELETE, eight bytes at a time: this is
/// asked of every URL a batch checks.
fn has_space_or_control(bytes: &[u8]) -> bool {
    const ONES: u64 = u64::from_ne_bytes([0x01; 8]);
    const HIGH: u64 = u64::from_ne_bytes([0x80; 8]);
    let mut words = bytes.chunks_exact(8);
    for word in &mut words {
        let mut x = [0; 8];
        x.copy_from_slice(word);
        let x = u64::from_ne_bytes(x);
        // A byte below 0x21 borrows into its own high bit, which it did not have: the test is
        // exact for whether any byte is below it (a borrow only follows such a byte).
        let below = x.wrapping_sub(ONES * 0x21) & !x & HIGH;
        // A byte equal to 0x7F is zero once 0x7F is taken off it by XOR.
        let y = x ^ (ONES * 0x7f);
        let delete = y.wrapping_sub(ONES) & !y & HIGH;
        if below | delete != 0 {
            return true;
        }
    }
    words.remainder().iter().any(|&b| b <= b' ' || b == 0x7f)
}

/// The finding for readings that go elsewhere than ours (`serialized`, our host), if any.
pub fn parser_differential(serialized: &str, readings: &[Reading], span: Span) -> Option<Finding> {
    if readings.is_empty() {
        return None;
    }
    let theirs: Vec<String> = readings
        .iter()
        .map(|r| {
            let mut text = match &r.host {
                Some(host) => format!("{} reads the host as {}", r.parser, quoted(host)),
                None => format!("{} reads no host (the local machine)", r.parser),
            };
            if let Some(userinfo) = &r.userinfo {
                text.push_str(&format!(" with userinfo {}", quoted(userinfo)));
            }
            if let Some((theirs, ours)) = &r.ports {
                text.push_str(&format!(", port {theirs} (WHATWG: {ours})"));
            }
            text
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

#[cfg(test)]
mod tests {
    use super::has_space_or_control;

    #[test]
    fn a_space_or_control_is_found_at_every_place_among_every_other_byte() {
        let plain = |b: u8| b <= b' ' || b == 0x7f;
        // Each byte value at each place of inputs of 1 to 24 bytes, among bytes that are not
        // one ('a', and bytes past 0x80 whose high bit a borrow must not confuse).
        for len in 1..=24 {
            for filler in [b'a', 0x80, 0xff, b'!', 0x7e] {
                for at in 0..len {
                    for b in 0..=u8::MAX {
                        let mut bytes = vec![filler; len];
                        bytes[at] = b;
                        assert_eq!(
                            has_space_or_control(&bytes),
                            plain(b),
                            "{b:#x} at {at} of {len}, among {filler:#x}"
                        );
                    }
                }
            }
        }
        assert!(!has_space_or_control(b""));
        assert!(!has_space_or_control(b"https://example.com/a?b#c"));
        assert!(has_space_or_control(b"https://example.com/a?b#c d"));
    }
}
