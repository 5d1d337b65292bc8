//! The convention lane's rules: which forms outside JSON the strict reader may read in one pass
//! (`value::parse::Accept`), because the decision procedure would read them so too, and what each
//! logs. The fast lane (`lane.rs`) reads a stretch with them and replays the log.
//!
//! A form is accepted only where its plain reading is certain: its reading costs at most a
//! cosmetic repair ([`cost::TRAILING_COMMA`], [`cost::COMMENT`]) or nothing but its convention,
//! and every other reading of the spot costs at least the clear gap more (the rule the search
//! applies to a spot before it skips the beam, `search.rs`: `clear_winner`). The conditions
//! below are what makes that so, read off the cost table:
//!
//! | form | accepted when | why the plain reading is certain |
//! |---|---|---|
//! | comment | the trivia between two tokens prices at most [`cost::COMMENT`] ([`Lex::skip_trivia`]: one comment holding no JSON mark) and holds no odd space | the search itself breaks its clean path on more |
//! | bare key | `word:`, the word `[A-Za-z_][A-Za-z0-9_]*`, not a literal, its value on the same line | one reading (`BareKey`, cost 0); no prose reading (`member_on_line`) |
//! | `'…'`, `“…”` (`„…“`, `“…“`) or `‘…’` string | no control byte, no quote of its kind inside (a typographic string: no ASCII quote either), only JSON's escapes and `\'`; its text swallows no JSON mark ([`Lex::swallowed`] is 0; a key: no mark, or its colon follows) | closing costs 0; a text quote or a split costs at least [`cost::TEXT_QUOTE`] / [`cost::MISSING_END_QUOTE`] |
//! | `True` `False` `None`, `TRUE` `NULL` `undefined` `NaN` … ([`crate::spelling::LITERALS`]) | followed by a terminator | one reading (`Literal`, cost 0) |
//! | trailing comma | `,` then the closer (blanks or one comment between) | one reading, [`cost::TRAILING_COMMA`] |
//! | `=`, `=>`, `：` after a key | where the key's `:` is expected | one reading (`ColonLike`, cost 0 but its convention) |
//! | `，` after an item | no closer right after it | one reading (`Comma`, cost 0 but its convention) |
//!
//! Closers the layout disputes make the lane refuse the stretch (`lane.rs`: `layout_agrees`,
//! with the comments and quoted strings recorded here skipped), and what follows the stretch
//! must win clearly as for a valid one. Paths are kept as segments relative to the lane's value
//! and joined to the parser's when the log is replayed; past the depth where the parser would
//! abbreviate a path, the lane refuses.

use super::buffers::{Event, LaneBuffers, Open, Segment};
use super::{comments, push_index_segment, push_key_segment, PATH_DEPTH_LIMIT};
use crate::repair::cost;
use crate::repair::grammar::quote_style;
use crate::repair::lex::{member_starts, Lex, Trivia};
use crate::repair::RepairKind;
use crate::spelling::quotes::QuoteClass;
use crate::value::parse::{Accept, KeyForm, Quoted};
use crate::GuardComments;
use std::borrow::Cow;

/// The innermost container of a logged repair is the parser's own (a scalar read by the lane).
pub(super) const PARSER_CONTAINER: u32 = u32::MAX;

/// The forms the convention lane accepts, and what it logged while reading.
pub(super) struct Conventions<'a, 't> {
    lex: &'a Lex<'t>,
    guard: GuardComments,
    /// The parser's open containers.
    outer_depth: usize,
    pub next_id: u32,
    /// The log's entries need their paths.
    paths: bool,
    pub buf: LaneBuffers<'t>,
    /// The conventions used (see [`cost::STYLE`]).
    pub styles: u16,
    /// Values read (containers included).
    pub values: u32,
}

impl<'a, 't> Conventions<'a, 't> {
    pub(super) fn new(
        lex: &'a Lex<'t>,
        guard: GuardComments,
        outer_depth: usize,
        next_id: u32,
        paths: bool,
        mut buf: LaneBuffers<'t>,
    ) -> Self {
        buf.open.clear();
        buf.current.clear();
        buf.events.clear();
        buf.paths.clear();
        // Room for a stretch's paths at once (the buffer is kept for the next stretches).
        buf.paths.reserve(256);
        buf.opaque.clear();
        Conventions {
            lex,
            guard,
            outer_depth,
            next_id,
            paths,
            buf,
            styles: 0,
            values: 0,
        }
    }

    /// The parser would abbreviate the path of a repair here: the lane does not log it.
    fn too_deep(&self) -> bool {
        self.outer_depth + self.buf.open.len() > PATH_DEPTH_LIMIT
    }

    /// Appends the path of the first `n` open containers' current members, relative to the
    /// lane's value, to [`LaneBuffers::paths`]: its range there.
    fn path(&mut self, n: usize) -> (usize, usize) {
        let len = match self.buf.open.get(n) {
            Some(open) => open.base,
            None => {
                self.write_innermost();
                self.buf.current.len()
            }
        };
        let start = self.buf.paths.len();
        self.buf.paths.push_str(&self.buf.current[..len]);
        (start, self.buf.paths.len())
    }

    /// The innermost container's current member is `segment` (written when a path needs it).
    fn set_segment(&mut self, segment: Segment<'t>) {
        if !self.paths {
            return;
        }
        if let Some(open) = self.buf.open.last_mut() {
            open.segment = segment;
            open.written = false;
        }
    }

    /// Writes the innermost container's current segment into the current path.
    fn write_innermost(&mut self) {
        let LaneBuffers { open, current, .. } = &mut self.buf;
        let Some(open) = open.last_mut() else {
            return;
        };
        if open.written {
            return;
        }
        current.truncate(open.base);
        match &open.segment {
            Segment::None => {}
            Segment::Key(key) => push_key_segment(current, key),
            Segment::Index(n) => push_index_segment(current, *n),
        }
        open.written = true;
    }

    /// Logs a repair about the innermost container (`about_container`), or about its current
    /// member or item.
    fn log(
        &mut self,
        kind: RepairKind,
        span: (usize, usize),
        detail: &'static str,
        about_container: bool,
    ) -> bool {
        if self.too_deep() {
            return false;
        }
        let n = self.buf.open.len();
        let (upto, container) = match self.buf.open.last() {
            Some(open) if about_container => (n - 1, open.id),
            Some(open) => (n, open.id),
            None if about_container => return false,
            None => (0, PARSER_CONTAINER),
        };
        let path = if self.paths { self.path(upto) } else { (0, 0) };
        self.buf.events.push(Event {
            kind,
            start: span.0,
            end: span.1,
            detail,
            path,
            container,
            discard: None,
        });
        true
    }

    /// What the lane logged, and what the parser must know after it.
    pub(super) fn into_log(self) -> ConventionLog<'t> {
        ConventionLog {
            buf: self.buf,
            styles: self.styles,
            values: self.values,
            next_id: self.next_id,
        }
    }

    fn comment(&mut self, at: usize, body: (usize, usize), end: usize) -> bool {
        let (detail, counted) = comments::judge(self.guard, &self.lex.text[body.0..body.1]);
        if !self.log(RepairKind::Comment, (at, end), detail, true) {
            return false;
        }
        if counted {
            if let Some(event) = self.buf.events.last_mut() {
                event.discard = Some(body);
            }
        }
        self.buf.opaque.push((at, end));
        true
    }
}

impl<'t> Accept<'t> for Conventions<'_, 't> {
    const LAX: bool = true;

    fn trivia(&mut self, at: usize) -> Option<usize> {
        // What `Lex::skip_trivia` walks and prices, in one walk: blanks and at most what one
        // plain comment costs; an odd space is a repair of its own.
        let lex = self.lex;
        let mut spent = 0;
        let mut i = at;
        while !lex.at_end(i) {
            match lex.trivia_at(i) {
                Some(Trivia::Space { end }) => i = end,
                Some(Trivia::Comment {
                    body_start,
                    body_end,
                    end,
                }) => {
                    spent += lex.comment_cost(body_start, body_end, end);
                    if spent > cost::COMMENT || !self.comment(i, (body_start, body_end), end) {
                        return None;
                    }
                    i = end;
                }
                Some(Trivia::SpecialSpace { .. }) => return None,
                None => break,
            }
        }
        (i > at).then_some(i)
    }

    fn bare_key(&mut self, at: usize) -> Option<usize> {
        let lex = self.lex;
        let b = &lex.b[..lex.end];
        if !b
            .get(at)
            .is_some_and(|&c| c.is_ascii_alphabetic() || c == b'_')
        {
            return None;
        }
        let mut end = at + 1;
        while b
            .get(end)
            .is_some_and(|&c| c.is_ascii_alphanumeric() || c == b'_')
        {
            end += 1;
        }
        let mut colon = end;
        while matches!(b.get(colon), Some(b' ' | b'\t')) {
            colon += 1;
        }
        if b.get(colon) != Some(&b':') || crate::spelling::is_literal(&lex.text[at..end]) {
            return None;
        }
        // Its value on the same line (no prose reading of the word), and the grammar's own
        // extent of the key.
        let mut v = colon + 1;
        while matches!(b.get(v), Some(b' ' | b'\t' | b'>')) {
            v += 1;
        }
        let same_line = b.get(v).is_some_and(|&c| c != b'\n' && c != b'\r');
        (same_line && member_starts(lex.b, at) && lex.bare_key(at) == (end, colon)).then_some(end)
    }

    fn quoted(&mut self, at: usize, key: bool) -> Option<Quoted> {
        let lex = self.lex;
        let b = &lex.b[..lex.end];
        let (class, open_len) = QuoteClass::opening_at(b, at)?;
        if !matches!(
            class,
            QuoteClass::Single | QuoteClass::SmartDouble | QuoteClass::SmartSingle
        ) {
            return None;
        }
        let content = at + open_len;
        let mut escapes = false;
        let mut i = content;
        let (close, close_len) = loop {
            let &c = b.get(i)?;
            match c {
                b'\'' if class == QuoteClass::Single => break (i, 1),
                b'\\' => {
                    // JSON's escapes and `\'`: decoded as the parser decodes them, none logged.
                    if !matches!(
                        b.get(i + 1),
                        Some(b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't' | b'\'')
                    ) {
                        return None;
                    }
                    escapes = true;
                    i += 2;
                }
                0..=0x1f => return None,
                // A `"` would close a typographic string too; in `‘…’`, an ASCII quote of
                // either kind is left to the search.
                b'"' if class != QuoteClass::Single => return None,
                b'\'' if class == QuoteClass::SmartSingle => return None,
                // `”` or `“` closes it (`„Name“`, as German writes it, or `“Name“`): the
                // grammar's own quote of the class, which closes the string at no cost but
                // what its text swallowed, checked below.
                0xE2 if class != QuoteClass::Single && class.closer_at(b, i).is_some() => {
                    break (i, 3);
                }
                _ => i += 1,
            }
        };
        // The close costs nothing only when the text swallowed no JSON mark (a key: none, or
        // its colon follows).
        let end = close + close_len;
        let free = if key {
            lex.key_marks(content, close) == 0 || lex.next_is_colon(end, lex.end)
        } else {
            lex.swallowed(class, content, close) == 0
        };
        if !free {
            return None;
        }
        if !key
            && !self.log(
                crate::repair::grammar::quote_repair(class)?,
                (at, content),
                "replaced by '\"'",
                false,
            )
        {
            return None;
        }
        self.styles |= quote_style(class);
        self.buf.opaque.push((at, end));
        Some(Quoted {
            content: content..close,
            end,
            escapes,
        })
    }

    fn foreign_literal(&mut self, at: usize) -> Option<(usize, Option<bool>)> {
        use crate::spelling::{Literal, LITERALS};
        let rest = &self.lex.b[at..self.lex.end];
        let spelling = LITERALS
            .iter()
            .find(|s| s.in_lane && rest.starts_with(s.word.as_bytes()))?;
        let value = match spelling.literal {
            Literal::True => Some(true),
            Literal::False => Some(false),
            Literal::Null => None,
        };
        let end = at + spelling.word.len();
        let kind = crate::repair::grammar::repair_of(spelling.dialect)?;
        if !self.lex.is_terminator(end) || !self.log(kind, (at, end), spelling.read_as, false) {
            return None;
        }
        self.styles |= crate::repair::grammar::style::FOREIGN_LITERALS;
        Some((end, value))
    }

    fn colon_like(&mut self, at: usize) -> Option<usize> {
        let colon = colon_like_at(&self.lex.b[at..self.lex.end])?;
        if !self.log(colon.kind, (at, at + colon.len), colon.detail, false) {
            return None;
        }
        self.styles |= colon.style;
        Some(at + colon.len)
    }

    fn comma_like(&mut self, at: usize, array: bool) -> Option<usize> {
        if !self.lex.b[at..self.lex.end].starts_with(&crate::spelling::WIDE_COMMA) {
            return None;
        }
        // Logged where the parser logs it: in an array, at the next item; in an object, at the
        // object (its member is complete).
        if array {
            let next = self.buf.open.last().map_or(0, |open| open.items);
            self.set_segment(Segment::Index(next));
        }
        let span = (at, at + crate::spelling::WIDE_COMMA.len());
        if !self.log(
            RepairKind::FullwidthPunctuation,
            span,
            "read as ','",
            !array,
        ) {
            return None;
        }
        self.styles |= crate::repair::grammar::style::FULLWIDTH;
        Some(span.1)
    }

    fn trailing_comma(&mut self, comma: usize) -> bool {
        self.log(
            RepairKind::TrailingComma,
            (comma, comma + 1),
            "removed",
            true,
        )
    }

    fn value(&mut self) {
        self.values = self.values.saturating_add(1);
    }

    fn opened(&mut self) {
        // Its path starts with its parent's current member.
        if self.paths {
            self.write_innermost();
        }
        self.buf.open.push(Open {
            id: self.next_id,
            items: 0,
            base: self.buf.current.len(),
            segment: Segment::None,
            written: true,
        });
        self.next_id = self.next_id.wrapping_add(1);
    }

    fn closed(&mut self) {
        if let Some(open) = self.buf.open.pop() {
            self.buf.current.truncate(open.base);
        }
    }

    fn item(&mut self) {
        let Some(open) = self.buf.open.last_mut() else {
            return;
        };
        open.items += 1;
        let index = open.items - 1;
        self.set_segment(Segment::Index(index));
    }

    fn key(&mut self, key: &Cow<'t, str>, form: KeyForm, at: usize, end: usize) -> bool {
        self.set_segment(Segment::Key(key.clone()));
        match form {
            KeyForm::Json => true,
            KeyForm::Bare => {
                self.styles |= crate::repair::grammar::style::BARE_KEYS;
                self.log(RepairKind::UnquotedKey, (at, end), "quoted", false)
            }
            KeyForm::Quoted { len } => {
                let kind = if len == 1 {
                    RepairKind::SingleQuotes
                } else {
                    RepairKind::SmartQuotes
                };
                self.log(kind, (at, at + len), "replaced by '\"'", false)
            }
        }
    }
}

/// Another language's `:` (`=`, `=>`, a full-width `：`) where an object's colon is expected,
/// as the grammar reads it there (its one reading): its length, repair and convention.
#[derive(Clone, Copy)]
pub(super) struct ColonLike {
    pub len: usize,
    pub kind: RepairKind,
    pub detail: &'static str,
    pub style: u16,
}

/// The colon-like that `rest` starts with, if any.
pub(super) fn colon_like_at(rest: &[u8]) -> Option<ColonLike> {
    use crate::repair::grammar::style;
    let (len, kind, detail, style) = if rest.starts_with(&crate::spelling::WIDE_COLON) {
        (
            3,
            RepairKind::FullwidthPunctuation,
            "'：' read as ':'",
            style::FULLWIDTH,
        )
    } else if rest.starts_with(b"=>") {
        (
            2,
            RepairKind::MissingColon,
            "'=>' read as ':'",
            style::EQUALS_COLON,
        )
    } else if rest.starts_with(b"=") {
        (
            1,
            RepairKind::MissingColon,
            "'=' read as ':'",
            style::EQUALS_COLON,
        )
    } else {
        return None;
    };
    Some(ColonLike {
        len,
        kind,
        detail,
        style,
    })
}

/// What the convention lane logged, for the parser to replay (`Parser::replay`).
pub(super) struct ConventionLog<'t> {
    pub buf: LaneBuffers<'t>,
    pub styles: u16,
    pub values: u32,
    pub next_id: u32,
}
