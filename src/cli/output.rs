//! What the commands print: the JSON objects of the contract and the text tables.

use serde::ser::{Serialize, SerializeMap, SerializeSeq, Serializer};
use std::borrow::Cow;
use std::fmt;
use std::io::{self, Write};
use unicode_width::UnicodeWidthChar;

use super::json::{self, key, Object};
use urlscope::display::{self, EscapeStyle};
use urlscope::inspect::{HostAnalysis, LabelAnalysis};
use urlscope::report::{Outcome, Report};
use urlscope::url::writing::Writing;
use urlscope::url::Component;
use urlscope::validation::fix::{Fix, Fixer};
use urlscope::{Url, ValidationError};

/// The getters, in the order the contract lists them.
pub const FIELDS: [Component; 10] = Component::ALL;

/// A validation error as the contract writes it; the entry that stands for the repeats of its
/// kind past the limit also has `"count"` and `"last": {"start", "end"}`.
struct ErrorJson<'a>(&'a ValidationError, Option<Fix>);

impl Serialize for ErrorJson<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let e = self.0;
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("type", e.kind.name())?;
        map.serialize_entry("start", &e.span.start)?;
        map.serialize_entry("end", &e.span.end)?;
        if let Some(repeats) = &e.repeats {
            map.serialize_entry("count", &repeats.count)?;
            map.serialize_entry("last", &repeats.last)?;
        }
        map.serialize_entry("message", &e.message)?;
        map.serialize_entry("browsers", &e.kind.acceptance())?;
        map.serialize_entry("fix", &self.1)?;
        map.end()
    }
}

// The keys of the `parse --json` object, and what each needs computed, are the library's
// description of a parsed input's fields, which the Python package's Arrow columns share.
pub use urlscope::report::fields::Fields;

/// The bit of `key` in [`Fields`], found at compile time (an object is written per line).
const fn bit(key: &str) -> u32 {
    Fields::bit(key)
}

/// The `parse --json` object for one report (of the URL after any setters: every key reads the
/// same report) and an optional message (why it failed, when the base is at fault), with the
/// keys of `fields`. It borrows the report and is written straight to the output (a batch
/// writes one per line).
pub struct ParseJson<'a> {
    report: &'a Report,
    message: Option<&'a str>,
    fields: Fields,
}

pub fn parse_json<'a>(
    report: &'a Report,
    message: Option<&'a str>,
    fields: Fields,
) -> ParseJson<'a> {
    ParseJson {
        report,
        message,
        fields,
    }
}

impl ParseJson<'_> {
    /// Appends the object to `out`.
    pub fn write(&self, out: &mut Vec<u8>) -> Result<(), json::Error> {
        let report = self.report;
        // The fixes are of the string the errors are in (the href after setters), and built
        // only when there is an error to fix.
        let fixer = (!report.errors.is_empty()).then(|| {
            Fixer::new(
                report.spans_in(),
                report.url.as_ref().map(Url::record),
                report.host_span,
            )
            .with_base(report.base_url.as_ref())
        });
        let errors = Errors(&report.errors, fixer);
        let has = |bit: u32| self.fields.has_bit(bit);
        let mut object = Object::new(out);
        if has(const { bit("input") }) {
            object.str(key!("input"), &report.input);
        }
        if has(const { bit("base") }) {
            object.opt_str(key!("base"), report.base.as_deref());
        }
        match &report.url {
            Some(url) => {
                // The getters in the order of [`FIELDS`], origin after href, each key a
                // constant.
                macro_rules! getter {
                    ($component:ident, $key:literal) => {
                        if has(const { bit($key) }) {
                            object.str(key!($key), url.component(Component::$component));
                        }
                    };
                }
                getter!(Href, "href");
                if has(const { bit("origin") }) {
                    object.str(key!("origin"), &url.origin());
                }
                getter!(Protocol, "protocol");
                getter!(Username, "username");
                getter!(Password, "password");
                getter!(Host, "host");
                getter!(Hostname, "hostname");
                getter!(Port, "port");
                getter!(Pathname, "pathname");
                getter!(Search, "search");
                getter!(Hash, "hash");
                if has(const { bit("searchParams") }) {
                    let params = url.search_params();
                    let pairs: Vec<[&str; 2]> = params.iter().map(|(n, v)| [n, v]).collect();
                    object.serde(key!("searchParams"), &pairs)?;
                }
                if has(const { bit("valid") }) {
                    object.bool(key!("valid"), report.errors.is_empty());
                }
                if has(const { bit("errors") }) {
                    object.serde(key!("errors"), &errors)?;
                }
                if has(const { bit("writing") }) {
                    write_writing(object.key(key!("writing")), &report.writing);
                }
                if has(const { bit("host_analysis") }) {
                    let out = object.key(key!("host_analysis"));
                    match &report.host_analysis {
                        Some(analysis) => write_host_analysis(out, analysis)?,
                        None => out.extend_from_slice(b"null"),
                    }
                }
            }
            None => {
                // Whatever the fields, a failure says so, and why when it can.
                object.bool(key!("failure"), true);
                if has(const { bit("errors") }) {
                    object.serde(key!("errors"), &errors)?;
                    if !report.base_errors.is_empty() {
                        // A base that failed: its errors, with spans into `base`.
                        object.serde(key!("base_errors"), &Errors(&report.base_errors, None))?;
                    }
                }
                if has(const { bit("writing") }) {
                    write_writing(object.key(key!("writing")), &report.writing);
                }
                if let Some(message) = self.message {
                    object.str(key!("message"), message);
                }
                // The step that returned failure, where, and its fix (host failures).
                if let Some(failure) = &report.failure {
                    object.serde(key!("cause"), failure)?;
                }
            }
        }
        object.end();
        Ok(())
    }
}

// The report's parts that every `parse --json` line carries, written field by field (the
// derived `Serialize` writes the same; the tests below hold them to it). Each writer takes its
// struct apart whole, so that a field added to it does not compile until it is written here.

/// `writing`, as `Writing`'s derived `Serialize` writes it.
fn write_writing(out: &mut Vec<u8>, writing: &Writing) {
    let Writing {
        valid,
        production_path,
        position,
        expected,
    } = writing;
    let mut object = Object::new(out);
    object.bool(key!("valid"), *valid);
    object.strs(key!("production_path"), production_path);
    let out = object.key(key!("position"));
    match position {
        Some(position) => out.extend_from_slice(itoa::Buffer::new().format(*position).as_bytes()),
        None => out.extend_from_slice(b"null"),
    }
    object.opt_str(key!("expected"), expected.as_deref());
    object.end();
}

/// `host_analysis`, as `HostAnalysis`'s derived `Serialize` writes it; its rarer parts (IP
/// notations, display decisions, imitations, findings) go through serde.
fn write_host_analysis(out: &mut Vec<u8>, analysis: &HostAnalysis) -> Result<(), json::Error> {
    let HostAnalysis {
        host,
        typed,
        unicode,
        public_suffix,
        registrable_domain,
        labels,
        labels_omitted,
        ip,
        display,
        imitates,
        findings,
    } = analysis;
    let mut object = Object::new(out);
    object.str(key!("host"), host);
    object.opt_str(key!("typed"), typed.as_deref());
    object.str(key!("unicode"), unicode);
    object.opt_str(key!("public_suffix"), public_suffix.as_deref());
    object.opt_str(key!("registrable_domain"), registrable_domain.as_deref());
    json::write_array(object.key(key!("labels")), labels, write_label);
    if *labels_omitted > 0 {
        object.serde(key!("labels_omitted"), labels_omitted)?;
    }
    object.serde(key!("ip"), ip)?;
    object.serde(key!("display"), display)?;
    object.serde(key!("imitates"), imitates)?;
    object.serde(key!("findings"), findings)?;
    object.end();
    Ok(())
}

/// One label of `host_analysis.labels`, as `LabelAnalysis`'s derived `Serialize` writes it.
fn write_label(out: &mut Vec<u8>, label: &LabelAnalysis) {
    let LabelAnalysis {
        typed,
        unicode,
        ascii,
        scripts,
        restriction,
    } = label;
    let mut object = Object::new(out);
    object.opt_str(key!("typed"), typed.as_deref());
    object.str(key!("unicode"), unicode);
    object.str(key!("ascii"), ascii);
    object.strs(key!("scripts"), scripts);
    object.str(key!("restriction"), restriction);
    object.end();
}

/// The row of a line that gives no result: `{"line": N, "error": "…"}`, with the line's
/// `"bytes"` (hexadecimal) when it is not UTF-8, its `"length"` when it is over the limit.
#[derive(serde::Serialize)]
pub struct LineError<'a> {
    pub line: usize,
    pub error: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bytes: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub length: Option<usize>,
}

/// The gate's findings, each reading's destination and, with `--resolve`, the lookups.
pub type GateJson<'a> = (
    &'a [urlscope::inspect::Finding],
    &'a [urlscope::inspect::gate::Judged],
    Option<&'a [urlscope::inspect::resolve::Lookup]>,
);

/// One URL of `check --json`: `{"input", "href", "host", "findings", "imitates", "gate"}`.
pub struct CheckJson<'a> {
    pub input: &'a str,
    pub url: Option<&'a Url>,
    pub findings: &'a [urlscope::inspect::Finding],
    /// The base the input was resolved against (`--base`, or the `--jsonl-in` line's).
    pub base: Option<&'a str>,
    /// Why the input is not a URL, when it is not: a finding of its own, with the failing
    /// step, the code points it is about and the fix ([`Report::not_a_url`]); or, when the base
    /// is not a URL, what is wrong with the base.
    pub failure: Option<CheckFailure<'a>>,
    /// The gate's findings (`--allow-host`, `--deny-internal`) and each reading's destination,
    /// when there is a gate: `"gate": {"pass", "readings": {parser: {"host", "port", "allowed",
    /// "internal"}}}`, `null` without one; with `--resolve`, also `"lookups"`: each name's
    /// lookup (`{"name", "by", "outcome": "addresses" | "failed" | "timed_out", …}`).
    pub gate: Option<GateJson<'a>>,
    /// The known domains the host imitates, and how.
    pub imitates: &'a [urlscope::inspect::Imitation],
}

impl Serialize for CheckJson<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(6))?;
        map.serialize_entry("input", self.input)?;
        if self.base.is_some() {
            map.serialize_entry("base", &self.base)?;
        }
        map.serialize_entry("href", &self.url.map(Url::href))?;
        map.serialize_entry("host", &self.url.map(Url::hostname))?;
        map.serialize_entry("findings", &CheckFindings(self))?;
        map.serialize_entry("imitates", self.imitates)?;
        let gate = self.gate.map(|(findings, readings, lookups)| {
            let readings: serde_json::Map<String, serde_json::Value> = readings
                .iter()
                .map(|r| {
                    let value = serde_json::json!({
                        "host": r.host, "port": r.port, "allowed": r.allowed, "internal": r.internal,
                    });
                    (r.parser.clone(), value)
                })
                .collect();
            // The gate's findings are danger but for the lookups' warnings without
            // --deny-internal, which do not fail it.
            let pass = !findings
                .iter()
                .any(|f| f.severity == urlscope::inspect::Severity::Danger);
            let mut gate = serde_json::json!({"pass": pass, "readings": readings});
            if let Some(lookups) = lookups {
                gate["lookups"] = serde_json::json!(lookups);
            }
            gate
        });
        map.serialize_entry("gate", &gate)?;
        map.end()
    }
}

struct CheckFindings<'a>(&'a CheckJson<'a>);

impl Serialize for CheckFindings<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut seq = serializer.serialize_seq(None)?;
        for f in self.0.findings {
            seq.serialize_element(&FindingJson(f))?;
        }
        if let Some(failure) = &self.0.failure {
            seq.serialize_element(failure)?;
        }
        for f in self.0.gate.map_or(&[][..], |(findings, ..)| findings) {
            seq.serialize_element(&FindingJson(f))?;
        }
        seq.end()
    }
}

/// A finding as `check --json` writes it: spans as `[start, end]` pairs.
struct FindingJson<'a>(&'a urlscope::inspect::Finding);

impl Serialize for FindingJson<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let f = self.0;
        let mut map = serializer.serialize_map(Some(6))?;
        map.serialize_entry("id", f.id)?;
        map.serialize_entry("severity", &f.severity)?;
        map.serialize_entry("title", f.title)?;
        map.serialize_entry("detail", &f.detail)?;
        map.serialize_entry("spans", &Spans(&f.spans))?;
        map.serialize_entry("code_points", &f.code_points)?;
        map.end()
    }
}

struct Spans<'a>(&'a [urlscope::Span]);

impl Serialize for Spans<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.0.iter().map(|s| [s.start, s.end]))
    }
}

/// The `failure` finding of `check --json`: the input's [`urlscope::validation::NotAUrl`]
/// (`detail` its message, `step`, `explanation`, `fix`), or a base that is not a URL.
pub enum CheckFailure<'a> {
    Input(&'a urlscope::validation::NotAUrl),
    Base(&'a str),
}

impl Serialize for CheckFailure<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("id", "failure")?;
        map.serialize_entry("severity", "warn")?;
        map.serialize_entry("title", "failure")?;
        match self {
            CheckFailure::Input(why) => {
                map.serialize_entry("detail", &why.message)?;
                map.serialize_entry("spans", &Spans(why.span.as_slice()))?;
                map.serialize_entry("step", &why.step)?;
                map.serialize_entry("explanation", &why.explanation)?;
                map.serialize_entry("fix", &why.fixed)?;
            }
            CheckFailure::Base(message) => {
                map.serialize_entry("detail", message)?;
                map.serialize_entry("spans", &Spans(&[]))?;
            }
        }
        map.end()
    }
}

/// The `trace --json` object, written as it is serialized: a trace of a long input has
/// millions of steps, too many to build as a JSON value first.
pub struct TraceJson<'a> {
    pub report: &'a Report,
    pub result: ParseJson<'a>,
}

impl TraceJson<'_> {
    /// Appends the object to `out`.
    pub fn write(&self, out: &mut Vec<u8>) -> Result<(), json::Error> {
        let mut object = Object::new(out);
        object.str(key!("input"), &self.report.input);
        object.opt_str(key!("base"), self.report.base.as_deref());
        object.serde(key!("steps"), &self.report.trace)?;
        self.result.write(object.key(key!("result")))?;
        object.end();
        Ok(())
    }
}

/// Errors with the fix of each, when `1` can compute them (the input's own errors).
struct Errors<'a>(&'a [ValidationError], Option<Fixer<'a>>);

impl Serialize for Errors<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let fix = |e| self.1.as_ref().and_then(|fixer| fixer.fix(e));
        serializer.collect_seq(self.0.iter().map(|e| ErrorJson(e, fix(e))))
    }
}

/// The one writer of the commands' output. Text for people goes through [`Text::line`], which
/// escapes every code point that [`display::hidden`] names (controls, bidi controls,
/// invisibles), whatever the call site formatted into the line, unless the user asked for
/// `--raw`; the only raw byte it adds is the newline that ends the line. JSON goes through
/// [`Text::json`] and stays exact (serde_json escapes the C0 controls itself).
pub struct Text<W: Write> {
    out: W,
    raw: bool,
    line: String,
    /// A JSON line being written (kept for its capacity).
    json: Vec<u8>,
}

/// Writes one line to a [`Text`]: `line!(out, "{} = {}", name, value)?`.
macro_rules! line {
    ($out:expr) => {
        $out.line(format_args!(""))
    };
    ($out:expr, $($arg:tt)*) => {
        $out.line(format_args!($($arg)*))
    };
}
pub(crate) use line;

impl<W: Write> Text<W> {
    pub fn new(out: W, raw: bool) -> Self {
        Text {
            out,
            raw,
            line: String::new(),
            json: Vec::new(),
        }
    }

    /// Writes `args` escaped (raw with `--raw`), then a newline.
    pub fn line(&mut self, args: fmt::Arguments<'_>) -> io::Result<()> {
        self.line.clear();
        fmt::Write::write_fmt(&mut self.line, args).map_err(io::Error::other)?;
        if self.raw {
            self.out.write_all(self.line.as_bytes())?;
        } else {
            self.out.write_all(escape(&self.line).as_bytes())?;
        }
        self.out.write_all(b"\n")
    }

    /// Writes `value` as one line of JSON.
    pub fn json(&mut self, value: &impl Serialize) -> io::Result<()> {
        self.json_with(|out| json::write(out, value))
    }

    /// Writes one line of JSON that `write` appends to the buffer it is given.
    pub fn json_with(
        &mut self,
        write: impl FnOnce(&mut Vec<u8>) -> Result<(), json::Error>,
    ) -> io::Result<()> {
        self.json.clear();
        write(&mut self.json)?;
        self.json.push(b'\n');
        self.out.write_all(&self.json)
    }

    pub fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }

    /// Writes output another [`Text`] already made (a line of a batch).
    pub fn bytes(&mut self, bytes: &[u8]) -> io::Result<()> {
        self.out.write_all(bytes)
    }

    pub fn is_raw(&self) -> bool {
        self.raw
    }

    pub fn inner(&self) -> &W {
        &self.out
    }

    pub fn inner_mut(&mut self) -> &mut W {
        &mut self.out
    }

    /// `s` as a line will show it: for aligning columns before the line is written.
    pub fn shown<'a>(&self, s: &'a str) -> Cow<'a, str> {
        if self.raw {
            Cow::Borrowed(s)
        } else {
            escape(s)
        }
    }

    /// The column where each code point of `s` starts as [`Text::shown`] shows it, plus one
    /// for the end (see [`display::columns`]).
    pub fn columns(&self, s: &str) -> Vec<usize> {
        if !self.raw {
            return display::columns(s, EscapeStyle::Backslash);
        }
        let mut columns = Vec::with_capacity(s.len() + 1);
        let mut column = 0;
        for c in s.chars() {
            columns.push(column);
            column += c.width().unwrap_or(0);
        }
        columns.push(column);
        columns
    }
}

/// A message on standard error, always escaped: `urlscope: …`.
pub fn warn(args: fmt::Arguments<'_>) {
    let _ = Text::new(io::stderr().lock(), false).line(format_args!("urlscope: {args}"));
}

pub fn escape(s: &str) -> Cow<'_, str> {
    display::escape(s, EscapeStyle::Backslash)
}

/// Inputs wider than this (in columns, escaped) get an excerpt around each error's span
/// instead of one caret line under the whole input: a caret line is as long as its error's
/// offset, so a long input with an error at every few code points would make the output
/// quadratic in the input (an `@` every other code point did).
const CARET_WIDTH: usize = 160;

/// Code points shown on each side of a span in an excerpt, and at most twice this many of
/// the span itself.
const CONTEXT: usize = 20;

/// The input with a caret line under each error's span (an excerpt around it when the input
/// is long).
pub fn write_carets(
    out: &mut Text<impl Write>,
    indent: &str,
    input: &str,
    errors: &[ValidationError],
) -> io::Result<()> {
    if errors.is_empty() {
        return Ok(());
    }
    let columns = out.columns(input);
    let last = columns.len() - 1;
    let carets = |start: usize, end: usize| {
        let end = end.max(start + 1);
        format!("{}{}", " ".repeat(start), "^".repeat(end - start))
    };
    if columns[last] <= CARET_WIDTH {
        line!(out, "{indent}{input}")?;
        for e in errors {
            let start = columns[e.span.start.min(last)];
            let end = columns[e.span.end.min(last)];
            line!(
                out,
                "{indent}{} {} ({}): {}{}",
                carets(start, end),
                e.kind,
                e.state,
                e.message,
                repeats(e)
            )?;
        }
        return Ok(());
    }
    let offsets: Vec<usize> = input
        .char_indices()
        .map(|(i, _)| i)
        .chain([input.len()])
        .collect();
    for e in errors {
        let start = e.span.start.min(last);
        let end = e.span.end.clamp(start, last);
        let shown_end = end.min(start + 2 * CONTEXT);
        let from = start.saturating_sub(CONTEXT);
        let to = (shown_end + CONTEXT).min(last);
        let excerpt = &input[offsets[from]..offsets[to]];
        let excerpt_columns = out.columns(excerpt);
        let lead = if from > 0 { "…" } else { "" };
        let trail = if to < last { "…" } else { "" };
        let at = |i: usize| lead.chars().count() + excerpt_columns[i - from];
        line!(
            out,
            "{indent}{} ({}) at {}..{}: {}{}",
            e.kind,
            e.state,
            e.span.start,
            e.span.end,
            e.message,
            repeats(e)
        )?;
        line!(out, "{indent}  {lead}{excerpt}{trail}")?;
        line!(out, "{indent}  {}", carets(at(start), at(shown_end)))?;
    }
    Ok(())
}

/// After a collapsed entry's message: ` (×N from here, the last at a..b)`.
fn repeats(e: &ValidationError) -> String {
    e.repeats.map_or_else(String::new, |r| format!(" {r}"))
}

/// Why a report's input is not a URL, as `parse` and `check` say it: the step that returned
/// failure when the host parser failed, else the validation error that made the parse fail.
pub fn failure_message(report: &Report) -> String {
    report
        .not_a_url()
        .map_or_else(|| "the input is not a URL".to_owned(), |why| why.message)
}

/// Under the failure's line: the input with a caret line under the code points the failure is
/// about, and its fix.
fn write_failure(out: &mut Text<impl Write>, report: &Report) -> io::Result<()> {
    let Some(failure) = &report.failure else {
        return Ok(());
    };
    let error = ValidationError {
        span: failure.span,
        ..match &report.outcome {
            Outcome::Failure { cause: Some(cause) } => cause.clone(),
            _ => return Ok(()),
        }
    };
    let columns = out.columns(&report.input);
    let last = columns.len() - 1;
    let (start, end) = (
        columns[error.span.start.min(last)],
        columns[error.span.end.min(last)],
    );
    let fix = match &failure.fix {
        Some(fix) => format!(
            "fix: {}",
            urlscope::validation::fix::apply(&report.input, std::slice::from_ref(fix))
        ),
        None => "no fix known".to_owned(),
    };
    if columns[last] <= CARET_WIDTH {
        line!(out, "{:<9} {}", "", report.input)?;
        line!(
            out,
            "{:<9} {}{} {fix}",
            "",
            " ".repeat(start),
            "^".repeat(end.saturating_sub(start).max(1))
        )
    } else {
        // A long input: the offsets, and the fix's edits rather than the whole rewrite.
        let edits = failure.fix.as_ref().map_or(String::new(), |fix| {
            let edits: Vec<String> = fix
                .edits
                .iter()
                .map(|e| format!("{}..{} → {:?}", e.span.start, e.span.end, e.replacement))
                .collect();
            format!(" (fix: {})", edits.join(", "))
        });
        line!(
            out,
            "{:<9} at {}..{}{edits}",
            "",
            error.span.start,
            error.span.end
        )
    }
}

/// The text table for one input.
pub fn write_text(
    out: &mut Text<impl Write>,
    report: &Report,
    message: Option<&str>,
) -> io::Result<()> {
    let url = report.url.as_ref();
    line!(out, "{:<9} {}", "input", report.input)?;
    if let Some(base) = &report.base {
        line!(out, "{:<9} {}", "base", base)?;
    }
    match url {
        Some(url) => {
            for component in FIELDS {
                line!(out, "{:<9} {}", component.name(), url.get(component))?;
                if component == Component::Href {
                    line!(out, "{:<9} {}", "origin", url.origin())?;
                }
            }
            for (name, value) in url.search_params().iter() {
                line!(out, "{:<9} {} = {}", "param", name, value)?;
            }
        }
        None => {
            let message = message.map_or_else(|| failure_message(report), str::to_owned);
            line!(out, "{:<9} {}", "failure", message)?;
            write_failure(out, report)?;
        }
    }
    if !report.errors.is_empty() {
        // After setters, the errors are the href's (see Report::after_setters).
        match report.after_setters {
            true => line!(out, "errors of the href:")?,
            false => line!(out, "errors:")?,
        }
        write_carets(out, "  ", report.spans_in(), &report.errors)?;
    }
    if let (Some(base), false) = (&report.base, report.base_errors.is_empty()) {
        line!(out, "base errors:")?;
        write_carets(out, "  ", base, &report.base_errors)?;
    }
    // The writing grammar's verdict: the other definition of validity.
    let writing = &report.writing;
    let of = match report.after_setters {
        true => " (the href)",
        false => "",
    };
    match (writing.position, &writing.expected) {
        (Some(position), Some(expected)) if !writing.valid => line!(
            out,
            "{:<9} not a valid URL string{of}: at {position}, {} ({})",
            "writing",
            expected,
            writing
                .production_path
                .last()
                .copied()
                .unwrap_or("valid URL string")
        )?,
        _ => line!(out, "{:<9} a valid URL string{of}", "writing")?,
    }
    line!(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use urlscope::report::fields::KEYS;

    /// Hosts and inputs of every kind the analysis and the grammar tell apart: ASCII and IDN
    /// names, look-alikes, IPv4 and IPv6 addresses, opaque and empty hosts, inputs the grammar
    /// stops in, failures, and strings that need escapes.
    const INPUTS: &[&str] = &[
        "https://www.example.com/a?b#c",
        // More labels than the label table keeps: "labels_omitted" is written.
        "https://a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.example/",
        "https://user:pa%20ss@EXAMPLE.com:443/a/./b/../c?q=1#frag",
        "https://Bücher.example/",
        "https://аррӏе.com/",
        "https://www.paypal.com.evil.example/",
        "https://paypa1.com/",
        "https://ｅｘａｍｐｌｅ。com/",
        "http://0x7f.1/",
        "http://[::ffff:127.0.0.1]/",
        "file:///C:/x",
        "file://host/share",
        "sc://opaque\"host/",
        "mailto:someone@example.org",
        "https://a\u{200d}b.example/",
        "https://exa\tmple.com/\"q\\",
        "https://[::1",
        "http://",
        "",
        "not a url",
    ];

    #[test]
    fn a_parsed_url_has_every_key_in_the_contract_order() {
        let report = Report::new("https://user:pw@example.com:8080/p?q=1#f", None);
        let mut out = Vec::new();
        parse_json(&report, None, Fields::ALL)
            .write(&mut out)
            .expect("written");
        let object: serde_json::Map<String, serde_json::Value> =
            serde_json::from_slice(&out).expect("JSON");
        let keys: Vec<&str> = object.keys().map(String::as_str).collect();
        assert_eq!(keys, KEYS);
        for component in FIELDS {
            let url = report.url.as_ref().expect("parsed");
            assert_eq!(
                object[component.name()],
                url.component(component),
                "{component:?}"
            );
        }
    }

    #[test]
    fn the_parts_written_by_hand_are_what_serde_writes() {
        let mut analyses = 0;
        for input in INPUTS {
            let report = Report::new(input, None);
            let mut ours = Vec::new();
            write_writing(&mut ours, &report.writing);
            let serde = serde_json::to_string(&report.writing).expect("writing");
            assert_eq!(String::from_utf8_lossy(&ours), serde, "{input:?}");
            if let Some(analysis) = &report.host_analysis {
                let mut ours = Vec::new();
                write_host_analysis(&mut ours, analysis).expect("written");
                let serde = serde_json::to_string(analysis).expect("host analysis");
                assert_eq!(String::from_utf8_lossy(&ours), serde, "{input:?}");
                analyses += 1;
            }
        }
        // Nearly every input has an analysis (the empty one has none).
        assert!(analyses >= INPUTS.len() - 2, "{analyses}");
    }
}
