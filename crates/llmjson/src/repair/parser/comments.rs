//! What a comment holds: prose (a note, an explanation, in any language and at any length) or
//! JSON data the model commented out (`// "age": 31,`, `/* 3, */`, `# "tags": ["a"],`). The
//! safety guard counts the second only (`GuardComments::Data`): removing prose loses nothing.
//!
//! A comment holds data when its text, read as the members of an object or the items of an
//! array, needs no repair but the conventions models write JSON in (single quotes, bare keys,
//! Python and JavaScript literals, a trailing comma, a container the comment cut off). Prose
//! does not read that way: its words become unquoted strings, missing colons or commas.

use super::{parse, Config, Parser, Result};
use crate::repair::RepairKind;
use crate::{DuplicateKeys, GuardComments, RepairLevel, Truncation};

/// Longest comment text read as data; past it the comment counts as data when it starts like
/// JSON (a quote, a bracket, a digit): reading megabytes of comment twice buys nothing.
const READ_LIMIT: usize = 64 * 1024;

/// The log's detail for a comment holding JSON data (a member or item commented out).
pub(super) const DATA_COMMENT: &str = "removed a comment holding JSON data";

/// How a comment whose text is `body` is logged, and whether the safety guard counts it: prose
/// loses nothing when it goes; a member commented out is data, and the guard counts it (see
/// `GuardComments`).
pub(super) fn judge(guard: GuardComments, body: &str) -> (&'static str, bool) {
    let data = guard == GuardComments::Data && holds_data(body);
    let detail = if data { DATA_COMMENT } else { "removed" };
    (detail, data || guard == GuardComments::All)
}

impl Parser<'_> {
    /// Reads the comment at `self.state.pos` (its text `body_start..body_end`, its end `end`): logged,
    /// and counted by the safety guard as `judge` says.
    pub(super) fn comment(&mut self, body_start: usize, body_end: usize, end: usize) -> Result<()> {
        // A comment running to the end of the text may end later.
        self.wait_if_cut(end)?;
        let body = &self.text[body_start..body_end];
        let (detail, counted) = judge(self.cfg.guard_comments, body);
        self.repair(RepairKind::Comment, self.state.pos, end, detail)?;
        if detail == DATA_COMMENT {
            if let Some(frame) = self.state.frames.last_mut() {
                frame.data_comment = true;
            }
        }
        if counted {
            self.discard(body_start, body_end);
        }
        Ok(())
    }
}

/// Whether the comment text `body` holds JSON data.
pub(super) fn holds_data(body: &str) -> bool {
    let text = body.trim().trim_end_matches(',').trim_end();
    let Some(first) = text.bytes().next() else {
        return false;
    };
    // Data starts with a quote, a bracket, a digit, a sign or a word (a bare key, a literal).
    let starts_like_data = matches!(
        first,
        b'"' | b'\'' | b'{' | b'[' | b'(' | b'-' | b'0'..=b'9'
    ) || first.is_ascii_alphabetic()
        || first == b'_';
    if !starts_like_data {
        return false;
    }
    // Prose starts with a word and a blank (`the "id" must …`); data with a word starts a
    // member (`timeout: 30`) or is a literal (`None`, `true,`).
    if first.is_ascii_alphabetic() || first == b'_' {
        let word = text
            .bytes()
            .position(|c| !(c.is_ascii_alphanumeric() || c == b'_' || c == b'$'))
            .unwrap_or(text.len());
        let after = text[word..].trim_start_matches([' ', '\t']);
        let member = after.starts_with([':', '=']) || after.starts_with('：');
        let literal = crate::spelling::is_literal(&text[..word])
            && (after.is_empty() || after.starts_with(','));
        if !member && !literal {
            return false;
        }
    }
    if text.len() > READ_LIMIT {
        return !first.is_ascii_alphabetic();
    }
    reads_clean(&format!("{{{text}}}")) || reads_clean(&format!("[{text}]"))
}

/// `text` parses with no repair but a convention's.
fn reads_clean(text: &str) -> bool {
    let config = Config {
        paths: false,
        level: RepairLevel::Full,
        truncation: Truncation::Complete,
        duplicate_keys: DuplicateKeys::Last,
        max_depth: 64,
        schema: None,
        only_truncation: false,
        inside_object: false,
        // Comments inside the comment are not classified again: no recursion.
        guard_comments: GuardComments::All,
        latex: true,
    };
    let Ok(out) = parse(text, 0, text.len(), None, config) else {
        return false;
    };
    out.end == text.len()
        && !matches!(&out.value, crate::Value::Array(a) if a.is_empty())
        && !matches!(&out.value, crate::Value::Object(m) if m.is_empty())
        && out.repairs.iter().all(|r| convention(r.kind))
}

/// Repairs that only translate a convention, or close what the comment cut off.
fn convention(kind: RepairKind) -> bool {
    matches!(
        kind,
        RepairKind::SingleQuotes
            | RepairKind::SmartQuotes
            | RepairKind::UnquotedKey
            | RepairKind::PythonLiteral
            | RepairKind::JavascriptLiteral
            | RepairKind::TrailingComma
            | RepairKind::Comment
            | RepairKind::MissingCloser
            | RepairKind::MismatchedCloser
            | RepairKind::ExtraCloser
    )
}

#[cfg(test)]
mod tests {
    use super::holds_data;

    #[test]
    fn commented_out_members_and_values_are_data() {
        for body in [
            r#" "age": 31, "#,
            r#" "age": 31, "city": "Lisboa", "#,
            " 'tags': ['a', 'b'],",
            " timeout: 30,",
            " 3, ",
            r#" "x""#,
            r#" {"id": 7, "ok": true}"#,
            r#" "steps": ["#,
            " None",
        ] {
            assert!(holds_data(body), "{body:?} holds data");
        }
    }

    #[test]
    fn prose_is_not_data_whatever_it_quotes() {
        for body in [
            " TODO",
            " default",
            " in UTC",
            " the \"id\" must be unique",
            " values: \"a\", \"b\" or \"c\"",
            " wrapped like \"this\": see the docs",
            " \"fast\" is the default; \"safe\" is slower",
            " don't rename 'status'",
            " TODO: confirm with the user",
            " 説明：このフィールドはシステムによって自動的に設定されます。",
            " Note: these values come from the Q3 report and may change.",
            " see https://example.com/spec",
            " 2026-01-31",
            "",
            "   ",
        ] {
            assert!(!holds_data(body), "{body:?} is prose");
        }
    }
}
