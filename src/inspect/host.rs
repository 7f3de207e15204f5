//! The analysis of one parsed URL's host: its forms, labels, registrable domain, numeric forms,
//! the findings, and whether a browser-like policy would show it in Unicode.

use serde::Serialize;
use std::net::{Ipv4Addr, Ipv6Addr};
use unicode_script::{Script, UnicodeScript};
use unicode_security::{GeneralSecurityProfile, RestrictionLevel, RestrictionLevelDetection};

use super::finding::{describe, Finding, Severity};
use super::known::{known, skeleton_of, Known};
use super::rfc3986;
use crate::report::Report;
use crate::url::host::{domain_parser, domain_to_unicode};
use crate::url::Host;
use crate::validation::{Span, ValidationErrorKind as E};

/// One label of a domain.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LabelAnalysis {
    /// As typed in the input (when it can be lined up with the result).
    pub typed: Option<String>,
    pub unicode: String,
    pub ascii: String,
    pub scripts: Vec<String>,
    /// UTS 39 restriction level of the Unicode label.
    pub restriction: String,
}

/// An IP address host: every notation that reaches it, and its range.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct IpAnalysis {
    pub notations: Vec<(String, String)>,
    pub range: Option<&'static str>,
}

/// One rule of the display policy that fired.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RuleHit {
    pub rule: &'static str,
    pub label: String,
    pub code_point: Option<String>,
    pub detail: String,
}

/// Would a browser show the host in Unicode, and which rules said no.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct DisplayDecision {
    pub unicode: bool,
    pub shown: String,
    pub rules: Vec<RuleHit>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct HostAnalysis {
    /// The host as serialized (ASCII).
    pub host: String,
    pub unicode: String,
    pub public_suffix: Option<String>,
    /// Public suffix plus one label: the part of the name that decides who owns it.
    pub registrable_domain: Option<String>,
    pub labels: Vec<LabelAnalysis>,
    pub ip: Option<IpAnalysis>,
    pub display: Option<DisplayDecision>,
    pub findings: Vec<Finding>,
}

impl HostAnalysis {
    pub fn ids(&self) -> Vec<&'static str> {
        self.findings.iter().map(|f| f.id).collect()
    }
}

/// Code points of the input with their positions.
fn positioned(input: &str, span: Option<Span>) -> Vec<(usize, char)> {
    let (start, end) = span.map_or((0, 0), |s| (s.start, s.end));
    let mut points = Vec::with_capacity(end.saturating_sub(start).min(input.len()));
    if input.is_ascii() {
        // Code point offsets are byte offsets: no decoding up to the span.
        let from = start.min(input.len());
        let bytes = &input.as_bytes()[from..end.clamp(from, input.len())];
        points.extend(
            bytes
                .iter()
                .enumerate()
                .map(|(i, &b)| (start + i, char::from(b))),
        );
    } else {
        points.extend(input.chars().enumerate().skip(start).take(end - start));
    }
    points
}

/// `s.split('.')`. Labels are a few bytes long: a plain byte scan beats the general
/// searcher, whose setup cost more than the scan itself.
fn labels(s: &str) -> impl Iterator<Item = &str> {
    let mut rest = Some(s);
    std::iter::from_fn(move || {
        let r = rest?;
        match r.bytes().position(|b| b == b'.') {
            Some(dot) => {
                rest = Some(&r[dot + 1..]);
                Some(&r[..dot])
            }
            None => {
                rest = None;
                Some(r)
            }
        }
    })
}

fn is_label_separator(c: char) -> bool {
    matches!(c, '.' | '\u{3002}' | '\u{FF0E}' | '\u{FF61}')
}

fn is_deviation(c: char) -> bool {
    matches!(c, 'ß' | 'ς' | '\u{200C}' | '\u{200D}')
}

fn is_bidi_control(c: char) -> bool {
    crate::display::hidden(c) == Some(crate::display::Hidden::BidiControl)
}

/// The script of `c`, without a table lookup for ASCII (letters are Latin, the rest Common).
fn script_of(c: char) -> Script {
    match c {
        'a'..='z' | 'A'..='Z' => Script::Latin,
        _ if c.is_ascii() => Script::Common,
        _ => c.script(),
    }
}

fn is_scriptless(s: Script) -> bool {
    matches!(s, Script::Common | Script::Inherited | Script::Unknown)
}

fn scripts_of(label: &str) -> Vec<Script> {
    let mut scripts = Vec::new();
    for c in label.chars() {
        let s = script_of(c);
        if !is_scriptless(s) && !scripts.contains(&s) {
            scripts.push(s);
        }
    }
    scripts
}

/// The first of `scripts_of(label)`, without collecting them.
fn first_script(label: &str) -> Option<Script> {
    label.chars().map(script_of).find(|&s| !is_scriptless(s))
}

/// Whether the skeleton of the one code point `c` is ASCII digits only (or nothing).
fn skeleton_is_digits(c: char) -> bool {
    // `skeleton_of(&c.to_string())`, stopping at the first character that is not a digit. A
    // one-code-point string has no final sigma, so lowercasing the code point is lowercasing
    // the string.
    let lower: String = c.to_lowercase().collect();
    let mut skeleton = unicode_security::skeleton(&lower).flat_map(char::to_lowercase);
    skeleton.all(|d| d.is_ascii_digit())
}

fn restriction_name(level: RestrictionLevel) -> &'static str {
    match level {
        RestrictionLevel::ASCIIOnly => "ASCII-only",
        RestrictionLevel::SingleScript => "single script",
        RestrictionLevel::HighlyRestrictive => "highly restrictive",
        RestrictionLevel::ModeratelyRestrictive => "moderately restrictive",
        RestrictionLevel::MinimallyRestrictive => "minimally restrictive",
        RestrictionLevel::Unrestricted => "unrestricted",
    }
}

/// The range an IPv4 address is in, when it is not ordinary public space.
fn ipv4_range(ip: Ipv4Addr) -> Option<&'static str> {
    let o = ip.octets();
    Some(match o {
        [169, 254, 169, 254] => "cloud metadata service",
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

fn ipv6_range(ip: Ipv6Addr) -> Option<&'static str> {
    let s = ip.segments();
    if let Some(v4) = ip.to_ipv4_mapped() {
        return Some(match ipv4_range(v4) {
            Some(_) => "IPv4-mapped internal address",
            None => "IPv4-mapped",
        });
    }
    Some(match s {
        [0, 0, 0, 0, 0, 0, 0, 1] => "loopback",
        [0, 0, 0, 0, 0, 0, 0, 0] => "unspecified",
        [0xfe80..=0xfebf, ..] => "link-local",
        [0xfd00, 0xec2, 0, 0, 0, 0, 0, 0x254] => "cloud metadata service",
        [0xfc00..=0xfdff, ..] => "unique local (private)",
        [0x2001, 0xdb8, ..] => "documentation",
        [0xff00..=0xffff, ..] => "multicast",
        _ => return None,
    })
}

/// Analyses the host of the report's URL; for an input that did not parse, only the findings
/// about the input as a whole.
pub fn analyse(report: &Report) -> Option<HostAnalysis> {
    if report.input.is_empty() {
        return None;
    }
    let mut findings = Vec::new();
    whole_input_findings(report, &mut findings);
    let host = report
        .url
        .as_ref()
        .and_then(|url| url.record().host.as_ref());
    credential_findings(report, &mut findings);
    let input = report.input.as_str();
    let host_points = positioned(input, report.host_span);

    // Without a URL (or a host), only what the whole input shows can be said.
    let Some(host) = host else {
        return Some(HostAnalysis {
            host: String::new(),
            unicode: String::new(),
            public_suffix: None,
            registrable_domain: None,
            labels: Vec::new(),
            ip: None,
            display: None,
            findings,
        });
    };
    let mut serialized = String::new();
    host.serialize_into(&mut serialized);
    let mut analysis = HostAnalysis {
        host: String::new(),
        // Set below: a domain's Unicode form, or else the serialized host.
        unicode: String::new(),
        public_suffix: None,
        registrable_domain: None,
        labels: Vec::new(),
        ip: None,
        display: None,
        findings: Vec::new(),
    };
    match host {
        Host::Domain(domain) => {
            domain_findings(report, domain, &host_points, &mut analysis, &mut findings);
        }
        Host::Ipv4(address) => {
            let typed: String = host_points.iter().map(|&(_, c)| c).collect();
            let ip = Ipv4Addr::from(*address);
            // The serialized host is the address in dotted decimal already.
            let dotted = serialized.as_str();
            let mut notations = Vec::with_capacity(5);
            if !typed.is_empty() {
                notations.push(("as typed".to_owned(), typed.clone()));
            }
            notations.extend([
                ("dotted decimal".to_owned(), dotted.to_owned()),
                ("hexadecimal".to_owned(), format!("0x{address:08x}")),
                ("integer".to_owned(), address.to_string()),
                ("octal".to_owned(), format!("0{address:o}")),
            ]);
            let range = ipv4_range(ip);
            if !typed.is_empty() && typed != serialized {
                findings.push(
                    Finding::new(
                        "non-canonical-ipv4",
                        Severity::Warn,
                        "IPv4 address in a non-canonical form",
                        format!("{typed:?} is the address {dotted}: hex, octal, a plain integer or fewer than four parts all reach it"),
                    )
                    .span(report.host_span.unwrap_or(Span { start: 0, end: 0 })),
                );
            }
            if let Some(range) = range {
                findings.push(Finding::new(
                    "internal-address",
                    Severity::Warn,
                    "Address in an internal or special range",
                    format!("{dotted} is {range} address space"),
                ));
            }
            analysis.ip = Some(IpAnalysis { notations, range });
        }
        Host::Ipv6(pieces) => {
            let ip = Ipv6Addr::from(*pieces);
            let mut notations = vec![
                ("compressed".to_owned(), format!("[{ip}]")),
                (
                    "full".to_owned(),
                    pieces
                        .iter()
                        .map(|p| format!("{p:04x}"))
                        .collect::<Vec<_>>()
                        .join(":"),
                ),
            ];
            if let Some(v4) = ip.to_ipv4_mapped() {
                notations.push(("IPv4-mapped".to_owned(), v4.to_string()));
            }
            let range = ipv6_range(ip);
            if let Some(range) = range {
                findings.push(Finding::new(
                    "internal-address",
                    Severity::Warn,
                    "Address in an internal or special range",
                    format!("[{ip}] is {range} address space"),
                ));
            }
            analysis.ip = Some(IpAnalysis { notations, range });
        }
        Host::Opaque(_) | Host::Empty => {}
    }
    if !matches!(host, Host::Domain(_)) {
        analysis.unicode.clone_from(&serialized);
    }
    differential_findings(report, host, &serialized, &host_points, &mut findings);
    analysis.host = serialized;
    findings.sort_by(|a, b| b.severity.cmp(&a.severity).then(a.id.cmp(b.id)));
    analysis.findings = findings;
    Some(analysis)
}

/// Findings about the whole input: invisible and bidi control code points, and what the
/// preprocessing removed.
fn whole_input_findings(report: &Report, findings: &mut Vec<Finding>) {
    // One pass over the input, keeping only the code points that matter (none of them ASCII,
    // so an ASCII input needs no decoding at all).
    let mut bidi = Vec::new();
    let mut invisible = Vec::new();
    let chars = (!report.input.is_ascii()).then(|| report.input.chars().enumerate());
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
                "bidi-control",
                Severity::Danger,
                "Bidirectional control characters",
                "they reorder how the text is displayed, so what you read is not the order the parser reads".to_owned(),
            )
            .at(bidi),
        );
    }
    if !invisible.is_empty() {
        findings.push(
            Finding::new(
                "invisible-code-point",
                Severity::Warn,
                "Invisible code points",
                "zero-width or default-ignorable code points are in the URL; they do not show but can change what it means".to_owned(),
            )
            .at(invisible),
        );
    }
    for error in &report.errors {
        let (id, severity, title, detail) = match error.kind {
            E::InvalidReverseSolidus => (
                "backslash-as-slash",
                Severity::Warn,
                "Backslash taken as a slash",
                "a special URL reads \\ as /; other parsers may not",
            ),
            E::DomainPercentEncoded => (
                "percent-encoded-host",
                Severity::Warn,
                "Percent-encoded bytes in the host",
                "the host is percent-decoded before IDNA, so what resolves is not what is written",
            ),
            E::InvalidUrlUnit if error.state == crate::url::Phase::RemoveTabOrNewline => (
                "tab-or-newline-removed",
                Severity::Warn,
                "Tabs or newlines removed",
                "ASCII tabs and newlines anywhere in the input are dropped before parsing",
            ),
            E::InvalidUrlUnit if error.state == crate::url::Phase::TrimControlOrSpace => (
                "trimmed",
                Severity::Info,
                "Leading or trailing spaces or controls trimmed",
                "C0 controls and spaces at either end are removed before parsing",
            ),
            _ => continue,
        };
        if findings.iter().any(|f| f.id == id) {
            if let Some(f) = findings.iter_mut().find(|f| f.id == id) {
                f.spans.push(error.span);
            }
            continue;
        }
        findings.push(Finding::new(id, severity, title, detail.to_owned()).span(error.span));
    }
}

/// Credentials, and credentials that look like a host.
fn credential_findings(report: &Report, findings: &mut Vec<Finding>) {
    let Some(url) = &report.url else { return };
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
    let span = report
        .errors
        .iter()
        .find(|e| e.kind == E::InvalidCredentials)
        .map(|e| e.span);
    let finding = if host_like {
        Finding::new(
            "credentials-look-like-host",
            Severity::Danger,
            "Credentials shaped like a host",
            format!(
                "{decoded:?} before the @ is a username, not the host; the URL goes to {}",
                url.hostname()
            ),
        )
    } else {
        Finding::new(
            "credentials",
            Severity::Warn,
            "Credentials in the URL",
            "a username or password is part of the URL; a URL shown for a trust decision should omit them".to_owned(),
        )
    };
    findings.push(match span {
        Some(span) => finding.span(span),
        None => finding,
    });
}

/// The RFC 3986 reading of the same string, compared with the WHATWG host.
fn differential_findings(
    report: &Report,
    host: &Host,
    serialized: &str,
    host_points: &[(usize, char)],
    findings: &mut Vec<Finding>,
) {
    let Some(url) = &report.url else { return };
    if !url.record().is_special() || report.base.is_some() {
        return;
    }
    // Nearly every input agrees, and showing that needs only the Appendix B host, which a
    // strict reading with an authority shares (see `rfc3986::appendix_b_host`): the strict
    // parse and the re-parse below are for the disagreements.
    if let Some(theirs) = rfc3986::appendix_b_host(&report.input) {
        if theirs.eq_ignore_ascii_case(serialized) {
            return;
        }
        // The host exactly as typed (no tab or newline the preprocessing removed inside it):
        // that is the buffer our host parser turned into `host`, so the re-parse below, which
        // puts it alone between "scheme://" and "/", would give `host` again.
        if report.host_span.is_some()
            && !theirs.contains(|c: char| c.is_control())
            && theirs.chars().eq(host_points.iter().map(|&(_, c)| c))
        {
            return;
        }
    }
    let Some(rfc) = rfc3986::authority(&report.input) else {
        return;
    };
    if rfc.host.eq_ignore_ascii_case(serialized) {
        return;
    }
    // Normalise the RFC host with our own host parser, so that case, IDNA and IPv4 notations
    // are not mistaken for a differential.
    // A tab or newline would be dropped by our preprocessing, hiding the very difference
    // looked for: such a host is different by definition.
    let theirs = (!rfc.host.contains(|c: char| c.is_control()))
        .then(|| crate::url::Url::parse(&format!("{}://{}/", url.scheme(), rfc.host), None).ok())
        .flatten()
        .and_then(|u| u.record().host.clone());
    if theirs.as_ref() == Some(host) {
        return;
    }
    let reading = if rfc.strict {
        "an RFC 3986 parser"
    } else {
        "a lenient RFC 3986 parser (Appendix B)"
    };
    let span = report.host_span.unwrap_or(Span { start: 0, end: 0 });
    findings.push(
        Finding::new(
            "parser-differential",
            Severity::Danger,
            "Parsers disagree on the host",
            format!(
                "this URL goes to {serialized:?} here (WHATWG), but {reading} reads the host as {:?}{}",
                rfc.host,
                rfc.userinfo
                    .as_ref()
                    .map_or(String::new(), |u| format!(" with userinfo {u:?}"))
            ),
        )
        .span(span),
    );
}

fn domain_findings(
    report: &Report,
    domain: &str,
    host_points: &[(usize, char)],
    analysis: &mut HostAnalysis,
    findings: &mut Vec<Finding>,
) {
    analysis.unicode = to_unicode(domain);
    let unicode = analysis.unicode.as_str();
    let host_span = report.host_span.unwrap_or(Span { start: 0, end: 0 });
    (analysis.public_suffix, analysis.registrable_domain) = suffix_and_registrable(domain);

    // One pass over the typed host for what decides the work below.
    let (mut separators, mut typed_ascii, mut typed_upper) = (0, true, false);
    for &(_, c) in host_points {
        separators += usize::from(is_label_separator(c));
        typed_ascii &= c.is_ascii();
        typed_upper |= c.is_ascii_uppercase();
    }
    // The typed host lines up with the result when it has as many labels.
    let aligned = separators + 1 == labels(unicode).count();
    let mut typed_rest = host_points;

    let mut rules = Vec::new();
    let has_idn = labels(domain).any(|l| l.starts_with("xn--"));
    for (u, a) in labels(unicode).zip(labels(domain)) {
        let points: &[(usize, char)] = if aligned {
            let end = typed_rest
                .iter()
                .position(|&(_, c)| is_label_separator(c))
                .unwrap_or(typed_rest.len());
            let (points, rest) = typed_rest.split_at(end);
            typed_rest = rest.get(1..).unwrap_or_default();
            points
        } else {
            &[]
        };
        let typed = aligned.then(|| {
            let mut typed = String::with_capacity(points.len());
            typed.extend(points.iter().map(|&(_, c)| c));
            typed
        });
        if u.is_ascii() {
            // Latin if it has a letter, else no script; and no display rule can fire.
            let latin = u.bytes().any(|b| b.is_ascii_alphabetic());
            analysis.labels.push(LabelAnalysis {
                typed,
                unicode: u.to_owned(),
                ascii: a.to_owned(),
                scripts: if latin {
                    vec![Script::Latin.full_name().to_owned()]
                } else {
                    Vec::new()
                },
                restriction: restriction_name(RestrictionLevel::ASCIIOnly).to_owned(),
            });
            continue;
        }
        let scripts = scripts_of(u);
        let level = u.detect_restriction_level();
        let at = |c: char| points.iter().find(|&&(_, x)| x == c).map(|&(p, _)| p);
        analysis.labels.push(LabelAnalysis {
            typed,
            unicode: u.to_owned(),
            ascii: a.to_owned(),
            scripts: scripts.iter().map(|s| s.full_name().to_owned()).collect(),
            restriction: restriction_name(level).to_owned(),
        });
        let mut hit = |rule: &'static str, c: Option<char>, detail: String| {
            rules.push(RuleHit {
                rule,
                label: u.to_owned(),
                code_point: c.map(describe),
                detail,
            });
        };
        // Mixed scripts beyond "highly restrictive".
        if matches!(
            level,
            RestrictionLevel::ModeratelyRestrictive | RestrictionLevel::MinimallyRestrictive
        ) {
            // The characters of the minority scripts are the odd ones out.
            let count = |s: Script| u.chars().filter(|c| c.script() == s).count();
            let main = scripts.iter().copied().max_by_key(|&s| count(s));
            let odd: Vec<char> = u
                .chars()
                .filter(|c| {
                    Some(c.script()) != main
                        && !matches!(c.script(), Script::Common | Script::Inherited)
                })
                .collect();
            let names: Vec<String> = scripts.iter().map(|s| s.full_name().to_owned()).collect();
            findings.push(
                Finding::new(
                    "mixed-script",
                    Severity::Danger,
                    "Mixed scripts in one label",
                    format!(
                        "the label {u:?} mixes {} beyond what UTS 39 \"highly restrictive\" allows",
                        names.join(" and ")
                    ),
                )
                .at(odd.iter().filter_map(|&c| at(c).map(|p| (p, c)))),
            );
            hit(
                "mixed-script",
                odd.first().copied(),
                format!("scripts {}", names.join(" + ")),
            );
        }
        if level == RestrictionLevel::Unrestricted {
            let odd = u
                .chars()
                .find(|&c| !GeneralSecurityProfile::identifier_allowed(c));
            hit(
                "not-in-identifier-profile",
                odd,
                "a code point outside the UTS 39 identifier profile (symbols, emoji)".to_owned(),
            );
        }
        // Whole-script confusable: one non-Latin script whose letters all look Latin.
        if scripts.len() == 1 && scripts[0] != Script::Latin {
            let skeleton = skeleton_of(u);
            let looks_latin = skeleton
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-');
            let tld_script = unicode.rsplit('.').next().and_then(first_script);
            if looks_latin && tld_script != Some(scripts[0]) {
                findings.push(
                    Finding::new(
                        "whole-script-confusable",
                        Severity::Danger,
                        "Homograph: every letter imitates a Latin one",
                        format!(
                            "{u:?} is written entirely in {} but reads as the Latin {skeleton:?}",
                            scripts[0].full_name()
                        ),
                    )
                    .at(points.iter().copied()),
                );
                hit(
                    "whole-script-confusable",
                    u.chars().next(),
                    format!("reads as {skeleton:?}"),
                );
            }
        }
        // Japanese kana that look like slashes or a dash, next to other scripts.
        if let Some(c) = u.chars().find(|c| {
            matches!(
                c,
                '\u{30CE}' | '\u{30F3}' | '\u{30BD}' | '\u{30BE}' | '\u{4E00}' | '\u{30FC}'
            )
        }) {
            if scripts
                .iter()
                .any(|s| !matches!(s, Script::Hiragana | Script::Katakana | Script::Han))
            {
                hit(
                    "kana-lookalike",
                    Some(c),
                    "a kana that looks like / or - beside non-Japanese text".to_owned(),
                );
            }
        }
        // Digits of other scripts that look like ASCII digits.
        if let Some(c) = u.chars().find(|&c| !c.is_ascii() && skeleton_is_digits(c)) {
            hit(
                "digit-lookalike",
                Some(c),
                "a non-ASCII digit that looks like an ASCII one".to_owned(),
            );
        }
        if let Some(c) = u.chars().find(|&c| is_deviation(c)) {
            hit(
                "deviation-character",
                Some(c),
                "read differently by IDNA2003 (transitional) processing".to_owned(),
            );
        }
    }
    // Deviation characters: two readings. (They and mapped code points are never ASCII.)
    let deviations: Vec<(usize, char)> = if typed_ascii {
        Vec::new()
    } else {
        host_points
            .iter()
            .copied()
            .filter(|&(_, c)| is_deviation(c))
            .collect()
    };
    if !deviations.is_empty() {
        let transitional: String = host_points
            .iter()
            .filter_map(|&(_, c)| match c {
                'ß' => Some("ss".to_owned()),
                'ς' => Some("σ".to_owned()),
                '\u{200C}' | '\u{200D}' => None,
                c => Some(c.to_string()),
            })
            .collect();
        let other = domain_parser(&transitional, false).unwrap_or_else(|| "failure".to_owned());
        findings.push(
            Finding::new(
                "deviation-character",
                Severity::Warn,
                "Deviation characters",
                format!("UTS 46 nontransitional processing (browsers today) gives {domain:?}; IDNA2003 transitional processing gave {other:?}"),
            )
            .at(deviations),
        );
    }
    // What was typed is not what resolves: mapped code points.
    let mapped: Vec<(usize, char)> = if typed_ascii {
        Vec::new()
    } else {
        host_points
            .iter()
            .copied()
            .filter(|&(_, c)| {
                !c.is_ascii()
                    && !is_deviation(c)
                    && !crate::display::needs_escape(c)
                    && !unicode.contains(c)
            })
            .collect()
    };
    if !mapped.is_empty() {
        findings.push(
            Finding::new(
                "mapped-code-points",
                Severity::Warn,
                "Code points mapped to others",
                "UTS 46 maps these (fullwidth forms, compatibility characters, other full stops) before the host is used".to_owned(),
            )
            .at(mapped),
        );
    }
    let upper: Vec<(usize, char)> = if typed_upper {
        // Not the hex digits of a percent-encoded byte ("%6D" is an "m").
        let mut escape = 0_u8;
        host_points
            .iter()
            .copied()
            .filter(|&(_, c)| {
                let in_escape = escape > 0;
                escape = if c == '%' {
                    2
                } else {
                    escape.saturating_sub(1)
                };
                !in_escape && c.is_ascii_uppercase()
            })
            .collect()
    } else {
        Vec::new()
    };
    if !upper.is_empty() {
        findings.push(
            Finding::new(
                "uppercase",
                Severity::Info,
                "Uppercase letters lowercased",
                "hosts are case-insensitive; the host is lowercased".to_owned(),
            )
            .at(upper),
        );
    }
    // Look-alikes of well-known domains.
    let known = known();
    if !known.is_known_or_subdomain(domain) {
        let registrable = analysis.registrable_domain.as_deref();
        let registrable_unicode = registrable.map(to_unicode);
        // The registrable domain is often the whole domain: no need to ask twice.
        let candidates = [
            Some(unicode),
            registrable_unicode.as_deref().filter(|&r| r != unicode),
        ];
        if let Some(imitated) = candidates
            .into_iter()
            .flatten()
            .find_map(|d| known.imitated(d))
        {
            findings.push(
                Finding::new(
                    "lookalike-domain",
                    Severity::Danger,
                    "Look-alike of a well-known domain",
                    format!("{unicode:?} looks like {imitated} but is a different domain"),
                )
                .span(host_span),
            );
            rules.push(RuleHit {
                rule: "skeleton-match",
                label: unicode.to_owned(),
                code_point: None,
                detail: format!("looks like {imitated}"),
            });
        }
        // A well-known domain spelled out left of a different registrable domain.
        let owner = registrable.unwrap_or(domain);
        let left = domain
            .strip_suffix(owner)
            .unwrap_or("")
            .trim_end_matches('.');
        if !left.is_empty() {
            if let Some(spelled) = spelled_out(left, known) {
                findings.push(Finding::new(
                    "known-domain-in-subdomain",
                    Severity::Danger,
                    "A well-known domain spelled out in a subdomain",
                    format!("{spelled:?} appears in the host, but the domain that owns it is {owner:?}"),
                )
                .span(host_span));
            }
        }
    }
    if has_idn && unicode == domain {
        rules.push(RuleHit {
            rule: "uts46-error",
            label: domain.to_owned(),
            code_point: None,
            detail: "domain to Unicode recorded an error".to_owned(),
        });
    }
    if has_idn && findings.iter().all(|f| f.severity == Severity::Info) && rules.is_empty() {
        findings.push(Finding::new(
            "idn",
            Severity::Info,
            "Internationalised domain name",
            format!("the host is {unicode:?}, sent as {domain:?}"),
        ));
    }
    if has_idn {
        let shown = if rules.is_empty() {
            unicode.to_owned()
        } else {
            domain.to_owned()
        };
        analysis.display = Some(DisplayDecision {
            unicode: rules.is_empty(),
            shown,
            rules,
        });
    }
}

/// `psl::suffix_str` and `psl::domain_str`: the registrable domain is found from the public
/// suffix, so one lookup gives both.
fn suffix_and_registrable(domain: &str) -> (Option<String>, Option<String>) {
    let utf8 = |bytes: &[u8]| std::str::from_utf8(bytes).ok().map(str::to_owned);
    match psl::domain(domain.as_bytes()) {
        Some(registrable) => (
            utf8(registrable.suffix().trim().as_bytes()),
            utf8(registrable.trim().as_bytes()),
        ),
        None => (psl::suffix_str(domain).map(str::to_owned), None),
    }
}

/// Domain to Unicode of an ASCII domain.
fn to_unicode(domain: &str) -> String {
    // Only "xn--" labels change in domain to Unicode: an ASCII domain without one is its own
    // Unicode form, and UTS 46 need not run.
    if domain.as_bytes().windows(4).any(|w| w == b"xn--") {
        domain_to_unicode(domain)
    } else {
        domain.to_owned()
    }
}

/// The first well-known domain among the runs of consecutive labels of `left` (in order of
/// their first label, then their length), then among its hyphenated labels read with dots.
fn spelled_out(left: &str, known: &Known) -> Option<String> {
    // A run of labels joined with dots is a slice of `left`: no string is built to test it.
    let starts = std::iter::once(0).chain(left.match_indices('.').map(|(dot, _)| dot + 1));
    for start in starts {
        // Runs no longer than the longest listed domain: a hostile host of 500k labels must
        // not cost every run of them.
        let ends = left[start..]
            .match_indices('.')
            .map(|(dot, _)| start + dot)
            .chain(std::iter::once(left.len()))
            .take(known.max_labels);
        for end in ends {
            if known.contains(&left[start..end]) {
                return Some(left[start..end].to_owned());
            }
        }
    }
    // A label without a hyphen reads the same and was tested above.
    left.split('.')
        .filter(|label| label.contains('-'))
        .map(|label| label.replace('-', "."))
        .find(|candidate| known.contains(candidate))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_known_domain_lookups_of_a_long_host_hash_a_bounded_amount() {
        // 50,000 labels: each suffix and each run of labels is a candidate, and hashing every
        // candidate whole (as before keys longer than any listed domain were skipped) hashed
        // about a gigabyte here; the hostile bench found it.
        let input = format!("https://{}com/", "a.".repeat(50_000));
        let report = Report::new(&input, None);
        let before = crate::inspect::known::hashed_bytes();
        assert!(analyse(&report).is_some());
        let hashed = crate::inspect::known::hashed_bytes() - before;
        assert!(
            hashed <= 2 * input.len(),
            "{hashed} bytes hashed for a host of {} bytes",
            input.len()
        );
    }

    fn ids(input: &str) -> Vec<&'static str> {
        let report = Report::new(input, None);
        report.host_analysis.map(|a| a.ids()).unwrap_or_default()
    }

    #[test]
    fn ranges() {
        assert_eq!(
            ipv4_range(Ipv4Addr::new(169, 254, 169, 254)),
            Some("cloud metadata service")
        );
        assert_eq!(ipv4_range(Ipv4Addr::new(8, 8, 8, 8)), None);
        assert_eq!(
            ipv6_range("::ffff:127.0.0.1".parse().expect("ip")),
            Some("IPv4-mapped internal address")
        );
    }

    #[test]
    fn a_plain_url_has_no_findings() {
        assert_eq!(ids("https://example.com/"), Vec::<&str>::new());
    }

    /// Inputs for the shortcuts below: hosts of every kind, typed in every way the parser
    /// accepts.
    const INPUTS: &[&str] = &[
        "https://example.com/",
        "https://www.example.com/path?q=1",
        "https://WWW.Example.COM/",
        "https://example.com./",
        "https://a..b.example/",
        "https://sub.example.co.uk/a",
        "http://localhost:8080/",
        "https://user:pass@example.com:8443/",
        "https://a@b@example.com/",
        "http://evil.example\\@good.example/",
        "https://evil.example\\good.example/",
        "https:example.com",
        "https:/example.com",
        "https:////example.com",
        "  https://example.com/  ",
        "https://exa\tmple.com/",
        "https://example.com\n/",
        "https://%65xample.com/",
        "https://ex%41mple.com/",
        "https://m\u{fc}nchen.de/",
        "https://xn--mnchen-3ya.de/",
        "https://mail.b\u{fc}cher.\u{4f8b}\u{3048}.jp/",
        "https://\u{430}\u{440}\u{440}\u{4cf}\u{435}.com/",
        "https://\u{ff45}\u{ff58}\u{ff41}\u{ff4d}\u{ff50}\u{ff4c}\u{ff45}\u{3002}com/",
        "https://fa\u{df}.de/",
        "https://a\u{200d}b.example/",
        "https://xn--a.example/",
        "https://xn--80ak6aa92e.com/",
        "http://0x7f.1/",
        "http://2130706433/",
        "http://0177.0.0.1/",
        "http://127.1/",
        "http://[::1]/",
        "http://[::ffff:127.0.0.1]:80/",
        "http://[0:0:0:0:0:0:0:1]/",
        "file:///etc/hosts",
        "file://localhost/x",
        "file://LOCALHOST/x",
        "file://host/share",
        "file://C:/x",
        "ws://example.com/",
        "ftp://ftp.example.com/",
        "https://www.paypal.com.evil.example/",
        "https://paypal-com.evil.co.uk/",
    ];

    #[test]
    fn ascii_scripts_are_latin_and_common() {
        for c in (0u8..128).map(char::from) {
            assert_eq!(script_of(c), c.script(), "{c:?}");
            // The ASCII label shortcut: Latin exactly for the letters.
            assert_eq!(!is_scriptless(c.script()), c.is_ascii_alphabetic(), "{c:?}");
        }
    }

    #[test]
    fn digit_skeletons_match_the_whole_skeleton() {
        let code_points = (0..0x3_0000)
            .filter_map(char::from_u32)
            .filter(|c| !c.is_ascii() && (c.is_numeric() || u32::from(*c) % 61 == 0));
        for c in code_points {
            let expected = skeleton_of(&c.to_string())
                .chars()
                .all(|d| d.is_ascii_digit());
            assert_eq!(skeleton_is_digits(c), expected, "{c:?}");
        }
    }

    #[test]
    fn labels_split_like_split() {
        for s in [
            "",
            ".",
            "a",
            "a.b",
            ".a.",
            "a..b",
            "www.example.com.",
            "\u{fc}.\u{4f8b}",
        ] {
            assert_eq!(
                labels(s).collect::<Vec<_>>(),
                s.split('.').collect::<Vec<_>>()
            );
        }
    }

    #[test]
    fn positions_of_ascii_input_skip_the_decoding() {
        for input in INPUTS {
            let count = input.chars().count();
            for (start, end) in [
                (0, 0),
                (0, count),
                (3, 9),
                (8, count + 4),
                (count, count + 1),
            ] {
                let span = Some(Span { start, end });
                let slow: Vec<(usize, char)> = input
                    .chars()
                    .enumerate()
                    .skip(start)
                    .take(end - start)
                    .collect();
                assert_eq!(positioned(input, span), slow, "{input:?} {start}..{end}");
            }
        }
    }

    #[test]
    fn one_public_suffix_lookup_gives_both() {
        let domains = [
            "com",
            "com.",
            "example.com",
            "example.com.",
            "www.example.com",
            "a.b.example.co.uk",
            "co.uk",
            "localhost",
            "xn--p1ai",
            "xn--e1afmkfd.xn--p1ai",
            "github.io",
            "user.github.io",
            "a..b.example",
            ".",
            "..",
            "1.2.3",
        ];
        for d in domains {
            assert_eq!(
                suffix_and_registrable(d),
                (
                    psl::suffix_str(d).map(str::to_owned),
                    psl::domain_str(d).map(str::to_owned)
                ),
                "{d:?}"
            );
        }
    }

    #[test]
    fn an_ascii_domain_without_xn_is_its_own_unicode_form() {
        let domains = [
            "example.com",
            "example.com.",
            "a..b",
            "-a-.b-",
            "a_b.example",
            "localhost",
            "123.example",
            "axn-b.example",
            "xn-.example",
            "ab--cd.example",
        ];
        for d in domains {
            assert_eq!(to_unicode(d), domain_to_unicode(d), "{d:?}");
        }
    }

    #[test]
    fn spelled_out_domains_are_the_joined_runs_of_labels() {
        let known = known();
        let joined = |left: &str| {
            let labels: Vec<&str> = left.split('.').collect();
            (0..labels.len())
                .flat_map(|i| (i + 1..=labels.len()).map(move |j| (i, j)))
                .map(|(i, j)| labels[i..j].join("."))
                .chain(labels.iter().map(|l| l.replace('-', ".")))
                .find(|candidate| known.contains(candidate))
        };
        let lefts = [
            "www",
            "www.paypal.com",
            "paypal.com.login",
            "login.paypal.com.x",
            "paypal-com",
            "a.paypal-com.b",
            "x..paypal.com",
            "accounts.google.com.secure",
            "google.com.paypal.com",
            "paypal.com-google.com",
        ];
        for left in lefts {
            assert_eq!(spelled_out(left, known), joined(left), "{left:?}");
        }
    }

    #[test]
    fn a_host_typed_alone_parses_to_the_same_host() {
        // The differential shortcut: the typed host, between "scheme://" and "/", is what the
        // re-parse would see.
        for input in INPUTS {
            let report = Report::new(input, None);
            let Some(url) = &report.url else { continue };
            let Some(host) = &url.record().host else {
                continue;
            };
            let typed: String = positioned(input, report.host_span)
                .into_iter()
                .map(|(_, c)| c)
                .collect();
            if !url.record().is_special()
                || report.host_span.is_none()
                || typed.contains(|c: char| c.is_control())
            {
                continue;
            }
            let reparsed = crate::url::Url::parse(&format!("{}://{typed}/", url.scheme()), None)
                .ok()
                .and_then(|u| u.record().host.clone());
            assert_eq!(reparsed.as_ref(), Some(host), "{input:?} typed {typed:?}");
        }
    }
}
