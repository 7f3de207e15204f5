//! What the commands print: the JSON objects of the contract and the text tables.

use serde::ser::{Serialize, SerializeMap, Serializer};
use std::io::{self, Write};

use urlscope::display::{self, EscapeStyle};
use urlscope::report::Report;
use urlscope::url::Component;
use urlscope::{Url, ValidationError};

/// The getters, in the order the contract lists them.
pub const FIELDS: [Component; 10] = Component::ALL;

/// A validation error as the contract writes it.
struct ErrorJson<'a>(&'a ValidationError);

impl Serialize for ErrorJson<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let e = self.0;
        let mut map = serializer.serialize_map(Some(4))?;
        map.serialize_entry("type", e.kind.name())?;
        map.serialize_entry("start", &e.span.start)?;
        map.serialize_entry("end", &e.span.end)?;
        map.serialize_entry("message", &e.message)?;
        map.end()
    }
}

/// The `parse --json` object for one input, its URL after any setters, and an optional
/// message (why it failed, when the base is at fault). It borrows the report and is written
/// straight to the output (a batch writes one per line).
pub struct ParseJson<'a> {
    report: &'a Report,
    url: Option<&'a Url>,
    message: Option<&'a str>,
}

pub fn parse_json<'a>(
    report: &'a Report,
    url: Option<&'a Url>,
    message: Option<&'a str>,
) -> ParseJson<'a> {
    ParseJson {
        report,
        url,
        message,
    }
}

impl Serialize for ParseJson<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let report = self.report;
        let errors = Errors(&report.errors);
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("input", &report.input)?;
        map.serialize_entry("base", &report.base)?;
        match self.url {
            Some(url) => {
                for component in FIELDS {
                    map.serialize_entry(component.name(), url.component(component))?;
                    if component == Component::Href {
                        map.serialize_entry("origin", &url.origin())?;
                    }
                }
                let params = url.search_params();
                let pairs: Vec<[&str; 2]> = params.iter().map(|(n, v)| [n, v]).collect();
                map.serialize_entry("searchParams", &pairs)?;
                map.serialize_entry("valid", &report.errors.is_empty())?;
                map.serialize_entry("errors", &errors)?;
                map.serialize_entry("writing", &report.writing)?;
                map.serialize_entry("host_analysis", &report.host_analysis)?;
            }
            None => {
                map.serialize_entry("failure", &true)?;
                map.serialize_entry("errors", &errors)?;
                map.serialize_entry("writing", &report.writing)?;
                if let Some(message) = self.message {
                    map.serialize_entry("message", message)?;
                }
            }
        }
        map.end()
    }
}

struct Errors<'a>(&'a [ValidationError]);

impl Serialize for Errors<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.0.iter().map(ErrorJson))
    }
}

pub fn write_json(out: &mut (impl Write + ?Sized), value: &impl Serialize) -> io::Result<()> {
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
    // The writing grammar's verdict: the other definition of validity.
    let writing = &report.writing;
    match (writing.position, &writing.expected) {
        (Some(position), Some(expected)) if !writing.valid => writeln!(
            out,
            "{:<9} not a valid URL string: at {position}, {} ({})",
            "writing",
            escape(expected),
            writing
                .production_path
                .last()
                .copied()
                .unwrap_or("valid URL string")
        )?,
        _ => writeln!(out, "{:<9} a valid URL string", "writing")?,
    }
    writeln!(out)
}
