//! The example gallery (`assets/examples.json`): curated inputs, each with a one-line lesson,
//! stepped through with ctrl-n / ctrl-p in the inspector and listed in the classroom page's
//! Lessons view (both read it from here, so they teach alike). A lesson may name the step of the trace to watch
//! (ctrl-t selects it), run a setter on the parsed URL, and parse with another query encoding.

use serde::Deserialize;
use std::sync::OnceLock;

use crate::trace::Trace;
use crate::url::explain::split_citation;
use crate::url::Component;

/// A step of the trace: the state (or phase) it runs in, by the standard's name, the number
/// of the standard's step it cites there, and what that step of the standard does in the
/// trace (a test holds each lesson to it).
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct Watch {
    pub state: String,
    pub step: String,
    /// What the step of the standard did, in the trace's compact form, in order:
    /// `buffer=C:`, `host=127.0.0.1`, `⚠ port-out-of-range`; empty when it returns at once.
    pub does: Vec<String>,
}

impl Watch {
    /// The first step of `trace` that runs in the state and cites the step.
    pub fn find(&self, trace: &Trace) -> Option<usize> {
        (0..trace.len()).find(|&i| {
            let view = trace.view(i);
            view.phase.name() == self.state && view.explained().any(|s| s.number == self.step)
        })
    }

    /// What the step of the standard did at the trace's step [`Watch::find`] finds: the edits,
    /// pointer moves, state changes and validation errors made while it was the step cited
    /// last. A step of the trace cites several (path state 1, 1.4.1, 1.4.2), and each does its
    /// own part.
    pub fn done(&self, trace: &Trace) -> Option<Vec<String>> {
        let index = self.find(trace)?;
        Some(
            trace
                .cited_effects(index)
                .into_iter()
                .filter(|(cited, _)| cited.map(|c| split_citation(c).0) == Some(&self.step))
                .map(|(_, effect)| effect.to_string())
                .collect(),
        )
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
    /// A URL pattern the lesson matches the input against, in the Pattern view.
    #[serde(default)]
    pub pattern: Option<String>,
    /// The pattern's ignoreCase option.
    #[serde(default)]
    pub ignore_case: bool,
    /// With a pattern: whether the input matches it, as the lesson says (a test holds the
    /// lesson to it).
    #[serde(default)]
    pub matches: Option<bool>,
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
        serde_json::from_str(include_str!("../assets/examples.json")).unwrap_or_default()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gallery_parses_and_each_lesson_shows_what_it_says() {
        let parsed: Result<Vec<Example>, _> =
            serde_json::from_str(include_str!("../assets/examples.json"));
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

    /// The Windows drive letter lesson once named path state 1.4.2: the trace step that
    /// normalizes "C|" cites it too, but 1.4.2 appends the segment; 1.4.1 normalizes.
    #[test]
    fn a_lesson_naming_the_next_step_of_the_same_trace_step_fails() {
        let trace = crate::Report::new("file:///C|/Windows/system32", None)
            .trace
            .expect("traced");
        let watch = |step: &str| Watch {
            state: "path state".into(),
            step: step.into(),
            does: vec!["buffer=C:".into()],
        };
        let (wrong, right) = (watch("1.4.2"), watch("1.4.1"));
        assert_eq!(wrong.find(&trace), right.find(&trace));
        assert_eq!(
            wrong.done(&trace),
            Some(vec!["path+=[C:]".to_owned(), "buffer=".to_owned()])
        );
        assert_eq!(right.done(&trace).as_ref(), Some(&right.does));
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
                does: Vec::new(),
            }
            .find(&trace)
        };
        assert!(found("path state", "1.2").is_none());
        assert!(found("port state", "2.1").is_none());
        assert!(found("scheme state", "2.7").is_some());
    }
}
