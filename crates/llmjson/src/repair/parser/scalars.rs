//! Scalars: numbers (exact digits, normalised when JSON does not allow them as written),
//! literals (JSON's, Python's, JavaScript's), bare words used as values or keys, and what the
//! truncation policy does with a scalar the reply's end cut off.

use super::{Fail, Parser, Result};
use crate::repair::grammar::{Mode, Reading};
use crate::repair::lex::Kind;
use crate::repair::RepairKind;
use crate::value::{Number, Value};
use crate::Truncation;
use std::borrow::Cow;
use std::str::FromStr;

fn make_number(raw: &str) -> Value {
    match Number::from_str(raw) {
        Ok(n) => Value::Number(n),
        Err(_) => Value::String(raw.to_string()),
    }
}

/// A bare word as a value: its literal, or the word as a string.
pub(super) fn literal_or_string(word: String) -> Value {
    literal_value(&word).unwrap_or(Value::String(word))
}

fn literal_value(word: &str) -> Option<Value> {
    crate::spelling::literal(word).map(Value::from)
}

impl Parser<'_> {
    /// A scalar inside a container that reaches the region's end may have been cut: under the
    /// `drop` policy it is not kept.
    fn cut_and_dropped(&self, end: usize) -> bool {
        self.cfg.truncation.drops() && !self.state.frames.is_empty() && self.lex().at_end(end)
    }

    pub(super) fn number(&mut self, at: usize, s: Reading) -> Result<Mode> {
        let shape = self.lex().number_shape(at);
        let end = shape.end;
        let raw = &self.text[at..end];
        self.state.pos = end;
        if self.cut_and_dropped(end) {
            self.drop_truncated_value(at)?;
            return Ok(s.mode);
        }
        let b = self.b;
        if shape.leading_zero(b) {
            self.repair(
                RepairKind::NumberAsString,
                at,
                end,
                "leading zeros: kept as a string",
            )?;
            self.emit(Value::String(raw.to_string()))?;
            return Ok(s.mode);
        }
        if shape.is_valid(b) {
            self.emit(make_number(raw))?;
            return Ok(s.mode);
        }
        // Leading zeros were kept as a string above.
        let fixed = shape.as_json(self.text).unwrap_or_else(|| raw.to_string());
        let at_eof = self.lex().at_end(end);
        let cut_off = at_eof
            && (shape.no_digits() || shape.frac_digits == Some(0) || shape.exp_digits == Some(0));
        if cut_off {
            let raw = raw.to_string();
            return self.truncated_scalar(at, &raw, Some(make_number(&fixed)), s.mode);
        }
        self.repair(
            RepairKind::InvalidNumber,
            at,
            end,
            format!("'{raw}' became {fixed}"),
        )?;
        self.emit(make_number(&fixed))?;
        Ok(s.mode)
    }

    /// `1,299.99`, `250_000`, `−12.5`: the separators dropped, the typographic minus made
    /// JSON's, the digits kept.
    pub(super) fn grouped_number(&mut self, at: usize, s: Reading) -> Result<Mode> {
        let raw = &self.text[at..s.pos];
        let digits = crate::spelling::numbers::unspelled(raw);
        self.state.pos = s.pos;
        if self.cut_and_dropped(s.pos) {
            self.drop_truncated_value(at)?;
            return Ok(s.mode);
        }
        let detail = format!("'{raw}' became {digits}");
        self.repair(RepairKind::InvalidNumber, at, s.pos, detail)?;
        self.emit(make_number(&digits))?;
        Ok(s.mode)
    }

    /// `true`, `None`, `undefined`, `-Infinity`, or the start of one cut off by the end.
    pub(super) fn literal(&mut self, at: usize, s: Reading) -> Result<Mode> {
        let word = &self.text[at..s.pos];
        self.state.pos = s.pos;
        if let Some(spelling) = crate::spelling::literal(word) {
            if let Some(kind) = s.kind {
                self.repair(kind, at, s.pos, spelling.read_as)?;
            }
            self.emit(Value::from(spelling))?;
            return Ok(s.mode);
        }
        let completed = crate::spelling::completing(word).map(Value::from);
        let word = word.to_string();
        self.truncated_scalar(at, &word, completed, s.mode)
    }

    /// A number or literal cut off by the end of the reply.
    fn truncated_scalar(
        &mut self,
        start: usize,
        raw: &str,
        completed: Option<Value>,
        mode: Mode,
    ) -> Result<Mode> {
        match (self.cfg.truncation, completed) {
            (Truncation::Complete, Some(value)) => {
                let detail = format!("'{raw}' became {value}");
                self.repair(
                    RepairKind::CompletedTruncatedValue,
                    start,
                    self.state.pos,
                    detail,
                )?;
                self.emit(value)?;
            }
            _ => {
                if !self.allowed(RepairKind::CompletedTruncatedValue) {
                    return Err(Fail::Syntax {
                        offset: start,
                        message: Cow::Borrowed(RepairKind::CompletedTruncatedValue.defect()),
                        truncated: true,
                    });
                }
                self.drop_truncated_value(start)?;
            }
        }
        Ok(mode)
    }

    /// Under the `drop` policy a value cut off is removed with its key.
    pub(super) fn drop_truncated_value(&mut self, value_at: usize) -> Result<()> {
        let start = match self.state.frames.last() {
            Some(f) if f.kind == Kind::Object && f.key.is_some() => f.key_at,
            Some(_) => value_at,
            None => {
                return Err(Fail::Syntax {
                    offset: value_at,
                    message: Cow::Borrowed("the only value was cut off"),
                    truncated: true,
                })
            }
        };
        let end = self.end();
        self.repair(
            RepairKind::DroppedTruncatedMember,
            start,
            end,
            "the value was cut off",
        )?;
        if let Some(frame) = self.state.frames.last_mut() {
            frame.key = None;
        }
        Ok(())
    }

    /// Bare text used as a string value: to the next delimiter or line end.
    pub(super) fn unquoted_value(&mut self, at: usize, s: Reading) -> Result<Mode> {
        let in_call = self.state.kinds.last() == Some(&Kind::Call);
        let raw_end = self.lex().unquoted_value_end(at, in_call);
        let text = self.text[at..raw_end].trim_end();
        let end = at + text.len();
        self.state.pos = s.pos;
        if self.cut_and_dropped(raw_end) {
            self.drop_truncated_value(at)?;
            return Ok(s.mode);
        }
        let value = text.to_string();
        self.repair(RepairKind::UnquotedString, at, end, "quoted")?;
        if s.pos > raw_end {
            self.repair(RepairKind::MissingStartQuote, at, s.pos, "added")?;
        }
        self.emit(Value::String(value))?;
        Ok(s.mode)
    }

    /// `'K' a judicial officer"`: the string before the `"` that ends at the reading's end.
    pub(super) fn quote_lost_value(&mut self, at: usize, s: Reading) -> Result<Mode> {
        let value = self.text[at..s.pos - 1].to_string();
        self.state.pos = s.pos;
        self.repair(RepairKind::MissingStartQuote, at, at, "added")?;
        self.emit(Value::String(value))?;
        Ok(s.mode)
    }

    /// A measure written without quotes (`1,82 m`): the string up to the reading's end.
    pub(super) fn measured_value(&mut self, at: usize, s: Reading) -> Result<Mode> {
        let value = self.text[at..s.pos].to_string();
        self.state.pos = s.pos;
        self.repair(RepairKind::UnquotedString, at, s.pos, "quoted")?;
        self.emit(Value::String(value))?;
        Ok(s.mode)
    }

    /// `"args\":`: the key between the quote at `at` and the escaped quote that ends before
    /// `s.pos`.
    pub(super) fn escaped_close_key(&mut self, at: usize, s: Reading) -> Result<Mode> {
        let key_end = s.pos - 2;
        let key = self.text[at + 1..key_end].to_string();
        self.state.pos = s.pos;
        self.repair_at_key(
            &key,
            RepairKind::EscapedString,
            key_end,
            s.pos,
            "an escaped quote closed the key",
        )?;
        if let Some(frame) = self.state.frames.last_mut() {
            frame.key = Some(key);
            frame.key_at = at;
            frame.key_end = s.pos;
        }
        Ok(s.mode)
    }

    /// An object key without quotes: `{name: "x"}`, `{2: 1}`, `{first name: "x"}`.
    pub(super) fn bare_key(&mut self, at: usize, s: Reading) -> Result<Mode> {
        let (key_end, stop) = self.lex().bare_key(at);
        self.state.pos = s.pos;
        if s.kind == Some(RepairKind::DroppedTruncatedMember) {
            self.repair(
                RepairKind::DroppedTruncatedMember,
                at,
                stop,
                "a key cut off",
            )?;
            return Ok(s.mode);
        }
        let key = self.text[at..key_end].trim_end().to_string();
        self.repair_at_key(&key, RepairKind::UnquotedKey, at, key_end, "quoted")?;
        if s.pos > key_end {
            // `{a":"x"}`: the key lost its opening quote only.
            self.repair_at_key(&key, RepairKind::MissingStartQuote, at, s.pos, "added")?;
        }
        if let Some(frame) = self.state.frames.last_mut() {
            frame.key = Some(key);
            frame.key_at = at;
            frame.key_end = key_end;
        }
        Ok(s.mode)
    }
}
