//! The Pattern view: a URL pattern (URL Pattern Standard) compiled by the library, its
//! components, the match of the input against it with the groups, and the errors; and the
//! comparison of the browser's own `URLPattern` answer with ours, by the library's rule
//! ([`urlscope::urlpattern::report::agrees`]), the one `urlscope pattern` applies to Node's.

use std::time::Duration;

use serde_json::{json, Value};
use urlscope::urlpattern::json::cut_at_time_limit;
use urlscope::urlpattern::report::{
    agrees, groups_json, summary, InputOutcomeReport, PatternReport,
};
use wasm_bindgen::prelude::*;

/// How long one component's regular expression may run on the input, as in the inspector
/// (matching runs on every keystroke).
pub const MATCH_TIME_LIMIT: Duration = Duration::from_millis(250);

/// The Pattern view's model for `pattern` against `input`, the Base line being `base` (empty:
/// none), as JSON text; `null` for a blank pattern. `compiled`: `error` (the constructor's
/// TypeError) or `components` (`name`, `pattern_string`, `regexp`, `flags`, `group_names`) and
/// `has_regexp_groups`; `input` (`null` for an empty input): `outcome` (`matched`,
/// `no_match`, `not_a_url` or `error`), `test`, `message`, `first_failure`, `components`
/// (`name`, `value`, `groups`, `matched`, `why`); `cut_at_time_limit` when a match stopped at
/// urlscope's own time limit (not an answer of the standard's); and for the browser's
/// `URLPattern`: `arguments` (`pattern`, `inputs`, as its constructor and `exec` take them)
/// and `ours` (the answer to compare, see [`compare_pattern`]).
#[wasm_bindgen]
pub fn view_pattern(pattern: &str, input: &str, base: Option<String>, ignore_case: bool) -> String {
    let base = base.unwrap_or_default();
    match PatternReport::of_lines(pattern, &base, ignore_case, input, MATCH_TIME_LIMIT) {
        Some(report) => pattern_model(&report).to_string(),
        None => "null".to_owned(),
    }
}

pub fn pattern_model(report: &PatternReport) -> Value {
    let compiled = match &report.compiled {
        Err(e) => json!({"error": e, "components": [], "has_regexp_groups": null}),
        Ok(c) => json!({
            "error": null,
            "has_regexp_groups": c.has_regexp_groups,
            "components": c.components.iter().map(|c| json!({
                "name": c.name.name(), "pattern_string": c.pattern_string,
                "regexp": c.regexp, "flags": c.flags, "group_names": c.group_names,
            })).collect::<Vec<_>>(),
        }),
    };
    let input = report.input.as_ref().map(|i| {
        let test = i.outcome.test();
        let (outcome, message, first_failure, components) = match &i.outcome {
            InputOutcomeReport::Error(e) => ("error", Some(e.clone()), None, vec![]),
            InputOutcomeReport::NotAUrl(why) => ("not_a_url", Some(why.clone()), None, vec![]),
            InputOutcomeReport::Matched {
                components,
                first_failure,
            } => (
                if first_failure.is_none() {
                    "matched"
                } else {
                    "no_match"
                },
                None,
                first_failure.map(|c| c.name()),
                components
                    .iter()
                    .map(|c| {
                        json!({"name": c.name.name(), "value": c.value,
                               "matched": c.groups.is_some(),
                               "groups": c.groups.as_ref().map(groups_json),
                               "why": c.why})
                    })
                    .collect(),
            ),
        };
        json!({"input": i.input, "input_base": i.input_base, "outcome": outcome, "test": test,
               "message": message, "first_failure": first_failure, "components": components})
    });
    let answer = report.answer_json();
    json!({"pattern": report.pattern, "base": report.base, "ignore_case": report.ignore_case,
           "is_init": report.is_init,
           "compiled": compiled,
           "input": input,
           "cut_at_time_limit": cut_at_time_limit(&answer),
           "arguments": {"pattern": report.pattern_arguments(),
                         "inputs": report.input_arguments()},
           "ours": report.comparable_answer()})
}

/// Compares the browser's `URLPattern` answer with ours, as JSON text: `agrees` (`true`,
/// `false`, or `null` when there is nothing to compare) and `words`. `ours` is the model's
/// `ours`, `theirs` the browser's answer in the same shape (`error`, `components`,
/// `has_regexp_groups`, `test`, `match`), `cut` whether ours stopped at urlscope's time limit:
/// that is not an answer of the standard's (its "throws" is a TypeError), so nothing is
/// compared; "differs" only when both answered.
#[wasm_bindgen]
pub fn compare_pattern(ours: &str, theirs: &str, cut: bool, browser: &str) -> String {
    let (Ok(ours), Ok(theirs)) = (
        serde_json::from_str::<Value>(ours),
        serde_json::from_str::<Value>(theirs),
    ) else {
        return json!({"agrees": null, "words": "no comparison: an answer is not JSON"})
            .to_string();
    };
    let (agrees, words) = if cut {
        (
            Value::Null,
            format!(
                "{browser}: no comparison: ours stopped at urlscope's time limit, which is not an answer of the standard's"
            ),
        )
    } else if agrees(&ours, &theirs) {
        (json!(true), format!("{browser}: agrees"))
    } else {
        (
            json!(false),
            format!("{browser}: differs: {}", summary(&ours, &theirs)),
        )
    };
    json!({"agrees": agrees, "words": words}).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn model(pattern: &str, input: &str, base: &str) -> Value {
        serde_json::from_str(&view_pattern(pattern, input, Some(base.to_owned()), false)).unwrap()
    }

    #[test]
    fn a_named_group_with_a_regexp_fails_at_the_pathname() {
        let v = model(
            "https://example.com/books/:id(\\d+)",
            "https://example.com/books/abc",
            "",
        );
        assert_eq!(v["compiled"]["error"], Value::Null);
        assert_eq!(v["compiled"]["components"][5]["name"], "pathname");
        assert_eq!(
            v["compiled"]["components"][5]["pattern_string"],
            "/books/:id(\\d+)"
        );
        assert_eq!(v["input"]["outcome"], "no_match");
        assert_eq!(v["input"]["test"], false);
        assert_eq!(v["input"]["first_failure"], "pathname");
        let v = model(
            "https://example.com/books/:id(\\d+)",
            "https://example.com/books/7",
            "",
        );
        assert_eq!(v["input"]["outcome"], "matched");
        assert_eq!(v["input"]["components"][5]["groups"]["id"], "7");
    }

    #[test]
    fn a_relative_pattern_takes_the_base_line() {
        let v = model(
            "/books/:id",
            "https://example.com/books/7",
            "https://example.com",
        );
        assert_eq!(
            v["arguments"]["pattern"],
            json!(["/books/:id", "https://example.com"])
        );
        assert_eq!(v["input"]["test"], true);
        let v = model("/books/:id", "https://example.com/books/7", "");
        assert!(v["compiled"]["error"].is_string());
        assert_eq!(view_pattern("  ", "x", None, false), "null");
    }

    #[test]
    fn the_browsers_answer_is_compared_by_the_librarys_rule() {
        let v = model("https://*.example.com/*", "https://cdn.example.com/x", "");
        let ours = v["ours"].to_string();
        let same: Value =
            serde_json::from_str(&compare_pattern(&ours, &ours, false, "Chromium")).unwrap();
        assert_eq!(same, json!({"agrees": true, "words": "Chromium: agrees"}));
        let mut theirs = v["ours"].clone();
        theirs["test"] = json!(false);
        theirs["match"] = Value::Null;
        let differs: Value = serde_json::from_str(&compare_pattern(
            &ours,
            &theirs.to_string(),
            false,
            "Chromium",
        ))
        .unwrap();
        assert_eq!(differs["agrees"], false);
        assert_eq!(differs["words"], "Chromium: differs: test false");
        let cut: Value = serde_json::from_str(&compare_pattern(
            &ours,
            &theirs.to_string(),
            true,
            "Chromium",
        ))
        .unwrap();
        assert_eq!(cut["agrees"], Value::Null);
    }
}
