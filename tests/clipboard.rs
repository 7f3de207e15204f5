//! The clipboard: on a real X display (Xvfb), the href copied in the inspector can still be
//! pasted (read back with xclip) after the inspector has exited; without any display, the
//! OSC 52 fallback is written and says so; inside tmux, the copy lands in tmux's paste buffer.
//!
//! Each case runs in a child process of this test binary, so that it can have its own
//! environment (a display from `xvfb-run`, or none at all). With `URLSCOPE_REQUIRE_X11` set
//! (CI sets it after installing Xvfb and xclip), a missing Xvfb, xclip or `script` fails the
//! test instead of skipping it.
#![cfg(all(target_os = "linux", feature = "tui"))]

use std::io::{Read, Write};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use urlscope::tui::clipboard::{osc52, Clipboard, Copied, Sent};

const TEXT: &str = "https://example.com/ü?q=1";
const HREF: &str = "https://example.com/%C3%BC?q=1";
const CHILD: &str = "URLSCOPE_CLIPBOARD_CHILD";

fn have(program: &str) -> bool {
    Command::new("sh")
        .args(["-c", &format!("command -v {program}")])
        .output()
        .is_ok_and(|o| o.status.success())
}

fn binary() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_urlscope"))
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

/// Runs `test` again under a fresh Xvfb server, or says why it cannot.
fn under_xvfb(test: &str) {
    if !(have("xvfb-run") && have("xclip") && have("script")) {
        assert!(
            std::env::var_os("URLSCOPE_REQUIRE_X11").is_none(),
            "xvfb-run, xclip and script are required (URLSCOPE_REQUIRE_X11 is set)"
        );
        eprintln!("note: xvfb-run, xclip or script missing; {test} is skipped");
        return;
    }
    // xvfb-run starts a server, sets DISPLAY, and runs the child under it.
    let exe = std::env::current_exe().expect("test binary");
    let output = Command::new("xvfb-run")
        .args(["-a", "--"])
        .arg(exe)
        .args(["--exact", test, "--nocapture", "--test-threads=1"])
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

fn clipboard_text() -> String {
    let read = Command::new("timeout")
        .args(["5", "xclip", "-o", "-selection", "clipboard"])
        .output()
        .expect("xclip");
    String::from_utf8_lossy(&read.stdout).into_owned()
}

#[test]
fn a_copy_is_served_by_a_process_of_its_own() {
    if std::env::var_os(CHILD).is_none() {
        return under_xvfb("a_copy_is_served_by_a_process_of_its_own");
    }
    let mut clipboard = Clipboard::new(Some(binary()), false);
    let mut terminal = Vec::new();
    assert_eq!(
        clipboard.copy(TEXT, &mut terminal),
        Copied::Clipboard { also: None }
    );
    assert!(terminal.is_empty(), "no OSC 52 unless asked for");
    drop(clipboard);
    assert_eq!(clipboard_text(), TEXT);
    // A later copy takes over; the earlier server hands the clipboard on and ends.
    let mut clipboard = Clipboard::new(Some(binary()), true);
    assert_eq!(
        clipboard.copy("second", &mut terminal),
        Copied::Clipboard {
            also: Some(Sent::Osc52)
        }
    );
    assert_eq!(String::from_utf8_lossy(&terminal), osc52("second"));
    assert_eq!(clipboard_text(), "second");
}

/// "Inspect, copy, quit, paste": the inspector in a pseudo-terminal copies the href with
/// ctrl-y and quits with ctrl-c; the href is still on the X clipboard afterwards.
#[test]
fn the_copied_href_outlives_the_inspector() {
    if std::env::var_os(CHILD).is_none() {
        return under_xvfb("the_copied_href_outlives_the_inspector");
    }
    let mut script = Command::new("script")
        .args(["-q", "-e", "-c"])
        .arg(format!(
            "stty cols 120 rows 40; exec {} --no-history '{TEXT}'",
            binary().display()
        ))
        .arg("/dev/null")
        .env("TERM", "xterm-256color")
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
    let mut stdin = script.stdin.take().expect("piped");
    std::thread::sleep(Duration::from_millis(1500));
    stdin.write_all(b"\x19").expect("ctrl-y");
    std::thread::sleep(Duration::from_millis(1500));
    stdin.write_all(b"\x03").expect("ctrl-c");
    let deadline = Instant::now() + Duration::from_secs(10);
    while script.try_wait().expect("wait").is_none() {
        if Instant::now() > deadline {
            let _ = script.kill();
            panic!("the inspector did not end after ctrl-c");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    drop(stdin);
    let screen = String::from_utf8_lossy(&output.join().expect("reader")).into_owned();
    assert!(
        screen.contains("to the clipboard (kept after urlscope ends)"),
        "the status line does not say where the text went:\n{screen}"
    );
    assert_eq!(clipboard_text(), HREF);
}

#[test]
fn falls_back_to_osc52_without_a_display() {
    if std::env::var_os(CHILD).is_some() {
        let mut clipboard = Clipboard::new(Some(binary()), false);
        let mut terminal = Vec::new();
        let copied = clipboard.copy(TEXT, &mut terminal);
        assert_eq!(
            copied,
            Copied::Terminal {
                sent: Sent::Osc52,
                why: "no DISPLAY or WAYLAND_DISPLAY".to_owned()
            }
        );
        assert_eq!(String::from_utf8_lossy(&terminal), osc52(TEXT));
        return;
    }
    run_child("falls_back_to_osc52_without_a_display", |c| {
        c.env_remove("DISPLAY")
            .env_remove("WAYLAND_DISPLAY")
            .env_remove("TMUX");
    });
}

/// Inside tmux, whose default `set-clipboard external` drops an application's OSC 52, a copy
/// without a display goes into tmux's paste buffer (`tmux show-buffer` reads it back), and
/// nothing is written to the terminal.
#[test]
fn inside_tmux_a_copy_reaches_the_paste_buffer() {
    if std::env::var_os(CHILD).is_some() {
        let mut clipboard = Clipboard::new(Some(binary()), false);
        let mut terminal = Vec::new();
        let copied = clipboard.copy(TEXT, &mut terminal);
        assert_eq!(
            copied,
            Copied::Terminal {
                sent: Sent::Tmux,
                why: "no DISPLAY or WAYLAND_DISPLAY".to_owned()
            }
        );
        assert!(terminal.is_empty(), "{terminal:?}");
        return;
    }
    if !have("tmux") {
        assert!(
            std::env::var_os("URLSCOPE_REQUIRE_TMUX").is_none(),
            "tmux is required (URLSCOPE_REQUIRE_TMUX is set)"
        );
        eprintln!("note: tmux not found; the tmux copy is skipped");
        return;
    }
    let socket = format!("urlscope-clipboard-{}", std::process::id());
    let tmux = |args: &[&str]| {
        let output = Command::new("tmux")
            .args(["-L", &socket, "-f", "/dev/null"])
            .args(args)
            .output()
            .expect("tmux runs");
        String::from_utf8_lossy(&output.stdout).into_owned()
    };
    tmux(&["new-session", "-d", "-s", "copy"]);
    let path = tmux(&["display-message", "-p", "#{socket_path}"]);
    assert_eq!(
        tmux(&["show-options", "-gv", "set-clipboard"]).trim(),
        "external"
    );
    // $TMUX as tmux sets it in a pane: the socket, the server's pid, the session.
    run_child("inside_tmux_a_copy_reaches_the_paste_buffer", |c| {
        c.env_remove("DISPLAY")
            .env_remove("WAYLAND_DISPLAY")
            .env("TMUX", format!("{},0,0", path.trim()));
    });
    let buffer = tmux(&["show-buffer"]);
    tmux(&["kill-server"]);
    assert_eq!(buffer, TEXT);
}

/// Inside a tmux that cannot be reached, the OSC 52 sequence is still written, and the
/// status line does not say "Copied": tmux passes it on only with `set-clipboard on`.
#[test]
fn an_unreachable_tmux_gets_osc52_and_no_claim() {
    if std::env::var_os(CHILD).is_some() {
        let mut clipboard = Clipboard::new(Some(binary()), false);
        let mut terminal = Vec::new();
        let copied = clipboard.copy(TEXT, &mut terminal);
        assert!(
            matches!(
                &copied,
                Copied::Terminal {
                    sent: Sent::Osc52InTmux(_),
                    ..
                }
            ),
            "{copied:?}"
        );
        assert_eq!(String::from_utf8_lossy(&terminal), osc52(TEXT));
        let status = copied.status("href", TEXT);
        assert!(
            status.starts_with("Not copied unless tmux has `set-clipboard on`"),
            "{status}"
        );
        return;
    }
    let missing = std::env::temp_dir().join(format!("urlscope-no-tmux-{}", std::process::id()));
    run_child("an_unreachable_tmux_gets_osc52_and_no_claim", |c| {
        c.env_remove("DISPLAY")
            .env_remove("WAYLAND_DISPLAY")
            .env("TMUX", format!("{},0,0", missing.display()));
    });
}
