//! The Base resolution pane's rows: where each component of the URL came from, the base or
//! the input, read from the trace's record edits (the library's [`crate::report::provenance`]).

use crate::report::provenance::{branch, history, Edit, How, FIELDS};
use crate::report::{Outcome, Report};

use super::{error_text, show, Row, RowKind};

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

/// An edit as the pane words it: what it did, then the step of the trace and of the standard
/// that did it.
fn how(edit: &Edit) -> String {
    let how = match &edit.how {
        How::FromBase => "from the base".to_owned(),
        How::SetToNull => "set to null".to_owned(),
        How::Set => "set".to_owned(),
        How::Appended(value) => format!("“{}” appended", show(value)),
        How::SegmentAppended(value) => format!("segment “{}” appended", show(value)),
        How::Shortened => "shortened: its last segment removed".to_owned(),
    };
    // The standard's step by its number: the strip of the Trace pane explains it.
    match &edit.number {
        Some(number) => format!("{how} (step {}, {} {number})", edit.step, edit.state),
        None => format!("{how} (step {}, {})", edit.step, edit.state),
    }
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
    let branch = report.trace.as_ref().map(branch).unwrap_or_default();
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
                        let mut r = row(
                            RowKind::Info,
                            key,
                            format!("{} · {}", edit.value, how(edit)),
                        );
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
