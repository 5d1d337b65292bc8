//! JSON text from a [`Value`], with exact digits: compact, or pretty as serde_json indents;
//! optionally ASCII only (every other character as `\uXXXX`, astral ones as surrogate pairs).

use super::Value;

/// How [`Value::to_json_styled`] writes.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Style {
    /// Indent by two spaces, one member or element per line (serde_json's pretty layout).
    pub pretty: bool,
    /// Escape every non-ASCII character (`é` → `\u00e9`).
    pub ascii: bool,
}

/// None of the eight bytes of `word` needs an escape (no control character, quote or
/// backslash; with `ascii`, no byte past ASCII). The classic zero-byte test: a byte `b` of
/// `word ^ c` is zero where `b == c`, and `x - 0x01…` borrows into the high bit only where a
/// byte of `x` is below 1 (or below 0x20 for `x - 0x20…`), found in one step for all eight.
/// A borrow can flag a byte next to a true hit, never one in a word without a hit.
fn plain_word(word: u64, ascii: bool) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let below = |x: u64, n: u64| x.wrapping_sub(ONES * n) & !x & HIGH;
    let control = below(word, 0x20);
    let quote = below(word ^ (ONES * u64::from(b'"')), 1);
    let backslash = below(word ^ (ONES * u64::from(b'\\')), 1);
    let high = if ascii { word & HIGH } else { 0 };
    control | quote | backslash | high == 0
}

/// Appends `s` as a JSON string literal, escaped as serde_json escapes (`"`, `\`, and the
/// control characters; with `ascii`, every non-ASCII character too).
fn write_string(s: &str, out: &mut String, ascii: bool) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    out.reserve(s.len() + 2);
    out.push('"');
    let bytes = s.as_bytes();
    let mut run = 0;
    let mut i = 0;
    // Most bytes are written as they are: skip over them before looking at one closely.
    let plain = |b: u8| b >= 0x20 && b != b'"' && b != b'\\' && (b < 0x80 || !ascii);
    loop {
        while let Some(word) = bytes.get(i..i + 8) {
            let word = u64::from_le_bytes(word.try_into().unwrap_or([0; 8]));
            if !plain_word(word, ascii) {
                break;
            }
            i += 8;
        }
        while i < bytes.len() && plain(bytes[i]) {
            i += 1;
        }
        let Some(&b) = bytes.get(i) else {
            break;
        };
        let escape: &str = match b {
            b'"' => "\\\"",
            b'\\' => "\\\\",
            b'\n' => "\\n",
            b'\r' => "\\r",
            b'\t' => "\\t",
            0x08 => "\\b",
            0x0c => "\\f",
            0..=0x1f => "",
            0x80.. if ascii => {
                out.push_str(&s[run..i]);
                let c = s[i..].chars().next().unwrap_or('\u{fffd}');
                let mut units = [0u16; 2];
                for unit in c.encode_utf16(&mut units) {
                    out.push_str("\\u");
                    for shift in [12, 8, 4, 0] {
                        out.push(HEX[usize::from((*unit >> shift) & 0xf)] as char);
                    }
                }
                i += c.len_utf8();
                run = i;
                continue;
            }
            _ => {
                i += 1;
                continue;
            }
        };
        out.push_str(&s[run..i]);
        // A tab before `an apple` written `\tan apple` would read back as LaTeX's `\tan`.
        let escape = match escape.as_bytes() {
            [b'\\', letter @ (b'b' | b'f' | b'n' | b'r' | b't')]
                if crate::spelling::latex::would_collide(*letter, &bytes[i + 1..]) =>
            {
                ""
            }
            _ => escape,
        };
        if escape.is_empty() {
            out.push_str("\\u00");
            out.push(HEX[usize::from(b >> 4)] as char);
            out.push(HEX[usize::from(b & 0xf)] as char);
        } else {
            out.push_str(escape);
        }
        i += 1;
        run = i;
    }
    out.push_str(&s[run..]);
    out.push('"');
}

/// Writes one compact JSON object member by member, byte for byte as serde_json writes a
/// struct: for the records written once per reply (diagnostics, the repair log), where
/// serde's generic path costs more than the parse it describes.
pub(crate) struct Members<'a> {
    out: &'a mut String,
    first: bool,
}

impl<'a> Members<'a> {
    pub(crate) fn open(out: &'a mut String) -> Self {
        out.push('{');
        Members { out, first: true }
    }

    /// Starts the member `key` (a name that needs no escaping: a field's, a repair kind's)
    /// and returns where its value is to be written.
    pub(crate) fn key(&mut self, key: &str) -> &mut String {
        debug_assert!(key.bytes().all(|b| b >= 0x20 && b != b'"' && b != b'\\'));
        if !self.first {
            self.out.push(',');
        }
        self.first = false;
        self.out.push('"');
        self.out.push_str(key);
        self.out.push_str("\":");
        self.out
    }

    pub(crate) fn str(&mut self, key: &str, value: &str) {
        write_string(value, self.key(key), false);
    }

    pub(crate) fn opt_str(&mut self, key: &str, value: Option<&str>) {
        match value {
            Some(value) => self.str(key, value),
            None => self.key(key).push_str("null"),
        }
    }

    pub(crate) fn usize(&mut self, key: &str, value: usize) {
        self.key(key).push_str(itoa::Buffer::new().format(value));
    }

    pub(crate) fn bool(&mut self, key: &str, value: bool) {
        self.key(key).push_str(if value { "true" } else { "false" });
    }

    /// A range as serde writes one: `{"start":…,"end":…}`.
    pub(crate) fn range(&mut self, key: &str, value: &std::ops::Range<usize>) {
        let mut range = Members::open(self.key(key));
        range.usize("start", value.start);
        range.usize("end", value.end);
        range.close();
    }

    /// Strings as a JSON array.
    pub(crate) fn strs<'s>(&mut self, key: &str, values: impl IntoIterator<Item = &'s str>) {
        write_array(self.key(key), values, |value, out| {
            write_string(value, out, false)
        });
    }

    /// A float as serde_json writes an `f64` (`null` when not finite).
    pub(crate) fn f64(&mut self, key: &str, value: f64) {
        use std::fmt::Write as _;
        let out = self.key(key);
        match serde_json::Number::from_f64(value) {
            Some(number) => {
                let _ = write!(out, "{number}");
            }
            None => out.push_str("null"),
        }
    }

    pub(crate) fn close(self) {
        self.out.push('}');
    }
}

/// Appends a compact JSON array, each item written by `each`.
pub(crate) fn write_array<I: IntoIterator>(
    out: &mut String,
    items: I,
    mut each: impl FnMut(I::Item, &mut String),
) {
    out.push('[');
    for (i, item) in items.into_iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        each(item, out);
    }
    out.push(']');
}

pub(super) fn write(value: &Value, out: &mut String, style: Style) {
    if style.pretty {
        pretty(value, out, 0, style.ascii);
    } else {
        compact(value, out, style.ascii);
    }
}

fn compact(value: &Value, out: &mut String, ascii: bool) {
    match value {
        Value::Null => out.push_str("null"),
        Value::Bool(true) => out.push_str("true"),
        Value::Bool(false) => out.push_str("false"),
        Value::Number(n) => n.write_to(out),
        Value::String(s) => write_string(s, out, ascii),
        Value::Array(items) => write_array(out, items, |item, out| compact(item, out, ascii)),
        Value::Object(map) => {
            out.push('{');
            for (i, (key, item)) in map.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_string(key, out, ascii);
                out.push(':');
                compact(item, out, ascii);
            }
            out.push('}');
        }
    }
}

fn indent(out: &mut String, depth: usize) {
    out.push('\n');
    for _ in 0..depth {
        out.push_str("  ");
    }
}

fn pretty(value: &Value, out: &mut String, depth: usize, ascii: bool) {
    match value {
        Value::Array(items) if !items.is_empty() => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                indent(out, depth + 1);
                pretty(item, out, depth + 1, ascii);
            }
            indent(out, depth);
            out.push(']');
        }
        Value::Object(map) if !map.is_empty() => {
            out.push('{');
            for (i, (key, item)) in map.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                indent(out, depth + 1);
                write_string(key, out, ascii);
                out.push_str(": ");
                pretty(item, out, depth + 1, ascii);
            }
            indent(out, depth);
            out.push('}');
        }
        _ => compact(value, out, ascii),
    }
}

/// The layout of a JSON text as written: whether it breaks lines (and by what indentation unit)
/// and whether a space follows a colon or a comma. Read from the text a model wrote, so that a
/// repaired value can be written back the way it came (what jsonrepair's users expect).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Layout {
    /// One member or element per line, indented by this unit per level (`""`: not indented);
    /// `None`: one line.
    pub indent: Option<String>,
    /// `": "` rather than `":"`.
    pub space_after_colon: bool,
    /// `", "` rather than `","` (on one line).
    pub space_after_comma: bool,
    /// A list of scalars stays on one line even when the layout breaks lines (`"tags": ["x",
    /// "y"]` inside an indented object), as the text's first such list was written.
    pub inline_scalar_lists: bool,
}

impl Layout {
    /// The layout `text` is written in: the first colon and comma outside strings say the
    /// spacing, the first line break inside a container the indentation. One pass.
    pub fn of(text: &str) -> Layout {
        let bytes = text.as_bytes();
        let mut layout = Layout::default();
        let (mut colon, mut comma, mut broke) = (false, false, false);
        let mut in_string: Option<u8> = None;
        let mut depth = 0usize;
        // The list being looked at for `inline_scalar_lists`: its depth, and whether a line
        // broke inside it; decided when the first list holding no container closes.
        let mut list: Option<(usize, bool)> = None;
        let mut lists_decided = false;
        let mut i = 0;
        while i < bytes.len() && !(colon && comma && broke && lists_decided) {
            let b = bytes[i];
            match in_string {
                Some(q) => {
                    if b == b'\\' {
                        i += 1;
                    } else if b == q {
                        in_string = None;
                    }
                }
                None => match b {
                    b'"' | b'\'' => in_string = Some(b),
                    b'{' | b'[' => {
                        depth += 1;
                        if !lists_decided {
                            // A container inside the list looked at: that one holds no
                            // scalars only; this one (if a list) is looked at instead.
                            list = (b == b'[').then_some((depth, false));
                        }
                    }
                    b'}' | b']' => {
                        if let (Some((at, broken)), false) = (list, lists_decided) {
                            if at == depth && b == b']' {
                                layout.inline_scalar_lists = !broken;
                                lists_decided = true;
                            }
                        }
                        depth = depth.saturating_sub(1);
                    }
                    // Any space counts: a no-break or ideographic space after a colon is a
                    // space to a reader.
                    b':' if !colon => {
                        colon = true;
                        layout.space_after_colon = spaced(&text[i + 1..]);
                    }
                    // A comma that ends a line says nothing of the spacing on one line.
                    b',' if !comma && !matches!(bytes.get(i + 1), Some(b'\n' | b'\r')) => {
                        comma = true;
                        layout.space_after_comma = spaced(&text[i + 1..]);
                    }
                    b'\n' => {
                        if let (Some((_, broken)), false) = (&mut list, lists_decided) {
                            *broken = true;
                        }
                        if depth > 0 && !broke {
                            broke = true;
                            layout.indent = Some(indent_unit(&text[i + 1..], depth));
                        }
                    }
                    _ => {}
                },
            }
            i += 1;
        }
        layout
    }
}

/// One level's indentation: the first broken line's leading spaces over its depth.
fn indent_unit(rest: &str, depth: usize) -> String {
    let unit: String = rest
        .chars()
        .take_while(|c| *c == ' ' || *c == '\t')
        .collect();
    if depth > 1 && unit.len() % depth == 0 {
        unit[..unit.len() / depth].to_string()
    } else {
        unit
    }
}

/// `rest` starts with a space that is not a line break.
fn spaced(rest: &str) -> bool {
    rest.chars()
        .next()
        .is_some_and(|c| c.is_whitespace() && c != '\n' && c != '\r')
}

fn line(out: &mut String, unit: &str, depth: usize) {
    out.push('\n');
    for _ in 0..depth {
        out.push_str(unit);
    }
}

fn in_layout(value: &Value, out: &mut String, layout: &Layout, depth: usize) {
    let comma = |out: &mut String| {
        out.push(',');
        if layout.indent.is_none() && layout.space_after_comma {
            out.push(' ');
        }
    };
    match value {
        Value::Array(items)
            if layout.indent.is_some()
                && layout.inline_scalar_lists
                && items
                    .iter()
                    .all(|v| !matches!(v, Value::Array(_) | Value::Object(_))) =>
        {
            // A list of scalars on one line, as the text wrote its lists.
            let one_line = Layout {
                indent: None,
                ..layout.clone()
            };
            in_layout(value, out, &one_line, depth);
        }
        Value::Array(items) if !items.is_empty() => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    comma(out);
                }
                if let Some(unit) = &layout.indent {
                    line(out, unit, depth + 1);
                }
                in_layout(item, out, layout, depth + 1);
            }
            if let Some(unit) = &layout.indent {
                line(out, unit, depth);
            }
            out.push(']');
        }
        Value::Object(map) if !map.is_empty() => {
            out.push('{');
            for (i, (key, item)) in map.iter().enumerate() {
                if i > 0 {
                    comma(out);
                }
                if let Some(unit) = &layout.indent {
                    line(out, unit, depth + 1);
                }
                write_string(key, out, false);
                out.push(':');
                if layout.space_after_colon {
                    out.push(' ');
                }
                in_layout(item, out, layout, depth + 1);
            }
            if let Some(unit) = &layout.indent {
                line(out, unit, depth);
            }
            out.push('}');
        }
        _ => compact(value, out, false),
    }
}

/// Writing a value: compact, pretty or ASCII-only JSON text, exact digits.
impl Value {
    /// JSON written in `layout` (see [`Layout::of`]): a repaired value laid out as the reply
    /// that held it was, exact digits.
    ///
    /// ```
    /// use llmjson::{Layout, Value};
    /// let v: Value = r#"{"a": [1, 2], "b": {"c": true}}"#.parse().unwrap();
    /// assert_eq!(v.to_json_in(&Layout::of("{a: [1, 2], b: {c: True}}")), r#"{"a": [1, 2], "b": {"c": true}}"#);
    /// assert_eq!(v.to_json_in(&Layout::of("{\n    a: 1\n}")), "{\n    \"a\": [\n        1,\n        2\n    ],\n    \"b\": {\n        \"c\": true\n    }\n}");
    /// ```
    pub fn to_json_in(&self, layout: &Layout) -> String {
        let mut out = String::new();
        in_layout(self, &mut out, layout, 0);
        out
    }

    /// Compact JSON with exact digits (the same as `to_string()`).
    pub fn to_json(&self) -> String {
        self.to_json_styled(Style::default())
    }
    /// Appends the compact JSON to `out` (what [`Value::to_json`] returns, without a new
    /// string: for writers that build one line of many parts).
    pub fn write_json(&self, out: &mut String) {
        write(self, out, Style::default());
    }
    /// JSON indented by two spaces, as serde_json's pretty printer writes it.
    pub fn to_json_pretty(&self) -> String {
        self.to_json_styled(Style {
            pretty: true,
            ascii: false,
        })
    }
    /// JSON in the given [`Style`] (pretty or compact, ASCII only or not), exact digits.
    ///
    /// ```
    /// use llmjson::{Style, Value};
    /// let v = Value::from(vec!["é😀"]);
    /// assert_eq!(v.to_json_styled(Style { pretty: false, ascii: true }), r#"["\u00e9\ud83d\ude00"]"#);
    /// ```
    pub fn to_json_styled(&self, style: Style) -> String {
        let mut out = String::new();
        write(self, &mut out, style);
        out
    }
}

impl std::fmt::Display for Value {
    /// Compact JSON; `{:#}` indents by two spaces.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if f.alternate() {
            f.write_str(&self.to_json_pretty())
        } else {
            f.write_str(&self.to_json())
        }
    }
}
