//! Tracing the basic URL parser.
//!
//! The parser is generic over a [`Tracer`]. [`NoTrace`] has `ENABLED = false` and empty inline
//! methods, so a parse with it compiles to the untraced parser: every call that would build
//! something for the trace sits behind `if T::ENABLED`. [`ErrorCollector`] keeps only the
//! validation errors. [`Recorder`] keeps one [`Step`] per iteration of the state machine, and
//! stores what *changed* at each step (buffer edits, record edits, pointer moves), never a copy of
//! the whole buffer or record, so its memory stays linear in the input's length. A step's full
//! view (buffer and URL record as they were) is rebuilt on demand by replaying the edits.

use serde::ser::{SerializeSeq, SerializeStruct};
use serde::{Serialize, Serializer};
use std::ops::Range;

use crate::url::input::OffsetMap;
use crate::url::record::{Host, Path, UrlRecord};
use crate::url::state::{Phase, State};
use crate::validation::{ValidationError, ValidationErrorKind};

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
    pub(crate) errors: Vec<(ValidationErrorKind, Range<usize>, Phase)>,
    pub(crate) host_input: Option<Range<usize>>,
}

impl Tracer for ErrorCollector {
    const ENABLED: bool = false;

    #[inline]
    fn validation_error(&mut self, kind: ValidationErrorKind, span: Range<usize>, phase: Phase) {
        self.errors.push((kind, span, phase));
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
        self.errors
            .into_iter()
            .map(|(kind, span, phase)| ValidationError::new(kind, map.span(span), phase))
            .collect()
    }
}

// ---------------------------------------------------------------------------------------------
// The recording tracer.

/// A buffer edit as stored: text lives in the recorder's arena.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum StoredBufferOp {
    Push(u32, u32),
    Clear,
    Prepend(u32, u32),
    ReplaceSecondWithColon,
}

/// A record edit as stored. Rare, large values (hosts, whole paths) are boxed; the frequent ones
/// are ranges into the arena.
#[derive(Clone, Debug, PartialEq, Eq)]
enum StoredChange {
    Scheme(u32, u32),
    Username(u32, u32),
    UsernameAppend(u32, u32),
    Password(u32, u32),
    PasswordAppend(u32, u32),
    Host(Option<Box<Host>>),
    Port(Option<u16>),
    Path(Box<Path>),
    PathPush(u32, u32),
    PathShorten,
    OpaquePathAppend(u32, u32),
    Query(Option<(u32, u32)>),
    QueryAppend(u32, u32),
    Fragment(Option<(u32, u32)>),
    FragmentAppend(u32, u32),
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Event {
    Spec(&'static str),
    Buffer(StoredBufferOp),
    Change(StoredChange),
    Pointer(PointerMove),
    SetState(State),
    /// Index into the recorder's errors.
    Error(u32),
    /// Index into the recorder's host events.
    Host(u32),
}

#[derive(Clone, Debug, PartialEq, Eq)]
struct StoredStep {
    phase: Phase,
    pointer: usize,
    c: Option<char>,
    events: Range<u32>,
}

/// Records every step of a parse. Turn it into a [`Trace`] with [`Recorder::finish`].
#[derive(Clone, Debug, Default)]
pub struct Recorder {
    steps: Vec<StoredStep>,
    events: Vec<Event>,
    arena: String,
    errors: Vec<(ValidationErrorKind, Range<usize>, Phase)>,
    host_events: Vec<HostEvent>,
    host_input: Option<Range<usize>>,
    failed: Option<bool>,
}

impl Recorder {
    pub fn new() -> Self {
        Self::default()
    }

    fn store(&mut self, s: &str) -> (u32, u32) {
        let start = self.arena.len();
        self.arena.push_str(s);
        (start as u32, self.arena.len() as u32)
    }

    fn push_event(&mut self, event: Event) {
        self.events.push(event);
        if let Some(step) = self.steps.last_mut() {
            step.events.end = self.events.len() as u32;
        }
    }

    /// Maps every offset to the original input and returns the finished trace.
    pub fn finish(mut self, original: &str, initial: UrlRecord) -> Trace {
        let map = OffsetMap::new(original);
        // A finished trace is kept (by a front end) while it is looked at, so give back slack
        // that the reservation or doubling left, when there is much of it (a copy costs too).
        fn trim<T>(v: &mut Vec<T>) {
            if v.capacity() > v.len() + v.len() / 4 + 64 {
                v.shrink_to_fit();
            }
        }
        trim(&mut self.events);
        if self.arena.capacity() > self.arena.len() + self.arena.len() / 4 + 64 {
            self.arena.shrink_to_fit();
        }
        let mut steps: Vec<Step> = self
            .steps
            .into_iter()
            .map(|s| Step {
                phase: s.phase,
                pointer: map.code_point(s.pointer),
                c: s.c,
                events: s.events,
            })
            .collect();
        trim(&mut steps);
        let errors = self
            .errors
            .into_iter()
            .map(|(kind, span, phase)| ValidationError::new(kind, map.span(span), phase))
            .collect();
        Trace {
            input: original.to_owned(),
            steps,
            events: self.events,
            arena: self.arena,
            errors,
            host_events: self.host_events,
            host_span: self.host_input.map(|span| map.span(span)),
            initial,
            failed: self.failed.unwrap_or(false),
            replay: ReplayCache::default(),
        }
    }
}

impl Tracer for Recorder {
    const ENABLED: bool = true;

    fn begin(&mut self, len: usize) {
        self.steps.reserve(len + 16);
        self.events.reserve(2 * len + 32);
        self.arena.reserve(len + 32);
    }

    fn validation_error(&mut self, kind: ValidationErrorKind, span: Range<usize>, phase: Phase) {
        let index = self.errors.len() as u32;
        self.errors.push((kind, span, phase));
        self.push_event(Event::Error(index));
    }

    fn host_input(&mut self, span: Range<usize>) {
        self.host_input = Some(span);
    }

    fn begin_step(&mut self, phase: Phase, pointer: usize, c: Option<char>) {
        let at = self.events.len() as u32;
        self.steps.push(StoredStep {
            phase,
            pointer,
            c,
            events: at..at,
        });
    }

    fn spec_step(&mut self, step: &'static str) {
        self.push_event(Event::Spec(step));
    }

    fn buffer(&mut self, op: BufferOp<'_>) {
        let stored = match op {
            BufferOp::Push(s) => {
                let (a, b) = self.store(s);
                StoredBufferOp::Push(a, b)
            }
            BufferOp::Clear => StoredBufferOp::Clear,
            BufferOp::Prepend(s) => {
                let (a, b) = self.store(s);
                StoredBufferOp::Prepend(a, b)
            }
            BufferOp::ReplaceSecondWithColon => StoredBufferOp::ReplaceSecondWithColon,
        };
        self.push_event(Event::Buffer(stored));
    }

    fn change(&mut self, change: Change<'_>) {
        let stored = match change {
            Change::Scheme(s) => {
                let (a, b) = self.store(s);
                StoredChange::Scheme(a, b)
            }
            Change::Username(s) => {
                let (a, b) = self.store(s);
                StoredChange::Username(a, b)
            }
            Change::UsernameAppend(s) => {
                let (a, b) = self.store(s);
                StoredChange::UsernameAppend(a, b)
            }
            Change::Password(s) => {
                let (a, b) = self.store(s);
                StoredChange::Password(a, b)
            }
            Change::PasswordAppend(s) => {
                let (a, b) = self.store(s);
                StoredChange::PasswordAppend(a, b)
            }
            Change::Host(h) => StoredChange::Host(h.map(|h| Box::new(h.clone()))),
            Change::Port(p) => StoredChange::Port(p),
            Change::Path(p) => StoredChange::Path(Box::new(p.clone())),
            Change::PathPush(s) => {
                let (a, b) = self.store(s);
                StoredChange::PathPush(a, b)
            }
            Change::PathShorten => StoredChange::PathShorten,
            Change::OpaquePathAppend(s) => {
                let (a, b) = self.store(s);
                StoredChange::OpaquePathAppend(a, b)
            }
            Change::Query(q) => StoredChange::Query(q.map(|q| self.store(q))),
            Change::QueryAppend(s) => {
                let (a, b) = self.store(s);
                StoredChange::QueryAppend(a, b)
            }
            Change::Fragment(f) => StoredChange::Fragment(f.map(|f| self.store(f))),
            Change::FragmentAppend(s) => {
                let (a, b) = self.store(s);
                StoredChange::FragmentAppend(a, b)
            }
        };
        self.push_event(Event::Change(stored));
    }

    fn pointer(&mut self, mv: PointerMove) {
        self.push_event(Event::Pointer(mv));
    }

    fn set_state(&mut self, state: State) {
        self.push_event(Event::SetState(state));
    }

    fn host(&mut self, event: HostEvent) {
        let index = self.host_events.len() as u32;
        self.host_events.push(event);
        self.push_event(Event::Host(index));
    }

    fn end(&mut self, failure: bool) {
        self.failed = Some(failure);
    }
}

// ---------------------------------------------------------------------------------------------
// The finished trace.

/// One step of a finished trace. `pointer` is a code point offset into the original input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    pub phase: Phase,
    pub pointer: usize,
    pub c: Option<char>,
    events: Range<u32>,
}

/// A finished trace: the steps of one run of the basic URL parser, with the validation errors it
/// raised (spans in code points of the original input).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Trace {
    input: String,
    steps: Vec<Step>,
    events: Vec<Event>,
    arena: String,
    errors: Vec<ValidationError>,
    host_events: Vec<HostEvent>,
    /// Where in the input the host parser last ran (code points).
    host_span: Option<crate::validation::Span>,
    /// The record the run started from (a new URL, or the URL a setter edits).
    initial: UrlRecord,
    failed: bool,
    replay: ReplayCache,
}

/// A record edit as shown to a reader.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case", tag = "op")]
pub enum ChangeView<'a> {
    Set {
        field: &'static str,
        value: Option<String>,
    },
    Append {
        field: &'static str,
        value: &'a str,
    },
    PathPush {
        value: &'a str,
    },
    PathShorten,
}

impl std::fmt::Display for ChangeView<'_> {
    /// A compact form for tables: `scheme=https`, `query+=a=1`, `path+=[b]`, `shorten path`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ChangeView::Set {
                field,
                value: Some(v),
            } => write!(f, "{field}={v}"),
            ChangeView::Set { field, value: None } => write!(f, "{field}=null"),
            ChangeView::Append { field, value } => write!(f, "{field}+={value}"),
            ChangeView::PathPush { value } => write!(f, "path+=[{value}]"),
            ChangeView::PathShorten => f.write_str("shorten path"),
        }
    }
}

impl std::fmt::Display for PointerMove {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PointerMove::Decrease(n) => write!(f, "pointer−{n}"),
            PointerMove::Increase(n) => write!(f, "pointer+{n}"),
            PointerMove::StartOver => f.write_str("start over"),
        }
    }
}

/// Everything about one step, rebuilt from the stored edits.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StepView<'a> {
    pub index: usize,
    pub phase: Phase,
    pub pointer: usize,
    pub c: Option<char>,
    /// The spec steps that applied, in order.
    pub spec_steps: Vec<&'static str>,
    pub changes: Vec<ChangeView<'a>>,
    pub pointer_moves: Vec<PointerMove>,
    pub errors: Vec<&'a ValidationError>,
    pub host_events: Vec<&'a HostEvent>,
    /// The state the next step runs in, or `None` when the parser returned after this step.
    pub next: Option<State>,
}

impl Trace {
    pub fn input(&self) -> &str {
        &self.input
    }

    pub fn len(&self) -> usize {
        self.steps.len()
    }

    pub fn is_empty(&self) -> bool {
        self.steps.is_empty()
    }

    pub fn steps(&self) -> &[Step] {
        &self.steps
    }

    pub fn errors(&self) -> &[ValidationError] {
        &self.errors
    }

    pub fn host_events(&self) -> &[HostEvent] {
        &self.host_events
    }

    /// Where in the input the host parser last ran (code points), if it ran.
    pub fn host_span(&self) -> Option<crate::validation::Span> {
        self.host_span
    }

    /// The heap memory the trace holds, in bytes (capacities, not lengths).
    pub fn heap_bytes(&self) -> usize {
        use std::mem::size_of;
        self.input.capacity()
            + self.steps.capacity() * size_of::<Step>()
            + self.events.capacity() * size_of::<Event>()
            + self.arena.capacity()
            + self.errors.capacity() * size_of::<ValidationError>()
            + self.host_events.capacity() * size_of::<HostEvent>()
    }

    /// Whether the run ended in failure.
    pub fn failed(&self) -> bool {
        self.failed
    }

    fn text(&self, a: u32, b: u32) -> &str {
        &self.arena[a as usize..b as usize]
    }

    fn step_events(&self, index: usize) -> &[Event] {
        let r = &self.steps[index].events;
        &self.events[r.start as usize..r.end as usize]
    }

    /// The view of step `index`.
    pub fn view(&self, index: usize) -> StepView<'_> {
        let step = &self.steps[index];
        let mut view = StepView {
            index,
            phase: step.phase,
            pointer: step.pointer,
            c: step.c,
            spec_steps: Vec::new(),
            changes: Vec::new(),
            pointer_moves: Vec::new(),
            errors: Vec::new(),
            host_events: Vec::new(),
            next: None,
        };
        for event in self.step_events(index) {
            match event {
                Event::Spec(s) => view.spec_steps.push(s),
                Event::Buffer(_) => {}
                Event::Change(c) => view.changes.push(self.change_view(c)),
                Event::Pointer(m) => view.pointer_moves.push(*m),
                Event::SetState(_) => {}
                Event::Error(i) => view.errors.push(&self.errors[*i as usize]),
                Event::Host(i) => view.host_events.push(&self.host_events[*i as usize]),
            }
        }
        view.next = match self.steps.get(index + 1) {
            Some(Step {
                phase: Phase::State(s),
                ..
            }) => Some(*s),
            _ => None,
        };
        view
    }

    fn change_view(&self, change: &StoredChange) -> ChangeView<'_> {
        let set = |field, value: Option<String>| ChangeView::Set { field, value };
        match change {
            StoredChange::Scheme(a, b) => set("scheme", Some(self.text(*a, *b).to_owned())),
            StoredChange::Username(a, b) => set("username", Some(self.text(*a, *b).to_owned())),
            StoredChange::Password(a, b) => set("password", Some(self.text(*a, *b).to_owned())),
            StoredChange::UsernameAppend(a, b) => ChangeView::Append {
                field: "username",
                value: self.text(*a, *b),
            },
            StoredChange::PasswordAppend(a, b) => ChangeView::Append {
                field: "password",
                value: self.text(*a, *b),
            },
            StoredChange::Host(h) => set("host", h.as_ref().map(|h| h.to_string())),
            StoredChange::Port(p) => set("port", p.map(|p| p.to_string())),
            StoredChange::Path(p) => {
                let mut s = String::new();
                p.serialize_into(&mut s);
                set("path", Some(s))
            }
            StoredChange::PathPush(a, b) => ChangeView::PathPush {
                value: self.text(*a, *b),
            },
            StoredChange::PathShorten => ChangeView::PathShorten,
            StoredChange::OpaquePathAppend(a, b) => ChangeView::Append {
                field: "path",
                value: self.text(*a, *b),
            },
            StoredChange::Query(q) => set("query", q.map(|(a, b)| self.text(a, b).to_owned())),
            StoredChange::QueryAppend(a, b) => ChangeView::Append {
                field: "query",
                value: self.text(*a, *b),
            },
            StoredChange::Fragment(f) => {
                set("fragment", f.map(|(a, b)| self.text(a, b).to_owned()))
            }
            StoredChange::FragmentAppend(a, b) => ChangeView::Append {
                field: "fragment",
                value: self.text(*a, *b),
            },
        }
    }

    fn apply_buffer(&self, buffer: &mut String, op: &StoredBufferOp) {
        match op {
            StoredBufferOp::Push(a, b) => buffer.push_str(self.text(*a, *b)),
            StoredBufferOp::Clear => buffer.clear(),
            StoredBufferOp::Prepend(a, b) => buffer.insert_str(0, self.text(*a, *b)),
            StoredBufferOp::ReplaceSecondWithColon => {
                if let Some((i, c)) = buffer.char_indices().nth(1) {
                    buffer.replace_range(i..i + c.len_utf8(), ":");
                }
            }
        }
    }

    fn apply_change(&self, record: &mut UrlRecord, change: &StoredChange) {
        match change {
            StoredChange::Scheme(a, b) => record.scheme = self.text(*a, *b).to_owned(),
            StoredChange::Username(a, b) => record.username = self.text(*a, *b).to_owned(),
            StoredChange::UsernameAppend(a, b) => record.username.push_str(self.text(*a, *b)),
            StoredChange::Password(a, b) => record.password = self.text(*a, *b).to_owned(),
            StoredChange::PasswordAppend(a, b) => record.password.push_str(self.text(*a, *b)),
            StoredChange::Host(h) => record.host = h.as_deref().cloned(),
            StoredChange::Port(p) => record.port = *p,
            StoredChange::Path(p) => record.path = (**p).clone(),
            StoredChange::PathPush(a, b) => {
                if let Path::List(segments) = &mut record.path {
                    segments.push(self.text(*a, *b).to_owned());
                }
            }
            StoredChange::PathShorten => {
                record.shorten_path();
            }
            StoredChange::OpaquePathAppend(a, b) => {
                if let Path::Opaque(s) = &mut record.path {
                    s.push_str(self.text(*a, *b));
                }
            }
            StoredChange::Query(q) => record.query = q.map(|(a, b)| self.text(a, b).to_owned()),
            StoredChange::QueryAppend(a, b) => record
                .query
                .get_or_insert_with(String::new)
                .push_str(self.text(*a, *b)),
            StoredChange::Fragment(f) => {
                record.fragment = f.map(|(a, b)| self.text(a, b).to_owned())
            }
            StoredChange::FragmentAppend(a, b) => record
                .fragment
                .get_or_insert_with(String::new)
                .push_str(self.text(*a, *b)),
        }
    }

    /// The buffer and the URL record as they were *after* step `index`. A trace keeps the
    /// position of its last call, and moves from there by replaying or undoing the edits
    /// between: walking every step costs the trace's length plus the copies returned
    /// ([`Trace::cursor`] walks without the copies).
    pub fn state_after(&self, index: usize) -> (String, UrlRecord) {
        self.with_replay(|replay| {
            replay.seek(self, index + 1);
            (replay.buffer.clone(), replay.record.clone())
        })
    }

    /// A cursor over the states after each step, starting before the first step.
    pub fn cursor(&self) -> Cursor<'_> {
        Cursor {
            trace: self,
            replay: Replay::new(&self.initial),
        }
    }

    /// Runs `f` on the trace's own replay, or on a fresh one when it is in use (a call from
    /// inside [`Trace::for_each_in`]'s closure).
    fn with_replay<R>(&self, f: impl FnOnce(&mut Replay) -> R) -> R {
        match self.replay.0.try_lock() {
            Ok(mut guard) => {
                let replay = guard.get_or_insert_with(|| Replay::new(&self.initial));
                f(replay)
            }
            Err(_) => f(&mut Replay::new(&self.initial)),
        }
    }

    /// Calls `f` with each step's view and the buffer after it, rebuilding the buffer
    /// incrementally (one pass over the trace).
    pub fn for_each_with_buffer(&self, mut f: impl FnMut(StepView<'_>, &str)) {
        let mut buffer = String::new();
        for index in 0..self.steps.len() {
            for event in self.step_events(index) {
                if let Event::Buffer(op) = event {
                    self.apply_buffer(&mut buffer, op);
                }
            }
            f(self.view(index), &buffer);
        }
    }

    /// Like [`Trace::for_each_with_buffer`] for the steps in `range` only. It moves the trace's
    /// replay position (see [`Trace::state_after`]), so a front end that shows a moving window
    /// of a long trace pays for the window and the move, not for the steps before it.
    pub fn for_each_in(&self, range: Range<usize>, mut f: impl FnMut(StepView<'_>, &str)) {
        let end = range.end.min(self.steps.len());
        if range.start >= end {
            return;
        }
        self.with_replay(|replay| {
            replay.seek(self, range.start);
            for index in range.start..end {
                replay.seek(self, index + 1);
                f(self.view(index), &replay.buffer);
            }
        });
    }
}

/// The states after each step of a trace, moved to any step: forward by replaying the edits
/// between, backward by undoing them.
#[derive(Clone, Debug)]
pub struct Cursor<'a> {
    trace: &'a Trace,
    replay: Replay,
}

impl Cursor<'_> {
    /// Moves to the state after step `index`.
    pub fn seek(&mut self, index: usize) {
        self.replay.seek(self.trace, index + 1);
    }

    /// The buffer after the step the cursor is at.
    pub fn buffer(&self) -> &str {
        &self.replay.buffer
    }

    /// The URL record after the step the cursor is at.
    pub fn record(&self) -> &UrlRecord {
        &self.replay.record
    }
}

/// How to take back one edit. A value that an edit replaced is moved here, not copied, and
/// each was built by earlier edits, so the log is at most linear in the trace.
#[derive(Clone, Debug)]
enum Undo {
    BufferLen(usize),
    Buffer(String),
    BufferDropPrefix(usize),
    BufferSecond(char),
    Scheme(String),
    Username(String),
    UsernameLen(usize),
    Password(String),
    PasswordLen(usize),
    Host(Option<Host>),
    Port(Option<u16>),
    Path(Path),
    PathPop,
    PathPushBack(String),
    OpaquePathLen(usize),
    Query(Option<String>),
    QueryLen(usize),
    Fragment(Option<String>),
    FragmentLen(usize),
    Nothing,
}

/// A replay of a trace's edits: the buffer and the record after the first `done` steps, with
/// the log that takes them back, so that a move costs the steps it crosses.
#[derive(Clone, Debug)]
struct Replay {
    done: usize,
    buffer: String,
    record: UrlRecord,
    undo: Vec<Undo>,
    /// The length of `undo` before each step done.
    marks: Vec<usize>,
}

impl Replay {
    fn new(initial: &UrlRecord) -> Self {
        Replay {
            done: 0,
            buffer: String::new(),
            record: initial.clone(),
            undo: Vec::new(),
            marks: Vec::new(),
        }
    }

    /// Moves to the state after the first `done` steps (at most the trace's length).
    fn seek(&mut self, trace: &Trace, done: usize) {
        let done = done.min(trace.steps.len());
        while self.done > done {
            self.done -= 1;
            let mark = self.marks.pop().unwrap_or(0);
            while self.undo.len() > mark {
                if let Some(undo) = self.undo.pop() {
                    self.take_back(undo);
                }
            }
        }
        while self.done < done {
            self.marks.push(self.undo.len());
            for event in trace.step_events(self.done) {
                match event {
                    Event::Buffer(op) => {
                        let undo = match op {
                            StoredBufferOp::Push(..) => Undo::BufferLen(self.buffer.len()),
                            StoredBufferOp::Clear => Undo::Buffer(std::mem::take(&mut self.buffer)),
                            StoredBufferOp::Prepend(a, b) => {
                                Undo::BufferDropPrefix((b - a) as usize)
                            }
                            StoredBufferOp::ReplaceSecondWithColon => {
                                match self.buffer.chars().nth(1) {
                                    Some(c) => Undo::BufferSecond(c),
                                    None => Undo::Nothing,
                                }
                            }
                        };
                        self.undo.push(undo);
                        trace.apply_buffer(&mut self.buffer, op);
                    }
                    Event::Change(c) => {
                        let segments = segment_count(&self.record.path);
                        let mut undo = self.undo_for(c);
                        trace.apply_change(&mut self.record, c);
                        // Shortening keeps a file URL's drive letter: then there is nothing
                        // to put back.
                        if matches!(undo, Undo::PathPushBack(_))
                            && segment_count(&self.record.path) == segments
                        {
                            undo = Undo::Nothing;
                        }
                        self.undo.push(undo);
                    }
                    _ => {}
                }
            }
            self.done += 1;
        }
    }

    /// What takes back `change`, taking the value it replaces out of the record (the change,
    /// applied next, puts the new one in).
    fn undo_for(&mut self, change: &StoredChange) -> Undo {
        use std::mem::take;
        let record = &mut self.record;
        match change {
            StoredChange::Scheme(..) => Undo::Scheme(take(&mut record.scheme)),
            StoredChange::Username(..) => Undo::Username(take(&mut record.username)),
            StoredChange::UsernameAppend(..) => Undo::UsernameLen(record.username.len()),
            StoredChange::Password(..) => Undo::Password(take(&mut record.password)),
            StoredChange::PasswordAppend(..) => Undo::PasswordLen(record.password.len()),
            StoredChange::Host(_) => Undo::Host(record.host.take()),
            StoredChange::Port(_) => Undo::Port(record.port),
            StoredChange::Path(_) => Undo::Path(take(&mut record.path)),
            StoredChange::PathPush(..) => match record.path {
                Path::List(_) => Undo::PathPop,
                Path::Opaque(_) => Undo::Nothing,
            },
            // Shortening removes the last segment or nothing (a file URL's drive letter).
            StoredChange::PathShorten => match &record.path {
                Path::List(segments) => segments
                    .last()
                    .map_or(Undo::Nothing, |last| Undo::PathPushBack(last.clone())),
                Path::Opaque(_) => Undo::Nothing,
            },
            StoredChange::OpaquePathAppend(..) => match &record.path {
                Path::Opaque(s) => Undo::OpaquePathLen(s.len()),
                Path::List(_) => Undo::Nothing,
            },
            StoredChange::Query(_) => Undo::Query(record.query.take()),
            StoredChange::QueryAppend(..) => match &record.query {
                Some(q) => Undo::QueryLen(q.len()),
                None => Undo::Query(None),
            },
            StoredChange::Fragment(_) => Undo::Fragment(record.fragment.take()),
            StoredChange::FragmentAppend(..) => match &record.fragment {
                Some(f) => Undo::FragmentLen(f.len()),
                None => Undo::Fragment(None),
            },
        }
    }

    fn take_back(&mut self, undo: Undo) {
        let record = &mut self.record;
        match undo {
            Undo::BufferLen(len) => self.buffer.truncate(len),
            Undo::Buffer(buffer) => self.buffer = buffer,
            Undo::BufferDropPrefix(len) => {
                self.buffer.drain(..len);
            }
            Undo::BufferSecond(c) => {
                if let Some((i, colon)) = self.buffer.char_indices().nth(1) {
                    let mut bytes = [0; 4];
                    self.buffer
                        .replace_range(i..i + colon.len_utf8(), c.encode_utf8(&mut bytes));
                }
            }
            Undo::Scheme(s) => record.scheme = s,
            Undo::Username(s) => record.username = s,
            Undo::UsernameLen(len) => record.username.truncate(len),
            Undo::Password(s) => record.password = s,
            Undo::PasswordLen(len) => record.password.truncate(len),
            Undo::Host(host) => record.host = host,
            Undo::Port(port) => record.port = port,
            Undo::Path(path) => record.path = path,
            Undo::PathPop => {
                if let Path::List(segments) = &mut record.path {
                    segments.pop();
                }
            }
            Undo::PathPushBack(segment) => {
                if let Path::List(segments) = &mut record.path {
                    segments.push(segment);
                }
            }
            Undo::OpaquePathLen(len) => {
                if let Path::Opaque(s) = &mut record.path {
                    s.truncate(len);
                }
            }
            Undo::Query(q) => record.query = q,
            Undo::QueryLen(len) => {
                if let Some(q) = &mut record.query {
                    q.truncate(len);
                }
            }
            Undo::Fragment(f) => record.fragment = f,
            Undo::FragmentLen(len) => {
                if let Some(f) = &mut record.fragment {
                    f.truncate(len);
                }
            }
            Undo::Nothing => {}
        }
    }
}

fn segment_count(path: &Path) -> usize {
    match path {
        Path::List(segments) => segments.len(),
        Path::Opaque(_) => 0,
    }
}

/// The replay a trace keeps for [`Trace::state_after`] and [`Trace::for_each_in`]: a cache,
/// so it is neither cloned nor compared with the trace.
#[derive(Default)]
struct ReplayCache(std::sync::Mutex<Option<Replay>>);

impl Clone for ReplayCache {
    fn clone(&self) -> Self {
        ReplayCache::default()
    }
}

impl PartialEq for ReplayCache {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl Eq for ReplayCache {}

impl std::fmt::Debug for ReplayCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ReplayCache")
    }
}

/// How one step changed the buffer: the buffer after it is the first `keep` code points of the
/// buffer before it, followed by `append`; `length` is its length in code points. Serialized
/// traces give this rather than the buffer itself, so that their size (and the time to write
/// them) stays linear in the input's length, and they still say exactly what the buffer held.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct BufferEdit<'a> {
    pub keep: usize,
    pub append: &'a str,
    pub length: usize,
}

/// Calls `f` with each step's view and its [`BufferEdit`], in one pass over the trace.
impl Trace {
    pub fn for_each_with_buffer_edit(&self, mut f: impl FnMut(StepView<'_>, BufferEdit<'_>)) {
        let mut buffer = String::new();
        // The buffer's length in code points.
        let mut length = 0;
        for index in 0..self.steps.len() {
            // The prefix of the previous buffer that survives the step, in bytes and in code
            // points.
            let (mut low, mut low_length) = (buffer.len(), length);
            for event in self.step_events(index) {
                let Event::Buffer(op) = event else {
                    continue;
                };
                match op {
                    StoredBufferOp::Push(a, b) => length += self.text(*a, *b).chars().count(),
                    StoredBufferOp::Clear => (low, low_length, length) = (0, 0, 0),
                    StoredBufferOp::Prepend(a, b) => {
                        (low, low_length) = (0, 0);
                        length += self.text(*a, *b).chars().count();
                    }
                    StoredBufferOp::ReplaceSecondWithColon => {
                        if let Some((i, _)) = buffer.char_indices().nth(1) {
                            if i < low {
                                (low, low_length) = (i, 1);
                            }
                        }
                    }
                }
                self.apply_buffer(&mut buffer, op);
            }
            let edit = BufferEdit {
                keep: low_length,
                append: &buffer[low..],
                length,
            };
            f(self.view(index), edit);
        }
    }
}

struct SerStep<'a> {
    view: StepView<'a>,
    buffer: BufferEdit<'a>,
}

impl Serialize for SerStep<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let v = &self.view;
        let mut s = serializer.serialize_struct("Step", 10)?;
        s.serialize_field("state", &v.phase)?;
        s.serialize_field("pointer", &v.pointer)?;
        // c is a code point, or "EOF"; the preprocessing steps have no pointer and no c.
        let c = match (v.phase, v.c) {
            (Phase::State(_), Some(c)) => Some(String::from(c)),
            (Phase::State(_), None) => Some("EOF".to_owned()),
            _ => None,
        };
        s.serialize_field("c", &c)?;
        s.serialize_field("buffer", &self.buffer)?;
        s.serialize_field("spec_steps", &v.spec_steps)?;
        s.serialize_field("changes", &v.changes)?;
        s.serialize_field("pointer_moves", &v.pointer_moves)?;
        s.serialize_field("errors", &v.errors)?;
        s.serialize_field("host", &v.host_events)?;
        s.serialize_field("next", &v.next)?;
        s.end()
    }
}

impl Serialize for Trace {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut seq = serializer.serialize_seq(Some(self.steps.len()))?;
        let mut result = Ok(());
        self.for_each_with_buffer_edit(|view, buffer| {
            if result.is_ok() {
                result = seq.serialize_element(&SerStep { view, buffer });
            }
        });
        result?;
        seq.end()
    }
}
