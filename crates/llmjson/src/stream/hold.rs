//! Events of a root that may not be the answer are held back: a JSON Schema or a template the
//! prompt gave, echoed before the answer, and a value written inline in a sentence (a draft a reasoning
//! reply weighs: `at first I considered {"status": "pending"} but …`). The final parse passes
//! over both when an answer follows; a caller of events that was never shown them gets no
//! `Revised` at the root. Held events are handed out once the doubt goes (an inline value that
//! spans lines, or that nothing but punctuation follows on its line; a root that stops reading
//! as a schema), or at the end when the final value is that root; else the final value is
//! announced alone (`LaterEvents::resolve`).

use super::tree::Tree;

/// What is known of the root whose events may be held.
#[derive(Debug, Default)]
pub(super) struct Hold {
    /// Where the located value starts, and whether it starts inside a line of prose, outside a
    /// fence (where a draft is written inline).
    start: Option<usize>,
    inline: bool,
    /// How far the text was searched for a line break inside the value: once one is found,
    /// the value spans lines (an answer laid out, not an inline draft).
    scanned_to: usize,
    spans_lines: bool,
    /// After the value closed on its line: how far that line was read, and whether prose
    /// follows it there (a sentence going on past a draft).
    after_to: usize,
    prose_after: bool,
    /// Events of the value were handed out: holding the rest back hides nothing.
    pub handed_out: bool,
}

impl Hold {
    /// Whether the events of what `tree` (the settled tree) shows are held back now. `start`
    /// is where the live reader located the value, `read` its tree (where the value ended:
    /// the settled tree lags behind); `in_fence`, whether it is in a fence. Amortised linear:
    /// each byte of the value and of its line is read once.
    pub fn holds(
        &mut self,
        text: &str,
        start: Option<usize>,
        in_fence: bool,
        tree: &Tree,
        read: &Tree,
    ) -> bool {
        if self.handed_out || !tree.has_started() {
            return false;
        }
        if tree.reads_as_schema() || tree.reads_as_template() {
            return true;
        }
        let Some(start) = start else {
            return false;
        };
        let b = text.as_bytes();
        if self.start != Some(start) {
            let line = b[..start]
                .iter()
                .rposition(|&c| c == b'\n')
                .map_or(0, |i| i + 1);
            *self = Hold {
                start: Some(start),
                inline: !in_fence && b[line..start].iter().any(|c| !c.is_ascii_whitespace()),
                scanned_to: start,
                handed_out: self.handed_out,
                ..Hold::default()
            };
        }
        if !self.inline || self.spans_lines {
            return false;
        }
        let end = if read.is_done() {
            read.root_end().clamp(start, b.len())
        } else {
            b.len()
        };
        if memchr::memchr(b'\n', &b[self.scanned_to.min(end)..end]).is_some() {
            self.spans_lines = true;
            return false;
        }
        self.scanned_to = end;
        if !read.is_done() {
            // Open on its first line: whether it is a draft, what follows it says.
            return true;
        }
        if self.prose_after {
            return true;
        }
        let from = self.after_to.max(end);
        let rest = &b[from..];
        let line = memchr::memchr(b'\n', rest).map_or(rest, |n| &rest[..n]);
        self.prose_after = line.iter().any(|&c| c.is_ascii_alphanumeric() || c >= 0x80);
        self.after_to = from + line.len();
        // Held while prose follows it, or while its line is not over yet.
        self.prose_after || line.len() == rest.len()
    }
}
