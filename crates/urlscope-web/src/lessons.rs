//! The Lessons view: the gallery's lessons (the library's [`urlscope::gallery`], the same the
//! inspector steps through with ctrl-n), each with what opening it sets (input, base, view,
//! step, pattern) and, for a setter lesson, the setter's run step by step.

use serde_json::{json, Value};
use urlscope::gallery::{gallery, Example};
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
           "lesson": e.lesson, "view": view, "step": step,
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

/// Lesson `index` in full, as JSON text: its summary, then `href` (what its input parses to,
/// with its encoding), and for a setter lesson `setter`: `before`, `after`, `failed`, and the
/// setter's `steps` (`index`, `state`, `effects`: each with the standard's step it `cites`),
/// with `watched`, the step the lesson is about. `null` past the last lesson.
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
                let effects: Vec<Value> = trace
                    .cited_effects(i)
                    .into_iter()
                    .map(|(cited, effect)| json!({"cites": cited, "effect": effect.to_string()}))
                    .collect();
                json!({"index": i, "state": view.phase.name(), "effects": effects})
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
