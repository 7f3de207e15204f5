//! The command line (clap): `parse` and `trace`, on the library's [`Report`].

use clap::{Parser, Subcommand};
use std::io::{self, Write};
use std::process::ExitCode;

use urlscope::report::Report;
use urlscope::trace::Trace;

#[derive(Debug, Parser)]
#[command(
    name = "urlscope",
    version,
    about = "Inspect URLs the way the WHATWG URL Standard parses them"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Parse each URL and print its components and validation errors.
    Parse {
        /// The URLs to parse.
        #[arg(required = true)]
        urls: Vec<String>,
        /// A base URL to resolve the inputs against.
        #[arg(long)]
        base: Option<String>,
        /// Print one JSON object per input (JSON Lines).
        #[arg(long)]
        json: bool,
    },
    /// Print the parser's state-machine trace, one row per step.
    Trace {
        url: String,
        #[arg(long)]
        base: Option<String>,
        #[arg(long)]
        json: bool,
    },
}

pub fn run() -> ExitCode {
    let cli = Cli::parse();
    let stdout = io::stdout();
    let mut out = stdout.lock();
    let result = match cli.command {
        Command::Parse { urls, base, json } => {
            let mut all_parsed = true;
            let mut result = Ok(());
            for url in &urls {
                let report = Report::new(url, base.as_deref());
                all_parsed &= report.parsed();
                result = if json {
                    print_json(&mut out, &report)
                } else {
                    print_text(&mut out, &report)
                };
                if result.is_err() {
                    break;
                }
            }
            result.map(|()| all_parsed)
        }
        Command::Trace { url, base, json } => {
            let report = Report::new(&url, base.as_deref());
            let result = if json {
                print_json(&mut out, &report)
            } else {
                print_trace(&mut out, &report)
            };
            result.map(|()| report.parsed())
        }
    };
    match result {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(1),
        // A closed pipe (`| head`) is not an error worth a message.
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("urlscope: {e}");
            ExitCode::from(1)
        }
    }
}

fn print_json(out: &mut impl Write, report: &Report) -> io::Result<()> {
    serde_json::to_writer(&mut *out, report)?;
    writeln!(out)
}

/// Shows control and invisible characters as escapes, never raw.
fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            c if c.is_control() || is_invisible(c) => {
                out.push_str(&format!("\\u{{{:X}}}", u32::from(c)))
            }
            c => out.push(c),
        }
    }
    out
}

fn is_invisible(c: char) -> bool {
    matches!(c, '\u{AD}' | '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2060}'..='\u{2064}' | '\u{2066}'..='\u{2069}' | '\u{FEFF}')
}

fn print_text(out: &mut impl Write, report: &Report) -> io::Result<()> {
    writeln!(out, "input     {}", escape(&report.input))?;
    if let Some(base) = &report.base {
        writeln!(out, "base      {}", escape(base))?;
    }
    match &report.outcome {
        urlscope::report::Outcome::Parsed { components: c } => {
            for (name, value) in [
                ("href", &c.href),
                ("origin", &c.origin),
                ("protocol", &c.protocol),
                ("username", &c.username),
                ("password", &c.password),
                ("host", &c.host),
                ("hostname", &c.hostname),
                ("port", &c.port),
                ("pathname", &c.pathname),
                ("search", &c.search),
                ("hash", &c.hash),
            ] {
                writeln!(out, "{name:<9} {}", escape(value))?;
            }
        }
        urlscope::report::Outcome::Failure { cause } => {
            writeln!(
                out,
                "failure   {}",
                cause.as_ref().map_or("no cause".into(), |c| c.to_string())
            )?;
        }
        urlscope::report::Outcome::BaseFailure { cause } => {
            let cause = cause.as_ref().map_or("no cause".into(), |c| c.to_string());
            writeln!(out, "failure   the base URL is not a URL: {cause}")?;
        }
    }
    for error in &report.errors {
        writeln!(
            out,
            "error     {} [{}..{}] in {}: {}",
            error.kind, error.span.start, error.span.end, error.state, error.message
        )?;
    }
    writeln!(out)
}

fn print_trace(out: &mut impl Write, report: &Report) -> io::Result<()> {
    let Some(trace) = &report.trace else {
        return print_text(out, report);
    };
    writeln!(out, "input: {}", escape(trace.input()))?;
    writeln!(
        out,
        "{:>4}  {:<40} {:>5}  {:<6} {:<24} changes",
        "step", "state", "ptr", "c", "buffer"
    )?;
    write_steps(out, trace)?;
    print_text(out, report)
}

fn write_steps(out: &mut impl Write, trace: &Trace) -> io::Result<()> {
    let mut result = Ok(());
    trace.for_each_with_buffer(|view, buffer| {
        if result.is_err() {
            return;
        }
        let c = view.c.map_or("EOF".to_owned(), |c| escape(&c.to_string()));
        let changes: Vec<String> = view
            .changes
            .iter()
            .map(|c| serde_json::to_string(c).unwrap_or_default())
            .collect();
        result = writeln!(
            out,
            "{:>4}  {:<40} {:>5}  {:<6} {:<24} {}",
            view.index,
            view.phase.name(),
            view.pointer,
            c,
            escape(buffer),
            changes.join(" ")
        );
    });
    result
}
