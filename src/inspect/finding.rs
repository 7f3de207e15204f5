//! Findings: a stable id, a severity, a title, an explanation in our words, and the code points
//! involved with their positions in the input.

use serde::Serialize;
use std::fmt;

use crate::validation::Span;

/// How much a finding matters.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// Worth knowing (a legitimate IDN, an uppercase letter mapped).
    Info,
    /// Could mislead (credentials, non-canonical IPv4, deviation characters, internal ranges).
    Warn,
    /// Built to deceive (homographs, look-alikes, credentials shaped like a host, bidi
    /// controls, parser differentials on the host).
    Danger,
}

impl Severity {
    pub fn name(self) -> &'static str {
        match self {
            Severity::Info => "info",
            Severity::Warn => "warn",
            Severity::Danger => "danger",
        }
    }
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A code point of the input, as `U+XXXX NAME`, with its code point offset.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CodePointRef {
    pub position: usize,
    pub code_point: String,
}

/// `s` between plain double quotes, for a finding's detail: user data as it reads, with only
/// what [`crate::display`] escapes for hostile input escaped (never Rust's debug quoting, which
/// doubles every backslash: curl's userinfo `example.com\` is shown as it is).
pub fn quoted(s: &str) -> String {
    let shown = crate::display::escape(s, crate::display::EscapeStyle::Backslash);
    let mut out = String::with_capacity(shown.len() + 2);
    out.push('"');
    out.push_str(&shown);
    out.push('"');
    out
}

/// `U+0430 CYRILLIC SMALL LETTER A`.
pub fn describe(c: char) -> String {
    // By hand rather than with `format!`: the name comes in many small pieces, each of which
    // would take a trip through the formatter and a reallocation, and a homograph host
    // describes every one of its code points.
    let code = u32::from(c);
    let digits = (32 - code.leading_zeros()).div_ceil(4).max(4);
    let mut out = String::with_capacity(64);
    out.push_str("U+");
    for shift in (0..digits).rev() {
        out.push(char::from(
            b"0123456789ABCDEF"[(code >> (4 * shift) & 0xF) as usize],
        ));
    }
    if let Some(name) = unicode_names2::name(c) {
        out.push(' ');
        out.extend(name);
    }
    out
}

/// Declares [`FindingId`]: each finding's stable id, severity and title in one place.
macro_rules! findings {
    ($($(#[$doc:meta])* $name:ident = ($id:literal, $severity:ident, $title:literal),)*) => {
        /// Every finding the host analysis can report.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum FindingId {
            $($(#[$doc])* $name,)*
        }

        impl FindingId {
            pub const ALL: &'static [FindingId] = &[$(FindingId::$name,)*];

            /// The stable id, as in the JSON output.
            pub const fn id(self) -> &'static str {
                match self {
                    $(FindingId::$name => $id,)*
                }
            }

            pub const fn severity(self) -> Severity {
                match self {
                    $(FindingId::$name => Severity::$severity,)*
                }
            }

            pub const fn title(self) -> &'static str {
                match self {
                    $(FindingId::$name => $title,)*
                }
            }
        }
    };
}

findings! {
    // The whole input.
    BidiControl = ("bidi-control", Danger, "Bidirectional control characters"),
    InvisibleCodePoint = ("invisible-code-point", Warn, "Invisible code points"),
    BackslashAsSlash = ("backslash-as-slash", Warn, "Backslash taken as a slash"),
    PercentEncodedHost = ("percent-encoded-host", Warn, "Percent-encoded bytes in the host"),
    TabOrNewlineRemoved = ("tab-or-newline-removed", Warn, "Tabs or newlines removed"),
    Trimmed = ("trimmed", Info, "Leading or trailing spaces or controls trimmed"),
    /// `javascript:` and `vbscript:` run code where they are followed.
    ScriptScheme = ("scheme-script", Danger, "A scheme that runs script"),
    /// `data:` carries its own content: the page comes from the URL, not from a host.
    DataScheme = ("scheme-data", Warn, "A scheme that carries its content"),
    /// `file:`, `blob:`, `filesystem:`: local resources, not a place on the network.
    LocalScheme = ("scheme-local", Info, "A local scheme"),
    // Credentials.
    Credentials = ("credentials", Warn, "Credentials in the URL"),
    CredentialsLookLikeHost = ("credentials-look-like-host", Danger, "Credentials shaped like a host"),
    // IP addresses.
    NonCanonicalIpv4 = ("non-canonical-ipv4", Warn, "IPv4 address in a non-canonical form"),
    // Internal destinations (src/inspect/internal.rs), the host as the URL Standard reads it or
    // as a client reads an opaque host.
    /// An address of the table: loopback, private-use, link-local, reserved and the rest.
    InternalAddress = ("internal-address", Warn, "Address of an internal destination"),
    /// A name of the table: `localhost` and the names under it, `.local`, `.internal`.
    InternalName = ("internal-name", Warn, "Name of an internal destination"),
    /// The addresses and names where cloud providers answer with instance credentials.
    CloudMetadata = ("cloud-metadata", Danger, "Cloud metadata endpoint"),
    // Parsers.
    ParserDifferential = ("parser-differential", Danger, "Parsers disagree on the host"),
    /// Every parser that reads the URL goes to one destination, but some refuse it or read no
    /// host: it goes nowhere else.
    ParserRefuses = ("parser-refuses", Info, "Some parsers refuse the URL; those that read it agree"),
    // The gate (`check --allow-host`, `--deny-internal`): judged on every parser's reading.
    /// Some readings go to an allowed destination and others elsewhere: a validator that uses
    /// the first and a client that uses the second let the URL through to a host nobody allowed.
    AllowlistBypass = ("allowlist-bypass", Danger, "Parsers send it to an allowed host and elsewhere"),
    /// No reading goes to an allowed destination, or no reading has a destination at all.
    NotAllowed = ("not-allowed", Danger, "Not an allowed destination"),
    /// A reading goes to a host of the internal table (loopback, private ranges, cloud
    /// metadata) or, for a `file` URL, to the local machine.
    InternalDestination = ("internal-destination", Danger, "An internal destination"),
    // Lookups (`check --resolve`): src/inspect/resolve.rs.
    /// The name resolves to an address of the internal table (under `--deny-internal`, the
    /// gate's `internal-destination` names it instead).
    ResolvesInternal = ("resolves-internal", Warn, "The name resolves to an internal address"),
    /// The lookup gave no address or no answer in time: danger under `--deny-internal`, which
    /// fails closed.
    LookupFailed = ("lookup-failed", Warn, "The name's lookup gave no address"),
    // Domains: the code points of a label.
    MixedScript = ("mixed-script", Danger, "Mixed scripts in one label"),
    WholeScriptConfusable = ("whole-script-confusable", Danger, "Homograph: every letter imitates a Latin one"),
    DigitLookalike = ("digit-lookalike", Warn, "Digits of another script, or letters that look like digits"),
    KanaCjkContext = ("kana-cjk-context", Warn, "Kana or CJK character out of its context"),
    CombiningMark = ("combining-mark", Warn, "Combining mark that hides or fakes a letter"),
    TldRestrictedLetter = ("tld-restricted-letter", Warn, "Letter allowed only under its language's TLD"),
    PunctuationLookalike = ("punctuation-lookalike", Warn, "Punctuation that imitates a hyphen or an apostrophe"),
    LatinMixedWithCjk = ("latin-mixed-with-cjk", Warn, "Non-ASCII Latin mixed with Han, kana or Hangul"),
    HyphensThirdFourth = ("hyphens-3-4", Warn, "Hyphens in the third and fourth positions"),
    DeviationCharacter = ("deviation-character", Warn, "Deviation characters"),
    MappedCodePoints = ("mapped-code-points", Warn, "Code points mapped to others"),
    Uppercase = ("uppercase", Info, "Uppercase letters lowercased"),
    /// `google.com.`: the same DNS name, another origin.
    TrailingDot = ("trailing-dot", Info, "A trailing dot: the same name, another origin"),
    // Domains: what the name imitates.
    LookalikeDomain = ("lookalike-domain", Danger, "Look-alike of a well-known domain"),
    DiacriticLookalike = ("diacritic-lookalike", Danger, "A well-known domain with marks or letter variants"),
    KnownDomainInSubdomain = ("known-domain-in-subdomain", Danger, "A well-known domain spelled out in a longer name"),
    TypoLookalike = ("typo-lookalike", Warn, "One character away from a well-known domain"),
    SwappedCharacters = ("swapped-characters", Warn, "A well-known domain with two characters swapped"),
    Combosquatting = ("combosquatting", Warn, "A well-known name with words added"),
    /// A rule of a browser's display policy that no finding above names: the browser shows
    /// the name as Punycode (symbols and emoji, ASCII punctuation in an IDN label).
    ShownAsPunycode = ("shown-as-punycode", Warn, "A browser shows the name as Punycode"),
    Idn = ("idn", Info, "Internationalised domain name"),
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Finding {
    pub id: &'static str,
    pub severity: Severity,
    pub title: &'static str,
    pub detail: String,
    pub code_points: Vec<CodePointRef>,
    pub spans: Vec<Span>,
}

impl Finding {
    pub fn new(kind: FindingId, detail: String) -> Self {
        Finding {
            id: kind.id(),
            severity: kind.severity(),
            title: kind.title(),
            detail,
            code_points: Vec::new(),
            spans: Vec::new(),
        }
    }

    /// Adds code points (with their positions) and one span per code point.
    pub fn at(mut self, points: impl IntoIterator<Item = (usize, char)>) -> Self {
        for (position, c) in points {
            self.code_points.push(CodePointRef {
                position,
                code_point: describe(c),
            });
            self.spans.push(Span {
                start: position,
                end: position + 1,
            });
        }
        self
    }

    pub fn span(mut self, span: Span) -> Self {
        self.spans.push(span);
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finding_ids_are_unique_and_kebab_case() {
        let mut seen = std::collections::HashSet::new();
        for kind in FindingId::ALL {
            assert!(seen.insert(kind.id()), "{} twice", kind.id());
            assert!(
                kind.id()
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-'),
                "{}",
                kind.id()
            );
            assert!(!kind.title().is_empty());
        }
    }

    #[test]
    fn quoted_text_keeps_backslashes_and_escapes_what_would_hide() {
        assert_eq!(quoted("example.com\\"), "\"example.com\\\"");
        assert_eq!(quoted("a\"b"), "\"a\"b\"");
        assert_eq!(quoted("münchen.de"), "\"münchen.de\"");
        // Controls, bidi controls and invisibles as the display module escapes them.
        assert_eq!(
            quoted("a\u{202E}b\u{200B}\n"),
            "\"a\\u{202E}b\\u{200B}\\n\""
        );
    }

    #[test]
    fn describe_matches_the_formatted_name() {
        let samples = (0..0x3400)
            .step_by(7)
            .chain([
                0x4E00, 0x9FFF, 0xAC00, 0xD7A3, 0xFFFD, 0xFFFF, 0x1_F600, 0x2_0000, 0x10_FFFF,
            ])
            .filter_map(char::from_u32);
        for c in samples {
            let expected = match unicode_names2::name(c) {
                Some(name) => format!("U+{:04X} {name}", u32::from(c)),
                None => format!("U+{:04X}", u32::from(c)),
            };
            assert_eq!(describe(c), expected, "code point {c:?}");
        }
    }
}
