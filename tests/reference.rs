//! Against the reference implementation of the URL Standard, whatwg-url (npm), run by Node: for
//! every input the href (or failure), the validation errors by name in the order raised, and
//! whether the input is a valid URL string against its base.
//!
//! `URLSCOPE_REFERENCE_CASES` sets how many generated inputs join the fixed ones (3,000).
//! whatwg-url is installed once with npm into Cargo's test scratch directory. Without node or
//! npm the test says so and passes, unless `URLSCOPE_REQUIRE_REFERENCE` is set (CI sets it).

mod common;

use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use urlscope::Report;

/// The version the standard's text of July 2026 and its later changes are read through.
const WHATWG_URL: &str = "whatwg-url@17.3.0";

fn unavailable(why: String) {
    assert!(
        std::env::var_os("URLSCOPE_REQUIRE_REFERENCE").is_none(),
        "the reference implementation is required here: {why}"
    );
    eprintln!("reference: skipped ({why})");
}

/// The directory whose node_modules holds whatwg-url, installing it when it is not there.
fn install() -> Result<PathBuf, String> {
    let prefix = Path::new(env!("CARGO_TARGET_TMPDIR")).join("reference");
    if prefix
        .join("node_modules/whatwg-url/package.json")
        .is_file()
    {
        return Ok(prefix);
    }
    std::fs::create_dir_all(&prefix).map_err(|e| e.to_string())?;
    let status = Command::new("npm")
        .args(["install", "--silent", "--no-audit", "--no-fund", "--prefix"])
        .arg(&prefix)
        .arg(WHATWG_URL)
        .stdout(Stdio::null())
        .status()
        .map_err(|e| format!("cannot run npm: {e}"))?;
    if !status.success() {
        return Err(format!("npm install {WHATWG_URL} failed: {status}"));
    }
    Ok(prefix)
}

/// Inputs that reach the code paths where implementations part: the web-platform-tests inputs
/// with their bases, the peer suites' and a sample of real URLs when ../shared has them, and
/// generated splices of the delimiters, code points and notations parsers disagree on.
fn inputs() -> Vec<(String, Option<String>)> {
    let mut cases = Vec::new();
    let source = common::discover().expect("web-platform-tests data");
    let data = common::load(&source.dir, "urltestdata.json")
        .expect("urltestdata.json")
        .expect("valid JSON");
    for case in data.as_array().expect("an array") {
        if let Some(input) = case["input"].as_str() {
            cases.push((input.to_owned(), case["base"].as_str().map(str::to_owned)));
        }
    }
    let shared = common::manifest_dir().join("../shared");
    if let Ok(text) = std::fs::read_to_string(shared.join("conformance/peer_suites.jsonl")) {
        for line in text.lines() {
            let case: Value = serde_json::from_str(&common::replace_lone_surrogate_escapes(line))
                .expect("a JSON line");
            if let Some(input) = case["input"].as_str() {
                cases.push((input.to_owned(), case["base"].as_str().map(str::to_owned)));
            }
        }
    }
    if let Ok(text) = std::fs::read_to_string(shared.join("bench/kasztp.txt")) {
        cases.extend(text.lines().step_by(10).map(|l| (l.to_owned(), None)));
    }
    const PIECES: &[&str] = &[
        "http://",
        "https://",
        "file:",
        "sc:",
        "sc://",
        "//",
        "/",
        "\\",
        "@",
        ":",
        "?",
        "#",
        "%",
        "%2e",
        "%41",
        "%zz",
        ".",
        "..",
        "[",
        "]",
        "[::1]",
        "::",
        "0x7f",
        "1",
        "256",
        "4294967296",
        "０",
        "。",
        "①",
        "ß",
        "xn--",
        "xn--a",
        "例",
        "\u{200B}",
        "\u{AD}",
        " ",
        "\t",
        "\u{1}",
        "^",
        "|",
        "`",
        "{",
        "a",
        "C:",
        "c|",
        "example.com",
        "user:pw@",
    ];
    let generated: usize = std::env::var("URLSCOPE_REFERENCE_CASES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(3000);
    let mut rng = common::Rng(0xA076_1D64_78BD_642F);
    for _ in 0..generated {
        let n = 1 + rng.below(8);
        let input: String = (0..n).map(|_| PIECES[rng.below(PIECES.len())]).collect();
        let base = match rng.below(4) {
            0 => Some("https://example.org/a/b?q#f".to_owned()),
            1 => Some("file:///C:/dir/file".to_owned()),
            _ => None,
        };
        cases.push((input, base));
    }
    cases
}

#[test]
fn agrees_with_the_reference_implementation() {
    let prefix = match install() {
        Ok(prefix) => prefix,
        Err(why) => return unavailable(why),
    };
    let script = common::manifest_dir().join("tests/reference/whatwg-url.js");
    let mut node = match Command::new("node")
        .arg(&script)
        .env("NODE_PATH", prefix.join("node_modules"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
    {
        Ok(child) => child,
        Err(e) => return unavailable(format!("cannot run node: {e}")),
    };
    let cases = inputs();
    // Write every request from a thread while reading the answers, so neither pipe fills up.
    let mut stdin = node.stdin.take().expect("piped stdin");
    let requests: Vec<String> = cases
        .iter()
        .map(|(input, base)| json!({"input": input, "base": base}).to_string())
        .collect();
    let writer = std::thread::spawn(move || {
        for request in requests {
            writeln!(stdin, "{request}").expect("node reads its input");
        }
    });
    let mut answers = BufReader::new(node.stdout.take().expect("piped stdout")).lines();
    let header: Value =
        serde_json::from_str(&answers.next().expect("a version line").expect("UTF-8"))
            .expect("JSON");

    let mut mismatches = Vec::new();
    let mut compared = 0;
    for (input, base) in &cases {
        let answer: Value =
            serde_json::from_str(&answers.next().expect("an answer per input").expect("UTF-8"))
                .expect("JSON");
        if answer["baseFailure"] == Value::Bool(true) {
            continue;
        }
        compared += 1;
        let report = Report::new(input, base.as_deref());
        let href = report.url.as_ref().map(|u| u.href().to_owned());
        let errors: Vec<&str> = report.errors.iter().map(|e| e.kind.name()).collect();
        let ours = json!({"href": href, "errors": errors, "writingValid": report.writing.valid});
        if ours != answer {
            mismatches.push(format!(
                "input {input:?} base {base:?}\n  reference {answer}\n  urlscope  {ours}"
            ));
        }
    }
    writer.join().expect("the writer thread");
    drop(answers);
    let _ = node.wait();
    eprintln!(
        "reference: whatwg-url {} on {compared} inputs, {} differ",
        header["version"],
        mismatches.len()
    );
    assert!(
        mismatches.is_empty(),
        "{} of {compared} inputs differ from the reference:\n{}",
        mismatches.len(),
        mismatches
            .iter()
            .take(40)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}
