//! The gallery's lessons (src/gallery.rs) as the inspector opens them: each shows the step and
//! the match its lesson names.

use super::app::App;
use crate::gallery::gallery;

/// Every step a lesson names occurs in the trace the lesson shows (the setter's, when it
/// runs one) and does there what the lesson says it does; every setter and encoding is one
/// the inspector can run.
#[test]
fn every_lesson_step_does_what_the_lesson_says() {
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
        assert!(
            watch.find(trace).is_some(),
            "{}: no step {} of the {} in its trace",
            e.input,
            watch.step,
            watch.state
        );
        assert_eq!(
            watch.done(trace).as_ref(),
            Some(&watch.does),
            "{}: the {}, step {}, does something else",
            e.input,
            watch.state,
            watch.step
        );
        watched += 1;
    }
    assert!(watched >= 30, "{watched}");
}

/// Every pattern lesson opens on the Pattern view and matches (or not) as its lesson says;
/// the lessons cover optional groups, wildcards, named groups with a regular expression,
/// ignoreCase and a base URL, and ignoreCase is what decides the ignoreCase lesson.
#[test]
fn every_pattern_lesson_matches_as_the_lesson_says() {
    use crate::tui::pane::Pane;
    let mut seen = Vec::new();
    for (i, e) in gallery().iter().enumerate() {
        let Some(pattern) = &e.pattern else {
            assert!(e.matches.is_none() && !e.ignore_case, "{}", e.input);
            continue;
        };
        let mut app = App::new("", "");
        app.open_example(i);
        assert_eq!(app.view, Pane::Pattern, "{pattern}");
        let report = app.pattern.report.as_ref().expect("a pattern report");
        assert!(report.compiled.is_ok(), "{pattern}: {:?}", report.compiled);
        let test = report.input.as_ref().and_then(|r| r.outcome.test());
        assert_eq!(test, e.matches, "{pattern} against {}", e.input);
        if e.ignore_case {
            app.apply(crate::tui::action::Action::ToggleIgnoreCase);
            let report = app.pattern.report.as_ref().expect("a pattern report");
            let test = report.input.as_ref().and_then(|r| r.outcome.test());
            assert_eq!(test, e.matches.map(|m| !m), "{pattern} without ignoreCase");
        }
        seen.push(pattern.clone());
    }
    for feature in ["{/", "*", "(\\d+)", "/books/:id"] {
        assert!(
            seen.iter().any(|p| p.contains(feature)),
            "no lesson has {feature}"
        );
    }
    assert!(gallery().iter().any(|e| e.ignore_case));
    assert!(gallery()
        .iter()
        .any(|e| e.pattern.is_some() && e.base.is_some()));
}
