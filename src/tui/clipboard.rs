//! Copying text: the system clipboard through arboard; where no clipboard can be reached (no
//! display, an SSH session), the OSC 52 escape sequence asks the terminal to do it.

use std::io::Write;

/// How a copy was done.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Copied {
    Clipboard,
    /// arboard failed (its message); OSC 52 was written instead.
    Osc52(String),
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

/// The system clipboard, opened on first use and kept open: on X11 the copying program serves
/// the text itself, so the handle must live as long as the inspector does.
#[derive(Default)]
pub struct Clipboard {
    system: Option<arboard::Clipboard>,
}

impl std::fmt::Debug for Clipboard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Clipboard")
            .field("open", &self.system.is_some())
            .finish()
    }
}

impl Clipboard {
    /// Copies `text`; never fails: without a system clipboard it writes OSC 52 to `terminal`.
    pub fn copy(&mut self, text: &str, terminal: &mut impl Write) -> Copied {
        if !display_available() {
            let _ = terminal.write_all(osc52(text).as_bytes());
            let _ = terminal.flush();
            return Copied::Osc52("no DISPLAY or WAYLAND_DISPLAY".to_owned());
        }
        let result = match &mut self.system {
            Some(clipboard) => clipboard.set_text(text.to_owned()),
            None => arboard::Clipboard::new().and_then(|mut clipboard| {
                let result = clipboard.set_text(text.to_owned());
                self.system = Some(clipboard);
                result
            }),
        };
        match result {
            Ok(()) => Copied::Clipboard,
            Err(e) => {
                let _ = terminal.write_all(osc52(text).as_bytes());
                let _ = terminal.flush();
                Copied::Osc52(e.to_string())
            }
        }
    }
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
