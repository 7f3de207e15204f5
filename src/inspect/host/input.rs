//! Findings about the input as a whole: invisible and bidi control code points, what the
//! preprocessing removed, the scheme, and credentials.

use std::net::Ipv4Addr;

use super::Subject;
use crate::inspect::finding::{quoted, Finding, FindingId as F};
use crate::url::host::domain_parser;
use crate::validation::ValidationErrorKind as E;

fn is_bidi_control(c: char) -> bool {
    crate::display::hidden(c) == Some(crate::display::Hidden::BidiControl)
}

/// Invisible and bidi control code points, in one pass (none of them ASCII, so an ASCII input
/// needs no decoding at all).
pub(super) fn code_point_findings(subject: &Subject<'_>, findings: &mut Vec<Finding>) {
    let mut bidi = Vec::new();
    let mut invisible = Vec::new();
    let chars = (!subject.input.is_ascii()).then(|| subject.input.chars().enumerate());
    for (i, c) in chars.into_iter().flatten() {
        if c.is_ascii() {
            continue;
        }
        if is_bidi_control(c) {
            bidi.push((i, c));
        } else if crate::display::hidden(c) == Some(crate::display::Hidden::Invisible) {
            invisible.push((i, c));
        }
    }
    if !bidi.is_empty() {
        findings.push(
            Finding::new(
                F::BidiControl,
                "they reorder how the text is displayed, so what you read is not the order the parser reads".to_owned(),
            )
            .at(bidi),
        );
    }
    if !invisible.is_empty() {
        findings.push(
            Finding::new(
                F::InvisibleCodePoint,
                "zero-width or default-ignorable code points are in the URL; they do not show but can change what it means".to_owned(),
            )
            .at(invisible),
        );
    }
}

/// What the parser's validation errors say the preprocessing or the host parser changed.
pub(super) fn validation_findings(subject: &Subject<'_>, findings: &mut Vec<Finding>) {
    for error in subject.errors {
        let (kind, detail) = match error.kind {
            E::InvalidReverseSolidus => (
                F::BackslashAsSlash,
                "a special URL reads \\ as /; other parsers may not",
            ),
            E::DomainPercentEncoded => (
                F::PercentEncodedHost,
                "the host is percent-decoded before IDNA, so what resolves is not what is written",
            ),
            E::InvalidUrlUnit if error.state == crate::url::Phase::RemoveTabOrNewline => (
                F::TabOrNewlineRemoved,
                "ASCII tabs and newlines anywhere in the input are dropped before parsing",
            ),
            E::InvalidUrlUnit if error.state == crate::url::Phase::TrimControlOrSpace => (
                F::Trimmed,
                "C0 controls and spaces at either end are removed before parsing",
            ),
            _ => continue,
        };
        match findings.iter_mut().find(|f| f.id == kind.id()) {
            Some(f) => f.spans.push(error.span),
            None => findings.push(Finding::new(kind, detail.to_owned()).span(error.span)),
        }
    }
}

/// Schemes whose URL is not a place on the network: script that runs, content carried in
/// the URL itself, and local resources.
pub(super) fn scheme_findings(subject: &Subject<'_>, findings: &mut Vec<Finding>) {
    let Some(url) = subject.url else { return };
    let scheme = url.scheme();
    let (kind, detail) = match scheme {
        "javascript" | "vbscript" => (
            F::ScriptScheme,
            format!("following a {scheme}: URL runs its text as script in the page that opens it"),
        ),
        "data" => (
            F::DataScheme,
            "a data: URL carries the document itself: nothing in it says who made it, and it can look like any page".to_owned(),
        ),
        "file" | "blob" | "filesystem" => (
            F::LocalScheme,
            format!("a {scheme}: URL names a resource on this machine or in this browser, not on the network"),
        ),
        _ => return,
    };
    findings.push(Finding::new(kind, detail));
}

/// Credentials, and credentials that look like a host.
pub(super) fn credential_findings(subject: &Subject<'_>, findings: &mut Vec<Finding>) {
    let Some(url) = subject.url else { return };
    let (username, password) = (url.username(), url.password());
    if username.is_empty() && password.is_empty() {
        return;
    }
    let decoded =
        String::from_utf8_lossy(&crate::url::percent::percent_decode(username.as_bytes()))
            .into_owned();
    let host_like = decoded.contains('.')
        && (decoded.parse::<Ipv4Addr>().is_ok()
            || domain_parser(&decoded, false).is_some_and(|d| {
                psl::domain_str(&d).is_some_and(|r| r != d.trim_end_matches('.') || r.contains('.'))
            }));
    // The userinfo's span is the one the invalid-credentials validation error points at.
    let span = subject
        .errors
        .iter()
        .find(|e| e.kind == E::InvalidCredentials)
        .map(|e| e.span);
    let finding = if host_like {
        Finding::new(
            F::CredentialsLookLikeHost,
            format!(
                "{} before the @ is a username, not the host; the URL goes to {}",
                quoted(&decoded),
                url.hostname()
            ),
        )
    } else {
        Finding::new(
            F::Credentials,
            "a username or password is part of the URL; a URL shown for a trust decision should omit them".to_owned(),
        )
    };
    findings.push(match span {
        Some(span) => finding.span(span),
        None => finding,
    });
}
