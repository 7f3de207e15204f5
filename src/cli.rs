//! The command line (clap): `parse`, `trace` and `check`, and the inspector, all on the
//! library's [`Report`].

mod batch;
mod diff;
mod generate;
mod json;
mod lines;
mod output;
mod pattern;
mod progress;

use clap::{Args, Parser, Subcommand, ValueEnum};
use encoding_rs::{Encoding, UTF_8};
use serde_json::Value;
use std::collections::BTreeMap;
use std::io::{self, BufWriter, IsTerminal, Write};
use std::process::ExitCode;
use unicode_width::UnicodeWidthStr;

use urlscope::display::{self, EscapeStyle};
use urlscope::inspect::policy::chromium::Platform;
use urlscope::report::{Outcome, Parts, Report};
use urlscope::trace::{Row, StepView};
use urlscope::url::Component;
use urlscope::validation::fix::{self, Fixer};
use urlscope::Url;

use batch::Style;
use lines::{Line, Lines};
use output::{
    failure_message, line, parse_json, warn, write_text, CheckJson, Fields, Text, TraceJson,
};
use progress::Progress;

#[derive(Debug, Parser)]
#[command(
    name = "urlscope",
    // The crate's version and, built from a git clone, its commit and date (build.rs).
    version = env!("URLSCOPE_VERSION"),
    about = "Inspect URLs the way the WHATWG URL Standard parses them",
    long_about = "Inspect URLs the way the WHATWG URL Standard parses them.\n\n\
        Without a subcommand, urlscope opens the interactive inspector when standard output is a \
        terminal, and otherwise prints what `parse` prints.",
    args_conflicts_with_subcommands = true
)]
pub(crate) struct Cli {
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
    #[command(flatten)]
    inspector: InspectorArgs,
}

/// The inspector's settings.
#[derive(Debug, Args)]
struct InspectorArgs {
    /// On exit, print the last href (or the input, when it is not a URL) to standard output,
    /// so that `url=$(urlscope --print)` works; the inspector draws on the terminal.
    #[arg(long)]
    print: bool,
    /// Neither read nor write the history ($XDG_STATE_HOME/urlscope/history).
    #[arg(long)]
    no_history: bool,
    /// Leave the mouse to the terminal (its own text selection); F2 toggles it while running.
    #[arg(long)]
    no_mouse: bool,
    /// Also send each copy to the terminal by OSC 52 (for a clipboard across SSH).
    #[arg(long)]
    osc52: bool,
    /// The query encoding: any WHATWG Encoding label (UTF-8 by default).
    #[arg(long, value_name = "LABEL", value_parser = parse_encoding)]
    encoding: Option<&'static Encoding>,
    /// The pane to open on: trace, components, errors, host, resolution, grammar, parsers or
    /// pattern.
    #[arg(long, value_name = "PANE", value_parser = ["trace", "components", "errors", "host", "resolution", "grammar", "parsers", "pattern"])]
    view: Option<String>,
    /// A URL pattern (URL Pattern Standard) for the Pattern view to match the input against: a
    /// constructor string, or a URLPatternInit as JSON. Opens on the Pattern view unless
    /// --view says otherwise.
    #[arg(long, value_name = "PATTERN")]
    pattern: Option<String>,
    /// With --pattern: the pattern's ignoreCase option (the Pattern view's `i`).
    #[arg(long, requires = "pattern")]
    ignore_case: bool,
    /// Open the trace on step N (as numbered in the Trace pane), in step mode: with the view
    /// the help shows as a command, a handout for a class.
    #[arg(long, value_name = "N")]
    step: Option<usize>,
    #[command(flatten)]
    known: KnownDomains,
    #[command(flatten)]
    gate: GateArgs,
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
        /// Under each row, the standard's steps it took, each explained, with a link.
        #[arg(long)]
        explain: bool,
        /// Runs of steps that stay in one state and only append become one row.
        #[arg(long)]
        collapse: bool,
    },
    /// Report findings for a list of URLs, one per line.
    Check {
        /// URLs to check, and files of URLs to read, one per line ("-" or nothing: standard
        /// input). An argument that starts with a scheme and ":" is a URL; any other is a file
        /// (write "./NAME" to read a file whose name starts like a URL). Give relative
        /// references (with --base) on standard input or in a file.
        inputs: Vec<String>,
        /// A base URL to resolve each input against, as `parse --base`: the findings are about
        /// the resolved URL.
        #[arg(long)]
        base: Option<String>,
        /// Each standard input line is JSON: a string, or {"input", "base"} ("base" a string
        /// or null, over --base), so that an input can hold a line break.
        #[arg(long)]
        jsonl_in: bool,
        /// Print JSON Lines: one object per URL, then a summary.
        #[arg(long)]
        json: bool,
        /// Exit 1 when a finding is at or above this severity.
        #[arg(long, value_enum, default_value_t = Severity::Danger)]
        fail_on: Severity,
        #[command(flatten)]
        known: KnownDomains,
        #[command(flatten)]
        gate: GateArgs,
        /// Print each input rewritten by the fixes of its validation errors, instead of the
        /// findings; an input whose host fails is first rewritten by the failure's fix when that
        /// makes it parse. A rewrite that would send the URL to another host or port (a failing
        /// host made to parse counts) is withheld: the line is printed as it is, standard error
        /// names it, and the exit code is 1.
        #[arg(long, conflicts_with_all = ["json", "jsonl_in"])]
        fix: bool,
        /// With --fix: apply the rewrites that change the destination too; standard error names
        /// each such line, and the exit code is 3.
        #[arg(long, requires = "fix")]
        fix_host: bool,
        /// Threads to check on (the number of cores by default); the output keeps the input's
        /// order.
        #[arg(long, value_name = "N")]
        jobs: Option<std::num::NonZeroUsize>,
        /// No progress line on standard error (it is shown only when that is a terminal).
        #[arg(long, short)]
        quiet: bool,
    },
    /// Show how other parsers (curl, Python, Node, Java, Go, rust-url, …) read each URL.
    Diff(diff::DiffArgs),
    /// Match inputs against a URL pattern (URL Pattern Standard), showing each component and
    /// the usual mistakes the pattern shows (hints).
    Pattern(pattern::PatternArgs),
    /// Print a shell completion script or the man page, from the definition --help prints.
    Generate(generate::GenerateArgs),
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
    /// With --json: only these keys of the object, in its order, e.g. "href,host,errors".
    #[arg(long, value_name = "KEYS", requires = "json")]
    fields: Option<Fields>,
    /// Threads to parse standard input's lines on (the number of cores by default); the
    /// output keeps the input's order.
    #[arg(long, value_name = "N")]
    jobs: Option<std::num::NonZeroUsize>,
    /// No progress line on standard error (it is shown only when that is a terminal).
    #[arg(long, short)]
    quiet: bool,
    #[command(flatten)]
    known: KnownDomains,
}

/// Domains of one's own for the look-alike findings, beside the built-in list and the
/// configuration file's (`$XDG_CONFIG_HOME/urlscope/known-domains.txt`); and the platform the
/// chromium display policy follows.
#[derive(Debug, Args)]
struct KnownDomains {
    /// Also watch the domains in FILE: one registrable domain a line, Unicode or Punycode, #
    /// comments; a line [brand] groups the domains below it, and "owned" or "word" after a
    /// domain marks it the brand's own (not watched) or an ordinary word (repeatable).
    #[arg(long = "known-domains", value_name = "FILE")]
    files: Vec<std::path::PathBuf>,
    /// The chromium display policy decides as Chromium on this platform: linux, mac, windows
    /// or android (by default the one urlscope runs on).
    #[arg(long, value_name = "PLATFORM")]
    platform: Option<Platform>,
}

impl KnownDomains {
    /// Adds the configuration file's list and the files' to the known domains, and sets the
    /// platform.
    fn load(&self) -> io::Result<()> {
        if let Some(platform) = self.platform {
            urlscope::inspect::policy::chromium::set_platform(platform);
        }
        urlscope::inspect::known::load_configured(&self.files)
            .map(|_| ())
            .map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e))
    }
}

/// The gate (`check` and the inspector): where a URL may go, judged on every parser's reading
/// by `urlscope::inspect::gate::Gate::judge`.
#[derive(Debug, Args)]
struct GateArgs {
    /// An allowed destination (repeatable): a host as the URL Standard reads it (example.com,
    /// bücher.example, 127.0.0.1, [::1]), optionally with :PORT (else any port), or
    /// *.example.com for its subdomains (not example.com itself: list it too). A URL passes only
    /// when every parser that finds a host in it goes to an allowed one; else allowlist-bypass
    /// (some readings allowed, others not) or not-allowed, both danger.
    #[arg(long = "allow-host", value_name = "HOST", value_parser = parse_allow_host)]
    allow_host: Vec<String>,
    /// Flag a URL that any parser sends to an internal destination (loopback, private and
    /// special-purpose ranges, cloud metadata, a file URL's local machine): internal-destination,
    /// danger.
    #[arg(long)]
    deny_internal: bool,
}

impl GateArgs {
    /// The gate these flags ask for; `None` when they ask nothing.
    fn gate(&self) -> Option<urlscope::inspect::gate::Gate> {
        let allowlist = match self.allow_host.is_empty() {
            true => None,
            // Each value was checked as it was read (`parse_allow_host`).
            false => urlscope::inspect::gate::Allowlist::parse(&self.allow_host).ok(),
        };
        let gate = urlscope::inspect::gate::Gate {
            allowlist,
            deny_internal: self.deny_internal,
        };
        gate.is_active().then_some(gate)
    }
}

/// One `--allow-host` value, refused with the library's reason when it cannot be a host.
fn parse_allow_host(value: &str) -> Result<String, String> {
    urlscope::inspect::gate::Allowlist::parse(&[value]).map(|_| value.to_owned())
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

/// How a command ended: `Ok(false)` when an input failed (exit 1).
type RunResult = io::Result<bool>;

/// A usage error, as clap words it, through the escaping writer; exit 2.
fn usage_error(e: &clap::Error) -> ExitCode {
    let mut err = Text::new(io::stderr().lock(), false);
    for message in e.render().to_string().lines() {
        let _ = line!(err, "{message}");
    }
    ExitCode::from(u8::try_from(e.exit_code()).unwrap_or(2))
}

pub fn run() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        // clap quotes the arguments it rejects: its message goes through the escaping writer
        // like every other (help and version hold no input and print as clap prints them).
        Err(e) if e.use_stderr() => return usage_error(&e),
        Err(e) => e.exit(),
    };
    let stdout = io::stdout();
    let mut out = Text::new(BufWriter::new(stdout.lock()), cli.raw);
    let result: RunResult = match cli.command {
        Some(Command::Parse(args)) => args
            .known
            .load()
            .and_then(|()| parse_command(args, &mut out)),
        Some(Command::Trace {
            url,
            base,
            json,
            jsonl_in,
            explain,
            collapse,
        }) => {
            let table = TableOptions { explain, collapse };
            trace_command(url.as_deref(), base, json, jsonl_in, table, &mut out)
        }
        Some(Command::Check {
            inputs,
            base,
            fix: true,
            fix_host,
            quiet,
            ..
        }) => match check_base(base) {
            Ok(base) => match fix_command(&inputs, base.as_ref(), fix_host, quiet, &mut out) {
                Ok(FIX_MOVED_A_DESTINATION) => return ExitCode::from(FIX_MOVED_A_DESTINATION),
                other => other.map(|code| code == 0),
            },
            Err(code) => return code,
        },
        Some(Command::Check {
            inputs,
            base,
            jsonl_in,
            json,
            fail_on,
            known,
            gate,
            fix: false,
            jobs,
            quiet,
            ..
        }) => match check_base(base) {
            Ok(base) => known.load().and_then(|()| {
                let input = CheckInput {
                    base: base.map(|(text, _)| text),
                    jsonl_in,
                };
                check_command(
                    &inputs,
                    &input,
                    json,
                    fail_on,
                    gate.gate(),
                    jobs,
                    quiet,
                    &mut out,
                )
            }),
            Err(code) => return code,
        },
        Some(Command::Diff(args)) => diff::diff_command(args, &mut out),
        Some(Command::Pattern(args)) => pattern::pattern_command(args, &mut out),
        Some(Command::Generate(args)) => {
            // Data for a shell or for man: written as it is, not through the escaping writer.
            drop(out);
            generate::generate_command(&args, &mut io::stdout().lock())
        }
        None => {
            drop(out);
            cli.inspector
                .known
                .load()
                .and_then(|()| inspector(cli.url, cli.base, cli.raw, &cli.inspector))
        }
    };
    match result {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(1),
        // A closed pipe (`| head`) is how a reader says it has seen enough.
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        // A bad option value that only the command could judge (`diff --parsers`).
        Err(e) if e.get_ref().is_some_and(|e| e.is::<clap::Error>()) => e
            .get_ref()
            .and_then(|e| e.downcast_ref::<clap::Error>())
            .map_or(ExitCode::from(2), usage_error),
        Err(e) => {
            warn(format_args!("{e}"));
            ExitCode::from(1)
        }
    }
}

/// `urlscope [URL]`: the inspector on a terminal, otherwise what `parse` prints. A terminal
/// that cannot draw (`TERM=dumb`) gets the `parse` output too.
fn inspector(
    url: Option<String>,
    base: Option<String>,
    raw: bool,
    settings: &InspectorArgs,
) -> RunResult {
    #[cfg(feature = "tui")]
    {
        let dumb = std::env::var("TERM").is_ok_and(|t| t == "dumb");
        // With --print standard output is the caller's pipe; the inspector draws on the
        // terminal itself.
        let drawable = io::stdout().is_terminal()
            || (settings.print && std::fs::File::open("/dev/tty").is_ok());
        if io::stdin().is_terminal() && drawable && !dumb {
            let options = urlscope::tui::Options {
                history: !settings.no_history,
                mouse: !settings.no_mouse,
                osc52: settings.osc52,
                encoding: settings.encoding.unwrap_or(UTF_8),
                view: settings
                    .view
                    .as_deref()
                    .and_then(urlscope::tui::pane::Pane::named),
                step: settings.step,
                pattern: settings.pattern.clone(),
                ignore_case: settings.ignore_case,
                gate: settings.gate.gate(),
            };
            let outcome = urlscope::tui::run(
                url.as_deref().unwrap_or(""),
                base.as_deref().unwrap_or(""),
                &options,
            )?;
            if settings.print {
                let mut stdout = io::stdout().lock();
                writeln!(stdout, "{}", outcome.href.unwrap_or(outcome.input))?;
            }
            return Ok(true);
        }
    }
    // Without a terminal, a gate is not dropped: the input is judged as `check` judges it,
    // with its exit code.
    if let Some(gate) = settings.gate.gate() {
        let inputs: Vec<String> = url.into_iter().collect();
        let mut out = Text::new(BufWriter::new(io::stdout().lock()), raw);
        let input = CheckInput {
            base: base.clone(),
            jsonl_in: false,
        };
        return check_command(
            &inputs,
            &input,
            false,
            Severity::Danger,
            Some(gate),
            None,
            false,
            &mut out,
        );
    }
    let args = ParseArgs {
        urls: url.into_iter().collect(),
        base,
        json: false,
        jsonl_in: false,
        set: Vec::new(),
        encoding: settings.encoding,
        get: None,
        known: KnownDomains {
            files: Vec::new(),
            platform: None,
        },
        fields: None,
        jobs: None,
        quiet: true,
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
    /// The input's line, when it was read from one.
    line: Option<usize>,
}

impl Job {
    /// How a message names the job: its line (`line 3`), or the argument itself.
    fn place(&self) -> String {
        match self.line {
            Some(number) => format!("line {number}"),
            None => self.input.clone(),
        }
    }
}

/// The last base parsed, kept for the next job with the same base (usually all of them).
type BaseCache = Option<(String, Result<Url, String>)>;

/// The job's base, parsed: `Err` with a message when it is not a URL.
fn job_base(job: &Job, cache: &mut BaseCache) -> Result<Option<Url>, String> {
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

/// Runs the job's setters on `url`, in order. A setter that leaves the URL as it was (the
/// standard's setters fail silently) is reported to `warn` with the step of the standard that
/// decided, in the library's words.
fn apply_setters(job: &Job, url: &mut Url, warn: &mut impl FnMut(String)) {
    for (component, value) in &job.set {
        if let Some(unchanged) = urlscope::report::setter::set(url, *component, value) {
            warn(format!("{}: {unchanged}", job.place()));
        }
    }
}

/// Parses one job: the report (untraced, with `parts`) of the URL after the job's setters, and
/// a message when the input or the base is at fault.
fn run_job(
    job: &Job,
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
    job: &Job,
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

/// Writes what a batch's workers made, in its place: warnings on standard error, the output
/// on standard output.
fn write_done<X>(done: &batch::Done<X>, out: &mut Text<impl Write>) -> io::Result<()> {
    for warning in &done.warnings {
        warn(format_args!("{warning}"));
    }
    out.bytes(done.out_bytes())
}

/// Standard input, buffered for a batch.
fn stdin_input() -> batch::Input {
    io::BufReader::with_capacity(1 << 16, Box::new(io::stdin()))
}

fn parse_command(args: ParseArgs, out: &mut Text<impl Write>) -> RunResult {
    let encoding = args.encoding.unwrap_or(UTF_8);
    let output = match (&args.get, args.json) {
        (Some(template), _) => ParseOutput::Get(template),
        (None, true) => ParseOutput::Json(args.fields.unwrap_or(Fields::ALL)),
        (None, false) => ParseOutput::Text,
    };
    let mut all_ok = true;
    let mut base_cache = None;
    let defaults = Job {
        input: String::new(),
        base: args.base.clone(),
        set: args.set.clone(),
        encoding,
        line: None,
    };
    let from_stdin = args.urls.is_empty() || args.urls.iter().any(|u| u == "-");
    for input in args.urls.iter().filter(|u| *u != "-") {
        let job = Job {
            input: input.clone(),
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

/// The job of line `number` of standard input: the line itself, or with `jsonl_in` the job it
/// describes, on top of `defaults`. A line that gives no job (not UTF-8, over the limit, not a
/// job's JSON) gets its error row in `style` instead, so that each row stays beside its line.
fn line_job<X>(
    number: usize,
    line: Line,
    defaults: &Job,
    jsonl_in: bool,
    style: Style,
    done: &mut batch::Done<X>,
) -> Option<Job> {
    let place = format!("line {number}");
    let text = match line {
        Line::Text(text) => text,
        unread => {
            let error = unread.error().unwrap_or_default();
            done.error_row(style, number, &place, &error, Some(&unread));
            return None;
        }
    };
    let job = match jsonl_in {
        false => Ok(Job {
            input: text,
            ..defaults.clone()
        }),
        true => job_from_json(&text, defaults).map_err(|error| (error, text)),
    };
    match job {
        Ok(job) => Some(Job {
            line: Some(number),
            ..job
        }),
        Err((error, text)) => {
            done.error_row(style, number, &place, &error, Some(&Line::Text(text)));
            None
        }
    }
}

/// Reads standard input one line at a time and calls `f` with the job of each line (the
/// line itself, or with `jsonl_in` the job it describes, on top of `defaults`). A line that
/// gives no job gets its error row in `style` and a message; the result is false when one
/// did, or `f` said so.
fn for_each_stdin_job<W: Write>(
    defaults: &Job,
    jsonl_in: bool,
    style: Style,
    out: &mut Text<W>,
    mut f: impl FnMut(Job, &mut Text<W>) -> RunResult,
) -> RunResult {
    let mut all_ok = true;
    let stdin = io::stdin();
    let mut lines = Lines::new(io::BufReader::with_capacity(1 << 16, stdin.lock()));
    let mut done = batch::Done::<()>::new(out.is_raw());
    loop {
        // Flush before blocking on input, so that a pipe sees results as they come while a
        // bulk run still writes in large blocks.
        if lines.buffer_is_empty() {
            out.flush()?;
        }
        let Some((number, line)) = lines.next_line()? else {
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
                line: None,
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
    table: TableOptions,
    out: &mut Text<impl Write>,
) -> RunResult {
    let style = match json {
        true => Style::Json,
        false => Style::Text { blank: true },
    };
    let defaults = Job {
        input: String::new(),
        base,
        set: Vec::new(),
        encoding: UTF_8,
        line: None,
    };
    let ok = match url {
        Some(url) if url != "-" => {
            let job = Job {
                input: url.to_owned(),
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

fn trace_one(job: &Job, json: bool, table: TableOptions, out: &mut Text<impl Write>) -> RunResult {
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
struct TableOptions {
    /// The cited steps and their explanations under each row.
    explain: bool,
    /// Runs of append-only steps in one state as one row.
    collapse: bool,
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
const FIX_MOVED_A_DESTINATION: u8 = 3;

/// `check --base`, parsed once: its text and URL; a base that is not a URL is a usage error
/// (exit 2), said before any input is read.
fn check_base(base: Option<String>) -> Result<Option<(String, Url)>, ExitCode> {
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
fn fix_command(
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
        );
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
        while let Some((number, line)) = lines.next_line()? {
            if number == 1 && lines.had_bom() {
                batch::say_bom(source.name(), &progress);
            }
            progress.add(1);
            match line {
                Line::Text(input) => {
                    fix_one(&input, &|| source.line(number), out, &mut done.warnings)?;
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
struct CheckInput {
    base: Option<String>,
    jsonl_in: bool,
}

#[allow(clippy::too_many_arguments)]
fn check_command(
    arguments: &[String],
    input: &CheckInput,
    json: bool,
    fail_on: Severity,
    gate: Option<urlscope::inspect::gate::Gate>,
    jobs: Option<std::num::NonZeroUsize>,
    quiet: bool,
    out: &mut Text<impl Write>,
) -> RunResult {
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
        input: String::new(),
        base: input.base.clone(),
        set: Vec::new(),
        encoding: UTF_8,
        line: None,
    };
    // One input, with the gate when there is one (locked only then: with it there is one
    // thread, without it the threads need not wait for each other).
    let check =
        |job: &Job, base_cache: &mut BaseCache, out: &mut Text<Vec<u8>>, tally: &mut Tally| {
            let mut guard = has_gate.then(|| gate.lock());
            let gate = guard
                .as_mut()
                .and_then(|guard| guard.as_mut().ok())
                .and_then(|g| g.as_mut())
                .map(|(gate, lab)| (&*gate, lab));
            let base = job_base(job, base_cache);
            // Writing into memory cannot fail.
            let _ = check_one(job, base, json, gate, out, tally);
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
                        input: url.to_owned(),
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
                let place = source.line(number);
                let text = match line {
                    Line::Text(text) => text,
                    unread => {
                        // A line not checked could have been the one to fail on.
                        let error = unread.error().unwrap_or_default();
                        done.error_row(style, number, &place, &error, Some(&unread));
                        return;
                    }
                };
                let job = match input.jsonl_in {
                    false => Ok(Job {
                        input: text,
                        line: Some(number),
                        ..defaults.clone()
                    }),
                    true => job_from_json(&text, &defaults)
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
                        done.error_row(style, number, &place, &error, Some(&Line::Text(text)));
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
    job: &Job,
    base: Result<Option<Url>, String>,
    json: bool,
    gate: Option<(&urlscope::inspect::gate::Gate, &mut urlscope::diff::Lab)>,
    out: &mut Text<impl Write>,
    tally: &mut Tally,
) -> io::Result<()> {
    let input = job.input.as_str();
    let parts = Parts {
        host_analysis: true,
        ..Parts::NONE
    };
    let (report, base_failure) = match base {
        Ok(base_url) => (
            Report::untraced_parts(input, base_url, job.encoding, parts),
            None,
        ),
        Err(message) => (
            Report::with_encoding(input, job.base.as_deref(), job.encoding),
            Some(message),
        ),
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
        (gate.judge(&readings), gate.destinations(&readings))
    });
    let gate_findings = judged.as_ref().map_or(&[][..], |(f, _)| &f[..]);
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
            gate: judged.as_ref().map(|(f, d)| (&f[..], &d[..])),
            imitates,
        });
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

#[cfg(test)]
mod tests {
    /// The handout's list of subcommands (an input spelled so goes after `--` in a copied
    /// command) is the command line's.
    #[test]
    fn the_handouts_subcommands_are_the_command_lines() {
        let command = <super::Cli as clap::CommandFactory>::command();
        let mut ours: Vec<&str> = command.get_subcommands().map(|c| c.get_name()).collect();
        // clap adds `help` as a subcommand of its own when it builds the parser.
        if !ours.contains(&"help") {
            ours.push("help");
        }
        ours.sort_unstable();
        let mut listed = urlscope::display::SUBCOMMANDS.to_vec();
        listed.sort_unstable();
        assert_eq!(ours, listed);
    }
}
