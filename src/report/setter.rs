//! What a URL API setter did with its value, in the words every front end gives: the URL
//! Standard's setters fail silently (whatwg/url#623), so a setter that leaves the URL as it was
//! is reported with the step of the standard that decided. The command line's `--set` and the
//! Python package's setters both ask [`set`].

use std::fmt;

use crate::trace::{NoTrace, Recorder};
use crate::url::api::{Component, Url};
use crate::url::explain::{Setter, SetterStep};

/// The longest setter value [`set`] traces again to say why it changed nothing.
pub const WHY_TRACE_LIMIT: usize = 1 << 16;

/// A setter that left the URL as it was, and the step of the standard that decided.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unchanged {
    pub component: Component,
    /// The value, shown by its start when it is long: the message is one line to read.
    pub shown: String,
    /// The step that decided, with its explanation and link.
    pub why: String,
}

impl fmt::Display for Unchanged {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "the {} setter with {} changed nothing: {}",
            self.component, self.shown, self.why
        )
    }
}

/// Runs the setter of `component` with `value` on `url` (not the href setter's failure: that one
/// is an error, see [`Url::set_href`]). `Some` when the URL is as it was: the same href is the
/// same URL, so `url` is then also the URL the setter was given.
pub fn set(url: &mut Url, component: Component, value: &str) -> Option<Unchanged> {
    let before = url.href().to_owned();
    let _ = url.set(component, value, &mut NoTrace);
    if url.href() != before {
        return None;
    }
    let shown = match value.char_indices().nth(64) {
        Some((end, _)) => format!("{:?}… ({} bytes)", &value[..end], value.len()),
        None => format!("{value:?}"),
    };
    Some(Unchanged {
        component,
        shown,
        why: why_unchanged(url, component, value),
    })
}

/// The step of the standard that decided what a setter did to `url`: one of the setter's own
/// steps when it does not run the basic URL parser, else the last step the parser took (run
/// again here with a recorder, only for a setter that changed nothing).
fn why_unchanged(url: &Url, component: Component, value: &str) -> String {
    let own_step =
        Setter::of(component).and_then(|setter| SetterStep::deciding(setter, value, url.record()));
    if let Some(step) = own_step {
        return format!(
            "{} step {}: {} <{}>",
            step.setter.name(),
            step.number,
            step.explanation,
            step.setter.url()
        );
    }
    // The trace takes some bytes per byte of the value: a value too long to read in a message
    // is not traced again.
    if value.len() > WHY_TRACE_LIMIT {
        return format!(
            "the basic URL parser decided (a value of {} bytes is not traced again)",
            value.len()
        );
    }
    let mut recorder = Recorder::new();
    let _ = url.clone().set(component, value, &mut recorder);
    let trace = recorder.finish(value, url.record().clone());
    let spec = (!trace.is_empty())
        .then(|| trace.view(trace.len() - 1).spec())
        .flatten();
    match spec {
        Some(spec) => format!(
            "{} step {}: {} <{}>",
            spec.section_name(),
            spec.number,
            spec.explanation.unwrap_or(spec.words),
            spec.url()
        ),
        None => "its value leaves the URL as it was".to_owned(),
    }
}
