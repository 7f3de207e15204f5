//! Firefox's IDN display algorithm (Mozilla's "IDN Display Algorithm"; netwerk/dns's label
//! check): a label is shown in Unicode unless it has a character of `network.IDN.blocklist_chars`,
//! a character UTS 39 restricts, a script combination beyond one logical script (with Latin
//! only beside Chinese, Japanese or Korean), or one of the context rules Firefox took over
//! from Chromium: kana and CJK look-alikes out of context, marks on the wrong letters, letters
//! restricted to their TLD, mixed numbering systems, a repeated mark, digit look-alikes, and
//! Cyrillic or Thai whole-script confusables outside their TLDs.
//!
//! Firefox does not compare the host with top domains, does not check whole-script
//! confusables in other scripts, allows the kana voiced sound marks after kana, and reads a
//! repeated mark on the label as it is (NFC), not decomposed.

use unicode_script::Script;

use super::{
    any, digit_lookalike, dot_above_ijl, mixed_numbers, outside_browser_profile,
    quote_modifier_letters, tld_restricted_letters, unsafe_middle_dot, whole_script_confusable,
    Policy, Rule, IDEOGRAPH_LOOKALIKES, SLASH_LOOKALIKES, TO_UNICODE,
};
use crate::inspect::label::{has_script_extension, script_of, HostContext, LabelContext};

pub const POLICY: Policy = Policy {
    name: "firefox",
    source: "Mozilla's IDN Display Algorithm with network.IDN.blocklist_chars",
    platform_specific: false,
    label_rules: &[
        TO_UNICODE,
        Rule {
            name: "blocklist-chars",
            step: "a character of network.IDN.blocklist_chars",
            check: blocklisted,
        },
        Rule {
            name: "identifier-type",
            step: "a character whose UTS 39 identifier status is Restricted",
            check: restricted,
        },
        Rule {
            name: "script-combination",
            step: "scripts beyond one, or Latin beside a script other than Han, kana, Bopomofo or Hangul",
            check: illegal_script_combination,
        },
        Rule {
            name: "prolonged-sound-mark",
            step: "ー not after hiragana or katakana",
            check: prolonged_sound_mark,
        },
        Rule {
            name: "kana-he",
            step: "hiragana へべぺ beside katakana, or katakana ヘベペ beside hiragana",
            check: kana_he,
        },
        Rule {
            name: "katakana-iteration-mark",
            step: "ヽ or ヾ not after katakana",
            check: katakana_iteration_mark,
        },
        Rule {
            name: "cjk-slash",
            step: "ノ ン ソ ゾ 丶 乀 乁 丿 with no Han or kana on either side",
            check: cjk_slash,
        },
        Rule {
            name: "katakana-middle-dot",
            step: "・ beside Latin",
            check: katakana_middle_dot,
        },
        Rule {
            name: "combining-mark-after-non-lgc",
            step: "a combining mark U+0300..U+0339 after a script other than Latin, Greek or Cyrillic",
            check: mark_after_non_lgc,
        },
        Rule {
            name: "dot-above-ijl",
            step: "a dot above after i, j or l",
            check: dot_above_ijl,
        },
        Rule {
            name: "middle-dot",
            step: "middle dot only between two l's under .cat",
            check: unsafe_middle_dot,
        },
        Rule {
            name: "tld-specific-characters",
            step: "thorn and eth only under .is and .fo, schwa only under .az",
            check: tld_specific_characters,
        },
        Rule {
            name: "modifier-quotes",
            step: "modifier letters that read as quotes (U+02BB, U+02BC)",
            check: quote_modifier_letters,
        },
        Rule {
            name: "cjk-ideograph",
            step: "an ideograph that reads as Latin or punctuation beside a character that is not CJK or a digit",
            check: cjk_ideograph,
        },
        Rule {
            name: "mixed-numbers",
            step: "digits of more than one numbering system",
            check: mixed_numbers,
        },
        Rule {
            name: "repeated-mark",
            step: "the same nonspacing mark twice in a row",
            check: repeated_mark,
        },
        Rule {
            name: "mark-script",
            step: "a nonspacing mark whose scripts do not include the letter's",
            check: mark_script,
        },
        Rule {
            name: "dotless-i-with-mark",
            step: "dotless i with a mark above",
            check: dotless_i_with_mark,
        },
        Rule {
            name: "digit-lookalikes",
            step: "only digits and letters that look like digits",
            check: digit_lookalike,
        },
        Rule {
            name: "cyrillic-confusable",
            step: "Cyrillic letters that all look Latin, under a TLD that is not Cyrillic",
            check: cyrillic_confusable,
        },
        Rule {
            name: "thai-confusable",
            step: "Thai letters that all look Latin, outside .th",
            check: thai_confusable,
        },
    ],
    host_rules: &[],
};

/// The default `network.IDN.blocklist_chars`: spaces, slash and full stop look-alikes,
/// invisible and format characters, fractions, and a few others, as ranges.
const BLOCKLIST: &[(char, char)] = &[
    ('\u{0020}', '\u{0020}'),
    ('\u{00A0}', '\u{00A0}'),
    ('\u{00BC}', '\u{00BE}'),
    ('\u{0138}', '\u{0138}'),
    ('\u{01C3}', '\u{01C3}'),
    ('\u{02D0}', '\u{02D0}'),
    ('\u{0337}', '\u{0338}'),
    ('\u{0589}', '\u{058A}'),
    ('\u{05C3}', '\u{05C3}'),
    ('\u{05F4}', '\u{05F4}'),
    ('\u{0609}', '\u{060A}'),
    ('\u{066A}', '\u{066A}'),
    ('\u{06D4}', '\u{06D4}'),
    ('\u{0701}', '\u{0704}'),
    ('\u{115F}', '\u{1160}'),
    ('\u{1735}', '\u{1735}'),
    ('\u{2000}', '\u{200B}'),
    ('\u{200E}', '\u{2010}'),
    ('\u{2019}', '\u{2019}'),
    ('\u{2024}', '\u{2024}'),
    ('\u{2027}', '\u{202F}'),
    ('\u{2039}', '\u{203A}'),
    ('\u{2041}', '\u{2041}'),
    ('\u{2044}', '\u{2044}'),
    ('\u{2052}', '\u{2052}'),
    ('\u{205F}', '\u{205F}'),
    ('\u{2153}', '\u{215F}'),
    ('\u{2215}', '\u{2215}'),
    ('\u{2236}', '\u{2236}'),
    ('\u{23AE}', '\u{23AE}'),
    ('\u{2571}', '\u{2571}'),
    ('\u{29F6}', '\u{29F6}'),
    ('\u{29F8}', '\u{29F8}'),
    ('\u{2AFB}', '\u{2AFB}'),
    ('\u{2AFD}', '\u{2AFD}'),
    ('\u{2FF0}', '\u{2FFB}'),
    ('\u{3000}', '\u{3000}'),
    ('\u{3002}', '\u{3002}'),
    ('\u{3014}', '\u{3015}'),
    ('\u{3033}', '\u{3033}'),
    ('\u{30A0}', '\u{30A0}'),
    ('\u{3164}', '\u{3164}'),
    ('\u{321D}', '\u{321E}'),
    ('\u{33AE}', '\u{33AF}'),
    ('\u{33C6}', '\u{33C6}'),
    ('\u{33DF}', '\u{33DF}'),
    ('\u{FE14}', '\u{FE15}'),
    ('\u{FE3F}', '\u{FE3F}'),
    ('\u{FE5D}', '\u{FE5E}'),
    ('\u{FEFF}', '\u{FEFF}'),
    ('\u{FF0E}', '\u{FF0F}'),
    ('\u{FF61}', '\u{FF61}'),
    ('\u{FFA0}', '\u{FFA0}'),
    ('\u{FFF9}', '\u{FFFD}'),
];

fn is_blocklisted(c: char) -> bool {
    BLOCKLIST
        .binary_search_by(|&(lo, hi)| {
            if hi < c {
                std::cmp::Ordering::Less
            } else if lo > c {
                std::cmp::Ordering::Greater
            } else {
                std::cmp::Ordering::Equal
            }
        })
        .is_ok()
}

fn blocklisted(label: &LabelContext<'_>, _: &HostContext<'_>) -> Option<Vec<char>> {
    any(label
        .chars
        .iter()
        .copied()
        .filter(|&c| is_blocklisted(c))
        .collect())
}

fn restricted(label: &LabelContext<'_>, _: &HostContext<'_>) -> Option<Vec<char>> {
    any(outside_browser_profile(label))
}

/// Firefox combines the script of each code point (not its extensions) into a logical
/// script: any one script; or Han, hiragana, katakana and Latin (Japanese); Han, Bopomofo and
/// Latin (Chinese); Han, Hangul and Latin (Korean).
fn illegal_script_combination(label: &LabelContext<'_>, _: &HostContext<'_>) -> Option<Vec<char>> {
    use Script::{Bopomofo, Han, Hangul, Hiragana, Katakana, Latin};
    const COMBINATIONS: &[&[Script]] = &[
        &[Han, Hiragana, Katakana, Latin],
        &[Han, Bopomofo, Latin],
        &[Han, Hangul, Latin],
    ];
    let scripts = &label.scripts;
    if scripts.len() <= 1
        || COMBINATIONS
            .iter()
            .any(|combo| scripts.iter().all(|s| combo.contains(s)))
    {
        return None;
    }
    super::odd_scripts(label)
}

/// What Firefox's loop knows at each code point: the code points, and the script of the last
/// code point before each that has one (its "last script"), computed in one pass.
struct Walk<'a> {
    chars: &'a [char],
    last: Vec<Option<Script>>,
}

impl Walk<'_> {
    fn last_script(&self, i: usize) -> Option<Script> {
        self.last[i]
    }

    fn next_script(&self, i: usize) -> Option<Script> {
        self.chars.get(i + 1).map(|&c| script_of(c))
    }
}

fn find(
    label: &LabelContext<'_>,
    refuses: impl Fn(&Walk<'_>, usize, char) -> bool,
) -> Option<Vec<char>> {
    let chars = &label.chars;
    let mut last = Vec::with_capacity(chars.len());
    let mut current = None;
    for &c in chars {
        last.push(current);
        let s = script_of(c);
        if !matches!(s, Script::Common | Script::Inherited) {
            current = Some(s);
        }
    }
    let walk = Walk { chars, last };
    (0..chars.len()).find_map(|i| refuses(&walk, i, chars[i]).then(|| vec![chars[i]]))
}

fn is_kana(s: Option<Script>) -> bool {
    matches!(s, Some(Script::Hiragana | Script::Katakana))
}

fn is_japanese(s: Option<Script>) -> bool {
    matches!(s, Some(Script::Han | Script::Hiragana | Script::Katakana))
}

fn prolonged_sound_mark(label: &LabelContext<'_>, _: &HostContext<'_>) -> Option<Vec<char>> {
    find(label, |w, i, c| {
        c == '\u{30FC}' && !is_kana(w.last_script(i))
    })
}

fn kana_he(label: &LabelContext<'_>, _: &HostContext<'_>) -> Option<Vec<char>> {
    find(label, |w, i, c| {
        let beside = |s: Script| w.last_script(i) == Some(s) || w.next_script(i) == Some(s);
        (('\u{3078}'..='\u{307A}').contains(&c) && beside(Script::Katakana))
            || (('\u{30D8}'..='\u{30DA}').contains(&c) && beside(Script::Hiragana))
    })
}

fn katakana_iteration_mark(label: &LabelContext<'_>, _: &HostContext<'_>) -> Option<Vec<char>> {
    find(label, |w, i, c| {
        matches!(c, '\u{30FD}' | '\u{30FE}') && w.last_script(i) != Some(Script::Katakana)
    })
}

fn cjk_slash(label: &LabelContext<'_>, _: &HostContext<'_>) -> Option<Vec<char>> {
    if label.chars.len() <= 1 {
        return None;
    }
    find(label, |w, i, c| {
        SLASH_LOOKALIKES.contains(&c)
            && !is_japanese(w.last_script(i))
            && !is_japanese(w.next_script(i))
    })
}

fn katakana_middle_dot(label: &LabelContext<'_>, _: &HostContext<'_>) -> Option<Vec<char>> {
    find(label, |w, i, c| {
        c == '\u{30FB}'
            && (w.last_script(i) == Some(Script::Latin) || w.next_script(i) == Some(Script::Latin))
    })
}

fn mark_after_non_lgc(label: &LabelContext<'_>, _: &HostContext<'_>) -> Option<Vec<char>> {
    find(label, |w, i, c| {
        ('\u{0300}'..='\u{0339}').contains(&c)
            && !matches!(
                w.last_script(i),
                Some(Script::Latin | Script::Greek | Script::Cyrillic)
            )
    })
}

fn tld_specific_characters(label: &LabelContext<'_>, host: &HostContext<'_>) -> Option<Vec<char>> {
    any(tld_restricted_letters(label, host))
}

fn cjk_ideograph(label: &LabelContext<'_>, _: &HostContext<'_>) -> Option<Vec<char>> {
    find(label, |w, i, c| {
        let fits = |s: Option<Script>| {
            matches!(
                s,
                Some(Script::Bopomofo | Script::Hiragana | Script::Katakana | Script::Han)
            )
        };
        let before_bad = i > 0 && !fits(w.last_script(i)) && !w.chars[i - 1].is_ascii_digit();
        let after_bad =
            i + 1 < w.chars.len() && !fits(w.next_script(i)) && !w.chars[i + 1].is_ascii_digit();
        IDEOGRAPH_LOOKALIKES.contains(&c) && (before_bad || after_bad)
    })
}

fn is_mark(c: char) -> bool {
    super::is_nonspacing_mark(c)
}

fn repeated_mark(label: &LabelContext<'_>, _: &HostContext<'_>) -> Option<Vec<char>> {
    label
        .chars
        .windows(2)
        .find_map(|w| (w[0] == w[1] && is_mark(w[1])).then(|| vec![w[1]]))
}

fn mark_script(label: &LabelContext<'_>, _: &HostContext<'_>) -> Option<Vec<char>> {
    find(label, |w, i, c| {
        if !is_mark(c) {
            return false;
        }
        let Some(last) = w.last_script(i) else {
            return false;
        };
        let ext = unicode_script::UnicodeScript::script_extension(&c);
        // A mark of Common or Inherited script goes with any letter.
        !(ext.is_common() || ext.is_inherited() || has_script_extension(c, last))
    })
}

fn dotless_i_with_mark(label: &LabelContext<'_>, _: &HostContext<'_>) -> Option<Vec<char>> {
    let chars = &label.chars;
    let mut base = None;
    for &c in chars {
        if is_mark(c) {
            if base == Some('\u{0131}') && matches!(c, '\u{0300}'..='\u{0314}' | '\u{031A}') {
                return Some(vec!['\u{0131}', c]);
            }
        } else {
            base = Some(c);
        }
    }
    None
}

/// Firefox's Cyrillic letters that look Latin.
const CYRILLIC_LOOKALIKES: &str = "аысԁеԍһіюкјӏморԗԛѕԝхуъьҽпгѵѡ";
/// Firefox's Thai letters that look Latin (in the fonts of every platform).
const THAI_LOOKALIKES: &str = "บพฟรเแ๐";

fn cyrillic_confusable(label: &LabelContext<'_>, host: &HostContext<'_>) -> Option<Vec<char>> {
    whole_script_confusable(label, host, |script, c| {
        script == Script::Cyrillic && CYRILLIC_LOOKALIKES.contains(c)
    })
}

fn thai_confusable(label: &LabelContext<'_>, host: &HostContext<'_>) -> Option<Vec<char>> {
    whole_script_confusable(label, host, |script, c| {
        script == Script::Thai && THAI_LOOKALIKES.contains(c)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_blocklist_is_sorted_and_searchable() {
        assert!(BLOCKLIST.windows(2).all(|w| w[0].1 < w[1].0));
        assert!(BLOCKLIST.iter().all(|&(lo, hi)| lo <= hi));
        for &(lo, hi) in BLOCKLIST {
            assert!(is_blocklisted(lo) && is_blocklisted(hi));
        }
        assert!(!is_blocklisted('a'));
        assert!(!is_blocklisted('\u{2011}'));
    }
}
