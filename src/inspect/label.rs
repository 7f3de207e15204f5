//! The label table: what is computed once per label of a domain (its code points, scripts and
//! UTS 39 restriction level) and once per host (its top-level domain), for every policy and
//! every finding to read.

use serde::Serialize;
use std::borrow::Cow;
use unicode_script::{Script, UnicodeScript};
use unicode_security::mixed_script::AugmentedScriptSet;
use unicode_security::{RestrictionLevel, RestrictionLevelDetection};

use super::known::Known;

/// One label of a domain, as the analysis reports it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LabelAnalysis {
    /// As typed in the input (when it can be lined up with the result).
    pub typed: Option<String>,
    pub unicode: String,
    pub ascii: String,
    /// Unicode script names (`Latin`, `Cyrillic`); borrowed for a plain ASCII label.
    pub scripts: Cow<'static, [&'static str]>,
    /// UTS 39 restriction level of the Unicode label.
    pub restriction: &'static str,
}

/// A label with what the rules ask of it, computed once.
#[derive(Debug)]
pub struct LabelContext<'a> {
    pub unicode: &'a str,
    pub ascii: &'a str,
    /// Its code points; empty for a plain ASCII label (not "xn--"), which no rule reads.
    pub chars: Vec<char>,
    /// The scripts of its code points, without Common, Inherited and Unknown, in order of
    /// first appearance; borrowed for a plain ASCII label (most of them), which has at most
    /// Latin.
    pub scripts: Cow<'static, [Script]>,
    pub level: RestrictionLevel,
    /// The restriction level of its scripts alone, whatever the identifier profile says of
    /// its code points (browsers allow some that UTS 39 now restricts).
    pub script_level: RestrictionLevel,
    /// The code points as typed, with their positions in the input (empty when the typed host
    /// does not line up label by label with the result).
    pub typed: &'a [(usize, char)],
}

impl<'a> LabelContext<'a> {
    pub fn new(unicode: &'a str, ascii: &'a str, typed: &'a [(usize, char)]) -> Self {
        // Most labels are plain ASCII, which no rule reads code point by code point: their
        // script is Latin if they have a letter, and nothing more is kept.
        if unicode.is_ascii() && !ascii.starts_with("xn--") {
            let latin = unicode.bytes().any(|b| b.is_ascii_alphabetic());
            return LabelContext {
                unicode,
                ascii,
                chars: Vec::new(),
                scripts: Cow::Borrowed(if latin { &[Script::Latin] } else { &[] }),
                level: RestrictionLevel::ASCIIOnly,
                script_level: RestrictionLevel::ASCIIOnly,
                typed,
            };
        }
        let chars: Vec<char> = unicode.chars().collect();
        let mut scripts = Vec::new();
        for &c in &chars {
            let s = script_of(c);
            if !is_scriptless(s) && !scripts.contains(&s) {
                scripts.push(s);
            }
        }
        let (level, script_level) = if unicode.is_ascii() {
            (RestrictionLevel::ASCIIOnly, RestrictionLevel::ASCIIOnly)
        } else {
            (
                unicode.detect_restriction_level(),
                script_restriction_level(&chars),
            )
        };
        LabelContext {
            unicode,
            ascii,
            chars,
            scripts: Cow::Owned(scripts),
            level,
            script_level,
            typed,
        }
    }

    pub fn is_ascii(&self) -> bool {
        self.unicode.is_ascii()
    }

    /// Whether domain to Unicode could not decode this label (an invalid "xn--" label stays
    /// in Punycode).
    pub fn undecodable(&self) -> bool {
        self.unicode == self.ascii && self.ascii.starts_with("xn--") && self.unicode.is_ascii()
    }

    /// `points` with their typed positions, for a finding (those that cannot be placed are
    /// left out of the positions but not of the finding's detail).
    pub fn placed(&self, points: &[char]) -> Vec<(usize, char)> {
        // One pass over the typed label: a hostile label of a million look-alikes must not
        // cost a million times a million.
        let wanted: std::collections::HashSet<char> = points.iter().copied().collect();
        self.typed
            .iter()
            .copied()
            .filter(|(_, c)| wanted.contains(c))
            .collect()
    }
}

/// UTS 39's restriction level detection without its first step (a code point outside the
/// identifier profile makes the string "unrestricted"): the scripts alone decide.
fn script_restriction_level(chars: &[char]) -> RestrictionLevel {
    let mut set = AugmentedScriptSet::default();
    let mut without_latin = AugmentedScriptSet::default();
    for &c in chars {
        let of_c = AugmentedScriptSet::for_char(c);
        set.intersect_with(of_c);
        if !of_c.base.contains_script(Script::Latin) {
            without_latin.intersect_with(of_c);
        }
    }
    if !set.is_empty() {
        RestrictionLevel::SingleScript
    } else if without_latin.kore || without_latin.hanb || without_latin.jpan {
        RestrictionLevel::HighlyRestrictive
    } else if without_latin.base.len() == 1
        && without_latin
            .base
            .iter()
            .next()
            .is_some_and(|s| s.is_recommended() && s != Script::Cyrillic && s != Script::Greek)
    {
        RestrictionLevel::ModeratelyRestrictive
    } else {
        RestrictionLevel::MinimallyRestrictive
    }
}

/// The host the labels belong to.
#[derive(Debug)]
pub struct HostContext<'a> {
    /// The serialized (ASCII) domain.
    pub ascii: &'a str,
    pub unicode: &'a str,
    /// The last non-empty label, ASCII and Unicode (`xn--p1ai`, `рф`).
    pub tld: &'a str,
    pub tld_unicode: &'a str,
    pub known: &'a Known,
    /// The platform whose browser builds the platform-specific rules follow.
    pub platform: super::policy::chromium::Platform,
    /// The known domain the host reads as once folded (computed on first use: a policy and a
    /// finding both ask).
    folded: std::cell::OnceCell<Option<&'static str>>,
}

impl<'a> HostContext<'a> {
    pub fn new(ascii: &'a str, unicode: &'a str, known: &'a Known) -> Self {
        HostContext {
            ascii,
            unicode,
            tld: last_label(ascii),
            tld_unicode: last_label(unicode),
            known,
            platform: super::policy::chromium::platform(),
            folded: std::cell::OnceCell::new(),
        }
    }

    /// The known domain one of the host's last labels read as, diacritics folded away
    /// ([`super::lookalike::imitated_suffix`]).
    pub fn folded_imitation(&self) -> Option<&'static str> {
        *self
            .folded
            .get_or_init(|| super::lookalike::imitated_suffix(self.unicode, self.known))
    }
}

/// The last non-empty label of `name` (`s.trim_end_matches('.').rsplit('.').next()`, read as
/// bytes: "." is ASCII, and the general searchers cost more than these few bytes).
fn last_label(name: &str) -> &str {
    let bytes = name.as_bytes();
    let end = bytes.iter().rposition(|&b| b != b'.').map_or(0, |i| i + 1);
    let start = bytes[..end]
        .iter()
        .rposition(|&b| b == b'.')
        .map_or(0, |dot| dot + 1);
    &name[start..end]
}

/// The script of `c`, without a table lookup for ASCII (letters are Latin, the rest Common).
pub fn script_of(c: char) -> Script {
    match c {
        'a'..='z' | 'A'..='Z' => Script::Latin,
        _ if c.is_ascii() => Script::Common,
        _ => c.script(),
    }
}

pub fn is_scriptless(s: Script) -> bool {
    matches!(s, Script::Common | Script::Inherited | Script::Unknown)
}

/// Whether the Script_Extensions of `c` name `script` (as `\p{scx=…}` does: a Common or
/// Inherited code point is in no script).
pub fn has_script_extension(c: char, script: Script) -> bool {
    if c.is_ascii() {
        return script_of(c) == script;
    }
    let ext = c.script_extension();
    !ext.is_common() && !ext.is_inherited() && ext.contains_script(script)
}

pub fn restriction_name(level: RestrictionLevel) -> &'static str {
    match level {
        RestrictionLevel::ASCIIOnly => "ASCII-only",
        RestrictionLevel::SingleScript => "single script",
        RestrictionLevel::HighlyRestrictive => "highly restrictive",
        RestrictionLevel::ModeratelyRestrictive => "moderately restrictive",
        RestrictionLevel::MinimallyRestrictive => "minimally restrictive",
        RestrictionLevel::Unrestricted => "unrestricted",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use unicode_security::GeneralSecurityProfile;

    #[test]
    fn the_script_level_is_uts39s_level_for_identifier_characters() {
        let labels = [
            "bücher",
            "аррӏе",
            "раypal",
            "例え",
            "ドメイン名例",
            "eコマース",
            "hello中国",
            "abc・def",
            "ցօօg",
            "πλάτων",
            "αβγabc",
            "한국어abc",
            "注音",
            "a١",
            "ŀl",
        ];
        for label in labels {
            let chars: Vec<char> = label.chars().collect();
            if chars.iter().all(|c| c.identifier_allowed()) {
                assert_eq!(
                    script_restriction_level(&chars),
                    label.detect_restriction_level(),
                    "{label:?}"
                );
            }
        }
        // Bopomofo is restricted by UTS 39's data now, but Han with Bopomofo is one script.
        let chars: Vec<char> = "注音ㄅㄆ".chars().collect();
        assert_eq!(
            script_restriction_level(&chars),
            RestrictionLevel::SingleScript
        );
    }

    #[test]
    fn the_last_label_is_the_last_one_after_trailing_dots() {
        for name in [
            "",
            ".",
            "..",
            "com",
            "com.",
            "example.com",
            "example.com..",
            "a..b",
            ".a",
            "b\u{fc}cher.de",
            "\u{4f8b}.\u{6e2c}\u{8a66}.",
        ] {
            assert_eq!(
                last_label(name),
                name.trim_end_matches('.').rsplit('.').next().unwrap_or(""),
                "{name:?}"
            );
        }
    }

    #[test]
    fn ascii_scripts_are_latin_and_common() {
        for c in (0u8..128).map(char::from) {
            assert_eq!(script_of(c), c.script(), "{c:?}");
            assert_eq!(!is_scriptless(c.script()), c.is_ascii_alphabetic(), "{c:?}");
            assert_eq!(
                has_script_extension(c, Script::Latin),
                c.is_ascii_alphabetic()
            );
            assert!(!has_script_extension(c, Script::Katakana), "{c:?}");
        }
        // The kana context marks belong to both kana scripts, and to no other.
        for c in ['\u{30FC}', '\u{30FB}'] {
            assert!(has_script_extension(c, Script::Katakana), "{c:?}");
            assert!(has_script_extension(c, Script::Hiragana), "{c:?}");
            assert!(!has_script_extension(c, Script::Latin), "{c:?}");
        }
        // Digits are Common: in no script's extensions.
        assert!(!has_script_extension('\u{0661}', Script::Katakana));
    }
}
