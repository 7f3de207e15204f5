//! URL patterns (the URL Pattern Standard): the constructor from a string with or without a
//! base URL and from a URLPatternInit, test() and exec() with an input and its base URL, with
//! ignoreCase and without, under a match time limit; and the report `urlscope pattern` and the
//! inspector's Pattern view build (which also asks the `urlpattern` crate). No panic, no match
//! past the time limit; the traced and untraced constructors agree; ignoreCase changes only the
//! regular expressions' flags; test() is exec() not null; the report agrees with the calls it
//! stands for, and its web-platform-tests' shape of the arguments constructs the same pattern;
//! the first component that fails says why; a second reading not taken agrees with nothing.
//!
//! Input: the first byte holds flags (bit 0 ignoreCase; bit 1, bit 2: the pattern's, the
//! input's line is a URLPatternInit written as tab-separated fields: protocol, username,
//! password, hostname, port, pathname, search, hash, baseURL, an empty field absent); the rest
//! is UTF-8 (lossy) lines: the pattern (a constructor string, or a URLPatternInit as JSON,
//! `{"…`), the constructor's base URL, the input (as the pattern), exec's base URL. An empty
//! base line is no base; no third line is no input.
#![no_main]

use std::time::{Duration, Instant};

use libfuzzer_sys::fuzz_target;
use urlscope::urlpattern::json::PatternArguments;
use urlscope::urlpattern::report::input_from_text;
use urlscope::urlpattern::{
    ComponentName, ConstructorRecorder, Error, InputOutcomeReport, PatternReport, UrlPattern,
    UrlPatternInit, UrlPatternInput, UrlPatternOptions,
};

/// Short, so that a catastrophic regular expression costs the fuzzer little.
const LIMIT: Duration = Duration::from_millis(50);
/// What a match cut at [`LIMIT`] may take beyond it: the search stops within 65,536 of its
/// steps (crates/regress-deadline), on a machine that may be busy and under a sanitizer.
const SLACK: Duration = Duration::from_secs(3);

fn fields(line: &str) -> UrlPatternInput {
    let mut init = UrlPatternInit::default();
    let mut values = line.split('\t');
    for c in ComponentName::ALL {
        if let Some(v) = values.next().filter(|v| !v.is_empty()) {
            init.set(c, v.to_owned());
        }
    }
    init.base_url = values.next().filter(|v| !v.is_empty()).map(str::to_owned);
    UrlPatternInput::Init(init)
}

fn read(line: &str, as_fields: bool) -> Option<UrlPatternInput> {
    if as_fields {
        Some(fields(line))
    } else {
        input_from_text(line).ok()
    }
}

/// The pattern strings, or the error's message.
fn strings(pattern: &Result<UrlPattern, Error>) -> Result<Vec<String>, String> {
    match pattern {
        Ok(p) => Ok(ComponentName::ALL
            .iter()
            .map(|&c| p.pattern_string(c).to_owned())
            .collect()),
        Err(e) => Err(e.to_string()),
    }
}

/// test() and exec() of one input; `None` when the match was cut at the time limit.
fn matches(
    pattern: &UrlPattern,
    input: &UrlPatternInput,
    base: Option<&str>,
) -> Option<Result<bool, ()>> {
    let start = Instant::now();
    let exec = pattern.exec(input, base);
    let test = pattern.test(input, base);
    assert!(
        start.elapsed() < 2 * (LIMIT + SLACK),
        "two matches took {:?}",
        start.elapsed()
    );
    match (exec, test) {
        (Err(Error::MatchTimeLimit { .. }), _) | (_, Err(Error::MatchTimeLimit { .. })) => None,
        (Ok(exec), Ok(test)) => {
            assert_eq!(exec.is_some(), test, "test() is exec() not null");
            if let Some(result) = exec {
                for c in ComponentName::ALL {
                    let groups = &result.get(c).groups;
                    let names = &pattern.component(c).group_name_list;
                    assert_eq!(groups.len(), names.len(), "one value per group of {c}");
                }
            }
            Some(Ok(test))
        }
        (Err(a), Err(b)) => {
            assert_eq!(
                a.to_string(),
                b.to_string(),
                "test() and exec() throw alike"
            );
            Some(Err(()))
        }
        (a, b) => panic!("exec() {a:?} and test() {b:?} disagree"),
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&flags, rest)) = data.split_first() else {
        return;
    };
    let ignore_case = flags & 1 != 0;
    let text = String::from_utf8_lossy(rest);
    let mut lines = text.splitn(4, '\n');
    let pattern_line = lines.next().unwrap_or_default();
    let base = lines.next().filter(|b| !b.is_empty());
    let input_line = lines.next();
    let input_base = lines.next().filter(|b| !b.is_empty());
    let Some(pattern_input) = read(pattern_line, flags & 2 != 0) else {
        return;
    };
    let options = UrlPatternOptions { ignore_case };
    let untraced =
        UrlPattern::new(&pattern_input, base, options).map(|p| p.with_match_time_limit(LIMIT));
    let mut recorder = ConstructorRecorder::default();
    let traced = UrlPattern::new_traced(&pattern_input, base, options, &mut recorder);
    assert_eq!(strings(&untraced), strings(&traced), "traced and untraced");
    // ignoreCase is a flag of the pathname's, search's and hash's regular expressions only.
    let other = UrlPattern::new(
        &pattern_input,
        base,
        UrlPatternOptions {
            ignore_case: !ignore_case,
        },
    )
    .map(|p| p.with_match_time_limit(LIMIT));
    assert_eq!(strings(&untraced), strings(&other), "ignoreCase both ways");
    if let (Ok(a), Ok(b)) = (&untraced, &other) {
        for c in ComponentName::ALL {
            let (a, b) = (a.component(c), b.component(c));
            assert_eq!(a.regular_expression_string, b.regular_expression_string);
            assert_eq!(a.group_name_list, b.group_name_list);
        }
    }

    let input = input_line.and_then(|line| read(line, flags & 4 != 0));
    let mut answer = None;
    if let (Ok(pattern), Some(input)) = (&untraced, &input) {
        answer = matches(pattern, input, input_base);
        let other_answer = matches(other.as_ref().expect("compiled"), input, input_base);
        // Without groups of its own (no custom regular expression, so no lookaround or
        // negated class) a pattern that matches an input matches it ignoring case too.
        if !pattern.has_reg_exp_groups() {
            let (sensitive, insensitive) = if ignore_case {
                (other_answer, answer)
            } else {
                (answer, other_answer)
            };
            if let (Some(Ok(true)), Some(Ok(insensitive))) = (sensitive, insensitive) {
                assert!(insensitive, "matches with case, not without");
            }
        }
    }

    // The report, as the command line and the inspector build it: it reads the pattern and the
    // input as typed, so only lines that are not tab-separated fields.
    if flags & 6 == 0 {
        let report = PatternReport::build(
            pattern_line,
            base,
            ignore_case,
            input_line,
            input_base,
            LIMIT,
        );
        assert_eq!(
            report
                .compiled
                .as_ref()
                .map(|c| c
                    .components
                    .iter()
                    .map(|c| c.pattern_string.clone())
                    .collect())
                .map_err(Clone::clone),
            strings(&untraced),
            "the report's components"
        );
        if let (Some(i), Some(answer)) = (&report.input, answer) {
            if !i.outcome.cut_at_time_limit() {
                assert_eq!(i.outcome.test(), answer.ok(), "the report's test()");
            }
        }
        // The first component that fails says why, from its own value.
        if let Some(InputOutcomeReport::Matched {
            components,
            first_failure: Some(failed),
        }) = report.input.as_ref().map(|i| &i.outcome)
        {
            let why = components[*failed as usize]
                .why
                .as_deref()
                .unwrap_or_default();
            assert!(why.starts_with(&format!("the {failed} ")), "{why}");
        }
        // A reading not taken agrees with nothing.
        if report.second_reading.answer.is_null() {
            assert_eq!(report.second_reading.agrees, None, "a reading not taken");
        }
        let _ = serde_json::to_string(&report.answer_json()).expect("serializes");
        if let Some(arguments) = report.pattern_arguments() {
            let again = PatternArguments::from_json(&arguments)
                .expect("the report's arguments read back")
                .construct();
            assert_eq!(
                strings(&again),
                strings(&untraced),
                "--jsonl-in's arguments"
            );
        }
    }
});
