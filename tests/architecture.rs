//! The layers point one way: the library never reaches the terminal, the URL engine never
//! reaches what is built on it, and in the inspector the model never reaches the views, nor the
//! views the code that changes the model or places them on screen. Read from the sources, so
//! that a `use` in the wrong direction fails here rather than in review.

use std::fs;
use std::path::{Path, PathBuf};

fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).expect("a source directory") {
        let path = entry.expect("an entry").path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The code of `path` without its comments and without its `#[cfg(test)]` tail.
fn code(path: &Path) -> String {
    let text = fs::read_to_string(path).expect("a readable source");
    let text = match text.find("#[cfg(test)]\nmod tests") {
        Some(at) => &text[..at],
        None => &text[..],
    };
    text.lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The files under `src/` whose path starts with one of `roots` (a file or a directory).
fn files(roots: &[&str]) -> Vec<PathBuf> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut all = Vec::new();
    sources(&src, &mut all);
    all.retain(|p| {
        let relative = p.strip_prefix(&src).expect("under src");
        let relative = relative.to_string_lossy();
        roots.iter().any(|r| {
            relative == format!("{r}.rs")
                || relative.starts_with(&format!("{r}/"))
                || relative == *r
        })
    });
    all.retain(|p| {
        let name = p.file_name().map(|n| n.to_string_lossy().into_owned());
        !name.is_some_and(|n| n.starts_with("tests"))
    });
    assert!(!all.is_empty(), "no source under {roots:?}");
    all
}

/// Every file of `roots` that mentions one of `forbidden`, with the mention.
fn offenders(roots: &[&str], forbidden: &[&str]) -> Vec<String> {
    let mut found = Vec::new();
    for path in files(roots) {
        let code = code(&path);
        for word in forbidden {
            if code.contains(word) {
                found.push(format!("{} mentions {word}", path.display()));
            }
        }
    }
    found
}

#[test]
fn the_library_has_no_terminal_code() {
    let found = offenders(
        &[
            "url",
            "trace",
            "validation",
            "inspect",
            "report",
            "urlpattern",
            "display",
            "gallery",
        ],
        &[
            "ratatui",
            "crossterm",
            "arboard",
            "crate::tui",
            "crate::cli",
        ],
    );
    assert!(found.is_empty(), "{found:#?}");
}

#[test]
fn the_url_engine_does_not_use_what_is_built_on_it() {
    let found = offenders(
        &["url"],
        &[
            "crate::urlpattern",
            "crate::inspect",
            "crate::diff",
            "crate::report",
            "url::Url::parse",
            "ada_url",
        ],
    );
    assert!(found.is_empty(), "{found:#?}");
}

#[test]
fn in_the_inspector_the_model_does_not_reach_the_views() {
    // The model, and everything below it.
    let found = offenders(
        &[
            "tui/model.rs",
            "tui/derived",
            "tui/pane.rs",
            "tui/keys.rs",
            "tui/list.rs",
            "tui/rows.rs",
            "tui/editor.rs",
            "tui/history.rs",
            "tui/theme.rs",
            "tui/railroad.rs",
        ],
        &[
            "super::app",
            "super::panes",
            "super::ui",
            "tui::app",
            "tui::ui",
        ],
    );
    assert!(found.is_empty(), "{found:#?}");
}

#[test]
fn the_views_do_not_reach_the_code_that_changes_the_model() {
    let found = offenders(
        &["tui/panes"],
        &[
            "super::app",
            "super::super::app",
            "super::ui",
            "super::super::ui",
        ],
    );
    assert!(found.is_empty(), "{found:#?}");
}
