//! The Lessons view: the gallery's lessons (the library's [`urlscope::gallery`], the same the
//! inspector steps through with ctrl-n), each with what opening it sets (input, base, view,
//! step, pattern) and, for a setter lesson, the setter's run step by step.

use serde_json::{json, Value};
use urlscope::gallery::{gallery, Example, Surface};
use wasm_bindgen::prelude::*;

/// The view a lesson opens on and the step of the input's trace it selects: a pattern lesson
/// opens the Pattern view; a setter lesson stays on the lesson, whose setter's trace is not the
/// input's; a lesson with a step opens the Trace at it.
fn opens(e: &Example) -> (&'static str, Option<usize>) {
    if e.pattern.is_some() {
        return ("pattern", None);
    }
    if e.set.is_some() {
        return ("lessons", None);
    }
    let report = e.report();
    let step = e
        .watch
        .as_ref()
        .zip(report.trace.as_ref())
        .and_then(|(w, t)| w.find(t));
    match step {
        Some(step) => ("trace", Some(step)),
        None => ("components", None),
    }
}

fn summary(i: usize, e: &Example) -> Value {
    let (view, step) = opens(e);
    json!({"index": i, "input": e.input, "base": e.base.as_deref().unwrap_or(""),
           "lesson": e.text(Surface::Page), "view": view, "step": step,
           "pattern": e.pattern, "ignore_case": e.ignore_case, "matches": e.matches,
           "encoding": e.encoding.as_ref().and_then(|_| e.encoding()).map(|enc| enc.name()),
           "set": e.set.as_ref().map(|s| json!({"component": s.component, "value": s.value})),
           "watch": e.watch.as_ref().map(|w| json!({"state": w.state, "step": w.step,
                                                     "does": w.does}))})
}

/// The lessons, in the gallery's order, as JSON text: each with `index`, `input`, `base`
/// (empty: none), `lesson`, the `view` and `step` opening it selects, `pattern`,
/// `ignore_case`, `encoding` (when not UTF-8), `set` and `watch`.
#[wasm_bindgen]
pub fn lessons() -> String {
    Value::Array(
        gallery()
            .iter()
            .enumerate()
            .map(|(i, e)| summary(i, e))
            .collect(),
    )
    .to_string()
}

/// What step `index` of `trace` did, by the standard's step that did it: each step of the
/// standard it cited, in order, with each effect (`{"cites", "effect"}`), and a cited step that
/// changed nothing once with `"effect": null`. Such a step is often the one a lesson is about:
/// the port setter's "2.1.5: state override: return", the protocol setter's "2.1.1: special
/// scheme to non-special: return"; without it the row the lesson highlights named another step,
/// or none.
fn effects(trace: &urlscope::trace::Trace, index: usize) -> Vec<Value> {
    let view = trace.view(index);
    let done = trace.cited_effects(index);
    // Effects before the step's first citation have none.
    let mut out: Vec<Value> = done
        .iter()
        .filter(|(cited, _)| cited.is_none())
        .map(|(_, effect)| json!({"cites": null, "effect": effect.to_string()}))
        .collect();
    let mut seen = Vec::new();
    for &cited in &view.spec_steps {
        if seen.contains(&cited) {
            continue;
        }
        seen.push(cited);
        let before = out.len();
        out.extend(
            done.iter()
                .filter(|(c, _)| *c == Some(cited))
                .map(|(_, effect)| json!({"cites": cited, "effect": effect.to_string()})),
        );
        if out.len() == before {
            out.push(json!({"cites": cited, "effect": null}));
        }
    }
    out
}

/// Lesson `index` in full, as JSON text: its summary, then `href` (what its input parses to,
/// with its encoding), and for a setter lesson `setter`: `before`, `after`, `failed`, and the
/// setter's `steps` (`index`, `state`, `effects`: each with the standard's step it `cites`,
/// `effect` null where that step changed nothing; see [`effects`]), with `watched`, the step
/// the lesson is about. `null` past the last lesson.
#[wasm_bindgen]
pub fn lesson(index: usize) -> String {
    let Some(e) = gallery().get(index) else {
        return "null".to_owned();
    };
    let mut out = summary(index, e);
    let report = e.report();
    out["href"] = json!(report.url.as_ref().map(ToString::to_string));
    if let Some(run) = e.run_setter(&report) {
        let trace = &run.trace;
        let steps: Vec<Value> = (0..trace.len())
            .map(|i| {
                let view = trace.view(i);
                json!({"index": i, "state": view.phase.name(), "effects": effects(trace, i)})
            })
            .collect();
        out["setter"] = json!({"component": run.component.name(), "value": run.value,
                               "before": run.before, "after": run.after, "failed": run.failed,
                               "steps": steps,
                               "watched": e.watch.as_ref().and_then(|w| w.find(trace))});
    }
    out.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_lessons_are_the_gallerys_and_open_on_their_step() {
        let all: Value = serde_json::from_str(&lessons()).unwrap();
        let all = all.as_array().unwrap();
        assert_eq!(all.len(), gallery().len());
        let drive = all
            .iter()
            .find(|l| l["input"] == "file:///C|/Windows/system32")
            .unwrap();
        assert_eq!(drive["view"], "trace");
        let trace = urlscope::Report::new("file:///C|/Windows/system32", None)
            .trace
            .unwrap();
        let step = drive["step"].as_u64().unwrap() as usize;
        assert_eq!(trace.view(step).phase.name(), "path state");
        let pattern = all
            .iter()
            .find(|l| l["pattern"] == "https://*.example.com/*")
            .unwrap();
        assert_eq!(pattern["view"], "pattern");
        let encoded = all.iter().find(|l| l["encoding"].is_string()).unwrap();
        assert_eq!(encoded["encoding"], "windows-1252");
    }

    /// Every lesson that names a step of the standard shows it where the page highlights: a
    /// setter lesson's watched row lists that step among what it did (the port setter's
    /// "2.1.5: state override: return" changed nothing, and was missing from the row, which
    /// showed only 2.1.3's edits; the protocol setter's row was empty); any other lesson opens
    /// the Trace on a step in the lesson's state whose detail explains that step.
    #[test]
    fn every_lesson_highlights_the_step_it_names() {
        for (i, e) in gallery().iter().enumerate() {
            let Some(watch) = &e.watch else { continue };
            let v: Value = serde_json::from_str(&lesson(i)).unwrap();
            if e.set.is_some() {
                let setter = &v["setter"];
                let row = &setter["steps"][setter["watched"].as_u64().unwrap() as usize];
                assert_eq!(row["state"], watch.state.as_str(), "lesson {}", i + 1);
                let cites: Vec<&str> = row["effects"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .filter_map(|e| e["cites"].as_str())
                    .map(|c| c.split_once(':').map_or(c, |(number, _)| number))
                    .collect();
                assert!(
                    cites.contains(&watch.step.as_str()),
                    "lesson {}: the highlighted row cites {cites:?}, not {}",
                    i + 1,
                    watch.step
                );
            } else {
                assert_eq!(v["view"], "trace", "lesson {}", i + 1);
                let report = e.report();
                let trace = report.trace.as_ref().unwrap();
                let detail =
                    crate::model::step_detail(trace, v["step"].as_u64().unwrap() as usize).unwrap();
                assert_eq!(detail.row.state, watch.state, "lesson {}", i + 1);
                assert!(
                    detail.explained.iter().any(|x| x.step == watch.step),
                    "lesson {}: step {} does not explain {}",
                    i + 1,
                    detail.row.index,
                    watch.step
                );
            }
        }
    }

    /// A step of the standard that changed nothing is listed with a null effect, after the
    /// steps before it.
    #[test]
    fn a_cited_step_that_changed_nothing_is_listed() {
        let i = gallery()
            .iter()
            .position(|e| e.set.as_ref().is_some_and(|s| s.component == "protocol"))
            .unwrap();
        let v: Value = serde_json::from_str(&lesson(i)).unwrap();
        let setter = &v["setter"];
        let row = &setter["steps"][setter["watched"].as_u64().unwrap() as usize];
        assert_eq!(
            row["effects"],
            json!([{"cites": "2: c is \":\"", "effect": null},
                   {"cites": "2.1.1: special scheme to non-special: return", "effect": null}])
        );
    }

    #[test]
    fn a_setter_lesson_shows_the_setters_steps() {
        let all: Value = serde_json::from_str(&lessons()).unwrap();
        let i = all
            .as_array()
            .unwrap()
            .iter()
            .position(|l| l["set"]["component"] == "port")
            .unwrap();
        let v: Value = serde_json::from_str(&lesson(i)).unwrap();
        assert_eq!(v["view"], "lessons");
        let setter = &v["setter"];
        assert_eq!(setter["before"], "https://example.com/");
        assert_eq!(setter["after"], "https://example.com:8080/");
        let watched = setter["watched"].as_u64().unwrap() as usize;
        assert_eq!(setter["steps"][watched]["state"], "port state");
        assert_eq!(lesson(10_000), "null");
    }
}
