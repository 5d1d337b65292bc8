//! The live reader: reads the text as it arrives, once, and tells the tree what it read. It
//! locates as it goes (prose, `<think>` blocks and fence lines before the JSON are skipped; a
//! fence's closing line ends the value) and reads the forms models write — strict JSON, comments,
//! trailing and missing commas, single-quoted and typographic strings, bare keys, Python
//! literals, raw line breaks in strings. A spot it reads with a guess (a quote inside a string,
//! a closer that does not match, text it skips) marks the value provisional.
//!
//! It never looks back: each call continues where the last stopped. Where a decision needs a
//! byte that has not arrived (what follows a quote, the end of a number or a word, the rest of
//! an escape or a fence line), it stops *before* that token and reads it again on the next
//! call: a bounded rescan (a token, or the blanks after a quote), never the text before it.
//! What it reads is not what the stream settles: the parked repair parser decides that
//! (`settled.rs`); this reader locates the value, watches the limits and strictness, and reads
//! the last window on from where the parser stopped (`Reader::after_engine`), for snapshots.

use super::tree::Tree;
use crate::spelling::numbers::Grouped;
use crate::spelling::quotes::QuoteClass;
use crate::spelling::{UnicodeEscape, MINUS_SIGN};
use crate::value::number;
use crate::{Number, Value};

/// A fence's opening line longer than this is not one (the wait for its end is bounded).
const FENCE_LINE: usize = 256;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    /// Before the JSON: prose, a fence's opening line.
    Locate,
    /// Inside a reasoning block (`<think>…</think>`): its close tag.
    Think(&'static str),
    /// Reading the value.
    Json,
    /// The value ended (its root closed, or its fence did): the rest is left to `finish`.
    Ended,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    Value,
    Key,
    Colon,
    Next,
    Str,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Trivia {
    Line,
    Block,
}

/// An open string.
#[derive(Debug, Clone)]
struct Str {
    /// The quote that opened it (which quotes close it).
    class: QuoteClass,
    key: bool,
    /// Where its text starts.
    start: usize,
    /// While no escape was met, the text is the reply's own (`text[start..pos]`) and nothing
    /// is copied until the string closes; after one, the text so far, escapes decoded.
    plain: bool,
    buf: String,
    /// How much of the text the events have reported.
    reported: usize,
}

/// Why the reader stopped.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Stop {
    /// It needs more text.
    More,
    /// Nesting went over the limit.
    TooDeep,
}

#[derive(Debug, Clone)]
pub(super) struct Reader {
    pub pos: usize,
    phase: Phase,
    mode: Mode,
    trivia: Option<Trivia>,
    /// Inside a fence: its marker byte (`` ` `` or `~`) and length.
    fence: Option<(u8, usize)>,
    /// Where the value's fence closed (the value's region ends there).
    fence_closed_at: Option<usize>,
    /// The fence the reader is in: whether it is labelled JSON, and where its content starts.
    fence_json: bool,
    fence_content: usize,
    /// The value may not be the answer: it is in a fence not labelled JSON and is not what the
    /// fence begins with (JSON in a line of code), which any JSON in the prose outranks.
    pub weak: bool,
    string: Option<Str>,
    /// Where the value started.
    pub start: Option<usize>,
    /// A scan for the end of a token that reached the end of the text: (the token's start, the
    /// scan, how far it got). The next call resumes there, so a long token arriving in small
    /// chunks is scanned once, not once per chunk.
    resume: Option<(usize, Scan, usize)>,
    /// Everything read so far is strict JSON (what `value::parse` accepts): a clean read of a
    /// valid reply then needs no second check at the end (unless `latex_doubt`).
    pub strict: bool,
    /// A string holds an escape that may begin a LaTeX command (`\frac`): valid JSON, whose
    /// reading the repair stage decides, so the final parse is not taken from here.
    pub latex_doubt: bool,
    /// The last thing read was a comma between values (a closer now makes it a trailing one).
    after_comma: bool,
}

/// The scans that can wait for a token's end.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Scan {
    Number,
    Word,
    BareText,
    BareKey,
    Blanks,
    LeadingString,
}

impl Str {
    /// The string's text so far (`pos`: where the reader stopped in it).
    fn content<'t>(&'t self, text: &'t str, pos: usize) -> &'t str {
        if self.plain {
            &text[self.start..pos]
        } else {
            &self.buf
        }
    }
}

impl Reader {
    pub fn new() -> Reader {
        Reader {
            pos: 0,
            phase: Phase::Locate,
            mode: Mode::Value,
            trivia: None,
            fence: None,
            fence_closed_at: None,
            fence_json: false,
            fence_content: 0,
            weak: false,
            string: None,
            start: None,
            resume: None,
            strict: true,
            latex_doubt: false,
            after_comma: false,
        }
    }

    /// A reader that goes on from where the decision procedure stopped (`pos`, expecting
    /// `mode`): what it reads past there is the live view's provisional tail. The located start
    /// and the fence are this reader's.
    pub fn after_engine(&self, pos: usize, mode: crate::repair::grammar::Mode) -> Reader {
        use crate::repair::grammar::Mode as Engine;
        let (mode, after_comma) = match mode {
            Engine::Value { after_comma } => (Mode::Value, after_comma),
            Engine::Key { after_comma } => (Mode::Key, after_comma),
            Engine::Colon => (Mode::Colon, false),
            Engine::Next { .. } => (Mode::Next, false),
            Engine::Str { .. } | Engine::Done | Engine::ScalarDone => (Mode::Next, false),
        };
        Reader {
            pos,
            phase: Phase::Json,
            mode,
            trivia: None,
            fence: self.fence,
            fence_closed_at: self.fence_closed_at,
            fence_json: self.fence_json,
            fence_content: self.fence_content,
            weak: self.weak,
            string: None,
            start: self.start,
            resume: None,
            strict: self.strict,
            latex_doubt: self.latex_doubt,
            after_comma,
        }
    }

    /// After the value, inside its fence: where the fence's closing line begins, once it has
    /// arrived (each byte looked at once; the last two kept for a marker cut between chunks).
    fn find_fence_close(&mut self, text: &str) {
        let Some((marker, _)) = self.fence else {
            return;
        };
        if self.fence_closed_at.is_some() {
            return;
        }
        let bytes = text.as_bytes();
        let mut at = self.pos;
        while let Some(k) = memchr::memchr(marker, bytes.get(at..).unwrap_or_default()) {
            let i = at + k;
            if i + 3 > bytes.len() {
                self.pos = i;
                return;
            }
            if bytes[i..i + 3] == [marker; 3] && at_line_start(bytes, i) {
                self.fence_closed_at = Some(i);
                self.pos = i;
                return;
            }
            at = i + 1;
        }
        self.pos = bytes.len().max(self.pos);
    }

    /// Where the fence around the value closed, once it did: nothing after it is the value's.
    pub fn fence_closed_at(&self) -> Option<usize> {
        self.fence_closed_at
    }

    /// The marker byte of the fence the value is in, if it is in one.
    pub fn fence_byte(&self) -> Option<u8> {
        self.fence.map(|(byte, _)| byte)
    }

    /// Stops reading for good (the live view ends here).
    /// Whether it is reading the JSON (not locating it, not past its end).
    pub fn reading_json(&self) -> bool {
        self.phase == Phase::Json
    }

    pub fn halt(&mut self) {
        self.phase = Phase::Ended;
        self.string = None;
    }

    /// Reads as far as `text` allows.
    pub fn run(&mut self, text: &str, tree: &mut Tree) -> Stop {
        let stop = loop {
            let progress = match self.phase {
                Phase::Locate => self.locate(text, tree),
                Phase::Think(close) => self.think(text, close),
                Phase::Json => self.json(text, tree),
                Phase::Ended => {
                    self.find_fence_close(text);
                    break Stop::More;
                }
            };
            match progress {
                Ok(true) => continue,
                Ok(false) => break Stop::More,
                Err(stop) => break stop,
            }
        };
        self.report_growth(text, tree);
        stop
    }

    /// The open string's new text, as one event per call.
    pub fn report_growth(&mut self, text: &str, tree: &mut Tree) {
        if let Some(s) = &mut self.string {
            let content = s.content(text, self.pos);
            if !s.key && content.len() > s.reported && tree.events.is_some() {
                let path = tree.next_pointer();
                let text = content[s.reported..].to_owned();
                s.reported = content.len();
                if let Some(events) = &mut tree.events {
                    events.push(super::event::Event::StringGrew { path, text });
                }
            }
        }
    }

    /// The value cut off where the text ends, if there is one (for a snapshot). After a
    /// reading halted at a guess ([`Tree::halt_at_guess`]), only a string the end cut: a value
    /// after the guess was not read.
    pub fn pending(&self, text: &str, halted: bool) -> Option<Value> {
        if self.phase != Phase::Json {
            return None;
        }
        if let Some(s) = &self.string {
            return if s.key {
                None
            } else {
                Some(Value::String(s.content(text, self.pos).to_owned()))
            };
        }
        if halted || self.mode != Mode::Value || self.trivia.is_some() {
            return None;
        }
        let rest = text[self.pos..].trim_start_matches(is_blank);
        let bytes = rest.as_bytes();
        match bytes.first() {
            Some(b'-' | b'+' | b'.' | b'0'..=b'9') => {
                // `2.` reads 2.0 and `1e` 1, as the repair parser completes a cut number; digits
                // a comma follows show as read so far (the comma may yet start a thousands group).
                let token = rest
                    .find(|c: char| !matches!(c, '0'..='9' | '-' | '+' | '.' | 'e' | 'E' | '_'))
                    .map_or(rest, |end| &rest[..end]);
                lenient_number(token.trim_end_matches(['e', 'E', '+', '-', '_']))
            }
            // A string whose opening quote arrived alone (it may be `"""`).
            Some(b'"' | b'\'') => Some(Value::String(String::new())),
            Some(b'a'..=b'z' | b'A'..=b'Z') => {
                crate::spelling::completing(before_full_width(rest)).map(Value::from)
            }
            _ => None,
        }
    }

    fn locate(&mut self, text: &str, tree: &mut Tree) -> Result<bool, Stop> {
        let bytes = text.as_bytes();
        while self.pos < bytes.len() {
            let at = self.pos;
            match bytes[at] {
                b'<' => match reasoning_tag_state(&text[at..]) {
                    (Prefix::Yes, Some((open, close))) => {
                        self.pos += open.len();
                        self.phase = Phase::Think(close);
                        return Ok(true);
                    }
                    (Prefix::Yes | Prefix::Maybe, _) => return Ok(false),
                    (Prefix::No, _) => self.pos += 1,
                },
                marker @ (b'`' | b'~') if at_line_start(bytes, at) => {
                    let run = bytes[at..].iter().take_while(|&&b| b == marker).count();
                    if at + run == bytes.len() {
                        return Ok(false);
                    }
                    if run < 3 {
                        self.pos += run;
                        continue;
                    }
                    // The whole fence line is needed: its end is where the content starts
                    // (or its bracket: "```json{" puts the JSON on the fence's line).
                    let info = &bytes[at + run..bytes.len().min(at + run + FENCE_LINE)];
                    let Some(end) = info.iter().position(|&b| matches!(b, b'\n' | b'{' | b'['))
                    else {
                        if info.len() < FENCE_LINE {
                            return Ok(false);
                        }
                        // Too long for a fence's info string: a run of backticks in prose.
                        self.pos += run;
                        continue;
                    };
                    // `` ```json"name": … ``: a key right after the label starts the content.
                    let label = crate::locate::fence_label(bytes, at + run);
                    let after_label = at + run + label.len();
                    self.pos = if !label.is_empty()
                        && after_label < at + run + end
                        && matches!(bytes[after_label], b'"' | b'\'')
                    {
                        after_label
                    } else {
                        at + run + end + usize::from(info[end] == b'\n')
                    };
                    self.fence = match self.fence {
                        // A closing line with nothing read: the fence held no JSON.
                        Some(_) => None,
                        None => Some((marker, run)),
                    };
                    self.fence_json = crate::locate::is_json_label(&label);
                    self.fence_content = self.pos;
                }
                b'{' | b'[' => match looks_like_json(&bytes[at..], self.fence.is_some()) {
                    Prefix::Yes => {
                        let object = bytes[at] == b'{';
                        self.start = Some(at);
                        self.weak = self.fence.is_some()
                            && !self.fence_json
                            && bytes[self.fence_content.min(at)..at]
                                .iter()
                                .any(|&b| !is_blank_byte(b));
                        self.phase = Phase::Json;
                        self.pos += 1;
                        if !tree.open(object) {
                            return Err(Stop::TooDeep);
                        }
                        self.mode = if object { Mode::Key } else { Mode::Value };
                        return Ok(true);
                    }
                    Prefix::Maybe => return Ok(false),
                    Prefix::No => self.pos += 1,
                },
                b'"' | b'\'' | 0xE2
                    if at_line_start(bytes, at)
                        || (self.fence.is_some() && at == self.fence_content) =>
                {
                    match key_line(&bytes[at..]) {
                        // `"steps": [` first on a line: an object whose `{` the reply left out.
                        Prefix::Yes => return self.start_keyed(at, tree),
                        Prefix::Maybe => return Ok(false),
                        // The reply itself is a string (`"see {this}"`): its brackets are text.
                        Prefix::No
                            if bytes[at] == b'"'
                                && bytes[..at].iter().all(|&b| is_blank_byte(b)) =>
                        {
                            match string_end(&mut self.resume, bytes, at) {
                                Some(end) => self.pos = end,
                                None => return Ok(false),
                            }
                        }
                        Prefix::No => self.pos += 1,
                    }
                }
                // `Here it is: "id": 7, "name": "x"}`: prose that goes on into an object's
                // members (the one-shot parse's rule, `locate::members_follow`).
                b'"' if crate::locate::after_prose_break(bytes, at)
                    && quotes_before_in_line(bytes, at) < crate::locate::MEMBERS_QUOTES =>
                {
                    match (
                        key_line(&bytes[at..]),
                        crate::locate::members_follow(bytes, at),
                    ) {
                        (Prefix::Maybe, _) | (Prefix::Yes, (false, true)) => return Ok(false),
                        (Prefix::Yes, (true, _)) => return self.start_keyed(at, tree),
                        _ => self.pos += 1,
                    }
                }
                _ => self.pos += 1,
            }
        }
        Ok(false)
    }

    /// The JSON starts at `at` with a key: an object whose `{` the reply left out.
    fn start_keyed(&mut self, at: usize, tree: &mut Tree) -> Result<bool, Stop> {
        self.start = Some(at);
        self.phase = Phase::Json;
        if !tree.open(true) {
            return Err(Stop::TooDeep);
        }
        tree.presume();
        self.mode = Mode::Key;
        Ok(true)
    }

    fn think(&mut self, text: &str, end: &str) -> Result<bool, Stop> {
        match text[self.pos..].find(end) {
            Some(at) => {
                self.pos += at + end.len();
                self.phase = Phase::Locate;
                Ok(true)
            }
            None => {
                // Keep the last bytes: the end tag may be arriving in pieces.
                let keep = text.len().saturating_sub(end.len() - 1).max(self.pos);
                self.pos = floor_char_boundary(text, keep);
                Ok(false)
            }
        }
    }

    fn json(&mut self, text: &str, tree: &mut Tree) -> Result<bool, Stop> {
        let bytes = text.as_bytes();
        loop {
            if tree.halted {
                return Ok(false);
            }
            if let Some(trivia) = self.trivia {
                if !self.skip_trivia(bytes, trivia) {
                    return Ok(false);
                }
            }
            if self.mode == Mode::Str {
                if !self.read_string(text, tree) {
                    return Ok(false);
                }
                continue;
            }
            while self.pos < bytes.len() && is_blank_byte(bytes[self.pos]) {
                self.pos += 1;
            }
            let at = self.pos;
            let Some(&b) = bytes.get(at) else {
                return Ok(false);
            };
            match b {
                b'/' => match bytes.get(at + 1) {
                    None => return Ok(false),
                    Some(b'/') => {
                        self.trivia = Some(Trivia::Line);
                        self.strict = false;
                        self.pos += 2;
                        continue;
                    }
                    Some(b'*') => {
                        self.trivia = Some(Trivia::Block);
                        self.strict = false;
                        self.pos += 2;
                        continue;
                    }
                    Some(_) => {}
                },
                b'#' => {
                    self.trivia = Some(Trivia::Line);
                    self.strict = false;
                    self.pos += 1;
                    continue;
                }
                marker @ (b'`' | b'~')
                    if self.fence.is_some_and(|(m, _)| m == marker) && at_line_start(bytes, at) =>
                {
                    let run = bytes[at..].iter().take_while(|&&b| b == marker).count();
                    if run < 3 && at + run == bytes.len() {
                        return Ok(false);
                    }
                    if run >= 3 {
                        // The fence closes: the value ends here, cut off.
                        self.phase = Phase::Ended;
                        self.fence_closed_at = Some(at);
                        return Ok(true);
                    }
                }
                _ => {}
            }
            let done = match self.mode {
                Mode::Value => self.value(text, tree)?,
                Mode::Key => self.key(text, tree)?,
                Mode::Colon => {
                    self.strict &= b == b':';
                    if b == b'=' && bytes.get(at + 1) == Some(&b'>') {
                        self.pos += 2;
                    } else if b == b'=' && at + 1 == bytes.len() {
                        return Ok(false);
                    } else if b == b':' || b == b'=' {
                        self.pos += 1;
                    } else if text[at..].starts_with('：') {
                        self.pos += '：'.len_utf8();
                    } else if is_prefix_of_multibyte(&bytes[at..], "：") {
                        return Ok(false);
                    } else {
                        tree.contest();
                    }
                    self.mode = Mode::Value;
                    true
                }
                Mode::Next => self.next(text, tree),
                Mode::Str => true,
            };
            if !done {
                return Ok(false);
            }
            if tree.is_done() {
                self.phase = Phase::Ended;
                return Ok(true);
            }
        }
    }

    /// Skips a comment; false when its end has not arrived.
    fn skip_trivia(&mut self, bytes: &[u8], trivia: Trivia) -> bool {
        match trivia {
            Trivia::Line => match bytes[self.pos..].iter().position(|&b| b == b'\n') {
                Some(at) => self.pos += at + 1,
                None => {
                    self.pos = bytes.len();
                    return false;
                }
            },
            Trivia::Block => match memchr::memmem::find(&bytes[self.pos..], b"*/") {
                Some(at) => self.pos += at + 2,
                None => {
                    // Keep a trailing `*`: the `/` may come next.
                    self.pos = bytes.len().saturating_sub(1).max(self.pos);
                    return false;
                }
            },
        }
        self.trivia = None;
        true
    }

    /// A value was read: a comma, a closer (or, missing, the next value) comes next.
    /// A literal spelled with a sign (`-Infinity`) at `self.pos`, read whole.
    fn signed_literal(&mut self, bytes: &[u8], tree: &mut Tree) -> bool {
        let at = self.pos;
        let Some(spelling) = crate::spelling::literal_prefix_of(&bytes[at..]) else {
            return false;
        };
        let end = at + spelling.word.len();
        if bytes.get(end).is_some_and(|&b| is_word_byte(b)) {
            return false;
        }
        self.strict = false;
        self.pos = end;
        tree.scalar(Value::from(spelling), end, false);
        self.after_value();
        true
    }

    fn after_value(&mut self) {
        self.mode = Mode::Next;
    }

    fn element_mode(tree: &Tree) -> Mode {
        if tree.in_object() {
            Mode::Key
        } else {
            Mode::Value
        }
    }

    /// A value is expected. False when the token at `pos` has not all arrived.
    fn value(&mut self, text: &str, tree: &mut Tree) -> Result<bool, Stop> {
        let bytes = text.as_bytes();
        let at = self.pos;
        let b = bytes[at];
        let after_comma = std::mem::take(&mut self.after_comma);
        match b {
            b'{' | b'[' => {
                if !tree.open(b == b'{') {
                    return Err(Stop::TooDeep);
                }
                self.pos += 1;
                self.mode = if b == b'{' { Mode::Key } else { Mode::Value };
            }
            // A Python tuple: a list, as the repair stage reads it.
            b'(' => {
                if !tree.open(false) {
                    return Err(Stop::TooDeep);
                }
                self.strict = false;
                self.pos += 1;
                self.mode = Mode::Value;
            }
            b')' if tree.in_array() => {
                self.strict = false;
                self.close(b']', tree);
            }
            b'}' | b']' => {
                if tree.has_key() {
                    // `"a": }`: the key gets no value.
                    tree.contest();
                }
                // `[1, 2,]`: a trailing comma.
                self.strict &= !after_comma;
                self.close(b, tree);
            }
            b',' => {
                self.pos += 1;
                tree.contest();
            }
            b'-' if self.signed_literal(bytes, tree) => return Ok(true),
            b'-' | b'+' | b'.' | b'0'..=b'9' => return Ok(self.number(text, tree)),
            // `−12.5`: the minus sign of typeset text.
            0xE2 if bytes[at..].starts_with(&MINUS_SIGN) => return Ok(self.number(text, tree)),
            b if b.is_ascii_alphabetic() || b == b'_' || b == b'$' => {
                return Ok(self.word(text, tree))
            }
            _ => match opening_quote(&bytes[at..]) {
                Quote::Opens(class, len) => self.open_string(class, len, false, tree),
                Quote::Maybe => return Ok(false),
                Quote::No => self.skip_char(text, tree),
            },
        }
        Ok(true)
    }

    fn key(&mut self, text: &str, tree: &mut Tree) -> Result<bool, Stop> {
        let bytes = text.as_bytes();
        let at = self.pos;
        let after_comma = std::mem::take(&mut self.after_comma);
        match opening_quote(&bytes[at..]) {
            Quote::Opens(class, len) => {
                self.open_string(class, len, true, tree);
                return Ok(true);
            }
            Quote::Maybe => return Ok(false),
            Quote::No => {}
        }
        match bytes[at] {
            b'}' | b']' => {
                self.strict &= !after_comma;
                self.close(bytes[at], tree);
            }
            b',' => {
                self.strict = false;
                self.pos += 1;
            }
            b'{' | b'[' => {
                // A value where a key belongs: read it (the tree keeps it under "").
                tree.contest();
                self.mode = Mode::Value;
            }
            b if is_word_byte(b) => {
                let Some(end) = token_end(&mut self.resume, bytes, at, Scan::BareKey, is_word_byte)
                else {
                    // Still waiting: the comma before it stays in force.
                    self.after_comma = after_comma;
                    return Ok(false);
                };
                self.strict = false;
                let len = end - at;
                tree.key(text[at..at + len].to_owned());
                self.pos += len;
                self.mode = Mode::Colon;
            }
            _ => self.skip_char(text, tree),
        }
        Ok(true)
    }

    /// After a value.
    fn next(&mut self, text: &str, tree: &mut Tree) -> bool {
        let bytes = text.as_bytes();
        let at = self.pos;
        match bytes[at] {
            b',' => {
                self.pos += 1;
                self.after_comma = true;
                self.mode = Self::element_mode(tree);
            }
            b'}' | b']' => self.close(bytes[at], tree),
            // The end of a Python tuple.
            b')' if tree.in_array() => {
                self.strict = false;
                self.close(b']', tree);
            }
            b'"' | b'\'' | b'{' | b'[' | b'-' | b'0'..=b'9' => {
                // A missing comma.
                tree.contest();
                self.mode = Self::element_mode(tree);
            }
            b if b.is_ascii_alphabetic() => {
                tree.contest();
                self.mode = Self::element_mode(tree);
            }
            _ => {
                if text[at..].starts_with('，') {
                    self.pos += '，'.len_utf8();
                    self.strict = false;
                    self.mode = Self::element_mode(tree);
                } else if is_prefix_of_multibyte(&bytes[at..], "，") {
                    return false;
                } else {
                    self.skip_char(text, tree);
                }
            }
        }
        true
    }

    /// Skips one character the reader cannot place.
    fn skip_char(&mut self, text: &str, tree: &mut Tree) {
        let len = text[self.pos..].chars().next().map_or(1, char::len_utf8);
        self.pos += len;
        tree.contest();
    }

    /// A closer: of the innermost container, or (a guess) of an outer one of its kind; a closer
    /// nothing opened is skipped.
    fn close(&mut self, closer: u8, tree: &mut Tree) {
        let object = closer == b'}';
        self.pos += 1;
        let depth = tree.depth();
        let found = tree.open_kinds().rev().position(|k| k == object);
        match found {
            Some(0) => tree.close(self.pos),
            Some(n) if n < depth => {
                tree.contest();
                for _ in 0..=n {
                    tree.close(self.pos);
                }
            }
            _ => {
                tree.contest();
                return;
            }
        }
        self.after_value();
    }

    fn open_string(&mut self, class: QuoteClass, open_len: usize, key: bool, tree: &mut Tree) {
        self.strict &= class == QuoteClass::Double;
        self.pos += open_len;
        if !key {
            tree.string_starts();
        }
        self.string = Some(Str {
            class,
            key,
            start: self.pos,
            plain: true,
            buf: String::new(),
            reported: 0,
        });
        self.mode = Mode::Str;
    }

    /// Reads the open string as far as the text goes; false when it needs more.
    fn read_string(&mut self, text: &str, tree: &mut Tree) -> bool {
        let bytes = text.as_bytes();
        let Some(s) = &mut self.string else {
            self.mode = Mode::Next;
            return true;
        };
        let stops = s.class.stop_bytes();
        loop {
            let run = next_stop(&bytes[self.pos..], stops).unwrap_or(bytes.len() - self.pos);
            if !s.plain {
                s.buf.push_str(&text[self.pos..self.pos + run]);
            }
            self.pos += run;
            let at = self.pos;
            let Some(&byte) = bytes.get(at) else {
                return false;
            };
            // A multi-byte quote (or `\"`) must have arrived whole to be judged.
            if bytes.len() - at < 3 && (byte >= 0x80 || byte == b'\\') {
                return false;
            }
            let Some(close_len) = s.class.closer_at(bytes, at) else {
                if byte == b'\\' {
                    match decode_escape(&bytes[at..]) {
                        Escape::Char(ch, len, json) => {
                            // `\f`, `\b`, `\t`… before a letter may be LaTeX (`\frac`), which
                            // the repair stage decides: the final parse is not taken from here.
                            let maybe_latex = crate::spelling::latex::may_begin_command(bytes, at);
                            self.strict &= json;
                            self.latex_doubt |= maybe_latex;
                            if s.plain {
                                s.buf.push_str(&text[s.start..at]);
                                s.plain = false;
                            }
                            s.buf.push(ch);
                            self.pos += len;
                        }
                        Escape::Incomplete => return false,
                    }
                } else {
                    // A quote of another class, or a control character (text here, not JSON).
                    self.strict &= byte >= 0x20;
                    let len = text[at..].chars().next().map_or(1, char::len_utf8);
                    if !s.plain {
                        s.buf.push_str(&text[at..at + len]);
                    }
                    self.pos += len;
                }
                continue;
            };
            let after = at + close_len;
            // What follows the quote says whether it closes: a delimiter, a line break, the end
            // of the fence; otherwise it is a quote inside the text (a guess).
            let Some(next) = token_end(&mut self.resume, bytes, after, Scan::Blanks, is_blank_byte)
            else {
                return false;
            };
            let newline = bytes[after..next].contains(&b'\n');
            let follow = bytes[next];
            let closes = match follow {
                b',' | b'}' | b']' | b':' | b'/' | b'#' => true,
                // The end of a Python tuple (read as a list).
                b')' => !s.key && tree.in_array(),
                // `"x" "b": 1`: a comma missing before the next string.
                b'"' | b'\'' => next > after,
                b'`' | b'~' => newline,
                // A key's quote closes it unless a word goes on right after it (`"steps" [`,
                // `"goal" => …`: a colon missing or spelt otherwise).
                _ if s.key => newline || next > after || !is_word_byte(follow),
                _ => newline,
            } || text[next..].starts_with('，')
                || text[next..].starts_with('：');
            if !closes {
                if !s.plain {
                    s.buf.push_str(&text[at..after]);
                }
                self.pos = after;
                tree.contest();
                continue;
            }
            let Some(done) = self.string.take() else {
                return true;
            };
            let content = if done.plain && (done.key || tree.keeps_values()) {
                text[done.start..at].to_owned()
            } else {
                done.buf
            };
            self.pos = after;
            if done.key {
                tree.key(content);
                self.mode = Mode::Colon;
            } else {
                if tree.events.is_some() && content.len() > done.reported {
                    let path = tree.next_pointer();
                    if let Some(events) = &mut tree.events {
                        events.push(super::event::Event::StringGrew {
                            path,
                            text: content[done.reported..].to_owned(),
                        });
                    }
                }
                tree.scalar(Value::String(content), after, true);
                self.after_value();
            }
            return true;
        }
    }

    /// A number; false when its end has not arrived.
    fn number(&mut self, text: &str, tree: &mut Tree) -> bool {
        let bytes = text.as_bytes();
        let at = self.pos;
        let digits_at = at + MINUS_SIGN.len() * usize::from(bytes[at..].starts_with(&MINUS_SIGN));
        let Some(end) = token_end(&mut self.resume, bytes, digits_at, Scan::Number, |b| {
            matches!(b, b'0'..=b'9' | b'-' | b'+' | b'.' | b'e' | b'E' | b'_')
        }) else {
            return false;
        };
        let len = end - at;
        // `"id": 89,570,`: digit groups, in an object (where `,5` cannot start a member); only a
        // number a comma ends can be the first group.
        if tree.in_object() && bytes.get(end) == Some(&b',') {
            match crate::spelling::numbers::grouped(bytes, at, bytes.len(), true) {
                Grouped::Undecided => return false,
                // What follows the groups has not arrived: it may be a digit of the fraction.
                Grouped::Ends(end) if end == bytes.len() => return false,
                Grouped::Ends(end) => {
                    let digits = crate::spelling::numbers::unspelled(&text[at..end]);
                    self.pos = end;
                    tree.contest();
                    tree.scalar(number_or_text(&digits), end, false);
                    self.after_value();
                    return true;
                }
                Grouped::No => {}
            }
        }
        let token = &text[at..at + len];
        self.pos += len;
        let value = match number::scan(bytes, at) {
            Some((end, integer)) if end == at + len => {
                Value::Number(Number::from_scanned(token, integer))
            }
            _ => {
                tree.contest();
                self.strict = false;
                lenient_number(token).unwrap_or_else(|| Value::String(token.to_owned()))
            }
        };
        tree.scalar(value, self.pos, false);
        self.after_value();
        true
    }

    /// A word in a value's place: a literal, or bare text up to the next delimiter.
    fn word(&mut self, text: &str, tree: &mut Tree) -> bool {
        let bytes = text.as_bytes();
        let at = self.pos;
        let Some(end) = token_end(&mut self.resume, bytes, at, Scan::Word, is_word_byte) else {
            return false;
        };
        let word = before_full_width(&text[at..end]);
        let len = word.len();
        let spelling = crate::spelling::literal(word);
        self.strict &= spelling.is_some_and(|s| s.dialect == crate::spelling::Dialect::Json);
        if let Some(spelling) = spelling {
            let value = Value::from(spelling);
            self.pos += len;
            tree.scalar(value, self.pos, false);
            self.after_value();
            return true;
        }
        // Bare text: up to a delimiter or the end of the line.
        let Some(end) = token_end(&mut self.resume, bytes, at, Scan::BareText, |b| {
            !matches!(b, b',' | b'}' | b']' | b'\n')
        }) else {
            return false;
        };
        let end = end - at;
        let word = text[at..at + end].trim_end();
        tree.contest();
        self.pos += end;
        tree.scalar(Value::String(word.to_owned()), self.pos, false);
        self.after_value();
        true
    }
}

/// The first byte of `b` a string of a class with these stop bytes must look at: one of them or
/// a backslash (memchr's vector search for the common classes).
fn next_stop(b: &[u8], (x, y, z): (u8, u8, u8)) -> Option<usize> {
    if (x, y, z) == (b'"', b'"', b'"') {
        // JSON's own strings: control characters stop the scan too (strict JSON refuses them).
        let at = crate::value::parse::skip_plain(b, 0);
        (at < b.len()).then_some(at)
    } else if x == y && y == z {
        memchr::memchr2(x, b'\\', b)
    } else if y == z {
        memchr::memchr3(x, y, b'\\', b)
    } else {
        b.iter()
            .position(|&c| c == x || c == y || c == z || c == b'\\')
    }
}

/// The end of the token that starts at `at`: the first byte from which `inside` is false, or
/// `None` when the text ends first (the scan then resumes where it stopped, from `resume`).
fn token_end(
    resume: &mut Option<(usize, Scan, usize)>,
    bytes: &[u8],
    at: usize,
    scan: Scan,
    inside: impl Fn(u8) -> bool,
) -> Option<usize> {
    let from = match *resume {
        Some((start, kind, to)) if start == at && kind == scan => to,
        _ => at,
    };
    match bytes[from..].iter().position(|&b| !inside(b)) {
        Some(i) => {
            *resume = None;
            Some(from + i)
        }
        None => {
            *resume = Some((at, scan, bytes.len()));
            None
        }
    }
}

/// Where the `"` string starting at `at` ends (after its closing quote), or `None` when the text
/// ends first; resumes from `resume` (a trailing run of backslashes is scanned again, so that
/// whether the next quote is escaped is known).
fn string_end(resume: &mut Option<(usize, Scan, usize)>, bytes: &[u8], at: usize) -> Option<usize> {
    let mut i = match *resume {
        Some((start, Scan::LeadingString, to)) if start == at => to,
        _ => at + 1,
    };
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => i += 2,
            b'"' => {
                *resume = None;
                return Some(i + 1);
            }
            _ => i += 1,
        }
    }
    let backslashes = bytes[at + 1..]
        .iter()
        .rev()
        .take_while(|&&b| b == b'\\')
        .count();
    *resume = Some((at, Scan::LeadingString, bytes.len() - backslashes));
    None
}

/// `+1`, `.5`, `5.`, `1_000`: the spellings the repair parser reads as numbers.
fn lenient_number(token: &str) -> Option<Value> {
    use crate::spelling::numbers::{spelled_end, unspelled, NumberShape};
    let b = token.as_bytes();
    if spelled_end(b, 0, b.len()) == Some(b.len()) {
        return Some(number_or_text(&unspelled(token)));
    }
    let shape = NumberShape::read(b, 0, b.len(), |_| true);
    if shape.end < b.len() || shape.no_digits() {
        return None;
    }
    Some(number_or_text(&shape.as_json(token)?))
}

/// The number `digits` spell as JSON, or them as text when they spell none.
fn number_or_text(digits: &str) -> Value {
    match number::scan(digits.as_bytes(), 0) {
        Some((end, integer)) if end == digits.len() => {
            Value::Number(Number::from_scanned(digits, integer))
        }
        _ => Value::String(digits.to_owned()),
    }
}

/// A word ends before full-width punctuation (`null，`: a CJK model's comma), unless it starts
/// with it.
fn before_full_width(word: &str) -> &str {
    match word
        .char_indices()
        .find(|&(_, c)| ('\u{FF01}'..='\u{FF5E}').contains(&c))
    {
        Some((k, _)) if k > 0 => &word[..k],
        _ => word,
    }
}

enum Escape {
    /// The character, the escape's length, and whether JSON has this escape.
    Char(char, usize, bool),
    Incomplete,
}

/// Decodes the escape at the start of `b` (which starts with `\`).
fn decode_escape(b: &[u8]) -> Escape {
    let Some(&e) = b.get(1) else {
        return Escape::Incomplete;
    };
    if e == b'u' {
        return decode_unicode(b);
    }
    match crate::spelling::simple_escape(e) {
        Some(c) => Escape::Char(c, 2, true),
        // Any other escaped ASCII character is itself; before a multi-byte one the backslash
        // is kept as written.
        None if e.is_ascii() => Escape::Char(e as char, 2, false),
        None => Escape::Char('\\', 1, false),
    }
}

fn decode_unicode(b: &[u8]) -> Escape {
    match crate::spelling::unicode_escape(b, 0, b.len()) {
        UnicodeEscape::Char(c, len) => Escape::Char(c, len, true),
        // The rest of the escape, or a high surrogate's low half, may be on its way.
        UnicodeEscape::Cut => Escape::Incomplete,
        UnicodeEscape::NotHex => Escape::Char('u', 2, false),
        UnicodeEscape::LoneSurrogate => Escape::Char('\u{FFFD}', 6, false),
    }
}

fn is_blank_byte(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r')
}

fn is_blank(c: char) -> bool {
    c.is_whitespace()
}

fn is_word_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'_' | b'$' | b'-') || b >= 0x80
}

/// How many `"` come before `at` in its line (counted back to the fourth at most: each quote's
/// count reads back over at most the four before it, so the counts cost linear time).
fn quotes_before_in_line(bytes: &[u8], at: usize) -> usize {
    bytes[..at]
        .iter()
        .rev()
        .take_while(|&&b| b != b'\n')
        .filter(|&&b| b == b'"')
        .take(crate::locate::MEMBERS_QUOTES)
        .count()
}

fn at_line_start(bytes: &[u8], at: usize) -> bool {
    bytes[..at]
        .iter()
        .rev()
        .take_while(|&&b| b != b'\n')
        .all(|&b| b == b' ' || b == b'\t')
}

fn floor_char_boundary(text: &str, mut at: usize) -> usize {
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

#[derive(Debug, PartialEq, Eq)]
enum Prefix {
    Yes,
    No,
    /// Not decided: the text ends first.
    Maybe,
}

fn prefix_state(text: &str, want: &str) -> Prefix {
    if text.starts_with(want) {
        Prefix::Yes
    } else if want.starts_with(text) {
        Prefix::Maybe
    } else {
        Prefix::No
    }
}

/// Whether `text` begins with a reasoning tag (and which), may once more arrives, or does not.
fn reasoning_tag_state(text: &str) -> (Prefix, Option<(&'static str, &'static str)>) {
    let mut state = Prefix::No;
    for &(open, close) in crate::spelling::REASONING_TAGS {
        match prefix_state(text, open) {
            Prefix::Yes => return (Prefix::Yes, Some((open, close))),
            Prefix::Maybe => state = Prefix::Maybe,
            Prefix::No => {}
        }
    }
    (state, None)
}

fn is_prefix_of_multibyte(bytes: &[u8], want: &str) -> bool {
    bytes.len() < want.len() && want.as_bytes().starts_with(bytes)
}

enum Quote {
    Opens(QuoteClass, usize),
    No,
    /// The text ends inside what may be a longer opener (`"""`, `“`, `\"`).
    Maybe,
}

/// The quote opening a string at the start of `b`, once enough of it has arrived.
fn opening_quote(b: &[u8]) -> Quote {
    let Some(&first) = b.first() else {
        return Quote::Maybe;
    };
    let longest = match first {
        b'"' => 3,
        0xE2 => 3,
        0xC2 | b'\\' => 2,
        _ => 1,
    };
    if b.len() < longest
        && (first == b'"' && b.iter().all(|&x| x == b'"') || first >= 0x80 || first == b'\\')
    {
        return Quote::Maybe;
    }
    match QuoteClass::opening_at(b, 0) {
        Some((class, len)) => Quote::Opens(class, len),
        None => Quote::No,
    }
}

/// Whether a line starting with a quote is a key and its colon.
fn key_line(b: &[u8]) -> Prefix {
    // The rule the one-shot parse locates by.
    match crate::locate::key_line_at(b, 0) {
        (_, true) => Prefix::Maybe,
        (true, false) => Prefix::Yes,
        (false, false) => Prefix::No,
    }
}

/// Whether a bracket in prose opens JSON: `{` before a quote, `}` or a key and its colon; `[`
/// before a value. Inside a fence any bracket does.
fn looks_like_json(bytes: &[u8], in_fence: bool) -> Prefix {
    if in_fence {
        return Prefix::Yes;
    }
    let open = bytes[0];
    let mut i = 1;
    while i < bytes.len() && is_blank_byte(bytes[i]) {
        i += 1;
        if i > 64 {
            return Prefix::Yes;
        }
    }
    let Some(&b) = bytes.get(i) else {
        return Prefix::Maybe;
    };
    if open == b'[' {
        return match b {
            b'{' | b'[' | b'"' | b'\'' | b']' | b'-' | b'0'..=b'9' | b'/' | b'#' => Prefix::Yes,
            // A literal (`[note]` in prose is not one).
            b if b.is_ascii_alphabetic() => {
                // (No spelling is longer: a longer word is not one.)
                let len = bytes[i..]
                    .iter()
                    .take(16)
                    .take_while(|b| b.is_ascii_alphabetic())
                    .count();
                let word = std::str::from_utf8(&bytes[i..i + len]).unwrap_or_default();
                if i + len == bytes.len() {
                    if crate::spelling::may_become_literal(word) {
                        Prefix::Maybe
                    } else {
                        Prefix::No
                    }
                } else if crate::spelling::is_literal(word) {
                    Prefix::Yes
                } else {
                    Prefix::No
                }
            }
            0xE2 => Prefix::Yes,
            _ => Prefix::No,
        };
    }
    match b {
        // A key's quote, the empty object, a stringified key, a comment before the first key.
        b'"' | b'\'' | b'}' | b'\\' | b'/' | b'#' | 0xE2 => Prefix::Yes,
        b if is_word_byte(b) => {
            let len = bytes[i..].iter().take_while(|&&b| is_word_byte(b)).count();
            let mut j = i + len;
            while j < bytes.len() && (bytes[j] == b' ' || bytes[j] == b'\t') {
                j += 1;
            }
            match bytes.get(j) {
                None => Prefix::Maybe,
                Some(b':') => Prefix::Yes,
                Some(_) => Prefix::No,
            }
        }
        _ => Prefix::No,
    }
}
