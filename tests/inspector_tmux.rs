//! The inspector as a person uses it, in tmux: type a URL and a base, open the help and press
//! keys in it, step through the trace with sub-steps on, shrink the window to 80x24, press Esc
//! until nothing is left to close, quit with ctrl-c, and find the terminal restored; then start
//! again and find the input and its base in the history, printed on exit with `--print`.
//!
//! tmux runs a real terminal emulator: what TestBackend cannot show (resizes, the alternate
//! screen, mouse modes, key sequences) shows here. With `URLSCOPE_REQUIRE_TMUX` set (CI sets it
//! after installing tmux), a missing tmux fails the test instead of skipping it.
#![cfg(all(unix, feature = "tui"))]

use std::path::PathBuf;
use std::process::Command;
use std::time::{Duration, Instant};

/// A tmux server of this test's own, ended when dropped.
struct Tmux {
    socket: String,
    dir: PathBuf,
    /// The session the keys go to.
    session: std::cell::RefCell<String>,
}

impl Tmux {
    fn new(name: &str) -> Option<Self> {
        let found = Command::new("tmux")
            .arg("-V")
            .output()
            .is_ok_and(|o| o.status.success());
        if !found {
            assert!(
                std::env::var_os("URLSCOPE_REQUIRE_TMUX").is_none(),
                "tmux is required (URLSCOPE_REQUIRE_TMUX is set)"
            );
            eprintln!("note: tmux not found; the end-to-end test is skipped");
            return None;
        }
        let socket = format!("urlscope-{name}-{}", std::process::id());
        let dir = std::env::temp_dir().join(&socket);
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("temporary directory");
        Some(Tmux {
            socket,
            dir,
            session: Default::default(),
        })
    }

    fn run(&self, args: &[&str]) -> String {
        let output = Command::new("tmux")
            .args(["-L", &self.socket, "-f", "/dev/null"])
            .args(args)
            .output()
            .expect("tmux runs");
        String::from_utf8_lossy(&output.stdout).into_owned()
    }

    /// Starts `command` in a new session `name` of `width`x`height`; the pane stays after
    /// the command exits (the option is set before the pane exists, so no exit is missed).
    fn start(&self, name: &str, width: u16, height: u16, command: &str) {
        let command = format!(
            "XDG_STATE_HOME='{}' TERM=xterm-256color {command}",
            self.dir.display()
        );
        self.run(&[
            "start-server",
            ";",
            "set-option",
            "-g",
            "remain-on-exit",
            "on",
            ";",
            "new-session",
            "-d",
            "-s",
            name,
            "-x",
            &width.to_string(),
            "-y",
            &height.to_string(),
            &command,
        ]);
        *self.session.borrow_mut() = name.to_owned();
    }

    fn target(&self) -> String {
        self.session.borrow().clone()
    }

    fn keys(&self, keys: &[&str]) {
        for key in keys {
            self.run(&["send-keys", "-t", &self.target(), key]);
            std::thread::sleep(Duration::from_millis(60));
        }
    }

    fn type_text(&self, text: &str) {
        self.run(&["send-keys", "-t", &self.target(), "-l", text]);
    }

    fn screen(&self) -> String {
        self.run(&["capture-pane", "-t", &self.target(), "-p"])
    }

    fn pane(&self, format: &str) -> String {
        self.run(&["list-panes", "-t", &self.target(), "-F", format])
            .trim()
            .to_owned()
    }

    /// Waits until the screen shows every needle, or fails with the screen.
    fn wait_for(&self, needles: &[&str]) -> String {
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            let screen = self.screen();
            if needles.iter().all(|n| screen.contains(n)) {
                return screen;
            }
            assert!(
                Instant::now() < deadline,
                "the screen never showed {needles:?}:\n{screen}"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// Waits until the screen no longer shows `needle`, or fails with the screen.
    fn wait_without(&self, needle: &str) -> String {
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            let screen = self.screen();
            if !screen.contains(needle) {
                return screen;
            }
            assert!(
                Instant::now() < deadline,
                "the screen kept showing {needle:?}:\n{screen}"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    fn wait_until_exited(&self) {
        let deadline = Instant::now() + Duration::from_secs(30);
        while self.pane("#{pane_dead}") != "1" {
            assert!(
                Instant::now() < deadline,
                "the inspector did not end:\n{}",
                self.screen()
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        self.run(&["kill-server"]);
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// The Input line's text on a screen.
fn input_line(screen: &str) -> String {
    let mut lines = screen.lines().skip_while(|l| !l.contains("1 Input"));
    lines
        .nth(1)
        .unwrap_or("")
        .trim_matches(|c| c == '│' || c == ' ')
        .to_owned()
}

#[test]
fn a_session_in_tmux() {
    let Some(tmux) = Tmux::new("session") else {
        return;
    };
    let binary = env!("CARGO_BIN_EXE_urlscope");
    tmux.start("first", 120, 40, binary);
    tmux.wait_for(&["Welcome to urlscope", "ctrl-n"]);
    tmux.type_text("//user@exa%6Dple.com/a?b#c");
    tmux.keys(&["Tab"]);
    tmux.type_text("https://base.example/");
    let screen = tmux.wait_for(&[
        "→ connects to example.com",
        "https://user@example.com/a?b#c",
    ]);
    assert!(screen.contains("2 Base"), "{screen}");
    // The help is modal: j scrolls it and types nothing.
    tmux.keys(&["F1"]);
    tmux.wait_for(&["Keys · j/k scroll"]);
    tmux.keys(&["j"]);
    tmux.keys(&["Escape"]);
    let screen = tmux.wait_without("Keys · j/k scroll");
    assert_eq!(input_line(&screen), "//user@exa%6Dple.com/a?b#c");
    // The trace with sub-steps everywhere, stepped through; every step stays listed.
    tmux.keys(&["M-3", "e"]);
    tmux.wait_for(&["sub-steps of every step"]);
    for _ in 0..12 {
        tmux.keys(&["l"]);
    }
    let screen = tmux.wait_for(&["step mode", "Record after step 12", "▲"]);
    assert!(
        screen.contains("13 "),
        "rows after the selected step:\n{screen}"
    );
    // 80x24: one pane under a tab bar; the Input line stays.
    tmux.run(&["resize-window", "-t", "first", "-x", "80", "-y", "24"]);
    tmux.wait_for(&["3 Trace 4 Components", "1 Input", "2 Base"]);
    tmux.keys(&["Escape", "Escape"]);
    let screen = tmux.wait_for(&["Nothing to close"]);
    assert!(screen.contains("ctrl-c"), "{screen}");
    assert_eq!(tmux.pane("#{pane_dead}"), "0", "Esc ended the inspector");
    tmux.keys(&["C-c"]);
    tmux.wait_until_exited();
    // (tmux reports no cursor for a dead pane; tests/terminal_restore.rs checks it.)
    assert_eq!(
        tmux.pane("#{alternate_on} #{mouse_any_flag}"),
        "0 0",
        "the terminal is not restored (alternate screen, mouse)"
    );

    // A restart: ↑ brings back the input with its base; --print prints the href on exit.
    let out = tmux.dir.join("printed");
    tmux.start(
        "again",
        120,
        40,
        &format!("{binary} --print > '{}'", out.display()),
    );
    tmux.wait_for(&["Welcome to urlscope", "↑ brings back your last URL"]);
    tmux.keys(&["Up"]);
    tmux.wait_for(&["https://user@example.com/a?b#c", "https://base.example/"]);
    tmux.keys(&["C-q"]);
    tmux.wait_until_exited();
    let printed = std::fs::read_to_string(&out).expect("the printed href");
    assert_eq!(printed, "https://user@example.com/a?b#c\n");
}

#[test]
fn a_dumb_terminal_gets_the_parse_output() {
    let Some(tmux) = Tmux::new("dumb") else {
        return;
    };
    let binary = env!("CARGO_BIN_EXE_urlscope");
    tmux.start(
        "dumb",
        80,
        24,
        &format!("env TERM=dumb {binary} --no-history 'https://EXAMPLE.com/a'"),
    );
    tmux.wait_until_exited();
    let screen = tmux.screen();
    assert!(
        screen.contains("href      https://example.com/a"),
        "{screen}"
    );
    assert_eq!(tmux.pane("#{alternate_on}"), "0");
}

/// The binary, started without a display so that a copy has only the terminal to go to.
fn without_display(arguments: &str) -> String {
    format!(
        "env -u DISPLAY -u WAYLAND_DISPLAY {} --no-history {arguments}",
        env!("CARGO_BIN_EXE_urlscope")
    )
}

/// The status line: the last line of the screen.
fn status_line(screen: &str) -> &str {
    screen.lines().last().unwrap_or("")
}

/// ctrl-y inside tmux with its default `set-clipboard external` (which drops an application's
/// OSC 52): the href arrives in tmux's paste buffer, and at 80x24 the status line says where
/// it went before anything else.
#[test]
fn ctrl_y_inside_tmux_lands_in_its_paste_buffer() {
    let Some(tmux) = Tmux::new("copy") else {
        return;
    };
    tmux.start(
        "copy",
        80,
        24,
        &without_display("'https://EXAMPLE.com/a b'"),
    );
    tmux.wait_for(&["https://example.com/a%20b"]);
    assert_eq!(
        tmux.run(&["show-options", "-gv", "set-clipboard"]).trim(),
        "external"
    );
    assert_eq!(tmux.run(&["list-buffers"]), "", "a buffer before the copy");
    tmux.keys(&["C-y"]);
    let screen = tmux.wait_for(&["Copied to tmux's buffer"]);
    assert!(
        status_line(&screen).starts_with(
            " Copied to tmux's buffer (the terminal's clipboard if tmux and it allow)"
        ),
        "{screen}"
    );
    assert_eq!(tmux.run(&["show-buffer"]), "https://example.com/a%20b");
    tmux.keys(&["C-c"]);
    tmux.wait_until_exited();
}

/// Backspace that arrives as ^H (`stty erase ^H`, some PuTTY and macOS set-ups) deletes in the
/// Input instead of opening the help; F1 still opens it.
#[test]
fn backspace_as_ctrl_h_deletes() {
    let Some(tmux) = Tmux::new("erase") else {
        return;
    };
    tmux.start("erase", 80, 24, &without_display(""));
    tmux.wait_for(&["Welcome to urlscope"]);
    tmux.type_text("https://example.com/abc");
    tmux.wait_for(&["https://example.com/abc"]);
    // tmux sends C-h as the byte 0x08, as such a terminal does for Backspace.
    tmux.keys(&["C-h", "C-h"]);
    let screen = tmux.wait_without("https://example.com/abc");
    let screen = if input_line(&screen) == "https://example.com/a" {
        screen
    } else {
        // Between the two deletions.
        tmux.wait_without("https://example.com/ab")
    };
    assert_eq!(input_line(&screen), "https://example.com/a", "{screen}");
    assert!(
        !screen.contains("Keys ·"),
        "ctrl-h opened the help:\n{screen}"
    );
    tmux.keys(&["F1"]);
    tmux.wait_for(&["Keys · j/k scroll"]);
    tmux.keys(&["C-q"]);
    tmux.wait_until_exited();
}

/// The gallery's lesson: Esc closes it and says how the own URL comes back, ↑ brings it;
/// an edited example left with ctrl-n is kept in the history, as the status line says; an
/// input cleared with ctrl-u leaves the gallery for the welcome, which offers the own URL.
#[test]
fn the_gallery_banner_closes_and_drops_nothing() {
    let Some(tmux) = Tmux::new("gallery") else {
        return;
    };
    tmux.start(
        "gallery",
        80,
        24,
        &without_display("'https://mine.example/'"),
    );
    tmux.wait_for(&["https://mine.example/"]);
    tmux.keys(&["C-n"]);
    tmux.wait_for(&["Example 1/"]);
    tmux.keys(&["Escape"]);
    tmux.wait_for(&["Lesson closed. ↑ brings back your own URL"]);
    tmux.wait_without("Example 1/");
    tmux.keys(&["Up"]);
    let screen = tmux.wait_for(&["→ connects to mine.example"]);
    assert_eq!(input_line(&screen), "https://mine.example/");
    // An edit of an example is not dropped by the next one.
    tmux.keys(&["C-n"]);
    tmux.wait_for(&["Example 1/"]);
    tmux.type_text("zz");
    tmux.wait_for(&["edited since"]);
    tmux.keys(&["C-n"]);
    tmux.wait_for(&["Your edit of example 1 is in the history"]);
    tmux.keys(&["C-u"]);
    let screen = tmux.wait_for(&["Welcome to urlscope", "Left the gallery"]);
    assert!(!screen.contains("Example 2/"), "{screen}");
    assert!(
        screen.contains("↑ brings back your last URL: https://mine.example/"),
        "{screen}"
    );
    tmux.keys(&["Up", "Up"]);
    let screen = tmux.wait_for(&["zz"]);
    assert!(input_line(&screen).ends_with("zz"), "{screen}");
    tmux.keys(&["C-q"]);
    tmux.wait_until_exited();
}

/// A paste over 1 MiB (through tmux's bracketed paste, as a terminal pastes) is inspected
/// without its trace, and the screen says so: the status line at once, the Trace pane when
/// shown; typing goes on.
#[test]
fn a_big_paste_is_inspected_without_its_trace() {
    let Some(tmux) = Tmux::new("paste") else {
        return;
    };
    tmux.start("paste", 80, 24, &without_display(""));
    tmux.wait_for(&["Welcome to urlscope"]);
    let text = format!("https://example.com/{}", "a".repeat(1_100_000));
    let file = tmux.dir.join("paste");
    std::fs::write(&file, &text).expect("the paste");
    tmux.run(&["load-buffer", "-b", "big", &file.display().to_string()]);
    tmux.run(&[
        "paste-buffer",
        "-p",
        "-d",
        "-b",
        "big",
        "-t",
        &tmux.target(),
    ]);
    tmux.wait_for(&["Not traced: the input is 1100020 bytes, over the 1048576 (1 MiB)"]);
    tmux.type_text("b");
    tmux.keys(&["M-3"]);
    tmux.wait_for(&["Not traced: the input is 1100021 bytes"]);
    tmux.keys(&["C-q"]);
    tmux.wait_until_exited();
}

/// A handout: `--view trace --step 12` opens step 12 in step mode; the help shows the same
/// command and filters by typing after `/`; a step the trace does not have is refused with a
/// message and a non-zero exit, before the terminal is taken over.
#[test]
fn a_handout_opens_on_its_view_and_step() {
    let Some(tmux) = Tmux::new("handout") else {
        return;
    };
    tmux.start(
        "handout",
        80,
        24,
        &without_display("'https://exa%6Dple.com/a?b' --base 'https://b/' --view trace --step 12"),
    );
    tmux.wait_for(&["step mode", "Why? Step 12 in the authority state"]);
    tmux.keys(&["F1"]);
    // The command wraps at 80 columns: "12" on the next line.
    let screen = tmux.wait_for(&[
        "This view as a command",
        "urlscope 'https://exa%6Dple.com/a?b' --base 'https://b/' --view trace --step",
    ]);
    assert!(screen.contains("│12 "), "{screen}");
    tmux.keys(&["/"]);
    tmux.type_text("mouse");
    let screen = tmux.wait_for(&["Keys · filter: mouse", "mouse capture on/off"]);
    assert!(!screen.contains("copy the href"), "{screen}");
    tmux.keys(&["Escape", "Escape"]);
    tmux.wait_without("Keys ·");
    tmux.wait_for(&["Why? Step 12", "2 Base"]);
    tmux.keys(&["C-q"]);
    tmux.wait_until_exited();

    // The shell stays to show the exit status: tmux 3.3 can lose what a pane that ends at
    // once has written.
    tmux.start(
        "refused",
        80,
        24,
        &format!(
            "{}; echo \"exit $?\"; sleep 30",
            without_display("'https://a/' --step 999")
        ),
    );
    tmux.wait_for(&[
        "urlscope: --step 999: the trace of this input has 16 steps, 0 to 15",
        "exit 1",
    ]);
    assert_eq!(tmux.pane("#{alternate_on}"), "0");
}

/// The Pattern view as a person reaches it: --pattern opens on it; the verdict names the
/// failing component; Enter edits the pattern and every keystroke matches again (C-h deletes
/// there too); Esc leaves the line with the pattern kept; i turns ignoreCase on.
#[test]
fn the_pattern_view_matches_as_the_pattern_is_typed() {
    let Some(tmux) = Tmux::new("pattern") else {
        return;
    };
    tmux.start(
        "pattern",
        120,
        40,
        &without_display("'https://example.com/Books/7' --pattern 'https://example.com/books/:id'"),
    );
    tmux.wait_for(&[
        "0 URL pattern",
        "✗ no match: the pathname \"/Books/7\" does not match",
    ]);
    tmux.keys(&["i"]);
    tmux.wait_for(&[
        "URL pattern · ignoreCase",
        "✓ match: every component matches",
    ]);
    tmux.keys(&["i", "Enter"]);
    tmux.wait_for(&["Enter/Esc done"]);
    // Backspace over ":id", then a wildcard: the pathname matches again.
    tmux.keys(&["C-h", "C-h", "C-h"]);
    tmux.type_text("*");
    let screen = tmux.wait_for(&["pattern https://example.com/books/*", "✗ no match"]);
    assert!(screen.contains("/^\\/books(?:\\/(.*))$/v"), "{screen}");
    tmux.keys(&["C-u"]);
    tmux.type_text("https://example.com/:section/:id");
    tmux.wait_for(&["✓ match", "section = \"Books\""]);
    tmux.keys(&["Escape"]);
    let screen = tmux.wait_without("Enter/Esc done");
    assert!(
        screen.contains("pattern https://example.com/:section/:id"),
        "Esc dropped the pattern:\n{screen}"
    );
    tmux.keys(&["C-q"]);
    tmux.wait_until_exited();
}
