//! The tolerant grammar: at each spot, the readings the text allows, what each costs (from
//! `cost.rs`) and where each leads. One function, [`successors`], answers this for the parser
//! (which applies the chosen reading) and for the search (which follows every reading a little
//! way to choose), so the two can never read the text differently.
//!
//! A reading never looks at values: only at the mode, the kinds of the open containers and the
//! text. That is what lets the search follow many readings at once cheaply.

use super::cost::{self, Cost};
use super::lex::{is_ident_byte, is_ws, Kind, Lex, Stop, Token};
use super::quotes::QuoteClass;
use super::RepairKind;
use crate::{RepairLevel, Schema};

/// What the parser expects next.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum Mode {
    /// A value (top level, array item, or member value). `after_comma`: a `,` was just read.
    Value { after_comma: bool },
    /// An object key or `}`.
    Key { after_comma: bool },
    /// The `:` after a key.
    Colon,
    /// A value just ended: `,`, a closer, or the end. `after_string`: that value was a string.
    Next { after_string: bool },
    /// Inside a string opened at `open` (the content start). `odd`: an odd number of quotes
    /// have been kept as text so far (the next one closes a quoted span and is not charged).
    Str {
        class: QuoteClass,
        key: bool,
        open: usize,
        odd: bool,
    },
    /// The top-level value is complete.
    Done,
    /// The top-level value is complete and was a scalar: the reply is that scalar only if
    /// nothing but noise follows.
    ScalarDone,
}

/// What a reading does (the parser's instruction).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum Reading {
    /// `{` or `[` opens a container.
    Open,
    /// A quote opens a string (a value, or a key in mode `Key`).
    OpenString,
    /// The quote opens nothing: it is dropped.
    StrayQuote,
    /// A number (normalised if JSON does not allow it as written).
    Number,
    /// A number written with thousands separators (`1,299.99`): the separators dropped.
    GroupedNumber,
    /// `(` of a Python tuple: a list.
    OpenTuple,
    /// `=` (or `=>`) where `:` belongs.
    ColonLike,
    /// `true`, `false`, `null`, or a literal from Python or JavaScript.
    Literal,
    /// A bare word (or text) used as a string value.
    UnquotedValue,
    /// `name(` of a function-call wrapper.
    FunctionWrapper,
    /// A key without quotes.
    BareKey,
    /// `:` after a key.
    Colon,
    /// `,` between members or items.
    Comma,
    /// The closer of the innermost container.
    Close,
    /// `)` closing a function-call wrapper.
    CloseCall,
    /// A closer of another kind closes the innermost container.
    Mismatched,
    /// The innermost container lacked its closer: close it, and read the token again.
    MissingCloser,
    /// A closer with nothing to close: dropped.
    StrayCloser,
    /// `{` where a key is expected, in an object that is an array item: the object lacked `}`.
    CloseObjectBeforeItem,
    /// `:` after a string item of an array inside an object: the array lacked `]`, and the
    /// string is the next member's key.
    CloseArrayBeforeMember,
    /// `{{`: an opener too many (its closer is owed).
    ExtraOpener,
    /// A `,` (or a second `:`) too many.
    ExtraPunctuation,
    /// A key with no value: null.
    MissingValue,
    /// A closer right after `[` or `,` in an array: no item.
    EmptySlot,
    /// A missing `,`: read the token again as the next member or item.
    MissingComma,
    /// A missing `:`: read the token again as the value.
    MissingColon,
    /// `"a" + "b"`.
    Concatenate,
    /// `...`.
    Ellipsis,
    /// A token that fits nowhere: skipped.
    Garbage,
    /// The JSON ends here: close what is open; the rest is prose.
    EndHere,
    /// What came so far was an abandoned draft: start again at `pos`.
    Restart,
    /// The end of the region: close what is open.
    EndOfInput,
    /// A top-level value ended: nothing follows it but what the reply says after it.
    EndOfValue,
    // --- inside a string ---
    /// The quote closes the string.
    CloseString,
    /// A typographic quote closes an ASCII-opened string (or the reverse).
    MixedClose,
    /// The quote is text.
    TextQuote,
    /// The string lost its closing quote: it ended at `pos` (a delimiter before this quote).
    SplitString,
    /// The region ended inside the string.
    CutString,
    /// The region ended inside the string, just after a run of closers: the string lost its
    /// closing quote before them (`{"time": "12:20}`).
    SplitBeforeClosers,
}

/// Conventions other than JSON's, charged once per reading (see [`cost::STYLE`]).
pub(crate) mod style {
    pub(crate) const SINGLE_QUOTES: u8 = 1;
    pub(crate) const SMART_QUOTES: u8 = 2;
    pub(crate) const ESCAPED_QUOTES: u8 = 4;
    pub(crate) const TRIPLE_QUOTES: u8 = 8;
    pub(crate) const BARE_KEYS: u8 = 16;
    pub(crate) const FOREIGN_LITERALS: u8 = 32;
}

fn quote_style(class: QuoteClass) -> u8 {
    match class {
        QuoteClass::Double => 0,
        QuoteClass::Single | QuoteClass::Backtick | QuoteClass::Acute => style::SINGLE_QUOTES,
        QuoteClass::SmartDouble | QuoteClass::SmartSingle => style::SMART_QUOTES,
        QuoteClass::Escaped => style::ESCAPED_QUOTES,
        QuoteClass::Triple => style::TRIPLE_QUOTES,
    }
}

/// One reading of a spot.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Succ {
    pub reading: Reading,
    /// The repair it is (None: plain JSON).
    pub kind: Option<RepairKind>,
    /// What it costs, besides its convention.
    pub cost: Cost,
    /// The convention it uses (a [`style`] bit, 0 for none), charged once per reading.
    pub style: u8,
    /// Where reading goes on.
    pub pos: usize,
    pub mode: Mode,
    /// Containers closed, then the container opened.
    pub pops: u16,
    pub push: Option<Kind>,
}

/// The readings of one spot, in the order they are listed (ties go to the first). A buffer the
/// caller keeps and the grammar refills, so that no spot allocates.
#[derive(Debug, Clone, Default)]
pub(crate) struct Succs {
    items: Vec<Succ>,
    /// The first reading the level does not allow (for the error when none is left).
    pub(crate) first_refused: Option<Succ>,
    /// Readings other than plain JSON and the completion of a cut are refused.
    only_truncation: bool,
}

impl Succs {
    pub(crate) fn new() -> Self {
        Succs {
            items: Vec::with_capacity(8),
            first_refused: None,
            only_truncation: false,
        }
    }

    fn clear(&mut self, ctx: &Ctx<'_>) {
        self.items.clear();
        self.first_refused = None;
        self.only_truncation = ctx.only_truncation;
    }

    fn add(&mut self, level: RepairLevel, s: Succ) {
        // Where a string cut at the end of the reply ended (before the closers that end it)
        // belongs with the completion of the cut.
        let completes_cut = |kind: RepairKind| {
            kind.is_truncation() || s.reading == Reading::SplitBeforeClosers
        };
        if let Some(kind) = s.kind {
            if level < kind.min_level() || (self.only_truncation && !completes_cut(kind)) {
                self.first_refused.get_or_insert(s);
                return;
            }
        }
        self.items.push(s);
    }

    pub(crate) fn len(&self) -> usize {
        self.items.len()
    }

    pub(crate) fn get(&self, i: usize) -> Succ {
        self.items[i]
    }

    pub(crate) fn iter(&self) -> impl Iterator<Item = Succ> + '_ {
        self.items.iter().copied()
    }
}

/// The open containers, as the grammar needs to see them.
pub(crate) trait Stack {
    /// The innermost open container.
    fn top(&self) -> Option<Kind>;
    /// The container around the innermost one.
    fn below(&self) -> Option<Kind>;
    /// How many containers are open.
    fn depth(&self) -> usize;
    /// A container of `kind` is open somewhere below the innermost one.
    fn open_below(&self, kind: Kind) -> bool;
}

/// What the grammar needs besides the text.
#[derive(Clone, Copy)]
pub(crate) struct Ctx<'t> {
    pub lex: Lex<'t>,
    /// Where the value being parsed starts (a restart abandons what lies since).
    pub doc_start: usize,
    /// Only readings that are plain JSON or complete a cut-off reply.
    pub only_truncation: bool,
    pub level: RepairLevel,
    pub schema: Option<&'t Schema>,
}

fn succ(reading: Reading, kind: Option<RepairKind>, cost: Cost, pos: usize, mode: Mode) -> Succ {
    Succ {
        reading,
        kind,
        cost,
        style: 0,
        pos,
        mode,
        pops: 0,
        push: None,
    }
}

impl Succ {
    fn styled(mut self, style: u8) -> Self {
        self.style = style;
        self
    }
    fn pop(mut self, n: u16) -> Self {
        self.pops = n;
        self
    }
    fn push(mut self, kind: Kind) -> Self {
        self.push = Some(kind);
        self
    }
}

/// The mode after a container opens.
fn inside(kind: Kind) -> Mode {
    match kind {
        Kind::Object => Mode::Key { after_comma: false },
        Kind::Array | Kind::Call | Kind::Tuple => Mode::Value { after_comma: false },
    }
}

/// The mode after a scalar value (`ScalarDone` when it was the top-level value).
pub(crate) fn after_value(depth: usize, after_string: bool) -> Mode {
    if depth == 0 {
        Mode::ScalarDone
    } else {
        Mode::Next { after_string }
    }
}

/// The mode after the innermost container closed (`Done` when it was the last).
pub(crate) fn after_close(depth_after: usize) -> Mode {
    if depth_after == 0 {
        Mode::Done
    } else {
        Mode::Next {
            after_string: false,
        }
    }
}

fn literal_kind(word: &str) -> Option<Option<RepairKind>> {
    match word {
        "true" | "false" | "null" => Some(None),
        "True" | "False" | "None" | "TRUE" | "FALSE" | "NULL" | "Null" => {
            Some(Some(RepairKind::PythonLiteral))
        }
        "undefined" | "NaN" | "Infinity" => Some(Some(RepairKind::JavascriptLiteral)),
        _ => None,
    }
}

/// A bare word here is cut off by the end and starts a literal (`tru`).
pub(crate) fn partial_literal(word: &str) -> Option<&'static str> {
    ["true", "false", "null", "True", "False", "None"]
        .into_iter()
        .find(|lit| lit.starts_with(word) && !word.is_empty())
}

impl<'t> Ctx<'t> {
    fn b(&self) -> &'t [u8] {
        self.lex.b
    }

    /// The readings of the token at `pos` (after trivia) in `mode`.
    pub(crate) fn successors(&self, stack: &dyn Stack, mode: Mode, pos: usize, out: &mut Succs) {
        out.clear(self);
        let tok = self.lex.token_at(pos);
        let level = self.level;
        let top = stack.top();
        let depth = stack.depth() as u16;
        if tok == Token::End {
            out.add(level, succ(Reading::EndOfInput, None, 0, pos, Mode::Done));
            return;
        }
        match mode {
            Mode::Value { after_comma } => self.value(out, stack, tok, pos, after_comma),
            Mode::Key { after_comma } => self.key(out, stack, tok, pos, after_comma),
            Mode::Colon => self.colon(out, tok, pos),
            Mode::Next { after_string } => self.next(out, stack, tok, pos, after_string),
            Mode::Str { .. } | Mode::Done | Mode::ScalarDone => {}
        }
        // Prose where JSON was expected: the JSON may end here, or restart further on.
        let prose = match tok {
            Token::Word { end } => literal_kind(&self.lex.text[pos..end]).is_none(),
            Token::Other { .. } | Token::Plus | Token::LParen | Token::RParen => true,
            _ => false,
        };
        if prose && !matches!(mode, Mode::Colon) && top != Some(Kind::Call) {
            self.prose_readings(out, pos, depth);
        }
        // A key with neither its colon nor a value (`{"a",`, `{:2}`): no reading is sound.
        let keyless = matches!(mode, Mode::Colon)
            || (matches!(mode, Mode::Key { .. }) && tok == Token::Colon);
        if out.len() == 0 && !keyless {
            // Whatever else fails, a token can be skipped.
            let end = match tok {
                Token::Word { end } | Token::Number { end } | Token::Ellipsis { end } => end,
                Token::Other { len } => pos + len,
                Token::Quote(_, len) => pos + len,
                _ => pos + 1,
            };
            out.add(
                level,
                succ(
                    Reading::Garbage,
                    Some(RepairKind::DroppedGarbage),
                    cost::GARBAGE,
                    end,
                    mode,
                ),
            );
        }
    }

    /// Prose where JSON was expected: the JSON may end here, its containers unclosed (prose
    /// after an unclosed reply starts after a blank line; one line break is more JSON), or what
    /// came so far was a draft and the answer starts at the next value that looks like JSON.
    fn prose_readings(&self, out: &mut Succs, pos: usize, depth: u16) {
        let b = self.b();
        let mut k = pos;
        let mut newlines = 0;
        while k > 0 && is_ws(b[k - 1]) {
            newlines += usize::from(b[k - 1] == b'\n');
            k -= 1;
        }
        if newlines >= 2 {
            let lost = self.lex.lost_structure(pos, (pos + cost::WINDOW).min(self.lex.end));
            let close = cost::CLOSE_AT_END * Cost::from(depth);
            out.add(
                self.level,
                succ(
                    Reading::EndHere,
                    Some(RepairKind::MissingCloser),
                    cost::END_HERE + close + lost,
                    pos,
                    Mode::Done,
                )
                .pop(depth),
            );
        }
        if let Some(at) = self.restart_point(pos) {
            // What lies between here and the new value is thrown away: it should be prose
            // ("-- wait. Final:"), and pays for whatever looks like JSON in it.
            let skipped = self.lex.lost_structure(pos, at);
            let base = if self.restates(at) {
                cost::RESTATED_RESTART
            } else {
                cost::RESTART
            };
            out.add(
                self.level,
                succ(
                    Reading::Restart,
                    Some(RepairKind::AbandonedDraft),
                    base + skipped,
                    at,
                    Mode::Value { after_comma: false },
                )
                .pop(depth),
            );
        }
    }

    /// The value at `at` begins as the document being parsed did: its first non-blank bytes
    /// (at least [`RESTATED_BYTES`] of them) are the draft's.
    fn restates(&self, at: usize) -> bool {
        let b = self.b();
        let draft = b[self.doc_start..at]
            .iter()
            .copied()
            .filter(|c| !is_ws(*c));
        let again = b[at..self.lex.end].iter().copied().filter(|c| !is_ws(*c));
        draft
            .zip(again)
            .take(RESTATED_BYTES)
            .take_while(|(x, y)| x == y)
            .count()
            >= RESTATED_BYTES
    }

    /// Where a new value that looks like JSON starts, within the window after `pos`.
    fn restart_point(&self, pos: usize) -> Option<usize> {
        let b = self.b();
        let limit = (pos + cost::WINDOW).min(self.lex.end);
        let mut i = pos + 1;
        while i < limit {
            i += memchr::memchr2(b'{', b'[', &b[i..limit])?;
            if crate::locate::looks_like_json(b, i, self.lex.end) {
                return Some(i);
            }
            i += 1;
        }
        None
    }

    fn string_open(&self, out: &mut Succs, class: QuoteClass, len: usize, pos: usize, key: bool) {
        let mode = Mode::Str {
            class,
            key,
            open: pos + len,
            odd: false,
        };
        out.add(
            self.level,
            succ(Reading::OpenString, class.repair_kind(), 0, pos + len, mode)
                .styled(quote_style(class)),
        );
    }

    /// A quote that opens nothing (followed by a delimiter, a space or the end, as in the
    /// stutter `",","city"`) may be stray.
    fn stray_quote(&self, out: &mut Succs, pos: usize, len: usize, mode: Mode) {
        let opens_nothing = self.b().get(pos + len).is_none_or(|&c| {
            is_ws(c) || matches!(c, b',' | b':' | b'}' | b']') || self.lex.at_end(pos + len)
        });
        if opens_nothing {
            out.add(
                self.level,
                succ(
                    Reading::StrayQuote,
                    Some(RepairKind::DroppedGarbage),
                    cost::STRAY_QUOTE,
                    pos + len,
                    mode,
                ),
            );
        }
    }

    fn value(&self, out: &mut Succs, stack: &dyn Stack, tok: Token, pos: usize, after_comma: bool) {
        let level = self.level;
        let top = stack.top();
        let b = self.b();
        let next = after_value(stack.depth(), false);
        match tok {
            Token::Open(kind) => out.add(
                level,
                succ(Reading::Open, None, 0, pos + 1, inside(kind)).push(kind),
            ),
            Token::Quote(class, len) => {
                self.string_open(out, class, len, pos, false);
                self.stray_quote(out, pos, len, Mode::Value { after_comma });
            }
            Token::Number { end } => {
                let shape = self.lex.number_shape(pos);
                let lone = shape.no_digits() && !self.lex.at_end(end) && !self.delimiter_follows(end);
                if lone {
                    // `- item`: text, not a number.
                    self.unquoted_value(out, stack, pos);
                } else {
                    let (kind, cost) = if shape.is_valid(b) {
                        (None, 0)
                    } else if shape.leading_zero(b) {
                        (Some(RepairKind::NumberAsString), cost::ODD_NUMBER)
                    } else if self.lex.at_end(end) {
                        (Some(RepairKind::CompletedTruncatedValue), cost::CUT_TOKEN)
                    } else {
                        (Some(RepairKind::InvalidNumber), cost::ODD_NUMBER)
                    };
                    out.add(level, succ(Reading::Number, kind, cost, end, next));
                    // `1,299.99`: where a comma cannot separate items (after a key), the
                    // reading that keeps the number whole is the one that survives.
                    if let Some(grouped) = self.lex.grouped_number_end(pos) {
                        out.add(
                            level,
                            succ(
                                Reading::GroupedNumber,
                                Some(RepairKind::InvalidNumber),
                                cost::GROUPED_NUMBER,
                                grouped,
                                next,
                            ),
                        );
                    }
                }
            }
            Token::Word { end } => {
                let word = &self.lex.text[pos..end];
                if let (Some(kind), true) = (literal_kind(word), self.lex.is_terminator(end)) {
                    let style = if kind.is_some() { style::FOREIGN_LITERALS } else { 0 };
                    out.add(level, succ(Reading::Literal, kind, 0, end, next).styled(style));
                    return;
                }
                if self.lex.at_end(end) {
                    if partial_literal(word).is_some() {
                        out.add(
                            level,
                            succ(
                                Reading::Literal,
                                Some(RepairKind::CompletedTruncatedValue),
                                cost::CUT_TOKEN,
                                end,
                                next,
                            ),
                        );
                        return;
                    }
                }
                if b.get(end) == Some(&b'(') && b[pos].is_ascii_alphabetic() {
                    out.add(
                        level,
                        succ(
                            Reading::FunctionWrapper,
                            Some(RepairKind::FunctionWrapper),
                            cost::FUNCTION_WRAPPER,
                            end + 1,
                            Mode::Value { after_comma: false },
                        )
                        .push(Kind::Call),
                    );
                    return;
                }
                self.unquoted_value(out, stack, pos);
            }
            Token::Comma => match top {
                Some(Kind::Array | Kind::Tuple) => out.add(
                    level,
                    succ(
                        Reading::ExtraPunctuation,
                        Some(RepairKind::ExtraComma),
                        cost::EXTRA_PUNCTUATION,
                        pos + 1,
                        Mode::Value { after_comma: true },
                    ),
                ),
                Some(Kind::Object) => out.add(
                    level,
                    succ(
                        Reading::MissingValue,
                        Some(RepairKind::MissingValue),
                        cost::MISSING_VALUE,
                        pos,
                        next,
                    ),
                ),
                _ => {}
            },
            Token::Close(_) => match top {
                Some(Kind::Object) => out.add(
                    level,
                    succ(
                        Reading::MissingValue,
                        Some(RepairKind::MissingValue),
                        cost::MISSING_VALUE,
                        pos,
                        next,
                    ),
                ),
                Some(Kind::Array) => {
                    let (kind, cost) = if after_comma {
                        (Some(RepairKind::TrailingComma), cost::TRAILING_COMMA)
                    } else {
                        (None, 0)
                    };
                    out.add(level, succ(Reading::EmptySlot, kind, cost, pos, next));
                }
                Some(Kind::Call) => out.add(level, succ(Reading::EmptySlot, None, 0, pos, next)),
                Some(Kind::Tuple) => {}
                None => {}
            },
            Token::RParen if matches!(top, Some(Kind::Call | Kind::Tuple)) => {
                out.add(level, succ(Reading::EmptySlot, None, 0, pos, next))
            }
            Token::LParen => out.add(
                level,
                succ(
                    Reading::OpenTuple,
                    Some(RepairKind::PythonLiteral),
                    0,
                    pos + 1,
                    Mode::Value { after_comma: false },
                )
                .push(Kind::Tuple)
                .styled(style::FOREIGN_LITERALS),
            ),
            Token::Colon if top == Some(Kind::Object) => out.add(
                level,
                succ(
                    Reading::ExtraPunctuation,
                    Some(RepairKind::DroppedGarbage),
                    cost::EXTRA_PUNCTUATION,
                    pos + 1,
                    Mode::Value { after_comma },
                ),
            ),
            Token::Ellipsis { end } => out.add(
                level,
                succ(
                    Reading::Ellipsis,
                    Some(RepairKind::Ellipsis),
                    cost::ELLIPSIS,
                    end,
                    Mode::Value { after_comma },
                ),
            ),
            Token::Other { len } => {
                if b[pos] == b'-' && self.lex.text[pos..self.lex.end].starts_with("-Infinity") {
                    let end = pos + 9;
                    if self.lex.is_terminator(end) {
                        out.add(
                            level,
                            succ(
                                Reading::Literal,
                                Some(RepairKind::JavascriptLiteral),
                                0,
                                end,
                                next,
                            )
                            .styled(style::FOREIGN_LITERALS),
                        );
                        return;
                    }
                }
                if starts_text(b[pos]) {
                    self.unquoted_value(out, stack, pos);
                }
                self.garbage(out, pos, len, Mode::Value { after_comma });
            }
            _ => self.garbage(out, pos, 1, Mode::Value { after_comma }),
        }
    }

    /// Some delimiter (or the end) follows `i`, after whitespace.
    fn delimiter_follows(&self, i: usize) -> bool {
        let (j, _) = self.lex.skip_trivia(i);
        self.lex.at_end(j) || matches!(self.b()[j], b',' | b']' | b'}')
    }

    fn unquoted_value(&self, out: &mut Succs, stack: &dyn Stack, pos: usize) {
        let lex = &self.lex;
        let b = self.b();
        let raw_end = lex.unquoted_value_end(pos, stack.top() == Some(Kind::Call));
        let mut end = raw_end;
        while end > pos && is_ws(b[end - 1]) {
            end -= 1;
        }
        if end == pos {
            return;
        }
        // `done",`: the value lost only its opening quote.
        let mut after = raw_end;
        if raw_end < lex.end && b[raw_end] == b'"' && raw_end == end {
            let (j, _) = lex.skip_trivia(raw_end + 1);
            if lex.at_end(j) || matches!(b[j], b',' | b'}' | b']' | b':') {
                after = raw_end + 1;
            }
        }
        let _ = after;
        out.add(
            self.level,
            succ(
                Reading::UnquotedValue,
                Some(RepairKind::UnquotedString),
                cost::UNQUOTED_VALUE,
                after.max(end),
                after_value(stack.depth(), false),
            ),
        );
    }

    fn garbage(&self, out: &mut Succs, pos: usize, len: usize, mode: Mode) {
        out.add(
            self.level,
            succ(
                Reading::Garbage,
                Some(RepairKind::DroppedGarbage),
                cost::GARBAGE,
                pos + len.max(1),
                mode,
            ),
        );
    }

    /// The readings of a closer of `kind` at `pos` when the innermost container is another
    /// kind (or a call): used as the right closer, a closer missing before it, or a stray.
    fn wrong_closer(&self, out: &mut Succs, stack: &dyn Stack, kind: Kind, pos: usize, mode: Mode) {
        let level = self.level;
        let depth = stack.depth();
        if stack.top() == Some(Kind::Call) {
            // `f(x` then a closer: the call lacked its `)`.
            out.add(
                level,
                succ(Reading::MissingCloser, None, 0, pos, after_close(depth - 1)).pop(1),
            );
            return;
        }
        out.add(
            level,
            succ(
                Reading::Mismatched,
                Some(RepairKind::MismatchedCloser),
                cost::MISMATCHED_CLOSER,
                pos + 1,
                after_close(depth - 1),
            )
            .pop(1),
        );
        if stack.open_below(kind) {
            out.add(
                level,
                succ(
                    Reading::MissingCloser,
                    Some(RepairKind::MissingCloser),
                    cost::MISSING_CLOSER,
                    pos,
                    after_close(depth - 1),
                )
                .pop(1),
            );
        }
        out.add(
            level,
            succ(
                Reading::StrayCloser,
                Some(RepairKind::ExtraCloser),
                cost::STRAY_CLOSER,
                pos + 1,
                mode,
            ),
        );
    }

    fn key(&self, out: &mut Succs, stack: &dyn Stack, tok: Token, pos: usize, after_comma: bool) {
        let level = self.level;
        let b = self.b();
        let depth = stack.depth();
        let here = Mode::Key { after_comma };
        match tok {
            Token::Quote(class, len) => {
                self.string_open(out, class, len, pos, true);
                self.stray_quote(out, pos, len, here);
            }
            Token::Word { .. } | Token::Number { .. } => self.bare_key(out, pos),
            Token::Close(Kind::Object) => {
                let (kind, cost) = if after_comma {
                    (Some(RepairKind::TrailingComma), cost::TRAILING_COMMA)
                } else {
                    (None, 0)
                };
                out.add(
                    level,
                    succ(Reading::Close, kind, cost, pos + 1, after_close(depth - 1)).pop(1),
                );
            }
            Token::Close(kind) => self.wrong_closer(out, stack, kind, pos, here),
            Token::Comma => out.add(
                level,
                succ(
                    Reading::ExtraPunctuation,
                    Some(RepairKind::ExtraComma),
                    cost::EXTRA_PUNCTUATION,
                    pos + 1,
                    Mode::Key { after_comma: true },
                ),
            ),
            Token::Open(open) => {
                if stack.below() == Some(Kind::Array) {
                    out.add(
                        level,
                        succ(
                            Reading::CloseObjectBeforeItem,
                            Some(RepairKind::MissingCloser),
                            cost::MISSING_CLOSER,
                            pos,
                            Mode::Value { after_comma: true },
                        )
                        .pop(1),
                    );
                }
                if open == Kind::Object && !after_comma {
                    out.add(
                        level,
                        succ(
                            Reading::ExtraOpener,
                            Some(RepairKind::ExtraOpener),
                            cost::EXTRA_PUNCTUATION,
                            pos + 1,
                            Mode::Key { after_comma: false },
                        )
                        .push(Kind::Object),
                    );
                }
                self.garbage(out, pos, 1, here);
            }
            Token::Ellipsis { end } => out.add(
                level,
                succ(
                    Reading::Ellipsis,
                    Some(RepairKind::Ellipsis),
                    cost::ELLIPSIS,
                    end,
                    here,
                ),
            ),
            Token::Colon => {}
            Token::Other { len } => {
                if b[pos] >= 0x80 || b[pos].is_ascii_alphanumeric() {
                    self.bare_key(out, pos);
                }
                self.garbage(out, pos, len, here);
            }
            _ => self.garbage(out, pos, 1, here),
        }
    }

    fn bare_key(&self, out: &mut Succs, pos: usize) {
        let lex = &self.lex;
        let b = self.b();
        let (key_end, stop) = lex.bare_key(pos);
        if key_end == pos {
            return;
        }
        if lex.at_end(stop) {
            // The reply ended inside a bare key.
            out.add(
                self.level,
                succ(
                    Reading::BareKey,
                    Some(RepairKind::DroppedTruncatedMember),
                    cost::CUT_TOKEN,
                    stop,
                    Mode::Colon,
                ),
            );
            return;
        }
        let known = self.key_cost(&lex.text[pos..key_end]);
        // `{a":"x"}`: the key lost its opening quote only.
        if stop == key_end && b[stop] == b'"' {
            let (j, _) = lex.skip_trivia(stop + 1);
            if j < lex.end && b[j] == b':' {
                out.add(
                    self.level,
                    succ(
                        Reading::BareKey,
                        Some(RepairKind::UnquotedKey),
                        cost::MISSING_END_QUOTE + known,
                        stop + 1,
                        Mode::Colon,
                    ),
                );
                return;
            }
        }
        out.add(
            self.level,
            succ(
                Reading::BareKey,
                Some(RepairKind::UnquotedKey),
                known,
                key_end,
                Mode::Colon,
            )
            .styled(style::BARE_KEYS),
        );
    }

    /// What the schema thinks of a key: [`cost::UNKNOWN_KEY`] when it names every key it
    /// allows and not this one.
    pub(crate) fn key_cost(&self, key: &str) -> Cost {
        match self.schema {
            Some(schema) if schema.knows_key(key) == Some(false) => cost::UNKNOWN_KEY,
            _ => 0,
        }
    }

    fn colon(&self, out: &mut Succs, tok: Token, pos: usize) {
        let level = self.level;
        let value = Mode::Value { after_comma: false };
        match tok {
            Token::Colon => out.add(level, succ(Reading::Colon, None, 0, pos + 1, value)),
            // `{"a" = 1}`, `{"a" => 1}`: another language's `:`.
            Token::Other { .. } if self.b()[pos] == b'=' => {
                let len = if self.b().get(pos + 1) == Some(&b'>') { 2 } else { 1 };
                out.add(
                    level,
                    succ(
                        Reading::ColonLike,
                        Some(RepairKind::MissingColon),
                        cost::EXTRA_PUNCTUATION,
                        pos + len,
                        value,
                    ),
                )
            }
            Token::Quote(..) | Token::Open(_) | Token::Number { .. } | Token::Word { .. } => out
                .add(
                    level,
                    succ(
                        Reading::MissingColon,
                        Some(RepairKind::MissingColon),
                        cost::MISSING_COLON,
                        pos,
                        value,
                    ),
                ),
            _ => {}
        }
    }

    fn next(&self, out: &mut Succs, stack: &dyn Stack, tok: Token, pos: usize, after_string: bool) {
        let level = self.level;
        let top = stack.top();
        let depth = stack.depth();
        let here = Mode::Next { after_string };
        if top.is_none() {
            // After a top-level string: a concatenation, or the end of the value.
            if tok == Token::Plus && after_string {
                let (j, _) = self.lex.skip_trivia(pos + 1);
                out.add(
                    level,
                    succ(
                        Reading::Concatenate,
                        Some(RepairKind::ConcatenatedStrings),
                        cost::CONCATENATION,
                        j,
                        Mode::Value { after_comma: false },
                    ),
                );
            } else {
                out.add(level, succ(Reading::EndOfValue, None, 0, pos, Mode::ScalarDone));
            }
            return;
        }
        match tok {
            Token::Comma => match top {
                Some(Kind::Object) => out.add(
                    level,
                    succ(Reading::Comma, None, 0, pos + 1, Mode::Key { after_comma: true }),
                ),
                Some(Kind::Array | Kind::Tuple) => out.add(
                    level,
                    succ(Reading::Comma, None, 0, pos + 1, Mode::Value { after_comma: true }),
                ),
                Some(Kind::Call) => self.garbage(out, pos, 1, here),
                None => {}
            },
            Token::Close(kind) if top == Some(kind) => {
                out.add(
                    level,
                    succ(Reading::Close, None, 0, pos + 1, after_close(depth - 1)).pop(1),
                );
                {
                    // The container closes, but the reply goes on with `, …`: the closer may be
                    // a stray one in the middle of it (`{"b": 1}}, "c": 2}`, `[{"id": 1}},`).
                    let (j, _) = self.lex.skip_trivia(pos + 1);
                    let goes_on = if depth == 1 { &[b',', b':'][..] } else { &[b','][..] };
                    if j < self.lex.end && goes_on.contains(&self.b()[j]) {
                        out.add(
                            level,
                            succ(
                                Reading::StrayCloser,
                                Some(RepairKind::ExtraCloser),
                                cost::STRAY_CLOSER,
                                pos + 1,
                                here,
                            ),
                        );
                    }
                }
            }
            Token::Close(kind) if top.is_some() => self.wrong_closer(out, stack, kind, pos, here),
            Token::RParen if matches!(top, Some(Kind::Call | Kind::Tuple)) => out.add(
                level,
                succ(Reading::CloseCall, None, 0, pos + 1, after_close(depth - 1)).pop(1),
            ),
            Token::Colon => {
                if after_string && top == Some(Kind::Array) && stack.below() == Some(Kind::Object) {
                    out.add(
                        level,
                        succ(
                            Reading::CloseArrayBeforeMember,
                            Some(RepairKind::MissingCloser),
                            cost::MISSING_CLOSER,
                            pos,
                            Mode::Colon,
                        )
                        .pop(1),
                    );
                }
                self.garbage(out, pos, 1, here);
            }
            Token::Plus if after_string => {
                let (j, _) = self.lex.skip_trivia(pos + 1);
                if QuoteClass::opening_at(self.b(), j).is_some() {
                    out.add(
                        level,
                        succ(
                            Reading::Concatenate,
                            Some(RepairKind::ConcatenatedStrings),
                            cost::CONCATENATION,
                            j,
                            Mode::Value { after_comma: false },
                        ),
                    );
                }
                self.garbage(out, pos, 1, here);
            }
            Token::Ellipsis { end } => out.add(
                level,
                succ(
                    Reading::Ellipsis,
                    Some(RepairKind::Ellipsis),
                    cost::ELLIPSIS,
                    end,
                    here,
                ),
            ),
            Token::Quote(..) | Token::Open(_) | Token::Number { .. } | Token::Word { .. }
                if matches!(top, Some(Kind::Object | Kind::Array | Kind::Tuple)) =>
            {
                let mode = if top == Some(Kind::Object) {
                    Mode::Key { after_comma: true }
                } else {
                    Mode::Value { after_comma: true }
                };
                out.add(
                    level,
                    succ(
                        Reading::MissingComma,
                        Some(RepairKind::MissingComma),
                        cost::MISSING_COMMA,
                        pos,
                        mode,
                    ),
                );
                if let Token::Word { end } = tok {
                    self.garbage(out, pos, end - pos, here);
                }
            }
            Token::Other { len } if top != Some(Kind::Call) && starts_text(self.b()[pos]) => {
                let mode = if top == Some(Kind::Object) {
                    Mode::Key { after_comma: true }
                } else {
                    Mode::Value { after_comma: true }
                };
                if top.is_some() {
                    out.add(
                        level,
                        succ(
                            Reading::MissingComma,
                            Some(RepairKind::MissingComma),
                            cost::MISSING_COMMA,
                            pos,
                            mode,
                        ),
                    );
                }
                self.garbage(out, pos, len, here);
            }
            Token::Other { len } => self.garbage(out, pos, len, here),
            _ => self.garbage(out, pos, 1, here),
        }
    }

    /// The readings of a spot inside a string (`mode` is `Str`), at a stop found at `at`.
    pub(crate) fn in_string(
        &self,
        stack: &dyn Stack,
        mode: Mode,
        at: usize,
        stop: Stop,
        out: &mut Succs,
    ) {
        out.clear(self);
        let Mode::Str {
            class,
            key,
            open,
            odd,
        } = mode
        else {
            return;
        };
        let level = self.level;
        let after = if key {
            Mode::Colon
        } else if stack.depth() == 0 && self.concatenation_follows(at + 1) {
            // `"a" + "b"` at the top level: the value goes on.
            Mode::Next { after_string: true }
        } else {
            after_value(stack.depth(), true)
        };
        match stop {
            Stop::Quote { len, own: true } => {
                // A text quote left unpaired by the close pays again.
                let paired = class.paired();
                let odd = odd && paired;
                let unpaired = if odd { cost::UNPAIRED_TEXT_QUOTE } else { 0 };
                // A quote that starts an indented line is where JSON opens its next string
                // (`"José,⏎  "type": …`), not where text ends (code ends `x = 1⏎"`).
                let indented = if !key && self.starts_indented_line(open, at) && !self.lex.leaves_open(open, at) {
                    cost::LOOSE_TEXT_QUOTE
                } else {
                    0
                };
                out.add(
                    level,
                    succ(Reading::CloseString, None, unpaired + indented, at + len, after),
                );
                // A triple-quoted string ends at `"""`, unambiguously.
                if class == QuoteClass::Triple {
                    return;
                }
                // A split that leaves closers in the text pays for the structure they lose.
                for split in self.split_points(open, at, key).into_iter().flatten() {
                    out.add(
                        level,
                        succ(
                            Reading::SplitString,
                            Some(RepairKind::MissingEndQuote),
                            cost::MISSING_END_QUOTE + self.lex.unbalanced_closers(open, split),
                            split,
                            after,
                        ),
                    );
                }
                // Keys close at a quote: a key holding a quote is not a thing models write.
                if !key {
                    let b = self.b();
                    // Quoted spans quote something, inside a line of text: a text quote
                    // where JSON puts its quotes is loose. That is an opening quote before a
                    // space or a delimiter (`"07:58",` + `","`) or first on its line
                    // (`"a,⏎  "b": 1`), or a closing one before a `:` (`"x, "b": 1`).
                    // (Not so in text that is code or JSON, which has quotes in such places.)
                    let json_text = matches!(b.get(open), Some(b'{' | b'['));
                    let code = || json_text || self.lex.leaves_open(open, at);
                    let loose = if !paired {
                        0
                    } else if odd {
                        if self.next_non_blank(at + len) == Some(b':') && !code() {
                            cost::KEYLIKE_TEXT_QUOTE
                        } else {
                            0
                        }
                    } else if b
                        .get(at + len)
                        .is_none_or(|&c| is_ws(c) || matches!(c, b',' | b':' | b'}' | b']'))
                        || (self.starts_line(open, at) && !code())
                    {
                        cost::LOOSE_TEXT_QUOTE
                    } else {
                        0
                    };
                    let pair = if json_text {
                        cost::TEXT_QUOTE_IN_JSON_TEXT
                    } else {
                        cost::TEXT_QUOTE
                    };
                    let cost = if odd { 0 } else { pair } + loose;
                    out.add(
                        level,
                        succ(
                            Reading::TextQuote,
                            Some(RepairKind::UnescapedQuote),
                            cost,
                            at + len,
                            Mode::Str {
                                class,
                                key,
                                open,
                                odd: paired && !odd,
                            },
                        ),
                    );
                }
            }
            Stop::Quote { len, own: false } => {
                // A typographic quote inside ASCII-quoted text is ordinary text.
                out.add(level, succ(Reading::TextQuote, None, 0, at + len, mode));
                out.add(
                    level,
                    succ(
                        Reading::MixedClose,
                        Some(RepairKind::SmartQuotes),
                        cost::MIXED_CLOSE,
                        at + len,
                        after,
                    ),
                );
            }
            Stop::End => {
                // A reply cut inside a string is plausible for text, not for a string that
                // swallowed what looks like JSON (`"score: 1}` is a key that lost its quote).
                let swallowed = self
                    .lex
                    .lost_in_string(class, open.max(at.saturating_sub(cost::WINDOW)), at);
                let unpaired = if odd && class.paired() {
                    cost::UNPAIRED_TEXT_QUOTE
                } else {
                    0
                };
                // A key cut off is dropped (`DroppedTruncatedMember`); a value is closed.
                let cut_kind = if key {
                    RepairKind::DroppedTruncatedMember
                } else {
                    RepairKind::ClosedTruncatedString
                };
                // The string lost its closing quote before what ends the reply: a key before
                // its `:` and value, a value before the closers.
                let split = if key {
                    self.split_points(open, at, true)[0]
                } else {
                    self.closers_at_end(stack, open, at)
                };
                // A value that ran to the end past the start of a member ended before it.
                let member = (!key && stack.top() == Some(Kind::Object))
                    .then(|| self.member_comma(open, at))
                    .flatten();
                // At the very end of a reply a cut is the likelier event: listed first. A cut
                // that swallowed the closers of the whole document is no plain completion: the
                // truncation-only pass refuses it, and the full search weighs it against the
                // splits. (`["a", ["]` swallowed one closer of two: still a cut.)
                if swallowed == 0 || !out.only_truncation || !self.ends_document(stack, open, at) {
                    out.add(
                        level,
                        succ(
                            Reading::CutString,
                            Some(cut_kind),
                            cost::CUT_STRING + unpaired + swallowed,
                            at,
                            after,
                        ),
                    );
                }
                if let Some(m) = member {
                    out.add(
                        level,
                        succ(
                            Reading::SplitString,
                            Some(RepairKind::MissingEndQuote),
                            cost::MISSING_END_QUOTE,
                            m,
                            after,
                        ),
                    );
                }
                if let Some(split) = split {
                    let reading = if key {
                        Reading::SplitString
                    } else {
                        Reading::SplitBeforeClosers
                    };
                    out.add(
                        level,
                        succ(
                            reading,
                            Some(RepairKind::MissingEndQuote),
                            cost::MISSING_END_QUOTE,
                            split,
                            after,
                        ),
                    );
                }
            }
            Stop::Escape | Stop::Control(_) => {}
        }
    }

    /// `+` and then a quote follow `i` (a concatenation).
    fn concatenation_follows(&self, i: usize) -> bool {
        let (plus, _) = self.lex.skip_trivia(i);
        if self.lex.at_end(plus) || self.b()[plus] != b'+' {
            return false;
        }
        let (q, _) = self.lex.skip_trivia(plus + 1);
        !self.lex.at_end(q) && QuoteClass::opening_at(self.b(), q).is_some()
    }

    /// Where a string missing its closing quote may have ended, judged from the quote at `at`
    /// that follows it (at most two places). A key ends at its first `:`. A value ends at the
    /// `,` just before the quote (`"a, "b"`), or before a bare key's `word:` after that comma
    /// (`"a, type: "b"`), or before the closers right before that comma (`"x], "b"`), or at a
    /// line break (`"a⏎"b"`).
    fn split_points(&self, open: usize, at: usize, key: bool) -> [Option<usize>; 2] {
        let b = self.b();
        if key {
            // A key that lost its closing quote ends at its first `:` (`{"status: "done"`,
            // `"tags:["x"`): the reading costs a repair, so a key that does hold a colon
            // (`"http://x"`) stays whole unless what follows says otherwise.
            let text = &b[open..at.min(open + cost::WINDOW)];
            let colon = text
                .iter()
                .position(|&c| c == b':')
                .filter(|&c| c > 0)
                .map(|c| open + c);
            return [colon, None];
        }
        let mut newline = false;
        let mut k = self.back_over_trivia(open, at, &mut newline);
        // `"x}, {"b"`: the quote starts the first member of a container opened after a comma.
        let mut j = k;
        while j > open && matches!(b[j - 1], b'{' | b'[') {
            j = self.back_over_trivia(open, j - 1, &mut newline);
        }
        if j < k && j > open && b[j - 1] == b',' {
            k = j;
        }
        // `, type: "b"`: a bare key and its colon stand between the comma and this quote.
        if k > open && b[k - 1] == b':' {
            let mut w = self.back_over_trivia(open, k - 1, &mut false);
            let word_end = w;
            while w > open && (is_ident_byte(b[w - 1]) || b[w - 1] >= 0x80) {
                w -= 1;
            }
            if w < word_end {
                let c = self.back_over_trivia(open, w, &mut false);
                if c > open + 1 && b[c - 1] == b',' {
                    return [Some(c - 1), None];
                }
            }
            return [None, None];
        }
        if k > open && b[k - 1] == b',' {
            let comma = k - 1;
            if comma == open {
                return [None, None];
            }
            // `"x], "b"`: the string ended before the closers that precede the comma.
            let mut c = comma;
            while c > open && (is_ws(b[c - 1]) || matches!(b[c - 1], b'}' | b']')) {
                c -= 1;
            }
            let before_closers = (c > open && b[c..comma].iter().any(|&x| matches!(x, b'}' | b']')))
                .then_some(c);
            return [Some(comma), before_closers];
        }
        if newline && k > open {
            k = self.back_over_trivia(open, k, &mut newline);
            return [Some(k), None];
        }
        [None, None]
    }

    /// Walks back from `i` over whitespace and block comments, not before `floor`; notes a
    /// line break on the way.
    fn back_over_trivia(&self, floor: usize, mut k: usize, newline: &mut bool) -> usize {
        let b = self.b();
        loop {
            while k > floor && is_ws(b[k - 1]) {
                *newline |= b[k - 1] == b'\n';
                k -= 1;
            }
            // A block comment between the delimiter and the quote (`"abc,/* c */"def"`).
            if k >= floor + 4 && b[k - 1] == b'/' && b[k - 2] == b'*' {
                let from = k.saturating_sub(cost::WINDOW).max(floor);
                match memchr::memmem::rfind(&b[from..k - 2], b"/*") {
                    Some(c) => k = from + c,
                    None => return k,
                }
            } else {
                return k;
            }
        }
    }

    /// The first `,` in a string's text (from `open`, within the window) after which a member
    /// begins: a quoted or bare key and its `:`. Where a value that lost its closing quote and
    /// ran to the end of the reply really ended (`"search, 'page': 9}` in a single-quoted
    /// document).
    fn member_comma(&self, open: usize, end: usize) -> Option<usize> {
        let b = self.b();
        let to = end.min(open + cost::WINDOW);
        let mut i = open;
        while let Some(k) = memchr::memchr(b',', &b[i..to]) {
            let comma = i + k;
            let (q, _) = self.lex.skip_trivia(comma + 1);
            let key_end = match QuoteClass::opening_at(b, q) {
                Some((class, len)) => {
                    let mut e = q + len;
                    while e < to && class.closer_at(b, e).is_none() && b[e] != b'\n' {
                        e += 1;
                    }
                    class.closer_at(b, e).map(|l| e + l)
                }
                None => {
                    let e = self.lex.word_end(q);
                    (e > q).then_some(e)
                }
            };
            if let Some(e) = key_end {
                let (c, _) = self.lex.skip_trivia(e);
                if c < to && b[c] == b':' && comma > open {
                    return Some(comma);
                }
            }
            i = comma + 1;
        }
        None
    }

    /// Where a string that ran to the end of the reply lost its closing quote before the
    /// closers that end the document: its raw text ends with closers that fit the open
    /// containers (`{"time": "12:20}`), maybe followed by a closing fence (`"x}}```"`), or a
    /// line of its text starts with such a closer and prose follows (`"text⏎}⏎Thanks!`).
    fn closers_at_end(&self, stack: &dyn Stack, open: usize, end: usize) -> Option<usize> {
        let b = self.b();
        let mut k = end;
        while k > open && is_ws(b[k - 1]) {
            k -= 1;
        }
        // A fence glued to the closers (`}]```` at the end of a fenced reply).
        if let Some(f) = self.lex.fence {
            while k > open && b[k - 1] == f.byte {
                k -= 1;
            }
        }
        if let Some(split) = self.closers_before(stack, open, k) {
            return Some(split);
        }
        // Then prose: the first line that ends with such closers (`"skip]}}⏎⏎Hope this
        // helps`) or starts with one (`"text⏎}⏎Thanks!`).
        let limit = end.min(open + cost::WINDOW);
        let mut i = open;
        while let Some(n) = memchr::memchr(b'\n', &b[i..limit]) {
            let line = i + n;
            if let Some(split) = self.closers_before(stack, open, line) {
                return Some(split);
            }
            let mut j = line + 1;
            while j < limit && matches!(b[j], b' ' | b'\t' | b'\r') {
                j += 1;
            }
            if j < limit && matches!(b[j], b'}' | b']') && self.fits(stack, open, line, b[j]) {
                return Some(line);
            }
            i = line + 1;
        }
        None
    }

    /// The first byte from `i` on that is not whitespace (within the window).
    fn next_non_blank(&self, i: usize) -> Option<u8> {
        let b = self.b();
        let to = self.lex.end.min(i + cost::WINDOW);
        b.get(i..to)?.iter().copied().find(|&c| !is_ws(c))
    }

    /// The byte at `at` is the first non-blank one of its line, a line that starts inside the
    /// string opened at `open`.
    fn starts_line(&self, open: usize, at: usize) -> bool {
        let b = self.b();
        let floor = open.max(at.saturating_sub(cost::WINDOW));
        let mut k = at;
        while k > floor && matches!(b[k - 1], b' ' | b'\t') {
            k -= 1;
        }
        k > floor && matches!(b[k - 1], b'\n' | b'\r')
    }

    /// Like [`Self::starts_line`], on a line indented by at least one blank.
    fn starts_indented_line(&self, open: usize, at: usize) -> bool {
        at > open && matches!(self.b()[at - 1], b' ' | b'\t') && self.starts_line(open, at)
    }

    /// The string's raw text `b[open..end]` ends with closers for every open container
    /// (`"score: 1}`, `"skip]}⏎Thanks`): the document was complete and the string lost its
    /// closing quote, rather than being cut off.
    fn ends_document(&self, stack: &dyn Stack, open: usize, end: usize) -> bool {
        let Some(split) = self.closers_at_end(stack, open, end) else {
            return false;
        };
        let b = self.b();
        let closers = b[split..end]
            .iter()
            .take_while(|&&c| is_ws(c) || matches!(c, b'}' | b']'))
            .filter(|&&c| matches!(c, b'}' | b']'))
            .count();
        closers >= stack.depth()
    }

    /// The raw text `b[open..end]` ends with closers (and whitespace) that fit the open
    /// containers: where that run starts.
    fn closers_before(&self, stack: &dyn Stack, open: usize, end: usize) -> Option<usize> {
        let b = self.b();
        let mut k = end;
        while k > open && (is_ws(b[k - 1]) || matches!(b[k - 1], b'}' | b']')) {
            k -= 1;
        }
        let first = b[k..end].iter().copied().find(|c| matches!(c, b'}' | b']'))?;
        (k > open && self.fits(stack, open, k, first)).then_some(k)
    }

    /// A closer `c` after the string's text `b[open..upto]` would close the innermost open
    /// container, and no opener of its kind in that text balances it (`"arr = [1, 2]` cut off:
    /// the `]` is code).
    fn fits(&self, stack: &dyn Stack, open: usize, upto: usize, c: u8) -> bool {
        let (want, opener) = if c == b'}' {
            (Kind::Object, b'{')
        } else {
            (Kind::Array, b'[')
        };
        stack.top() == Some(want) && !self.b()[open..upto].contains(&opener)
    }
}

/// How many first non-blank bytes a new value must share with the abandoned draft for the
/// restart to count as a restatement.
const RESTATED_BYTES: usize = 8;

/// A character that can start bare text (a value without quotes): anything printable but
/// JSON's punctuation and quotes (`/a.css/`, `-x`, `#fff`, `@user`, `日本`).
fn starts_text(c: u8) -> bool {
    c >= 0x80
        || (c.is_ascii_graphic()
            && !matches!(c, b',' | b':' | b'{' | b'}' | b'[' | b']' | b'"' | b'\'' | b'`' | b'(' | b')' | b';' | b'='))
}
