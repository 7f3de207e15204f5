//! Validation errors you can act on: for each kind, whether browsers still accept the URL, and
//! a rewrite of the input that removes the error, as one edit (a span and its replacement).

use serde::Serialize;

use super::{Span, ValidationError, ValidationErrorKind as E};
use crate::url::percent;
use crate::url::record::UrlRecord;
use crate::url::state::{Phase, State};

/// Whether a URL with this error still parses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Acceptance {
    /// The error is only a warning: browsers accept the URL.
    Accepted,
    /// The parser returns failure: browsers reject the URL.
    Rejected,
    /// Depends on where the error is (the standard's table gives the condition).
    Depends,
}

impl E {
    /// What the standard's "Failure" column means for a browser.
    pub fn acceptance(self) -> Acceptance {
        match self.failure_column() {
            "·" => Acceptance::Accepted,
            "Yes" => Acceptance::Rejected,
            _ => Acceptance::Depends,
        }
    }
}

/// One edit of the input: replace the code points in `span` with `replacement`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Edit {
    #[serde(flatten)]
    pub span: Span,
    pub replacement: String,
}

/// A rewrite of the input that removes an error: usually one edit; the leading and trailing
/// code points, or every tab and newline, take one edit each.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Fix {
    pub edits: Vec<Edit>,
    /// Whether the rewritten input parses to the same href (a fix that drops credentials
    /// does not).
    pub same_href: bool,
}

impl Fix {
    fn one(span: Span, replacement: String, same_href: bool) -> Fix {
        Fix {
            edits: vec![Edit { span, replacement }],
            same_href,
        }
    }

    fn deletions(spans: impl Iterator<Item = Span>) -> Option<Fix> {
        let edits: Vec<Edit> = spans
            .map(|span| Edit {
                span,
                replacement: String::new(),
            })
            .collect();
        (!edits.is_empty()).then_some(Fix {
            edits,
            same_href: true,
        })
    }

    /// The fix's edits of `input` in words, the first three and how many more, for the inspector
    /// and the page alike: a deletion reads `{removal} “x”` (`removal` is the verb in the tense
    /// the surface speaks in: "remove" on a button, "removed" in a description), a replacement
    /// `“x” → “y”`. Controls and bidi code points are shown as symbols, never as themselves.
    pub fn in_words(&self, input: &str, removal: &str) -> String {
        let show =
            |s: &str| crate::display::escape(s, crate::display::EscapeStyle::Symbols).into_owned();
        let chars: Vec<char> = input.chars().collect();
        let words: Vec<String> = self
            .edits
            .iter()
            .take(3)
            .map(|e| {
                let old: String = chars[e.span.start.min(chars.len())..e.span.end.min(chars.len())]
                    .iter()
                    .collect();
                if e.replacement.is_empty() {
                    format!("{removal} “{}”", show(&old))
                } else {
                    format!("“{}” → “{}”", show(&old), show(&e.replacement))
                }
            })
            .collect();
        let more = self.edits.len().saturating_sub(3);
        let mut text = words.join(", ");
        if more > 0 {
            text.push_str(&format!(" and {more} more"));
        }
        text
    }
}

/// Computes the fixes of one input's errors. It indexes the input once, so that each fix costs
/// what its span does, not the input's length (an input can raise an error per code point).
#[derive(Debug)]
pub struct Fixer<'a> {
    input: &'a str,
    /// The byte offset of each code point, and the input's length last.
    offsets: Vec<usize>,
    url: Option<&'a UrlRecord>,
    /// The base the input was parsed against, for a rewrite checked by parsing it again.
    base: Option<&'a crate::Url>,
    /// The "|" of the input that the path state wrote as the ":" of a drive letter, and the
    /// rewrite that keeps the drive letter, found once.
    drive_pipe: std::cell::OnceCell<Option<(usize, Fix)>>,
    host_span: Option<Span>,
    /// Code point offsets of the first ":" and of the last "@".
    colon: Option<usize>,
    last_at: Option<usize>,
}

impl<'a> Fixer<'a> {
    /// `url` is what `input` parsed to (`None`: it failed), `host_span` where its host is.
    pub fn new(input: &'a str, url: Option<&'a UrlRecord>, host_span: Option<Span>) -> Self {
        let mut offsets: Vec<usize> = Vec::with_capacity(input.len() + 1);
        let (mut colon, mut last_at) = (None, None);
        for (index, (at, c)) in input.char_indices().enumerate() {
            offsets.push(at);
            match c {
                ':' if colon.is_none() => colon = Some(index),
                '@' => last_at = Some(index),
                _ => {}
            }
        }
        offsets.push(input.len());
        Fixer {
            input,
            offsets,
            url,
            base: None,
            drive_pipe: std::cell::OnceCell::new(),
            host_span,
            colon,
            last_at,
        }
    }

    /// The base URL `input` was parsed against: a relative reference's rewrite is checked
    /// against it (without it, the fixes of a relative reference that need the check are the
    /// ones that change the href).
    pub fn with_base(mut self, base: Option<&'a crate::Url>) -> Self {
        self.base = base;
        self
    }

    fn len(&self) -> usize {
        self.offsets.len() - 1
    }

    /// The "|" that the path state wrote as the ":" of "C:" (step 1.4.1: a Windows drive
    /// letter as a file URL's first segment), if any, and the rewrite that keeps the href:
    /// ":" for the "|", or, where "C:" would start a scheme (a relative reference "C|/x"
    /// against a file base), "/C:" for the letter and the "|". Whether the path state wrote it
    /// depends on the segments before (the path must be empty there: "file:///a/../C|" is
    /// normalized, "file:///C:/C|" keeps its second "|"), so the few "|" shaped as a drive
    /// letter's (an ASCII alpha starting a segment, the segment ending after the "|"; tabs and
    /// newlines are removed before the state machine) are tried in order, each rewrite parsed
    /// again: at most a few parses per input.
    fn drive_pipe(&self) -> Option<&(usize, Fix)> {
        const TRIED: usize = 4;
        self.drive_pipe
            .get_or_init(|| {
                let url = self.url?;
                let crate::url::record::Path::List(segments) = &url.path else {
                    return None;
                };
                let first = segments.first()?;
                if url.scheme != "file"
                    || !crate::url::code_points::is_normalized_windows_drive_letter(first)
                {
                    return None;
                }
                let chars: Vec<char> = self.input.chars().collect();
                // What the state machine reads: the input without its leading and trailing C0
                // controls and spaces, and without tabs and newlines.
                let start = chars.iter().take_while(|c| **c <= ' ').count();
                let end = chars.len()
                    - chars[start..]
                        .iter()
                        .rev()
                        .take_while(|c| **c <= ' ')
                        .count();
                let kept = |i: &usize| !matches!(chars[*i], '\t' | '\n' | '\r');
                let before = |at: usize| (start..at).rev().find(kept).map(|i| chars[i]);
                let after = |at: usize| (at + 1..end).find(kept).map(|i| chars[i]);
                // The letter before a drive letter's "|".
                let letter = |at: usize| {
                    let letter = (start..at).rev().find(kept)?;
                    (chars[letter].eq_ignore_ascii_case(&first.chars().next()?)
                        && matches!(before(letter), None | Some('/' | '\\' | ':'))
                        && matches!(after(at), None | Some('/' | '\\' | '?' | '#')))
                    .then_some(letter)
                };
                let original = crate::Url::parse(self.input, self.base).ok()?;
                let keeps = |fix: &Fix| {
                    crate::Url::parse(&apply(self.input, std::slice::from_ref(fix)), self.base)
                        .is_ok_and(|after| after.href() == original.href())
                };
                chars
                    .iter()
                    .enumerate()
                    .filter(|&(_, c)| *c == '|')
                    .filter_map(|(at, _)| Some((at, letter(at)?)))
                    .take(TRIED)
                    .find_map(|(at, letter)| {
                        let colon = Fix::one(
                            Span {
                                start: at,
                                end: at + 1,
                            },
                            ":".to_owned(),
                            true,
                        );
                        let rooted = Fix::one(
                            Span {
                                start: letter,
                                end: at + 1,
                            },
                            format!("/{}:", chars[letter]),
                            true,
                        );
                        [colon, rooted].into_iter().find(keeps).map(|fix| (at, fix))
                    })
            })
            .as_ref()
    }

    fn text(&self, span: Span) -> &'a str {
        let at = |i: usize| self.offsets[i.min(self.len())];
        &self.input[at(span.start)..at(span.end)]
    }

    /// The rewrite that removes `error`, or `None` when there is none worth suggesting (the
    /// URL fails, or only a change of its meaning would remove the error). The entry that
    /// stands for the repeats of a kind past the limit has none: a rewrite of its first error
    /// would leave the others, and their places between the first and the last are not kept.
    pub fn fix(&self, error: &ValidationError) -> Option<Fix> {
        if error.repeats.is_some() {
            return None;
        }
        let url = self.url?;
        let input = self.input;
        let edit = |span: Span, replacement: String| {
            (self.text(span) != replacement).then(|| Fix::one(span, replacement, true))
        };
        match error.kind {
            // Host parsing: write the host as it is serialized (an IPv4 address in dotted
            // decimal, an IPv6 address compressed, a domain in ASCII, lowercased).
            E::DomainPercentEncoded
            | E::DomainToAscii
            | E::Ipv4NonAsciiInput
            | E::Ipv4EmptyPart
            | E::Ipv4TooFewParts
            | E::Ipv4NonDecimalPart
            | E::Ipv4OutOfRangePart
            | E::Ipv6PieceLeadingZero => {
                let span = self.host_span?;
                let host = url.host.as_ref()?.to_string();
                edit(span, host)
            }
            E::InvalidUrlUnit => match error.state {
                // One error stands for the code points at both ends.
                Phase::TrimControlOrSpace => {
                    let len = self.len();
                    let leading = input.chars().take_while(|c| *c <= ' ').count();
                    let trailing = input.chars().rev().take_while(|c| *c <= ' ').count();
                    let trailing = trailing.min(len - leading);
                    Fix::deletions(
                        [
                            Span {
                                start: 0,
                                end: leading,
                            },
                            Span {
                                start: len - trailing,
                                end: len,
                            },
                        ]
                        .into_iter()
                        .filter(|span| span.start < span.end),
                    )
                }
                // One error stands for every tab and newline.
                Phase::RemoveTabOrNewline => Fix::deletions(
                    input
                        .chars()
                        .enumerate()
                        .filter(|(_, c)| matches!(c, '\t' | '\n' | '\r'))
                        .map(|(i, _)| Span {
                            start: i,
                            end: i + 1,
                        }),
                ),
                Phase::State(state) => {
                    let c = self.text(error.span).chars().next()?;
                    // "C|" is a Windows drive letter, which the path state writes "C:" (step
                    // 1.4.1) when it is a file URL's first segment: there ":" keeps the href,
                    // where "%7C" would make the drive letter an ordinary segment.
                    if c == '|' && state == State::Path {
                        if let Some((_, fix)) =
                            self.drive_pipe().filter(|(at, _)| *at == error.span.start)
                        {
                            return Some(fix.clone());
                        }
                    }
                    if c == '%' {
                        // A "%" not followed by two hex digits stays as it is in the href.
                        return Some(Fix::one(error.span, "%25".to_owned(), false));
                    }
                    let mut encoded = String::new();
                    percent::utf8_percent_encode_char(c, percent::COMPONENT, &mut encoded);
                    // The component encodes c itself when c is in its percent-encode set (or
                    // is not ASCII); otherwise the href keeps c as it is.
                    let set = match state {
                        State::Path => percent::PATH,
                        State::OpaquePath => percent::C0_CONTROL,
                        State::Query if is_special(&url.scheme) => percent::SPECIAL_QUERY,
                        State::Query => percent::QUERY,
                        State::Fragment => percent::FRAGMENT,
                        _ => percent::USERINFO,
                    };
                    let mut by_component = String::new();
                    percent::utf8_percent_encode_char(c, set, &mut by_component);
                    let same_href = by_component == encoded;
                    Some(Fix::one(error.span, encoded, same_href))
                }
            },
            E::InvalidReverseSolidus => edit(error.span, "/".to_owned()),
            // "http:/x" against an http base is a relative reference (special relative or
            // authority state, step 2): without its scheme it means the same, with no error.
            E::SpecialSchemeMissingFollowingSolidus
                if error.state == Phase::State(State::SpecialRelativeOrAuthority) =>
            {
                let start = input.chars().take_while(|c| *c <= ' ').count();
                let end = self.colon? + 1;
                (start < end).then(|| Fix::one(Span { start, end }, String::new(), true))
            }
            // A slash after the authority's two: it goes (a relative "///x" has no scheme
            // whose slashes could be rewritten).
            E::SpecialSchemeMissingFollowingSolidus
                if error.state == Phase::State(State::SpecialAuthorityIgnoreSlashes) =>
            {
                edit(error.span, String::new())
            }
            // Whatever stands between "scheme:" and the authority becomes "//".
            E::SpecialSchemeMissingFollowingSolidus => {
                if url.scheme == "file" {
                    return None;
                }
                let start = self.colon? + 1;
                let mut end = start;
                while end < self.len()
                    && matches!(
                        self.text(Span {
                            start: end,
                            end: end + 1
                        }),
                        "/" | "\\"
                    )
                {
                    end += 1;
                }
                edit(Span { start, end }, "//".to_owned())
            }
            // Credentials are dropped: the URL means something else without them.
            E::InvalidCredentials => {
                let at = self.last_at?;
                let start = error.span.start.min(at);
                Some(Fix::one(Span { start, end: at + 1 }, String::new(), false))
            }
            // "C:" against a file base, and "file://C:/": the drive letter starts the path.
            // The drive letter is written normalized ("C|" as "C:", as the path state's step
            // 1.4.1 would serialize it): a "|" read by the path state is an invalid-URL-unit.
            E::FileInvalidWindowsDriveLetter | E::FileInvalidWindowsDriveLetterHost => {
                let text = self.text(error.span);
                let letter = text.chars().next()?;
                let normalized = if text.chars().count() == 2 {
                    format!("/{letter}:")
                } else {
                    format!("/{text}")
                };
                edit(error.span, normalized)
            }
            // The others make the parser fail: there is no href to keep.
            _ => None,
        }
    }
}

fn is_special(scheme: &str) -> bool {
    matches!(scheme, "ftp" | "file" | "http" | "https" | "ws" | "wss")
}

/// `input` with the fixes applied; where two edits overlap, the first (by span) wins.
pub fn apply(input: &str, fixes: &[Fix]) -> String {
    let mut edits: Vec<&Edit> = fixes.iter().flat_map(|f| &f.edits).collect();
    edits.sort_by_key(|e| (e.span.start, std::cmp::Reverse(e.span.end)));
    let chars: Vec<char> = input.chars().collect();
    let mut out = String::new();
    let mut at = 0;
    for edit in edits {
        if edit.span.start < at || edit.span.end > chars.len() {
            continue;
        }
        out.extend(&chars[at..edit.span.start]);
        out.push_str(&edit.replacement);
        at = edit.span.end;
    }
    out.extend(&chars[at.min(chars.len())..]);
    out
}

/// Where a rewrite sends a URL that its input did not go: the host and port a connection
/// would use before and after (`None`: the string is not a URL, or has no host).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MovedDestination {
    pub from: Option<String>,
    pub to: Option<String>,
}

impl std::fmt::Display for MovedDestination {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let show = |d: &Option<String>| d.clone().unwrap_or_else(|| "nowhere".to_owned());
        match &self.from {
            None => write!(
                f,
                "the input is not a URL and the fix makes it go to {}",
                show(&self.to)
            ),
            Some(_) => write!(
                f,
                "the fix moves the destination from {} to {}",
                show(&self.from),
                show(&self.to)
            ),
        }
    }
}

/// Whether rewriting `input` as `fixed` (both against `base`) changes where the URL goes: the
/// one rule every fix is held to before it is applied without being asked. Destinations are
/// compared as [`crate::diff::Destination`] compares them (host and port, as a connection uses
/// them), so that a fix that only respells a host (case, an IPv4 address in dotted decimal,
/// Punycode) keeps it. An input that is not a URL has no destination: a fix that makes it one
/// gives it one, and that is a change (fail closed: the host a failing input "meant" is not
/// known). `None` when both go to the same place, or neither is a URL.
pub fn moved_destination(input: &str, fixed: &str, base: Option<&str>) -> Option<MovedDestination> {
    use crate::diff::{builtin::Builtin, Answer, Destination};
    let read = |s: &str| {
        let answer = Builtin::Whatwg.read(s, base);
        let destination = Destination::of(&answer);
        (destination, answer)
    };
    let shown = |answer: &Answer| {
        answer.host.as_ref().map(|host| match &answer.port {
            Some(port) => format!("{host}:{port}"),
            None => host.clone(),
        })
    };
    if input == fixed {
        return None;
    }
    let (before, before_answer) = read(input);
    let (after, after_answer) = read(fixed);
    (before != after).then(|| MovedDestination {
        from: before.as_ref().and(shown(&before_answer)),
        to: after.as_ref().and(shown(&after_answer)),
    })
}

/// Whether browsers accept a URL with `errors[at]`, said for this URL: an error that fails
/// the parse only in some places (the standard's "Failure" column gives the condition) did not
/// fail a URL that parsed; in one that failed (`why`, the library's one answer), the error
/// that failed it is the one the failing step raised, when it raised one: the domain parser's
/// steps 6.2, 7 and 8 return failure without naming an error, so its domain-to-ASCII error
/// (step 2, which "does not return") is only a warning, and the step is named instead.
pub fn browsers(errors: &[ValidationError], at: usize, why: Option<&super::NotAUrl>) -> String {
    let acceptance = errors[at].kind.acceptance();
    match why {
        None if acceptance == Acceptance::Depends => {
            "browsers accept the URL: here it is only a warning".to_owned()
        }
        None => "browsers accept the URL: it is only a warning".to_owned(),
        Some(why) if why.raised == Some(at) => {
            "browsers reject the URL: this error fails the parse".to_owned()
        }
        Some(why) => format!("only a warning: the URL fails at {}", why.step),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_rewrite_moves_a_destination_only_when_host_or_port_changes() {
        // Respelled hosts and default ports are the same destination.
        assert_eq!(
            moved_destination("HTTP://EXAMPLE.com/", "http://example.com/", None),
            None
        );
        assert_eq!(
            moved_destination("http://0x7f.1/", "http://127.0.0.1/", None),
            None
        );
        assert_eq!(
            moved_destination("https://a.example:443/", "https://a.example/", None),
            None
        );
        assert_eq!(moved_destination("x", "y", None), None);
        // Another host, another port, and a failing input made a URL are moves.
        assert_eq!(
            moved_destination("https://a.example/", "https://b.example:8443/", None),
            Some(MovedDestination {
                from: Some("a.example".to_owned()),
                to: Some("b.example:8443".to_owned()),
            })
        );
        assert_eq!(
            moved_destination("https://a.example/", "https://a.example:8443/", None)
                .map(|m| m.to_string()),
            Some("the fix moves the destination from a.example to a.example:8443".to_owned())
        );
        assert_eq!(
            moved_destination(
                "http://evil.com%00.example.com/",
                "http://evil.com.example.com/",
                None
            ),
            Some(MovedDestination {
                from: None,
                to: Some("evil.com.example.com".to_owned()),
            })
        );
        // Against a base: a relative reference goes where it resolves.
        assert_eq!(
            moved_destination("//a.example/x", "//b.example/x", Some("https://c.example/"))
                .map(|m| m.to),
            Some(Some("b.example".to_owned()))
        );
    }
}
