//! One version: the workspace's `[workspace.package] version` is the crate's, the Python
//! extension's (python/tests/test_url.py holds the wheel's) and what `urlscope --version`
//! prints, with the commit and its date when built from a git clone (build.rs).

mod common;

use std::process::Command;

/// The workspace's version, read from the root manifest.
fn workspace_version() -> String {
    let manifest = std::fs::read_to_string(common::manifest_dir().join("Cargo.toml"))
        .expect("the root Cargo.toml");
    let mut in_section = false;
    for line in manifest.lines() {
        let line = line.trim();
        if line.starts_with('[') {
            in_section = line == "[workspace.package]";
        } else if in_section {
            if let Some(value) = line.strip_prefix("version = ") {
                return value.trim_matches('"').to_owned();
            }
        }
    }
    panic!("no version in the root Cargo.toml's [workspace.package]");
}

fn git(args: &[&str]) -> Option<String> {
    let out = Command::new("git")
        .arg("-C")
        .arg(common::manifest_dir())
        .args(args)
        .output()
        .ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_owned())
}

#[test]
fn the_crates_inherit_the_workspace_version() {
    let version = workspace_version();
    assert_eq!(env!("CARGO_PKG_VERSION"), version);
    for manifest in ["Cargo.toml", "python/Cargo.toml"] {
        let text = std::fs::read_to_string(common::manifest_dir().join(manifest)).expect(manifest);
        let package = text
            .split("\n[")
            .find(|section| section.starts_with("[package]") || section.starts_with("package]"))
            .expect("a [package] section");
        assert!(
            package
                .lines()
                .any(|l| l.trim() == "version.workspace = true"),
            "{manifest}'s [package] does not take the workspace's version"
        );
    }
}

#[test]
fn version_names_the_commit_built_from() {
    let out = common::urlscope(&["--version"], b"");
    assert!(out.status.success(), "{out:?}");
    let printed = String::from_utf8(out.stdout).expect("UTF-8");
    let version = workspace_version();
    let from_git =
        common::manifest_dir().join(".git").exists() && git(&["rev-parse", "HEAD"]).is_some();
    if !from_git {
        // A tarball's build: the version alone.
        assert_eq!(printed, format!("urlscope {version}\n"));
        return;
    }
    let head = git(&["rev-parse", "HEAD"]).expect("HEAD");
    let date = git(&["log", "-1", "--format=%cs"]).expect("HEAD's date");
    let rest = printed
        .strip_prefix(&format!("urlscope {version} ("))
        .and_then(|r| r.strip_suffix(")\n"))
        .unwrap_or_else(|| panic!("`urlscope --version` printed {printed:?}"));
    let (hash, printed_date) = rest.split_once(' ').expect("hash and date");
    assert!(
        hash.len() >= 7 && head.starts_with(hash),
        "the commit {hash:?} is not HEAD ({head})"
    );
    assert_eq!(printed_date, date);
    // -V prints the same line.
    let short = common::urlscope(&["-V"], b"");
    assert_eq!(String::from_utf8_lossy(&short.stdout), printed);
}
