//! The recording tracer: what changed at each step, packed into one byte stream (texts in one
//! arena, in the order they were written), with a checkpoint every [`CHECKPOINT_STEPS`] steps
//! so that any step is found by decoding at most that many steps.
//!
//! The stream is a sequence of records, each starting with a tag byte. A step's header has the
//! high bit set (`0x80 | kind << 5 | phase`), followed by the pointer's move since the previous
//! step (bytes of the original input, zigzag varint) unless the kind says "one byte on", and the
//! code point c (varint) unless the kind says there is none. The events that follow, up to the
//! next header, belong to that step; their tags are below `0x80`. Texts (buffer pushes, record
//! edits, the strings of host events) are stored as lengths: their bytes are the next ones of
//! the arena. The host parser's results and whole paths, rare and structured, are kept aside
//! and referred to by index.

use std::ops::Range;

use super::view::{ReplayCache, Trace};
use super::{BufferOp, Change, HostEvent, PointerMove, Tracer};
use crate::url::input::OffsetMap;
use crate::url::record::{Host, Path, UrlRecord};
use crate::url::state::{Phase, State};
use crate::validation::ValidationErrorKind;

/// Steps between two checkpoints: the most a look-up of one step decodes.
pub(super) const CHECKPOINT_STEPS: usize = 64;

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
    const ALL: [Field; 6] = [
        Field::Scheme,
        Field::Username,
        Field::Password,
        Field::OpaquePath,
        Field::Query,
        Field::Fragment,
    ];

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

impl Op {
    const ALL: [Op; 3] = [Op::Set, Op::Append, Op::Null];
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

/// A text of the arena: a byte range.
pub(super) type Text = (usize, usize);

/// One decoded event of a step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Event {
    /// Index into the trace's citations.
    Spec(u32),
    Push(Text),
    Clear,
    Prepend(Text),
    ReplaceSecondWithColon,
    Text {
        field: Field,
        op: Op,
        text: Text,
    },
    /// Index into the trace's hosts, or a null host.
    Host(Option<u32>),
    Port(Option<u16>),
    /// Index into the trace's paths.
    Path(u32),
    PathPush(Text),
    PathShorten,
    Pointer(PointerMove),
    SetState(State),
    /// Index into the trace's errors.
    Error(u32),
    /// A host event: where its fields start in the stream and in the arena.
    HostStep(usize, usize),
}

// Event tags (below 0x80; step headers have the high bit set).
/// `0x00..=0x3F`: a citation of index 0 to 63, in one byte.
const SPEC_SHORT: u8 = 0x40;
pub(super) const T_SPEC: u8 = 0x40;
pub(super) const T_PUSH: u8 = 0x41;
pub(super) const T_CLEAR: u8 = 0x42;
pub(super) const T_PREPEND: u8 = 0x43;
pub(super) const T_SECOND_COLON: u8 = 0x44;
/// `T_TEXT + field * 3 + op`, 18 tags.
pub(super) const T_TEXT: u8 = 0x45;
pub(super) const T_HOST_NULL: u8 = 0x57;
pub(super) const T_HOST: u8 = 0x58;
pub(super) const T_PORT_NULL: u8 = 0x59;
pub(super) const T_PORT: u8 = 0x5A;
pub(super) const T_PATH: u8 = 0x5B;
pub(super) const T_PATH_PUSH: u8 = 0x5C;
pub(super) const T_PATH_SHORTEN: u8 = 0x5D;
pub(super) const T_DECREASE: u8 = 0x5E;
pub(super) const T_INCREASE: u8 = 0x5F;
pub(super) const T_START_OVER: u8 = 0x60;
pub(super) const T_SET_STATE: u8 = 0x61;
pub(super) const T_ERROR: u8 = 0x62;
pub(super) const T_HOST_EVENT: u8 = 0x63;
/// `T_PUSH_SHORT + n`: a push of n bytes, 1 to 15.
pub(super) const T_PUSH_SHORT: u8 = 0x70;

pub(super) const HEADER: u8 = 0x80;
/// Header kinds (bits 5 and 6): how the pointer and c follow.
pub(super) const K_NO_C: u8 = 0;
pub(super) const K_C: u8 = 1;
/// The pointer moved one byte on; c follows.
pub(super) const K_NEXT_C: u8 = 2;

#[inline]
pub(super) fn put(bytes: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        bytes.push(v as u8 | 0x80);
        v >>= 7;
    }
    bytes.push(v as u8);
}

#[inline]
pub(super) fn get(bytes: &[u8], pos: &mut usize) -> u64 {
    let mut v = 0u64;
    let mut shift = 0;
    loop {
        let b = bytes[*pos];
        *pos += 1;
        v |= u64::from(b & 0x7F) << shift;
        if b < 0x80 {
            return v;
        }
        shift += 7;
    }
}

pub(super) fn phase_code(phase: Phase) -> u8 {
    match phase {
        Phase::TrimControlOrSpace => 0,
        Phase::RemoveTabOrNewline => 1,
        Phase::State(state) => 2 + state as u8,
    }
}

pub(super) fn phase_of(code: u8) -> Phase {
    match code {
        0 => Phase::TrimControlOrSpace,
        1 => Phase::RemoveTabOrNewline,
        n => Phase::State(State::ALL[usize::from(n - 2)]),
    }
}

pub(super) fn text_tag(field: Field, op: Op) -> u8 {
    T_TEXT + field as u8 * 3 + op as u8
}

pub(super) fn text_of_tag(tag: u8) -> (Field, Op) {
    let n = tag - T_TEXT;
    (Field::ALL[usize::from(n / 3)], Op::ALL[usize::from(n % 3)])
}

/// Where decoding stands at the start of a step: the stream and arena offsets, the previous
/// step's pointer (a byte offset, as recorded), and how many code points of the input start
/// before it (the pointer in code points, found without a table).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct At {
    pub(super) pos: usize,
    pub(super) arena: usize,
    pub(super) pointer: usize,
    pub(super) before: usize,
}

/// Citations of the standard's steps (`&'static str`), each stored once: a stream refers to
/// them by index. A small cache keyed by the string's address makes the look-up a few loads.
#[derive(Clone, Debug)]
struct Citations {
    table: Vec<&'static str>,
    cache: Vec<(usize, usize, u32)>,
}

const CACHE_SLOTS: usize = 256;

impl Default for Citations {
    fn default() -> Self {
        Citations {
            table: Vec::new(),
            cache: vec![(0, 0, 0); CACHE_SLOTS],
        }
    }
}

impl Citations {
    #[inline]
    fn index(&mut self, s: &'static str) -> u32 {
        let key = s.as_ptr() as usize;
        // Fibonacci hashing on 64 bits, whatever the pointer's width (32 on wasm32): the top
        // byte picks the slot.
        let slot = ((key as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 56) as usize % CACHE_SLOTS;
        let (k, len, i) = self.cache[slot];
        if k == key && len == s.len() {
            return i;
        }
        let i = match self
            .table
            .iter()
            .position(|t| t.as_ptr() == s.as_ptr() && t.len() == s.len())
        {
            Some(i) => i as u32,
            None => {
                self.table.push(s);
                (self.table.len() - 1) as u32
            }
        };
        self.cache[slot] = (key, s.len(), i);
        i
    }
}

/// Records every step of a parse. Turn it into a [`Trace`] with [`Recorder::finish`].
#[derive(Clone, Debug, Default)]
pub struct Recorder {
    bytes: Vec<u8>,
    arena: String,
    checkpoints: Vec<At>,
    steps: usize,
    /// The last step's pointer (bytes).
    pointer: usize,
    citations: Citations,
    hosts: Vec<Host>,
    paths: Vec<Path>,
    /// Repeats past the limit share one entry, which each of their steps points at.
    errors: crate::validation::RawErrors,
    /// A host event's fields, before their length is known.
    scratch: Vec<u8>,
    host_input: Option<Range<usize>>,
    failed: Option<bool>,
}

impl Recorder {
    pub fn new() -> Self {
        Self::default()
    }

    #[inline]
    fn text(&mut self, tag: u8, s: &str) {
        self.bytes.push(tag);
        put(&mut self.bytes, s.len() as u64);
        self.arena.push_str(s);
    }

    /// Maps every offset to the original input and returns the finished trace.
    pub fn finish(mut self, original: &str, initial: UrlRecord) -> Trace {
        let map = OffsetMap::new(original);
        // A finished trace is kept (by a front end) while it is looked at, so give back slack
        // that the reservation or doubling left, when there is much of it (a copy costs too).
        // The two are most of the trace: a sixteenth of slack is given back.
        if self.bytes.capacity() > self.bytes.len() + self.bytes.len() / 16 + 64 {
            self.bytes.shrink_to_fit();
        }
        if self.arena.capacity() > self.arena.len() + self.arena.len() / 16 + 64 {
            self.arena.shrink_to_fit();
        }
        self.checkpoints.shrink_to_fit();
        // Each checkpoint's count of code points before its pointer, counted from the previous.
        let bytes = original.as_bytes();
        let ascii = original.is_ascii();
        let (mut at, mut before) = (0, 0);
        for checkpoint in &mut self.checkpoints {
            let to = checkpoint.pointer.min(bytes.len());
            before = if ascii {
                to
            } else if to >= at {
                before + starts(&bytes[at..to])
            } else {
                before - starts(&bytes[to..at])
            };
            at = to;
            checkpoint.before = before;
        }
        let errors = self.errors.located(|span| map.span(span));
        Trace {
            input: original.to_owned(),
            ascii,
            len: self.steps,
            bytes: self.bytes,
            arena: self.arena,
            checkpoints: self.checkpoints,
            citations: self.citations.table,
            hosts: self.hosts,
            paths: self.paths,
            errors,
            host_events: Default::default(),
            host_span: self.host_input.map(|span| map.span(span)),
            initial,
            failed: self.failed.unwrap_or(false),
            replay: ReplayCache::default(),
        }
    }
}

/// How many code points start in `bytes` (the bytes that are not UTF-8 continuation bytes).
#[inline]
pub(super) fn starts(bytes: &[u8]) -> usize {
    bytes.iter().filter(|&&b| (b as i8) >= -0x40).count()
}

impl Tracer for Recorder {
    const ENABLED: bool = true;

    fn begin(&mut self, len: usize) {
        self.bytes.reserve(6 * len + 64);
        self.arena.reserve(len + 32);
        self.checkpoints.reserve(len / CHECKPOINT_STEPS + 4);
    }

    fn validation_error(&mut self, kind: ValidationErrorKind, span: Range<usize>, phase: Phase) {
        let index = self.errors.push(kind, span, phase) as u64;
        self.bytes.push(T_ERROR);
        put(&mut self.bytes, index);
    }

    fn host_input(&mut self, span: Range<usize>) {
        self.host_input = Some(span);
    }

    #[inline]
    fn begin_step(&mut self, phase: Phase, pointer: usize, c: Option<char>) {
        if self.steps.is_multiple_of(CHECKPOINT_STEPS) {
            self.checkpoints.push(At {
                pos: self.bytes.len(),
                arena: self.arena.len(),
                pointer: self.pointer,
                before: 0,
            });
        }
        self.steps += 1;
        let delta = pointer as i64 - self.pointer as i64;
        self.pointer = pointer;
        let kind = match c {
            None => K_NO_C,
            Some(_) if delta == 1 => K_NEXT_C,
            Some(_) => K_C,
        };
        self.bytes.push(HEADER | kind << 5 | phase_code(phase));
        if kind != K_NEXT_C {
            put(&mut self.bytes, ((delta << 1) ^ (delta >> 63)) as u64);
        }
        if let Some(c) = c {
            put(&mut self.bytes, u64::from(c));
        }
    }

    #[inline]
    fn spec_step(&mut self, step: &'static str) {
        let index = self.citations.index(step);
        if index < u32::from(SPEC_SHORT) {
            self.bytes.push(index as u8);
        } else {
            self.bytes.push(T_SPEC);
            put(&mut self.bytes, u64::from(index));
        }
    }

    #[inline]
    fn buffer(&mut self, op: BufferOp<'_>) {
        match op {
            BufferOp::Push(s) if !s.is_empty() && s.len() < 16 => {
                self.bytes.push(T_PUSH_SHORT + s.len() as u8);
                self.arena.push_str(s);
            }
            BufferOp::Push(s) => self.text(T_PUSH, s),
            BufferOp::Clear => self.bytes.push(T_CLEAR),
            BufferOp::Prepend(s) => self.text(T_PREPEND, s),
            BufferOp::ReplaceSecondWithColon => self.bytes.push(T_SECOND_COLON),
        }
    }

    #[inline]
    fn change(&mut self, change: Change<'_>) {
        match change {
            Change::Host(None) => self.bytes.push(T_HOST_NULL),
            Change::Host(Some(h)) => {
                self.bytes.push(T_HOST);
                put(&mut self.bytes, self.hosts.len() as u64);
                self.hosts.push(h.clone());
            }
            Change::Port(None) => self.bytes.push(T_PORT_NULL),
            Change::Port(Some(p)) => {
                self.bytes.push(T_PORT);
                self.bytes.extend_from_slice(&p.to_le_bytes());
            }
            Change::Path(p) => {
                self.bytes.push(T_PATH);
                put(&mut self.bytes, self.paths.len() as u64);
                self.paths.push(p.clone());
            }
            Change::PathPush(s) => self.text(T_PATH_PUSH, s),
            Change::PathShorten => self.bytes.push(T_PATH_SHORTEN),
            text => {
                let Some((field, op, s)) = text.as_text() else {
                    return;
                };
                if op == Op::Null {
                    self.bytes.push(text_tag(field, op));
                } else {
                    self.text(text_tag(field, op), s);
                }
            }
        }
    }

    fn pointer(&mut self, mv: PointerMove) {
        match mv {
            PointerMove::Decrease(n) => {
                self.bytes.push(T_DECREASE);
                put(&mut self.bytes, n as u64);
            }
            PointerMove::Increase(n) => {
                self.bytes.push(T_INCREASE);
                put(&mut self.bytes, n as u64);
            }
            PointerMove::StartOver => self.bytes.push(T_START_OVER),
        }
    }

    fn set_state(&mut self, state: State) {
        self.bytes.push(T_SET_STATE);
        self.bytes.push(state as u8);
    }

    fn host(&mut self, event: HostEvent) {
        let arena = self.arena.len();
        self.scratch.clear();
        encode_host(&event, &mut self.scratch, &mut self.arena);
        self.bytes.push(T_HOST_EVENT);
        put(&mut self.bytes, self.scratch.len() as u64);
        put(&mut self.bytes, (self.arena.len() - arena) as u64);
        self.bytes.extend_from_slice(&self.scratch);
    }

    fn end(&mut self, failure: bool) {
        self.failed = Some(failure);
    }
}

/// A host event's fields: a variant byte, then numbers as varints, flags as bytes and strings
/// as lengths (their bytes go to the arena). A string's length is shifted left by one, and its
/// low bit says it is the event's previous string again (a domain that decoding or ToASCII left
/// as it was, an ASCII label), stored once.
fn encode_host(event: &HostEvent, out: &mut Vec<u8>, arena: &mut String) {
    let mut previous = None;
    let mut s = |out: &mut Vec<u8>, text: &str| {
        if previous == Some(text.len()) && arena.ends_with(text) {
            put(out, (text.len() as u64) << 1 | 1);
        } else {
            put(out, (text.len() as u64) << 1);
            arena.push_str(text);
        }
        previous = Some(text.len());
    };
    match event {
        HostEvent::Ipv6Input { input } => {
            out.push(0);
            s(out, input);
        }
        HostEvent::OpaqueHost { input, output } => {
            out.push(1);
            s(out, input);
            s(out, output);
        }
        HostEvent::PercentDecoded { input, domain } => {
            out.push(2);
            s(out, input);
            s(out, domain);
        }
        HostEvent::DomainToAscii {
            strict,
            input,
            output,
            errors,
        } => {
            out.push(3);
            out.push(u8::from(*strict));
            s(out, input);
            for value in [output, errors] {
                match value {
                    Some(v) => {
                        out.push(1);
                        s(out, v);
                    }
                    None => out.push(0),
                }
            }
        }
        HostEvent::AsciiLowercase { output } => {
            out.push(4);
            s(out, output);
        }
        HostEvent::IdnaLabel { unicode, ascii } => {
            out.push(5);
            s(out, unicode);
            s(out, ascii);
        }
        HostEvent::EndsInANumber { input, result } => {
            out.push(6);
            s(out, input);
            out.push(u8::from(*result));
        }
        HostEvent::Ipv4Part { text, radix, value } => {
            out.push(7);
            s(out, text);
            put(out, u64::from(*radix));
            match value {
                Some(v) => {
                    out.push(1);
                    put(out, *v);
                }
                None => out.push(0),
            }
        }
        HostEvent::Ipv4Address { address } => {
            out.push(8);
            put(out, u64::from(*address));
        }
        HostEvent::Ipv6Piece { index, text, value } => {
            out.push(9);
            put(out, *index as u64);
            s(out, text);
            put(out, u64::from(*value));
        }
        HostEvent::Ipv6Compress { piece_index } => {
            out.push(10);
            put(out, *piece_index as u64);
        }
        HostEvent::Ipv4InIpv6Part { text, value } => {
            out.push(11);
            s(out, text);
            out.push(*value);
        }
        HostEvent::Ipv6Swap { swaps, compress } => {
            out.push(12);
            put(out, *swaps as u64);
            put(out, *compress as u64);
        }
        HostEvent::Ipv6Address { pieces } => {
            out.push(13);
            for piece in pieces {
                put(out, u64::from(*piece));
            }
        }
        HostEvent::Failure => out.push(14),
    }
}

/// Reads a host event back (`pos` and `arena`: where its fields start).
pub(super) fn decode_host(bytes: &[u8], mut pos: usize, arena: &str, mut at: usize) -> HostEvent {
    let n = |pos: &mut usize| get(bytes, pos);
    let mut s = |pos: &mut usize| {
        let len = get(bytes, pos) as usize;
        if len & 1 == 0 {
            at += len >> 1;
        }
        arena[at - (len >> 1)..at].to_owned()
    };
    let byte = |pos: &mut usize| {
        *pos += 1;
        bytes[*pos - 1]
    };
    match byte(&mut pos) {
        0 => HostEvent::Ipv6Input { input: s(&mut pos) },
        1 => HostEvent::OpaqueHost {
            input: s(&mut pos),
            output: s(&mut pos),
        },
        2 => HostEvent::PercentDecoded {
            input: s(&mut pos),
            domain: s(&mut pos),
        },
        3 => {
            let strict = byte(&mut pos) != 0;
            let input = s(&mut pos);
            let output = (byte(&mut pos) != 0).then(|| s(&mut pos));
            let errors = (byte(&mut pos) != 0).then(|| s(&mut pos));
            HostEvent::DomainToAscii {
                strict,
                input,
                output,
                errors,
            }
        }
        4 => HostEvent::AsciiLowercase {
            output: s(&mut pos),
        },
        5 => HostEvent::IdnaLabel {
            unicode: s(&mut pos),
            ascii: s(&mut pos),
        },
        6 => HostEvent::EndsInANumber {
            input: s(&mut pos),
            result: byte(&mut pos) != 0,
        },
        7 => HostEvent::Ipv4Part {
            text: s(&mut pos),
            radix: n(&mut pos) as u32,
            value: (byte(&mut pos) != 0).then(|| n(&mut pos)),
        },
        8 => HostEvent::Ipv4Address {
            address: n(&mut pos) as u32,
        },
        9 => HostEvent::Ipv6Piece {
            index: n(&mut pos) as usize,
            text: s(&mut pos),
            value: n(&mut pos) as u16,
        },
        10 => HostEvent::Ipv6Compress {
            piece_index: n(&mut pos) as usize,
        },
        11 => HostEvent::Ipv4InIpv6Part {
            text: s(&mut pos),
            value: byte(&mut pos),
        },
        12 => HostEvent::Ipv6Swap {
            swaps: n(&mut pos) as usize,
            compress: n(&mut pos) as usize,
        },
        13 => HostEvent::Ipv6Address {
            pieces: std::array::from_fn(|_| n(&mut pos) as u16),
        },
        _ => HostEvent::Failure,
    }
}
