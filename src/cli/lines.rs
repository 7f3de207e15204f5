//! Reading inputs one line at a time with a bounded buffer: a line over the limit is skipped
//! without being held in memory, and a line that is not UTF-8 is reported, not fatal. Every
//! line read is numbered and gives one row of output, whatever it holds ([`Line::error`]).

use std::io::{self, BufRead, BufReader, Read};
use std::ops::Range;

pub use urlscope::MAX_INPUT;

/// A line as read: borrowed from the buffer it was read into.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Line<'a> {
    Text(&'a str),
    /// The line's bytes (at most the limit).
    NotUtf8(&'a [u8]),
    /// The line's length in bytes (counted while skipping it).
    TooLong(usize),
}

impl<'a> Line<'a> {
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

/// Where a line was read to: its bytes' place in the buffer it was appended to, or its length
/// when it was over the limit and skipped (nothing of it kept).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Raw {
    Bytes(Range<usize>),
    TooLong(usize),
}

impl Raw {
    /// The line, read from `buffer` (the one it was appended to): text when it is UTF-8.
    pub fn line<'b>(&self, buffer: &'b [u8]) -> Line<'b> {
        match self {
            Raw::Bytes(range) => {
                let bytes = &buffer[range.clone()];
                match std::str::from_utf8(bytes) {
                    Ok(text) => Line::Text(text),
                    Err(_) => Line::NotUtf8(bytes),
                }
            }
            Raw::TooLong(length) => Line::TooLong(*length),
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

    /// The next line and its number, read into `buffer` (emptied first), which the line
    /// borrows; `None` at the end of input.
    pub fn next_line<'b>(
        &mut self,
        buffer: &'b mut Vec<u8>,
    ) -> io::Result<Option<(usize, Line<'b>)>> {
        buffer.clear();
        Ok(self
            .next_raw(buffer)?
            .map(|(number, raw)| (number, raw.line(buffer))))
    }

    /// The next line and its number, its bytes appended to `buffer` (a chunk of lines read
    /// for other threads to decode); `None` at the end of input.
    pub fn next_raw(&mut self, buffer: &mut Vec<u8>) -> io::Result<Option<(usize, Raw)>> {
        let first = self.number == 0;
        let Some((raw, had_bom)) =
            read_line(&mut self.reader, buffer, MAX_INPUT, self.keep_cr, first)?
        else {
            return Ok(None);
        };
        self.number += 1;
        self.had_bom |= had_bom;
        Ok(Some((self.number, raw)))
    }

    pub fn had_bom(&self) -> bool {
        self.had_bom
    }

    /// Whether no more input is ready without waiting.
    pub fn buffer_is_empty(&self) -> bool {
        self.reader.buffer().is_empty()
    }
}

/// Reads the next line without its "\n" (and "\r\n" unless `keep_cr`), appending it to
/// `buffer`; `None` at the end of input. A line over `max` bytes is skipped, not kept. With
/// `bom` (the first line of an input) a byte order mark at the line's start is not part of the
/// line; true when it was there.
fn read_line(
    reader: &mut impl BufRead,
    buffer: &mut Vec<u8>,
    max: usize,
    keep_cr: bool,
    bom: bool,
) -> io::Result<Option<(Raw, bool)>> {
    let start = buffer.len();
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
            buffer.extend_from_slice(chunk);
        } else {
            buffer.truncate(start);
        }
        let consumed = done.unwrap_or(chunk.len());
        reader.consume(consumed);
        if done.is_some() {
            break;
        }
    }
    if length > max {
        return Ok(Some((Raw::TooLong(length), false)));
    }
    let mut line = start..buffer.len();
    if !keep_cr && buffer[line.clone()].last() == Some(&b'\r') {
        line.end -= 1;
    }
    let had_bom = bom && buffer[line.clone()].starts_with(BOM);
    if had_bom {
        line.start += BOM.len();
    }
    Ok(Some((Raw::Bytes(line), had_bom)))
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

    fn all(input: &[u8], max: usize) -> Vec<Line<'static>> {
        let mut reader = io::BufReader::with_capacity(4, input);
        let mut buffer = Vec::new();
        let mut raws = Vec::new();
        while let Some((raw, _)) =
            read_line(&mut reader, &mut buffer, max, false, false).expect("read")
        {
            raws.push(raw);
        }
        let buffer: &'static [u8] = Box::leak(buffer.into_boxed_slice());
        raws.into_iter().map(|raw| raw.line(buffer)).collect()
    }

    #[test]
    fn splits_lines_and_reports_bad_ones() {
        assert_eq!(
            all(b"a\r\nbb\n\xff\nccccccccc\nlast", 5),
            vec![
                Line::Text("a"),
                Line::Text("bb"),
                Line::NotUtf8(&[0xff]),
                Line::TooLong(9),
                Line::Text("last"),
            ]
        );
        assert_eq!(all(b"", 5), vec![]);
        assert_eq!(all(b"\n", 5), vec![Line::Text("")]);
    }

    /// The lines of `input`, each read twice: appended to one buffer (as a batch's chunks
    /// are) and into a buffer of its own (as one line at a time is); both must agree.
    fn numbered(input: &[u8], keep_cr: bool) -> (Vec<(usize, Line<'static>)>, bool) {
        let lines = || {
            let lines = Lines::new(io::BufReader::with_capacity(2, input));
            match keep_cr {
                true => lines.keeping_cr(),
                false => lines,
            }
        };
        let mut appended = lines();
        let mut buffer = Vec::new();
        let mut raws = Vec::new();
        while let Some(raw) = appended.next_raw(&mut buffer).expect("read") {
            raws.push(raw);
        }
        let buffer: &'static [u8] = Box::leak(buffer.into_boxed_slice());
        let out: Vec<_> = raws
            .into_iter()
            .map(|(number, raw)| (number, raw.line(buffer)))
            .collect();
        let mut one_by_one = lines();
        let mut own = Vec::new();
        for (number, line) in &out {
            assert_eq!(
                one_by_one.next_line(&mut own).expect("read"),
                Some((*number, line.clone()))
            );
        }
        assert_eq!(one_by_one.next_line(&mut own).expect("read"), None);
        assert_eq!(one_by_one.had_bom(), appended.had_bom());
        (out, appended.had_bom())
    }

    /// A byte order mark is taken off the first line only (even when the buffer splits it),
    /// and said; `keeping_cr` keeps the "\r" of "\r\n".
    #[test]
    fn a_byte_order_mark_starts_no_line() {
        let (lines, bom) = numbered(b"\xEF\xBB\xBFa\r\n\xEF\xBB\xBFb\n", false);
        assert!(bom);
        assert_eq!(
            lines,
            vec![(1, Line::Text("a")), (2, Line::Text("\u{FEFF}b"))]
        );
        let (lines, bom) = numbered(b"a\r\n", true);
        assert!(!bom);
        assert_eq!(lines, vec![(1, Line::Text("a\r"))]);
        let (lines, bom) = numbered(b"\xEF\xBB\xBF\xff\n", false);
        assert!(bom);
        assert_eq!(lines, vec![(1, Line::NotUtf8(&[0xff]))]);
        assert_eq!(hex(&[0x00, 0xab, 0xff]), "00abff");
    }
}
