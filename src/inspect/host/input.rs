//! Findings about the input as a whole: invisible and bidi control code points, what the
//! preprocessing removed, the scheme, and credentials.

use std::net::Ipv4Addr;

use super::Subject;
use crate::inspect::finding::{quoted, Finding, FindingId as F};
use crate::inspect::known::{known, skeleton_of, Known};
use crate::url::host::domain_parser;
use crate::url::Url;
use crate::validation::{Span, ValidationErrorKind as E};

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
    // The userinfo's span is the one the invalid-credentials validation error points at.
    let span = subject
        .errors
        .iter()
        .find(|e| e.kind == E::InvalidCredentials)
        .map(|e| e.span);
    findings.extend(credential_finding(url, span, &[]));
}

/// The finding about `url`'s credentials, if it has any: `credentials-look-like-host` when a
/// part of the userinfo is a well-known host (the known-domains list, or one of `also_known`,
/// such as an allowlist's hosts) or any host-shaped name, else `credentials`. `span` is where
/// the userinfo was typed.
///
/// The parts are what a reader could take for the host: the userinfo percent-decoded and split
/// at every delimiter of an authority (`/ : \ # ? @`) and at every code point that reads as one
/// (its NFKC form or its UTS 39 skeleton is one: U+FF0F, U+2215, U+FE6B, ...), so that
/// `user@paypal.com@`, `x:paypal.com@` and `paypal.com%2F@` are read as `paypal.com`.
pub fn credential_finding(url: &Url, span: Option<Span>, also_known: &[&str]) -> Option<Finding> {
    let (username, password) = (url.username(), url.password());
    if username.is_empty() && password.is_empty() {
        return None;
    }
    let also_known: Vec<String> = also_known
        .iter()
        .filter_map(|h| domain_parser(h, false))
        .map(|h| h.trim_end_matches('.').to_owned())
        .collect();
    let known = known();
    let mut lures: Vec<(String, Option<String>)> = Vec::new();
    for component in [username, password] {
        let decoded =
            String::from_utf8_lossy(&crate::url::percent::percent_decode(component.as_bytes()))
                .into_owned();
        for part in decoded
            .split(is_authority_delimiter)
            .filter(|p| !p.is_empty())
        {
            if let Some(imitated) = looks_like_host(part, known, &also_known) {
                lures.push((part.to_owned(), imitated));
            }
        }
    }
    // Well-known hosts first: they are what the lure is for.
    lures.sort_by_key(|(_, imitated)| imitated.is_none());
    let finding = if lures.is_empty() {
        Finding::new(
            F::Credentials,
            "a username or password is part of the URL; a URL shown for a trust decision should omit them".to_owned(),
        )
    } else {
        let parts: Vec<String> = lures.iter().map(|(part, _)| quoted(part)).collect();
        let verb = if parts.len() == 1 { "looks" } else { "look" };
        let mut detail = format!(
            "{} in the userinfo {verb} like the host, but this URL goes to {}",
            parts.join(", "),
            url.hostname()
        );
        if let Some((_, Some(imitated))) = lures.first() {
            detail.push_str(&format!("; {imitated}"));
        }
        Finding::new(F::CredentialsLookLikeHost, detail)
    };
    Some(match span {
        Some(span) => finding.span(span),
        None => finding,
    })
}

/// Whether `c` is, or reads as, a delimiter of an authority or of what follows it.
fn is_authority_delimiter(c: char) -> bool {
    const DELIMITERS: [char; 6] = ['/', ':', '\\', '#', '?', '@'];
    if c.is_ascii() {
        return DELIMITERS.contains(&c);
    }
    thread_local! {
        /// What each non-ASCII code point asked about read as: a userinfo of many thousand
        /// look-alikes asks about the same few, and each answer costs a normalisation and a
        /// skeleton.
        static SEEN: std::cell::RefCell<std::collections::HashMap<char, bool>> =
            std::cell::RefCell::default();
    }
    if let Some(known) = SEEN.with(|seen| seen.borrow().get(&c).copied()) {
        return known;
    }
    let mut buf = [0; 4];
    let text = c.encode_utf8(&mut buf);
    let nfkc = icu_normalizer::ComposingNormalizerBorrowed::new_nfkc().normalize(text);
    let delimiter = [nfkc.as_ref(), skeleton_of(text).as_str()]
        .iter()
        .any(|form| form.chars().count() == 1 && form.chars().all(|f| DELIMITERS.contains(&f)));
    SEEN.with(|seen| {
        let mut seen = seen.borrow_mut();
        // Bounded: a hostile input of every code point does not keep them all.
        if seen.len() < 4096 {
            seen.insert(c, delimiter);
        }
    });
    delimiter
}

/// Whether a part of the userinfo looks like a host: `Some(Some(what))` for a well-known or
/// allowed host (`what` says which), `Some(None)` for any other host-shaped name.
fn looks_like_host(part: &str, known: &Known, also_known: &[String]) -> Option<Option<String>> {
    // A listed domain has a dot; an ASCII part without one can only be an allowed name, and
    // is not mapped at all (only non-ASCII code points map to a full stop).
    if also_known.is_empty() && part.is_ascii() && !part.contains('.') {
        return None;
    }
    if part.parse::<Ipv4Addr>().is_ok() {
        return Some(None);
    }
    // As the host parser would read it: UTS 46 maps full-width letters and full stops.
    let ascii = domain_parser(part, false)?;
    let name = ascii.strip_suffix('.').unwrap_or(&ascii);
    if let Some(listed) = known.known_suffix_of(name) {
        return Some(Some(format!("{listed} is a well-known domain")));
    }
    let under = |allowed: &String| {
        name == allowed
            || name
                .strip_suffix(allowed.as_str())
                .is_some_and(|sub| sub.ends_with('.'))
    };
    if let Some(allowed) = also_known.iter().find(|a| under(a)) {
        return Some(Some(format!("{allowed} is an allowed host")));
    }
    // Any other name with a registrable domain under a public suffix.
    let shaped = name.contains('.')
        && psl::domain_str(name)
            .is_some_and(|r| r != name.trim_end_matches('.') || r.contains('.'));
    shaped.then_some(None)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn look_alike_delimiters_split_the_userinfo() {
        // Full-width and compatibility forms (NFKC) and UTS 39 confusables of / : \ # ? @.
        for c in [
            '/', ':', '\\', '#', '?', '@', '\u{2044}', '\u{2215}', '\u{FF0F}', '\u{FF03}',
            '\u{FF1F}', '\u{FF20}', '\u{FE6B}', '\u{FF1A}', '\u{FF3C}',
        ] {
            assert!(is_authority_delimiter(c), "{c:?} U+{:04X}", u32::from(c));
        }
        for c in ['a', '.', '-', '\u{e9}', '\u{3002}', '%'] {
            assert!(!is_authority_delimiter(c), "{c:?}");
        }
    }
}
