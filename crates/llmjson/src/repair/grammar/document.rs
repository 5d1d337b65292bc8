//! Readings about the document as a whole, at a spot where prose stands instead of JSON: the
//! JSON ends here with its containers unclosed, or what came so far was a draft the reply
//! abandoned and the answer starts at the next value (cheaply when it restates the draft).

use super::succ;
use super::{Ctx, Mode, Reading, Succs};
use crate::repair::cost::{self, Cost};
use crate::repair::lex::is_ws;
use crate::repair::RepairKind;

impl Ctx<'_> {
    /// Prose where JSON was expected: the JSON may end here, its containers unclosed (prose
    /// after an unclosed reply starts after a blank line; one line break is more JSON), or what
    /// came so far was a draft and the answer starts at the next value that looks like JSON.
    pub(super) fn prose_readings(&self, out: &mut Succs, pos: usize, depth: u16) {
        let b = self.b();
        let mut k = pos;
        let mut newlines = 0;
        while k > 0 && is_ws(b[k - 1]) {
            newlines += usize::from(b[k - 1] == b'\n');
            k -= 1;
        }
        // With nothing open there is no JSON yet to end (a bare `null` is not a reading).
        if newlines >= 2 && depth > 0 {
            let lost = self
                .lex
                .lost_structure(pos, (pos + cost::WINDOW).min(self.lex.end));
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

    /// The value at `at` begins as the document being parsed did: its first non-blank
    /// characters (at least [`RESTATED_BYTES`] of them) are the draft's, whatever quotes each
    /// writes (`["Müller"` restated as `[„Müller“`).
    pub(super) fn restates(&self, at: usize) -> bool {
        let text = self.lex.text;
        let (Some(draft), Some(again)) = (
            text.get(self.doc_start..at),
            text.get(at..self.lex.end.min(text.len())),
        ) else {
            return false;
        };
        let normal = |c: char| {
            if matches!(c, '\'' | '`' | '“' | '”' | '„' | '‘' | '’' | '«' | '»') {
                '"'
            } else {
                c
            }
        };
        let draft = draft.chars().filter(|c| !c.is_whitespace()).map(normal);
        let again = again.chars().filter(|c| !c.is_whitespace()).map(normal);
        draft
            .zip(again)
            .take(RESTATED_BYTES)
            .take_while(|(x, y)| x == y)
            .count()
            >= RESTATED_BYTES
    }

    /// Where a new value that looks like JSON starts, within the window after `pos`.
    pub(super) fn restart_point(&self, pos: usize) -> Option<usize> {
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
}

/// How many first non-blank bytes a new value must share with the abandoned draft for the
/// restart to count as a restatement.
const RESTATED_BYTES: usize = 8;
