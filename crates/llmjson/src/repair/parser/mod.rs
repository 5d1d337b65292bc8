//! The single-pass tolerant parser: bytes in, a value and a repair log out.
//!
//! At every token it asks the grammar for the readings of the spot (`grammar.rs`), lets the
//! decision procedure choose when there is more than one (`search.rs`), and applies the chosen
//! reading: building the value, and logging every repair with its span and JSON path. Readings a
//! level does not allow are never offered, so level `none` is this same parser with every repair
//! refused, and the error for a refused repair names the defect.
//!
//! The containers being built live on an explicit stack of frames (no native recursion: nesting
//! is bounded by [`Config::max_depth`], never by the thread's stack).
//!
//! **Invariant: linear time.** Every step consumes input or closes a container; a fuse turns a
//! violation into an internal error instead of a hang. Decisions are bounded (see `search.rs`).
//!
//! **Invariant: nothing is lost silently.** Every byte of the located text either reaches the
//! value or lies inside the span of a logged repair (a comment, a skipped token, a dropped
//! member…). The property tests check this on generated faulted documents.

mod buffers;
mod comments;
mod containers;
mod conventions;
pub(crate) mod lane;
pub(crate) mod park;
mod scalars;
mod strings;

use super::grammar::{Ctx, Mode, Reading, Readings, Stack};
use super::index::StructIndex;
use super::lex::{is_ws, Kind, Lex, Trivia};
use super::search::Searcher;
use super::{shortcut, RepairKind, Shortcut};
use crate::repair::grammar::KeyNames;
use crate::value::{Map, Value};
use crate::{DuplicateKeys, GuardComments, RepairLevel, Truncation};
use buffers::{lane_budget, LaneBuffers, LaneRefusal, Run};
use std::borrow::Cow;

/// What the parser needs from the options.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Config<'s> {
    pub level: RepairLevel,
    pub truncation: Truncation,
    pub duplicate_keys: DuplicateKeys,
    pub max_depth: usize,
    /// The schema, when the caller gave one: its property names make keys it does not know
    /// cost more, which decides quotes the syntax alone cannot (is `", "name":` the end of a
    /// string, or code inside it?).
    pub schema: Option<&'s dyn KeyNames>,
    /// Only the repairs that complete a reply cut off are allowed (the reply is valid JSON up
    /// to where it stops).
    pub only_truncation: bool,
    /// The reply begins inside an object whose `{` is missing (it starts with `"key":`).
    pub inside_object: bool,
    /// Which comments the safety guard counts.
    pub guard_comments: GuardComments,
    /// The log's entries need their JSON paths (a caller that keeps only the value does not).
    pub paths: bool,
    /// LaTeX commands that collide with JSON escapes are read as LaTeX (`repair::latex`). Off
    /// at level `none` (RFC 8259's reading); on, a strict parse refuses such a string so that
    /// the repair stage reads it.
    pub latex: bool,
}

pub(crate) use crate::locate::Fence;

/// Whether the lane reads with the conventions: forms outside JSON are read where their reading
/// is certain (`conventions.rs`), at the level that repairs them, with no schema to price keys.
pub(super) fn lax(cfg: &Config<'_>) -> bool {
    shortcut(Shortcut::Conventions)
        && cfg.level == RepairLevel::Full
        && !cfg.only_truncation
        && cfg.schema.is_none()
}

/// One logged repair, before positions are computed.
#[derive(Debug, Clone)]
pub(crate) struct RawRepair {
    pub kind: RepairKind,
    pub start: usize,
    pub end: usize,
    pub path: String,
    pub detail: Cow<'static, str>,
    pub count: u32,
    container: u32,
}

impl RawRepair {
    /// A repair made outside the parser (by the pipeline), at the root.
    pub(crate) fn at_root(
        kind: RepairKind,
        start: usize,
        end: usize,
        detail: &'static str,
    ) -> Self {
        RawRepair {
            kind,
            start,
            end,
            path: String::new(),
            detail: Cow::Borrowed(detail),
            count: 1,
            container: 0,
        }
    }
}

/// A successful parse.
#[derive(Debug)]
pub(crate) struct Output {
    pub value: Value,
    /// Where the value starts (later than asked when a draft before it was abandoned).
    pub start: usize,
    /// Byte offset just after the value.
    pub end: usize,
    pub repairs: Vec<RawRepair>,
    /// Non-whitespace bytes of content discarded (the safety guard's numerator).
    pub removed: usize,
}

/// Why a parse failed, with a byte offset; the caller turns it into [`crate::Error`].
#[derive(Debug)]
pub(crate) enum Fail {
    Syntax {
        offset: usize,
        message: Cow<'static, str>,
        truncated: bool,
    },
    TooDeep {
        offset: usize,
    },
    DuplicateKey {
        offset: usize,
        key: String,
    },
    Internal(&'static str),
    /// More text may come (a stream) and the step needs it: what the step did is undone and
    /// the parse waits (never raised by a parse of a whole text).
    NeedMore,
    /// The parse of a text still arriving stopped before `mode`'s next spot (see [`resume`]).
    Paused(Mode),
}

type Result<T> = std::result::Result<T, Fail>;

#[derive(Debug)]
enum Partial {
    Object(Map),
    Array(Vec<Value>),
    /// Passes its one value through: a function-call wrapper, or the outer brace of `{{…}}`.
    Pass(Option<Value>),
}

#[derive(Debug)]
struct Frame {
    kind: Kind,
    partial: Partial,
    /// Object: the key of the member being parsed, and where it starts and ends.
    key: Option<String>,
    key_at: usize,
    key_end: usize,
    /// Where the last `,` was read (for logging a trailing comma).
    comma_at: usize,
    id: u32,
    /// Object: where each member (key to value) lies, in the map's order, so that a duplicate
    /// key's log entry spans the member it discarded. Taken from and given back to
    /// `Parser::spare_spans`: objects do not allocate one each.
    member_spans: Vec<(usize, usize)>,
    /// A comment holding data (a member or item commented out) was read inside it.
    data_comment: bool,
}

/// Keys longer than this are cut in logged paths.
const PATH_KEY_LIMIT: usize = 128;
/// Paths deeper than this are abbreviated in the log.
const PATH_DEPTH_LIMIT: usize = 32;
/// Room reserved per pointer segment (most keys are short).
const PATH_SEGMENT_GUESS: usize = 16;
/// At most this many entries are logged; one more entry says how many were left out.
pub(crate) const LOG_LIMIT: usize = 10_000;

/// Parses one JSON value starting at `start`. The region ends at `end`, or earlier at a fence
/// marker met where structure is expected.
pub(crate) fn parse<'t>(
    text: &'t str,
    start: usize,
    end: usize,
    fence: Option<Fence>,
    config: Config<'t>,
) -> Result<Output> {
    parse_knowing(text, start, end, fence, config, &mut Vec::new(), None)
}

/// [`parse`], told what a strict read of the same region found, and telling the next parse:
/// which containers are open where its text runs out (`cut`, outermost first; empty: not
/// known), so that a reply cut short is not read to its end again by each parse to find that
/// out; or where the strict reader refused the region and which containers began before and
/// were open there (`refused`: each with the depth the reader had left there), which the fast
/// lane then does not read again only to be refused at the same spot
/// ([`lane::LaneRefusal::after_strict`]).
pub(crate) fn parse_knowing<'t>(
    text: &'t str,
    start: usize,
    end: usize,
    fence: Option<Fence>,
    config: Config<'t>,
    cut: &mut Vec<(usize, usize)>,
    refused: Option<(usize, Vec<(usize, usize)>)>,
) -> Result<Output> {
    let end = end.min(text.len());
    let index = StructIndex::new();
    let lex = Lex {
        text,
        b: text.as_bytes(),
        end,
        fence,
        index: &index,
    };
    let mut parser = Parser::over(
        lex,
        config,
        State::new(start, end.saturating_sub(start)),
        start,
        0,
    );
    parser.lane_cut = std::mem::take(cut);
    if let Some((reached, open)) = refused {
        parser.lane_refused =
            LaneRefusal::after_strict(text.as_bytes(), reached, open, lax(&config));
    }
    let output = if config.inside_object {
        parser.open(Kind::Object, start)?;
        parser.repair(RepairKind::MissingOpener, start, start, "added '{'")?;
        parser.run(Mode::Key { after_comma: false })
    } else {
        parser.run(Mode::Value { after_comma: false })
    };
    *cut = parser.lane_cut;
    output
}

/// What a parse owns and has decided, without its text: the position, the open containers
/// and the value so far, the log, the search, the buffers kept between spots. A parse of a
/// text still arriving parks exactly this (`park.rs`), and takes it back with the longer text.
pub(crate) struct State {
    pos: usize,
    /// Where the value starts.
    start: usize,
    frames: Vec<Frame>,
    /// The frames' kinds, innermost last (what the grammar and the search see).
    kinds: Vec<Kind>,
    /// Where each frame's container opened, innermost last.
    opens: Vec<usize>,
    root: Option<Value>,
    log: Vec<RawRepair>,
    removed: usize,
    next_id: u32,
    /// Repairs made after the log was full.
    unlogged: usize,
    searcher: Searcher,
    /// Where the JSON ended when prose took over (the `EndHere` reading).
    json_end: Option<usize>,
    /// Member-span buffers of closed objects, for the next ones.
    spare_spans: Vec<Vec<(usize, usize)>>,
    /// The runs buffer of string scans, for the next string.
    spare_runs: Vec<Run>,
    /// Whether some string of the document shows maths (`latex::document_shows_maths`), once
    /// a LaTeX collision asked.
    document_maths: Option<bool>,
    /// What the fast lane may still spend on attempts it does not take (`lane.rs`).
    lane_budget: usize,
}

impl State {
    /// A parse about to read the value at `start`, `len` bytes of text before it (what its
    /// search and the lane may spend).
    fn new(start: usize, len: usize) -> State {
        State {
            pos: start,
            start,
            frames: Vec::new(),
            kinds: Vec::new(),
            opens: Vec::new(),
            root: None,
            log: Vec::new(),
            removed: 0,
            next_id: 1,
            unlogged: 0,
            searcher: Searcher::new(len),
            json_end: None,
            spare_spans: Vec::new(),
            spare_runs: Vec::new(),
            document_maths: None,
            lane_budget: lane_budget(len),
        }
    }
}

/// The parser: its [`State`], and what one run over a text reads it with (the text, the
/// options, the buffers of a spot and of the lanes, whether more text may come).
struct Parser<'t> {
    text: &'t str,
    b: &'t [u8],
    ctx: Ctx<'t>,
    cfg: Config<'t>,
    state: State,
    /// The innermost open container's id and JSON Pointer, once a repair needed it.
    container_path: Option<(u32, String)>,
    /// The readings of the current spot (a buffer kept between spots).
    readings: Readings,
    /// Where the containers open at the end of the text began (outermost first, each with the
    /// depth the strict reader had left there), as a strict read that ran out of text found
    /// them: an attempt at one of them would only run out again.
    lane_cut: Vec<(usize, usize)>,
    /// The containers the last refused lane attempt was reading (`lane.rs`).
    lane_refused: LaneRefusal,
    /// The convention lane's buffers, kept from one stretch to the next.
    lane_buffers: LaneBuffers<'t>,
    /// The strict reader's stacks, kept from one stretch to the next.
    lane_stacks: crate::value::parse::Stacks,
    /// A value the lane attempted as part of its member (where it began, and the depth left
    /// there) and did not take: the parser's own attempt at it is answered without a second
    /// read or charge.
    lane_taken_refusal: Option<(usize, usize)>,
    /// The text may go on past its end (a stream): a step that reaches the end waits for
    /// more, and no spot at or past `horizon` is decided.
    more: bool,
    horizon: usize,
}

impl<'t> Parser<'t> {
    /// A parser in `state` over the text `lex` reads, the document starting at `doc_start`
    /// with `draft_values` drafts before its answer seen; every buffer empty, no more text to
    /// come: a whole parse and a parked one resumed begin here.
    fn over(
        lex: Lex<'t>,
        cfg: Config<'t>,
        state: State,
        doc_start: usize,
        draft_values: u32,
    ) -> Parser<'t> {
        Parser {
            text: lex.text,
            b: lex.b,
            ctx: Ctx {
                lex,
                doc_start,
                draft_values,
                only_truncation: cfg.only_truncation,
                level: cfg.level,
                schema: cfg.schema,
            },
            cfg,
            state,
            container_path: None,
            readings: Readings::new(),
            lane_cut: Vec::new(),
            lane_refused: LaneRefusal::default(),
            lane_buffers: LaneBuffers::default(),
            lane_stacks: crate::value::parse::Stacks::default(),
            lane_taken_refusal: None,
            more: false,
            horizon: usize::MAX,
        }
    }
}

/// The parser's open containers, as the grammar sees them.
pub(crate) struct Kinds<'a>(pub &'a [Kind], pub &'a [usize]);

impl Stack for Kinds<'_> {
    fn top(&self) -> Option<Kind> {
        self.0.last().copied()
    }
    fn below(&self) -> Option<Kind> {
        self.0.len().checked_sub(2).map(|i| self.0[i])
    }
    fn depth(&self) -> usize {
        self.0.len()
    }
    fn open_below(&self, kind: Kind) -> bool {
        self.0
            .split_last()
            .is_some_and(|(_, rest)| rest.contains(&kind))
    }
    fn top_open(&self) -> Option<usize> {
        self.1.last().copied()
    }
}

/// How many bytes are JSON whitespace (the guard's denominator, on every parse).
pub(crate) fn json_whitespace(bytes: &[u8]) -> usize {
    crate::position::count_bytes(bytes, |b| matches!(b, b' ' | b'\n' | b'\r' | b'\t'))
}

/// A frame contributes a pointer segment when it is an array, or an object inside a member.
fn has_segment(frame: &Frame) -> bool {
    match &frame.partial {
        Partial::Object(_) => frame.key.is_some(),
        Partial::Array(_) => true,
        Partial::Pass(_) => false,
    }
}

/// Appends the frame's segment (`/3` for an array's next item, `/key` for an object's current
/// member; a key longer than [`PATH_KEY_LIMIT`] is cut and ends in `…`).
fn push_segment(out: &mut String, frame: &Frame) {
    match &frame.partial {
        Partial::Array(items) => push_index_segment(out, items.len()),
        Partial::Object(_) => {
            if let Some(key) = frame.key.as_deref() {
                push_key_segment(out, key);
            }
        }
        Partial::Pass(_) => {}
    }
}

/// Appends `/n`, an array item's segment.
fn push_index_segment(out: &mut String, n: usize) {
    out.push('/');
    out.push_str(itoa::Buffer::new().format(n));
}

/// Appends `/key`, escaped, cut past [`PATH_KEY_LIMIT`] bytes (ending in `…`).
fn push_key_segment(out: &mut String, key: &str) {
    out.push('/');
    if key.len() > PATH_KEY_LIMIT {
        let cut = crate::position::floor_char_boundary(key, PATH_KEY_LIMIT);
        crate::value::push_pointer_token(out, &key[..cut]);
        out.push('…');
    } else {
        crate::value::push_pointer_token(out, key);
    }
}

/// Repairs about the container itself (its closer, a comma between members) point at the
/// container, not at its next child.
fn about_container(kind: RepairKind) -> bool {
    matches!(
        kind,
        RepairKind::ClosedTruncatedObject
            | RepairKind::ClosedTruncatedArray
            | RepairKind::MissingCloser
            | RepairKind::MismatchedCloser
            | RepairKind::ExtraCloser
            | RepairKind::ExtraOpener
            | RepairKind::TrailingComma
            | RepairKind::ExtraComma
            | RepairKind::MissingComma
            | RepairKind::Comment
    )
}

/// Repairs that leave text out of the value (at the document's end, at a restart, at the
/// reply's cut, a duplicate key's discarded member).
fn discards(kind: RepairKind) -> bool {
    matches!(
        kind,
        RepairKind::IgnoredTrailingContent
            | RepairKind::AbandonedDraft
            | RepairKind::DroppedTruncatedMember
            | RepairKind::DuplicateKey
    )
}

/// Runs of the same repair in the same container (a thousand commas, a long garbage token)
/// become one entry, so the log stays proportional to the structure.
fn merges_runs(kind: RepairKind) -> bool {
    matches!(
        kind,
        RepairKind::ExtraComma
            | RepairKind::DroppedGarbage
            | RepairKind::SpecialWhitespace
            | RepairKind::ExtraCloser
            | RepairKind::Comment
            | RepairKind::Ellipsis
            | RepairKind::EscapedString
    )
}

impl<'t> Parser<'t> {
    // ----------------------------------------------------------------------------------------
    // The log.

    fn allowed(&self, kind: RepairKind) -> bool {
        self.cfg.level >= kind.min_level()
            && (!self.cfg.only_truncation
                || kind.is_truncation()
                || kind == RepairKind::MissingEndQuote
                // The reply stopped after a comma (mid-document, the grammar refuses it).
                || kind == RepairKind::TrailingComma)
    }

    /// Logs a repair, or refuses it (a syntax error naming the defect) when the level does not
    /// allow it.
    fn repair(
        &mut self,
        kind: RepairKind,
        start: usize,
        end: usize,
        detail: impl Into<Cow<'static, str>>,
    ) -> Result<()> {
        let container = self.state.frames.last().map_or(0, |f| f.id);
        self.log_repair(kind, start..end, detail.into(), container, None)
    }

    /// Logs a repair made in container `container`; its path is `path`, or (`None`) the one
    /// the open frames give.
    fn log_repair(
        &mut self,
        kind: RepairKind,
        span: std::ops::Range<usize>,
        detail: Cow<'static, str>,
        container: u32,
        path: Option<String>,
    ) -> Result<()> {
        let (start, end) = (span.start, span.end);
        if !self.allowed(kind) {
            return Err(Fail::Syntax {
                offset: start,
                message: Cow::Borrowed(kind.defect()),
                truncated: kind.is_truncation(),
            });
        }
        if merges_runs(kind) {
            let b = self.b;
            if let Some(last) = self.state.log.last_mut() {
                let adjacent = last.end <= start
                    && start <= b.len()
                    && b[last.end..start].iter().all(|&c| super::lex::is_ws(c));
                if last.kind == kind && last.container == container && adjacent {
                    last.end = end;
                    last.count += 1;
                    return Ok(());
                }
            }
        }
        // Past the limit, what discards text is still logged (up to as many again): a full log
        // must not hide a loss.
        if self.state.log.len() >= LOG_LIMIT
            && (!discards(kind) || self.state.log.len() >= 2 * LOG_LIMIT)
        {
            self.state.unlogged += 1;
            return Ok(());
        }
        let path = match path {
            Some(path) => path,
            None if self.cfg.paths => self.path(about_container(kind)),
            None => String::new(),
        };
        self.state.log.push(RawRepair {
            kind,
            start,
            end,
            path,
            detail,
            count: 1,
            container,
        });
        Ok(())
    }

    fn fail<T>(&self, offset: usize, message: impl Into<Cow<'static, str>>) -> Result<T> {
        Err(Fail::Syntax {
            offset,
            message: message.into(),
            truncated: false,
        })
    }

    /// Counts discarded content for the safety guard (whitespace does not count).
    fn discard(&mut self, start: usize, end: usize) {
        let end = end.min(self.b.len());
        if start < end {
            let discarded = &self.b[start..end];
            self.state.removed += discarded.len() - json_whitespace(discarded);
        }
    }

    /// JSON Pointer of the place being parsed; with `container`, of the innermost container.
    ///
    /// The innermost container's pointer is kept between repairs (it cannot change while that
    /// container is open), so a run of repairs in one object costs one copy each, not a walk
    /// of the whole stack.
    fn path(&mut self, container: bool) -> String {
        let Some(top) = self.state.frames.last() else {
            return String::new();
        };
        if self.state.frames.len() > PATH_DEPTH_LIMIT {
            return self.path_walk(container);
        }
        let id = top.id;
        let cached = matches!(&self.container_path, Some((cached, _)) if *cached == id);
        if !cached {
            self.container_path = Some((id, self.path_walk(true)));
        }
        let prefix = self.container_path.as_ref().map_or("", |(_, p)| p.as_str());
        if container {
            return prefix.to_owned();
        }
        let mut out = String::with_capacity(prefix.len() + PATH_SEGMENT_GUESS);
        out.push_str(prefix);
        if let Some(top) = self.state.frames.last() {
            push_segment(&mut out, top);
        }
        out
    }

    /// The pointer computed from the whole stack. Bounded so that logging stays linear: a key
    /// longer than [`PATH_KEY_LIMIT`] bytes is cut (ending in `…`), and a path deeper than
    /// [`PATH_DEPTH_LIMIT`] keeps its first and last segments around a `/…` segment.
    fn path_walk(&self, container: bool) -> String {
        let frames = if container && !self.state.frames.is_empty() {
            &self.state.frames[..self.state.frames.len() - 1]
        } else {
            &self.state.frames[..]
        };
        let segments = || frames.iter().filter(|f| has_segment(f));
        let count = segments().count();
        let half = PATH_DEPTH_LIMIT / 2;
        let elided = |n: usize| count > PATH_DEPTH_LIMIT && n >= half && n < count - half;
        let mut out = String::with_capacity(count.min(PATH_DEPTH_LIMIT) * PATH_SEGMENT_GUESS);
        for (n, frame) in segments().enumerate() {
            if elided(n) {
                if n == half {
                    out.push_str("/…");
                }
                continue;
            }
            push_segment(&mut out, frame);
        }
        out
    }

    /// Logs a repair with `key` as the last path segment (repairs of a key itself).
    fn repair_at_key(
        &mut self,
        key: &str,
        kind: RepairKind,
        start: usize,
        end: usize,
        detail: impl Into<Cow<'static, str>>,
    ) -> Result<()> {
        let previous = self
            .state
            .frames
            .last_mut()
            .and_then(|f| f.key.replace(key.to_string()));
        let logged = self.repair(kind, start, end, detail);
        if let Some(f) = self.state.frames.last_mut() {
            f.key = previous;
        }
        logged
    }

    // ----------------------------------------------------------------------------------------
    // Reading.

    fn lex(&self) -> &Lex<'t> {
        &self.ctx.lex
    }

    fn end(&self) -> usize {
        self.ctx.lex.end
    }

    /// Skips whitespace and comments, logging the repairs they need.
    fn skip_trivia(&mut self) -> Result<()> {
        while !self.lex().at_end(self.state.pos) {
            match self.lex().trivia_at(self.state.pos) {
                Some(Trivia::Space { end }) => self.state.pos = end,
                Some(Trivia::SpecialSpace { end }) => {
                    self.repair(
                        RepairKind::SpecialWhitespace,
                        self.state.pos,
                        end,
                        "treated as a space",
                    )?;
                    self.state.pos = end;
                }
                Some(Trivia::Comment {
                    body_start,
                    body_end,
                    end,
                }) => {
                    self.comment(body_start, body_end, end)?;
                    self.state.pos = end;
                }
                None => break,
            }
        }
        Ok(())
    }

    // ----------------------------------------------------------------------------------------
    // The state machine.

    fn run(&mut self, mut mode: Mode) -> Result<Output> {
        let fuse_limit = 16 * self.end().saturating_sub(self.state.start) + 64;
        let mut steps = 0usize;
        loop {
            steps += 1;
            if steps > fuse_limit {
                return Err(Fail::Internal("the parser stopped making progress"));
            }
            if matches!(mode, Mode::Done | Mode::ScalarDone) {
                if self.more {
                    // What follows the value (closers, JSON left out) is judged on the whole
                    // text.
                    return Err(Fail::Paused(mode));
                }
                return self.finish();
            }
            if self.more && self.state.pos >= self.horizon {
                return Err(Fail::Paused(mode));
            }
            let mark = self.more.then(|| self.mark());
            match self.step(mode) {
                Ok(next) => mode = next,
                Err(Fail::NeedMore) => {
                    let mark = mark.ok_or(Fail::Internal("more text asked of a whole text"))?;
                    self.undo(mark);
                    return Err(Fail::Paused(mode));
                }
                Err(fail) => return Err(fail),
            }
        }
    }

    /// One spot: the trivia before it, then its reading (the lanes', the one the search
    /// vouched for, or the one chosen among the grammar's).
    fn step(&mut self, mode: Mode) -> Result<Mode> {
        self.skip_trivia()?;
        let at = self.state.pos;
        if let Some(next) = self.fast_lane(mode, at)? {
            return Ok(next);
        }
        if let Some(vouched) = self.state.searcher.planned(mode, at) {
            self.wait_if_cut(vouched.pos)?;
            self.state.searcher.note_style(vouched.style);
            return self.apply(mode, at, vouched);
        }
        let mut readings = std::mem::take(&mut self.readings);
        self.ctx.successors(
            &Kinds(&self.state.kinds, &self.state.opens),
            mode,
            at,
            &mut readings,
        );
        let chosen = self.choose(mode, at, &readings);
        self.readings = readings;
        let chosen = chosen?;
        self.wait_if_cut(chosen.pos)?;
        self.apply(mode, at, chosen)
    }

    /// A spot inside a step (a quote or a line break in a string) too close to the end of what
    /// has arrived to be decided as the whole text would decide it: the step waits.
    fn wait_if_undecidable(&self, at: usize) -> Result<()> {
        if self.more && at >= self.horizon {
            return Err(Fail::NeedMore);
        }
        Ok(())
    }

    /// A token read up to the end of the text may go on when more arrives.
    fn wait_if_cut(&self, token_end: usize) -> Result<()> {
        if self.more && token_end >= self.end() {
            return Err(Fail::NeedMore);
        }
        Ok(())
    }

    /// The reading to take among `readings` at `at`: the only one, or the decision procedure's.
    fn choose(&mut self, mode: Mode, at: usize, readings: &Readings) -> Result<Reading> {
        let chosen = match readings.len() {
            0 => return Err(self.refusal(mode, at, readings)),
            1 => readings.get(0),
            _ => {
                // JSON's grammar is deterministic: with every repair refused, a spot has one
                // reading at most (the fast lane relies on it, `lane.rs`).
                debug_assert!(
                    self.cfg.level != RepairLevel::None,
                    "two plain readings at {at}"
                );
                let i = self.state.searcher.choose(
                    &self.ctx,
                    &self.state.kinds,
                    &self.state.opens,
                    mode,
                    at,
                    readings,
                );
                readings.get(i)
            }
        };
        self.state.searcher.note_style(chosen.style);
        Ok(chosen)
    }

    /// No reading the level allows: the error names the defect of the first refused one.
    fn refusal(&self, mode: Mode, at: usize, readings: &Readings) -> Fail {
        let expected = match mode {
            Mode::Value { .. } if self.state.frames.is_empty() => Some("expected a JSON value"),
            Mode::Colon => Some("expected ':' after object key"),
            Mode::Key { .. } if self.b.get(at) == Some(&b':') => Some("expected an object key"),
            _ => None,
        };
        if let Some(message) = expected {
            return Fail::Syntax {
                offset: at,
                message: Cow::Borrowed(message),
                truncated: false,
            };
        }
        match readings.refused().and_then(|s| s.kind) {
            // A trailing comma is reported where the comma is, not at the closer after it.
            Some(RepairKind::TrailingComma) => Fail::Syntax {
                offset: self.state.frames.last().map_or(at, |f| f.comma_at),
                message: Cow::Borrowed(RepairKind::TrailingComma.defect()),
                truncated: false,
            },
            Some(kind) => Fail::Syntax {
                offset: at,
                message: Cow::Borrowed(kind.defect()),
                truncated: kind.is_truncation(),
            },
            None => Fail::Syntax {
                offset: at,
                message: Cow::Borrowed("unexpected character"),
                truncated: false,
            },
        }
    }

    /// The value is complete: log what the document ends with, and hand it over.
    fn finish(&mut self) -> Result<Output> {
        let value = self.state.root.take().unwrap_or(Value::Null);
        let end = match self.state.json_end {
            Some(end) => end,
            None => self.trailing_closers()?,
        };
        // (After a top-level scalar the caller decides: `1, 2, 3` is a list.)
        let end = if value.is_object() || value.is_array() {
            self.left_out_after(end)?
        } else {
            end
        };
        if self.state.unlogged > 0 {
            let kind = self
                .state
                .log
                .last()
                .map_or(RepairKind::DroppedGarbage, |r| r.kind);
            let mut note = RawRepair::at_root(kind, end, end, "");
            note.detail = Cow::Owned(format!(
                "the log holds {LOG_LIMIT} entries; {} more repairs were not logged",
                self.state.unlogged
            ));
            self.state.log.push(note);
        }
        Ok(Output {
            value,
            start: self.state.start,
            end,
            repairs: std::mem::take(&mut self.state.log),
            removed: self.state.removed,
        })
    }

    /// Closers left over after the top-level value (`{"a": 1}}`) belong to it: logged and
    /// included in its span.
    fn trailing_closers(&mut self) -> Result<usize> {
        let end = self.state.pos;
        if self.cfg.level < RepairLevel::Full {
            return Ok(end);
        }
        let mut i = end;
        let mut last = end;
        loop {
            let (j, spent) = self.lex().skip_trivia(i);
            if spent > 0 || self.lex().at_end(j) || !matches!(self.b[j], b'}' | b']') {
                break;
            }
            self.repair(RepairKind::ExtraCloser, j, j + 1, "removed")?;
            last = j + 1;
            i = j + 1;
        }
        Ok(last)
    }

    /// What goes on like JSON after the value's end but was not read into it is part of the
    /// located JSON: left out with a log line (and counted by the safety guard), never dropped
    /// silently. Returns the located JSON's end.
    fn left_out_after(&mut self, end: usize) -> Result<usize> {
        if self.cfg.level < RepairLevel::Full {
            return Ok(end);
        }
        let Some(rest) = self.lex().trailing_json(end) else {
            return Ok(end);
        };
        // A comment before the stretch is left out with it (`} // optional }`).
        let rest = match self.b[end..rest.start].iter().position(|&c| !is_ws(c)) {
            Some(k) => end + k..rest.end,
            None => rest,
        };
        let detail = format!("left out {} bytes after the value", rest.len());
        self.repair(
            RepairKind::IgnoredTrailingContent,
            rest.start,
            rest.end,
            detail,
        )?;
        self.discard(rest.start, rest.end);
        Ok(rest.end)
    }
}

impl Readings {
    /// The first reading the level refused, for the error message.
    pub(crate) fn refused(&self) -> Option<Reading> {
        self.first_refused
    }
}
