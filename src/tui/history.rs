//! The history of inputs with their bases, kept in [`default_file`] (one JSON object per line),
//! readable and writable by the user only. URLs can carry credentials and tokens: this file is
//! the only place the inspector writes them.

use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

/// Entries kept; older ones are dropped when the file is written.
pub const LIMIT: usize = 500;
/// Longer pairs (input and base together, 64 KiB) are not remembered: the whole file is read
/// at every start, and a few 16 MiB pastes would make each start slow. The inspector says so
/// when Enter would remember one.
pub const MAX_ENTRY: usize = 64 * 1024;

/// What [`History::push`] did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pushed {
    Added,
    /// An empty input is not remembered.
    Empty,
    /// The pair is this many bytes, over [`MAX_ENTRY`].
    TooLong(usize),
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entry {
    pub input: String,
    #[serde(default)]
    pub base: String,
}

#[derive(Debug, Default)]
pub struct History {
    pub entries: Vec<Entry>,
    /// Where the history lives; `None`: not kept (`--no-history`, or no state directory).
    file: Option<PathBuf>,
}

/// Where the history lives: on Linux and the other XDG systems the state directory,
/// `$XDG_STATE_HOME/urlscope/history` or `~/.local/state/urlscope/history`; where there is no
/// state directory, the user's data directory: `~/Library/Application Support/urlscope/history`
/// on macOS, `%APPDATA%\urlscope\history` on Windows (the roaming profile, as a shell's history
/// is kept). `None` only when the system names no home for the user.
pub fn default_file() -> Option<PathBuf> {
    let dir = dirs::state_dir().or_else(dirs::data_dir)?;
    Some(dir.join("urlscope").join("history"))
}

impl History {
    /// A history kept in `file` (read now; a missing or unreadable file is an empty history).
    pub fn open(file: Option<PathBuf>) -> Self {
        let entries = file
            .as_deref()
            .and_then(|f| fs::read_to_string(f).ok())
            .map(|text| {
                text.lines()
                    .filter_map(|line| serde_json::from_str(line).ok())
                    .collect()
            })
            .unwrap_or_default();
        History { entries, file }
    }

    pub fn file(&self) -> Option<&Path> {
        self.file.as_deref()
    }

    /// Adds a pair at the end (moving it there if it is already in the history).
    pub fn push(&mut self, input: &str, base: &str) -> Pushed {
        if input.is_empty() {
            return Pushed::Empty;
        }
        let length = input.len() + base.len();
        if length > MAX_ENTRY {
            return Pushed::TooLong(length);
        }
        let entry = Entry {
            input: input.to_owned(),
            base: base.to_owned(),
        };
        if self.entries.last() != Some(&entry) {
            self.entries.retain(|e| *e != entry);
            self.entries.push(entry);
        }
        Pushed::Added
    }

    /// Writes the file (creating its directory for the user only).
    pub fn save(&self) -> io::Result<()> {
        let Some(file) = &self.file else {
            return Ok(());
        };
        if let Some(dir) = file.parent() {
            let mut builder = fs::DirBuilder::new();
            builder.recursive(true);
            #[cfg(unix)]
            std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
            builder.create(dir)?;
        }
        let mut text = String::new();
        let skip = self.entries.len().saturating_sub(LIMIT);
        for entry in &self.entries[skip..] {
            text.push_str(&serde_json::to_string(entry).map_err(io::Error::other)?);
            text.push('\n');
        }
        // Written beside and renamed, so that a crash never leaves half a file.
        let temporary = file.with_extension("new");
        let mut options = fs::OpenOptions::new();
        options.write(true).create(true).truncate(true);
        #[cfg(unix)]
        std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
        let mut out = options.open(&temporary)?;
        out.write_all(text.as_bytes())?;
        out.sync_all()?;
        fs::rename(&temporary, file)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairs_survive_a_restart_with_user_only_permissions() {
        let dir = std::env::temp_dir().join(format!("urlscope-history-{}", std::process::id()));
        let file = dir.join("urlscope").join("history");
        let _ = fs::remove_dir_all(&dir);
        let mut history = History::open(Some(file.clone()));
        assert!(history.entries.is_empty());
        history.push("../g", "http://a/b/c/d;p?q");
        history.push("https://e/\n\"quoted\"", "");
        history.push("../g", "http://a/b/c/d;p?q");
        history.save().expect("saved");
        let again = History::open(Some(file.clone()));
        assert_eq!(
            again.entries,
            [
                Entry {
                    input: "https://e/\n\"quoted\"".into(),
                    base: String::new()
                },
                Entry {
                    input: "../g".into(),
                    base: "http://a/b/c/d;p?q".into()
                }
            ]
        );
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = |p: &Path| fs::metadata(p).expect("exists").permissions().mode() & 0o777;
            assert_eq!(mode(&file), 0o600);
            assert_eq!(mode(file.parent().expect("dir")), 0o700);
        }
        let _ = fs::remove_dir_all(&dir);
    }

    /// The history has a home on every system: before, it followed the XDG state directory
    /// alone, which macOS and Windows do not have, and was never kept there.
    #[test]
    fn the_history_has_a_home_on_this_system() {
        let file = default_file().expect("a history file");
        assert!(file.is_absolute(), "{}", file.display());
        assert!(file.ends_with(Path::new("urlscope").join("history")));
        // What the system itself names, read without dirs.
        let home = |name: &str| {
            std::env::var_os(name)
                .filter(|v| !v.is_empty())
                .map(PathBuf::from)
        };
        #[cfg(windows)]
        let expected = home("APPDATA").expect("%APPDATA%");
        #[cfg(target_os = "macos")]
        let expected = home("HOME")
            .expect("$HOME")
            .join("Library")
            .join("Application Support");
        #[cfg(not(any(windows, target_os = "macos")))]
        let expected = home("XDG_STATE_HOME")
            .filter(|d| d.is_absolute())
            .or_else(|| home("HOME").map(|h| h.join(".local").join("state")))
            .expect("$HOME");
        assert_eq!(file, expected.join("urlscope").join("history"));
    }

    /// A pair up to 64 KiB is kept across a restart; a longer one is refused with its
    /// length, so that the inspector can say it was not remembered.
    #[test]
    fn the_limit_is_where_the_file_stops_keeping_pairs() {
        let dir = std::env::temp_dir().join(format!("urlscope-limit-{}", std::process::id()));
        let file = dir.join("history");
        let _ = fs::remove_dir_all(&dir);
        let mut history = History::open(Some(file.clone()));
        let at_limit = format!("https://a/{}", "x".repeat(MAX_ENTRY - 10 - 9));
        assert_eq!(history.push(&at_limit, "https://b"), Pushed::Added);
        let over = "x".repeat(70 * 1024);
        assert_eq!(history.push(&over, ""), Pushed::TooLong(70 * 1024));
        assert_eq!(history.push("", "https://b"), Pushed::Empty);
        history.save().expect("saved");
        let again = History::open(Some(file));
        assert_eq!(again.entries.len(), 1);
        assert_eq!(
            again.entries[0].input.len() + again.entries[0].base.len(),
            MAX_ENTRY
        );
        let _ = fs::remove_dir_all(&dir);
    }
}
