//! `urlscope trace`: the parser's state-machine trace, one row per step (optionally each step
//! of the standard it took, explained), or as JSON.

use encoding_rs::UTF_8;
use std::borrow::Cow;
use std::io::{self, IsTerminal, Write};
use unicode_width::UnicodeWidthStr;

use urlscope::display::{self, EscapeStyle};
use urlscope::report::{Outcome, Report};
use urlscope::trace::{Row, StepView};

use super::batch::Style;
use super::job::{for_each_stdin_job, Job};
use super::output::{line, parse_json, warn, write_text, Fields, Text, TraceJson};
use super::RunResult;

pub(super) fn trace_command(
    url: Option<&str>,
    base: Option<String>,
    json: bool,
    jsonl_in: bool,
    table: TableOptions,
    out: &mut Text<impl Write>,
) -> RunResult {
    let style = match json {
        true => Style::Json,
        false => Style::Text { blank: true },
    };
    let defaults = Job {
        input: Cow::Borrowed(""),
        base,
        set: Vec::new(),
        encoding: UTF_8,
        line: None,
    };
    let ok = match url {
        Some(url) if url != "-" => {
            let job = Job {
                input: Cow::Borrowed(url),
                ..defaults
            };
            trace_one(&job, json, table, out)?
        }
        _ => for_each_stdin_job(&defaults, jsonl_in, style, out, |job, out| {
            if !job.set.is_empty() {
                warn(format_args!(
                    "{}: trace does not run setters; \"set\" ignored",
                    job.place()
                ));
            }
            trace_one(&job, json, table, out)
        })?,
    };
    out.flush()?;
    Ok(ok)
}

fn trace_one(
    job: &Job<'_>,
    json: bool,
    table: TableOptions,
    out: &mut Text<impl Write>,
) -> RunResult {
    let report = Report::with_encoding(&job.input, job.base.as_deref(), job.encoding);
    let parsed = report.parsed();
    if json {
        let message = match &report.outcome {
            Outcome::BaseFailure { cause } => Some(format!(
                "the base URL is not a URL{}",
                cause.as_ref().map_or(String::new(), |c| format!(": {c}"))
            )),
            _ => None,
        };
        let result = parse_json(&report, message.as_deref(), Fields::ALL);
        let object = TraceJson {
            report: &report,
            result,
        };
        out.json_with(|buf| object.write(buf))?;
    } else {
        write_trace_table(out, &report, table)?;
        let message = match &report.outcome {
            Outcome::BaseFailure { .. } => Some("the base URL is not a URL"),
            _ => None,
        };
        write_text(out, &report, message)?;
    }
    Ok(parsed)
}

/// The buffer column's width: a row shows the buffer's end in it (with `…` when longer), so
/// that a row's size does not grow with the buffer and the table stays linear in the input.
const BUFFER_COLUMN: usize = 24;

/// How the text trace is shown.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct TableOptions {
    /// The cited steps and their explanations under each row.
    pub(super) explain: bool,
    /// Runs of append-only steps in one state as one row.
    pub(super) collapse: bool,
}

fn write_trace_table(
    out: &mut Text<impl Write>,
    report: &Report,
    table: TableOptions,
) -> io::Result<()> {
    let Some(trace) = &report.trace else {
        return Ok(());
    };
    let width = crossterm_width().unwrap_or(120);
    let table_width = 5 + 1 + 40 + 1 + 5 + 1 + 6 + 1 + BUFFER_COLUMN + 1 + 30;
    // The input beside each row, only when all of it fits on the terminal.
    let show_input = width > table_width + 3
        && table_width + out.columns(&report.input).last().copied().unwrap_or(0) + 3 <= width;
    let input = out.shown(&report.input).into_owned();
    line!(out, "input: {input}")?;
    line!(
        out,
        "{:>4}  {:<40} {:>5} {:<6} {:<BUFFER_COLUMN$} changes",
        "step",
        "state",
        "ptr",
        "c",
        "buffer"
    )?;
    let mut result = Ok(());
    let mut rows = trace.rows().peekable();
    trace.for_each_with_buffer(|view, buffer| {
        if result.is_err() {
            return;
        }
        // A collapsed run is one row, written at its last step (with the buffer after it).
        let mut run = None;
        if table.collapse {
            while rows.peek().is_some_and(|row| row.steps().end <= view.index) {
                rows.next();
            }
            if let Some(Row::Run(r)) = rows.peek() {
                if r.steps.contains(&view.index) {
                    if view.index + 1 < r.steps.end {
                        return;
                    }
                    run = Some(r.clone());
                }
            }
        }
        if let Some(run) = run {
            let first = trace.view(run.steps.start);
            let shown_buffer = display::tail(buffer, BUFFER_COLUMN, EscapeStyle::Backslash);
            let line = format!(
                "{:>4}  {:<40} {:>5} {:<6} {} {} ← {}",
                run.steps.start,
                format!("{} ×{}", run.state.name(), run.len()),
                first.pointer,
                "",
                padded(&shown_buffer, BUFFER_COLUMN),
                run.target,
                display::tail(run.text, 60, EscapeStyle::Backslash),
            );
            result = line!(out, "{}", line.trim_end());
            if table.explain && result.is_ok() {
                result = write_explanations(out, &first, trace.input());
            }
            return;
        }
        let is_state = matches!(view.phase, urlscope::url::Phase::State(_));
        let c = match (is_state, view.c) {
            (true, Some(c)) => out.shown(&c.to_string()).into_owned(),
            (true, None) => "EOF".to_owned(),
            _ => String::new(),
        };
        let mut changes: Vec<String> = view.changes.iter().map(ToString::to_string).collect();
        changes.extend(view.pointer_moves.iter().map(ToString::to_string));
        changes.extend(view.errors.iter().map(|e| format!("⚠ {}", e.kind)));
        let pointer = if is_state {
            view.pointer.to_string()
        } else {
            String::new()
        };
        let shown_buffer = display::tail(buffer, BUFFER_COLUMN, EscapeStyle::Backslash);
        let mut line = format!(
            "{:>4}  {:<40} {:>5} {} {} {}",
            view.index,
            view.phase.name(),
            pointer,
            padded(&c, 6),
            padded(&shown_buffer, BUFFER_COLUMN),
            changes.join(" ")
        );
        if show_input && is_state {
            // Split at the pointer's code point, then escape each side: an escape or a wide
            // code point makes a column differ from a code point offset.
            let at = report
                .input
                .char_indices()
                .nth(view.pointer)
                .map_or(report.input.len(), |(at, _)| at);
            let (before, after) = report.input.split_at(at);
            line = format!(
                "{}  {}▸{}",
                padded(&line, table_width),
                out.shown(before),
                out.shown(after)
            );
        }
        result = line!(out, "{}", line.trim_end());
        if table.explain && result.is_ok() {
            result = write_explanations(out, &view, trace.input());
        }
    });
    result?;
    line!(out)
}

/// The steps of the standard a row took, one line each: number, explanation, link; then the
/// host parser's sub-steps, when the row ran it, indented under them.
fn write_explanations(
    out: &mut Text<impl Write>,
    view: &StepView<'_>,
    input: &str,
) -> io::Result<()> {
    // The host parser's own steps go right under the step that ran it ("host parse buffer"),
    // before the steps that use its result; under the last step if none says so.
    let explained: Vec<_> = view.explained().collect();
    let runs_host_parser = explained
        .iter()
        .position(|step| step.words.starts_with("host parse"))
        .unwrap_or(explained.len().saturating_sub(1));
    for (i, step) in explained.iter().enumerate() {
        line!(
            out,
            "        § {} {}: {}  <{}>",
            step.section_name(),
            step.number,
            step.explanation.unwrap_or(step.words),
            step.url()
        )?;
        if i == runs_host_parser {
            write_host_steps(out, view, input)?;
        }
    }
    if explained.is_empty() {
        write_host_steps(out, view, input)?;
    }
    Ok(())
}

/// The host parser's sub-steps that `view` ran, indented under its own.
fn write_host_steps(
    out: &mut Text<impl Write>,
    view: &StepView<'_>,
    input: &str,
) -> io::Result<()> {
    let host_steps = view.host_steps(input);
    for (event, step) in view.host_events.iter().zip(host_steps) {
        match step {
            Some(step) => line!(
                out,
                "          § {} {}: {}  <{}>",
                step.name(),
                step.number,
                out.shown(&step.explanation),
                step.link
            )?,
            None => line!(out, "          § host parsing: {event:?}")?,
        }
    }
    Ok(())
}

/// `shown` followed by spaces up to `width` terminal columns: `format!`'s padding counts code
/// points, and a wide one (an emoji, a CJK ideograph) takes two columns.
fn padded(shown: &str, width: usize) -> String {
    let used = UnicodeWidthStr::width(shown);
    format!("{shown}{}", " ".repeat(width.saturating_sub(used)))
}

/// The terminal's width, when standard output is one.
fn crossterm_width() -> Option<usize> {
    if !io::stdout().is_terminal() {
        return None;
    }
    std::env::var("COLUMNS")
        .ok()
        .and_then(|c| c.parse().ok())
        .or({
            #[cfg(feature = "tui")]
            {
                crossterm::terminal::size()
                    .ok()
                    .map(|(w, _)| usize::from(w))
            }
            #[cfg(not(feature = "tui"))]
            {
                None
            }
        })
}
