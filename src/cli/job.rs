//! What `parse`, `trace` and `check` share: the job (one input with its base, setters and
//! encoding), read from an argument, a line of standard input or a `--jsonl-in` object, and the
//! writing of a batch's output in its place.

use encoding_rs::Encoding;
use serde_json::Value;
use std::borrow::Cow;
use std::io::{self, Write};

use urlscope::url::Component;
use urlscope::Url;

use super::batch::{self, Style};
use super::lines::{Line, Lines};
use super::output::{warn, Text};
use super::progress::Progress;
use super::{parse_encoding, RunResult};

/// One input to parse, with what applies to it.
#[derive(Clone)]
pub(super) struct Job<'a> {
    /// Borrowed from the line it was read from, where it is the line itself.
    pub(super) input: Cow<'a, str>,
    pub(super) base: Option<String>,
    pub(super) set: Vec<(Component, String)>,
    pub(super) encoding: &'static Encoding,
    /// The input's line, when it was read from one.
    pub(super) line: Option<usize>,
}

impl Job<'_> {
    /// How a message names the job: its line (`line 3`), or the argument itself.
    pub(super) fn place(&self) -> String {
        match self.line {
            Some(number) => format!("line {number}"),
            None => self.input.to_string(),
        }
    }
}

/// The last base parsed, kept for the next job with the same base (usually all of them).
pub(super) type BaseCache = Option<(String, Result<Url, String>)>;

/// The job's base, parsed: `Err` with a message when it is not a URL.
pub(super) fn job_base(job: &Job<'_>, cache: &mut BaseCache) -> Result<Option<Url>, String> {
    let Some(base) = &job.base else {
        return Ok(None);
    };
    if let Some((_, parsed)) = cache.as_ref().filter(|(b, _)| b == base) {
        return parsed.clone().map(Some);
    }
    let parsed = Url::parse(base, None).map_err(|e| match e.cause() {
        Some(cause) => format!("the base URL {base:?} is not a URL: {cause}"),
        None => format!("the base URL {base:?} is not a URL"),
    });
    *cache = Some((base.clone(), parsed.clone()));
    parsed.map(Some)
}

/// Writes what a batch's workers made, in its place: warnings on standard error, the output
/// on standard output.
pub(super) fn write_done<X>(done: &batch::Done<X>, out: &mut Text<impl Write>) -> io::Result<()> {
    for warning in &done.warnings {
        warn(format_args!("{warning}"));
    }
    out.bytes(done.out_bytes())
}

/// Standard input, buffered for a batch.
pub(super) fn stdin_input() -> batch::Input {
    io::BufReader::with_capacity(1 << 16, Box::new(io::stdin()))
}

/// The job of line `number` of standard input: the line itself, or with `jsonl_in` the job it
/// describes, on top of `defaults`. A line that gives no job (not UTF-8, over the limit, not a
/// job's JSON) gets its error row in `style` instead, so that each row stays beside its line.
pub(super) fn line_job<'a, X>(
    number: usize,
    line: Line<'a>,
    defaults: &Job<'a>,
    jsonl_in: bool,
    style: Style,
    done: &mut batch::Done<X>,
) -> Option<Job<'a>> {
    // How messages name the line, written only for a line that gives no job.
    let place = || format!("line {number}");
    let text = match line {
        Line::Text(text) => text,
        unread => {
            let error = unread.error().unwrap_or_default();
            done.error_row(style, number, &place(), &error, Some(&unread));
            return None;
        }
    };
    let job = match jsonl_in {
        false => Ok(Job {
            input: Cow::Borrowed(text),
            ..defaults.clone()
        }),
        true => job_from_json(text, defaults).map_err(|error| (error, text)),
    };
    match job {
        Ok(job) => Some(Job {
            line: Some(number),
            ..job
        }),
        Err((error, text)) => {
            done.error_row(style, number, &place(), &error, Some(&Line::Text(text)));
            None
        }
    }
}

/// Reads standard input one line at a time and calls `f` with the job of each line (the
/// line itself, or with `jsonl_in` the job it describes, on top of `defaults`). A line that
/// gives no job gets its error row in `style` and a message; the result is false when one
/// did, or `f` said so.
pub(super) fn for_each_stdin_job<'a, W: Write>(
    defaults: &Job<'a>,
    jsonl_in: bool,
    style: Style,
    out: &mut Text<W>,
    mut f: impl FnMut(Job<'_>, &mut Text<W>) -> RunResult,
) -> RunResult {
    let mut all_ok = true;
    let stdin = io::stdin();
    let mut lines = Lines::new(io::BufReader::with_capacity(1 << 16, stdin.lock()));
    let mut done = batch::Done::<()>::new(out.is_raw());
    let mut buffer = Vec::new();
    loop {
        // Flush before blocking on input, so that a pipe sees results as they come while a
        // bulk run still writes in large blocks.
        if lines.buffer_is_empty() {
            out.flush()?;
        }
        let Some((number, line)) = lines.next_line(&mut buffer)? else {
            break;
        };
        if number == 1 && lines.had_bom() {
            batch::say_bom("standard input", &Progress::hidden());
        }
        match line_job(number, line, defaults, jsonl_in, style, &mut done) {
            Some(job) => all_ok &= f(job, out)?,
            None => {
                all_ok = false;
                write_done(&done, out)?;
                done = batch::Done::new(out.is_raw());
            }
        }
    }
    Ok(all_ok)
}

/// A `--jsonl-in` line: a JSON string, or an object with "input" and optionally "base",
/// "set" (applied in the object's order) and "encoding", on top of `defaults`.
pub(super) fn job_from_json<'a>(line: &str, defaults: &Job<'a>) -> Result<Job<'a>, String> {
    let value: Value = serde_json::from_str(line).map_err(|e| format!("not JSON: {e}"))?;
    match value {
        Value::String(input) => Ok(Job {
            input: Cow::Owned(input),
            ..defaults.clone()
        }),
        Value::Object(object) => {
            let input = object
                .get("input")
                .and_then(Value::as_str)
                .ok_or("no \"input\" string")?
                .to_owned();
            let base = match object.get("base") {
                None => defaults.base.clone(),
                Some(Value::Null) => None,
                Some(Value::String(b)) => Some(b.clone()),
                Some(_) => return Err("\"base\" must be a string or null".into()),
            };
            let mut set = defaults.set.clone();
            if let Some(setters) = object.get("set") {
                let setters = setters.as_object().ok_or("\"set\" must be an object")?;
                for (name, value) in setters {
                    let component: Component = name.parse()?;
                    let value = value.as_str().ok_or("setter values must be strings")?;
                    set.push((component, value.to_owned()));
                }
            }
            let encoding = match object.get("encoding") {
                None | Some(Value::Null) => defaults.encoding,
                Some(Value::String(label)) => parse_encoding(label)?,
                Some(_) => return Err("\"encoding\" must be a string".into()),
            };
            Ok(Job {
                input: Cow::Owned(input),
                base,
                set,
                encoding,
                line: None,
            })
        }
        _ => Err("expected a JSON string or object".into()),
    }
}
