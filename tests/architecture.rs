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

/// The modules that need the machine (C, processes, threads, the clock), built only with the
/// `native` feature, and the front ends, which imply it.
const NATIVE_MODULES: [&str; 5] = [
    "diff/adapter",
    "diff/background",
    "diff/libcurl",
    "inspect/resolve/system",
    "urlpattern/node_reading",
];

#[test]
fn the_core_names_no_native_reading() {
    // Everything but the native modules and the front ends: what crates/urlscope-web builds
    // for wasm32-unknown-unknown, where there is no C, no process and no std clock.
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let core: Vec<&str> = vec![
        "url",
        "trace",
        "validation",
        "inspect",
        "report",
        "urlpattern",
        "display",
        "gallery",
        "diff",
        "lib.rs",
    ];
    let mut found = Vec::new();
    for path in files(&core) {
        let relative = path.strip_prefix(&src).expect("under src");
        let relative = relative.with_extension("");
        if NATIVE_MODULES
            .iter()
            .any(|m| relative.to_string_lossy() == *m)
        {
            continue;
        }
        let code = code(&path);
        for word in [
            "curl_urlapi",
            "std::process",
            "process::",
            "rustix",
            "Command::new",
            "std::thread",
            "thread::spawn",
            "std::time::Instant",
            "time::{Duration, Instant}",
            "SystemTime",
        ] {
            if code.contains(word) {
                found.push(format!("{} mentions {word}", path.display()));
            }
        }
    }
    assert!(found.is_empty(), "{found:#?}");
}

#[test]
fn the_native_modules_are_declared_behind_the_native_feature() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    for module in NATIVE_MODULES {
        let (parent, name) = module.rsplit_once('/').expect("parent/name");
        let parent = fs::read_to_string(src.join(format!("{parent}.rs"))).expect("the parent");
        let lines: Vec<&str> = parent.lines().map(str::trim).collect();
        let declarations: Vec<usize> = lines
            .iter()
            .enumerate()
            .filter(|(_, l)| **l == format!("mod {name};") || **l == format!("pub mod {name};"))
            .map(|(i, _)| i)
            .collect();
        assert!(
            !declarations.is_empty(),
            "src/{parent}.rs declares no {name}"
        );
        for at in declarations {
            assert!(
                at > 0 && lines[at - 1] == "#[cfg(feature = \"native\")]",
                "src/{parent}.rs declares {name} without #[cfg(feature = \"native\")] before it"
            );
        }
    }
    // The native crates are optional, and `native` turns them on.
    let manifest = fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("Cargo.toml"))
        .expect("Cargo.toml");
    for dependency in ["curl-urlapi", "rustix", "hickory-proto"] {
        let line = manifest
            .lines()
            .find(|l| l.starts_with(&format!("{dependency} = ")))
            .unwrap_or_else(|| panic!("Cargo.toml has no {dependency}"));
        assert!(
            line.contains("optional = true"),
            "{dependency} is not optional: {line}"
        );
    }
    let native = manifest
        .lines()
        .find(|l| l.starts_with("native = "))
        .expect("a `native` feature");
    assert!(
        native.contains("dep:curl-urlapi")
            && native.contains("dep:rustix")
            && native.contains("dep:hickory-proto"),
        "{native}"
    );
}

/// `cargo metadata` or `cargo tree` of this workspace, offline first.
fn cargo(args: &[&str]) -> String {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
    let mut last = String::new();
    for offline in [true, false] {
        let mut command = std::process::Command::new(&cargo);
        command.args(args).current_dir(env!("CARGO_MANIFEST_DIR"));
        if offline {
            command.arg("--offline");
        }
        let output = command.output().expect("cargo runs");
        if output.status.success() {
            return String::from_utf8(output.stdout).expect("UTF-8");
        }
        last = String::from_utf8_lossy(&output.stderr).into_owned();
    }
    panic!("cargo {args:?} failed: {last}");
}

#[test]
fn the_web_engine_depends_on_the_core_without_native() {
    let metadata: serde_json::Value =
        serde_json::from_str(&cargo(&["metadata", "--format-version", "1", "--no-deps"]))
            .expect("cargo metadata's JSON");
    let web = metadata["packages"]
        .as_array()
        .expect("packages")
        .iter()
        .find(|p| p["name"] == "urlscope-web")
        .expect("crates/urlscope-web is a member");
    let urlscope = web["dependencies"]
        .as_array()
        .expect("dependencies")
        .iter()
        .find(|d| d["name"] == "urlscope")
        .expect("urlscope-web depends on urlscope");
    assert_eq!(
        urlscope["uses_default_features"], false,
        "urlscope-web must not take urlscope's default features (native, cli, tui)"
    );
    let features = urlscope["features"].as_array().expect("features");
    assert!(
        features.is_empty(),
        "urlscope-web asks for urlscope's features {features:?}: the core needs none"
    );

    // What is built for the page, build scripts' dependencies included: no C compiled, no
    // system library linked.
    let tree = cargo(&[
        "tree",
        "-p",
        "urlscope-web",
        "--target",
        "wasm32-unknown-unknown",
        "-e",
        "normal,build",
        "--prefix",
        "none",
    ]);
    let crates: Vec<&str> = tree
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    assert!(crates.contains(&"urlscope"), "{tree}");
    let c_builds: Vec<&&str> = crates
        .iter()
        .filter(|name| {
            matches!(
                **name,
                "cc" | "cmake" | "pkg-config" | "bindgen" | "vcpkg" | "curl-urlapi" | "rustix"
            ) || (name.ends_with("-sys") && !matches!(**name, "js-sys" | "web-sys"))
        })
        .collect();
    assert!(
        c_builds.is_empty(),
        "the page's engine builds C or links a system library through {c_builds:?}"
    );
}
