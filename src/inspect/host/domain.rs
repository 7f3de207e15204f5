//! Domain hosts: the label table, each display policy's decision, and the findings, one
//! function per finding.

use serde::Serialize;
use std::borrow::Cow;
use std::ops::Range;
use unicode_script::Script;

use super::names::{self, Hit, NameAnswers};
use super::{Subject, TypedHost};
use crate::inspect::finding::{quoted, Finding, FindingId as F, Severity};
use crate::inspect::known::{known, Edit, Known};
use crate::inspect::label::{restriction_name, HostContext, LabelAnalysis, LabelContext};
use crate::inspect::lookalike;
use crate::inspect::policy::{self, PolicyDecision, POLICIES};
use crate::url::host::{domain_parser, domain_to_unicode};
use crate::validation::Span;

/// A well-known domain the host imitates, and how (the finding's id).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Imitation {
    pub domain: &'static str,
    pub how: &'static str,
}

/// What the domain analysis adds to the host analysis.
#[derive(Debug, Default)]
pub(super) struct DomainAnalysis {
    /// Whether the name is plainly public: no internal destination to look for.
    pub plainly_public: bool,
    pub unicode: String,
    pub public_suffix: Option<String>,
    pub registrable_domain: Option<String>,
    pub labels: Vec<LabelAnalysis>,
    pub labels_omitted: usize,
    pub display: Vec<PolicyDecision>,
    pub imitates: Vec<Imitation>,
}

fn is_label_separator(c: char) -> bool {
    matches!(c, '.' | '\u{3002}' | '\u{FF0E}' | '\u{FF61}')
}

/// `s.split('.')`. Labels are a few bytes long: a plain byte scan beats the general
/// searcher, whose setup cost more than the scan itself.
pub(super) fn labels(s: &str) -> impl Iterator<Item = &str> {
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

/// What one pass over a domain's labels tells (see [`analyse`]).
#[derive(Debug, PartialEq, Eq)]
struct LabelSummary {
    count: usize,
    /// Whether a label starts with "xn--" (an IDN label).
    has_idn: bool,
    /// Whether a label has hyphens in its third and fourth positions.
    hyphens_34: bool,
}

impl LabelSummary {
    /// The labels of `domain` split at ".", as [`labels`] splits them, as bytes: a host's
    /// labels are a few bytes long, and the string searcher's set-up costs more than the scan.
    fn of(domain: &str) -> Self {
        // Both rules need two hyphens in a label: a name with fewer (nearly every name) only
        // has its dots counted, eight bytes at a time.
        let (dots, hyphens) = count_dots_and_hyphens(domain.as_bytes());
        let mut summary = LabelSummary {
            count: dots + 1,
            has_idn: false,
            hyphens_34: false,
        };
        if hyphens < 2 {
            return summary;
        }
        summary.count = 0;
        for label in domain.as_bytes().split(|&b| b == b'.') {
            summary.count += 1;
            summary.has_idn |= label.starts_with(b"xn--");
            summary.hyphens_34 |= label.get(2..4) == Some(b"--");
        }
        summary
    }
}

/// How many "." and how many "-" `bytes` holds, counted in 64-bit words: a byte loop tests and
/// adds twice a byte, and a host is too short for the compiler's vector loop to start.
fn count_dots_and_hyphens(bytes: &[u8]) -> (usize, usize) {
    const ONES: u64 = u64::from_ne_bytes([0x01; 8]);
    const LOW7: u64 = u64::from_ne_bytes([0x7f; 8]);
    // The bytes of `word` equal to `b`: a byte is zero after the XOR exactly when it was `b`;
    // adding 0x7F to its low seven bits sets its high bit unless they were all zero, and no
    // sum carries into the next byte. What is left is one high bit per zero byte, and their
    // count is the top byte of their sum.
    let count = |word: u64, b: u8| {
        let y = word ^ (ONES * u64::from(b));
        let zero_high_bits = !(((y & LOW7) + LOW7) | y | LOW7);
        ((zero_high_bits >> 7).wrapping_mul(ONES) >> 56) as usize
    };
    let mut words = bytes.chunks_exact(8);
    let (mut dots, mut hyphens) = (0, 0);
    for word in &mut words {
        let mut w = [0; 8];
        w.copy_from_slice(word);
        let w = u64::from_ne_bytes(w);
        dots += count(w, b'.');
        hyphens += count(w, b'-');
    }
    // The rest, padded with zero bytes, which are neither.
    let mut w = [0; 8];
    w[..words.remainder().len()].copy_from_slice(words.remainder());
    let w = u64::from_ne_bytes(w);
    (dots + count(w, b'.'), hyphens + count(w, b'-'))
}

/// `psl::suffix_str` and `psl::domain_str`: the registrable domain is found from the public
/// suffix, so one lookup gives both.
#[cfg(test)]
pub(super) fn suffix_and_registrable(domain: &str) -> (Option<String>, Option<String>) {
    let (suffix, registrable) = suffix_and_registrable_spans(domain);
    let owned = |span: Range<usize>| domain[span].to_owned();
    (suffix.map(owned), registrable.map(owned))
}

/// [`suffix_and_registrable`] as byte ranges of `domain`: the list's answers are slices of the
/// name, ending at a "." or at the name's end, so on its code point boundaries.
fn suffix_and_registrable_spans(domain: &str) -> (Option<Range<usize>>, Option<Range<usize>>) {
    let span = |bytes: &[u8]| {
        let start = (bytes.as_ptr() as usize).checked_sub(domain.as_ptr() as usize)?;
        let span = start..start + bytes.len();
        domain.get(span.clone()).map(|_| span)
    };
    match psl::domain(domain.as_bytes()) {
        Some(registrable) => (
            span(registrable.suffix().trim().as_bytes()),
            span(registrable.trim().as_bytes()),
        ),
        None => (
            psl::suffix_str(domain).and_then(|s| span(s.as_bytes())),
            None,
        ),
    }
}

/// Domain to Unicode of an ASCII domain, borrowing `domain` where it is its own Unicode form.
pub(super) fn to_unicode_cow(domain: &str) -> Cow<'_, str> {
    // Only "xn--" labels change in domain to Unicode: an ASCII domain without one is its own
    // Unicode form, and UTS 46 need not run. (Each "x" is looked at, not each window of four.)
    let bytes = domain.as_bytes();
    let has_xn = bytes
        .iter()
        .enumerate()
        .any(|(i, &b)| b == b'x' && bytes[i..].starts_with(b"xn--"));
    if has_xn {
        Cow::Owned(domain_to_unicode(domain))
    } else {
        Cow::Borrowed(domain)
    }
}

/// The typed code points of each label, when the typed host has as many labels as the
/// result (mapped full stops count as separators); empty slices otherwise.
fn typed_labels(host_points: &[(usize, char)], count: usize) -> Option<Vec<&[(usize, char)]>> {
    let separators = host_points
        .iter()
        .filter(|&&(_, c)| is_label_separator(c))
        .count();
    (separators + 1 == count).then(|| host_points.split(|&(_, c)| is_label_separator(c)).collect())
}

pub(super) fn analyse(
    subject: &Subject<'_>,
    domain: &str,
    typed_host: &TypedHost<'_>,
    findings: &mut Vec<Finding>,
) -> DomainAnalysis {
    // One pass over the labels: how many, whether one is an IDN label, and whether one has
    // hyphens in its third and fourth positions (see `hyphens_third_fourth`).
    let LabelSummary {
        mut count,
        has_idn,
        hyphens_34,
    } = LabelSummary::of(domain);
    // Only an "xn--" label changes in domain to Unicode: a domain without one is its own
    // Unicode form.
    let unicode = match has_idn {
        true => to_unicode_cow(domain),
        false => Cow::Borrowed(domain),
    };
    let host_span = subject.host_span.unwrap_or(Span { start: 0, end: 0 });
    let known = known();
    // What depends on the name alone, remembered for the names met last (see `names`).
    let answers = names::answers(domain, known, || name_answers(domain, &unicode, known));
    // Domain to Unicode splits no label and joins none, but only a domain that is its own
    // Unicode form is sure not to need counting again.
    if unicode != domain {
        count = labels(&unicode).count();
    }
    // A name without an IDN label has no rule that reads its labels together: only the label
    // table (its first rows) and the hyphens rule (one label at a time, not as typed) read
    // them. Its contexts are not all kept, so that a hostile host of millions of labels does
    // not hold a context for each; and without the table (a batch that prints findings) none
    // is, nor are the labels as typed lined up.
    let (typed, aligned) = match has_idn || subject.label_table {
        true => match typed_labels(typed_host.points(), count) {
            Some(typed) => (typed, true),
            None => (vec![&[][..]; count], false),
        },
        false => (Vec::new(), false),
    };
    let contexts_of = || {
        labels(&unicode)
            .zip(labels(domain))
            .zip(typed.iter().copied().chain(std::iter::repeat(&[][..])))
            .map(|((u, a), t)| LabelContext::new(u, a, t))
    };
    let contexts: Vec<LabelContext<'_>> = match (has_idn, subject.label_table) {
        (true, _) => contexts_of().collect(),
        (false, true) => contexts_of().take(super::MAX_LABEL_ROWS).collect(),
        (false, false) => Vec::new(),
    };
    let (label_table, labels_omitted) = if subject.label_table {
        let rows = contexts
            .iter()
            .take(super::MAX_LABEL_ROWS)
            .map(|l| label_row(l, aligned))
            .collect();
        (rows, count.saturating_sub(super::MAX_LABEL_ROWS))
    } else {
        (Vec::new(), 0)
    };
    // The policies decide only for a name with an IDN label: an ASCII name is shown as it is.
    let mut display: Vec<PolicyDecision> = Vec::new();
    // The findings of the browsers' rules, apart: their severity depends on what follows.
    let mut rule_findings = Vec::new();
    if has_idn {
        let host = HostContext::new(domain, &unicode, known);
        display = POLICIES
            .iter()
            .map(|p| p.decide(&contexts, &host))
            .collect();
        label_class_findings(&contexts, &host, &display, &mut rule_findings);
        digit_lookalikes(&contexts, &host, &mut rule_findings);
    }
    let mut own = Vec::new();
    match has_idn {
        true => hyphens_third_fourth(contexts.iter().map(|l| (l.unicode, l.ascii)), &mut own),
        // An ASCII name's labels are reserved only with hyphens in those positions.
        false if !hyphens_34 && unicode.is_ascii() => {}
        false => hyphens_third_fourth(labels(&unicode).zip(labels(domain)), &mut own),
    }
    if !typed_host.is_ascii() {
        deviation_characters(domain, typed_host.points(), &mut own);
        mapped_code_points(&unicode, typed_host.points(), &mut own);
    }
    uppercase(typed_host, domain, &mut own);

    // A fully qualified name's trailing dot names the same DNS name: the look-alike questions
    // are asked of the name without it, once, here.
    let fqdn = without_root_dot(domain);
    if let Some(name) = fqdn {
        trailing_dot(name, typed_host.last(), host_span, &mut own);
    }
    let mut imitates = Vec::new();
    record(answers.hits, host_span, &mut own, &mut imitates);
    // Severity follows the browsers: a name that reads as a well-known domain and that both
    // browsers refuse to show in Unicode was made to deceive.
    let refused_by_both = ["chromium", "firefox"]
        .iter()
        .all(|name| display.iter().any(|d| d.policy == *name && !d.unicode));
    if refused_by_both && !imitates.is_empty() {
        for f in &mut rule_findings {
            f.severity = Severity::Danger;
        }
    }
    own.extend(rule_findings);
    let shown_in_unicode = display
        .iter()
        .find(|d| d.policy == "chromium")
        .is_some_and(|d| d.unicode);
    if has_idn
        && shown_in_unicode
        && own
            .iter()
            .chain(findings.iter())
            .all(|f| f.severity == Severity::Info)
    {
        own.push(Finding::new(
            F::Idn,
            format!(
                "the host is {}, sent as {}",
                quoted(&unicode),
                quoted(domain)
            ),
        ));
    }
    findings.extend(own);
    DomainAnalysis {
        plainly_public: answers.plainly_public,
        // Without the forms, nothing more is copied out of the name.
        unicode: match subject.forms {
            true => unicode.into_owned(),
            false => String::new(),
        },
        public_suffix: answers
            .public_suffix
            .filter(|_| subject.forms)
            .map(|s| domain[s].to_owned()),
        registrable_domain: answers
            .registrable_domain
            .filter(|_| subject.forms)
            .map(|s| domain[s].to_owned()),
        labels: label_table,
        labels_omitted,
        display,
        imitates,
    }
}

/// What `domain` (whose Unicode form is `unicode`) gives whatever URL it is met in: its public
/// suffix and registrable domain, and the look-alike findings of the name without a trailing
/// dot (a fully qualified name's trailing dot names the same DNS name), none for a well-known
/// domain or a subdomain of one.
fn name_answers(domain: &str, unicode: &str, known: &Known) -> NameAnswers {
    let (public_suffix, registrable_domain) = suffix_and_registrable_spans(domain);
    let fqdn = without_root_dot(domain);
    let name = fqdn.unwrap_or(domain);
    let mut hits = Vec::new();
    if !known.is_known_or_subdomain(name) {
        let name_unicode = without_root_dot(unicode).unwrap_or(unicode);
        // The name is the domain without its last byte, so the domain's spans are its spans
        // where the name has none of its own.
        let (suffix, registrable) = match fqdn {
            Some(name) => suffix_and_registrable_spans(name),
            None => (public_suffix.clone(), registrable_domain.clone()),
        };
        let registrable_unicode = registrable.map(|r| to_unicode_cow(&name[r]));
        hits = imitation_hits(
            (name, name_unicode, known),
            suffix.map(|s| &name[s]),
            registrable_unicode.as_deref(),
        );
    }
    NameAnswers {
        public_suffix,
        registrable_domain,
        hits,
        plainly_public: crate::inspect::internal::plainly_public(domain),
    }
}

/// `domain` without the trailing dot of a fully qualified name (`google.com.`), when it has
/// one: not a name of only dots, nor one whose last label is empty besides (`a..`).
fn without_root_dot(domain: &str) -> Option<&str> {
    domain
        .strip_suffix('.')
        .filter(|name| !name.is_empty() && !name.ends_with('.'))
}

/// A trailing dot: the same DNS name, but another origin to a browser.
fn trailing_dot(
    name: &str,
    last_typed: Option<(usize, char)>,
    host_span: Span,
    own: &mut Vec<Finding>,
) {
    let finding = Finding::new(
        F::TrailingDot,
        format!(
            "the same DNS name as {name}; browsers treat it as another origin (cookies, passwords and HSTS state are not shared)"
        ),
    );
    // The dot as typed (a full stop or one UTS 46 maps to it), else the whole host.
    own.push(match last_typed {
        Some((i, c)) if is_label_separator(c) => finding.at([(i, c)]),
        _ => finding.span(host_span),
    });
}

fn label_row(label: &LabelContext<'_>, aligned: bool) -> LabelAnalysis {
    let typed = aligned.then(|| {
        let mut typed = String::with_capacity(label.typed.len());
        typed.extend(label.typed.iter().map(|&(_, c)| c));
        typed
    });
    LabelAnalysis {
        typed,
        unicode: label.unicode.to_owned(),
        ascii: label.ascii.to_owned(),
        scripts: match &label.scripts[..] {
            // A plain ASCII label's: no list to build.
            [] => Cow::Borrowed(&[]),
            [Script::Latin] => Cow::Borrowed(&["Latin"]),
            scripts => scripts.iter().map(|s| s.full_name()).collect(),
        },
        restriction: restriction_name(label.level),
    }
}

/// The finding a policy rule's refusal belongs to, if any: none where another finding of the
/// analysis says it (an undecodable "xn--" label, hyphens in the third and fourth positions,
/// deviation characters, a label of digit look-alikes), and none for UTS 39's reading alone,
/// which is no browser's.
fn class_of(rule: &str, points: &[char], label: &LabelContext<'_>) -> Option<F> {
    Some(match rule {
        "check-hyphens" if policy::chromium::hyphens_third_fourth(label.unicode) => return None,
        "check-hyphens" | "identifier-type" => F::ShownAsPunycode,
        "restriction-level" | "script-combination" | "highly-restrictive" => F::MixedScript,
        "whole-script-confusable" | "cyrillic-confusable" | "thai-confusable" => {
            F::WholeScriptConfusable
        }
        "mixed-numbers" => F::DigitLookalike,
        "kana-slash"
        | "cjk-slash"
        | "katakana-iteration-mark"
        | "kana-he"
        | "prolonged-sound-mark"
        | "katakana-middle-dot"
        | "cjk-lookalike-ideograph"
        | "cjk-ideograph"
        | "kana-voiced-sound-mark" => F::KanaCjkContext,
        "invisible"
        | "repeated-mark"
        | "dot-above-ijl"
        | "combining-mark-after-non-lgc"
        | "dotless-i-with-mark"
        | "mark-script" => F::CombiningMark,
        "tld-specific-characters" | "unsafe-middle-dot" | "middle-dot" => F::TldRestrictedLetter,
        "nv8-punctuation" | "modifier-quotes" => F::PunctuationLookalike,
        "non-ascii-latin-mixed" => F::LatinMixedWithCjk,
        "allowed-set" | "blocklist-chars"
            if points.iter().all(|&c| {
                policy::is_nv8_punctuation(c) || matches!(c, '\u{02BB}' | '\u{02BC}')
            }) =>
        {
            F::PunctuationLookalike
        }
        "allowed-set" | "blocklist-chars" => F::ShownAsPunycode,
        _ => return None,
    })
}

fn detail_of(kind: F, label: &LabelContext<'_>, host: &HostContext<'_>, step: &str) -> String {
    match kind {
        F::MixedScript => {
            let names: Vec<&str> = label.scripts.iter().map(|s| s.full_name()).collect();
            format!(
                "the label {} mixes {} beyond what UTS 39 \"highly restrictive\" allows",
                quoted(label.unicode),
                names.join(" and ")
            )
        }
        F::WholeScriptConfusable => {
            let script = label.scripts.first().map_or("", |s| s.full_name());
            format!(
                "{} is written entirely in {script} but reads as the Latin {} under .{}",
                quoted(label.unicode),
                quoted(&lookalike::folded_skeleton(label.unicode)),
                host.tld_unicode
            )
        }
        F::ShownAsPunycode => format!(
            "{} is shown as {}: {step}",
            quoted(label.unicode),
            label.ascii
        ),
        _ => format!("{}: {step}", quoted(label.unicode)),
    }
}

/// One finding per class of rule that refused a label, under any policy, with the code points
/// that made it refuse.
fn label_class_findings(
    labels: &[LabelContext<'_>],
    host: &HostContext<'_>,
    display: &[PolicyDecision],
    own: &mut Vec<Finding>,
) {
    for (i, label) in labels.iter().enumerate().filter(|(_, l)| !l.is_ascii()) {
        for decision in display {
            let Some(refused) = decision.labels.get(i) else {
                continue;
            };
            let (Some(rule), Some(step)) = (refused.rule, refused.step) else {
                continue;
            };
            let points = &refused.points;
            let Some(kind) = class_of(rule, points, label) else {
                continue;
            };
            // Whole-script confusables are shown with every letter of the label.
            let placed = if kind == F::WholeScriptConfusable {
                label.typed.to_vec()
            } else {
                label.placed(points)
            };
            match own.iter_mut().find(|f| f.id == kind.id()) {
                Some(f) => {
                    let more = Finding::new(kind, String::new()).at(placed);
                    for (point, span) in more.code_points.into_iter().zip(more.spans) {
                        if !f.code_points.contains(&point) {
                            f.code_points.push(point);
                            f.spans.push(span);
                        }
                    }
                }
                None => own.push(Finding::new(kind, detail_of(kind, label, host, step)).at(placed)),
            }
        }
    }
}

/// Labels that read as a number: ASCII digits, digits of other systems and letters that
/// look like digits, with at least one not ASCII, under a TLD not of that script (`1շ.com`,
/// `০২.com`; the Shan digits of `႐႑႕.mm` are at home).
fn digit_lookalikes(labels: &[LabelContext<'_>], host: &HostContext<'_>, own: &mut Vec<Finding>) {
    let reads_as_number = |l: &LabelContext<'_>| {
        l.chars.iter().all(|&c| {
            c.is_ascii_digit() || policy::is_decimal_digit(c) || lookalike::reads_as_digit(c)
        })
    };
    for label in labels
        .iter()
        .filter(|l| !l.is_ascii() && reads_as_number(l))
    {
        if label
            .scripts
            .iter()
            .any(|&s| policy::tld_allows_script(s, host))
        {
            continue;
        }
        let points: Vec<char> = label
            .chars
            .iter()
            .copied()
            .filter(|c| !c.is_ascii())
            .collect();
        let placed = label.placed(&points);
        match own.iter_mut().find(|f| f.id == F::DigitLookalike.id()) {
            Some(f) => {
                let more = Finding::new(F::DigitLookalike, String::new()).at(placed);
                f.code_points.extend(more.code_points);
                f.spans.extend(more.spans);
            }
            None => own.push(
                Finding::new(
                    F::DigitLookalike,
                    format!(
                        "{} reads as the number {}",
                        quoted(label.unicode),
                        quoted(&lookalike::folded_skeleton(label.unicode))
                    ),
                )
                .at(placed),
            ),
        }
    }
}

/// RFC 5891 reserves labels with hyphens in the third and fourth positions for encodings
/// such as "xn--"; any other such label is no valid IDNA label, and a "xn--" one that does not
/// decode is not one either. An IDN label whose Unicode form has them (`ру--авто`) is no valid
/// one either, and Chromium shows it as Punycode.
///
/// `labels` are each label's Unicode and ASCII forms ([`LabelContext::unicode`] and
/// [`LabelContext::ascii`]): the rule reads nothing else of them.
fn hyphens_third_fourth<'a>(
    labels: impl IntoIterator<Item = (&'a str, &'a str)>,
    own: &mut Vec<Finding>,
) {
    let mut reserved: Vec<String> = Vec::new();
    for (unicode, ascii) in labels {
        // As [`LabelContext::undecodable`]: domain to Unicode left a "xn--" label as it was.
        let undecodable = || unicode == ascii && unicode.is_ascii();
        if ascii.get(2..4) == Some("--") && (!ascii.starts_with("xn--") || undecodable()) {
            reserved.push(ascii.to_owned());
        } else if !unicode.is_ascii() && policy::chromium::hyphens_third_fourth(unicode) {
            reserved.push(format!("{unicode} ({ascii})"));
        }
    }
    if !reserved.is_empty() {
        own.push(Finding::new(
            F::HyphensThirdFourth,
            format!(
                "{} has hyphens in the third and fourth positions, reserved for encodings such as Punycode's \"xn--\"",
                reserved.join(", ")
            ),
        ));
    }
}

/// Deviation characters: two readings (nontransitional, and IDNA2003's transitional).
fn deviation_characters(domain: &str, host_points: &[(usize, char)], own: &mut Vec<Finding>) {
    let deviations: Vec<(usize, char)> = host_points
        .iter()
        .copied()
        .filter(|&(_, c)| policy::is_deviation(c))
        .collect();
    if deviations.is_empty() {
        return;
    }
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
    own.push(
        Finding::new(
            F::DeviationCharacter,
            format!("UTS 46 nontransitional processing (browsers today) gives {}; IDNA2003 transitional processing gave {}", quoted(domain), quoted(&other)),
        )
        .at(deviations),
    );
}

/// What was typed is not what resolves: code points UTS 46 maps to others.
fn mapped_code_points(unicode: &str, host_points: &[(usize, char)], own: &mut Vec<Finding>) {
    let mapped: Vec<(usize, char)> = host_points
        .iter()
        .copied()
        .filter(|&(_, c)| {
            !c.is_ascii()
                && !policy::is_deviation(c)
                && !crate::display::needs_escape(c)
                && !unicode.contains(c)
        })
        .collect();
    if !mapped.is_empty() {
        own.push(
            Finding::new(
                F::MappedCodePoints,
                "UTS 46 maps these (fullwidth forms, compatibility characters, other full stops) before the host is used".to_owned(),
            )
            .at(mapped),
        );
    }
}

fn uppercase(typed_host: &TypedHost<'_>, domain: &str, own: &mut Vec<Finding>) {
    // The host parser lowercases ASCII letters (domain to ASCII maps them): a host typed as it
    // is serialized, as most are, has none in upper case, and one comparison says so.
    if typed_host.is_ascii_text(domain) || !typed_host.has_ascii_uppercase() {
        return;
    }
    let host_points = typed_host.points();
    // Not the hex digits of a percent-encoded byte ("%6D" is an "m").
    let mut escape = 0_u8;
    let upper: Vec<(usize, char)> = host_points
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
        .collect();
    if !upper.is_empty() {
        own.push(
            Finding::new(
                F::Uppercase,
                "hosts are case-insensitive; the host is lowercased".to_owned(),
            )
            .at(upper),
        );
    }
}

/// What the name imitates: one finding for the strongest reading, from the skeleton match
/// down to a known name with words added.
///
/// `domain` is the name (ASCII) and `unicode` its Unicode form; the folded reading of a
/// non-ASCII name is [`HostContext::folded_imitation`]'s, asked of the name here alone.
fn imitation_hits(
    (domain, unicode, known): (&str, &str, &Known),
    public_suffix: Option<&str>,
    registrable_unicode: Option<&str>,
) -> Vec<Hit> {
    // A brand's own domains imitate nothing of that brand (`google-styleguide.googlecode.com`).
    let owner_brand = known.owner_of(domain);
    let foreign = |imitated: &str| owner_brand.is_none() || known.brand_of(imitated) != owner_brand;
    let mut hits: Vec<Hit> = Vec::new();
    // The registrable domain is often the whole domain: no need to ask twice.
    let candidates = [Some(unicode), registrable_unicode.filter(|&r| r != unicode)];
    if let Some(imitated) = candidates
        .into_iter()
        .flatten()
        .find_map(|d| known.imitated(d).filter(|i| foreign(i)))
    {
        hits.push((
            F::LookalikeDomain,
            imitated,
            format!(
                "{} looks like {imitated} but is a different domain",
                quoted(unicode)
            ),
        ));
    } else if !unicode.is_ascii() {
        if let Some(imitated) = HostContext::new(domain, unicode, known)
            .folded_imitation()
            .filter(|i| foreign(i))
        {
            hits.push((
                F::DiacriticLookalike,
                imitated,
                format!("{} reads as {imitated} once its marks and letter variants are taken for the plain letters", quoted(unicode)),
            ));
        }
    }
    // A well-known domain spelled out left of the public suffix, with dots or hyphens.
    let name = public_suffix
        .and_then(|s| domain.strip_suffix(s))
        .unwrap_or(domain)
        .trim_end_matches('.');
    if let Some(spelled) = lookalike::spelled_out(name, known) {
        let owner = registrable_unicode.unwrap_or(unicode);
        // The well-known domain's own registrable domain is not a spoof of itself.
        if !known.contains(owner) && foreign(&spelled) {
            let imitated = known
                .domains
                .iter()
                .copied()
                .find(|&d| d == spelled)
                .unwrap_or("");
            hits.push((
                F::KnownDomainInSubdomain,
                imitated,
                format!(
                    "{} appears in the host, but the domain that owns it is {}",
                    quoted(&spelled),
                    quoted(owner)
                ),
            ));
        }
    }
    let Some(registrable) = registrable_unicode.filter(|_| hits.is_empty()) else {
        return hits;
    };
    if let Some((imitated, edit)) = known
        .one_edit_from(registrable)
        .filter(|&(i, _)| foreign(i))
    {
        let (kind, how) = match edit {
            Edit::Swapped => (F::SwappedCharacters, "two neighbouring characters swapped"),
            Edit::Inserted => (F::TypoLookalike, "one character added"),
            Edit::Deleted => (F::TypoLookalike, "one character left out"),
            Edit::Replaced => (F::TypoLookalike, "one character replaced"),
        };
        hits.push((
            kind,
            imitated,
            format!("{} is {imitated} with {how}", quoted(registrable)),
        ));
    } else {
        let first = registrable.split('.').next().unwrap_or(registrable);
        if let Some(imitated) = lookalike::combosquatted(first, known).filter(|i| foreign(i)) {
            hits.push((
                F::Combosquatting,
                imitated,
                format!(
                    "{} adds words to the name of {imitated}",
                    quoted(registrable)
                ),
            ));
        }
    }
    hits
}

fn record(hits: Vec<Hit>, host_span: Span, own: &mut Vec<Finding>, imitates: &mut Vec<Imitation>) {
    for (kind, domain, detail) in hits {
        own.push(Finding::new(kind, detail).span(host_span));
        imitates.push(Imitation {
            domain,
            how: kind.id(),
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The summary with its shortcut says what one pass over the labels says.
    #[test]
    fn the_label_summary_of_names_with_few_hyphens_is_the_whole_pass() {
        let whole = |domain: &str| {
            let labels: Vec<&str> = labels(domain).collect();
            LabelSummary {
                count: labels.len(),
                has_idn: labels.iter().any(|l| l.starts_with("xn--")),
                hyphens_34: labels.iter().any(|l| l.get(2..4) == Some("--")),
            }
        };
        let all = crate::test_support::every_string_of(&["a", "x", "n", "-", ".", "xn--"], 6);
        for domain in &all {
            assert_eq!(LabelSummary::of(domain), whole(domain), "{domain:?}");
        }
        assert!(all.iter().any(|d| whole(d).has_idn) && all.iter().any(|d| whole(d).hyphens_34));
    }

    /// The word-at-a-time count is the byte-by-byte count, for every byte value, at every
    /// place in a word and next to every other.
    #[test]
    fn dots_and_hyphens_are_counted_as_bytes_are() {
        let by_bytes = |bytes: &[u8]| {
            let count = |c| bytes.iter().filter(|&&b| b == c).count();
            (count(b'.'), count(b'-'))
        };
        for b in 0..=255u8 {
            for other in [0, b'.', b'-', 0x2d ^ 0x80, 0xae, 0xff, b'a'] {
                for length in 0..20 {
                    let bytes: Vec<u8> = (0..length)
                        .map(|i| if i % 3 == 0 { b } else { other })
                        .collect();
                    assert_eq!(
                        count_dots_and_hyphens(&bytes),
                        by_bytes(&bytes),
                        "{bytes:?}"
                    );
                }
            }
        }
        assert_eq!(count_dots_and_hyphens(&[b'.'; 64]), (64, 0));
        assert_eq!(count_dots_and_hyphens(b"a-b.c--d.e"), (2, 3));
    }
}
