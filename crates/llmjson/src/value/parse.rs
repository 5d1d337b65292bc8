//! The strict reader: one valid JSON document (RFC 8259) straight to a [`Value`] in one pass —
//! the fast path for the commonest reply. Anything it does not accept (a defect, a nesting
//! deeper than allowed, a duplicate key the policy does not settle silently) returns `None` and
//! the reply takes the tolerant path, which says why.

use super::{Map, Number, Value};
use crate::DuplicateKeys;

/// Reads `text` (one document, no surrounding whitespace needed but allowed).
pub(crate) fn document(text: &str, max_depth: usize, duplicates: DuplicateKeys) -> Option<Value> {
    let mut reader = Reader {
        text,
        b: text.as_bytes(),
        i: 0,
        depth_left: max_depth,
        duplicates,
        items: Vec::new(),
        members: Vec::new(),
    };
    reader.skip_ws();
    let value = reader.value()?;
    reader.skip_ws();
    (reader.i == reader.b.len()).then_some(value)
}

struct Reader<'t> {
    text: &'t str,
    b: &'t [u8],
    i: usize,
    depth_left: usize,
    duplicates: DuplicateKeys,
    /// Elements of the open arrays, innermost last.
    items: Vec<Value>,
    /// Members of the open objects, innermost last.
    members: Vec<(String, Value)>,
}

impl Reader<'_> {
    #[inline]
    fn skip_ws(&mut self) {
        while let Some(b' ' | b'\n' | b'\r' | b'\t') = self.b.get(self.i) {
            self.i += 1;
        }
    }

    #[inline]
    fn peek(&self) -> Option<u8> {
        self.b.get(self.i).copied()
    }

    fn value(&mut self) -> Option<Value> {
        match self.peek()? {
            b'{' => self.object(),
            b'[' => self.array(),
            b'"' => self.string().map(Value::String),
            b't' => self.literal(b"true", Value::Bool(true)),
            b'f' => self.literal(b"false", Value::Bool(false)),
            b'n' => self.literal(b"null", Value::Null),
            b'-' | b'0'..=b'9' => self.number(),
            _ => None,
        }
    }

    fn literal(&mut self, word: &[u8], value: Value) -> Option<Value> {
        if self.b[self.i..].starts_with(word) {
            self.i += word.len();
            Some(value)
        } else {
            None
        }
    }

    fn enter(&mut self) -> Option<()> {
        self.depth_left = self.depth_left.checked_sub(1)?;
        self.i += 1;
        self.skip_ws();
        Some(())
    }

    fn array(&mut self) -> Option<Value> {
        self.enter()?;
        if self.peek() == Some(b']') {
            self.i += 1;
            self.depth_left += 1;
            return Some(Value::Array(Vec::new()));
        }
        // Elements gather on a shared stack and move into a vector of the exact size (no
        // growth reallocations per array).
        let base = self.items.len();
        loop {
            let item = self.value()?;
            self.items.push(item);
            if self.closed_after_item(b']')? {
                return Some(Value::Array(self.items.drain(base..).collect()));
            }
        }
    }

    /// After an element or member: a comma (more follow) or the container's closer.
    #[inline]
    fn closed_after_item(&mut self, closer: u8) -> Option<bool> {
        self.skip_ws();
        let next = self.peek()?;
        self.i += 1;
        if next == b',' {
            self.skip_ws();
            Some(false)
        } else if next == closer {
            self.depth_left += 1;
            Some(true)
        } else {
            None
        }
    }

    fn object(&mut self) -> Option<Value> {
        self.enter()?;
        if self.peek() == Some(b'}') {
            self.i += 1;
            self.depth_left += 1;
            return Some(Value::Object(Map::new()));
        }
        // Members gather on a shared stack; the map is built once at the right size.
        let base = self.members.len();
        loop {
            if self.peek()? != b'"' {
                return None;
            }
            let key = self.string()?;
            self.skip_ws();
            if self.peek()? != b':' {
                return None;
            }
            self.i += 1;
            self.skip_ws();
            let value = self.value()?;
            self.members.push((key, value));
            if self.closed_after_item(b'}')? {
                break;
            }
        }
        let count = self.members.len() - base;
        let mut map = Map::with_capacity(count);
        for (key, value) in self.members.drain(base..) {
            // Last wins at the first one's place, as serde_json and `json.loads` do; the other
            // policies are the tolerant path's (it logs the duplicate).
            if map.insert(key, value).is_some() && self.duplicates != DuplicateKeys::Last {
                return None;
            }
        }
        Some(Value::Object(map))
    }

    /// A string starting at its opening quote; escapes decoded, control characters refused,
    /// `\u` surrogates only in pairs.
    fn string(&mut self) -> Option<String> {
        let start = self.i + 1;
        let mut i = skip_plain(self.b, start);
        // The common case: no escape before the closing quote, copied in one piece.
        match *self.b.get(i)? {
            b'"' => {
                self.i = i + 1;
                return Some(self.text[start..i].to_string());
            }
            b'\\' => {}
            _ => return None,
        }
        let mut out = String::with_capacity(i - start + 16);
        out.push_str(&self.text[start..i]);
        let mut run = i;
        loop {
            let &c = self.b.get(i)?;
            match c {
                b'"' => {
                    out.push_str(&self.text[run..i]);
                    self.i = i + 1;
                    return Some(out);
                }
                b'\\' => {
                    out.push_str(&self.text[run..i]);
                    let &e = self.b.get(i + 1)?;
                    i += 2;
                    match e {
                        b'"' => out.push('"'),
                        b'\\' => out.push('\\'),
                        b'/' => out.push('/'),
                        b'b' => out.push('\u{8}'),
                        b'f' => out.push('\u{c}'),
                        b'n' => out.push('\n'),
                        b'r' => out.push('\r'),
                        b't' => out.push('\t'),
                        b'u' => {
                            let first = self.hex4(i)?;
                            i += 4;
                            let code = match first {
                                0xD800..=0xDBFF => {
                                    if self.b.get(i..i + 2)? != b"\\u" {
                                        return None;
                                    }
                                    let second = self.hex4(i + 2)?;
                                    if !(0xDC00..=0xDFFF).contains(&second) {
                                        return None;
                                    }
                                    i += 6;
                                    0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00)
                                }
                                0xDC00..=0xDFFF => return None,
                                c => c,
                            };
                            out.push(char::from_u32(code)?);
                        }
                        _ => return None,
                    }
                    run = i;
                }
                0..=0x1f => return None,
                _ => i = skip_plain(self.b, i + 1),
            }
        }
    }

    fn hex4(&self, at: usize) -> Option<u32> {
        let digits = self.b.get(at..at + 4)?;
        let mut code = 0u32;
        for &d in digits {
            code = code * 16 + (d as char).to_digit(16)?;
        }
        Some(code)
    }

    fn number(&mut self) -> Option<Value> {
        let start = self.i;
        let (end, integer) = super::number::scan(self.b, start)?;
        self.i = end;
        Some(Value::Number(Number::from_scanned(&self.text[start..end], integer)))
    }
}

/// The first byte at or after `i` that a string cannot hold as it is: a quote, a backslash or a
/// control character (or `b.len()`). Eight bytes at a time, as serde_json scans.
#[inline]
fn skip_plain(b: &[u8], mut i: usize) -> usize {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    while let Some(chunk) = b.get(i..i + 8) {
        let mut word = [0u8; 8];
        word.copy_from_slice(chunk);
        let x = u64::from_le_bytes(word);
        // A byte is flagged when it equals '"' or '\\' or is below 0x20 (the lowest flagged
        // byte is exact: borrows only run towards higher bytes).
        let quote = x ^ (ONES * u64::from(b'"'));
        let backslash = x ^ (ONES * u64::from(b'\\'));
        let flagged = (quote.wrapping_sub(ONES) & !quote
            | backslash.wrapping_sub(ONES) & !backslash
            | x.wrapping_sub(ONES * 0x20) & !x)
            & HIGH;
        if flagged != 0 {
            return i + (flagged.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    while let Some(&c) = b.get(i) {
        if c == b'"' || c == b'\\' || c < 0x20 {
            return i;
        }
        i += 1;
    }
    i
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> Option<Value> {
        document(text, 128, DuplicateKeys::Last)
    }

    #[test]
    fn reads_what_serde_json_reads_and_refuses_what_it_refuses() {
        let cases = [
            r#" {"a": [1, -2, 3.50, 1e5, -0, 18446744073709551616, -9223372036854775808], "b": {"c": null}} "#,
            r#"["\u00e9\ud83d\ude00\n\"\\\/", "", "tab\there"]"#,
            "[]",
            "{}",
            "[true,false,null]",
            "0",
            r#""s""#,
            r#"{"a":1,"a":2}"#,
        ];
        for text in cases {
            let ours = read(text).unwrap_or_else(|| panic!("{text}"));
            let theirs: serde_json::Value = serde_json::from_str(text).unwrap();
            assert_eq!(serde_json::Value::from(ours), theirs, "{text}");
        }
        let refused = [
            "",
            "[1,]",
            "{\"a\":1,}",
            "[01]",
            "[1.]",
            "[.5]",
            "[+1]",
            "{'a':1}",
            "[\"\u{1}\"]",
            r#"["\ud800"]"#,
            r#"["\udc00\ud800"]"#,
            r#"["\x"]"#,
            "[1] x",
            "[1",
            "{\"a\" 1}",
            "[tru]",
            "[NaN]",
            "{\"a\":}",
            "[1 2]",
        ];
        for text in refused {
            assert!(read(text).is_none(), "{text}");
            assert!(
                serde_json::from_str::<serde_json::Value>(text).is_err(),
                "{text}"
            );
        }
    }

    #[test]
    fn the_plain_run_ends_at_the_first_special_byte_wherever_it_is() {
        for len in 0..20 {
            for special in [b'"', b'\\', 0x00, 0x1f, b'\n'] {
                let mut b = vec![b'a'; len];
                b.extend_from_slice(&[0xc3, 0xa9]); // é: high bytes are plain
                b.push(special);
                b.extend_from_slice(b"\"zz\\");
                assert_eq!(skip_plain(&b, 0), len + 2, "{len} {special}");
            }
            assert_eq!(skip_plain(&vec![b' '; len], 0), len);
        }
    }

    #[test]
    fn keeps_digits_and_order() {
        let v = read(r#"{"z": 1.50, "a": -0, "m": 1E+2}"#).unwrap();
        assert_eq!(v.to_string(), r#"{"z":1.50,"a":-0,"m":1E+2}"#);
    }

    #[test]
    fn depth_and_duplicate_policies_hand_over_to_the_tolerant_path() {
        assert!(document("[[[]]]", 3, DuplicateKeys::Last).is_some());
        assert!(document("[[[[]]]]", 3, DuplicateKeys::Last).is_none());
        assert!(document(r#"{"a":1,"a":2}"#, 8, DuplicateKeys::First).is_none());
        assert!(document(r#"{"a":1,"b":2}"#, 8, DuplicateKeys::Error).is_some());
    }
}
