//! The Grammar view: the writing grammar's verdict (the standard's second definition of
//! validity) beside the parser's, the production path, where the input stops and what was
//! expected there, and the railroad diagrams of the productions the input went through, each
//! part marked on or off the input's path. The words, the choice of diagrams and their marks
//! are the library's ([`urlscope::report::grammar`], its marked tree
//! [`urlscope::report::grammar::railroad::Marked`]), the ones the inspector's Grammar pane
//! draws; this serialises them for the page to draw as SVG.

use serde_json::{json, Value};
use urlscope::report::grammar::agreement;
use urlscope::report::grammar::railroad::marked_diagrams;
use urlscope::report::Outcome;
use urlscope::Report;
use wasm_bindgen::prelude::*;

use crate::base_of;

/// The Grammar view's model, as JSON text: `writing` (`valid`, `production_path`, `position`
/// in code points, `expected`), the parser's verdict (`parser`: `valid`, `parsed`),
/// `base_failure`, `agreement` (the sentence both front ends give), `stop` (the input before
/// and after the position, for marking it) and `diagrams` (`name`, `rail`).
#[wasm_bindgen]
pub fn view_grammar(input: &str, base: Option<String>) -> String {
    crate::with_report(input, base_of(base.as_deref()), |report| {
        grammar_model(report).to_string()
    })
}

pub fn grammar_model(report: &Report) -> Value {
    let writing = &report.writing;
    let base_failure = match &report.outcome {
        Outcome::BaseFailure { cause } => Some(cause.as_ref().map_or_else(
            || "the base URL fails to parse".to_owned(),
            |e| format!("the base URL fails to parse ({}: {})", e.kind, e.message),
        )),
        _ => None,
    };
    let stop = writing.position.map(|p| {
        let before: String = report.input.chars().take(p).collect();
        let after: String = report.input.chars().skip(p).collect();
        json!({"before": before, "after": after})
    });
    json!({"writing": writing,
           "parser": {"valid": report.url.is_some() && report.errors.is_empty(),
                      "parsed": report.url.is_some()},
           "base_failure": base_failure,
           "agreement": agreement(report),
           "stop": stop,
           "diagrams": marked_diagrams(writing)})
}

#[cfg(test)]
mod tests {
    use super::*;

    fn model(input: &str, base: &str) -> Value {
        serde_json::from_str(&view_grammar(input, Some(base.to_owned()))).unwrap()
    }

    /// The stop of an unclosed IPv6 address is where `urlscope parse --json` puts it.
    #[test]
    fn an_invalid_input_stops_where_the_cli_says() {
        let v = model("https://[::1", "");
        assert_eq!(v["writing"]["valid"], false);
        let writing = &Report::new("https://[::1", None).writing;
        assert_eq!(v["writing"]["position"], json!(writing.position));
        assert_eq!(v["writing"]["expected"], json!(writing.expected));
        let p = writing.position.unwrap();
        assert_eq!(
            v["stop"]["before"],
            "https://[::1".chars().take(p).collect::<String>()
        );
        // The diagram of the special authority has the host box where it stopped.
        let diagrams = v["diagrams"].as_array().unwrap();
        let text = serde_json::to_string(diagrams).unwrap();
        assert!(
            text.contains(r#""label":"host","on":true,"stop":true"#),
            "{text}"
        );
    }

    #[test]
    fn a_valid_url_marks_the_branch_it_took() {
        let v = model("https://example.com/a?q", "");
        assert_eq!(v["writing"]["valid"], true);
        assert_eq!(
            v["agreement"],
            "Both agree: a valid URL string, and the parser raises no validation error."
        );
        let first = &v["diagrams"][0];
        assert_eq!(first["name"], "absolute-URL-with-fragment string");
        let items = first["rail"]["items"].as_array().unwrap();
        assert_eq!(items[0]["label"], "scheme");
        assert_eq!(items[0]["on"], true);
        let choice = &items[2];
        assert_eq!(choice["type"], "choice");
        let taken: Vec<&str> = choice["alts"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|a| a["taken"] == true)
            .map(|a| a["node"]["label"].as_str().unwrap())
            .collect();
        assert_eq!(taken, ["//host:port/path"]);
        // The query is taken, the fragment bypassed.
        assert_eq!(items[3]["branch"], true);
        assert_eq!(items[4]["bypass"], true);
    }
}
