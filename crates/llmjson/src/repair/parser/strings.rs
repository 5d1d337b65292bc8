//! Strings: scanning to each quote, asking the grammar whether it closes the string, is text,
//! or shows that the string lost its closing quote earlier; escapes and control characters; and
//! a string the reply's end cut off.

use super::buffers::Run;
use super::{Fail, Kinds, Parser, Result};
use crate::repair::grammar::{Action, Mode, Reading, Readings};
use crate::repair::lex::Stop;
use crate::repair::{cost, RepairKind};
use crate::spelling::latex;
use crate::spelling::quotes::QuoteClass;
use crate::spelling::UnicodeEscape;
use crate::value::Value;
use crate::RepairLevel;
use std::borrow::Cow;

/// What a string scan produced.
pub(super) enum Str {
    Done(String),
    /// Cut off, and to be dropped (a key, or the `drop` policy).
    Dropped,
}

/// What one string scan has seen, for its log entries.
#[derive(Debug, Clone, Copy)]
struct StringScan {
    open_at: usize,
    open_len: usize,
    class: QuoteClass,
    is_key: bool,
    /// Raw control characters escaped, and where the first was.
    controls: u32,
    first_control: usize,
    /// Backslashes that started no valid escape, and where the first was.
    bad_escapes: u32,
    first_bad_escape: usize,
    /// Quotes kept as text.
    text_quotes: u32,
    /// Where a typographic quote closed an ASCII-opened string.
    mixed_close: Option<usize>,
    /// Escapes read as LaTeX commands (`repair::latex`), and where the first was.
    latex: u32,
    first_latex: usize,
    /// Whether the string shows maths, once asked (`latex::shows_maths`).
    maths: Option<bool>,
    /// Markdown escapes read as their character, and where the first was.
    markdown: u32,
    first_markdown: usize,
    /// Whether the string holds a backslash that is neither a JSON escape nor a markdown one
    /// (a regular expression's `\d`, a path's `\Users`), once asked.
    literal_backslashes: Option<bool>,
}

impl Run {
    fn new(raw: usize, len: usize, scan: &StringScan) -> Self {
        Run {
            raw,
            len,
            controls: scan.controls,
            bad_escapes: scan.bad_escapes,
            markdown: scan.markdown,
            text_quotes: scan.text_quotes,
        }
    }
}

/// The last quote kept as text, to reconsider when the reply ends inside the string.
#[derive(Debug, Clone, Copy)]
struct TextQuote {
    at: usize,
    len: usize,
    buf_len: usize,
    odd_before: bool,
    quotes_before: u32,
}

impl Parser<'_> {
    /// An opening quote was read as a string (a key in mode `Key`, else a value).
    pub(super) fn string_token(&mut self, at: usize, s: Reading) -> Result<Mode> {
        let Mode::Str { class, key, .. } = s.mode else {
            return Err(Fail::Internal("a string without its mode"));
        };
        let (out, after) = self.scan_string(at, class, key)?;
        if key {
            match out {
                Str::Done(k) => {
                    let key_end = self.state.pos;
                    if let Some(frame) = self.state.frames.last_mut() {
                        frame.key = Some(k);
                        frame.key_at = at;
                        frame.key_end = key_end;
                    }
                }
                Str::Dropped => {
                    let end = self.end();
                    self.repair(RepairKind::DroppedTruncatedMember, at, end, "a key cut off")?;
                }
            }
            return Ok(after);
        }
        match out {
            Str::Done(mut text) => {
                if self.cfg.level == RepairLevel::Full {
                    self.concatenation(&mut text)?;
                }
                self.emit(Value::String(text))?;
            }
            Str::Dropped => self.drop_truncated_value(at)?,
        }
        Ok(after)
    }

    /// `"a" + "b"`: joins strings concatenated with `+` (the grammar's cheapest reading of a
    /// `+` between strings).
    fn concatenation(&mut self, s: &mut String) -> Result<()> {
        loop {
            let (plus, _) = self.lex().skip_trivia(self.state.pos);
            // A `+` and another string may still come.
            self.wait_if_cut(plus)?;
            if self.lex().at_end(plus) || self.b[plus] != b'+' {
                return Ok(());
            }
            let (q, _) = self.lex().skip_trivia(plus + 1);
            let Some((class, _)) = QuoteClass::opening_at(self.b, q) else {
                return Ok(());
            };
            if self.lex().at_end(q) {
                return Ok(());
            }
            // Comments around the `+` are logged like any other.
            self.skip_trivia()?;
            let start = self.state.pos;
            self.state.pos = plus + 1;
            self.skip_trivia()?;
            if let (Str::Done(more), _) = self.scan_string(q, class, false)? {
                s.push_str(&more);
            }
            self.repair(
                RepairKind::ConcatenatedStrings,
                start,
                self.state.pos,
                "joined with the previous string",
            )?;
        }
    }

    /// Scans the string whose opening quote is at `at`. Returns its text (or that it was cut
    /// off and is dropped) and the mode after it.
    fn scan_string(&mut self, at: usize, class: QuoteClass, key: bool) -> Result<(Str, Mode)> {
        // The runs buffer is the parser's, reused from string to string.
        let mut runs = std::mem::take(&mut self.state.spare_runs);
        runs.clear();
        let result = self.scan_string_with(at, class, key, &mut runs);
        self.state.spare_runs = runs;
        result
    }

    fn scan_string_with(
        &mut self,
        at: usize,
        class: QuoteClass,
        key: bool,
        runs: &mut Vec<Run>,
    ) -> Result<(Str, Mode)> {
        let open_len = QuoteClass::opening_at(self.b, at)
            .map(|(_, len)| len)
            .ok_or(Fail::Internal("string without quote"))?;
        let content_start = at + open_len;
        let end = self.end();
        let mut i = content_start;
        let mut seg = i;
        let (s1, _, _) = class.stop_bytes();
        let mut buf = String::with_capacity(
            memchr::memchr(s1, &self.b[content_start.min(end)..end])
                .unwrap_or(end - content_start.min(end)),
        );
        let mut scan = StringScan {
            open_at: at,
            open_len,
            class,
            is_key: key,
            controls: 0,
            first_control: 0,
            bad_escapes: 0,
            first_bad_escape: 0,
            text_quotes: 0,
            mixed_close: None,
            latex: 0,
            first_latex: 0,
            maths: None,
            markdown: 0,
            first_markdown: 0,
            literal_backslashes: None,
        };
        let mut odd = false;
        let mut last_text_quote: Option<TextQuote> = None;
        // Fence markers at line starts inside the string: (count, offset of the last, buf len).
        let mut fences = (0u32, 0usize, 0usize);
        // Where each run of text copied as it is starts, and the buffer's length there: a split
        // at any position in such a run cuts the buffer at the matching length.
        runs.push(Run::new(content_start, 0, &scan));
        let text = self.text;
        loop {
            let (stop_at, stop) = self.lex().string_stop(i, class);
            match stop {
                // The string may close in text still to come (a stream).
                Stop::End if self.more => return Err(Fail::NeedMore),
                Stop::End => {
                    buf.push_str(&text[seg..stop_at]);
                    self.state.pos = stop_at;
                    break;
                }
                Stop::Escape => {
                    buf.push_str(&text[seg..stop_at]);
                    match self.escape(stop_at, &mut buf, &mut scan)? {
                        Some((next, bad)) => {
                            if bad {
                                if scan.bad_escapes == 0 {
                                    scan.first_bad_escape = stop_at;
                                }
                                scan.bad_escapes += 1;
                            }
                            i = next;
                        }
                        None if self.more => return Err(Fail::NeedMore),
                        // A partial escape at the end of the reply: dropped.
                        None => i = end,
                    }
                    seg = i;
                    runs.push(Run::new(seg, buf.len(), &scan));
                }
                Stop::Control(c) => {
                    buf.push_str(&text[seg..stop_at]);
                    if c == b'\n' && self.cfg.level == RepairLevel::Full {
                        let mode = Mode::Str {
                            class,
                            key,
                            open: content_start,
                            odd,
                        };
                        if let Some(s) = self.line_break_choice(mode, stop_at)? {
                            if s.action == Action::SplitString {
                                return self.split_string(buf, runs, scan, s);
                            }
                        }
                    }
                    if scan.controls == 0 {
                        scan.first_control = stop_at;
                    }
                    scan.controls += 1;
                    if !self.allowed(RepairKind::ControlCharacter) {
                        return self.fail(stop_at, RepairKind::ControlCharacter.defect());
                    }
                    if !matches!(c, b'\t' | b'\n' | b'\r' | 0x08 | 0x0C) {
                        // NUL, ESC and the like are not something a model means to write: the
                        // reply is corrupt, and guessing would hide it.
                        return self.fail(
                            stop_at,
                            format!("raw control character U+{c:04X} inside a string (the reply looks corrupt)"),
                        );
                    }
                    buf.push(c as char);
                    i = stop_at + 1;
                    seg = i;
                    runs.push(Run::new(seg, buf.len(), &scan));
                    if c == b'\n' {
                        if let Some(f) = self.lex().fence {
                            let mut k = i;
                            while k < end && matches!(self.b[k], b' ' | b'\t') {
                                k += 1;
                            }
                            if self.b[k.min(end)..end].starts_with(&[f.byte; 3]) {
                                fences = (fences.0 + 1, k, buf.len());
                            }
                        }
                    }
                }
                Stop::Quote { len, own } => {
                    buf.push_str(&text[seg..stop_at]);
                    let mode = Mode::Str {
                        class,
                        key,
                        open: content_start,
                        odd,
                    };
                    let s = self.in_string_choice(mode, stop_at, stop)?;
                    match s.action {
                        Action::CloseString | Action::MixedClose => {
                            if s.action == Action::MixedClose {
                                scan.mixed_close = Some(stop_at);
                            }
                            self.state.pos = s.pos;
                            return Ok((self.finish_string(buf, scan)?, s.mode));
                        }
                        Action::TextQuote => {
                            if own {
                                last_text_quote = Some(TextQuote {
                                    at: stop_at,
                                    len,
                                    buf_len: buf.len(),
                                    odd_before: odd,
                                    quotes_before: scan.text_quotes,
                                });
                                scan.text_quotes += 1;
                                odd = !odd;
                            }
                            buf.push_str(&text[stop_at..stop_at + len]);
                            i = stop_at + len;
                            seg = i;
                            if own {
                                runs.push(Run::new(seg, buf.len(), &scan));
                            }
                        }
                        Action::SplitString => {
                            return self.split_string(buf, runs, scan, s);
                        }
                        _ => return Err(Fail::Internal("not a reading of a quote")),
                    }
                }
            }
        }

        // The region ended inside the string.
        if key {
            // A key cut off is dropped, unless it lost its closing quote before its value.
            let mode = Mode::Str {
                class,
                key,
                open: content_start,
                odd,
            };
            let end = self.end();
            let s = self.in_string_choice(mode, end, Stop::End)?;
            if s.action == Action::SplitString {
                return self.split_string(buf, runs, scan, s);
            }
            return Ok((Str::Dropped, Mode::Colon));
        }
        if self.cfg.level == RepairLevel::Full && class != QuoteClass::Triple {
            // A closing fence inside the string (an odd number of fence lines: code blocks in
            // the text come in pairs) is where the reply's JSON really ended.
            if fences.0 % 2 == 1 {
                let (_, fence_at, len) = fences;
                buf.truncate(len);
                self.ctx.lex.end = fence_at;
                self.state.pos = fence_at;
                if last_text_quote.is_some_and(|q| q.at >= fence_at) {
                    last_text_quote = None;
                }
            }
            // Now that the end is in view, reconsider the last quote kept as text.
            if let Some(q) = last_text_quote {
                if self.end() - q.at <= cost::WINDOW {
                    let mode = Mode::Str {
                        class,
                        key,
                        open: content_start,
                        odd: q.odd_before,
                    };
                    let stop = Stop::Quote {
                        len: q.len,
                        own: true,
                    };
                    let mut readings = Readings::new();
                    self.ctx.in_string(
                        &Kinds(&self.state.kinds, &self.state.opens),
                        mode,
                        q.at,
                        stop,
                        &mut readings,
                    );
                    let choice = self.state.searcher.choose_alone(
                        &self.ctx,
                        &self.state.kinds,
                        &self.state.opens,
                        mode,
                        q.at,
                        &readings,
                    );
                    let s = readings.get(choice);
                    if s.action == Action::CloseString {
                        buf.truncate(q.buf_len);
                        scan.text_quotes = q.quotes_before;
                        // Control characters and escapes after it are not in the string.
                        let run = runs.partition_point(|r| r.raw <= q.at);
                        if let Some(run) = runs.get(run.wrapping_sub(1)) {
                            scan.controls = run.controls;
                            scan.bad_escapes = run.bad_escapes;
                            scan.markdown = run.markdown;
                        }
                        self.state.pos = s.pos;
                        return Ok((self.finish_string(buf, scan)?, s.mode));
                    }
                }
            }
        }
        let end = self.end();
        let mode = Mode::Str {
            class,
            key,
            open: content_start,
            odd,
        };
        let s = self.in_string_choice(mode, end, Stop::End)?;
        if matches!(s.action, Action::SplitBeforeClosers | Action::SplitString) {
            return self.split_string(buf, runs, scan, s);
        }
        // Whitespace at the very end of the reply (a file's last newline) is not content.
        let kept = buf.trim_end().len();
        let trimmed_controls = buf[kept..].bytes().filter(|&c| c < 0x20).count() as u32;
        scan.controls = scan.controls.saturating_sub(trimmed_controls);
        buf.truncate(kept);
        strip_dangling_plus(&mut buf);
        if self.cfg.truncation.drops() {
            return Ok((Str::Dropped, s.mode));
        }
        self.repair(
            RepairKind::ClosedTruncatedString,
            at,
            self.state.pos,
            "added '\"'",
        )?;
        Ok((self.finish_string(buf, scan)?, s.mode))
    }

    /// The string lost its closing quote: it ended at `s.pos`, in a run of text copied as it
    /// is (`runs`).
    fn split_string(
        &mut self,
        mut buf: String,
        runs: &[Run],
        mut scan: StringScan,
        s: Reading,
    ) -> Result<(Str, Mode)> {
        let run = runs.partition_point(|r| r.raw <= s.pos);
        let run = runs
            .get(run.wrapping_sub(1))
            .copied()
            .ok_or(Fail::Internal("a split before the string"))?;
        buf.truncate(run.len + (s.pos - run.raw));
        // What the text after the split held is no longer this string's to log.
        scan.controls = run.controls;
        scan.bad_escapes = run.bad_escapes;
        scan.markdown = run.markdown;
        scan.text_quotes = run.text_quotes;
        if scan.mixed_close.is_some_and(|at| at >= s.pos) {
            scan.mixed_close = None;
        }
        let kept = buf.trim_end().len();
        buf.truncate(kept);
        if self.lex().at_end(self.state.pos) {
            // Cut off mid-concatenation (`"hello +]`): the `+` is not text.
            strip_dangling_plus(&mut buf);
        }
        self.state.pos = s.pos;
        self.repair(RepairKind::MissingEndQuote, s.pos, s.pos, "added '\"'")?;
        Ok((self.finish_string(buf, scan)?, s.mode))
    }

    /// The reading chosen at a raw line break inside a string, when the grammar has any (the
    /// layout says the next line is structure): `None` when the line break is plain text.
    fn line_break_choice(&mut self, mode: Mode, at: usize) -> Result<Option<Reading>> {
        self.wait_if_undecidable(at)?;
        let mut readings = std::mem::take(&mut self.readings);
        self.ctx.in_string(
            &Kinds(&self.state.kinds, &self.state.opens),
            mode,
            at,
            Stop::Control(b'\n'),
            &mut readings,
        );
        let chosen = if readings.len() == 0 {
            None
        } else {
            Some(self.choose(mode, at, &readings)?)
        };
        self.readings = readings;
        Ok(chosen)
    }

    /// The reading chosen at a stop inside a string.
    fn in_string_choice(&mut self, mode: Mode, at: usize, stop: Stop) -> Result<Reading> {
        self.wait_if_undecidable(at)?;
        if let Some(vouched) = self.state.searcher.planned(mode, at) {
            self.state.searcher.note_style(vouched.style);
            return Ok(vouched);
        }
        let mut readings = std::mem::take(&mut self.readings);
        self.ctx.in_string(
            &Kinds(&self.state.kinds, &self.state.opens),
            mode,
            at,
            stop,
            &mut readings,
        );
        let chosen = self.choose(mode, at, &readings);
        self.readings = readings;
        chosen
    }

    fn finish_string(&mut self, buf: String, scan: StringScan) -> Result<Str> {
        let nothing_to_log = crate::repair::grammar::quote_repair(scan.class).is_none()
            && scan.controls == 0
            && scan.bad_escapes == 0
            && scan.markdown == 0
            && scan.text_quotes == 0
            && scan.latex == 0
            && scan.mixed_close.is_none();
        if nothing_to_log {
            return Ok(Str::Done(buf));
        }
        if scan.is_key {
            let key = buf.clone();
            let previous = self
                .state
                .frames
                .last_mut()
                .and_then(|f| f.key.replace(key));
            let logged = self.log_string_repairs(&scan);
            if let Some(f) = self.state.frames.last_mut() {
                f.key = previous;
            }
            logged?;
        } else {
            self.log_string_repairs(&scan)?;
        }
        Ok(Str::Done(buf))
    }

    fn log_string_repairs(&mut self, scan: &StringScan) -> Result<()> {
        if let Some(kind) = crate::repair::grammar::quote_repair(scan.class) {
            let (at, len) = (scan.open_at, scan.open_len);
            self.repair(kind, at, at + len, "replaced by '\"'")?;
        }
        if let Some(at) = scan.mixed_close {
            self.repair(
                RepairKind::SmartQuotes,
                at,
                at + 3,
                "a typographic quote closed the string",
            )?;
        }
        if scan.controls > 0 {
            let n = scan.controls;
            let detail = format!("escaped {n} raw control {}", plural(n, "character"));
            let at = scan.first_control;
            self.repair(RepairKind::ControlCharacter, at, at + 1, detail)?;
        }
        if scan.bad_escapes > 0 {
            let n = scan.bad_escapes;
            let what = if n == 1 { "backslash" } else { "backslashes" };
            let detail = format!("{n} {what} that start no valid escape kept as text");
            let at = scan.first_bad_escape;
            // The backslash and the whole character after it (an emoji is four bytes).
            let end = at + 1 + self.lex().char_len_at(at + 1);
            self.repair(RepairKind::InvalidEscape, at, end, detail)?;
        }
        if scan.markdown > 0 {
            let n = scan.markdown;
            let detail = format!("{n} markdown {} read as the character", plural(n, "escape"));
            let at = scan.first_markdown;
            self.repair(RepairKind::MarkdownEscape, at, at + 2, detail)?;
        }
        if scan.latex > 0 {
            let n = scan.latex;
            let detail = format!(
                "{n} {} read as LaTeX, the backslash kept",
                plural(n, "command")
            );
            let at = scan.first_latex;
            self.repair(RepairKind::LatexEscape, at, at + 2, detail)?;
        }
        if scan.text_quotes > 0 {
            let n = scan.text_quotes;
            let detail = format!("{n} {} inside the string kept as text", plural(n, "quote"));
            self.repair(
                RepairKind::UnescapedQuote,
                scan.open_at,
                self.state.pos,
                detail,
            )?;
        }
        Ok(())
    }

    /// Decodes the escape at `i` into `buf`. Returns the offset after it and whether it was
    /// invalid (and repaired); `None` for an escape cut off by the end of the region.
    fn escape(
        &mut self,
        i: usize,
        buf: &mut String,
        scan: &mut StringScan,
    ) -> Result<Option<(usize, bool)>> {
        let b = self.b;
        let end = self.end();
        let class = scan.class;
        if i + 1 >= end {
            self.check_truncated_escape(i)?;
            return Ok(None);
        }
        let e = b[i + 1];
        if self.cfg.latex && latex::collision_at(b, i, end).is_some() {
            let content = scan.open_at + scan.open_len;
            let start = self.state.start;
            let fires = latex::fires_alone(b, i)
                || *scan.maths.get_or_insert_with(|| {
                    latex::shows_maths(b, content, end, class.stop_bytes().0)
                })
                || *self
                    .state
                    .document_maths
                    .get_or_insert_with(|| latex::document_shows_maths(b, start, end));
            if fires {
                if !self.allowed(RepairKind::LatexEscape) {
                    // The strict pass: the repair stage reads it.
                    return self.fail(i, RepairKind::LatexEscape.defect());
                }
                if scan.latex == 0 {
                    scan.first_latex = i;
                }
                scan.latex += 1;
                buf.push('\\');
                buf.push(e as char);
                return Ok(Some((i + 2, false)));
            }
        }
        if class == QuoteClass::Escaped && e == b'\\' && b.get(i + 2) == Some(&b'"') {
            // Inside `\"…\"`, `\\"` is a quote in the text.
            buf.push('"');
            return Ok(Some((i + 3, false)));
        }
        if let Some(ch) = crate::spelling::simple_escape(e) {
            buf.push(ch);
            return Ok(Some((i + 2, false)));
        }
        if e == b'u' {
            return match crate::spelling::unicode_escape(b, i, end) {
                UnicodeEscape::Char(c, len) => {
                    buf.push(c);
                    Ok(Some((i + len, false)))
                }
                // `"\u26` or `"\ud83d\ud8` then the end: the escape was cut off.
                UnicodeEscape::Cut => {
                    self.check_truncated_escape(i)?;
                    Ok(None)
                }
                // Not hex at all (`C:\users`): the backslash is text.
                UnicodeEscape::NotHex => {
                    self.check_escape_repair(i)?;
                    buf.push('\\');
                    Ok(Some((i + 1, true)))
                }
                // A high surrogate without its low half, or a low one alone.
                UnicodeEscape::LoneSurrogate => {
                    self.repair(
                        RepairKind::InvalidUnicodeEscape,
                        i,
                        i + 6,
                        "lone surrogate became U+FFFD",
                    )?;
                    buf.push('\u{FFFD}');
                    Ok(Some((i + 6, false)))
                }
            };
        }
        if crate::spelling::markdown_escape(e) && self.allowed(RepairKind::MarkdownEscape) {
            // A model that formats for markdown escapes `_`, `*`, `#`… In a key, always the
            // character; in a value too, unless the string shows maths (`$a\_1$`) or keeps
            // other backslashes as text (a regular expression, a path): then all are kept.
            let content = scan.open_at + scan.open_len;
            let quote = class.stop_bytes().0;
            let keep = !scan.is_key
                && (*scan
                    .maths
                    .get_or_insert_with(|| latex::shows_maths(b, content, end, quote))
                    || *scan
                        .literal_backslashes
                        .get_or_insert_with(|| literal_backslashes(b, content, end, quote)));
            if !keep {
                buf.push(e as char);
                if scan.markdown == 0 {
                    scan.first_markdown = i;
                }
                scan.markdown += 1;
                return Ok(Some((i + 2, false)));
            }
        }
        self.check_escape_repair(i)?;
        match e {
            // `\'` (JavaScript) and a backslash before a raw newline: the escaped character.
            b'\'' => {
                buf.push('\'');
                Ok(Some((i + 2, class != QuoteClass::Single)))
            }
            b'\n' => {
                buf.push('\n');
                Ok(Some((i + 2, true)))
            }
            // `C:\Users\dev`: a backslash that starts no escape is kept literally.
            _ => {
                buf.push('\\');
                Ok(Some((i + 1, true)))
            }
        }
    }

    fn check_escape_repair(&self, i: usize) -> Result<()> {
        if self.allowed(RepairKind::InvalidEscape) {
            Ok(())
        } else {
            self.fail(i, RepairKind::InvalidEscape.defect())
        }
    }

    fn check_truncated_escape(&self, i: usize) -> Result<()> {
        if self.allowed(RepairKind::ClosedTruncatedString) {
            Ok(())
        } else {
            Err(Fail::Syntax {
                offset: i,
                message: Cow::Borrowed(RepairKind::ClosedTruncatedString.defect()),
                truncated: true,
            })
        }
    }
}

/// `quote` or `quotes`.
fn plural(n: u32, word: &str) -> String {
    if n == 1 {
        word.to_string()
    } else {
        format!("{word}s")
    }
}

/// `"hello +` then the end: the model was concatenating; a trailing `+` is not text.
fn strip_dangling_plus(buf: &mut String) {
    if buf.trim_end().ends_with('+') {
        let kept = buf.trim_end().trim_end_matches('+').trim_end().len();
        buf.truncate(kept);
    }
}

/// Whether the string whose text starts at `start` (up to its first unescaped `quote`, or
/// `end`) holds a backslash that is neither a JSON escape nor a markdown one: its backslashes
/// are then text (`^\d+\_\w+$`, `C:\Users\_cache`), markdown-looking ones included.
fn literal_backslashes(b: &[u8], start: usize, end: usize, quote: u8) -> bool {
    let end = end.min(b.len());
    let mut i = start;
    while i < end {
        match b[i] {
            c if c == quote => return false,
            b'\\' => match b.get(i + 1) {
                Some(&e)
                    if crate::spelling::simple_escape(e).is_some()
                        || e == b'u'
                        || crate::spelling::markdown_escape(e) =>
                {
                    i += 2
                }
                Some(_) => return true,
                None => return false,
            },
            _ => i += 1,
        }
    }
    false
}
