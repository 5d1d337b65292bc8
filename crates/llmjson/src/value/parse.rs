//! The strict reader: one valid JSON document (RFC 8259) read in one pass and handed to a
//! [`Sink`] — llmjson's [`Value`] (the fast path for the commonest reply), or another
//! representation (the Python package builds Python objects straight from it). Anything it does
//! not accept (a defect, a nesting deeper than allowed, a duplicate key the policy does not
//! settle silently) is [`Refused::Invalid`], and the reply takes the tolerant path, which says
//! why.

use super::{Map, Number, Value};
use crate::spelling::UnicodeEscape;
use crate::DuplicateKeys;
use std::borrow::Cow;

/// What the strict reader builds, one value at a time: scalars as they are read, containers
/// from their finished contents (elements and members in written order).
pub trait Sink {
    /// A built value.
    type Value;
    /// A built object key.
    type Key;
    /// Why the sink could not build something (the read stops with [`Refused::Sink`]).
    type Error;
    /// `null`.
    fn null(&mut self) -> Result<Self::Value, Self::Error>;
    /// `true` or `false`.
    fn bool(&mut self, value: bool) -> Result<Self::Value, Self::Error>;
    /// A number as written (valid JSON number text); `integer` when it has no fraction and no
    /// exponent.
    fn number(&mut self, text: &str, integer: bool) -> Result<Self::Value, Self::Error>;
    /// A string, escapes decoded (borrowed from the input when it had none).
    fn string(&mut self, value: Cow<'_, str>) -> Result<Self::Value, Self::Error>;
    /// An object key, escapes decoded.
    fn key(&mut self, key: Cow<'_, str>) -> Result<Self::Key, Self::Error>;
    /// An array from its elements.
    fn array(
        &mut self,
        items: std::vec::Drain<'_, Self::Value>,
    ) -> Result<Self::Value, Self::Error>;
    /// An object from its members (a key may repeat: the sink decides).
    fn object(
        &mut self,
        members: std::vec::Drain<'_, (Self::Key, Self::Value)>,
    ) -> Result<Self::Value, Self::Error>;
}

/// Why [`read_valid`] gave no value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refused<E> {
    /// The text is not one valid JSON document nested at most `max_depth` deep.
    Invalid,
    /// The sink refused.
    Sink(E),
}

/// Reads `text`, one valid JSON document (surrounding JSON whitespace allowed), into `sink`, in
/// one pass: no validation pass before, no value in between.
///
/// ```
/// use llmjson::sink::{read_valid, Refused, ValueSink};
/// let value = read_valid(r#" {"a": [1.50, "x"]} "#, 128, &mut ValueSink::default()).unwrap();
/// assert_eq!(value.to_string(), r#"{"a":[1.50,"x"]}"#);
/// assert_eq!(read_valid("{'a': 1}", 128, &mut ValueSink::default()), Err(Refused::Invalid));
/// ```
///
/// # Errors
/// [`Refused::Invalid`] for anything but one valid document within the depth;
/// [`Refused::Sink`] when the sink fails.
pub fn read_valid<S: Sink>(
    text: &str,
    max_depth: usize,
    sink: &mut S,
) -> Result<S::Value, Refused<S::Error>> {
    let mut reader = Reader::within(text, 0, text.len(), max_depth, sink);
    reader.skip_ws();
    let value = reader.value()?;
    reader.skip_ws();
    if reader.i == reader.b.len() {
        Ok(value)
    } else {
        Err(Refused::Invalid)
    }
}

/// What the strict reader read from the middle of a reply (the tolerant parser's fast lane).
pub(crate) enum Prefix<T> {
    /// A valid value or key, and the offset just after it.
    Read(T, usize),
    /// Not valid JSON from there: how far the reader got (what the attempt cost), where the
    /// containers still open there began, outermost first, each with the depth the reader could
    /// still nest to there (a read from one of them would be refused at the same spot), and
    /// whether it got there by running out of text with nothing invalid before (a reply cut
    /// short).
    Refused {
        reached: usize,
        open: Vec<(usize, usize)>,
        ran_out: bool,
    },
}

/// Reads one valid JSON value that starts exactly at `at` and lies before `limit`, into llmjson's
/// [`Value`], nested at most `max_depth` deep. What follows it is not looked at.
pub(crate) fn value_at(
    text: &str,
    at: usize,
    limit: usize,
    max_depth: usize,
    duplicates: DuplicateKeys,
) -> Prefix<Value> {
    value_accepting(
        text,
        at,
        limit,
        max_depth,
        duplicates,
        Json,
        &mut Stacks::default(),
    )
    .0
}

/// The reader's working stacks (the items and members of the containers being read, and where
/// escaped strings are decoded), kept by a caller that reads many values (the fast lane): once
/// they have grown, a read allocates only the values it builds.
#[derive(Default)]
pub(crate) struct Stacks {
    items: Vec<Value>,
    members: Vec<(String, Value)>,
    scratch: String,
}

/// [`value_at`] accepting what `accept` does besides JSON; `accept` is handed back (what it
/// logged is the caller's). The read works on `stacks`, handed back empty.
pub(crate) fn value_accepting<'t, A: Accept<'t>>(
    text: &'t str,
    at: usize,
    limit: usize,
    max_depth: usize,
    duplicates: DuplicateKeys,
    accept: A,
    stacks: &mut Stacks,
) -> (Prefix<Value>, A) {
    let mut sink = ValueSink { duplicates };
    let mut reader = Reader::accepting(text, at, limit, max_depth, &mut sink, accept);
    reader.items = std::mem::take(&mut stacks.items);
    reader.members = std::mem::take(&mut stacks.members);
    reader.scratch = std::mem::take(&mut stacks.scratch);
    let read = match reader.value() {
        Ok(value) => Prefix::Read(value, reader.i),
        Err(_) => Prefix::Refused {
            reached: reader.i.max(at + 1),
            ran_out: reader.ran_out(),
            open: reader.take_open(),
        },
    };
    // A refused read leaves the values it was building on the stacks.
    reader.items.clear();
    reader.members.clear();
    stacks.items = std::mem::take(&mut reader.items);
    stacks.members = std::mem::take(&mut reader.members);
    stacks.scratch = std::mem::take(&mut reader.scratch);
    (read, reader.accept)
}

/// What one strict check of the text from `at` (after JSON blanks) up to `limit` found.
pub(crate) enum StrictCheck {
    /// One valid JSON value (nested at most `max_depth` deep).
    Valid,
    /// One container of valid JSON that runs out before `limit` ends it: where the containers
    /// then still open began (with the depth the reader had left there), outermost first — the
    /// first is the container at the start.
    CutShort(Vec<(usize, usize)>),
    /// Not JSON before `limit`: something invalid, or nested deeper than `max_depth`, before
    /// the text runs out: how far the reader got and where the containers then still open
    /// began (as in [`Prefix::Refused`]).
    Refused {
        reached: usize,
        open: Vec<(usize, usize)>,
    },
    /// A value other than a container that runs out before `limit` ends it, or a token the end
    /// may cut.
    ScalarCut,
}

/// At most how far before the end the strict reader stops on a token the end cuts, other than a
/// number (a string's escape, `\uD83D\uDE0` at the longest, or a literal).
const CUT_TOKEN_TAIL: usize = 12;

/// Reads the text from `at` (after JSON blanks) as one JSON value up to `limit` and says what
/// it found. A check: nothing is built.
pub(crate) fn strict_check(text: &str, at: usize, limit: usize, max_depth: usize) -> StrictCheck {
    let mut sink = CheckSink;
    let mut reader = Reader::within(text, at, limit, max_depth, &mut sink);
    reader.skip_ws();
    let start = reader.i;
    if reader.value().is_ok() {
        return StrictCheck::Valid;
    }
    if !reader.ran_out() {
        // A token the end cuts is refused at its start or inside it (`"a\`, `\u12`, `tru`,
        // `12.`): that is running out too, as the strict parse would say.
        let tail = &reader.b[reader.i..];
        let number = |c: &u8| matches!(c, b'0'..=b'9' | b'-' | b'+' | b'.' | b'e' | b'E');
        if tail.len() <= CUT_TOKEN_TAIL || tail.iter().all(number) {
            return StrictCheck::ScalarCut;
        }
        return StrictCheck::Refused {
            reached: reader.i,
            open: reader.take_open(),
        };
    }
    let cut = reader.take_open();
    if cut.first().is_some_and(|&(open, _)| open == start) {
        StrictCheck::CutShort(cut)
    } else {
        StrictCheck::ScalarCut
    }
}

/// Reads one valid JSON string that starts exactly at `at` (its opening quote) and ends before
/// `limit`: its text and the offset after its closing quote.
pub(crate) fn string_at(text: &str, at: usize, limit: usize) -> Prefix<String> {
    let mut sink = CheckSink;
    let mut reader = Reader::within(text, at, limit, 0, &mut sink);
    if reader.peek() != Some(b'"') {
        return Prefix::Refused {
            reached: at + 1,
            open: Vec::new(),
            ran_out: false,
        };
    }
    match reader.string() {
        Some(key) => Prefix::Read(key.into_owned(), reader.i),
        None => Prefix::Refused {
            reached: reader.i.max(at + 1),
            open: Vec::new(),
            ran_out: false,
        },
    }
}

/// Where the valid JSON string whose opening quote is at `at` ends (just after its closing
/// quote, before `limit`); `None` if it is not one. Nothing is decoded or allocated.
pub(crate) fn string_end(text: &str, at: usize, limit: usize) -> Option<usize> {
    if at >= limit || text.as_bytes().get(at) != Some(&b'"') {
        return None;
    }
    let mut sink = CheckSink;
    let mut reader = Reader::within(text, at, limit, 0, &mut sink);
    let mut i = at + 1;
    reader.string_body::<false>(&mut i).map(|_| i + 1)
}

/// Reads `text` into llmjson's [`Value`] (`None`: take the tolerant path).
pub(crate) fn document(text: &str, max_depth: usize, duplicates: DuplicateKeys) -> Option<Value> {
    read_valid(text, max_depth, &mut ValueSink { duplicates }).ok()
}

/// The [`Sink`] that builds llmjson's [`Value`]. A repeated key keeps the last value at the first
/// one's place (as serde_json and `json.loads` do) under [`DuplicateKeys::Last`]; under the other
/// policies it refuses, and the tolerant path applies the policy and logs the duplicate.
#[derive(Debug, Clone, Default)]
pub struct ValueSink {
    /// The duplicate-key policy.
    pub duplicates: DuplicateKeys,
}

impl Sink for ValueSink {
    type Value = Value;
    type Key = String;
    /// A duplicate key under a policy other than `last`.
    type Error = ();

    fn null(&mut self) -> Result<Value, ()> {
        Ok(Value::Null)
    }
    fn bool(&mut self, value: bool) -> Result<Value, ()> {
        Ok(Value::Bool(value))
    }
    fn number(&mut self, text: &str, integer: bool) -> Result<Value, ()> {
        Ok(Value::Number(Number::from_scanned(text, integer)))
    }
    fn string(&mut self, value: Cow<'_, str>) -> Result<Value, ()> {
        Ok(Value::String(value.into_owned()))
    }
    fn key(&mut self, key: Cow<'_, str>) -> Result<String, ()> {
        Ok(key.into_owned())
    }
    fn array(&mut self, items: std::vec::Drain<'_, Value>) -> Result<Value, ()> {
        Ok(Value::Array(items.collect()))
    }
    fn object(&mut self, members: std::vec::Drain<'_, (String, Value)>) -> Result<Value, ()> {
        let mut map = Map::with_capacity(members.len());
        for (key, value) in members {
            if map.insert(key, value).is_some() && self.duplicates != DuplicateKeys::Last {
                return Err(());
            }
        }
        Ok(Value::Object(map))
    }
}

/// The [`Sink`] that builds nothing: [`read_valid`] with it is a one-pass validity check (depth
/// and `\u` surrogate pairs included) that allocates only for a string with escapes.
#[derive(Debug, Clone, Copy, Default)]
pub struct CheckSink;

impl Sink for CheckSink {
    type Value = ();
    type Key = ();
    type Error = std::convert::Infallible;

    fn null(&mut self) -> Result<(), Self::Error> {
        Ok(())
    }
    fn bool(&mut self, _: bool) -> Result<(), Self::Error> {
        Ok(())
    }
    fn number(&mut self, _: &str, _: bool) -> Result<(), Self::Error> {
        Ok(())
    }
    fn string(&mut self, _: Cow<'_, str>) -> Result<(), Self::Error> {
        Ok(())
    }
    fn key(&mut self, _: Cow<'_, str>) -> Result<(), Self::Error> {
        Ok(())
    }
    fn array(&mut self, _: std::vec::Drain<'_, ()>) -> Result<(), Self::Error> {
        Ok(())
    }
    fn object(&mut self, _: std::vec::Drain<'_, ((), ())>) -> Result<(), Self::Error> {
        Ok(())
    }
}

/// What the reader accepts besides JSON. The strict reader is [`Json`]: it accepts nothing
/// more, and every hook compiles away (`LAX` is false). The tolerant parser's convention lane
/// (`repair/parser/lane.rs`) accepts the conventions models write whole replies in (comments,
/// bare keys, single quotes, Python literals, trailing commas) where their reading is certain,
/// and logs each one: one reader, generic over what it accepts, rather than a second parser.
///
/// Every hook that returns `None` or `false` refuses the form, and the read stops there.
pub(crate) trait Accept<'t> {
    /// Whether any hook below is called.
    const LAX: bool;
    /// At `at`, a `/` or `#` where a token is expected: where the next token starts, if the
    /// trivia there (comments and blanks) is accepted.
    fn trivia(&mut self, _at: usize) -> Option<usize> {
        None
    }
    /// A key without quotes at `at`: where it ends.
    fn bare_key(&mut self, _at: usize) -> Option<usize> {
        None
    }
    /// A string in other quotes (single, typographic) whose opening quote is at `at`.
    fn quoted(&mut self, _at: usize, _key: bool) -> Option<Quoted> {
        None
    }
    /// A literal of another language at `at` (`True`, `None`): where it ends, and its value
    /// (`Some(bool)`, or `None` for null).
    fn foreign_literal(&mut self, _at: usize) -> Option<(usize, Option<bool>)> {
        None
    }
    /// Another language's `:` at `at`, after an object's key (`=`, `=>`, a full-width `：`):
    /// where it ends.
    fn colon_like(&mut self, _at: usize) -> Option<usize> {
        None
    }
    /// Another script's `,` at `at` after an item (a full-width `，`), in an array (`array`) or
    /// an object: where it ends.
    fn comma_like(&mut self, _at: usize, _array: bool) -> Option<usize> {
        None
    }
    /// The `,` at `comma` comes right before its container's closer.
    fn trailing_comma(&mut self, _comma: usize) -> bool {
        false
    }
    /// A value starts.
    fn value(&mut self) {}
    /// A container opened.
    fn opened(&mut self) {}
    /// The innermost container closed.
    fn closed(&mut self) {}
    /// An array's next item starts.
    fn item(&mut self) {}
    /// An object's key was read (its form, and where it stands). A `Cow` so that a key
    /// borrowed from the input is kept borrowed (`&str` would lose the input's lifetime).
    #[allow(clippy::ptr_arg)]
    fn key(&mut self, _key: &Cow<'t, str>, _form: KeyForm, _at: usize, _end: usize) -> bool {
        true
    }
}

/// A string in quotes JSON does not use, as [`Accept::quoted`] found it.
#[derive(Debug, Clone)]
pub(crate) struct Quoted {
    /// Its text, between the quotes.
    pub content: std::ops::Range<usize>,
    /// Just after its closing quote.
    pub end: usize,
    /// Its text holds backslash escapes (JSON's, and `\'`), to decode.
    pub escapes: bool,
}

/// How an object key was written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum KeyForm {
    Json,
    Bare,
    /// In other quotes, the opening one `len` bytes long.
    Quoted {
        len: usize,
    },
}

/// Plain JSON: the strict reader.
pub(crate) struct Json;

impl Accept<'_> for Json {
    const LAX: bool = false;
}

struct Reader<'t, 's, S: Sink, A: Accept<'t> = Json> {
    text: &'t str,
    b: &'t [u8],
    i: usize,
    depth_left: usize,
    sink: &'s mut S,
    /// Elements of the open arrays, innermost last.
    items: Vec<S::Value>,
    /// Members of the open objects, innermost last.
    members: Vec<(S::Key, S::Value)>,
    /// What it accepts besides JSON.
    accept: A,
    /// Where strings with escapes are decoded.
    scratch: String,
    /// When a read is refused: where the containers still open began (and the depth left
    /// there), innermost first.
    open: Vec<(usize, usize)>,
}

type Read<T, E> = Result<T, Refused<E>>;

impl<'t, 's, S: Sink> Reader<'t, 's, S, Json> {
    /// A strict reader standing at `at` that sees the text only up to `limit`.
    fn within(text: &'t str, at: usize, limit: usize, max_depth: usize, sink: &'s mut S) -> Self {
        Reader::accepting(text, at, limit, max_depth, sink, Json)
    }
}

impl<'t, 's, S: Sink, A: Accept<'t>> Reader<'t, 's, S, A> {
    /// A reader standing at `at` that sees the text only up to `limit` and accepts what
    /// `accept` does besides JSON.
    fn accepting(
        text: &'t str,
        at: usize,
        limit: usize,
        max_depth: usize,
        sink: &'s mut S,
        accept: A,
    ) -> Self {
        let b = text.as_bytes();
        Reader {
            text,
            b: &b[..limit.min(b.len())],
            i: at,
            depth_left: max_depth,
            sink,
            items: Vec::new(),
            members: Vec::new(),
            accept,
            scratch: String::new(),
            open: Vec::new(),
        }
    }

    #[inline]
    fn skip_ws(&mut self) {
        while let Some(b' ' | b'\n' | b'\r' | b'\t') = self.b.get(self.i) {
            self.i += 1;
        }
        if A::LAX && matches!(self.peek(), Some(b'/' | b'#')) {
            if let Some(next) = self.accept.trivia(self.i) {
                self.i = next;
            }
        }
    }

    #[inline]
    fn peek(&self) -> Option<u8> {
        self.b.get(self.i).copied()
    }

    fn value(&mut self) -> Read<S::Value, S::Error> {
        if A::LAX {
            self.accept.value();
        }
        let built = match self.peek() {
            Some(b'{') => return self.object(),
            Some(b'[') => return self.array(),
            Some(b'"') => {
                let text = self.string().ok_or(Refused::Invalid)?;
                self.sink.string(text)
            }
            Some(b't') => {
                self.literal(b"true")?;
                self.sink.bool(true)
            }
            Some(b'f') => {
                self.literal(b"false")?;
                self.sink.bool(false)
            }
            Some(b'n') => {
                self.literal(b"null")?;
                self.sink.null()
            }
            Some(b'-' | b'0'..=b'9') => {
                let start = self.i;
                let (end, integer) = super::number::scan(self.b, start).ok_or(Refused::Invalid)?;
                self.i = end;
                self.sink.number(&self.text[start..end], integer)
            }
            Some(c) if A::LAX => return self.convention_value(c),
            _ => return Err(Refused::Invalid),
        };
        built.map_err(Refused::Sink)
    }

    /// A value JSON does not allow, in a convention the reader accepts.
    #[cold]
    fn convention_value(&mut self, c: u8) -> Read<S::Value, S::Error> {
        let at = self.i;
        let built = match c {
            b'\'' | 0xE2 => {
                let quoted = self.accept.quoted(at, false).ok_or(Refused::Invalid)?;
                latex_free(self.b, &quoted)?;
                self.i = quoted.end;
                let text = quoted_text(self.text, &quoted);
                self.sink.string(text)
            }
            _ => {
                let (end, value) = self.accept.foreign_literal(at).ok_or(Refused::Invalid)?;
                self.i = end;
                match value {
                    Some(b) => self.sink.bool(b),
                    None => self.sink.null(),
                }
            }
        };
        built.map_err(Refused::Sink)
    }

    fn literal(&mut self, word: &[u8]) -> Read<(), S::Error> {
        if self.b[self.i..].starts_with(word) {
            self.i += word.len();
            Ok(())
        } else {
            Err(Refused::Invalid)
        }
    }

    /// Past an opening bracket: `true` when the container is empty (its closer consumed too).
    fn enter(&mut self, closer: u8) -> Read<bool, S::Error> {
        self.depth_left = self.depth_left.checked_sub(1).ok_or(Refused::Invalid)?;
        self.i += 1;
        if A::LAX {
            self.accept.opened();
        }
        self.skip_ws();
        if self.peek() == Some(closer) {
            self.i += 1;
            self.depth_left += 1;
            if A::LAX {
                self.accept.closed();
            }
            return Ok(true);
        }
        Ok(false)
    }

    fn array(&mut self) -> Read<S::Value, S::Error> {
        let start = (self.i, self.depth_left);
        let read = self.array_items();
        if read.is_err() {
            self.note_open(start);
        }
        read
    }

    /// The containers [`Reader::note_open`] noted, outermost first.
    fn take_open(&mut self) -> Vec<(usize, usize)> {
        let mut open = std::mem::take(&mut self.open);
        open.reverse();
        open
    }

    /// The read was refused where the text (up to its limit) runs out.
    fn ran_out(&self) -> bool {
        self.i >= self.b.len()
    }

    /// A container that began at `start` (offset, depth left) was being read when the read was
    /// refused: noted, for a caller that would otherwise read it again only to be refused at
    /// the same spot.
    #[cold]
    #[inline(never)]
    fn note_open(&mut self, start: (usize, usize)) {
        self.open.push(start);
    }

    fn array_items(&mut self) -> Read<S::Value, S::Error> {
        // Elements gather on a shared stack and move into the container at its exact size.
        let base = self.items.len();
        if !self.enter(b']')? {
            loop {
                if A::LAX {
                    self.accept.item();
                }
                let item = self.value()?;
                self.items.push(item);
                if self.closed_after_item(b']')? {
                    break;
                }
            }
        }
        self.sink
            .array(self.items.drain(base..))
            .map_err(Refused::Sink)
    }

    /// After an element or member: a comma (more follow) or the container's closer.
    #[inline]
    fn closed_after_item(&mut self, closer: u8) -> Read<bool, S::Error> {
        self.skip_ws();
        let next = self.peek().ok_or(Refused::Invalid)?;
        if next == b',' {
            let comma = self.i;
            self.i += 1;
            self.skip_ws();
            if A::LAX && self.peek() == Some(closer) && self.accept.trailing_comma(comma) {
                self.i += 1;
                self.depth_left += 1;
                self.accept.closed();
                return Ok(true);
            }
            Ok(false)
        } else if next == closer {
            self.i += 1;
            self.depth_left += 1;
            if A::LAX {
                self.accept.closed();
            }
            Ok(true)
        } else if let Some(end) = A::LAX
            .then(|| self.accept.comma_like(self.i, closer == b']'))
            .flatten()
        {
            self.i = end;
            self.skip_ws();
            // A closer right after it: a trailing comma in another script, left to the parser.
            if self.peek() == Some(closer) {
                return Err(Refused::Invalid);
            }
            Ok(false)
        } else {
            // Refused where the unexpected byte stands (what refused is known to the caller).
            Err(Refused::Invalid)
        }
    }

    fn object(&mut self) -> Read<S::Value, S::Error> {
        let start = (self.i, self.depth_left);
        let read = self.object_members();
        if read.is_err() {
            self.note_open(start);
        }
        read
    }

    fn object_members(&mut self) -> Read<S::Value, S::Error> {
        let base = self.members.len();
        if !self.enter(b'}')? {
            loop {
                let text = if self.peek() == Some(b'"') {
                    let at = self.i;
                    let text = self.string().ok_or(Refused::Invalid)?;
                    if A::LAX && !self.accept.key(&text, KeyForm::Json, at, self.i) {
                        return Err(Refused::Invalid);
                    }
                    text
                } else if A::LAX {
                    self.convention_key()?
                } else {
                    return Err(Refused::Invalid);
                };
                let key = self.sink.key(text).map_err(Refused::Sink)?;
                self.skip_ws();
                if self.peek() == Some(b':') {
                    self.i += 1;
                } else if let Some(end) = A::LAX.then(|| self.accept.colon_like(self.i)).flatten() {
                    self.i = end;
                } else {
                    return Err(Refused::Invalid);
                }
                self.skip_ws();
                let value = self.value()?;
                self.members.push((key, value));
                if self.closed_after_item(b'}')? {
                    break;
                }
            }
        }
        self.sink
            .object(self.members.drain(base..))
            .map_err(Refused::Sink)
    }

    /// A key JSON does not allow, in a convention the reader accepts.
    #[cold]
    fn convention_key(&mut self) -> Read<Cow<'t, str>, S::Error> {
        let at = self.i;
        let (text, form, end) = if matches!(self.peek(), Some(b'\'' | 0xE2)) {
            let quoted = self.accept.quoted(at, true).ok_or(Refused::Invalid)?;
            latex_free(self.b, &quoted)?;
            let len = quoted.content.start - at;
            let text = quoted_text(self.text, &quoted);
            (text, KeyForm::Quoted { len }, quoted.end)
        } else {
            let end = self.accept.bare_key(at).ok_or(Refused::Invalid)?;
            (Cow::Borrowed(&self.text[at..end]), KeyForm::Bare, end)
        };
        if !self.accept.key(&text, form, at, end) {
            return Err(Refused::Invalid);
        }
        self.i = end;
        Ok(text)
    }

    /// A string starting at its opening quote; escapes decoded, control characters refused,
    /// `\u` surrogates only in pairs. Borrowed from the input when it has no escape. When it
    /// refuses, the reader stands where the string went wrong (what a failed read cost).
    fn string(&mut self) -> Option<Cow<'t, str>> {
        let mut i = self.i + 1;
        let read = self.string_body::<true>(&mut i);
        self.i = if read.is_some() { i + 1 } else { i };
        read
    }

    /// The string whose content starts at `*i`; `*i` ends at its closing quote, or where it was
    /// refused. `BUILD`: decode it (otherwise only check it, and return an empty text).
    #[inline]
    fn string_body<const BUILD: bool>(&mut self, i: &mut usize) -> Option<Cow<'t, str>> {
        let text = self.text;
        let start = *i;
        *i = skip_plain(self.b, start);
        // The common case: no escape before the closing quote.
        match *self.b.get(*i)? {
            b'"' => return Some(Cow::Borrowed(&text[start..*i])),
            b'\\' => {}
            _ => return None,
        }
        // Decoded into the reader's scratch buffer, then copied once at its exact size (as
        // serde_json does): a long string with escapes does not grow its own buffer step by step.
        let mut out = std::mem::take(&mut self.scratch);
        out.clear();
        if BUILD {
            out.push_str(&text[start..*i]);
        }
        let read = self.decode_rest::<BUILD>(i, &mut out);
        let owned = read.map(|()| Cow::Owned(out.as_str().to_owned()));
        self.scratch = out;
        owned
    }

    /// The rest of a string with escapes, from the first backslash at `*i`, decoded into `out`.
    fn decode_rest<const BUILD: bool>(&self, i: &mut usize, out: &mut String) -> Option<()> {
        let text = self.text;
        let mut run = *i;
        loop {
            let &c = self.b.get(*i)?;
            match c {
                b'"' => {
                    if BUILD {
                        out.push_str(&text[run..*i]);
                    }
                    return Some(());
                }
                b'\\' => {
                    if BUILD {
                        out.push_str(&text[run..*i]);
                    }
                    let &e = self.b.get(*i + 1)?;
                    // `\frac`, `\theta`: LaTeX, maybe, which the repair stage decides (a
                    // strict reading would make a form feed or a tab of its backslash).
                    if crate::spelling::latex::collision_at(self.b, *i, self.b.len()).is_some() {
                        return None;
                    }
                    *i += 2;
                    let decoded = match e {
                        // A character, or a refusal: a lone surrogate, a cut or bad escape.
                        b'u' => match crate::spelling::unicode_escape(self.b, *i - 2, self.b.len())
                        {
                            UnicodeEscape::Char(c, len) => {
                                *i += len - 2;
                                c
                            }
                            _ => return None,
                        },
                        _ => crate::spelling::simple_escape(e)?,
                    };
                    if BUILD {
                        out.push(decoded);
                    }
                    run = *i;
                }
                0..=0x1f => return None,
                _ => *i = skip_plain(self.b, *i + 1),
            }
        }
    }
}

/// A string in other quotes whose escapes may be LaTeX (`'$\frac{a}{b}$'`) is the repair
/// stage's to read, as in `"…"`.
fn latex_free<E>(b: &[u8], quoted: &Quoted) -> Result<(), Refused<E>> {
    match b.get(quoted.content.clone()) {
        Some(raw) if quoted.escapes && crate::spelling::latex::any_collision(raw) => {
            Err(Refused::Invalid)
        }
        _ => Ok(()),
    }
}

/// The text of a string in other quotes, its escapes (JSON's, and `\'`) decoded.
fn quoted_text<'t>(text: &'t str, quoted: &Quoted) -> Cow<'t, str> {
    let raw = &text[quoted.content.clone()];
    if !quoted.escapes {
        return Cow::Borrowed(raw);
    }
    let mut out = String::with_capacity(raw.len());
    let mut chars = raw.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            // (Any other escaped character is itself.)
            Some(c) => out.push(
                u8::try_from(c)
                    .ok()
                    .and_then(crate::spelling::simple_escape)
                    .unwrap_or(c),
            ),
            None => out.push('\\'),
        }
    }
    Cow::Owned(out)
}

/// The first byte at or after `i` that a string cannot hold as it is: a quote, a backslash or a
/// control character (or `b.len()`). Eight bytes at a time, as serde_json scans.
#[inline]
pub(crate) fn skip_plain(b: &[u8], mut i: usize) -> usize {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    while let Some(chunk) = b.get(i..i + 8) {
        let mut word = [0u8; 8];
        word.copy_from_slice(chunk);
        let x = u64::from_le_bytes(word);
        // A byte is flagged when it equals '"' or '\\' or is below 0x20 (the lowest flagged
        // byte is exact: borrows only run towards higher bytes).
        let quote = x ^ (ONES * u64::from(b'"'));
        let backslash = x ^ (ONES * u64::from(b'\\'));
        let flagged = (quote.wrapping_sub(ONES) & !quote
            | backslash.wrapping_sub(ONES) & !backslash
            | x.wrapping_sub(ONES * 0x20) & !x)
            & HIGH;
        if flagged != 0 {
            return i + (flagged.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    while let Some(&c) = b.get(i) {
        if c == b'"' || c == b'\\' || c < 0x20 {
            return i;
        }
        i += 1;
    }
    i
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stacks_kept_between_reads_leave_nothing_behind() {
        // A refused read leaves the values it was building (items, members) on the stacks:
        // they are emptied, and the next read on the same stacks reads as a fresh one.
        let mut stacks = Stacks::default();
        let read = |text: &str, stacks: &mut Stacks| {
            value_accepting(text, 0, text.len(), 64, DuplicateKeys::Error, Json, stacks).0
        };
        let refused = read(r#"{"a": [1, "t\u00e9", {"b": [2, 3], "c": x"#, &mut stacks);
        assert!(matches!(refused, Prefix::Refused { .. }));
        // Handed back empty, with the room they grew to (the next read allocates none of it).
        assert!(stacks.items.is_empty() && stacks.members.is_empty());
        assert!(stacks.items.capacity() > 0 && stacks.members.capacity() > 0);
        for text in [r#"{"d": [4, {"e": "f\u00e9"}]}"#, r#"[["g"], {"h": 5}]"#] {
            let Prefix::Read(kept, _) = read(text, &mut stacks) else {
                panic!("{text} refused");
            };
            let Prefix::Read(fresh, _) = read(text, &mut Stacks::default()) else {
                panic!("{text} refused");
            };
            assert_eq!(kept, fresh, "{text}");
        }
    }

    fn read(text: &str) -> Option<Value> {
        document(text, 128, DuplicateKeys::Last)
    }

    /// A read that runs out of text with nothing invalid before says where the containers then
    /// open began (the lane skips them); any other refusal says nothing.
    #[test]
    fn a_read_cut_short_names_the_containers_left_open() {
        let cut = |text: &str, at: usize| match value_at(
            text,
            at,
            text.len(),
            128,
            DuplicateKeys::Last,
        ) {
            Prefix::Refused { open, ran_out, .. } => open
                .into_iter()
                .filter(|_| ran_out)
                .map(|(at, _)| at)
                .collect::<Vec<_>>(),
            Prefix::Read(..) => panic!("{text} read"),
        };
        assert_eq!(cut(r#"{"a": [1, {"b": "x"#, 0), [0, 6, 10]);
        assert_eq!(cut(r#"{"a": [1, {"b": 12"#, 0), [0, 6, 10]);
        assert_eq!(cut(r#"{"a": [1, {"b": "x"}, "#, 0), [0, 6]);
        assert_eq!(cut(r#"x [{"a": {"#, 2), [2, 3, 9]);
        // Invalid before the end, or a literal cut short (the reader stops at its start).
        assert!(cut(r#"{"a": [1, 'b', {"c": "#, 0).is_empty());
        assert!(cut(r#"{"a": [tr"#, 0).is_empty());
    }

    #[test]
    fn reads_what_serde_json_reads_and_refuses_what_it_refuses() {
        let cases = [
            r#" {"a": [1, -2, 3.50, 1e5, -0, 18446744073709551616, -9223372036854775808], "b": {"c": null}} "#,
            r#"["\u00e9\ud83d\ude00\n\"\\\/", "", "tab\there"]"#,
            "[]",
            "{}",
            "[true,false,null]",
            "0",
            r#""s""#,
            r#"{"a":1,"a":2}"#,
        ];
        for text in cases {
            let ours = read(text).unwrap_or_else(|| panic!("{text}"));
            let theirs: serde_json::Value = serde_json::from_str(text).unwrap();
            assert_eq!(serde_json::Value::from(ours), theirs, "{text}");
        }
        let refused = [
            "",
            "[1,]",
            "{\"a\":1,}",
            "[01]",
            "[1.]",
            "[.5]",
            "[+1]",
            "{'a':1}",
            "[\"\u{1}\"]",
            r#"["\ud800"]"#,
            r#"["\udc00\ud800"]"#,
            r#"["\x"]"#,
            "[1] x",
            "[1",
            "{\"a\" 1}",
            "[tru]",
            "[NaN]",
            "{\"a\":}",
            "[1 2]",
        ];
        for text in refused {
            assert!(read(text).is_none(), "{text}");
            assert!(
                serde_json::from_str::<serde_json::Value>(text).is_err(),
                "{text}"
            );
        }
    }

    #[test]
    fn the_plain_run_ends_at_the_first_special_byte_wherever_it_is() {
        for len in 0..20 {
            for special in [b'"', b'\\', 0x00, 0x1f, b'\n'] {
                let mut b = vec![b'a'; len];
                b.extend_from_slice(&[0xc3, 0xa9]); // é: high bytes are plain
                b.push(special);
                b.extend_from_slice(b"\"zz\\");
                assert_eq!(skip_plain(&b, 0), len + 2, "{len} {special}");
            }
            assert_eq!(skip_plain(&vec![b' '; len], 0), len);
        }
    }

    #[test]
    fn keeps_digits_and_order() {
        let v = read(r#"{"z": 1.50, "a": -0, "m": 1E+2}"#).unwrap();
        assert_eq!(v.to_string(), r#"{"z":1.50,"a":-0,"m":1E+2}"#);
    }

    #[test]
    fn depth_and_duplicate_policies_hand_over_to_the_tolerant_path() {
        assert!(document("[[[]]]", 3, DuplicateKeys::Last).is_some());
        assert!(document("[[[[]]]]", 3, DuplicateKeys::Last).is_none());
        assert!(document(r#"{"a":1,"a":2}"#, 8, DuplicateKeys::First).is_none());
        assert!(document(r#"{"a":1,"b":2}"#, 8, DuplicateKeys::Error).is_some());
    }
}
