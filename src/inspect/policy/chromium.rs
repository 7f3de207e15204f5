//! Chromium's IDN display algorithm, as its design document ("IDN in Google Chrome",
//! docs/idn.md) describes it and components/url_formatter/spoof_checks does it. Chromium
//! decides label by label: UTS 46 to Unicode, ICU's spoof checks with a "highly restrictive"
//! level and an allowed set of identifier characters, letters restricted to their TLDs, and
//! then two branches: a label in one (logical) script is safe unless it is a whole-script
//! confusable or digit look-alike; a label that mixes scripts also meets the non-ASCII-Latin
//! rule and the "dangerous patterns" of kana, CJK and combining marks. Last, the whole host is
//! shown in Punycode when, with diacritics removed, its skeleton is a top domain's.
//!
//! Two rules depend on the platform Chromium was built for ([`Platform`]): its Linux build
//! takes more Thai letters for Latin ones, and its Apple builds refuse code points that macOS's
//! system font draws blank. The platform is urlscope's own unless [`set_platform`] chose one.
//!
//! Deliberate differences: the top-domain list is urlscope's known domains (with any the user
//! adds), not Chromium's compiled list; Chromium's list of real words that are whole-script
//! confusables is not kept; deviation characters are allowed, as with Chromium's
//! non-transitional IDNA 2008 processing.

use std::sync::atomic::{AtomicU8, Ordering};

use unicode_script::Script;
use unicode_security::{GeneralSecurityProfile, RestrictionLevel};

use super::{
    any, digit_lookalike, dot_above_ijl, is_cjk, mark_after_non_lgc, mixed_numbers,
    non_ascii_latin_mixed, nv8_punctuation, outside_browser_profile, repeated_mark_nfd,
    scripts_beyond_highly_restrictive, tld_restricted_letters, unsafe_middle_dot,
    whole_script_confusable, HostRule, Policy, Rule, IDEOGRAPH_LOOKALIKES, SLASH_LOOKALIKES,
    TO_UNICODE,
};
use crate::inspect::label::{has_script_extension, HostContext, LabelContext};

/// The platform whose Chromium build the policy follows: a build differs from the others in
/// the look-alike lists that depend on how its fonts draw a script.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Platform {
    Linux,
    Mac,
    Windows,
    Android,
}

impl Platform {
    pub const ALL: [Platform; 4] = [
        Platform::Linux,
        Platform::Mac,
        Platform::Windows,
        Platform::Android,
    ];

    /// The platform urlscope was built for; another Unix counts as Linux, whose Chromium build
    /// the BSD ports follow.
    pub const HOST: Platform = if cfg!(target_os = "macos") || cfg!(target_os = "ios") {
        Platform::Mac
    } else if cfg!(target_os = "windows") {
        Platform::Windows
    } else if cfg!(target_os = "android") {
        Platform::Android
    } else {
        Platform::Linux
    };

    /// The name, as `--platform` takes it and the JSON output shows it.
    pub const fn name(self) -> &'static str {
        match self {
            Platform::Linux => "linux",
            Platform::Mac => "mac",
            Platform::Windows => "windows",
            Platform::Android => "android",
        }
    }
}

impl std::fmt::Display for Platform {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Platform {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Platform::ALL
            .into_iter()
            .find(|p| p.name() == s)
            .ok_or_else(|| format!("\"{s}\" is not a platform: linux, mac, windows or android"))
    }
}

/// The platform chosen for the process ([`set_platform`]), as its index in [`Platform::ALL`];
/// `u8::MAX` until one is chosen.
static PLATFORM: AtomicU8 = AtomicU8::new(u8::MAX);

/// Makes the analyses that follow decide as Chromium on `platform` does.
pub fn set_platform(platform: Platform) {
    let index = Platform::ALL
        .iter()
        .position(|&p| p == platform)
        .unwrap_or(0);
    PLATFORM.store(index as u8, Ordering::Relaxed);
}

/// The platform the analyses decide for: the one chosen, else [`Platform::HOST`].
pub fn platform() -> Platform {
    Platform::ALL
        .get(usize::from(PLATFORM.load(Ordering::Relaxed)))
        .copied()
        .unwrap_or(Platform::HOST)
}

/// Wraps a rule of the mixed-script branch.
macro_rules! mixed {
    ($rule:path) => {{
        fn rule(label: &LabelContext<'_>, host: &HostContext<'_>) -> Option<Vec<char>> {
            if takes_single_script_branch(label) {
                return None;
            }
            $rule(label, host)
        }
        rule
    }};
}

pub const POLICY: Policy = Policy {
    name: "chromium",
    source: "Chromium's IDN display algorithm (docs/idn.md, components/url_formatter/spoof_checks)",
    platform_specific: true,
    label_rules: &[
        TO_UNICODE,
        Rule {
            name: "check-hyphens",
            step: "UTS 46 ToUnicode as ICU runs it (CheckHyphens): a hyphen first, last, or in the third and fourth positions",
            check: check_hyphens,
        },
        Rule {
            name: "allowed-set",
            step: "ICU spoof check: a code point outside the allowed set (UTS 39 identifier profile with its ASCII, less rarely used LGC blocks, kra, modifier quotes, and on macOS the code points its font draws blank)",
            check: outside_allowed_set,
        },
        Rule {
            name: "nv8-punctuation",
            step: "ICU spoof check: punctuation outside the allowed set (invalid in IDNA 2008: hyphen and apostrophe look-alikes)",
            check: nv8_punctuation,
        },
        Rule {
            name: "restriction-level",
            step: "ICU spoof check: scripts mixed beyond \"highly restrictive\"",
            check: scripts_beyond_highly_restrictive,
        },
        Rule {
            name: "invisible",
            step: "ICU spoof check: the same combining mark twice on one letter",
            check: repeated_mark_nfd,
        },
        Rule {
            name: "mixed-numbers",
            step: "ICU spoof check: digits of more than one numbering system",
            check: mixed_numbers,
        },
        Rule {
            name: "tld-specific-characters",
            step: "thorn and eth only under .is and .fo, schwa only under .az",
            check: tld_specific_characters,
        },
        Rule {
            name: "unsafe-middle-dot",
            step: "middle dot only between two l's under .cat",
            check: unsafe_middle_dot,
        },
        Rule {
            name: "whole-script-confusable",
            step: "one script whose letters all look Latin, under a TLD not of that script",
            check: single_script_whole_script_confusable,
        },
        Rule {
            name: "digit-lookalikes",
            step: "only digits and letters that look like digits",
            check: digit_lookalike,
        },
        Rule {
            name: "non-ascii-latin-mixed",
            step: "mixed scripts: non-ASCII Latin letters beside another script",
            check: mixed!(non_ascii_latin_mixed),
        },
        Rule {
            name: "kana-slash",
            step: "dangerous pattern: ノ ン ソ ゾ 丶 乀 乁 丿 between non-Japanese characters",
            check: mixed!(slash_between_non_japanese),
        },
        Rule {
            name: "katakana-iteration-mark",
            step: "dangerous pattern: ヽ or ヾ not after katakana",
            check: mixed!(katakana_iteration_mark),
        },
        Rule {
            name: "kana-he",
            step: "dangerous pattern: hiragana へべぺ among katakana, or katakana ヘベペ among hiragana",
            check: mixed!(kana_he),
        },
        Rule {
            name: "prolonged-sound-mark",
            step: "dangerous pattern: ー not after kana",
            check: mixed!(prolonged_sound_mark),
        },
        Rule {
            name: "katakana-middle-dot",
            step: "dangerous pattern: ・ next to a Latin letter",
            check: mixed!(katakana_middle_dot),
        },
        Rule {
            name: "cjk-lookalike-ideograph",
            step: "dangerous pattern: an ideograph that reads as Latin or punctuation beside non-CJK",
            check: mixed!(ideograph_beside_non_cjk),
        },
        Rule {
            name: "combining-mark-after-non-lgc",
            step: "dangerous pattern: a combining mark U+0300..U+0339 after a non-Latin, -Greek or -Cyrillic letter",
            check: mixed!(mark_after_non_lgc),
        },
        Rule {
            name: "dotless-i-with-mark",
            step: "dangerous pattern: dotless i with a combining mark",
            check: mixed!(dotless_i_with_mark),
        },
        Rule {
            name: "kana-voiced-sound-mark",
            step: "dangerous pattern: the combining kana voiced sound marks U+3099 and U+309A",
            check: mixed!(kana_voiced_sound_mark),
        },
        Rule {
            name: "dot-above-ijl",
            step: "dangerous pattern: a dot above on i, j or l",
            check: mixed!(dot_above_ijl),
        },
    ],
    host_rules: &[HostRule {
        name: "top-domain-skeleton",
        step: "the host, diacritics removed, has the skeleton of a top domain it is not",
        check: top_domain_skeleton,
    }],
};

/// Kana and marks whose presence sends a one-script label to the mixed-script checks.
fn is_kana_exception(c: char) -> bool {
    matches!(c, '\u{3078}'..='\u{307A}' | '\u{30D8}'..='\u{30DA}' | '\u{30FB}'..='\u{30FE}')
}

/// The one-script shortcut: a label in one logical script, with no kana exception and no
/// combining diacritic, skips the mixed-script checks.
fn takes_single_script_branch(label: &LabelContext<'_>) -> bool {
    label.script_level == RestrictionLevel::SingleScript
        && !label
            .chars
            .iter()
            .any(|&c| is_kana_exception(c) || ('\u{0300}'..='\u{0339}').contains(&c))
}

/// ICU's UTS 46 ToUnicode always checks hyphens (UTS 46, Validity Criteria, step 2 with
/// CheckHyphens) and Chromium keeps a label that fails in Punycode: `ру--авто` is refused, which
/// the URL Standard's domain to Unicode (CheckHyphens false) decodes.
fn check_hyphens(label: &LabelContext<'_>, _: &HostContext<'_>) -> Option<Vec<char>> {
    if label.is_ascii() {
        return None;
    }
    // ICU counts positions in UTF-16 code units.
    let third_fourth = hyphens_third_fourth(label.unicode);
    let first_or_last = label.unicode.starts_with('-') || label.unicode.ends_with('-');
    (third_fourth || first_or_last).then(|| vec!['-'])
}

/// Whether `label` has hyphens in its third and fourth UTF-16 code units, as ICU checks them.
pub(crate) fn hyphens_third_fourth(label: &str) -> bool {
    let mut units = label.encode_utf16();
    units.nth(2) == Some(u16::from(b'-')) && units.next() == Some(u16::from(b'-'))
}

fn outside_allowed_set(label: &LabelContext<'_>, host: &HostContext<'_>) -> Option<Vec<char>> {
    let mut points = outside_browser_profile(label);
    points.extend(label.chars.iter().copied().filter(|&c| {
        // ICU's allowed set holds the ASCII of identifiers (letters, digits, - . ' _ :), so
        // other ASCII in a label that is not all ASCII (`안녕!`) fails the spoof check.
        (c.is_ascii() && !c.identifier_allowed())
            || (super::browser_allowed(c) && removed_from_allowed_set(c, host.platform))
    }));
    any(points)
}

/// What Chromium takes out of the identifier profile: a slash-like overlay, kra, the modifier
/// letters that read as quotes or voicing, and blocks of rarely used Latin, Greek and Cyrillic;
/// on Apple's platforms also the code points macOS's system font claims but draws blank (the
/// Arabic letter Kashmiri yeh and four Tibetan transliteration signs).
fn removed_from_allowed_set(c: char, platform: Platform) -> bool {
    if platform == Platform::Mac && matches!(c, '\u{0620}' | '\u{0F8C}'..='\u{0F8F}') {
        return true;
    }
    matches!(
        c,
        '\u{0338}'
            | '\u{0138}'
            | '\u{02BB}'
            | '\u{02BC}'
            | '\u{02EC}'
            | '\u{01CD}'..='\u{01DC}'
            | '\u{1C80}'..='\u{1C8F}'
            | '\u{1E00}'..='\u{1E9B}'
            | '\u{1F00}'..='\u{1FFF}'
            | '\u{A640}'..='\u{A69F}'
            | '\u{A720}'..='\u{A7FF}'
    )
}

fn tld_specific_characters(label: &LabelContext<'_>, host: &HostContext<'_>) -> Option<Vec<char>> {
    // A one-letter label is left alone (þ.com is no one's brand).
    if label.chars.len() <= 1 {
        return None;
    }
    any(tld_restricted_letters(label, host))
}

fn single_script_whole_script_confusable(
    label: &LabelContext<'_>,
    host: &HostContext<'_>,
) -> Option<Vec<char>> {
    if !takes_single_script_branch(label) {
        return None;
    }
    whole_script_confusable(label, host, |script, c| {
        if script == Script::Thai && host.platform == Platform::Linux {
            return LINUX_THAI_LOOKALIKES.contains(c);
        }
        WHOLE_SCRIPT_LOOKALIKES
            .iter()
            .any(|&(s, letters)| s == script && letters.contains(c))
    })
}

/// The Thai letters Chromium's Linux build takes for Latin ones: with the fonts Linux draws
/// Thai in, more of them look Latin than elsewhere.
const LINUX_THAI_LOOKALIKES: &str = "ทนบพรหเแ๐ดลปฟม";

/// The letters of each script that Chromium takes for Latin ones when a label is made of
/// nothing else (its whole-script confusable lists; for Thai, every build's but Linux's).
const WHOLE_SCRIPT_LOOKALIKES: &[(Script, &str)] = &[
    (Script::Armenian, "ագզէլհյոսւօՙ"),
    (Script::Cyrillic, "аысԁеԍһіюкјӏорԗԛѕԝхуъьҽпгѵѡ"),
    (Script::Ethiopic, "ሀሠሰስበነተከዐዕዘጠፐꬅ"),
    (Script::Georgian, "იოყძხჽჿ"),
    (Script::Greek, "αικνρυωηοτ"),
    (Script::Hebrew, "דוחיןסװײ׳ﬦ"),
    (Script::Bengali, "০৭"),
    (Script::Devanagari, "ऽ०ॱ"),
    (Script::Gujarati, "ડટ૦૧"),
    (Script::Gurmukhi, "੦੧"),
    (Script::Kannada, "ಽ೦೧"),
    (Script::Malayalam, "ടഠധനറ൦"),
    (Script::Oriya, "ଠ୦୮"),
    (Script::Tamil, "டப௦"),
    (Script::Telugu, "౦౧"),
    (
        Script::Myanmar,
        "ခဂငထပဝ၀၂ၔၜ\u{1090}\u{1091}\u{1095}\u{1096}\u{1097}",
    ),
    (Script::Thai, "บพเแ๐"),
];

/// The neighbours of each code point (`None` at either end).
fn neighbours(chars: &[char]) -> impl Iterator<Item = (Option<char>, char, Option<char>)> + '_ {
    (0..chars.len()).map(move |i| {
        (
            i.checked_sub(1).map(|p| chars[p]),
            chars[i],
            chars.get(i + 1).copied(),
        )
    })
}

fn slash_between_non_japanese(label: &LabelContext<'_>, _: &HostContext<'_>) -> Option<Vec<char>> {
    neighbours(&label.chars).find_map(|(before, c, after)| {
        let outside = |n: Option<char>| n.is_some_and(|n| !is_cjk(n, false));
        (SLASH_LOOKALIKES.contains(&c) && outside(before) && outside(after)).then(|| vec![c])
    })
}

fn katakana_iteration_mark(label: &LabelContext<'_>, _: &HostContext<'_>) -> Option<Vec<char>> {
    neighbours(&label.chars).find_map(|(before, c, _)| {
        let after_katakana = before.is_some_and(|b| has_script_extension(b, Script::Katakana));
        (matches!(c, '\u{30FD}' | '\u{30FE}') && !after_katakana).then(|| vec![c])
    })
}

fn kana_he(label: &LabelContext<'_>, _: &HostContext<'_>) -> Option<Vec<char>> {
    let chars = &label.chars;
    // A letter of one kana strictly inside a label otherwise all of the other kana. The
    // letters looked for are in one script only, so "all the others" is a count.
    let among = |range: std::ops::RangeInclusive<char>, script: Script| {
        let outside = chars
            .iter()
            .filter(|&&c| !has_script_extension(c, script))
            .count();
        (1..chars.len().saturating_sub(1))
            .find(|&i| range.contains(&chars[i]) && outside == 1)
            .map(|i| vec![chars[i]])
    };
    among('\u{3078}'..='\u{307A}', Script::Katakana)
        .or_else(|| among('\u{30D8}'..='\u{30DA}', Script::Hiragana))
}

fn prolonged_sound_mark(label: &LabelContext<'_>, _: &HostContext<'_>) -> Option<Vec<char>> {
    neighbours(&label.chars).find_map(|(before, c, _)| {
        let after_kana = before.is_some_and(|b| {
            has_script_extension(b, Script::Katakana) || has_script_extension(b, Script::Hiragana)
        });
        (c == '\u{30FC}' && !after_kana).then(|| vec![c])
    })
}

fn katakana_middle_dot(label: &LabelContext<'_>, _: &HostContext<'_>) -> Option<Vec<char>> {
    neighbours(&label.chars).find_map(|(before, c, after)| {
        let latin = |n: Option<char>| n.is_some_and(|n| n.is_ascii_lowercase());
        (c == '\u{30FB}' && (latin(before) || latin(after))).then(|| vec![c])
    })
}

fn ideograph_beside_non_cjk(label: &LabelContext<'_>, _: &HostContext<'_>) -> Option<Vec<char>> {
    neighbours(&label.chars).find_map(|(before, c, after)| {
        let outside = |n: Option<char>| n.is_some_and(|n| !is_cjk(n, true));
        (IDEOGRAPH_LOOKALIKES.contains(&c) && (outside(before) || outside(after))).then(|| vec![c])
    })
}

fn dotless_i_with_mark(label: &LabelContext<'_>, _: &HostContext<'_>) -> Option<Vec<char>> {
    label.chars.windows(2).find_map(|w| {
        (w[0] == '\u{0131}' && ('\u{0300}'..='\u{0339}').contains(&w[1])).then(|| vec![w[0], w[1]])
    })
}

fn kana_voiced_sound_mark(label: &LabelContext<'_>, _: &HostContext<'_>) -> Option<Vec<char>> {
    any(label
        .chars
        .iter()
        .copied()
        .filter(|c| matches!(c, '\u{3099}' | '\u{309A}'))
        .collect())
}

/// Chromium computes a host's skeletons only for a host of at most this many UTF-16 code
/// units (a trailing dot aside); a longer host has none, and matches no top domain.
const MAX_SKELETON_HOST_UNITS: usize = 32;

/// The host's last labels (up to four, at least two), diacritics removed, have one of the
/// skeletons of a known domain that the host is not, and is not under. A letter that reads as
/// more than one gives the host a skeleton for each reading (ł as l and as t).
fn top_domain_skeleton(labels: &[LabelContext<'_>], host: &HostContext<'_>) -> Option<String> {
    if !labels.iter().any(|l| !l.is_ascii()) || host.known.is_known_or_subdomain(host.ascii) {
        return None;
    }
    let units = host.unicode.trim_end_matches('.').encode_utf16().count();
    if units > MAX_SKELETON_HOST_UNITS {
        return None;
    }
    let imitated = host.folded_imitation()?;
    Some(format!(
        "{} reads as {imitated}",
        crate::inspect::finding::quoted(host.unicode)
    ))
}
