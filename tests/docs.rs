//! The documentation holds together: every relative link and `#anchor` in README.md and
//! docs/*.md goes somewhere, the guide's index names every chapter, and the commands the
//! README gives under Set-up and Tests are the ones CI (`.ci/run`) runs.
//!
//! The Markdown is read as CommonMark (pulldown-cmark), so a link in a table, a list or an image
//! counts, and a `[x](y)` inside a code span or block does not.

use pulldown_cmark::{CodeBlockKind, Event, HeadingLevel, Options, Parser, Tag, TagEnd};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Component, Path, PathBuf};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// The set-up's commands that CI does not run, each with the reason: CI tests the checkout in
/// place (`cargo test` builds what it needs), where a user installs the binary on `PATH` for the
/// examples to call it.
const SET_UP_NOT_IN_CI: &[&str] = &["cargo install --locked --path ."];

fn options() -> Options {
    Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH | Options::ENABLE_FOOTNOTES
}

/// The anchor GitHub gives a heading: its text lowercased, spaces made hyphens, and every
/// character that is not a letter, a digit, `-` or `_` dropped; a repeated anchor gets `-1`,
/// `-2`, … (github-slugger's rules).
fn slug(text: &str, seen: &mut BTreeMap<String, usize>) -> String {
    let base: String = text
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            '-' | '_' => Some(c),
            c if c.is_alphanumeric() => Some(c),
            _ => None,
        })
        .collect();
    let count = seen.entry(base.clone()).or_insert(0);
    let anchor = if *count == 0 {
        base.clone()
    } else {
        format!("{base}-{count}")
    };
    *count += 1;
    anchor
}

/// A Markdown file as the test reads it: its headings' anchors, its links (with their line),
/// and its sections' shell commands.
struct Doc {
    anchors: BTreeSet<String>,
    links: Vec<(usize, String)>,
    /// Level-2 heading text → the lines of its `sh` code blocks.
    commands: BTreeMap<String, Vec<String>>,
}

fn read_doc(path: &Path) -> Doc {
    let text = std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let line_of = |offset: usize| text[..offset].matches('\n').count() + 1;
    let mut doc = Doc {
        anchors: BTreeSet::new(),
        links: Vec::new(),
        commands: BTreeMap::new(),
    };
    let mut seen = BTreeMap::new();
    let mut heading: Option<(HeadingLevel, String)> = None;
    let mut section = String::new();
    let mut in_sh = false;
    for (event, range) in Parser::new_ext(&text, options()).into_offset_iter() {
        match event {
            Event::Start(Tag::Heading { level, .. }) => heading = Some((level, String::new())),
            Event::End(TagEnd::Heading(_)) => {
                let (level, title) = heading.take().expect("a heading ends after it starts");
                doc.anchors.insert(slug(&title, &mut seen));
                if level == HeadingLevel::H2 {
                    section = title;
                }
            }
            Event::Text(t) | Event::Code(t) => {
                if let Some((_, title)) = heading.as_mut() {
                    title.push_str(&t);
                } else if in_sh {
                    let commands = doc.commands.entry(section.clone()).or_default();
                    commands.extend(
                        t.lines()
                            .map(str::trim)
                            .filter(|l| !l.is_empty() && !l.starts_with('#'))
                            .map(str::to_owned),
                    );
                }
            }
            Event::Start(Tag::CodeBlock(CodeBlockKind::Fenced(lang))) => {
                in_sh = matches!(&*lang, "sh" | "bash" | "shell");
            }
            Event::End(TagEnd::CodeBlock) => in_sh = false,
            Event::Start(Tag::Link { dest_url, .. } | Tag::Image { dest_url, .. }) => {
                doc.links
                    .push((line_of(range.start), dest_url.into_string()));
            }
            _ => {}
        }
    }
    doc
}

/// README.md and every docs/*.md, relative to the repository.
fn documents() -> Vec<PathBuf> {
    let mut files = vec![PathBuf::from("README.md")];
    let mut chapters: Vec<PathBuf> = std::fs::read_dir(Path::new(ROOT).join("docs"))
        .expect("docs/")
        .map(|entry| entry.expect("docs/ entry").path())
        .filter(|path| path.extension().is_some_and(|e| e == "md"))
        .map(|path| Path::new("docs").join(path.file_name().expect("a file name")))
        .collect();
    chapters.sort();
    files.extend(chapters);
    files
}

/// `path` relative to the repository, with `.` and `..` resolved; `None` when it leaves it.
fn normalize(path: &Path) -> Option<PathBuf> {
    let mut out = PathBuf::new();
    for part in path.components() {
        match part {
            Component::CurDir => {}
            Component::ParentDir => {
                if !out.pop() {
                    return None;
                }
            }
            Component::Normal(p) => out.push(p),
            Component::RootDir | Component::Prefix(_) => return None,
        }
    }
    Some(out)
}

fn has_scheme(link: &str) -> bool {
    // A URL scheme: ASCII letters, digits, +, -, . before the first ':' (and no '/' before it).
    match link.split_once(':') {
        Some((scheme, _)) => {
            !scheme.is_empty()
                && scheme.starts_with(|c: char| c.is_ascii_alphabetic())
                && scheme
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c))
        }
        None => false,
    }
}

/// Every broken relative link or anchor of `files` (paths relative to `root`), as
/// `file:line: link: why`.
fn broken_links(root: &Path, files: &[PathBuf]) -> Vec<String> {
    let mut docs: BTreeMap<PathBuf, Doc> = BTreeMap::new();
    let mut broken = Vec::new();
    for file in files {
        let doc = read_doc(&root.join(file));
        for (line, link) in &doc.links {
            if has_scheme(link) {
                continue;
            }
            let at = format!("{}:{line}: {link}", file.display());
            let (path, anchor) = match link.split_once('#') {
                Some((path, anchor)) => (path, Some(anchor)),
                None => (link.as_str(), None),
            };
            let target = if path.is_empty() {
                file.clone()
            } else if path.starts_with('/') {
                broken.push(format!(
                    "{at}: an absolute path (GitHub reads it from the site's root)"
                ));
                continue;
            } else {
                match normalize(&file.parent().unwrap_or(Path::new("")).join(path)) {
                    Some(target) => target,
                    None => {
                        broken.push(format!("{at}: leaves the repository"));
                        continue;
                    }
                }
            };
            let on_disk = root.join(&target);
            if !on_disk.exists() {
                broken.push(format!("{at}: no file {}", target.display()));
                continue;
            }
            let Some(anchor) = anchor else { continue };
            if target.extension().is_none_or(|e| e != "md") {
                broken.push(format!("{at}: an anchor into a file that is not Markdown"));
                continue;
            }
            let anchors = if target == *file {
                &doc.anchors
            } else {
                &docs
                    .entry(target.clone())
                    .or_insert_with(|| read_doc(&on_disk))
                    .anchors
            };
            if !anchors.contains(anchor) {
                broken.push(format!(
                    "{at}: no heading with the anchor #{anchor} in {}",
                    target.display()
                ));
            }
        }
        docs.insert(file.clone(), doc);
    }
    broken
}

#[test]
fn every_relative_link_and_anchor_resolves() {
    let files = documents();
    assert!(files.len() > 1, "no chapter in docs/");
    let broken = broken_links(Path::new(ROOT), &files);
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

#[test]
fn a_broken_link_or_anchor_is_found() {
    // The check itself, on files made to fail it, in Cargo's scratch directory.
    let root = Path::new(env!("CARGO_TARGET_TMPDIR")).join("docs-links");
    std::fs::create_dir_all(root.join("docs")).expect("scratch directory");
    std::fs::write(
        root.join("docs/a.md"),
        "# A title\n\n## `check`: the gate, --allow-host\n\n## Repeated\n\n## Repeated\n\n\
         [ok](#a-title) [ok](#check-the-gate---allow-host) [ok](#repeated-1) [ok](b.md#b)\n\
         [ok](https://example.com/#nowhere) `[code](nowhere.md)`\n\n\
         | a | b |\n| --- | --- |\n| [bad](missing.md) | ![bad](missing.png) |\n\n\
         [bad](#repeated-2) [bad](b.md#nowhere) [bad](#A-Title)\n",
    )
    .expect("a.md");
    std::fs::write(root.join("docs/b.md"), "# B\n").expect("b.md");
    std::fs::write(
        root.join("c.md"),
        "[bad](/docs/b.md) [bad](../../x.md) [ok](docs/b.md#b)\n",
    )
    .expect("c.md");
    let files = ["docs/a.md", "docs/b.md", "c.md"].map(PathBuf::from);
    assert_eq!(
        broken_links(&root, &files),
        [
            "docs/a.md:14: missing.md: no file docs/missing.md",
            "docs/a.md:14: missing.png: no file docs/missing.png",
            "docs/a.md:16: #repeated-2: no heading with the anchor #repeated-2 in docs/a.md",
            "docs/a.md:16: b.md#nowhere: no heading with the anchor #nowhere in docs/b.md",
            "docs/a.md:16: #A-Title: no heading with the anchor #A-Title in docs/a.md",
            "c.md:1: /docs/b.md: an absolute path (GitHub reads it from the site's root)",
            "c.md:1: ../../x.md: leaves the repository",
        ]
    );
}

#[test]
fn the_guide_index_names_every_chapter() {
    let index = read_doc(&Path::new(ROOT).join("docs/README.md"));
    let linked: BTreeSet<String> = index
        .links
        .iter()
        .map(|(_, link)| link.split('#').next().unwrap_or("").to_owned())
        .collect();
    for file in documents().iter().skip(1) {
        let name = file
            .file_name()
            .expect("a name")
            .to_string_lossy()
            .into_owned();
        if name != "README.md" {
            assert!(
                linked.contains(&name),
                "docs/README.md does not link {name}"
            );
        }
    }
    let readme = read_doc(&Path::new(ROOT).join("README.md"));
    assert!(
        readme
            .links
            .iter()
            .any(|(_, link)| link == "docs/README.md"),
        "README.md does not link the guide's index"
    );
}

/// A command of `.ci/run` as a user would type it: without the `VAR=value` words before it and
/// without a redirection of standard error after it.
fn as_typed(line: &str) -> String {
    let words: Vec<&str> = line.split_whitespace().collect();
    let start = words
        .iter()
        .position(|w| {
            !w.split_once('=').is_some_and(|(name, _)| {
                !name.is_empty() && name.chars().all(|c| c.is_ascii_uppercase() || c == '_')
            })
        })
        .unwrap_or(words.len());
    let end = words.len() - words.iter().rev().take_while(|w| **w == "2>&1").count();
    words[start..end.max(start)].join(" ")
}

#[test]
fn the_readme_set_up_and_test_commands_are_the_ones_ci_runs() {
    let readme = read_doc(&Path::new(ROOT).join("README.md"));
    let set_up = readme
        .commands
        .get("Set-up")
        .expect("README.md has a Set-up section with an sh block");
    let tests = readme
        .commands
        .get("Tests")
        .expect("README.md has a Tests section with an sh block");
    assert_eq!(
        tests.len(),
        1,
        "the README's Tests give one command: {tests:?}"
    );
    let test_command = &tests[0];

    let ci = std::fs::read_to_string(Path::new(ROOT).join(".ci/run")).expect(".ci/run");
    let lines: Vec<&str> = ci
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .collect();
    let ci_runs = |command: &str| lines.iter().any(|line| as_typed(line) == command);

    let in_ci: Vec<&String> = set_up.iter().filter(|c| ci_runs(c)).collect();
    assert!(
        !in_ci.is_empty(),
        "CI runs none of the README's set-up: {set_up:?}"
    );
    for command in set_up {
        assert!(
            ci_runs(command) || SET_UP_NOT_IN_CI.contains(&command.as_str()),
            "the README's set-up command `{command}` is not what .ci/run runs"
        );
    }
    for command in SET_UP_NOT_IN_CI {
        assert!(
            set_up.iter().any(|c| c == command),
            "`{command}` is no longer in the README's set-up: take it out of SET_UP_NOT_IN_CI"
        );
    }

    // Each step of .ci/run announced as "the README's test command" runs exactly that command
    // before the next step's announcement.
    let mut steps = 0;
    for (i, line) in lines.iter().enumerate() {
        if line.starts_with("step \"the README's test command") {
            steps += 1;
            let step = lines[i + 1..]
                .iter()
                .take_while(|l| !l.starts_with("step \""));
            assert!(
                step.clone().any(|l| as_typed(l) == *test_command),
                "the step `{line}` of .ci/run does not run `{test_command}`"
            );
        }
    }
    assert!(
        steps > 0,
        ".ci/run has no step that runs the README's test command"
    );
}
