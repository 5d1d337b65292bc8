//! Readings of a spot outside strings, by what the parser expects there: a value, a key, the
//! colon after a key, or what follows a value (a comma, a closer, or a fault in their place).

use super::{after_close, after_value, inside, literal_kind, reading, starts_text, style};
use super::{Action, Ctx, Mode, Readings, Stack};
use crate::repair::cost::{self, Cost};
use crate::repair::lex::{
    is_ws, member_line_starts, member_starts, wide_punctuation_at, Kind, Token,
};
use crate::repair::RepairKind;
use crate::spelling::quotes::QuoteClass;
use crate::spelling::{WIDE_COLON, WIDE_COMMA};

impl Ctx<'_> {
    pub(super) fn value(
        &self,
        out: &mut Readings,
        stack: &dyn Stack,
        tok: Token,
        pos: usize,
        after_comma: bool,
    ) {
        let level = self.level;
        let top = stack.top();
        let b = self.b();
        let next = after_value(stack.depth(), false);
        match tok {
            Token::Open(kind) => out.add(
                level,
                reading(Action::Open, None, 0, pos + 1, inside(kind)).push(kind),
            ),
            Token::Quote(class, len) => {
                self.string_open(out, class, len, pos, false);
                self.stray_quote(out, pos, len, Mode::Value { after_comma });
                // `'K' a judicial officer",`: text that begins with an apostrophe and lost
                // its opening `"`.
                if class == QuoteClass::Single {
                    if let Some(end) = self.lost_open_quote_end(pos) {
                        out.add(
                            level,
                            reading(
                                Action::QuoteLostValue,
                                Some(RepairKind::MissingStartQuote),
                                cost::MISSING_END_QUOTE,
                                end,
                                next,
                            ),
                        );
                    }
                }
            }
            Token::Number { end } => self.value_number(out, stack, pos, end, next),
            // `search(query="hotels", limit=3)`: keyword arguments are an object's members.
            Token::Word { .. } if top == Some(Kind::Call) && keyword_at(b, pos, self.lex.end) => {
                out.add(
                    level,
                    reading(
                        Action::OpenKeywords,
                        None,
                        0,
                        pos,
                        Mode::Key { after_comma: false },
                    )
                    .push(Kind::Object),
                );
            }
            Token::Word { end } => self.value_word(out, stack, pos, end, next, top),
            Token::Comma => match top {
                Some(Kind::Array | Kind::Tuple | Kind::Set) => out.add(
                    level,
                    reading(
                        Action::ExtraPunctuation,
                        Some(RepairKind::ExtraComma),
                        cost::EXTRA_PUNCTUATION,
                        pos + 1,
                        Mode::Value { after_comma: true },
                    ),
                ),
                Some(Kind::Object) => out.add(
                    level,
                    reading(
                        Action::MissingValue,
                        Some(RepairKind::MissingValue),
                        cost::MISSING_VALUE,
                        pos,
                        next,
                    ),
                ),
                _ => {}
            },
            Token::Close(_) => match top {
                Some(Kind::Object) => out.add(
                    level,
                    reading(
                        Action::MissingValue,
                        Some(RepairKind::MissingValue),
                        cost::MISSING_VALUE,
                        pos,
                        next,
                    ),
                ),
                Some(Kind::Array | Kind::Set) => {
                    let (kind, cost) = if after_comma {
                        (Some(RepairKind::TrailingComma), cost::TRAILING_COMMA)
                    } else {
                        (None, 0)
                    };
                    out.add(level, reading(Action::EmptySlot, kind, cost, pos, next));
                }
                Some(Kind::Call) => out.add(level, reading(Action::EmptySlot, None, 0, pos, next)),
                Some(Kind::Tuple) => {}
                None => {}
            },
            Token::RParen if matches!(top, Some(Kind::Call | Kind::Tuple)) => {
                out.add(level, reading(Action::EmptySlot, None, 0, pos, next))
            }
            Token::LParen => out.add(
                level,
                reading(
                    Action::OpenTuple,
                    Some(RepairKind::PythonLiteral),
                    0,
                    pos + 1,
                    Mode::Value { after_comma: false },
                )
                .push(Kind::Tuple)
                .styled(style::FOREIGN_LITERALS),
            ),
            Token::Colon if top == Some(Kind::Object) => out.add(
                level,
                reading(
                    Action::ExtraPunctuation,
                    Some(RepairKind::DroppedGarbage),
                    cost::EXTRA_PUNCTUATION,
                    pos + 1,
                    Mode::Value { after_comma },
                ),
            ),
            Token::Ellipsis { end } => out.add(
                level,
                reading(
                    Action::Ellipsis,
                    Some(RepairKind::Ellipsis),
                    cost::ELLIPSIS,
                    end,
                    Mode::Value { after_comma },
                ),
            ),
            Token::Other { len } => {
                self.spelled_number(out, pos, next);
                if b[pos] == b'-' && self.lex.text[pos..self.lex.end].starts_with("-Infinity") {
                    let end = pos + 9;
                    if self.lex.is_terminator(end) {
                        out.add(
                            level,
                            reading(
                                Action::Literal,
                                Some(RepairKind::JavascriptLiteral),
                                0,
                                end,
                                next,
                            )
                            .styled(style::FOREIGN_LITERALS),
                        );
                        return;
                    }
                }
                if starts_text(b[pos]) {
                    self.unquoted_value(out, stack, pos);
                }
                self.garbage(out, pos, len, Mode::Value { after_comma });
            }
            _ => self.garbage(out, pos, 1, Mode::Value { after_comma }),
        }
    }

    /// A number where a value belongs: as written, with a leading zero, cut by the end or odd
    /// (`.5`, `1.`), or with its digits grouped (`1,299.99`); a lone sign is text.
    fn value_number(
        &self,
        out: &mut Readings,
        stack: &dyn Stack,
        pos: usize,
        end: usize,
        next: Mode,
    ) {
        let level = self.level;
        let b = self.b();
        let shape = self.lex.number_shape(pos);
        let lone = shape.no_digits() && !self.lex.at_end(end) && !self.delimiter_follows(end);
        if lone {
            // `- item`: text, not a number.
            self.unquoted_value(out, stack, pos);
        } else {
            let (kind, cost) = if shape.is_valid(b) {
                (None, 0)
            } else if shape.leading_zero(b) {
                (Some(RepairKind::NumberAsString), cost::ODD_NUMBER)
            } else if self.lex.at_end(end) {
                (Some(RepairKind::CompletedTruncatedValue), cost::CUT_TOKEN)
            } else {
                (Some(RepairKind::InvalidNumber), cost::ODD_NUMBER)
            };
            out.add(level, reading(Action::Number, kind, cost, end, next));
            // `"altura": 1,82 m`, `"poids": 74 kg`: a measure, one string.
            if stack.top() == Some(Kind::Object) {
                if let Some(measured) = self.lex.measured_value_end(pos) {
                    out.add(
                        level,
                        reading(
                            Action::MeasuredValue,
                            Some(RepairKind::UnquotedString),
                            cost::UNQUOTED_VALUE,
                            measured,
                            next,
                        ),
                    );
                }
            }
            // `1,299.99`: where a comma cannot separate items (after a key), the
            // reading that keeps the number whole is the one that survives.
            if let Some(grouped) = self.lex.grouped_number_end(pos) {
                out.add(
                    level,
                    reading(
                        Action::GroupedNumber,
                        Some(RepairKind::InvalidNumber),
                        cost::GROUPED_NUMBER,
                        grouped,
                        next,
                    )
                    .styled(style::GROUPED_NUMBERS),
                );
            }
        }
    }

    /// A word where a value belongs: a literal (of any spelling), a cut literal, a number
    /// spelled in words, or bare text.
    fn value_word(
        &self,
        out: &mut Readings,
        stack: &dyn Stack,
        pos: usize,
        end: usize,
        next: Mode,
        top: Option<Kind>,
    ) {
        let level = self.level;
        let b = self.b();
        let word = &self.lex.text[pos..end];
        if let (Some(kind), true) = (literal_kind(word), self.lex.is_terminator(end)) {
            let style = if kind.is_some() {
                style::FOREIGN_LITERALS
            } else {
                0
            };
            out.add(
                level,
                reading(Action::Literal, kind, 0, end, next).styled(style),
            );
            return;
        }
        if self.lex.at_end(end) && crate::spelling::completing(word).is_some() {
            out.add(
                level,
                reading(
                    Action::Literal,
                    Some(RepairKind::CompletedTruncatedValue),
                    cost::CUT_TOKEN,
                    end,
                    next,
                ),
            );
            return;
        }
        self.spelled_number(out, pos, next);
        if b.get(end) == Some(&b'(') && b[pos].is_ascii_alphabetic() {
            out.add(
                level,
                reading(
                    Action::FunctionWrapper,
                    Some(RepairKind::FunctionWrapper),
                    cost::FUNCTION_WRAPPER,
                    end + 1,
                    Mode::Value { after_comma: false },
                )
                .push(Kind::Call),
            );
            return;
        }
        // `risks: [` (or `risks = [`) where the list's next item was due: the list lost
        // its closer, and this is the next member of the object around it.
        if top == Some(Kind::Array) && stack.below() == Some(Kind::Object) && member_starts(b, pos)
        {
            self.lost_closer(
                out,
                Action::MissingCloser,
                pos,
                Mode::Key { after_comma: true },
            );
        }
        self.unquoted_value(out, stack, pos);
    }

    /// `250_000`, `−12.5`: a number spelled with digit separators or the typographic minus (a
    /// convention, charged once per document).
    fn spelled_number(&self, out: &mut Readings, pos: usize, next: Mode) {
        if let Some(spelled) = self.lex.spelled_number_end(pos) {
            out.add(
                self.level,
                reading(
                    Action::GroupedNumber,
                    Some(RepairKind::InvalidNumber),
                    0,
                    spelled,
                    next,
                )
                .styled(style::SPELLED_NUMBERS),
            );
        }
    }

    /// Some delimiter (or the end) follows `i`, after whitespace.
    pub(super) fn delimiter_follows(&self, i: usize) -> bool {
        let (j, _) = self.lex.skip_trivia(i);
        self.lex.at_end(j)
            || matches!(self.b()[j], b',' | b']' | b'}')
            || wide_punctuation_at(self.b(), j)
    }

    pub(super) fn unquoted_value(&self, out: &mut Readings, stack: &dyn Stack, pos: usize) {
        let lex = &self.lex;
        let b = self.b();
        let raw_end = lex.unquoted_value_end(pos, stack.top() == Some(Kind::Call));
        let mut end = raw_end;
        while end > pos && is_ws(b[end - 1]) {
            end -= 1;
        }
        if end == pos {
            return;
        }
        // `done",`: the value lost only its opening quote.
        let mut after = raw_end;
        if raw_end < lex.end && b[raw_end] == b'"' && raw_end == end {
            let (j, _) = lex.skip_trivia(raw_end + 1);
            if lex.at_end(j)
                || matches!(b[j], b',' | b'}' | b']' | b':')
                || wide_punctuation_at(b, j)
            {
                after = raw_end + 1;
            }
        }
        out.add(
            self.level,
            reading(
                Action::UnquotedValue,
                Some(RepairKind::UnquotedString),
                cost::UNQUOTED_VALUE,
                after.max(end),
                // A string all the same (`[in progress, next: 1` may close before `next:`).
                after_value(stack.depth(), true),
            ),
        );
    }

    pub(super) fn garbage(&self, out: &mut Readings, pos: usize, len: usize, mode: Mode) {
        out.add(
            self.level,
            reading(
                Action::Garbage,
                Some(RepairKind::DroppedGarbage),
                cost::GARBAGE,
                // Whole characters only (`：` is three bytes).
                pos + len.max(self.lex.char_len_at(pos)),
                mode,
            ),
        );
    }

    /// The readings of a closer of `kind` at `pos` when the innermost container is another
    /// kind (or a call): used as the right closer, a closer missing before it, or a stray.
    pub(super) fn wrong_closer(
        &self,
        out: &mut Readings,
        stack: &dyn Stack,
        kind: Kind,
        pos: usize,
        mode: Mode,
    ) {
        let level = self.level;
        let depth = stack.depth();
        if stack.top() == Some(Kind::Call) {
            // `f(x` then a closer: the call lacked its `)`.
            out.add(
                level,
                reading(Action::MissingCloser, None, 0, pos, after_close(depth - 1)).pop(1),
            );
            return;
        }
        // In a laid-out reply a closer lines up with the line that opened its container: one
        // further left closes an outer container (the innermost lost its closer), one in line
        // is the innermost's own, of the wrong kind (not a stray: `‘code’：{ … ⏎      ],`).
        let (mismatch_indent, missing_indent, stray_indent) =
            match self.closer_alignment(stack, pos) {
                Some(std::cmp::Ordering::Less) => (cost::MISALIGNED_CLOSER, 0, 0),
                Some(std::cmp::Ordering::Equal) => {
                    (0, cost::MISALIGNED_CLOSER, cost::MISALIGNED_CLOSER)
                }
                _ => (0, 0, 0),
            };
        // A list of records goes on after this closer when the next item begins as its first
        // did (`}}}, {"id": 2, …` in a list of `{"id": …}`): closing the list here is the
        // misreading a doubled closer invites.
        let list_goes_on =
            if stack.top() == Some(Kind::Array) && self.next_item_restates_list(stack, pos) {
                cost::LIST_GOES_ON
            } else {
                0
            };
        // `{"id": 1]` inside a list: the closer is the list's, the object lost its own — on a
        // tie with the wrong-kind reading (nothing after tells them apart in the window), the
        // reading that leaves no container open for a closer that never comes.
        let below_matches = u8::from(stack.below() == Some(kind));
        out.add(
            level,
            reading(
                Action::Mismatched,
                Some(RepairKind::MismatchedCloser),
                cost::MISMATCHED_CLOSER
                    + mismatch_indent
                    + list_goes_on
                    + Cost::from(below_matches),
                pos + 1,
                after_close(depth - 1),
            )
            .pop(1),
        );
        if stack.open_below(kind) {
            out.add(
                level,
                reading(
                    Action::MissingCloser,
                    Some(RepairKind::MissingCloser),
                    cost::MISSING_CLOSER + missing_indent + list_goes_on,
                    pos,
                    after_close(depth - 1),
                )
                .pop(1),
            );
        }
        out.add(
            level,
            reading(
                Action::StrayCloser,
                Some(RepairKind::ExtraCloser),
                cost::STRAY_CLOSER + stray_indent,
                pos + 1,
                mode,
            ),
        );
    }

    /// `=` at `pos` stands for a colon (`"a" = 1`, `"a" => 1`), not a comparison (`==`).
    fn equals_colon_at(&self, pos: usize) -> bool {
        let b = self.b();
        b.get(pos) == Some(&b'=') && b.get(pos + 1) != Some(&b'=')
    }

    /// The innermost container is a list whose first item is an object, and after the closer
    /// at `pos` a `,` and an object follow that shares at least two of its first three keys with
    /// that item (or begins with the same key): the next record of the same list. Bounded: a few
    /// hundred bytes are looked at.
    fn next_item_restates_list(&self, stack: &dyn Stack, pos: usize) -> bool {
        let Some(open) = stack.top_open() else {
            return false;
        };
        let b = self.b();
        if b.get(open) != Some(&b'[') {
            return false;
        }
        let first = self.first_keys(open + 1);
        if first.is_empty() {
            return false;
        }
        let (c, _) = self.lex.skip_trivia(pos + 1);
        let comma = if b.get(c) == Some(&b',') {
            1
        } else if b[c.min(b.len())..].starts_with(&WIDE_COMMA) {
            WIDE_COMMA.len()
        } else {
            return false;
        };
        let next = self.first_keys(c + comma);
        let shared = next.iter().filter(|k| first.contains(k)).count();
        !next.is_empty() && (next[0] == first[0] || shared >= 2)
    }

    /// The first (up to three) keys of the object that starts at `from` (after blanks), as
    /// written between their quotes. Values are stepped over: strings to their closing quote,
    /// containers to their balancing closer, within a bound.
    fn first_keys(&self, from: usize) -> Vec<&[u8]> {
        let b = self.b();
        let lex = &self.lex;
        let limit = lex.end.min(from + 4 * cost::WINDOW);
        let mut keys = Vec::with_capacity(3);
        let (o, _) = lex.skip_trivia(from);
        if o >= limit || b[o] != b'{' {
            return keys;
        }
        let mut i = o + 1;
        while keys.len() < 3 && i < limit {
            let (k, _) = lex.skip_trivia(i);
            if k >= limit {
                break;
            }
            // The key.
            let key_end = match crate::spelling::quotes::QuoteClass::opening_at(b, k) {
                Some((class, len)) => {
                    let start = k + len;
                    let Some(e) =
                        (start..limit.min(start + 64)).find(|&e| class.closer_at(b, e).is_some())
                    else {
                        break;
                    };
                    keys.push(&b[start..e]);
                    e + class.closer_at(b, e).unwrap_or(1)
                }
                None => {
                    let e = lex.word_end(k);
                    if e == k {
                        break;
                    }
                    keys.push(&b[k..e]);
                    e
                }
            };
            // Its value: to the comma that ends the member, at this object's level.
            let mut depth = 0u32;
            let mut j = key_end;
            let mut quote: Option<(crate::spelling::quotes::QuoteClass, usize)> = None;
            while j < limit {
                if let Some((class, _)) = quote {
                    if b[j] == b'\\' {
                        j += 2;
                        continue;
                    }
                    if let Some(l) = class.closer_at(b, j) {
                        quote = None;
                        j += l;
                        continue;
                    }
                    j += 1;
                    continue;
                }
                match b[j] {
                    b'{' | b'[' => depth += 1,
                    b'}' | b']' if depth == 0 => return keys,
                    b'}' | b']' => depth -= 1,
                    // A comma ends the member when a member follows it (`81,523, "b":` has
                    // one inside a grouped number).
                    b',' if depth == 0 && member_starts(b, lex.skip_trivia(j + 1).0) => break,
                    0xEF if depth == 0
                        && b[j..].starts_with(&WIDE_COMMA)
                        && member_starts(b, lex.skip_trivia(j + 3).0) =>
                    {
                        break
                    }
                    _ => {
                        if let Some(q) = crate::spelling::quotes::QuoteClass::opening_at(b, j) {
                            quote = Some(q);
                            j += q.1;
                            continue;
                        }
                    }
                }
                j += 1;
            }
            // Past the comma (one byte, or the three of `，`).
            i = j + if b[j.min(b.len() - 1)] == b',' {
                1
            } else {
                WIDE_COMMA.len()
            };
        }
        keys
    }

    /// How the closer at `pos` lines up with the line where the innermost container opened:
    /// `Less` when its line stands further left, `Equal` in line, `Greater` further right.
    /// `None` when the closer is not first on its line (after other closers: `}},` starts a
    /// line with two) or the container's opening is unknown.
    fn closer_alignment(&self, stack: &dyn Stack, pos: usize) -> Option<std::cmp::Ordering> {
        let open = stack.top_open()?;
        let b = self.b();
        let mut run = pos;
        while run > pos.saturating_sub(cost::WINDOW) && matches!(b[run - 1], b'}' | b']') {
            run -= 1;
        }
        let closer = self.indentation(run)?;
        let line_start = self.b()[..open]
            .iter()
            .rposition(|&c| c == b'\n')
            .map_or(0, |n| n + 1);
        if open - line_start > cost::WINDOW {
            return None;
        }
        let opener = self.b()[line_start..open]
            .iter()
            .take_while(|&&c| matches!(c, b' ' | b'\t'))
            .count();
        Some(closer.cmp(&opener))
    }

    /// What the layout says against closing the innermost container at `pos`: a closer whose
    /// line does not line up with the container's opening line pays
    /// [`cost::MISALIGNED_CLOSER`] (`}},` where the second `}` is stray and the members go on).
    fn misaligned_close(&self, stack: &dyn Stack, pos: usize) -> Cost {
        match self.closer_alignment(stack, pos) {
            Some(std::cmp::Ordering::Less | std::cmp::Ordering::Greater) => cost::MISALIGNED_CLOSER,
            _ => 0,
        }
    }

    /// What the layout says against reading the member whose line starts at `pos` into the
    /// innermost object: [`cost::MISALIGNED_CLOSER`] when the object's first member line stands
    /// at another indentation (a step's `„owner“ = …` read into the top-level object after a
    /// misread closer, or the top level's `"risks": [` read into a step that lost its `}`).
    /// Nothing when the object's opening is not known or its members are not laid out.
    pub(super) fn misplaced_member(&self, stack: &dyn Stack, pos: usize) -> Cost {
        if stack.top() != Some(Kind::Object) {
            return 0;
        }
        let (Some(open), Some(indent)) = (stack.top_open(), self.indentation(pos)) else {
            return 0;
        };
        let b = self.b();
        let to = pos.min(open + cost::WINDOW);
        let Some(line) = memchr::memchr(b'\n', &b[open.min(to)..to]).map(|k| open + k + 1) else {
            return 0;
        };
        let mut first = line;
        while first < to && matches!(b[first], b' ' | b'\t') {
            first += 1;
        }
        // In line (the common case) is decided before either line is read as a member's.
        if first >= to
            || first - line == indent
            || !member_line_starts(&b[..self.lex.end], pos)
            || !member_line_starts(&b[..self.lex.end], first)
        {
            return 0;
        }
        cost::MISALIGNED_CLOSER
    }

    /// The text at `pos` opens with an apostrophe-quoted word that more words follow, and ends
    /// on its line at a `"` before a delimiter: a string value that lost its opening `"`.
    /// Where that `"` ends.
    fn lost_open_quote_end(&self, pos: usize) -> Option<usize> {
        let b = self.b();
        let end = self.lex.end.min(pos + cost::WINDOW);
        let line = memchr::memchr(b'\n', &b[pos..end]).map_or(end, |n| pos + n);
        let q = pos + memchr::memchr(b'"', &b[pos..line])?;
        let apostrophe = pos + 1 + memchr::memchr(b'\'', &b[pos + 1..q])?;
        let words_follow = b.get(apostrophe + 1) == Some(&b' ')
            && b.get(apostrophe + 2)
                .is_some_and(|c| c.is_ascii_alphanumeric() || *c >= 0x80);
        let (after, _) = self.lex.skip_trivia(q + 1);
        let delimited = self.lex.at_end(after) || matches!(b[after], b',' | b'}' | b']');
        (words_follow && delimited).then_some(q + 1)
    }

    /// A run of quotes and commas at `pos` (`",`, `"",",`) that ends where a quoted key and its
    /// colon begin: where that key's quote is. The run holds a quote and ends with a comma.
    fn stray_fragment_end(&self, pos: usize) -> Option<usize> {
        let b = self.b();
        let end = self.lex.end.min(pos + 16);
        let mut k = pos;
        while k < end && matches!(b[k], b'"' | b',' | b' ') {
            k += 1;
        }
        let key = k.checked_sub(1).filter(|&q| q > pos && b[q] == b'"')?;
        let fragment = &b[pos..key];
        let last = fragment.iter().rposition(|&c| c != b' ')?;
        if fragment[last] != b',' || !fragment.contains(&b'"') {
            return None;
        }
        let line_end = memchr::memchr(b'\n', &b[k..self.lex.end]).map_or(self.lex.end, |n| k + n);
        let close = k + memchr::memchr(b'"', &b[k..line_end])?;
        self.lex.next_is_colon(close + 1, line_end).then_some(key)
    }

    /// `"args\":{\"id\": …`: the key opened at `pos` by `"` closes with `\"` before its colon
    /// (the rest of the member was stringified): where the `\"` ends. The key holds no other
    /// quote or backslash and stays on its line.
    fn escaped_close_key(&self, pos: usize) -> Option<usize> {
        let b = self.b();
        if b.get(pos) != Some(&b'"') {
            return None;
        }
        let end = self.lex.end.min(pos + cost::WINDOW);
        let k = pos + 1 + memchr::memchr3(b'\\', b'"', b'\n', b.get(pos + 1..end)?)?;
        if k == pos + 1 || b[k] != b'\\' || b.get(k + 1) != Some(&b'"') {
            return None;
        }
        let (j, _) = self.lex.skip_trivia(k + 2);
        if b.get(j) != Some(&b':') {
            return None;
        }
        // What follows was stringified with it: a container whose first string is escaped
        // (`{\"id\"`). A key that merely holds `\"` (`{"a\":0}": 1`, cut or not) is not this.
        let (v, _) = self.lex.skip_trivia(j + 1);
        let (first, _) = self.lex.skip_trivia(v + 1);
        (matches!(b.get(v), Some(b'{' | b'[')) && b[first.min(b.len())..].starts_with(b"\\\""))
            .then_some(k + 2)
    }

    /// The blanks before `pos` on its line, if only blanks precede it there.
    fn indentation(&self, pos: usize) -> Option<usize> {
        let b = self.b();
        let floor = pos.saturating_sub(cost::WINDOW);
        let mut k = pos;
        while k > floor && matches!(b[k - 1], b' ' | b'\t') {
            k -= 1;
        }
        (k > 0 && b[k - 1] == b'\n').then_some(pos - k)
    }

    /// Where a key is due: a quoted or bare key, the object's closer (after a trailing comma),
    /// or what a stray mark or a lost closer would explain.
    pub(super) fn key(
        &self,
        out: &mut Readings,
        stack: &dyn Stack,
        tok: Token,
        pos: usize,
        after_comma: bool,
    ) {
        let here = Mode::Key { after_comma };
        match tok {
            Token::Quote(class, len) => {
                self.string_open(out, class, len, pos, true);
                self.stray_quote(out, pos, len, here);
                // `"",","key":` between members: fragments of quotes and commas, one stray run.
                if let Some(key) = self.stray_fragment_end(pos) {
                    out.add(
                        self.level,
                        reading(
                            Action::Garbage,
                            Some(RepairKind::DroppedGarbage),
                            cost::EXTRA_PUNCTUATION,
                            key,
                            here,
                        ),
                    );
                }
                if let Some(end) = self.escaped_close_key(pos) {
                    out.add(
                        self.level,
                        reading(
                            Action::EscapedCloseKey,
                            Some(RepairKind::EscapedString),
                            cost::COMMENT,
                            end,
                            Mode::Colon,
                        ),
                    );
                }
            }
            Token::Word { .. } | Token::Number { .. } => self.bare_key(out, pos),
            Token::Close(Kind::Object) => self.key_close(out, stack, pos, after_comma),
            Token::RParen
                if stack.top() == Some(Kind::Object) && stack.below() == Some(Kind::Call) =>
            {
                self.close_keywords(out, stack, pos)
            }
            Token::Close(kind) => self.wrong_closer(out, stack, kind, pos, here),
            Token::Comma => out.add(
                self.level,
                reading(
                    Action::ExtraPunctuation,
                    Some(RepairKind::ExtraComma),
                    cost::EXTRA_PUNCTUATION,
                    pos + 1,
                    Mode::Key { after_comma: true },
                ),
            ),
            Token::Open(open) => self.key_open(out, stack, open, pos, after_comma),
            Token::Ellipsis { end } => out.add(
                self.level,
                reading(
                    Action::Ellipsis,
                    Some(RepairKind::Ellipsis),
                    cost::ELLIPSIS,
                    end,
                    here,
                ),
            ),
            Token::Colon => {}
            Token::Other { len } => {
                let c = self.b()[pos];
                if c >= 0x80 || c.is_ascii_alphanumeric() {
                    self.bare_key(out, pos);
                }
                self.garbage(out, pos, len, here);
            }
            _ => self.garbage(out, pos, 1, here),
        }
    }

    /// `}` where a key is due: the object closes (a comma before it was a trailing one).
    fn key_close(&self, out: &mut Readings, stack: &dyn Stack, pos: usize, after_comma: bool) {
        let (kind, cost) = if after_comma {
            (Some(RepairKind::TrailingComma), cost::TRAILING_COMMA)
        } else {
            (None, 0)
        };
        let cost = cost + self.misaligned_close(stack, pos);
        out.add(
            self.level,
            reading(
                Action::Close,
                kind,
                cost,
                pos + 1,
                after_close(stack.depth() - 1),
            )
            .pop(1),
        );
    }

    /// `)` ends a call's keyword arguments: their object closes here, and the `)` closes the
    /// call next.
    fn close_keywords(&self, out: &mut Readings, stack: &dyn Stack, pos: usize) {
        out.add(
            self.level,
            reading(
                Action::CloseKeywords,
                None,
                0,
                pos,
                after_close(stack.depth() - 1),
            )
            .pop(1),
        );
    }

    /// `{` or `[` where a key is due: in a list, the object lost its `}` and this is the list's
    /// next item; `{{` is an opener too many; else a stray mark.
    fn key_open(
        &self,
        out: &mut Readings,
        stack: &dyn Stack,
        open: Kind,
        pos: usize,
        after_comma: bool,
    ) {
        if stack.below() == Some(Kind::Array) {
            self.lost_closer(
                out,
                Action::CloseObjectBeforeItem,
                pos,
                Mode::Value { after_comma: true },
            );
        }
        if open == Kind::Object && !after_comma {
            out.add(
                self.level,
                reading(
                    Action::ExtraOpener,
                    Some(RepairKind::ExtraOpener),
                    cost::EXTRA_PUNCTUATION,
                    pos + 1,
                    Mode::Key { after_comma: false },
                )
                .push(Kind::Object),
            );
        }
        self.garbage(out, pos, 1, Mode::Key { after_comma });
    }

    pub(super) fn bare_key(&self, out: &mut Readings, pos: usize) {
        let lex = &self.lex;
        let b = self.b();
        let (key_end, stop) = lex.bare_key(pos);
        if key_end == pos {
            return;
        }
        // The reply ended inside a bare key, or right after one that lost its opening quote
        // (`{"a": 1, summary"`: a key, not a key, a lost colon and a string cut at its start).
        let after_quote =
            (stop == key_end && b.get(stop) == Some(&b'"')).then(|| lex.skip_trivia(stop + 1).0);
        if let Some(cut) = [Some(stop), after_quote]
            .into_iter()
            .flatten()
            .find(|&k| lex.at_end(k))
        {
            out.add(
                self.level,
                reading(
                    Action::BareKey,
                    Some(RepairKind::DroppedTruncatedMember),
                    cost::CUT_TOKEN,
                    cut,
                    Mode::Colon,
                ),
            );
            return;
        }
        let known = self.key_cost(&lex.text[pos..key_end]);
        // `{a":"x"}`: the key lost its opening quote only.
        if let Some(j) = after_quote {
            if j < lex.end && (b[j] == b':' || b[j..lex.end].starts_with(&WIDE_COLON)) {
                out.add(
                    self.level,
                    reading(
                        Action::BareKey,
                        Some(RepairKind::UnquotedKey),
                        cost::MISSING_END_QUOTE + known,
                        stop + 1,
                        Mode::Colon,
                    ),
                );
                return;
            }
        }
        out.add(
            self.level,
            reading(
                Action::BareKey,
                Some(RepairKind::UnquotedKey),
                known,
                key_end,
                Mode::Colon,
            )
            .styled(style::BARE_KEYS),
        );
    }

    /// What the schema thinks of a key: [`cost::UNKNOWN_KEY`] when it names every key it
    /// allows and not this one.
    pub(crate) fn key_cost(&self, key: &str) -> Cost {
        match self.schema {
            Some(schema) if schema.knows_key(key) == Some(false) => cost::UNKNOWN_KEY,
            _ => 0,
        }
    }

    /// The key that ends just before `pos` (blanks aside) is the first thing in its object:
    /// `{'red'` before a `,` is the first item of a set. A quoted key is walked back to its
    /// opening quote, a number over its digits (within the window).
    fn first_key_before(&self, pos: usize) -> bool {
        self.first_item_before(pos, b'{')
    }

    /// The string or number that ends just before `pos` (blanks aside) opens the container
    /// whose opener is `opener`.
    fn first_item_before(&self, pos: usize, opener: u8) -> bool {
        let b = self.b();
        let floor = pos.saturating_sub(cost::WINDOW);
        let mut k = pos;
        while k > floor && is_ws(b[k - 1]) {
            k -= 1;
        }
        if k == floor {
            return false;
        }
        let last = b[k - 1];
        if matches!(last, b'"' | b'\'') {
            k -= 1;
            loop {
                if k == floor {
                    return false;
                }
                k -= 1;
                if b[k] == last && (k == 0 || b[k - 1] != b'\\') {
                    break;
                }
            }
        } else if last.is_ascii_digit() {
            // A set of numbers (`{1, 2, 3}`); a bare word is no Python value.
            let end = k;
            while k > floor && (b[k - 1].is_ascii_digit() || matches!(b[k - 1], b'.' | b'-')) {
                k -= 1;
            }
            if self.lex.number_end(k) != Some(end) {
                return false;
            }
        } else {
            return false;
        }
        while k > floor && is_ws(b[k - 1]) {
            k -= 1;
        }
        k > 0 && b[k - 1] == opener
    }

    /// After the first item of a set and its comma, at `i`: another item follows, itself
    /// followed by `,` or `}` (`{'a', 'b'}`), not a key and its colon (`{"a", "b": 1}`).
    fn set_goes_on(&self, i: usize) -> bool {
        let lex = &self.lex;
        let b = self.b();
        let (q, _) = lex.skip_trivia(i);
        if lex.at_end(q) {
            return false;
        }
        let item_end = match lex.token_at(q) {
            Token::Quote(class, len) => {
                let limit = lex.end.min(q + cost::WINDOW);
                let mut e = q + len;
                loop {
                    if e >= limit || b[e] == b'\n' {
                        return false;
                    }
                    if b[e] == b'\\' {
                        e += 2;
                        continue;
                    }
                    if let Some(l) = class.closer_at(b, e) {
                        break e + l;
                    }
                    e += 1;
                }
            }
            Token::Number { end } => end,
            _ => return false,
        };
        let (after, _) = lex.skip_trivia(item_end);
        after < lex.end
            && (matches!(b[after], b',' | b'}') || b[after..lex.end].starts_with(&WIDE_COMMA))
    }

    pub(super) fn colon(&self, out: &mut Readings, stack: &dyn Stack, tok: Token, pos: usize) {
        let level = self.level;
        let value = Mode::Value { after_comma: false };
        // `"weight">2.5`, `"weight" -> 2.5`: an arrow for the colon.
        let arrow = match self.b().get(pos..pos + 2) {
            Some([b'-', b'>', ..]) => 2,
            Some([b'>', c]) if *c != b'=' => 1,
            _ => 0,
        };
        if arrow > 0 {
            out.add(
                level,
                reading(
                    Action::ColonLike,
                    Some(RepairKind::MissingColon),
                    0,
                    pos + arrow,
                    value,
                )
                .styled(style::EQUALS_COLON),
            );
            return;
        }
        match tok {
            Token::Colon => out.add(level, reading(Action::Colon, None, 0, pos + 1, value)),
            // `{"名前"："花子"}`: a CJK model's full-width colon.
            Token::WideColon => out.add(
                level,
                reading(
                    Action::ColonLike,
                    Some(RepairKind::FullwidthPunctuation),
                    0,
                    pos + 3,
                    value,
                )
                .styled(style::FULLWIDTH),
            ),
            // `{'red', 'blue'}`: the first "key" of a Python set.
            Token::Comma | Token::Close(Kind::Object)
                if stack.top() == Some(Kind::Object)
                    && self.first_key_before(pos)
                    && (tok != Token::Comma || self.set_goes_on(pos + 1)) =>
            {
                out.add(
                    level,
                    reading(
                        Action::SetItem,
                        Some(RepairKind::PythonLiteral),
                        0,
                        pos,
                        Mode::Next { after_string: true },
                    )
                    .pop(1)
                    .push(Kind::Set)
                    .styled(style::FOREIGN_LITERALS),
                )
            }
            // `{"a" = 1}`, `{"a" => 1}`: another language's `:`.
            Token::Other { .. } if self.b()[pos] == b'=' => {
                let len = if self.b().get(pos + 1) == Some(&b'>') {
                    2
                } else {
                    1
                };
                // Another language's convention: charged once per document, like a quote style.
                out.add(
                    level,
                    reading(
                        Action::ColonLike,
                        Some(RepairKind::MissingColon),
                        0,
                        pos + len,
                        value,
                    )
                    .styled(style::EQUALS_COLON),
                )
            }
            Token::Quote(..) | Token::Open(_) | Token::Number { .. } | Token::Word { .. } => out
                .add(
                    level,
                    reading(
                        Action::MissingColon,
                        Some(RepairKind::MissingColon),
                        cost::MISSING_COLON,
                        pos,
                        value,
                    ),
                ),
            _ => {}
        }
    }

    /// Where an item has been read: a comma, the closer, or what a missing comma, a lost closer
    /// or a stray mark would explain.
    pub(super) fn next(
        &self,
        out: &mut Readings,
        stack: &dyn Stack,
        tok: Token,
        pos: usize,
        after_string: bool,
    ) {
        let top = stack.top();
        let here = Mode::Next { after_string };
        let Some(kind) = top else {
            return self.next_at_root(out, tok, pos, after_string);
        };
        match tok {
            Token::Comma if kind == Kind::Call => self.garbage(out, pos, 1, here),
            Token::Comma => self.next_comma(out, kind, pos + 1, None),
            // `"花子"，"年齢"`: a CJK model's full-width comma.
            Token::WideComma if kind != Kind::Call => {
                self.next_comma(out, kind, pos + WIDE_COMMA.len(), Some(style::FULLWIDTH));
            }
            Token::Close(closer) if kind.closed_by(closer) => {
                self.next_close(out, stack, pos, here)
            }
            Token::Close(closer) => self.wrong_closer(out, stack, closer, pos, here),
            Token::RParen if kind == Kind::Object && stack.below() == Some(Kind::Call) => {
                self.close_keywords(out, stack, pos)
            }
            Token::RParen if matches!(kind, Kind::Call | Kind::Tuple) => out.add(
                self.level,
                reading(
                    Action::CloseCall,
                    None,
                    0,
                    pos + 1,
                    after_close(stack.depth() - 1),
                )
                .pop(1),
            ),
            Token::Colon | Token::WideColon => self.next_colon(out, stack, tok, pos, after_string),
            Token::Other { .. } if self.equals_colon_at(pos) => {
                self.next_colon(out, stack, tok, pos, after_string);
            }
            Token::Plus if after_string => {
                let (j, _) = self.lex.skip_trivia(pos + 1);
                if QuoteClass::opening_at(self.b(), j).is_some() {
                    self.concatenate(out, j);
                }
                self.garbage(out, pos, 1, here);
            }
            Token::Ellipsis { end } => out.add(
                self.level,
                reading(
                    Action::Ellipsis,
                    Some(RepairKind::Ellipsis),
                    cost::ELLIPSIS,
                    end,
                    here,
                ),
            ),
            Token::Quote(..) | Token::Open(_) | Token::Number { .. } | Token::Word { .. }
                if kind != Kind::Call =>
            {
                self.missing_comma(out, kind, pos);
                if let Token::Word { end } = tok {
                    self.garbage(out, pos, end - pos, here);
                }
            }
            Token::Other { len } if kind != Kind::Call && starts_text(self.b()[pos]) => {
                self.missing_comma(out, kind, pos);
                self.garbage(out, pos, len, here);
            }
            Token::Other { len } => self.garbage(out, pos, len, here),
            _ => self.garbage(out, pos, 1, here),
        }
    }

    /// After a top-level value: a string's concatenation (`"a" + "b"`), or the end of the value.
    fn next_at_root(&self, out: &mut Readings, tok: Token, pos: usize, after_string: bool) {
        if tok == Token::Plus && after_string {
            let (j, _) = self.lex.skip_trivia(pos + 1);
            self.concatenate(out, j);
        } else {
            out.add(
                self.level,
                reading(Action::EndOfValue, None, 0, pos, Mode::ScalarDone),
            );
        }
    }

    /// `"a" + "b"`: the next string, at `j`, joins the one read.
    fn concatenate(&self, out: &mut Readings, j: usize) {
        out.add(
            self.level,
            reading(
                Action::Concatenate,
                Some(RepairKind::ConcatenatedStrings),
                cost::CONCATENATION,
                j,
                Mode::Value { after_comma: false },
            ),
        );
    }

    /// A comma (ASCII, or full-width with its convention's `style`) ending at `end`: the next
    /// key or item follows.
    fn next_comma(&self, out: &mut Readings, kind: Kind, end: usize, style: Option<u16>) {
        let mut read = reading(
            Action::Comma,
            style.map(|_| RepairKind::FullwidthPunctuation),
            0,
            end,
            after_comma_in(kind),
        );
        if let Some(style) = style {
            read = read.styled(style);
        }
        out.add(self.level, read);
    }

    /// The container's own closer. When the reply goes on with `, …` after it, the closer may
    /// be a stray one in the middle of it (`{"b": 1}}, "c": 2}`, `[{"id": 1}},`).
    fn next_close(&self, out: &mut Readings, stack: &dyn Stack, pos: usize, here: Mode) {
        let depth = stack.depth();
        let (j, _) = self.lex.skip_trivia(pos + 1);
        let b = self.b();
        let end = self.lex.end;
        // After the root's closer, a comma followed by words of prose (`}, filled in: {…}`,
        // `}, the output is: {…}`) ends the document: the sentence is not a member.
        let prose_follows = depth == 1 && j < end && b[j] == b',' && {
            let (k, _) = self.lex.skip_trivia(j + 1);
            self.lex.prose_words_at(k)
        };
        let goes_on = j < end
            && !prose_follows
            && (b[j] == b','
                || b[j..end].starts_with(&WIDE_COMMA)
                || (depth == 1 && (b[j] == b':' || b[j..end].starts_with(&WIDE_COLON))));
        let misaligned = self.misaligned_close(stack, pos);
        out.add(
            self.level,
            reading(
                Action::Close,
                None,
                misaligned,
                pos + 1,
                after_close(depth - 1),
            )
            .pop(1),
        );
        if goes_on {
            out.add(
                self.level,
                reading(
                    Action::StrayCloser,
                    Some(RepairKind::ExtraCloser),
                    cost::STRAY_CLOSER,
                    pos + 1,
                    here,
                ),
            );
            // `[…], "x", "y", "z"], [` in a list of rows: the last row lost its `[`.
            if stack.top() == Some(Kind::Array) && b[pos] == b']' && self.row_lost_opener(pos, j) {
                out.add(
                    self.level,
                    reading(
                        Action::RegroupRow,
                        Some(RepairKind::MissingOpener),
                        0,
                        pos + 1,
                        here,
                    ),
                );
            }
        }
    }

    /// The `]` at `pos` (a comma at `comma`, then `[`) ends a row whose `[` was lost: the items
    /// before it since the list's last row are scalars, as many as that row holds. Bounded to
    /// the window before `pos`.
    fn row_lost_opener(&self, pos: usize, comma: usize) -> bool {
        let b = self.b();
        if b.get(comma) != Some(&b',') {
            return false;
        }
        let (next, _) = self.lex.skip_trivia(comma + 1);
        if b.get(next) != Some(&b'[') {
            return false;
        }
        let floor = pos.saturating_sub(cost::WINDOW);
        // The scalars since the previous row's `]` (no bracket among them).
        let Some(prev_close) = (floor..pos)
            .rev()
            .find(|&k| matches!(b[k], b'[' | b']' | b'{' | b'}'))
        else {
            return false;
        };
        if b[prev_close] != b']' {
            return false;
        }
        let Some(prev_open) = (floor..prev_close)
            .rev()
            .find(|&k| matches!(b[k], b'[' | b']' | b'{' | b'}'))
        else {
            return false;
        };
        if b[prev_open] != b'[' {
            return false;
        }
        let row = items_in(&b[prev_open + 1..prev_close]);
        let after_row = self.lex.skip_trivia(prev_close + 1).0;
        if b.get(after_row) != Some(&b',') {
            return false;
        }
        let run = items_in(&b[after_row + 1..pos]);
        row >= 2 && run == row
    }

    /// A colon after an item: `"risks": [` after a list's string item means the list lost its
    /// closer and this is the next member of the object around it. So with `：` or another
    /// language's `=` (`'risks' = [`), which the colon then reads (and charges) as at any key.
    fn next_colon(
        &self,
        out: &mut Readings,
        stack: &dyn Stack,
        tok: Token,
        pos: usize,
        after_string: bool,
    ) {
        if after_string && stack.top() == Some(Kind::Array) && stack.below() == Some(Kind::Object) {
            self.lost_closer(out, Action::CloseArrayBeforeMember, pos, Mode::Colon);
        }
        // `["lang": "pt", "level": "B2"]`: an object in brackets (its `]` then pays as a
        // closer of the wrong kind).
        if after_string && stack.top() == Some(Kind::Array) && self.first_item_before(pos, b'[') {
            out.add(
                self.level,
                reading(
                    Action::ObjectFromFirstItem,
                    Some(RepairKind::MismatchedCloser),
                    cost::ODD_NUMBER,
                    pos,
                    Mode::Colon,
                )
                .pop(1)
                .push(Kind::Object),
            );
        }
        let len = match tok {
            Token::Other { len } => len,
            Token::WideColon => WIDE_COLON.len(),
            _ => 1,
        };
        self.garbage(out, pos, len, Mode::Next { after_string });
    }

    /// The open container lost its closer just before `pos`: it closes there, and what follows
    /// is read in `next` mode by the container around it.
    fn lost_closer(&self, out: &mut Readings, action: Action, pos: usize, next: Mode) {
        out.add(
            self.level,
            reading(
                action,
                Some(RepairKind::MissingCloser),
                cost::MISSING_CLOSER,
                pos,
                next,
            )
            .pop(1),
        );
    }

    /// The next key or item starts at `pos` with no comma before it. A word glued to the
    /// quote that would have closed the string before it (`console.log("total:", n)` read as
    /// `"…log("` then `total:`) is rarely a new member: a model that drops a comma keeps the
    /// blank or the line break; the quote more likely opens a quoted span in text.
    fn missing_comma(&self, out: &mut Readings, kind: Kind, pos: usize) {
        let b = self.b();
        // Unless the word is a key with its own closing quote (`…cher"rating": 4`: a string
        // cut short, then a key that lost its opening quote).
        let glued = pos > 0
            && b[pos - 1] == b'"'
            && b.get(pos)
                .is_some_and(|c| c.is_ascii_alphabetic() || *c >= 0x80)
            && {
                let (key_end, _) = self.lex.bare_key(pos);
                !(b.get(key_end) == Some(&b'"')
                    && self.lex.next_is_colon(key_end + 1, self.lex.end))
            };
        out.add(
            self.level,
            reading(
                Action::MissingComma,
                Some(RepairKind::MissingComma),
                cost::MISSING_COMMA + if glued { cost::LOOSE_TEXT_QUOTE } else { 0 },
                pos,
                after_comma_in(kind),
            ),
        );
    }
}

/// How many items a bracket-free run of scalars holds: commas outside double quotes, plus one
/// (none when it is blank).
fn items_in(run: &[u8]) -> usize {
    if run.iter().all(|c| c.is_ascii_whitespace()) {
        return 0;
    }
    let mut quoted = false;
    let mut escaped = false;
    let mut commas = 0;
    for &c in run {
        match c {
            _ if escaped => escaped = false,
            b'\\' if quoted => escaped = true,
            b'"' => quoted = !quoted,
            b',' if !quoted => commas += 1,
            _ => {}
        }
    }
    commas + 1
}

/// `name=` (not `==`) at `pos`: a keyword argument.
pub(crate) fn keyword_at(b: &[u8], pos: usize, end: usize) -> bool {
    let mut k = pos;
    while k < end && (b[k].is_ascii_alphanumeric() || b[k] == b'_') {
        k += 1;
    }
    while k < end && b[k] == b' ' {
        k += 1;
    }
    k > pos
        && b[pos].is_ascii_alphabetic()
        && b.get(k) == Some(&b'=')
        && !matches!(b.get(k + 1), Some(b'=' | b'>'))
}

/// What a comma leads to inside a container of `kind`: a key in an object, an item elsewhere.
fn after_comma_in(kind: Kind) -> Mode {
    if kind == Kind::Object {
        Mode::Key { after_comma: true }
    } else {
        Mode::Value { after_comma: true }
    }
}
