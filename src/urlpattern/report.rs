//! A finished account of one URL pattern and one input: what the constructor string parser
//! did, what each component compiled to, how each component of the input fared and why the
//! first failing one failed, and the `urlpattern` crate's reading beside ours. `urlscope
//! pattern` and the inspector's Pattern view both read it; neither parses nor matches.

use std::time::Duration;

use serde_json::{json, Map, Value};

use crate::gallery::Surface;

use super::component::{deadline_after, exec_before, Job};
use super::json::{from_str_usv, init_from_json};
use super::parser::{generate_pattern_string, generate_regular_expression_and_name_list};
use super::{
    second_reading, ComponentName, ConstructorRecorder, ConstructorStep, Groups, InputOutcome,
    Quoted, UrlPattern, UrlPatternInput, UrlPatternOptions,
};

/// One pattern, compiled or not, with one input's outcome.
#[derive(Clone, Debug, PartialEq)]
pub struct PatternReport {
    /// The pattern as typed: a constructor string, or a URLPatternInit as JSON.
    pub pattern: String,
    /// The constructor's baseURL argument.
    pub base: Option<String>,
    pub ignore_case: bool,
    /// The pattern is a URLPatternInit object (or meant to be one: it starts with `{"` or
    /// `{}`), so the constructor string parser does not run.
    pub is_init: bool,
    /// The constructor string parser's steps (empty for an init).
    pub steps: Vec<ConstructorStep>,
    /// The compiled components, or the message of the TypeError the constructor throws.
    pub compiled: Result<Compiled, String>,
    /// `None` when no input was given.
    pub input: Option<InputReport>,
    pub second_reading: SecondReading,
    /// The usual mistakes the pattern shows, each in a sentence ([`hints`]), in the terminal's
    /// words (the inspector and the command line); [`PatternReport::hints_on`] gives them for
    /// the page.
    pub hints: Vec<String>,
    /// The pattern is relative and no base URL was given: the constructor threw for it.
    pub relative_without_base: bool,
}

/// What the constructor compiled.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Compiled {
    pub has_regexp_groups: bool,
    /// In [`ComponentName::ALL`]'s order.
    pub components: [ComponentReport; 8],
}

/// One compiled component.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ComponentReport {
    pub name: ComponentName,
    /// The normalized pattern string (the `pathname`, … getters).
    pub pattern_string: String,
    /// The regular expression's source, as RegExpCreate was given it.
    pub regexp: String,
    /// `v`, or `vi` with ignoreCase.
    pub flags: String,
    pub group_names: Vec<String>,
}

/// One input and how it fared.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InputReport {
    /// As typed: a URL, or a URLPatternInit as JSON.
    pub input: String,
    /// exec's baseURL argument.
    pub input_base: Option<String>,
    pub outcome: InputOutcomeReport,
}

/// Whether the input matched, and where it stopped if not.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InputOutcomeReport {
    /// The input throws (test and exec have no answer): a base URL beside an init, a match
    /// past the time limit, JSON that is not a URLPatternInit. Also used, with the
    /// constructor's message, when the pattern did not compile.
    Error(String),
    /// exec returns null before any component is matched: the input is not a URL, or its init
    /// could not be processed. Says why.
    NotAUrl(String),
    /// Every component was matched.
    Matched {
        /// In [`ComponentName::ALL`]'s order (boxed: the other variants are one string).
        components: Box<[ComponentMatch; 8]>,
        /// The first component, in the standard's order, whose regular expression did not
        /// match; `None` when the input matches.
        first_failure: Option<ComponentName>,
    },
}

impl InputOutcomeReport {
    /// Whether urlscope stopped the match at its own time limit: no answer, where the
    /// standard's matching has one (it throws no TypeError for it).
    pub fn cut_at_time_limit(&self) -> bool {
        matches!(self, InputOutcomeReport::Error(e) if e.ends_with(super::CUT_AT_TIME_LIMIT))
    }

    /// test()'s answer: `None` when the input throws.
    pub fn test(&self) -> Option<bool> {
        match self {
            InputOutcomeReport::Error(_) => None,
            InputOutcomeReport::NotAUrl(_) => Some(false),
            InputOutcomeReport::Matched { first_failure, .. } => Some(first_failure.is_none()),
        }
    }
}

/// One component of the input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ComponentMatch {
    pub name: ComponentName,
    /// The input's value for the component, as match reads it.
    pub value: String,
    /// The groups; `None` when the component's regular expression did not match.
    pub groups: Option<Groups>,
    /// For the first failing component: a sentence saying why.
    pub why: Option<String>,
}

/// Another implementation's reading of the same pattern and input.
#[derive(Clone, Debug, PartialEq)]
pub struct SecondReading {
    /// Which implementation, with its version.
    pub reader: String,
    /// Whether it answers as ours does; `None` when there is no reading to compare.
    pub agrees: Option<bool>,
    /// Its answer in one line (error, or its components where they differ from ours, test
    /// and groups).
    pub summary: String,
    /// Its answer in the shape of [`super::json::answer`], without `regexps` (`Null` when it
    /// could not be asked).
    pub answer: Value,
}

/// Whether text as typed is meant as a URLPatternInit: a JSON object, `{` then `"` or `}`.
/// A constructor string may also start with `{` (a group, `{http}s://…`), but never with
/// `{"` or `{}`.
pub fn is_init_text(text: &str) -> bool {
    text.trim_start()
        .strip_prefix('{')
        .is_some_and(|rest| rest.trim_start().starts_with(['"', '}']))
}

/// A pattern or an input as typed: a JSON object is a URLPatternInit (see [`is_init_text`]),
/// anything else a string.
pub fn input_from_text(text: &str) -> Result<UrlPatternInput, String> {
    if is_init_text(text) {
        let value = from_str_usv(text).map_err(|e| format!("{text:?} is not JSON: {e}"))?;
        let object = value
            .as_object()
            .ok_or_else(|| format!("{text:?} is not a JSON object"))?;
        Ok(UrlPatternInput::Init(init_from_json(object)?))
    } else {
        Ok(UrlPatternInput::String(text.to_owned()))
    }
}

/// A pattern or input as the web-platform-tests' data writes it.
pub fn input_to_json(input: &UrlPatternInput) -> Value {
    match input {
        UrlPatternInput::String(s) => Value::String(s.clone()),
        UrlPatternInput::Init(init) => serde_json::to_value(init).unwrap_or(Value::Null),
    }
}

impl PatternReport {
    /// The pattern's hints ([`hints`]) in the words of `surface`.
    pub fn hints_on(&self, surface: Surface) -> Vec<String> {
        hints(self, self.relative_without_base, surface)
    }

    /// Constructs the pattern, matches the input if given (each match within
    /// `match_time_limit`: a catastrophic regular expression is an error in the report), and
    /// asks the `urlpattern` crate for its reading.
    pub fn build(
        pattern: &str,
        base: Option<&str>,
        ignore_case: bool,
        input: Option<&str>,
        input_base: Option<&str>,
        match_time_limit: Duration,
    ) -> PatternReport {
        let is_init = is_init_text(pattern);
        let options = UrlPatternOptions { ignore_case };
        let mut recorder = ConstructorRecorder::default();
        let pattern_input = input_from_text(pattern);
        let mut relative_without_base = false;
        let constructed = pattern_input.as_ref().map_err(Clone::clone).and_then(|p| {
            UrlPattern::new_traced(p, base, options, &mut recorder)
                .map(|p| p.with_match_time_limit(match_time_limit))
                .map_err(|e| {
                    relative_without_base = e == super::Error::RelativeWithoutBase;
                    e.to_string()
                })
        });
        let compiled = constructed.as_ref().map(compiled).map_err(Clone::clone);
        let input_report = input.map(|text| {
            let outcome = match &constructed {
                Err(e) => InputOutcomeReport::Error(format!("the pattern did not compile: {e}")),
                Ok(url_pattern) => outcome(url_pattern, text, input_base, match_time_limit),
            };
            InputReport {
                input: text.to_owned(),
                input_base: input_base.map(str::to_owned),
                outcome,
            }
        });
        let mut report = PatternReport {
            pattern: pattern.to_owned(),
            base: base.map(str::to_owned),
            ignore_case,
            is_init,
            steps: recorder.steps,
            compiled,
            input: input_report,
            second_reading: SecondReading {
                reader: second_reading::VERSION.to_owned(),
                agrees: None,
                summary: String::new(),
                answer: Value::Null,
            },
            hints: Vec::new(),
            relative_without_base,
        };
        report.hints = report.hints_on(Surface::Terminal);
        report.second_reading = match &pattern_input {
            Err(e) => SecondReading {
                summary: format!("not asked: {e}"),
                ..report.second_reading.clone()
            },
            Ok(_) => crate_reading(&report, input),
        };
        report
    }

    /// The report of `pattern` against `input`, the two read as the inspector's Pattern view
    /// and the classroom page read them: the Base line (empty: none) is the constructor's
    /// baseURL unless the pattern is a URLPatternInit, and exec's unless the input is one (a
    /// base URL beside an init throws); an empty input is no input, a blank pattern no report.
    pub fn of_lines(
        pattern: &str,
        base_line: &str,
        ignore_case: bool,
        input: &str,
        match_time_limit: Duration,
    ) -> Option<PatternReport> {
        if pattern.trim().is_empty() {
            return None;
        }
        let base = Some(base_line).filter(|b| !b.is_empty());
        Some(PatternReport::build(
            pattern,
            base.filter(|_| !is_init_text(pattern)),
            ignore_case,
            (!input.is_empty()).then_some(input),
            base.filter(|_| !is_init_text(input)),
            match_time_limit,
        ))
    }

    /// The constructor's arguments in the web-platform-tests' shape:
    /// `[input, baseURL?, {"ignoreCase": true}?]`. `None` when the pattern is not readable.
    pub fn pattern_arguments(&self) -> Option<Vec<Value>> {
        let input = input_from_text(&self.pattern).ok()?;
        let mut arguments = vec![input_to_json(&input)];
        arguments.extend(self.base.iter().map(|b| json!(b)));
        if self.ignore_case {
            arguments.push(json!({"ignoreCase": true}));
        }
        Some(arguments)
    }

    /// exec's arguments in the web-platform-tests' shape: `[input, baseURL?]` (empty when no
    /// input was given). `None` when the input is not readable.
    pub fn input_arguments(&self) -> Option<Vec<Value>> {
        let Some(report) = &self.input else {
            return Some(vec![]);
        };
        let input = input_from_text(&report.input).ok()?;
        let mut arguments = vec![input_to_json(&input)];
        arguments.extend(report.input_base.iter().map(|b| json!(b)));
        Some(arguments)
    }

    /// Our answer in the shape the second readings give theirs: `error`, `components`,
    /// `has_regexp_groups`, `test`, and `match` without its `inputs`.
    pub fn comparable_answer(&self) -> Value {
        let compiled = match &self.compiled {
            Err(e) => {
                return json!({"error": e, "components": null, "has_regexp_groups": null,
                              "test": null, "match": null})
            }
            Ok(c) => c,
        };
        let components: Map<String, Value> = compiled
            .components
            .iter()
            .map(|c| (c.name.name().to_owned(), json!(c.pattern_string)))
            .collect();
        let (test, matched) = match self.input.as_ref().map(|i| &i.outcome) {
            None | Some(InputOutcomeReport::Error(_)) => (Value::Null, Value::Null),
            Some(InputOutcomeReport::NotAUrl(_)) => (json!(false), Value::Null),
            Some(InputOutcomeReport::Matched {
                first_failure: Some(_),
                ..
            }) => (json!(false), Value::Null),
            Some(InputOutcomeReport::Matched { components, .. }) => {
                let m: Map<String, Value> = components
                    .iter()
                    .map(|c| {
                        let groups = groups_json(c.groups.as_ref().unwrap_or(&Vec::new()));
                        (
                            c.name.name().to_owned(),
                            json!({"input": c.value, "groups": groups}),
                        )
                    })
                    .collect();
                (json!(true), Value::Object(m))
            }
        };
        json!({"error": null, "components": components,
               "has_regexp_groups": compiled.has_regexp_groups, "test": test, "match": matched})
    }

    /// The object `pattern --jsonl-in` writes for this pattern and input (see
    /// [`super::json::answer`]): `pattern`, `inputs`, `error`, `components`, `regexps`,
    /// `has_regexp_groups`, `input_error` when the input throws, `test` and `match`.
    pub fn answer_json(&self) -> Value {
        let pattern = self
            .pattern_arguments()
            .unwrap_or_else(|| vec![json!(self.pattern)]);
        let inputs = self.input_arguments().unwrap_or_default();
        let mut comparable = self.comparable_answer();
        let mut out = Map::new();
        out.insert("pattern".into(), Value::Array(pattern));
        out.insert("inputs".into(), Value::Array(inputs.clone()));
        out.insert("error".into(), comparable["error"].take());
        out.insert("components".into(), comparable["components"].take());
        let regexps = match &self.compiled {
            Ok(c) => Value::Object(
                c.components
                    .iter()
                    .map(|c| (c.name.name().to_owned(), json!(c.regexp)))
                    .collect(),
            ),
            Err(_) => Value::Null,
        };
        out.insert("regexps".into(), regexps);
        out.insert(
            "has_regexp_groups".into(),
            comparable["has_regexp_groups"].take(),
        );
        if let (Ok(_), Some(InputOutcomeReport::Error(e))) =
            (&self.compiled, self.input.as_ref().map(|i| &i.outcome))
        {
            out.insert("input_error".into(), json!(e));
        }
        out.insert("test".into(), comparable["test"].take());
        let mut matched = comparable["match"].take();
        if let Value::Object(m) = &mut matched {
            // Match, steps 10 and 12.2.3: the result's inputs are the input, and the base URL
            // string if given.
            m.shift_insert(0, "inputs".into(), Value::Array(inputs));
        }
        out.insert("match".into(), matched);
        Value::Object(out)
    }
}

/// A component's groups as a JSON object, `null` for undefined.
pub fn groups_json(groups: &Groups) -> Value {
    Value::Object(
        groups
            .iter()
            .map(|(name, value)| {
                (
                    name.clone(),
                    value.clone().map_or(Value::Null, Value::String),
                )
            })
            .collect(),
    )
}

fn compiled(url_pattern: &UrlPattern) -> Compiled {
    Compiled {
        has_regexp_groups: url_pattern.has_reg_exp_groups(),
        components: ComponentName::ALL.map(|name| {
            let c = url_pattern.component(name);
            ComponentReport {
                name,
                pattern_string: c.pattern_string.clone(),
                regexp: c.regular_expression_string.clone(),
                flags: c.flags.to_owned(),
                group_names: c.group_name_list.clone(),
            }
        }),
    }
}

fn outcome(
    url_pattern: &UrlPattern,
    text: &str,
    input_base: Option<&str>,
    limit: Duration,
) -> InputOutcomeReport {
    let input = match input_from_text(text) {
        Ok(i) => i,
        Err(e) => return InputOutcomeReport::Error(e),
    };
    let detail = match url_pattern.match_detail(&input, input_base) {
        Err(e) => return InputOutcomeReport::Error(e.to_string()),
        Ok(InputOutcome::NotAUrl(why)) => return InputOutcomeReport::NotAUrl(why),
        Ok(InputOutcome::Matched(detail)) => detail,
    };
    let first_failure = detail.first_failure();
    let components = ComponentName::ALL.map(|name| {
        let (value, groups) = detail.components[name as usize].clone();
        let why = (Some(name) == first_failure).then(|| why(url_pattern, name, &value, limit));
        ComponentMatch {
            name,
            value,
            groups,
            why,
        }
    });
    InputOutcomeReport::Matched {
        components: Box::new(components),
        first_failure,
    }
}

/// Why a component's value does not match its pattern: the value, the pattern and its regular
/// expression, and how far the pattern's parts get. A prefix of the part list is compiled as
/// the whole list is (generate a regular expression and name list) but anchored only at the
/// start, so the longest prefix of parts that matches a prefix of the value shows where the
/// match stops.
///
/// The longest is found by bisection. Matching prefixes are a run from the start: the
/// expression of `parts[..k]` is the start of that of `parts[..k + 1]`, so a match of the
/// longer passes through an end of the shorter (its lookarounds and backreferences seeing the
/// same input and groups), and a backtracking search finds a match wherever there is one. So
/// at most log2(n) + 1 prefixes of n parts are compiled and tried, where trying each prefix
/// in turn took n of them, n²/2 parts in all: for `/:a0/:a1/…/:a6399` and a value that stops
/// half-way, 6,400 expressions of 20 million parts, 5.8 GB. A prefix that does not compile, or
/// a search past the time limit (one for the whole explanation), leaves the sentence without
/// its explanation.
fn why(url_pattern: &UrlPattern, name: ComponentName, value: &str, limit: Duration) -> String {
    let component = url_pattern.component(name);
    let mut sentence = format!(
        "the {name} {} does not match {} (/{}/{})",
        Quoted(value),
        Quoted(&component.pattern_string),
        component.regular_expression_string,
        component.flags
    );
    let parts = &component.part_list;
    if parts.is_empty() {
        sentence.push_str(": the pattern is empty, so only the empty string matches");
        return sentence;
    }
    let flags = regress::Flags {
        icase: component.options.ignore_case,
        unicode: true,
        unicode_sets: true,
        ..regress::Flags::default()
    };
    let deadline = deadline_after(limit);
    // What `parts[..k]` matches at the start of the value (`Some(None)`: nothing), or `None`
    // when there is no answer.
    let prefix_match = |k: usize| -> Option<Option<String>> {
        let (source, _) =
            generate_regular_expression_and_name_list(&parts[..k], &component.options);
        // The generated source is `^…$`: drop the end anchor and capture what the parts match.
        let inner = &source[1..source.len() - 1];
        #[cfg(test)]
        tests::PREFIXES_COMPILED.with(|n| n.set(n.get() + 1));
        let regexp = regress::Regex::with_flags(&format!("^({inner})"), flags).ok()?;
        let job = Job {
            component: name,
            regexp: std::sync::Arc::new(regexp),
            input: value.to_owned(),
        };
        let result = exec_before(&job, deadline, limit).ok()?;
        Some(result.and_then(|groups| groups.into_iter().next().flatten()))
    };
    // `parts[..matched]` matches `prefix` at the start of the value (no parts match the
    // empty string); `parts[..failed]` matches no prefix of it (n + 1 parts: none do).
    let (mut matched, mut failed) = (0, parts.len() + 1);
    let mut prefix = String::new();
    while failed - matched > 1 {
        let k = matched + (failed - matched) / 2;
        match prefix_match(k) {
            None => return sentence,
            Some(Some(m)) => (matched, prefix) = (k, m),
            Some(None) => failed = k,
        }
    }
    let part_text = |k: usize| generate_pattern_string(&parts[k..=k], &component.options);
    if matched == 0 {
        sentence.push_str(&format!(
            ": its first part, {}, does not match the start of the value",
            Quoted(&part_text(0))
        ));
    } else if matched == parts.len() {
        sentence.push_str(&format!(
            ": the parts match at most {}, leaving {} unmatched",
            Quoted(&prefix),
            Quoted(&value[prefix.len().min(value.len())..])
        ));
    } else {
        let upto = generate_pattern_string(&parts[..matched], &component.options);
        sentence.push_str(&format!(
            ": {} matches {}, but no prefix of the value matches once the next part, {}, \
             follows",
            Quoted(&upto),
            Quoted(&prefix),
            Quoted(&part_text(matched))
        ));
    }
    sentence
}

/// The usual mistakes `report`'s pattern shows, each said with its remedy in the words of
/// `surface` (the page has a Base box and no shell): a regexp group `(d+)` where `\\d+` was
/// meant (a shell eats the backslash of an unquoted `\\d`), a hostname `*.` that needs a
/// subdomain, a relative pattern with no base URL (`relative_without_base`: the constructor
/// threw for it).
pub fn hints(report: &PatternReport, relative_without_base: bool, surface: Surface) -> Vec<String> {
    let mut out = Vec::new();
    if relative_without_base {
        let base = match surface {
            Surface::Terminal => "the inspector's Base line, or --base on the command line",
            Surface::Page => "in the Base box",
        };
        out.push(format!(
            "A pattern without a protocol is relative: give a base URL ({base}), or start the \
             pattern with one, as in \"https://example.com/books/:id\"."
        ));
    }
    for class in ['d', 'w', 's'] {
        let eaten = ["+)", "*)", "{"]
            .iter()
            .map(|rest| format!("({class}{rest}"))
            .find(|group| report.pattern.contains(group.as_str()));
        if let Some(group) = eaten {
            out.push(match surface {
                Surface::Terminal => format!(
                    "\"{group}\" is the letter {class}, not \"\\{class}\": a shell drops the \
                     backslash of an unquoted \\{class}. Put the pattern in single quotes, as \
                     in 'https://example.com/:id(\\d+)'."
                ),
                Surface::Page => format!(
                    "\"{group}\" is the letter {class}, not \"\\{class}\": a character class \
                     takes its backslash, as in \"https://example.com/:id(\\d+)\"."
                ),
            });
        }
    }
    if let Ok(compiled) = &report.compiled {
        let hostname = &compiled.components[ComponentName::Hostname as usize].pattern_string;
        if let Some(domain) = hostname.strip_prefix("*.") {
            out.push(format!(
                "The hostname {} needs a subdomain: {} itself does not match. \
                 {} matches both.",
                Quoted(hostname),
                Quoted(domain),
                Quoted(&format!("{{*.}}?{domain}"))
            ));
        }
    }
    out
}

/// The `urlpattern` crate's reading, compared with ours member by member.
fn crate_reading(report: &PatternReport, input: Option<&str>) -> SecondReading {
    let reader = second_reading::VERSION.to_owned();
    let (Some(pattern), Some(inputs)) = (report.pattern_arguments(), report.input_arguments())
    else {
        return SecondReading {
            reader,
            agrees: None,
            summary: "not asked: the input is not a URL nor a URLPatternInit".to_owned(),
            answer: Value::Null,
        };
    };
    let mut theirs = second_reading::answer(&pattern, &inputs);
    if let Some(why) = theirs["unread"].as_str() {
        return SecondReading {
            reader,
            agrees: None,
            summary: why.to_owned(),
            answer: Value::Null,
        };
    }
    if input.is_none() {
        // exec() with no argument is not what the report shows: compare the pattern only.
        theirs["test"] = Value::Null;
        theirs["match"] = Value::Null;
    }
    let ours = report.comparable_answer();
    if report
        .input
        .as_ref()
        .is_some_and(|i| i.outcome.cut_at_time_limit())
    {
        // Differs only where both answered: ours stopped at the time limit.
        return SecondReading {
            reader,
            agrees: None,
            summary: format!(
                "no comparison: ours stopped at the time limit; {}",
                summary(&ours, &theirs)
            ),
            answer: theirs,
        };
    }
    let agrees = agrees(&ours, &theirs);
    SecondReading {
        reader,
        agrees: Some(agrees),
        summary: summary(&ours, &theirs),
        answer: theirs,
    }
}

/// Whether two answers agree: both throw (with any message), or the same components, test
/// and match.
pub fn agrees(ours: &Value, theirs: &Value) -> bool {
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

/// Another reading's answer in one line: its error, or its components where they differ
/// from ours, then test and the groups.
pub fn summary(ours: &Value, theirs: &Value) -> String {
    if let Value::String(e) = &theirs["error"] {
        return format!("throws: {e}");
    }
    let mut pieces = Vec::new();
    for c in ComponentName::ALL.map(ComponentName::name) {
        let t = &theirs["components"][c];
        if *t != ours["components"][c] {
            pieces.push(format!("{c} {t}"));
        }
    }
    if theirs["has_regexp_groups"] != ours["has_regexp_groups"] {
        pieces.push(format!("hasRegExpGroups {}", theirs["has_regexp_groups"]));
    }
    match &theirs["test"] {
        Value::Bool(true) => {
            pieces.push("test true".to_owned());
            for c in ComponentName::ALL.map(ComponentName::name) {
                if let Some(groups) = theirs["match"][c]["groups"].as_object() {
                    if !groups.is_empty() {
                        pieces.push(format!("{c} groups {}", Value::Object(groups.clone())));
                    }
                }
            }
        }
        Value::Bool(false) => pieces.push("test false".to_owned()),
        _ if ours["test"].is_null() => {}
        _ => pieces.push("the input throws".to_owned()),
    }
    if pieces.is_empty() {
        "the same components".to_owned()
    } else {
        pieces.join("; ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::Cell;

    const LIMIT: Duration = Duration::from_millis(1000);

    thread_local! {
        /// How many prefixes of a part list [`why`] compiled on this thread (libtest runs
        /// each test on a thread of its own).
        pub(super) static PREFIXES_COMPILED: Cell<usize> = const { Cell::new(0) };
    }

    fn build(pattern: &str, input: Option<&str>) -> PatternReport {
        PatternReport::build(pattern, None, false, input, None, LIMIT)
    }

    fn matched(report: &PatternReport) -> (&[ComponentMatch; 8], Option<ComponentName>) {
        match &report.input.as_ref().expect("an input").outcome {
            InputOutcomeReport::Matched {
                components,
                first_failure,
            } => (components, *first_failure),
            other => panic!("not matched: {other:?}"),
        }
    }

    #[test]
    fn a_match_has_every_component_and_its_groups() {
        let report = build(
            "https://*.example.com/books/:id",
            Some("https://www.example.com/books/12"),
        );
        assert!(!report.is_init);
        assert!(
            !report.steps.is_empty(),
            "the constructor string parser ran"
        );
        let compiled = report.compiled.as_ref().expect("compiles");
        let pathname = &compiled.components[ComponentName::Pathname as usize];
        assert_eq!(pathname.pattern_string, "/books/:id");
        assert_eq!(pathname.regexp, r"^\/books(?:\/([^\/]+?))$");
        assert_eq!(pathname.group_names, ["id"]);
        let (components, first_failure) = matched(&report);
        assert_eq!(first_failure, None);
        assert_eq!(
            components[ComponentName::Pathname as usize].groups,
            Some(vec![("id".to_owned(), Some("12".to_owned()))])
        );
        assert_eq!(
            components[ComponentName::Hostname as usize].groups,
            Some(vec![("0".to_owned(), Some("www".to_owned()))])
        );
        assert!(components.iter().all(|c| c.why.is_none()));
        assert_eq!(report.second_reading.agrees, Some(true));
    }

    #[test]
    fn no_match_names_the_first_failing_component_and_why() {
        let report = build(
            "https://example.com/books/:id(\\d+)",
            Some("https://example.com/books/abc"),
        );
        let (components, first_failure) = matched(&report);
        assert_eq!(first_failure, Some(ComponentName::Pathname));
        let pathname = &components[ComponentName::Pathname as usize];
        assert_eq!(pathname.value, "/books/abc");
        assert_eq!(pathname.groups, None);
        let why = pathname.why.as_deref().expect("a reason");
        assert!(why.contains("\"/books/abc\""), "{why}");
        assert!(
            why.contains("\"/books\" matches \"/books\"")
                && why.contains("next part, \"/:id(\\d+)\""),
            "{why}"
        );
        // Components after the first failure are still matched and shown.
        assert!(components[ComponentName::Search as usize].groups.is_some());
        assert_eq!(report.second_reading.agrees, Some(true));
    }

    #[test]
    fn a_value_longer_than_the_pattern_says_what_is_left_over() {
        let report = build(
            "https://example.com/books",
            Some("https://example.com/books/x"),
        );
        let (components, first_failure) = matched(&report);
        assert_eq!(first_failure, Some(ComponentName::Pathname));
        let why = components[ComponentName::Pathname as usize]
            .why
            .as_deref()
            .expect("a reason");
        assert!(
            why.contains("match at most \"/books\", leaving \"/x\" unmatched"),
            "{why}"
        );
    }

    #[test]
    fn an_earlier_component_fails_first() {
        let report = build("https://example.com/*", Some("http://example.com/"));
        let (components, first_failure) = matched(&report);
        assert_eq!(first_failure, Some(ComponentName::Protocol));
        let why = components[0].why.as_deref().expect("a reason");
        assert!(
            why.contains("first part, \"https\", does not match"),
            "{why}"
        );
    }

    #[test]
    fn a_constructor_error_is_the_compiled_result() {
        let report = build(
            "https://example.com/:id/:id",
            Some("https://example.com/a/b"),
        );
        let error = report.compiled.as_ref().expect_err("throws");
        assert!(error.contains("\"id\" is used twice"), "{error}");
        let input = report.input.as_ref().expect("an input");
        assert_eq!(input.outcome.test(), None);
        // The crate throws too: two readings that both throw agree.
        assert_eq!(report.second_reading.agrees, Some(true));
        assert!(report.second_reading.summary.starts_with("throws"));
    }

    #[test]
    fn an_init_pattern_runs_no_constructor_string_parser() {
        let report = build(
            r#"{"pathname": "/books/:id"}"#,
            Some("https://any.host/books/7"),
        );
        assert!(report.is_init);
        assert!(report.steps.is_empty());
        let compiled = report.compiled.as_ref().expect("compiles");
        assert_eq!(compiled.components[0].pattern_string, "*");
        let (_, first_failure) = matched(&report);
        assert_eq!(first_failure, None);
    }

    #[test]
    fn an_init_that_is_not_json_is_a_constructor_error() {
        let report = build(r#"{"pathname": "#, Some("https://a/"));
        assert!(report.is_init);
        let error = report.compiled.as_ref().expect_err("not JSON");
        assert!(error.contains("is not JSON"), "{error}");
        assert_eq!(report.second_reading.agrees, None);
    }

    #[test]
    fn a_base_url_fills_the_components() {
        let report = PatternReport::build(
            "/books/:id",
            Some("https://example.com/shelf/"),
            false,
            Some("https://example.com/books/3"),
            None,
            LIMIT,
        );
        let compiled = report.compiled.as_ref().expect("compiles");
        let strings: Vec<&str> = compiled
            .components
            .iter()
            .map(|c| c.pattern_string.as_str())
            .collect();
        // Process a URLPatternInit, step 10: the base fills protocol, hostname and port; the
        // pathname is given, so search and hash stay wildcards.
        assert_eq!(
            strings,
            ["https", "*", "*", "example.com", "", "/books/:id", "*", "*"]
        );
        let (_, first_failure) = matched(&report);
        assert_eq!(first_failure, None);
        let without = build("/books/:id", None);
        let error = without
            .compiled
            .expect_err("a relative string needs a base");
        assert!(error.contains("needs a base URL"), "{error}");
    }

    #[test]
    fn ignore_case_applies_to_the_pathname() {
        let input = Some("https://example.com/BOOKS");
        let sensitive = build("https://example.com/books", input);
        assert_eq!(matched(&sensitive).1, Some(ComponentName::Pathname));
        let insensitive =
            PatternReport::build("https://example.com/books", None, true, input, None, LIMIT);
        assert_eq!(matched(&insensitive).1, None);
        let compiled = insensitive.compiled.as_ref().expect("compiles");
        assert_eq!(
            compiled.components[ComponentName::Pathname as usize].flags,
            "vi"
        );
        assert_eq!(
            compiled.components[ComponentName::Hostname as usize].flags,
            "v"
        );
    }

    #[test]
    fn a_catastrophic_pattern_is_an_error_not_a_hang() {
        // 2^64 ways to split the a's: the search is stopped at the limit, not finished.
        let input = format!("https://example.com/{}!", "a".repeat(64));
        let start = std::time::Instant::now();
        let report = PatternReport::build(
            "https://example.com/((?:a+)+)",
            None,
            false,
            Some(&input),
            None,
            Duration::from_millis(20),
        );
        let outcome = &report.input.as_ref().expect("an input").outcome;
        match outcome {
            InputOutcomeReport::Error(e) => assert!(e.contains("backtracks"), "{e}"),
            other => panic!("expected the time limit's error, got {other:?}"),
        }
        assert!(start.elapsed() < Duration::from_secs(5));
    }

    #[test]
    fn an_input_that_is_not_a_url_is_not_a_match() {
        let report = build("https://example.com/*", Some("not a url"));
        let outcome = &report.input.as_ref().expect("an input").outcome;
        assert!(
            matches!(outcome, InputOutcomeReport::NotAUrl(why) if why.contains("not a valid URL"))
        );
        assert_eq!(outcome.test(), Some(false));
        assert_eq!(report.second_reading.agrees, Some(true));
    }

    #[test]
    fn the_crates_differing_answer_is_summarized() {
        // A non-special pathname: the crate percent-encodes its "/" (recorded in
        // tests/data/urlpattern_disagreements.json).
        let report = build(
            "foo://example.com/books/:id",
            Some("foo://example.com/books/12"),
        );
        assert_eq!(matched(&report).1, None);
        assert_eq!(report.second_reading.agrees, Some(false));
        let summary = &report.second_reading.summary;
        assert!(summary.contains("pathname \"%2Fbooks/:id\""), "{summary}");
        assert!(summary.contains("test false"), "{summary}");
    }

    #[test]
    fn the_answer_object_is_the_jsonl_in_answer() {
        // (pattern, base, ignoreCase, input, input base)
        type Case<'a> = (&'a str, Option<&'a str>, bool, &'a str, Option<&'a str>);
        let cases: &[Case] = &[
            (
                "https://*.example.com/books/:id",
                None,
                false,
                "https://a.example.com/books/1",
                None,
            ),
            (
                "https://example.com/books/:id",
                None,
                false,
                "https://example.com/x",
                None,
            ),
            (
                "/books/:id?",
                Some("https://example.com/"),
                true,
                "https://example.com/BOOKS",
                None,
            ),
            (
                r#"{"pathname": "/a/:b"}"#,
                None,
                false,
                r#"{"pathname": "/a/c"}"#,
                None,
            ),
            (
                r#"{"pathname": "/a/:b"}"#,
                None,
                false,
                r#"{"pathname": "/a/c"}"#,
                Some("https://x/"),
            ),
            (
                "https://example.com/*",
                None,
                false,
                "/rel",
                Some("https://example.com/base/"),
            ),
            ("https://example.com/*", None, false, "not a url", None),
            (
                "https://example.com/(\\m)",
                None,
                false,
                "https://example.com/",
                None,
            ),
        ];
        for &(pattern, base, ignore_case, input, input_base) in cases {
            let report =
                PatternReport::build(pattern, base, ignore_case, Some(input), input_base, LIMIT);
            let case = json!({"pattern": report.pattern_arguments().expect("readable"),
                              "inputs": report.input_arguments().expect("readable")});
            let expected = super::super::json::answer(&case).expect("a case");
            assert_eq!(report.answer_json(), expected, "{case}");
        }
    }

    #[test]
    fn a_constructor_string_may_start_with_a_group() {
        let report = build("{http}s://example.com/*", Some("https://example.com/a"));
        assert!(!report.is_init);
        let compiled = report.compiled.as_ref().expect("compiles");
        assert_eq!(compiled.components[0].pattern_string, "https");
        assert_eq!(matched(&report).1, None);
        assert!(build("{}", None).is_init);
        assert!(build(r#" { "pathname": "/" }"#, None).is_init);
    }

    /// `https://e.com/:a0/:a1/…` with `groups` named groups in the pathname.
    fn many_groups(groups: usize) -> String {
        let path: Vec<String> = (0..groups).map(|i| format!("/:a{i}")).collect();
        format!("https://e.com{}", path.concat())
    }

    /// `https://e.com/x/x/…` with `segments` segments.
    fn segments(segments: usize) -> String {
        format!("https://e.com{}", "/x".repeat(segments))
    }

    /// The pathname's explanation, and how many prefixes of its parts it compiled.
    fn explained(pattern: &str, input: &str) -> (String, usize) {
        PREFIXES_COMPILED.with(|n| n.set(0));
        let report = build(pattern, Some(input));
        let (components, first_failure) = matched(&report);
        assert_eq!(first_failure, Some(ComponentName::Pathname), "{input}");
        let why = components[ComponentName::Pathname as usize]
            .why
            .clone()
            .expect("a reason");
        (why, PREFIXES_COMPILED.with(Cell::get))
    }

    #[test]
    fn the_explanation_compiles_a_logarithmic_number_of_prefixes() {
        for groups in [1, 2, 3, 7, 200, 1600, 6400] {
            let pattern = many_groups(groups);
            // The bit length of n: bisecting n + 1 prefix lengths takes at most that many.
            let most = (usize::BITS - groups.leading_zeros()) as usize;
            // Half of the groups match; every group matches, with a segment left over; the
            // first does not match.
            let half = groups / 2;
            for (input, ends) in [
                (
                    segments(half),
                    if half == 0 {
                        ": its first part, \"/:a0\", does not match the start of the value"
                            .to_owned()
                    } else {
                        format!(
                            ": {} matches {}, but no prefix of the value matches once the next \
                             part, {}, follows",
                            Quoted(&(0..half).map(|i| format!("/:a{i}")).collect::<String>()),
                            Quoted(&"/x".repeat(half)),
                            Quoted(&format!("/:a{half}"))
                        )
                    },
                ),
                (
                    segments(groups + 1),
                    format!(
                        ": the parts match at most {}, leaving \"/x\" unmatched",
                        Quoted(&"/x".repeat(groups))
                    ),
                ),
                (
                    "https://e.com".to_owned(),
                    ": its first part, \"/:a0\", does not match the start of the value".to_owned(),
                ),
            ] {
                let (why, compiled) = explained(&pattern, &input);
                assert!(why.ends_with(&ends), "{groups} groups: {why:.300}");
                assert!(
                    compiled <= most,
                    "{groups} groups: {compiled} prefixes compiled, more than {most}"
                );
            }
        }
    }

    #[test]
    fn the_crate_is_not_asked_about_a_component_of_many_groups() {
        let pattern = many_groups(second_reading::MOST_GROUPS);
        let report = build(&pattern, Some(&segments(second_reading::MOST_GROUPS)));
        assert_eq!(report.second_reading.agrees, Some(true));
        let pattern = many_groups(second_reading::MOST_GROUPS + 1);
        for input in [None, Some(segments(second_reading::MOST_GROUPS + 1))] {
            let report = build(&pattern, input.as_deref());
            assert_eq!(
                report.second_reading.agrees, None,
                "not a reading: {input:?}"
            );
            assert_eq!(report.second_reading.answer, Value::Null);
            assert_eq!(
                report.second_reading.summary,
                "not asked: urlpattern 0.3.0 matches with the regex crate, whose memory grows \
                 with the groups times the regular expression's length, and its pathname has \
                 65 groups (more than 64)"
            );
        }
        // A pattern ours throws for is counted as typed: a name used twice.
        let twice = format!("{pattern}/:a0");
        let report = build(&twice, Some(&segments(2)));
        assert!(report.compiled.is_err());
        assert_eq!(report.second_reading.agrees, None);
        assert!(
            report
                .second_reading
                .summary
                .ends_with("it could have 66 groups (more than 64)"),
            "{}",
            report.second_reading.summary
        );
    }

    #[test]
    fn the_crate_is_not_asked_where_it_would_panic() {
        // "]" before any "[" in the hostname: the standard's bracket depth goes below zero,
        // the crate's unsigned one would underflow.
        let report = build("https://].example.com/", Some("https://example.com/"));
        assert_eq!(report.second_reading.agrees, None);
        assert!(report.second_reading.summary.starts_with("not asked"));
    }
}
