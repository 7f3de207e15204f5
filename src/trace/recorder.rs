//! The recording tracer: what changed at each step, stored compactly (texts in one arena).

use std::ops::Range;

use super::view::{ReplayCache, Step, Trace};
use super::{BufferOp, Change, HostEvent, PointerMove, Tracer};
use crate::url::input::OffsetMap;
use crate::url::record::{Host, Path, UrlRecord};
use crate::url::state::{Phase, State};
use crate::validation::{ValidationError, ValidationErrorKind};

/// A buffer edit as stored: text lives in the recorder's arena.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum StoredBufferOp {
    Push(u32, u32),
    Clear,
    Prepend(u32, u32),
    ReplaceSecondWithColon,
}

/// A field of the URL record that holds a string. The opaque path is one only while the path
/// is opaque.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Field {
    Scheme,
    Username,
    Password,
    OpaquePath,
    Query,
    Fragment,
}

impl Field {
    pub(super) const fn name(self) -> &'static str {
        match self {
            Field::Scheme => "scheme",
            Field::Username => "username",
            Field::Password => "password",
            Field::OpaquePath => "path",
            Field::Query => "query",
            Field::Fragment => "fragment",
        }
    }
}

/// What an edit does to a string field.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Op {
    /// Set the field to the text.
    Set,
    /// Append the text (a null field becomes the text).
    Append,
    /// Set the field to null (the text is empty).
    Null,
}

/// A record edit as stored. Edits of string fields, the frequent ones, are a field, an
/// operation and a range into the arena; rare, large values (hosts, whole paths) are boxed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum StoredChange {
    Text {
        field: Field,
        op: Op,
        text: (u32, u32),
    },
    Host(Option<Box<Host>>),
    Port(Option<u16>),
    Path(Box<Path>),
    PathPush(u32, u32),
    PathShorten,
}

impl<'a> Change<'a> {
    /// The edit as field, operation and text, when it edits a string field.
    fn as_text(self) -> Option<(Field, Op, &'a str)> {
        let set_or_null = |field, value: Option<&'a str>| match value {
            Some(s) => (field, Op::Set, s),
            None => (field, Op::Null, ""),
        };
        Some(match self {
            Change::Scheme(s) => (Field::Scheme, Op::Set, s),
            Change::Username(s) => (Field::Username, Op::Set, s),
            Change::UsernameAppend(s) => (Field::Username, Op::Append, s),
            Change::Password(s) => (Field::Password, Op::Set, s),
            Change::PasswordAppend(s) => (Field::Password, Op::Append, s),
            Change::OpaquePathAppend(s) => (Field::OpaquePath, Op::Append, s),
            Change::Query(q) => set_or_null(Field::Query, q),
            Change::QueryAppend(s) => (Field::Query, Op::Append, s),
            Change::Fragment(f) => set_or_null(Field::Fragment, f),
            Change::FragmentAppend(s) => (Field::Fragment, Op::Append, s),
            Change::Host(_)
            | Change::Port(_)
            | Change::Path(_)
            | Change::PathPush(_)
            | Change::PathShorten => return None,
        })
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Event {
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
            Change::Host(h) => StoredChange::Host(h.map(|h| Box::new(h.clone()))),
            Change::Port(p) => StoredChange::Port(p),
            Change::Path(p) => StoredChange::Path(Box::new(p.clone())),
            Change::PathPush(s) => {
                let (a, b) = self.store(s);
                StoredChange::PathPush(a, b)
            }
            Change::PathShorten => StoredChange::PathShorten,
            text => {
                let Some((field, op, s)) = text.as_text() else {
                    return;
                };
                let text = self.store(s);
                StoredChange::Text { field, op, text }
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
