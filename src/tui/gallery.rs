//! The example gallery (`assets/examples.json`): curated inputs, each with a one-line lesson,
//! stepped through with ctrl-n / ctrl-p.

use serde::Deserialize;
use std::sync::OnceLock;

#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
pub struct Example {
    pub input: String,
    #[serde(default)]
    pub base: Option<String>,
    pub lesson: String,
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

    #[test]
    fn gallery_parses_and_each_lesson_shows_what_it_says() {
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
}
