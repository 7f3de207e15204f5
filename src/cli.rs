//! The command line (clap): the arguments of every command and the dispatch to the module that
//! runs it (`parse.rs`, `trace.rs`, `check.rs`, `diff.rs`, `pattern.rs`, `generate.rs`), and
//! the inspector, all on the library's [`Report`](urlscope::report::Report).

mod batch;
mod check;
mod diff;
mod generate;
mod job;
mod json;
mod lines;
mod output;
mod parse;
mod pattern;
mod progress;
mod trace;

use clap::{Args, Parser, Subcommand, ValueEnum};
use encoding_rs::{Encoding, UTF_8};
use std::io::{self, BufWriter, IsTerminal, Write};
use std::process::ExitCode;

use urlscope::inspect::policy::chromium::Platform;
use urlscope::url::Component;

use check::{check_base, check_command, fix_command, CheckInput, FIX_MOVED_A_DESTINATION};
use output::{line, warn, Fields, Text};
use parse::{parse_command, parse_template, Template};
use trace::{trace_command, TableOptions};

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
    /// Neither read nor write the history: on Linux $XDG_STATE_HOME/urlscope/history, else
    /// ~/.local/state/urlscope/history; on macOS ~/Library/Application Support/urlscope/history;
    /// on Windows %APPDATA%\urlscope\history.
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
/// configuration directory's `known-domains.txt` (docs/install.md says where it is on each
/// system); and the platform the
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
    /// Look up the host name of every reading (the system resolver, each name once per run)
    /// and judge every address it gives by the internal table: resolves-internal (warn), or
    /// under --deny-internal internal-destination; a lookup that gives no address is
    /// lookup-failed (danger under --deny-internal, which fails closed). A check cannot stop
    /// DNS rebinding: the client must connect to the address that was checked.
    #[arg(long)]
    resolve: bool,
    /// Ask this DNS server (IP:PORT, over UDP) for A and AAAA records instead of the system
    /// resolver; implies --resolve.
    #[arg(long, value_name = "IP:PORT")]
    dns_server: Option<std::net::SocketAddr>,
    /// The longest one URL's lookups may take, in seconds (0.01 to 60); no answer by then is
    /// lookup-failed.
    #[arg(long, value_name = "SECONDS", default_value = "2", value_parser = parse_resolve_timeout)]
    resolve_timeout: std::time::Duration,
    /// The most lookups that run at once (1 to 256).
    #[arg(long, value_name = "N", default_value = "8", value_parser = clap::value_parser!(u16).range(1..=256))]
    resolve_jobs: u16,
}

/// `--resolve-timeout`: seconds from 0.01 to 60.
fn parse_resolve_timeout(value: &str) -> Result<std::time::Duration, String> {
    let seconds: f64 = value
        .parse()
        .map_err(|_| format!("{value:?} is not a number of seconds"))?;
    if !(0.01..=60.0).contains(&seconds) {
        return Err(format!("{value} is not from 0.01 to 60 seconds"));
    }
    Ok(std::time::Duration::from_secs_f64(seconds))
}

impl GateArgs {
    /// The lookups these flags ask for; `None` without `--resolve` or `--dns-server`.
    fn resolver(&self) -> Option<urlscope::inspect::resolve::system::Config> {
        use urlscope::inspect::resolve::system::{Config, Server};
        (self.resolve || self.dns_server.is_some()).then(|| Config {
            server: self.dns_server.map_or(Server::System, Server::Dns),
            timeout: self.resolve_timeout,
            concurrency: usize::from(self.resolve_jobs),
        })
    }

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
                    gate.resolver(),
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
        // terminal itself (/dev/tty, or the console on Windows).
        let drawable =
            io::stdout().is_terminal() || (settings.print && urlscope::tui::has_terminal());
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
                resolve: settings.gate.resolver(),
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
            settings.gate.resolver(),
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
