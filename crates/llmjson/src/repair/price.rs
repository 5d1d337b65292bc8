//! The scans that price text: what a reading that throws JSON away, swallows it into a string
//! or leaves it in a comment costs, by the marks of JSON structure it loses (closers, `"key":`,
//! `, "`). The costs are [`cost`]'s; this is where they are counted. Beside the cost table, so
//! that a change to what swallowed structure costs is made here and there, and tested here.

use super::cost::{self, Cost};
use super::lex::{is_ws, member_starts, wide_punctuation_at, Lex};
use crate::spelling::quotes::{LEFT_DOUBLE, RIGHT_DOUBLE};
use crate::spelling::{QuoteClass, WIDE_COMMA};

/// The longest label [`Lex::label_before_value`] reads, in bytes.
const LABEL_MAX: usize = 80;

impl Lex<'_> {
    /// What the comment whose body is `b[body_start..body_end]` (ending at `end`) costs. A
    /// comment may quote words (`# the "id" must be unique`); what it must not hold is JSON's own
    /// marks (`// "b": 2}`), unless the model commented them out on purpose: then they are a
    /// draft it abandoned, and pay as one.
    pub(crate) fn comment_cost(&self, body_start: usize, body_end: usize, end: usize) -> Cost {
        let to = body_end.min(body_start + cost::WINDOW);
        // Most comments hold no mark: then what kind of comment it is costs nothing.
        let marks = self.json_marks(body_start, to);
        let per_mark = if marks == 0 {
            0
        } else if self.commented_out(body_start, body_end, end) {
            cost::DRAFT_MARK
        } else {
            cost::LOST_STRUCTURE
        };
        cost::COMMENT + marks * per_mark
    }

    /// What the text after a complete document, from `at`, costs to leave out: nothing for
    /// another value, its JSON marks for prose (code with `"done": true}` is not prose), and
    /// when it goes on as the document would (`, "b": 2}`: the closer was premature), what
    /// [`Lex::lost_structure`] says of the next stretch.
    pub(crate) fn lost_after_document(&self, at: usize) -> Cost {
        let (j, _) = self.skip_trivia(at);
        if self.at_end(j) {
            return 0;
        }
        let to = (j + cost::WINDOW).min(self.end);
        // What follows a comma after the document: a sentence or a label?
        let after_comma = || self.skip_trivia(j + 1).0;
        match self.b[j] {
            // Another value: a separate answer, not a lost part of this one.
            b'{' | b'[' => 0,
            // `}, filled in: {…}`: a sentence, then another value.
            b',' if self.prose_words_at(after_comma())
                || self.labelled_last_value(after_comma(), to) =>
            {
                let next = memchr::memchr2(b'{', b'[', &self.b[j..to]).map_or(to, |k| j + k);
                self.json_marks(j + 1, next) * cost::LOST_STRUCTURE
            }
            b',' | b':' => self.lost_structure(j, to) + self.numbers(j, to) * cost::LOST_STRUCTURE,
            _ if wide_punctuation_at(self.b, j) => {
                self.lost_structure(j, to) + self.numbers(j, to) * cost::LOST_STRUCTURE
            }
            // A label, then another value (`Answer: {…}`): the label holds no quote, comma or
            // closer before the bracket, so what follows is a value of its own, which costs
            // nothing to leave, as `{` right after the document does — unless its closers
            // outnumber its openers (`b: {c: 2}}`: the document went on after a premature `}`).
            _ => match self.label_before_value(j, to) {
                Some(open) => self.unbalanced_closers(open, to),
                // Prose costs nothing; marks that only JSON has (`"key":`, `, "`, closers) do.
                None => self.json_marks(j, to) * cost::LOST_STRUCTURE,
            },
        }
    }

    /// A short label on one line (`Answer:`, `Filled in ->`, `出力：`) from `k`, then (on that
    /// line or after blank lines) an opening bracket: the bracket's offset. The label starts
    /// with a letter and holds no JSON mark (quote, comma, closer, `=`) and none of code's
    /// (`(`, `;`, `\\`); the bracket stands apart from it (after a blank or a colon), not
    /// glued to a word as an index is (`print(d[`, `items[`).
    pub(crate) fn label_before_value(&self, k: usize, to: usize) -> Option<usize> {
        // `k` may lie past `to` (trivia skipped beyond the window): then there is no label.
        let b = self.b.get(k..to.min(self.b.len()))?;
        if !b
            .first()
            .is_some_and(|&c| c.is_ascii_alphabetic() || c >= 0x80)
        {
            return None;
        }
        let m = b.iter().take(LABEL_MAX).position(|&c| {
            matches!(
                c,
                b'{' | b'[' | b'"' | b',' | b'}' | b']' | b'=' | b'\n' | b'(' | b')' | b';' | b'\\'
            )
        })?;
        let open = m + b[m..].iter().position(|&c| !is_ws(c))?;
        let apart = open > m
            || matches!(b[m - 1], b' ' | b':' | b'\t')
            || b[..m].ends_with("：".as_bytes());
        (matches!(b[open], b'{' | b'[') && apart).then_some(k + open)
    }

    /// `}, preenchido: {…}` at the reply's end: a one-word label, then a value that closes
    /// within the window with nothing after it — a sentence's worth of label, not a member
    /// (a member after a premature closer leaves a closer for the document: `b: {c: 2}}`).
    fn labelled_last_value(&self, k: usize, to: usize) -> bool {
        // Only at the reply's end: checked first, it costs nothing.
        if to < self.end {
            return false;
        }
        let Some(open) = self.label_before_value(k, to) else {
            return false;
        };
        let (lost, open_left) = self.bracket_balance(open, to);
        let last = self.b[open..to].iter().rposition(|c| !is_ws(*c));
        lost == 0 && open_left == 0 && last.is_some_and(|e| matches!(self.b[open + e], b'}' | b']'))
    }

    /// Two words of prose start at `k` (`filled in`, `the output is`): letters, a space,
    /// letters — not a key, which is one word or quoted.
    pub(crate) fn prose_words_at(&self, k: usize) -> bool {
        let (b, end) = (self.b, self.end.min(self.b.len()));
        // A letter of any script, not a full-width `：` `，` or a quote of any kind: a word
        // glued to those is a key (`owner：“Fatima Zahra”,`), not prose.
        let letter = |i: usize| {
            b[i].is_ascii_alphabetic()
                || (b[i] >= 0x80
                    && !wide_punctuation_at(b, i)
                    && crate::spelling::quotes::quote_at(b, i).is_none())
        };
        let mut i = k;
        while i < end && (letter(i) || b[i].is_ascii_digit() || matches!(b[i], b'_' | b'-')) {
            i += 1;
        }
        i > k && letter(k) && i + 1 < end && b[i] == b' ' && letter(i + 1)
    }

    /// The line at `k` is a sentence: it opens with two words and holds no mark of JSON
    /// (quote, colon, bracket, `=`) before its end, or only after an opening bracket.
    pub(crate) fn prose_line_at(&self, k: usize) -> bool {
        let end = self.end.min(self.b.len());
        let line_end = memchr::memchr(b'\n', &self.b[k.min(end)..end]).map_or(end, |e| k + e);
        // Or it is words that introduce another value (`FUNCTION RETURN {…}`): the first mark
        // of JSON on the line opens it.
        let line = &self.b[k..line_end];
        self.prose_words_at(k)
            && line
                .iter()
                .position(|c| matches!(c, b'"' | b':' | b'{' | b'}' | b'[' | b']' | b'='))
                .is_none_or(|m| {
                    // A bracket after a blank (`RETURN {`), not one glued to a word (`doc[`).
                    matches!(line[m], b'{' | b'[') && m > 0 && line[m - 1] == b' '
                })
    }

    /// Numbers in `b[from..to]`: runs of digits that start a word (`, 2001]`).
    fn numbers(&self, from: usize, to: usize) -> Cost {
        let b = &self.b[from..to];
        let starts = (0..b.len()).filter(|&k| {
            b[k].is_ascii_digit()
                && (k == 0
                    || !(b[k - 1].is_ascii_alphanumeric() || matches!(b[k - 1], b'.' | b'_')))
        });
        starts.count() as Cost
    }

    /// What a string of `class` pays for its text `b[from..to]` (within the window before
    /// `to`): [`cost::LOST_STRUCTURE`] per mark of JSON structure in it that stands outside the
    /// brackets the text itself opened. The marks: a closer nothing in the text opened; a comma
    /// (or `，`) followed by a key and its colon, in any quotes or none (`, 'tags': `,
    /// `, name: `), or by an opening bracket (`}, {`: the next item of a list); and in a string
    /// that does not end at `"`, a `"` before a colon or after a
    /// comma (`'docs', "tool": "x"…'`; in a `"` string each `"` was judged as it came). JSON the
    /// text holds whole (`'{"a": 1, "b": [1, 2]}'`, `"d = {'a': 1, 'b': 2}"`) is the string's
    /// own content: its marks are inside its brackets and cost nothing, or a string holding JSON
    /// would pay more to end where it ends than to swallow the document after it.
    pub(crate) fn swallowed(&self, class: QuoteClass, from: usize, to: usize) -> Cost {
        let to = to.min(self.end);
        let from = from.max(to.saturating_sub(cost::WINDOW));
        if from >= to {
            return 0;
        }
        let double = class.closer_at(b"\"", 0).is_some();
        self.marks(double, from, to, to).0 * cost::LOST_STRUCTURE
    }

    /// What keeping the quote at `to` as text costs a string of `class` opened at `from`: the
    /// marks [`Lex::swallowed`] counts outside the text's brackets, between the string's
    /// previous quote (or its start) and this one. A string that runs on pays as it goes for the
    /// structure it swallows, not only where it finally closes: otherwise a reading that keeps
    /// quoting on, and closes beyond the stretch compared, would look cheap.
    pub(crate) fn swallowed_since(&self, class: QuoteClass, from: usize, to: usize) -> Cost {
        let to = to.min(self.end);
        let from = from.max(to.saturating_sub(cost::WINDOW));
        if from >= to {
            return 0;
        }
        // The string's previous stop: a quote that could have closed it.
        let b = self.b;
        let double = class.closer_at(b"\"", 0).is_some();
        let (s1, s2, s3) = class.stop_bytes();
        let s3 = if class == QuoteClass::Double {
            0xE2
        } else {
            s3
        };
        let stop_at = |k: usize| {
            class.closer_at(b, k).is_some()
                || (class == QuoteClass::Double
                    && (b[k..].starts_with(&LEFT_DOUBLE) || b[k..].starts_with(&RIGHT_DOUBLE)))
        };
        let mut previous = from;
        let mut k = to;
        while let Some(p) = memchr::memrchr3(s1, s2, s3, &b[from..k]) {
            if stop_at(from + p) {
                previous = from + p + 1;
                break;
            }
            k = from + p;
        }
        // Only the text since then can hold a mark not yet paid for.
        if !may_hold_marks(&b[previous..to], double) {
            return 0;
        }
        self.marks(double, from, to, previous).1 * cost::LOST_STRUCTURE
    }

    /// The marks [`Lex::swallowed`] counts in `b[from..to]`, two ways: those inside no bracket
    /// the text closed again (marks inside a bracket the text opened and closed are its own;
    /// inside one it left open they count: `{'id': 7, 'name': „Mary` swallowed the start of
    /// an object), and those outside every bracket (closers nothing there opened included) at
    /// or after `after`.
    fn marks(&self, double: bool, from: usize, to: usize, after: usize) -> (Cost, Cost) {
        let b = &self.b[from..to];
        // Marks counted at each open bracket's level (level 0: outside any); a closer drops its
        // level's marks. Brackets nested deeper than the levels kept share the last one.
        const LEVELS: usize = 32;
        let mut levels = [0 as Cost; LEVELS];
        let mut depth = 0usize;
        let mut outside = 0;
        // Only the bytes the index holds can be marks or brackets (a `"` only where `"` does
        // not end the string).
        self.index.for_each(self.b, from, to, !double, |k| {
            let k = k - from;
            let mark = match b[k] {
                b'{' | b'[' => {
                    depth += 1;
                    if depth < LEVELS {
                        levels[depth] = 0;
                    }
                    false
                }
                b'}' | b']' if depth > 0 => {
                    depth -= 1;
                    false
                }
                b'}' | b']' => true,
                b',' | b'"' | 0xEF => mark_at(b, k, double),
                _ => false,
            };
            if mark {
                levels[depth.min(LEVELS - 1)] += 1;
                outside += Cost::from(depth == 0 && from + k >= after);
            }
        });
        (levels[..=depth.min(LEVELS - 1)].iter().sum(), outside)
    }

    /// What a key's text `b[from..to]` (within the window) pays for the JSON punctuation it
    /// holds: [`cost::LOST_STRUCTURE`] per bracket, quote (of any kind) or `:` followed by a
    /// blank or a value. A key is a name; `"citations: [{“doc”: …` swallowed members.
    pub(crate) fn key_marks(&self, from: usize, to: usize) -> Cost {
        let to = to.min(self.end);
        let from = from.max(to.saturating_sub(cost::WINDOW));
        let b = &self.b[from..to.max(from)];
        let marks = b
            .iter()
            .enumerate()
            .filter(|&(k, &c)| match c {
                b'{' | b'}' | b'[' | b']' | b'"' => true,
                // `“ ” „`: E2 80 9C/9D/9E; counted at the lead byte.
                0xE2 => b.get(k + 1) == Some(&0x80) && matches!(b.get(k + 2), Some(0x9C..=0x9E)),
                b':' => b
                    .get(k + 1)
                    .is_some_and(|&n| is_ws(n) || matches!(n, b'"' | b'[' | b'{')),
                _ => false,
            })
            .count();
        marks as Cost * cost::LOST_STRUCTURE
    }

    /// Marks in `b[from..to]` that JSON has and prose does not: a quote followed by `:`, or by
    /// a comma that ends its line; a comma followed by a quote; and closing brackets.
    fn json_marks(&self, from: usize, to: usize) -> Cost {
        let b = &self.b[from..to];
        // Prose holds none of the bytes a mark needs: found at memchr's speed.
        if memchr::memchr3(b'}', b']', b'"', b).is_none()
            && memchr::memchr2(b',', 0xEF, b).is_none()
        {
            return 0;
        }
        let next_non_space = |k: usize| b[k..].iter().copied().find(|&c| !is_ws(c));
        // `",` ending its line (or the text): how a member's value ends in laid-out JSON.
        let ends_line = |k: usize| {
            b[k..]
                .iter()
                .copied()
                .find(|&c| !matches!(c, b' ' | b'\t' | b'\r'))
                .is_none_or(|c| c == b'\n')
        };
        let mut marks = 0;
        for (k, &c) in b.iter().enumerate() {
            let mark = match c {
                b'}' | b']' => true,
                b'"' => {
                    next_non_space(k + 1) == Some(b':')
                        || (b.get(k + 1) == Some(&b',') && ends_line(k + 2))
                }
                b',' => next_non_space(k + 1) == Some(b'"'),
                0xEF if b[k..].starts_with(&WIDE_COMMA) => next_non_space(k + 3) == Some(b'"'),
                _ => false,
            };
            marks += Cost::from(mark);
        }
        marks
    }

    /// What the text after a top-level scalar, from `at`, costs to leave out: nothing when it
    /// is only noise (whitespace, comments, `;` or `,`), else [`cost::TEXT_AFTER_SCALAR`].
    pub(crate) fn lost_after_scalar(&self, mut at: usize) -> Cost {
        loop {
            let (j, _) = self.skip_trivia(at);
            if self.at_end(j) {
                return 0;
            }
            if self.b[j..self.end].starts_with(&WIDE_COMMA) {
                at = j + WIDE_COMMA.len();
                continue;
            }
            if !matches!(self.b[j], b';' | b',') {
                return cost::TEXT_AFTER_SCALAR;
            }
            at = j + 1;
        }
    }

    /// What leaving `b[from..to]` out of the value costs: [`cost::LOST_STRUCTURE`] per quote or
    /// bracket in it (callers bound the stretch).
    pub(crate) fn lost_structure(&self, from: usize, to: usize) -> Cost {
        let to = to.min(self.end);
        if from >= to {
            return 0;
        }
        let n = self.b[from..to]
            .iter()
            .filter(|&&c| matches!(c, b'"' | b'{' | b'}' | b'[' | b']'))
            .count() as Cost;
        n * cost::LOST_STRUCTURE
    }

    /// [`cost::LOST_STRUCTURE`] per closer in `b[from..to]` (within the window before `to`)
    /// that no opener before it in that text balances: a closer a string's text would take from
    /// the structure (`"x]`), where a balanced one is text (`"see [docs]"`).
    pub(crate) fn unbalanced_closers(&self, from: usize, to: usize) -> Cost {
        self.bracket_balance(from, to).0 * cost::LOST_STRUCTURE
    }

    /// What a string of `class` swallowing `b[from..to]` leaves out of the structure:
    /// [`cost::LOST_STRUCTURE`] per bracket, and per `"` when `"` does not end such a string
    /// (a `"` in a `"` string was already judged as text or closer).
    pub(crate) fn lost_in_string(&self, class: QuoteClass, from: usize, to: usize) -> Cost {
        let to = to.min(self.end);
        if from >= to {
            return 0;
        }
        let quotes_count = class.closer_at(b"\"", 0).is_none();
        let n = self.b[from..to]
            .iter()
            .filter(|&&c| matches!(c, b'{' | b'}' | b'[' | b']') || (quotes_count && c == b'"'))
            .count() as Cost;
        n * cost::LOST_STRUCTURE
    }
}

/// Whether `b` holds a byte a mark needs (a closer, a comma, a full-width comma, or in a string
/// that does not end at `"`, a `"`).
fn may_hold_marks(b: &[u8], double: bool) -> bool {
    memchr::memchr3(b',', b'}', b']', b).is_some()
        || memchr::memchr(0xEF, b).is_some()
        || (!double && memchr::memchr(b'"', b).is_some())
}

/// Whether `b[k]` (not a bracket) is a mark of JSON structure in a string's text: a `"` before a
/// colon, in a string that does not end at `"`; a comma (or `，`) before a key and its colon, an
/// opening bracket or, in such a string, a `"`. (In a `"` string, a `"`-quoted key's quotes were
/// judged as they came.)
fn mark_at(b: &[u8], k: usize, double: bool) -> bool {
    let next_non_space = |k: usize| b[k..].iter().position(|&c| !is_ws(c)).map(|n| k + n);
    let width = match b[k] {
        b'"' if !double => return next_non_space(k + 1).is_some_and(|n| b[n] == b':'),
        b',' => 1,
        0xEF if wide_punctuation_at(b, k) => WIDE_COMMA.len(),
        _ => return false,
    };
    next_non_space(k + width).is_some_and(|n| {
        matches!(b[n], b'{' | b'[')
            || (b[n] == b'"' && !double)
            || (b[n] != b'"' && member_starts(b, n))
    })
}

#[cfg(test)]
mod tests {
    //! Each scan on texts that show its rule, with the cost the rule gives (in the table's
    //! constants): a change to a price fails here, next to the scan that counts it.

    use super::*;
    use crate::repair::index::StructIndex;

    fn lex<'t>(text: &'t str, index: &'t StructIndex) -> Lex<'t> {
        Lex {
            text,
            b: text.as_bytes(),
            end: text.len(),
            fence: None,
            index,
        }
    }

    /// `price(lex, len)` on every text, against its expected cost.
    fn check(cases: &[(&str, Cost)], price: impl Fn(&Lex<'_>, usize) -> Cost) {
        for &(text, want) in cases {
            let index = StructIndex::new();
            let got = price(&lex(text, &index), text.len());
            assert_eq!(got, want, "{text:?}");
        }
    }

    /// [`cost::LOST_STRUCTURE`], written as a number: a change to the price fails here.
    const LOST: Cost = 3;

    #[test]
    fn a_string_pays_for_the_members_it_swallowed_not_for_json_it_holds() {
        check(
            &[
                ("plain words, even with a comma", 0),
                // A comma before a key and its colon, and a closer nothing in the text opened.
                ("Seoul, tags: [], n: 2}", 3 * LOST),
                // (In a `"` string, a quoted key's quotes were priced as the string met them.)
                ("Seoul, \"tags\": [], \"n\": 2}", LOST),
                ("x, name: 'y'", LOST),
                // JSON the text holds whole is its content.
                ("{\"a\": 1, \"b\": [1, 2]}", 0),
                ("d = {'a': 1, 'b': 2}", 0),
            ],
            |lex, len| lex.swallowed(QuoteClass::Double, 0, len),
        );
        // In a single-quoted string, a `"` before a colon is a mark too.
        check(&[("docs', \"tool\": \"x", 2 * LOST)], |lex, len| {
            lex.swallowed(QuoteClass::Single, 0, len)
        });
    }

    #[test]
    fn a_key_pays_for_the_punctuation_of_json() {
        check(
            &[
                ("name", 0),
                ("first name", 0),
                ("citations: [{", 3 * LOST),
                ("a\": \"b", 3 * LOST),
            ],
            |lex, len| lex.key_marks(0, len),
        );
    }

    #[test]
    fn a_comment_pays_for_json_it_hides_less_when_commented_out_on_purpose() {
        check(
            &[
                (" the \"id\" must be unique\n", 1),
                (" \"b\": 2}", 1 + 2 * LOST),
            ],
            |lex, len| lex.comment_cost(0, len, len),
        );
    }

    #[test]
    fn text_after_the_document_pays_when_it_goes_on_as_json() {
        check(
            &[
                ("", 0),
                (" {\"next\": 1}", 0),
                ("\n\nHope this helps!", 0),
                // Per quote, bracket or number left out.
                (", \"b\": 2}", 4 * LOST),
                // A sentence, then another value.
                (", filled in:\n{\"b\": 2}", 0),
            ],
            |lex, _| lex.lost_after_document(0),
        );
    }

    #[test]
    fn unbalanced_closers_are_lost_structure() {
        check(
            &[("[1, 2]", 0), ("1, 2]}", 2 * LOST), ("a) b", 0)],
            |lex, len| lex.unbalanced_closers(0, len),
        );
    }

    #[test]
    fn a_word_glued_to_a_full_width_colon_or_a_quote_is_no_prose() {
        check(
            &[
                ("the output is", 1),
                ("Filled in below", 1),
                ("owner：“Fatima Zahra”,", 0),
                ("担当者：“山田 太郎”,", 0),
                ("name “Ana Souza”", 0),
                ("owner", 0),
            ],
            |lex, _| Cost::from(lex.prose_words_at(0)),
        );
    }

    #[test]
    fn a_colon_and_a_bracket_ending_the_line_open_a_laid_out_container() {
        check(
            &[
                (" => [\n", 1),
                ("\": {\n", 1),
                (" = [ # the steps you asked for\n", 1),
                ("：[ // steps\n", 1),
                (" : {", 1),
                (": [1, 2]\n", 0),
                (" said: {no}", 0),
                (", [\n", 0),
            ],
            |lex, _| Cost::from(lex.colon_then_open_line(text_start(lex))),
        );
        // Asked past the region's end (a quote that ends beyond it): no, and no panic.
        check(&[(" => [\n", 0)], |lex, len| {
            Cost::from(lex.colon_then_open_line(len + 3))
        });
    }

    /// Where [`Lex::colon_then_open_line`] is asked: after the quote a case starts with.
    fn text_start(lex: &Lex<'_>) -> usize {
        usize::from(lex.b.first() == Some(&b'"'))
    }
}
