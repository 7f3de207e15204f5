//! `urlscope parse`: each input's components and validation errors, as text, JSON Lines or a
//! `--get` template; standard input's lines on several cores.

use encoding_rs::UTF_8;
use std::borrow::Cow;
use std::io::{self, Write};

use urlscope::report::{Outcome, Parts, Report};
use urlscope::url::Component;
use urlscope::Url;

use super::batch::{self, Style};
use super::job::{job_base, line_job, stdin_input, write_done, BaseCache, Job};
use super::output::{failure_message, line, parse_json, warn, write_text, Fields, Text};
use super::progress::Progress;
use super::{ParseArgs, RunResult};

/// A `--get` template: literal text and the names of URL API getters in braces.
#[derive(Clone, Debug)]
pub(super) struct Template(Vec<Piece>);

#[derive(Clone, Debug)]
enum Piece {
    Text(String),
    Getter(Component),
    Origin,
    Input,
}

pub(super) fn parse_template(s: &str) -> Result<Template, String> {
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
    fn fill(&self, input: &str, url: &Url, out: &mut String) {
        for piece in &self.0 {
            match piece {
                Piece::Text(t) => out.push_str(t),
                Piece::Getter(c) => out.push_str(url.component(*c)),
                Piece::Origin => out.push_str(&url.origin()),
                Piece::Input => out.push_str(input),
            }
        }
    }
}

/// Runs the job's setters on `url`, in order. A setter that leaves the URL as it was (the
/// standard's setters fail silently) is reported to `warn` with the step of the standard that
/// decided, in the library's words.
fn apply_setters(job: &Job<'_>, url: &mut Url, warn: &mut impl FnMut(String)) {
    for (component, value) in &job.set {
        if let Some(unchanged) = urlscope::report::setter::set(url, *component, value) {
            warn(format!("{}: {unchanged}", job.place()));
        }
    }
}

/// Parses one job: the report (untraced, with `parts`) of the URL after the job's setters, and
/// a message when the input or the base is at fault.
fn run_job(
    job: &Job<'_>,
    base_cache: &mut BaseCache,
    parts: Parts,
    warn: &mut impl FnMut(String),
) -> (Report, Option<String>) {
    let base_url = match job_base(job, base_cache) {
        Ok(base_url) => base_url,
        Err(message) => {
            // The report of a base that fails: the base's errors, the input unparsed.
            let report = Report::with_encoding(&job.input, job.base.as_deref(), job.encoding);
            return (report, Some(message));
        }
    };
    let mut report = Report::untraced_parts(&job.input, base_url, job.encoding, parts);
    // The report describes the URL after the setters, whatever part of it is printed.
    if let (Some(mut url), false) = (report.url.clone(), job.set.is_empty()) {
        apply_setters(job, &mut url, warn);
        report = report.after_setters(url);
    }
    let message =
        matches!(report.outcome, Outcome::Failure { .. }).then(|| failure_message(&report));
    (report, message)
}

/// What `parse` prints for each input.
#[derive(Clone, Copy)]
enum ParseOutput<'a> {
    Get(&'a Template),
    Json(Fields),
    Text,
}

impl ParseOutput<'_> {
    /// The parts of the report this output shows.
    fn parts(self) -> Parts {
        match self {
            ParseOutput::Get(_) => Parts::NONE,
            ParseOutput::Json(fields) => fields.parts(),
            ParseOutput::Text => Parts {
                writing: true,
                ..Parts::NONE
            },
        }
    }
}

/// Parses one job and writes what `output` asks for; warnings go to `warn`. False when the
/// input (or its base) is not a URL.
fn parse_one(
    job: &Job<'_>,
    output: ParseOutput<'_>,
    base_cache: &mut BaseCache,
    out: &mut Text<impl Write>,
    warn: &mut impl FnMut(String),
) -> io::Result<bool> {
    if let ParseOutput::Get(template) = output {
        // Only the URL: no report, no validation errors, nothing derived.
        let parsed = job_base(job, base_cache).and_then(|base| {
            Url::parse_with_encoding(&job.input, base.as_ref(), job.encoding).map_err(|_| {
                // Why it failed, from a report of the parse (only for an input that fails).
                failure_message(&Report::untraced_parts(
                    &job.input,
                    base,
                    job.encoding,
                    Parts::NONE,
                ))
            })
        });
        return match parsed {
            Ok(mut url) => {
                apply_setters(job, &mut url, warn);
                let mut filled = String::new();
                template.fill(&job.input, &url, &mut filled);
                line!(out, "{filled}")?;
                Ok(true)
            }
            Err(message) => {
                warn(format!("{}: {message}", job.place()));
                // An empty line in its place keeps each output line beside its input.
                line!(out)?;
                Ok(false)
            }
        };
    }
    let (report, message) = run_job(job, base_cache, output.parts(), warn);
    match output {
        ParseOutput::Json(fields) => {
            let object = parse_json(&report, message.as_deref(), fields);
            out.json_with(|buf| object.write(buf))?
        }
        _ => write_text(out, &report, message.as_deref())?,
    }
    Ok(report.parsed())
}

pub(super) fn parse_command(args: ParseArgs, out: &mut Text<impl Write>) -> RunResult {
    let encoding = args.encoding.unwrap_or(UTF_8);
    let output = match (&args.get, args.json) {
        (Some(template), _) => ParseOutput::Get(template),
        (None, true) => ParseOutput::Json(args.fields.unwrap_or(Fields::ALL)),
        (None, false) => ParseOutput::Text,
    };
    let mut all_ok = true;
    let mut base_cache = None;
    let defaults = Job {
        input: Cow::Borrowed(""),
        base: args.base.clone(),
        set: args.set.clone(),
        encoding,
        line: None,
    };
    let from_stdin = args.urls.is_empty() || args.urls.iter().any(|u| u == "-");
    for input in args.urls.iter().filter(|u| *u != "-") {
        let job = Job {
            input: Cow::Borrowed(input),
            ..defaults.clone()
        };
        all_ok &= parse_one(&job, output, &mut base_cache, out, &mut |w| {
            warn(format_args!("{w}"))
        })?;
    }
    if !from_stdin {
        out.flush()?;
        return Ok(all_ok);
    }
    let progress = Progress::new(args.quiet);
    let setup = batch::Setup {
        jobs: args.jobs.map_or_else(batch::default_jobs, usize::from),
        raw: out.is_raw(),
        name: "standard input",
        progress: &progress,
    };
    let style = match output {
        ParseOutput::Get(_) => Style::Empty,
        ParseOutput::Json(_) => Style::Json,
        ParseOutput::Text => Style::Text { blank: true },
    };
    batch::run(
        stdin_input(),
        &setup,
        BaseCache::default,
        |base_cache, number, line, done: &mut batch::Done<()>| {
            let Some(job) = line_job(number, line, &defaults, args.jsonl_in, style, done) else {
                return;
            };
            let warnings = &mut done.warnings;
            // Writing into memory cannot fail.
            let ok = parse_one(&job, output, base_cache, &mut done.out, &mut |w| {
                warnings.push(w)
            });
            done.ok &= ok.unwrap_or(false);
        },
        out,
        |out, done| {
            all_ok &= done.ok;
            write_done(done, out)
        },
        |out| out.flush(),
    )?;
    progress.finish();
    out.flush()?;
    Ok(all_ok)
}
