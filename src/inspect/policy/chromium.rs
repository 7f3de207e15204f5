//! Chromium's IDN display algorithm, as its design document ("IDN in Google Chrome",
//! docs/idn.md) describes it and components/url_formatter/spoof_checks does it. Chromium
//! decides label by label: UTS 46 to Unicode, ICU's spoof checks with a "highly restrictive"
//! level and an allowed set of identifier characters, letters restricted to their TLDs, and
//! then two branches: a label in one (logical) script is safe unless it is a whole-script
//! confusable or digit look-alike; a label that mixes scripts also meets the non-ASCII-Latin
//! rule and the "dangerous patterns" of kana, CJK and combining marks. Last, the whole host is
//! shown in Punycode when, with diacritics removed, its skeleton is a top domain's.
//!
//! Deliberate differences: the top-domain list is urlscope's known domains (with any the user
//! adds), not Chromium's compiled list; platform-specific font rules (macOS's blank glyphs,
//! Linux's longer Thai list) are left out; Chromium's list of real words that are whole-script
//! confusables is not kept; deviation characters are allowed, as with Chromium's
//! non-transitional IDNA 2008 processing.

use unicode_script::Script;
use unicode_security::RestrictionLevel;

use super::{
    any, digit_lookalike, dot_above_ijl, is_cjk, mark_after_non_lgc, mixed_numbers,
    non_ascii_latin_mixed, nv8_punctuation, outside_browser_profile, repeated_mark_nfd,
    scripts_beyond_highly_restrictive, tld_restricted_letters, unsafe_middle_dot,
    whole_script_confusable, HostRule, Policy, Rule, IDEOGRAPH_LOOKALIKES, SLASH_LOOKALIKES,
    TO_UNICODE,
};
use crate::inspect::label::{has_script_extension, HostContext, LabelContext};

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
    label_rules: &[
        TO_UNICODE,
        Rule {
            name: "allowed-set",
            step: "ICU spoof check: a code point outside the allowed set (UTS 39 identifier profile, less rarely used LGC blocks, kra and modifier quotes)",
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

fn outside_allowed_set(label: &LabelContext<'_>, _: &HostContext<'_>) -> Option<Vec<char>> {
    let mut points = outside_browser_profile(label);
    points.extend(
        label
            .chars
            .iter()
            .copied()
            .filter(|&c| super::browser_allowed(c) && removed_from_allowed_set(c)),
    );
    any(points)
}

/// What Chromium takes out of the identifier profile: a slash-like overlay, kra, the modifier
/// letters that read as quotes or voicing, and blocks of rarely used Latin, Greek and Cyrillic.
fn removed_from_allowed_set(c: char) -> bool {
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
        WHOLE_SCRIPT_LOOKALIKES
            .iter()
            .any(|&(s, letters)| s == script && letters.contains(c))
    })
}

/// The letters of each script that Chromium takes for Latin ones when a label is made of
/// nothing else (its whole-script confusable lists, outside the platform-specific ones).
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

/// The host's last labels (up to four, at least two), diacritics removed, have the skeleton
/// of a known domain that the host is not, and is not under.
fn top_domain_skeleton(labels: &[LabelContext<'_>], host: &HostContext<'_>) -> Option<String> {
    if !labels.iter().any(|l| !l.is_ascii()) || host.known.is_known_or_subdomain(host.ascii) {
        return None;
    }
    let imitated = host.folded_imitation()?;
    Some(format!("{:?} reads as {imitated}", host.unicode))
}
