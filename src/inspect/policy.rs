//! Display policies: whether a browser would show each label of a host in Unicode or in
//! Punycode, and which rule decided. A policy is data: a named sequence of label rules, tried
//! in order (the first that refuses decides), and host rules that can refuse the whole name.
//!
//! - [`chromium`]: Chromium's IDN display algorithm ("IDN in Google Chrome").
//! - [`firefox`]: Firefox's label check with `network.IDN.blocklist_chars`.
//! - [`uts39`]: UTS 39's "highly restrictive" profile, read on its own.
//!
//! The predicates the policies share live here; each policy module lists its rules.

pub mod chromium;
pub mod firefox;
pub mod uts39;

use icu_properties::props::{GeneralCategory, GeneralCategoryGroup};
use icu_properties::CodePointMapData;
use serde::Serialize;
use unicode_script::Script;
use unicode_security::{GeneralSecurityProfile, RestrictionLevel};

use super::finding::describe;
use super::label::{has_script_extension, script_of, HostContext, LabelContext};
use super::lookalike;

/// A rule that can refuse Unicode for one label: the code points that made it refuse.
#[derive(Debug)]
pub struct Rule {
    /// A stable name, as in the JSON output.
    pub name: &'static str,
    /// The step of the browser's algorithm, in our words.
    pub step: &'static str,
    pub check: fn(&LabelContext<'_>, &HostContext<'_>) -> Option<Vec<char>>,
}

/// The first rule of every policy: a label that UTS 46 cannot decode stays in Punycode.
pub const TO_UNICODE: Rule = Rule {
    name: "to-unicode",
    step: "UTS 46 ToUnicode failed: the label stays in Punycode",
    check: undecodable,
};

/// A rule that can refuse Unicode for the whole host: a detail when it does.
#[derive(Debug)]
pub struct HostRule {
    pub name: &'static str,
    pub step: &'static str,
    pub check: fn(&[LabelContext<'_>], &HostContext<'_>) -> Option<String>,
}

/// A display policy.
#[derive(Debug)]
pub struct Policy {
    pub name: &'static str,
    /// What it follows.
    pub source: &'static str,
    /// Whether its rules depend on the platform ([`chromium::Platform`]).
    pub platform_specific: bool,
    pub label_rules: &'static [Rule],
    pub host_rules: &'static [HostRule],
}

/// Every policy, in the order they are shown.
pub const POLICIES: &[&Policy] = &[&chromium::POLICY, &firefox::POLICY, &uts39::POLICY];

/// One label under one policy.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LabelDecision {
    pub label: String,
    pub unicode: bool,
    /// The rule that refused Unicode (`None`: shown in Unicode, or ASCII).
    pub rule: Option<&'static str>,
    pub step: Option<&'static str>,
    /// `U+XXXX NAME` of the code points involved.
    pub code_points: Vec<String>,
    /// The code points involved.
    #[serde(skip)]
    pub points: Vec<char>,
}

/// A host-wide refusal.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct HostDecision {
    pub rule: &'static str,
    pub step: &'static str,
    pub detail: String,
}

/// One policy's decision for a host.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PolicyDecision {
    pub policy: &'static str,
    /// The platform whose build of the browser the decision follows, for a policy whose rules
    /// depend on it (`None` for the others).
    pub platform: Option<chromium::Platform>,
    /// Every label in Unicode.
    pub unicode: bool,
    /// The host as this policy shows it.
    pub shown: String,
    pub labels: Vec<LabelDecision>,
    pub host_rule: Option<HostDecision>,
}

impl PolicyDecision {
    /// The label decision that refused Unicode first, if any.
    pub fn first_refusal(&self) -> Option<&LabelDecision> {
        self.labels.iter().find(|l| !l.unicode)
    }
}

impl Policy {
    /// The first label rule that refuses `label`, with its code points.
    pub fn refusal(
        &self,
        label: &LabelContext<'_>,
        host: &HostContext<'_>,
    ) -> Option<(&'static Rule, Vec<char>)> {
        if label.is_ascii() && !label.ascii.starts_with("xn--") {
            return None;
        }
        self.label_rules
            .iter()
            .find_map(|rule| (rule.check)(label, host).map(|points| (rule, points)))
    }

    pub fn decide(
        &'static self,
        labels: &[LabelContext<'_>],
        host: &HostContext<'_>,
    ) -> PolicyDecision {
        let host_rule = self.host_rules.iter().find_map(|rule| {
            (rule.check)(labels, host).map(|detail| HostDecision {
                rule: rule.name,
                step: rule.step,
                detail,
            })
        });
        let mut decisions = Vec::with_capacity(labels.len());
        let mut shown = String::with_capacity(host.ascii.len());
        for (i, label) in labels.iter().enumerate() {
            let refusal = self.refusal(label, host);
            let unicode = refusal.is_none() && host_rule.is_none();
            if i > 0 {
                shown.push('.');
            }
            shown.push_str(if unicode { label.unicode } else { label.ascii });
            let (rule, step, points) = match refusal {
                Some((rule, points)) => (Some(rule.name), Some(rule.step), points),
                None => (None, None, Vec::new()),
            };
            decisions.push(LabelDecision {
                label: label.unicode.to_owned(),
                unicode,
                rule,
                step,
                code_points: points.iter().copied().map(describe).collect(),
                points,
            });
        }
        PolicyDecision {
            policy: self.name,
            platform: self.platform_specific.then_some(host.platform),
            unicode: decisions.iter().all(|d| d.unicode),
            shown,
            labels: decisions,
            host_rule,
        }
    }
}

/// `Some(points)` when there are any.
fn any(points: Vec<char>) -> Option<Vec<char>> {
    (!points.is_empty()).then_some(points)
}

fn general_category(c: char) -> GeneralCategory {
    CodePointMapData::<GeneralCategory>::new().get(c)
}

fn is_nonspacing_mark(c: char) -> bool {
    !c.is_ascii() && general_category(c) == GeneralCategory::NonspacingMark
}

// Rules several policies share.

/// Domain to Unicode failed: the label stays in Punycode whatever the policy.
pub(crate) fn undecodable(label: &LabelContext<'_>, _: &HostContext<'_>) -> Option<Vec<char>> {
    label.undecodable().then(Vec::new)
}

/// Code points UTS 39's General Security Profile restricts (Identifier_Status not Allowed).
pub(crate) fn outside_identifier_profile(label: &LabelContext<'_>) -> Vec<char> {
    label
        .chars
        .iter()
        .copied()
        .filter(|&c| !c.is_ascii() && !c.identifier_allowed())
        .collect()
}

/// Whether the browsers allow `c` in a label they show in Unicode: UTS 39's identifier profile,
/// as the ICU data they ship has it. Later UTS 39 data restricts Bopomofo, the combining kana
/// sound marks, three Georgian letters and the Shan digits; browsers still show them.
pub(crate) fn browser_allowed(c: char) -> bool {
    c.identifier_allowed()
        || matches!(
            c,
            '\u{3105}'..='\u{312F}'
                | '\u{31A0}'..='\u{31BF}'
                | '\u{3099}'..='\u{309A}'
                | '\u{10FD}'..='\u{10FF}'
                | '\u{1090}'..='\u{1099}'
        )
}

/// Code points the browsers do not allow ([`browser_allowed`]).
pub(crate) fn outside_browser_profile(label: &LabelContext<'_>) -> Vec<char> {
    label
        .chars
        .iter()
        .copied()
        .filter(|&c| !c.is_ascii() && !browser_allowed(c))
        .collect()
}

/// Scripts mixed beyond "highly restrictive", judged by the scripts alone.
pub(crate) fn scripts_beyond_highly_restrictive(
    label: &LabelContext<'_>,
    _: &HostContext<'_>,
) -> Option<Vec<char>> {
    if label.script_level <= RestrictionLevel::HighlyRestrictive {
        return None;
    }
    odd_scripts(label)
}

/// More script mixing than "highly restrictive" allows: the code points of the scripts
/// other than the label's main one.
pub(crate) fn beyond_highly_restrictive(
    label: &LabelContext<'_>,
    _: &HostContext<'_>,
) -> Option<Vec<char>> {
    if !matches!(
        label.level,
        RestrictionLevel::ModeratelyRestrictive | RestrictionLevel::MinimallyRestrictive
    ) {
        return None;
    }
    odd_scripts(label)
}

/// The code points not in the label's most frequent script; when every code point with a
/// script is in it (a mark whose extensions name other scripts), the code points that are not
/// ASCII.
pub(crate) fn odd_scripts(label: &LabelContext<'_>) -> Option<Vec<char>> {
    let count = |s: Script| label.chars.iter().filter(|&&c| script_of(c) == s).count();
    let main = label.scripts.iter().copied().max_by_key(|&s| count(s));
    let odd: Vec<char> = label
        .chars
        .iter()
        .copied()
        .filter(|&c| {
            let s = script_of(c);
            Some(s) != main && !matches!(s, Script::Common | Script::Inherited)
        })
        .collect();
    if odd.is_empty() {
        any(label
            .chars
            .iter()
            .copied()
            .filter(|c| !c.is_ascii())
            .collect())
    } else {
        Some(odd)
    }
}

/// UTS 39's invisible-character check as ICU runs it: in the NFD form, the same nonspacing
/// mark twice on one base.
pub(crate) fn repeated_mark_nfd(
    label: &LabelContext<'_>,
    _: &HostContext<'_>,
) -> Option<Vec<char>> {
    let nfd = icu_normalizer::DecomposingNormalizerBorrowed::new_nfd().normalize(label.unicode);
    // The marks on the current base (a set: a base may carry any number of marks).
    let mut run = std::collections::HashSet::new();
    for c in nfd.chars() {
        if is_nonspacing_mark(c) {
            if !run.insert(c) {
                return Some(vec![c]);
            }
        } else {
            run.clear();
        }
    }
    None
}

/// The numbering system of a decimal digit: its zero. Unicode encodes each system's digits
/// as a run of ten from zero.
fn digit_zero(c: char) -> Option<char> {
    if c.is_ascii_digit() {
        return Some('0');
    }
    if c.is_ascii() || general_category(c) != GeneralCategory::DecimalNumber {
        return None;
    }
    // Runs of Nd may be adjacent (the mathematical digits): count back to the run's start.
    let code = u32::from(c);
    let mut start = code;
    while start > 0
        && char::from_u32(start - 1)
            .is_some_and(|p| general_category(p) == GeneralCategory::DecimalNumber)
    {
        start -= 1;
    }
    char::from_u32(start + (code - start) / 10 * 10)
}

/// A decimal digit (General_Category Nd) of any numbering system.
pub(crate) fn is_decimal_digit(c: char) -> bool {
    c.is_ascii_digit() || (!c.is_ascii() && general_category(c) == GeneralCategory::DecimalNumber)
}

/// Decimal digits of more than one numbering system: the digits of the second.
pub(crate) fn mixed_numbers(label: &LabelContext<'_>, _: &HostContext<'_>) -> Option<Vec<char>> {
    let mut first = None;
    let mut other = Vec::new();
    for &c in &label.chars {
        if let Some(zero) = digit_zero(c) {
            match first {
                None => first = Some(zero),
                Some(z) if z != zero => other.push(c),
                Some(_) => {}
            }
        }
    }
    any(other)
}

/// IDNA2008's deviation characters: ß, ς, ZWNJ and ZWJ.
pub(crate) fn is_deviation(c: char) -> bool {
    matches!(c, 'ß' | 'ς' | '\u{200C}' | '\u{200D}')
}

pub(crate) fn deviation(label: &LabelContext<'_>, _: &HostContext<'_>) -> Option<Vec<char>> {
    any(label
        .chars
        .iter()
        .copied()
        .filter(|&c| is_deviation(c))
        .collect())
}

/// Punctuation that UTS 46 lets through but IDNA2008 disallows (its NV8 code points): the
/// Unicode punctuation categories, less the few IDNA2008 allows in context.
pub(crate) fn is_nv8_punctuation(c: char) -> bool {
    // RFC 5892 makes these CONTEXTO (middle dot, Greek numeral sign, Hebrew geresh and
    // gershayim, katakana middle dot) or PVALID by exception (Tibetan mark intersyllabic tsheg).
    const IDNA2008_EXCEPTIONS: &[char] = &[
        '\u{00B7}', '\u{0375}', '\u{05F3}', '\u{05F4}', '\u{0F0B}', '\u{30FB}',
    ];
    !c.is_ascii()
        && GeneralCategoryGroup::Punctuation.contains(general_category(c))
        && !IDNA2008_EXCEPTIONS.contains(&c)
}

pub(crate) fn nv8_punctuation(label: &LabelContext<'_>, _: &HostContext<'_>) -> Option<Vec<char>> {
    any(label
        .chars
        .iter()
        .copied()
        .filter(|&c| is_nv8_punctuation(c))
        .collect())
}

/// Modifier letters that read as an apostrophe or a quotation mark.
pub(crate) fn quote_modifier_letters(
    label: &LabelContext<'_>,
    _: &HostContext<'_>,
) -> Option<Vec<char>> {
    any(label
        .chars
        .iter()
        .copied()
        .filter(|c| matches!(c, '\u{02BB}' | '\u{02BC}'))
        .collect())
}

/// Letters a browser allows only under the TLD of the language that uses them: thorn and eth
/// (Icelandic, Faroese: .is, .fo; they pass for b, p and o), schwa (Azerbaijani: .az).
pub(crate) fn tld_restricted_letters(
    label: &LabelContext<'_>,
    host: &HostContext<'_>,
) -> Vec<char> {
    label
        .chars
        .iter()
        .copied()
        .filter(|&c| match c {
            'þ' | 'ð' => !matches!(host.tld, "is" | "fo"),
            'ə' => host.tld != "az",
            _ => false,
        })
        .collect()
}

/// U+00B7 MIDDLE DOT anywhere but between two l's under .cat (the Catalan ela geminada).
pub(crate) fn unsafe_middle_dot(
    label: &LabelContext<'_>,
    host: &HostContext<'_>,
) -> Option<Vec<char>> {
    let chars = &label.chars;
    let unsafe_at = |i: usize| {
        host.tld != "cat"
            || i == 0
            || i + 1 == chars.len()
            || chars[i - 1] != 'l'
            || chars[i + 1] != 'l'
    };
    chars
        .iter()
        .enumerate()
        .any(|(i, &c)| c == '\u{00B7}' && unsafe_at(i))
        .then(|| vec!['\u{00B7}'])
}

/// Country-code TLDs under which a script's whole-script confusables are allowed (where that
/// script is the local one), as both browsers exempt them.
pub(crate) fn script_tlds(script: Script) -> &'static [&'static str] {
    match script {
        Script::Armenian => &["am"],
        Script::Cyrillic => &["bg", "by", "kz", "pyc", "ru", "su", "ua", "uz"],
        Script::Ethiopic => &["er", "et"],
        Script::Georgian => &["ge"],
        Script::Greek => &["gr"],
        Script::Hebrew => &["il"],
        Script::Myanmar => &["mm"],
        Script::Thai => &["th"],
        _ => &[],
    }
}

/// Whether `script`'s look-alikes are allowed under the host's TLD: a TLD in that script, or
/// the country's ASCII TLD.
pub(crate) fn tld_allows_script(script: Script, host: &HostContext<'_>) -> bool {
    host.tld_unicode.chars().any(|c| script_of(c) == script)
        || script_tlds(script).contains(&host.tld)
}

/// A label whose letters of one non-Latin script all read as Latin letters (by
/// `looks_latin`), under a TLD not of that script: the letters.
pub(crate) fn whole_script_confusable(
    label: &LabelContext<'_>,
    host: &HostContext<'_>,
    looks_latin: impl Fn(Script, char) -> bool,
) -> Option<Vec<char>> {
    let &[script] = &label.scripts[..] else {
        return None;
    };
    if script == Script::Latin {
        return None;
    }
    let letters: Vec<char> = label
        .chars
        .iter()
        .copied()
        .filter(|&c| script_of(c) == script)
        .collect();
    let all_latin = !letters.is_empty() && letters.iter().all(|&c| looks_latin(script, c));
    (all_latin && !tld_allows_script(script, host)).then_some(letters)
}

/// A label of ASCII digits and digit look-alikes only, with at least one look-alike.
pub(crate) fn digit_lookalike(label: &LabelContext<'_>, _: &HostContext<'_>) -> Option<Vec<char>> {
    let mut lookalikes = Vec::new();
    for &c in &label.chars {
        if c.is_ascii_digit() {
            continue;
        }
        if !lookalike::reads_as_digit(c) {
            return None;
        }
        lookalikes.push(c);
    }
    any(lookalikes)
}

/// Non-ASCII Latin letters in a label that also has another script.
pub(crate) fn non_ascii_latin_mixed(
    label: &LabelContext<'_>,
    _: &HostContext<'_>,
) -> Option<Vec<char>> {
    if !label.scripts.iter().any(|&s| s != Script::Latin) {
        return None;
    }
    any(label
        .chars
        .iter()
        .copied()
        .filter(|&c| !c.is_ascii() && script_of(c) == Script::Latin)
        .collect())
}

/// U+0307 COMBINING DOT ABOVE after i, j or l (or dotless i): a second dot on a letter that
/// has one, or a dot that makes l read as i.
pub(crate) fn dot_above_ijl(label: &LabelContext<'_>, _: &HostContext<'_>) -> Option<Vec<char>> {
    label
        .chars
        .windows(2)
        .any(|w| matches!(w[0], 'i' | 'j' | 'l' | '\u{0131}') && w[1] == '\u{0307}')
        .then(|| vec!['\u{0307}'])
}

/// A combining mark of U+0300..U+0339 after a letter that is not Latin, Greek or Cyrillic.
pub(crate) fn mark_after_non_lgc(
    label: &LabelContext<'_>,
    _: &HostContext<'_>,
) -> Option<Vec<char>> {
    let lgc = |c: char| {
        [Script::Latin, Script::Greek, Script::Cyrillic]
            .iter()
            .any(|&s| has_script_extension(c, s))
    };
    label
        .chars
        .windows(2)
        .find_map(|w| (('\u{0300}'..='\u{0339}').contains(&w[1]) && !lgc(w[0])).then(|| vec![w[1]]))
}

/// Is `c` in any of the Japanese (and, with Bopomofo, Chinese) scripts by Script_Extensions?
pub(crate) fn is_cjk(c: char, with_bopomofo: bool) -> bool {
    has_script_extension(c, Script::Katakana)
        || has_script_extension(c, Script::Hiragana)
        || has_script_extension(c, Script::Han)
        || (with_bopomofo && has_script_extension(c, Script::Bopomofo))
}

/// Katakana and CJK characters that pass for a slash when not among Japanese text: ノ ン ソ ゾ
/// and the ideographs 丶 乀 乁 丿.
pub(crate) const SLASH_LOOKALIKES: &[char] = &[
    '\u{30CE}', '\u{30F3}', '\u{30BD}', '\u{30BE}', '\u{4E36}', '\u{4E40}', '\u{4E41}', '\u{4E3F}',
];

/// Ideographs and Bopomofo letters that pass for Latin letters or punctuation (一 reads as a
/// hyphen, 七 as t, 工 as I, 〇 as o) when not among CJK text.
pub(crate) const IDEOGRAPH_LOOKALIKES: &[char] = &[
    '\u{4E00}', '\u{3127}', '\u{4E28}', '\u{4E5B}', '\u{4E03}', '\u{4E05}', '\u{5341}', '\u{3007}',
    '\u{3112}', '\u{311A}', '\u{311F}', '\u{3128}', '\u{3129}', '\u{3108}', '\u{31BA}', '\u{31B3}',
    '\u{5DE5}', '\u{31B2}', '\u{8BA0}', '\u{4E01}',
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nv8_punctuation_in_the_identifier_profile_is_what_browsers_drop() {
        // The punctuation UTS 39 allows in identifiers, less what IDNA2008 allows in context:
        // exactly the hyphen and apostrophe look-alikes Chromium removes from its allowed set.
        let found: Vec<u32> = (0x80..0x3_0000)
            .filter_map(char::from_u32)
            .filter(|&c| c.identifier_allowed() && is_nv8_punctuation(c))
            .map(u32::from)
            .collect();
        assert_eq!(found, vec![0x058A, 0x2010, 0x2019, 0x2027, 0x30A0]);
    }

    #[test]
    fn digit_zeros_are_the_start_of_each_run_of_ten() {
        assert_eq!(digit_zero('7'), Some('0'));
        assert_eq!(digit_zero('\u{09E8}'), Some('\u{09E6}'));
        assert_eq!(digit_zero('\u{1095}'), Some('\u{1090}'));
        assert_eq!(digit_zero('\u{1D7D9}'), Some('\u{1D7D8}'));
        assert_eq!(digit_zero('\u{1D7E2}'), Some('\u{1D7E2}'));
        assert_eq!(digit_zero('a'), None);
        assert_eq!(digit_zero('\u{0437}'), None);
    }
}
