//! scripts/release stops before building, with a message and exit status 1, on what it cannot
//! use: an OUT folder that holds something else, a missing tool, a classroom page it could not
//! build. (A release itself takes many minutes and is not run here: docs/install.md says how it
//! was run and what it checked.) The script is bash on Linux: on Windows each test is ignored
//! with that reason, which the test run lists.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("urlscope-release-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a scratch folder");
    dir
}

fn release(args: &[&Path], path: Option<&Path>) -> Output {
    let mut cmd = Command::new("bash");
    cmd.arg(common::manifest_dir().join("scripts/release"))
        .args(args)
        .current_dir(std::env::temp_dir());
    if let Some(path) = path {
        cmd.env("PATH", path);
    }
    cmd.output().expect("bash runs scripts/release")
}

#[test]
#[cfg_attr(windows, ignore = "scripts/release is a bash script for Linux")]
fn a_folder_with_other_files_is_not_emptied() {
    let out = scratch("out");
    std::fs::write(out.join("notes.txt"), "mine").expect("a file");
    let run = release(&[&out], None);
    assert_eq!(run.status.code(), Some(1), "{run:?}");
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert_eq!(
        stderr,
        format!(
            "release: {} is not an empty folder nor an earlier release: name a new or \
             empty folder\n",
            out.display()
        )
    );
    assert!(out.join("notes.txt").is_file(), "the file was removed");
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
#[cfg_attr(windows, ignore = "scripts/release is a bash script for Linux")]
fn a_missing_tool_is_named() {
    // A PATH with bash, the tools the script starts with and python3, but no cargo.
    let bin = scratch("bin");
    for tool in ["bash", "dirname", "ls", "sed", "python3"] {
        let found = Command::new("bash")
            .args(["-c", &format!("command -v {tool}")])
            .output()
            .expect("bash");
        let found = String::from_utf8_lossy(&found.stdout).trim().to_owned();
        assert!(!found.is_empty(), "{tool} is not on PATH");
        #[cfg(unix)]
        std::os::unix::fs::symlink(&found, bin.join(tool)).expect("a link");
        #[cfg(not(unix))]
        std::fs::copy(&found, bin.join(tool)).expect("a copy");
    }
    let out = bin.join("out");
    let run = release(&[&out], Some(&bin));
    assert_eq!(run.status.code(), Some(1), "{run:?}");
    assert_eq!(
        String::from_utf8_lossy(&run.stderr),
        "release: cargo is not installed (it is needed to build a release)\n"
    );
    assert!(!out.exists(), "nothing is made before the tools are found");
    let _ = std::fs::remove_dir_all(&bin);
}

#[test]
#[cfg_attr(windows, ignore = "scripts/release is a bash script for Linux")]
fn a_page_that_cannot_be_built_stops_it_before_the_long_builds() {
    // The x86_64 target is checked first: without it the script stops on that, as it should.
    let targets = Command::new("rustup")
        .args(["target", "list", "--installed"])
        .output();
    let Ok(targets) = targets else {
        eprintln!("release: skipped: no rustup here (the script stops on that first)");
        return;
    };
    if !String::from_utf8_lossy(&targets.stdout)
        .lines()
        .any(|t| t == "x86_64-unknown-linux-gnu")
    {
        eprintln!("release: skipped: rustup has no x86_64-unknown-linux-gnu target");
        return;
    }
    // wasm-bindgen is looked for in the target directory's tools/ (where scripts/setup puts it)
    // and on PATH: with one on PATH the page could be built, which is not this test's case.
    let on_path = Command::new("bash")
        .args(["-c", "command -v wasm-bindgen"])
        .output()
        .expect("bash");
    if on_path.status.success() {
        eprintln!("release: skipped: a wasm-bindgen is on PATH");
        return;
    }
    // A target directory without target/tools, where scripts/setup puts wasm-bindgen.
    let target = scratch("nobindgen-target");
    let out = target.join("out");
    let run = Command::new("bash")
        .arg(common::manifest_dir().join("scripts/release"))
        .arg(&out)
        .current_dir(std::env::temp_dir())
        .env("CARGO_TARGET_DIR", &target)
        .output()
        .expect("bash runs scripts/release");
    assert_eq!(run.status.code(), Some(1), "{run:?}");
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(
        stderr.contains("build-web: wasm-bindgen ") && stderr.contains("is not installed"),
        "{stderr}"
    );
    assert!(
        stderr.ends_with(
            "release: the classroom page cannot be built here (scripts/build-web --check says \
             why above; scripts/setup installs what it needs)\n"
        ),
        "{stderr}"
    );
    assert!(
        !out.exists(),
        "nothing is made before the page is known to build"
    );
    let _ = std::fs::remove_dir_all(&target);
}
