//! The example gallery (`assets/examples.json`): curated inputs, each with a one-line lesson,
//! stepped through with ctrl-n / ctrl-p. A lesson may name the step of the trace to watch
//! (ctrl-t selects it), run a setter on the parsed URL, and parse with another query encoding.

use serde::Deserialize;
use std::sync::OnceLock;

use crate::trace::Trace;
use crate::url::Component;

/// A step of the trace: the state (or phase) it runs in, by the standard's name, and the
/// number of the standard's step it cites there.
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct Watch {
    pub state: String,
    pub step: String,
}

impl Watch {
    /// The first step of `trace` that runs in the state and cites the step.
    pub fn find(&self, trace: &Trace) -> Option<usize> {
        (0..trace.len()).find(|&i| {
            let view = trace.view(i);
            view.phase.name() == self.state && view.explained().any(|s| s.number == self.step)
        })
    }
}

/// A setter run on the URL the input parses to: the lesson is the setter's trace.
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct Setter {
    /// The URL API's name of the component (`port`, `protocol`, …).
    pub component: String,
    pub value: String,
}

impl Setter {
    pub fn component(&self) -> Option<Component> {
        Component::ALL
            .iter()
            .copied()
            .find(|c| c.name() == self.component)
    }
}

#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct Example {
    pub input: String,
    #[serde(default)]
    pub base: Option<String>,
    pub lesson: String,
    /// The step the lesson is about.
    #[serde(default)]
    pub watch: Option<Watch>,
    #[serde(default)]
    pub set: Option<Setter>,
    /// The query encoding's label (UTF-8 when absent).
    #[serde(default)]
    pub encoding: Option<String>,
}

impl Example {
    /// The query encoding the example parses with.
    pub fn encoding(&self) -> Option<&'static encoding_rs::Encoding> {
        match &self.encoding {
            None => Some(encoding_rs::UTF_8),
            Some(label) => encoding_rs::Encoding::for_label(label.as_bytes()),
        }
    }
}

/// The gallery, parsed once from the file compiled into the binary.
pub fn gallery() -> &'static [Example] {
    static GALLERY: OnceLock<Vec<Example>> = OnceLock::new();
    GALLERY.get_or_init(|| {
        // The file is part of the source tree and checked by a test; a broken edit shows as an
        // empty gallery rather than a crash.
        serde_json::from_str(include_str!("../../assets/examples.json")).unwrap_or_default()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tui::app::App;

    #[test]
    fn gallery_parses_and_each_lesson_shows_what_it_says() {
        let parsed: Result<Vec<Example>, _> =
            serde_json::from_str(include_str!("../../assets/examples.json"));
        assert!(parsed.is_ok(), "{parsed:?}");
        let examples = gallery();
        assert!(examples.len() >= 20);
        for e in examples {
            assert!(!e.lesson.is_empty());
        }
        let failing: Vec<_> = examples
            .iter()
            .filter(|e| !crate::Report::new(&e.input, e.base.as_deref()).parsed())
            .map(|e| e.input.as_str())
            .collect();
        assert_eq!(
            failing,
            vec!["https://example.com:99999/", "https://[::1", "a/b?c#d"]
        );
    }

    /// Every step a lesson names occurs in the trace the lesson shows (the setter's, when it
    /// runs one), and every setter and encoding is one the inspector can run.
    #[test]
    fn every_lesson_step_occurs_in_its_trace() {
        let mut watched = 0;
        for (i, e) in gallery().iter().enumerate() {
            assert!(e.encoding().is_some(), "{}: unknown encoding", e.input);
            if let Some(set) = &e.set {
                assert!(set.component().is_some(), "{}: {set:?}", e.input);
            }
            let Some(watch) = &e.watch else { continue };
            let mut app = App::new("", "");
            app.open_example(i);
            let trace = app.trace().expect("a lesson with a step has a trace");
            let found = watch.find(trace);
            assert!(
                found.is_some(),
                "{}: no step {} of the {} in its trace",
                e.input,
                watch.step,
                watch.state
            );
            // The step ctrl-t selects is decided by the step the lesson names, so that the
            // lesson line, the status line and the explanation strip name the same step.
            let deciding = found.and_then(|i| trace.view(i).spec()).map(|s| s.number);
            assert_eq!(
                deciding,
                Some(watch.step.as_str()),
                "{}: the {} step the lesson watches is decided by another",
                e.input,
                watch.state
            );
            watched += 1;
        }
        assert!(watched >= 5, "{watched}");
    }

    /// A step that is not in the trace is not found (the test above can fail).
    #[test]
    fn a_wrong_step_is_not_found() {
        let trace = crate::Report::new("https://example.com/", None)
            .trace
            .expect("traced");
        let found = |state: &str, step: &str| {
            Watch {
                state: state.into(),
                step: step.into(),
            }
            .find(&trace)
        };
        assert!(found("path state", "1.2").is_none());
        assert!(found("port state", "2.1").is_none());
        assert!(found("scheme state", "2.7").is_some());
    }
}
