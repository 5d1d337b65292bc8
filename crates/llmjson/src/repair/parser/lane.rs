//! The fast lane: a stretch of a broken reply that is valid JSON, or written in a convention
//! whose reading is certain (`conventions.rs`), is read by the strict reader (`value/parse.rs`:
//! eight bytes at a time, no readings, no decisions) instead of spot by spot.
//!
//! Most of a broken reply is valid or written in one convention: the faults are local (a comment
//! here, an unquoted key there). Where the parser expects a value (or a key) inside a container,
//! or the top-level container, and no beam is following the text, it asks the strict reader for
//! one value (or key) starting there. The stretch is taken only when the decision procedure
//! would have read it the same way:
//!
//! - inside it every spot has its plain reading, at no cost or at a convention's (each form the
//!   convention lane accepts is one whose every other reading costs the clear gap more), so no
//!   other path through it is cheaper;
//! - what follows it is what a valid document has there (`,` or the container's closer after a
//!   value, `:` after a key), and the spot there wins clearly, with the next spots after it
//!   (the same evidence the decision procedure asks of a clear spot): a fault further on cannot
//!   make a reading that departs inside the stretch cheaper. After the top-level container, the
//!   document's end, judged as the clean path judges it (nothing JSON-like left out);
//! - it holds no repeated key (the parser logs those) and no closer the layout disputes.
//!
//! A key is read with its member's value when the lane takes that value too (a string, a
//! container): key, colon and value are then one stretch, vouched for where the member ends, as
//! the members inside a container read whole are. Otherwise the key is read alone and vouched for
//! where its colon is.
//!
//! Otherwise the spot is read as before. **Linear time:** a refused attempt is charged what it
//! read against a budget of twice the input; past it, the lane closes.

use super::buffers::LaneBuffers;
use super::conventions::{colon_like_at, ColonLike, ConventionLog, Conventions, PARSER_CONTAINER};
use super::{lax, Kinds, Parser, Result};
use crate::repair::cost::WINDOW;
use crate::repair::grammar::{after_value, Mode};
use crate::repair::lex::{valid_after, ws_end, Kind};
use crate::repair::{shortcut, Shortcut};
use crate::spelling::WIDE_COMMA;
use crate::value::parse::{string_at, value_accepting, value_at, Prefix};
use crate::{DuplicateKeys, RepairLevel};
use std::borrow::Cow;

/// A repeated key inside a stretch ends the attempt, whatever the policy: the parser applies
/// the policy and logs the duplicate (`DuplicateKey`), which the strict reader does not.
const LANE_DUPLICATES: DuplicateKeys = DuplicateKeys::Error;

/// Every closer inside the valid container at `at..end` that stands first on its line (after
/// other closers) lines up with the line its container opened on. The grammar charges a closer
/// that does not (`misaligned_close`: the layout says it closes something else), so only then
/// is the plain reading of every spot in the stretch free. Stricter than the grammar where the
/// grammar gives up (very long lines): the lane then just does not take the stretch.
///
/// `opaque` (sorted) are the comments and single-quoted strings the stretch holds: stepped over.
fn layout_agrees(b: &[u8], at: usize, end: usize, opaque: &[(usize, usize)]) -> bool {
    // Only a closer first on its line is judged. The stretch opens with a bracket, so its first
    // line has none: a stretch on one line has nothing to judge.
    if memchr::memchr(b'\n', &b[at..end]).is_none() {
        return true;
    }
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
    let mut opaque = opaque.iter().peekable();
    while i < end {
        if let Some(&&(from, to)) = opaque.peek() {
            if i >= from {
                opaque.next();
                if i == from {
                    i = to;
                    continue;
                }
            }
        }
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
                // The indentation holds nothing to judge.
                i += 1 + indent;
                continue;
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

/// The byte opens a value the lane reads whole: a string, a container, and with the conventions a
/// single or typographic quote.
fn opens_lane_value(first: u8, lax: bool) -> bool {
    matches!(first, b'"' | b'{' | b'[') || (lax && matches!(first, b'\'' | 0xE2))
}

/// The byte opens a string (of any quote the lane reads).
fn is_quote(first: u8) -> bool {
    matches!(first, b'"' | b'\'' | 0xE2)
}

impl<'t> Parser<'t> {
    /// Reads the valid value or key at `at` in one go, when the decision procedure would read it
    /// the same way: the mode after it, or `None` to read the spot as usual.
    pub(super) fn fast_lane(&mut self, mode: Mode, at: usize) -> Result<Option<Mode>> {
        let key = match mode {
            Mode::Value { .. } => false,
            Mode::Key { .. } => true,
            _ => return Ok(None),
        };
        let Some(&first) = self.b.get(at) else {
            return Ok(None);
        };
        // The top-level value itself, when it is a container: what follows it is the end of the
        // document, which the clean path accepts when it leaves nothing JSON-like out.
        let top = self.state.kinds.last().copied();
        let root = top.is_none() && !key && matches!(first, b'{' | b'[');
        let lax = lax(&self.cfg);
        if !shortcut(Shortcut::Lane)
            || !(first == b'"' || (!key && opens_lane_value(first, lax)))
            || !(root || matches!(top, Some(Kind::Object | Kind::Array)))
            || self.state.lane_budget == 0
            || !self.state.searcher.idle_at(at)
        {
            return Ok(None);
        }
        if key {
            return self.lane_key(at, top);
        }
        let Some((value, end, log)) = self.lane_value(at, first, lax)? else {
            return Ok(None);
        };
        // What follows must be what a valid document has there, and win clearly: after the
        // top-level value, the end of the document as the clean path judges it (`search.rs`).
        let after = if root {
            Mode::Done
        } else {
            after_value(self.state.kinds.len(), is_quote(first))
        };
        let vouched = if root {
            self.lex().lost_after_document(end) == 0
        } else {
            self.vouched_after(end, after)
        };
        if !vouched {
            return Ok(self.refused_with(at, end, log));
        }
        self.take_value(value, end, log)?;
        Ok(Some(after))
    }

    /// The key at `at`, read whole: with its member's value when the lane takes that too (one
    /// stretch, vouched where the member ends), else alone, vouched where its `:` is.
    fn lane_key(&mut self, at: usize, top: Option<Kind>) -> Result<Option<Mode>> {
        let limit = self.end();
        let (key, end) = match string_at(self.text, at, limit) {
            Prefix::Read(key, end) => (key, end),
            Prefix::Refused { reached, .. } => return Ok(self.refused(at, reached)),
        };
        let lax = lax(&self.cfg);
        let colon = match valid_after(self.b, end, limit, true, top) {
            Some(colon) => (colon, None),
            // With the conventions, another language's colon, as the parser would read it.
            None if lax && top == Some(Kind::Object) => {
                let next = ws_end(self.b, end, limit);
                match colon_like_at(&self.b[next..limit]) {
                    Some(like) => (next, Some(like)),
                    None => return Ok(self.refused(at, end)),
                }
            }
            None => return Ok(self.refused(at, end)),
        };
        let key = match self.lane_member(at, key, end, colon)? {
            Ok(after) => return Ok(Some(after)),
            Err(key) => key,
        };
        if !self.vouched(Mode::Colon, colon.0) {
            return Ok(self.refused(at, end));
        }
        self.state.pos = end;
        self.set_key(key, at, end);
        Ok(Some(Mode::Colon))
    }

    /// The member whose key (`key`, read from `at` to `end`) is followed by its colon at
    /// `colon.0` (`:`, or the colon-like `colon.1`), when the lane takes its value too: the
    /// stretch then holds key, colon and value, and is vouched where it ends, as a container read
    /// whole is, members and all. The key is handed back when the value is not taken; a refused
    /// attempt is charged, and remembered so that the parser, arriving at the value, does not
    /// read it again.
    fn lane_member(
        &mut self,
        at: usize,
        key: String,
        end: usize,
        (colon, like): (usize, Option<ColonLike>),
    ) -> Result<std::result::Result<Mode, String>> {
        if !shortcut(Shortcut::Members) {
            return Ok(Err(key));
        }
        let limit = self.end();
        let lax = lax(&self.cfg);
        let start = ws_end(
            self.b,
            colon + like.as_ref().map_or(1, |like| like.len),
            limit,
        );
        let first = match self.b.get(start) {
            Some(&first) if start < limit && opens_lane_value(first, lax) => first,
            _ => return Ok(Err(key)),
        };
        let depth_left = self.depth_left();
        let Some((value, value_end, log)) = self.lane_value(start, first, lax)? else {
            self.lane_taken_refusal = Some((start, depth_left));
            return Ok(Err(key));
        };
        let after = after_value(self.state.kinds.len(), is_quote(first));
        if !self.vouched_after(value_end, after) {
            self.lane_taken_refusal = Some((start, depth_left));
            self.refused_with::<()>(start, value_end, log);
            return Ok(Err(key));
        }
        self.set_key(key, at, end);
        if let Some(like) = like {
            // What the parser's step at the colon logs and notes.
            self.repair(like.kind, colon, colon + like.len, like.detail)?;
            self.state.searcher.note_style(like.style);
        }
        self.take_value(value, value_end, log)?;
        #[cfg(test)]
        MEMBER_STRETCHES.with(|n| n.set(n.get() + 1));
        Ok(Ok(after))
    }

    /// The containers the parser may still open.
    fn depth_left(&self) -> usize {
        self.cfg.max_depth.saturating_sub(self.state.frames.len())
    }

    /// The key of the member being read.
    fn set_key(&mut self, key: String, at: usize, end: usize) {
        if let Some(frame) = self.state.frames.last_mut() {
            frame.key = Some(key);
            frame.key_at = at;
            frame.key_end = end;
        }
    }

    /// Reads the value at `at` (`first` its first byte) in one go: the value, where it ends and
    /// what the convention lane logged; `None` (charged) when the reader or the layout refuses it.
    fn lane_value(
        &mut self,
        at: usize,
        first: u8,
        lax: bool,
    ) -> Result<Option<(crate::value::Value, usize, Option<ConventionLog<'t>>)>> {
        let limit = self.end();
        let depth_left = self.depth_left();
        // The same attempt, made as part of its member and refused there: charged already.
        if self.lane_taken_refusal.take() == Some((at, depth_left)) {
            return Ok(None);
        }
        // A container the last refused attempt was reading when it was refused: read again,
        // it would be refused at the same spot, charged as much.
        if let Some(reached) = self.lane_refused.reached(at, depth_left, lax) {
            return Ok(self.refused(at, reached));
        }
        let (mut read, log) = if lax {
            let lex = self.ctx.lex;
            let conventions = Conventions::new(
                &lex,
                self.cfg.guard_comments,
                self.state.frames.len(),
                self.state.next_id,
                self.cfg.paths,
                std::mem::take(&mut self.lane_buffers),
            );
            let (read, conventions) = value_accepting(
                self.text,
                at,
                limit,
                depth_left,
                LANE_DUPLICATES,
                conventions,
                &mut self.lane_stacks,
            );
            #[cfg(test)]
            CONVENTION_LANE_READ.with(|n| n.set(n.get() + read_to(&read) - at));
            (read, Some(conventions.into_log()))
        } else {
            // A container a strict read already found open where the text runs out: the
            // attempt would read to the end again and be refused there, charged as much.
            let known = self.lane_cut.binary_search_by_key(&at, |&(start, _)| start);
            if known.is_ok_and(|k| self.lane_cut[k].1 == depth_left) && shortcut(Shortcut::CutShort)
            {
                return Ok(self.refused(at, limit));
            }
            let read = value_at(self.text, at, limit, depth_left, LANE_DUPLICATES);
            #[cfg(test)]
            LANE_READ.with(|n| n.set(n.get() + read_to(&read) - at));
            if let Prefix::Refused {
                open,
                ran_out: true,
                ..
            } = &read
            {
                if !open.is_empty() {
                    self.lane_cut.clone_from(open);
                }
            }
            (read, None)
        };
        if let Prefix::Refused { reached, open, .. } = &mut read {
            self.lane_refused.note(*reached, std::mem::take(open), lax);
        }
        // The layout check steps over the comments and quoted strings the stretch holds.
        Ok(match read {
            Prefix::Read(v, end)
                if is_quote(first)
                    || layout_agrees(
                        self.b,
                        at,
                        end,
                        log.as_ref().map_or(&[][..], |l| &l.buf.opaque),
                    ) =>
            {
                Some((v, end, log))
            }
            Prefix::Read(_, end) => self.refused_with(at, end, log),
            Prefix::Refused { reached, .. } => self.refused_with(at, reached, log),
        })
    }

    /// A value's stretch ending at `end` is followed by what a valid document has there, and
    /// that spot, read in `after`, wins clearly.
    fn vouched_after(&mut self, end: usize, after: Mode) -> bool {
        let top = self.state.kinds.last().copied();
        let limit = self.end();
        let next = valid_after(self.b, end, limit, false, top).or_else(|| {
            // With the conventions, a full-width comma after a value, as inside a stretch.
            let next = ws_end(self.b, end, limit);
            (lax(&self.cfg) && self.b[next..limit].starts_with(&WIDE_COMMA)).then_some(next)
        });
        next.is_some_and(|next| self.vouched(after, next))
    }

    /// The lane's value, read to `end`, becomes the parser's: its conventions logged, the value
    /// set in its container.
    fn take_value(
        &mut self,
        value: crate::value::Value,
        end: usize,
        log: Option<ConventionLog<'t>>,
    ) -> Result<()> {
        self.state.pos = end;
        if let Some(log) = log {
            self.replay(log)?;
        }
        self.emit(value)
    }

    /// Logs what the convention lane read, as the parser would have spot by spot.
    fn replay(&mut self, log: ConventionLog<'t>) -> Result<()> {
        self.state.searcher.note_style(log.styles);
        // `emit` counts the lane's value itself.
        self.ctx.draft_values = self
            .ctx
            .draft_values
            .saturating_add(log.values.saturating_sub(1));
        self.state.next_id = log.next_id;
        let mut buf = log.buf;
        let logged = self.replay_events(&mut buf);
        self.lane_buffers = buf;
        logged
    }

    fn replay_events(&mut self, buf: &mut LaneBuffers<'t>) -> Result<()> {
        if buf.events.is_empty() {
            return Ok(());
        }
        #[cfg(test)]
        CONVENTION_STRETCHES.with(|n| n.set(n.get() + 1));
        let prefix = if self.cfg.paths {
            self.path(false)
        } else {
            String::new()
        };
        let top = self.state.frames.last().map_or(0, |f| f.id);
        self.state.log.reserve(buf.events.len());
        for event in buf.events.drain(..) {
            let container = if event.container == PARSER_CONTAINER {
                top
            } else {
                event.container
            };
            let path = self.cfg.paths.then(|| {
                let relative = buf
                    .paths
                    .get(event.path.0..event.path.1)
                    .unwrap_or_default();
                let mut path = String::with_capacity(prefix.len() + relative.len());
                path.push_str(&prefix);
                path.push_str(relative);
                path
            });
            self.log_repair(
                event.kind,
                event.start..event.end,
                Cow::Borrowed(event.detail),
                container,
                path,
            )?;
            if let Some((start, end)) = event.discard {
                self.discard(start, end);
            }
        }
        Ok(())
    }

    /// Whether the spot at `at` in `mode` (after trivia-free text) wins clearly. With every
    /// repair refused there is nothing to win against: JSON's grammar gives each spot one
    /// reading at most, so no reading inside the stretch has a rival a later spot could favour.
    fn vouched(&mut self, mode: Mode, at: usize) -> bool {
        if self.cfg.level == RepairLevel::None {
            return true;
        }
        if self.state.searcher.planned(mode, at).is_some() {
            return true;
        }
        let mut readings = std::mem::take(&mut self.readings);
        self.ctx.successors(
            &Kinds(&self.state.kinds, &self.state.opens),
            mode,
            at,
            &mut readings,
        );
        let vouched = readings.len() > 0
            && self.state.searcher.vouches_after_stretch(
                &self.ctx,
                &self.state.kinds,
                &self.state.opens,
                at,
                &readings,
            );
        if vouched {
            // The parser's next step is this spot: it takes the reading without listing the
            // readings a second time.
            self.state
                .searcher
                .plan(&self.ctx, mode, at, readings.get(0));
        }
        self.readings = readings;
        vouched
    }

    /// A convention-lane attempt not taken: its buffers are kept for the next, and what it
    /// read is charged.
    fn refused_with<T>(
        &mut self,
        at: usize,
        reached: usize,
        log: Option<ConventionLog<'t>>,
    ) -> Option<T> {
        if let Some(log) = log {
            self.lane_buffers = log.buf;
        }
        self.refused(at, reached)
    }

    /// An attempt that read up to `reached` and was not taken: charged to the budget.
    fn refused<T>(&mut self, at: usize, reached: usize) -> Option<T> {
        self.state.lane_budget = self
            .state
            .lane_budget
            .saturating_sub(reached.saturating_sub(at).max(1));
        None
    }
}

#[cfg(test)]
thread_local! {
    /// Stretches the convention lane read that needed a repair (tests check it fires).
    pub(super) static CONVENTION_STRETCHES: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
    /// Bytes the strict lane's attempts read (tests check a reply cut short is read once).
    pub(super) static LANE_READ: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
    /// Bytes the convention lane's attempts read.
    pub(super) static CONVENTION_LANE_READ: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
    /// Members the lane read whole, key and value.
    pub(super) static MEMBER_STRETCHES: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// Where a lane attempt stopped reading.
#[cfg(test)]
fn read_to<T>(read: &Prefix<T>) -> usize {
    match read {
        Prefix::Read(_, end) => *end,
        Prefix::Refused { reached, .. } => *reached,
    }
}

#[cfg(test)]
mod tests {
    use super::{CONVENTION_LANE_READ, CONVENTION_STRETCHES, LANE_READ, MEMBER_STRETCHES};
    use crate::repair::{Shortcut, SHORTCUTS_OFF};
    use crate::{Options, Truncation};

    /// Everything a caller sees of one parse.
    fn outcome(text: &str, options: &Options) -> String {
        match crate::parse(text, options) {
            Ok(parsed) => format!("{} {:?}", parsed.value, parsed.repairs),
            Err(error) => format!("error: {error:?}"),
        }
    }

    /// The outcome with the shortcuts in `off` turned off.
    fn outcome_without(text: &str, options: &Options, off: u8) -> String {
        SHORTCUTS_OFF.with(|mask| mask.set(off));
        let outcome = outcome(text, options);
        SHORTCUTS_OFF.with(|mask| mask.set(0));
        outcome
    }

    /// The outcome with every shortcut and without any.
    fn with_and_without(text: &str, options: &Options) -> (String, String) {
        let with = outcome_without(text, options, 0);
        let without = outcome_without(text, options, u8::MAX);
        (with, without)
    }

    /// The options a generated case is scored with.
    fn options_for(case: &llmjson_faults::Case) -> Options {
        if case.truncation_drop {
            Options::default().truncation(Truncation::Drop)
        } else {
            Options::default()
        }
    }

    /// Every case's outcome is the same with the shortcuts in `off` turned off.
    fn assert_unchanged_without(cases: &[llmjson_faults::Case], off: u8) {
        for case in cases {
            let options = options_for(case);
            let with = outcome_without(&case.input, &options, 0);
            let without = outcome_without(&case.input, &options, off);
            assert_eq!(
                with, without,
                "off {off:#b}, case {}: {:?}",
                case.id, case.input
            );
        }
    }

    /// How many stretches the convention lane read, with repairs, in parsing `text`.
    fn convention_stretches(text: &str) -> usize {
        CONVENTION_STRETCHES.with(|n| n.set(0));
        let _ = crate::parse(text, &Options::default());
        CONVENTION_STRETCHES.with(std::cell::Cell::get)
    }

    /// A long reply cut short is read about once by the strict lane, at any depth of cut; with
    /// the shortcut off, each container open at the cut was read to the end again, by each of
    /// the three parses.
    #[test]
    fn a_reply_cut_short_is_read_once() {
        let step =
            r#"{"id": "s1", "params": {"retries": 3, "tags": ["a", "b"]}, "code": "x = 1\n"}"#;
        let doc = format!(
            r#"{{"plan": {{"steps": [{}]}}}}"#,
            vec![step; 400].join(", ")
        );
        for cut in [doc.len() / 2, doc.len() - 40, doc.len() - 3] {
            let text = &doc[..cut];
            let read = |off: u8| {
                SHORTCUTS_OFF.with(|mask| mask.set(off));
                LANE_READ.with(|n| n.set(0));
                let parsed = crate::parse(text, &Options::default()).expect("completed");
                SHORTCUTS_OFF.with(|mask| mask.set(0));
                (LANE_READ.with(std::cell::Cell::get), parsed.value)
            };
            let (once, value) = read(0);
            let (again, same) = read(Shortcut::CutShort as u8);
            assert_eq!(value, same);
            assert!(once <= text.len(), "{once} bytes read for {}", text.len());
            assert!(
                again >= 4 * text.len(),
                "{again}: the test no longer measures the cut"
            );
        }
    }

    /// What `counter` counts in a parse of `text` with the shortcuts in `off` turned off, and
    /// the outcome.
    fn counted(
        counter: &'static std::thread::LocalKey<std::cell::Cell<usize>>,
        text: &str,
        off: u8,
    ) -> (usize, String) {
        counter.with(|n| n.set(0));
        let outcome = outcome_without(text, &Options::default(), off);
        (counter.with(std::cell::Cell::get), outcome)
    }

    /// Members read whole, after a fault: as many as the object has members whose value the
    /// lane reads, the outcome that of the spot-by-spot parse; none with the shortcut off.
    #[test]
    fn members_after_a_fault_are_read_whole() {
        let text =
            "{\"a\": 1,, \"b\": \"x\", \"c\": {\"d\": [1, 2]}, \"e\": [\"f\"], \"g\": \"h\"}";
        let (with, outcome) = counted(&MEMBER_STRETCHES, text, 0);
        let (without, same) = counted(&MEMBER_STRETCHES, text, Shortcut::Members as u8);
        assert_eq!(outcome, same);
        assert_eq!(outcome, outcome_without(text, &Options::default(), u8::MAX));
        assert!(
            outcome.starts_with(r#"{"a":1,"b":"x","c":{"d":[1,2]},"e":["f"],"g":"h"}"#),
            "{outcome}"
        );
        // "b", "c", "e" and "g"; "a" holds a number, which the parser reads in one step.
        assert_eq!((with, without), (4, 0));
    }

    /// Once the search has decided a contested spot and handed over its choices, the lane reads
    /// again: here the members after a missing comma.
    #[test]
    fn the_lane_reads_again_after_a_decided_fault() {
        let members: Vec<String> = (0..40).map(|i| format!(r#""k{i}": "v{i}""#)).collect();
        let text = format!(r#"{{"a": "x" "b": "y", {}}}"#, members.join(", "));
        let (with, outcome) = counted(&MEMBER_STRETCHES, &text, 0);
        assert_eq!(
            outcome,
            outcome_without(&text, &Options::default(), u8::MAX)
        );
        assert!(
            outcome.starts_with(r#"{"a":"x","b":"y","k0":"v0","#),
            "{outcome}"
        );
        // "b" (its member decided with the comma before it) and the forty after it.
        assert_eq!(with, 41);
    }

    /// A value the lane read as part of its member and did not take is not read again when the
    /// parser arrives at it: here a string whose quotes the text goes on after.
    #[test]
    fn a_member_value_not_taken_is_read_once() {
        let text = "{\"note\": \"he said \"yes\" at once\", \"goal\": 1}";
        let (with, outcome) = counted(&CONVENTION_LANE_READ, text, 0);
        let (without, same) = counted(&CONVENTION_LANE_READ, text, Shortcut::Members as u8);
        assert_eq!(outcome, same);
        assert!(
            outcome.starts_with(r#"{"note":"he said \"yes\" at once","goal":1}"#),
            "{outcome}"
        );
        // The object up to `yes` (19 bytes, refused there), then `"he said "` (10) once: as
        // part of its member, or (the shortcut off) when the parser arrives at it.
        assert_eq!((with, without), (29, 29));
    }

    /// A reply the strict check refuses where no convention can begin (a missing comma deep in
    /// a long document) is not read again by the convention lane up to the fault only to be
    /// refused at the same spot; one where a convention may begin (a comment) is, as before.
    #[test]
    fn containers_the_strict_check_refused_are_not_read_again() {
        let items: Vec<String> = (0..60)
            .map(|i| format!(r#"{{"id": {i}, "name": "item {i}", "tags": ["a", "b"]}}"#))
            .collect();
        let read = |text: &str, off: u8| {
            SHORTCUTS_OFF.with(|mask| mask.set(off));
            CONVENTION_LANE_READ.with(|n| n.set(0));
            let parsed = crate::parse(text, &Options::default()).expect("repaired");
            SHORTCUTS_OFF.with(|mask| mask.set(0));
            (
                CONVENTION_LANE_READ.with(std::cell::Cell::get),
                parsed.value,
            )
        };
        let doc = |fault: &str| {
            let mut items = items.clone();
            items[30] = format!(r#"{{"id": 30{fault}"name": "item 30", "tags": ["a", "b"]}}"#);
            format!(
                r#"{{"plan": {{"items": [{}]}}, "after": "the fault"}}"#,
                items.join(", ")
            )
        };
        let missing_comma = doc(" ");
        let fault = missing_comma.find(r#"30 "name""#).expect("the fault");
        let (once, value) = read(&missing_comma, 0);
        let (again, same) = read(&missing_comma, Shortcut::StrictRefused as u8);
        assert_eq!(value, same);
        assert!(
            once < missing_comma.len(),
            "{once} bytes read for {}",
            missing_comma.len()
        );
        // The document read again up to the fault (the containers open there are known from
        // that refusal, as before).
        assert!(again >= once + fault, "{again} against {once}");
        // A comment where the strict check stopped: the convention lane may read on.
        let comment = doc(" /* the id */ ");
        let (with_comment, _) = read(&comment, 0);
        assert!(
            with_comment > comment.len(),
            "{with_comment} for {}",
            comment.len()
        );
    }

    #[test]
    fn a_reply_invalid_before_its_end_is_not_parsed_strictly_first() {
        // A long valid stretch, then a fault: the strict parse would read the stretch with the
        // whole parser (its lane reading strictly) only to fail at the fault.
        let items: Vec<String> = (0..40)
            .map(|i| format!(r#"{{"id": {i}, "name": "item {i}"}}"#))
            .collect();
        let stretch = items.join(", ");
        let text = format!(r#"{{"items": [{stretch}], "note": 'single', "after": "the fault"}}"#);
        let read = |off: u8| {
            SHORTCUTS_OFF.with(|mask| mask.set(off));
            LANE_READ.with(|n| n.set(0));
            let parsed = crate::parse(&text, &Options::default()).expect("repaired");
            SHORTCUTS_OFF.with(|mask| mask.set(0));
            (LANE_READ.with(std::cell::Cell::get), parsed.value)
        };
        let (with, value) = read(0);
        let (without, same) = read(Shortcut::StrictRefused as u8);
        assert_eq!(value, same);
        assert_eq!(value.get("note"), Some(&crate::Value::from("single")));
        assert!(
            with < stretch.len() && without >= stretch.len(),
            "strict lane read {with} bytes with the shortcut, {without} without"
        );
        // Every prefix of valid documents whose tokens the end may cut (an escape, a surrogate
        // pair, a literal, a long number): the strict check must not take a token cut short for
        // a fault.
        for doc in [
            "[[],\"a]]}}\\n\"]",
            "{\"k\": \"x\\uD83D\\uDE00y\", \"t\": true, \"f\": false, \"n\": null}",
            "{\"big\": -12345678901234567890.125e+10, \"s\": \"\\\"q\\\"\"}",
        ] {
            for cut in (1..=doc.len()).filter(|&c| doc.is_char_boundary(c)) {
                let text = &doc[..cut];
                let options = Options::default();
                let with = outcome_without(text, &options, 0);
                let without = outcome_without(text, &options, Shortcut::StrictRefused as u8);
                assert_eq!(with, without, "{text}");
            }
        }
        // Refused for its depth rather than a fault: the same error either way.
        let deep = |inner: &str| format!("{}{inner}{}", "[".repeat(300), "]".repeat(300));
        for text in [
            deep(""),
            format!("Result: {} and x", deep("1")),
            format!("{} tail {{", deep("1,")),
            format!("{{\"a\": {}, 'b': 1}}", deep("")),
        ] {
            let options = Options::default();
            let with = outcome_without(&text, &options, 0);
            let without = outcome_without(&text, &options, Shortcut::StrictRefused as u8);
            assert_eq!(with, without, "{text}");
        }
    }

    #[test]
    fn each_shortcut_alone_changes_no_outcome_on_generated_faults() {
        // A seed of its own, and every class: each shortcut off in turn against all on.
        let cases = llmjson_faults::generate(90210, 1500);
        for shortcut in Shortcut::ALL {
            assert_unchanged_without(&cases, shortcut as u8);
        }
    }

    /// The same comparison on as many fixed sets as asked, for a change to the shortcuts:
    /// `LLMJSON_SHORTCUT_SEEDS=11,12,13 cargo test --release -p llmjson --lib -- --ignored
    /// shortcuts_on_many_seeds`.
    #[test]
    #[ignore = "minutes in a debug build; run on demand"]
    fn shortcuts_on_many_seeds() {
        let seeds = std::env::var("LLMJSON_SHORTCUT_SEEDS").unwrap_or_else(|_| "11,12,13".into());
        for seed in seeds.split(',').filter_map(|s| s.trim().parse().ok()) {
            let cases = llmjson_faults::generate(seed, llmjson_faults::fixed_count());
            assert_unchanged_without(&cases, u8::MAX);
            assert_unchanged_without(&cases, Shortcut::Conventions as u8);
        }
    }

    #[test]
    fn the_convention_lane_reads_a_reply_written_in_conventions_whole() {
        // Every form it accepts, nested: one stretch, and the outcome of the spot-by-spot parse.
        let text = "{\"plan\": [{id: 's1', 'tool': 'python', // runs in the sandbox\n  \"ok\": True, \"owner\": None, \"tags\": ['a', 'b',], /* prose */ \"n\": 2,}, {id: 's2', \"ok\": False,},]}";
        let (with, without) = with_and_without(text, &Options::default());
        assert_eq!(with, without);
        assert!(with.starts_with(r#"{"plan":[{"id":"s1","tool":"python","ok":true,"owner":null,"tags":["a","b"],"n":2},{"id":"s2","ok":false}]}"#), "{with}");
        assert_eq!(convention_stretches(text), 1);
        // Strings as Python's repr and typographic quotes write them: escapes, `\'`, `"` and
        // JSON held whole inside.
        let repr = "{\"steps\": [{“id”: “s1”, 'snippet': 'print(\"x\")\\n', 'payload': 'p = \\'{\"a\": 1}\\'', 'path': 'C:\\\\Users'}]}";
        let (with, without) = with_and_without(repr, &Options::default());
        assert_eq!(with, without);
        assert!(with.starts_with(r#"{"steps":[{"id":"s1","snippet":"print(\"x\")\n","payload":"p = '{\"a\": 1}'","path":"C:\\Users"}]}"#), "{with}");
        assert_eq!(convention_stretches(repr), 1);
        // Read with the lane off, the same reply takes none.
        SHORTCUTS_OFF.with(|mask| mask.set(Shortcut::Conventions as u8));
        let off = convention_stretches(text);
        SHORTCUTS_OFF.with(|mask| mask.set(0));
        assert_eq!(off, 0);
    }

    /// Checks that `text` reads to `value` (its start), as with every shortcut off: the outcome,
    /// and how many stretches the convention lane read with a repair.
    fn as_spot_by_spot(text: &str, value: &str) -> (String, usize) {
        let (with, without) = with_and_without(text, &Options::default());
        assert_eq!(with, without);
        assert!(with.starts_with(value), "{with}");
        (with, convention_stretches(text))
    }

    /// A convention read by the lane: `whole` (text, value) written with it throughout is one
    /// stretch, and in `after_fault` (text, value), whose root a missing comma refuses, at least
    /// three members are read whole; both as with every shortcut off. The first outcome.
    fn whole_then_by_member(whole: (&str, &str), after_fault: (&str, &str)) -> String {
        let (with, stretches) = as_spot_by_spot(whole.0, whole.1);
        assert_eq!(stretches, 1);
        as_spot_by_spot(after_fault.0, after_fault.1);
        let (members, _) = counted(&MEMBER_STRETCHES, after_fault.0, 0);
        assert!(members >= 3, "{members} members read whole");
        with
    }

    /// Another language's colons (`=`, `=>`, a full-width `：`) are read by the convention lane:
    /// a reply written with them whole, in one stretch; after a fault, member by member. Each is
    /// logged as the parser logs it, and the outcome is the spot-by-spot parse's.
    #[test]
    fn colons_of_other_languages_are_read_in_the_lane() {
        let with = whole_then_by_member(
            (
                "{\"a\" = 1, \"b\" => \"x\", \"名前\"：[1, 2], \"d\" = {\"e\" => true}}",
                r#"{"a":1,"b":"x","名前":[1,2],"d":{"e":true}}"#,
            ),
            (
                "{\"a\" = \"x\" \"b\" = \"y\", \"c\" => [1], \"d\"： {\"e\" = 2}}",
                r#"{"a":"x","b":"y","c":[1],"d":{"e":2}}"#,
            ),
        );
        assert!(with.contains("'=>' read as ':'") && with.contains("'：' read as ':'"));
    }

    /// Full-width commas, as a CJK model writes them, are read by the convention lane: logged
    /// where the parser logs them (an array's at its next item, an object's at the object), in
    /// one stretch; after a fault, the members before one are read whole.
    #[test]
    fn full_width_commas_are_read_in_the_lane() {
        let with = whole_then_by_member(
            (
                "{\"名前\"：\"花子\"，\"tags\"：[\"a\"，\"b\"]，\"n\"：1}",
                r#"{"名前":"花子","tags":["a","b"],"n":1}"#,
            ),
            (
                "{\"a\"：\"x\" \"b\"：\"y\"，\"c\"：[1，2]，\"d\"：\"z\"}",
                r#"{"a":"x","b":"y","c":[1,2],"d":"z"}"#,
            ),
        );
        assert!(with.contains(r#"path: "/tags/1""#), "{with}");
    }

    /// Literals of other languages, every spelling the grammar reads with one reading, are read
    /// by the convention lane in one stretch.
    #[test]
    fn literals_of_other_languages_are_read_in_the_lane() {
        let text =
            "{\"a\": undefined, \"b\": [NaN, Infinity], \"c\": TRUE, \"d\": NULL, \"e\": Null}";
        let value = r#"{"a":null,"b":[null,null],"c":true,"d":null,"e":null}"#;
        assert_eq!(as_spot_by_spot(text, value).1, 1);
    }

    /// Typographic quotes as writers pair them (`„…“` in German, `“…“`, `‘…’`) are read by the
    /// convention lane, in one stretch, as the spot-by-spot parse reads them.
    #[test]
    fn typographic_quotes_of_every_pairing_are_read_in_the_lane() {
        let text = "{„name“: „Müller“, “city“: “Köln“, ‘tags’: [‘a’, ‘b’], \"id\": 1}";
        let value = r#"{"name":"Müller","city":"Köln","tags":["a","b"],"id":1}"#;
        assert_eq!(as_spot_by_spot(text, value).1, 1);
    }

    #[test]
    fn forms_whose_reading_is_contested_are_left_to_the_search() {
        // Each holds a form the lane must not read whole: an apostrophe, JSON inside single
        // quotes, a comment holding members, two comments in a row, a bare key whose value is on
        // the next line, a closer out of line after a trailing comma, a word that only looks
        // like a literal, nesting past the depth where paths are abbreviated.
        let deep = format!("{{\"a\": {}1{}}}", "[".repeat(40), ",]".repeat(40));
        let cases = [
            "{\"a\": ['it's', 'fine'], \"b\": 1}",
            "{\"a\": {'q': '{\"x\": 1}', \"b\": 2}}",
            "{\"a\": {\"b\": 1, // \"c\": 2,\n \"d\": 3}}",
            "{\"a\": {\"b\": 1, // one\n // two\n \"d\": 3}}",
            "{\"a\": {key:\n 'v', \"d\": 3}}",
            "{\n  \"a\": {\n    \"b\": 1,\n      }\n}",
            "{\"a\": {\"b\": Nonesuch, \"c\": True}}",
            "{\"a\": ['x, \"y\": z', 'w']}",
            deep.as_str(),
            "{\"a\": ['x\", \"y'], \"b\": 1}",
            "{\"a\": {'k': 'v, \"b\": 2'}}",
            "{\"a\": ['x', 'y}'], \"b\": 1}",
            "{\"a\": ['x', 'y]', 'z'], \"b\": 1}",
            "{\"a\": {\"k\": 'v', 'w': '\"x\": 1, \"y'}, \"b\": 1}",
            "{\"a\": [{'id': 1, 'name': 'x, \"city\": y'}, {'id': 2}]}",
            "{\"a\": {\"x\": 1, // \"b\": 2}\n \"y\": 2}, \"z\": 3}",
            "{\"a\": {\"x\": 1, /* \"b\": [2, 3], */ \"y\": 2}, \"z\": 3}",
            "{\"a\": [1, 2, // 3, 4]\n 5], \"z\": 3}",
            "{\"a\": {\"x\": 1 // }, \"b\": {\n, \"y\": 2}, \"z\": 3}",
            "{\"a\": ['x', 'y, \"b\": [1, 2], \"c\": {\"d', 'e'], \"f\": 1}",
            "{\"a\": {'k': 'v', \"b\": 'w}, \"c\": 2'}, \"d\": 3}",
            "{\"q\": ['say \"a\", \"b\"', 'c'], \"n\": 1}",
            // Edges of the quoted forms: empty, triple, typographic pairs of the other kind,
            // escapes the lane does not read, a string the reply's end cuts.
            "{\"a\": '', \"b\": ['', 'x'], 'c': ''}",
            "{\"a\": '''triple''', \"b\": 1}",
            "{“a”: “x”, “b”: “y“, “c”: \"z\"}",
            "{\"a\": [“x”, 'y'], \"b\": {'c':'d','e':None}}",
            "{\"a\": 'it\\'s', \"b\": 'C:\\temp', \"c\": '\\u00e9'}",
            "{\"a\": {'b': 'cut",
            // A repeated key: the parser logs it (and applies the policy); the reader would not.
            "Here: {\"x\": {\"a\": 1, \"a\": 2}, \"b\": 1,}",
            "{\"x\": {'a': 1, 'a': 2,}, \"y\": [{\"k\": 1, \"k\": 1}]}",
        ];
        // A member commented out in a laid-out list, beside a trailing comma (the generator's
        // `commented_out`): priced as a draft, more than the one comment a clear spot allows.
        // The first such case of a seed (found, not indexed: a new class shifts the schedule).
        let commented_out = llmjson_faults::generate(90210, 4000)
            .into_iter()
            .find(|case| {
                case.input.contains("/* {")
                    && case.faults.contains(&llmjson_faults::Fault::CommentedOut)
            })
            .map(|case| case.input)
            .unwrap_or_default();
        assert!(commented_out.contains("/* {"), "{commented_out}");
        // The same laid out, beside a trailing comma (what seed 90210's case 430 was before the
        // LaTeX and control classes shifted the schedule).
        let laid_out = "{\n  \"items\": [\n    {\n      \"id\": 1,\n      \"notes\": \"x\",\n    },\n    \
                        /* {\n      \"id\": 2,\n      \"tags\": [\n        \"a\"\n      ]\n    }, */\n    \
                        {\n      \"id\": 3\n    }\n  ],\n  \"total\": 2\n}";
        for text in cases.into_iter().chain([commented_out.as_str(), laid_out]) {
            let (with, without) = with_and_without(text, &Options::default());
            assert_eq!(with, without, "{text:?}");
            for shortcut in Shortcut::ALL {
                assert_eq!(
                    with,
                    outcome_without(text, &Options::default(), shortcut as u8),
                    "{shortcut:?}: {text:?}"
                );
            }
        }
    }

    #[test]
    fn the_shortcuts_change_no_outcome_on_generated_faults() {
        // Seeds the fault scoreboard does not use: cases nobody looked at.
        for seed in [7, 5150661] {
            assert_unchanged_without(&llmjson_faults::generate(seed, 2460), u8::MAX);
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
        assert!(!super::layout_agrees(text.as_bytes(), 15, 65, &[]));
        // Lined up, the same stretch is taken.
        let aligned = "{\n    \"cache\": {\n        \"a\": 1\n    }\n}";
        assert!(super::layout_agrees(aligned.as_bytes(), 15, 37, &[]));
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
}
