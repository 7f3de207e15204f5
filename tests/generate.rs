//! `urlscope generate`: the completion scripts and the man page follow the clap definition. The
//! names to look for are walked from `Cli::command()` itself (the command line's own module,
//! compiled in here), so a new option or subcommand is checked without editing this file; the
//! scripts run in a real bash and the page is formatted by man and groff.

use std::collections::BTreeSet;
use std::process::{Command, Output, Stdio};

// The binary's command-line module, for its clap definition (the binary has no library target).
#[path = "../src"]
#[allow(dead_code, unused_imports)]
mod src {
    pub mod cli;
}

use clap::CommandFactory;

const URLSCOPE: &str = env!("CARGO_BIN_EXE_urlscope");

fn generate(what: &str) -> String {
    let out = Command::new(URLSCOPE)
        .args(["generate", what])
        .stdin(Stdio::null())
        .output()
        .expect("run urlscope");
    assert_eq!(
        out.status.code(),
        Some(0),
        "urlscope generate {what}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("UTF-8 output")
}

/// The definition as clap builds it (with `help` and the global options propagated).
fn definition() -> clap::Command {
    let mut command = src::cli::Cli::command();
    command.build();
    command
}

/// The visible subcommands' names, `help` included.
fn subcommands() -> Vec<String> {
    let names: Vec<String> = definition()
        .get_subcommands()
        .filter(|sub| !sub.is_hide_set())
        .map(|sub| sub.get_name().to_owned())
        .collect();
    assert!(
        names.len() >= 6,
        "the walk found too few subcommands: {names:?}"
    );
    names
}

/// Every visible long option of `urlscope` and of each subcommand, as "--name".
fn long_options() -> BTreeSet<String> {
    fn walk(command: &clap::Command, into: &mut BTreeSet<String>) {
        for arg in command.get_arguments().filter(|arg| !arg.is_hide_set()) {
            if let Some(long) = arg.get_long() {
                into.insert(format!("--{long}"));
            }
        }
        for sub in command.get_subcommands().filter(|sub| !sub.is_hide_set()) {
            walk(sub, into);
        }
    }
    let mut options = BTreeSet::new();
    walk(&definition(), &mut options);
    for named in [
        "--allow-host",
        "--deny-internal",
        "--fix-host",
        "--jsonl-in",
    ] {
        assert!(
            options.contains(named),
            "the walk missed {named}: {options:?}"
        );
    }
    options
}

fn assert_mentions_all(what: &str, text: &str, names: impl IntoIterator<Item = String>) {
    let missing: Vec<String> = names.into_iter().filter(|n| !text.contains(n)).collect();
    assert!(missing.is_empty(), "{what} lacks {missing:?}");
}

#[test]
fn bash_completion_offers_every_subcommand_and_option() {
    let script = generate("complete-bash");
    assert_mentions_all("complete-bash", &script, subcommands());
    assert_mentions_all("complete-bash", &script, long_options());
}

fn bash(script: &str) -> Output {
    Command::new("bash")
        .args(["-c", script, URLSCOPE])
        .stdin(Stdio::null())
        .output()
        .expect("run bash")
}

#[test]
fn bash_completion_registers_and_completes_in_bash() {
    let out = bash(r#"source <("$0" generate complete-bash) && complete -p urlscope"#);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success() && stdout.contains("-F _urlscope urlscope"),
        "complete -p urlscope: {:?}\nstdout: {stdout}\nstderr: {}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    // What bash offers after `urlscope check --fix-h<TAB>`, and after `urlscope generate <TAB>`.
    let complete = |words: &str, current: usize| {
        let out = bash(&format!(
            r#"source <("$0" generate complete-bash) || exit 9
            COMP_WORDS=({words}); COMP_CWORD={current}
            _urlscope urlscope "${{COMP_WORDS[$COMP_CWORD]}}" "${{COMP_WORDS[$COMP_CWORD-1]}}"
            printf '%s\n' "${{COMPREPLY[@]}}""#
        ));
        assert!(out.status.success(), "{words}: {out:?}");
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .map(str::to_owned)
            .collect::<Vec<_>>()
    };
    assert_eq!(complete("urlscope check --fix-h", 2), ["--fix-host"]);
    let targets = complete("urlscope generate ''", 2);
    for what in [
        "complete-bash",
        "complete-zsh",
        "complete-fish",
        "complete-powershell",
        "complete-elvish",
        "man",
    ] {
        assert!(
            targets.iter().any(|t| t == what),
            "generate <TAB> offered {targets:?}"
        );
    }
}

#[test]
fn every_shell_script_names_every_subcommand() {
    for what in [
        "complete-zsh",
        "complete-fish",
        "complete-powershell",
        "complete-elvish",
    ] {
        let script = generate(what);
        assert_mentions_all(what, &script, subcommands());
    }
    // fish lists each option by its long name without the dashes (`-l fix-host`).
    let fish = generate("complete-fish");
    assert_mentions_all(
        "complete-fish",
        &fish,
        long_options().iter().map(|o| format!("-l {}", &o[2..])),
    );
}

/// A formatted page's text with the dashes groff may print for `\-` made ASCII.
fn plain(text: &[u8]) -> String {
    String::from_utf8_lossy(text).replace(['\u{2212}', '\u{2010}'], "-")
}

fn assert_page_is_complete(how: &str, page: &str) {
    for sub in subcommands() {
        let heading = format!("URLSCOPE {}", sub.to_uppercase());
        assert!(
            page.lines().any(|l| l.trim() == heading),
            "{how}: no section {heading}"
        );
    }
    assert_mentions_all(how, page, long_options());
}

fn format_page(mut formatter: Command) -> Output {
    use std::io::Write;
    let page = generate("man");
    let mut child = formatter
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start the formatter");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(page.as_bytes())
        .expect("write the page");
    child.wait_with_output().expect("run the formatter")
}

#[test]
fn man_page_formats_with_groff_and_has_every_subcommand_and_option() {
    // -k: the page is UTF-8 (preconv); a long line length, so that no option name is hyphenated.
    let mut groff = Command::new("groff");
    groff.args(["-k", "-man", "-Tutf8", "-P-cbou", "-rLL=300n", "-ww"]);
    let out = format_page(groff);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success() && stderr.trim().is_empty(),
        "groff: {:?}\n{stderr}",
        out.status
    );
    assert_page_is_complete("groff", &plain(&out.stdout));
}

#[test]
fn man_page_renders_with_man() {
    let found = Command::new("man")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !found {
        assert!(
            std::env::var_os("URLSCOPE_REQUIRE_MAN").is_none(),
            "URLSCOPE_REQUIRE_MAN is set and man is not installed"
        );
        eprintln!("skipped: man is not installed (apt-get install man-db)");
        return;
    }
    let mut man = Command::new("man");
    man.args(["-l", "-"])
        .env("MANWIDTH", "300")
        .env("MANPAGER", "cat");
    let out = format_page(man);
    assert!(
        out.status.success(),
        "man -l: {:?}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    let page = plain(&out.stdout);
    assert!(
        page.contains("Inspect URLs the way the WHATWG URL Standard parses them"),
        "man -l printed no NAME line:\n{page}"
    );
    assert_page_is_complete("man -l", &page);
}

#[test]
fn an_unknown_target_is_a_usage_error_that_lists_the_targets() {
    let out = Command::new(URLSCOPE)
        .args(["generate", "complete-tcsh"])
        .output()
        .expect("run urlscope");
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("complete-tcsh")
            && stderr.contains("complete-powershell, complete-elvish, man"),
        "{stderr}"
    );
}
