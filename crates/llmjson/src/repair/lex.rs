//! Reading bytes: trivia (whitespace, comments), tokens, the extent of numbers and bare words,
//! and the next spot inside a string that needs attention. Shared by the parser and the search,
//! so that both read the text the same way.

use super::cost::{self, Cost};
use super::index::StructIndex;
use super::Fence;
pub(crate) use crate::spelling::numbers::NumberShape;
use crate::spelling::numbers::{self, Grouped};
use crate::spelling::quotes::{LEFT_DOUBLE, RIGHT_DOUBLE};
use crate::spelling::{QuoteClass, WIDE_COLON, WIDE_COMMA};

/// A container kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum Kind {
    Object,
    Array,
    /// A function-call wrapper such as `ObjectId("…")` or JSONP `callback(…)`: closed by `)`,
    /// passes its one value through.
    Call,
    /// A Python tuple `(1, 2)`: a list closed by `)`.
    Tuple,
    /// A Python set `{'red', 'blue'}`: a list closed by `}`.
    Set,
}

impl Kind {
    /// The closer `c` (`}`, `]`) ends a container of this kind.
    pub(crate) fn closed_by(self, closer: Kind) -> bool {
        self == closer || (self == Kind::Set && closer == Kind::Object)
    }

    /// A list in the value: an array, a tuple or a set.
    pub(crate) fn is_list(self) -> bool {
        matches!(self, Kind::Array | Kind::Tuple | Kind::Set)
    }
}

/// Whitespace or a comment between tokens.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Trivia {
    /// JSON whitespace up to `end`.
    Space { end: usize },
    /// Unicode whitespace JSON does not allow (NBSP, BOM, zero-width), one character; or a
    /// line break or tab written as an escape (`\n`) between tokens.
    SpecialSpace { end: usize },
    /// `//…`, `#…` or `/* … */`; the body is what the markers enclose.
    Comment {
        body_start: usize,
        body_end: usize,
        end: usize,
    },
}

/// The next token, as the grammar sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Token {
    /// The region ended (input end, or a closing fence where structure is expected).
    End,
    Open(Kind),
    Close(Kind),
    Comma,
    Colon,
    /// `，` (U+FF0C), written for `,` by CJK models (3 bytes).
    WideComma,
    /// `：` (U+FF1A), written for `:` (3 bytes).
    WideColon,
    /// An opening quote of some class, and its byte length.
    Quote(QuoteClass, usize),
    /// A number (possibly needing normalisation) ending at `end`, followed by a terminator.
    Number {
        end: usize,
    },
    /// A run of identifier characters (letters of any script, digits, `_`, `$`).
    Word {
        end: usize,
    },
    LParen,
    RParen,
    Plus,
    /// `...` (or a longer run of dots).
    Ellipsis {
        end: usize,
    },
    /// Any other character (its byte length).
    Other {
        len: usize,
    },
}

/// The next spot inside a string that needs attention.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Stop {
    /// The region ended inside the string.
    End,
    /// A backslash.
    Escape,
    /// A raw control byte.
    Control(u8),
    /// A quote: `own` when it is a closer of the string's class; otherwise a typographic quote
    /// that could close an ASCII-opened string (or the reverse).
    Quote { len: usize, own: bool },
}

/// Whether trivia can start with `c`: JSON whitespace, a comment's `/` or `#`, or the first
/// byte of a non-ASCII character (a special space). Any other byte starts a token.
fn starts_trivia(c: u8) -> bool {
    is_ws(c) || c == b'/' || c == b'#' || c == b'\\' || c >= 0x80
}

pub(crate) fn is_ws(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r')
}

/// Where the JSON whitespace from `i` ends, at `end` at the latest.
pub(crate) fn ws_end(b: &[u8], mut i: usize, end: usize) -> usize {
    while i < end && is_ws(b[i]) {
        i += 1;
    }
    i
}

pub(crate) fn is_ident_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'$'
}

/// Unicode whitespace that JSON does not allow between tokens, but models and editors emit.
pub(crate) fn is_special_space(c: char) -> bool {
    matches!(
        c,
        '\u{00A0}' | '\u{1680}' | '\u{180E}' | '\u{2000}'
            ..='\u{200B}' | '\u{202F}' | '\u{205F}' | '\u{3000}' | '\u{FEFF}'
    )
}

/// A full-width comma or colon starts at `i`.
pub(crate) fn wide_punctuation_at(b: &[u8], i: usize) -> bool {
    b.get(i) == Some(&0xEF)
        && b.get(i + 1) == Some(&0xBC)
        && matches!(b.get(i + 2), Some(0x8C | 0x9A))
}

/// A member starts at `n` in `b`: a key (quoted in any quotes, on one line, or a bare word)
/// followed by `:` or `：` (`'tags':`, `"name" :`, `name:`).
pub(crate) fn member_starts(b: &[u8], n: usize) -> bool {
    member_key_end(b, n).is_some_and(|(key_end, c)| {
        b[c] == b':'
            || b[c..].starts_with(&WIDE_COLON)
            || (b[c] == b'=' && b.get(c + 1) != Some(&b'=') && c > key_end)
    })
}

/// Whether a key and a colon (`:`, `：`) start at `n`: a member's line. A key in quotes may also
/// take the `=` another language writes for the colon (`“title” = “x”`); a bare name may not:
/// `obj = json.loads(payload)` is a line of code.
pub(crate) fn member_line_starts(b: &[u8], n: usize) -> bool {
    let quoted = QuoteClass::opening_at(b, n).is_some();
    member_key_end(b, n).is_some_and(|(key_end, c)| {
        b[c] == b':'
            || b[c..].starts_with(&WIDE_COLON)
            || (quoted && b[c] == b'=' && b.get(c + 1) != Some(&b'=') && c > key_end)
    })
}

/// Where the key that starts at `n` ends, and the first byte after the blanks that follow it
/// (a byte of `b`): `None` when no key starts there or nothing follows it.
fn member_key_end(b: &[u8], n: usize) -> Option<(usize, usize)> {
    let limit = b.len().min(n + 64);
    let key_end = match QuoteClass::opening_at(b, n) {
        Some((class, len)) => {
            let mut e = n + len;
            loop {
                if e >= limit || b[e] == b'\n' {
                    return None;
                }
                if let Some(l) = class.closer_at(b, e) {
                    break e + l;
                }
                e += 1;
            }
        }
        None => {
            let mut e = n;
            while e < limit && (is_ident_byte(b[e]) || b[e] >= 0x80) && !wide_punctuation_at(b, e) {
                e += 1;
            }
            if e == n {
                return None;
            }
            // A name that lost its opening quote only keeps its closing one (`title": "x"`).
            if e < limit && matches!(b[e], b'"' | b'\'') {
                e += 1;
            } else if b[e..limit].starts_with(&RIGHT_DOUBLE) {
                e += RIGHT_DOUBLE.len();
            }
            e
        }
    };
    let mut c = key_end;
    while c < limit && matches!(b[c], b' ' | b'\t') {
        c += 1;
    }
    // What follows: `:`, `：`, or the `=` / `=>` other languages write for it (not `==`).
    (c < b.len()).then_some((key_end, c))
}

/// The bytes one parse reads, and where its region ends.
#[derive(Clone, Copy)]
pub(crate) struct Lex<'t> {
    pub text: &'t str,
    pub b: &'t [u8],
    pub end: usize,
    pub fence: Option<Fence>,
    /// Where the marks of `b` are (built as pricing first reaches them).
    pub index: &'t StructIndex,
}

impl<'t> Lex<'t> {
    pub(crate) fn fence_at(&self, i: usize) -> bool {
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

    /// The region ends at `i` (input end, or a fence where structure is expected).
    pub(crate) fn at_end(&self, i: usize) -> bool {
        i >= self.end || self.fence_at(i)
    }

    pub(crate) fn char_at(&self, i: usize) -> Option<char> {
        self.text.get(i..)?.chars().next()
    }

    pub(crate) fn char_len_at(&self, i: usize) -> usize {
        self.char_at(i).map_or(1, char::len_utf8)
    }

    /// A comment starts at `i`. `//` right after `scheme:` or a word (`https://x`, `a.com//b`)
    /// is part of a URL, not a comment; `#` starts a comment only before a space (`# note`).
    fn comment_at(&self, i: usize) -> Option<Trivia> {
        let b = self.b;
        let next = b.get(i + 1).copied();
        let (body_start, block) = match (b[i], next) {
            (b'/', Some(b'*')) => (i + 2, true),
            (b'/', Some(b'/')) => {
                let prev = i.checked_sub(1).map(|p| b[p]);
                let url_like = match prev {
                    Some(b':') => i >= 2 && is_ident_byte(b[i - 2]),
                    Some(p) => is_ident_byte(p) || p == b'.',
                    None => false,
                };
                if url_like {
                    return None;
                }
                (i + 2, false)
            }
            (b'#', Some(b' ' | b'\t' | b'#' | b'!')) | (b'#', None) => (i + 1, false),
            _ => return None,
        };
        let end = self.end;
        let (body_end, stop) = if block {
            match memchr::memmem::find(&b[body_start.min(end)..end], b"*/") {
                Some(k) => (body_start + k, body_start + k + 2),
                None => (end, end),
            }
        } else {
            let e =
                memchr::memchr(b'\n', &b[body_start.min(end)..end]).map_or(end, |k| body_start + k);
            let e = self.line_comment_end(body_start, e);
            (e, e)
        };
        Some(Trivia::Comment {
            body_start,
            body_end: body_end.max(body_start).min(end),
            end: stop.max(body_start).min(end),
        })
    }

    /// The comment with body `b[from..to]`, ending at `end`, is data the model commented out
    /// (`/* "tags": ["a", "b"], */`, `// "zip": "ja"` on a line of its own): it ends where its
    /// form says (a `*/`, or a line break for a line comment), it starts with a member or an item
    /// (a quoted token followed by `:`, `,` or nothing; a bracket), and it closes no bracket it
    /// did not open. Prose that quotes a word (`/* "fast" is the default */`) is not.
    pub(super) fn commented_out(&self, from: usize, to: usize, end: usize) -> bool {
        let b = self.b;
        let block = from >= 2 && b.get(from - 2..from) == Some(b"/*".as_slice());
        let terminated = if block {
            end == to + 2
        } else {
            b.get(end) == Some(&b'\n')
        };
        let to = to.min(from + cost::WINDOW);
        let Some(first) = (from..to).find(|&k| !is_ws(b[k])) else {
            return false;
        };
        let starts_data = match b[first] {
            b'{' | b'[' => true,
            q @ (b'"' | b'\'') => memchr::memchr(q, &b[first + 1..to]).is_some_and(|k| {
                let after = first + 1 + k + 1;
                b[after..to]
                    .iter()
                    .find(|c| !is_ws(**c))
                    .is_none_or(|c| matches!(c, b':' | b','))
            }),
            _ => false,
        };
        terminated && starts_data && self.bracket_balance(first, to).0 == 0
    }

    /// Where a `//` or `#` comment whose line ends at `line_end` really ends: before the first
    /// closer in it that stands after a blank and that nothing in the comment opened
    /// (`"mode": "fast" // default }, "n": 2}` on one line: the comment is `default`, the `}`
    /// closes the object). A note does not close brackets it never opened; a member the model
    /// commented out keeps its own (`// "tags": ["a"]`).
    fn line_comment_end(&self, body_start: usize, line_end: usize) -> usize {
        let b = &self.b[body_start..line_end];
        let mut depth = 0u32;
        for (k, &c) in b.iter().enumerate() {
            match c {
                b'{' | b'[' => depth += 1,
                b'}' | b']' if depth > 0 => depth -= 1,
                b'}' | b']' if k > 0 && is_ws(b[k - 1]) => {
                    let mut e = body_start + k;
                    while e > body_start && is_ws(self.b[e - 1]) {
                        e -= 1;
                    }
                    return e;
                }
                _ => {}
            }
        }
        line_end
    }

    /// Whitespace or a comment at `i`.
    pub(crate) fn trivia_at(&self, i: usize) -> Option<Trivia> {
        if self.b.get(i).is_some_and(|&c| !starts_trivia(c)) {
            return None;
        }
        if i >= self.end {
            return None;
        }
        let c = self.b[i];
        if is_ws(c) {
            return Some(Trivia::Space {
                end: ws_end(self.b, i + 1, self.end),
            });
        }
        if c == b'/' || c == b'#' {
            return self.comment_at(i);
        }
        // `\n`, `\r`, `\t` written as two characters between tokens (a tool call's arguments
        // quoted once too often): whitespace, as a reader sees it.
        if self.escaped_space_at(i) {
            return Some(Trivia::SpecialSpace { end: i + 2 });
        }
        if c >= 0x80 {
            if let Some(ch) = self.char_at(i) {
                if is_special_space(ch) {
                    return Some(Trivia::SpecialSpace {
                        end: i + ch.len_utf8(),
                    });
                }
            }
        }
        None
    }

    /// Skips trivia from `i`: where the next token starts, and what the comments on the way cost.
    pub(crate) fn skip_trivia(&self, mut i: usize) -> (usize, Cost) {
        // Most spots start with a token: nothing to skip.
        if self.b.get(i).is_some_and(|&c| !starts_trivia(c)) {
            return (i, 0);
        }
        let mut spent = 0;
        while !self.at_end(i) {
            match self.trivia_at(i) {
                Some(Trivia::Space { end }) | Some(Trivia::SpecialSpace { end }) => i = end,
                Some(Trivia::Comment {
                    body_start,
                    body_end,
                    end,
                }) => {
                    spent += self.comment_cost(body_start, body_end, end);
                    i = end;
                }
                None => break,
            }
        }
        (i, spent)
    }

    /// The first byte from `i` (before `to`) that is not a blank is `:`.
    pub(crate) fn next_is_colon(&self, i: usize, to: usize) -> bool {
        let to = to.min(self.end).min(i.saturating_add(cost::WINDOW));
        self.b[i.min(to)..to].iter().find(|c| !is_ws(**c)) == Some(&b':')
    }

    /// The text after a complete document at `at` that goes on like JSON and was left out of
    /// it: from the first byte that is not trivia to the end of that stretch. It goes on like
    /// JSON when it starts with `,` or `:` (`, "b": 2}`), or holds closers that nothing in it
    /// opened (`)", "x"]`). The stretch ends at a fence, the region's end, or a blank line
    /// outside the brackets it opened;
    /// `None` when nothing but prose (or nothing) follows.
    pub(crate) fn trailing_json(&self, at: usize) -> Option<std::ops::Range<usize>> {
        let (j, _) = self.skip_trivia(at);
        if self.at_end(j) {
            return None;
        }
        let b = self.b;
        let continues = matches!(b[j], b',' | b':') || wide_punctuation_at(b, j);
        let mut depth = 0usize;
        let mut last_unbalanced = None;
        let mut last_content = j;
        let mut k = j;
        while k < self.end {
            let c = b[k];
            if c == b'\n' {
                // A fence at the start of the next line ends the stretch; so does a blank
                // line outside the brackets the stretch opened (inside them, the text left
                // out goes on: a laid-out step has blank lines too, and all of it is lost).
                let mut n = k + 1;
                while n < self.end && matches!(b[n], b' ' | b'\t' | b'\r') {
                    n += 1;
                }
                if n >= self.end
                    || (b[n] == b'\n' && depth == 0)
                    || b[n..self.end].starts_with(b"```")
                {
                    break;
                }
            }
            match c {
                b'{' | b'[' => depth += 1,
                b'}' | b']' if depth == 0 => last_unbalanced = Some(k + 1),
                b'}' | b']' => depth -= 1,
                _ => {}
            }
            if !is_ws(c) {
                last_content = k + 1;
            }
            k += 1;
        }
        // So does a stretch that opens with a quote and holds `"…":` (`":null, "b": 2`).
        let member_like = b[j] == b'"'
            && (j + 1..last_content)
                .any(|k| b[k] == b'"' && self.next_is_colon(k + 1, last_content));
        match last_unbalanced {
            Some(end) => Some(j..end),
            // Another value (`{…}` on the next line) is a separate answer, not a part left out.
            None if continues
                || member_like
                || (!self.opens_another_value(j, last_content)
                    && self.member_after_comma(j, last_content)) =>
            {
                Some(j..last_content)
            }
            None => None,
        }
    }

    /// The stretch at `from` opens another value, maybe after words that introduce it
    /// (`{…}`, `FUNCTION RETURN {…}`): its first mark of JSON is an opening bracket.
    fn opens_another_value(&self, from: usize, to: usize) -> bool {
        let to = to.min(self.end);
        self.b[from.min(to)..to]
            .iter()
            .find(|c| matches!(c, b'"' | b':' | b',' | b'{' | b'}' | b'[' | b']'))
            .is_some_and(|&c| matches!(c, b'{' | b'['))
    }

    /// `b[from..to]` holds the start of another member after a value's end: a closing quote,
    /// a comma, then a key (quoted or a word) and its colon (`…\n", next_actions: [`).
    fn member_after_comma(&self, from: usize, to: usize) -> bool {
        let b = self.b;
        let to = to.min(self.end).min(from.saturating_add(cost::WINDOW));
        // One line: a later line may be another value's.
        let to = memchr::memchr(b'\n', &b[from.min(to)..to]).map_or(to, |n| from + n);
        (from..to).any(|k| {
            if b[k] != b',' || k == from || b[k - 1] != b'"' {
                return false;
            }
            let mut i = k + 1;
            while i < to && is_ws(b[i]) {
                i += 1;
            }
            if i < to && b[i] == b'"' {
                let Some(close) = memchr::memchr(b'"', &b[i + 1..to]) else {
                    return false;
                };
                return self.next_is_colon(i + 1 + close + 1, to);
            }
            let word = self.word_end(i);
            word > i && self.next_is_colon(word, to)
        })
    }

    /// The run of closers (and blanks) that ends `b[from..to]` (within the window before `to`):
    /// the closers in it that nothing earlier in the text opened.
    pub(crate) fn closing_run(&self, from: usize, to: usize) -> ClosingRun {
        let to = to.min(self.end);
        let from = from.max(to.saturating_sub(cost::WINDOW));
        let b = self.b.get(from..to).unwrap_or_default();
        let mut run = b.len();
        while run > 0 && (is_ws(b[run - 1]) || matches!(b[run - 1], b'}' | b']')) {
            run -= 1;
        }
        let (mut braces, mut brackets) = (0u32, 0u32);
        let mut out = ClosingRun::default();
        for (k, &c) in b.iter().enumerate() {
            let unbalanced = match c {
                b'{' => {
                    braces += 1;
                    None
                }
                b'[' => {
                    brackets += 1;
                    None
                }
                b'}' if braces == 0 => Some(Kind::Object),
                b']' if brackets == 0 => Some(Kind::Array),
                b'}' => {
                    braces -= 1;
                    None
                }
                b']' => {
                    brackets -= 1;
                    None
                }
                _ => None,
            };
            if let (Some(kind), true) = (unbalanced, k >= run) {
                out.count += 1;
                match out.first {
                    None => out.first = Some((kind, from + k)),
                    Some(_) if out.second.is_none() => out.second = Some(kind),
                    Some(_) => {}
                }
            }
        }
        out
    }

    /// `b[from..to]` (within the window before `to`) leaves a bracket open: text that is code or
    /// JSON (`d = {"a": 1`), where quotes are text by nature.
    /// Where the next line after the line break at `at` starts (after its indentation), when it
    /// starts JSON structure (a closer, or a key and its colon) at an indentation no deeper
    /// than that of the line holding `open`.
    pub(crate) fn next_line_starts_structure(&self, open: usize, at: usize) -> Option<usize> {
        // (a closer, a key and its colon, or a line that is one quoted item)
        let b = self.b;
        let mut p = at + 1;
        while p < self.end && matches!(b[p], b' ' | b'\t') {
            p += 1;
        }
        if p >= self.end {
            return None;
        }
        let structure = matches!(b[p], b'}' | b']')
            || member_line_starts(&b[..self.end], p)
            || self.quoted_item_line(p);
        if !structure {
            return None;
        }
        let indent = p - (at + 1);
        let line = memchr::memrchr(b'\n', &b[open.saturating_sub(cost::WINDOW)..open])
            .map_or(open.saturating_sub(cost::WINDOW), |k| {
                open.saturating_sub(cost::WINDOW) + k + 1
            });
        let opening_indent = b[line..open]
            .iter()
            .take_while(|&&c| matches!(c, b' ' | b'\t'))
            .count();
        (indent <= opening_indent).then_some(p)
    }

    /// A line that is one quoted string and perhaps a comma (an array's item on its own line,
    /// `    “queued”,`), from its first quote at `p`.
    fn quoted_item_line(&self, p: usize) -> bool {
        let b = &self.b[..self.end];
        let Some((class, len)) = QuoteClass::opening_at(b, p) else {
            return false;
        };
        let line_end = memchr::memchr(b'\n', &b[p..]).map_or(b.len(), |k| p + k);
        let mut e = p + len;
        while e < line_end {
            if let Some(l) = class.closer_at(b, e) {
                let rest = &b[e + l..line_end];
                let rest = rest.strip_prefix(b",").unwrap_or(rest);
                return rest.iter().all(|&c| is_ws(c));
            }
            e += 1;
        }
        false
    }

    /// A colon (`:`, `：`, `=`, `=>`) and then an opening bracket that ends its line (maybe
    /// before a comment) follow `i` (`" => [⏎`, `": {⏎`, `” = [ # steps`): where a quote ends a
    /// key whose value is a laid-out container.
    pub(crate) fn colon_then_open_line(&self, i: usize) -> bool {
        let b = &self.b[..self.end.min(self.b.len())];
        let i = i.min(b.len());
        let blanks = |mut k: usize| {
            while k < b.len() && matches!(b[k], b' ' | b'\t') {
                k += 1;
            }
            k
        };
        let k = blanks(i);
        let k = if b[k..].starts_with(b"=>") {
            k + 2
        } else if b[k..].starts_with(&WIDE_COLON) {
            k + WIDE_COLON.len()
        } else if matches!(b.get(k), Some(b':' | b'=')) {
            k + 1
        } else {
            return false;
        };
        let k = blanks(k);
        if !matches!(b.get(k), Some(b'{' | b'[')) {
            return false;
        }
        // Nothing else on the line, or a comment (`[ # the steps you asked for`).
        let k = blanks(k + 1);
        matches!(b.get(k), None | Some(b'\n' | b'\r' | b'#'))
            || b[k..].starts_with(b"//")
            || b[k..].starts_with(b"/*")
    }

    pub(crate) fn leaves_open(&self, from: usize, to: usize) -> bool {
        // Text that closed a bracket it never opened swallowed structure (`weekly'⏎  ]⏎,⏎{`):
        // what it leaves open is the structure's, not code's.
        let (stray, open) = self.bracket_balance(from, to);
        open > 0 && stray == 0
    }

    /// Closers with no opener before them, and openers left unclosed, in `b[from..to]` (within
    /// the window before `to`).
    pub(super) fn bracket_balance(&self, from: usize, to: usize) -> (Cost, u32) {
        let to = to.min(self.end);
        let from = from.max(to.saturating_sub(cost::WINDOW)).min(to);
        let b = self.b;
        // Braces and brackets are counted apart.
        let (mut lost, mut braces, mut brackets) = (0, 0u32, 0u32);
        self.index.for_each(b, from, to, false, |k| {
            let depth = match b[k] {
                b'{' | b'}' => &mut braces,
                b'[' | b']' => &mut brackets,
                _ => return,
            };
            if matches!(b[k], b'{' | b'[') {
                *depth += 1;
            } else if *depth == 0 {
                lost += 1;
            } else {
                *depth -= 1;
            }
        });
        (lost, braces + brackets)
    }

    /// The token at `i` (which is not trivia).
    pub(crate) fn token_at(&self, i: usize) -> Token {
        if self.at_end(i) {
            return Token::End;
        }
        let b = self.b;
        let c = b[i];
        match c {
            b'{' => Token::Open(Kind::Object),
            b'[' => Token::Open(Kind::Array),
            b'}' => Token::Close(Kind::Object),
            b']' => Token::Close(Kind::Array),
            b',' => Token::Comma,
            b':' => Token::Colon,
            b'(' => Token::LParen,
            b')' => Token::RParen,
            b'+' if !matches!(b.get(i + 1), Some(b'0'..=b'9' | b'.')) => Token::Plus,
            b'.' if b[i..self.end].starts_with(b"...") => {
                let mut e = i;
                while e < self.end && b[e] == b'.' {
                    e += 1;
                }
                Token::Ellipsis { end: e }
            }
            0xEF if b[i..self.end].starts_with(&WIDE_COMMA) => Token::WideComma,
            0xEF if b[i..self.end].starts_with(&WIDE_COLON) => Token::WideColon,
            _ => {
                if let Some((class, len)) = QuoteClass::opening_at(b, i) {
                    return Token::Quote(class, len);
                }
                if matches!(c, b'-' | b'+' | b'.' | b'0'..=b'9') {
                    if let Some(end) = self.number_end(i) {
                        return Token::Number { end };
                    }
                }
                let end = self.word_end(i);
                if end > i {
                    return Token::Word { end };
                }
                Token::Other {
                    len: self.char_len_at(i),
                }
            }
        }
    }

    /// The end of a run of identifier characters starting at `i` (letters of any script).
    pub(crate) fn word_end(&self, i: usize) -> usize {
        let mut j = i;
        while j < self.end {
            let c = self.b[j];
            if is_ident_byte(c) {
                j += 1;
            } else if c >= 0x80 {
                match self.char_at(j) {
                    Some(ch) if ch.is_alphanumeric() => j += ch.len_utf8(),
                    _ => break,
                }
            } else {
                break;
            }
        }
        j
    }

    /// A value may end before `i`.
    pub(crate) fn is_terminator(&self, i: usize) -> bool {
        if self.at_end(i) {
            return true;
        }
        let c = self.b[i];
        is_ws(c)
            || matches!(c, b',' | b'}' | b']' | b')' | b';' | b'{' | b'[' | b'"')
            || (c == b'/' && matches!(self.b.get(i + 1), Some(b'/' | b'*')))
            || (c >= 0x80 && self.char_at(i).is_some_and(is_special_space))
            || wide_punctuation_at(self.b, i)
            || self.escaped_space_at(i)
    }

    /// `\n`, `\r` or `\t` written as two characters at `i` (read as whitespace between tokens).
    fn escaped_space_at(&self, i: usize) -> bool {
        self.b.get(i) == Some(&b'\\')
            && i + 2 <= self.end
            && matches!(self.b.get(i + 1), Some(b'n' | b'r' | b't'))
    }

    /// A number starting at `i` (sign, digits, fraction, exponent), if one ends at a terminator.
    pub(crate) fn number_end(&self, i: usize) -> Option<usize> {
        let shape = self.number_shape(i);
        self.is_terminator(shape.end).then_some(shape.end)
    }

    /// The parts of a number-like token at `i` (it may not be a number at all).
    pub(crate) fn number_shape(&self, start: usize) -> NumberShape {
        NumberShape::read(self.b, start, self.end, |j| self.is_terminator(j))
    }

    /// A number written with thousands separators (`1,299.99`, `12,000`) starting at `i`: where
    /// it ends, if a terminator follows.
    pub(crate) fn grouped_number_end(&self, i: usize) -> Option<usize> {
        match numbers::grouped(self.b, i, self.end, false) {
            Grouped::Ends(j) => self.is_terminator(j).then_some(j),
            Grouped::No | Grouped::Undecided => None,
        }
    }

    /// A number written with `_` between its digits (`250_000`, as Python and Rust write them)
    /// or with the minus sign U+2212 of typeset text (`−12.5`) starting at `i`: where it ends,
    /// if a terminator follows.
    pub(crate) fn spelled_number_end(&self, i: usize) -> Option<usize> {
        numbers::spelled_end(self.b, i, self.end).filter(|&j| self.is_terminator(j))
    }

    /// A number written with a unit or a decimal comma and no quotes, as non-English replies
    /// write a measure (`1,82 m`, `74 kg`, `38,5 °C`, `12,50 €`, `90 km/h`): where it ends, when
    /// the unit is one word and a delimiter (`,`, a closer, a line end) follows it.
    pub(crate) fn measured_value_end(&self, i: usize) -> Option<usize> {
        let b = self.b;
        let end = self.end;
        let digits = |mut k: usize| {
            while k < end && b[k].is_ascii_digit() {
                k += 1;
            }
            k
        };
        // A sign may lead (`+0,9 m/s`).
        let first = if matches!(b.get(i), Some(b'+' | b'-')) {
            i + 1
        } else {
            i
        };
        let mut k = digits(first);
        if k == first {
            return None;
        }
        let mut decimal_comma = false;
        if k + 1 < end && matches!(b[k], b',' | b'.') && b[k + 1].is_ascii_digit() {
            let fraction = digits(k + 1);
            // Three digits after a comma group thousands (`75,515`), unless a unit says more.
            decimal_comma = b[k] == b',' && fraction - (k + 1) != 3;
            k = fraction;
        }
        // The unit: one word after one space (letters, `°`, `%`, `€`, `/`, `²`), or none
        // after a decimal comma (`1,5`).
        let unit_start = if k < end && b[k] == b' ' { k + 1 } else { k };
        let mut u = unit_start;
        while u < end {
            let c = b[u];
            if c.is_ascii_alphabetic() || c == b'/' || c == b'%' || c == b'$' {
                u += 1;
            } else if c >= 0x80 {
                match self.char_at(u) {
                    Some(ch) if ch.is_alphabetic() || "°€£¥²³µ℃℉Ω".contains(ch) => {
                        u += ch.len_utf8()
                    }
                    _ => break,
                }
            } else if c.is_ascii_digit() && u > unit_start {
                u += 1;
            } else {
                break;
            }
        }
        let has_unit = u > unit_start && unit_start > k;
        if !has_unit && !decimal_comma {
            return None;
        }
        let mut stop = if has_unit { u } else { k };
        // `2 h 30`, `1 m 80`: a smaller unit's count after the unit.
        if has_unit && stop + 1 < end && b[stop] == b' ' && b[stop + 1].is_ascii_digit() {
            stop = digits(stop + 1);
        }
        let mut j = stop;
        while j < end && matches!(b[j], b' ' | b'\t') {
            j += 1;
        }
        (j >= end || matches!(b[j], b',' | b'}' | b']' | b'\n' | b'\r')).then_some(stop)
    }

    /// Where an unquoted value starting at `i` ends: at a comma, a closer, a line end, a quote
    /// (and a `)` inside a call), before trailing whitespace.
    pub(crate) fn unquoted_value_end(&self, i: usize, in_call: bool) -> usize {
        let b = self.b;
        let mut j = i;
        while j < self.end {
            let c = b[j];
            if matches!(c, b',' | b'}' | b']' | b'\n' | b'\r' | b'"') || self.fence_at(j) {
                break;
            }
            // A comment after a space ends the text (`a /* note */`); `https://` does not.
            if is_ws(c) && matches!(self.trivia_at(j + 1), Some(Trivia::Comment { .. })) {
                break;
            }
            if c == b')' && in_call {
                break;
            }
            // `hello world\n}`: a line break written as an escape, then the member's end.
            if c == b'\\' && matches!(b.get(j + 1), Some(b'n' | b'r')) {
                let (q, _) = self.skip_trivia(j);
                if q >= self.end || matches!(b[q], b'}' | b']' | b'"' | b',') {
                    break;
                }
            }
            // `花子，"年齢"：30`: a full-width comma before the next member's quote.
            if wide_punctuation_at(b, j) {
                let (q, _) = self.skip_trivia(j + 3);
                let key_follows = q < self.end
                    && (QuoteClass::opening_at(b, q).is_some() || {
                        let (_, stop) = self.bare_key(q);
                        stop > q
                            && stop < self.end
                            && (b[stop] == b':' || b[stop..].starts_with(&WIDE_COLON))
                    });
                if key_follows {
                    break;
                }
            }
            j += if c < 0x80 { 1 } else { self.char_len_at(j) };
        }
        j
    }

    /// An unquoted key at `i`: where its text ends and where scanning stopped. Several words
    /// reach a `:` together (`first name:`); otherwise the key is the first word.
    pub(crate) fn bare_key(&self, i: usize) -> (usize, usize) {
        let b = self.b;
        let mut j = i;
        let mut first_word_end = None;
        while j < self.end {
            let c = b[j];
            if matches!(c, b':' | b',' | b'{' | b'}' | b'[' | b']' | b'\n' | b'\r')
                || QuoteClass::opening_at(b, j).is_some()
                || wide_punctuation_at(b, j)
                || self.fence_at(j)
                // `name=search`: one word, then `=` (not `==`) for the colon.
                || (c == b'=' && first_word_end.is_none() && b.get(j + 1) != Some(&b'='))
            {
                break;
            }
            if (c == b' ' || c == b'\t') && first_word_end.is_none() {
                first_word_end = Some(j);
            }
            j += if c < 0x80 { 1 } else { self.char_len_at(j) };
        }
        let key_end =
            if j < self.end && (b[j] == b':' || b[j] == b'=' || b[j..].starts_with(&WIDE_COLON)) {
                let mut k = j;
                while k > i && matches!(b[k - 1], b' ' | b'\t') {
                    k -= 1;
                }
                k
            } else {
                first_word_end.unwrap_or(j)
            };
        (key_end, j)
    }

    /// The next spot at or after `i` inside a string of `class` that needs attention.
    pub(crate) fn string_stop(&self, mut i: usize, class: QuoteClass) -> (usize, Stop) {
        let b = self.b;
        let end = self.end;
        let (s1, s2, s3) = class.stop_bytes();
        // A `"`-opened string also stops at typographic double quotes (a possible mixed close).
        let (s2, s3) = if class == QuoteClass::Double {
            (0xE2, 0xE2)
        } else {
            (s2, s3)
        };
        loop {
            let next = if s1 == s2 && s2 == s3 {
                memchr::memchr2(s1, b'\\', &b[i..end]).map_or(end, |k| i + k)
            } else {
                let quote = memchr::memchr3(s1, s2, s3, &b[i..end]).map_or(end, |k| i + k);
                memchr::memchr(b'\\', &b[i..quote]).map_or(quote, |k| i + k)
            };
            let at = match b[i..next].iter().position(|&c| c < 0x20) {
                Some(k) => i + k,
                None => next,
            };
            if at >= end {
                return (end, Stop::End);
            }
            let c = b[at];
            if c < 0x20 {
                return (at, Stop::Control(c));
            }
            if c == b'\\' {
                if class == QuoteClass::Escaped && b.get(at + 1) == Some(&b'"') {
                    return (at, Stop::Quote { len: 2, own: true });
                }
                return (at, Stop::Escape);
            }
            if let Some(len) = class.closer_at(b, at) {
                return (at, Stop::Quote { len, own: true });
            }
            if class == QuoteClass::Double
                && (b[at..].starts_with(&LEFT_DOUBLE) || b[at..].starts_with(&RIGHT_DOUBLE))
            {
                return (at, Stop::Quote { len: 3, own: false });
            }
            // A byte that looked like a quote but is not one here (`’` in a `"` string).
            i = at + 1;
        }
    }

    /// The length of the escape at `i` (a backslash) for skipping it: `\uXXXX` is 6, a backslash
    /// that starts no escape is 1, an escape cut by the region end reaches the end.
    pub(crate) fn escape_len(&self, i: usize, class: QuoteClass) -> usize {
        let b = self.b;
        match b.get(i + 1) {
            None => 1,
            Some(_) if i + 1 >= self.end => self.end - i,
            Some(b'\\') if class == QuoteClass::Escaped && b.get(i + 2) == Some(&b'"') => 3,
            Some(b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't' | b'\'' | b'\n') => 2,
            Some(b'u') => {
                let hex = b
                    .get(i + 2..i + 6)
                    .filter(|h| h.iter().all(u8::is_ascii_hexdigit));
                if hex.is_some() && i + 6 <= self.end {
                    6
                } else {
                    1
                }
            }
            Some(_) => 1,
        }
    }
}

/// The closers that end a stretch of text and that nothing in it opened (`"x,{}}]`: two).
#[derive(Clone, Copy, Default, Debug)]
pub(crate) struct ClosingRun {
    pub count: usize,
    /// The first of them: what it would close, and where it is.
    pub first: Option<(Kind, usize)>,
    /// What the second would close.
    pub second: Option<Kind>,
}

/// Where the next token after a valid value (or key) ending at `end` stands, when it is what a
/// valid document has there: `:` after a key; after a value, `,` or the closer of the container
/// `top` (JSON whitespace between).
#[inline]
pub(crate) fn valid_after(
    b: &[u8],
    end: usize,
    limit: usize,
    key: bool,
    top: Option<Kind>,
) -> Option<usize> {
    let next = ws_end(b, end, limit);
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
