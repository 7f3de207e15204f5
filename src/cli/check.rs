//! `urlscope check`: each URL's findings (with the gate's, under `--allow-host` and
//! `--deny-internal`) and a summary; and `check --fix`, each input rewritten by the fixes of its
//! validation errors.

use encoding_rs::UTF_8;
use std::borrow::Cow;
use std::collections::BTreeMap;
use std::io::{self, Write};
use std::process::ExitCode;

use urlscope::report::{Parts, Report};
use urlscope::validation::fix::{self, Fixer};
use urlscope::Url;

use super::batch::{self, Style};
use super::diff;
use super::job::{job_base, job_from_json, stdin_input, write_done, BaseCache, Job};
use super::lines::{Line, Lines};
use super::output::{self, line, warn, CheckJson, Text};
use super::progress::Progress;
use super::{RunResult, Severity};

/// One argument of `check`: a URL to check, or where to read URLs from, one per line.
#[derive(Debug, PartialEq, Eq)]
enum Source<'a> {
    Url(&'a str),
    Stdin,
    File(&'a str),
}

impl<'a> Source<'a> {
    /// `check`'s arguments (none: standard input). An argument is a URL when the basic URL
    /// parser would find a scheme in it (scheme start state and scheme state: an ASCII alpha,
    /// then ASCII alphanumerics, "+", "-" or ".", then ":"), after the leading C0 controls and
    /// spaces and the tabs and newlines it removes first; "-" is standard input; anything else
    /// names a file. The rule reads the argument alone, never the file system, so a command
    /// means the same in every directory: `./NAME` reads a file whose name starts like a URL
    /// (`x:list`), and such a file next to a URL argument is only warned about.
    fn all(arguments: &'a [String]) -> Vec<Source<'a>> {
        if arguments.is_empty() {
            return vec![Source::Stdin];
        }
        arguments
            .iter()
            .map(|argument| match argument.as_str() {
                "-" => Source::Stdin,
                url if starts_with_scheme(url) => {
                    if std::path::Path::new(url).exists() {
                        warn(format_args!(
                            "{url} is checked as a URL (it starts with a scheme); to read the \
                             file of that name, write ./{url}"
                        ));
                    }
                    Source::Url(url)
                }
                path => Source::File(path),
            })
            .collect()
    }

    /// The lines to read, for a source that has lines.
    fn open(&self) -> io::Result<Option<batch::Input>> {
        Ok(match self {
            Source::Url(_) => None,
            Source::Stdin => Some(stdin_input()),
            Source::File(path) => {
                Some(io::BufReader::with_capacity(
                    1 << 16,
                    Box::new(std::fs::File::open(path).map_err(|e| {
                        // Both readings of the argument, when neither gives anything to check.
                        let message = match e.kind() {
                            io::ErrorKind::NotFound => {
                                format!("{path}: not a URL (no scheme) and no file named {path}")
                            }
                            _ => format!("cannot read {path}: {e}"),
                        };
                        io::Error::new(e.kind(), message)
                    })?) as Box<dyn io::Read + Send>,
                ))
            }
        })
    }

    /// How messages and the progress line name this source.
    fn name(&self) -> &str {
        match self {
            Source::File(path) => path,
            _ => "standard input",
        }
    }

    /// How a warning names line `number` of this source.
    fn line(&self, number: usize) -> String {
        match self {
            Source::File(path) => format!("line {number} of {path}"),
            _ => format!("line {number}"),
        }
    }
}

/// Whether the basic URL parser finds a scheme at the start of `input` (URL Standard: scheme
/// start state and scheme state, after its steps that remove leading C0 controls and spaces and
/// every ASCII tab or newline).
fn starts_with_scheme(input: &str) -> bool {
    let mut code_points = input
        .trim_start_matches(|c: char| c <= ' ')
        .chars()
        .filter(|c| !matches!(c, '\t' | '\n' | '\r'));
    if !code_points.next().is_some_and(|c| c.is_ascii_alphabetic()) {
        return false;
    }
    code_points
        .find(|c| !(c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.')))
        .is_some_and(|c| c == ':')
}

/// `check --fix --fix-host`'s exit code when a rewrite moved a destination.
pub(super) const FIX_MOVED_A_DESTINATION: u8 = 3;

/// `check --base`, parsed once: its text and URL; a base that is not a URL is a usage error
/// (exit 2), said before any input is read.
pub(super) fn check_base(base: Option<String>) -> Result<Option<(String, Url)>, ExitCode> {
    let Some(base) = base else {
        return Ok(None);
    };
    match Url::parse(&base, None) {
        Ok(url) => Ok(Some((base, url))),
        Err(e) => {
            match e.cause() {
                Some(cause) => warn(format_args!("--base {base:?} is not a URL: {cause}")),
                None => warn(format_args!("--base {base:?} is not a URL")),
            }
            Err(ExitCode::from(2))
        }
    }
}

/// `check --fix`: each input rewritten by the fixes of its validation errors. An input whose
/// host fails is rewritten by the failure's fix when the rewritten input parses, then by the
/// fixes of that input's validation errors (the href is new: the input had none, so this is
/// always a move of the destination). An input that fails otherwise, or has nothing to fix, is
/// printed as it is, and so is one with more errors of a kind than are kept one by one (their
/// fixes are not all known). Every line gives one line, written exactly (never escaped for a
/// terminal: it is data to feed back); a line that cannot be read is written as it was read (a
/// line over the limit, which is not kept, as an empty line) and makes the exit code 1.
///
/// A rewrite never moves a destination silently ([`fix::moved_destination`] decides): without
/// `fix_host` one that would is withheld (the line printed as it is, standard error naming it,
/// exit 1); with it, it is applied, standard error names the line, and the exit code is 3.
pub(super) fn fix_command(
    arguments: &[String],
    base: Option<&(String, Url)>,
    fix_host: bool,
    quiet: bool,
    out: &mut Text<impl Write>,
) -> io::Result<u8> {
    let base_text = base.map(|(text, _)| text.as_str());
    let base_url = base.map(|(_, url)| url);
    let mut withheld = false;
    let mut moved_any = false;
    // Messages are kept, and written with the progress line out of their way, only when there
    // are some: stepping it aside for every line would redraw it for every line.
    let mut fix_one = |input: &str,
                       place: &dyn Fn() -> String,
                       out: &mut Text<_>,
                       warnings: &mut Vec<String>|
     -> io::Result<()> {
        let mut report = Report::untraced(input, base_url.cloned(), UTF_8);
        let mut fixed = None;
        // What returned failure, when the failure's fix made the input a URL.
        let mut failed_at = None;
        if let Some(why) = report.not_a_url() {
            if let Some(rewritten) = why.fixed {
                let again = Report::untraced(&rewritten, base_url.cloned(), UTF_8);
                if again.url.is_some() {
                    report = again;
                    fixed = Some(rewritten);
                    failed_at = Some(why.step);
                }
            }
        }
        let rewritten_input = fixed.as_deref().unwrap_or(input);
        if let Some(folded) = report.errors.iter().find(|e| e.repeats.is_some()) {
            warnings.push(format!(
                "{}: {} {} errors; left as it is",
                place(),
                folded.count() + urlscope::validation::REPEAT_LIMIT,
                folded.kind
            ));
            out.bytes(input.as_bytes())?;
            return out.bytes(b"\n");
        }
        let fixer = Fixer::new(
            rewritten_input,
            report.url.as_ref().map(urlscope::Url::record),
            report.host_span,
        )
        .with_base(report.base_url.as_ref());
        let fixes: Vec<_> = report.errors.iter().filter_map(|e| fixer.fix(e)).collect();
        let result = fix::apply(rewritten_input, &fixes);
        let written = match fix::moved_destination(input, &result, base_text) {
            None => &result,
            Some(moved) => {
                let how = match (&moved.from, &failed_at, &moved.to) {
                    (None, Some(step), Some(to)) => {
                        format!("the input is not a URL ({step}) and the fix makes it go to {to}")
                    }
                    _ => moved.to_string(),
                };
                if fix_host {
                    moved_any = true;
                    warnings.push(format!("{}: {how}: {result}", place()));
                    &result
                } else {
                    withheld = true;
                    warnings.push(format!(
                        "{}: fix withheld: {how}: {result} (--fix-host applies it)",
                        place()
                    ));
                    input
                }
            }
        };
        out.bytes(written.as_bytes())?;
        out.bytes(b"\n")
    };
    let progress = Progress::new(quiet);
    let mut all_read = true;
    for source in Source::all(arguments) {
        let reader = match source.open() {
            Ok(Some(reader)) => reader,
            Ok(None) => {
                if let Source::Url(url) = source {
                    let mut warnings = Vec::new();
                    fix_one(url, &|| format!("\"{url}\""), out, &mut warnings)?;
                    for warning in warnings {
                        warn(format_args!("{warning}"));
                    }
                }
                continue;
            }
            Err(e) => {
                warn(format_args!("{e}"));
                all_read = false;
                continue;
            }
        };
        let mut lines = Lines::new(reader);
        let mut done = batch::Done::<()>::new(true);
        progress.reading(source.name());
        let mut buffer = Vec::new();
        while let Some((number, line)) = lines.next_line(&mut buffer)? {
            if number == 1 && lines.had_bom() {
                batch::say_bom(source.name(), &progress);
            }
            progress.add(1);
            match line {
                Line::Text(input) => {
                    fix_one(input, &|| source.line(number), out, &mut done.warnings)?;
                    if !done.warnings.is_empty() {
                        progress.suspend(|| write_done(&done, out))?;
                        done = batch::Done::new(true);
                    }
                }
                unread => {
                    let error = unread.error().unwrap_or_default();
                    done.error_row(
                        Style::Unchanged,
                        number,
                        &source.line(number),
                        &error,
                        Some(&unread),
                    );
                    all_read = false;
                    progress.suspend(|| write_done(&done, out))?;
                    done = batch::Done::new(true);
                }
            }
        }
    }
    progress.finish();
    out.flush()?;
    Ok(match (all_read && !withheld, moved_any) {
        (false, _) => 1,
        (true, true) => FIX_MOVED_A_DESTINATION,
        (true, false) => 0,
    })
}

/// What `check` reads besides its arguments: `--base`, and whether standard input's lines are
/// JSON (`--jsonl-in`).
pub(super) struct CheckInput {
    pub(super) base: Option<String>,
    pub(super) jsonl_in: bool,
}

#[allow(clippy::too_many_arguments)]
pub(super) fn check_command(
    arguments: &[String],
    input: &CheckInput,
    json: bool,
    fail_on: Severity,
    gate: Option<urlscope::inspect::gate::Gate>,
    resolve: Option<urlscope::inspect::resolve::system::Config>,
    jobs: Option<std::num::NonZeroUsize>,
    quiet: bool,
    out: &mut Text<impl Write>,
) -> RunResult {
    // Lookups are judged on every parser's reading, as a gate judges: `--resolve` alone is a
    // gate that asks nothing else.
    let resolver = resolve.map(urlscope::inspect::resolve::system::SystemResolver::new);
    let gate = gate.or_else(|| {
        resolver
            .as_ref()
            .map(|_| urlscope::inspect::gate::Gate::default())
    });
    // The gate asks every parser, external runtimes included, through one set of long-lived
    // adapters: it runs on one thread.
    let gate = match gate {
        None => None,
        Some(gate) => Some((gate, diff::gate_lab()?)),
    };
    let has_gate = gate.is_some();
    let jobs = match gate {
        Some(_) => 1,
        None => jobs.map_or_else(batch::default_jobs, usize::from),
    };
    let gate = std::sync::Mutex::new(gate);
    let raw = out.is_raw();
    let progress = Progress::new(quiet);
    let style = match json {
        true => Style::Json,
        false => Style::Text { blank: false },
    };
    let mut summary: BTreeMap<&'static str, usize> = BTreeMap::new();
    let mut worst: Option<Severity> = None;
    let mut counts = batch::Counts::default();
    let mut arguments_checked = 0;
    let mut all_read = true;
    let defaults = Job {
        input: Cow::Borrowed(""),
        base: input.base.clone(),
        set: Vec::new(),
        encoding: UTF_8,
        line: None,
    };
    // One input, with the gate when there is one (locked only then: with it there is one
    // thread, without it the threads need not wait for each other).
    let check =
        |job: &Job<'_>, base_cache: &mut BaseCache, out: &mut Text<Vec<u8>>, tally: &mut Tally| {
            let mut guard = has_gate.then(|| gate.lock());
            let gate = guard
                .as_mut()
                .and_then(|guard| guard.as_mut().ok())
                .and_then(|g| g.as_mut())
                .map(|(gate, lab)| (&*gate, lab));
            let base = job_base(job, base_cache);
            // Writing into memory cannot fail.
            let _ = check_one(job, base, json, gate, resolver.as_ref(), out, tally);
        };
    for source in Source::all(arguments) {
        let mut emit = |out: &mut Text<_>, done: &mut batch::Done<Tally>| {
            let tally = &done.extra;
            all_read &= done.ok;
            for id in &tally.ids {
                *summary.entry(id).or_default() += 1;
            }
            worst = worst.max(tally.worst);
            write_done(done, out)
        };
        let input_reader = match source.open() {
            Ok(Some(reader)) => reader,
            Ok(None) => {
                if let Source::Url(url) = source {
                    let mut done = batch::Done::<Tally>::new(raw);
                    let job = Job {
                        input: Cow::Borrowed(url),
                        ..defaults.clone()
                    };
                    check(&job, &mut None, &mut done.out, &mut done.extra);
                    arguments_checked += 1;
                    emit(out, &mut done)?;
                }
                continue;
            }
            // An argument that gives nothing to check: said, the others still checked, and
            // the exit code 1.
            Err(e) => {
                warn(format_args!("{e}"));
                all_read = false;
                continue;
            }
        };
        let setup = batch::Setup {
            jobs,
            raw,
            name: source.name(),
            progress: &progress,
        };
        counts += batch::run(
            input_reader,
            &setup,
            BaseCache::default,
            |base_cache, number, line, done: &mut batch::Done<Tally>| {
                // How messages name the line, written only for a line that gives no job.
                let place = || source.line(number);
                let text = match line {
                    Line::Text(text) => text,
                    unread => {
                        // A line not checked could have been the one to fail on.
                        let error = unread.error().unwrap_or_default();
                        done.error_row(style, number, &place(), &error, Some(&unread));
                        return;
                    }
                };
                let job = match input.jsonl_in {
                    // Built field by field, not from a clone of the defaults: check has no
                    // setters, and a line need copy nothing but its base.
                    false => Ok(Job {
                        input: Cow::Borrowed(text),
                        base: defaults.base.clone(),
                        set: Vec::new(),
                        encoding: defaults.encoding,
                        line: Some(number),
                    }),
                    true => job_from_json(text, &defaults)
                        .and_then(|job| match job.set {
                            ref set if !set.is_empty() => {
                                Err("check takes no \"set\": give \"input\" and \"base\"".into())
                            }
                            _ => Ok(Job {
                                line: Some(number),
                                ..job
                            }),
                        })
                        .map_err(|error| (error, text)),
                };
                match job {
                    Ok(job) => check(&job, base_cache, &mut done.out, &mut done.extra),
                    Err((error, text)) => {
                        done.error_row(style, number, &place(), &error, Some(&Line::Text(text)));
                    }
                }
            },
            out,
            &mut emit,
            |out| out.flush(),
        )?;
    }
    progress.finish();
    let rows = counts.lines + arguments_checked;
    if json {
        out.json(&serde_json::json!({
            "summary": summary,
            "lines_read": counts.lines,
            "rows_written": rows,
            "error_rows": counts.errors,
        }))?;
    } else {
        line!(out)?;
        let of_arguments = match arguments_checked {
            0 => String::new(),
            n => format!(" ({n} for URL arguments)"),
        };
        line!(
            out,
            "summary: {} lines read, {rows} rows written{of_arguments}, {} lines not read",
            counts.lines,
            counts.errors
        )?;
        for (id, count) in &summary {
            line!(out, "  {id}: {count}")?;
        }
    }
    out.flush()?;
    Ok(all_read && worst.is_none_or(|w| w < fail_on))
}

/// What `check` keeps of the lines it has seen: for the summary and the exit code.
#[derive(Default)]
struct Tally {
    /// The findings' ids, one per finding.
    ids: Vec<&'static str>,
    worst: Option<Severity>,
}

impl Severity {
    fn of(severity: urlscope::inspect::Severity) -> Severity {
        match severity {
            urlscope::inspect::Severity::Info => Severity::Info,
            urlscope::inspect::Severity::Warn => Severity::Warn,
            urlscope::inspect::Severity::Danger => Severity::Danger,
        }
    }

    fn name(self) -> &'static str {
        match self {
            Severity::Info => "info",
            Severity::Warn => "warn",
            Severity::Danger => "danger",
        }
    }
}

/// Checks one URL: writes its line (or JSON object) and adds its findings to `tally`. The text
/// line names each finding with its severity, so that after exit 1 the lines at or above
/// `--fail-on` can be told from the others. With a base, the findings are about the URL the
/// input resolves to, and the text line shows its href; a base that is not a URL is the
/// line's failure.
fn check_one(
    job: &Job<'_>,
    base: Result<Option<Url>, String>,
    json: bool,
    gate: Option<(&urlscope::inspect::gate::Gate, &mut urlscope::diff::Lab)>,
    resolver: Option<&urlscope::inspect::resolve::system::SystemResolver>,
    out: &mut Text<impl Write>,
    tally: &mut Tally,
) -> io::Result<()> {
    use urlscope::inspect::resolve::{self, Resolver};
    let input: &str = &job.input;
    let parts = Parts {
        host_analysis: true,
        ..Parts::NONE
    };
    // The report (1.7 KB) and the base's failure bound apart, not moved through a tuple.
    let base_failure = base.as_ref().err().cloned();
    let report = match base {
        Ok(base_url) => Report::untraced_parts(input, base_url, job.encoding, parts),
        Err(_) => Report::with_encoding(input, job.base.as_deref(), job.encoding),
    };
    let findings = report
        .host_analysis
        .as_ref()
        .map_or(&[][..], |a| &a.findings[..]);
    // Each finding's id and severity, in the order the line names them.
    let mut found: Vec<(&'static str, Severity)> = findings
        .iter()
        .map(|f| (f.id, Severity::of(f.severity)))
        .collect();
    let why = report.not_a_url();
    let failure = match (&base_failure, &why) {
        (Some(message), _) => Some(output::CheckFailure::Base(message)),
        (None, Some(why)) => Some(output::CheckFailure::Input(why)),
        (None, None) => None,
    };
    let failure_text = base_failure
        .clone()
        .or_else(|| why.as_ref().map(|w| w.message.clone()));
    if failure.is_some() {
        found.push(("failure", Severity::Warn));
    }
    // The gate's verdict, on every parser's reading of the input as given; with a base, of the
    // URL the input resolves to (the other parsers read one string alone).
    let asked = match (&job.base, &report.url) {
        (Some(_), Some(url)) => url.href(),
        _ => input,
    };
    let judged = gate.map(|(gate, lab)| {
        let readings = lab.read(asked, None).parsers;
        let lookups = resolver.map(|r| r.lookup(&resolve::names(&readings)));
        let looked_up = lookups.as_deref().unwrap_or(&[]);
        let findings = gate.judge_looked_up(&readings, looked_up);
        let destinations = gate.destinations_looked_up(&readings, looked_up);
        (findings, destinations, lookups)
    });
    let gate_findings = judged.as_ref().map_or(&[][..], |(f, ..)| &f[..]);
    found.extend(
        gate_findings
            .iter()
            .map(|f| (f.id, Severity::of(f.severity))),
    );
    let worst = found.iter().map(|(_, severity)| *severity).max();
    tally.worst = tally.worst.max(worst);
    tally.ids.extend(found.iter().map(|(id, _)| *id));
    // What the domain imitates, and how.
    let imitates = report
        .host_analysis
        .as_ref()
        .map_or(&[][..], |a| &a.imitates[..]);
    if json {
        return out.json(&CheckJson {
            input,
            base: job.base.as_deref(),
            url: report.url.as_ref(),
            findings,
            failure,
            gate: judged
                .as_ref()
                .map(|(f, d, l)| (&f[..], &d[..], l.as_deref())),
            imitates,
        });
    }
    if found.is_empty() && job.base.is_none() {
        // The row of nearly every line, written as it is rather than formatted first: the
        // escaping is code point by code point, so escaping the input alone gives the same.
        let shown = out.shown(input);
        out.bytes(shown.as_bytes())?;
        return out.bytes(b"  ok\n");
    }
    let mut verdict = match found.is_empty() {
        true => "ok".to_owned(),
        false => found
            .iter()
            .map(|(id, severity)| format!("{id} ({})", severity.name()))
            .collect::<Vec<_>>()
            .join(", "),
    };
    let domains: Vec<&str> = imitates.iter().map(|i| i.domain).collect();
    if !domains.is_empty() {
        verdict.push_str(&format!(" (imitates {})", domains.join(", ")));
    }
    if let Some(failure) = &failure_text {
        verdict.push_str(&format!(": {failure}"));
    }
    for finding in gate_findings {
        verdict.push_str(&format!("; {}: {}", finding.id, finding.detail));
    }
    match (&job.base, &report.url) {
        (Some(_), Some(url)) => line!(out, "{input} → {}  {verdict}", url.href()),
        _ => line!(out, "{input}  {verdict}"),
    }
}
