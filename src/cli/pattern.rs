//! `urlscope pattern`: a URL pattern (URL Pattern Standard) against inputs, showing for each
//! component its pattern string, its regular expression and the input's value, then the
//! groups or the first component that failed.

use std::io::{self, Write};
use std::time::Duration;

use clap::Args;
use serde_json::{json, Value};

use super::batch::{message, say_bom, write_error_row, Style};
use super::lines::{Line, Lines};
use super::output::{line, warn, Text};
use super::progress::Progress;
use std::collections::BTreeMap;
use urlscope::urlpattern::json::{answer_within, cut_at_time_limit, from_str_usv};
use urlscope::urlpattern::node_reading;
use urlscope::urlpattern::report::input_from_text;
use urlscope::urlpattern::{
    Action, Compiled, ComponentName, InputOutcomeReport, InputReport, PatternReport, UrlPattern,
    UrlPatternOptions,
};

#[derive(Debug, Args)]
pub struct PatternArgs {
    /// The pattern: a constructor string (`https://*.example.com/books/:id`), or a
    /// URLPatternInit as a JSON object (`{"pathname": "/books/:id"}`).
    pattern: Option<String>,
    /// The inputs to match: URLs, or URLPatternInit JSON objects.
    inputs: Vec<String>,
    /// The pattern's base URL (for a relative constructor string).
    #[arg(long)]
    base: Option<String>,
    /// A base URL to resolve the (string) inputs against.
    #[arg(long, value_name = "BASE")]
    input_base: Option<String>,
    /// Match the pathname, search and hash ignoring case (URLPatternOptions ignoreCase).
    #[arg(long)]
    ignore_case: bool,
    /// Print JSON: one object per input, with the hints (`hints`) and the `urlpattern` crate's
    /// reading beside ours.
    #[arg(long)]
    json: bool,
    /// Read one case per standard input line in the web-platform-tests' shape,
    /// {"pattern": [...], "inputs": [...]}, and write one answer object per line.
    #[arg(long, conflicts_with_all = ["pattern", "json", "trace"])]
    jsonl_in: bool,
    /// Show the constructor string parser's steps.
    #[arg(long)]
    trace: bool,
    /// Print the component's value with each named group replaced (URLPattern generate(),
    /// a proposal outside the standard), e.g. `--generate pathname '{"id": "12"}'`.
    #[arg(long, num_args = 2, value_names = ["COMPONENT", "GROUPS"], conflicts_with_all = ["json", "jsonl_in", "inputs"])]
    generate: Option<Vec<String>>,
    /// How long one match may take, in milliseconds, before it fails (a regular expression
    /// that backtracks catastrophically).
    #[arg(long, value_name = "MS", default_value_t = 1000)]
    time_limit_ms: u64,
}

pub fn pattern_command<W: Write>(args: PatternArgs, out: &mut Text<W>) -> io::Result<bool> {
    let limit = Duration::from_millis(args.time_limit_ms.max(1));
    if args.jsonl_in {
        return jsonl_in(out, limit);
    }
    let Some(pattern_text) = args.pattern.as_deref() else {
        warn(format_args!(
            "pattern: give a PATTERN (or --jsonl-in with cases on standard input)"
        ));
        return Ok(false);
    };
    // A pattern that is not JSON is a usage error, not the constructor's TypeError.
    if let Err(e) = input_from_text(pattern_text) {
        warn(format_args!("pattern: {e}"));
        return Ok(false);
    }
    let build = |input: Option<&str>| {
        PatternReport::build(
            pattern_text,
            args.base.as_deref(),
            args.ignore_case,
            input,
            args.input_base.as_deref(),
            limit,
        )
    };
    if args.json {
        return json_output(&args, build, out);
    }
    if let Some(generate) = &args.generate {
        return generate_command(&args, generate, out);
    }
    let pattern_report = build(None);
    if args.trace {
        write_trace(out, &pattern_report)?;
    }
    line!(out, "pattern  {pattern_text}")?;
    let compiled = match &pattern_report.compiled {
        Ok(c) => c,
        Err(e) => {
            line!(out, "  error: {e}")?;
            write_hints(out, &pattern_report)?;
            return Ok(false);
        }
    };
    write_components(out, compiled)?;
    write_hints(out, &pattern_report)?;
    let mut all = true;
    for input_text in &args.inputs {
        line!(out)?;
        let report = build(Some(input_text));
        if let Some(input) = &report.input {
            all &= write_match(out, input)?;
        }
    }
    Ok(all)
}

/// `--generate COMPONENT GROUPS`: the generated value on one line, or a message and exit 1.
fn generate_command<W: Write>(
    args: &PatternArgs,
    generate: &[String],
    out: &mut Text<W>,
) -> io::Result<bool> {
    let [component, groups] = generate else {
        warn(format_args!(
            "pattern: --generate takes COMPONENT and GROUPS"
        ));
        return Ok(false);
    };
    let Some(component) = ComponentName::from_name(component) else {
        warn(format_args!(
            "pattern: {component:?} is not a component (protocol, username, password, \
             hostname, port, pathname, search or hash)"
        ));
        return Ok(false);
    };
    let groups: BTreeMap<String, String> = match from_str_usv(groups).map(|v| {
        v.as_object().map(|o| {
            o.iter()
                .map(|(k, v)| v.as_str().map(|v| (k.clone(), v.to_owned())))
                .collect::<Option<BTreeMap<_, _>>>()
        })
    }) {
        Ok(Some(Some(groups))) => groups,
        _ => {
            warn(format_args!(
                "pattern: GROUPS is a JSON object of strings, e.g. '{{\"id\": \"12\"}}', not {groups:?}"
            ));
            return Ok(false);
        }
    };
    let pattern_text = args.pattern.as_deref().unwrap_or_default();
    let constructed = input_from_text(pattern_text).and_then(|input| {
        let options = UrlPatternOptions {
            ignore_case: args.ignore_case,
        };
        UrlPattern::new(&input, args.base.as_deref(), options).map_err(|e| e.to_string())
    });
    let generated =
        constructed.and_then(|p| p.generate(component, &groups).map_err(|e| e.to_string()));
    match generated {
        Ok(value) => {
            line!(out, "{value}")?;
            Ok(true)
        }
        Err(e) => {
            warn(format_args!("pattern: {e}"));
            Ok(false)
        }
    }
}

/// The usual mistakes the pattern shows, as the inspector's Pattern view gives them
/// ([`PatternReport::hints`]), one line each.
fn write_hints<W: Write>(out: &mut Text<W>, report: &PatternReport) -> io::Result<()> {
    for hint in &report.hints {
        line!(out, "  hint: {hint}")?;
    }
    Ok(())
}

fn write_components<W: Write>(out: &mut Text<W>, compiled: &Compiled) -> io::Result<()> {
    let has = if compiled.has_regexp_groups {
        "yes"
    } else {
        "no"
    };
    line!(out, "  hasRegExpGroups  {has}")?;
    for component in &compiled.components {
        line!(
            out,
            "  {:<9} {:<24} /{}/{}",
            component.name.name(),
            out.shown(&component.pattern_string),
            component.regexp,
            component.flags
        )?;
    }
    Ok(())
}

/// One input: match or not, each component's value and outcome, the groups.
fn write_match<W: Write>(out: &mut Text<W>, input: &InputReport) -> io::Result<bool> {
    line!(out, "input  {}", input.input)?;
    let (components, first_failure) = match &input.outcome {
        InputOutcomeReport::Error(e) => {
            line!(out, "  error: {e}")?;
            return Ok(false);
        }
        InputOutcomeReport::NotAUrl(why) => {
            line!(out, "  no match: {why} (exec returns null)")?;
            return Ok(false);
        }
        InputOutcomeReport::Matched {
            components,
            first_failure,
        } => (components, first_failure),
    };
    match first_failure {
        None => line!(out, "  match")?,
        Some(c) => {
            let why = components[*c as usize].why.as_deref().unwrap_or_default();
            line!(out, "  no match: {why}")?;
        }
    }
    for component in components.iter() {
        let mark = if component.groups.is_some() {
            "✓"
        } else {
            "✗"
        };
        let groups = component
            .groups
            .as_ref()
            .map(|g| {
                g.iter()
                    .map(|(name, v)| match v {
                        Some(v) => format!("{name} = {v:?}"),
                        None => format!("{name} = undefined"),
                    })
                    .collect::<Vec<_>>()
                    .join(", ")
            })
            .unwrap_or_default();
        let row = format!(
            "  {mark} {:<9} {:<24} {groups}",
            component.name.name(),
            format!("{:?}", component.value)
        );
        line!(out, "{}", row.trim_end())?;
    }
    Ok(first_failure.is_none())
}

fn write_trace<W: Write>(out: &mut Text<W>, report: &PatternReport) -> io::Result<()> {
    if report.is_init {
        line!(
            out,
            "constructor string parser: not run (the pattern is a URLPatternInit)"
        )?;
        line!(out)?;
        return Ok(());
    }
    line!(out, "constructor string parser")?;
    for step in &report.steps {
        let state = if step.state == step.next_state {
            step.state.name().to_owned()
        } else {
            format!("{} → {}", step.state.name(), step.next_state.name())
        };
        let set = step
            .set
            .iter()
            .map(|(c, v)| format!("{c} = {v:?}"))
            .collect::<Vec<_>>()
            .join(", ");
        let row = format!(
            "  {:>3} {:<14} {:<10} {:<22} {set}",
            step.token_index,
            step.token.kind.name(),
            format!("{:?}", step.token.value),
            state
        );
        line!(out, "{}", row.trim_end())?;
        if !matches!(step.action, Action::Continue) {
            line!(
                out,
                "      {}: {}",
                step.action.citation(),
                step.action.explanation()
            )?;
        }
    }
    line!(out)?;
    Ok(())
}

fn trace_json(report: &PatternReport) -> Value {
    report
        .steps
        .iter()
        .map(|s| {
            json!({
                "token_index": s.token_index,
                "token": {"type": s.token.kind.name(), "index": s.token.index, "value": s.token.value},
                "state": s.state.name(),
                "next_state": s.next_state.name(),
                "step": s.action.citation(),
                "explanation": s.action.explanation(),
                "set": s.set.iter().map(|(c, v)| (c.name().to_owned(), json!(v))).collect::<serde_json::Map<_, _>>(),
            })
        })
        .collect()
}

/// `--json`: one object per input (one for the pattern alone when none is given), each the
/// report's answer with the `urlpattern` crate's and Node's readings beside it.
fn json_output<W: Write>(
    args: &PatternArgs,
    build: impl Fn(Option<&str>) -> PatternReport,
    out: &mut Text<W>,
) -> io::Result<bool> {
    let mut node = node_reading::adapter();
    let inputs: Vec<Option<&str>> = if args.inputs.is_empty() {
        vec![None]
    } else {
        args.inputs.iter().map(|i| Some(i.as_str())).collect()
    };
    let mut all = true;
    for input in inputs {
        if let Some(Err(e)) = input.map(input_from_text) {
            warn(format_args!("pattern: {e}"));
            all = false;
            continue;
        }
        let report = build(input);
        let mut answer = report.answer_json();
        all &= report.compiled.is_ok()
            && report
                .input
                .as_ref()
                .is_none_or(|i| i.outcome.test() == Some(true));
        if let Value::Object(o) = &mut answer {
            // Not the standard's: after its members, beside the other readings.
            o.insert("hints".into(), json!(report.hints));
            if args.trace {
                o.insert("trace".into(), trace_json(&report));
            }
            let second = &report.second_reading;
            o.insert(
                "second_reading".into(),
                if second.answer.is_null() {
                    json!({"reader": second.reader, "agrees": second.agrees,
                           "error": second.summary})
                } else {
                    json!({"reader": second.reader, "agrees": second.agrees,
                           "answer": second.answer})
                },
            );
            o.insert(
                "node_reading".into(),
                node_reading::read(&mut node, &report),
            );
        }
        out.json(&answer)?;
    }
    Ok(all)
}

/// `--jsonl-in`: one web-platform-tests case per line, one answer per line. A line that is
/// not a case gets a `{"line", "error"}` row in its place and a message on standard error, and
/// the exit status is 1 (an empty line gets its row too, without failing the run).
fn jsonl_in<W: Write>(out: &mut Text<W>, limit: Duration) -> io::Result<bool> {
    let stdin = io::stdin();
    let mut clean = true;
    let mut lines = Lines::new(io::BufReader::with_capacity(1 << 16, stdin.lock()));
    let row_error = |out: &mut Text<W>, number: usize, error: &str, line: Option<&Line>| {
        out.flush()?;
        let place = format!("line {number}");
        warn(format_args!("{}", message(&place, error, line)));
        write_error_row(out, Style::Json, number, error, line)
    };
    let mut buffer = Vec::new();
    while let Some((number, line)) = lines.next_line(&mut buffer)? {
        if number == 1 && lines.had_bom() {
            say_bom("standard input", &Progress::hidden());
        }
        let line = match line {
            Line::Text(text) => text,
            unread => {
                let error = unread.error().unwrap_or_default();
                row_error(out, number, &error, Some(&unread))?;
                clean = false;
                continue;
            }
        };
        if line.trim().is_empty() {
            write_error_row(out, Style::Json, number, "empty line", None)?;
            continue;
        }
        let case = match from_str_usv(line) {
            Ok(case) => case,
            Err(e) => {
                row_error(out, number, &format!("not JSON: {e}"), None)?;
                clean = false;
                continue;
            }
        };
        match answer_within(&case, limit) {
            Ok(a) => {
                // Written as it is, but not an answer of the standard's: the run is not clean.
                if let Some(why) = cut_at_time_limit(&a) {
                    warn(format_args!("line {number}: not answered: {why}"));
                    clean = false;
                }
                out.json(&a)?
            }
            Err(e) => {
                row_error(out, number, &e.to_string(), None)?;
                clean = false;
            }
        }
    }
    out.flush()?;
    Ok(clean)
}
