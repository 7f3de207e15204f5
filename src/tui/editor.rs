//! A one-line text editor with a cursor, word moves, kill commands and undo/redo.
//!
//! The cursor is a char index (not a byte index), so it can never split a code point. Undo
//! keeps each edit (where, what went, what came), not copies of the line: a line may hold a
//! 16 MiB paste, and two hundred copies of it would not fit.

/// One edit: at byte `at`, `removed` was replaced by `inserted`; the cursor was `cursor`.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Change {
    at: usize,
    removed: String,
    inserted: String,
    cursor: usize,
}

/// Undo history is bounded so that a long session cannot grow without limit.
const UNDO_LIMIT: usize = 200;

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LineEditor {
    text: String,
    /// Cursor position in chars, `0..=len`.
    cursor: usize,
    undo: Vec<Change>,
    redo: Vec<Change>,
}

/// What an edit did, so that the caller knows whether to re-parse.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Edited {
    Text,
    CursorOnly,
    Nothing,
}

impl LineEditor {
    pub fn new(text: &str) -> Self {
        LineEditor {
            text: text.to_owned(),
            cursor: text.chars().count(),
            ..Self::default()
        }
    }

    pub fn text(&self) -> &str {
        &self.text
    }

    pub fn cursor(&self) -> usize {
        self.cursor
    }

    fn len(&self) -> usize {
        self.text.chars().count()
    }

    fn byte_at(&self, char_index: usize) -> usize {
        self.text
            .char_indices()
            .nth(char_index)
            .map_or(self.text.len(), |(i, _)| i)
    }

    /// Replaces bytes `range` with `with`, remembering the edit for undo.
    fn replace(&mut self, range: std::ops::Range<usize>, with: &str, cursor_after: usize) {
        let removed = self.text[range.clone()].to_owned();
        self.text.replace_range(range.clone(), with);
        self.undo.push(Change {
            at: range.start,
            removed,
            inserted: with.to_owned(),
            cursor: self.cursor,
        });
        if self.undo.len() > UNDO_LIMIT {
            self.undo.remove(0);
        }
        self.redo.clear();
        self.cursor = cursor_after;
    }

    /// Replaces the whole text (an entry from history or the gallery); undoable.
    pub fn set(&mut self, text: &str) -> Edited {
        if text == self.text {
            return Edited::Nothing;
        }
        let end = self.text.len();
        self.replace(0..end, text, text.chars().count());
        Edited::Text
    }

    pub fn insert(&mut self, s: &str) -> Edited {
        if s.is_empty() {
            return Edited::Nothing;
        }
        let at = self.byte_at(self.cursor);
        let after = self.cursor + s.chars().count();
        self.replace(at..at, s, after);
        Edited::Text
    }

    fn delete_range(&mut self, from: usize, to: usize) -> Edited {
        if from >= to {
            return Edited::Nothing;
        }
        let (a, b) = (self.byte_at(from), self.byte_at(to));
        self.replace(a..b, "", from);
        Edited::Text
    }

    pub fn backspace(&mut self) -> Edited {
        if self.cursor == 0 {
            return Edited::Nothing;
        }
        self.delete_range(self.cursor - 1, self.cursor)
    }

    pub fn delete(&mut self) -> Edited {
        self.delete_range(self.cursor, (self.cursor + 1).min(self.len()))
    }

    /// ctrl-w: delete the word before the cursor.
    pub fn delete_word_back(&mut self) -> Edited {
        let to = self.cursor;
        let from = self.word_start_before(to);
        self.delete_range(from, to)
    }

    /// ctrl-u: delete from the start of the line to the cursor.
    pub fn kill_to_start(&mut self) -> Edited {
        self.delete_range(0, self.cursor)
    }

    /// ctrl-k: delete from the cursor to the end of the line.
    pub fn kill_to_end(&mut self) -> Edited {
        self.delete_range(self.cursor, self.len())
    }

    fn move_to(&mut self, to: usize) -> Edited {
        let to = to.min(self.len());
        if to == self.cursor {
            return Edited::Nothing;
        }
        self.cursor = to;
        Edited::CursorOnly
    }

    /// Puts the cursor before the code point at `index` (a click).
    pub fn set_cursor(&mut self, index: usize) -> Edited {
        self.move_to(index)
    }

    pub fn left(&mut self) -> Edited {
        self.move_to(self.cursor.saturating_sub(1))
    }

    pub fn right(&mut self) -> Edited {
        self.move_to(self.cursor + 1)
    }

    pub fn home(&mut self) -> Edited {
        self.move_to(0)
    }

    pub fn end(&mut self) -> Edited {
        self.move_to(self.len())
    }

    /// Word boundaries: a URL's delimiters count as separators, so a word move stops at
    /// each component.
    fn is_word(c: char) -> bool {
        c.is_alphanumeric() || c == '_' || c == '-'
    }

    fn word_start_before(&self, at: usize) -> usize {
        let chars: Vec<char> = self.text.chars().collect();
        let mut i = at;
        while i > 0 && !Self::is_word(chars[i - 1]) {
            i -= 1;
        }
        while i > 0 && Self::is_word(chars[i - 1]) {
            i -= 1;
        }
        i
    }

    fn word_end_after(&self, at: usize) -> usize {
        let chars: Vec<char> = self.text.chars().collect();
        let mut i = at;
        while i < chars.len() && !Self::is_word(chars[i]) {
            i += 1;
        }
        while i < chars.len() && Self::is_word(chars[i]) {
            i += 1;
        }
        i
    }

    pub fn word_left(&mut self) -> Edited {
        self.move_to(self.word_start_before(self.cursor))
    }

    pub fn word_right(&mut self) -> Edited {
        self.move_to(self.word_end_after(self.cursor))
    }

    /// Applies `change` backwards (undo) and returns the change that redoes it.
    fn revert(&mut self, change: Change) -> Change {
        let end = change.at + change.inserted.len();
        self.text.replace_range(change.at..end, &change.removed);
        let redo_cursor = self.cursor;
        self.cursor = change.cursor;
        Change {
            at: change.at,
            removed: change.inserted,
            inserted: change.removed,
            cursor: redo_cursor,
        }
    }

    pub fn undo(&mut self) -> Edited {
        let Some(change) = self.undo.pop() else {
            return Edited::Nothing;
        };
        let redo = self.revert(change);
        self.redo.push(redo);
        Edited::Text
    }

    pub fn redo(&mut self) -> Edited {
        let Some(change) = self.redo.pop() else {
            return Edited::Nothing;
        };
        let undo = self.revert(change);
        self.undo.push(undo);
        Edited::Text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn editing_and_cursor() {
        let mut e = LineEditor::new("https://a/");
        assert_eq!(e.cursor(), 10);
        e.left();
        e.insert("é");
        assert_eq!(e.text(), "https://aé/");
        assert_eq!(e.cursor(), 10);
        e.backspace();
        e.delete();
        assert_eq!(e.text(), "https://a");
        e.home();
        assert_eq!(e.delete(), Edited::Text);
        assert_eq!(e.text(), "ttps://a");
        assert_eq!(e.left(), Edited::Nothing);
    }

    #[test]
    fn word_moves_stop_at_url_delimiters() {
        let mut e = LineEditor::new("https://example.com/path");
        e.word_left();
        assert_eq!(e.cursor(), 20);
        e.word_left();
        assert_eq!(e.cursor(), 16);
        e.word_right();
        assert_eq!(e.cursor(), 19);
        e.end();
        e.delete_word_back();
        assert_eq!(e.text(), "https://example.com/");
    }

    #[test]
    fn kills_undo_and_redo() {
        let mut e = LineEditor::new("abc def");
        e.left();
        e.left();
        e.left();
        e.kill_to_end();
        assert_eq!(e.text(), "abc ");
        e.kill_to_start();
        assert_eq!(e.text(), "");
        e.undo();
        assert_eq!(e.text(), "abc ");
        e.undo();
        assert_eq!(e.text(), "abc def");
        assert_eq!(e.undo(), Edited::Nothing);
        e.redo();
        assert_eq!(e.text(), "abc ");
        e.insert("x");
        assert_eq!(
            e.redo(),
            Edited::Nothing,
            "a new edit clears the redo stack"
        );
    }

    #[test]
    fn undo_keeps_edits_not_copies_of_a_long_line() {
        let long = "a".repeat(1 << 20);
        let mut e = LineEditor::new("https://h/");
        e.insert(&long);
        for _ in 0..150 {
            e.insert("b");
        }
        let kept: usize = e
            .undo
            .iter()
            .map(|c| c.removed.len() + c.inserted.len())
            .sum();
        assert!(kept < 2 * long.len(), "undo holds {kept} bytes");
        for _ in 0..151 {
            e.undo();
        }
        assert_eq!(e.text(), "https://h/");
        assert_eq!(e.cursor(), 10);
        e.redo();
        assert_eq!(e.text().len(), 10 + long.len());
        e.set("x");
        e.undo();
        assert_eq!(e.text().len(), 10 + long.len());
    }
}
