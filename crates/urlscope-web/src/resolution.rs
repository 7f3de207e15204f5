//! The Base resolution view: which branch of the parser used the base, where each component of
//! the result came from (the input or the base), edit by edit as the trace recorded them, and
//! common relative references resolved against the base. The edits come from the library's
//! [`urlscope::report::provenance`], which the inspector's Base resolution pane reads too.

use serde_json::{json, Value};
use urlscope::report::provenance::{branch, history, Edit, How, FIELDS};
use urlscope::report::Outcome;
use urlscope::Report;
use wasm_bindgen::prelude::*;

use crate::base_of;

/// What an edit did, in the inspector's words (the values as they are: the page shows text).
fn how(edit: &Edit) -> String {
    match &edit.how {
        How::FromBase => "from the base".to_owned(),
        How::SetToNull => "set to null".to_owned(),
        How::Set => "set".to_owned(),
        How::Appended(value) => format!("“{value}” appended"),
        How::SegmentAppended(value) => format!("segment “{value}” appended"),
        How::Shortened => "shortened: its last segment removed".to_owned(),
    }
}

/// The Base resolution view's model, as JSON text: `base` (`null` without one), `failure`
/// when the base does not parse, `branch` (the states that read the base, `[]` when none
/// did) and `branch_words`, `result`, `components` (each field of the URL record in the
/// standard's order with its `edits`: `value`, `from_base`, `how`, `step`, `state`,
/// `number`), and `references`.
#[wasm_bindgen]
pub fn view_resolution(input: &str, base: Option<String>) -> String {
    crate::with_report(input, base_of(base.as_deref()), |report| {
        resolution_model(report).to_string()
    })
}

pub fn resolution_model(report: &Report) -> Value {
    let Some(base) = &report.base else {
        return json!({"base": null});
    };
    if let Outcome::BaseFailure { cause } = &report.outcome {
        let why = cause.as_ref().map_or_else(
            || "it fails to parse".to_owned(),
            |e| format!("{}: {}", e.kind, e.message),
        );
        return json!({"base": base, "failure": format!(
            "The base URL is not a URL ({why}). The input was not parsed against it, and nothing resolves."
        )});
    }
    let branch = report.trace.as_ref().map(branch).unwrap_or_default();
    let used = !branch.is_empty();
    let branch_words = if used {
        branch.join(" → ")
    } else if report.trace.is_none() && report.parsed() {
        "not traced: the input is longer than the trace's limit".to_owned()
    } else if report.parsed() {
        "not used: the input has its own scheme".to_owned()
    } else {
        "not reached: the input failed before the parser looked at the base".to_owned()
    };
    let components: Vec<Value> = match (used, &report.trace) {
        (true, Some(trace)) => {
            let history = history(trace);
            FIELDS
                .iter()
                .map(|field| {
                    let edits: Vec<Value> = history
                        .get(field)
                        .map(|edits| {
                            edits
                                .iter()
                                .map(|e| {
                                    json!({"value": e.value, "from_base": e.how == How::FromBase,
                                           "how": how(e), "step": e.step, "state": e.state,
                                           "number": e.number})
                                })
                                .collect()
                        })
                        .unwrap_or_default();
                    let unset = if matches!(*field, "host" | "port" | "query" | "fragment") {
                        "null"
                    } else {
                        "\"\""
                    };
                    json!({"field": field, "edits": edits, "unset": unset})
                })
                .collect()
        }
        _ => Vec::new(),
    };
    let references: Vec<Value> = report
        .resolutions
        .iter()
        .map(|r| json!({"reference": r.reference, "href": r.href}))
        .collect();
    json!({"base": base, "failure": null, "branch": branch, "branch_words": branch_words,
           "result": report.url.as_ref().map(ToString::to_string),
           "components": components, "references": references})
}

#[cfg(test)]
mod tests {
    use super::*;

    fn model(input: &str, base: &str) -> Value {
        serde_json::from_str(&view_resolution(input, Some(base.to_owned()))).unwrap()
    }

    #[test]
    fn a_relative_path_takes_the_scheme_and_host_from_the_base() {
        let v = model("../g;x?y#s", "http://a/b/c/d;p?q");
        assert_eq!(v["branch"], json!(["no scheme state", "relative state"]));
        assert_eq!(v["result"], "http://a/b/g;x?y#s");
        let field = |name: &str| {
            v["components"]
                .as_array()
                .unwrap()
                .iter()
                .find(|c| c["field"] == name)
                .unwrap()
                .clone()
        };
        let scheme = field("scheme");
        assert_eq!(scheme["edits"][0]["value"], "http");
        assert_eq!(scheme["edits"][0]["from_base"], true);
        assert_eq!(scheme["edits"][0]["number"], "2");
        let host = field("host");
        assert_eq!(host["edits"][0]["from_base"], true);
        let path = field("path");
        let last = path["edits"].as_array().unwrap().last().unwrap().clone();
        assert_eq!(last["value"], "/b/g;x");
        assert_eq!(last["from_base"], false);
        let query = field("query");
        assert_eq!(
            query["edits"].as_array().unwrap().last().unwrap()["value"],
            "y"
        );
        let references = v["references"].as_array().unwrap();
        assert!(references
            .iter()
            .any(|r| r["reference"] == ".." && r["href"] == "http://a/b/"));
    }

    #[test]
    fn no_base_and_a_failing_base_say_so() {
        assert_eq!(model("https://example.com/", "")["base"], Value::Null);
        let v = model("a", "not a url");
        assert_eq!(v["base"], "not a url");
        assert!(v["failure"]
            .as_str()
            .unwrap()
            .starts_with("The base URL is not a URL (missing-scheme-non-relative-URL"));
        let v = model("https://example.com/", "https://base.example/");
        assert_eq!(v["branch"], json!([]));
        assert_eq!(v["branch_words"], "not used: the input has its own scheme");
    }
}
