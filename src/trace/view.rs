//! The finished trace: its steps, the views rebuilt from the stored edits, and the replay that
//! moves to any step by applying or undoing them.

use serde::Serialize;
use std::ops::Range;

use super::recorder::{Event, Field, Op, StoredBufferOp, StoredChange};
use super::{HostEvent, PointerMove};
use crate::url::explain::SpecStep;
use crate::url::record::{Host, Path, UrlRecord};
use crate::url::state::{Phase, State};
use crate::validation::ValidationError;

/// One step of a finished trace. `pointer` is a code point offset into the original input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    pub phase: Phase,
    pub pointer: usize,
    pub c: Option<char>,
    pub(super) events: Range<u32>,
}

/// A finished trace: the steps of one run of the basic URL parser, with the validation errors it
/// raised (spans in code points of the original input).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Trace {
    pub(super) input: String,
    pub(super) steps: Vec<Step>,
    pub(super) events: Vec<Event>,
    pub(super) arena: String,
    pub(super) errors: Vec<ValidationError>,
    pub(super) host_events: Vec<HostEvent>,
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
            StoredChange::Text { field, op, text } => {
                let value = self.text(text.0, text.1);
                match op {
                    Op::Set => set(field.name(), Some(value.to_owned())),
                    Op::Null => set(field.name(), None),
                    Op::Append => ChangeView::Append {
                        field: field.name(),
                        value,
                    },
                }
            }
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
            StoredChange::Text { field, op, text } => {
                let text = self.text(text.0, text.1);
                match (slot(record, *field), op) {
                    (Slot::Required(s), Op::Set) => text.clone_into(s),
                    (Slot::Required(s), Op::Append) => s.push_str(text),
                    (Slot::Nullable(s), Op::Set) => *s = Some(text.to_owned()),
                    (Slot::Nullable(s), Op::Append) => {
                        s.get_or_insert_with(String::new).push_str(text)
                    }
                    (Slot::Nullable(s), Op::Null) => *s = None,
                    (Slot::Required(_) | Slot::Absent, _) => {}
                }
            }
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
    /// A string field's value before a set (`None`: null).
    Text(Field, Option<String>),
    /// A string field's length before an append.
    TextLen(Field, usize),
    Host(Option<Host>),
    Port(Option<u16>),
    Path(Path),
    PathPop,
    PathPushBack(String),
    Nothing,
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
            StoredChange::Text { field, op, .. } => match (slot(record, *field), op) {
                (Slot::Required(s), Op::Set | Op::Null) => Undo::Text(*field, Some(take(s))),
                (Slot::Required(s), Op::Append) => Undo::TextLen(*field, s.len()),
                (Slot::Nullable(s), Op::Set | Op::Null) => Undo::Text(*field, s.take()),
                (Slot::Nullable(s), Op::Append) => match s {
                    Some(s) => Undo::TextLen(*field, s.len()),
                    None => Undo::Text(*field, None),
                },
                (Slot::Absent, _) => Undo::Nothing,
            },
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
            Undo::Text(field, value) => match slot(record, field) {
                Slot::Required(s) => *s = value.unwrap_or_default(),
                Slot::Nullable(s) => *s = value,
                Slot::Absent => {}
            },
            Undo::TextLen(field, len) => match slot(record, field) {
                Slot::Required(s) | Slot::Nullable(Some(s)) => s.truncate(len),
                Slot::Nullable(None) | Slot::Absent => {}
            },
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

impl StepView<'_> {
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
}

impl<'a> Iterator for Rows<'a> {
    type Item = Row<'a>;

    fn next(&mut self) -> Option<Row<'a>> {
        let trace = self.trace;
        let first = self.next;
        if first >= trace.steps.len() {
            return None;
        }
        let Some((state, target, (a, mut b))) = trace.append_only(first) else {
            self.next += 1;
            return Some(Row::Step(first));
        };
        let mut end = first + 1;
        // A run's appends are stored one after the other, so its text is one slice.
        while let Some((s, t, (a2, b2))) = trace.append_only(end) {
            if s != state || t != target || a2 != b {
                break;
            }
            b = b2;
            end += 1;
        }
        self.next = end;
        Some(if end - first < 2 {
            Row::Step(first)
        } else {
            Row::Run(Run {
                steps: first..end,
                state,
                target,
                text: trace.text(a, b),
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
        }
    }

    /// What step `index` appends, when that is all it does (besides citing steps) and the next
    /// step runs in the same state.
    fn append_only(&self, index: usize) -> Option<(State, &'static str, (u32, u32))> {
        let step = self.steps.get(index)?;
        let Phase::State(state) = step.phase else {
            return None;
        };
        if self.steps.get(index + 1)?.phase != step.phase {
            return None;
        }
        let mut appended = None;
        for event in self.step_events(index) {
            match event {
                Event::Spec(_) => {}
                Event::Buffer(StoredBufferOp::Push(a, b)) if appended.is_none() => {
                    appended = Some(("buffer", (*a, *b)));
                }
                Event::Change(StoredChange::Text {
                    field,
                    op: Op::Append,
                    text,
                }) if appended.is_none() => appended = Some((field.name(), *text)),
                _ => return None,
            }
        }
        appended.map(|(target, text)| (state, target, text))
    }
}
