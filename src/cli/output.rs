//! What the commands print: the JSON objects of the contract and the text tables.

use serde_json::{json, Map, Value};
use std::io::{self, Write};

use urlscope::display::{self, EscapeStyle};
use urlscope::report::Report;
use urlscope::url::Component;
use urlscope::{Url, ValidationError};

/// The getters, in the order the contract lists them.
pub const FIELDS: [Component; 10] = Component::ALL;

pub fn error_json(e: &ValidationError) -> Value {
    json!({"type": e.kind.name(), "start": e.span.start, "end": e.span.end, "message": e.message})
}

/// The `parse --json` object for one input, its URL after any setters, and an optional
/// message (why it failed, when the base is at fault).
pub fn parse_json(report: &Report, url: Option<&Url>, message: Option<&str>) -> Value {
    let mut object = Map::new();
    object.insert("input".into(), json!(report.input));
    object.insert("base".into(), json!(report.base));
    let errors: Vec<Value> = report.errors.iter().map(error_json).collect();
    match url {
        Some(url) => {
            for component in FIELDS {
                object.insert(component.name().into(), json!(url.get(component)));
                if component == Component::Href {
                    object.insert("origin".into(), json!(url.origin()));
                }
            }
            let params = url.search_params();
            let pairs: Vec<[&str; 2]> = params.iter().map(|(n, v)| [n, v]).collect();
            object.insert("searchParams".into(), json!(pairs));
            object.insert("valid".into(), json!(report.errors.is_empty()));
            object.insert("errors".into(), json!(errors));
            object.insert("host_analysis".into(), json!(report.host_analysis));
        }
        None => {
            object.insert("failure".into(), json!(true));
            object.insert("errors".into(), json!(errors));
            if let Some(message) = message {
                object.insert("message".into(), json!(message));
            }
        }
    }
    Value::Object(object)
}

pub fn write_json(out: &mut (impl Write + ?Sized), value: &Value) -> io::Result<()> {
    serde_json::to_writer(&mut *out, value)?;
    out.write_all(b"\n")
}

pub fn escape(s: &str) -> std::borrow::Cow<'_, str> {
    display::escape(s, EscapeStyle::Backslash)
}

/// The input with a caret line under each error's span.
pub fn write_carets(
    out: &mut (impl Write + ?Sized),
    indent: &str,
    input: &str,
    errors: &[ValidationError],
) -> io::Result<()> {
    if errors.is_empty() {
        return Ok(());
    }
    let columns = display::columns(input, EscapeStyle::Backslash);
    let last = columns.len() - 1;
    writeln!(out, "{indent}{}", escape(input))?;
    for e in errors {
        let start = columns[e.span.start.min(last)];
        let end = columns[e.span.end.min(last)].max(start + 1);
        writeln!(
            out,
            "{indent}{}{} {} ({}): {}",
            " ".repeat(start),
            "^".repeat(end - start),
            e.kind,
            e.state,
            e.message
        )?;
    }
    Ok(())
}

/// The text table for one input.
pub fn write_text(
    out: &mut (impl Write + ?Sized),
    report: &Report,
    url: Option<&Url>,
    message: Option<&str>,
) -> io::Result<()> {
    writeln!(out, "{:<9} {}", "input", escape(&report.input))?;
    if let Some(base) = &report.base {
        writeln!(out, "{:<9} {}", "base", escape(base))?;
    }
    match url {
        Some(url) => {
            for component in FIELDS {
                writeln!(
                    out,
                    "{:<9} {}",
                    component.name(),
                    escape(&url.get(component))
                )?;
                if component == Component::Href {
                    writeln!(out, "{:<9} {}", "origin", escape(&url.origin()))?;
                }
            }
            for (name, value) in url.search_params().iter() {
                writeln!(out, "{:<9} {} = {}", "param", escape(name), escape(value))?;
            }
        }
        None => writeln!(
            out,
            "{:<9} {}",
            "failure",
            message.unwrap_or("the input is not a URL")
        )?,
    }
    if !report.errors.is_empty() {
        writeln!(out, "errors:")?;
        write_carets(out, "  ", &report.input, &report.errors)?;
    }
    writeln!(out)
}
