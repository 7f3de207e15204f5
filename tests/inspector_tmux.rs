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
    let screen = tmux.wait_for(&["1 Input"]);
    assert!(!screen.contains("Keys · j/k scroll"), "{screen}");
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
    tmux.wait_for(&["3 Trace  4 Components", "1 Input", "2 Base"]);
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
