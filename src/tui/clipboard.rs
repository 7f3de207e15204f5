//! Copying text so that it outlives the inspector.
//!
//! On X11 (and Wayland) the program that copied serves the text itself, so a clipboard held by
//! the inspector dies with it: "copy, quit, paste into the browser" would paste nothing. The
//! text goes instead to a small background process — this same binary, started with
//! [`SERVE_ENV`] set — that takes the clipboard with arboard and serves it until another
//! program takes the clipboard over (arboard's Linux `wait`). Where no clipboard can be reached
//! (no display, an SSH session), the OSC 52 escape sequence asks the terminal to do it; OSC 52
//! can also be sent in addition, when asked for.

use std::io::{self, BufRead, BufReader, Read, Write};
use std::path::PathBuf;
use std::process::{Child, Command, ExitCode, Stdio};
use std::sync::mpsc;
use std::time::Duration;

/// Set in the environment of the background process that serves a copied text.
pub const SERVE_ENV: &str = "URLSCOPE_SERVE_CLIPBOARD";

/// How long the inspector waits to hear that the clipboard was taken.
const TAKEN_WITHIN: Duration = Duration::from_secs(3);

/// How a copy was done.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Copied {
    /// A background process holds the system clipboard (and OSC 52 was also sent if `true`).
    Clipboard { osc52: bool },
    /// No system clipboard (why); OSC 52 was written instead.
    Osc52(String),
}

impl Copied {
    /// Where the text went, for the status line.
    pub fn place(&self) -> String {
        match self {
            Copied::Clipboard { osc52: false } => {
                "to the clipboard (kept after urlscope ends)".to_owned()
            }
            Copied::Clipboard { osc52: true } => {
                "to the clipboard (kept after urlscope ends) and to the terminal by OSC 52"
                    .to_owned()
            }
            Copied::Osc52(why) => {
                format!("to the terminal by OSC 52 (no system clipboard: {why})")
            }
        }
    }
}

/// The OSC 52 sequence that sets the clipboard to `text` (base64, as the sequence requires).
pub fn osc52(text: &str) -> String {
    format!("\u{1b}]52;c;{}\u{7}", base64(text.as_bytes()))
}

fn base64(bytes: &[u8]) -> String {
    const TABLE: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, &b)| n | u32::from(b) << (16 - 8 * i));
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(TABLE[(n >> (18 - 6 * i) & 0x3F) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// Whether a system clipboard could be reached. On Linux and the BSDs that takes an X11 or
/// Wayland display; without one, trying can block for seconds before it times out.
fn display_available() -> bool {
    if cfg!(any(target_os = "macos", target_os = "windows")) {
        return true;
    }
    ["DISPLAY", "WAYLAND_DISPLAY"]
        .iter()
        .any(|v| std::env::var_os(v).is_some_and(|v| !v.is_empty()))
}

/// The clipboard: the program that serves copies, and the copies still being served.
#[derive(Debug)]
pub struct Clipboard {
    program: Option<PathBuf>,
    /// Send OSC 52 as well as setting the system clipboard.
    pub osc52: bool,
    serving: Vec<Child>,
}

impl Default for Clipboard {
    fn default() -> Self {
        Clipboard::new(std::env::current_exe().ok(), false)
    }
}

impl Clipboard {
    /// A clipboard whose copies are served by `program` (a urlscope binary).
    pub fn new(program: Option<PathBuf>, osc52: bool) -> Self {
        Clipboard {
            program,
            osc52,
            serving: Vec::new(),
        }
    }

    /// Copies `text`; never fails: without a system clipboard it writes OSC 52 to `terminal`.
    pub fn copy(&mut self, text: &str, terminal: &mut impl Write) -> Copied {
        let fallback = |terminal: &mut dyn Write, why: String| {
            let _ = terminal.write_all(osc52(text).as_bytes());
            let _ = terminal.flush();
            Copied::Osc52(why)
        };
        if !display_available() {
            return fallback(terminal, "no DISPLAY or WAYLAND_DISPLAY".to_owned());
        }
        // Reap the servers that have handed the clipboard on.
        self.serving
            .retain_mut(|child| matches!(child.try_wait(), Ok(None)));
        match self.serve(text) {
            Ok(child) => {
                self.serving.push(child);
                if self.osc52 {
                    let _ = terminal.write_all(osc52(text).as_bytes());
                    let _ = terminal.flush();
                }
                Copied::Clipboard { osc52: self.osc52 }
            }
            Err(e) => fallback(terminal, e.to_string()),
        }
    }

    /// Starts a server for `text` and waits until it says it holds the clipboard.
    fn serve(&self, text: &str) -> io::Result<Child> {
        let program = self
            .program
            .as_ref()
            .ok_or_else(|| io::Error::other("the urlscope binary was not found"))?;
        let mut command = Command::new(program);
        command
            .env(SERVE_ENV, "1")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        // Its own process group: a ctrl-c or the terminal's hangup is not meant for it.
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut command, 0);
        let mut child = command.spawn()?;
        if let Some(mut stdin) = child.stdin.take() {
            stdin.write_all(text.as_bytes())?;
        }
        let stdout = child
            .stdout
            .take()
            .ok_or_else(|| io::Error::other("no pipe"))?;
        let (send, receive) = mpsc::channel();
        std::thread::spawn(move || {
            let mut line = String::new();
            let _ = BufReader::new(stdout).read_line(&mut line);
            let _ = send.send(line);
        });
        match receive.recv_timeout(TAKEN_WITHIN) {
            Ok(line) if line.trim_end() == "ok" => Ok(child),
            Ok(line) => {
                let _ = child.kill();
                let _ = child.wait();
                let why = line.trim_end().trim_start_matches("error: ");
                Err(io::Error::other(if why.is_empty() {
                    "the clipboard could not be taken".to_owned()
                } else {
                    why.to_owned()
                }))
            }
            Err(_) => {
                let _ = child.kill();
                let _ = child.wait();
                Err(io::Error::other("the clipboard did not answer"))
            }
        }
    }
}

/// In the background process: serves the text on standard input as the clipboard until
/// another program takes it. `None` when this process was not started for that.
pub fn serve_if_asked() -> Option<ExitCode> {
    std::env::var_os(SERVE_ENV)?;
    let mut text = String::new();
    if io::stdin().read_to_string(&mut text).is_err() {
        println!("error: the text to copy is not UTF-8");
        return Some(ExitCode::FAILURE);
    }
    let mut clipboard = match arboard::Clipboard::new().and_then(|mut c| {
        c.set_text(text.clone())?;
        Ok(c)
    }) {
        Ok(c) => c,
        Err(e) => {
            println!("error: {e}");
            return Some(ExitCode::FAILURE);
        }
    };
    println!("ok");
    let _ = io::stdout().flush();
    #[cfg(all(unix, not(target_os = "macos")))]
    {
        use arboard::SetExtLinux;
        use std::time::Instant;
        // Serve until another program takes the clipboard. Every few seconds, make sure the
        // display is still there: a server whose display has gone would otherwise wait for ever.
        loop {
            let deadline = Instant::now() + Duration::from_secs(5);
            if clipboard
                .set()
                .wait_until(deadline)
                .text(text.clone())
                .is_err()
                || Instant::now() < deadline
            {
                break;
            }
            if clipboard.get_text().ok().as_deref() != Some(text.as_str()) {
                break;
            }
        }
    }
    #[cfg(not(all(unix, not(target_os = "macos"))))]
    let _ = &mut clipboard;
    Some(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn osc52_encodes_base64() {
        assert_eq!(osc52("https://a/"), "\u{1b}]52;c;aHR0cHM6Ly9hLw==\u{7}");
        assert_eq!(base64(b"ab"), "YWI=");
        assert_eq!(base64(b"abc"), "YWJj");
        assert_eq!(base64(b""), "");
    }
}
