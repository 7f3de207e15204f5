//! Findings about the input as a whole: invisible and bidi control code points, what the
//! preprocessing removed, the scheme, and credentials.

use super::Subject;
use crate::diff::destination::HostKey;
use crate::inspect::finding::{quoted, Finding, FindingId as F, Severity};
use crate::inspect::known::{known, skeleton_of, Known};
use crate::url::host::{domain_parser, ends_in_a_number, parse_host};
use crate::url::record::Host;
use crate::url::sink::NoSink;
use crate::url::Url;
use crate::validation::{Span, ValidationErrorKind as E};

fn is_bidi_control(c: char) -> bool {
    crate::display::hidden(c) == Some(crate::display::Hidden::BidiControl)
}

/// Invisible and bidi control code points, in one pass (none of them ASCII, so an ASCII input,
/// as `is_ascii` says the input is, needs no decoding at all).
pub(super) fn code_point_findings(
    subject: &Subject<'_>,
    is_ascii: bool,
    findings: &mut Vec<Finding>,
) {
    let mut bidi = Vec::new();
    let mut invisible = Vec::new();
    let chars = (!is_ascii).then(|| subject.input.chars().enumerate());
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

/// Credentials, and credentials that look like a host. `one_destination`: whether every
/// reading of the URL (the parser differential's) goes to its one destination, which decides
/// the severity of a userinfo that is host-shaped alone ([`settle`]).
pub(super) fn credential_findings(
    subject: &Subject<'_>,
    one_destination: bool,
    findings: &mut Vec<Finding>,
) {
    let Some(url) = subject.url else { return };
    // The userinfo's span is the one the invalid-credentials validation error points at.
    let span = subject
        .errors
        .iter()
        .find(|e| e.kind == E::InvalidCredentials)
        .map(|e| e.span);
    let lures = lures(url, &[]);
    findings.extend(finding_of(url, span, &lures, one_destination));
}

/// A part of the userinfo that looks like a host: the part as written (percent-decoded), and
/// `Some(why)` when it imitates a well-known or allowed host that is not where the URL goes.
type Lure = (String, Option<String>);

/// The finding about `url`'s credentials, if it has any: `credentials-look-like-host` when a
/// part of the userinfo is a well-known host (the known-domains list, or one of `also_known`,
/// such as an allowlist's hosts) other than the URL's own, or any host-shaped name or address,
/// else `credentials`. `span` is where the userinfo was typed. The finding is a danger, as for
/// a URL whose readings were not compared; [`crate::inspect::analyse`] makes a host-shaped
/// userinfo that imitates no well-known host a warning where every reading goes to one
/// destination.
///
/// The parts are what a reader could take for the host: the userinfo percent-decoded, each
/// bracketed run (`[::ffff:127.0.0.1]`) taken whole, and the rest split at every delimiter of
/// an authority (`/ : \ # ? @`) and at every code point that reads as one (its NFKC form or
/// its UTS 39 skeleton is one: U+FF0F, U+2215, U+FE6B, ...), so that `user@paypal.com@`,
/// `x:paypal.com@` and `paypal.com%2F@` are read as `paypal.com`. Each part is read by the URL
/// Standard's host parser, so that every spelling of an address (`127.0.0.1`, `2130706433`,
/// `0x7f.0x0.0x0.0x1`, `[::ffff:127.0.0.1]`) is judged alike.
pub fn credential_finding(url: &Url, span: Option<Span>, also_known: &[&str]) -> Option<Finding> {
    let lures = lures(url, also_known);
    finding_of(url, span, &lures, false)
}

/// The parts of `url`'s userinfo that look like a host; `None` without credentials.
fn lures(url: &Url, also_known: &[&str]) -> Option<Vec<Lure>> {
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
    let destination = HostKey::of(url.hostname());
    let mut lures: Vec<Lure> = Vec::new();
    for part in userinfo_parts(username, password) {
        if let Some(imitated) = looks_like_host(&part, known, &also_known, &destination) {
            lures.push((part, imitated));
        }
    }
    // Well-known hosts first: they are what the lure is for.
    lures.sort_by_key(|(_, imitated)| imitated.is_none());
    Some(lures)
}

/// The parts of a userinfo (its username and password as the URL serializes them) that a
/// reader could take for the host: percent-decoded and joined by the ":" that separated them
/// (`[::1]@` is the username "[" and the password ":1]"), each bracketed run whole, the rest
/// split at the delimiters of an authority and their look-alikes.
pub(crate) fn userinfo_parts(username: &str, password: &str) -> Vec<String> {
    let decode = |component: &str| {
        String::from_utf8_lossy(&crate::url::percent::percent_decode(component.as_bytes()))
            .into_owned()
    };
    let mut decoded = decode(username);
    if !password.is_empty() {
        decoded.push(':');
        decoded.push_str(&decode(password));
    }
    let mut parts = Vec::new();
    let mut rest = decoded.as_str();
    let mut unbracketed = String::new();
    // An IPv6 address is written between brackets, with the colons that split the rest.
    while let Some(open) = rest.find('[') {
        let Some(close) = rest[open..].find(']').map(|c| open + c) else {
            break;
        };
        unbracketed.push_str(&rest[..open]);
        unbracketed.push('/');
        parts.push(rest[open..=close].to_owned());
        rest = &rest[close + 1..];
    }
    unbracketed.push_str(rest);
    parts.extend(
        unbracketed
            .split(is_authority_delimiter)
            .filter(|p| !p.is_empty())
            .map(str::to_owned),
    );
    parts
}

/// The finding for `lures` (see [`credential_finding`]); with `one_destination`, a host-shaped
/// userinfo that imitates no well-known or allowed host is a warning that says where every
/// reading goes.
fn finding_of(
    url: &Url,
    span: Option<Span>,
    lures: &Option<Vec<Lure>>,
    one_destination: bool,
) -> Option<Finding> {
    let lures = lures.as_ref()?;
    let finding = if lures.is_empty() {
        Finding::new(
            F::Credentials,
            "a username or password is part of the URL; a URL shown for a trust decision should omit them".to_owned(),
        )
    } else {
        let parts: Vec<String> = lures.iter().map(|(part, _)| quoted(part)).collect();
        let verb = if parts.len() == 1 { "looks" } else { "look" };
        let shown = parts.join(", ");
        let host = url.hostname();
        match lures.first() {
            Some((_, Some(imitated))) => Finding::new(
                F::CredentialsLookLikeHost,
                format!(
                    "{shown} in the userinfo {verb} like the host, but this URL goes to {host}; {imitated}"
                ),
            ),
            // Host-shaped alone, and every reading goes to the URL's one destination: it can
            // mislead a reader of the URL, not send a request elsewhere.
            _ if one_destination => {
                let mut finding = Finding::new(
                    F::CredentialsLookLikeHost,
                    format!(
                        "{shown} in the userinfo {verb} like a host, but every parser that reads this URL goes to {host}: it can mislead a reader, not a client"
                    ),
                );
                finding.severity = Severity::Warn;
                finding
            }
            _ => Finding::new(
                F::CredentialsLookLikeHost,
                format!(
                    "{shown} in the userinfo {verb} like the host, but this URL goes to {host}"
                ),
            ),
        }
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
/// allowed host other than `destination` (`what` says which), `Some(None)` for any other
/// host-shaped name and for every address (read by the URL Standard's host parser, as a special
/// URL's host: IPv4 in any notation, IPv6 between brackets).
fn looks_like_host(
    part: &str,
    known: &Known,
    also_known: &[String],
    destination: &HostKey,
) -> Option<Option<String>> {
    // A number a port could be (`:443@`, `:80@`) is read as one: the IPv4 parser would make
    // it 0.0.1.187, an address no lure spells.
    if part.len() <= 5
        && part.bytes().all(|b| b.is_ascii_digit())
        && part.parse::<u32>().is_ok_and(|n| n <= 65_535)
    {
        return None;
    }
    // A listed domain has a dot; an ASCII part without one that does not end in a number can
    // only be an allowed name, and is not mapped at all (only non-ASCII code points map to a
    // full stop or a digit).
    if also_known.is_empty()
        && part.is_ascii()
        && !part.contains('.')
        && !part.starts_with('[')
        && !ends_in_a_number(part)
    {
        return None;
    }
    // As the host parser reads a special URL's host: UTS 46 maps full-width letters, digits
    // and full stops, and a name that ends in a number is an IPv4 address in any notation.
    let ascii = match parse_host(&mut NoSink, part, 0, false).ok()? {
        Host::Ipv4(_) | Host::Ipv6(_) => return Some(None),
        Host::Domain(domain) => domain,
        Host::Opaque(_) | Host::Empty => return None,
    };
    let name = ascii.strip_suffix('.').unwrap_or(&ascii);
    // The URL's own host in the userinfo imitates nothing: it is where the URL goes.
    let elsewhere = HostKey::of(name) != *destination;
    if let Some(listed) = known.known_suffix_of(name).filter(|_| elsewhere) {
        return Some(Some(format!("{listed} is a well-known domain")));
    }
    // A well-known domain spelled out in a longer name, as `known-domain-in-subdomain` reads a
    // host (`paypal.com.evil.co.uk@`): the lure is the domain it spells.
    let left = psl::suffix_str(name)
        .and_then(|suffix| name.strip_suffix(suffix))
        .unwrap_or(name)
        .trim_end_matches('.');
    if let Some(spelled) = crate::inspect::lookalike::spelled_out(left, known)
        .filter(|spelled| HostKey::of(spelled) != *destination)
    {
        return Some(Some(format!("{spelled} is a well-known domain")));
    }
    let under = |allowed: &String| {
        name == allowed
            || name
                .strip_suffix(allowed.as_str())
                .is_some_and(|sub| sub.ends_with('.'))
    };
    if let Some(allowed) = also_known.iter().find(|a| under(a)).filter(|_| elsewhere) {
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
