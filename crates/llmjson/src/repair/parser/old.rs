//! The single-pass tolerant parser: bytes in, a value and a repair log out.
//!
//! It is a state machine over an explicit stack of frames (no native recursion, so nesting
//! depth is bounded by [`Config::max_depth`], never by the thread's stack). Every deviation from
//! RFC 8259 goes through [`Parser::repair`], which either logs the repair or, when the level does
//! not allow it, turns it into the syntax error for that spot. Level `none` is this same parser
//! with every repair forbidden.
//!
//! **Invariant: linear time.** Every loop iteration consumes input or pops a frame, except for
//! a bounded number of state changes per byte; a fuse turns a violation into an internal error
//! instead of a hang. Lookahead (deciding whether a `"` closes a string) stops at the next quote
//! or after a fixed number of bytes, so each byte is looked at a bounded number of times.

use super::quotes::{is_quote_at, QuoteClass};
use super::RepairKind;
use crate::Schema;
use crate::{DuplicateKeys, RepairLevel, Truncation};
use serde_json::{Map, Number, Value};
use std::borrow::Cow;
use std::str::FromStr;

/// What the parser needs from the options.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Config<'s> {
    pub level: RepairLevel,
    pub truncation: Truncation,
    pub duplicate_keys: DuplicateKeys,
    pub max_depth: usize,
    /// The schema, when the caller gave one: its property names decide quotes the syntax alone
    /// cannot (is `", "name":` the end of a string, or code inside it?).
    pub schema: Option<&'s Schema>,
}

/// A fence that ends the region when met where JSON structure is expected (```` ``` ````, `~~~`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Fence {
    pub byte: u8,
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
    /// Byte offset just after the value.
    pub end: usize,
    pub repairs: Vec<RawRepair>,
    /// Non-whitespace bytes discarded (the safety guard's numerator).
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
}

type Result<T> = std::result::Result<T, Fail>;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    /// A value is expected (top level, array item, or object member value).
    Value,
    /// An object key or `}` is expected.
    Key,
    /// The `:` after a key is expected.
    Colon,
    /// A value just ended: `,`, a closer, or the end.
    Next,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Object,
    Array,
    /// A function-call wrapper such as `ObjectId("…")` or JSONP `callback(…)`.
    Call,
}

#[derive(Debug)]
enum Partial {
    Object(Map<String, Value>),
    Array(Vec<Value>),
    Call(Option<Value>),
}

#[derive(Debug)]
struct Frame {
    partial: Partial,
    /// Object: the key of the member being parsed, and where it starts.
    key: Option<String>,
    key_at: usize,
    key_end: usize,
    /// A `,` was consumed and no member/item has started since.
    pending_comma: Option<usize>,
    /// `{{`: braces opened without a key, each owed one extra `}`.
    extra_openers: u32,
    id: u32,
}

impl Frame {
    fn kind(&self) -> Kind {
        match self.partial {
            Partial::Object(_) => Kind::Object,
            Partial::Array(_) => Kind::Array,
            Partial::Call(_) => Kind::Call,
        }
    }
}

/// What a string scan produced.
enum Str {
    Done(String),
    /// Truncated and to be dropped (a key, or the `drop` policy).
    Dropped,
}

/// What one string scan has seen, for its log entries.
#[derive(Debug, Clone, Copy)]
struct StringScan {
    open_at: usize,
    open_len: usize,
    class: QuoteClass,
    is_key: bool,
    /// Raw control characters escaped, and where the first was.
    controls: u32,
    first_control: usize,
    /// Backslashes that started no valid escape, and where the first was.
    bad_escapes: u32,
    first_bad_escape: usize,
    /// Quotes kept as text.
    text_quotes: u32,
}

/// Where a quoted token seen by lookahead ends.
enum QuotedEnd {
    /// It closes within the lookahead.
    After {
        /// Where its closing quote starts (its text ends there).
        closer: usize,
        /// Just after the closing quote.
        end: usize,
    },
    /// The region ended inside it (a reply cut off there).
    RegionEnd,
    /// No closer within the lookahead (or, for a one-line token, before a newline).
    NotFound,
}

/// Whether a token seen by lookahead may span lines (keys may not).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Lines {
    One,
    Any,
}

enum Decision {
    Close,
    Text,
    SplitAtComma,
}

/// How far lookahead may look at a key-like token or skip a comment.
const LOOKAHEAD_LIMIT: usize = 256;
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
    let mut parser = Parser {
        text,
        b: text.as_bytes(),
        pos: start,
        end: end.min(text.len()),
        fence,
        cfg: config,
        frames: Vec::new(),
        root: None,
        log: Vec::new(),
        removed: 0,
        next_id: 1,
        unlogged: 0,
        container_path: None,
    };
    parser.run()
}

struct Parser<'t> {
    text: &'t str,
    b: &'t [u8],
    pos: usize,
    end: usize,
    fence: Option<Fence>,
    cfg: Config<'t>,
    frames: Vec<Frame>,
    root: Option<Value>,
    log: Vec<RawRepair>,
    removed: usize,
    next_id: u32,
    /// Repairs made after the log was full.
    unlogged: usize,
    /// The innermost open container's id and JSON Pointer, once a repair needed it.
    container_path: Option<(u32, String)>,
}

fn is_ws(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r')
}

fn is_ident_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'$'
}

/// Unicode whitespace that JSON does not allow between tokens, but models and editors emit.
fn is_special_space(c: char) -> bool {
    matches!(
        c,
        '\u{00A0}' | '\u{1680}' | '\u{180E}' | '\u{2000}'
            ..='\u{200B}' | '\u{202F}' | '\u{205F}' | '\u{3000}' | '\u{FEFF}'
    )
}

/// How many bytes are JSON whitespace. Runs on every parse (the guard's denominator), so it
/// counts in byte lanes: chunks of 255 bytes cannot overflow a `u8` per lane, and the compiler
/// vectorises the inner loop.
pub(crate) fn json_whitespace(bytes: &[u8]) -> usize {
    bytes
        .chunks(255)
        .map(|chunk| {
            let n = chunk.iter().fold(0u8, |n, &b| {
                n + u8::from(b == b' ')
                    + u8::from(b == b'\n')
                    + u8::from(b == b'\r')
                    + u8::from(b == b'\t')
            });
            usize::from(n)
        })
        .sum()
}

/// A frame contributes a pointer segment when it is an array, or an object inside a member.
fn has_segment(frame: &Frame) -> bool {
    match &frame.partial {
        Partial::Object(_) => frame.key.is_some(),
        Partial::Array(_) => true,
        Partial::Call(_) => false,
    }
}

/// Appends the frame's segment (`/3` for an array's next item, `/key` for an object's current
/// member; a key longer than [`PATH_KEY_LIMIT`] is cut and ends in `…`).
fn push_segment(out: &mut String, frame: &Frame) {
    match &frame.partial {
        Partial::Array(items) => {
            out.push('/');
            out.push_str(itoa::Buffer::new().format(items.len()));
        }
        Partial::Object(_) => {
            let Some(key) = frame.key.as_deref() else {
                return;
            };
            out.push('/');
            if key.len() > PATH_KEY_LIMIT {
                let cut = crate::position::floor_char_boundary(key, PATH_KEY_LIMIT);
                json_pointer_escape(out, &key[..cut]);
                out.push('…');
            } else {
                json_pointer_escape(out, key);
            }
        }
        Partial::Call(_) => {}
    }
}

fn json_pointer_escape(out: &mut String, key: &str) {
    if !key.bytes().any(|b| b == b'~' || b == b'/') {
        out.push_str(key);
        return;
    }
    for ch in key.chars() {
        match ch {
            '~' => out.push_str("~0"),
            '/' => out.push_str("~1"),
            c => out.push(c),
        }
    }
}

impl<'t> Parser<'t> {
    // ----------------------------------------------------------------------------------------
    // The gate: every repair is logged here, or refused here.

    fn allowed(&self, kind: RepairKind) -> bool {
        self.cfg.level >= kind.min_level()
    }

    fn heuristics(&self) -> bool {
        self.cfg.level == RepairLevel::Full
    }

    fn repair(
        &mut self,
        kind: RepairKind,
        start: usize,
        end: usize,
        detail: impl Into<Cow<'static, str>>,
    ) -> Result<()> {
        if !self.allowed(kind) {
            return Err(Fail::Syntax {
                offset: start,
                message: Cow::Borrowed(kind.defect()),
                truncated: kind.is_truncation(),
            });
        }
        let container = self.frames.last().map_or(0, |f| f.id);
        // Repairs about the container itself (its closer, a comma between members) point at
        // the container, not at its next child.
        let about_container = matches!(
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
        );
        // Runs of the same repair in the same container (a thousand commas, a long garbage
        // token) become one entry, so the log stays proportional to the structure.
        if matches!(
            kind,
            RepairKind::ExtraComma
                | RepairKind::DroppedGarbage
                | RepairKind::SpecialWhitespace
                | RepairKind::ExtraCloser
                | RepairKind::Comment
                | RepairKind::Ellipsis
                | RepairKind::EscapedString
        ) {
            let b = self.b;
            if let Some(last) = self.log.last_mut() {
                let adjacent = last.end <= start && b[last.end..start].iter().all(|&c| is_ws(c));
                if last.kind == kind && last.container == container && adjacent {
                    last.end = end;
                    last.count += 1;
                    return Ok(());
                }
            }
        }
        if self.log.len() >= LOG_LIMIT {
            self.unlogged += 1;
            return Ok(());
        }
        let path = self.path(about_container);
        self.log.push(RawRepair {
            kind,
            start,
            end,
            path,
            detail: detail.into(),
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

    fn discard(&mut self, start: usize, end: usize) {
        let discarded = &self.b[start..end.min(self.b.len())];
        self.removed += discarded.len() - json_whitespace(discarded);
    }

    /// JSON Pointer of the place being parsed; with `container`, of the innermost container.
    ///
    /// The innermost container's pointer is kept between repairs (it cannot change while that
    /// container is open), so a run of repairs in one object costs one copy each, not a walk
    /// of the whole stack.
    fn path(&mut self, container: bool) -> String {
        let Some(top) = self.frames.last() else {
            return String::new();
        };
        if self.frames.len() > PATH_DEPTH_LIMIT {
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
        if let Some(top) = self.frames.last() {
            push_segment(&mut out, top);
        }
        out
    }

    /// The pointer computed from the whole stack. Bounded so that logging stays linear: a key
    /// longer than [`PATH_KEY_LIMIT`] bytes is cut (ending in `…`), and a path deeper than
    /// [`PATH_DEPTH_LIMIT`] keeps its first and last segments around a `/…` segment.
    fn path_walk(&self, container: bool) -> String {
        let frames = if container && !self.frames.is_empty() {
            &self.frames[..self.frames.len() - 1]
        } else {
            &self.frames[..]
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

    // ----------------------------------------------------------------------------------------
    // Low-level reading.

    fn fence_at(&self, i: usize) -> bool {
        match self.fence {
            Some(f) => {
                i + 2 < self.b.len()
                    && self.b[i] == f.byte
                    && self.b[i + 1] == f.byte
                    && self.b[i + 2] == f.byte
            }
            None => false,
        }
    }

    /// The region ends here (input end, or a closing fence where structure is expected).
    fn at_end(&self) -> bool {
        self.pos >= self.end || self.fence_at(self.pos)
    }

    fn char_at(&self, i: usize) -> Option<char> {
        self.text.get(i..)?.chars().next()
    }

    fn char_len_at(&self, i: usize) -> usize {
        self.char_at(i).map_or(1, char::len_utf8)
    }

    /// Skips whitespace and comments, logging the repairs they need.
    fn skip_ws(&mut self) -> Result<()> {
        while self.pos < self.end {
            let b = self.b[self.pos];
            if is_ws(b) {
                self.pos += 1;
            } else if b == b'/' && matches!(self.b.get(self.pos + 1), Some(b'/' | b'*')) {
                self.skip_comment()?;
            } else if b >= 0x80 {
                match self.char_at(self.pos) {
                    Some(c) if is_special_space(c) => {
                        let len = c.len_utf8();
                        self.repair(
                            RepairKind::SpecialWhitespace,
                            self.pos,
                            self.pos + len,
                            "treated as a space",
                        )?;
                        self.pos += len;
                    }
                    _ => break,
                }
            } else {
                break;
            }
        }
        Ok(())
    }

    fn skip_comment(&mut self) -> Result<()> {
        let start = self.pos;
        let block = self.b[start + 1] == b'*';
        let body_start = start + 2;
        let (body_end, end) = if block {
            match find(self.b, body_start, self.end, b"*/") {
                Some(i) => (i, i + 2),
                None => (self.end, self.end),
            }
        } else {
            let e = self.b[body_start..self.end]
                .iter()
                .position(|&c| c == b'\n')
                .map_or(self.end, |i| body_start + i);
            (e, e)
        };
        self.repair(RepairKind::Comment, start, end, "removed")?;
        self.discard(body_start, body_end);
        self.pos = end;
        Ok(())
    }

    /// Position and byte of the next non-whitespace byte at or after `i`, skipping short
    /// comments; `None` at the end of the region. Read-only: used for lookahead.
    fn peek_from(&self, mut i: usize) -> Option<(usize, u8)> {
        loop {
            while i < self.end && is_ws(self.b[i]) {
                i += 1;
            }
            if i >= self.end || self.fence_at(i) {
                return None;
            }
            let c = self.b[i];
            if c == b'/' && self.b.get(i + 1) == Some(&b'*') {
                let limit = (i + LOOKAHEAD_LIMIT).min(self.end);
                match find(self.b, i + 2, limit, b"*/") {
                    Some(j) => {
                        i = j + 2;
                        continue;
                    }
                    None => return Some((i, c)),
                }
            }
            if c == b'/' && self.b.get(i + 1) == Some(&b'/') {
                let limit = (i + LOOKAHEAD_LIMIT).min(self.end);
                match self.b[i..limit].iter().position(|&x| x == b'\n') {
                    Some(j) => {
                        i += j;
                        continue;
                    }
                    None if limit == self.end => return None,
                    None => return Some((i, c)),
                }
            }
            return Some((i, c));
        }
    }

    // ----------------------------------------------------------------------------------------
    // The state machine.

    fn run(&mut self) -> Result<Output> {
        let start = self.pos;
        let fuse_limit = 8 * (self.end.saturating_sub(start)) + 64;
        let mut iterations = 0usize;
        let mut state = State::Value;
        loop {
            iterations += 1;
            if iterations > fuse_limit {
                return Err(Fail::Internal("the parser stopped making progress"));
            }
            if self.frames.is_empty() && self.root.is_some() {
                let value = self.root.take().unwrap_or(Value::Null);
                if self.unlogged > 0 {
                    let kind = self
                        .log
                        .last()
                        .map_or(RepairKind::DroppedGarbage, |r| r.kind);
                    let mut note = RawRepair::at_root(kind, self.pos, self.pos, "");
                    note.detail = Cow::Owned(format!(
                        "the log holds {LOG_LIMIT} entries; {} more repairs were not logged",
                        self.unlogged
                    ));
                    self.log.push(note);
                }
                return Ok(Output {
                    value,
                    end: self.pos,
                    repairs: std::mem::take(&mut self.log),
                    removed: self.removed,
                });
            }
            state = match state {
                State::Value => self.state_value()?,
                State::Key => self.state_key()?,
                State::Colon => self.state_colon()?,
                State::Next => self.state_next()?,
            };
        }
    }

    fn top_kind(&self) -> Option<Kind> {
        self.frames.last().map(Frame::kind)
    }

    fn top(&mut self) -> Result<&mut Frame> {
        self.frames
            .last_mut()
            .ok_or(Fail::Internal("no open container"))
    }

    /// A `,` was consumed before a closer: log it as a trailing comma.
    fn flush_trailing_comma(&mut self) -> Result<()> {
        if let Some(frame) = self.frames.last_mut() {
            if let Some(at) = frame.pending_comma.take() {
                self.repair(RepairKind::TrailingComma, at, at + 1, "removed")?;
            }
        }
        Ok(())
    }

    fn state_value(&mut self) -> Result<State> {
        self.skip_ws()?;
        let top = self.top_kind();
        if self.at_end() {
            return match top {
                None => Err(Fail::Syntax {
                    offset: self.pos,
                    message: Cow::Borrowed("expected a JSON value"),
                    truncated: self.pos > 0,
                }),
                Some(Kind::Object) => {
                    self.drop_dangling_member("a key and ':' without a value")?;
                    Ok(State::Next)
                }
                Some(Kind::Array) => {
                    self.flush_trailing_comma()?;
                    Ok(State::Next)
                }
                Some(Kind::Call) => Ok(State::Next),
            };
        }
        let c = self.b[self.pos];
        match c {
            b'}' | b']' => match top {
                Some(Kind::Object) => {
                    self.repair(RepairKind::MissingValue, self.pos, self.pos, "used null")?;
                    self.emit(Value::Null)?;
                    Ok(State::Next)
                }
                Some(Kind::Array) => {
                    self.flush_trailing_comma()?;
                    Ok(State::Next)
                }
                Some(Kind::Call) => Ok(State::Next),
                None => self.fail(self.pos, "expected a JSON value"),
            },
            b',' => match top {
                Some(Kind::Object) => {
                    self.repair(RepairKind::MissingValue, self.pos, self.pos, "used null")?;
                    self.emit(Value::Null)?;
                    Ok(State::Next)
                }
                Some(Kind::Array) => {
                    self.repair(RepairKind::ExtraComma, self.pos, self.pos + 1, "removed")?;
                    self.pos += 1;
                    Ok(State::Value)
                }
                _ => self.fail(self.pos, "expected a JSON value"),
            },
            b')' if top == Some(Kind::Call) => Ok(State::Next),
            b'{' => {
                self.open(Partial::Object(Map::new()))?;
                Ok(State::Key)
            }
            b'[' => {
                self.open(Partial::Array(Vec::new()))?;
                Ok(State::Value)
            }
            b'.' if self.b[self.pos..self.end].starts_with(b"...") => {
                self.skip_ellipsis()?;
                Ok(State::Value)
            }
            b':' | b')' | b';' | b'=' if top.is_some() => {
                self.drop_garbage_char()?;
                Ok(State::Value)
            }
            _ => {
                if let Some(frame) = self.frames.last_mut() {
                    frame.pending_comma = None;
                }
                self.scalar()
            }
        }
    }

    fn skip_ellipsis(&mut self) -> Result<()> {
        let start = self.pos;
        let mut end = start;
        while end < self.end && self.b[end] == b'.' {
            end += 1;
        }
        self.repair(RepairKind::Ellipsis, start, end, "removed")?;
        self.pos = end;
        Ok(())
    }

    fn drop_garbage_char(&mut self) -> Result<()> {
        let start = self.pos;
        let end = start + self.char_len_at(start);
        self.repair(RepairKind::DroppedGarbage, start, end, "skipped")?;
        self.discard(start, end);
        self.pos = end;
        Ok(())
    }

    /// A key (and maybe its `:`) whose value never came, at the end of the reply.
    fn drop_dangling_member(&mut self, what: &'static str) -> Result<()> {
        let (key_at, had_key) = {
            let frame = self.top()?;
            (frame.key_at, frame.key.is_some())
        };
        if had_key {
            self.repair(
                RepairKind::DroppedTruncatedMember,
                key_at,
                self.end.max(key_at),
                what,
            )?;
            self.top()?.key = None;
        }
        Ok(())
    }

    fn open(&mut self, partial: Partial) -> Result<()> {
        if self.frames.len() >= self.cfg.max_depth {
            return Err(Fail::TooDeep { offset: self.pos });
        }
        if let Some(frame) = self.frames.last_mut() {
            frame.pending_comma = None;
        }
        let id = self.next_id;
        self.next_id = self.next_id.wrapping_add(1);
        let is_call = matches!(partial, Partial::Call(_));
        self.frames.push(Frame {
            partial,
            key: None,
            key_at: self.pos,
            key_end: self.pos,
            pending_comma: None,
            extra_openers: 0,
            id,
        });
        if !is_call {
            self.pos += 1;
        }
        Ok(())
    }

    /// Hands a finished value to the enclosing container (or makes it the result).
    fn emit(&mut self, value: Value) -> Result<()> {
        let policy = self.cfg.duplicate_keys;
        let Some(frame) = self.frames.last_mut() else {
            self.root = Some(value);
            return Ok(());
        };
        let duplicate = match &mut frame.partial {
            Partial::Array(items) => {
                items.push(value);
                None
            }
            Partial::Call(slot) => {
                *slot = Some(value);
                None
            }
            Partial::Object(map) => {
                use serde_json::map::Entry;
                let key = frame.key.take().unwrap_or_default();
                match map.entry(key) {
                    Entry::Vacant(slot) => {
                        slot.insert(value);
                        None
                    }
                    Entry::Occupied(mut slot) => {
                        let key = slot.key().clone();
                        match policy {
                            DuplicateKeys::Last => {
                                slot.insert(value);
                                Some((key, "kept the last value"))
                            }
                            DuplicateKeys::First => Some((key, "kept the first value")),
                            DuplicateKeys::Error => {
                                return Err(Fail::DuplicateKey {
                                    offset: frame.key_at,
                                    key,
                                })
                            }
                        }
                    }
                }
            }
        };
        if let Some((key, detail)) = duplicate {
            // Log with the key as the last path segment.
            let (key_at, key_end) = (self.top()?.key_at, self.top()?.key_end);
            self.top()?.key = Some(key);
            let logged = self.repair(RepairKind::DuplicateKey, key_at, key_end, detail);
            self.top()?.key = None;
            logged?;
        }
        Ok(())
    }

    /// Closes the innermost frame and hands its value up.
    fn close_top(&mut self) -> Result<()> {
        let frame = self
            .frames
            .pop()
            .ok_or(Fail::Internal("close without frame"))?;
        let value = match frame.partial {
            Partial::Object(map) => Value::Object(map),
            Partial::Array(items) => Value::Array(items),
            Partial::Call(slot) => slot.unwrap_or(Value::Null),
        };
        self.emit(value)
    }

    /// The reply ended with containers open: close them all.
    fn close_all_at_end(&mut self) -> Result<()> {
        let open = self
            .frames
            .iter()
            .filter(|f| f.kind() != Kind::Call)
            .count();
        if self.cfg.level == RepairLevel::Conservative && open > 1 {
            return Err(Fail::Syntax {
                offset: self.pos.min(self.end),
                message: Cow::Owned(format!(
                    "unexpected end of input with {open} closing brackets missing \
                     (level conservative adds at most one)"
                )),
                truncated: true,
            });
        }
        // Just after the last character written, not after trailing whitespace.
        let mut at = self.pos.min(self.end);
        while at > 0 && is_ws(self.b[at - 1]) {
            at -= 1;
        }
        while let Some(frame) = self.frames.last() {
            let kind = match frame.kind() {
                Kind::Object => Some(RepairKind::ClosedTruncatedObject),
                Kind::Array => Some(RepairKind::ClosedTruncatedArray),
                Kind::Call => None,
            };
            if let Some(kind) = kind {
                let detail = if kind == RepairKind::ClosedTruncatedObject {
                    "added '}'"
                } else {
                    "added ']'"
                };
                self.repair(kind, at, at, detail)?;
            }
            self.close_top()?;
        }
        Ok(())
    }

    fn state_key(&mut self) -> Result<State> {
        self.skip_ws()?;
        if self.at_end() {
            self.flush_trailing_comma()?;
            return Ok(State::Next);
        }
        let c = self.b[self.pos];
        match c {
            b'}' => {
                self.flush_trailing_comma()?;
                Ok(State::Next)
            }
            b']' => {
                self.flush_trailing_comma()?;
                Ok(State::Next)
            }
            b',' => {
                self.repair(RepairKind::ExtraComma, self.pos, self.pos + 1, "removed")?;
                self.pos += 1;
                Ok(State::Key)
            }
            b':' => self.fail(self.pos, "expected an object key"),
            b'{' | b'[' => {
                let parent_is_array = self.frames.len() >= 2
                    && self.frames[self.frames.len() - 2].kind() == Kind::Array;
                let empty = matches!(&self.top()?.partial, Partial::Object(m) if m.is_empty());
                if parent_is_array {
                    // `[{"i":1{"i":2}]`: the object lacks its `}` before the next item.
                    self.repair(RepairKind::MissingCloser, self.pos, self.pos, "added '}'")?;
                    self.close_top()?;
                    Ok(State::Next)
                } else if c == b'{' && empty && self.top()?.pending_comma.is_none() {
                    // `{{ ... }}` (template braces): drop the extra opener and its closer.
                    self.repair(RepairKind::ExtraOpener, self.pos, self.pos + 1, "removed")?;
                    self.top()?.extra_openers += 1;
                    self.pos += 1;
                    Ok(State::Key)
                } else {
                    self.fail(self.pos, "expected an object key")
                }
            }
            b'.' if self.b[self.pos..self.end].starts_with(b"...") => {
                self.skip_ellipsis()?;
                Ok(State::Key)
            }
            _ => {
                let key_at = self.pos;
                self.top()?.pending_comma = None;
                self.top()?.key_at = key_at;
                let key = if is_quote_at(self.b, self.pos) {
                    self.string(true)?
                } else {
                    match self.unquoted_key()? {
                        Some(k) => k,
                        None => return Ok(State::Key),
                    }
                };
                match key {
                    Str::Done(k) => {
                        let key_end = self.pos;
                        let frame = self.top()?;
                        frame.key = Some(k);
                        frame.key_end = key_end;
                        Ok(State::Colon)
                    }
                    Str::Dropped => {
                        self.repair(
                            RepairKind::DroppedTruncatedMember,
                            key_at,
                            self.end,
                            "a key cut off",
                        )?;
                        Ok(State::Next)
                    }
                }
            }
        }
    }

    /// An object key without quotes: `{name: "x"}`, `{2: 1}`, `{first name: "x"}`.
    /// Returns `None` when the byte could not start a key and was skipped as garbage.
    fn unquoted_key(&mut self) -> Result<Option<Str>> {
        let start = self.pos;
        let mut i = start;
        let mut first_word_end = None;
        while i < self.end {
            let c = self.b[i];
            if matches!(c, b':' | b',' | b'{' | b'}' | b'[' | b']' | b'\n' | b'\r')
                || is_quote_at(self.b, i)
                || self.fence_at(i)
            {
                break;
            }
            if (c == b' ' || c == b'\t') && first_word_end.is_none() {
                first_word_end = Some(i);
            }
            i += if c < 0x80 { 1 } else { self.char_len_at(i) };
        }
        if i == start {
            self.drop_garbage_char()?;
            return Ok(None);
        }
        if i >= self.end || self.fence_at(i) {
            self.pos = i;
            return Ok(Some(Str::Dropped));
        }
        let stop = self.b[i];
        // Several words reach the colon: they are the key. Otherwise the key is the first word.
        let key_end = if stop == b':' {
            i
        } else {
            first_word_end.unwrap_or(i)
        };
        let key = self.text[start..key_end].trim_end().to_string();
        self.top()?.key = Some(key.clone());
        let logged = self.repair(RepairKind::UnquotedKey, start, key_end, "quoted");
        self.top()?.key = None;
        logged?;
        self.pos = key_end;
        if stop == b'"' && key_end == i {
            // `{a":"x"}`: the key lost its opening quote only.
            if let Some((_, b':')) = self.peek_from(i + 1) {
                self.repair(RepairKind::MissingStartQuote, start, i + 1, "added")?;
                self.pos = i + 1;
            }
        }
        Ok(Some(Str::Done(key)))
    }

    fn state_colon(&mut self) -> Result<State> {
        self.skip_ws()?;
        if self.at_end() {
            self.drop_dangling_member("a key without a value")?;
            return Ok(State::Next);
        }
        let c = self.b[self.pos];
        if c == b':' {
            self.pos += 1;
            return Ok(State::Value);
        }
        let starts_value = matches!(c, b'{' | b'[' | b'-' | b'0'..=b'9')
            || is_ident_byte(c)
            || is_quote_at(self.b, self.pos);
        if starts_value {
            self.repair(RepairKind::MissingColon, self.pos, self.pos, "added ':'")?;
            return Ok(State::Value);
        }
        self.fail(self.pos, "expected ':' after object key")
    }

    fn state_next(&mut self) -> Result<State> {
        if self.frames.is_empty() {
            return Err(Fail::Internal("no value at the top level"));
        }
        self.skip_ws()?;
        if self.at_end() {
            self.close_all_at_end()?;
            return Ok(State::Next);
        }
        let kind = self.top_kind();
        let c = self.b[self.pos];
        match c {
            b',' => {
                if kind == Some(Kind::Call) {
                    // `f(x, y)`: keep the first argument, skip the rest as garbage.
                    self.drop_garbage_char()?;
                    return Ok(State::Next);
                }
                let at = self.pos;
                self.pos += 1;
                self.top()?.pending_comma = Some(at);
                Ok(if kind == Some(Kind::Object) {
                    State::Key
                } else {
                    State::Value
                })
            }
            b'}' | b']' => {
                self.closer(c)?;
                Ok(State::Next)
            }
            b')' if kind == Some(Kind::Call) => {
                self.pos += 1;
                self.close_top()?;
                Ok(State::Next)
            }
            b':' | b')' | b';' | b'=' => {
                self.drop_garbage_char()?;
                Ok(State::Next)
            }
            _ => {
                if kind == Some(Kind::Call) {
                    self.drop_garbage_char()?;
                    return Ok(State::Next);
                }
                if c == b'.' && self.b[self.pos..self.end].starts_with(b"...") {
                    self.skip_ellipsis()?;
                    return Ok(State::Next);
                }
                let starts = matches!(c, b'{' | b'[' | b'-' | b'.' | b'0'..=b'9')
                    || is_ident_byte(c)
                    || c >= 0x80
                    || is_quote_at(self.b, self.pos);
                if !starts {
                    self.drop_garbage_char()?;
                    return Ok(State::Next);
                }
                self.repair(RepairKind::MissingComma, self.pos, self.pos, "added ','")?;
                Ok(if kind == Some(Kind::Object) {
                    State::Key
                } else {
                    State::Value
                })
            }
        }
    }

    /// A `}` or `]` after a value.
    fn closer(&mut self, c: u8) -> Result<()> {
        let want = if c == b'}' { Kind::Object } else { Kind::Array };
        let top = self.top_kind();
        if top == Some(want) {
            self.pos += 1;
            let owed = self.top()?.extra_openers;
            for _ in 0..owed {
                if let Some((i, b)) = self.peek_from(self.pos) {
                    if b == c {
                        self.pos = i + 1;
                    }
                }
            }
            return self.close_top();
        }
        if top == Some(Kind::Call) {
            // `f(x` then a closer: the call lacks its `)`.
            return self.close_top();
        }
        let below = self.frames[..self.frames.len() - 1]
            .iter()
            .rposition(|f| f.kind() == want);
        // No container of the closer's kind is open: a typo for the right closer. One is open
        // further out: the containers inside it lack their closers — unless closing several
        // levels at once would leave `, "key": …` at the top level, where it cannot belong.
        let mismatched = match below {
            None => true,
            Some(depth) => depth == 0 && matches!(self.peek_from(self.pos + 1), Some((_, b','))),
        };
        if mismatched {
            self.repair(
                RepairKind::MismatchedCloser,
                self.pos,
                self.pos + 1,
                "used as the right closer",
            )?;
            self.pos += 1;
            return self.close_top();
        }
        let detail = if top == Some(Kind::Object) {
            "added '}'"
        } else {
            "added ']'"
        };
        self.repair(RepairKind::MissingCloser, self.pos, self.pos, detail)?;
        self.close_top()
    }

    // ----------------------------------------------------------------------------------------
    // Scalars.

    fn scalar(&mut self) -> Result<State> {
        let c = self.b[self.pos];
        if is_quote_at(self.b, self.pos) {
            let value_at = self.pos;
            return match self.string(false)? {
                Str::Done(mut s) => {
                    if self.heuristics() {
                        self.concatenation(&mut s)?;
                    }
                    self.emit(Value::String(s))?;
                    Ok(State::Next)
                }
                Str::Dropped => {
                    self.drop_truncated_value(value_at)?;
                    Ok(State::Next)
                }
            };
        }
        if matches!(c, b'-' | b'+' | b'.' | b'0'..=b'9') {
            return self.number();
        }
        self.word(self.pos)
    }

    /// `"a" + "b"`: joins strings concatenated with `+`.
    fn concatenation(&mut self, s: &mut String) -> Result<()> {
        while let Some((plus, b'+')) = self.peek_from(self.pos) {
            let Some((q, _)) = self.peek_from(plus + 1) else {
                break;
            };
            if !is_quote_at(self.b, q) {
                break;
            }
            let start = self.pos;
            self.pos = q;
            match self.string(false)? {
                Str::Done(more) => s.push_str(&more),
                Str::Dropped => {}
            }
            self.repair(
                RepairKind::ConcatenatedStrings,
                start,
                self.pos,
                "joined with the previous string",
            )?;
        }
        Ok(())
    }

    /// Under the `drop` policy a value cut off is removed with its key.
    fn drop_truncated_value(&mut self, value_at: usize) -> Result<()> {
        let start = match self.frames.last() {
            Some(f) if f.kind() == Kind::Object && f.key.is_some() => f.key_at,
            Some(_) => value_at,
            None => {
                return Err(Fail::Syntax {
                    offset: value_at,
                    message: Cow::Borrowed("the only value was cut off"),
                    truncated: true,
                })
            }
        };
        self.repair(
            RepairKind::DroppedTruncatedMember,
            start,
            self.end,
            "the value was cut off",
        )?;
        if let Some(frame) = self.frames.last_mut() {
            frame.key = None;
        }
        Ok(())
    }

    fn is_terminator(&self, i: usize) -> bool {
        if i >= self.end || self.fence_at(i) {
            return true;
        }
        let c = self.b[i];
        is_ws(c)
            || matches!(c, b',' | b'}' | b']' | b')' | b';' | b'{' | b'[' | b'"')
            || (c == b'/' && matches!(self.b.get(i + 1), Some(b'/' | b'*')))
            || (c >= 0x80 && self.char_at(i).is_some_and(is_special_space))
    }

    fn number(&mut self) -> Result<State> {
        let start = self.pos;
        let b = self.b;
        let end = self.end;
        let mut i = start;
        let sign = b[i];
        if sign == b'-' || sign == b'+' {
            i += 1;
        }
        let int_start = i;
        while i < end && b[i].is_ascii_digit() {
            i += 1;
        }
        let int_digits = i - int_start;
        let mut frac_digits = None;
        if i < end && b[i] == b'.' {
            i += 1;
            let s = i;
            while i < end && b[i].is_ascii_digit() {
                i += 1;
            }
            frac_digits = Some(i - s);
        }
        let mut exp_digits = None;
        if i < end && (b[i] == b'e' || b[i] == b'E') && (int_digits > 0 || frac_digits > Some(0)) {
            let mut j = i + 1;
            if j < end && (b[j] == b'+' || b[j] == b'-') {
                j += 1;
            }
            let s = j;
            while j < end && b[j].is_ascii_digit() {
                j += 1;
            }
            if j - s > 0 || j >= end || self.is_terminator(j) {
                exp_digits = Some(j - s);
                i = j;
            }
        }
        if !self.is_terminator(i) {
            // `0.0.1`, `2024-10-18T18:35Z`, `746de9ad-…`, `-Infinity`: not a number.
            return self.word(start);
        }
        let at_eof = i >= end || self.fence_at(i);
        let raw = &self.text[start..i];
        self.pos = i;
        let no_digits = int_digits == 0 && frac_digits.unwrap_or(0) == 0;
        if no_digits && !at_eof {
            // A lone sign or dot: a number only where a delimiter follows (`[-,`), not in
            // `- item` text.
            if !matches!(self.peek_from(i), None | Some((_, b',' | b']' | b'}'))) {
                return self.word(start);
            }
        }
        let leading_zero = int_digits > 1 && b[int_start] == b'0';
        if leading_zero {
            self.repair(
                RepairKind::NumberAsString,
                start,
                i,
                "leading zeros: kept as a string",
            )?;
            self.emit(Value::String(raw.to_string()))?;
            return Ok(State::Next);
        }
        let valid =
            sign != b'+' && int_digits > 0 && frac_digits != Some(0) && exp_digits != Some(0);
        if valid {
            self.emit(make_number(raw))?;
            return Ok(State::Next);
        }
        // Normalise: drop a leading '+', add missing digits.
        let mut fixed = String::with_capacity(raw.len() + 2);
        if sign == b'-' {
            fixed.push('-');
        }
        if int_digits == 0 {
            fixed.push('0');
        } else {
            fixed.push_str(&self.text[int_start..int_start + int_digits]);
        }
        let mut k = int_start + int_digits;
        if let Some(f) = frac_digits {
            fixed.push('.');
            fixed.push_str(&self.text[k + 1..k + 1 + f]);
            if f == 0 {
                fixed.push('0');
            }
            k += 1 + f;
        }
        if let Some(e) = exp_digits {
            fixed.push_str(&self.text[k..i]);
            if e == 0 {
                fixed.push('0');
            }
        }
        let cut_off = at_eof && (no_digits || frac_digits == Some(0) || exp_digits == Some(0));
        if cut_off {
            return self.truncated_scalar(start, raw, Some(make_number(&fixed)));
        }
        self.repair(
            RepairKind::InvalidNumber,
            start,
            i,
            format!("'{raw}' became {fixed}"),
        )?;
        self.emit(make_number(&fixed))?;
        Ok(State::Next)
    }

    /// A number or literal cut off by the end of the reply.
    fn truncated_scalar(
        &mut self,
        start: usize,
        raw: &str,
        completed: Option<Value>,
    ) -> Result<State> {
        match (self.cfg.truncation, completed) {
            (Truncation::Complete, Some(value)) => {
                let detail = format!("'{raw}' became {value}");
                self.repair(RepairKind::CompletedTruncatedValue, start, self.pos, detail)?;
                self.emit(value)?;
            }
            _ => {
                if !self.allowed(RepairKind::CompletedTruncatedValue) {
                    return Err(Fail::Syntax {
                        offset: start,
                        message: Cow::Borrowed(RepairKind::CompletedTruncatedValue.defect()),
                        truncated: true,
                    });
                }
                self.drop_truncated_value(start)?;
            }
        }
        Ok(State::Next)
    }

    /// A bare word: a literal, a function-call wrapper, or an unquoted string.
    fn word(&mut self, start: usize) -> Result<State> {
        let b = self.b;
        let mut i = start;
        while i < self.end && is_ident_byte(b[i]) {
            i += 1;
        }
        let ident = &self.text[start..i];
        if !ident.is_empty() && self.is_terminator(i) {
            let literal = match ident {
                "true" => Some((Value::Bool(true), None)),
                "false" => Some((Value::Bool(false), None)),
                "null" => Some((Value::Null, None)),
                "True" | "TRUE" => Some((Value::Bool(true), Some(RepairKind::PythonLiteral))),
                "False" | "FALSE" => Some((Value::Bool(false), Some(RepairKind::PythonLiteral))),
                "None" | "NULL" | "Null" => Some((Value::Null, Some(RepairKind::PythonLiteral))),
                "undefined" | "NaN" | "Infinity" => {
                    Some((Value::Null, Some(RepairKind::JavascriptLiteral)))
                }
                _ => None,
            };
            if let Some((value, kind)) = literal {
                if let Some(kind) = kind {
                    self.repair(kind, start, i, format!("'{ident}' became {value}"))?;
                }
                self.pos = i;
                self.emit(value)?;
                return Ok(State::Next);
            }
            let at_eof = i >= self.end || self.fence_at(i);
            if at_eof {
                let completed = ["true", "false", "null", "True", "False", "None"]
                    .iter()
                    .find(|lit| lit.starts_with(ident))
                    .map(|lit| match lit.to_ascii_lowercase().as_str() {
                        "true" => Value::Bool(true),
                        "false" => Value::Bool(false),
                        _ => Value::Null,
                    });
                if let Some(value) = completed {
                    self.pos = i;
                    return self.truncated_scalar(start, ident, Some(value));
                }
            }
        }
        if self.text[start..self.end].starts_with("-Infinity") && self.is_terminator(start + 9) {
            self.repair(
                RepairKind::JavascriptLiteral,
                start,
                start + 9,
                "'-Infinity' became null",
            )?;
            self.pos = start + 9;
            self.emit(Value::Null)?;
            return Ok(State::Next);
        }
        if !ident.is_empty() && i < self.end && b[i] == b'(' {
            // `ObjectId("…")`, `NumberLong(2)`, JSONP `callback({...})`.
            self.repair(
                RepairKind::FunctionWrapper,
                start,
                i + 1,
                format!("removed '{ident}(…)'"),
            )?;
            self.pos = i;
            self.open(Partial::Call(None))?;
            self.pos = i + 1;
            return Ok(State::Value);
        }
        if self.frames.is_empty() && !self.allowed(RepairKind::UnquotedString) {
            return self.fail(start, "expected a JSON value");
        }
        // An unquoted string runs to the end of the line or the next delimiter.
        let mut j = start;
        while j < self.end {
            let c = b[j];
            if matches!(c, b',' | b'}' | b']' | b'\n' | b'\r' | b'"') || self.fence_at(j) {
                break;
            }
            if c == b')' && self.top_kind() == Some(Kind::Call) {
                break;
            }
            j += if c < 0x80 { 1 } else { self.char_len_at(j) };
        }
        if j == start {
            self.drop_garbage_char()?;
            return Ok(State::Value);
        }
        let s = self.text[start..j].trim_end().to_string();
        self.repair(RepairKind::UnquotedString, start, j, "quoted")?;
        self.pos = j;
        if j < self.end && b[j] == b'"' {
            let followed_by_delimiter = match self.peek_from(j + 1) {
                None => true,
                Some((_, d)) => matches!(d, b',' | b'}' | b']' | b':'),
            };
            if followed_by_delimiter {
                self.repair(RepairKind::MissingStartQuote, start, j + 1, "added")?;
                self.pos = j + 1;
            }
        }
        self.emit(Value::String(s))?;
        Ok(State::Next)
    }

    // ----------------------------------------------------------------------------------------
    // Strings.

    /// Scans a string starting at the opening quote at `self.pos`.
    fn string(&mut self, is_key: bool) -> Result<Str> {
        let open_at = self.pos;
        let (class, open_len) = QuoteClass::opening_at(self.b, open_at)
            .ok_or(Fail::Internal("string without quote"))?;
        if let Some(kind) = class.repair_kind() {
            if !self.allowed(kind) {
                return self.fail(open_at, kind.defect());
            }
        }
        // A triple-quoted string ends at `"""`, unambiguously: no guessing about its quotes.
        let heuristics = !is_key && self.heuristics() && class != QuoteClass::Triple;
        let (s1, s2, s3) = class.stop_bytes();
        let b = self.b;
        let end = self.end;
        let content_start = open_at + open_len;
        let mut i = content_start;
        let mut seg = i;
        // Most strings need no repair: room for the text up to the next quote-like byte.
        let mut buf = String::with_capacity(
            memchr::memchr(s1, &b[content_start..end]).unwrap_or(end - content_start),
        );
        // Unclosed `{[(` in the string's text so far, counted up to `depth_from`.
        let mut open_brackets = 0u32;
        let mut depth_from = content_start;
        let mut scan = StringScan {
            open_at,
            open_len,
            class,
            is_key,
            controls: 0,
            first_control: 0,
            bad_escapes: 0,
            first_bad_escape: 0,
            text_quotes: 0,
        };
        // The last quote kept as text: (its offset, its length, buf length before it).
        let mut last_text_quote: Option<(usize, usize, usize)> = None;
        // The last text quote preceded by a comma: (comma offset, buf length at the comma,
        // text quotes before it).
        let mut comma_quote: Option<(usize, usize, u32, usize)> = None;
        // Fence markers at line starts inside the string: (count, offset of the last, buf len).
        let mut fences_in_string = (0u32, 0usize, 0usize);

        loop {
            // Find the next byte that needs attention: vectorised search for the quote and
            // backslash bytes, then a (vectorisable) check for control bytes before it.
            let stop = if s1 == s2 && s2 == s3 {
                memchr::memchr2(s1, b'\\', &b[i..end])
            } else {
                memchr::memchr3(s1, s2, s3, &b[i..end])
                    .map(|k| memchr::memchr(b'\\', &b[i..i + k]).unwrap_or(k))
            }
            .map_or(end, |k| i + k);
            i = match b[i..stop].iter().position(|&c| c < 0x20) {
                Some(k) => i + k,
                None => stop,
            };
            if i >= end {
                buf.push_str(&self.text[seg..end]);
                self.pos = end;
                break;
            }
            let c = b[i];
            let escaped_closer = class == QuoteClass::Escaped && c == b'\\';
            if escaped_closer && b.get(i + 1) == Some(&b'\\') && b.get(i + 2) == Some(&b'"') {
                // Inside `\"…\"`, `\\"` is a quote in the text.
                buf.push_str(&self.text[seg..i]);
                buf.push('"');
                i += 3;
                seg = i;
                continue;
            }
            if c == b'\\' && !(escaped_closer && b.get(i + 1) == Some(&b'"')) {
                buf.push_str(&self.text[seg..i]);
                match self.escape(i, &mut buf, class)? {
                    Some(next) => {
                        if next.1 {
                            if scan.bad_escapes == 0 {
                                scan.first_bad_escape = i;
                            }
                            scan.bad_escapes += 1;
                        }
                        i = next.0;
                        seg = i;
                        continue;
                    }
                    None => {
                        // A partial escape at the end of the reply: drop it.
                        i = end;
                        seg = end;
                        continue;
                    }
                }
            }
            if c < 0x20 {
                buf.push_str(&self.text[seg..i]);
                if scan.controls == 0 {
                    scan.first_control = i;
                }
                scan.controls += 1;
                if !self.allowed(RepairKind::ControlCharacter) {
                    return self.fail(i, RepairKind::ControlCharacter.defect());
                }
                if !matches!(c, b'\t' | b'\n' | b'\r' | 0x08 | 0x0C) {
                    // NUL, ESC and the like are not something a model means to write: the
                    // reply is corrupt, and guessing would hide it.
                    return self.fail(
                        i,
                        format!("raw control character U+{c:04X} inside a string (the reply looks corrupt)"),
                    );
                }
                buf.push(c as char);
                i += 1;
                seg = i;
                if c == b'\n' {
                    if let Some(f) = self.fence {
                        let mut k = i;
                        while k < end && (b[k] == b' ' || b[k] == b'\t') {
                            k += 1;
                        }
                        if k + 2 < end && b[k] == f.byte && b[k + 1] == f.byte && b[k + 2] == f.byte
                        {
                            fences_in_string = (fences_in_string.0 + 1, k, buf.len());
                        }
                    }
                }
                continue;
            }
            // A quote byte: is it a closer of this string's class?
            let Some(qlen) = class.closer_at(b, i) else {
                i += 1;
                continue;
            };
            buf.push_str(&self.text[seg..i]);
            if !heuristics {
                self.pos = i + qlen;
                return self.finish_string(
                    buf,
                    StringScan {
                        text_quotes: 0,
                        ..scan
                    },
                );
            }
            // Code brackets the string's own text opened and has not closed: in
            // `d = {"a": "x", …` or `f("a", "b")` a quote is text, whatever follows it. Only
            // once the string has kept a quote as text (valid JSON never does), and a bracket
            // right before this quote is judged with it, not before it.
            let adjacent_opener = i > content_start && matches!(b[i - 1], b'{' | b'[' | b'(');
            let upto = if adjacent_opener { i - 1 } else { i };
            // Counted only once it can matter (a quote was kept as text, or is about to be):
            // most strings close at their first quote and never need the count.
            if scan.text_quotes > 0 {
                open_brackets =
                    code_bracket_depth(open_brackets, b, content_start, depth_from, upto);
                depth_from = upto;
            }
            let mut decision = if open_brackets > 0 && scan.text_quotes > 0 {
                match self.peek_from(i + qlen) {
                    None => Decision::Close,
                    Some(_) => Decision::Text,
                }
            } else {
                self.decide_close(i + qlen, comma_quote.map(|c| c.3))
            };
            if matches!(decision, Decision::Close)
                && comma_quote.is_some()
                && self.top_kind() == Some(Kind::Array)
            {
                // `["hello,"world"]`: in an array, `,"` inside a string is two items whose
                // first lost its closing quote.
                decision = Decision::SplitAtComma;
            }
            match decision {
                Decision::Close => {
                    self.pos = i + qlen;
                    return self.finish_string(buf, scan);
                }
                Decision::Text => {
                    open_brackets =
                        code_bracket_depth(open_brackets, b, content_start, depth_from, upto);
                    depth_from = upto;
                    // Kept as text. Remember it for the end-of-input rules.
                    let k = self.skip_back_ws_comments(content_start, i);
                    if k > content_start && b[k - 1] == b',' && open_brackets == 0 {
                        let comma = k - 1;
                        if let Some(at_comma) = buf.len().checked_sub(i - comma) {
                            comma_quote = Some((comma, at_comma, scan.text_quotes, i));
                        }
                    }
                    last_text_quote = Some((i, qlen, buf.len()));
                    scan.text_quotes += 1;
                    buf.push_str(&self.text[i..i + qlen]);
                    i += qlen;
                    seg = i;
                }
                Decision::SplitAtComma => {
                    // `{"a":"b,"c":"d"}`: the string ended before the comma; its closing quote
                    // is missing. Resume at the comma.
                    let (comma, at_comma, quotes_before, _) =
                        comma_quote.ok_or(Fail::Internal("split without comma"))?;
                    buf.truncate(at_comma);
                    let trimmed = buf.trim_end().len();
                    buf.truncate(trimmed);
                    self.pos = comma;
                    self.repair(RepairKind::MissingEndQuote, comma, comma, "added '\"'")?;
                    return self.finish_string(
                        buf,
                        StringScan {
                            text_quotes: quotes_before,
                            ..scan
                        },
                    );
                }
            }
        }

        // The region ended inside the string.
        if is_key {
            return Ok(Str::Dropped);
        }
        if heuristics {
            // A closing fence inside the string (an odd number of fence lines: code blocks in
            // the text come in pairs) is where the reply's JSON really ended.
            if fences_in_string.0 % 2 == 1 {
                let (_, at, len) = fences_in_string;
                buf.truncate(len);
                self.end = at;
                self.pos = at;
                if let Some((q, _, _)) = last_text_quote {
                    if q >= at {
                        last_text_quote = None;
                    }
                }
            }
            // The last quote taken as text is followed only by closers: it was the real end.
            if let Some((q, qlen, len)) = last_text_quote {
                let rest = &b[q + qlen..self.end];
                if rest
                    .iter()
                    .all(|&c| is_ws(c) || matches!(c, b'}' | b']' | b','))
                {
                    buf.truncate(len);
                    self.pos = q + qlen;
                    return self.finish_string(
                        buf,
                        StringScan {
                            text_quotes: scan.text_quotes - 1,
                            ..scan
                        },
                    );
                }
            }
            // `{"time":"12:20}`: the closing quote is missing before the closers.
            if let Some(cut) = self.closer_run_start(content_start, self.end) {
                let tail = self.end - cut;
                if buf.len() >= tail {
                    buf.truncate(buf.len() - tail);
                    strip_dangling_plus(&mut buf);
                    self.pos = cut;
                    self.repair(RepairKind::MissingEndQuote, cut, cut, "added '\"'")?;
                    return self.finish_string(buf, scan);
                }
            }
        }
        // Whitespace at the very end of the reply (a file's last newline) is not content.
        let kept = buf.trim_end().len();
        let trimmed_controls = buf[kept..].bytes().filter(|&c| c < 0x20).count() as u32;
        scan.controls = scan.controls.saturating_sub(trimmed_controls);
        buf.truncate(kept);
        if heuristics {
            strip_dangling_plus(&mut buf);
        }
        if self.cfg.truncation == Truncation::Drop {
            if !self.allowed(RepairKind::ClosedTruncatedString) {
                return self.fail_truncated_string();
            }
            return Ok(Str::Dropped);
        }
        if !self.allowed(RepairKind::ClosedTruncatedString) {
            return self.fail_truncated_string();
        }
        self.repair(
            RepairKind::ClosedTruncatedString,
            open_at,
            self.pos,
            "added '\"'",
        )?;
        self.finish_string(buf, scan)
    }

    /// Walks back from `i` over whitespace and `/* */` comments, not before `floor`.
    fn skip_back_ws_comments(&self, floor: usize, mut i: usize) -> usize {
        let b = self.b;
        loop {
            while i > floor && is_ws(b[i - 1]) {
                i -= 1;
            }
            if i >= floor + 4 && b[i - 1] == b'/' && b[i - 2] == b'*' {
                let lo = i.saturating_sub(LOOKAHEAD_LIMIT).max(floor);
                match b[lo..i - 2].windows(2).rposition(|w| w == b"/*") {
                    Some(k) => i = lo + k,
                    None => return i,
                }
            } else {
                return i;
            }
        }
    }

    fn fail_truncated_string(&self) -> Result<Str> {
        Err(Fail::Syntax {
            offset: self.pos,
            message: Cow::Borrowed(RepairKind::ClosedTruncatedString.defect()),
            truncated: true,
        })
    }

    /// If the string's raw text ends with closers (and whitespace) that fit the open frames,
    /// where that run starts.
    fn closer_run_start(&self, content_start: usize, end: usize) -> Option<usize> {
        let b = self.b;
        let mut k = end;
        while k > content_start && (is_ws(b[k - 1]) || matches!(b[k - 1], b'}' | b']')) {
            k -= 1;
        }
        let run = &b[k..end];
        let first_closer = run.iter().copied().find(|c| matches!(c, b'}' | b']'))?;
        let (want, opener) = if first_closer == b'}' {
            (Kind::Object, b'{')
        } else {
            (Kind::Array, b'[')
        };
        // A closer balanced by an opener inside the string (`"arr = [1, 2]` cut off) is text.
        let balanced = b[content_start..k].contains(&opener);
        (self.top_kind() == Some(want) && !balanced).then_some(k)
    }

    fn finish_string(&mut self, buf: String, scan: StringScan) -> Result<Str> {
        let nothing_to_log = scan.class.repair_kind().is_none()
            && scan.controls == 0
            && scan.bad_escapes == 0
            && scan.text_quotes == 0;
        if nothing_to_log {
            return Ok(Str::Done(buf));
        }
        // A key's repairs are logged with the key as the last path segment.
        if scan.is_key {
            self.top()?.key = Some(buf.clone());
        }
        let logged = self.log_string_repairs(&scan);
        if scan.is_key {
            self.top()?.key = None;
        }
        logged?;
        Ok(Str::Done(buf))
    }

    fn log_string_repairs(&mut self, scan: &StringScan) -> Result<()> {
        if let Some(kind) = scan.class.repair_kind() {
            let (at, len) = (scan.open_at, scan.open_len);
            self.repair(kind, at, at + len, "replaced by '\"'")?;
        }
        if scan.controls > 0 {
            let n = scan.controls;
            let detail = format!("escaped {n} raw control {}", plural(n, "character"));
            let at = scan.first_control;
            self.repair(RepairKind::ControlCharacter, at, at + 1, detail)?;
        }
        if scan.bad_escapes > 0 {
            let n = scan.bad_escapes;
            let what = if n == 1 { "backslash" } else { "backslashes" };
            let detail = format!("{n} {what} that start no valid escape kept as text");
            let at = scan.first_bad_escape;
            self.repair(RepairKind::InvalidEscape, at, at + 2, detail)?;
        }
        if scan.text_quotes > 0 {
            let n = scan.text_quotes;
            let detail = format!("{n} {} inside the string kept as text", plural(n, "quote"));
            self.repair(RepairKind::UnescapedQuote, scan.open_at, self.pos, detail)?;
        }
        Ok(())
    }

    /// Decodes the escape at `i` into `buf`. Returns the offset after it and whether it was
    /// invalid (and repaired); `None` for an escape cut off by the end of the region.
    fn escape(
        &mut self,
        i: usize,
        buf: &mut String,
        class: QuoteClass,
    ) -> Result<Option<(usize, bool)>> {
        let b = self.b;
        let end = self.end;
        if i + 1 >= end {
            self.check_truncated_escape(i)?;
            return Ok(None);
        }
        let e = b[i + 1];
        let simple = match e {
            b'"' => Some('"'),
            b'\\' => Some('\\'),
            b'/' => Some('/'),
            b'b' => Some('\u{8}'),
            b'f' => Some('\u{c}'),
            b'n' => Some('\n'),
            b'r' => Some('\r'),
            b't' => Some('\t'),
            _ => None,
        };
        if let Some(ch) = simple {
            buf.push(ch);
            return Ok(Some((i + 2, false)));
        }
        if e == b'u' {
            let hex = |at: usize| -> Option<u32> {
                let h = b.get(at..at + 4)?;
                if at + 4 > end {
                    return None;
                }
                let s = std::str::from_utf8(h).ok()?;
                if !s.bytes().all(|x| x.is_ascii_hexdigit()) {
                    return None;
                }
                u32::from_str_radix(s, 16).ok()
            };
            let Some(unit) = hex(i + 2) else {
                // Cut off (`"\u26` at the end) or not hex at all (`C:\users`).
                let available = &b[i + 2..end.min(i + 6)];
                if i + 6 > end && available.iter().all(u8::is_ascii_hexdigit) {
                    self.check_truncated_escape(i)?;
                    return Ok(None);
                }
                self.check_escape_repair(i)?;
                buf.push('\\');
                return Ok(Some((i + 1, true)));
            };
            if (0xD800..0xDC00).contains(&unit) {
                if b.get(i + 6) == Some(&b'\\') && b.get(i + 7) == Some(&b'u') {
                    if let Some(low) = hex(i + 8) {
                        if (0xDC00..0xE000).contains(&low) {
                            let cp = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00);
                            buf.push(char::from_u32(cp).unwrap_or('\u{FFFD}'));
                            return Ok(Some((i + 12, false)));
                        }
                    }
                }
                if i + 6 >= end {
                    // `"\ud83d` then the end: the pair was cut off.
                    self.check_truncated_escape(i)?;
                    return Ok(None);
                }
            }
            // A high surrogate without its low half, or a low one alone.
            if (0xD800..0xE000).contains(&unit) {
                self.repair(
                    RepairKind::InvalidUnicodeEscape,
                    i,
                    i + 6,
                    "lone surrogate became U+FFFD",
                )?;
                buf.push('\u{FFFD}');
                return Ok(Some((i + 6, false)));
            }
            buf.push(char::from_u32(unit).unwrap_or('\u{FFFD}'));
            return Ok(Some((i + 6, false)));
        }
        self.check_escape_repair(i)?;
        match e {
            // `\'` (JavaScript) and a backslash before a raw newline: the escaped character.
            b'\'' => {
                buf.push('\'');
                Ok(Some((i + 2, class != QuoteClass::Single)))
            }
            b'\n' => {
                buf.push('\n');
                Ok(Some((i + 2, true)))
            }
            // `C:\Users\dev`: a backslash that starts no escape is kept literally.
            _ => {
                buf.push('\\');
                Ok(Some((i + 1, true)))
            }
        }
    }

    fn check_escape_repair(&self, i: usize) -> Result<()> {
        if self.allowed(RepairKind::InvalidEscape) {
            Ok(())
        } else {
            self.fail(i, RepairKind::InvalidEscape.defect())
        }
    }

    fn check_truncated_escape(&self, i: usize) -> Result<()> {
        if self.allowed(RepairKind::ClosedTruncatedString) {
            Ok(())
        } else {
            Err(Fail::Syntax {
                offset: i,
                message: Cow::Borrowed(RepairKind::ClosedTruncatedString.defect()),
                truncated: true,
            })
        }
    }

    /// Decides whether the quote just before `after` closes the string value being scanned, by
    /// looking at what follows it. `comma_quote`: where a quote after a comma was kept as text
    /// earlier in this string.
    fn decide_close(&self, after: usize, comma_quote: Option<usize>) -> Decision {
        let Some((p, c)) = self.peek_from(after) else {
            return Decision::Close;
        };
        let top = self.top_kind();
        match c {
            b',' => match top {
                None | Some(Kind::Call) => Decision::Close,
                Some(Kind::Object) => match self.peek_from(p + 1) {
                    None => Decision::Close,
                    Some((_, b'}')) => Decision::Close,
                    Some((q, _)) if self.key_follows(q, true) => self.by_schema_key(q),
                    _ => Decision::Text,
                },
                Some(Kind::Array) => Decision::Close,
            },
            b':' => {
                // `"a, "b": …`: the string ended at the comma, unless the schema says `b` cannot
                // be a key there.
                match comma_quote {
                    Some(q) if top == Some(Kind::Object) => match self.by_schema_key(q) {
                        Decision::Text => Decision::Text,
                        _ => Decision::SplitAtComma,
                    },
                    _ => Decision::Text,
                }
            }
            b'}' | b']' => {
                let want = if c == b'}' { Kind::Object } else { Kind::Array };
                if top != Some(want) {
                    return Decision::Text;
                }
                if self.frames.len() == 1 {
                    return Decision::Close;
                }
                match self.peek_from(p + 1) {
                    None => Decision::Close,
                    Some((q, d)) => {
                        if matches!(d, b',' | b'}' | b']') || is_quote_at(self.b, q) {
                            Decision::Close
                        } else {
                            Decision::Text
                        }
                    }
                }
            }
            b')' if top == Some(Kind::Call) => Decision::Close,
            // `"a" + "b"` is a concatenation only if the next string ends at a delimiter:
            // `"a" + "b";` is source code inside a string.
            b'+' => match self.peek_from(p + 1) {
                Some((q, _)) if self.string_then_delimiter(q, b",}]+") => Decision::Close,
                _ => Decision::Text,
            },
            _ if is_quote_at(self.b, p) => match top {
                Some(Kind::Object) if self.key_follows(p, false) => self.by_schema_key(p),
                Some(Kind::Array) if self.string_then_delimiter(p, b",]") => Decision::Close,
                _ => Decision::Text,
            },
            b'0'..=b'9' | b'-' | b'{' | b'[' if top == Some(Kind::Array) => Decision::Close,
            _ if is_ident_byte(c) && top == Some(Kind::Object) && self.key_follows(p, false) => {
                Decision::Close
            }
            _ => Decision::Text,
        }
    }

    /// A key-like token follows a quote at `q`: with a schema, the quote closes the string if
    /// the schema can have that key; if the schema cannot, only if a clean member follows (the
    /// model added a property: coercion drops it), else the quote and "key" are text (source
    /// code inside the string). Without a schema, or one that allows any key, it closes.
    fn by_schema_key(&self, q: usize) -> Decision {
        let Some(schema) = self.cfg.schema else {
            return Decision::Close;
        };
        let (key, key_end) = match QuoteClass::opening_at(self.b, q) {
            Some((_, len)) => match self.quoted_end(q, Lines::One) {
                QuotedEnd::After { closer, end } => (&self.text[q + len..closer], end),
                _ => return Decision::Close,
            },
            None => {
                let end = self.bare_key_end(q, self.end);
                (&self.text[q..end], end)
            }
        };
        if schema.knows_key(key) != Some(false) {
            return Decision::Close;
        }
        // An unknown key: a member only if its value is cleanly written (`"note": "x",`).
        let Some((colon, b':')) = self.peek_from(key_end) else {
            return Decision::Text;
        };
        match self.peek_from(colon + 1) {
            None => Decision::Close,
            Some((v, _)) if is_quote_at(self.b, v) => match self.quoted_end(v, Lines::One) {
                QuotedEnd::After { end: e, .. } => match self.peek_from(e) {
                    None | Some((_, b',' | b'}')) => Decision::Close,
                    _ => Decision::Text,
                },
                QuotedEnd::RegionEnd => Decision::Close,
                QuotedEnd::NotFound => Decision::Text,
            },
            Some(_) => Decision::Close,
        }
    }

    /// At `q`: a key followed by `:` (quoted, or a bare identifier; with `after_comma`, also an
    /// identifier that lost its opening quote, `b":`).
    fn key_follows(&self, q: usize, after_comma: bool) -> bool {
        let b = self.b;
        let limit = (q + LOOKAHEAD_LIMIT).min(self.end);
        if is_quote_at(b, q) {
            return match self.quoted_end(q, Lines::One) {
                // `"key":`, or `"key" value` (its colon missing).
                QuotedEnd::After { end: k, .. } => match self.peek_from(k) {
                    None => true,
                    Some((v, d)) => {
                        d == b':' || matches!(d, b'{' | b'[' | b'0'..=b'9') || is_quote_at(b, v)
                    }
                },
                // The reply ends inside the key: it was a key being written.
                QuotedEnd::RegionEnd => true,
                QuotedEnd::NotFound => false,
            };
        }
        let mut k = self.bare_key_end(q, limit);
        if k >= self.end {
            return k > q;
        }
        if after_comma && k > q && k < limit && b[k] == b'"' {
            k += 1; // `b":` — a key that lost its opening quote
        }
        k > q && matches!(self.peek_from(k), Some((_, b':')))
    }

    /// Where a bare key starting at `q` ends, looking no further than `limit`. `step-2:`, `2.17:`:
    /// bare keys may hold dashes and dots.
    fn bare_key_end(&self, q: usize, limit: usize) -> usize {
        let b = self.b;
        let mut k = q;
        while k < limit && (is_ident_byte(b[k]) || matches!(b[k], b'-' | b'.')) {
            k += 1;
        }
        k
    }

    /// At `q`: a complete string followed by one of `delimiters` or the end.
    fn string_then_delimiter(&self, q: usize, delimiters: &[u8]) -> bool {
        match self.quoted_end(q, Lines::Any) {
            QuotedEnd::After { end: k, .. } => match self.peek_from(k) {
                None => true,
                Some((_, d)) => delimiters.contains(&d),
            },
            QuotedEnd::RegionEnd => true,
            QuotedEnd::NotFound => false,
        }
    }

    /// Lookahead over the quoted token opening at `q`: where it ends, looking at most
    /// [`LOOKAHEAD_LIMIT`] bytes. Escapes are skipped, except in an escaped string (`\"…\"`)
    /// where a backslash may be the closer.
    fn quoted_end(&self, q: usize, lines: Lines) -> QuotedEnd {
        let b = self.b;
        let Some((class, len)) = QuoteClass::opening_at(b, q) else {
            return QuotedEnd::NotFound;
        };
        let limit = (q + LOOKAHEAD_LIMIT).min(self.end);
        let mut k = q + len;
        while k < limit {
            if let Some(close) = class.closer_at(b, k) {
                return QuotedEnd::After {
                    closer: k,
                    end: k + close,
                };
            }
            match b[k] {
                b'\\' => k += 2,
                b'\n' if lines == Lines::One => return QuotedEnd::NotFound,
                _ => k += 1,
            }
        }
        if k >= self.end {
            QuotedEnd::RegionEnd
        } else {
            QuotedEnd::NotFound
        }
    }
}

/// The count of unclosed *code* brackets after `b[from..to]`, starting from `depth`. A bracket
/// is code when it follows an identifier (`print(`, `d[`) or precedes a quote (`{"`, `("`);
/// prose brackets (`see (note`, `:(`) and closers without an opener are ignored.
fn code_bracket_depth(mut depth: u32, b: &[u8], floor: usize, from: usize, to: usize) -> u32 {
    for k in from..to {
        match b[k] {
            b'{' | b'[' | b'(' => {
                let after_ident = k > floor && is_ident_byte(b[k - 1]);
                let before_quote = b.get(k + 1).is_some_and(|&c| c == b'"' || c == b'\'');
                if after_ident || before_quote {
                    depth += 1;
                }
            }
            b'}' | b']' | b')' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    depth
}

/// `quote` or `quotes`.
fn plural(n: u32, word: &str) -> String {
    if n == 1 {
        word.to_string()
    } else {
        format!("{word}s")
    }
}

/// `"hello +` then the end: the model was concatenating; a trailing `+` is not text.
fn strip_dangling_plus(buf: &mut String) {
    if buf.trim_end().ends_with('+') {
        let kept = buf.trim_end().trim_end_matches('+').trim_end().len();
        buf.truncate(kept);
    }
}

fn make_number(raw: &str) -> Value {
    match Number::from_str(raw) {
        Ok(n) => Value::Number(n),
        Err(_) => Value::String(raw.to_string()),
    }
}

/// First occurrence of `needle` in `b[from..to]`.
fn find(b: &[u8], from: usize, to: usize, needle: &[u8]) -> Option<usize> {
    if from >= to || to - from < needle.len() {
        return None;
    }
    b[from..to]
        .windows(needle.len())
        .position(|w| w == needle)
        .map(|i| from + i)
}
