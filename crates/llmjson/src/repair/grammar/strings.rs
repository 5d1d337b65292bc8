//! Readings of a spot inside a string: does this quote end it, is it text, did the string
//! lose its closing quote earlier (and where did it end), or was the reply cut inside it.

use super::{after_value, reading};
use super::{Action, Ctx, Mode, Readings, Stack};
use crate::repair::cost;
use crate::repair::lex::{
    is_ident_byte, is_ws, member_starts, wide_punctuation_at, ClosingRun, Kind, Stop,
};
use crate::repair::RepairKind;
use crate::spelling::quotes::QuoteClass;
use crate::spelling::{WIDE_COLON, WIDE_COMMA};

/// What every reading of a spot inside a string needs: the string's quote class, whether it is a
/// key, where its content opened, whether an odd number of its quotes were kept as text, and the
/// mode after it closes.
#[derive(Clone, Copy)]
struct InString {
    class: QuoteClass,
    key: bool,
    open: usize,
    odd: bool,
    after: Mode,
}

impl InString {
    /// What closing the string here adds when an odd number of its paired quotes were kept as
    /// text: the last of them is left unpaired, and pays again.
    fn unpaired_cost(self) -> cost::Cost {
        if self.odd && self.class.paired() {
            cost::UNPAIRED_TEXT_QUOTE
        } else {
            0
        }
    }

    /// The string's own mode (a reading that keeps the spot as text reads on in it).
    fn mode(self) -> Mode {
        Mode::Str {
            class: self.class,
            key: self.key,
            open: self.open,
            odd: self.odd,
        }
    }
}

impl Ctx<'_> {
    /// The readings of a spot inside a string (`mode` is `Str`), at a stop found at `at`.
    pub(crate) fn in_string(
        &self,
        stack: &dyn Stack,
        mode: Mode,
        at: usize,
        stop: Stop,
        out: &mut Readings,
    ) {
        out.clear(self);
        let Mode::Str {
            class,
            key,
            open,
            odd,
        } = mode
        else {
            return;
        };
        let after = if key {
            Mode::Colon
        } else if stack.depth() == 0 && self.concatenation_follows(at + 1) {
            // `"a" + "b"` at the top level: the value goes on.
            Mode::Next { after_string: true }
        } else {
            after_value(stack.depth(), true)
        };
        let s = InString {
            class,
            key,
            open,
            odd,
            after,
        };
        match stop {
            Stop::Quote { len, own: true } => self.own_quote(s, at, len, out),
            Stop::Quote { len, own: false } => self.other_quote(stack, s, at, len, out),
            Stop::End => self.cut_by_end(stack, s, at, out),
            Stop::Control(b'\n') if class != QuoteClass::Triple => self.line_break(s, at, out),
            Stop::Escape | Stop::Control(_) => {}
        }
    }

    /// A quote of the string's own class: it closes the string, or is text (paired, loose, a
    /// key's), or shows the string lost its closing quote earlier.
    fn own_quote(&self, s: InString, at: usize, len: usize, out: &mut Readings) {
        let InString {
            class,
            key,
            open,
            odd,
            after,
        } = s;
        let level = self.level;
        let unpaired = s.unpaired_cost();
        let paired = class.paired();
        let odd = odd && paired;
        // A quote that starts an indented line is where JSON opens its next string
        // (`"José,⏎  "type": …`), not where text ends (code ends `x = 1⏎"`).
        let indented =
            if !key && self.starts_indented_line(open, at) && !self.lex.leaves_open(open, at) {
                cost::LOOSE_TEXT_QUOTE
            } else {
                0
            };
        // A string that does not end at `"` pays for the JSON its text swallowed
        // (`'docs', "tool": "x"…'`); a `"` string's quotes were judged one by one.
        // A key is a name: one that holds JSON's punctuation swallowed structure,
        // unless its quote is followed by `:` (then the text is the name, whatever it is).
        let swallowed = self.swallowed_by_close(s, at, len);
        out.add(
            level,
            reading(
                Action::CloseString,
                None,
                unpaired + indented + swallowed,
                at + len,
                after,
            ),
        );
        // A triple-quoted string ends at `"""`, unambiguously.
        if class == QuoteClass::Triple {
            return;
        }
        // A split that leaves closers in the text pays for the structure they lose.
        // Besides the places just before this quote, a value string may have ended at
        // the first comma its text puts before a member (`"Seoul, 'tags': [], …"`).
        let splits = self.split_points(open, at, key);
        let more = if key {
            [None, None]
        } else {
            self.splits_in_text(open, at, &splits)
        };
        for split in splits.into_iter().chain(more).flatten() {
            self.split_at(out, class, open, split, after);
        }
        // Keys close at a quote: a key holding a quote is not a thing models write.
        if !key {
            let b = self.b();
            // Quoted spans quote something, inside a line of text: a text quote
            // where JSON puts its quotes is loose. That is an opening quote before a
            // space or a delimiter (`"07:58",` + `","`) or first on its line
            // (`"a,⏎  "b": 1`), or a closing one before a `:` (`"x, "b": 1`).
            // (Not so in text that is code or JSON, which has quotes in such places.)
            let json_text = matches!(b.get(open), Some(b'{' | b'['));
            // Whether the text leaves a bracket open here: a scan of the window, done
            // at most once per quote.
            let leaves_open = std::cell::OnceCell::new();
            let inside_bracket = || *leaves_open.get_or_init(|| self.lex.leaves_open(open, at));
            let code = || json_text || inside_bracket();
            let loose = if !paired {
                // An apostrophe sits in a word or ends one before a space
                // (`students' books`), not before a delimiter (`docs', "tool"`).
                if self.delimiter_at(at + len) {
                    cost::LOOSE_TEXT_QUOTE
                } else {
                    0
                }
            } else if odd {
                if self.next_non_blank(at + len) == Some(b':') && !code() {
                    cost::KEYLIKE_TEXT_QUOTE
                } else {
                    0
                }
            } else if b.get(at + len).is_none_or(|&c| is_ws(c))
                || self.delimiter_at(at + len)
                || (self.starts_line(open, at) && !code())
            {
                cost::LOOSE_TEXT_QUOTE
            } else {
                0
            };
            // Quotes inside a bracket the text opened are code's or JSON's own
            // (`'{"id": 7}'` in an SQL statement): a pair costs as in JSON text. Not a
            // quote that a `+` and another quote follow: that joins two strings.
            // (The second quote of a pair costs nothing: asked of the first only.)
            let pair = if odd {
                0
            } else if json_text || (inside_bracket() && !self.concatenation_follows(at + len)) {
                cost::TEXT_QUOTE_IN_JSON_TEXT
            } else {
                cost::TEXT_QUOTE
            };
            // A quote kept as text before a colon and a bracket that ends its line
            // (`"steps" => [⏎`, outside any bracket of the text's) is a key's close
            // and its laid-out container's opening: text running on from there
            // swallows a member and the structure under it, which the text's own
            // brackets would otherwise hide.
            let member = if !code() && self.lex.colon_then_open_line(at + len) {
                2 * cost::LOST_STRUCTURE
            } else {
                0
            };
            // Running on past this quote swallows what came since the last one.
            let cost = pair + loose + member + self.lex.swallowed_since(class, open, at);
            out.add(
                level,
                reading(
                    Action::TextQuote,
                    Some(RepairKind::UnescapedQuote),
                    cost,
                    at + len,
                    Mode::Str {
                        class,
                        key,
                        open,
                        odd: paired && !odd,
                    },
                ),
            );
        }
    }

    /// A quote of another class (a typographic quote in an ASCII string, or the reverse): text,
    /// or the string's close.
    fn other_quote(
        &self,
        _stack: &dyn Stack,
        s: InString,
        at: usize,
        len: usize,
        out: &mut Readings,
    ) {
        let InString {
            class,
            key,
            open,
            after,
            ..
        } = s;
        let level = self.level;
        // A typographic quote inside ASCII-quoted text is ordinary text, unless it
        // stands right before a delimiter, where JSON ends its strings (`"東京“, "tags"`):
        // as text there it is loose, like an apostrophe before a delimiter.
        let loose = if self.delimiter_at(at + len) {
            cost::LOOSE_TEXT_QUOTE
        } else {
            0
        };
        // As at a quote of its own: one before a colon and a laid-out container's opening
        // (`“steps” = [ # …`) ends a key, and text running on swallows the member.
        let member =
            if !key && self.lex.colon_then_open_line(at + len) && !self.lex.leaves_open(open, at) {
                2 * cost::LOST_STRUCTURE
            } else {
                0
            };
        let loose = loose + member + self.lex.swallowed_since(class, open, at);
        out.add(
            level,
            reading(Action::TextQuote, None, loose, at + len, s.mode()),
        );
        let swallowed = self.swallowed_by_close(s, at, len);
        out.add(
            level,
            reading(
                Action::MixedClose,
                Some(RepairKind::SmartQuotes),
                cost::MIXED_CLOSE + swallowed,
                at + len,
                after,
            ),
        );
        // Or the string ended long before, at the comma before a member its text
        // swallowed (`"Seoul, 'tags': [], … „Mary“`), or at the comma before this quote
        // where the quote opens the next item (`"failure,⏎        “queued”`), as at a
        // quote of its own.
        if !key {
            let splits = self.split_points(open, at, false);
            let more = self.splits_in_text(open, at, &splits);
            for split in splits.into_iter().chain(more).flatten() {
                self.split_at(out, class, open, split, after);
            }
        }
    }

    /// The region ends inside the string: a cut, or a closing quote lost before closers.
    fn cut_by_end(&self, stack: &dyn Stack, s: InString, at: usize, out: &mut Readings) {
        let InString {
            class,
            key,
            open,
            after,
            ..
        } = s;
        let level = self.level;
        // A reply cut inside a string is plausible for text, not for a string that
        // swallowed what looks like JSON (`"score: 1}` is a key that lost its quote).
        let swallowed =
            self.lex
                .lost_in_string(class, open.max(at.saturating_sub(cost::WINDOW)), at);
        let unpaired = s.unpaired_cost();
        // A key cut off is dropped (`DroppedTruncatedMember`); a value is closed.
        let cut_kind = if key {
            RepairKind::DroppedTruncatedMember
        } else {
            RepairKind::ClosedTruncatedString
        };
        // The string lost its closing quote before what ends the reply: a key before
        // its `:` and value, a value before the closers.
        let split = if key {
            self.split_points(open, at, true)[0]
        } else {
            self.closers_at_end(stack, open, at)
        };
        // A value that ran to the end past the start of a member ended before it, or
        // past the end of its container and the start of a sibling.
        let (member, sibling) = if key {
            (None, None)
        } else {
            self.text_boundaries(open, at)
        };
        let member = member.filter(|_| stack.top() == Some(Kind::Object));
        let sibling = sibling.filter(|s| member != Some(*s));
        // At the very end of a reply a cut is the likelier event: listed first. A cut
        // that swallowed the closers of the whole document is no plain completion: the
        // truncation-only pass refuses it, and the full search weighs it against the
        // splits. (`["a", ["]` swallowed one closer of two: still a cut; so is a key
        // that no split completes, `{"}ab}`.)
        let completes = split.is_some() || member.is_some() || sibling.is_some();
        if swallowed == 0
            || !out.only_truncation
            || !completes
            || !self.ends_document(stack, open, at)
        {
            out.add(
                level,
                reading(
                    Action::CutString,
                    Some(cut_kind),
                    cost::CUT_STRING + unpaired + swallowed,
                    at,
                    after,
                ),
            );
        }
        if let Some(m) = member {
            out.add(
                level,
                reading(
                    Action::SplitString,
                    Some(RepairKind::MissingEndQuote),
                    cost::MISSING_END_QUOTE,
                    m,
                    after,
                ),
            );
        }
        // `"a,⏎    null⏎]`: as at a quote, the string may have lost its quote at the
        // end of its first line, before lines of values.
        let line = (!key)
            .then(|| self.first_line_comma(open, at))
            .flatten()
            .filter(|l| member != Some(*l));
        for split in line.into_iter().chain(sibling.filter(|s| line != Some(*s))) {
            self.split_at(out, class, open, split, after);
        }
        if let Some(split) = split {
            let action = if key {
                Action::SplitString
            } else {
                Action::SplitBeforeClosers
            };
            // Ending before the closers keeps the rest of the text in the string: it
            // pays for the members that text swallowed (`"Seoul, 'tags': [], 'y': 1}`).
            let swallowed = if key {
                0
            } else {
                self.lex.swallowed(class, open, split)
            };
            out.add(
                level,
                reading(
                    action,
                    Some(RepairKind::MissingEndQuote),
                    cost::MISSING_END_QUOTE + swallowed,
                    split,
                    after,
                ),
            );
        }
    }

    /// A raw line break: text, or the end of a string that lost its closing quote on its line.
    fn line_break(&self, s: InString, at: usize, out: &mut Readings) {
        let InString {
            class,
            key,
            open,
            after,
            ..
        } = s;
        let level = self.level;
        // A string that runs over a line break where the next line starts
        // structure at its container's indentation (`"zip": "rejected⏎        }`, or an
        // apostrophe read as an opening quote before lines of members) either runs on,
        // paying for the line the layout says it swallows, or lost its closing quote at
        // the end of its line.
        // A key is a name on one line: one still open at its first line break lost its
        // closing quote (at its colon: `"tags: [⏎`), whatever the next line holds.
        let first_key_line = key && memchr::memchr(b'\n', &self.b()[open..at]).is_none();
        if !first_key_line
            && (self.lex.next_line_starts_structure(open, at).is_none()
                || self.lex.leaves_open(open, at))
        {
            return;
        }
        // Where it ended (listed first: where the layout speaks, it is the likelier
        // reading): at the end of this line, when this is its first; else at the end of
        // its first line, when that line ended a member (`"active,⏎    false⏎  ]`).
        if let Some(split) = self.first_line_split(open, at, key) {
            self.split_at(out, class, open, split, after);
        }
        // A key running on over its line break pays twice: a name never holds one,
        // while the split has a repair to show for it.
        let run_on = if first_key_line {
            2 * cost::LOST_STRUCTURE
        } else {
            cost::LOST_STRUCTURE
        };
        out.add(
            level,
            reading(Action::TextLineBreak, None, run_on, at + 1, s.mode()),
        );
    }

    /// The reading that the string opened at `open` lost its closing quote and ended at
    /// `split`: a repair, plus what the text up to there swallowed (a split that leaves closers
    /// in the text pays for the structure they lose).
    fn split_at(
        &self,
        out: &mut Readings,
        class: QuoteClass,
        open: usize,
        split: usize,
        after: Mode,
    ) {
        out.add(
            self.level,
            reading(
                Action::SplitString,
                Some(RepairKind::MissingEndQuote),
                cost::MISSING_END_QUOTE
                    + self.lex.unbalanced_closers(open, split)
                    + self.lex.swallowed(class, open, split),
                split,
                after,
            ),
        );
    }

    /// `+` and then a quote follow `i` (a concatenation).
    pub(super) fn concatenation_follows(&self, i: usize) -> bool {
        let (plus, _) = self.lex.skip_trivia(i);
        if self.lex.at_end(plus) || self.b()[plus] != b'+' {
            return false;
        }
        let (q, _) = self.lex.skip_trivia(plus + 1);
        !self.lex.at_end(q) && QuoteClass::opening_at(self.b(), q).is_some()
    }

    /// Where a string missing its closing quote may have ended, judged from the quote at `at`
    /// that follows it (at most two places). A key ends at its first `:`. A value ends at the
    /// `,` just before the quote (`"a, "b"`), or before a bare key's `word:` after that comma
    /// (`"a, type: "b"`), or before the closers right before that comma (`"x], "b"`), or at a
    /// line break (`"a⏎"b"`).
    pub(super) fn split_points(&self, open: usize, at: usize, key: bool) -> [Option<usize>; 3] {
        let b = self.b();
        if key {
            // A key that lost its closing quote ends at its first `:` (`{"status: "done"`,
            // `"tags:["x"`), or at the `=` another language writes for it (`"text = "Ana"`,
            // which the colon readings accept): the reading costs a repair, so a key that does
            // hold a colon (`"http://x"`) stays whole unless what follows says otherwise.
            let text = &b[open..at.min(open + cost::WINDOW)];
            let colon = text
                .iter()
                .enumerate()
                .position(|(k, &c)| c == b':' || c == b'=' || text[k..].starts_with(&WIDE_COLON))
                .filter(|&c| c > 0)
                .map(|c| open + c);
            return [colon, None, None];
        }
        let mut newline = false;
        let mut k = self.back_over_trivia(open, at, &mut newline);
        // `"x}, {"b"`: the quote starts the first member of a container opened after a comma.
        let mut j = k;
        while j > open && matches!(b[j - 1], b'{' | b'[') {
            j = self.back_over_trivia(open, j - 1, &mut newline);
        }
        if j < k && j > open && comma_before(b, open, j).is_some() {
            k = j;
        }
        // `, type: "b"`: a bare key and its colon stand between the comma and this quote.
        if let Some(colon) = colon_before(b, open, k) {
            let mut w = self.back_over_trivia(open, colon, &mut false);
            let word_end = w;
            while w > open && (is_ident_byte(b[w - 1]) || b[w - 1] >= 0x80) {
                w -= 1;
            }
            if w < word_end {
                let c = self.back_over_trivia(open, w, &mut false);
                if let Some(comma) = comma_before(b, open + 1, c) {
                    return [Some(comma), None, None];
                }
            }
            return [None, None, None];
        }
        if let Some(comma) = comma_before(b, open, k) {
            if comma == open {
                return [None, None, None];
            }
            // `"x], "b"`: the string ended before the closers that precede the comma.
            let mut c = comma;
            while c > open && (is_ws(b[c - 1]) || matches!(b[c - 1], b'}' | b']')) {
                c -= 1;
            }
            let before_closers =
                (c > open && b[c..comma].iter().any(|&x| matches!(x, b'}' | b']'))).then_some(c);
            // `"a,⏎    false,⏎    "b"`: a string that lost its quote at the end of its first
            // line, before lines of values; listed first, it wins where the values read clean.
            let line = self.first_line_comma(open, comma);
            return match line {
                Some(l) => [Some(l), Some(comma), before_closers],
                None => [Some(comma), before_closers, None],
            };
        }
        if newline && k > open {
            k = self.back_over_trivia(open, k, &mut newline);
            return [Some(k), None, None];
        }
        [None, None, None]
    }

    /// The comma that ends the first line of the text from `open` (within [`cost::WINDOW`]),
    /// when that line break comes before `before`.
    /// Where a string opened at `open` and still open at the line break `at` ended, if it lost
    /// its closing quote at the end of its first line: before that line's last comma (the
    /// member's), or after its text when the line break is `at` itself or the next line
    /// starts structure.
    fn first_line_split(&self, open: usize, at: usize, key: bool) -> Option<usize> {
        let line_end =
            memchr::memchr(b'\n', &self.b()[open..at.max(open)]).map_or(at, |k| open + k);
        if key {
            // A key ends at its first `:` (or `=`), as at a quote; else with its line.
            if let Some(colon) = self.split_points(open, line_end, true)[0] {
                return Some(colon);
            }
        }
        let (last, comma) = self.line_ending(open, line_end)?;
        match comma {
            Some(comma) if !key => Some(comma),
            _ if line_end == at
                || self
                    .lex
                    .next_line_starts_structure(open, line_end)
                    .is_some() =>
            {
                Some(last + 1)
            }
            _ => None,
        }
    }

    /// The last byte of text before `line_end` (after `open`), and where the comma (`,` or
    /// `，`) that ends the line starts, if one does (not the string's first byte).
    fn line_ending(&self, open: usize, line_end: usize) -> Option<(usize, Option<usize>)> {
        let b = self.b();
        let last = (open..line_end).rev().find(|&k| !is_ws(b[k]))?;
        let comma = if b[last] == b',' && last > open {
            Some(last)
        } else if last >= open + 3 && b[last - 2..=last] == WIDE_COMMA {
            Some(last - 2)
        } else {
            None
        };
        Some((last, comma))
    }

    fn first_line_comma(&self, open: usize, before: usize) -> Option<usize> {
        let b = self.b();
        let to = before.min(open + cost::WINDOW);
        let line_end = open + memchr::memchr(b'\n', b.get(open..to)?)?;
        let (last, _) = self.line_ending(open, line_end)?;
        (b[last] == b',' && last > open && last < before).then_some(last)
    }

    /// Walks back from `i` over whitespace and block comments, not before `floor`; notes a
    /// line break on the way.
    pub(super) fn back_over_trivia(&self, floor: usize, mut k: usize, newline: &mut bool) -> usize {
        let b = self.b();
        loop {
            while k > floor && is_ws(b[k - 1]) {
                *newline |= b[k - 1] == b'\n';
                k -= 1;
            }
            // A block comment between the delimiter and the quote (`"abc,/* c */"def"`).
            if k >= floor + 4 && b[k - 1] == b'/' && b[k - 2] == b'*' {
                let from = k.saturating_sub(cost::WINDOW).max(floor);
                match memchr::memmem::rfind(&b[from..k - 2], b"/*") {
                    Some(c) => k = from + c,
                    None => return k,
                }
            } else {
                return k;
            }
        }
    }

    /// The places [`Ctx::text_boundaries`] finds in a value's text, besides `splits` (the
    /// places just before the quote at `at`): each listed once.
    fn splits_in_text(
        &self,
        open: usize,
        at: usize,
        splits: &[Option<usize>; 3],
    ) -> [Option<usize>; 2] {
        let (member, sibling) = self.text_boundaries(open, at);
        let member = member.filter(|m| !splits.contains(&Some(*m)));
        let sibling = sibling.filter(|s| !splits.contains(&Some(*s)) && member != Some(*s));
        [member, sibling]
    }

    /// Where a value that lost its closing quote really ended, read from its text (from
    /// `open`, within the window): the first `,` after which a member begins, a quoted or bare
    /// key and its `:` (`"search, 'page': 9}` in a single-quoted document); and before the first
    /// closer the text did not open, when `,` and an opener or a member follow it: the text
    /// holds the end of its container and the start of a sibling (`"it's 'ok}, {'id': 2, …`,
    /// `"he said "stop], ["b"`). Siblings are a shape: a string that swallowed their boundary
    /// lost its closing quote there. One walk finds both.
    pub(super) fn text_boundaries(
        &self,
        open: usize,
        end: usize,
    ) -> (Option<usize>, Option<usize>) {
        let b = self.b();
        let to = end.min(open + cost::WINDOW).max(open);
        // Commas inside brackets the text opened are the text's own (`"d = {'a': 1, 'b': 2}"`).
        let mut depth = 0u32;
        // The first and last closer of the run of closers (and blanks) the text did not open
        // just before: a run is checked byte by byte once, however long.
        let mut closers: Option<(usize, usize)> = None;
        let blank = |from: usize, to: usize| b[from..to].iter().all(|&c| is_ws(c));
        let mut sibling = None;
        let member = self.lex.index.find_map(b, open, to, false, |k| {
            let width = match b[k] {
                b'{' | b'[' => {
                    depth += 1;
                    closers = None;
                    return None;
                }
                b'}' | b']' if depth > 0 => {
                    depth -= 1;
                    closers = None;
                    return None;
                }
                b'}' | b']' => {
                    closers = match closers {
                        Some((first, last)) if blank(last + 1, k) => Some((first, k)),
                        _ => Some((k, k)),
                    };
                    return None;
                }
                b',' => 1,
                0xEF if wide_punctuation_at(b, k) => 3,
                _ => {
                    closers = None;
                    return None;
                }
            };
            let after = || self.lex.skip_trivia(k + width).0;
            if let Some((first, last)) = closers.take().filter(|_| sibling.is_none()) {
                let q = after();
                let next_sibling =
                    q < self.lex.end && (matches!(b[q], b'{' | b'[') || member_starts(b, q));
                if next_sibling && blank(last + 1, k) {
                    sibling = (open..first).rev().find(|&t| !is_ws(b[t])).map(|t| t + 1);
                }
            }
            if depth == 0 && k > open {
                let q = after();
                return (q < to && member_starts(b, q)).then_some(k);
            }
            None
        });
        (member, sibling)
    }

    /// Where a string that ran to the end of the reply lost its closing quote before the
    /// closers that end the document: its raw text ends with closers that fit the open
    /// containers (`{"time": "12:20}`), maybe followed by a closing fence (`"x}}```"`), or a
    /// line of its text starts with such a closer and prose follows (`"text⏎}⏎Thanks!`).
    pub(super) fn closers_at_end(
        &self,
        stack: &dyn Stack,
        open: usize,
        end: usize,
    ) -> Option<usize> {
        let b = self.b();
        let mut k = end;
        while k > open && is_ws(b[k - 1]) {
            k -= 1;
        }
        // A fence glued to the closers (`}]```` at the end of a fenced reply).
        if let Some(f) = self.lex.fence {
            while k > open && b[k - 1] == f.byte {
                k -= 1;
            }
        }
        if let Some(split) = self.closers_before(stack, open, k) {
            return Some(split);
        }
        // Then prose: the first line that ends with such closers (`"skip]}}⏎⏎Hope this
        // helps`) or starts with one (`"text⏎}⏎Thanks!`).
        let limit = end.min(open + cost::WINDOW);
        let mut i = open;
        while let Some(n) = memchr::memchr(b'\n', &b[i..limit]) {
            let line = i + n;
            if let Some(split) = self.closers_before(stack, open, line) {
                return Some(split);
            }
            let mut j = line + 1;
            while j < limit && matches!(b[j], b' ' | b'\t' | b'\r') {
                j += 1;
            }
            if j < limit && matches!(b[j], b'}' | b']') && self.fits(stack, open, line, b[j]) {
                return Some(line);
            }
            i = line + 1;
        }
        None
    }

    /// The first byte from `i` on that is not whitespace (within the window).
    pub(super) fn next_non_blank(&self, i: usize) -> Option<u8> {
        let b = self.b();
        let to = self.lex.end.min(i + cost::WINDOW);
        b.get(i..to)?.iter().copied().find(|&c| !is_ws(c))
    }

    /// The byte at `at` is the first non-blank one of its line, a line that starts inside the
    /// string opened at `open`.
    pub(super) fn starts_line(&self, open: usize, at: usize) -> bool {
        let b = self.b();
        let floor = open.max(at.saturating_sub(cost::WINDOW));
        let mut k = at;
        while k > floor && matches!(b[k - 1], b' ' | b'\t') {
            k -= 1;
        }
        k > floor && matches!(b[k - 1], b'\n' | b'\r')
    }

    /// Like [`Self::starts_line`], on a line indented by at least one blank.
    pub(super) fn starts_indented_line(&self, open: usize, at: usize) -> bool {
        at > open && matches!(self.b()[at - 1], b' ' | b'\t') && self.starts_line(open, at)
    }

    /// A delimiter JSON ends strings before (`,` `:` `}` `]`, or a full-width `，` `：`) stands
    /// at `i`.
    fn delimiter_at(&self, i: usize) -> bool {
        self.b()
            .get(i)
            .is_some_and(|&c| matches!(c, b',' | b':' | b'}' | b']'))
            || wide_punctuation_at(self.b(), i)
    }

    /// What closing the string at a quote (at `at`, `len` bytes) pays for the JSON its text
    /// swallowed: a key, for the punctuation it holds (`key_marks`); a value, per
    /// `swallowed_by_value`.
    fn swallowed_by_close(&self, s: InString, at: usize, len: usize) -> cost::Cost {
        if s.key {
            self.key_marks(s.open, at, at + len)
        } else {
            self.swallowed_by_value(s.class, s.open, at)
        }
    }

    /// What a value string that ends at `at` pays for the structure its text swallowed (see
    /// [`crate::repair::lex::Lex::swallowed`]): `"D:\\data"，1]}}，'ui'：'x'}”` ran over the
    /// ends of three containers and a member. Text has brackets; it closes only what it opened.
    fn swallowed_by_value(&self, class: QuoteClass, open: usize, at: usize) -> cost::Cost {
        self.lex.swallowed(class, open, at)
    }

    /// What a key ending at `close` (its quote ends at `after`) pays for the JSON its text holds:
    /// nothing when a `:` follows the quote, the key marks otherwise.
    /// A key over lines pays them all the same: a name holds no line break, and one that ran
    /// to the quote of a later member's key (`"steps: [⏎    {⏎      ‘id’ => …⏎      done": `)
    /// swallowed the members between.
    fn key_marks(&self, open: usize, close: usize, after: usize) -> cost::Cost {
        let over_lines = || memchr::memchr(b'\n', &self.b()[open..close.max(open)]).is_some();
        if self.lex.next_is_colon(after, self.lex.end) && !over_lines() {
            0
        } else {
            self.lex.key_marks(open, close)
        }
    }

    /// The string's raw text `b[open..end]` ends with closers for every open container
    /// (`"score: 1}`, `"skip]}⏎Thanks`): the document was complete and the string lost its
    /// closing quote, rather than being cut off.
    pub(super) fn ends_document(&self, stack: &dyn Stack, open: usize, end: usize) -> bool {
        let b = self.b();
        let mut k = end.min(b.len());
        while k > open && is_ws(b[k - 1]) {
            k -= 1;
        }
        if let Some(f) = self.lex.fence {
            while k > open && b[k - 1] == f.byte {
                k -= 1;
            }
        }
        // The text ends with a run of closers, as many of them unbalanced by the text as there
        // are open containers, the first fitting the innermost (`"cache: [2631]}`: the `]` is
        // the text's own, the `}` closes the object).
        let run = self.lex.closing_run(open, k);
        if run.count >= stack.depth() && run_fits(stack, &run).is_some() {
            return true;
        }
        let Some(split) = self.closers_at_end(stack, open, end) else {
            return false;
        };
        let closers = b[split..end]
            .iter()
            .take_while(|&&c| is_ws(c) || matches!(c, b'}' | b']'))
            .filter(|&&c| matches!(c, b'}' | b']'))
            .count();
        closers >= stack.depth()
    }

    /// The raw text `b[open..end]` ends with closers (and whitespace) and the first of them
    /// that nothing in the text opened closes the innermost open container: where it is
    /// (`"x,{}}}` ends at the second `}`; `"arr = [1, 2]` cut off has none, the `]` is code).
    pub(super) fn closers_before(
        &self,
        stack: &dyn Stack,
        open: usize,
        end: usize,
    ) -> Option<usize> {
        run_fits(stack, &self.lex.closing_run(open, end)).filter(|&at| at > open)
    }

    /// A closer `c` after the string's text `b[open..upto]` would close the innermost open
    /// container, and no opener of its kind in that text balances it (`"arr = [1, 2]` cut off:
    /// the `]` is code).
    pub(super) fn fits(&self, stack: &dyn Stack, open: usize, upto: usize, c: u8) -> bool {
        let (want, opener) = if c == b'}' {
            (Kind::Object, b'{')
        } else {
            (Kind::Array, b'[')
        };
        stack.top() == Some(want) && !self.b()[open..upto].contains(&opener)
    }
}

/// Where a `,` (or a full-width `，`) ends just before `k`, not before `floor`.
fn comma_before(b: &[u8], floor: usize, k: usize) -> Option<usize> {
    if k > floor && b[k - 1] == b',' {
        Some(k - 1)
    } else if k >= floor + WIDE_COMMA.len() && b[..k].ends_with(&WIDE_COMMA) {
        Some(k - WIDE_COMMA.len())
    } else {
        None
    }
}

/// Where a `:` (or a full-width `：`) ends just before `k`, not before `floor`.
fn colon_before(b: &[u8], floor: usize, k: usize) -> Option<usize> {
    if k > floor && b[k - 1] == b':' {
        Some(k - 1)
    } else if k >= floor + WIDE_COLON.len() && b[..k].ends_with(&WIDE_COLON) {
        Some(k - WIDE_COLON.len())
    } else {
        None
    }
}

/// The closers of `run` close the innermost open containers in order (the first two are
/// checked): where the first is.
fn run_fits(stack: &dyn Stack, run: &ClosingRun) -> Option<usize> {
    let (kind, at) = run.first?;
    let second_fits = run.second.is_none() || stack.depth() < 2 || run.second == stack.below();
    (stack.top() == Some(kind) && second_fits).then_some(at)
}
