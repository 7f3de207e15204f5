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

/// Where a lesson is read: the inspector (keys, panes, lines) or the classroom page (tabs,
/// boxes, buttons). A lesson's text names the controls in the words of the surface it is read
/// on: see [`Control`] and [`Example::text`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Surface {
    Terminal,
    Page,
}

/// A control a lesson's text refers the reader to, written `{{name}}` in
/// `assets/examples.json` and read in each surface's own words: one text for both, so that the
/// two never teach apart, and neither names the other's keys.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Control {
    /// Where the writing grammar's verdict is shown.
    Grammar,
    /// The Pattern view, and how the pattern and its ignoreCase are changed there.
    PatternControls,
    /// How ignoreCase is turned off.
    IgnoreCaseOff,
    /// Where the base URL is typed.
    BaseField,
}

impl Control {
    pub const ALL: [Control; 4] = [
        Control::Grammar,
        Control::PatternControls,
        Control::IgnoreCaseOff,
        Control::BaseField,
    ];

    /// Its name between `{{` and `}}` in a lesson's text.
    pub const fn name(self) -> &'static str {
        match self {
            Control::Grammar => "grammar",
            Control::PatternControls => "pattern-controls",
            Control::IgnoreCaseOff => "ignore-case-off",
            Control::BaseField => "base",
        }
    }

    /// The words for it on `surface`: the inspector's pane and key, the page's tab, box or
    /// checkbox.
    pub const fn words(self, surface: Surface) -> &'static str {
        match (self, surface) {
            (Control::Grammar, Surface::Terminal) => "Grammar pane, 8",
            (Control::Grammar, Surface::Page) => "the Grammar tab",
            (Control::PatternControls, Surface::Terminal) => {
                "0 is the Pattern view; Enter edits the pattern, i toggles ignoreCase"
            }
            (Control::PatternControls, Surface::Page) => {
                "the Pattern tab; edit the pattern in its Pattern box, and toggle ignoreCase with \
                 its ignoreCase checkbox"
            }
            (Control::IgnoreCaseOff, Surface::Terminal) => "i turns ignoreCase off",
            (Control::IgnoreCaseOff, Surface::Page) => {
                "clearing the ignoreCase checkbox turns it off"
            }
            (Control::BaseField, Surface::Terminal) => "the Base line",
            (Control::BaseField, Surface::Page) => "the Base box",
        }
    }

    fn named(name: &str) -> Option<Control> {
        Control::ALL.into_iter().find(|c| c.name() == name)
    }
}

#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct Example {
    pub input: String,
    #[serde(default)]
    pub base: Option<String>,
    /// The lesson as written, with `{{control}}` where it names a control ([`Control`]): read
    /// it through [`Example::text`].
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
    /// The lesson's text as read on `surface`: each `{{control}}` in the surface's words. A
    /// name that is not a [`Control`] stays as written (a test keeps the file free of them).
    pub fn text(&self, surface: Surface) -> String {
        let mut out = String::with_capacity(self.lesson.len());
        let mut rest = self.lesson.as_str();
        while let Some(open) = rest.find("{{") {
            let Some(len) = rest[open + 2..].find("}}") else {
                break;
            };
            let name = &rest[open + 2..open + 2 + len];
            out.push_str(&rest[..open]);
            match Control::named(name) {
                Some(control) => out.push_str(control.words(surface)),
                None => out.push_str(&rest[open..open + len + 4]),
            }
            rest = &rest[open + len + 4..];
        }
        out.push_str(rest);
        out
    }

    /// The query encoding the example parses with.
    pub fn encoding(&self) -> Option<&'static encoding_rs::Encoding> {
        match &self.encoding {
            None => Some(encoding_rs::UTF_8),
            Some(label) => encoding_rs::Encoding::for_label(label.as_bytes()),
        }
    }
}

/// A lesson's setter, run on the URL its input parses to, as the inspector runs it: its trace
/// is the lesson.
#[derive(Clone, Debug)]
pub struct SetterRun {
    pub component: Component,
    pub value: String,
    /// The href before and after.
    pub before: String,
    pub after: String,
    /// The setter returned failure.
    pub failed: bool,
    pub trace: Trace,
}

impl Example {
    /// The lesson's report: its input against its base, parsed with its encoding (UTF-8 when
    /// the label is unknown).
    pub fn report(&self) -> crate::Report {
        crate::Report::with_encoding(
            &self.input,
            self.base.as_deref(),
            self.encoding().unwrap_or(encoding_rs::UTF_8),
        )
    }

    /// Runs the lesson's setter on the URL `report` parsed to, recording its trace; `None`
    /// without a setter, or when the input does not parse.
    pub fn run_setter(&self, report: &crate::Report) -> Option<SetterRun> {
        let set = self.set.as_ref()?;
        let component = set.component()?;
        let url = report.url.as_ref()?;
        let before = url.href().to_owned();
        let mut edited = url.clone();
        let mut recorder = crate::trace::Recorder::new();
        let initial = edited.record().clone();
        let failed = edited.set(component, &set.value, &mut recorder).is_err();
        let after = edited.href().to_owned();
        let trace = recorder.finish(&set.value, initial);
        Some(SetterRun {
            component,
            value: set.value.clone(),
            before,
            after,
            failed,
            trace,
        })
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

    /// Words that name one surface's controls: a lesson read on the other must not hold them
    /// (the page has no keys and panes, the inspector no tabs and boxes).
    const TERMINAL_ONLY: [&str; 6] = [" pane", "ctrl-", "Enter ", " i ", "Base line", ", 8)"];
    const PAGE_ONLY: [&str; 4] = [" tab", " box", "checkbox", "click"];

    /// Each lesson reads right where it is read: the page's text names tabs and boxes, the
    /// inspector's its panes and keys, and no `{{control}}` is left unread on either.
    #[test]
    fn each_lesson_names_the_controls_of_the_surface_it_is_read_on() {
        for (i, e) in gallery().iter().enumerate() {
            for (surface, foreign) in [
                (Surface::Page, &TERMINAL_ONLY[..]),
                (Surface::Terminal, &PAGE_ONLY[..]),
            ] {
                let text = e.text(surface);
                assert!(!text.contains("{{"), "lesson {}: {text}", i + 1);
                for word in foreign {
                    assert!(
                        !text.contains(word),
                        "lesson {} on the {surface:?} names {word:?}: {text}",
                        i + 1
                    );
                }
            }
        }
        // Every control is named by a lesson, in its own words on each surface.
        for control in Control::ALL {
            let placeholder = format!("{{{{{}}}}}", control.name());
            let e = gallery()
                .iter()
                .find(|e| e.lesson.contains(&placeholder))
                .unwrap_or_else(|| panic!("no lesson names {control:?}"));
            assert!(e.text(Surface::Page).contains(control.words(Surface::Page)));
            assert!(e
                .text(Surface::Terminal)
                .contains(control.words(Surface::Terminal)));
        }
        let grammar = gallery()
            .iter()
            .find(|e| e.input == "https://ex%61mple.com/")
            .expect("the domain-percent-encoded lesson");
        assert!(grammar
            .text(Surface::Terminal)
            .ends_with("(Grammar pane, 8)"));
        assert!(grammar.text(Surface::Page).ends_with("(the Grammar tab)"));
    }

    /// A name between `{{` and `}}` that is no control stays as written (and the test above
    /// would then fail); a lone `{` of a URL pattern (`{/bar}?`) is text.
    #[test]
    fn only_a_controls_name_is_replaced() {
        let mut e = gallery()[0].clone();
        e.lesson = "{/bar}? then {{nothing}}, {{base}} and {{grammar".to_owned();
        assert_eq!(
            e.text(Surface::Page),
            "{/bar}? then {{nothing}}, the Base box and {{grammar"
        );
    }

    /// Every lesson's step is in the trace the lesson shows, opened as the library opens it
    /// (the classroom page's way): the setter's trace for a setter lesson, else the input's;
    /// there it does what the lesson says.
    #[test]
    fn every_lesson_opened_by_the_library_shows_its_step() {
        let mut watched = 0;
        for e in gallery() {
            let Some(watch) = &e.watch else { continue };
            let report = e.report();
            let run = e.run_setter(&report);
            assert_eq!(run.is_some(), e.set.is_some(), "{}", e.input);
            let trace = match &run {
                Some(run) => &run.trace,
                None => report.trace.as_ref().expect("traced"),
            };
            assert_eq!(watch.done(trace).as_ref(), Some(&watch.does), "{}", e.input);
            watched += 1;
        }
        assert!(watched >= 30, "{watched}");
        // The port setter keeps the digits it read.
        let port = gallery()
            .iter()
            .find(|e| e.set.as_ref().is_some_and(|s| s.component == "port"))
            .expect("a port setter lesson");
        let run = port.run_setter(&port.report()).expect("a run");
        assert_eq!(run.after, "https://example.com:8080/");
        assert!(!run.failed);
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
