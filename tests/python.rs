//! The Python package's tests (python/tests), run by `cargo test`: pytest in the virtual
//! environment that scripts/setup-python makes (`.venv`, or `$URLSCOPE_VENV`).
//!
//! When the extension installed there was built from other sources than these (the hash
//! `scripts/setup-python --source-hash` prints differs from the one its build recorded), it is
//! rebuilt first by the same script. Without the environment the test says it skipped, unless
//! `URLSCOPE_REQUIRE_PYTHON` is set (as CI sets it): then it fails. The suite runs in two halves
//! at once, each keeping pytest's report in `CARGO_TARGET_TMPDIR` (`.ci/run` prints them).

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

fn venv(root: &Path) -> PathBuf {
    std::env::var_os("URLSCOPE_VENV")
        .map(PathBuf::from)
        .unwrap_or_else(|| root.join(".venv"))
}

fn output_text(out: &std::process::Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

fn setup(root: &Path, venv: &Path, args: &[&str]) -> std::process::Output {
    Command::new("bash")
        .arg(root.join("scripts/setup-python"))
        .args(args)
        .env("URLSCOPE_VENV", venv)
        .current_dir(root)
        .output()
        .expect("bash runs scripts/setup-python")
}

/// kasztp.txt where it is ($URLSCOPE_BENCH_DIR, ../shared/bench).
fn url_list(root: &Path) -> Option<PathBuf> {
    std::env::var_os("URLSCOPE_BENCH_DIR")
        .map(|d| PathBuf::from(d).join("kasztp.txt"))
        .into_iter()
        .chain([root.join("../shared/bench/kasztp.txt")])
        .find(|p| p.is_file())
}

/// The virtual environment's python, with the extension built from these sources (rebuilt
/// first when it was built from others), made once for both halves of the suite; `None` when
/// there is no environment and it is not required (the tests then say they skipped).
fn python() -> Option<&'static PathBuf> {
    static PYTHON: OnceLock<Option<PathBuf>> = OnceLock::new();
    PYTHON
        .get_or_init(|| {
            let root = common::manifest_dir();
            let venv = venv(&root);
            let python = venv.join("bin/python");
            if !python.is_file() {
                let why = format!(
                    "no virtual environment at {} (scripts/setup-python makes it)",
                    venv.display()
                );
                if std::env::var_os("URLSCOPE_REQUIRE_PYTHON").is_some() {
                    panic!("URLSCOPE_REQUIRE_PYTHON is set and there is {why}");
                }
                eprintln!("python: skipped: {why}");
                return None;
            }

            // Rebuild the extension when these sources are not the ones it was built from.
            let hash = setup(&root, &venv, &["--source-hash"]);
            assert!(hash.status.success(), "{}", output_text(&hash));
            let hash = String::from_utf8_lossy(&hash.stdout).trim().to_owned();
            let built =
                std::fs::read_to_string(venv.join("urlscope-extension.hash")).unwrap_or_default();
            if built.split_whitespace().next() != Some(hash.as_str()) {
                eprintln!("python: the extension is out of date; scripts/setup-python rebuilds it");
                let out = Command::new("bash")
                    .arg(root.join("scripts/setup-python"))
                    .env("URLSCOPE_VENV", &venv)
                    .env("CARGO_TARGET_DIR", root.join("target/python"))
                    .current_dir(&root)
                    .output()
                    .expect("bash runs scripts/setup-python");
                assert!(
                    out.status.success(),
                    "scripts/setup-python failed:\n{}",
                    output_text(&out)
                );
            }
            Some(python)
        })
        .as_ref()
}

/// Runs pytest on `selection` (paths and options after `python/tests`' own) and asserts that it
/// passed and ran tests. Its output is kept in `CARGO_TARGET_TMPDIR/{log}`, where `.ci/run`
/// prints it after the test command: cargo test shows a passing test's output only when it fails.
fn pytest(selection: &[&str], log: &str) {
    let Some(python) = python() else {
        return;
    };
    let root = common::manifest_dir();
    let mut pytest = Command::new(python);
    pytest
        .args(["-m", "pytest"])
        .args(selection)
        .args(["-q", "-p", "no:cacheprovider"])
        .current_dir(&root)
        .env("URLSCOPE_BIN", env!("CARGO_BIN_EXE_urlscope"));
    // The older Polars release scripts/setup-python installs beside the venv's.
    let old_polars = venv(&root).join("old-polars");
    if old_polars.is_dir() {
        pytest.env("URLSCOPE_OLD_POLARS", old_polars);
    }
    match url_list(&root) {
        Some(list) => {
            pytest.env("URLSCOPE_URL_LIST", list);
        }
        None => {
            let source = common::discover().expect("web-platform-tests data");
            let data = source
                .locate("urltestdata.json")
                .expect("urltestdata.json in the web-platform-tests data");
            pytest.env("URLSCOPE_URLTESTDATA", data.path);
        }
    }
    let out = pytest
        .output()
        .expect("the virtual environment's python runs");
    let text = output_text(&out);
    let log = Path::new(env!("CARGO_TARGET_TMPDIR")).join(log);
    std::fs::write(&log, &text).unwrap_or_else(|e| panic!("writing {}: {e}", log.display()));
    // pytest exits 5 when it collected no test: that is a failure too.
    assert!(
        out.status.success(),
        "pytest exited {:?}:\n{text}",
        out.status.code()
    );
    let summary = text
        .lines()
        .rev()
        .find(|l| l.contains(" passed"))
        .unwrap_or("");
    assert!(summary.contains(" passed"), "pytest ran no test:\n{text}");
    eprintln!("python: {summary}");
}

// The suite in two halves that run at once (cargo test runs a file's tests on as many threads
// as there are processors): the batch tests, hundreds of thousands of rows through the debug
// build, take half of its time.

#[test]
fn python_batch_tests_pass() {
    pytest(&["python/tests/test_batch.py"], "pytest-batch.log");
}

#[test]
fn python_package_tests_pass() {
    pytest(
        &["python/tests", "--ignore", "python/tests/test_batch.py"],
        "pytest-rest.log",
    );
}
