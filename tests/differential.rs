//! Differential test against the `url` crate (a dev-dependency, used only as an oracle) on real
//! URL lists: 48k web URLs (kasztp.txt) and 43k file: URLs (node_files.txt).
//!
//! On these corpora the two parsers agree on every input: the points where the `url` crate lags
//! the current standard do not occur in them. Those points are:
//! - ASCII domains that fail Unicode ToASCII (e.g. `xn--a`, invalid Punycode): the current
//!   domain parser lowercases an ASCII domain whatever ToASCII says (URL Standard: domain
//!   parser, step 5); the `url` crate fails.
//! - Spaces in opaque paths before "?" or "#" are now kept as "%20" (URL Standard: opaque path
//!   state, step 3); the `url` crate strips trailing spaces when the query or fragment is removed.
//! - U+005E (^) is in the path percent-encode set (URL Standard: path percent-encode set); the
//!   `url` crate leaves it raw in paths.
//! - A file: URL whose path starts with an empty segment (`file:////x`, `file:///\\x`) keeps it:
//!   the path state appends the empty buffer as a segment, so the serialization has four slashes;
//!   the `url` crate drops it.
//! - IDNA data of another Unicode version.
//!
//! Any disagreement on the corpora fails the test and is listed with both results, so a new
//! class gets looked at, explained here, and either fixed or recorded.

use std::path::PathBuf;

fn bench_dir() -> PathBuf {
    match std::env::var_os("URLSCOPE_BENCH_DIR") {
        Some(dir) => PathBuf::from(dir),
        None => PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/bench")),
    }
}

fn compare(file: &str) {
    let path = bench_dir().join(file);
    let text = match std::fs::read_to_string(&path) {
        Ok(text) => text,
        // A clone with nothing beside it has no corpora; one that names them must have them.
        Err(e) if std::env::var_os("URLSCOPE_BENCH_DIR").is_none() && !path.exists() => {
            eprintln!(
                "differential: {} is not here ({e}); skipped",
                path.display()
            );
            return;
        }
        Err(e) => panic!("cannot read {}: {e}", path.display()),
    };
    let mut total = 0;
    let mut parsed = 0;
    let mut disagreements = Vec::new();
    for line in text.lines() {
        total += 1;
        let ours = urlscope::Url::parse(line, None)
            .map(|u| u.href().to_owned())
            .ok();
        let theirs = url::Url::parse(line).map(String::from).ok();
        parsed += usize::from(ours.is_some());
        if ours != theirs {
            disagreements.push(format!(
                "{line:?}\n  urlscope: {ours:?}\n  url:      {theirs:?}"
            ));
        }
    }
    eprintln!(
        "differential {file}: {total} inputs, {parsed} parsed, {} agree with the url crate",
        total - disagreements.len()
    );
    assert!(total > 40_000, "{file} has only {total} lines");
    assert!(
        disagreements.is_empty(),
        "{} disagreements with the url crate in {file}:\n{}",
        disagreements.len(),
        disagreements.join("\n")
    );
}

#[test]
fn agrees_with_the_url_crate_on_web_urls() {
    compare("kasztp.txt");
}

#[test]
fn agrees_with_the_url_crate_on_file_urls() {
    compare("node_files.txt");
}

/// The classes listed above, checked: on each, urlscope follows the current standard and the
/// `url` crate does not. (If the `url` crate catches up, this test says so.)
#[test]
fn known_lags_of_the_url_crate() {
    let cases: &[(&str, Option<&str>)] = &[
        ("https://xn--a/", Some("https://xn--a/")),
        ("https://xn--a.xn--zca/", Some("https://xn--a.xn--zca/")),
        ("sc:a ?b", Some("sc:a%20?b")),
        ("https://h/a^b", Some("https://h/a%5Eb")),
        ("file:////x", Some("file:////x")),
    ];
    for &(input, expected) in cases {
        let ours = urlscope::Url::parse(input, None)
            .map(|u| u.href().to_owned())
            .ok();
        let theirs = url::Url::parse(input).map(String::from).ok();
        assert_eq!(ours.as_deref(), expected, "urlscope on {input:?}");
        assert_ne!(
            theirs, ours,
            "the url crate now agrees on {input:?}: update the list above"
        );
    }
}
