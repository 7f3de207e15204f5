//! Tracing the basic URL parser.
//!
//! The parser is generic over a [`Tracer`]. [`NoTrace`] has `ENABLED = false` and empty inline
//! methods, so a parse with it compiles to the untraced parser: every call that would build
//! something for the trace sits behind `if T::ENABLED`. [`ErrorCollector`] keeps only the
//! validation errors. [`Recorder`] keeps one [`Step`] per iteration of the state machine, and
//! stores what *changed* at each step (buffer edits, record edits, pointer moves), never a copy of
//! the whole buffer or record, so its memory stays linear in the input's length: steps and edits
//! are packed into one byte stream, a few bytes per step, with a checkpoint every 64 steps. A
//! step's full view (buffer and URL record as they were) is rebuilt on demand by replaying the
//! edits.

mod json;
mod parts;
mod recorder;
mod view;

#[cfg(test)]
mod tests;

use serde::Serialize;
use std::ops::Range;

use crate::url::input::OffsetMap;
use crate::url::record::{Host, Path};
use crate::url::state::{Phase, State};
use crate::validation::{ValidationError, ValidationErrorKind};

pub use parts::Part;
pub use recorder::Recorder;
pub use view::{
    BufferEdit, ChangeView, Cursor, Effect, Row, Rows, Run, Step, StepIter, StepView, Steps, Trace,
};

/// An edit of the parser's *buffer*.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BufferOp<'a> {
    /// Append a string (a code point, or its percent-encoded form).
    Push(&'a str),
    /// Set buffer to the empty string.
    Clear,
    /// Prepend a string (the authority state's "%40").
    Prepend(&'a str),
    /// The path state's Windows drive letter quirk: replace the second code point with U+003A (:).
    ReplaceSecondWithColon,
}

/// An edit of the URL record.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Change<'a> {
    Scheme(&'a str),
    Username(&'a str),
    UsernameAppend(&'a str),
    Password(&'a str),
    PasswordAppend(&'a str),
    Host(Option<&'a Host>),
    Port(Option<u16>),
    /// The path set as a whole (to a clone of the base's path, to « », or to an opaque path).
    Path(&'a Path),
    PathPush(&'a str),
    /// URL Standard: shorten a URL's path.
    PathShorten,
    OpaquePathAppend(&'a str),
    Query(Option<&'a str>),
    QueryAppend(&'a str),
    Fragment(Option<&'a str>),
    FragmentAppend(&'a str),
}

/// How the pointer moved, beyond the loop's own "increase pointer by 1".
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case", tag = "move", content = "by")]
pub enum PointerMove {
    /// "decrease pointer by N" (code points).
    Decrease(usize),
    /// "increase pointer by N" (code points), within a state.
    Increase(usize),
    /// The scheme state's "start over (from the first code point in input)".
    StartOver,
}

/// A sub-step of host parsing (URL Standard: 3.5 Host parsing), nested under the step that
/// called the host parser.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "event", rename_all = "kebab-case")]
pub enum HostEvent {
    /// Host parser step 1: the input is bracketed, so it goes to the IPv6 parser.
    Ipv6Input { input: String },
    /// Host parser step 2: the URL is not special, so the opaque-host parser runs.
    OpaqueHost { input: String, output: String },
    /// Host parser step 5: the percent-decoded, UTF-8 decoded domain.
    PercentDecoded { input: String, domain: String },
    /// The domain parser's run of Unicode ToASCII, strict or relaxed.
    DomainToAscii {
        strict: bool,
        input: String,
        output: Option<String>,
        errors: Option<String>,
    },
    /// The domain parser's ASCII fast path: an ASCII domain is lowercased.
    AsciiLowercase { output: String },
    /// One label of the domain, in Unicode and in ASCII (Punycode) form.
    IdnaLabel { unicode: String, ascii: String },
    /// The ends-in-a-number checker.
    EndsInANumber { input: String, result: bool },
    /// One IPv4 part: its text, the radix the IPv4 number parser chose, and its value
    /// (saturated at `u64::MAX`), or `None` when it is not a number.
    Ipv4Part {
        text: String,
        radix: u32,
        value: Option<u64>,
    },
    /// The IPv4 address the parts make.
    Ipv4Address { address: u32 },
    /// One IPv6 piece as written, and its value.
    Ipv6Piece {
        index: usize,
        text: String,
        value: u16,
    },
    /// "::" seen: compress is set to this piece index.
    Ipv6Compress { piece_index: usize },
    /// One part of an IPv4 address embedded in an IPv6 address.
    Ipv4InIpv6Part { text: String, value: u8 },
    /// The compression step moved pieces to the end of the address.
    Ipv6Swap { swaps: usize, compress: usize },
    /// The IPv6 address the pieces make.
    Ipv6Address { pieces: [u16; 8] },
    /// The host parser's failure.
    Failure,
}

/// Receives the parser's steps. All methods but [`Tracer::validation_error`] are only called when
/// `ENABLED` is true; `validation_error` is always called, so a tracer that only collects errors
/// stays cheap.
pub trait Tracer {
    const ENABLED: bool;

    /// A validation error; `span` is a byte range of the original input.
    #[inline(always)]
    fn validation_error(&mut self, _kind: ValidationErrorKind, _span: Range<usize>, _phase: Phase) {
    }

    /// The host parser is about to run on `span` (a byte range of the original input). Always
    /// called, like `validation_error`: the host analysis locates the host with it.
    #[inline(always)]
    fn host_input(&mut self, _span: Range<usize>) {}

    /// The parser starts on an input of `len` bytes: a hint of how much to expect (a step per
    /// code point, and a few events per step).
    #[inline(always)]
    fn begin(&mut self, _len: usize) {}

    /// A new step: a preprocessing step, or one iteration of the state machine. `pointer` is a
    /// byte offset of the original input (the processed input's pointer, mapped back).
    #[inline(always)]
    fn begin_step(&mut self, _phase: Phase, _pointer: usize, _c: Option<char>) {}

    /// The step of the standard's text that applied, e.g. `"2.1"` with a few words.
    #[inline(always)]
    fn spec_step(&mut self, _step: &'static str) {}

    #[inline(always)]
    fn buffer(&mut self, _op: BufferOp<'_>) {}

    #[inline(always)]
    fn change(&mut self, _change: Change<'_>) {}

    #[inline(always)]
    fn pointer(&mut self, _move: PointerMove) {}

    #[inline(always)]
    fn set_state(&mut self, _state: State) {}

    #[inline(always)]
    fn host(&mut self, _event: HostEvent) {}

    /// The parser returned (`failure` tells how).
    #[inline(always)]
    fn end(&mut self, _failure: bool) {}
}

/// Traces nothing; parsing with it costs what parsing without a tracer would.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoTrace;

impl Tracer for NoTrace {
    const ENABLED: bool = false;
}

/// Collects validation errors only (byte spans of the original input, mapped on demand).
#[derive(Clone, Debug, Default)]
pub struct ErrorCollector {
    pub(crate) errors: crate::validation::RawErrors,
    pub(crate) host_input: Option<Range<usize>>,
}

impl Tracer for ErrorCollector {
    const ENABLED: bool = false;

    #[inline]
    fn validation_error(&mut self, kind: ValidationErrorKind, span: Range<usize>, phase: Phase) {
        self.errors.push(kind, span, phase);
    }

    #[inline]
    fn host_input(&mut self, span: Range<usize>) {
        self.host_input = Some(span);
    }
}

impl ErrorCollector {
    /// The span (code points of `original`) of the last input the host parser ran on.
    pub fn host_span(&self, original: &str) -> Option<crate::validation::Span> {
        let map = OffsetMap::new(original);
        self.host_input.clone().map(|span| map.span(span))
    }

    /// The errors with spans mapped to code point offsets of the original input.
    pub fn into_errors(self, original: &str) -> Vec<ValidationError> {
        let map = OffsetMap::new(original);
        self.errors.located(|span| map.span(span))
    }
}
