//! Differential test against the `url` crate and ada (dev-dependencies, oracles only) on the
//! web-platform-tests inputs and on inputs made by splicing hostile pieces (delimiters,
//! controls, confusables, percent signs, digits, IPv6 fragments) into real URLs.
//!
//! Every disagreement must belong to a class listed in `tests/data/disagreements.txt`, where
//! each class says which parser lags the current standard and why (the spec text). A class is
//! recognised by its predicate in [`classify`]; a disagreement of no class fails the test, and
//! so does a listed class whose example no longer disagrees.
//!
//! `URLSCOPE_DIFFERENTIAL_CASES` sets how many generated inputs run (default 200,000).

mod common;

use serde_json::Value;
use std::collections::{BTreeMap, HashMap};

/// What one parser made of an input: the href, or `None` for failure.
type Outcome = Option<String>;

fn ours(input: &str, base: Option<&str>) -> Outcome {
    let base = match base {
        Some(b) => Some(urlscope::Url::parse(b, None).ok()?),
        None => None,
    };
    urlscope::Url::parse(input, base.as_ref())
        .ok()
        .map(|u| u.href().to_owned())
}

fn rust_url(input: &str, base: Option<&str>) -> Outcome {
    let parsed = match base {
        Some(b) => url::Url::parse(b).ok()?.join(input),
        None => url::Url::parse(input),
    };
    parsed.ok().map(String::from)
}

fn ada(input: &str, base: Option<&str>) -> Outcome {
    ada_url::Url::parse(input, base)
        .ok()
        .map(|u| u.href().to_owned())
}

/// A file: URL with runs of "/" after the host made one.
fn collapse_file_slashes(href: &str) -> Option<String> {
    let rest = href.strip_prefix("file://")?;
    let (host, path) = rest.split_at(rest.find('/').unwrap_or(rest.len()));
    let mut out = format!("file://{host}");
    for c in path.chars() {
        if !(c == '/' && out.ends_with('/')) {
            out.push(c);
        }
    }
    Some(out)
}

/// A file: URL with its host removed.
fn without_file_host(href: &str) -> Option<String> {
    let rest = href.strip_prefix("file://")?;
    Some(format!("file://{}", &rest[rest.find('/')?..]))
}

fn has_drive_letter_segment(href: &str) -> bool {
    href.as_bytes()
        .windows(3)
        .any(|w| w[0] == b'/' && w[1].is_ascii_alphabetic() && matches!(w[2], b':' | b'|'))
}

/// The class of a disagreement between urlscope (`ours`) and `parser` on `input` (against
/// `base`), if it is one of the known ones. Each predicate names the input feature the
/// standard and the other parser treat differently (the reasons are in
/// tests/data/disagreements.txt).
fn classify(
    parser: &str,
    input: &str,
    base: Option<&str>,
    ours: &Outcome,
    theirs: &Outcome,
) -> Option<&'static str> {
    if parser != "url" {
        return None;
    }
    // The standard removes ASCII tabs and newlines before anything else.
    let has_xn = input
        .replace(['\t', '\n', '\r'], "")
        .to_ascii_lowercase()
        .contains("xn--");
    let ours_s = ours.as_deref().unwrap_or("");
    let theirs_s = theirs.as_deref().unwrap_or("");
    let special_base = base.is_some_and(|b| {
        ["http:", "https:", "ws:", "wss:", "ftp:", "file:"]
            .iter()
            .any(|s| b.starts_with(s))
    });
    let trimmed = input.trim_start_matches(|c: char| c <= ' ');
    if has_xn && ours.is_some() && theirs.is_none() {
        return Some("url:ascii-domain-failing-toascii");
    }
    if input.contains('^') && ours_s.contains("%5E") && !theirs_s.contains("%5E") {
        return Some("url:caret-in-path");
    }
    if ours_s.contains("%20") && theirs.is_some() && !theirs_s.contains("%20") {
        return Some("url:space-before-query-in-opaque-path");
    }
    if ours.is_some()
        && theirs.is_some()
        && collapse_file_slashes(ours_s).is_some_and(|o| Some(o) == collapse_file_slashes(theirs_s))
    {
        return Some("url:file-empty-segments");
    }
    if theirs_s.starts_with("file:///")
        && has_drive_letter_segment(ours_s)
        && without_file_host(ours_s)
            .is_some_and(|o| collapse_file_slashes(&o) == collapse_file_slashes(theirs_s))
    {
        return Some("url:drive-letter-keeps-file-host");
    }
    if input.contains('|') && theirs.is_some() && theirs_s.replace('|', ":") == ours_s {
        return Some("url:drive-letter-pipe-normalized");
    }
    if input.contains("..")
        && !ours_s.starts_with("file:")
        && has_drive_letter_segment(theirs_s)
        && ours.is_some()
    {
        return Some("url:shorten-drive-letter-outside-file");
    }
    if special_base
        && trimmed
            .chars()
            .take_while(|&c| matches!(c, '/' | '\\' | '\t' | '\n' | '\r'))
            .filter(|&c| matches!(c, '/' | '\\'))
            .count()
            >= 3
        && ours.is_some()
    {
        return Some("url:special-relative-extra-slashes");
    }
    if base.is_some() && !special_base && input.contains('\\') && ours_s.contains('\\') {
        return Some("url:backslash-in-non-special-relative");
    }
    let special_input = ["http:", "https:", "ws:", "wss:", "ftp:", "file:"]
        .iter()
        .any(|s| trimmed.to_ascii_lowercase().starts_with(s));
    if !special_input && ours.is_none() && input.contains('\\') && theirs_s.contains("/\\") {
        return Some("url:backslash-ends-non-special-port");
    }
    if input.contains(['\t', '\n', '\r'])
        && ours.is_some()
        && theirs_s.starts_with("file:")
        && theirs_s.replacen(":/", ":", 2) == ours_s.replacen(":/", ":", 1)
    {
        return Some("url:tab-splits-drive-letter");
    }
    None
}

struct Class {
    parser: String,
    example: String,
    base: Option<String>,
    reason: String,
}

/// tests/data/disagreements.txt: blocks of `class`, `example` and `reason` lines.
fn known_classes() -> BTreeMap<String, Class> {
    let path = common::manifest_dir().join("tests/data/disagreements.txt");
    let text = std::fs::read_to_string(&path).expect("tests/data/disagreements.txt");
    let mut classes = BTreeMap::new();
    let mut current: HashMap<&str, String> = HashMap::new();
    let mut flush = |current: &mut HashMap<&str, String>| {
        if let Some(id) = current.remove("class") {
            let parser = id.split(':').next().unwrap_or("").to_owned();
            classes.insert(
                id,
                Class {
                    parser,
                    example: current.remove("example").expect("an example"),
                    base: current.remove("base"),
                    reason: current.remove("reason").expect("a reason"),
                },
            );
        }
        current.clear();
    };
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        if line.trim().is_empty() {
            flush(&mut current);
            continue;
        }
        let (key, value) = line.split_once(':').expect("key: value");
        let value = value.trim().to_owned();
        match key {
            "class" => {
                current.insert("class", value);
            }
            "example" => {
                current.insert("example", value.replace("\\t", "\t"));
            }
            "base" => {
                current.insert("base", value);
            }
            "reason" => {
                let reason = current.entry("reason").or_default();
                reason.push_str(&value);
            }
            _ => panic!("unknown key {key:?} in disagreements.txt"),
        }
    }
    flush(&mut current);
    classes
}

const PIECES: &[&str] = &[
    "/",
    "\\",
    "?",
    "#",
    "@",
    ":",
    ";",
    "//",
    "/./",
    "/../",
    "..",
    "%2e",
    "%2E%2e",
    "%",
    "%zz",
    "%41",
    "%00",
    "%ff",
    "%c3%a9",
    "\t",
    "\n",
    "\r",
    " ",
    "\u{0}",
    "\u{1b}",
    "\u{7f}",
    "\u{85}",
    "\u{a0}",
    "\u{200b}",
    "\u{200d}",
    "\u{202e}",
    "\u{feff}",
    "\u{ad}",
    "é",
    "ß",
    "ς",
    "ı",
    "а",
    "ο",
    "р",
    "ᴀ",
    "ℌ",
    "Ａ",
    "。",
    "．",
    "0",
    "1",
    "08",
    "0x",
    "0x7f",
    "4294967295",
    "256",
    "255.255",
    "1.2.3.4",
    "[",
    "]",
    "[::1]",
    "[::ffff:1.2.3.4]",
    "[1:2:3:4:5:6:7:8]",
    "[::",
    "::1",
    "[0:0::1%eth0]",
    "xn--",
    "xn--nxa",
    "-",
    "_",
    "|",
    "C|",
    "c:",
    "^",
    "`",
    "{",
    "}",
    "<",
    ">",
    "\"",
    "'",
    "~",
    "+",
    "=",
    "&",
    "$",
    "!",
    "*",
    "(",
    ")",
    ",",
    "💩",
    "\u{fdd0}",
    "\u{fffd}",
];

const BASES: &[Option<&str>] = &[
    None,
    Some("http://example.org/foo/bar?q#f"),
    Some("file:///C:/dir/file"),
    Some("sc://host/path"),
    Some("about:blank"),
];

fn seed_urls() -> Vec<String> {
    let dir = std::env::var_os("URLSCOPE_BENCH_DIR")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| common::manifest_dir().join("../shared/bench"));
    let mut urls = Vec::new();
    for file in ["kasztp.txt", "node_files.txt"] {
        if let Ok(text) = std::fs::read_to_string(dir.join(file)) {
            urls.extend(text.lines().step_by(20).map(str::to_owned));
        }
    }
    if urls.is_empty() {
        urls = [
            "https://www.example.com/a/b.html?q=1#top",
            "http://user:pass@host:8080/p",
            "file:///home/user/x",
            "ftp://1.2.3.4/",
            "ws://[::1]:80/",
            "mailto:someone@example.com",
            "data:text/plain,hi",
        ]
        .map(str::to_owned)
        .to_vec();
    }
    urls
}

#[test]
fn disagreements_with_url_and_ada_are_all_known() {
    let classes = known_classes();
    let mut inputs: Vec<(String, Option<String>)> = Vec::new();
    let source = common::discover().expect("web-platform-tests data");
    let data = common::load(&source.dir, "urltestdata.json")
        .expect("urltestdata.json")
        .expect("valid JSON");
    for case in data.as_array().expect("an array") {
        if let Some(input) = case.get("input").and_then(Value::as_str) {
            let base = case.get("base").and_then(Value::as_str).map(str::to_owned);
            inputs.push((input.to_owned(), base));
        }
    }
    let wpt = inputs.len();
    let cases: usize = std::env::var("URLSCOPE_DIFFERENTIAL_CASES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(200_000);
    let seeds = seed_urls();
    let mut rng = common::Rng(0xD1B5_4A32_D192_ED03);
    for _ in 0..cases {
        let mut input = seeds[rng.below(seeds.len())].clone();
        for _ in 0..1 + rng.below(3) {
            let mut at = rng.below(input.len() + 1);
            while !input.is_char_boundary(at) {
                at -= 1;
            }
            input.insert_str(at, PIECES[rng.below(PIECES.len())]);
        }
        let base = BASES[rng.below(BASES.len())].map(str::to_owned);
        inputs.push((input, base));
    }

    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    let mut unknown = Vec::new();
    for (input, base) in &inputs {
        let base = base.as_deref();
        let ours = ours(input, base);
        for (parser, theirs) in [("url", rust_url(input, base)), ("ada", ada(input, base))] {
            if theirs == ours {
                continue;
            }
            match classify(parser, input, base, &ours, &theirs) {
                Some(class) => *counts.entry(class).or_default() += 1,
                None => {
                    if unknown.len() < 40 {
                        unknown.push(format!(
                            "{parser}: {input:?} (base {base:?})\n  urlscope: {ours:?}\n  {parser}: {theirs:?}"
                        ))
                    }
                    *counts.entry("unclassified").or_default() += 1;
                }
            }
        }
    }
    println!(
        "{} inputs ({wpt} from urltestdata, {cases} generated); disagreements by class: {counts:?}",
        inputs.len()
    );
    assert!(
        unknown.is_empty(),
        "disagreements of no known class:\n{}",
        unknown.join("\n")
    );
    for (id, _) in counts.iter().filter(|(id, _)| **id != "unclassified") {
        assert!(
            classes.contains_key(*id),
            "{id} is not in disagreements.txt"
        );
    }
    // Every listed class still disagrees on its example, and is what the standard says.
    for (id, class) in &classes {
        let base = class.base.as_deref();
        let ours = ours(&class.example, base);
        let theirs = match class.parser.as_str() {
            "url" => rust_url(&class.example, base),
            "ada" => ada(&class.example, base),
            other => panic!("{id}: unknown parser {other:?}"),
        };
        assert_ne!(
            ours, theirs,
            "{id}: {} now agrees on {:?}; remove the class",
            class.parser, class.example
        );
        assert_eq!(
            classify(
                &class.parser,
                &class.example,
                class.base.as_deref(),
                &ours,
                &theirs
            ),
            Some(id.as_str()),
            "{id}: the example is not recognised by its predicate"
        );
        assert!(!class.reason.is_empty());
    }
}
