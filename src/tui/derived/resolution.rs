//! The Base resolution pane's rows: where each component of the URL came from, the base or
//! the input, read from the trace's record edits.

use std::collections::BTreeMap;

use crate::report::{Outcome, Report};
use crate::trace::{ChangeView, Effect, Trace};
use crate::url::explain::split_citation;
use crate::url::{Phase, State};

use super::{error_text, show, Row, RowKind};

/// The states in which the parser reads the base.
fn uses_base(state: State) -> bool {
    matches!(
        state,
        State::NoScheme | State::Relative | State::RelativeSlash | State::File | State::FileSlash
    )
}

fn row(kind: RowKind, key: impl Into<String>, value: impl Into<String>) -> Row {
    let value = value.into();
    Row {
        kind,
        key: key.into(),
        value: show(&value),
        copy: value,
        note: None,
    }
}

/// The record's fields in the standard's order.
const FIELDS: [&str; 8] = [
    "scheme", "username", "password", "host", "port", "path", "query", "fragment",
];

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

/// One edit of a field: its value after the edit, and what did it.
struct Edit {
    value: String,
    how: String,
}

/// Where each component of the result came from, edit by edit: each record edit of the trace
/// with the step that made it and the standard's step it cites. A field no step set keeps the
/// new URL's value.
fn history(trace: &Trace) -> BTreeMap<&'static str, Vec<Edit>> {
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
            // The standard's step by its number: the strip of the Trace pane explains it.
            let at = match cited.map(|c| split_citation(c).0) {
                Some(number) => format!("step {i}, {} {number}", state.name()),
                None => format!("step {i}, {}", state.name()),
            };
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
                        "from the base"
                    } else if value.is_none() {
                        "set to null"
                    } else {
                        "set"
                    };
                    (*field, how.to_owned())
                }
                ChangeView::Append { field, value } => {
                    let entry = values.entry(field).or_insert(Value::Text(None));
                    if let Value::Text(v) = entry {
                        v.get_or_insert_with(String::new).push_str(value);
                    }
                    (*field, format!("“{}” appended", show(value)))
                }
                ChangeView::PathPush { value } => {
                    let entry = values.entry("path").or_insert(Value::Segments(Vec::new()));
                    if let Value::Segments(s) = entry {
                        s.push((*value).to_owned());
                    }
                    ("path", format!("segment “{}” appended", show(value)))
                }
                ChangeView::PathShorten => {
                    let entry = values.entry("path").or_insert(Value::Segments(Vec::new()));
                    if let Value::Segments(s) = entry {
                        s.pop();
                    }
                    ("path", "shortened: its last segment removed".to_owned())
                }
            };
            let value = values.get(field).map_or_else(String::new, Value::shown);
            edits.entry(field).or_default().push(Edit {
                value,
                how: format!("{how} ({at})"),
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

/// The Base resolution pane's rows for `report`.
pub fn rows(report: &Report) -> Vec<Row> {
    let mut rows = Vec::new();
    let Some(base) = &report.base else {
        return rows;
    };
    rows.push(row(RowKind::Heading, "base", base.clone()));
    if let Outcome::BaseFailure { cause } = &report.outcome {
        let why = cause
            .as_ref()
            .map_or_else(|| "it fails to parse".to_owned(), error_text);
        let mut failure = row(
            RowKind::Reference { failed: true },
            "failure",
            "the base URL is not a URL",
        );
        failure.note = Some(format!(
            "{why}. The input was not parsed against it, and nothing resolves."
        ));
        rows.push(failure);
        return rows;
    }
    let mut branch: Vec<&str> = Vec::new();
    if let Some(trace) = &report.trace {
        for step in trace.steps() {
            if let Phase::State(state) = step.phase {
                if uses_base(state) && !branch.contains(&state.name()) {
                    branch.push(state.name());
                }
            }
        }
    }
    let used = !branch.is_empty();
    let branch = if used {
        branch.join(" → ")
    } else if report.url.is_some() {
        "not used: the input has its own scheme".to_owned()
    } else {
        "not reached: the input failed before the parser looked at the base".to_owned()
    };
    rows.push(row(RowKind::Heading, "branch", branch));
    if let (true, Some(trace)) = (used, &report.trace) {
        if let Some(href) = report.url.as_ref().map(ToString::to_string) {
            rows.push(row(RowKind::Heading, "result", href));
        }
        rows.push(row(
            RowKind::ParamHeading,
            "component",
            "value after each edit, and the step that made it",
        ));
        let history = history(trace);
        for field in FIELDS {
            match history.get(field) {
                None => rows.push(row(
                    RowKind::Info,
                    field,
                    format!(
                        "{} (no step set it: the new URL's)",
                        if matches!(field, "host" | "port" | "query" | "fragment") {
                            "null"
                        } else {
                            "\"\""
                        }
                    ),
                )),
                Some(edits) => {
                    for (k, edit) in edits.iter().enumerate() {
                        let key = if k == 0 { field } else { "" };
                        let mut r =
                            row(RowKind::Info, key, format!("{} · {}", edit.value, edit.how));
                        r.copy = edit.value.clone();
                        rows.push(r);
                    }
                }
            }
        }
    }
    rows.push(row(RowKind::ParamHeading, "reference", "resolves to"));
    for r in &report.resolutions {
        let reference = if r.reference.is_empty() {
            "\"\"".to_owned()
        } else {
            r.reference.to_owned()
        };
        let mut reference = row(
            RowKind::Reference {
                failed: r.href.is_none(),
            },
            reference,
            r.href.clone().unwrap_or_else(|| "failure".to_owned()),
        );
        reference.copy = r.href.clone().unwrap_or_default();
        rows.push(reference);
    }
    rows
}
