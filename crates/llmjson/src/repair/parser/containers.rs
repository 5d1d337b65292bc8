//! Applying a chosen reading: containers (open, close, the closer readings), commas and
//! colons, and the readings about the document as a whole (it ends here, it restarts here, the
//! input ended).

use super::{Fail, Frame, Parser, Partial, Result};
use crate::repair::grammar::{Action, Mode, Reading};
use crate::repair::lex::{is_ws, Kind};
use crate::repair::RepairKind;
use crate::value::{Map, Value};
use crate::{DuplicateKeys, RepairLevel, Truncation};
use std::borrow::Cow;

/// Where the quoted string that ends just before `at` (blanks aside) starts: the key of
/// `["a", "b": 1` is the array's last item. `at` itself when no quote ends there.
fn quoted_start_before(b: &[u8], at: usize) -> usize {
    let mut k = at.min(b.len());
    while k > 0 && is_ws(b[k - 1]) {
        k -= 1;
    }
    if k == 0 || b[k - 1] != b'"' {
        return at;
    }
    let floor = k.saturating_sub(1 + crate::repair::cost::WINDOW);
    (floor..k - 1)
        .rev()
        .find(|&i| b[i] == b'"' && (i == 0 || b[i - 1] != b'\\'))
        .unwrap_or(at)
}

/// How far back among an object's keys a duplicate's earlier member is looked for.
const DUPLICATE_LOOKBACK: usize = 256;

fn closer_text(kind: Kind) -> &'static str {
    match kind {
        Kind::Object | Kind::Set => "added '}'",
        Kind::Array => "added ']'",
        Kind::Call | Kind::Tuple => "added ')'",
    }
}

impl Parser<'_> {
    /// Applies reading `s` of the token at `at`; returns the mode that follows.
    pub(super) fn apply(&mut self, mode: Mode, at: usize, s: Reading) -> Result<Mode> {
        match s.action {
            Action::Open => {
                let kind = s.push.ok_or(Fail::Internal("open without a kind"))?;
                self.open(kind, at)?;
                self.state.pos = s.pos;
            }
            Action::OpenString => return self.string_token(at, s),
            Action::Number => return self.number(at, s),
            Action::GroupedNumber => return self.grouped_number(at, s),
            Action::OpenTuple => {
                self.repair(
                    RepairKind::PythonLiteral,
                    at,
                    at + 1,
                    "a tuple became a list",
                )?;
                self.open(Kind::Tuple, at)?;
                self.state.pos = s.pos;
            }
            Action::ColonLike => {
                let what = &self.text[at..s.pos];
                self.repair(
                    s.kind.unwrap_or(RepairKind::MissingColon),
                    at,
                    s.pos,
                    format!("'{what}' read as ':'"),
                )?;
                self.state.pos = s.pos;
            }
            Action::SetItem => self.set_from_first_key(at)?,
            Action::Literal => return self.literal(at, s),
            Action::UnquotedValue => return self.unquoted_value(at, s),
            Action::MeasuredValue => return self.measured_value(at, s),
            Action::QuoteLostValue => return self.quote_lost_value(at, s),
            Action::EscapedCloseKey => return self.escaped_close_key(at, s),
            Action::BareKey => return self.bare_key(at, s),
            Action::FunctionWrapper => {
                let name = &self.text[at..s.pos - 1];
                let detail = format!("removed '{name}(…)'");
                self.repair(RepairKind::FunctionWrapper, at, s.pos, detail)?;
                self.open(Kind::Call, at)?;
                self.state.pos = s.pos;
            }
            Action::StrayQuote => {
                self.repair(
                    RepairKind::DroppedGarbage,
                    at,
                    s.pos,
                    "a stray quote removed",
                )?;
                self.state.pos = s.pos;
            }
            Action::Colon => self.state.pos = s.pos,
            Action::EndOfValue => {}
            Action::Comma => {
                if let Some(kind) = s.kind {
                    self.repair(kind, at, s.pos, "read as ','")?;
                }
                if let Some(frame) = self.state.frames.last_mut() {
                    frame.comma_at = at;
                }
                self.state.pos = s.pos;
            }
            Action::Close | Action::CloseCall => {
                if s.kind == Some(RepairKind::TrailingComma) {
                    self.log_trailing_comma()?;
                }
                self.state.pos = s.pos;
                if !self.close_parenthesised()? {
                    self.close_top()?;
                }
            }
            Action::Mismatched => {
                self.repair(
                    RepairKind::MismatchedCloser,
                    at,
                    at + 1,
                    "used as the right closer",
                )?;
                self.state.pos = s.pos;
                self.close_top()?;
            }
            Action::MissingCloser | Action::CloseObjectBeforeItem => {
                if let (Some(kind), Some(top)) = (s.kind, self.state.kinds.last().copied()) {
                    self.repair(kind, at, at, closer_text(top))?;
                }
                self.close_top()?;
            }
            Action::CloseArrayBeforeMember => self.close_array_before_member(at)?,
            Action::ObjectFromFirstItem => self.object_from_first_item(at)?,
            Action::RegroupRow => self.regroup_row(at, s.pos)?,
            Action::OpenKeywords => self.open(Kind::Object, at)?,
            Action::CloseKeywords => self.close_top()?,
            Action::StrayCloser => {
                self.repair(RepairKind::ExtraCloser, at, at + 1, "removed")?;
                self.state.pos = s.pos;
            }
            Action::ExtraOpener => {
                self.repair(RepairKind::ExtraOpener, at, at + 1, "removed")?;
                // The outer brace only passes the inner object through; it still closes at `}`.
                if let Some(frame) = self.state.frames.last_mut() {
                    frame.partial = Partial::Pass(None);
                }
                self.open(Kind::Object, at)?;
                self.state.pos = s.pos;
            }
            Action::ExtraPunctuation => {
                let kind = s.kind.unwrap_or(RepairKind::ExtraComma);
                self.repair(kind, at, s.pos, "removed")?;
                self.state.pos = s.pos;
            }
            Action::MissingValue => {
                self.repair(RepairKind::MissingValue, at, at, "used null")?;
                self.emit(Value::Null)?;
            }
            Action::EmptySlot => {
                if s.kind == Some(RepairKind::TrailingComma) {
                    self.log_trailing_comma()?;
                }
            }
            Action::MissingComma => self.repair(RepairKind::MissingComma, at, at, "added ','")?,
            Action::MissingColon => {
                self.repair(RepairKind::MissingColon, at, at, "added ':'")?;
                // `"title "'K' …`: the blank that ends the key stood where `": "` was.
                if let Some(key) = self.state.frames.last_mut().and_then(|f| f.key.as_mut()) {
                    let kept = key.trim_end_matches(' ').len();
                    if kept > 0 && at > 0 && self.b[at - 1] == b'"' && self.b[at] != b' ' {
                        key.truncate(kept);
                    }
                }
            }
            Action::Ellipsis => {
                self.repair(RepairKind::Ellipsis, at, s.pos, "removed")?;
                self.state.pos = s.pos;
            }
            Action::Garbage | Action::Concatenate => {
                self.repair(RepairKind::DroppedGarbage, at, s.pos.max(at + 1), "skipped")?;
                self.discard(at, s.pos);
                self.state.pos = s.pos.max(at + 1);
            }
            Action::EndHere => self.end_here(mode, at)?,
            Action::Restart => self.restart(s.pos)?,
            Action::EndOfInput => self.close_all_at_end(mode)?,
            Action::CloseString
            | Action::MixedClose
            | Action::TextQuote
            | Action::TextLineBreak
            | Action::SplitString
            | Action::CutString
            | Action::SplitBeforeClosers => {
                return Err(Fail::Internal("a string reading outside a string"))
            }
        }
        Ok(s.mode)
    }

    fn log_trailing_comma(&mut self) -> Result<()> {
        let at = self
            .state
            .frames
            .last()
            .map_or(self.state.pos, |f| f.comma_at);
        self.repair(RepairKind::TrailingComma, at, at + 1, "removed")
    }

    pub(super) fn open(&mut self, kind: Kind, at: usize) -> Result<()> {
        if self.state.frames.len() >= self.cfg.max_depth {
            return Err(Fail::TooDeep { offset: at });
        }
        let id = self.state.next_id;
        self.state.next_id = self.state.next_id.wrapping_add(1);
        let partial = match kind {
            Kind::Object => Partial::Object(Map::new()),
            Kind::Array => Partial::Array(Vec::new()),
            Kind::Call => Partial::Pass(None),
            Kind::Tuple | Kind::Set => Partial::Array(Vec::new()),
        };
        let member_spans = if kind == Kind::Object {
            self.state.spare_spans.pop().unwrap_or_default()
        } else {
            Vec::new()
        };
        self.state.frames.push(Frame {
            kind,
            partial,
            key: None,
            key_at: at,
            key_end: at,
            comma_at: at,
            id,
            member_spans,
            data_comment: false,
        });
        self.state.kinds.push(kind);
        self.state.opens.push(at);
        Ok(())
    }

    /// Hands a finished value to the enclosing container (or makes it the result).
    pub(super) fn emit(&mut self, value: Value) -> Result<()> {
        self.ctx.draft_values = self.ctx.draft_values.saturating_add(1);
        let policy = self.cfg.duplicate_keys;
        let value_end = self.state.pos;
        let Some(frame) = self.state.frames.last_mut() else {
            self.state.root = Some(value);
            return Ok(());
        };
        let duplicate = match &mut frame.partial {
            Partial::Array(items) => {
                items.push(value);
                None
            }
            Partial::Pass(slot) => {
                *slot = Some(value);
                None
            }
            Partial::Object(map) => {
                use crate::value::Entry;
                let key = frame.key.take().unwrap_or_default();
                let member = (frame.key_at, value_end.max(frame.key_end));
                // The earlier member's place, looked up from the end within a bound (a hostile
                // object with many keys stays linear; past the bound the entry spans the key).
                let earlier_index = map.contains_key(&key).then(|| {
                    map.keys()
                        .rev()
                        .take(DUPLICATE_LOOKBACK)
                        .position(|k| *k == key)
                        .map(|back| map.len() - 1 - back)
                });
                match map.entry(key) {
                    Entry::Vacant(slot) => {
                        slot.insert(value);
                        frame.member_spans.push(member);
                        None
                    }
                    Entry::Occupied(mut slot) => {
                        let key = slot.key().clone();
                        let earlier = earlier_index
                            .flatten()
                            .and_then(|i| frame.member_spans.get_mut(i));
                        // A value that differs from the one kept is data thrown away: the
                        // guard counts it (a misreading that merges two sibling objects drops
                        // the first one's values this way).
                        let differs = slot.get() != &value;
                        match policy {
                            // The log entry spans the member whose value was discarded.
                            DuplicateKeys::Last => {
                                slot.insert(value);
                                let discarded =
                                    earlier.map_or(member, |e| std::mem::replace(e, member));
                                Some((key, discarded, "kept the last value", differs))
                            }
                            DuplicateKeys::First => {
                                Some((key, member, "kept the first value", differs))
                            }
                            DuplicateKeys::Error => {
                                return Err(Fail::DuplicateKey {
                                    offset: frame.key_at,
                                    key,
                                })
                            }
                        }
                    }
                }
            }
        };
        if let Some((key, (from, to), detail, differs)) = duplicate {
            self.repair_at_key(&key, RepairKind::DuplicateKey, from, to, detail)?;
            if differs {
                self.discard(from, to);
            }
        }
        Ok(())
    }

    /// Closes the innermost frame and hands its value up.
    pub(super) fn close_top(&mut self) -> Result<()> {
        let partial = self.pop_frame()?;
        let value = match partial {
            Partial::Object(map) => Value::Object(map),
            Partial::Array(items) => Value::Array(items),
            Partial::Pass(slot) => slot.unwrap_or(Value::Null),
        };
        self.emit(value)
    }

    /// Removes the innermost frame (its member-span buffer goes back to the spares): what it
    /// held so far.
    fn pop_frame(&mut self) -> Result<Partial> {
        let frame = self
            .state
            .frames
            .pop()
            .ok_or(Fail::Internal("pop without frame"))?;
        self.state.kinds.pop();
        self.state.opens.pop();
        if frame.kind == Kind::Object {
            let mut spans = frame.member_spans;
            spans.clear();
            self.state.spare_spans.push(spans);
        }
        Ok(frame.partial)
    }

    /// The outermost array whose last element is a container the reply cut off: that element
    /// is discarded (logged as a dropped member over its text). Whether one was.
    fn drop_cut_element(&mut self) -> Result<bool> {
        let Some(array) = (0..self.state.frames.len().saturating_sub(1))
            .find(|&i| self.state.frames[i].kind.is_list())
        else {
            return Ok(false);
        };
        let element_at = self.state.opens[array + 1];
        while self.state.frames.len() > array + 1 {
            self.pop_frame()?;
        }
        // Repairs inside the element went with it: its one entry spans them all.
        self.state.log.retain(|r| r.start < element_at);
        let end = self.end();
        self.repair(
            RepairKind::DroppedTruncatedMember,
            element_at,
            end,
            "the element was cut off",
        )?;
        Ok(true)
    }

    /// `(5)` closed by its `)`: one item and no comma is a value in parentheses, not a tuple
    /// (Python's `(5)` is `5`; `(5,)` is a tuple). Whether it was one (and is now closed).
    fn close_parenthesised(&mut self) -> Result<bool> {
        let Some(frame) = self.state.frames.last() else {
            return Ok(false);
        };
        let open = self.state.opens.last().copied().unwrap_or(frame.key_at);
        let single = frame.kind == Kind::Tuple
            && frame.comma_at == open
            && matches!(&frame.partial, Partial::Array(items) if items.len() == 1);
        // An item commented out inside it (`(⏎  # "en",⏎  "failure"⏎)`) shows a tuple of more
        // than one: still a list.
        if !single || frame.data_comment {
            return Ok(false);
        }
        let Partial::Array(mut items) = self.pop_frame()? else {
            return Err(Fail::Internal("a tuple without items"));
        };
        let value = items.pop().unwrap_or(Value::Null);
        // The log said a tuple became a list at the `(`; it was parentheses.
        if let Some(entry) = self
            .state
            .log
            .iter_mut()
            .rev()
            .take(crate::repair::cost::WINDOW)
            .find(|r| r.start == open && r.kind == RepairKind::PythonLiteral)
        {
            entry.detail = Cow::Borrowed("parentheses around a value removed");
            entry.end = self.state.pos;
        }
        self.emit(value)?;
        Ok(true)
    }

    /// `{'red', 'blue'}`: the object was a Python set. It becomes a list (closed by `}`) whose
    /// first item is the "key" read so far: a string, or the number or literal a bare key spelled.
    fn set_from_first_key(&mut self, at: usize) -> Result<()> {
        let (open, key, key_at) = match self.state.frames.last_mut() {
            Some(frame) if frame.kind == Kind::Object => (
                frame.key_at,
                frame.key.take().unwrap_or_default(),
                frame.key_at,
            ),
            _ => return Err(Fail::Internal("a set without its object")),
        };
        let open = self.state.opens.last().copied().unwrap_or(open);
        self.pop_frame()?;
        self.repair(RepairKind::PythonLiteral, open, at, "a set became a list")?;
        self.open(Kind::Set, open)?;
        let quoted = crate::spelling::quotes::is_quote_at(self.b, key_at);
        let item = if quoted {
            Value::String(key)
        } else if let Ok(n) = key.parse::<crate::value::Number>() {
            Value::Number(n)
        } else {
            super::scalars::literal_or_string(key)
        };
        self.emit(item)
    }

    /// `{"a": [1, "b": 2}`: the array lacked `]` before `"b"`, which is the next member's key.
    fn close_array_before_member(&mut self, at: usize) -> Result<()> {
        self.repair(RepairKind::MissingCloser, at, at, "added ']'")?;
        let key = match self.state.frames.last_mut().map(|f| &mut f.partial) {
            Some(Partial::Array(items)) => match items.pop() {
                Some(Value::String(key)) => key,
                _ => return Err(Fail::Internal("no string item to use as a key")),
            },
            _ => return Err(Fail::Internal("no array to close")),
        };
        self.close_top()?;
        let frame = self
            .state
            .frames
            .last_mut()
            .ok_or(Fail::Internal("no object around the array"))?;
        frame.key = Some(key);
        frame.key_end = at;
        frame.key_at = quoted_start_before(self.b, at);
        Ok(())
    }

    /// `["lang": "pt"`: the array opened at its `[` is an object, its one item the first key.
    fn object_from_first_item(&mut self, at: usize) -> Result<()> {
        let open = self.state.opens.last().copied().unwrap_or(at);
        let key = match self.pop_frame()? {
            Partial::Array(mut items) if items.len() == 1 => match items.pop() {
                Some(Value::String(key)) => key,
                _ => return Err(Fail::Internal("no string item to use as a key")),
            },
            _ => return Err(Fail::Internal("no array of one item")),
        };
        self.repair(
            RepairKind::MismatchedCloser,
            open,
            open + 1,
            "'[' read as '{': the list holds members",
        )?;
        self.open(Kind::Object, open)?;
        let frame = self
            .state
            .frames
            .last_mut()
            .ok_or(Fail::Internal("no object opened"))?;
        frame.key = Some(key);
        frame.key_end = at;
        frame.key_at = quoted_start_before(self.b, at);
        Ok(())
    }

    /// `[…], "x", "y"]`: the scalars since the list's last container are a row whose `[` was
    /// lost; the `]` at `at` is that row's.
    fn regroup_row(&mut self, at: usize, end: usize) -> Result<()> {
        let Some(Partial::Array(items)) = self.state.frames.last_mut().map(|f| &mut f.partial)
        else {
            return Err(Fail::Internal("no list to regroup"));
        };
        let scalars = items
            .iter()
            .rev()
            .take_while(|v| !matches!(v, Value::Array(_) | Value::Object(_)))
            .count();
        let row = items.split_off(items.len() - scalars);
        items.push(Value::Array(row));
        self.repair(
            RepairKind::MissingOpener,
            at,
            end,
            "the items before ']' are a row whose '[' was lost",
        )?;
        self.state.pos = end;
        Ok(())
    }

    /// A key (and maybe its `:`) whose value never came.
    pub(super) fn drop_dangling_member(&mut self, what: &'static str, to: usize) -> Result<()> {
        let Some((key_at, true)) = self
            .state
            .frames
            .last()
            .map(|f| (f.key_at, f.key.is_some()))
        else {
            return Ok(());
        };
        self.repair(
            RepairKind::DroppedTruncatedMember,
            key_at,
            to.max(key_at),
            what,
        )?;
        if let Some(f) = self.state.frames.last_mut() {
            f.key = None;
        }
        Ok(())
    }

    /// Just after the last character written before `at` (not after whitespace).
    fn last_written(&self, at: usize) -> usize {
        let mut at = at.min(self.end());
        while at > self.state.start && is_ws(self.b[at - 1]) {
            at -= 1;
        }
        at
    }

    /// The JSON ends at `at`, its containers unclosed; what follows is prose.
    fn end_here(&mut self, mode: Mode, at: usize) -> Result<()> {
        let end = self.last_written(at);
        if matches!(mode, Mode::Value { .. }) && self.state.kinds.last() == Some(&Kind::Object) {
            self.drop_dangling_member("a key and ':' without a value", end)?;
        }
        while let Some(&kind) = self.state.kinds.last() {
            if kind != Kind::Call {
                self.repair(
                    RepairKind::MissingCloser,
                    end,
                    end,
                    match kind {
                        Kind::Object => "added '}' (the JSON ends here; prose follows)",
                        _ => "added ']' (the JSON ends here; prose follows)",
                    },
                )?;
            }
            self.close_top()?;
        }
        self.state.json_end = Some(end);
        Ok(())
    }

    /// Everything parsed so far was a draft the model abandoned: start again at `at`.
    fn restart(&mut self, at: usize) -> Result<()> {
        let draft = self.state.start;
        self.state.frames.clear();
        self.state.kinds.clear();
        self.state.opens.clear();
        self.state.root = None;
        self.state.log.clear();
        self.state.removed = 0;
        self.container_path = None;
        self.state.unlogged = 0;
        self.repair(
            RepairKind::AbandonedDraft,
            draft,
            at,
            "skipped a draft the reply abandoned",
        )?;
        self.state.start = at;
        self.ctx.doc_start = at;
        self.ctx.draft_values = 0;
        self.state.pos = at;
        Ok(())
    }

    /// The region ended: drop what has no value, close what is open.
    fn close_all_at_end(&mut self, mode: Mode) -> Result<()> {
        let top = self.state.kinds.last().copied();
        if top.is_none() && self.state.root.is_none() {
            return Err(Fail::Syntax {
                offset: self.state.pos,
                message: Cow::Borrowed("expected a JSON value"),
                truncated: self.state.pos > 0,
            });
        }
        let to = self.end();
        // Under `drop`, an array element the reply cut off is left out whole (seed 000: a plan
        // cut inside its last step keeps the complete steps only); the outermost such element.
        let dropped_element =
            self.cfg.truncation == Truncation::DropElement && self.drop_cut_element()?;
        let mode = if dropped_element {
            Mode::Next {
                after_string: false,
            }
        } else {
            mode
        };
        let top = self.state.kinds.last().copied();
        match (mode, top) {
            (Mode::Colon, _) => self.drop_dangling_member("a key without a value", to)?,
            (Mode::Value { .. }, Some(Kind::Object)) => {
                self.drop_dangling_member("a key and ':' without a value", to)?
            }
            // The reply stopped after a comma: at level `none` that is the end of input too.
            (Mode::Value { after_comma: true }, Some(Kind::Array))
            | (Mode::Key { after_comma: true }, _) => {
                self.log_trailing_comma().map_err(|fail| match fail {
                    Fail::Syntax {
                        offset, message, ..
                    } => Fail::Syntax {
                        offset,
                        message,
                        truncated: true,
                    },
                    other => other,
                })?
            }
            _ => {}
        }
        let open = self
            .state
            .kinds
            .iter()
            .filter(|&&k| k != Kind::Call)
            .count();
        if self.cfg.level == RepairLevel::Conservative && open > 1 {
            return Err(Fail::Syntax {
                offset: self.state.pos.min(self.end()),
                message: Cow::Owned(format!(
                    "unexpected end of input with {open} closing brackets missing \
                     (level conservative adds at most one)"
                )),
                truncated: true,
            });
        }
        let at = self.last_written(self.state.pos);
        while let Some(&kind) = self.state.kinds.last() {
            let logged = match kind {
                Kind::Object => Some((RepairKind::ClosedTruncatedObject, "added '}'")),
                Kind::Array | Kind::Tuple => Some((RepairKind::ClosedTruncatedArray, "added ']'")),
                Kind::Set => Some((RepairKind::ClosedTruncatedArray, "added '}'")),
                Kind::Call => None,
            };
            if let Some((kind, detail)) = logged {
                self.repair(kind, at, at, detail)?;
            }
            self.close_top()?;
        }
        Ok(())
    }
}
