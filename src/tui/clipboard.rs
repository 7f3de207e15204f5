//! Copying text so that it outlives the inspector.
//!
//! On X11 (and Wayland) the program that copied serves the text itself, so a clipboard held by
//! the inspector dies with it: "copy, quit, paste into the browser" would paste nothing. The
//! text goes instead to a small background process — this same binary, started with
//! [`SERVE_ENV`] set — that takes the clipboard with arboard and serves it until another
//! program takes the clipboard over (arboard's Linux `wait`). Where no clipboard can be reached
//! (no display, an SSH session), the OSC 52 escape sequence asks the terminal to do it; OSC 52
//! can also be sent in addition, when asked for.
//!
//! Inside tmux an application's OSC 52 reaches the terminal only with `set-clipboard on`; with
//! tmux's default, `external`, tmux drops it. So inside tmux the text goes to tmux itself:
//! `tmux load-buffer -w` puts it in tmux's paste buffer and has tmux send it on to the terminal's
//! clipboard, whatever `set-clipboard` says.

use std::io::{self, BufRead, BufReader, Read, Write};
use std::path::PathBuf;
use std::process::{Child, Command, ExitCode, Stdio};
use std::sync::mpsc;
use std::time::Duration;

/// Set in the environment of the background process that serves a copied text.
pub const SERVE_ENV: &str = "URLSCOPE_SERVE_CLIPBOARD";

/// How long the inspector waits to hear that the clipboard was taken.
const TAKEN_WITHIN: Duration = Duration::from_secs(3);

/// How a text was handed to the terminal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Sent {
    /// OSC 52 written to the terminal, which copies it if it allows OSC 52 (nothing answers).
    Osc52,
    /// Into tmux's paste buffer, with tmux asked to send it on to the terminal's clipboard.
    Tmux,
    /// Inside tmux, which could not be reached (why): OSC 52 written, which tmux passes on
    /// only with `set-clipboard on`.
    Osc52InTmux(String),
}

/// How a copy was done.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Copied {
    /// A background process holds the system clipboard; `also`: sent to the terminal too
    /// (`--osc52`).
    Clipboard { also: Option<Sent> },
    /// No system clipboard (`why`): handed to the terminal only.
    Terminal { sent: Sent, why: String },
}

impl Copied {
    /// The status line's message: where the text went first (the words that matter when the
    /// line is cut), then what it was. "Copied" only where something confirmed it.
    pub fn status(&self, what: &str, shown: &str) -> String {
        let also = |sent: &Sent| match sent {
            Sent::Osc52 => " and sent to the terminal by OSC 52".to_owned(),
            Sent::Tmux => " and to tmux's paste buffer".to_owned(),
            Sent::Osc52InTmux(_) => {
                " (the OSC 52 copy passes tmux only with `set-clipboard on`)".to_owned()
            }
        };
        match self {
            Copied::Clipboard { also: sent } => format!(
                "Copied to the clipboard (kept after urlscope ends){}: the {what} {shown}",
                sent.as_ref().map_or(String::new(), also)
            ),
            Copied::Terminal {
                sent: Sent::Tmux,
                why,
            } => format!(
                "Copied to tmux's buffer (the terminal's clipboard if tmux and it allow): the {what} \
                 {shown} (no system clipboard: {why})"
            ),
            Copied::Terminal {
                sent: Sent::Osc52,
                why,
            } => format!(
                "Sent to the terminal by OSC 52; it copies if the terminal allows OSC 52: the \
                 {what} {shown} (no system clipboard: {why})"
            ),
            Copied::Terminal {
                sent: Sent::Osc52InTmux(tmux),
                why,
            } => format!(
                "Not copied unless tmux has `set-clipboard on` (OSC 52 sent; tmux: {tmux}): the \
                 {what} {shown} (no system clipboard: {why})"
            ),
        }
    }
}

/// Whether the inspector runs inside tmux (`$TMUX` names its server).
fn inside_tmux() -> bool {
    std::env::var_os("TMUX").is_some_and(|v| !v.is_empty())
}

/// How long tmux may take to take a buffer.
const TMUX_WITHIN: Duration = Duration::from_secs(2);

/// Puts `text` into the paste buffer of the tmux server in `$TMUX`, and has tmux send it to
/// the terminal's clipboard (`load-buffer -w`, tmux 3.2 on; an older tmux gets the buffer
/// only).
fn tmux_load_buffer(text: &str) -> io::Result<()> {
    let run = |args: &[&str]| -> io::Result<()> {
        let mut child = Command::new("tmux")
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()?;
        if let Some(mut stdin) = child.stdin.take() {
            stdin.write_all(text.as_bytes())?;
        }
        let deadline = std::time::Instant::now() + TMUX_WITHIN;
        let status = loop {
            if let Some(status) = child.try_wait()? {
                break status;
            }
            if std::time::Instant::now() > deadline {
                let _ = child.kill();
                let _ = child.wait();
                return Err(io::Error::other("tmux did not answer"));
            }
            std::thread::sleep(Duration::from_millis(5));
        };
        if status.success() {
            return Ok(());
        }
        let mut message = String::new();
        if let Some(mut stderr) = child.stderr.take() {
            let _ = stderr.read_to_string(&mut message);
        }
        let message = message.trim();
        Err(io::Error::other(if message.is_empty() {
            format!("tmux load-buffer ended with {status}")
        } else {
            message.to_owned()
        }))
    };
    run(&["load-buffer", "-w", "-"]).or_else(|_| run(&["load-buffer", "-"]))
}

/// Hands `text` to the terminal: through tmux inside tmux, else by OSC 52.
fn send_to_terminal(text: &str, terminal: &mut dyn Write) -> Sent {
    if inside_tmux() {
        match tmux_load_buffer(text) {
            Ok(()) => return Sent::Tmux,
            Err(e) => {
                let _ = terminal.write_all(osc52(text).as_bytes());
                let _ = terminal.flush();
                return Sent::Osc52InTmux(e.to_string());
            }
        }
    }
    let _ = terminal.write_all(osc52(text).as_bytes());
    let _ = terminal.flush();
    Sent::Osc52
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

    /// Copies `text`; never fails: without a system clipboard it hands the text to the
    /// terminal (through tmux inside tmux, else by OSC 52), and says how.
    pub fn copy(&mut self, text: &str, terminal: &mut impl Write) -> Copied {
        let fallback = |terminal: &mut dyn Write, why: String| Copied::Terminal {
            sent: send_to_terminal(text, terminal),
            why,
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
                let also = self.osc52.then(|| send_to_terminal(text, terminal));
                Copied::Clipboard { also }
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
