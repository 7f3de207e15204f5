//! The inspector gives the terminal back on every way out: it runs in a pseudo-terminal (made
//! by util-linux `script`), and after it ends the bytes it wrote must leave the alternate
//! screen, turn bracketed paste and mouse capture off and show the cursor again — after ctrl-c,
//! after SIGTERM or SIGHUP, and after a panic (debug builds panic on request after drawing).
#![cfg(all(target_os = "linux", feature = "tui"))]

mod common;

use common::find;
use std::io::{Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::{Arc, Mutex};
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
    children(pid).first().copied()
}

/// The processes `pid` started (of all its threads).
fn children(pid: u32) -> Vec<u32> {
    let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) else {
        return Vec::new();
    };
    tasks
        .flatten()
        .filter_map(|task| std::fs::read_to_string(task.path().join("children")).ok())
        .flat_map(|c| {
            c.split_whitespace()
                .filter_map(|p| p.parse().ok())
                .collect::<Vec<u32>>()
        })
        .collect()
}

/// Every process under `pid`: its children, theirs, and so on.
fn descendants(pid: u32) -> Vec<u32> {
    let mut all = Vec::new();
    let mut next = children(pid);
    while let Some(p) = next.pop() {
        next.extend(children(p));
        all.push(p);
    }
    all
}

/// A process's command line, its arguments joined by spaces.
fn command_line(pid: u32) -> String {
    std::fs::read(format!("/proc/{pid}/cmdline"))
        .map(|c| String::from_utf8_lossy(&c).replace('\0', " "))
        .unwrap_or_default()
}

/// The processor time a process has used, in clock ticks (user and system).
fn cpu_ticks(pid: u32) -> u64 {
    let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
        return 0;
    };
    // After the parenthesised name: state is field 3, utime and stime fields 14 and 15.
    let Some((_, rest)) = stat.rsplit_once(')') else {
        return 0;
    };
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ticks = |i: usize| {
        fields
            .get(i)
            .and_then(|f| f.parse::<u64>().ok())
            .unwrap_or(0)
    };
    ticks(11) + ticks(12)
}

/// How the inspector is started.
#[derive(Default)]
struct Setup<'a> {
    /// Its arguments (the input by default).
    args: &'a [&'a str],
    /// Debug builds' panic after the first frame.
    panic_after_draw: bool,
    /// A character whose key panics (debug builds).
    panic_on_key: Option<char>,
    /// Where the history is kept (`XDG_STATE_HOME`); none: `--no-history`.
    state: Option<&'a std::path::Path>,
    /// The inspector's `PATH`, when not the test's.
    path: Option<&'a std::path::Path>,
}

/// The inspector running in a pseudo-terminal.
struct Running {
    /// `script`, which holds the pseudo-terminal's master side; its stdin is piped.
    script: Child,
    /// The inspector's process (`script`'s only child).
    child: u32,
    /// Everything the inspector has written to the terminal so far.
    written: Arc<Mutex<Vec<u8>>>,
    /// Reads the terminal until `script` ends.
    output: JoinHandle<()>,
}

impl Running {
    /// What the inspector has written so far, as text.
    fn text(&self) -> String {
        let written = self.written.lock().expect("output");
        String::from_utf8_lossy(&written).into_owned()
    }

    /// Waits until the inspector has written `needle` after entering the alternate screen and
    /// after the first `since` bytes.
    fn wait_for(&self, needle: &str, since: usize, what: &str) {
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            let text = self.text();
            if let Some(entered) = text.find("\x1b[?1049h") {
                if text
                    .get(entered.max(since)..)
                    .is_some_and(|t| t.contains(needle))
                {
                    return;
                }
            }
            if Instant::now() > deadline {
                let _ = Command::new("kill")
                    .args(["-9", &self.child.to_string()])
                    .status();
                panic!("{what} never came (no {needle:?} on the terminal): {text:?}");
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Everything the inspector wrote, once `script` has ended.
    fn finish(self) -> String {
        self.output.join().expect("reader");
        let written = self.written.lock().expect("output");
        String::from_utf8_lossy(&written).into_owned()
    }
}

/// Starts the inspector in a 120x40 pseudo-terminal and waits for its first frame.
fn start(setup: &Setup) -> Running {
    let binary = env!("CARGO_BIN_EXE_urlscope");
    let args: &[&str] = if setup.args.is_empty() {
        &["https://example.com/a?b#c"]
    } else {
        setup.args
    };
    // The arguments in single quotes (none of the tests' has one).
    let quoted: Vec<String> = args.iter().map(|a| format!("'{a}'")).collect();
    let history = if setup.state.is_some() {
        ""
    } else {
        "--no-history "
    };
    let mut script = Command::new(find("script").expect("script is there"));
    script
        .args(["-q", "-e", "-c"])
        .arg(format!(
            "{} cols 120 rows 40; exec {binary} {history}{}",
            find("stty").expect("stty is there").display(),
            quoted.join(" ")
        ))
        .envs(setup.path.map(|p| ("PATH", p.to_owned())))
        .arg("/dev/null")
        .env("TERM", "xterm-256color")
        .env_remove("DISPLAY")
        .env_remove("URLSCOPE_PANIC_AFTER_DRAW")
        .env_remove("URLSCOPE_PANIC_ON_KEY")
        .envs(
            setup
                .panic_after_draw
                .then_some(("URLSCOPE_PANIC_AFTER_DRAW", "1".to_owned())),
        )
        .envs(
            setup
                .panic_on_key
                .map(|c| ("URLSCOPE_PANIC_ON_KEY", c.to_string())),
        )
        .envs(setup.state.map(|dir| ("XDG_STATE_HOME", dir.to_owned())))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null());
    let mut script = script.spawn().expect("script runs");
    let mut stdout = script.stdout.take().expect("piped");
    let written = Arc::new(Mutex::new(Vec::new()));
    let output = {
        let written = Arc::clone(&written);
        std::thread::spawn(move || {
            let mut buffer = [0u8; 4096];
            while let Ok(n) = stdout.read(&mut buffer) {
                if n == 0 {
                    break;
                }
                written
                    .lock()
                    .expect("output")
                    .extend_from_slice(&buffer[..n]);
            }
        })
    };
    // The child appears once script has forked.
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
    let running = Running {
        script,
        child,
        written,
        output,
    };
    // The first frame: the input on the screen (a panic after drawing may come right after).
    running.wait_for("example.com", 0, "the first frame");
    running
}

/// Ends the inspector with `end`: `ctrl-c`, `ctrl-q`, a key that panics (`panic-key`), a
/// signal's name (`TERM`, `HUP`), `close` (the terminal goes away), or `panic` (it ends by
/// itself). Waits for it to end.
fn end_with(running: &mut Running, stdin: &mut ChildStdin, end: &str) {
    let child = running.child;
    match end {
        "panic" => {}
        // In raw mode keys, which quit from any pane.
        "ctrl-c" => stdin.write_all(b"\x03").expect("write ctrl-c"),
        "ctrl-q" => stdin.write_all(b"\x11").expect("write ctrl-q"),
        "panic-key" => stdin.write_all(b"!").expect("write the key"),
        // A terminal window closed or a tmux server killed: the pseudo-terminal's master side
        // goes away at once, and the inspector's reads of its terminal return end-of-file.
        "close" => {
            running.script.kill().expect("kill script");
        }
        signal => {
            let status = Command::new("kill")
                .args([&format!("-{signal}"), &child.to_string()])
                .status()
                .expect("kill runs");
            assert!(status.success());
        }
    }
    let deadline = Instant::now() + Duration::from_secs(20);
    while !has_ended(child) {
        if Instant::now() > deadline {
            // Leave nothing running behind a failed test.
            let _ = Command::new("kill")
                .args(["-9", &child.to_string()])
                .status();
            let _ = running.script.kill();
            panic!("the inspector did not end after {end}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    running.script.wait().expect("script ends");
}

/// Runs the inspector in a pseudo-terminal, lets it draw, ends it with `end`, and returns
/// everything it wrote to the terminal.
fn run_and_end(end: &str) -> String {
    let mut running = start(&Setup {
        panic_after_draw: end == "panic",
        ..Setup::default()
    });
    let mut stdin = running.script.stdin.take().expect("piped");
    end_with(&mut running, &mut stdin, end);
    drop(stdin);
    running.finish()
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
    let mut running = start(&Setup::default());
    let mut stdin = running.script.stdin.take().expect("piped");
    end_with(&mut running, &mut stdin, "close");
}

const CATASTROPHIC_INPUT: &str = "https://example.com/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaac";
const CATASTROPHIC_PATTERN: &str = "https://example.com/:x((?:a+)+b)";

/// Opens the Pattern view on a pattern whose regular expression backtracks catastrophically
/// on the input, waits until Node is busy reading it, ends the inspector with `end`, and
/// asserts that no process it started is left: neither Node's reading nor the Parsers pane's
/// adapters.
fn no_process_outlives_the_inspector(end: &str) {
    if !can_make_a_pty(&format!("the adapters' end on {end}")) {
        return;
    }
    if end.starts_with("panic") && !cfg!(debug_assertions) {
        eprintln!("release build: the inspector has no panic on request; not checked");
        return;
    }
    // Only the runtimes that start in a moment: the inspector must not get to wait for a slow
    // one (Java compiles its adapter first), which would leave Node's reading time to reach
    // its own time limit before the exit.
    let path =
        std::env::temp_dir().join(format!("urlscope-exit-path-{end}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&path);
    std::fs::create_dir_all(&path).expect("a PATH directory");
    for runtime in ["node", "python3"] {
        if let Some(program) = find(runtime) {
            std::os::unix::fs::symlink(program, path.join(runtime)).expect("a link");
        }
    }
    // Whether Node can read a pattern here at all (its own URLPattern, else the polyfill in
    // urlscope's cache), asked as the inspector will ask it: without it, the inspector's screen
    // would only say so after Node's reading was waited for in vain.
    let probe = Command::new(env!("CARGO_BIN_EXE_urlscope"))
        .args(["pattern", "https://example.com/a", "--json"])
        .env("PATH", &path)
        .output()
        .expect("urlscope runs");
    let probe: serde_json::Value =
        serde_json::from_slice(&probe.stdout).expect("pattern --json writes JSON");
    if probe["node_reading"]["available"] != true {
        let _ = std::fs::remove_dir_all(&path);
        assert!(
            std::env::var_os("URLSCOPE_REQUIRE_RUNTIMES").is_none(),
            "Node's reading of a pattern is not available: {}",
            probe["node_reading"]
        );
        eprintln!(
            "Node's reading is not available here ({}): the adapters' end on {end} not checked",
            probe["node_reading"]["error"]
        );
        return;
    }
    let mut running = start(&Setup {
        args: &[CATASTROPHIC_INPUT, "--pattern", CATASTROPHIC_PATTERN],
        panic_on_key: Some('!'),
        path: Some(&path),
        ..Setup::default()
    });
    let mut stdin = running.script.stdin.take().expect("piped");
    // Node's reading, busy with the pattern: it has used half a second of processor time (its
    // start takes a tenth of that), well before the adapter's own 5 s limit stops it.
    let deadline = Instant::now() + Duration::from_secs(60);
    let node = loop {
        let busy = descendants(running.child).into_iter().find(|&p| {
            command_line(p).contains("urlpattern.js") && !has_ended(p) && cpu_ticks(p) >= 50
        });
        if let Some(node) = busy {
            break Some(node);
        }
        if running.text().contains("no reading") || Instant::now() > deadline {
            break None;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let Some(node) = node else {
        let text = running.text();
        end_with(&mut running, &mut stdin, "ctrl-q");
        let _ = std::fs::remove_dir_all(&path);
        assert!(
            std::env::var_os("URLSCOPE_REQUIRE_RUNTIMES").is_none(),
            "Node's reading never got busy: {text:?}"
        );
        eprintln!("Node's reading is not available here: the adapters' end on {end} not checked");
        return;
    };
    let started = descendants(running.child);
    assert!(started.contains(&node));
    let names: Vec<String> = started.iter().map(|&p| command_line(p)).collect();
    end_with(&mut running, &mut stdin, end);
    drop(stdin);
    let _ = running.finish();
    // Only now: the inspector looks Node up on this PATH when it first asks, in the background,
    // which can come after its first frame.
    let _ = std::fs::remove_dir_all(&path);
    // Stopped and reaped by the inspector, or killed and left to init to reap.
    let deadline = Instant::now() + Duration::from_secs(5);
    let left = loop {
        let left: Vec<(u32, String)> = started
            .iter()
            .zip(&names)
            .filter(|(&p, _)| !has_ended(p))
            .map(|(&p, n)| (p, n.clone()))
            .collect();
        if left.is_empty() || Instant::now() > deadline {
            break left;
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    for (pid, _) in &left {
        let _ = Command::new("kill").args(["-9", &pid.to_string()]).status();
    }
    assert!(
        left.is_empty(),
        "{} of the {} processes the inspector started outlived it after {end}: {left:?}",
        left.len(),
        started.len()
    );
}

#[test]
fn quitting_with_ctrl_q_stops_every_process_it_started() {
    no_process_outlives_the_inspector("ctrl-q");
}

#[test]
fn quitting_with_ctrl_c_stops_every_process_it_started() {
    no_process_outlives_the_inspector("ctrl-c");
}

#[test]
fn sigterm_stops_every_process_it_started() {
    no_process_outlives_the_inspector("TERM");
}

#[test]
fn sighup_stops_every_process_it_started() {
    no_process_outlives_the_inspector("HUP");
}

#[test]
fn closing_the_terminal_stops_every_process_it_started() {
    no_process_outlives_the_inspector("close");
}

#[test]
fn a_panic_stops_every_process_it_started() {
    no_process_outlives_the_inspector("panic-key");
}

/// Types after the input, ends the inspector with `end`, and reads the history it kept.
fn typed_input_is_kept(end: &str) {
    if !can_make_a_pty(&format!("the history on {end}")) {
        return;
    }
    let state = std::env::temp_dir().join(format!(
        "urlscope-exit-history-{end}-{}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&state);
    std::fs::create_dir_all(&state).expect("a state directory");
    let mut running = start(&Setup {
        state: Some(&state),
        ..Setup::default()
    });
    let mut stdin = running.script.stdin.take().expect("piped");
    let before = running.text().len();
    stdin.write_all(b"xyz").expect("type");
    // Each key is drawn as it comes: the last one drawn, all three were taken.
    running.wait_for("z", before, "the typed text");
    end_with(&mut running, &mut stdin, end);
    drop(stdin);
    let _ = running.finish();
    let history = std::fs::read_to_string(state.join("urlscope").join("history"))
        .unwrap_or_else(|e| panic!("no history after {end}: {e}"));
    let _ = std::fs::remove_dir_all(&state);
    let last = history.lines().last().unwrap_or_default();
    let entry: serde_json::Value = serde_json::from_str(last).expect("a JSON line");
    assert_eq!(
        entry,
        serde_json::json!({"input": "https://example.com/a?b#cxyz", "base": ""}),
        "after {end}"
    );
}

#[test]
fn sighup_keeps_the_typed_input_in_the_history() {
    typed_input_is_kept("HUP");
}

#[test]
fn sigterm_keeps_the_typed_input_in_the_history() {
    typed_input_is_kept("TERM");
}

#[test]
fn closing_the_terminal_keeps_the_typed_input_in_the_history() {
    typed_input_is_kept("close");
}

#[test]
fn ctrl_q_keeps_the_typed_input_in_the_history() {
    typed_input_is_kept("ctrl-q");
}
