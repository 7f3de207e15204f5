//! The command line (clap): `parse`, `trace` and `check`, and the inspector, all on the
//! library's [`Report`].

mod lines;
mod output;

use clap::{Args, Parser, Subcommand, ValueEnum};
use encoding_rs::{Encoding, UTF_8};
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::io::{self, BufRead, BufWriter, IsTerminal, Write};
use std::process::ExitCode;

use urlscope::display::{self, EscapeStyle};
use urlscope::report::{Outcome, Report};
use urlscope::trace::NoTrace;
use urlscope::url::Component;
use urlscope::Url;

use lines::{next_line, Line, MAX_INPUT};
use output::{line, parse_json, warn, write_text, Text, TraceJson};

#[derive(Debug, Parser)]
#[command(
    name = "urlscope",
    version,
    about = "Inspect URLs the way the WHATWG URL Standard parses them",
    long_about = "Inspect URLs the way the WHATWG URL Standard parses them.\n\n\
        Without a subcommand, urlscope opens the interactive inspector when standard output is a \
        terminal, and otherwise prints what `parse` prints.",
    args_conflicts_with_subcommands = true
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    /// The URL to inspect.
    url: Option<String>,
    /// A base URL to resolve the input against.
    #[arg(long)]
    base: Option<String>,
    /// Write text output as it is: without it, controls, bidi controls and invisible code
    /// points from the input are escaped (\u{1B}). JSON output is exact either way.
    #[arg(long, global = true)]
    raw: bool,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Parse each URL and print its components and validation errors.
    Parse(ParseArgs),
    /// Print the parser's state-machine trace, one row per step.
    Trace {
        /// The URL to trace; none, or "-", traces each standard input line.
        url: Option<String>,
        /// A base URL to resolve the input against.
        #[arg(long)]
        base: Option<String>,
        /// Print JSON: the steps and the result (one object per input).
        #[arg(long)]
        json: bool,
        /// Each standard input line is JSON: a string, or {"input", "base", "encoding"}.
        #[arg(long)]
        jsonl_in: bool,
    },
    /// Report findings for a list of URLs, one per line.
    Check {
        /// The file to read ("-" or nothing: standard input).
        file: Option<String>,
        /// Print JSON Lines: one object per URL, then a summary.
        #[arg(long)]
        json: bool,
        /// Exit 1 when a finding is at or above this severity.
        #[arg(long, value_enum, default_value_t = Severity::Danger)]
        fail_on: Severity,
    },
}

#[derive(Debug, Args)]
struct ParseArgs {
    /// The URLs to parse; none, or "-", reads one input per line from standard input.
    urls: Vec<String>,
    /// A base URL to resolve the inputs against.
    #[arg(long)]
    base: Option<String>,
    /// Print one JSON object per input (JSON Lines).
    #[arg(long)]
    json: bool,
    /// Each standard input line is JSON: a string, or {"input", "base", "set", "encoding"}.
    #[arg(long)]
    jsonl_in: bool,
    /// Apply the URL API setter of COMPONENT after parsing (repeatable, in order).
    #[arg(long = "set", value_name = "COMPONENT=VALUE", value_parser = parse_setter)]
    set: Vec<(Component, String)>,
    /// The query encoding: any WHATWG Encoding label (UTF-8 by default).
    #[arg(long, value_name = "LABEL", value_parser = parse_encoding)]
    encoding: Option<&'static Encoding>,
    /// Print this template per URL instead, e.g. "{hostname}:{port}".
    #[arg(long, value_name = "TEMPLATE", value_parser = parse_template)]
    get: Option<Template>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, ValueEnum)]
enum Severity {
    Info,
    Warn,
    Danger,
}

fn parse_setter(s: &str) -> Result<(Component, String), String> {
    let (name, value) = s.split_once('=').ok_or("expected COMPONENT=VALUE")?;
    Ok((name.parse()?, value.to_owned()))
}

fn parse_encoding(label: &str) -> Result<&'static Encoding, String> {
    Encoding::for_label(label.trim().as_bytes())
        .ok_or_else(|| format!("{label:?} is not a WHATWG Encoding label"))
}

/// A `--get` template: literal text and the names of URL API getters in braces.
#[derive(Clone, Debug)]
struct Template(Vec<Piece>);

#[derive(Clone, Debug)]
enum Piece {
    Text(String),
    Getter(Component),
    Origin,
    Input,
}

fn parse_template(s: &str) -> Result<Template, String> {
    let mut pieces = Vec::new();
    let mut rest = s;
    while let Some(open) = rest.find('{') {
        if open > 0 {
            pieces.push(Piece::Text(rest[..open].to_owned()));
        }
        let close = rest[open..].find('}').ok_or("unclosed { in the template")? + open;
        let name = &rest[open + 1..close];
        pieces.push(match name {
            "origin" => Piece::Origin,
            "input" => Piece::Input,
            _ => Piece::Getter(name.parse().map_err(|e| format!("{e}, origin or input"))?),
        });
        rest = &rest[close + 1..];
    }
    if !rest.is_empty() {
        pieces.push(Piece::Text(rest.to_owned()));
    }
    Ok(Template(pieces))
}

impl Template {
    fn fill(&self, input: &str, url: &Url) -> String {
        let mut out = String::new();
        for piece in &self.0 {
            match piece {
                Piece::Text(t) => out.push_str(t),
                Piece::Getter(c) => out.push_str(&url.get(*c)),
                Piece::Origin => out.push_str(&url.origin()),
                Piece::Input => out.push_str(input),
            }
        }
        out
    }
}

/// How a command ended: `Ok(false)` when an input failed (exit 1).
type RunResult = io::Result<bool>;

pub fn run() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        // clap quotes the arguments it rejects: its message goes through the escaping writer
        // like every other (help and version hold no input and print as clap prints them).
        Err(e) if e.use_stderr() => {
            let mut err = Text::new(io::stderr().lock(), false);
            for message in e.render().to_string().lines() {
                let _ = line!(err, "{message}");
            }
            return ExitCode::from(u8::try_from(e.exit_code()).unwrap_or(2));
        }
        Err(e) => e.exit(),
    };
    let stdout = io::stdout();
    let mut out = Text::new(BufWriter::new(stdout.lock()), cli.raw);
    let result: RunResult = match cli.command {
        Some(Command::Parse(args)) => parse_command(args, &mut out),
        Some(Command::Trace {
            url,
            base,
            json,
            jsonl_in,
        }) => trace_command(url.as_deref(), base, json, jsonl_in, &mut out),
        Some(Command::Check {
            file,
            json,
            fail_on,
        }) => check_command(file.as_deref(), json, fail_on, &mut out),
        None => {
            drop(out);
            inspector(cli.url, cli.base, cli.raw)
        }
    };
    match result {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(1),
        // A closed pipe (`| head`) is how a reader says it has seen enough.
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            warn(format_args!("{e}"));
            ExitCode::from(1)
        }
    }
}

/// `urlscope [URL]`: the inspector on a terminal, otherwise what `parse` prints.
fn inspector(url: Option<String>, base: Option<String>, raw: bool) -> RunResult {
    #[cfg(feature = "tui")]
    if io::stdout().is_terminal() && io::stdin().is_terminal() {
        urlscope::tui::run(url.as_deref().unwrap_or(""), base.as_deref().unwrap_or(""))?;
        return Ok(true);
    }
    let args = ParseArgs {
        urls: url.into_iter().collect(),
        base,
        json: false,
        jsonl_in: false,
        set: Vec::new(),
        encoding: None,
        get: None,
    };
    parse_command(
        args,
        &mut Text::new(BufWriter::new(io::stdout().lock()), raw),
    )
}

/// One input to parse, with what applies to it.
#[derive(Clone)]
struct Job {
    input: String,
    base: Option<String>,
    set: Vec<(Component, String)>,
    encoding: &'static Encoding,
}

/// Parses one job: the report (untraced) and the URL after the setters, or a message when the
/// base is at fault.
fn run_job(
    job: &Job,
    base_cache: &mut Option<(String, Result<Url, String>)>,
) -> (Report, Option<Url>, Option<String>) {
    let base_url = match &job.base {
        None => None,
        Some(base) => {
            let cached = base_cache.as_ref().filter(|(b, _)| b == base);
            let parsed = match cached {
                Some((_, parsed)) => parsed.clone(),
                None => {
                    let parsed = Url::parse(base, None).map_err(|e| match e.cause() {
                        Some(cause) => {
                            format!("the base URL {base:?} is not a URL: {cause}")
                        }
                        None => format!("the base URL {base:?} is not a URL"),
                    });
                    *base_cache = Some((base.clone(), parsed.clone()));
                    parsed
                }
            };
            match parsed {
                Ok(url) => Some(url),
                Err(message) => {
                    // The report of a base that fails: the base's errors, the input unparsed.
                    let report = Report::with_encoding(&job.input, Some(base), job.encoding);
                    return (report, None, Some(message));
                }
            }
        }
    };
    let report = Report::untraced(&job.input, base_url, job.encoding);
    let mut url = report.url.clone();
    if let Some(url) = &mut url {
        for (component, value) in &job.set {
            let _ = url.set(*component, value, &mut NoTrace);
        }
    }
    let message = match &report.outcome {
        Outcome::Failure { cause: Some(cause) } => Some(format!("not a URL: {cause}")),
        _ => None,
    };
    (report, url, message)
}

fn parse_command(args: ParseArgs, out: &mut Text<impl Write>) -> RunResult {
    let encoding = args.encoding.unwrap_or(UTF_8);
    let mut all_ok = true;
    let mut base_cache = None;
    let mut emit = |job: &Job, out: &mut Text<_>, all_ok: &mut bool| -> io::Result<()> {
        let (report, url, message) = run_job(job, &mut base_cache);
        *all_ok &= url.is_some();
        if let Some(template) = &args.get {
            match &url {
                Some(url) => line!(out, "{}", template.fill(&job.input, url))?,
                None => warn(format_args!(
                    "{}: {}",
                    job.input,
                    message.as_deref().unwrap_or("not a URL")
                )),
            }
            return Ok(());
        }
        if args.json {
            out.json(&parse_json(&report, url.as_ref(), message.as_deref()))
        } else {
            write_text(out, &report, url.as_ref(), message.as_deref())
        }
    };
    let from_stdin = args.urls.is_empty() || args.urls.iter().any(|u| u == "-");
    for input in args.urls.iter().filter(|u| *u != "-") {
        let job = Job {
            input: input.clone(),
            base: args.base.clone(),
            set: args.set.clone(),
            encoding,
        };
        emit(&job, out, &mut all_ok)?;
    }
    if !from_stdin {
        out.flush()?;
        return Ok(all_ok);
    }
    let defaults = Job {
        input: String::new(),
        base: args.base.clone(),
        set: args.set.clone(),
        encoding,
    };
    all_ok &= for_each_stdin_job(&defaults, args.jsonl_in, out, |job, out| {
        let mut ok = true;
        emit(&job, out, &mut ok)?;
        Ok(ok)
    })?;
    out.flush()?;
    Ok(all_ok)
}

/// Reads standard input one line at a time and calls `f` with the job of each line (the
/// line itself, or with `jsonl_in` the job it describes, on top of `defaults`). A line that
/// cannot be read is reported and skipped; the result is false when one was, or `f` said so.
fn for_each_stdin_job<W: Write>(
    defaults: &Job,
    jsonl_in: bool,
    out: &mut Text<W>,
    mut f: impl FnMut(Job, &mut Text<W>) -> RunResult,
) -> RunResult {
    let mut all_ok = true;
    let stdin = io::stdin();
    let mut reader = io::BufReader::with_capacity(1 << 16, stdin.lock());
    let mut number = 0usize;
    loop {
        // Flush before blocking on input, so that a pipe sees results as they come while a
        // bulk run still writes in large blocks.
        if reader.buffer().is_empty() {
            out.flush()?;
        }
        let Some(line) = next_line(&mut reader, MAX_INPUT)? else {
            break;
        };
        number += 1;
        let text = match line {
            Line::Text(text) => text,
            Line::NotUtf8 => {
                warn(format_args!("line {number} is not UTF-8; skipped"));
                all_ok = false;
                continue;
            }
            Line::TooLong(length) => {
                warn(format_args!(
                    "line {number} is {length} bytes, over the {MAX_INPUT}-byte limit; skipped"
                ));
                all_ok = false;
                continue;
            }
        };
        let job = if jsonl_in {
            match job_from_json(&text, defaults) {
                Ok(job) => job,
                Err(error) => {
                    warn(format_args!("line {number}: {error}"));
                    out.json(&json!({"line": number, "error": error}))?;
                    all_ok = false;
                    continue;
                }
            }
        } else {
            Job {
                input: text,
                ..defaults.clone()
            }
        };
        all_ok &= f(job, out)?;
    }
    Ok(all_ok)
}

/// A `--jsonl-in` line: a JSON string, or an object with "input" and optionally "base",
/// "set" (applied in the object's order) and "encoding", on top of `defaults`.
fn job_from_json(line: &str, defaults: &Job) -> Result<Job, String> {
    let value: Value = serde_json::from_str(line).map_err(|e| format!("not JSON: {e}"))?;
    match value {
        Value::String(input) => Ok(Job {
            input,
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
                input,
                base,
                set,
                encoding,
            })
        }
        _ => Err("expected a JSON string or object".into()),
    }
}

fn trace_command(
    url: Option<&str>,
    base: Option<String>,
    json: bool,
    jsonl_in: bool,
    out: &mut Text<impl Write>,
) -> RunResult {
    let defaults = Job {
        input: String::new(),
        base,
        set: Vec::new(),
        encoding: UTF_8,
    };
    let ok = match url {
        Some(url) if url != "-" => {
            let job = Job {
                input: url.to_owned(),
                ..defaults
            };
            trace_one(&job, json, out)?
        }
        _ => for_each_stdin_job(&defaults, jsonl_in, out, |job, out| {
            if !job.set.is_empty() {
                warn(format_args!("trace does not run setters; \"set\" ignored"));
            }
            trace_one(&job, json, out)
        })?,
    };
    out.flush()?;
    Ok(ok)
}

fn trace_one(job: &Job, json: bool, out: &mut Text<impl Write>) -> RunResult {
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
        let result = parse_json(&report, report.url.as_ref(), message.as_deref());
        out.json(&TraceJson {
            report: &report,
            result,
        })?;
    } else {
        write_trace_table(out, &report)?;
        let message = match &report.outcome {
            Outcome::BaseFailure { .. } => Some("the base URL is not a URL"),
            _ => None,
        };
        write_text(out, &report, report.url.as_ref(), message)?;
    }
    Ok(parsed)
}

/// The buffer column's width: a row shows the buffer's end in it (with `…` when longer), so
/// that a row's size does not grow with the buffer and the table stays linear in the input.
const BUFFER_COLUMN: usize = 24;

fn write_trace_table(out: &mut Text<impl Write>, report: &Report) -> io::Result<()> {
    let Some(trace) = &report.trace else {
        return Ok(());
    };
    let width = crossterm_width().unwrap_or(120);
    let table_width = 5 + 1 + 40 + 1 + 5 + 1 + 6 + 1 + BUFFER_COLUMN + 1 + 30;
    // The input beside each row, only when all of it fits on the terminal.
    let mut show_input = width > table_width + 3;
    let mut columns = Vec::new();
    if show_input {
        columns = out.columns(&report.input);
        show_input = table_width + columns.last().copied().unwrap_or(0) + 3 <= width;
    }
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
    trace.for_each_with_buffer(|view, buffer| {
        if result.is_err() {
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
            "{:>4}  {:<40} {:>5} {:<6} {:<BUFFER_COLUMN$} {}",
            view.index,
            view.phase.name(),
            pointer,
            c,
            shown_buffer,
            changes.join(" ")
        );
        if show_input && is_state {
            let at = columns[view.pointer.min(columns.len() - 1)];
            line = format!(
                "{line:<width$}  {}▸{}",
                &input_prefix(&input, at),
                &input_suffix(&input, at),
                width = table_width
            );
        }
        result = line!(out, "{}", line.trim_end());
    });
    result?;
    line!(out)
}

fn input_prefix(escaped: &str, column: usize) -> String {
    escaped.chars().take(column).collect()
}

fn input_suffix(escaped: &str, column: usize) -> String {
    escaped.chars().skip(column).collect()
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

fn check_command(
    file: Option<&str>,
    json: bool,
    fail_on: Severity,
    out: &mut Text<impl Write>,
) -> RunResult {
    let reader: Box<dyn BufRead> = match file {
        None | Some("-") => Box::new(io::BufReader::with_capacity(1 << 16, io::stdin().lock())),
        Some(path) => Box::new(io::BufReader::new(
            std::fs::File::open(path)
                .map_err(|e| io::Error::new(e.kind(), format!("cannot read {path}: {e}")))?,
        )),
    };
    let mut reader = reader;
    let mut summary: BTreeMap<String, usize> = BTreeMap::new();
    let mut worst: Option<Severity> = None;
    let mut number = 0;
    while let Some(line) = next_line(&mut reader, MAX_INPUT)? {
        number += 1;
        let Line::Text(input) = line else {
            warn(format_args!(
                "line {number} is not UTF-8 or too long; skipped"
            ));
            continue;
        };
        let report = Report::untraced(&input, None, UTF_8);
        let mut findings: Vec<(Severity, Value)> = report
            .host_analysis
            .iter()
            .flat_map(|a| &a.findings)
            .map(|f| {
                let severity = match f.severity {
                    urlscope::inspect::Severity::Info => Severity::Info,
                    urlscope::inspect::Severity::Warn => Severity::Warn,
                    urlscope::inspect::Severity::Danger => Severity::Danger,
                };
                let spans: Vec<[usize; 2]> = f.spans.iter().map(|s| [s.start, s.end]).collect();
                let value = json!({
                    "id": f.id, "severity": f.severity, "title": f.title, "detail": f.detail,
                    "spans": spans, "code_points": f.code_points,
                });
                (severity, value)
            })
            .collect();
        if !report.parsed() {
            let detail = match &report.outcome {
                Outcome::Failure { cause: Some(cause) } => format!("not a URL: {cause}"),
                _ => "the input is not a URL".to_owned(),
            };
            findings.push((
                Severity::Warn,
                json!({"id": "failure", "severity": "warn", "title": "failure", "detail": detail, "spans": []}),
            ));
        }
        let findings: Vec<Value> = findings
            .into_iter()
            .map(|(severity, value)| {
                worst = worst.max(Some(severity));
                value
            })
            .collect();
        for f in &findings {
            if let Some(id) = f["id"].as_str() {
                *summary.entry(id.to_owned()).or_default() += 1;
            }
        }
        let href = report.url.as_ref().map(Url::href);
        let host = report.url.as_ref().map(Url::hostname);
        if json {
            out.json(&json!({"input": input, "href": href, "host": host, "findings": findings}))?;
        } else {
            let ids: Vec<&str> = findings.iter().filter_map(|f| f["id"].as_str()).collect();
            let verdict = if ids.is_empty() {
                "ok".to_owned()
            } else {
                ids.join(", ")
            };
            line!(out, "{}  {}", input, verdict)?;
        }
    }
    if json {
        out.json(&json!({"summary": summary}))?;
    } else {
        line!(out)?;
        line!(out, "summary: {number} URLs")?;
        for (id, count) in &summary {
            line!(out, "  {id}: {count}")?;
        }
    }
    out.flush()?;
    Ok(worst.is_none_or(|w| w < fail_on))
}
