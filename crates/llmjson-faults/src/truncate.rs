//! The truncation oracle: which byte offsets may be cut, and what value a reply cut there means.
//!
//! `drop` keeps only what was written completely: a string with its closing quote, a literal
//! written whole, a number or unquoted word followed by something (a number that touches the cut
//! may be missing digits). A key without a complete value is dropped with its value. Open
//! containers are closed, even when empty.
//!
//! `complete` keeps what was written: a string cut inside its content keeps the written prefix.
//! Cuts are placed only where that prefix is beyond doubt (not inside an escape, not after
//! whitespace, not right after a number).

use crate::tokens::{next_sig, Tok, K};
use serde_json::{Map, Value};
use std::ops::Range;

/// How the cut reply is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// `truncation: drop`.
    Drop,
    /// `truncation: complete` (the default).
    Complete,
}

struct Frame {
    object: bool,
    map: Map<String, Value>,
    items: Vec<Value>,
    /// The member key this container is the value of.
    own_key: Option<String>,
    /// The key waiting for its value.
    key: Option<String>,
}

fn literal(word: &str) -> Option<Value> {
    match word {
        "true" | "True" => Some(Value::Bool(true)),
        "false" | "False" => Some(Value::Bool(false)),
        "null" | "None" | "undefined" => Some(Value::Null),
        _ => None,
    }
}

fn scalar_value(t: &Tok) -> Value {
    match t.k {
        K::Str => Value::String(t.content.clone()),
        K::Num => t
            .content
            .parse::<serde_json::Number>()
            .map(Value::Number)
            .unwrap_or(Value::Null),
        _ => literal(&t.text).unwrap_or(Value::Null),
    }
}

/// The scalar at `i` is known to have ended, with everything before `cut` written.
fn ended(toks: &[Tok], spans: &[Range<usize>], i: usize, cut: usize) -> bool {
    let t = &toks[i];
    let span = &spans[i];
    if span.end > cut {
        return false;
    }
    let next_starts_before = |n: Option<usize>| n.is_some_and(|n| spans[n].start < cut);
    match t.k {
        K::Num => span.end < cut,
        K::Lit => literal(&t.text).is_some(),
        _ if !t.open_ended => true,
        // A string missing its end quote: only the next member shows that it ended (a comma
        // alone could be text).
        _ if t.text.starts_with(['"', '\'', '“']) => match next_sig(toks, i) {
            Some(n) if toks[n].k == K::Comma => next_starts_before(next_sig(toks, n)),
            n => next_starts_before(n),
        },
        // An unquoted word ends at the next delimiter.
        _ => next_starts_before(next_sig(toks, i)),
    }
}

fn emit(stack: &mut [Frame], root: &mut Option<Value>, value: Value, own_key: Option<String>) {
    match stack.last_mut() {
        Some(f) if f.object => {
            if let Some(k) = own_key.or_else(|| f.key.take()) {
                f.map.insert(k, value);
            }
        }
        Some(f) => f.items.push(value),
        None => *root = Some(value),
    }
}

fn close(stack: &mut Vec<Frame>, root: &mut Option<Value>) {
    if let Some(f) = stack.pop() {
        let value = if f.object {
            Value::Object(f.map)
        } else {
            Value::Array(f.items)
        };
        emit(stack, root, value, f.own_key);
    }
}

/// The value of the document cut at byte `cut` of its text, read in `mode`.
pub fn value_after_cut(toks: &[Tok], spans: &[Range<usize>], cut: usize, mode: Mode) -> Value {
    let mut stack: Vec<Frame> = Vec::new();
    let mut root = None;
    for (i, t) in toks.iter().enumerate() {
        let span = &spans[i];
        if span.start >= cut {
            break;
        }
        let partial = span.end > cut;
        match t.k {
            K::Open => {
                let own_key = stack.last_mut().and_then(|f| f.key.take());
                stack.push(Frame {
                    object: t.bracket == b'{',
                    map: Map::new(),
                    items: Vec::new(),
                    own_key,
                    key: None,
                });
            }
            K::Close => {
                if let Some(f) = stack.last_mut() {
                    f.key = None;
                }
                close(&mut stack, &mut root);
            }
            K::Key => {
                if partial {
                    break;
                }
                if let Some(f) = stack.last_mut() {
                    f.key = Some(t.content.clone());
                }
            }
            K::Str | K::Num | K::Lit => {
                let keep = match mode {
                    Mode::Drop => ended(toks, spans, i, cut),
                    Mode::Complete => true,
                };
                if keep {
                    let value = if partial {
                        // Complete mode, cut inside a standard string: the written prefix.
                        let prefix = format!("{}\"", &text_of(toks, spans, i)[..cut - span.start]);
                        serde_json::from_str(&prefix).unwrap_or(Value::Null)
                    } else {
                        scalar_value(t)
                    };
                    emit(&mut stack, &mut root, value, None);
                } else if let Some(f) = stack.last_mut() {
                    f.key = None;
                }
                if partial {
                    break;
                }
            }
            K::Colon | K::Comma | K::Ws | K::Noise => {}
        }
    }
    while !stack.is_empty() {
        if let Some(f) = stack.last_mut() {
            f.key = None;
        }
        close(&mut stack, &mut root);
    }
    root.unwrap_or(Value::Null)
}

fn text_of<'a>(toks: &'a [Tok], _spans: &[Range<usize>], i: usize) -> &'a str {
    &toks[i].text
}

/// Byte offsets where the document may be cut in `mode`: after its first member has started,
/// before its end, never inside a token a fault touched.
pub fn cut_points(toks: &[Tok], spans: &[Range<usize>], text: &str, mode: Mode) -> Vec<usize> {
    let end = text.trim_end().len();
    // After the root's first written token inside it.
    let Some(first) = toks.iter().position(|t| t.k == K::Open) else {
        return Vec::new();
    };
    let Some(inner) = next_sig(toks, first) else {
        return Vec::new();
    };
    let from = spans[inner].start + 1;
    let mut out = Vec::new();
    for (i, t) in toks.iter().enumerate() {
        let span = &spans[i];
        // Inside the token.
        let inside_ok = match mode {
            Mode::Drop => !t.locked,
            Mode::Complete => {
                !t.locked && matches!(t.k, K::Str | K::Key) && t.text.starts_with('"')
            }
        };
        if inside_ok {
            let body = &t.text;
            for (k, c) in body.char_indices().skip(1) {
                let at = span.start + k;
                if mode == Mode::Complete {
                    // Not inside an escape, not after whitespace or a backslash, not at the
                    // closing quote.
                    let before = &body[..k];
                    if k + 1 >= body.len()
                        || before.ends_with(char::is_whitespace)
                        || escape_open(before)
                        || c == '\u{0}'
                    {
                        continue;
                    }
                }
                out.push(at);
            }
        }
        // Right after the token.
        let after_ok = match mode {
            Mode::Drop => true,
            Mode::Complete => !matches!(t.k, K::Num | K::Ws | K::Noise) && !t.text.is_empty(),
        };
        if after_ok {
            out.push(span.end);
        }
    }
    out.retain(|&c| c >= from && c < end && text.is_char_boundary(c));
    out.sort_unstable();
    out.dedup();
    out
}

/// The text ends inside an escape sequence (`\`, `\u12`).
fn escape_open(before: &str) -> bool {
    let b = before.as_bytes();
    // Count the backslashes that end the text, and look for a `\u` with fewer than 4 digits.
    let trailing = b.iter().rev().take_while(|&&c| c == b'\\').count();
    if trailing % 2 == 1 {
        return true;
    }
    for back in 1..=5 {
        if back + 1 > b.len() {
            break;
        }
        let at = b.len() - back;
        if b[at] == b'u' && at >= 1 && b[at - 1] == b'\\' {
            let run = b[..at - 1]
                .iter()
                .rev()
                .take_while(|&&c| c == b'\\')
                .count();
            if run % 2 == 0 && back <= 4 {
                return true;
            }
        }
    }
    false
}
