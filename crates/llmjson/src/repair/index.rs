//! The structural index: where the bytes that window pricing looks at lie in the text (brackets,
//! commas, `"`, and the lead byte of full-width punctuation), found once per parse.
//!
//! Pricing a contested spot asks questions of the text before it — which brackets its string
//! left open, which commas start members, what a string swallowed — over a window of up to
//! [`crate::repair::cost::WINDOW`] bytes, and the beam asks them at every quote of every
//! reading it follows. Walking the window byte by byte made each question cost the window's
//! length; walking its marks costs only their number, and the text is read once to find them
//! (the idea of simdjson's stage 1, at a byte a step: the index is built only where a parse
//! first needs it, so a reply with no contested spot never builds it).
//!
//! The index grows in blocks as the questions move through the text, so its cost follows the
//! text the parse priced, not the whole input: a strict or nearly valid reply pays nothing.

use std::cell::{Cell, RefCell};

/// Which list a byte goes in: 0 none, 1 [`Marks::Structure`], 2 [`Marks::Quotes`].
const LIST: [u8; 256] = {
    let mut t = [0; 256];
    t[b'{' as usize] = 1;
    t[b'}' as usize] = 1;
    t[b'[' as usize] = 1;
    t[b']' as usize] = 1;
    t[b',' as usize] = 1;
    // The lead byte of `，` `：` and the other full-width forms.
    t[0xEF] = 1;
    t[b'"' as usize] = 2;
    t
};

/// The two lists of the index. Quotes are kept apart: a `"` string full of them (code, or a
/// hostile reply) would otherwise make every question about its brackets walk them too.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Marks {
    /// Brackets, commas and the lead byte of full-width punctuation.
    Structure,
    /// `"`.
    Quotes,
}

/// `c` goes in the list `marks`.
fn is_marked(marks: Marks, c: u8) -> bool {
    LIST[usize::from(c)] == marks as u8 + 1
}

/// The index grows by at least this many bytes at a time.
const BLOCK: usize = 4096;
/// Bytes walked per step of the growth.
const CHUNK: usize = 256;

/// Windows shorter than this are walked byte by byte: cheaper than asking the index, and a
/// parse whose questions are all short (short strings in single quotes) never builds it.
const SHORT: usize = 48;

/// Positions of the marked bytes of a text, in order, one list per [`Marks`], known from `base`
/// up to `built`.
#[derive(Default)]
pub(crate) struct StructIndex {
    positions: [RefCell<Vec<u32>>; 2],
    base: Cell<usize>,
    built: Cell<usize>,
}

impl StructIndex {
    pub(crate) fn new() -> Self {
        StructIndex::default()
    }

    /// Calls `f` with the position of each structure byte in `b[from..to]` (brackets, commas,
    /// the lead byte of full-width punctuation), and of each `"` too when `quotes`, in order,
    /// until `f` returns something.
    pub(crate) fn find_map<R>(
        &self,
        b: &[u8],
        from: usize,
        to: usize,
        quotes: bool,
        mut f: impl FnMut(usize) -> Option<R>,
    ) -> Option<R> {
        let to = to.min(b.len());
        let from = from.min(to);
        let wanted =
            |c: u8| is_marked(Marks::Structure, c) || (quotes && is_marked(Marks::Quotes, c));
        // A short window, a text too long for 32-bit positions, a question about text before
        // the index, or one asked from inside `f` that needs the index to grow: the bytes are
        // walked.
        if to - from < SHORT
            || b.len() > u32::MAX as usize
            || from < self.base.get()
            || (self.built.get() < to && !self.extend(b, from, to))
        {
            return (from..to).filter(|&k| wanted(b[k])).find_map(f);
        }
        let structure = self.positions[Marks::Structure as usize].borrow();
        let structure = within(&structure, from, to);
        if !quotes {
            return structure.iter().find_map(|&k| f(k as usize));
        }
        let quotes = self.positions[Marks::Quotes as usize].borrow();
        let quotes = within(&quotes, from, to);
        // The two lists merged in order.
        let (mut i, mut j) = (0, 0);
        while i < structure.len() || j < quotes.len() {
            let k = if j == quotes.len() || (i < structure.len() && structure[i] < quotes[j]) {
                i += 1;
                structure[i - 1]
            } else {
                j += 1;
                quotes[j - 1]
            };
            if let Some(r) = f(k as usize) {
                return Some(r);
            }
        }
        None
    }

    /// [`StructIndex::find_map`] for every position.
    pub(crate) fn for_each(
        &self,
        b: &[u8],
        from: usize,
        to: usize,
        quotes: bool,
        mut f: impl FnMut(usize),
    ) {
        self.find_map(b, from, to, quotes, |k| {
            f(k);
            None::<()>
        });
    }

    /// Grows the index to cover `b[from..to]` at least; `false` when it is being read (it then
    /// stays as it is). A question far past what it covers starts it afresh there: the text
    /// between was not priced, and need not be read.
    fn extend(&self, b: &[u8], from: usize, to: usize) -> bool {
        let (Ok(mut structure), Ok(mut quotes)) = (
            self.positions[Marks::Structure as usize].try_borrow_mut(),
            self.positions[Marks::Quotes as usize].try_borrow_mut(),
        ) else {
            return false;
        };
        if from > self.built.get().saturating_add(BLOCK) {
            structure.clear();
            quotes.clear();
            self.base.set(from);
            self.built.set(from);
        }
        let start = self.built.get();
        let end = to.max(start.saturating_add(BLOCK)).min(b.len());
        // Without a branch per byte: each position is written, and kept by moving on. (A small
        // buffer, filled and emptied per chunk: zeroing one the size of a block cost more than
        // the walk on a short reply.)
        let mut found = [[0u32; CHUNK]; 2];
        let mut block = start;
        while block < end {
            let bytes = &b[block..end.min(block + CHUNK)];
            let mut count = [0usize; 2];
            for (k, &c) in bytes.iter().enumerate() {
                let list = LIST[usize::from(c)];
                // In range: `b.len()` fits in u32 (checked by the caller).
                let at = (block + k) as u32;
                found[0][count[0]] = at;
                count[0] += usize::from(list == 1);
                found[1][count[1]] = at;
                count[1] += usize::from(list == 2);
            }
            structure.extend_from_slice(&found[0][..count[0]]);
            quotes.extend_from_slice(&found[1][..count[1]]);
            block += bytes.len();
        }
        self.built.set(end);
        true
    }
}

/// The part of the sorted `positions` in `from..to`.
fn within(positions: &[u32], from: usize, to: usize) -> &[u32] {
    let lo = positions.partition_point(|&k| (k as usize) < from);
    let hi = lo + positions[lo..].partition_point(|&k| (k as usize) < to);
    &positions[lo..hi]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_are_exactly_the_marked_bytes_however_the_index_grew() {
        let text = "{\"a\": [1, 2], 'b': \"x，y\"}".repeat(700);
        let b = text.as_bytes();
        let index = StructIndex::new();
        // Asked out of order and across block edges.
        for (from, to) in [
            (5000, 5300),
            (0, 10),
            (4090, 4100),
            (100, 9000),
            (17000, 99999),
        ] {
            for quotes in [false, true] {
                let mut got = Vec::new();
                index.for_each(b, from, to, quotes, |k| got.push(k));
                let to = to.min(b.len());
                let want: Vec<usize> = (from.min(to)..to)
                    .filter(|&k| {
                        matches!(b[k], b'{' | b'}' | b'[' | b']' | b',' | 0xEF)
                            || (quotes && b[k] == b'"')
                    })
                    .collect();
                assert!(!want.is_empty());
                assert_eq!(got, want, "quotes {quotes}: {from}..{to}");
            }
        }
    }

    #[test]
    fn a_question_asked_while_the_index_is_read_walks_the_bytes() {
        let text = "[1, 2] ".repeat(2000);
        let b = text.as_bytes();
        let marked = |from: usize, to: usize| {
            b[from..to]
                .iter()
                .filter(|&&c| matches!(c, b'[' | b']' | b','))
                .count()
        };
        let index = StructIndex::new();
        let (mut outer, mut inner) = (0, 0);
        index.for_each(b, 0, 100, false, |_| {
            outer += 1;
            // Past what the index covers: it cannot grow while it is read.
            index.for_each(b, 9000, 9100, false, |_| inner += 1);
        });
        assert_eq!(outer, marked(0, 100));
        assert_eq!(inner, outer * marked(9000, 9100));
    }
}
