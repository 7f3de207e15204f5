//! Reading inputs one line at a time with a bounded buffer: a line over the limit is skipped
//! without being held in memory, and a line that is not UTF-8 is reported, not fatal.

use std::io::{self, BufRead};

pub use urlscope::MAX_INPUT;

#[derive(Debug, PartialEq, Eq)]
pub enum Line {
    Text(String),
    NotUtf8,
    /// The line's length in bytes (counted while skipping it).
    TooLong(usize),
}

/// Reads the next line without its "\n" or "\r\n"; `None` at the end of input.
pub fn next_line(reader: &mut impl BufRead, max: usize) -> io::Result<Option<Line>> {
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
        return Ok(Some(Line::TooLong(length)));
    }
    if bytes.last() == Some(&b'\r') {
        bytes.pop();
    }
    Ok(Some(match String::from_utf8(bytes) {
        Ok(s) => Line::Text(s),
        Err(_) => Line::NotUtf8,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(input: &[u8], max: usize) -> Vec<Line> {
        let mut reader = io::BufReader::with_capacity(4, input);
        let mut out = Vec::new();
        while let Some(line) = next_line(&mut reader, max).expect("read") {
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
                Line::NotUtf8,
                Line::TooLong(9),
                Line::Text("last".into()),
            ]
        );
        assert_eq!(all(b"", 5), vec![]);
        assert_eq!(all(b"\n", 5), vec![Line::Text(String::new())]);
    }
}
