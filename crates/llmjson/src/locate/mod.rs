//! Stage "locate": where in a model's reply does the JSON start?
//!
//! Locate finds *starts*; the repair parser decides where each value ends (it is string-aware
//! and stops at a closing fence), so a `}` or a fence inside a string never cuts a value short.
//!
//! Preference order for the first value:
//! 1. a ```` ```json ```` fence (or `~~~json`) or a `<tool_call>` block, in document order;
//! 2. any other fence (unlabelled, or another label);
//! 3. a reply that *is* a scalar (`"text"`, `42`, `true`, `callback(...)`), whole;
//! 4. the first `{` or `[` in the text that looks like JSON (so `[note]`, `{name}` and citation
//!    markers like `[1]` in prose are passed over).
//!
//! `<think>…</think>` blocks are masked out everywhere: they often hold a decoy draft.

use crate::spelling::{WIDE_COLON, WIDE_COMMA};
use serde::Serialize;
use std::ops::Range;

/// A fence that ends the region when met where JSON structure is expected (```` ``` ````, `~~~`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Fence {
    pub byte: u8,
}

/// Where the JSON was found.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Source {
    /// Inside a Markdown fence (```` ``` ```` or `~~~`), with its label if it had one.
    Fence {
        /// The info string after the opening fence (`json`, `python`, …).
        label: Option<String>,
    },
    /// Inside a `<tool_call>` / `<function_call>` block.
    ToolCall,
    /// In the text itself (alone, or with prose around it).
    Text,
}

/// The name diagnostics and the bindings give a source: `text`, `tool_call`, `fence`, or
/// `fence:LABEL`.
impl std::fmt::Display for Source {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Source::Text => f.write_str("text"),
            Source::ToolCall => f.write_str("tool_call"),
            Source::Fence { label: None } => f.write_str("fence"),
            Source::Fence { label: Some(l) } => write!(f, "fence:{l}"),
        }
    }
}

/// A block that may hold JSON: a fence or a tool-call tag pair.
#[derive(Debug, Clone)]
pub(crate) struct Block {
    pub source: Source,
    /// Where the opening marker starts.
    pub start: usize,
    /// Where the content starts.
    pub content_start: usize,
    /// Where the content ends by naive pairing (next fence marker or close tag), or the text end.
    pub content_end: usize,
    /// A fence ends the parser's region where structure is expected.
    pub fence: Option<Fence>,
    /// The parser's hard region end (a tool call's close tag), else the text end.
    pub region_end: usize,
    /// Right after the closing marker.
    pub after: usize,
    /// Preferred over other blocks: labelled JSON, or a tool call.
    pub preferred: bool,
}

/// The reply with its reasoning blocks masked out.
pub(crate) struct Scan<'t> {
    pub text: &'t str,
    b: &'t [u8],
    /// Sorted, disjoint byte ranges to ignore (`<think>` blocks).
    masks: Vec<Range<usize>>,
}

impl<'t> Scan<'t> {
    pub(crate) fn new(text: &'t str) -> Self {
        let b = text.as_bytes();
        let mut masks = Vec::new();
        let mut from = 0;
        // One forward search per reasoning tag, each kept at its next occurrence: the text is
        // scanned once per tag however many `<` it holds (prose with HTML in it).
        let tags = crate::spelling::REASONING_TAGS;
        let finders: Vec<_> = tags
            .iter()
            .map(|(open, _)| memchr::memmem::Finder::new(open))
            .collect();
        let mut next: Vec<Option<usize>> = finders.iter().map(|f| f.find(b)).collect();
        loop {
            for (at, finder) in next.iter_mut().zip(&finders) {
                if at.is_some_and(|at| at < from) {
                    *at = finder.find(&b[from..]).map(|i| from + i);
                }
            }
            let Some((tag, open)) = next
                .iter()
                .enumerate()
                .filter_map(|(tag, at)| at.map(|at| (tag, at)))
                .min_by_key(|&(_, at)| at)
            else {
                break;
            };
            let close = tags[tag].1;
            let close_end = text[open..]
                .find(close)
                .map_or(text.len(), |k| open + k + close.len());
            masks.push(open..close_end);
            from = close_end;
        }
        Scan { text, b, masks }
    }

    /// The same reply with `range` masked out too (a decoy the pipeline chose to skip).
    pub(crate) fn with_mask(&self, range: Range<usize>) -> Scan<'t> {
        let mut masks = self.masks.clone();
        let at = masks.partition_point(|m| m.start < range.start);
        masks.insert(at, range);
        // Keep the masks disjoint: a new one may overlap its neighbours.
        let mut merged: Vec<Range<usize>> = Vec::with_capacity(masks.len());
        for m in masks {
            match merged.last_mut() {
                Some(last) if m.start <= last.end => last.end = last.end.max(m.end),
                _ => merged.push(m),
            }
        }
        Scan {
            text: self.text,
            b: self.b,
            masks: merged,
        }
    }

    /// Byte `i` lies in a masked range (a `<think>` block, a skipped decoy).
    pub(crate) fn is_masked(&self, i: usize) -> bool {
        self.mask_end(i).is_some()
    }

    /// The reply has `<think>` blocks.
    pub(crate) fn has_masks(&self) -> bool {
        !self.masks.is_empty()
    }

    /// If `i` is inside a mask, the end of that mask.
    fn mask_end(&self, i: usize) -> Option<usize> {
        if self.masks.is_empty() {
            return None;
        }
        let idx = self.masks.partition_point(|m| m.end <= i);
        self.masks.get(idx).filter(|m| m.start <= i).map(|m| m.end)
    }

    /// The next fence or tool-call block starting at or after `from`.
    pub(crate) fn next_block(&self, from: usize) -> Option<Block> {
        let b = self.b;
        let mut i = from;
        while i < b.len() {
            // Jump to the next byte that can start a block.
            i = match memchr::memchr3(b'`', b'~', b'<', &b[i..]) {
                Some(k) => i + k,
                None => return None,
            };
            if let Some(end) = self.mask_end(i) {
                i = end;
                continue;
            }
            let c = b[i];
            if ((c == b'`' || c == b'~') && b[i..].starts_with(&[c, c, c]))
                || self.two_backtick_fence_at(i)
            {
                return Some(self.fence_block(i, c));
            }
            if c == b'<' {
                for (open, close) in crate::spelling::TOOL_TAGS {
                    if self.text[i..].starts_with(open) {
                        let content_start = i + open.len();
                        let (content_end, after) = match self.text[content_start..].find(close) {
                            Some(k) => (content_start + k, content_start + k + close.len()),
                            None => (b.len(), b.len()),
                        };
                        return Some(Block {
                            source: Source::ToolCall,
                            start: i,
                            content_start,
                            content_end,
                            fence: None,
                            region_end: content_end,
                            after,
                            preferred: true,
                        });
                    }
                }
            }
            i += 1;
        }
        None
    }

    fn fence_block(&self, at: usize, c: u8) -> Block {
        let b = self.b;
        let mut i = at;
        while i < b.len() && b[i] == c {
            i += 1;
        }
        let label_start = i;
        while i < b.len()
            && (b[i].is_ascii_alphanumeric() || matches!(b[i], b'_' | b'+' | b'.' | b'-'))
        {
            i += 1;
        }
        let label = &self.text[label_start..i];
        let content_start = i;
        // A fence of two backticks closes with two; of three or more, with three.
        let marker = [c, c, c];
        let marker = &marker[..(label_start - at).min(3)];
        let (content_end, after) = match find(b, content_start, marker) {
            Some(k) => {
                let mut e = k;
                while e < b.len() && b[e] == c {
                    e += 1;
                }
                (k, e)
            }
            None => (b.len(), b.len()),
        };
        let lower = label.to_ascii_lowercase();
        Block {
            source: Source::Fence {
                label: (!label.is_empty()).then(|| label.to_string()),
            },
            start: at,
            content_start,
            content_end,
            fence: Some(Fence { byte: c }),
            region_end: b.len(),
            after,
            preferred: is_json_label(&lower),
        }
    }

    /// A Python triple-quoted wrapper at `at` (`"""{…}"""`, `'''json⏎[…]'''`, maybe around a
    /// fence) whose content is a JSON container: a block that ends at the closing quotes.
    pub(crate) fn triple_quoted_at(&self, at: usize) -> Option<Block> {
        let b = self.b;
        let q = *b.get(at)?;
        if !matches!(q, b'"' | b'\'') || !b[at..].starts_with(&[q, q, q]) {
            return None;
        }
        if at > 0
            && (b[at - 1].is_ascii_alphanumeric() || matches!(b[at - 1], b'"' | b'\'' | b'\\'))
        {
            return None;
        }
        let label_start = at + 3;
        let mut i = label_start;
        while i < b.len() && b[i].is_ascii_alphabetic() {
            i += 1;
        }
        let label = self.text[label_start..i].to_ascii_lowercase();
        if !label.is_empty() && !is_json_label(&label) {
            return None;
        }
        let skip_blanks = |mut k: usize| {
            while k < b.len() && b[k].is_ascii_whitespace() {
                k += 1;
            }
            k
        };
        let mut k = skip_blanks(i);
        if b[k..].starts_with(b"```") {
            k = skip_blanks(memchr::memchr(b'\n', &b[k..]).map_or(b.len(), |e| k + e));
        }
        // A container, or members with no braces (`'''"poids": 74 kg, …}'''`).
        if !matches!(b.get(k), Some(b'{' | b'[')) && !key_line_at(b, k).0 {
            return None;
        }
        let content_end = find(b, k, &[q, q, q]).unwrap_or(b.len());
        Some(Block {
            source: Source::Text,
            start: at,
            content_start: i,
            content_end,
            fence: Some(Fence { byte: b'`' }),
            region_end: content_end,
            after: (content_end + 3).min(b.len()),
            preferred: true,
        })
    }

    /// The first Python triple-quoted wrapper of the reply, when nothing before it opens a
    /// value: at its start, or after a label or an assignment (`output = \'\'\'json⏎{…}`,
    /// `Here it is: """[…]"""`).
    pub(crate) fn first_triple_quoted(&self) -> Option<Block> {
        let start = self.first_content()?;
        let b = &self.b[start..];
        let before_value = memchr::memchr2(b'{', b'[', b).unwrap_or(b.len());
        let quote = |q: u8| memchr::memmem::find(&b[..before_value], &[q, q, q]);
        let at = match (quote(b'"'), quote(b'\'')) {
            (Some(d), Some(s)) => d.min(s),
            (d, s) => d.or(s)?,
        };
        self.triple_quoted_at(start + at)
    }

    /// A fence of two backticks (```` ``json ````, as some models write it): alone at a line's
    /// start, then a label or nothing, then the line's end — never inline code.
    fn two_backtick_fence_at(&self, i: usize) -> bool {
        let b = self.b;
        if !(b[i..].starts_with(b"``") && b.get(i + 2) != Some(&b'`')) {
            return false;
        }
        if i > 0 && b[i - 1] != b'\n' {
            return false;
        }
        let mut k = i + 2;
        while k < b.len() && b[k].is_ascii_alphanumeric() {
            k += 1;
        }
        matches!(b.get(k), Some(b'\n' | b'\r'))
    }

    /// Every block in the reply, in document order.
    pub(crate) fn blocks(&self) -> Vec<Block> {
        self.blocks_from(0)
    }

    /// The first `{` or `[` that looks like JSON in the text outside every block (prose), at or
    /// after `from`.
    pub(crate) fn find_candidate_outside(&self, blocks: &[Block], from: usize) -> Option<usize> {
        let mut gap_start = from;
        for block in blocks {
            if block.start > gap_start {
                if let Some(i) = self.find_candidate(gap_start, block.start) {
                    return Some(i);
                }
            }
            gap_start = gap_start.max(block.after);
        }
        self.find_candidate(gap_start, self.text.len())
    }

    /// The block's content *is* a JSON value: the candidate at `start` is its first non-blank
    /// content (not a payload inside a shell command or a line of code).
    pub(crate) fn starts_block(&self, block: &Block, start: usize) -> bool {
        self.b[block.content_start..start]
            .iter()
            .all(|c| c.is_ascii_whitespace())
    }

    /// Every block that starts at or after `from`, in document order.
    pub(crate) fn blocks_from(&self, from: usize) -> Vec<Block> {
        let mut out = Vec::new();
        let mut from = from;
        while let Some(block) = self.next_block(from) {
            from = block.after.max(block.content_start + 1);
            out.push(block);
        }
        out
    }

    /// The first place in `from..to` where JSON looks like it starts: a `{` or `[` that looks
    /// like JSON, a `(` that opens a tuple (`("a", "b")`), or a line that starts with a quoted
    /// key and its `:` (an object whose `{` is missing; see [`Scan::key_at`]).
    pub(crate) fn find_candidate(&self, from: usize, to: usize) -> Option<usize> {
        let bracket = self.find_bracket(from, to);
        let key_line = self.find_key_line(from, bracket.unwrap_or(to));
        key_line.or(bracket)
    }

    fn find_bracket(&self, from: usize, to: usize) -> Option<usize> {
        let b = self.b;
        let to = to.min(b.len());
        let mut i = from;
        while i < to {
            i = match memchr::memchr3(b'{', b'[', b'(', &b[i..to]) {
                Some(k) => i + k,
                None => return None,
            };
            if let Some(end) = self.mask_end(i) {
                i = end;
                continue;
            }
            let json = if b[i] == b'(' {
                looks_like_tuple(b, i, to)
            } else {
                looks_like_json(b, i, to)
            };
            if json {
                return Some(i);
            }
            // `search(query="hotels", limit=3)`: a call with keyword arguments starts at its
            // name.
            if b[i] == b'(' {
                if let Some(name) = keyword_call_name(b, i, to) {
                    return Some(name);
                }
            }
            i += 1;
        }
        None
    }

    /// The first line in `from..to` that starts (after blanks) with a quoted key and its `:`,
    /// or whose prose goes on into members (`Here it is: "id": 7, "name": "x"}`).
    fn find_key_line(&self, from: usize, to: usize) -> Option<usize> {
        let b = self.b;
        let to = to.min(b.len());
        let mut line = from;
        loop {
            let mut i = line;
            while i < to && matches!(b[i], b' ' | b'\t' | b'\r') {
                i += 1;
            }
            if i < to && self.mask_end(i).is_none() && self.key_at(i) {
                return Some(i);
            }
            let next = memchr::memchr(b'\n', b.get(line..to)?).map(|n| line + n);
            if let Some(k) = self.members_in_line(i, next.unwrap_or(to)) {
                return Some(k);
            }
            line = next? + 1;
        }
    }

    /// In the prose line `from..to`, a quoted key after a space (among the first few quotes)
    /// followed by more members (`Here it is: "id": 7, "name": "x"}`).
    fn members_in_line(&self, from: usize, to: usize) -> Option<usize> {
        let b = self.b;
        let mut i = from;
        for _ in 0..MEMBERS_QUOTES {
            let k = i + memchr::memchr(b'"', b.get(i..to)?)?;
            if k > from
                && after_prose_break(b, k)
                && self.key_at(k)
                && self.mask_end(k).is_none()
                && members_follow(b, k).0
            {
                return Some(k);
            }
            i = k + 1;
        }
        None
    }

    /// Where the reply starts, skipping whitespace and `<think>` blocks.
    pub(crate) fn first_content(&self) -> Option<usize> {
        let b = self.b;
        let mut i = 0;
        while i < b.len() {
            if let Some(end) = self.mask_end(i) {
                i = end;
                continue;
            }
            if !b[i].is_ascii_whitespace() {
                return Some(i);
            }
            i += 1;
        }
        None
    }

    /// The `{` or `[` at `i` looks like the start of JSON.
    pub(crate) fn opens_with_json(&self, i: usize) -> bool {
        matches!(self.b[i], b'{' | b'[') && looks_like_json(self.b, i, self.b.len())
    }

    /// A quoted key and its `:` start at `i` (`"name": …`): a reply that begins so is an object
    /// whose `{` is missing (the brace was prefilled, or lost).
    pub(crate) fn key_at(&self, i: usize) -> bool {
        key_line_at(self.b, i).0
    }

    /// A scalar (or a JSONP-style call) starts at `i`.
    pub(crate) fn is_scalar_at(&self, i: usize) -> bool {
        self.scalar_kind_at(i).is_some()
    }

    fn scalar_kind_at(&self, i: usize) -> Option<usize> {
        let b = self.b;
        let c = b[i];
        // `` `{"status": "ok"}` ``: JSON in inline code, not a string in backticks.
        if c == b'`' && (inline_code_json(b, i) || self.two_backtick_fence_at(i)) {
            return None;
        }
        if crate::spelling::starts_quote(b, i) || c.is_ascii_digit() || c == b'-' || c == b'.' {
            return Some(i);
        }
        if c.is_ascii_alphabetic() || c == b'_' || c == b'$' {
            let mut j = i;
            while j < b.len() && (b[j].is_ascii_alphanumeric() || b[j] == b'_' || b[j] == b'$') {
                j += 1;
            }
            let word = &self.text[i..j];
            let is_literal = crate::spelling::is_literal(word);
            let mut k = j;
            while k < b.len() && b[k] == b' ' {
                k += 1;
            }
            if is_literal || b.get(k) == Some(&b'(') {
                return Some(i);
            }
        }
        None
    }

    /// After a value that ended at `end`, only whitespace, comments, `;` or `,` remain before
    /// the region end (so a reply that starts with a scalar *is* that scalar).
    pub(crate) fn only_trailing_noise(&self, mut i: usize, region_end: usize) -> bool {
        let b = self.b;
        while i < region_end {
            if let Some(end) = self.mask_end(i) {
                i = end;
                continue;
            }
            match b[i] {
                b' ' | b'\t' | b'\n' | b'\r' | b';' | b',' => i += 1,
                b'/' if b.get(i + 1) == Some(&b'/') => {
                    i = self.text[i..].find('\n').map_or(region_end, |k| i + k);
                }
                b'/' if b.get(i + 1) == Some(&b'*') => {
                    i = self.text[i + 2..]
                        .find("*/")
                        .map_or(region_end, |k| i + 2 + k + 2);
                }
                _ => return false,
            }
        }
        true
    }

    /// Some `{`/`[` that looks like JSON sits inside a `<think>` block.
    pub(crate) fn json_only_in_masks(&self) -> bool {
        self.masks.iter().any(|m| {
            (m.start..m.end)
                .any(|i| matches!(self.b[i], b'{' | b'[') && looks_like_json(self.b, i, m.end))
        })
    }
}

/// Does the `{` or `[` at `p` look like the start of JSON (rather than prose like `[note]`,
/// `{name}` or a citation `[1]`)? Looks at most a few dozen bytes ahead.
pub(crate) fn looks_like_json(b: &[u8], p: usize, end: usize) -> bool {
    let mut p = p;
    // `{{` / `[[`: judge by the innermost of a few openers.
    for depth in 0..4 {
        let open = b[p];
        let Some(q) = skip_ws(b, p + 1, end) else {
            return false;
        };
        let d = b[q];
        if crate::spelling::starts_quote(b, q) {
            return true;
        }
        match (open, d) {
            (b'{', b'}') | (b'[', b']') => return true,
            (b'{', b'{') | (b'[', b'[') | (b'[', b'{') => {
                p = q;
                continue;
            }
            (b'[', b'(') => return looks_like_tuple(b, q, end),
            // A comment too long to look past (`[ /* a paragraph */ 1, 3]`): prose does not
            // open a bracket to comment in it.
            (b'{' | b'[', b'/') => return matches!(b.get(q + 1), Some(b'/' | b'*')),
            (b'{' | b'[', b'#') => return matches!(b.get(q + 1), Some(b' ' | b'\t')),
            // Inside a list, a Python set of numbers (`[{0, 5}, …]`).
            (b'{', b'-' | b'0'..=b'9') if depth > 0 => return set_of_numbers(b, q, end),
            (b'{', _) => return key_then_colon(b, q, end),
            // `[1]` in prose is a citation; `[[0], [1]]` is not, nor a list laid out over lines
            // (`[⏎    3933]`).
            (b'[', b'-' | b'0'..=b'9') => {
                let laid_out = b[p + 1..q].contains(&b'\n');
                return depth > 0
                    || laid_out
                    || citation(b, q, end).is_none_or(|close| closed_early(b, close, end));
            }
            // A literal the parser reads (`true`, `None`, `undefined`, `NaN`), then a delimiter.
            (b'[', c) if c.is_ascii_alphabetic() => {
                let word_end = (q..end.min(q + 16))
                    .find(|&k| !b[k].is_ascii_alphanumeric())
                    .unwrap_or(end.min(q + 16));
                let literal =
                    std::str::from_utf8(&b[q..word_end]).is_ok_and(crate::spelling::is_literal)
                        && (b.get(word_end).is_none_or(|c| {
                            matches!(c, b',' | b']' | b' ' | b'\n' | b'\r' | b'\t')
                        }) || b[word_end..end].starts_with(&WIDE_COMMA));
                return literal || bare_first_item(b, q, end);
            }
            (b'[', _) => return bare_first_item(b, q, end),
            _ => return false,
        }
    }
    true
}

/// Does the `(` at `p` open a tuple (a value, then a comma: `("a", "b")`, `(1, 2)`), rather
/// than prose in parentheses?
pub(crate) fn looks_like_tuple(b: &[u8], p: usize, end: usize) -> bool {
    let Some(q) = skip_ws(b, p + 1, end) else {
        return false;
    };
    // `(("a", 1), ("b", 2))`, `([1, 2], …)`: judged by the first item, a few levels deep.
    // Descending, not recursing: a recursion at every level as well as the descent would try
    // `((((((…` exponentially often.
    let mut q = q;
    for _ in 0..4 {
        match b[q] {
            b'{' | b'[' if looks_like_json(b, q, end) => return true,
            b'(' => {
                let Some(next) = skip_ws(b, q + 1, end) else {
                    return false;
                };
                q = next;
            }
            _ => break,
        }
    }
    let comma_after = |e: usize| skip_ws(b, e, end).is_some_and(|c| b[c] == b',');
    let value_end = if let Some((class, len)) = crate::spelling::quote_at(b, q) {
        // The first of its line's closing quotes followed by a comma (the string may hold
        // quotes of its own: `("print("hi")", 1)`).
        let limit = (q + 256).min(end);
        let mut e = q + len;
        while e < limit && b[e] != b'\n' {
            if let Some(l) = class.closer_at(b, e) {
                if comma_after(e + l) {
                    return true;
                }
            }
            e += 1;
        }
        return false;
    } else if let Some(lit) = crate::spelling::literal_prefix_of(&b[q..end]) {
        q + lit.word.len()
    } else if b[q].is_ascii_digit() || b[q] == b'-' {
        let mut e = q + 1;
        while e < end && (b[e].is_ascii_digit() || b[e] == b'.') {
            e += 1;
        }
        e
    } else {
        return false;
    };
    comma_after(value_end)
}

/// The `(` at `p` opens a call with keyword arguments (`lookup(order_id="A-17")`): where the
/// function's name starts (an identifier right before the `(`, not a word of prose's end).
fn keyword_call_name(b: &[u8], p: usize, end: usize) -> Option<usize> {
    let mut name = p;
    while name > 0 && (b[name - 1].is_ascii_alphanumeric() || matches!(b[name - 1], b'_' | b'.')) {
        name -= 1;
    }
    let named = name < p && b[name].is_ascii_alphabetic();
    let arg = skip_ws(b, p + 1, end)?;
    let mut k = arg;
    while k < end && (b[k].is_ascii_alphanumeric() || b[k] == b'_') {
        k += 1;
    }
    let eq = skip_ws(b, k, end)?;
    let keyword = k > arg
        && b[arg].is_ascii_alphabetic()
        && b[eq] == b'='
        && !matches!(b.get(eq + 1), Some(b'=' | b'>'));
    (named && keyword).then_some(name)
}

/// The backtick at `i` opens inline code that holds JSON: one backtick (not a fence), then a
/// bracket that looks like JSON.
pub(crate) fn inline_code_json(b: &[u8], i: usize) -> bool {
    let single =
        b.get(i) == Some(&b'`') && b.get(i + 1) != Some(&b'`') && (i == 0 || b[i - 1] != b'`');
    single
        && match b.get(i + 1) {
            Some(b'{' | b'[') => looks_like_json(b, i + 1, b.len()),
            Some(b'(') => looks_like_tuple(b, i + 1, b.len()),
            _ => false,
        }
}

/// Where inline code that opens with a backtick just before `start` ends: the last backtick on
/// its line (its strings may hold backticks of their own). `None` when `start` is not in inline
/// code.
pub(crate) fn inline_code_end(b: &[u8], start: usize) -> Option<usize> {
    let opener = start.checked_sub(1)?;
    if !inline_code_json(b, opener) {
        return None;
    }
    let line_end = memchr::memchr(b'\n', &b[start..]).map_or(b.len(), |k| start + k);
    let close = memchr::memrchr(b'`', &b[start..line_end]).map(|k| start + k)?;
    // A fence on the line is not an inline-code closer.
    (close > start && b.get(close + 1) != Some(&b'`') && b[close - 1] != b'`').then_some(close)
}

/// Skips whitespace and short comments.
fn skip_ws(b: &[u8], mut i: usize, end: usize) -> Option<usize> {
    loop {
        while i < end && b[i].is_ascii_whitespace() {
            i += 1;
        }
        let line_comment = i + 1 < end
            && ((b[i] == b'/' && b[i + 1] == b'/')
                || (b[i] == b'#' && matches!(b[i + 1], b' ' | b'\t')));
        if line_comment {
            // Bounded, like every lookahead here: `{//{//{//…` must stay linear. A comment
            // longer than that is where the look stops (callers judge the comment itself).
            let limit = (i + 256).min(end);
            match b[i..limit].iter().position(|&c| c == b'\n') {
                Some(k) => i += k,
                None => return Some(i),
            }
        } else if i + 1 < end && b[i] == b'/' && b[i + 1] == b'*' {
            let limit = (i + 256).min(end);
            match memchr::memmem::find(&b[i + 2..limit], b"*/") {
                Some(k) => i = i + 2 + k + 2,
                None => return Some(i),
            }
        } else {
            return (i < end).then_some(i);
        }
    }
}

/// Numbers and commas up to a `}` (`0, 5}`, `6,⏎ 4⏎ }`): a Python set, within a short look.
fn set_of_numbers(b: &[u8], q: usize, end: usize) -> bool {
    let limit = (q + 64).min(end);
    let mut comma = false;
    for &c in &b[q..limit] {
        match c {
            b'}' => return comma,
            b',' => comma = true,
            b'0'..=b'9' | b'-' | b'.' | b'e' | b'E' | b'+' | b' ' | b'\t' | b'\n' | b'\r' => {}
            _ => return false,
        }
    }
    false
}

/// An unquoted key followed by `:` or `：` (`{name: "x"}`, `{注意: なし}`, `{items：[`), or one
/// that lost only its opening quote (`{name": "x"}`), not a placeholder (`{name}`).
fn key_then_colon(b: &[u8], q: usize, end: usize) -> bool {
    let limit = (q + 64).min(end);
    let mut i = q;
    while i < limit
        && (b[i].is_ascii_alphanumeric()
            || matches!(b[i], b'_' | b'-' | b'$' | b' ')
            || b[i] >= 0x80)
    {
        // A full-width colon is not part of a name in another script: it ends the key.
        if i > q && b[i..end].starts_with(&WIDE_COLON) {
            return true;
        }
        i += 1;
    }
    if i > q && i + 1 < end && b[i] == b'"' {
        i += 1;
        while i < end && b[i] == b' ' {
            i += 1;
        }
    }
    // `{name = "x"}`, `{name => "x"}` (but not `{a == b}`).
    i > q && i < end && (b[i] == b':' || (b[i] == b'=' && b.get(i + 1) != Some(&b'=')))
}

/// A quoted value at `q` followed, on its line, by a `,` (`"x",` after a key that lost its `:`).
fn value_then_comma(b: &[u8], q: usize) -> bool {
    let Some((class, len)) = crate::spelling::quote_at(b, q) else {
        // A number or a literal (`"id" 49872,`, `"ok" true,`).
        let end = (q..b.len().min(q + 32))
            .find(|&k| !(b[k].is_ascii_alphanumeric() || matches!(b[k], b'.' | b'-' | b'+')))
            .unwrap_or(b.len().min(q + 32));
        let Ok(word) = std::str::from_utf8(&b[q..end]) else {
            return false;
        };
        let number = word
            .trim_start_matches('-')
            .starts_with(|c: char| c.is_ascii_digit())
            && word.parse::<f64>().is_ok();
        return (number || crate::spelling::is_literal(word))
            && skip_ws(b, end, b.len().min(end + 16)).is_some_and(|k| b[k] == b',');
    };
    let limit = (q + 256).min(b.len());
    let mut e = q + len;
    while e < limit && b[e] != b'\n' {
        if let Some(close) = class.closer_at(b, e) {
            return skip_ws(b, e + close, limit).is_some_and(|k| b[k] == b',');
        }
        e += 1;
    }
    false
}

/// `[in progress, {"id": 1}]`: a bare word, a comma, then a value only JSON writes (a quote, a
/// bracket or a number): a list whose first item lost its quotes. (`[note, see below]` is prose.)
fn bare_first_item(b: &[u8], q: usize, end: usize) -> bool {
    let limit = (q + 64).min(end);
    let mut i = q;
    while i < limit
        && (b[i].is_ascii_alphanumeric() || matches!(b[i], b'_' | b'-' | b' ') || b[i] >= 0x80)
    {
        i += 1;
    }
    // (`[browser", …`: the item lost only its opening quote.)
    if i > q && i < end && b[i] == b'"' {
        i += 1;
    }
    if i == q || i >= end || b[i] != b',' {
        return false;
    }
    skip_ws(b, i + 1, end).is_some_and(|v| {
        matches!(b[v], b'{' | b'[' | b'-' | b'0'..=b'9') || crate::spelling::starts_quote(b, v)
    })
}

/// `[1]`, `[12]`: a citation marker in prose. Returns where its `]` is.
fn citation(b: &[u8], q: usize, end: usize) -> Option<usize> {
    let mut i = q;
    while i < end && b[i].is_ascii_digit() {
        i += 1;
    }
    (i > q && i < end && b[i] == b']').then_some(i)
}

/// How far past a `[1]` to look for the closer that shows it was a list closed too early.
const CLOSED_EARLY_REACH: usize = 1024;

/// The `]` at `close` closed a list too early, not a citation: a comma and a JSON scalar follow
/// (`[4889], null, "x"]`, not `[1], the answer`), and before a blank line or a fence comes a
/// closer that nothing after it opened. Looks at most [`CLOSED_EARLY_REACH`] bytes ahead.
fn closed_early(b: &[u8], close: usize, end: usize) -> bool {
    let end = end.min(b.len()).min(close + CLOSED_EARLY_REACH);
    let Some(comma) = skip_ws(b, close + 1, end).filter(|&i| b[i] == b',') else {
        return false;
    };
    let Some(v) = skip_ws(b, comma + 1, end) else {
        return false;
    };
    let word_end = (v..end)
        .find(|&k| !b[k].is_ascii_alphanumeric())
        .unwrap_or(end);
    let scalar = matches!(b[v], b'-' | b'0'..=b'9')
        || crate::spelling::starts_quote(b, v)
        || std::str::from_utf8(&b[v..word_end]).is_ok_and(crate::spelling::is_literal);
    if !scalar {
        return false;
    }
    let (mut depth, mut in_string, mut i) = (0i32, false, v);
    while i < end {
        match b[i] {
            b'\\' if in_string => i += 1,
            b'"' => in_string = !in_string,
            b'[' | b'{' if !in_string => depth += 1,
            b']' | b'}' if !in_string => {
                depth -= 1;
                if depth < 0 {
                    return true;
                }
            }
            b'\n' if b.get(i + 1) == Some(&b'\n') || b[i + 1..end].starts_with(b"```") => {
                return false
            }
            _ => {}
        }
        i += 1;
    }
    false
}

/// Where `needle` first occurs in `b` at or after `from` (memchr's vectorised search: a fence's
/// content is searched for its closing marker byte by byte otherwise, comparing at each).
fn find(b: &[u8], from: usize, needle: &[u8]) -> Option<usize> {
    memchr::memmem::find(b.get(from..)?, needle).map(|i| from + i)
}

/// Whether a quoted key and its colon (or `=`, `=>`, a full-width colon, or a value and a comma
/// where the colon was lost) start at `i`: a line that begins an object whose `{` is missing.
/// The second answer says whether more text after `b` could change the first (a stream waits).
pub(crate) fn key_line_at(b: &[u8], i: usize) -> (bool, bool) {
    let Some((class, len)) = crate::spelling::quote_at(b, i) else {
        return (false, b.len() < i + 3);
    };
    let limit = (i + 256).min(b.len());
    let mut e = i + len;
    while e < limit && b[e] != b'\n' {
        if let Some(close) = class.closer_at(b, e) {
            let mut k = e + close;
            while k < b.len() && matches!(b[k], b' ' | b'\t') {
                k += 1;
            }
            // `"name" = "x"` and `"name" => "x"` are keys too; `"a" == "b"` is not. So is
            // a key that lost its colon before a value and a comma (`"name" "x",`,
            // `"id" 49872,`).
            return match b.get(k) {
                None => (false, true),
                Some(b':') => (true, false),
                // A CJK model's full-width colon.
                Some(0xEF) => (
                    b[k..].starts_with(&WIDE_COLON),
                    b.len() < k + WIDE_COLON.len(),
                ),
                Some(b'=') => (b.get(k + 1) != Some(&b'='), b.len() == k + 1),
                Some(b'{' | b'[') => (k > e + close, false),
                Some(_) if k > e + close => (value_then_comma(b, k), false),
                _ => (false, false),
            };
        }
        e += 1;
    }
    (false, e == b.len() && e < i + 256)
}

/// Whether what comes before `k` ends a stretch of prose: a space, or a colon or full stop a
/// sentence ends with (`:`, and CJK writing's `：`, `。`, `、`, which need no space after).
pub(crate) fn after_prose_break(b: &[u8], k: usize) -> bool {
    let Some(&last) = k.checked_sub(1).and_then(|i| b.get(i)) else {
        return false;
    };
    if last.is_ascii_whitespace() || last == b':' {
        return true;
    }
    // A CJK punctuation mark (U+3000–U+303F) or a full-width one (U+FF01–U+FF20): three bytes.
    let Some(tail) = k.checked_sub(3).and_then(|i| b.get(i..k)) else {
        return false;
    };
    matches!(tail, [0xE3, 0x80, 0x80..=0xBF] | [0xEF, 0xBC, 0x81..=0xA0])
}

/// Whether the value at `start..end` is written inside a line of prose (text before it on
/// its line) with prose going on after it there (a letter or digit before the line ends): a
/// draft a reasoning reply weighs in a sentence (`at first I considered {"a": 1} but …`), not
/// an answer. `None` while the line after it has not ended and holds no prose yet.
pub(crate) fn inline_in_sentence(b: &[u8], start: usize, end: usize) -> Option<bool> {
    let start = start.min(b.len());
    let line = b[..start]
        .iter()
        .rposition(|&c| c == b'\n')
        .map_or(0, |i| i + 1);
    let end = end.clamp(start, b.len());
    if b[line..start].iter().all(u8::is_ascii_whitespace) || b[start..end].contains(&b'\n') {
        return Some(false);
    }
    let rest = &b[end..];
    let after = memchr::memchr(b'\n', rest).map_or(rest, |n| &rest[..n]);
    if after
        .iter()
        .any(|&c| c.is_ascii_alphanumeric() || c >= 0x80)
    {
        return Some(true);
    }
    (after.len() < rest.len()).then_some(false)
}

/// How many of a prose line's quotes may open its members (`Here it is: "id": 7, …`): a key
/// further into the line is prose quoting something.
pub(crate) const MEMBERS_QUOTES: usize = 4;

/// After the key at `k`: a value that opens JSON, or a comma and another key soon — a prose
/// line that goes on into an object's members. The second answer says whether more text after
/// `b` could change the first (a stream waits).
pub(crate) fn members_follow(b: &[u8], k: usize) -> (bool, bool) {
    const AHEAD: usize = 256;
    let limit = (k + AHEAD).min(b.len());
    // (`looks_like_json` looks a few dozen bytes past the value's start.)
    let undecided = b.len() < k + AHEAD + 64;
    let no = (false, undecided);
    // `:`, `=` or `=>`, or a CJK model's `：`.
    let wide = |j: usize| b[j..limit].starts_with(&WIDE_COLON);
    let Some(sep) = (k..limit).find(|&j| matches!(b[j], b':' | b'=') || wide(j)) else {
        return no;
    };
    let after = if wide(sep) {
        sep + WIDE_COLON.len()
    } else {
        sep + 1 + usize::from(b.get(sep + 1) == Some(&b'>'))
    };
    let Some(v) = skip_ws(b, after, b.len()) else {
        return no;
    };
    if matches!(b[v], b'{' | b'[') {
        return match looks_like_json(b, v, b.len()) {
            true => (true, false),
            false => no,
        };
    }
    // The next member may be faulty too: any quoted string, or a bare key and its colon. Its
    // comma is on the value's line: prose that quotes a key (`The field "name": what users
    // see, and …`) has no member after it there, and the JSON below it does not count.
    // (A string value may hold raw line breaks: the line that counts is where it ends.)
    let v = match b[v] {
        b'"' => string_close(b, v, limit).unwrap_or(v),
        _ => v,
    };
    let line_end = memchr::memchr(b'\n', &b[v.min(limit)..limit]).map(|n| v + n);
    let no = (false, undecided && line_end.is_none());
    let commas_end = line_end.unwrap_or(limit);
    let mut j = v;
    for _ in 0..8 {
        // `,` or `，` (full width: its lead byte, then the rest).
        let Some(c) = memchr::memchr2(b',', 0xEF, &b[j.min(commas_end)..commas_end]) else {
            return no;
        };
        let at = j.min(commas_end) + c;
        let comma = if b[at] == b',' {
            1
        } else if b[at..limit].starts_with(&WIDE_COMMA) {
            WIDE_COMMA.len()
        } else {
            0
        };
        j = at + comma.max(1);
        if comma == 0 {
            continue;
        }
        match skip_ws(b, j, limit) {
            Some(q) if crate::spelling::starts_quote(b, q) || key_then_colon(b, q, limit) => {
                return (true, false);
            }
            // The text ends after the comma: the next member may be on its way.
            None if limit == b.len() => return (false, true),
            _ => {}
        }
    }
    no
}

/// Where the double-quoted string opening at `open` closes (its closing quote), before `limit`.
fn string_close(b: &[u8], open: usize, limit: usize) -> Option<usize> {
    let mut i = open + 1;
    while i < limit {
        match b[i] {
            b'\\' => i += 2,
            b'"' => return Some(i),
            _ => i += 1,
        }
    }
    None
}

/// A fence labelled as JSON (lowercase label): its content is the answer before anything else.
pub(crate) fn is_json_label(label: &str) -> bool {
    matches!(label, "json" | "jsonc" | "json5" | "jsonl" | "ndjson")
}

/// The label of a fence whose marker run ends at `at` (letters, digits, `_+.-`), lowercased.
pub(crate) fn fence_label(b: &[u8], at: usize) -> String {
    let end = b[at..]
        .iter()
        .position(|&c| !(c.is_ascii_alphanumeric() || matches!(c, b'_' | b'+' | b'.' | b'-')))
        .map_or(b.len(), |k| at + k);
    String::from_utf8_lossy(&b[at..end]).to_ascii_lowercase()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn candidate(text: &str) -> Option<&str> {
        let scan = Scan::new(text);
        scan.find_candidate(0, text.len()).map(|i| &text[i..])
    }

    #[test]
    fn a_key_may_open_members_after_a_space_or_a_sentences_end() {
        let at = |text: &str| after_prose_break(text.as_bytes(), text.find('"').unwrap());
        assert!(at("Here it is: \"id\""));
        assert!(at("Result:\"id\""));
        assert!(at("如下：\"主队\""));
        assert!(at("まとめました。\"倉庫\""));
        assert!(!at("word\"id\""));
        assert!(!at("\"id\""));
    }

    #[test]
    fn a_value_inside_a_sentence_is_told_from_one_that_ends_its_line() {
        let judge = |text: &str| {
            let (start, end) = (text.find('{').unwrap(), text.rfind('}').unwrap() + 1);
            inline_in_sentence(text.as_bytes(), start, end)
        };
        assert_eq!(judge("I considered {\"a\": 1} but no."), Some(true));
        assert_eq!(judge("Here it is: {\"a\": 1}.\nThanks"), Some(false));
        assert_eq!(judge("{\"a\": 1} and more"), Some(false));
        assert_eq!(judge("Here: {\"a\":\n 1} and more"), Some(false));
        // The line not over yet, nothing after the value: not decided.
        assert_eq!(judge("Here it is: {\"a\": 1} "), None);
        // Positions past the text are clamped, not a panic.
        assert_eq!(inline_in_sentence(b"ab", 5, 1), None);
    }

    #[test]
    fn prose_brackets_are_not_json() {
        assert_eq!(candidate("see [note] and {name}"), None);
        assert_eq!(candidate("as shown in [1], the answer"), None);
        assert_eq!(candidate("see [1], [2] and [3]."), None);
        assert_eq!(
            candidate("as [2], \"quoted\" says"),
            None,
            "no closer after"
        );
        // A list its first `]` closed too early is JSON, not a citation.
        assert_eq!(
            candidate("Resposta:\n[4889], null, \"x\"]"),
            Some("[4889], null, \"x\"]")
        );
        assert_eq!(candidate("Here:\n[1], 2, 3]"), Some("[1], 2, 3]"));
        assert_eq!(
            candidate("fill {name} [note]: {\"a\": 1}"),
            Some("{\"a\": 1}")
        );
        assert_eq!(candidate("list: [1, 2]"), Some("[1, 2]"));
        assert_eq!(candidate("{注意: なし}"), Some("{注意: なし}"));
    }

    #[test]
    fn think_blocks_are_masked() {
        let text = "<think>draft {\"a\": 1}</think> final {\"a\": 2}";
        assert_eq!(candidate(text), Some("{\"a\": 2}"));
        let unclosed = "<think>draft {\"a\": 1}";
        assert_eq!(candidate(unclosed), None);
        assert!(Scan::new(unclosed).json_only_in_masks());
    }

    #[test]
    fn fences_pair_and_carry_labels() {
        let text = "a ```json\n{}\n``` b ~~~\n[]\n~~~";
        let blocks = Scan::new(text).blocks();
        assert_eq!(blocks.len(), 2);
        assert!(blocks[0].preferred);
        assert_eq!(blocks[1].source, Source::Fence { label: None });
        assert_eq!(
            &text[blocks[1].content_start..blocks[1].content_end],
            "\n[]\n"
        );
    }
}
