//! The inspector gives the terminal back on every way out: it runs in a pseudo-terminal (made
//! by util-linux `script`), and after it ends the bytes it wrote must leave the alternate
//! screen, turn bracketed paste and mouse capture off and show the cursor again — after ctrl-c,
//! after SIGTERM or SIGHUP, and after a panic (debug builds panic on request after drawing).
#![cfg(all(target_os = "linux", feature = "tui"))]

use std::io::{Read, Write};
use std::process::{Child, Command, Stdio};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// The sequences that undo what the inspector turned on.
const RESTORE: [(&str, &str); 4] = [
    ("\x1b[?1049l", "leave the alternate screen"),
    ("\x1b[?2004l", "bracketed paste off"),
    ("\x1b[?1000l", "mouse capture off"),
    ("\x1b[?25h", "cursor shown"),
];

/// Whether util-linux `script` is there to make a pseudo-terminal; where not, the test says
/// that `what` went unchecked (.ci/run installs it and sets URLSCOPE_REQUIRE_PTY).
fn can_make_a_pty(what: &str) -> bool {
    let found = Command::new("script")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !found {
        eprintln!("util-linux `script` not found: {what} not checked");
        assert!(
            std::env::var_os("URLSCOPE_REQUIRE_PTY").is_none(),
            "script is required"
        );
    }
    found
}

/// The process `script` runs the command in (its only child).
fn child_of(pid: u32) -> Option<u32> {
    let children = std::fs::read_to_string(format!("/proc/{pid}/task/{pid}/children")).ok()?;
    children.split_whitespace().next()?.parse().ok()
}

/// The inspector running in a pseudo-terminal.
struct Running {
    /// `script`, which holds the pseudo-terminal's master side; its stdin is piped.
    script: Child,
    /// The inspector's process (`script`'s only child).
    child: u32,
    /// Everything the inspector writes to the terminal, once `script` ends.
    output: JoinHandle<Vec<u8>>,
}

/// Starts the inspector in a 120x40 pseudo-terminal and lets it draw.
fn start(panic_after_draw: bool) -> Running {
    let binary = env!("CARGO_BIN_EXE_urlscope");
    let mut script = Command::new("script")
        .args(["-q", "-e", "-c"])
        .arg(format!(
            "stty cols 120 rows 40; exec {binary} --no-history 'https://example.com/a?b#c'"
        ))
        .arg("/dev/null")
        .env("TERM", "xterm-256color")
        .env_remove("DISPLAY")
        .envs(panic_after_draw.then_some(("URLSCOPE_PANIC_AFTER_DRAW", "1")))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("script runs");
    let mut stdout = script.stdout.take().expect("piped");
    let output = std::thread::spawn(move || {
        let mut out = Vec::new();
        let _ = stdout.read_to_end(&mut out);
        out
    });
    // Give it time to start and draw (the child appears once script has forked).
    let start = Instant::now();
    let child = loop {
        if let Some(child) = child_of(script.id()) {
            break child;
        }
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "no child process"
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    std::thread::sleep(Duration::from_millis(800));
    Running {
        script,
        child,
        output,
    }
}

/// Runs the inspector in a pseudo-terminal, lets it draw, ends it with `end`, and returns
/// everything it wrote to the terminal.
fn run_and_end(end: &str) -> String {
    let Running {
        mut script,
        child,
        output,
    } = start(end == "panic");
    let mut stdin = script.stdin.take().expect("piped");
    match end {
        // It ends by itself.
        "panic" => {}
        // Ctrl-C: in raw mode a key, which quits from any pane.
        "ctrl-c" => stdin.write_all(b"\x03").expect("write ctrl-c"),
        signal => {
            let status = Command::new("kill")
                .args([&format!("-{signal}"), &child.to_string()])
                .status()
                .expect("kill runs");
            assert!(status.success());
        }
    }
    let deadline = Instant::now() + Duration::from_secs(10);
    while script.try_wait().expect("wait").is_none() {
        if Instant::now() > deadline {
            // Leave nothing running behind a failed test.
            let _ = Command::new("kill")
                .args(["-9", &child.to_string()])
                .status();
            let _ = script.kill();
            panic!("the inspector did not end after {end}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    drop(stdin);
    String::from_utf8_lossy(&output.join().expect("reader")).into_owned()
}

/// Ends the inspector with `end` and asserts it restored the terminal; returns what it wrote
/// (`None` where there is no `script` to run it in).
fn assert_restored(end: &str) -> Option<String> {
    if !can_make_a_pty(&format!("terminal restore on {end}")) {
        return None;
    }
    let output = run_and_end(end);
    let entered = output
        .rfind("\x1b[?1049h")
        .unwrap_or_else(|| panic!("never entered the alternate screen: {output:?}"));
    assert!(
        output.contains("example.com"),
        "the inspector drew nothing before {end}"
    );
    let after = &output[entered..];
    for (sequence, what) in RESTORE {
        assert!(after.contains(sequence), "{what} missing after {end}");
    }
    Some(output)
}

#[test]
fn quitting_restores_the_terminal() {
    assert_restored("ctrl-c");
}

#[test]
fn sigterm_restores_the_terminal() {
    assert_restored("TERM");
}

#[test]
fn sighup_restores_the_terminal() {
    assert_restored("HUP");
}

#[test]
fn a_panic_restores_the_terminal() {
    if !cfg!(debug_assertions) {
        eprintln!("release build: the inspector has no panic on request; not checked");
        return;
    }
    if let Some(output) = assert_restored("panic") {
        // The panic way out was the one taken, and its message reached the terminal.
        assert!(output.contains("URLSCOPE_PANIC_AFTER_DRAW is set"));
    }
}

/// Whether process `pid` has ended (gone, or a zombie waiting for its parent).
fn has_ended(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        // The state follows the parenthesised command name.
        Ok(stat) => stat
            .rsplit_once(')')
            .is_some_and(|(_, rest)| rest.trim_start().starts_with('Z')),
        Err(_) => true,
    }
}

#[test]
fn closing_the_terminal_ends_the_inspector() {
    if !can_make_a_pty("closing the terminal") {
        return;
    }
    let Running {
        mut script, child, ..
    } = start(false);
    // A terminal window closed or a tmux server killed: the pseudo-terminal's master side goes
    // away at once, and the inspector's reads of its terminal return end-of-file from then on.
    script.kill().expect("kill script");
    script.wait().expect("wait script");
    let deadline = Instant::now() + Duration::from_secs(10);
    while !has_ended(child) {
        if Instant::now() > deadline {
            let _ = Command::new("kill")
                .args(["-9", &child.to_string()])
                .status();
            panic!("the inspector kept running after its terminal closed");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}
