//! Gives the binary its `--version`: the crate's version and, when built from a git clone, the
//! commit it was built from and that commit's date (`urlscope 0.1.0 (e44b41d 2026-11-26)`), as
//! the environment variable `URLSCOPE_VERSION`. From a tarball or a published crate (no `.git`
//! beside this manifest), or without git, it is the version alone: this script never fails.

use std::path::Path;
use std::process::Command;

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    let version = env!("CARGO_PKG_VERSION");
    let commit = commit();
    match &commit {
        Some(commit) => println!("cargo:rustc-env=URLSCOPE_VERSION={version} ({commit})"),
        None => println!("cargo:rustc-env=URLSCOPE_VERSION={version}"),
    }
}

/// `SHORT-HASH YYYY-MM-DD` of HEAD when this manifest's folder is a git work tree's top (a
/// `.git` folder, or a `.git` file in a worktree), else None. Only that folder's own `.git`
/// counts: a crate unpacked inside another repository is not that repository's commit.
fn commit() -> Option<String> {
    let root = std::env::var_os("CARGO_MANIFEST_DIR")?;
    let root = Path::new(&root);
    if !root.join(".git").exists() {
        return None;
    }
    let git = |args: &[&str]| -> Option<String> {
        let out = Command::new("git")
            .arg("-C")
            .arg(root)
            .args(args)
            .output()
            .ok()?;
        if !out.status.success() {
            return None;
        }
        let text = String::from_utf8(out.stdout).ok()?;
        let text = text.trim();
        (!text.is_empty()).then(|| text.to_owned())
    };
    // Build again when HEAD moves: HEAD itself (a checkout), the branch it names (a commit) and
    // the packed refs (where a branch's ref goes after `git gc`). In a worktree these are in the
    // main clone's git folder, which `--git-path` finds. Only paths that exist are named: a
    // missing one would make cargo run this script on every build.
    let mut watched = vec![git(&["rev-parse", "--git-path", "HEAD"])];
    if let Some(branch) = git(&["symbolic-ref", "-q", "HEAD"]) {
        watched.push(git(&["rev-parse", "--git-path", &branch]));
    }
    watched.push(git(&["rev-parse", "--git-path", "packed-refs"]));
    for path in watched.into_iter().flatten() {
        let path = root.join(path);
        if path.exists() {
            println!("cargo:rerun-if-changed={}", path.display());
        }
    }
    git(&["log", "-1", "--no-show-signature", "--format=%h %cs"])
}
