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

/// Appends `s` as a JSON string literal, escaped as serde_json escapes (`"`, `\`, and the
/// control characters; with `ascii`, every non-ASCII character too).
fn write_string(s: &str, out: &mut String, ascii: bool) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    out.push('"');
    let bytes = s.as_bytes();
    let mut run = 0;
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
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
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                compact(item, out, ascii);
            }
            out.push(']');
        }
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
