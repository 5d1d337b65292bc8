//! Stage "repair": makes the located text JSON, in one pass, and logs every change it made.
//!
//! Valid JSON takes the fast path: a strict parse (the same parser with every repair forbidden)
//! that succeeds leaves nothing to log. Only when it fails does the tolerant parse run.
//!
//! - `lex.rs` reads bytes: trivia, tokens, the extent of numbers and words, string stops;
//! - `grammar.rs` says which readings a spot allows, what each costs and where it leads;
//! - `cost.rs` is the one table of costs;
//! - `search.rs` chooses among readings by following them through the next stretch of text;
//! - `parser/` applies the chosen readings, builds the value and logs every repair.

pub(crate) mod cost;
pub(crate) mod grammar;
pub(crate) mod index;
mod kind;
pub(crate) mod lex;
pub(crate) mod parser;
mod price;
mod search;
mod shortcut;

pub use kind::RepairKind;

pub(crate) use grammar::KeyNames;

#[cfg(test)]
pub(crate) use shortcut::SHORTCUTS_OFF;
pub(crate) use shortcut::{shortcut, Shortcut};

pub(crate) use parser::{Config, Fail, Fence, Output};

use crate::position::PositionCursor;
use crate::RepairLevel;
use serde::Serialize;
use std::borrow::Cow;
use std::ops::Range;

/// One change the repair stage made, with where it made it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Repair {
    /// What was fixed.
    pub kind: RepairKind,
    /// Byte range in the original input (empty for an insertion).
    pub span: Range<usize>,
    /// 1-based line of `span.start`.
    pub line: usize,
    /// 1-based column of `span.start`, in characters.
    pub column: usize,
    /// JSON Pointer to the value concerned (`""` is the root, `/steps/0/tool` a member).
    pub path: String,
    /// A short human description ("added '}'", "escaped 3 raw control characters"). Most are
    /// fixed phrases, borrowed rather than allocated.
    pub detail: Cow<'static, str>,
}

impl Repair {
    /// Appends the repair as compact JSON, byte for byte what `serde_json::to_string` gives
    /// (see [`crate::Diagnostics::write_json`]).
    pub fn write_json(&self, out: &mut String) {
        let mut m = crate::value::write::Members::open(out);
        m.str("kind", self.kind.as_str());
        m.range("span", &self.span);
        m.usize("line", self.line);
        m.usize("column", self.column);
        m.str("path", &self.path);
        m.str("detail", &self.detail);
        m.close();
    }

    /// Appends a repair log as a compact JSON array (what `serde_json::to_string` gives).
    pub fn write_log_json(repairs: &[Repair], out: &mut String) {
        crate::value::write::write_array(out, repairs, Repair::write_json);
    }
}

impl std::fmt::Display for Repair {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let path = if self.path.is_empty() {
            "(root)"
        } else {
            &self.path
        };
        write!(
            f,
            "{}:{} {} at {}: {}",
            self.line, self.column, self.kind, path, self.detail
        )
    }
}

/// Parses one value at `start`, fast path first: a strict parse (nothing to log), and only if
/// that fails and the level allows repairs, the tolerant parse.
pub(crate) fn parse_at(
    text: &str,
    start: usize,
    end: usize,
    fence: Option<Fence>,
    config: Config<'_>,
) -> Result<Output, Fail> {
    let strict = Config {
        level: RepairLevel::None,
        ..config
    };
    // Valid JSON up to where the reply stops: it is read as exactly that, completed. No reading
    // that repairs something earlier can beat a prefix that needs nothing.
    let completed = |cut: &mut Vec<(usize, usize)>| {
        let only_cut = Config {
            only_truncation: true,
            ..config
        };
        parser::parse_knowing(text, start, end, fence, only_cut, cut, None)
            .or_else(|_| parser::parse_knowing(text, start, end, fence, config, cut, None))
    };
    // One check that builds nothing says which way the region goes, so that no parse below
    // reads it only to find that out: valid JSON cut short (the strict parse would fail at the
    // end, and the next parses would try each container open there again: which are open is
    // known), or invalid before its end (the strict parse would fail there, having read the
    // region up to it with the whole parser: the tolerant parse reads it once).
    let mut cut = Vec::new();
    if config.level != RepairLevel::None && !config.inside_object {
        use crate::value::parse::{strict_check, StrictCheck};
        match strict_check(text, start, end.min(text.len()), config.max_depth) {
            StrictCheck::CutShort(open) if shortcut(Shortcut::CutShort) => {
                cut = open;
                return completed(&mut cut);
            }
            StrictCheck::Refused { reached, open }
                if shortcut(Shortcut::StrictRefused)
                    && config.duplicate_keys != crate::DuplicateKeys::Error =>
            {
                let refused = Some((reached, open));
                return parser::parse_knowing(text, start, end, fence, config, &mut cut, refused);
            }
            _ => {}
        }
    }
    match parser::parse_knowing(text, start, end, fence, strict, &mut cut, None) {
        // A value followed by text that goes on like JSON closed too early (`{"a": 1}, "b":
        // 2}`): only the tolerant parse can read on (or log what it leaves out).
        Ok(out) if config.level != RepairLevel::None && goes_on(text, out.end, end, fence) => {
            parser::parse(text, start, end, fence, config)
        }
        Ok(out) => Ok(out),
        Err(Fail::Syntax {
            truncated: true, ..
        }) if config.level != RepairLevel::None => completed(&mut cut),
        Err(Fail::Syntax { .. }) if config.level != RepairLevel::None => {
            parser::parse(text, start, end, fence, config)
        }
        Err(fail) => Err(fail),
    }
}

/// The text after `at` goes on like JSON (see [`lex::Lex::trailing_json`]).
fn goes_on(text: &str, at: usize, end: usize, fence: Option<Fence>) -> bool {
    let index = index::StructIndex::new();
    let lex = lex::Lex {
        text,
        b: text.as_bytes(),
        end: end.min(text.len()),
        fence,
        index: &index,
    };
    lex.trailing_json(at).is_some()
}

/// Parses one value at `start` in a single pass at the given level (no fast path).
pub(crate) fn parse_once(
    text: &str,
    start: usize,
    end: usize,
    config: Config<'_>,
) -> Result<Output, Fail> {
    parser::parse(text, start, end, None, config)
}

/// Turns raw repairs into public ones, in the order of the text. With `positions`, lines and
/// columns are computed in one forward walk; without (a caller that keeps kinds and spans only,
/// `pipeline::Detail::Kinds`, or one that fills them in later, `crate::bindings::fill_positions`), they
/// are left at 0.
pub(crate) fn finish_log(
    text: &str,
    mut raw: Vec<parser::RawRepair>,
    positions: bool,
) -> Vec<Repair> {
    // Mostly in order already (the lanes replay in reading order): no sort, no scratch buffer.
    if !raw.is_sorted_by_key(|r| r.start) {
        raw.sort_by_key(|r| r.start);
    }
    let mut cursor = positions.then(|| PositionCursor::new(text));
    raw.into_iter()
        .map(|r| {
            let (line, column) = cursor.as_mut().map_or((0, 0), |c| {
                let pos = c.seek(r.start);
                (pos.line, pos.column)
            });
            let detail = if r.count > 1 {
                Cow::Owned(format!("{} (x{})", r.detail, r.count))
            } else {
                r.detail
            };
            Repair {
                kind: r.kind,
                span: r.start..r.end.max(r.start),
                line,
                column,
                path: r.path,
                detail,
            }
        })
        .collect()
}
