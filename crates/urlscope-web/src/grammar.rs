//! The Grammar view: the writing grammar's verdict (the standard's second definition of
//! validity) beside the parser's, the production path, where the input stops and what was
//! expected there, and the railroad diagrams of the productions the input went through, each
//! part marked on or off the input's path. The words and the choice of diagrams are the
//! library's ([`urlscope::report::grammar`]), as in the inspector's Grammar pane; the marks
//! follow the same rules as its drawing (src/tui/railroad.rs), for the page to draw as SVG.

use serde_json::{json, Value};
use urlscope::report::grammar::{agreement, diagrams};
use urlscope::report::Outcome;
use urlscope::url::writing::Rail;
use urlscope::Report;
use wasm_bindgen::prelude::*;

use crate::base_of;

/// What the input went through: the productions on its path, and whether it stopped in them.
#[derive(Clone, Copy, Debug)]
struct Path<'a> {
    /// Outermost first: those matched, or when the grammar stopped, those it was inside.
    productions: &'a [&'static str],
    /// The grammar stopped: the stopping point lies inside every production on the path.
    stopped: bool,
}

impl Path<'_> {
    fn took(&self, rail: &Rail) -> bool {
        match rail {
            Rail::Term(_) => false,
            Rail::Production { name, .. } => self.productions.contains(name),
            Rail::Seq(items) | Rail::Choice(items) => items.iter().any(|r| self.took(r)),
            Rail::Optional(inner) | Rail::Repeat(inner) => self.took(inner),
        }
    }
}

fn production(name: &str, label: &str, on: bool, stop: bool) -> Value {
    json!({"type": "production", "name": name, "label": label, "on": on, "stop": stop})
}

/// `rail` with its marks; `on` says whether the input's path runs through this part.
fn marked(rail: &Rail, path: Path<'_>, on: bool) -> Value {
    match rail {
        Rail::Term(t) => json!({"type": "term", "text": t, "on": on}),
        Rail::Production { name, label } => {
            let taken = path.productions.contains(name);
            production(name, label, taken, taken && path.stopped)
        }
        Rail::Seq(items) => {
            let on = on && path.took(rail);
            // Where the grammar stopped inside item k, the items before it matched: the
            // failure's path names only the productions still open, so a production before k
            // is on (an optional one may have been skipped: left alone).
            let stopped_in = path
                .stopped
                .then(|| items.iter().position(|r| path.took(r)))
                .flatten();
            // Nothing after the stop is on the path.
            let reached = |k: usize| on && stopped_in.is_none_or(|s| k <= s);
            let items: Vec<Value> = items
                .iter()
                .enumerate()
                .map(|(k, r)| match r {
                    Rail::Production { name, label } if on && stopped_in.is_some_and(|s| k < s) => {
                        production(name, label, true, false)
                    }
                    _ => marked(r, path, reached(k)),
                })
                .collect();
            let links: Vec<bool> = (1..items.len()).map(reached).collect();
            json!({"type": "seq", "on": on, "items": items, "links": links})
        }
        Rail::Optional(inner) => {
            let taken = path.took(inner);
            json!({"type": "optional",
                   "enter": on,
                   "bypass": on && !taken,
                   "branch": on && taken,
                   // Stopped inside: the path does not come back out.
                   "back": on && taken && !path.stopped,
                   "out": on && !(taken && path.stopped),
                   "inner": marked(inner, path, on && taken)})
        }
        Rail::Repeat(body) => {
            json!({"type": "repeat",
                   "on": on,
                   // Stopped inside: no way out and no way round.
                   "out": on && !(path.stopped && path.took(body)),
                   "body": marked(body, path, on)})
        }
        Rail::Choice(alts) => {
            let stuck = path.stopped && path.took(rail);
            let alts: Vec<Value> = alts
                .iter()
                .map(|a| {
                    let taken = on && path.took(a);
                    json!({"taken": taken, "exit": taken && !path.stopped,
                           "node": marked(a, path, taken)})
                })
                .collect();
            json!({"type": "choice", "enter": on, "out": on && !stuck, "alts": alts})
        }
    }
}

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
    let path = Path {
        productions: &writing.production_path,
        stopped: !writing.valid,
    };
    let diagrams: Vec<Value> = diagrams(writing)
        .into_iter()
        .map(|(name, rail)| json!({"name": name, "rail": marked(&rail, path, true)}))
        .collect();
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
           "diagrams": diagrams})
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
