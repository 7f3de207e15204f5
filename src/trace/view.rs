//! The finished trace: its steps, decoded from the packed stream, the views rebuilt from the
//! stored edits, and the replay that moves to any step by applying or undoing them.

use serde::Serialize;
use std::ops::Range;
use std::sync::OnceLock;

use super::recorder::{
    decode_host, get, phase_of, starts, text_of_tag, At, Event, Field, Op, Text, CHECKPOINT_STEPS,
    HEADER, K_NEXT_C, K_NO_C, T_CLEAR, T_DECREASE, T_ERROR, T_HOST, T_HOST_EVENT, T_HOST_NULL,
    T_INCREASE, T_PATH, T_PATH_PUSH, T_PATH_SHORTEN, T_PORT, T_PORT_NULL, T_PREPEND, T_PUSH,
    T_PUSH_SHORT, T_SECOND_COLON, T_SET_STATE, T_SPEC, T_START_OVER, T_TEXT,
};
use super::{HostEvent, PointerMove};
use crate::url::code_points::is_normalized_windows_drive_letter;
use crate::url::explain::SpecStep;
use crate::url::record::{Host, Path, UrlRecord};
use crate::url::state::{Phase, State};
use crate::validation::ValidationError;

mod destination;
pub use destination::Destination;

/// One step of a finished trace. `pointer` is a code point offset into the original input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Step {
    pub phase: Phase,
    pub pointer: usize,
    pub c: Option<char>,
}

/// A finished trace: the steps of one run of the basic URL parser, with the validation errors it
/// raised (spans in code points of the original input). The steps are packed into one byte
/// stream (see the recorder), so a trace takes a few bytes per step; a step is decoded when it
/// is looked at, from the checkpoint before it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Trace {
    pub(super) input: String,
    pub(super) ascii: bool,
    pub(super) len: usize,
    pub(super) bytes: Vec<u8>,
    pub(super) arena: String,
    /// Where decoding stands at the start of every `CHECKPOINT_STEPS`th step.
    pub(super) checkpoints: Vec<At>,
    pub(super) citations: Vec<&'static str>,
    pub(super) hosts: Vec<Host>,
    pub(super) paths: Vec<Path>,
    pub(super) errors: Vec<ValidationError>,
    pub(super) host_events: HostEventCache,
    /// Where in the input the host parser last ran (code points).
    pub(super) host_span: Option<crate::validation::Span>,
    /// The record the run started from (a new URL, or the URL a setter edits).
    pub(super) initial: UrlRecord,
    pub(super) failed: bool,
    pub(super) replay: ReplayCache,
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

/// One thing a step did, in the order of [`Trace::cited_effects`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Effect<'a> {
    /// An edit of the URL record.
    Change(ChangeView<'a>),
    /// An edit of the buffer: the buffer after it.
    Buffer(String),
    Pointer(PointerMove),
    Error(&'a ValidationError),
    /// The state was set: the state the parser goes on in.
    State(State),
}

impl std::fmt::Display for Effect<'_> {
    /// The compact form of the trace's changes column: `path+=[C:]`, `buffer=C:`, `pointer−1`,
    /// `⚠ invalid-URL-unit`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Effect::Change(c) => c.fmt(f),
            Effect::Buffer(b) => write!(f, "buffer={b}"),
            Effect::Pointer(m) => m.fmt(f),
            Effect::Error(e) => write!(f, "⚠ {}", e.kind.name()),
            Effect::State(s) => write!(f, "state={}", s.name()),
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
    /// The host parser's sub-steps, decoded from the trace.
    pub host_events: Vec<HostEvent>,
    /// What the next step is: the remove-tab-or-newline step after step 0 (the basic URL
    /// parser's steps 1 to 3 come before its state machine and are not states), else the state
    /// the next step runs in; `None` when the parser returned after this step.
    pub next: Option<Phase>,
}

/// The steps of a trace, decoded in order; see [`Trace::steps`].
#[derive(Clone, Copy, Debug)]
pub struct Steps<'a> {
    trace: &'a Trace,
}

impl<'a> Steps<'a> {
    pub fn len(&self) -> usize {
        self.trace.len
    }

    pub fn is_empty(&self) -> bool {
        self.trace.len == 0
    }

    /// Step `index`, decoded from the checkpoint before it.
    pub fn get(&self, index: usize) -> Option<Step> {
        (index < self.trace.len).then(|| self.trace.step(index))
    }

    pub fn iter(&self) -> StepIter<'a> {
        StepIter {
            trace: self.trace,
            at: self.trace.start(),
            index: 0,
        }
    }
}

impl<'a> IntoIterator for Steps<'a> {
    type Item = Step;
    type IntoIter = StepIter<'a>;

    fn into_iter(self) -> StepIter<'a> {
        self.iter()
    }
}

/// An iterator over the steps of a trace, decoding each once.
#[derive(Clone, Debug)]
pub struct StepIter<'a> {
    trace: &'a Trace,
    at: At,
    index: usize,
}

impl Iterator for StepIter<'_> {
    type Item = Step;

    fn next(&mut self) -> Option<Step> {
        if self.index >= self.trace.len {
            return None;
        }
        self.index += 1;
        let step = self.trace.header(&mut self.at);
        while self.trace.event(&mut self.at).is_some() {}
        Some(step)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let left = self.trace.len - self.index;
        (left, Some(left))
    }
}

impl ExactSizeIterator for StepIter<'_> {}

impl Trace {
    pub fn input(&self) -> &str {
        &self.input
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The steps, decoded as they are iterated.
    pub fn steps(&self) -> Steps<'_> {
        Steps { trace: self }
    }

    /// Step `index` (phase, pointer and c). Panics when `index` is not below [`Trace::len`].
    pub fn step(&self, index: usize) -> Step {
        assert!(index < self.len, "step {index} of a trace of {}", self.len);
        let mut at = self.at_step(index);
        self.header(&mut at)
    }

    pub fn errors(&self) -> &[ValidationError] {
        &self.errors
    }

    /// The host parser's sub-steps, in order. They are decoded from the trace on the first
    /// call and kept.
    pub fn host_events(&self) -> &[HostEvent] {
        self.host_events.0.get_or_init(|| {
            let mut events = Vec::new();
            let mut at = At::default();
            while at.pos < self.bytes.len() {
                if self.bytes[at.pos] >= HEADER {
                    self.header(&mut at);
                } else if let Some(Event::HostStep(pos, arena)) = self.event(&mut at) {
                    events.push(decode_host(&self.bytes, pos, &self.arena, arena));
                }
            }
            events
        })
    }

    /// Where in the input the host parser last ran (code points), if it ran.
    pub fn host_span(&self) -> Option<crate::validation::Span> {
        self.host_span
    }

    /// The heap memory the trace holds, in bytes (capacities, not lengths).
    pub fn heap_bytes(&self) -> usize {
        use std::mem::size_of;
        let host_events = self.host_events.0.get().map_or(0, |events| {
            events.capacity() * size_of::<HostEvent>()
                + events.iter().map(host_event_heap).sum::<usize>()
        });
        self.input.capacity()
            + self.bytes.capacity()
            + self.arena.capacity()
            + self.checkpoints.capacity() * size_of::<At>()
            + self.citations.capacity() * size_of::<&str>()
            + self.hosts.capacity() * size_of::<Host>()
            + self.hosts.iter().map(host_heap).sum::<usize>()
            + self.paths.capacity() * size_of::<Path>()
            + self.paths.iter().map(path_heap).sum::<usize>()
            + self.errors.capacity() * size_of::<ValidationError>()
            + host_events
    }

    /// Whether the run ended in failure.
    pub fn failed(&self) -> bool {
        self.failed
    }

    pub(super) fn text(&self, (a, b): Text) -> &str {
        &self.arena[a..b]
    }

    /// Where decoding stands at the first step.
    pub(super) fn start(&self) -> At {
        self.checkpoints.first().copied().unwrap_or_default()
    }

    /// Where decoding stands at step `index`: the checkpoint before it, then the steps between.
    fn at_step(&self, index: usize) -> At {
        let mut at = self.checkpoints[index / CHECKPOINT_STEPS];
        for _ in 0..index % CHECKPOINT_STEPS {
            self.skip_step(&mut at);
        }
        at
    }

    fn skip_step(&self, at: &mut At) {
        self.header(at);
        while self.event(at).is_some() {}
    }

    /// Reads the header of the step at `at` and moves past it.
    #[inline]
    pub(super) fn header(&self, at: &mut At) -> Step {
        let bytes = &self.bytes;
        let tag = bytes[at.pos];
        at.pos += 1;
        let kind = (tag >> 5) & 3;
        let pointer = if kind == K_NEXT_C {
            at.pointer + 1
        } else {
            let z = get(bytes, &mut at.pos);
            let delta = (z >> 1) as i64 ^ -((z & 1) as i64);
            (at.pointer as i64 + delta) as usize
        };
        let c = if kind == K_NO_C {
            None
        } else {
            char::from_u32(get(bytes, &mut at.pos) as u32)
        };
        // The pointer in code points, as `OffsetMap::code_point` maps it: clamped to the
        // input, and a byte inside a code point belongs to that code point.
        let input = self.input.as_bytes();
        let (from, to) = (at.pointer.min(input.len()), pointer.min(input.len()));
        let code_point = if self.ascii {
            at.before = to;
            to
        } else {
            at.before = if to >= from {
                at.before + starts(&input[from..to])
            } else {
                at.before - starts(&input[to..from])
            };
            at.before - usize::from(to < input.len() && (input[to] as i8) < -0x40)
        };
        at.pointer = pointer;
        Step {
            phase: phase_of(tag & 0x1F),
            pointer: code_point,
            c,
        }
    }

    /// Reads the next event of the step at `at`, or `None` at the next step or the end.
    #[inline]
    pub(super) fn event(&self, at: &mut At) -> Option<Event> {
        let bytes = &self.bytes;
        let tag = *bytes.get(at.pos)?;
        if tag >= HEADER {
            return None;
        }
        at.pos += 1;
        let text = |at: &mut At, len: usize| {
            at.arena += len;
            (at.arena - len, at.arena)
        };
        Some(match tag {
            0..T_SPEC => Event::Spec(u32::from(tag)),
            T_SPEC => Event::Spec(get(bytes, &mut at.pos) as u32),
            T_PUSH => {
                let len = get(bytes, &mut at.pos) as usize;
                Event::Push(text(at, len))
            }
            T_CLEAR => Event::Clear,
            T_PREPEND => {
                let len = get(bytes, &mut at.pos) as usize;
                Event::Prepend(text(at, len))
            }
            T_SECOND_COLON => Event::ReplaceSecondWithColon,
            T_TEXT..T_HOST_NULL => {
                let (field, op) = text_of_tag(tag);
                let len = match op {
                    Op::Null => 0,
                    Op::Set | Op::Append => get(bytes, &mut at.pos) as usize,
                };
                Event::Text {
                    field,
                    op,
                    text: text(at, len),
                }
            }
            T_HOST_NULL => Event::Host(None),
            T_HOST => Event::Host(Some(get(bytes, &mut at.pos) as u32)),
            T_PORT_NULL => Event::Port(None),
            T_PORT => {
                at.pos += 2;
                Event::Port(Some(u16::from_le_bytes([
                    bytes[at.pos - 2],
                    bytes[at.pos - 1],
                ])))
            }
            T_PATH => Event::Path(get(bytes, &mut at.pos) as u32),
            T_PATH_PUSH => {
                let len = get(bytes, &mut at.pos) as usize;
                Event::PathPush(text(at, len))
            }
            T_PATH_SHORTEN => Event::PathShorten,
            T_DECREASE => Event::Pointer(PointerMove::Decrease(get(bytes, &mut at.pos) as usize)),
            T_INCREASE => Event::Pointer(PointerMove::Increase(get(bytes, &mut at.pos) as usize)),
            T_START_OVER => Event::Pointer(PointerMove::StartOver),
            T_SET_STATE => {
                at.pos += 1;
                Event::SetState(State::ALL[usize::from(bytes[at.pos - 1])])
            }
            T_ERROR => Event::Error(get(bytes, &mut at.pos) as u32),
            T_HOST_EVENT => {
                let len = get(bytes, &mut at.pos) as usize;
                let arena = get(bytes, &mut at.pos) as usize;
                let event = Event::HostStep(at.pos, at.arena);
                at.pos += len;
                at.arena += arena;
                event
            }
            _ => Event::Push(text(at, usize::from(tag - T_PUSH_SHORT))),
        })
    }

    /// The view of step `index`.
    pub fn view(&self, index: usize) -> StepView<'_> {
        self.view_at(index, self.at_step(index))
    }

    /// The view of step `index`, decoded from `at` (where that step starts).
    fn view_at(&self, index: usize, mut at: At) -> StepView<'_> {
        let step = self.header(&mut at);
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
        while let Some(event) = self.event(&mut at) {
            match event {
                Event::Spec(i) => view.spec_steps.push(self.citations[i as usize]),
                Event::Pointer(m) => view.pointer_moves.push(m),
                Event::Error(i) => view.errors.push(&self.errors[i as usize]),
                Event::HostStep(pos, arena) => {
                    view.host_events
                        .push(decode_host(&self.bytes, pos, &self.arena, arena))
                }
                Event::Push(_)
                | Event::Clear
                | Event::Prepend(_)
                | Event::ReplaceSecondWithColon
                | Event::SetState(_) => {}
                change => view.changes.extend(self.change_view(change)),
            }
        }
        // The next step's header follows this step's events.
        view.next = match self.bytes.get(at.pos).map(|tag| phase_of(tag & 0x1F)) {
            Some(phase) if index + 1 < self.len => Some(phase),
            _ => None,
        };
        view
    }

    /// What step `index` did, event by event in the order it did it, each with the standard's
    /// step cited last before it: the step that did it. (A [`StepView`] lists the citations
    /// and the changes apart.)
    pub fn cited_effects(&self, index: usize) -> Vec<(Option<&'static str>, Effect<'_>)> {
        if index >= self.len {
            return Vec::new();
        }
        let mut buffer = match index {
            0 => String::new(),
            _ => self.state_after(index - 1).0,
        };
        let mut at = self.at_step(index);
        self.header(&mut at);
        let mut cited = None;
        let mut effects = Vec::new();
        while let Some(event) = self.event(&mut at) {
            let effect = match event {
                Event::Spec(i) => {
                    cited = Some(self.citations[i as usize]);
                    continue;
                }
                Event::Push(_)
                | Event::Clear
                | Event::Prepend(_)
                | Event::ReplaceSecondWithColon => {
                    self.apply_buffer(&mut buffer, event);
                    Effect::Buffer(buffer.clone())
                }
                Event::Pointer(m) => Effect::Pointer(m),
                Event::Error(i) => Effect::Error(&self.errors[i as usize]),
                Event::SetState(state) => Effect::State(state),
                Event::HostStep(..) => continue,
                change => match self.change_view(change) {
                    Some(c) => Effect::Change(c),
                    None => continue,
                },
            };
            effects.push((cited, effect));
        }
        effects
    }

    fn change_view(&self, change: Event) -> Option<ChangeView<'_>> {
        let set = |field, value: Option<String>| ChangeView::Set { field, value };
        Some(match change {
            Event::Text { field, op, text } => {
                let value = self.text(text);
                match op {
                    Op::Set => set(field.name(), Some(value.to_owned())),
                    Op::Null => set(field.name(), None),
                    Op::Append => ChangeView::Append {
                        field: field.name(),
                        value,
                    },
                }
            }
            Event::Host(h) => set("host", h.map(|i| self.hosts[i as usize].to_string())),
            Event::Port(p) => set("port", p.map(|p| p.to_string())),
            Event::Path(i) => {
                let mut s = String::new();
                self.paths[i as usize].serialize_into(&mut s);
                set("path", Some(s))
            }
            Event::PathPush(text) => ChangeView::PathPush {
                value: self.text(text),
            },
            Event::PathShorten => ChangeView::PathShorten,
            _ => return None,
        })
    }

    /// Applies a buffer edit; other events leave the buffer alone.
    fn apply_buffer(&self, buffer: &mut String, event: Event) {
        match event {
            Event::Push(text) => buffer.push_str(self.text(text)),
            Event::Clear => buffer.clear(),
            Event::Prepend(text) => buffer.insert_str(0, self.text(text)),
            Event::ReplaceSecondWithColon => {
                if let Some((i, c)) = buffer.char_indices().nth(1) {
                    buffer.replace_range(i..i + c.len_utf8(), ":");
                }
            }
            _ => {}
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
            replay: Replay::new(self),
        }
    }

    /// Runs `f` on the trace's own replay, or on a fresh one when it is in use (a call from
    /// inside [`Trace::for_each_in`]'s closure).
    fn with_replay<R>(&self, f: impl FnOnce(&mut Replay) -> R) -> R {
        match self.replay.0.try_lock() {
            Ok(mut guard) => {
                let replay = guard.get_or_insert_with(|| Replay::new(self));
                f(replay)
            }
            Err(_) => f(&mut Replay::new(self)),
        }
    }

    /// Calls `f` with each step's view and the buffer after it, rebuilding the buffer
    /// incrementally (one pass over the trace).
    pub fn for_each_with_buffer(&self, mut f: impl FnMut(StepView<'_>, &str)) {
        let mut buffer = String::new();
        let mut at = self.start();
        for index in 0..self.len {
            let start = at;
            self.header(&mut at);
            while let Some(event) = self.event(&mut at) {
                self.apply_buffer(&mut buffer, event);
            }
            f(self.view_at(index, start), &buffer);
        }
    }

    /// Like [`Trace::for_each_with_buffer`] for the steps in `range` only. It moves the trace's
    /// replay position (see [`Trace::state_after`]), so a front end that shows a moving window
    /// of a long trace pays for the window and the move, not for the steps before it.
    pub fn for_each_in(&self, range: Range<usize>, mut f: impl FnMut(StepView<'_>, &str)) {
        let end = range.end.min(self.len);
        if range.start >= end {
            return;
        }
        self.with_replay(|replay| {
            replay.seek(self, range.start);
            for index in range.start..end {
                let at = replay.at;
                replay.seek(self, index + 1);
                f(self.view_at(index, at), &replay.buffer);
            }
        });
    }

    /// Calls `f` with each step's view and its [`BufferEdit`], in one pass over the trace.
    pub fn for_each_with_buffer_edit(&self, mut f: impl FnMut(StepView<'_>, BufferEdit<'_>)) {
        let mut buffer = String::new();
        // The buffer's length in code points.
        let mut length = 0;
        let mut at = self.start();
        for index in 0..self.len {
            let start = at;
            self.header(&mut at);
            // The prefix of the previous buffer that survives the step, in bytes and in code
            // points.
            let (mut low, mut low_length) = (buffer.len(), length);
            while let Some(event) = self.event(&mut at) {
                match event {
                    Event::Push(text) => length += self.text(text).chars().count(),
                    Event::Clear => (low, low_length, length) = (0, 0, 0),
                    Event::Prepend(text) => {
                        (low, low_length) = (0, 0);
                        length += self.text(text).chars().count();
                    }
                    Event::ReplaceSecondWithColon => {
                        if let Some((i, _)) = buffer.char_indices().nth(1) {
                            if i < low {
                                (low, low_length) = (i, 1);
                            }
                        }
                    }
                    _ => continue,
                }
                self.apply_buffer(&mut buffer, event);
            }
            let edit = BufferEdit {
                keep: low_length,
                append: &buffer[low..],
                length,
            };
            f(self.view_at(index, start), edit);
        }
    }
}

fn host_heap(host: &Host) -> usize {
    match host {
        Host::Domain(s) | Host::Opaque(s) => s.capacity(),
        Host::Ipv4(_) | Host::Ipv6(_) | Host::Empty => 0,
    }
}

fn path_heap(path: &Path) -> usize {
    match path {
        Path::Opaque(s) => s.capacity(),
        Path::List(segments) => {
            segments.capacity() * std::mem::size_of::<String>()
                + segments.iter().map(String::capacity).sum::<usize>()
        }
    }
}

fn record_heap(record: &UrlRecord) -> usize {
    let opt = |s: &Option<String>| s.as_ref().map_or(0, String::capacity);
    record.scheme.capacity()
        + record.username.capacity()
        + record.password.capacity()
        + record.host.as_ref().map_or(0, host_heap)
        + path_heap(&record.path)
        + opt(&record.query)
        + opt(&record.fragment)
}

fn host_event_heap(event: &HostEvent) -> usize {
    let opt = |s: &Option<String>| s.as_ref().map_or(0, String::capacity);
    match event {
        HostEvent::Ipv6Input { input } => input.capacity(),
        HostEvent::OpaqueHost { input, output } => input.capacity() + output.capacity(),
        HostEvent::PercentDecoded { input, domain } => input.capacity() + domain.capacity(),
        HostEvent::DomainToAscii {
            input,
            output,
            errors,
            ..
        } => input.capacity() + opt(output) + opt(errors),
        HostEvent::AsciiLowercase { output } => output.capacity(),
        HostEvent::IdnaLabel { unicode, ascii } => unicode.capacity() + ascii.capacity(),
        HostEvent::EndsInANumber { input, .. } => input.capacity(),
        HostEvent::Ipv4Part { text, .. }
        | HostEvent::Ipv6Piece { text, .. }
        | HostEvent::Ipv4InIpv6Part { text, .. } => text.capacity(),
        HostEvent::Ipv4Address { .. }
        | HostEvent::Ipv6Compress { .. }
        | HostEvent::Ipv6Swap { .. }
        | HostEvent::Ipv6Address { .. }
        | HostEvent::Failure => 0,
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

    /// The heap memory the cursor holds, in bytes: the buffer, the record, and what it keeps
    /// to go back.
    pub fn heap_bytes(&self) -> usize {
        self.replay.heap_bytes()
    }
}

/// Where a string field lives in the record.
enum Slot<'r> {
    Required(&'r mut String),
    Nullable(&'r mut Option<String>),
    /// The opaque path of a URL whose path is a list.
    Absent,
}

fn slot(record: &mut UrlRecord, field: Field) -> Slot<'_> {
    match field {
        Field::Scheme => Slot::Required(&mut record.scheme),
        Field::Username => Slot::Required(&mut record.username),
        Field::Password => Slot::Required(&mut record.password),
        Field::OpaquePath => match &mut record.path {
            Path::Opaque(s) => Slot::Required(s),
            Path::List(_) => Slot::Absent,
        },
        Field::Query => Slot::Nullable(&mut record.query),
        Field::Fragment => Slot::Nullable(&mut record.fragment),
    }
}

/// The values that edits replaced, newest last, so that they can be put back. An edit that
/// only appends is taken back by its own length, which the trace has: it saves nothing. What
/// an edit saves depends only on the edit and the state it applied to, and taking it back
/// sees the state it left, so every entry is read back without a tag: a string is its bytes
/// and then its length (4 bytes), a flag a byte.
#[derive(Clone, Debug, Default)]
struct Saved(Vec<u8>);

impl Saved {
    fn flag(&mut self, flag: bool) {
        self.0.push(u8::from(flag));
    }

    fn pop_flag(&mut self) -> bool {
        self.0.pop() == Some(1)
    }

    fn str(&mut self, s: &str) {
        self.0.extend_from_slice(s.as_bytes());
        self.0.extend_from_slice(&(s.len() as u32).to_le_bytes());
    }

    /// Puts the last saved string into `into`, replacing what it holds.
    fn pop_str_into(&mut self, into: &mut String) {
        let n = self.0.len();
        let len = u32::from_le_bytes([self.0[n - 4], self.0[n - 3], self.0[n - 2], self.0[n - 1]])
            as usize;
        let start = n - 4 - len;
        into.clear();
        into.push_str(std::str::from_utf8(&self.0[start..n - 4]).unwrap_or_default());
        self.0.truncate(start);
    }

    fn pop_str(&mut self) -> String {
        let mut s = String::new();
        self.pop_str_into(&mut s);
        s
    }

    fn u32(&mut self, v: u32) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }

    fn pop_u32(&mut self) -> u32 {
        let n = self.0.len();
        let v = u32::from_le_bytes([self.0[n - 4], self.0[n - 3], self.0[n - 2], self.0[n - 1]]);
        self.0.truncate(n - 4);
        v
    }
}

/// A replay of a trace's edits: the buffer and the record after the first `done` steps, with
/// what takes them back, so that a move costs the steps it crosses.
#[derive(Clone, Debug)]
struct Replay {
    done: usize,
    /// Where step `done` starts in the trace.
    at: At,
    buffer: String,
    record: UrlRecord,
    saved: Saved,
    /// Hosts and paths that edits replaced, newest last.
    hosts: Vec<Option<Host>>,
    paths: Vec<Path>,
    /// Where each step of one checkpoint's block starts (`block_start..`), to go back a step.
    block_start: usize,
    block: Vec<At>,
    /// The events of the step being taken back.
    events: Vec<Event>,
}

impl Replay {
    fn new(trace: &Trace) -> Self {
        Replay {
            done: 0,
            at: trace.start(),
            buffer: String::new(),
            record: trace.initial.clone(),
            saved: Saved::default(),
            hosts: Vec::new(),
            paths: Vec::new(),
            block_start: 0,
            block: Vec::new(),
            events: Vec::new(),
        }
    }

    fn heap_bytes(&self) -> usize {
        use std::mem::size_of;
        self.buffer.capacity()
            + record_heap(&self.record)
            + self.saved.0.capacity()
            + self.hosts.capacity() * size_of::<Option<Host>>()
            + self.hosts.iter().flatten().map(host_heap).sum::<usize>()
            + self.paths.capacity() * size_of::<Path>()
            + self.paths.iter().map(path_heap).sum::<usize>()
            + self.block.capacity() * size_of::<At>()
            + self.events.capacity() * size_of::<Event>()
    }

    /// Moves to the state after the first `done` steps (at most the trace's length).
    fn seek(&mut self, trace: &Trace, done: usize) {
        let done = done.min(trace.len);
        // Going back further than replaying from the start would go: start over.
        if done < self.done && done < self.done - done {
            self.done = 0;
            self.at = trace.start();
            self.buffer.clear();
            self.record = trace.initial.clone();
            self.saved.0.clear();
            self.hosts.clear();
            self.paths.clear();
        }
        while self.done > done {
            let start = self.step_start(trace, self.done - 1);
            let mut at = start;
            trace.header(&mut at);
            let mut events = std::mem::take(&mut self.events);
            events.clear();
            // Only edits are taken back: a host step of a long domain has an event per label.
            while let Some(event) = trace.event(&mut at) {
                if !matches!(
                    event,
                    Event::Spec(_)
                        | Event::Pointer(_)
                        | Event::SetState(_)
                        | Event::Error(_)
                        | Event::HostStep(..)
                ) {
                    events.push(event);
                }
            }
            for event in events.iter().rev() {
                self.take_back(*event);
            }
            self.events = events;
            self.at = start;
            self.done -= 1;
        }
        while self.done < done {
            let mut at = self.at;
            trace.header(&mut at);
            while let Some(event) = trace.event(&mut at) {
                self.apply(trace, event);
            }
            self.at = at;
            self.done += 1;
        }
    }

    /// Where step `index` starts: from the block of steps kept, or by decoding its block from
    /// the checkpoint.
    fn step_start(&mut self, trace: &Trace, index: usize) -> At {
        if index < self.block_start || index >= self.block_start + self.block.len() {
            self.block_start = index - index % CHECKPOINT_STEPS;
            self.block.clear();
            let mut at = trace.checkpoints[index / CHECKPOINT_STEPS];
            for _ in self.block_start..(self.block_start + CHECKPOINT_STEPS).min(trace.len) {
                self.block.push(at);
                trace.skip_step(&mut at);
            }
        }
        self.block[index - self.block_start]
    }

    /// Applies an edit, saving what it replaces.
    fn apply(&mut self, trace: &Trace, event: Event) {
        let record = &mut self.record;
        let saved = &mut self.saved;
        match event {
            Event::Clear => {
                saved.str(&self.buffer);
                self.buffer.clear();
            }
            Event::ReplaceSecondWithColon => match self.buffer.char_indices().nth(1) {
                Some((i, c)) => {
                    saved.u32(u32::from(c));
                    saved.flag(true);
                    self.buffer.replace_range(i..i + c.len_utf8(), ":");
                }
                None => saved.flag(false),
            },
            Event::Push(_) | Event::Prepend(_) => trace.apply_buffer(&mut self.buffer, event),
            Event::Text { field, op, text } => {
                let text = trace.text(text);
                match (slot(record, field), op) {
                    (Slot::Required(s), Op::Set | Op::Null) => {
                        saved.str(s);
                        s.clear();
                        s.push_str(text);
                    }
                    (Slot::Required(s), Op::Append) => s.push_str(text),
                    (Slot::Nullable(s), Op::Set | Op::Null) => {
                        if let Some(old) = s {
                            saved.str(old);
                        }
                        saved.flag(s.is_some());
                        *s = (op == Op::Set).then(|| text.to_owned());
                    }
                    // Taking an append back truncates by its length, unless that leaves
                    // nothing: then whether the field was null or empty is saved.
                    (Slot::Nullable(s), Op::Append) => {
                        match s {
                            None => saved.flag(false),
                            Some(old) if old.is_empty() => saved.flag(true),
                            Some(_) => {}
                        }
                        s.get_or_insert_with(String::new).push_str(text);
                    }
                    (Slot::Absent, _) => {}
                }
            }
            Event::Host(host) => {
                self.hosts.push(record.host.take());
                record.host = host.map(|i| trace.hosts[i as usize].clone());
            }
            Event::Port(port) => {
                if let Some(old) = record.port {
                    saved.u32(u32::from(old));
                }
                saved.flag(record.port.is_some());
                record.port = port;
            }
            Event::Path(path) => {
                self.paths.push(std::mem::replace(
                    &mut record.path,
                    trace.paths[path as usize].clone(),
                ));
            }
            Event::PathPush(text) => {
                if let Path::List(segments) = &mut record.path {
                    segments.push(trace.text(text).to_owned());
                }
            }
            // URL Standard: shorten a URL's path (as `UrlRecord::shorten_path`), keeping the
            // segment it removes.
            Event::PathShorten => {
                let is_file = record.scheme == "file";
                if let Path::List(segments) = &mut record.path {
                    let keep = is_file
                        && segments.len() == 1
                        && is_normalized_windows_drive_letter(&segments[0]);
                    match segments.pop() {
                        Some(last) if keep => {
                            segments.push(last);
                            saved.flag(false);
                        }
                        Some(last) => {
                            saved.str(&last);
                            saved.flag(true);
                        }
                        None => saved.flag(false),
                    }
                }
            }
            Event::Spec(_)
            | Event::Pointer(_)
            | Event::SetState(_)
            | Event::Error(_)
            | Event::HostStep(..) => {}
        }
    }

    /// Takes back an edit, the last one applied.
    fn take_back(&mut self, event: Event) {
        let record = &mut self.record;
        let saved = &mut self.saved;
        let len = |text: Text| text.1 - text.0;
        match event {
            Event::Push(text) => self.buffer.truncate(self.buffer.len() - len(text)),
            Event::Clear => saved.pop_str_into(&mut self.buffer),
            Event::Prepend(text) => {
                self.buffer.drain(..len(text));
            }
            Event::ReplaceSecondWithColon => {
                if saved.pop_flag() {
                    let c = char::from_u32(saved.pop_u32()).unwrap_or(':');
                    if let Some((i, colon)) = self.buffer.char_indices().nth(1) {
                        let mut bytes = [0; 4];
                        self.buffer
                            .replace_range(i..i + colon.len_utf8(), c.encode_utf8(&mut bytes));
                    }
                }
            }
            Event::Text { field, op, text } => match (slot(record, field), op) {
                (Slot::Required(s), Op::Set | Op::Null) => saved.pop_str_into(s),
                (Slot::Required(s), Op::Append) => s.truncate(s.len() - len(text)),
                (Slot::Nullable(s), Op::Set | Op::Null) => {
                    *s = saved.pop_flag().then(|| saved.pop_str());
                }
                (Slot::Nullable(s), Op::Append) => match s {
                    Some(value) if value.len() > len(text) => {
                        value.truncate(value.len() - len(text));
                    }
                    _ => *s = saved.pop_flag().then(String::new),
                },
                (Slot::Absent, _) => {}
            },
            Event::Host(_) => record.host = self.hosts.pop().flatten(),
            Event::Port(_) => {
                record.port = saved.pop_flag().then(|| saved.pop_u32() as u16);
            }
            Event::Path(_) => record.path = self.paths.pop().unwrap_or_default(),
            Event::PathPush(_) => {
                if let Path::List(segments) = &mut record.path {
                    segments.pop();
                }
            }
            Event::PathShorten => {
                if let Path::List(segments) = &mut record.path {
                    if saved.pop_flag() {
                        segments.push(saved.pop_str());
                    }
                }
            }
            Event::Spec(_)
            | Event::Pointer(_)
            | Event::SetState(_)
            | Event::Error(_)
            | Event::HostStep(..) => {}
        }
    }
}

/// The replay a trace keeps for [`Trace::state_after`] and [`Trace::for_each_in`]: a cache,
/// so it is neither cloned nor compared with the trace.
#[derive(Default)]
pub(super) struct ReplayCache(std::sync::Mutex<Option<Replay>>);

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

/// The host events decoded for [`Trace::host_events`]: a cache, like [`ReplayCache`].
#[derive(Default)]
pub(super) struct HostEventCache(OnceLock<Vec<HostEvent>>);

impl Clone for HostEventCache {
    fn clone(&self) -> Self {
        HostEventCache::default()
    }
}

impl PartialEq for HostEventCache {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl Eq for HostEventCache {}

impl std::fmt::Debug for HostEventCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("HostEventCache")
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

impl StepView<'_> {
    /// The host parser's sub-steps of this step, explained, one per event of
    /// [`StepView::host_events`]; `input` is the trace's input.
    pub fn host_steps(&self, input: &str) -> Vec<Option<crate::url::explain::HostStep>> {
        crate::url::explain::explain_host_events(&self.host_events, &self.errors, input)
    }

    /// The steps of the standard the step cited, in order, with their explanations.
    pub fn explained(&self) -> impl Iterator<Item = SpecStep> + '_ {
        self.spec_steps
            .iter()
            .map(move |citation| SpecStep::new(self.phase, citation))
    }

    /// The step that decided what this step did: the last (innermost) one it cited.
    pub fn spec(&self) -> Option<SpecStep> {
        self.spec_steps
            .last()
            .map(|citation| SpecStep::new(self.phase, citation))
    }
}

/// A row of the collapsed trace: one step, or a run of steps that stay in one state and only
/// append to one thing (the buffer, or a field of the record such as the fragment).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Row<'a> {
    Step(usize),
    Run(Run<'a>),
}

/// Steps that stay in `state` and each append to `target`: together they append `text`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Run<'a> {
    pub steps: Range<usize>,
    pub state: State,
    /// `"buffer"`, or the record field appended to.
    pub target: &'static str,
    pub text: &'a str,
}

impl Run<'_> {
    pub fn len(&self) -> usize {
        self.steps.len()
    }

    pub fn is_empty(&self) -> bool {
        self.steps.is_empty()
    }
}

impl std::fmt::Display for Run<'_> {
    /// `authority ×13  buffer ← example.com`
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let name = self.state.name();
        let name = name.strip_suffix(" state").unwrap_or(name);
        write!(f, "{name} ×{}  {} ← {}", self.len(), self.target, self.text)
    }
}

impl Row<'_> {
    /// The steps the row stands for.
    pub fn steps(&self) -> Range<usize> {
        match self {
            Row::Step(index) => *index..*index + 1,
            Row::Run(run) => run.steps.clone(),
        }
    }
}

/// The rows of a collapsed trace, in order; see [`Trace::rows`].
#[derive(Clone, Debug)]
pub struct Rows<'a> {
    trace: &'a Trace,
    next: usize,
    /// Where step `next` starts.
    at: At,
}

impl<'a> Iterator for Rows<'a> {
    type Item = Row<'a>;

    fn next(&mut self) -> Option<Row<'a>> {
        let trace = self.trace;
        let first = self.next;
        if first >= trace.len {
            return None;
        }
        let mut at = self.at;
        let Some((state, target, (a, mut b))) = trace.append_only(&mut at) else {
            self.next += 1;
            self.at = at;
            return Some(Row::Step(first));
        };
        let mut end = first + 1;
        // A run's appends are stored one after the other, so its text is one slice.
        loop {
            let mut after = at;
            match trace.append_only(&mut after) {
                Some((s, t, (a2, b2))) if s == state && t == target && a2 == b => {
                    b = b2;
                    end += 1;
                    at = after;
                }
                _ => break,
            }
        }
        self.next = end;
        self.at = at;
        Some(if end - first < 2 {
            Row::Step(first)
        } else {
            Row::Run(Run {
                steps: first..end,
                state,
                target,
                text: trace.text((a, b)),
            })
        })
    }
}

impl Trace {
    /// The collapsed trace: runs of two or more steps that stay in one state and only append
    /// (to the buffer, or to one field of the record) become one row. Lazy, and linear in the
    /// trace.
    pub fn rows(&self) -> Rows<'_> {
        Rows {
            trace: self,
            next: 0,
            at: self.start(),
        }
    }

    /// What the step at `at` appends, when that is all it does (besides citing steps) and the
    /// next step runs in the same state. Moves `at` to the next step.
    fn append_only(&self, at: &mut At) -> Option<(State, &'static str, Text)> {
        if at.pos >= self.bytes.len() {
            return None;
        }
        let step = self.header(at);
        let mut appended = None;
        let mut only = true;
        while let Some(event) = self.event(at) {
            match event {
                Event::Spec(_) => {}
                Event::Push(text) if appended.is_none() => appended = Some(("buffer", text)),
                Event::Text {
                    field,
                    op: Op::Append,
                    text,
                } if appended.is_none() => appended = Some((field.name(), text)),
                _ => only = false,
            }
        }
        let Phase::State(state) = step.phase else {
            return None;
        };
        let next = self.bytes.get(at.pos).map(|tag| phase_of(tag & 0x1F));
        if !only || next != Some(step.phase) {
            return None;
        }
        appended.map(|(target, text)| (state, target, text))
    }
}
