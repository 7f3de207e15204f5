//! The Grammar view's words and diagrams: what the writing grammar (the standard's second
//! definition of validity) and the parser's validation errors say together, and which railroad
//! diagrams show the input's path. The inspector's Grammar pane and the classroom page's
//! Grammar view both read them from here, and the diagrams with the input's path marked
//! ([`railroad`]).

pub mod railroad;

use crate::report::{Outcome, Report};
use crate::url::writing::{diagram, Rail, Writing};
use crate::validation::ValidationErrorKind;

/// What the two definitions of validity say about the report's input, in a sentence.
pub fn agreement(report: &Report) -> String {
    let writing = &report.writing;
    let parsed = report.url.is_some();
    let kinds: Vec<&str> = report.errors.iter().map(|e| e.kind.name()).collect();
    let needs_base = matches!(&report.outcome, Outcome::Failure { cause: Some(c) }
        if c.kind == ValidationErrorKind::MissingSchemeNonRelativeUrl);
    let parser = if parsed {
        format!("raises {}", kinds.join(", "))
    } else {
        "fails".to_owned()
    };
    match (parsed && kinds.is_empty(), writing.valid) {
        (true, true) => {
            "Both agree: a valid URL string, and the parser raises no validation error.".to_owned()
        }
        (false, false) if needs_base => {
            "Both agree it is not valid: a relative-URL string needs a base URL, to parse and to be a valid URL string."
                .to_owned()
        }
        (false, false) if matches!(report.outcome, Outcome::BaseFailure { .. }) => {
            "Both agree it is not valid: the base URL fails to parse, so the input is read without one."
                .to_owned()
        }
        (false, false) => format!(
            "Both agree it is not valid: the parser {parser}; the grammar stops at {}.",
            writing.position.unwrap_or(0)
        ),
        (false, true) => {
            format!("They disagree: a valid URL string by the grammar, yet the parser {parser}.")
        }
        (true, false) => format!(
            "They disagree: the parser raises no validation error, but this is not a valid URL string ({}).",
            writing.expected.as_deref().unwrap_or("")
        ),
    }
}

/// The diagrams that show the input's path, each with the production it draws: the production
/// the input took at the top, then the branch within it. "absolute-URL string" draws as its
/// "-with-fragment" parent (a diagram is not drawn twice); three levels at most.
pub fn diagrams(writing: &Writing) -> Vec<(&'static str, Rail)> {
    let mut drawn: Vec<(&'static str, Rail)> = Vec::new();
    for &name in writing.production_path.iter().skip(1) {
        let Some(rail) = diagram(name) else { continue };
        if drawn.iter().any(|(_, r)| *r == rail) || drawn.len() == 3 {
            continue;
        }
        drawn.push((name, rail));
    }
    drawn
}
