//! Why the basic URL parser returned failure, located in the input as given: the step of the
//! standard that returned it, the code points it is about, and a rewrite that makes the input
//! parse when one is known.
//!
//! The validation error a failing parse raised last is not always the failure's cause. The
//! domain parser raises domain-to-ASCII at its step 2 and goes on ("This step does not
//! return"); its steps 6.2, 7 and 8 then return failure without naming an error of their own.
//! So a host's failure is read from the host parser run again on the host alone, with the
//! steps the trace cites ([`explain::explain_host_events`]), and its code points are found in
//! the host as typed (percent-encoded bytes and IDNA mappings included).

use serde::Serialize;
use std::fmt;
use std::ops::Range;

use super::fix::{self, Edit, Fix};
use super::{Span, ValidationError, ValidationErrorKind as E};
use crate::trace::HostEvent;
use crate::url::api::Url;
use crate::url::code_points::{is_forbidden_domain_code_point, is_forbidden_host_code_point};
use crate::url::explain::{self, HostAlgorithm, HostStep, Link, Section};
use crate::url::host::{domain_parser_to_ascii, failing_host_run};

/// Why the parser failed: the step that returned failure, where, and a fix when one is known.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Failure {
    /// The algorithm whose step returned failure, as the standard names it ("domain parser").
    pub algorithm: &'static str,
    /// The step's number ("8").
    pub step: &'static str,
    /// The link to the algorithm in the standard.
    pub url: String,
    /// What the step found, in plain words.
    pub explanation: String,
    /// The code points the failure is about, in code points of the input as given (an empty
    /// span where something is missing).
    #[serde(flatten)]
    pub span: Span,
    /// A rewrite of the input that parses (checked by parsing it), when one is known: the
    /// offending code points removed, percent-encoded, or a missing "]" added. `same_href` is
    /// false: the input had no href to keep.
    pub fix: Option<Fix>,
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} step {} at {}..{}: {}",
            self.algorithm, self.step, self.span.start, self.span.end, self.explanation
        )
    }
}

/// Whether `kind` is raised by the host parser or an algorithm it runs (URL Standard: the
/// validation error table's "IDNA" and "Host parsing" groups).
fn raised_by_host_parser(kind: E) -> bool {
    matches!(
        kind,
        E::DomainToAscii
            | E::DomainPercentEncoded
            | E::HostInvalidCodePoint
            | E::Ipv4NonAsciiInput
            | E::Ipv4EmptyPart
            | E::Ipv4TooFewParts
            | E::Ipv4TooManyParts
            | E::Ipv4NonNumericPart
            | E::Ipv4NonDecimalPart
            | E::Ipv4OutOfRangePart
            | E::Ipv6Unclosed
            | E::Ipv6InvalidCompression
            | E::Ipv6TooManyPieces
            | E::Ipv6MultipleCompression
            | E::Ipv6InvalidCodePoint
            | E::Ipv6TooFewPieces
            | E::Ipv6PieceLeadingZero
            | E::Ipv4InIpv6TooManyPieces
            | E::Ipv4InIpv6InvalidCodePoint
            | E::Ipv4InIpv6OutOfRangePart
            | E::Ipv4InIpv6TooFewParts
    )
}

/// The host as the URL parser gave it to the host parser: the code points of `span` without the
/// tabs and newlines the parser removed, with, for each byte of it, the code point offset in
/// the input it came from (and `span.end` last).
fn host_of(input: &str, span: Span) -> (String, Vec<usize>) {
    let mut host = String::new();
    let mut origin = Vec::new();
    for (i, c) in input
        .chars()
        .enumerate()
        .skip(span.start)
        .take(span.end.saturating_sub(span.start))
    {
        if matches!(c, '\t' | '\n' | '\r') {
            continue;
        }
        host.push(c);
        origin.extend(std::iter::repeat_n(i, c.len_utf8()));
    }
    origin.push(span.end);
    (host, origin)
}

/// The host's code points after host parser step 5 (percent-decoding, then UTF-8 decoding), each
/// with the bytes of the host it came from. A byte that does not decode is U+FFFD, as UTF-8
/// decode without BOM makes it. An iterator: a host can be as long as the input.
fn decoded(host: &str) -> impl Iterator<Item = (char, Range<usize>)> + '_ {
    let bytes = host.as_bytes();
    // The byte at `i` once percent-decoded, and where the next one starts.
    let byte_at = move |i: usize| -> Option<(u8, usize)> {
        let b = *bytes.get(i)?;
        let hex = |j: usize| bytes.get(j).and_then(|&b| char::from(b).to_digit(16));
        match (b, hex(i + 1), hex(i + 2)) {
            (b'%', Some(high), Some(low)) => Some(((high * 16 + low) as u8, i + 3)),
            _ => Some((b, i + 1)),
        }
    };
    let mut i = 0;
    std::iter::from_fn(move || {
        let start = i;
        let (lead, mut next) = byte_at(start)?;
        let length = match lead {
            0xC0..=0xDF => 2,
            0xE0..=0xEF => 3,
            0xF0..=0xF7 => 4,
            _ => 1,
        };
        let mut sequence = [lead, 0, 0, 0];
        let mut complete = true;
        for byte in sequence.iter_mut().take(length).skip(1) {
            match byte_at(next) {
                Some((b, after)) => {
                    *byte = b;
                    next = after;
                }
                None => complete = false,
            }
        }
        let c = complete
            .then(|| std::str::from_utf8(&sequence[..length]).ok())
            .flatten()
            .and_then(|s| s.chars().next());
        match c {
            Some(c) => {
                i = next;
                Some((c, start..next))
            }
            None => {
                let (_, after) = byte_at(start)?;
                i = after;
                Some(('\u{FFFD}', start..after))
            }
        }
    })
}

/// Whether the domain parser's result holds a forbidden domain code point because of `c`: `c`
/// is one, or relaxed Unicode ToASCII maps it to one (U+FF1C FULLWIDTH LESS-THAN SIGN to "<").
fn makes_forbidden(c: char) -> bool {
    is_forbidden_domain_code_point(c)
        || (!c.is_ascii()
            && domain_parser_to_ascii(&c.to_string(), false)
                .is_some_and(|r| r.chars().any(is_forbidden_domain_code_point)))
}

/// Whether relaxed Unicode ToASCII fails on `c` alone: a code point it disallows (U+FFFD, a
/// joiner with nothing to join).
fn refused_alone(c: char) -> bool {
    !c.is_ascii() && domain_parser_to_ascii(&c.to_string(), false).is_none()
}

/// Full stops UTS 46 maps to "." (label separators).
fn is_full_stop(c: char) -> bool {
    matches!(c, '.' | '\u{3002}' | '\u{FF0E}' | '\u{FF61}')
}

/// How to rewrite the host's bytes in `range`.
struct HostEdit {
    range: Range<usize>,
    replacement: String,
}

impl Failure {
    /// Why `input` failed, when the host parser is what returned failure: `cause` is the last
    /// validation error the parse raised, `host_span` where the host parser ran, `base` the
    /// base URL (a fix is offered only when the rewritten input parses against it). `None` for
    /// any other failure, whose cause names its own step.
    pub fn of_host(
        input: &str,
        cause: &ValidationError,
        host_span: Option<Span>,
        base: Option<&Url>,
    ) -> Option<Failure> {
        if !raised_by_host_parser(cause.kind) {
            return None;
        }
        let (host, origin) = host_of(input, host_span?);
        // The opaque-host parser is the only one that raises host-invalid-code-point, and it
        // runs only for a URL that is not special.
        let is_opaque = cause.kind == E::HostInvalidCodePoint;
        let run = failing_host_run(&host, is_opaque)?;
        if !matches!(run.events.last(), Some(HostEvent::Failure)) {
            return None;
        }
        // The host's errors with spans in its code points, as the explanations read them.
        let code_point = |byte: usize| host[..byte.min(host.len())].chars().count();
        let errors: Vec<ValidationError> = run
            .errors
            .iter()
            .map(|(kind, range)| {
                let span = Span {
                    start: code_point(range.start),
                    end: code_point(range.end),
                };
                ValidationError::new(*kind, span, cause.state)
            })
            .collect();
        let refs: Vec<&ValidationError> = errors.iter().collect();
        let mut step = explain::explain_host_events(&run.events, &refs, &host)
            .pop()
            .flatten()?;
        let last_error = run.errors.last().map(|(_, range)| range.clone());
        let whole = 0..host.len();
        let (at, edits) = match (step.algorithm, step.number) {
            // Domain parser step 8: every code point that puts a forbidden domain code point in
            // the result, each to be removed.
            (HostAlgorithm::DomainParser, "8") => {
                let found: Vec<Range<usize>> = decoded(&host)
                    .filter(|(c, _)| makes_forbidden(*c))
                    .map(|(_, range)| range)
                    .collect();
                located(found, whole, |_| String::new())
            }
            // Relaxed Unicode ToASCII failed (domain parser step 6.2; the host parser's step 7
            // passes the failure on, and the trace cites that one where it happened).
            (HostAlgorithm::HostParser, "7") => {
                step = domain_parser_step(&host, "6.2").unwrap_or(step);
                let found: Vec<Range<usize>> = decoded(&host)
                    .filter(|(c, _)| refused_alone(*c))
                    .map(|(_, range)| range)
                    .collect();
                if found.is_empty() {
                    // No code point fails alone (a Punycode label that does not decode, a
                    // label that breaks the bidi rule): the first label that fails.
                    (label_refused(&host).unwrap_or(whole), Vec::new())
                } else {
                    located(found, whole, |_| String::new())
                }
            }
            // Opaque-host parser step 1: each forbidden host code point, percent-encoded (an
            // opaque host may hold percent-encoded bytes).
            (HostAlgorithm::OpaqueHostParser, "1") => {
                let found: Vec<Range<usize>> = host
                    .char_indices()
                    .filter(|(_, c)| is_forbidden_host_code_point(*c))
                    .map(|(i, c)| i..i + c.len_utf8())
                    .collect();
                let encode = |range: &Range<usize>| {
                    host[range.clone()]
                        .bytes()
                        .map(|b| format!("%{b:02X}"))
                        .collect()
                };
                located(found, whole, encode)
            }
            // Host parser step 1.1: the "]" that is missing, at the host's end.
            (HostAlgorithm::HostParser, "1.1") => {
                let end = host.len()..host.len();
                let insert = HostEdit {
                    range: end.clone(),
                    replacement: "]".to_owned(),
                };
                (end, vec![insert])
            }
            // The other steps raise the error that names them, over what they read.
            _ => (last_error.unwrap_or(whole), Vec::new()),
        };
        let to_input = |range: &Range<usize>| Span {
            start: origin[range.start.min(host.len())],
            end: origin[range.end.min(host.len())],
        };
        let fix = (!edits.is_empty())
            .then(|| Fix {
                edits: edits
                    .iter()
                    .map(|edit| Edit {
                        span: to_input(&edit.range),
                        replacement: edit.replacement.clone(),
                    })
                    .collect(),
                same_href: false,
            })
            .filter(|fix| Url::parse(&fix::apply(input, std::slice::from_ref(fix)), base).is_ok());
        Some(Failure {
            algorithm: step.algorithm.name(),
            step: step.number,
            url: step.link.to_string(),
            explanation: step.explanation,
            span: to_input(&at),
            fix,
        })
    }
}

/// The first of `found` as the failure's span, and an edit of each with `replacement`; the
/// whole host when nothing was found.
fn located(
    found: Vec<Range<usize>>,
    whole: Range<usize>,
    replacement: impl Fn(&Range<usize>) -> String,
) -> (Range<usize>, Vec<HostEdit>) {
    let Some(first) = found.first().cloned() else {
        return (whole, Vec::new());
    };
    let edits = found
        .iter()
        .map(|range| HostEdit {
            range: range.clone(),
            replacement: replacement(range),
        })
        .collect();
    (first, edits)
}

/// The first label of the host, decoded, that relaxed Unicode ToASCII refuses on its own.
fn label_refused(host: &str) -> Option<Range<usize>> {
    let mut label = String::new();
    let mut bytes: Option<Range<usize>> = None;
    // A full stop past the end ends the last label.
    for (c, range) in decoded(host).chain([('.', host.len()..host.len())]) {
        if !is_full_stop(c) {
            label.push(c);
            bytes = Some(bytes.map_or(range.clone(), |b| b.start..range.end));
            continue;
        }
        if let Some(found) = bytes.take() {
            if domain_parser_to_ascii(&label, false).is_none() {
                return Some(found);
            }
        }
        label.clear();
    }
    None
}

/// A step of the domain parser with its explanation, `{input}` filled with the domain.
fn domain_parser_step(host: &str, number: &'static str) -> Option<HostStep> {
    let algorithm = HostAlgorithm::DomainParser;
    let template = explain::explanation(Section::Host(algorithm), number)?;
    let domain: String = decoded(host).map(|(c, _)| c).collect();
    Some(HostStep {
        algorithm,
        number,
        link: Link(algorithm.anchor()),
        explanation: template.replace("{input}", &domain),
    })
}

/// Why an input is not a URL, as every surface names it (`parse`, `check`, the inspector's
/// verdict, Errors pane and `f`, Python's `URLError`): made only by [`NotAUrl::new`], which
/// [`crate::report::Report::not_a_url`] calls, so that no surface words a failure of its own.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct NotAUrl {
    /// What returned failure: the step of the standard when the host parser failed ("domain
    /// parser step 8"), else the validation error that the failing state raised as it returned
    /// failure and that state ("port-out-of-range (port state)").
    pub step: String,
    /// The code points the failure is about, in code points of the input as given.
    pub span: Option<Span>,
    /// What the step found, in plain words.
    pub explanation: String,
    /// The failure's fix ([`Failure::fix`]), when one is known.
    pub fix: Option<Fix>,
    /// The input rewritten by `fix`: it parses.
    pub fixed: Option<String>,
    /// The index, among the parse's validation errors, of the one the failing step raised;
    /// `None` when that step raised none (the domain parser's steps 6.2, 7 and 8 return
    /// failure without naming an error: the domain-to-ASCII error its step 2 raised "does not
    /// return"), so that no surface calls an error the cause that is not.
    pub raised: Option<usize>,
    /// The whole sentence: "not a URL: domain parser step 8 at 11..12: …".
    pub message: String,
}

impl NotAUrl {
    /// Why `input` failed: `failure` is what [`Failure::of_host`] found (host failures),
    /// `cause` the last validation error the parse raised, `errors` all of them.
    pub fn new(
        input: &str,
        failure: Option<&Failure>,
        cause: Option<&ValidationError>,
        errors: &[ValidationError],
    ) -> NotAUrl {
        let last = errors.len().checked_sub(1);
        match (failure, cause) {
            (Some(failure), _) => NotAUrl {
                step: format!("{} step {}", failure.algorithm, failure.step),
                span: Some(failure.span),
                explanation: failure.explanation.clone(),
                fix: failure.fix.clone(),
                fixed: failure
                    .fix
                    .as_ref()
                    .map(|fix| fix::apply(input, std::slice::from_ref(fix))),
                // URL Standard, domain parser: only its step 2 raises an error, and that step
                // does not return; every other step that returns failure raised the error that
                // names it, last.
                raised: (failure.algorithm != HostAlgorithm::DomainParser.name())
                    .then_some(last)
                    .flatten(),
                message: format!("not a URL: {failure}"),
            },
            (None, Some(cause)) => NotAUrl {
                step: format!("{} ({})", cause.kind, cause.state),
                span: Some(cause.span),
                explanation: cause.message.to_owned(),
                fix: None,
                fixed: None,
                // The basic URL parser returns failure as it raises the error that says why.
                raised: last,
                message: format!("not a URL: {cause}"),
            },
            (None, None) => NotAUrl {
                step: "basic URL parser".to_owned(),
                span: None,
                explanation: "the parser returned failure".to_owned(),
                fix: None,
                fixed: None,
                raised: None,
                message: "the input is not a URL".to_owned(),
            },
        }
    }
}

impl fmt::Display for NotAUrl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}
