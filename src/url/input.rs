//! The basic URL parser's input preprocessing (URL Standard: basic URL parser, steps 1–3) and
//! the mapping of offsets back to the input as the person typed it.
//!
//! The state machine runs on the *processed* input; everything the parser reports (trace
//! pointers, validation error spans) is mapped back to byte offsets of the *original* input, and
//! [`OffsetMap`] turns those into code point offsets.

use std::borrow::Cow;
use std::ops::Range;

use crate::validation::Span;

/// C0 control or space: U+0000 to U+001F, and U+0020.
#[inline]
pub fn is_c0_control_or_space(b: u8) -> bool {
    b <= 0x20
}

/// ASCII tab or newline: U+0009, U+000A, U+000D.
#[inline]
pub fn is_ascii_tab_or_newline(b: u8) -> bool {
    matches!(b, b'\t' | b'\n' | b'\r')
}

/// The input after preprocessing, with what was removed.
#[derive(Clone, Debug)]
pub struct Input<'a> {
    original: &'a str,
    /// Byte range of `original` left after trimming.
    kept: Range<usize>,
    /// Byte offsets in `original` of the ASCII tabs and newlines that were removed.
    removed: Vec<usize>,
    processed: Cow<'a, str>,
}

impl<'a> Input<'a> {
    /// Preprocesses `original`: trims leading and trailing C0 control or space when `trim`
    /// (the standard trims only when no URL is given, i.e. not for setters), and removes every
    /// ASCII tab or newline.
    pub fn new(original: &'a str, trim: bool) -> Self {
        let bytes = original.as_bytes();
        let mut start = 0;
        let mut end = bytes.len();
        if trim {
            while start < end && is_c0_control_or_space(bytes[start]) {
                start += 1;
            }
            while end > start && is_c0_control_or_space(bytes[end - 1]) {
                end -= 1;
            }
        }
        let kept = &original[start..end];
        let removed: Vec<usize> = kept
            .bytes()
            .enumerate()
            .filter(|&(_, b)| is_ascii_tab_or_newline(b))
            .map(|(i, _)| start + i)
            .collect();
        let processed = if removed.is_empty() {
            Cow::Borrowed(kept)
        } else {
            Cow::Owned(
                kept.chars()
                    .filter(|&c| !matches!(c, '\t' | '\n' | '\r'))
                    .collect(),
            )
        };
        Input {
            original,
            kept: start..end,
            removed,
            processed,
        }
    }

    pub fn original(&self) -> &'a str {
        self.original
    }

    /// The input the state machine runs on.
    pub fn processed(&self) -> &str {
        &self.processed
    }

    /// Byte ranges of `original` removed by trimming: (leading, trailing).
    pub fn trimmed(&self) -> (Range<usize>, Range<usize>) {
        (0..self.kept.start, self.kept.end..self.original.len())
    }

    /// Byte offsets of `original` of the removed ASCII tabs and newlines.
    pub fn removed_tabs_and_newlines(&self) -> &[usize] {
        &self.removed
    }

    /// Maps a byte offset of the processed input to a byte offset of the original input.
    #[inline]
    pub fn original_offset(&self, processed: usize) -> usize {
        if self.removed.is_empty() {
            return self.kept.start + processed;
        }
        // removed[i] would sit at processed offset removed[i] - kept.start - i; every removed
        // byte at or before `processed` shifts the original offset by one.
        let start = self.kept.start;
        let (mut lo, mut hi) = (0, self.removed.len());
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            if self.removed[mid] - start - mid <= processed {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        start + processed + lo
    }

    /// Maps a byte range of the processed input to a byte range of the original input. The end
    /// of a non-empty range stays right after its last code point (a removed tab after it is
    /// not included).
    pub fn original_range(&self, processed: Range<usize>) -> Range<usize> {
        let start = self.original_offset(processed.start);
        if processed.end <= processed.start {
            return start..start;
        }
        let mut end = self.original_offset(processed.end - 1) + 1;
        while !self.original.is_char_boundary(end) {
            end += 1;
        }
        start..end
    }
}

/// Converts byte offsets of the original input to code point offsets.
#[derive(Clone, Debug)]
pub struct OffsetMap<'a> {
    original: &'a str,
    /// For non-ASCII input: the code point offset of each byte offset (0..=len).
    table: Option<Vec<u32>>,
}

impl<'a> OffsetMap<'a> {
    pub fn new(original: &'a str) -> Self {
        let table = (!original.is_ascii()).then(|| {
            let mut table = Vec::with_capacity(original.len() + 1);
            for (cp, c) in original.chars().enumerate() {
                for _ in 0..c.len_utf8() {
                    table.push(cp as u32);
                }
            }
            table.push(original.chars().count() as u32);
            table
        });
        OffsetMap { original, table }
    }

    /// The code point offset of byte offset `byte` (clamped to the input's end).
    pub fn code_point(&self, byte: usize) -> usize {
        let byte = byte.min(self.original.len());
        match &self.table {
            None => byte,
            Some(table) => table[byte] as usize,
        }
    }

    pub fn span(&self, bytes: Range<usize>) -> Span {
        Span {
            start: self.code_point(bytes.start),
            end: self.code_point(bytes.end),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trims_and_removes_and_maps_back() {
        let input = Input::new(" \u{1}ht\ttp\n:x \t", true);
        assert_eq!(input.processed(), "http:x");
        assert_eq!(input.trimmed(), (0..2, 10..12));
        assert_eq!(input.removed_tabs_and_newlines(), &[4, 7]);
        // "h" "t" "\t" "t" "p" "\n" ":" "x"
        assert_eq!(input.original_offset(0), 2);
        assert_eq!(input.original_offset(2), 5);
        assert_eq!(input.original_offset(4), 8);
        assert_eq!(input.original_offset(6), 10);
        assert_eq!(input.original_range(1..2), 3..4);
        assert_eq!(input.original_range(0..6), 2..10);
    }

    #[test]
    fn no_trim_for_setters() {
        let input = Input::new(" a\tb ", false);
        assert_eq!(input.processed(), " ab ");
        assert_eq!(input.original_offset(2), 3);
    }

    #[test]
    fn code_points() {
        let map = OffsetMap::new("aé💩b");
        assert_eq!(map.code_point(0), 0);
        assert_eq!(map.code_point(1), 1);
        assert_eq!(map.code_point(3), 2);
        assert_eq!(map.code_point(7), 3);
        assert_eq!(map.code_point(8), 4);
        assert_eq!(map.code_point(99), 4);
    }
}
