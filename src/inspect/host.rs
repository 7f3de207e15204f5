//! The analysis of one parsed URL's host: its forms, labels, registrable domain, numeric forms,
//! the findings, and whether a browser-like policy would show it in Unicode.

use serde::Serialize;
use std::net::{Ipv4Addr, Ipv6Addr};
use unicode_script::{Script, UnicodeScript};
use unicode_security::{GeneralSecurityProfile, RestrictionLevel, RestrictionLevelDetection};

use super::finding::{describe, Finding, Severity};
use super::known::{known, skeleton_of};
use super::rfc3986;
use crate::report::Report;
use crate::url::host::{domain_to_ascii, domain_to_unicode};
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
    input
        .chars()
        .enumerate()
        .skip(start)
        .take(end - start)
        .collect()
}

fn is_label_separator(c: char) -> bool {
    matches!(c, '.' | '\u{3002}' | '\u{FF0E}' | '\u{FF61}')
}

fn is_deviation(c: char) -> bool {
    matches!(c, 'ß' | 'ς' | '\u{200C}' | '\u{200D}')
}

fn is_bidi_control(c: char) -> bool {
    matches!(c, '\u{061C}' | '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

fn scripts_of(label: &str) -> Vec<Script> {
    // In ASCII only the letters have a script, and it is Latin.
    if label.is_ascii() {
        return if label.bytes().any(|b| b.is_ascii_alphabetic()) {
            vec![Script::Latin]
        } else {
            Vec::new()
        };
    }
    let mut scripts = Vec::new();
    for c in label.chars() {
        let s = c.script();
        if !matches!(s, Script::Common | Script::Inherited | Script::Unknown)
            && !scripts.contains(&s)
        {
            scripts.push(s);
        }
    }
    scripts
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
    let serialized = host.to_string();
    let mut analysis = HostAnalysis {
        host: serialized.clone(),
        unicode: serialized.clone(),
        public_suffix: None,
        registrable_domain: None,
        labels: Vec::new(),
        ip: None,
        display: None,
        findings: Vec::new(),
    };
    let typed: String = host_points.iter().map(|&(_, c)| c).collect();
    match host {
        Host::Domain(domain) => {
            domain_findings(report, domain, &host_points, &mut analysis, &mut findings);
        }
        Host::Ipv4(address) => {
            let ip = Ipv4Addr::from(*address);
            let mut notations = vec![
                ("dotted decimal".to_owned(), ip.to_string()),
                ("hexadecimal".to_owned(), format!("0x{address:08x}")),
                ("integer".to_owned(), address.to_string()),
                ("octal".to_owned(), format!("0{address:o}")),
            ];
            if !typed.is_empty() {
                notations.insert(0, ("as typed".to_owned(), typed.clone()));
            }
            let range = ipv4_range(ip);
            if !typed.is_empty() && typed != serialized {
                findings.push(
                    Finding::new(
                        "non-canonical-ipv4",
                        Severity::Warn,
                        "IPv4 address in a non-canonical form",
                        format!("{typed:?} is the address {ip}: hex, octal, a plain integer or fewer than four parts all reach it"),
                    )
                    .span(report.host_span.unwrap_or(Span { start: 0, end: 0 })),
                );
            }
            if let Some(range) = range {
                findings.push(Finding::new(
                    "internal-address",
                    Severity::Warn,
                    "Address in an internal or special range",
                    format!("{ip} is {range} address space"),
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
    differential_findings(report, host, &mut findings);
    findings.sort_by(|a, b| b.severity.cmp(&a.severity).then(a.id.cmp(b.id)));
    analysis.findings = findings;
    Some(analysis)
}

/// Findings about the whole input: invisible and bidi control code points, and what the
/// preprocessing removed.
fn whole_input_findings(report: &Report, findings: &mut Vec<Finding>) {
    // One pass over the input, keeping only the code points that matter.
    let mut bidi = Vec::new();
    let mut invisible = Vec::new();
    for (i, c) in report.input.chars().enumerate() {
        if c.is_ascii() {
            continue;
        }
        if is_bidi_control(c) {
            bidi.push((i, c));
        } else if !c.is_control() && crate::display::needs_escape(c) {
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
            || domain_to_ascii(&decoded, false).is_some_and(|d| {
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
fn differential_findings(report: &Report, host: &Host, findings: &mut Vec<Finding>) {
    let Some(url) = &report.url else { return };
    if !url.record().is_special() || report.base.is_some() {
        return;
    }
    let Some(rfc) = rfc3986::authority(&report.input) else {
        return;
    };
    if rfc.host.eq_ignore_ascii_case(&host.to_string()) {
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
                "this URL goes to {:?} here (WHATWG), but {reading} reads the host as {:?}{}",
                host.to_string(),
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
    // Only "xn--" labels change in domain to Unicode: an ASCII domain without one is its own
    // Unicode form.
    let unicode = if domain.contains("xn--") {
        domain_to_unicode(domain)
    } else {
        domain.to_owned()
    };
    analysis.unicode = unicode.clone();
    let host_span = report.host_span.unwrap_or(Span { start: 0, end: 0 });
    analysis.public_suffix = psl::suffix_str(domain).map(str::to_owned);
    analysis.registrable_domain = psl::domain_str(domain).map(str::to_owned);

    // The typed host, split into labels with their positions.
    let mut typed_labels: Vec<Vec<(usize, char)>> = vec![Vec::new()];
    for &(p, c) in host_points {
        if is_label_separator(c) {
            typed_labels.push(Vec::new());
        } else if let Some(last) = typed_labels.last_mut() {
            last.push((p, c));
        }
    }
    let unicode_labels: Vec<&str> = unicode.split('.').collect();
    let ascii_labels: Vec<&str> = domain.split('.').collect();
    let aligned = typed_labels.len() == unicode_labels.len();
    let tld_scripts = unicode_labels
        .last()
        .map(|l| scripts_of(l))
        .unwrap_or_default();

    let mut rules = Vec::new();
    let has_idn = ascii_labels.iter().any(|l| l.starts_with("xn--"));
    for (i, (u, a)) in unicode_labels.iter().zip(&ascii_labels).enumerate() {
        let scripts = scripts_of(u);
        let level = if u.is_ascii() {
            RestrictionLevel::ASCIIOnly
        } else {
            u.detect_restriction_level()
        };
        let typed = aligned.then(|| typed_labels[i].iter().map(|&(_, c)| c).collect::<String>());
        let points: &[(usize, char)] = if aligned { &typed_labels[i] } else { &[] };
        let at = |c: char| points.iter().find(|&&(_, x)| x == c).map(|&(p, _)| p);
        analysis.labels.push(LabelAnalysis {
            typed: typed.clone(),
            unicode: (*u).to_owned(),
            ascii: (*a).to_owned(),
            scripts: scripts.iter().map(|s| s.full_name().to_owned()).collect(),
            restriction: restriction_name(level).to_owned(),
        });
        if u.is_ascii() {
            continue;
        }
        let mut hit = |rule: &'static str, c: Option<char>, detail: String| {
            rules.push(RuleHit {
                rule,
                label: (*u).to_owned(),
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
            if looks_latin && tld_scripts.first() != Some(&scripts[0]) {
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
        if let Some(c) = u.chars().find(|c| {
            !c.is_ascii()
                && skeleton_of(&c.to_string())
                    .chars()
                    .all(|d| d.is_ascii_digit())
        }) {
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
    // Deviation characters: two readings.
    let typed: String = host_points.iter().map(|&(_, c)| c).collect();
    let deviations: Vec<(usize, char)> = host_points
        .iter()
        .copied()
        .filter(|&(_, c)| is_deviation(c))
        .collect();
    if !deviations.is_empty() {
        let transitional: String = typed
            .chars()
            .filter_map(|c| match c {
                'ß' => Some("ss".to_owned()),
                'ς' => Some("σ".to_owned()),
                '\u{200C}' | '\u{200D}' => None,
                c => Some(c.to_string()),
            })
            .collect();
        let other = domain_to_ascii(&transitional, false).unwrap_or_else(|| "failure".to_owned());
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
    let mapped: Vec<(usize, char)> = host_points
        .iter()
        .copied()
        .filter(|&(_, c)| {
            !c.is_ascii()
                && !is_deviation(c)
                && !crate::display::needs_escape(c)
                && !unicode.contains(c)
        })
        .collect();
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
    let upper: Vec<(usize, char)> = host_points
        .iter()
        .copied()
        .filter(|&(_, c)| c.is_ascii_uppercase())
        .collect();
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
    let registrable_unicode = analysis
        .registrable_domain
        .as_deref()
        .map(domain_to_unicode);
    let owner = analysis
        .registrable_domain
        .clone()
        .unwrap_or_else(|| domain.to_owned());
    // The domain or one of its parent domains is on the list.
    let is_known_or_sub = |d: &str| {
        known.contains(d)
            || d.match_indices('.')
                .any(|(i, _)| known.contains(&d[i + 1..]))
    };
    if !is_known_or_sub(domain) {
        let candidates = [Some(unicode.as_str()), registrable_unicode.as_deref()];
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
                label: unicode.clone(),
                code_point: None,
                detail: format!("looks like {imitated}"),
            });
        }
        // A well-known domain spelled out left of a different registrable domain.
        let left = domain
            .strip_suffix(owner.as_str())
            .unwrap_or("")
            .trim_end_matches('.');
        if !left.is_empty() {
            let labels: Vec<&str> = left.split('.').collect();
            // Runs of consecutive labels, no longer than the longest well-known domain (a
            // hostile host of 500k labels must not cost every run of them).
            let longest = known.max_labels;
            let spelled = (0..labels.len())
                .flat_map(|i| (i + 1..=labels.len().min(i + longest)).map(move |j| (i, j)))
                .map(|(i, j)| labels[i..j].join("."))
                .chain(labels.iter().map(|l| l.replace('-', ".")))
                .find(|candidate| known.contains(candidate));
            if let Some(spelled) = spelled {
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
            unicode.clone()
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

#[cfg(test)]
mod tests {
    use super::*;

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
}

#[cfg(test)]
mod script_tests {
    use super::*;

    #[test]
    fn ascii_labels_have_the_scripts_of_their_letters() {
        let general = |label: &str| {
            let mut scripts = Vec::new();
            for c in label.chars() {
                let s = c.script();
                if !matches!(s, Script::Common | Script::Inherited | Script::Unknown)
                    && !scripts.contains(&s)
                {
                    scripts.push(s);
                }
            }
            scripts
        };
        for b in 0u8..128 {
            let label = format!("1{}-", char::from(b));
            assert_eq!(scripts_of(&label), general(&label), "{label:?}");
        }
    }
}
