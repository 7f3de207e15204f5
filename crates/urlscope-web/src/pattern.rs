//! The Pattern view: a URL pattern (URL Pattern Standard) compiled by the library, its
//! components, the match of the input against it with the groups, and the errors; and the
//! comparison of the browser's own `URLPattern` answer with ours, by the library's rule
//! ([`urlscope::urlpattern::report::agrees`]), the one `urlscope pattern` applies to Node's.

use std::time::Duration;

use serde_json::{json, Value};
use urlscope::gallery::Surface;
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
           "ours": report.comparable_answer(),
           "hints": report.hints_on(Surface::Page)})
}

/// The members of an answer the page lays side by side, in the library's names.
const MEMBERS: [&str; 8] = [
    "protocol", "username", "password", "hostname", "port", "pathname", "search", "hash",
];

/// Compares the browser's `URLPattern` answer with ours, as JSON text: `agrees` (`true`,
/// `false`, or `null` when there is nothing to compare), `words`, and `rows`, the answers side
/// by side (`what`, `ours`, `theirs`, `differs`). `ours` is the model's `ours`, `theirs` the
/// browser's answer in the same shape (`error`, `components`, `has_regexp_groups`, `test`,
/// `match`; `input_error` when its `test` threw), `cut` whether ours stopped at urlscope's time
/// limit: that is not an answer of the standard's (its "throws" is a TypeError), so nothing is
/// compared; "differs" only when both answered.
///
/// The sentence and the rows' marks are one comparison, the library's
/// ([`urlscope::urlpattern::report::agrees`]): two answers that both throw agree whatever
/// their messages (the page marked the error row "differs" beside "agrees"), and a row differs
/// exactly where the rule sees a difference, so that the answers agree when no row differs.
#[wasm_bindgen]
pub fn compare_pattern(ours: &str, theirs: &str, cut: bool, browser: &str) -> String {
    let (Ok(ours), Ok(theirs)) = (
        serde_json::from_str::<Value>(ours),
        serde_json::from_str::<Value>(theirs),
    ) else {
        return json!({"agrees": null, "words": "no comparison: an answer is not JSON", "rows": []})
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
    let rows = side_by_side(&ours, &theirs, cut);
    json!({"agrees": agrees, "words": words, "rows": rows}).to_string()
}

/// The rows of two answers, each marked where [`agrees`] sees them differ: the error (both
/// throwing is agreeing), then, unless both threw, each component, hasRegExpGroups, test()
/// and each component's match (its input and groups). Nothing is marked when ours was `cut`.
fn side_by_side(ours: &Value, theirs: &Value, cut: bool) -> Vec<Value> {
    let mut rows = Vec::new();
    let mut row = |what: String, a: &Value, b: &Value, differs: bool| {
        rows.push(json!({"what": what, "ours": a, "theirs": b, "differs": differs && !cut}));
    };
    let (e1, e2) = (&ours["error"], &theirs["error"]);
    if !e1.is_null() || !e2.is_null() {
        row("error".to_owned(), e1, e2, e1.is_string() != e2.is_string());
        if e1.is_string() && e2.is_string() {
            return rows;
        }
    }
    for c in MEMBERS {
        let (a, b) = (&ours["components"][c], &theirs["components"][c]);
        row(c.to_owned(), a, b, a != b);
    }
    let (a, b) = (&ours["has_regexp_groups"], &theirs["has_regexp_groups"]);
    row("hasRegExpGroups".to_owned(), a, b, a != b);
    let shown_ours = if cut {
        json!("no answer (time limit)")
    } else {
        ours["test"].clone()
    };
    let shown_theirs = match &theirs["input_error"] {
        Value::String(e) => json!(format!("throws: {e}")),
        _ => theirs["test"].clone(),
    };
    row(
        "test()".to_owned(),
        &shown_ours,
        &shown_theirs,
        ours["test"] != theirs["test"],
    );
    // exec()'s result, component by component: shown where a side has groups or the two
    // differ; the library compares the whole result.
    for c in MEMBERS {
        let (a, b) = (&ours["match"][c], &theirs["match"][c]);
        let grouped = |m: &Value| m["groups"].as_object().is_some_and(|g| !g.is_empty());
        if a != b || grouped(a) || grouped(b) {
            row(format!("{c} match"), a, b, a != b);
        }
    }
    if ours["match"] != theirs["match"]
        && MEMBERS
            .iter()
            .all(|c| ours["match"][c] == theirs["match"][c])
    {
        row("exec()".to_owned(), &ours["match"], &theirs["match"], true);
    }
    rows
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

    /// The sentence and the rows are one comparison: the answers agree exactly when no row is
    /// marked, over answers that differ in each member the rule reads. Two answers that throw
    /// with different messages agree, and their error row is not marked (the page said
    /// "Chromium 156: agrees" beside a row marked "differs").
    #[test]
    fn the_sentence_and_the_marked_rows_are_one_comparison() {
        let compare = |a: &Value, b: &Value, cut: bool| -> Value {
            serde_json::from_str(&compare_pattern(&a.to_string(), &b.to_string(), cut, "B"))
                .unwrap()
        };
        let marked = |v: &Value| -> Vec<String> {
            v["rows"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|r| r["differs"] == true)
                .map(|r| r["what"].as_str().unwrap().to_owned())
                .collect()
        };
        let v = model(
            "https://*.example.com/:id(\\d+)",
            "https://cdn.example.com/7",
            "",
        );
        let ours = v["ours"].clone();
        assert!(ours["error"].is_null() && ours["test"] == true);
        let mut variants: Vec<(Value, &str)> = Vec::new();
        let mut edit = |path: &[&str], to: Value, row: &'static str| {
            let mut theirs = ours.clone();
            let mut at = &mut theirs;
            for key in path {
                at = &mut at[*key];
            }
            *at = to;
            variants.push((theirs, row));
        };
        edit(
            &["components", "hostname"],
            json!("*.example.org"),
            "hostname",
        );
        edit(&["has_regexp_groups"], json!(false), "hasRegExpGroups");
        edit(&["test"], json!(false), "test()");
        edit(
            &["match", "pathname", "groups", "id"],
            json!("8"),
            "pathname match",
        );
        edit(
            &["match", "pathname", "input"],
            json!("/8"),
            "pathname match",
        );
        edit(&["error"], json!("TypeError: x"), "error");
        for (theirs, row) in &variants {
            let c = compare(&ours, theirs, false);
            assert_eq!(c["agrees"], false, "{row}");
            assert!(marked(&c).contains(&(*row).to_owned()), "{row}: {c}");
            // Cut at the time limit: nothing compared, nothing marked.
            let c = compare(&ours, theirs, true);
            assert!(c["agrees"].is_null() && marked(&c).is_empty(), "{row}: {c}");
        }
        let same = compare(&ours, &ours, false);
        assert_eq!(
            (same["agrees"].clone(), marked(&same)),
            (json!(true), vec![])
        );
        // Both throw, with their own messages: they agree, and no row is marked.
        let mut ours_throws = ours.clone();
        ours_throws["error"] = json!("TypeError: ours");
        let mut theirs_throws = ours.clone();
        theirs_throws["error"] = json!("TypeError: Failed to construct 'URLPattern'");
        let c = compare(&ours_throws, &theirs_throws, false);
        assert_eq!(c["agrees"], true, "{c}");
        assert_eq!(c["words"], "B: agrees");
        assert!(marked(&c).is_empty(), "{c}");
        assert_eq!(c["rows"][0]["what"], "error");
    }

    /// The terminal's hints are in the Pattern view's model, in the page's words.
    #[test]
    fn the_hints_are_in_the_pages_words() {
        let v = model("https://*.example.com/:id(d+)", "https://example.com/7", "");
        let hints: Vec<&str> = v["hints"]
            .as_array()
            .unwrap()
            .iter()
            .map(|h| h.as_str().unwrap())
            .collect();
        assert_eq!(hints.len(), 2, "{hints:?}");
        assert!(
            hints[0].starts_with("\"(d+)\" is the letter d"),
            "{}",
            hints[0]
        );
        assert!(!hints[0].contains("shell"), "{}", hints[0]);
        assert!(hints[1].contains("needs a subdomain"), "{}", hints[1]);
        let v = model("/books/:id", "https://example.com/books/7", "");
        let hint = v["hints"][0].as_str().unwrap();
        assert!(
            hint.contains("Base box") && !hint.contains("--base"),
            "{hint}"
        );
    }

    #[test]
    fn the_browsers_answer_is_compared_by_the_librarys_rule() {
        let v = model("https://*.example.com/*", "https://cdn.example.com/x", "");
        let ours = v["ours"].to_string();
        let same: Value =
            serde_json::from_str(&compare_pattern(&ours, &ours, false, "Chromium")).unwrap();
        assert_eq!(same["agrees"], true);
        assert_eq!(same["words"], "Chromium: agrees");
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
