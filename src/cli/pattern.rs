//! `urlscope pattern`: a URL pattern (URL Pattern Standard) against inputs, showing for each
//! component its pattern string, its regular expression and the input's value, then the
//! groups or the first component that failed.

use std::io::{self, BufRead, Write};
use std::time::Duration;

use clap::Args;
use serde_json::{json, Value};

use super::output::{line, warn, Text};
use urlscope::urlpattern::json::{answer_within, from_str_usv, init_from_json};
use urlscope::urlpattern::{
    second_reading, ComponentName, ConstructorRecorder, InputOutcome, UrlPattern, UrlPatternInput,
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
    /// Print JSON: one object per input, with the `urlpattern` crate's reading beside ours.
    #[arg(long)]
    json: bool,
    /// Read one case per standard input line in the web-platform-tests' shape,
    /// {"pattern": [...], "inputs": [...]}, and write one answer object per line.
    #[arg(long, conflicts_with_all = ["pattern", "json", "trace"])]
    jsonl_in: bool,
    /// Show the constructor string parser's steps.
    #[arg(long)]
    trace: bool,
    /// How long one match may take, in milliseconds, before it fails (a regular expression
    /// that backtracks catastrophically).
    #[arg(long, value_name = "MS", default_value_t = 1000)]
    time_limit_ms: u64,
}

fn read_input(text: &str) -> Result<UrlPatternInput, String> {
    if text.trim_start().starts_with('{') {
        let value = from_str_usv(text).map_err(|e| format!("{text:?} is not JSON: {e}"))?;
        let object = value
            .as_object()
            .ok_or_else(|| format!("{text:?} is not a JSON object"))?;
        Ok(UrlPatternInput::Init(init_from_json(object)?))
    } else {
        Ok(UrlPatternInput::String(text.to_owned()))
    }
}

fn to_json(input: &UrlPatternInput) -> Value {
    match input {
        UrlPatternInput::String(s) => Value::String(s.clone()),
        UrlPatternInput::Init(init) => serde_json::to_value(init).unwrap_or(Value::Null),
    }
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
    let pattern_input = match read_input(pattern_text) {
        Ok(p) => p,
        Err(e) => {
            warn(format_args!("pattern: {e}"));
            return Ok(false);
        }
    };
    let options = UrlPatternOptions {
        ignore_case: args.ignore_case,
    };
    let mut recorder = ConstructorRecorder::default();
    let constructed =
        UrlPattern::new_traced(&pattern_input, args.base.as_deref(), options, &mut recorder);
    if args.trace && !args.json {
        write_trace(out, &recorder)?;
    }
    let url_pattern = match constructed {
        Ok(p) => p.with_match_time_limit(limit),
        Err(e) => {
            if args.json {
                let mut pattern = vec![to_json(&pattern_input)];
                pattern.extend(args.base.iter().map(|b| json!(b)));
                out.json(&json!({"pattern": pattern, "error": e.to_string()}))?;
            } else {
                line!(out, "pattern  {pattern_text}")?;
                line!(out, "  error: {e}")?;
            }
            return Ok(false);
        }
    };
    if args.json {
        return json_output(&args, &pattern_input, limit, &recorder, out);
    }
    write_components(out, pattern_text, &url_pattern)?;
    let mut all = true;
    for input_text in &args.inputs {
        line!(out)?;
        let input = match read_input(input_text) {
            Ok(i) => i,
            Err(e) => {
                line!(out, "input  {input_text}")?;
                line!(out, "  error: {e}")?;
                all = false;
                continue;
            }
        };
        all &= write_match(
            out,
            input_text,
            &input,
            args.input_base.as_deref(),
            &url_pattern,
        )?;
    }
    Ok(all)
}

fn write_components<W: Write>(
    out: &mut Text<W>,
    pattern_text: &str,
    url_pattern: &UrlPattern,
) -> io::Result<()> {
    line!(out, "pattern  {pattern_text}")?;
    let has = if url_pattern.has_reg_exp_groups() {
        "yes"
    } else {
        "no"
    };
    line!(out, "  hasRegExpGroups  {has}")?;
    for c in ComponentName::ALL {
        let component = url_pattern.component(c);
        line!(
            out,
            "  {:<9} {:<24} /{}/{}",
            c.name(),
            out.shown(&component.pattern_string),
            component.regular_expression_string,
            component.flags
        )?;
    }
    Ok(())
}

/// One input: match or not, each component's value and outcome, the groups.
fn write_match<W: Write>(
    out: &mut Text<W>,
    input_text: &str,
    input: &UrlPatternInput,
    input_base: Option<&str>,
    url_pattern: &UrlPattern,
) -> io::Result<bool> {
    line!(out, "input  {input_text}")?;
    let detail = match url_pattern.match_detail(input, input_base) {
        Err(e) => {
            line!(out, "  error: {e}")?;
            return Ok(false);
        }
        Ok(InputOutcome::NotAUrl(why)) => {
            line!(out, "  no match: {why} (exec returns null)")?;
            return Ok(false);
        }
        Ok(InputOutcome::Matched(detail)) => detail,
    };
    match detail.first_failure() {
        None => line!(out, "  match")?,
        Some(c) => {
            let component = url_pattern.component(c);
            let value = &detail.components[c as usize].0;
            line!(
                out,
                "  no match: the {c} {value:?} does not match {:?} (/{}/{})",
                component.pattern_string,
                component.regular_expression_string,
                component.flags
            )?;
        }
    }
    for c in ComponentName::ALL {
        let (value, groups) = &detail.components[c as usize];
        let mark = if groups.is_some() { "✓" } else { "✗" };
        let groups = groups
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
            c.name(),
            format!("{value:?}")
        );
        line!(out, "{}", row.trim_end())?;
    }
    Ok(detail.matched())
}

fn write_trace<W: Write>(out: &mut Text<W>, recorder: &ConstructorRecorder) -> io::Result<()> {
    if recorder.steps.is_empty() {
        line!(
            out,
            "constructor string parser: not run (the pattern is a URLPatternInit)"
        )?;
        line!(out)?;
        return Ok(());
    }
    line!(out, "constructor string parser")?;
    for step in &recorder.steps {
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
        if !matches!(step.action, urlscope::urlpattern::Action::Continue) {
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

fn json_output<W: Write>(
    args: &PatternArgs,
    pattern_input: &UrlPatternInput,
    limit: Duration,
    recorder: &ConstructorRecorder,
    out: &mut Text<W>,
) -> io::Result<bool> {
    let mut pattern = vec![to_json(pattern_input)];
    if let Some(base) = &args.base {
        pattern.push(json!(base));
    }
    if args.ignore_case {
        pattern.push(json!({"ignoreCase": true}));
    }
    let steps: Vec<Value> = recorder
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
        .collect();
    let mut all = true;
    let inputs: Vec<Option<&String>> = if args.inputs.is_empty() {
        vec![None]
    } else {
        args.inputs.iter().map(Some).collect()
    };
    for input_text in inputs {
        let mut input_values = Vec::new();
        if let Some(text) = input_text {
            match read_input(text) {
                Ok(i) => input_values.push(to_json(&i)),
                Err(e) => {
                    warn(format_args!("pattern: {e}"));
                    all = false;
                    continue;
                }
            }
            if let Some(base) = &args.input_base {
                input_values.push(json!(base));
            }
        }
        let case = json!({"pattern": pattern, "inputs": input_values});
        let mut ours = answer_within(&case, limit).map_err(io::Error::other)?;
        let theirs = second_reading::answer(&pattern, &input_values);
        all &= ours["test"] == Value::Bool(true);
        if let Value::Object(o) = &mut ours {
            if args.trace {
                o.insert("trace".into(), Value::Array(steps.clone()));
            }
            o.insert(
                "second_reading".into(),
                json!({"reader": second_reading::VERSION, "agrees": agrees(&ours_view(o), &theirs), "answer": theirs}),
            );
        }
        out.json(&ours)?;
    }
    Ok(all)
}

fn ours_view(o: &serde_json::Map<String, Value>) -> Value {
    let pick = |k: &str| o.get(k).cloned().unwrap_or(Value::Null);
    let mut matched = pick("match");
    if let Value::Object(m) = &mut matched {
        m.remove("inputs");
    }
    json!({"error": pick("error"), "components": pick("components"),
           "has_regexp_groups": pick("has_regexp_groups"), "test": pick("test"), "match": matched})
}

/// Whether the two readings agree: both throw, or the same components, test and match.
fn agrees(ours: &Value, theirs: &Value) -> bool {
    match (&ours["error"], &theirs["error"]) {
        (Value::String(_), Value::String(_)) => true,
        (Value::Null, Value::Null) => {
            ours["components"] == theirs["components"]
                && ours["has_regexp_groups"] == theirs["has_regexp_groups"]
                && ours["test"] == theirs["test"]
                && ours["match"] == theirs["match"]
        }
        _ => false,
    }
}

/// `--jsonl-in`: one web-platform-tests case per line, one answer per line. A line that is
/// not a case is reported on standard error and the exit status is 1.
fn jsonl_in<W: Write>(out: &mut Text<W>, limit: Duration) -> io::Result<bool> {
    let stdin = io::stdin();
    let mut clean = true;
    for (number, line) in stdin.lock().lines().enumerate() {
        let line = line?;
        if line.trim().is_empty() {
            continue;
        }
        if line.len() > urlscope::MAX_INPUT {
            warn(format_args!(
                "line {}: over the {}-byte limit; skipped",
                number + 1,
                urlscope::MAX_INPUT
            ));
            clean = false;
            continue;
        }
        let case = match from_str_usv(&line) {
            Ok(case) => case,
            Err(e) => {
                warn(format_args!("line {}: not JSON: {e}", number + 1));
                clean = false;
                continue;
            }
        };
        match answer_within(&case, limit) {
            Ok(a) => out.json(&a)?,
            Err(e) => {
                warn(format_args!("line {}: {e}", number + 1));
                clean = false;
            }
        }
    }
    out.flush()?;
    Ok(clean)
}
