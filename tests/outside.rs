//! urlscope as others depend on it. `tests/outside/` is a crate outside this workspace (its own
//! root, no `[patch]`) that depends on urlscope by path with `default-features = false`: it must
//! build and parse, as a user's crate would. And the package `cargo publish` would upload must
//! hold every file the sources include, and none of the tests, benchmarks or screenshots.

use std::collections::BTreeSet;
use std::fs;
use std::path::{Component, Path, PathBuf};
use std::process::{Command, Output};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The target directory this test was built in (…/target/debug/deps/outside-…), so that the
/// outside crate's build shares the workspace's compiled dependencies wherever the workspace
/// builds (`CARGO_TARGET_DIR` included).
fn target_dir() -> PathBuf {
    let exe = std::env::current_exe().expect("the test's path");
    exe.ancestors()
        .nth(3)
        .expect("target/<profile>/deps/<test>")
        .to_path_buf()
}

fn cargo() -> Command {
    Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()))
}

fn text(out: &Output) -> String {
    format!(
        "{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

#[test]
fn a_crate_outside_the_workspace_builds_on_the_library_and_parses() {
    let root = root();
    let outside = root.join("tests/outside");
    let manifest = fs::read_to_string(outside.join("Cargo.toml")).expect("tests/outside");
    // What makes it a user's crate: its own workspace, the core only, nothing patched.
    assert!(manifest.contains("\n[workspace]\n"), "{manifest}");
    assert!(
        manifest.contains(r#"urlscope = { path = "../..", default-features = false }"#),
        "{manifest}"
    );
    assert!(
        !manifest
            .lines()
            .any(|l| l.trim_start().starts_with("[patch")),
        "{manifest}"
    );

    // The workspace's lockfile, so that the dependencies are the versions already built (cargo
    // drops the entries the outside crate does not use). Ignored by git.
    fs::copy(root.join("Cargo.lock"), outside.join("Cargo.lock")).expect("copy Cargo.lock");
    let run = |args: &[&str]| {
        cargo()
            .args(["run", "--quiet", "--manifest-path"])
            .arg(outside.join("Cargo.toml"))
            .arg("--")
            .args(args)
            .env("CARGO_TARGET_DIR", target_dir())
            .current_dir(&outside)
            .output()
            .expect("cargo runs")
    };

    // URL Standard: an ASCII tab is removed with an invalid-URL-unit validation error (basic
    // URL parser, step 3); a space in a domain fails domain to ASCII (UTS 46 disallows it), a
    // domain-to-ASCII validation error, and the host parser returns failure.
    let out = run(&["https://exa\tmple.org/"]);
    assert!(out.status.success(), "{}", text(&out));
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "href https://example.org/\nerror invalid-URL-unit 11..12\n",
        "{}",
        text(&out)
    );

    let out = run(&["https://exa mple.org/"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.starts_with("failure "), "{}", text(&out));
    assert!(
        stdout.ends_with("error domain-to-ASCII 8..20\n"),
        "{}",
        text(&out)
    );
}

/// The files a source under `src/` includes with `include_str!` or `include_bytes!`, relative
/// to the package's root.
fn included_files(dir: &Path, root: &Path, out: &mut BTreeSet<String>) {
    for entry in fs::read_dir(dir).expect("a source directory") {
        let path = entry.expect("an entry").path();
        if path.is_dir() {
            included_files(&path, root, out);
            continue;
        }
        if path.extension().is_none_or(|e| e != "rs") {
            continue;
        }
        let source = fs::read_to_string(&path).expect("a source");
        for macro_name in ["include_str!(\"", "include_bytes!(\""] {
            for (at, _) in source.match_indices(macro_name) {
                let rest = &source[at + macro_name.len()..];
                let relative = &rest[..rest.find('"').expect("a closing quote")];
                let mut file = path.parent().expect("a directory").to_path_buf();
                for part in Path::new(relative).components() {
                    match part {
                        Component::ParentDir => {
                            file.pop();
                        }
                        Component::Normal(name) => file.push(name),
                        _ => {}
                    }
                }
                let file = file.strip_prefix(root).expect("inside the package");
                out.insert(file.to_string_lossy().into_owned());
            }
        }
    }
}

#[test]
fn the_package_holds_what_the_sources_include_and_no_test_data() {
    let root = root();
    let out = cargo()
        .args([
            "package",
            "--list",
            "--allow-dirty",
            "--offline",
            "-p",
            "urlscope",
        ])
        .current_dir(&root)
        .output()
        .expect("cargo runs");
    assert!(out.status.success(), "{}", text(&out));
    let listed: BTreeSet<String> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(str::to_owned)
        .collect();

    let mut included = BTreeSet::new();
    included_files(&root.join("src"), &root, &mut included);
    assert!(
        included.contains("assets/known-domains.txt"),
        "{included:?}"
    );
    let missing: Vec<&String> = included.difference(&listed).collect();
    assert!(
        missing.is_empty(),
        "included by src/ but not packaged: {missing:?}"
    );
    for file in [
        "Cargo.toml",
        "README.md",
        "LICENSE-MIT",
        "LICENSE-APACHE",
        "src/lib.rs",
    ] {
        assert!(listed.contains(file), "{file} is not packaged: {listed:?}");
    }
    // A build script left out would be dropped from the package with a warning only.
    if root.join("build.rs").exists() {
        assert!(listed.contains("build.rs"), "build.rs is not packaged");
    }

    let unwanted: Vec<&String> = listed
        .iter()
        .filter(|f| {
            [
                "tests/",
                "benches/",
                "screenshots/",
                "fuzz/",
                "python/",
                "crates/",
                "web/",
            ]
            .iter()
            .any(|dir| f.starts_with(dir))
                || f.contains("/snapshots/")
        })
        .collect();
    assert!(unwanted.is_empty(), "packaged but not needed: {unwanted:?}");

    // Measured at 1.9 MiB (517 KiB compressed); the screenshots alone are 4.5 MiB.
    let size: u64 = listed
        .iter()
        .filter_map(|f| fs::metadata(root.join(f)).ok())
        .map(|m| m.len())
        .sum();
    assert!(size < 3 << 20, "the package's files add up to {size} bytes");
}
