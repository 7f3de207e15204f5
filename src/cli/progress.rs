//! The progress line of a long batch: lines read, their rate and the time taken, on standard
//! error while it is a terminal (indicatif draws nothing on a pipe or a file), unless `--quiet`.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;

/// Whether a batch shows its progress: only to a person watching a terminal, who did not ask
/// for quiet. A log or a pipe on standard error gets the messages alone.
pub fn shown(quiet: bool, stderr_is_terminal: bool) -> bool {
    !quiet && stderr_is_terminal
}

/// The progress line, or nothing.
#[derive(Debug)]
pub struct Progress {
    bar: Option<ProgressBar>,
}

impl Progress {
    /// The progress line of this run: shown when [`shown`] says so for this standard error.
    pub fn new(quiet: bool) -> Progress {
        if !shown(quiet, std::io::stderr().is_terminal()) {
            return Progress::hidden();
        }
        let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr_with_hz(4));
        if let Ok(style) = ProgressStyle::with_template(
            "{spinner} {human_pos} lines  {per_sec}  {elapsed_precise}  {msg}",
        ) {
            bar.set_style(style);
        }
        Progress { bar: Some(bar) }
    }

    pub fn hidden() -> Progress {
        Progress { bar: None }
    }

    /// Names the input being read (a file, standard input).
    pub fn reading(&self, name: &str) {
        if let Some(bar) = &self.bar {
            bar.set_message(name.to_owned());
        }
    }

    pub fn add(&self, lines: usize) {
        if let Some(bar) = &self.bar {
            bar.inc(lines as u64);
        }
    }

    /// Runs `f` (which writes to standard error) with the progress line out of its way.
    pub fn suspend<R>(&self, f: impl FnOnce() -> R) -> R {
        match &self.bar {
            Some(bar) => bar.suspend(f),
            None => f(),
        }
    }

    /// Takes the line off the terminal.
    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_terminal_without_quiet_sees_progress() {
        assert!(shown(false, true));
        assert!(!shown(true, true));
        assert!(!shown(false, false));
        assert!(!shown(true, false));
    }
}
