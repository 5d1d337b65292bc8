//! Byte offsets to human positions: line, column and a one-line excerpt with a caret.
//!
//! The parser stores byte offsets only; lines and columns are derived when something is
//! reported, so the hot path never counts newlines.

use serde::{Deserialize, Serialize};
use unicode_width::UnicodeWidthChar;

/// A place in the input: byte offset plus 1-based line and column (columns count characters).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Position {
    /// Byte offset from the start of the input.
    pub offset: usize,
    /// 1-based line number.
    pub line: usize,
    /// 1-based column, in Unicode characters.
    pub column: usize,
}

impl Position {
    /// Computes the position of `offset` in `text` (clamped to the text and to a char boundary).
    pub(crate) fn of(text: &str, offset: usize) -> Position {
        PositionCursor::new(text).seek(offset)
    }
}

/// Walks forward through a text computing positions for increasing offsets in linear total time.
pub(crate) struct PositionCursor<'a> {
    text: &'a str,
    offset: usize,
    line: usize,
    column: usize,
}

impl<'a> PositionCursor<'a> {
    pub(crate) fn new(text: &'a str) -> Self {
        PositionCursor {
            text,
            offset: 0,
            line: 1,
            column: 1,
        }
    }

    /// The position of `offset`; offsets must not decrease between calls (a smaller one restarts).
    pub(crate) fn seek(&mut self, offset: usize) -> Position {
        let target = floor_char_boundary(self.text, offset.min(self.text.len()));
        if target < self.offset {
            *self = PositionCursor::new(self.text);
        }
        let span = &self.text.as_bytes()[self.offset..target];
        // Columns count characters: every byte that does not continue a UTF-8 sequence.
        let chars = |bytes: &[u8]| bytes.len() - continuation_bytes(bytes);
        match memchr::memrchr(b'\n', span) {
            Some(last) => {
                self.line += memchr::memchr_iter(b'\n', span).count();
                self.column = 1 + chars(&span[last + 1..]);
            }
            None => self.column += chars(span),
        }
        self.offset = target;
        Position {
            offset: target,
            line: self.line,
            column: self.column,
        }
    }
}

/// How many UTF-16 code units `text` is (JavaScript's `length`): one per character, two for a
/// character outside the Basic Multilingual Plane (a four-byte sequence). Counted on the bytes,
/// in vectorised lanes, not by decoding. For the Node package.
pub fn utf16_len(text: &str) -> usize {
    let b = text.as_bytes();
    b.len() - continuation_bytes(b) + count_bytes(b, |c| c >= 0xF0)
}

/// How many bytes continue a UTF-8 sequence (`10xxxxxx`).
fn continuation_bytes(bytes: &[u8]) -> usize {
    count_bytes(bytes, |b| (b as i8) < -64)
}

/// How many of `bytes` are `wanted`. Counted in byte lanes: a chunk of 255 bytes cannot overflow
/// a `u8` per lane, and the compiler vectorises the inner loop (the parser counts JSON
/// whitespace on every parse with it, the log its columns).
#[inline]
pub(crate) fn count_bytes(bytes: &[u8], wanted: impl Fn(u8) -> bool) -> usize {
    bytes
        .chunks(255)
        .map(|chunk| usize::from(chunk.iter().fold(0u8, |n, &b| n + u8::from(wanted(b)))))
        .sum()
}

/// The largest char boundary at or below `i`.
pub(crate) fn floor_char_boundary(text: &str, mut i: usize) -> usize {
    if i >= text.len() {
        return text.len();
    }
    while !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// Widest excerpt shown around an error, in display columns.
const EXCERPT_WIDTH: usize = 72;

/// A one-line excerpt of the line holding `offset`, and a second line with a caret under the
/// spot. Long lines are cut around the spot; control characters are shown as spaces so the
/// caret stays aligned (wide CJK characters count two columns).
pub(crate) fn excerpt(text: &str, offset: usize) -> String {
    let offset = floor_char_boundary(text, offset.min(text.len()));
    let line_start = text[..offset].rfind('\n').map_or(0, |i| i + 1);
    let line_end = text[offset..].find('\n').map_or(text.len(), |i| offset + i);
    let line = &text[line_start..line_end];
    let spot = offset - line_start;

    // Take characters to the left of the spot until half the width is used, then to the right.
    let mut left: Vec<char> = Vec::new();
    let mut used = 0;
    for ch in line[..spot].chars().rev() {
        let w = display_width(ch);
        if used + w > EXCERPT_WIDTH / 2 {
            break;
        }
        used += w;
        left.push(ch);
    }
    left.reverse();
    let cut_left = left.len() < line[..spot].chars().count();
    let caret_col = used + if cut_left { 3 } else { 0 };
    let mut right = String::new();
    let mut right_used = 0;
    let mut cut_right = false;
    for ch in line[spot..].chars() {
        let w = display_width(ch);
        if used + right_used + w > EXCERPT_WIDTH {
            cut_right = true;
            break;
        }
        right_used += w;
        right.push(printable(ch));
    }
    let mut out = String::new();
    if cut_left {
        out.push_str("...");
    }
    out.extend(left.into_iter().map(printable));
    out.push_str(&right);
    if cut_right {
        out.push_str("...");
    }
    out.push('\n');
    out.push_str(&" ".repeat(caret_col));
    out.push('^');
    out
}

fn printable(ch: char) -> char {
    if ch.is_control() {
        ' '
    } else {
        ch
    }
}

fn display_width(ch: char) -> usize {
    if ch.is_control() {
        1
    } else {
        ch.width().unwrap_or(1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn continuation_bytes_are_counted_in_every_lane_and_chunk() {
        // Longer than a chunk, with one- to four-byte characters at every offset.
        let text = "aé日🚀".repeat(100);
        for start in 0..8 {
            let bytes = &text.as_bytes()[start..];
            let naive = bytes.iter().filter(|&&b| b & 0xC0 == 0x80).count();
            assert_eq!(continuation_bytes(bytes), naive);
        }
    }

    #[test]
    fn utf16_length_is_javascripts() {
        // One- to four-byte characters at every offset, past a chunk of the byte count.
        let text = "aé日🚀".repeat(100);
        for start in [0, 1, 3, 6, 10] {
            let s = &text[start..];
            assert_eq!(utf16_len(s), s.chars().map(char::len_utf16).sum::<usize>());
        }
        assert_eq!(utf16_len(""), 0);
    }

    #[test]
    fn positions_count_characters_not_bytes() {
        let text = "{\"ジャンル\": x}";
        let p = Position::of(text, text.find('x').unwrap());
        assert_eq!((p.line, p.column), (1, 10));
        let text = "{\n  \"a\": x\n}";
        let p = Position::of(text, text.find('x').unwrap());
        assert_eq!((p.line, p.column), (2, 8));
    }

    #[test]
    fn cursor_agrees_with_direct_computation() {
        let text = "ab\ncdé\n\nfg";
        let mut cursor = PositionCursor::new(text);
        for offset in 0..=text.len() {
            if text.is_char_boundary(offset) {
                assert_eq!(cursor.seek(offset), Position::of(text, offset));
            }
        }
    }

    #[test]
    fn excerpt_puts_caret_under_the_spot_with_wide_characters() {
        let text = "{\"ジャンル\": x}";
        let ex = excerpt(text, text.find('x').unwrap());
        // `{"` + four wide characters (two columns each) + `": ` = 13 columns before `x`.
        assert_eq!(ex, format!("{{\"ジャンル\": x}}\n{}^", " ".repeat(13)));
    }

    #[test]
    fn excerpt_cuts_long_lines_around_the_spot() {
        let text = format!("{}X{}", "a".repeat(200), "b".repeat(200));
        let ex = excerpt(&text, 200);
        let mut lines = ex.lines();
        let first = lines.next().unwrap();
        let caret = lines.next().unwrap();
        assert!(first.starts_with("...") && first.ends_with("..."));
        assert_eq!(first.chars().nth(caret.len() - 1), Some('X'));
    }
}
