//! The tolerant grammar: at each spot, the readings the text allows, what each costs (from
//! `cost.rs`) and where each leads. One function, [`successors`], answers this for the parser
//! (which applies the chosen reading) and for the search (which follows every reading a little
//! way to choose), so the two can never read the text differently.
//!
//! A reading never looks at values: only at the mode, the kinds of the open containers and the
//! text. That is what lets the search follow many readings at once cheaply.

mod document;
mod strings;
mod structure;
#[cfg(test)]
mod tests;

use super::cost::{self, Cost};
use super::lex::{is_ws, Kind, Lex, Token};
use super::RepairKind;
use crate::spelling::QuoteClass;
use crate::RepairLevel;

/// What the repair stage asks of a schema, the one question it has (the schema stage, above
/// this one, answers it: `impl KeyNames for Schema`): whether `key` is a name the schema
/// allows. `Some(false)`: it names every key it allows, and not this one (a key it does not know
/// costs more, which decides quotes the syntax alone cannot); `None`: it does not say.
pub(crate) trait KeyNames: Sync + std::fmt::Debug {
    fn knows_key(&self, key: &str) -> Option<bool>;
}

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
pub(crate) enum Action {
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
    /// `,` or `}` after the first key of an object: the object is a Python set (`{'a', 'b'}`),
    /// a list whose first item is that key. Reads nothing: the token is read again.
    SetItem,
    /// `=` (or `=>`) where `:` belongs.
    ColonLike,
    /// `true`, `false`, `null`, or a literal from Python or JavaScript.
    Literal,
    /// A bare word (or text) used as a string value.
    UnquotedValue,
    /// `"args\":`: a key whose closing quote was escaped (half of a tool call's arguments
    /// stringified): the key, up to the backslash.
    EscapedCloseKey,
    /// Text up to a `"` that closes it, its opening `"` lost (`'K' a judicial officer",`).
    QuoteLostValue,
    /// A number with its unit or a decimal comma, unquoted (`1,82 m`, `74 kg`): one string.
    MeasuredValue,
    /// `name=` where a call's argument is due: keyword arguments open an object.
    OpenKeywords,
    /// `)` after keyword arguments: their object closes, the call's `)` is read next.
    CloseKeywords,
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
    /// `:` after the first item of an array, a string: the array is an object written with
    /// brackets (`["lang": "pt", "level": "B2"]`), and the string its first key.
    ObjectFromFirstItem,
    /// `]` after a list's scalars, a row's worth (`[…], "x", "y"], [`): the row lost its `[`,
    /// those items are the row.
    RegroupRow,
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
    /// A raw line break is text, though the next line starts structure where the layout puts
    /// the string's container's members (the string runs on over it).
    TextLineBreak,
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
    pub(crate) const SINGLE_QUOTES: u16 = 1;
    pub(crate) const SMART_QUOTES: u16 = 2;
    pub(crate) const ESCAPED_QUOTES: u16 = 4;
    pub(crate) const TRIPLE_QUOTES: u16 = 8;
    pub(crate) const BARE_KEYS: u16 = 16;
    pub(crate) const FOREIGN_LITERALS: u16 = 32;
    pub(crate) const FULLWIDTH: u16 = 64;
    pub(crate) const SPELLED_NUMBERS: u16 = 128;
    pub(crate) const EQUALS_COLON: u16 = 256;
    pub(crate) const GROUPED_NUMBERS: u16 = 512;
}

pub(crate) fn quote_style(class: QuoteClass) -> u16 {
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
pub(crate) struct Reading {
    pub action: Action,
    /// The repair it is (None: plain JSON).
    pub kind: Option<RepairKind>,
    /// What it costs, besides its convention.
    pub cost: Cost,
    /// The convention it uses (a [`style`] bit, 0 for none), charged once per reading.
    pub style: u16,
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
pub(crate) struct Readings {
    items: Vec<Reading>,
    /// The first reading the level does not allow (for the error when none is left).
    pub(crate) first_refused: Option<Reading>,
    /// Readings other than plain JSON and the completion of a cut are refused.
    only_truncation: bool,
}

impl Readings {
    pub(crate) fn new() -> Self {
        Readings {
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

    fn add(&mut self, level: RepairLevel, s: Reading) {
        // Where a string cut at the end of the reply ended (before the closers that end it)
        // belongs with the completion of the cut.
        let completes_cut =
            |kind: RepairKind| kind.is_truncation() || s.action == Action::SplitBeforeClosers;
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

    /// Adds `cost` to every reading listed so far.
    fn charge(&mut self, cost: Cost) {
        for s in &mut self.items {
            s.cost += cost;
        }
    }

    pub(crate) fn get(&self, i: usize) -> Reading {
        self.items[i]
    }

    pub(crate) fn iter(&self) -> impl Iterator<Item = Reading> + '_ {
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
    /// Where the innermost container opened, when known.
    fn top_open(&self) -> Option<usize>;
}

/// What the grammar needs besides the text.
#[derive(Clone, Copy)]
pub(crate) struct Ctx<'t> {
    pub lex: Lex<'t>,
    /// Where the value being parsed starts (a restart abandons what lies since).
    pub doc_start: usize,
    /// Values the parser has read since `doc_start` (what a restart would throw away).
    pub draft_values: u32,
    /// Only readings that are plain JSON or complete a cut-off reply.
    pub only_truncation: bool,
    pub level: RepairLevel,
    pub schema: Option<&'t dyn KeyNames>,
}

fn reading(
    action: Action,
    kind: Option<RepairKind>,
    cost: Cost,
    pos: usize,
    mode: Mode,
) -> Reading {
    Reading {
        action,
        kind,
        cost,
        style: 0,
        pos,
        mode,
        pops: 0,
        push: None,
    }
}

impl Reading {
    fn styled(mut self, style: u16) -> Self {
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
        Kind::Array | Kind::Call | Kind::Tuple | Kind::Set => Mode::Value { after_comma: false },
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

/// Whether `word` is a literal, and the repair reading it is (`None` for JSON's own).
fn literal_kind(word: &str) -> Option<Option<RepairKind>> {
    crate::spelling::literal(word).map(|s| repair_of(s.dialect))
}

/// The repair that using a quote of this class as a delimiter needs (none for `"`).
pub(crate) fn quote_repair(class: QuoteClass) -> Option<RepairKind> {
    match class {
        QuoteClass::Double => None,
        QuoteClass::SmartDouble | QuoteClass::SmartSingle => Some(RepairKind::SmartQuotes),
        QuoteClass::Single | QuoteClass::Backtick | QuoteClass::Acute => {
            Some(RepairKind::SingleQuotes)
        }
        QuoteClass::Escaped => Some(RepairKind::EscapedString),
        QuoteClass::Triple => Some(RepairKind::TripleQuotes),
    }
}

/// The repair logged for a literal of this dialect.
pub(crate) fn repair_of(dialect: crate::spelling::Dialect) -> Option<RepairKind> {
    use crate::spelling::Dialect;
    match dialect {
        Dialect::Json => None,
        Dialect::Python => Some(RepairKind::PythonLiteral),
        Dialect::JavaScript => Some(RepairKind::JavascriptLiteral),
    }
}

impl<'t> Ctx<'t> {
    fn b(&self) -> &'t [u8] {
        self.lex.b
    }

    /// The readings of the token at `pos` (after trivia) in `mode`.
    pub(crate) fn successors(&self, stack: &dyn Stack, mode: Mode, pos: usize, out: &mut Readings) {
        out.clear(self);
        let tok = self.lex.token_at(pos);
        let level = self.level;
        let top = stack.top();
        let depth = stack.depth() as u16;
        if tok == Token::End {
            out.add(level, reading(Action::EndOfInput, None, 0, pos, Mode::Done));
            return;
        }
        match mode {
            Mode::Value { after_comma } => self.value(out, stack, tok, pos, after_comma),
            Mode::Key { after_comma } => {
                self.key(out, stack, tok, pos, after_comma);
                // Every reading of this spot puts its member in the innermost object: the layout
                // may say it belongs to another.
                let misplaced = self.misplaced_member(stack, pos);
                if misplaced > 0 {
                    out.charge(misplaced);
                }
            }
            Mode::Colon => self.colon(out, stack, tok, pos),
            Mode::Next { after_string } => self.next(out, stack, tok, pos, after_string),
            Mode::Str { .. } | Mode::Done | Mode::ScalarDone => {}
        }
        // Prose where JSON was expected: the JSON may end here, or restart further on.
        let prose = match tok {
            // A bare key and its colon on one line (`title: 'x'`) is a member, not prose.
            Token::Word { end } => {
                literal_kind(&self.lex.text[pos..end]).is_none()
                    && !(matches!(mode, Mode::Key { .. }) && self.member_on_line(pos))
            }
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
                _ => pos + self.lex.char_len_at(pos),
            };
            out.add(
                level,
                reading(
                    Action::Garbage,
                    Some(RepairKind::DroppedGarbage),
                    cost::GARBAGE,
                    end,
                    mode,
                ),
            );
        }
    }

    /// A bare key at `pos`, its colon (or `=`, `：`), and a value on the same line.
    fn member_on_line(&self, pos: usize) -> bool {
        let b = self.b();
        if !super::lex::member_starts(b, pos) {
            return false;
        }
        let (_, stop) = self.lex.bare_key(pos);
        let colon = if stop < self.lex.end && b[stop..].starts_with(&crate::spelling::WIDE_COLON) {
            3
        } else {
            1
        };
        let mut v = stop + colon;
        while v < self.lex.end && matches!(b[v], b' ' | b'\t' | b'>') {
            v += 1;
        }
        v < self.lex.end && !matches!(b[v], b'\n' | b'\r')
    }

    fn string_open(
        &self,
        out: &mut Readings,
        class: QuoteClass,
        len: usize,
        pos: usize,
        key: bool,
    ) {
        let mode = Mode::Str {
            class,
            key,
            open: pos + len,
            odd: false,
        };
        out.add(
            self.level,
            reading(Action::OpenString, quote_repair(class), 0, pos + len, mode)
                .styled(quote_style(class)),
        );
    }

    /// A quote that opens nothing (followed by a delimiter, a space or the end, as in the
    /// stutter `",","city"`) may be stray.
    fn stray_quote(&self, out: &mut Readings, pos: usize, len: usize, mode: Mode) {
        let opens_nothing = self.b().get(pos + len).is_none_or(|&c| {
            is_ws(c)
                || matches!(c, b',' | b':' | b'}' | b']')
                || self.lex.at_end(pos + len)
                || super::lex::wide_punctuation_at(self.b(), pos + len)
        });
        if opens_nothing {
            out.add(
                self.level,
                reading(
                    Action::StrayQuote,
                    Some(RepairKind::DroppedGarbage),
                    cost::STRAY_QUOTE,
                    pos + len,
                    mode,
                ),
            );
        }
    }
}

/// A character that can start bare text (a value without quotes): anything printable but
/// JSON's punctuation and quotes (`/a.css/`, `-x`, `#fff`, `@user`, `日本`).
fn starts_text(c: u8) -> bool {
    c >= 0x80
        || (c.is_ascii_graphic()
            && !matches!(
                c,
                b',' | b':'
                    | b'{'
                    | b'}'
                    | b'['
                    | b']'
                    | b'"'
                    | b'\''
                    | b'`'
                    | b'('
                    | b')'
                    | b';'
                    | b'='
            ))
}
