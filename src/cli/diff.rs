//! `urlscope diff`: how the parsers read each input, side by side; and the parsers that
//! `check --allow-host` and `--deny-internal` judge a URL on.

use clap::{Args, ValueEnum};
use std::io::{self, Write};
use std::time::Duration;

use urlscope::diff::{
    AdapterSpec, Class, Comparison, Component, Delivery, Lab, Timeouts, Verdict as Where, PARSERS,
};

use super::batch::{message, say_bom, write_error_row, Style};
use super::lines::{Line, Lines};
use super::output::{escape, line, warn, Text};
use super::progress::Progress;

#[derive(Debug, Args)]
pub struct DiffArgs {
    /// The URLs to read; none, or "-", reads standard input split at "\n" only (nothing trimmed).
    urls: Vec<String>,
    /// A base URL to resolve the inputs against (by each parser's own resolution).
    #[arg(long)]
    base: Option<String>,
    /// Print one JSON object per input (JSON Lines).
    #[arg(long)]
    json: bool,
    /// The parsers to run, comma-separated (all by default): whatwg, rust-url, curl, rfc3986,
    /// http, python, urllib3, node, node-legacy, java, go, and any configured with --adapter or
    /// in parsers.conf.
    #[arg(long, value_delimiter = ',', value_name = "LIST")]
    parsers: Option<Vec<String>>,
    /// Exit 1 when readings go to different destinations (host or port: "elsewhere"); also when
    /// a parser refuses the URL or reads no host where another reads one ("refused"); or on a
    /// difference in any component, spelling included ("any"). Fewer than two readings always
    /// exit 1: nothing was compared.
    #[arg(long, value_enum, value_name = "WHAT", default_value_t = FailOn::Elsewhere)]
    fail_on: FailOn,
    /// How long an external parser may take per input before it is stopped.
    #[arg(long, value_name = "MS", default_value_t = 5000)]
    timeout_ms: u64,
    /// An extra external parser: "NAME=COMMAND [ARG…]" speaking the adapter protocol (repeatable).
    #[arg(long = "adapter", value_name = "NAME=COMMAND")]
    adapters: Vec<String>,
    /// No progress line on standard error (it is shown only when that is a terminal).
    #[arg(long, short)]
    quiet: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum FailOn {
    /// Readings go to different hosts or ports.
    Elsewhere,
    /// Readings go elsewhere, or a parser refuses the URL (`host`, its older name, which failed
    /// on both).
    #[value(alias = "host")]
    Refused,
    /// Any component differs, spelling included.
    Any,
}

/// The external parsers configured in the user's file and on the command line.
fn configured(adapters: &[String]) -> io::Result<Vec<AdapterSpec>> {
    let mut specs = AdapterSpec::configured().map_err(io::Error::other)?;
    for line in adapters {
        let spec = AdapterSpec::from_config_line(line).map_err(io::Error::other)?;
        specs.retain(|s| s.name != spec.name);
        specs.push(spec);
    }
    Ok(specs)
}

/// A parser name in `--parsers` that is neither shipped nor configured: a usage error (exit 2),
/// as clap reports a bad option, with the names it knows.
fn unknown_parsers(only: Option<&[String]>, configured: &[AdapterSpec]) -> io::Result<()> {
    let Some(only) = only else {
        return Ok(());
    };
    let mut known: Vec<&str> = PARSERS.to_vec();
    for spec in configured {
        if !known.contains(&spec.name.as_str()) {
            known.push(&spec.name);
        }
    }
    let Some(unknown) = only.iter().find(|name| !known.contains(&name.as_str())) else {
        return Ok(());
    };
    let mut command = <super::Cli as clap::CommandFactory>::command();
    command.build();
    let message = format!(
        "invalid value '{}' for '--parsers <LIST>': unknown parser (known: {})",
        escape(unknown),
        known.join(", ")
    );
    let error = match command.find_subcommand_mut("diff") {
        Some(diff) => diff.error(clap::error::ErrorKind::InvalidValue, message),
        None => command.error(clap::error::ErrorKind::InvalidValue, message),
    };
    Err(io::Error::other(error))
}

/// `urlscope diff`: `Ok(false)` when an input's verdict is one `--fail-on` counts (elsewhere
/// always), or fewer than two parsers read it (nothing was compared).
pub fn diff_command<W: Write>(args: DiffArgs, out: &mut Text<W>) -> io::Result<bool> {
    let timeouts = Timeouts {
        request: Duration::from_millis(args.timeout_ms.max(1)),
        ..Timeouts::default()
    };
    let configured = configured(&args.adapters)?;
    unknown_parsers(args.parsers.as_deref(), &configured)?;
    let mut lab = Lab::new(
        args.parsers.as_deref(),
        configured,
        timeouts,
        Delivery::Every,
    )
    .map_err(io::Error::other)?;
    let mut clean = true;
    let mut skipped = false;
    // Each parser that cannot run is reported once per reason, not once per input; the tables
    // leave it out and the JSON keeps its `"available": false` reading.
    let mut reported: Vec<(String, String)> = Vec::new();
    let mut emit = |input: &str, out: &mut Text<W>| -> io::Result<()> {
        let comparison = lab.read(input, args.base.as_deref());
        for (name, answer) in comparison.parsers.iter().filter(|(_, a)| !a.available) {
            let reason = answer.error.clone().unwrap_or_default();
            if !reported.iter().any(|(n, r)| n == name && *r == reason) {
                out.flush()?;
                warn(format_args!("{name} is unavailable: {reason}"));
                reported.push((name.clone(), reason));
            }
        }
        clean &= match (args.fail_on, comparison.verdict()) {
            (_, Where::NothingToCompare | Where::Elsewhere) => false,
            (FailOn::Elsewhere, Where::Agree | Where::Refused) => true,
            (FailOn::Refused, verdict) => verdict == Where::Agree,
            (FailOn::Any, _) => comparison.disagreements.is_empty(),
        };
        if args.json {
            out.json(&comparison.to_json())
        } else {
            write_table(out, &comparison)
        }
    };
    let from_stdin = args.urls.is_empty() || args.urls.iter().any(|u| u == "-");
    for input in args.urls.iter().filter(|u| *u != "-") {
        emit(input, out)?;
    }
    if from_stdin {
        let progress = Progress::new(args.quiet);
        progress.reading("standard input");
        let style = match args.json {
            true => Style::Json,
            false => Style::Text { blank: true },
        };
        let stdin = io::stdin();
        // Split at "\n" only: a CR, VT or any other character is part of the input.
        let mut lines =
            Lines::new(io::BufReader::with_capacity(1 << 16, stdin.lock())).keeping_cr();
        let mut buffer = Vec::new();
        loop {
            if lines.buffer_is_empty() {
                out.flush()?;
            }
            let Some((number, line)) = lines.next_line(&mut buffer)? else {
                break;
            };
            if number == 1 && lines.had_bom() {
                say_bom("standard input", &progress);
            }
            progress.add(1);
            match line {
                Line::Text(input) => progress.suspend(|| emit(input, out))?,
                unread => {
                    let error = unread.error().unwrap_or_default();
                    progress.suspend(|| {
                        out.flush()?;
                        let place = format!("line {number}");
                        warn(format_args!("{}", message(&place, &error, Some(&unread))));
                        write_error_row(out, style, number, &error, Some(&unread))
                    })?;
                    skipped = true;
                }
            }
        }
        progress.finish();
    }
    out.flush()?;
    Ok(clean && !skipped)
}

/// A cell as text: null as "—", the empty string as "", anything else escaped.
fn cell(value: Option<&str>) -> String {
    match value {
        None => "—".to_owned(),
        Some("") => "\"\"".to_owned(),
        Some(v) => escape(v).into_owned(),
    }
}

/// Cells wider than this are cut with "…" in the table; `--json` has every value whole.
const CELL_WIDTH: usize = 40;

fn fit(text: String) -> String {
    if text.chars().count() <= CELL_WIDTH {
        return text;
    }
    let mut cut: String = text.chars().take(CELL_WIDTH - 1).collect();
    cut.push('…');
    cut
}

fn width(s: &str) -> usize {
    unicode_width::UnicodeWidthStr::width(s)
}

/// Every component but the failure, which has a column of its own.
const COLUMNS: &[Component] = Component::ALL.split_at(1).1;

/// One input's table: a row per parser that read it, "*" after each cell that differs from the
/// reference (the first parser, whatwg by default), then the disagreements and their classes,
/// "≈" for a difference of spelling only, and the verdict: "agree", "elsewhere" with who goes
/// where, or "refused" with who refuses and why. The parsers that could not run are
/// left out (`diff_command` reports each once).
pub fn write_table<W: Write>(out: &mut Text<W>, c: &Comparison) -> io::Result<()> {
    line!(out, "input: {}", out.shown(&c.input))?;
    if let Some(base) = &c.base {
        line!(out, "base: {}", out.shown(base))?;
    }
    let mut rows: Vec<Vec<String>> = Vec::new();
    let mut header: Vec<String> = vec!["parser".to_owned()];
    header.extend(COLUMNS.iter().map(|c| c.name().to_owned()));
    header.push("version".to_owned());
    rows.push(header);
    let mut notes: Vec<Option<String>> = vec![None];
    for (name, answer) in c.parsers.iter().filter(|(_, a)| a.available) {
        let mut row = vec![name.clone()];
        let note = if answer.failure {
            row.extend(COLUMNS.iter().map(|_| String::new()));
            let mark = if c.differs_from_reference(name, Component::Failure) {
                "*"
            } else {
                ""
            };
            Some(format!(
                "failure{mark}: {}",
                out.shown(answer.error.as_deref().unwrap_or(""))
            ))
        } else {
            for &component in COLUMNS {
                let value = match answer.get(component) {
                    urlscope::diff::Value::Text(t) => t,
                    urlscope::diff::Value::Failure(_) => None,
                };
                let mut text = fit(cell(value));
                if c.differs_from_reference(name, component) {
                    text.push('*');
                }
                row.push(text);
            }
            answer
                .error
                .as_deref()
                .map(|e| format!("note: {}", out.shown(e)))
        };
        row.push(
            out.shown(answer.version.as_deref().unwrap_or(""))
                .into_owned(),
        );
        rows.push(row);
        notes.push(note);
    }
    let columns = rows[0].len();
    let widths: Vec<usize> = (0..columns)
        .map(|i| rows.iter().map(|r| width(&r[i])).max().unwrap_or(0))
        .collect();
    for (row, note) in rows.iter().zip(&notes) {
        let mut line = String::new();
        let failed_or_missing = note.as_deref().is_some_and(|n| n.starts_with("failure"));
        for (i, text) in row.iter().enumerate() {
            if failed_or_missing && i == 1 {
                line.push_str(note.as_deref().unwrap_or(""));
                break;
            }
            line.push_str(text);
            if i + 1 < columns {
                line.push_str(&" ".repeat(widths[i] - width(text) + 2));
            }
        }
        if failed_or_missing {
            if let Some(version) = row.last().filter(|v| !v.is_empty()) {
                line.push_str(&format!("  ({version})"));
            }
        }
        line!(out, "{}", line.trim_end())?;
        if let (false, Some(note)) = (failed_or_missing, note) {
            line!(out, "{}{note}", " ".repeat(widths[0] + 2))?;
        }
    }
    for d in &c.disagreements {
        let mut groups: Vec<(Option<&str>, Vec<&str>)> = Vec::new();
        for (name, value) in &d.values {
            match groups.iter_mut().find(|(v, _)| *v == value.as_deref()) {
                Some((_, names)) => names.push(name),
                None => groups.push((value.as_deref(), vec![name])),
            }
        }
        let groups: Vec<String> = groups
            .iter()
            .map(|(value, names)| {
                let value = if d.component == Component::Failure {
                    match *value {
                        Some("true") => "fails".to_owned(),
                        _ => "parses".to_owned(),
                    }
                } else {
                    cell(*value)
                };
                format!("{value} ({})", names.join(", "))
            })
            .collect();
        let class = d
            .class
            .map_or_else(String::new, |class| format!(" [{}]", class.name()));
        let sign = if d.class == Some(Class::SameDestination) {
            "≈"
        } else {
            "≠"
        };
        line!(
            out,
            "{sign} {}{class}: {}",
            d.component.name(),
            groups.join(" vs ")
        )?;
    }
    // A verdict is about the parsers that read the input: the others are named with it.
    let unavailable: Vec<&str> = c
        .parsers
        .iter()
        .filter(|(_, a)| !a.available)
        .map(|(n, _)| n.as_str())
        .collect();
    let without = match unavailable.as_slice() {
        [] => String::new(),
        names => format!(" (without {}: unavailable)", names.join(", ")),
    };
    match c.verdict() {
        Where::Agree if c.decision.all_fail => line!(
            out,
            "agree: yes: every parser that read it rejects it{without}"
        )?,
        Where::Agree => line!(out, "agree: yes{without}")?,
        Where::Elsewhere | Where::Refused => line!(
            out,
            "{}: {}{without}",
            c.verdict().name().unwrap_or_default(),
            c.decision.explain()
        )?,
        Where::NothingToCompare => {
            let read: Vec<&str> = c
                .parsers
                .iter()
                .filter(|(_, a)| a.available)
                .map(|(n, _)| n.as_str())
                .collect();
            let missing: Vec<&str> = c
                .parsers
                .iter()
                .filter(|(_, a)| !a.available)
                .map(|(n, _)| n.as_str())
                .collect();
            let read = match read.as_slice() {
                [] => "no parser read this input".to_owned(),
                names => format!("only {} read this input", names.join(", ")),
            };
            let missing = match missing.as_slice() {
                [] => String::new(),
                names => format!(" ({} unavailable)", names.join(", ")),
            };
            line!(out, "agree: nothing to compare: {read}{missing}")?;
        }
    }
    // A blank line between inputs: a line of its own, not a "\n" inside one, which the
    // escaping writer would show as the two characters.
    line!(out)
}

/// The parsers a gate (`check --allow-host`, `--deny-internal`) judges a URL on: every parser,
/// built-in and external (the configured ones included), through one set of long-lived adapters;
/// the library's [`Lab::for_gate`], which Python's `check_batch` reads through too.
pub fn gate_lab() -> io::Result<Lab> {
    Lab::for_gate().map_err(io::Error::other)
}
