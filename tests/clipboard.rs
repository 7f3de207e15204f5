//! The clipboard: on a real X display (Xvfb) the copied href can be read back with xclip;
//! without any display, the OSC 52 fallback is written and says so.
//!
//! Each case runs in a child process of this test binary, so that it can have its own
//! environment (a display from `xvfb-run`, or none at all). With `URLSCOPE_REQUIRE_X11` set
//! (CI sets it after installing Xvfb and xclip), a missing Xvfb or xclip fails the test instead
//! of skipping it.
#![cfg(feature = "tui")]

use std::process::Command;

use urlscope::tui::clipboard::{osc52, Clipboard, Copied};

const TEXT: &str = "https://example.com/ü?q=1";
const CHILD: &str = "URLSCOPE_CLIPBOARD_CHILD";

fn have(program: &str) -> bool {
    Command::new("sh")
        .args(["-c", &format!("command -v {program}")])
        .output()
        .is_ok_and(|o| o.status.success())
}

/// Re-runs one test of this binary as a child with `configure` applied to its command.
fn run_child(test: &str, configure: impl FnOnce(&mut Command)) {
    let exe = std::env::current_exe().expect("test binary");
    let mut command = Command::new(exe);
    command
        .args(["--exact", test, "--nocapture", "--test-threads=1"])
        .env(CHILD, "1");
    configure(&mut command);
    let output = command.output().expect("run the child test");
    assert!(
        output.status.success(),
        "child {test} failed:\n{}\n{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
}

#[test]
fn copies_to_the_x_clipboard() {
    if std::env::var_os(CHILD).is_some() {
        let mut clipboard = Clipboard::default();
        let mut terminal = Vec::new();
        assert_eq!(clipboard.copy(TEXT, &mut terminal), Copied::Clipboard);
        assert!(terminal.is_empty(), "no OSC 52 when the clipboard works");
        let read = Command::new("xclip")
            .args(["-o", "-selection", "clipboard"])
            .output()
            .expect("xclip");
        assert_eq!(String::from_utf8_lossy(&read.stdout), TEXT);
        return;
    }
    if !(have("xvfb-run") && have("xclip")) {
        assert!(
            std::env::var_os("URLSCOPE_REQUIRE_X11").is_none(),
            "xvfb-run and xclip are required (URLSCOPE_REQUIRE_X11 is set)"
        );
        eprintln!("note: xvfb-run or xclip missing; the X clipboard test is skipped");
        return;
    }
    // xvfb-run starts a server, sets DISPLAY, and runs the child under it.
    let exe = std::env::current_exe().expect("test binary");
    let output = Command::new("xvfb-run")
        .args(["-a", "--"])
        .arg(exe)
        .args([
            "--exact",
            "copies_to_the_x_clipboard",
            "--nocapture",
            "--test-threads=1",
        ])
        .env(CHILD, "1")
        .env_remove("WAYLAND_DISPLAY")
        .output()
        .expect("xvfb-run");
    assert!(
        output.status.success(),
        "under Xvfb:\n{}\n{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
}

#[test]
fn falls_back_to_osc52_without_a_display() {
    if std::env::var_os(CHILD).is_some() {
        let mut clipboard = Clipboard::default();
        let mut terminal = Vec::new();
        let copied = clipboard.copy(TEXT, &mut terminal);
        assert!(matches!(copied, Copied::Osc52(_)), "{copied:?}");
        assert_eq!(String::from_utf8_lossy(&terminal), osc52(TEXT));
        return;
    }
    run_child("falls_back_to_osc52_without_a_display", |c| {
        c.env_remove("DISPLAY").env_remove("WAYLAND_DISPLAY");
    });
}
