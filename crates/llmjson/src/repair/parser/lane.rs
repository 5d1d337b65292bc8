//! The fast lane: a stretch of a broken reply that is valid JSON is read by the strict reader
//! (`value/parse.rs`: eight bytes at a time, no readings, no decisions) instead of spot by spot.
//!
//! Most of a broken reply is valid: the faults are local (a comment here, an unquoted key
//! there). Where the parser expects a value (or a key) inside a container and no beam is
//! following the text, it asks the strict reader for one valid value (or key) starting there.
//! The stretch is taken only when the decision procedure would have read it the same way:
//!
//! - inside it every spot has its plain reading at no cost, and every other reading costs more
//!   (a valid stretch needs no repair), so no other path through it is cheaper;
//! - what follows it is what a valid document has there (`,` or the container's closer after a
//!   value, `:` after a key), and the spot there wins clearly, with the next spots after it
//!   (the same evidence the decision procedure asks of a clear spot): a fault further on cannot
//!   make a reading that departs inside the stretch cheaper.
//!
//! Otherwise the spot is read as before. **Linear time:** a refused attempt is charged what it
//! read against a budget of twice the input; past it, the lane closes.

use super::{Kinds, Parser, Result};
use crate::repair::cost::WINDOW;
use crate::repair::grammar::{after_value, Mode};
use crate::repair::lex::{is_ws, Kind};
use crate::value::parse::{string_at, value_at, Prefix};

/// What the lane may spend on refused attempts: this many times the input, plus a base.
const LANE_BUDGET_PER_BYTE: usize = 2;
const LANE_BUDGET_BASE: usize = 4096;

/// Where the next token after a valid value (or key) ending at `end` stands, when it is what a
/// valid document has there: `:` after a key; after a value, `,` or the closer of the container
/// `top` (JSON whitespace between).
pub(crate) fn valid_after(
    b: &[u8],
    end: usize,
    limit: usize,
    key: bool,
    top: Option<Kind>,
) -> Option<usize> {
    let mut next = end;
    while next < limit && is_ws(b[next]) {
        next += 1;
    }
    let c = *b.get(next).filter(|_| next < limit)?;
    let expected = if key {
        c == b':' && top == Some(Kind::Object)
    } else {
        c == b','
            || (c == b'}' && top == Some(Kind::Object))
            || (c == b']' && top == Some(Kind::Array))
    };
    expected.then_some(next)
}

/// Every closer inside the valid container at `at..end` that stands first on its line (after
/// other closers) lines up with the line its container opened on. The grammar charges a closer
/// that does not (`misaligned_close`: the layout says it closes something else), so only then
/// is the plain reading of every spot in the stretch free. Stricter than the grammar where the
/// grammar gives up (very long lines): the lane then just does not take the stretch.
fn layout_agrees(b: &[u8], at: usize, end: usize) -> bool {
    let blanks = |from: usize| {
        b[from..end]
            .iter()
            .take_while(|&&c| matches!(c, b' ' | b'\t'))
            .count()
    };
    // As the grammar does, a line is looked back over for at most a window: a container that
    // opened further into its line than that has no known opening line (and no closer of it
    // is charged).
    let floor = at.saturating_sub(WINDOW + 1);
    let mut line_start = match b[floor..at].iter().rposition(|&c| c == b'\n') {
        Some(n) => Some(floor + n + 1),
        None => (floor == 0).then_some(0),
    };
    let mut indent = line_start.map_or(0, blanks);
    // The indentation of the line each open container opened on, innermost last.
    let mut openers: Vec<Option<usize>> = Vec::new();
    let mut run_start = at;
    let mut i = at;
    while i < end {
        match b[i] {
            b'"' => {
                // A valid string: its end is the next quote no backslash escapes.
                let mut j = i + 1;
                while let Some(k) = memchr::memchr2(b'"', b'\\', &b[j..end]) {
                    if b[j + k] == b'"' {
                        j += k;
                        break;
                    }
                    j += k + 2;
                }
                i = j;
            }
            b'\n' => {
                line_start = Some(i + 1);
                indent = blanks(i + 1);
            }
            b'{' | b'[' => {
                let known = line_start.filter(|&start| i - start <= WINDOW);
                openers.push(known.map(|_| indent));
            }
            b'}' | b']' => {
                if !matches!(b[i - 1], b'}' | b']') {
                    run_start = i;
                }
                let first_on_line = line_start.is_some_and(|start| indent == run_start - start);
                if let Some(Some(opener)) = openers.pop() {
                    if first_on_line && line_start.map(|start| run_start - start) != Some(opener) {
                        return false;
                    }
                }
            }
            _ => {}
        }
        i += 1;
    }
    true
}

pub(super) fn lane_budget(len: usize) -> usize {
    len.saturating_mul(LANE_BUDGET_PER_BYTE)
        .saturating_add(LANE_BUDGET_BASE)
}

impl Parser<'_> {
    /// Reads the valid value or key at `at` in one go, when the decision procedure would read it
    /// the same way: the mode after it, or `None` to read the spot as usual.
    pub(super) fn fast_lane(&mut self, mode: Mode, at: usize) -> Result<Option<Mode>> {
        let key = match mode {
            Mode::Value { .. } => false,
            Mode::Key { .. } => true,
            _ => return Ok(None),
        };
        let (Some(&top), Some(&first)) = (self.kinds.last(), self.b.get(at)) else {
            return Ok(None);
        };
        let opens_value = first == b'"' || (!key && matches!(first, b'{' | b'['));
        if !crate::repair::shortcuts()
            || !opens_value
            || !matches!(top, Kind::Object | Kind::Array)
            || self.lane_budget == 0
            || !self.searcher.idle()
        {
            return Ok(None);
        }
        let limit = self.end();
        let (read, end) = if key {
            match string_at(self.text, at, limit) {
                Prefix::Read(k, end) => (Read::Key(k), end),
                Prefix::Refused { reached } => return Ok(self.refused(at, reached)),
            }
        } else {
            let depth_left = self.cfg.max_depth.saturating_sub(self.frames.len());
            let duplicates = self.cfg.duplicate_keys;
            match value_at(self.text, at, limit, depth_left, duplicates) {
                Prefix::Read(v, end) if first == b'"' || layout_agrees(self.b, at, end) => {
                    (Read::Value(v), end)
                }
                Prefix::Read(_, end) => return Ok(self.refused(at, end)),
                Prefix::Refused { reached } => return Ok(self.refused(at, reached)),
            }
        };
        // What follows must be what a valid document has there, and win clearly.
        let after = if key {
            Mode::Colon
        } else {
            after_value(self.kinds.len(), first == b'"')
        };
        let vouched = valid_after(self.b, end, limit, key, Some(top))
            .is_some_and(|next| self.vouched(after, next));
        if !vouched {
            return Ok(self.refused(at, end));
        }
        self.pos = end;
        match read {
            Read::Key(k) => {
                if let Some(frame) = self.frames.last_mut() {
                    frame.key = Some(k);
                    frame.key_at = at;
                    frame.key_end = end;
                }
            }
            Read::Value(v) => self.emit(v)?,
        }
        Ok(Some(after))
    }

    /// Whether the spot at `at` in `mode` (after trivia-free text) wins clearly.
    fn vouched(&mut self, mode: Mode, at: usize) -> bool {
        if self.searcher.planned(mode, at).is_some() {
            return true;
        }
        let mut succs = std::mem::take(&mut self.succs);
        self.ctx
            .successors(&Kinds(&self.kinds, &self.opens), mode, at, &mut succs);
        let vouched = succs.len() > 0
            && self
                .searcher
                .vouches(&self.ctx, &self.kinds, &self.opens, at, &succs);
        self.succs = succs;
        vouched
    }

    /// An attempt that read up to `reached` and was not taken: charged to the budget.
    fn refused<T>(&mut self, at: usize, reached: usize) -> Option<T> {
        self.lane_budget = self
            .lane_budget
            .saturating_sub(reached.saturating_sub(at).max(1));
        None
    }
}

enum Read {
    Key(String),
    Value(crate::value::Value),
}

#[cfg(test)]
mod tests {
    use crate::repair::SHORTCUTS;
    use crate::{Options, Truncation};

    /// Everything a caller sees of one parse.
    fn outcome(text: &str, options: &Options) -> String {
        match crate::parse(text, options) {
            Ok(parsed) => format!("{} {:?}", parsed.value, parsed.repairs),
            Err(error) => format!("error: {error:?}"),
        }
    }

    /// The outcome with the shortcuts and without them.
    fn with_and_without(text: &str, options: &Options) -> (String, String) {
        SHORTCUTS.with(|on| on.set(true));
        let with = outcome(text, options);
        SHORTCUTS.with(|on| on.set(false));
        let without = outcome(text, options);
        SHORTCUTS.with(|on| on.set(true));
        (with, without)
    }

    #[test]
    fn the_shortcuts_change_no_outcome_on_generated_faults() {
        // Seeds the fault scoreboard does not use: cases nobody looked at.
        for seed in [7, 5150661] {
            for case in llmjson_faults::generate(seed, 2460) {
                let options = if case.truncation_drop {
                    Options::default().truncation(Truncation::Drop)
                } else {
                    Options::default()
                };
                let (with, without) = with_and_without(&case.input, &options);
                assert_eq!(
                    with, without,
                    "case {} (seed {seed}): {:?}",
                    case.id, case.input
                );
            }
        }
    }

    #[test]
    fn a_valid_stretch_whose_closers_the_layout_contradicts_is_read_spot_by_spot() {
        // `{"cache": {"a": 1}}` is valid on its own, but its last brace stands where the
        // member after it says it is stray: the stretch is not taken whole.
        let text = "{\n    \"retry\": {\n        \"cache\": {\n            \"a\": 1\n        }},\n        \"server\": null\n    },\n    \"ui\": 2\n}";
        let options = Options::default();
        let (with, without) = with_and_without(text, &options);
        assert_eq!(with, without);
        assert!(with.starts_with(r#"{"retry":{"cache":{"a":1},"server":null},"ui":2}"#));
        assert!(!super::layout_agrees(text.as_bytes(), 15, 65));
        // Lined up, the same stretch is taken.
        let aligned = "{\n    \"cache\": {\n        \"a\": 1\n    }\n}";
        assert!(super::layout_agrees(aligned.as_bytes(), 15, 37));
    }

    #[test]
    fn nested_containers_that_fail_at_their_end_read_the_same() {
        // Every level's attempt reads to the end and is refused there (each is charged to the
        // budget); the parse after them is the one without attempts.
        let depth = 100;
        let text = format!("{}\"x\" oops{}", "[".repeat(depth), "]".repeat(depth));
        let options = Options::default();
        let (with, without) = with_and_without(&text, &options);
        assert_eq!(with, without);
        assert!(with.contains("oops"), "the word is kept as text: {with}");
    }

    #[test]
    fn the_budget_is_twice_the_input_and_a_base() {
        assert_eq!(super::lane_budget(0), super::LANE_BUDGET_BASE);
        assert_eq!(super::lane_budget(1000), 2000 + super::LANE_BUDGET_BASE);
        assert_eq!(super::lane_budget(usize::MAX), usize::MAX);
    }
}
