//! Where each component of a URL parsed against a base came from, the input or the base, edit
//! by edit as the trace recorded them: the inspector's Base resolution pane and the classroom
//! page's Base resolution view both read it from here.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::trace::{ChangeView, Effect, Trace};
use crate::url::explain::split_citation;
use crate::url::{Phase, State};

/// The states in which the basic URL parser reads the base.
pub fn uses_base(state: State) -> bool {
    matches!(
        state,
        State::NoScheme | State::Relative | State::RelativeSlash | State::File | State::FileSlash
    )
}

/// The URL record's fields in the standard's order.
pub const FIELDS: [&str; 8] = [
    "scheme", "username", "password", "host", "port", "path", "query", "fragment",
];

/// The states of the trace that read the base, in the order first entered: the branch of the
/// parser that used it (empty when none did).
pub fn branch(trace: &Trace) -> Vec<&'static str> {
    let mut branch: Vec<&'static str> = Vec::new();
    for step in trace.steps() {
        if let Phase::State(state) = step.phase {
            if uses_base(state) && !branch.contains(&state.name()) {
                branch.push(state.name());
            }
        }
    }
    branch
}

/// How a field's value reads: null apart from the empty string.
fn shown_value(value: Option<&str>) -> String {
    match value {
        None => "null".to_owned(),
        Some("") => "\"\"".to_owned(),
        Some(v) => v.to_owned(),
    }
}

/// A field's value as the parse goes: a path as its segments, so that "shorten" and "append"
/// can be followed; an opaque path as its string.
#[derive(Clone, Debug)]
enum Value {
    Text(Option<String>),
    Segments(Vec<String>),
}

impl Value {
    fn shown(&self) -> String {
        match self {
            Value::Text(v) => shown_value(v.as_deref()),
            Value::Segments(s) if s.is_empty() => "\"\" (no segments)".to_owned(),
            Value::Segments(s) => format!("/{}", s.join("/")),
        }
    }
}

/// What an edit did to its field.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", content = "text", rename_all = "snake_case")]
pub enum How {
    /// Copied from the base by a step that says "base's" (relative state 2 and 5.1, relative
    /// slash state 3, file state 4.1).
    FromBase,
    SetToNull,
    Set,
    /// The text appended.
    Appended(String),
    /// The segment appended to the path.
    SegmentAppended(String),
    /// The path shortened: its last segment removed.
    Shortened,
}

/// One edit of a field: its value after the edit, what did it, and the step of the trace and
/// of the standard that made it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Edit {
    pub value: String,
    pub how: How,
    /// The step of the trace.
    pub step: usize,
    /// The state it ran in, by the standard's name.
    pub state: &'static str,
    /// The number of the standard's step it cites, when it cites one.
    pub number: Option<String>,
}

/// Where each component of the result came from, edit by edit: each record edit of the trace
/// with the step that made it and the standard's step it cites. A field no step set keeps the
/// new URL's value (no entry).
pub fn history(trace: &Trace) -> BTreeMap<&'static str, Vec<Edit>> {
    let mut edits: BTreeMap<&'static str, Vec<Edit>> = BTreeMap::new();
    let mut values: BTreeMap<&'static str, Value> = BTreeMap::new();
    for i in 0..trace.len() {
        let view = trace.view(i);
        let Phase::State(state) = view.phase else {
            continue;
        };
        // Most steps of a long input only append to the buffer: only a step that edits the
        // record is decoded again, in order, with the buffer it worked on.
        if view.changes.is_empty() {
            continue;
        }
        for (cited, effect) in trace.cited_effects(i) {
            let Effect::Change(change) = effect else {
                continue;
            };
            let number = cited.map(|c| split_citation(c).0.to_owned());
            let (field, how) = match &change {
                ChangeView::Set { field, value } => {
                    let new = if *field == "path" {
                        match value.as_deref() {
                            Some(p) if p.starts_with('/') => {
                                Value::Segments(p[1..].split('/').map(str::to_owned).collect())
                            }
                            Some("") => Value::Segments(Vec::new()),
                            other => Value::Text(other.map(str::to_owned)),
                        }
                    } else {
                        Value::Text(value.clone())
                    };
                    values.insert(field, new);
                    // The steps that copy from the base say so: relative state 2 ("set
                    // url's scheme to base's scheme") and 5.1, relative slash state 3, file
                    // state 4.1. A later set in the same step replaces the copy (relative
                    // state 5.4.1 sets the query to null).
                    let copied = cited.is_some_and(|c| split_citation(c).1.contains("base's"));
                    let how = if uses_base(state) && copied {
                        How::FromBase
                    } else if value.is_none() {
                        How::SetToNull
                    } else {
                        How::Set
                    };
                    (*field, how)
                }
                ChangeView::Append { field, value } => {
                    let entry = values.entry(field).or_insert(Value::Text(None));
                    if let Value::Text(v) = entry {
                        v.get_or_insert_with(String::new).push_str(value);
                    }
                    (*field, How::Appended((*value).to_owned()))
                }
                ChangeView::PathPush { value } => {
                    let entry = values.entry("path").or_insert(Value::Segments(Vec::new()));
                    if let Value::Segments(s) = entry {
                        s.push((*value).to_owned());
                    }
                    ("path", How::SegmentAppended((*value).to_owned()))
                }
                ChangeView::PathShorten => {
                    let entry = values.entry("path").or_insert(Value::Segments(Vec::new()));
                    if let Value::Segments(s) = entry {
                        s.pop();
                    }
                    ("path", How::Shortened)
                }
            };
            let value = values.get(field).map_or_else(String::new, Value::shown);
            edits.entry(field).or_default().push(Edit {
                value,
                how,
                step: i,
                state: state.name(),
                number: number.clone(),
            });
        }
    }
    // The record at the end has the last word on the path: shortening keeps a file URL's
    // drive letter, which the segments above do not know.
    if let Some(last) = trace.len().checked_sub(1) {
        let record = trace.state_after(last).1;
        let mut path = String::new();
        record.path.serialize_into(&mut path);
        if let Some(e) = edits.get_mut("path").and_then(|e| e.last_mut()) {
            e.value = if path.is_empty() {
                "\"\" (no segments)".to_owned()
            } else {
                path
            };
        }
    }
    edits
}
