//! docs/install.md's picture of the release folder names every file `scripts/release` writes
//! into it: read from the script's own destinations (`"$out/…"`), so that a file the release
//! gains (urlscope.exe, the DuckDB extension) cannot go unlisted where users look for it.

use std::collections::BTreeSet;
use std::path::Path;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// The paths inside OUT that the script names (`"$out/PATH"`), `$version` written VERSION as
/// the document writes it; the bare folder (`"$out/"`, where the licences are copied) left out.
fn destinations(script: &str) -> BTreeSet<String> {
    script
        .split("\"$out/")
        .skip(1)
        .filter_map(|rest| rest.split_once('"').map(|(path, _)| path))
        .filter(|path| !path.is_empty())
        .map(|path| path.replace("$version", "VERSION"))
        .collect()
}

/// The release folder's listing in docs/install.md: the first code block after the heading
/// "## The release folder".
fn listing(doc: &str) -> &str {
    let section = doc
        .split_once("\n## The release folder\n")
        .expect("docs/install.md has the section \"The release folder\"")
        .1;
    let block = section
        .split_once("\n```\n")
        .expect("a code block in the section")
        .1;
    block.split_once("\n```").expect("the code block ends").0
}

/// Whether `listing` names `path`: a line starts with it (a file, or a folder's file), or, for a
/// folder, a line starts with the folder and a slash.
fn names(listing: &str, path: &str) -> bool {
    listing.lines().any(|line| {
        line.split_whitespace().next() == Some(path)
            || line.starts_with(&format!("{path}/"))
            || line.split_whitespace().any(|word| word == path)
    })
}

#[test]
fn the_release_folder_in_install_md_names_every_file_the_script_ships() {
    let script =
        std::fs::read_to_string(Path::new(ROOT).join("scripts/release")).expect("scripts/release");
    let doc =
        std::fs::read_to_string(Path::new(ROOT).join("docs/install.md")).expect("docs/install.md");
    let shipped = destinations(&script);
    // The script's destinations as read here: were the reading to find none, nothing would be
    // checked.
    for expected in [
        "urlscope",
        "urlscope.exe",
        "duckdb/linux_amd64/urlscope.duckdb_extension",
        "man/urlscope.1",
    ] {
        assert!(
            shipped.contains(expected),
            "{expected} not read from scripts/release: {shipped:?}"
        );
    }
    let listing = listing(&doc);
    let unlisted: Vec<&String> = shipped
        .iter()
        .filter(|path| !names(listing, path))
        .collect();
    assert!(
        unlisted.is_empty(),
        "scripts/release ships {unlisted:?}, which docs/install.md's release folder does not list:\n{listing}"
    );
    // The files the script copies into the folder by name, and the checksums it writes there.
    for file in [
        "LICENSE-MIT",
        "LICENSE-APACHE",
        "CHANGELOG.md",
        "install.md",
        "SHA256SUMS",
    ] {
        assert!(
            script.contains(file),
            "scripts/release no longer names {file}"
        );
        assert!(names(listing, file), "{file} is not in the listing");
    }
    // The wheels: maturin writes them into the folder (`--out "$out"`), one per target.
    assert!(script.contains("--out \"$out\""));
    for target in ["x86_64", "aarch64"] {
        assert!(
            listing
                .lines()
                .any(|line| line.starts_with("urlscope_whatwg-")
                    && line.trim_end().ends_with(&format!("_{target}.whl"))),
            "no {target} wheel in the listing"
        );
    }
}

/// The check finds what is missing: the listing as it was before urlscope.exe and the DuckDB
/// extension were shipped.
#[test]
fn a_file_missing_from_the_listing_is_found() {
    let listing = "urlscope                          the command line\n\
                   completions/urlscope.bash         bash\n\
                   man/urlscope.1                    the man page\n";
    assert!(names(listing, "urlscope"));
    assert!(names(listing, "completions"));
    assert!(names(listing, "man/urlscope.1"));
    assert!(!names(listing, "urlscope.exe"));
    assert!(!names(
        listing,
        "duckdb/linux_amd64/urlscope.duckdb_extension"
    ));
    assert!(!names(listing, "duckdb/linux_amd64"));
    assert_eq!(
        destinations("cp a \"$out/urlscope.exe\"\ntar -czf \"$out/urlscope-web-$version.tar.gz\" x\ncp f \"$out/\""),
        BTreeSet::from(["urlscope.exe".to_owned(), "urlscope-web-VERSION.tar.gz".to_owned()])
    );
}
