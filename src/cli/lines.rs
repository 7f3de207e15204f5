//! Reading inputs one line at a time with a bounded buffer: a line over the limit is skipped
//! without being held in memory, and a line that is not UTF-8 is reported, not fatal. Every
//! line read is numbered and gives one row of output, whatever it holds ([`Line::error`]).

use std::io::{self, BufRead, BufReader, Read};

pub use urlscope::MAX_INPUT;

#[derive(Debug, PartialEq, Eq)]
pub enum Line {
    Text(String),
    /// The line's bytes (at most the limit).
    NotUtf8(Vec<u8>),
    /// The line's length in bytes (counted while skipping it).
    TooLong(usize),
}

impl Line {
    /// Why a line that is not text was not read: `not UTF-8`, `longer than 16 MiB`.
    pub fn error(&self) -> Option<String> {
        match self {
            Line::Text(_) => None,
            Line::NotUtf8(_) => Some("not UTF-8".to_owned()),
            Line::TooLong(_) if MAX_INPUT == 16 << 20 => Some("longer than 16 MiB".to_owned()),
            Line::TooLong(_) => Some(format!("longer than {MAX_INPUT} bytes")),
        }
    }
}

/// The lines of one input (a file, standard input), numbered from 1. A UTF-8 byte order mark
/// at the start of the input is not part of its first line: [`Lines::had_bom`] says it was
/// there, for the front end to say once.
pub struct Lines<R> {
    reader: BufReader<R>,
    number: usize,
    /// Whether a "\r" before the "\n" is part of the line (`diff` reads what it is given).
    keep_cr: bool,
    had_bom: bool,
}

/// The UTF-8 encoding of U+FEFF, which editors on Windows write first.
const BOM: &[u8] = b"\xEF\xBB\xBF";

impl<R: Read> Lines<R> {
    pub fn new(reader: BufReader<R>) -> Self {
        Lines {
            reader,
            number: 0,
            keep_cr: false,
            had_bom: false,
        }
    }

    /// Lines split at "\n" only: a "\r" before it stays in the line.
    pub fn keeping_cr(mut self) -> Self {
        self.keep_cr = true;
        self
    }

    /// The next line and its number; `None` at the end of input.
    pub fn next_line(&mut self) -> io::Result<Option<(usize, Line)>> {
        let first = self.number == 0;
        let Some((line, had_bom)) = read_line(&mut self.reader, MAX_INPUT, self.keep_cr, first)?
        else {
            return Ok(None);
        };
        self.number += 1;
        self.had_bom |= had_bom;
        Ok(Some((self.number, line)))
    }

    pub fn had_bom(&self) -> bool {
        self.had_bom
    }

    /// Whether no more input is ready without waiting.
    pub fn buffer_is_empty(&self) -> bool {
        self.reader.buffer().is_empty()
    }
}

/// Reads the next line without its "\n" (and "\r\n" unless `keep_cr`); `None` at the end of
/// input. With `bom` (the first line of an input) a byte order mark at the line's start is
/// taken off; true when it was.
fn read_line(
    reader: &mut impl BufRead,
    max: usize,
    keep_cr: bool,
    bom: bool,
) -> io::Result<Option<(Line, bool)>> {
    let mut bytes = Vec::new();
    let mut length = 0usize;
    let mut seen_any = false;
    loop {
        let available = match reader.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if available.is_empty() {
            if !seen_any {
                return Ok(None);
            }
            break;
        }
        seen_any = true;
        let (chunk, done) = match memchr::memchr(b'\n', available) {
            Some(i) => (&available[..i], Some(i + 1)),
            None => (available, None),
        };
        length += chunk.len();
        if length <= max {
            bytes.extend_from_slice(chunk);
        }
        let consumed = done.unwrap_or(chunk.len());
        reader.consume(consumed);
        if done.is_some() {
            break;
        }
    }
    if length > max {
        return Ok(Some((Line::TooLong(length), false)));
    }
    if !keep_cr && bytes.last() == Some(&b'\r') {
        bytes.pop();
    }
    let had_bom = bom && bytes.starts_with(BOM);
    if had_bom {
        bytes.drain(..BOM.len());
    }
    Ok(Some((
        match String::from_utf8(bytes) {
            Ok(s) => Line::Text(s),
            Err(e) => Line::NotUtf8(e.into_bytes()),
        },
        had_bom,
    )))
}

/// `bytes` as hexadecimal digits, two a byte: the exact bytes of a line that is not text, in
/// a JSON string.
pub fn hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut out = String::with_capacity(2 * bytes.len());
    for &b in bytes {
        out.push(char::from(DIGITS[usize::from(b >> 4)]));
        out.push(char::from(DIGITS[usize::from(b & 15)]));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(input: &[u8], max: usize) -> Vec<Line> {
        let mut reader = io::BufReader::with_capacity(4, input);
        let mut out = Vec::new();
        while let Some((line, _)) = read_line(&mut reader, max, false, false).expect("read") {
            out.push(line);
        }
        out
    }

    #[test]
    fn splits_lines_and_reports_bad_ones() {
        assert_eq!(
            all(b"a\r\nbb\n\xff\nccccccccc\nlast", 5),
            vec![
                Line::Text("a".into()),
                Line::Text("bb".into()),
                Line::NotUtf8(vec![0xff]),
                Line::TooLong(9),
                Line::Text("last".into()),
            ]
        );
        assert_eq!(all(b"", 5), vec![]);
        assert_eq!(all(b"\n", 5), vec![Line::Text(String::new())]);
    }

    fn numbered(input: &[u8], keep_cr: bool) -> (Vec<(usize, Line)>, bool) {
        let mut lines = Lines::new(io::BufReader::with_capacity(2, input));
        if keep_cr {
            lines = lines.keeping_cr();
        }
        let mut out = Vec::new();
        while let Some(line) = lines.next_line().expect("read") {
            out.push(line);
        }
        (out, lines.had_bom())
    }

    /// A byte order mark is taken off the first line only (even when the buffer splits it),
    /// and said; `keeping_cr` keeps the "\r" of "\r\n".
    #[test]
    fn a_byte_order_mark_starts_no_line() {
        let (lines, bom) = numbered(b"\xEF\xBB\xBFa\r\n\xEF\xBB\xBFb\n", false);
        assert!(bom);
        assert_eq!(
            lines,
            vec![
                (1, Line::Text("a".into())),
                (2, Line::Text("\u{FEFF}b".into()))
            ]
        );
        let (lines, bom) = numbered(b"a\r\n", true);
        assert!(!bom);
        assert_eq!(lines, vec![(1, Line::Text("a\r".into()))]);
        let (lines, bom) = numbered(b"\xEF\xBB\xBF\xff\n", false);
        assert!(bom);
        assert_eq!(lines, vec![(1, Line::NotUtf8(vec![0xff]))]);
        assert_eq!(hex(&[0x00, 0xab, 0xff]), "00abff");
    }
}
