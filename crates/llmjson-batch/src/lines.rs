//! Lines of a stream, each held only up to a limit: a 20 MB line costs the limit in memory, not
//! 20 MB, and is reported as too long instead of read.

use std::io::{self, BufRead};

/// One line of input, without its `\n` (and `\r\n`).
#[derive(Debug, PartialEq, Eq)]
pub enum Line {
    /// The line's bytes (not yet checked for UTF-8).
    Bytes(Vec<u8>),
    /// The line was longer than the limit: its length, and its bytes were skipped.
    TooLong(u64),
}

/// Reads lines of at most `limit` bytes from `input`.
pub struct LineReader<R> {
    input: R,
    limit: usize,
}

impl<R: BufRead> LineReader<R> {
    /// Lines of `input`, each at most `limit` bytes.
    pub fn new(input: R, limit: usize) -> Self {
        LineReader { input, limit }
    }

    /// The next line, or `None` at the end of the input.
    pub fn next_line(&mut self) -> io::Result<Option<Line>> {
        let mut kept = Vec::new();
        let mut length: u64 = 0;
        let mut any = false;
        loop {
            let buffer = match self.input.fill_buf() {
                Ok(b) => b,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if buffer.is_empty() {
                break;
            }
            any = true;
            let (piece, ended) = match memchr::memchr(b'\n', buffer) {
                Some(i) => (&buffer[..i], Some(i + 1)),
                None => (buffer, None),
            };
            length += piece.len() as u64;
            if length <= self.limit as u64 {
                kept.extend_from_slice(piece);
            } else if !kept.is_empty() {
                kept = Vec::new();
            }
            let consumed = ended.unwrap_or(piece.len());
            self.input.consume(consumed);
            if ended.is_some() {
                break;
            }
        }
        if !any {
            return Ok(None);
        }
        if length > self.limit as u64 {
            return Ok(Some(Line::TooLong(length)));
        }
        if kept.last() == Some(&b'\r') {
            kept.pop();
        }
        Ok(Some(Line::Bytes(kept)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(input: &[u8], limit: usize, buffer: usize) -> Vec<Line> {
        let mut reader = LineReader::new(io::BufReader::with_capacity(buffer, input), limit);
        let mut out = Vec::new();
        while let Some(line) = reader.next_line().unwrap() {
            out.push(line);
        }
        out
    }

    #[test]
    fn lines_split_on_newlines_with_or_without_a_last_one() {
        for buffer in [1, 2, 3, 64] {
            assert_eq!(
                lines(b"a\r\nbc\n\nd", 10, buffer),
                vec![
                    Line::Bytes(b"a".to_vec()),
                    Line::Bytes(b"bc".to_vec()),
                    Line::Bytes(Vec::new()),
                    Line::Bytes(b"d".to_vec()),
                ],
                "buffer {buffer}"
            );
            assert_eq!(lines(b"x\n", 10, buffer), vec![Line::Bytes(b"x".to_vec())]);
            assert!(lines(b"", 10, buffer).is_empty());
        }
    }

    #[test]
    fn a_line_over_the_limit_is_skipped_whole_and_the_next_is_read() {
        for buffer in [1, 4, 64] {
            let input = [b"ok\n".as_slice(), &[b'x'; 50], b"\nnext\n"].concat();
            assert_eq!(
                lines(&input, 10, buffer),
                vec![
                    Line::Bytes(b"ok".to_vec()),
                    Line::TooLong(50),
                    Line::Bytes(b"next".to_vec()),
                ],
                "buffer {buffer}"
            );
        }
        assert_eq!(
            lines(b"0123456789", 10, 3),
            vec![Line::Bytes(b"0123456789".to_vec())]
        );
    }
}
