//! What the parser keeps from one step to the next besides its frames and log: the string
//! scans' runs (`strings.rs` fills them), the fast lane's budget, its last refusal and its
//! buffers (`lane.rs`, `conventions.rs`). Data and the rules that make it, no reading: the
//! parser (`mod.rs`) holds them and its readers fill them, so this file imports neither.

use crate::repair::{shortcut, RepairKind, Shortcut};
use std::borrow::Cow;

/// A run of a string's text copied as it is: where it starts in the input and in the decoded
/// text, and what the string had logged before it. A split inside the run cuts the text (and
/// the log) there.
#[derive(Debug, Clone, Copy)]
pub(super) struct Run {
    pub(super) raw: usize,
    pub(super) len: usize,
    pub(super) controls: u32,
    pub(super) bad_escapes: u32,
    pub(super) markdown: u32,
    pub(super) text_quotes: u32,
}

/// What the lane may spend on refused attempts: this many times the input, plus a base.
const LANE_BUDGET_PER_BYTE: usize = 2;
const LANE_BUDGET_BASE: usize = 4096;

/// What the lane may spend on refused attempts over `len` bytes of text.
pub(super) fn lane_budget(len: usize) -> usize {
    len.saturating_mul(LANE_BUDGET_PER_BYTE)
        .saturating_add(LANE_BUDGET_BASE)
}

/// Where the containers open at the last refused attempt's refusal began (outermost first, each
/// with the depth the reader had left there), how far it read, and by which reader: any of them
/// read again by the same reader is refused at the same spot.
#[derive(Default)]
pub(super) struct LaneRefusal {
    pub(super) reached: usize,
    pub(super) open: Vec<(usize, usize)>,
    pub(super) lax: bool,
}

impl LaneRefusal {
    pub(super) fn note(&mut self, reached: usize, open: Vec<(usize, usize)>, lax: bool) {
        *self = LaneRefusal { reached, open, lax };
    }

    /// What the strict reader's refusal at `reached` says of the lane's attempts, the
    /// containers that began at `open` being open then: a strict attempt at one of them reads
    /// what the strict reader read and is refused there too. So is a convention-lane attempt,
    /// unless a convention may begin where the reader stopped (on the byte that refused): a
    /// comment, a quote JSON does not use, a bare word (a key, a literal of another language),
    /// a closer after a trailing comma. That reader accepts what the strict one does and,
    /// besides, only what its hooks accept there.
    pub(super) fn after_strict(
        b: &[u8],
        reached: usize,
        open: Vec<(usize, usize)>,
        lax: bool,
    ) -> LaneRefusal {
        let may_convene = |c: &u8| {
            matches!(c, b'/' | b'#' | b'\'' | b'}' | b']' | b'_' | b'$')
                || c.is_ascii_alphabetic()
                || !c.is_ascii()
        };
        if lax && b.get(reached).is_some_and(may_convene) {
            return LaneRefusal::default();
        }
        LaneRefusal { reached, open, lax }
    }

    /// How far an attempt at `at` would read before it is refused, when this refusal says.
    pub(super) fn reached(&self, at: usize, depth_left: usize, lax: bool) -> Option<usize> {
        let k = self
            .open
            .binary_search_by_key(&at, |&(start, _)| start)
            .ok()?;
        (self.lax == lax && self.open[k].1 == depth_left && shortcut(Shortcut::CutShort))
            .then_some(self.reached)
    }
}

/// One repair the lane made, to be logged by the parser.
pub(super) struct Event {
    pub(super) kind: RepairKind,
    pub(super) start: usize,
    pub(super) end: usize,
    pub(super) detail: &'static str,
    /// JSON Pointer relative to the lane's value: a range of [`Conventions::paths`].
    pub(super) path: (usize, usize),
    pub(super) container: u32,
    /// The text the safety guard counts as discarded.
    pub(super) discard: Option<(usize, usize)>,
}

/// A container the lane opened: its id, its items so far (in an array), where its segment
/// starts in [`LaneBuffers::current`], and its current member's segment, written there only
/// when a path needs it (a child opens, a repair is logged).
pub(super) struct Open<'t> {
    pub(super) id: u32,
    pub(super) items: usize,
    pub(super) base: usize,
    pub(super) segment: Segment<'t>,
    pub(super) written: bool,
}

/// A container's current member: none yet, a key, or an item's index.
pub(super) enum Segment<'t> {
    None,
    Key(Cow<'t, str>),
    Index(usize),
}

/// What the lane records while reading: kept by the parser from one stretch to the next, so
/// that a stretch allocates nothing once the buffers have grown.
#[derive(Default)]
pub(super) struct LaneBuffers<'t> {
    pub(super) open: Vec<Open<'t>>,
    /// The path of the open containers' current members, relative to the lane's value (the
    /// innermost one's written only when needed): a repair's path is a copy of a prefix of it.
    pub(super) current: String,
    pub(super) events: Vec<Event>,
    /// The events' relative paths, one after the other (one buffer, not a string each).
    pub(super) paths: String,
    /// Comments and quoted strings read: the layout check steps over them.
    pub(super) opaque: Vec<(usize, usize)>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_budget_is_twice_the_input_and_a_base() {
        assert_eq!(lane_budget(0), LANE_BUDGET_BASE);
        assert_eq!(lane_budget(1000), 2000 + LANE_BUDGET_BASE);
        assert_eq!(lane_budget(usize::MAX), usize::MAX);
    }
}
