//! Readings about the document as a whole, at a spot where prose stands instead of JSON: the
//! JSON ends here with its containers unclosed, or what came so far was a draft the reply
//! abandoned and the answer starts at the next value (cheaply when it restates the draft).

use super::reading;
use super::{Action, Ctx, Mode, Readings};
use crate::repair::cost::{self, Cost};
use crate::repair::lex::is_ws;
use crate::repair::RepairKind;

impl Ctx<'_> {
    /// Prose where JSON was expected: the JSON may end here, its containers unclosed (prose
    /// after an unclosed reply starts after a blank line; one line break is more JSON), or what
    /// came so far was a draft and the answer starts at the next value that looks like JSON.
    pub(super) fn prose_readings(&self, out: &mut Readings, pos: usize, depth: u16) {
        let b = self.b();
        let mut k = pos;
        let mut newlines = 0;
        while k > 0 && is_ws(b[k - 1]) {
            newlines += usize::from(b[k - 1] == b'\n');
            k -= 1;
        }
        // With nothing open there is no JSON yet to end (a bare `null` is not a reading).
        // Prose after an unclosed reply mostly starts after a blank line; after one line
        // break it pays more (the line may be more JSON: a bare key, a missing comma).
        // A document written on one line that a line break follows has ended: the next line
        // is prose (`{"a": 1, "b": "x"⏎Note: the dates are in UTC.`). In a document laid out
        // over lines, a line of its own is more JSON unless a blank line comes first.
        // A line that holds only the document's openers (`{⏎`) starts a laid-out document.
        let laid_out = || {
            let from = self.doc_start.max(k.saturating_sub(cost::WINDOW)).min(k);
            memchr::memrchr(b'\n', &b[from..k]).is_some()
                || (from == self.doc_start
                    && b[from..k]
                        .iter()
                        .all(|c| matches!(c, b'{' | b'[' | b' ' | b'\t')))
        };
        // A line of words with nothing of JSON on it ends the document too (`Если нужно, могу
        // уточнить.` after a reply whose closer never came).
        let prose_line = newlines == 1 && self.lex.prose_line_at(pos);
        if (newlines >= 2 || (newlines == 1 && !laid_out()) || prose_line) && depth > 0 {
            // What follows a line of prose that opens a value (`FUNCTION RETURN {…}`) is
            // another value, not structure this one loses: only the words up to it count.
            let mut to = (pos + cost::WINDOW).min(self.lex.end);
            if prose_line {
                to = memchr::memchr2(b'{', b'[', &b[pos..to]).map_or(to, |k| pos + k);
            }
            let lost = self.lex.lost_structure(pos, to);
            let close = cost::CLOSE_AT_END * Cost::from(depth);
            // After a document written on one line, the next line is not more of it.
            let one_line_break = if newlines == 1 && laid_out() {
                cost::PROSE_AFTER_ONE_LINE_BREAK
            } else {
                0
            };
            out.add(
                self.level,
                reading(
                    Action::EndHere,
                    Some(RepairKind::MissingCloser),
                    cost::END_HERE + close + lost + one_line_break,
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
            let base = if self.restates(at, pos) {
                cost::RESTATED_RESTART
            } else {
                cost::RESTART + cost::DRAFT_MARK * self.draft_marks(pos)
            };
            out.add(
                self.level,
                reading(
                    Action::Restart,
                    Some(RepairKind::AbandonedDraft),
                    base + skipped,
                    at,
                    Mode::Value { after_comma: false },
                )
                .pop(depth),
            );
        }
    }

    /// The value at `at` restates the draft that ends at `pos`: the draft (its first
    /// [`cost::WINDOW`] characters, blanks and quotes aside, whatever quotes each writes:
    /// `{"goal":` restated as `{goal:`, `["Müller"` as `[„Müller“`) is, for the most part, how
    /// the new value begins. A model that rewrites its answer restates it; a fragment of JSON
    /// in a later string begins like the document at most for a few characters.
    pub(super) fn restates(&self, at: usize, pos: usize) -> bool {
        #[cfg(test)]
        RESTATES_ASKED.with(|n| n.set(n.get() + 1));
        let text = self.lex.text;
        let (Some(draft), Some(again)) = (
            text.get(self.doc_start..pos.max(self.doc_start)),
            text.get(at..self.lex.end.min(text.len())),
        ) else {
            return false;
        };
        // Most restart points are not restatements (a value inside the document, JSON in a
        // string): their first key or item differs, and that is seen without the alignment.
        if !self.begins_alike(pos, at) {
            return false;
        }
        // Quotes and escapes aside: a restatement may change its quoting.
        let noise = |c: &char| {
            c.is_whitespace()
                || matches!(
                    c,
                    '"' | '\'' | '`' | '\\' | '“' | '”' | '„' | '‘' | '’' | '«' | '»'
                )
        };
        let normal = |s: &'_ str| {
            s.chars()
                .filter(|c| !noise(c))
                // A list restated as a tuple is the same list.
                .map(|c| match c {
                    '(' => '[',
                    ')' => ']',
                    c => c.to_ascii_lowercase(),
                })
                .take(cost::WINDOW)
                .collect::<Vec<char>>()
        };
        let (draft, again) = (normal(draft), normal(again));
        let share = restated_share(&draft, &again);
        share >= RESTATED_BYTES.min(draft.len()).max(RESTATED_MIN) && share * 5 >= draft.len() * 4
    }

    /// The draft (from the document's start to `pos`) and the value at `at` open with the same
    /// bracket and the same first key or item (its first characters, blanks, quotes and
    /// comments aside): a restatement's cheap precondition.
    fn begins_alike(&self, pos: usize, at: usize) -> bool {
        let b = self.b();
        let (start, end) = (self.doc_start, pos.max(self.doc_start));
        // A list restated as a tuple opens alike.
        let opener = |c: Option<&u8>| c.map(|&c| if c == b'(' { b'[' } else { c });
        if start >= end || opener(b.get(start)) != opener(b.get(at)) {
            return false;
        }
        let first = |from: usize, to: usize| {
            let (k, _) = self.lex.skip_trivia(from + 1);
            let to = crate::position::floor_char_boundary(self.lex.text, to.min(self.lex.end));
            let text = self.lex.text.get(k.min(to)..to).unwrap_or_default();
            text.chars()
                .filter(|&c| letter_or_digit(c))
                .take(BEGINS_ALIKE_CHARS)
                .map(|c| c.to_ascii_lowercase())
        };
        let drafted = first(start, end);
        let again = first(at, at + cost::WINDOW);
        let mut any = false;
        for (x, y) in drafted.zip(again) {
            if x != y {
                return false;
            }
            any = true;
        }
        any
    }

    /// The marks of JSON a restart at `pos` would throw away: `,`, `:` and opening brackets in
    /// the draft's last [`cost::WINDOW`] bytes, or the values the parser has read since the
    /// document began, whichever is more.
    fn draft_marks(&self, pos: usize) -> cost::Cost {
        // Past this many, a restart is out of the running anyway: no need to count the text.
        const ENOUGH: cost::Cost = 64;
        if self.draft_values >= ENOUGH {
            return self.draft_values;
        }
        let from = self.doc_start.max(pos.saturating_sub(cost::WINDOW));
        let draft = &self.b()[from..pos.max(from)];
        let seen = memchr::memchr3_iter(b',', b':', b'{', draft).count()
            + memchr::memchr_iter(b'[', draft).count();
        (seen as cost::Cost).max(self.draft_values)
    }

    /// Where a new value that looks like JSON starts, within the window after `pos`: a
    /// container, or a tuple that restates the draft (`[true⏎Actually:⏎(true, 0.5)`: Python's
    /// list). Only a restatement: code's calls (`print("hi")`) are not a new answer.
    pub(super) fn restart_point(&self, pos: usize) -> Option<usize> {
        let b = self.b();
        let limit = (pos + cost::WINDOW).min(self.lex.end);
        let mut i = pos + 1;
        // Asking whether a tuple restates the draft aligns two windows of text: it is asked of
        // the first few tuples only, and of the outermost of nested ones (`((((…` asked it once
        // per parenthesis, a 475-byte reply took 2 s).
        let mut tuples_asked = 0;
        while i < limit {
            i += memchr::memchr3(b'{', b'[', b'(', &b[i..limit])?;
            let json = if b[i] == b'(' {
                let nested = i > pos + 1 && b[i - 1] == b'(';
                let ask = !nested && tuples_asked < TUPLES_ASKED;
                tuples_asked += usize::from(ask);
                ask && self.restates(i, pos) && crate::locate::looks_like_tuple(b, i, self.lex.end)
            } else {
                crate::locate::looks_like_json(b, i, self.lex.end)
            };
            if json {
                return Some(i);
            }
            i += 1;
        }
        None
    }
}

/// How many tuples one search for a restart point asks whether they restate the draft.
const TUPLES_ASKED: usize = 2;
/// How many first non-blank bytes a new value must share with the abandoned draft for the
/// restart to count as a restatement.
const RESTATED_BYTES: usize = 8;
/// How many first letters or digits of a draft's first key or item a restatement repeats.
const BEGINS_ALIKE_CHARS: usize = 6;

/// A letter or digit, for comparing the first words of two values: outside ASCII, anything but
/// the punctuation blocks (general, CJK and full-width), without Unicode's tables (this runs
/// at every restart point).
fn letter_or_digit(c: char) -> bool {
    if c.is_ascii() {
        return c.is_ascii_alphanumeric();
    }
    !matches!(c, '\u{a0}'..='\u{bf}' | '\u{2000}'..='\u{206f}' | '\u{3000}'..='\u{303f}' | '\u{ff00}'..='\u{ff0f}' | '\u{ff1a}'..='\u{ff20}')
}
/// A draft shorter than that restates when all of it does, if it is at least this long.
const RESTATED_MIN: usize = 4;

/// How far ahead the alignment of a draft and its restatement looks to get back in step after
/// a difference (a comment the final added, a comma the draft had).
const RESYNC: usize = 48;
/// How many characters must agree for the two to be back in step.
const RESYNC_RUN: usize = 4;

/// How many characters of `draft` its restatement `again` repeats, in order: a greedy
/// alignment that, where the two differ, skips what one of them added (up to [`RESYNC`]
/// characters) until [`RESYNC_RUN`] characters agree again, or else steps over one character
/// of each (a value the final changed). Linear in the draft (bounded work per difference).
fn restated_share(draft: &[char], again: &[char]) -> usize {
    let run_at = |i: usize, j: usize| {
        i + RESYNC_RUN <= draft.len()
            && j + RESYNC_RUN <= again.len()
            && draft[i..i + RESYNC_RUN] == again[j..j + RESYNC_RUN]
    };
    let (mut i, mut j, mut matched) = (0, 0, 0);
    while i < draft.len() && j < again.len() {
        if draft[i] == again[j] {
            matched += 1;
            i += 1;
            j += 1;
            continue;
        }
        if let Some(skip) = (1..=RESYNC).find(|&k| run_at(i, j + k)) {
            j += skip;
        } else if let Some(skip) = (1..=RESYNC).find(|&k| run_at(i + k, j)) {
            i += skip;
        } else {
            i += 1;
            j += 1;
        }
    }
    matched
}

#[cfg(test)]
thread_local! {
    /// How many times [`Ctx::restates`] was asked (each aligns two windows of text).
    static RESTATES_ASKED: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

#[cfg(test)]
mod tests {
    use super::RESTATES_ASKED;
    use crate::Options;

    /// A reply of nested and repeated parentheses (found by the `guided` fuzz target: 137 bytes
    /// took 5 s there, 475 bytes 2 s in a release build) asks whether a tuple restates the draft
    /// a bounded number of times per byte, not once per parenthesis at every spot.
    #[test]
    fn parentheses_ask_for_restatements_a_bounded_number_of_times() {
        for run in [40, 400] {
            let parens = "(".repeat(run);
            let text = format!(
                "[{{\u{fffd}\r  [{{{{*{parens}{}{parens}{{\u{fffd}\r {parens}={parens}/*' ...]",
                "\u{7f}".repeat(48)
            );
            RESTATES_ASKED.with(|n| n.set(0));
            let _ = crate::parse(&text, &Options::default());
            let asked = RESTATES_ASKED.with(std::cell::Cell::get);
            assert!(
                asked <= 32 * text.len(),
                "{asked} questions for {} bytes",
                text.len()
            );
        }
    }
}
