//! What the pipeline's stages hand each other: the parser's settings from the options, a value
//! found and parsed, the safety guard, and the turn from a parse's failure into an [`Error`].
//! (A leaf of the pipeline: `choose.rs` and `mod.rs` use it, it uses neither.)

use crate::locate::Source;
use crate::position::{self, Position};
use crate::repair::{self, Config, Fail, Output};
use crate::settings::Settings;
use crate::{Error, Parsed, SyntaxError, MAX_DEPTH_CEILING};

/// What a caller keeps of the repair log.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Detail {
    /// Every entry whole: kind, span, JSON path, line and column.
    Log,
    /// Kinds and spans only (a caller that keeps the value): no path or position is computed.
    Kinds,
    /// Every entry but its line and column, left at 0: a caller that shows the log later fills
    /// them in then (`crate::bindings::fill_positions`).
    Paths,
}

pub(crate) fn config<'o>(options: &Settings<'o>, detail: Detail) -> Config<'o> {
    Config {
        paths: detail != Detail::Kinds,
        schema: options.keys,
        level: options.level,
        truncation: options.truncation,
        duplicate_keys: options.duplicate_keys,
        // The field is public: clamp here too, not only in the setter.
        max_depth: options.max_depth.clamp(1, MAX_DEPTH_CEILING),
        only_truncation: false,
        inside_object: false,
        guard_comments: options.guard_comments,
        latex: options.latex && options.level != crate::RepairLevel::None,
    }
}

/// The safety guard ignores repairs that discard at most this many non-whitespace bytes: on
/// tiny inputs a ratio is noise (a 6-byte comment in a 20-byte object is not a destructive edit).
pub const MIN_GUARDED_BYTES: usize = 32;

/// The safety guard: the share of the located text discarded, when it is over the limit.
pub(crate) fn guard_refuses(removed: usize, located: usize, options: &Settings<'_>) -> Option<f64> {
    if removed <= MIN_GUARDED_BYTES || located == 0 {
        return None;
    }
    let share = removed as f64 / located as f64;
    (share > options.max_removed_ratio).then_some(share)
}

/// A value found and parsed, before the guard and the log's positions.
pub(crate) struct Found {
    pub(crate) start: usize,
    pub(crate) out: Output,
    pub(crate) source: Source,
}

pub(crate) fn found(out: Output, source: Source) -> Found {
    Found {
        start: out.start,
        out,
        source,
    }
}

pub(crate) fn finish(
    text: &str,
    found: Found,
    options: &Settings<'_>,
    detail: Detail,
) -> Result<Parsed, Error> {
    let Found { start, out, source } = found;
    let span = start..out.end;
    let located = &text.as_bytes()[span.clone()];
    let located_bytes = located.len() - repair::parser::json_whitespace(located);
    if let Some(share) = guard_refuses(out.removed, located_bytes, options) {
        return Err(Error::RepairRejected {
            removed_share: share,
            limit: options.max_removed_ratio,
            removed_bytes: out.removed,
            located_bytes,
        });
    }
    Ok(Parsed {
        value: out.value,
        repairs: repair::finish_log(text, out.repairs, detail == Detail::Log),
        span,
        source,
        removed_bytes: out.removed,
        located_bytes,
        verification: None,
        dropped: Vec::new(),
    })
}

pub(crate) fn to_error(text: &str, fail: Fail, options: &Settings<'_>) -> Error {
    match fail {
        Fail::Syntax {
            offset,
            message,
            truncated,
        } => {
            // A cut-off reply is reported just after its last character, not on the empty line
            // a final newline makes.
            let offset = if truncated {
                let clamped = position::floor_char_boundary(text, offset.min(text.len()));
                text[..clamped].trim_end().len()
            } else {
                offset
            };
            Error::Syntax(Box::new(SyntaxError::new(
                text,
                offset,
                message.into_owned(),
                options.level,
                truncated,
            )))
        }
        Fail::TooDeep { offset } => Error::TooDeep {
            limit: options.max_depth.clamp(1, MAX_DEPTH_CEILING),
            position: Position::of(text, offset),
        },
        Fail::DuplicateKey { offset, key } => Error::DuplicateKey {
            key,
            position: Position::of(text, offset),
        },
        Fail::Internal(what) => Error::Internal(what),
        Fail::NeedMore | Fail::Paused(_) => Error::Internal("a whole text's parse waited for more"),
    }
}
