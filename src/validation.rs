//! The URL Standard's validation errors (URL Standard: 1.1 Writing, the validation error table).
//!
//! A validation error never stops the parser by itself; failure is always stated separately.
//! Each error carries a span into the *original* input, counted in code points before leading
//! and trailing C0-control-or-space trimming and before ASCII tab/newline removal, so that a
//! user interface can underline exactly what the person typed.

use serde::{Serialize, Serializer};
use std::fmt;

use crate::url::state::Phase;

pub mod failure;
pub mod fix;

pub use failure::{Failure, NotAUrl};
pub use fix::{Acceptance, Edit, Fix};

macro_rules! validation_errors {
    ($( $(#[$doc:meta])* $variant:ident = $name:literal, $failure:literal, $description:literal; )*) => {
        /// Every validation error the URL Standard names, in the order of its table.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum ValidationErrorKind {
            $( $(#[$doc])* $variant, )*
        }

        impl ValidationErrorKind {
            /// All kinds, in the order of the standard's table.
            pub const ALL: &'static [ValidationErrorKind] = &[$(ValidationErrorKind::$variant),*];

            /// The name exactly as the standard's table writes it, e.g. `IPv4-non-decimal-part`.
            pub const fn name(self) -> &'static str {
                match self { $(ValidationErrorKind::$variant => $name,)* }
            }

            /// What the table's "Failure" column says: `"Yes"`, `"·"` (never), or the condition.
            pub const fn failure_column(self) -> &'static str {
                match self { $(ValidationErrorKind::$variant => $failure,)* }
            }

            /// A one-line description in our own words.
            pub const fn description(self) -> &'static str {
                match self { $(ValidationErrorKind::$variant => $description,)* }
            }

            /// Looks a kind up by the standard's name (exact, case-sensitive).
            pub fn from_name(name: &str) -> Option<Self> {
                match name { $($name => Some(ValidationErrorKind::$variant),)* _ => None }
            }
        }
    };
}

validation_errors! {
    // URL Standard: validation error table, "IDNA".
    DomainToAscii = "domain-to-ASCII", "when beStrict is true, or the domain is not ASCII and relaxed ToASCII also fails",
        "the host is not a valid domain under strict Unicode ToASCII (UTS 46)";
    // URL Standard: validation error table, "Host parsing".
    DomainPercentEncoded = "domain-percent-encoded", "·",
        "the host contains a percent-encoded byte, which is decoded before IDNA processing";
    HostInvalidCodePoint = "host-invalid-code-point", "Yes",
        "an opaque host contains a forbidden host code point";
    Ipv4NonAsciiInput = "IPv4-non-ASCII-input", "·",
        "the host became an IPv4 address only after IDNA mapped non-ASCII input (fullwidth digits, other full stops)";
    Ipv4EmptyPart = "IPv4-empty-part", "·",
        "the IPv4 address ends with a dot";
    Ipv4TooFewParts = "IPv4-too-few-parts", "·",
        "the IPv4 address has fewer than four parts; the last part fills the remaining bytes";
    Ipv4TooManyParts = "IPv4-too-many-parts", "Yes",
        "the IPv4 address has more than four parts";
    Ipv4NonNumericPart = "IPv4-non-numeric-part", "Yes",
        "a part of what ends like an IPv4 address is not a number";
    Ipv4NonDecimalPart = "IPv4-non-decimal-part", "·",
        "an IPv4 part is written in hexadecimal (0x) or octal (leading 0)";
    Ipv4OutOfRangePart = "IPv4-out-of-range-part", "only if applicable to the last part",
        "an IPv4 part is greater than 255";
    Ipv6Unclosed = "IPv6-unclosed", "Yes",
        "an IPv6 address is missing its closing ]";
    Ipv6InvalidCompression = "IPv6-invalid-compression", "Yes",
        "an IPv6 address begins with a single : instead of ::";
    Ipv6TooManyPieces = "IPv6-too-many-pieces", "Yes",
        "an IPv6 address has more than eight pieces";
    Ipv6MultipleCompression = "IPv6-multiple-compression", "Yes",
        "an IPv6 address uses :: more than once";
    Ipv6InvalidCodePoint = "IPv6-invalid-code-point", "Yes",
        "an IPv6 address contains something other than hex digits and colons, or ends early";
    Ipv6TooFewPieces = "IPv6-too-few-pieces", "Yes",
        "an IPv6 address without :: has fewer than eight pieces";
    Ipv6PieceLeadingZero = "IPv6-piece-leading-zero", "·",
        "an IPv6 piece is written with a leading zero";
    Ipv4InIpv6TooManyPieces = "IPv4-in-IPv6-too-many-pieces", "Yes",
        "an IPv6 address with an embedded IPv4 address has more than six pieces before it";
    Ipv4InIpv6InvalidCodePoint = "IPv4-in-IPv6-invalid-code-point", "Yes",
        "the embedded IPv4 address has an empty part, a non-digit, a leading zero or too many parts";
    Ipv4InIpv6OutOfRangePart = "IPv4-in-IPv6-out-of-range-part", "Yes",
        "a part of the embedded IPv4 address is greater than 255";
    Ipv4InIpv6TooFewParts = "IPv4-in-IPv6-too-few-parts", "Yes",
        "the embedded IPv4 address has fewer than four parts";
    // URL Standard: validation error table, "URL parsing".
    InvalidUrlUnit = "invalid-URL-unit", "·",
        "a code point that is neither a URL code point nor part of a percent-encoded byte";
    SpecialSchemeMissingFollowingSolidus = "special-scheme-missing-following-solidus", "·",
        "a special scheme is not followed by exactly \"//\"";
    MissingSchemeNonRelativeUrl = "missing-scheme-non-relative-URL", "Yes",
        "there is no scheme, and no base URL that a relative reference could use";
    InvalidReverseSolidus = "invalid-reverse-solidus", "·",
        "a backslash is used where a special URL expects a slash";
    InvalidCredentials = "invalid-credentials", "·",
        "the URL includes a username or password";
    HostMissing = "host-missing", "Yes",
        "a special URL, or one with credentials or a port, has no host";
    PortOutOfRange = "port-out-of-range", "Yes",
        "the port is greater than 65535";
    PortInvalid = "port-invalid", "Yes",
        "the port contains something other than ASCII digits";
    FileInvalidWindowsDriveLetter = "file-invalid-Windows-drive-letter", "·",
        "a relative reference starts with a Windows drive letter against a file: base";
    FileInvalidWindowsDriveLetterHost = "file-invalid-Windows-drive-letter-host", "·",
        "a file: URL's host is a Windows drive letter; it is taken as the first path segment";
}

impl fmt::Display for ValidationErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl Serialize for ValidationErrorKind {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.name())
    }
}

/// A half-open range of code point offsets into the original input.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Span {
    pub start: usize,
    pub end: usize,
}

/// One validation error, located in the original input; or, past [`REPEAT_LIMIT`] errors of
/// its kind, the entry that stands for all the later ones ([`ValidationError::repeats`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ValidationError {
    #[serde(rename = "type")]
    pub kind: ValidationErrorKind,
    /// The error's span; of a collapsed entry, the first error it stands for.
    #[serde(flatten)]
    pub span: Span,
    /// The parser state (or preprocessing step) that raised it.
    pub state: Phase,
    pub message: &'static str,
    /// Set on the entry that stands for the errors of its kind past [`REPEAT_LIMIT`].
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    pub repeats: Option<Repeats>,
}

/// The errors of one kind past the first [`REPEAT_LIMIT`], folded into one entry: how many, and
/// where the last one is (the entry's own span is the first's).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Repeats {
    pub count: usize,
    pub last: Span,
}

/// Errors of one kind kept one by one; the later ones of that kind become one entry with a
/// count ([`Repeats`]). An input that repeats an error (a line of `%`, an invalid-URL-unit per
/// code point) then makes at most this many entries per kind, and a report, its JSON and its
/// text stay within a small multiple of the input instead of a few hundred bytes per repeat.
pub const REPEAT_LIMIT: usize = 100;

impl ValidationError {
    pub fn new(kind: ValidationErrorKind, span: Span, state: Phase) -> Self {
        ValidationError {
            kind,
            span,
            state,
            message: kind.description(),
            repeats: None,
        }
    }

    /// How many errors this entry stands for (1, or the count of a collapsed entry).
    pub fn count(&self) -> usize {
        self.repeats.map_or(1, |r| r.count)
    }
}

/// The errors of one parse as they are raised, with byte spans of the original input, each
/// kind's past [`REPEAT_LIMIT`] folded into one entry. What the parser's tracers collect into.
#[derive(Clone, Debug, Default)]
pub struct RawErrors {
    entries: Vec<RawError>,
    /// For each kind: how many were raised, and the index of its collapsed entry plus one.
    seen: [(u32, u32); KINDS],
}

/// One entry of [`RawErrors`]: byte spans, not yet code points.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RawError {
    pub kind: ValidationErrorKind,
    pub span: std::ops::Range<usize>,
    pub phase: Phase,
    /// The count and the last one's span, for a collapsed entry.
    pub repeats: Option<(usize, std::ops::Range<usize>)>,
}

const KINDS: usize = ValidationErrorKind::ALL.len();

impl RawErrors {
    /// Adds an error; returns the index of the entry that holds it.
    #[inline]
    pub fn push(
        &mut self,
        kind: ValidationErrorKind,
        span: std::ops::Range<usize>,
        phase: Phase,
    ) -> usize {
        let (seen, collapsed) = &mut self.seen[kind as usize];
        *seen = seen.saturating_add(1);
        if (*seen as usize) <= REPEAT_LIMIT {
            self.entries.push(RawError {
                kind,
                span,
                phase,
                repeats: None,
            });
            return self.entries.len() - 1;
        }
        if *collapsed == 0 {
            self.entries.push(RawError {
                kind,
                span: span.clone(),
                phase,
                repeats: Some((1, span)),
            });
            *collapsed = self.entries.len() as u32;
            return self.entries.len() - 1;
        }
        let index = *collapsed as usize - 1;
        if let Some((count, last)) = &mut self.entries[index].repeats {
            *count += 1;
            *last = span;
        }
        index
    }

    pub fn entries(&self) -> &[RawError] {
        &self.entries
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The entries with spans in code points of `original`, through `map`.
    pub(crate) fn located(
        self,
        mut map: impl FnMut(std::ops::Range<usize>) -> Span,
    ) -> Vec<ValidationError> {
        self.entries
            .into_iter()
            .map(|e| ValidationError {
                repeats: e.repeats.map(|(count, last)| Repeats {
                    count,
                    last: map(last),
                }),
                ..ValidationError::new(e.kind, map(e.span), e.phase)
            })
            .collect()
    }
}

impl fmt::Display for ValidationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} at {}..{} ({}): {}",
            self.kind, self.span.start, self.span.end, self.state, self.message
        )?;
        match self.repeats {
            Some(r) => write!(f, " {}", r),
            None => Ok(()),
        }
    }
}

impl fmt::Display for Repeats {
    /// `(×4194204 from here, the last at 8388606..8388607)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "(×{} from here, the last at {}..{})",
            self.count, self.last.start, self.last.end
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_are_unique() {
        let mut seen = std::collections::HashSet::new();
        for &kind in ValidationErrorKind::ALL {
            assert!(seen.insert(kind.name()), "duplicate name {}", kind.name());
            assert_eq!(ValidationErrorKind::from_name(kind.name()), Some(kind));
        }
        assert_eq!(ValidationErrorKind::ALL.len(), 31);
    }

    /// The first REPEAT_LIMIT errors of a kind are kept one by one, the rest make one entry
    /// with their count and the first and last spans; other kinds are kept in their order.
    #[test]
    fn repeats_past_the_limit_become_one_entry() {
        use crate::url::state::{Phase, State};
        let phase = Phase::State(State::Path);
        let mut raw = RawErrors::default();
        let unit = ValidationErrorKind::InvalidUrlUnit;
        for i in 0..REPEAT_LIMIT + 5 {
            raw.push(unit, i..i + 1, phase);
        }
        let other = raw.push(ValidationErrorKind::InvalidReverseSolidus, 900..901, phase);
        let last = raw.push(unit, 1000..1001, phase);
        let errors = raw.located(|r| Span {
            start: r.start,
            end: r.end,
        });
        assert_eq!(errors.len(), REPEAT_LIMIT + 2, "{errors:#?}");
        assert_eq!(last, REPEAT_LIMIT);
        assert_eq!(other, REPEAT_LIMIT + 1);
        assert!(errors[..REPEAT_LIMIT].iter().all(|e| e.repeats.is_none()));
        let folded = &errors[REPEAT_LIMIT];
        assert_eq!(
            folded.span,
            Span {
                start: REPEAT_LIMIT,
                end: REPEAT_LIMIT + 1
            }
        );
        assert_eq!(
            folded.repeats,
            Some(Repeats {
                count: 6,
                last: Span {
                    start: 1000,
                    end: 1001
                }
            })
        );
        let total: usize = errors.iter().map(ValidationError::count).sum();
        assert_eq!(total, REPEAT_LIMIT + 7);
        let json = serde_json::to_value(folded).expect("JSON");
        assert_eq!(json["count"], 6);
        assert_eq!(
            json["last"],
            serde_json::json!({"start": 1000, "end": 1001})
        );
        assert!(serde_json::to_value(&errors[0])
            .expect("JSON")
            .get("count")
            .is_none());
    }
}
