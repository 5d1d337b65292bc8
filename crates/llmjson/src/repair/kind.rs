//! The repair vocabulary: one stable, serialisable kind per thing the repair stage can fix.

use crate::RepairLevel;
use serde::{Deserialize, Serialize};

/// What a repair fixed. The snake_case names are stable: they appear in logs and metrics.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum RepairKind {
    // --- cosmetic: allowed at level conservative ---
    /// A `//`, `/* */` comment was removed.
    Comment,
    /// A comma before `}` or `]` (or at the end) was removed.
    TrailingComma,
    /// Smart quotes (“ ” ‘ ’) used as string delimiters became `"`.
    SmartQuotes,
    /// A raw control character (newline, tab, …) inside a string was escaped.
    ControlCharacter,
    /// Unusual whitespace outside strings (NBSP, zero-width space, BOM, …) was treated as space.
    SpecialWhitespace,
    /// The reply ended inside an object: `}` was added.
    ClosedTruncatedObject,
    /// The reply ended inside an array: `]` was added.
    ClosedTruncatedArray,
    /// An object had the same key twice; the duplicate-key policy chose one value.
    DuplicateKey,

    // --- full ---
    /// The reply ended inside a string: the string was closed.
    ClosedTruncatedString,
    /// The reply ended inside a number or literal: it was completed (`2.` → `2.0`, `tru` → `true`).
    CompletedTruncatedValue,
    /// The reply ended inside a member (a key without a value, or a value cut under the `drop`
    /// truncation policy): the member was dropped.
    DroppedTruncatedMember,
    /// An extra comma (leading, or doubled) was removed.
    ExtraComma,
    /// A missing comma between two members or items was added.
    MissingComma,
    /// A missing `:` between a key and its value was added.
    MissingColon,
    /// A key had no value before the next `,` or `}`: `null` was used.
    MissingValue,
    /// A string delimited by single quotes or backticks became a `"` string.
    SingleQuotes,
    /// An object key without quotes was quoted.
    UnquotedKey,
    /// A bare word used as a value became a string.
    UnquotedString,
    /// A Python literal (`True`, `False`, `None`) became its JSON counterpart.
    PythonLiteral,
    /// A JavaScript literal JSON lacks (`undefined`, `NaN`, `Infinity`) became `null`.
    JavascriptLiteral,
    /// A `"` inside a string value (source code, HTML, a quotation) was kept as text.
    UnescapedQuote,
    /// A string missing its closing quote was closed before the delimiter that follows it.
    MissingEndQuote,
    /// A string missing its opening quote was recognised by its closing quote.
    MissingStartQuote,
    /// A backslash that starts no valid escape was kept as a literal backslash (or an escaped
    /// quote/newline was unescaped).
    InvalidEscape,
    /// A number JSON does not allow was normalised (`.5` → `0.5`, `+1` → `1`, `1.` → `1.0`).
    InvalidNumber,
    /// A number-like token JSON cannot hold exactly (`0789`, `1.2.3`) was kept as a string.
    NumberAsString,
    /// A closer of the wrong kind (`]` for an object) closed the open container.
    MismatchedCloser,
    /// A closer with nothing to close was removed.
    ExtraCloser,
    /// An opener with nothing to open (`{{`) was removed.
    ExtraOpener,
    /// A container was closed because a new value started where its closer should be.
    MissingCloser,
    /// A string written with escaped quotes (`\"text\"`, JSON stringified twice) was unescaped.
    EscapedString,
    /// Several top-level scalars separated by commas or newlines (`1, 2, 3`) became an array.
    WrappedInArray,
    /// An ellipsis (`...`) standing for omitted items was removed.
    Ellipsis,
    /// A function-call wrapper (`ObjectId("x")`, JSONP `callback(...)`) was removed.
    FunctionWrapper,
    /// Strings joined with `+` were concatenated.
    ConcatenatedStrings,
    /// An invalid `\u` escape (a lone surrogate) became U+FFFD.
    InvalidUnicodeEscape,
    /// Bytes that are not UTF-8 became U+FFFD.
    InvalidUtf8,
    /// Text that is not JSON (a stray token) was skipped.
    DroppedGarbage,
    /// A Python triple-quoted string (`"""…"""`) became a JSON string.
    TripleQuotes,
    /// An opener was missing: the reply began inside an object whose `{` is missing (a
    /// prefilled brace), or a row of a list lost its `[` (`[…], "x", "y"], [`): it was added.
    MissingOpener,
    /// A draft the model abandoned before the JSON it then wrote in full was skipped
    /// (`{"a": [1, 2 -- wait. Final: {...}`).
    AbandonedDraft,
    /// Text after the value that goes on like JSON (`, 4]` after a premature `]`, members after
    /// a closed object) but could not be read into it was left out. Prose after the JSON is not
    /// this: it is not part of the located JSON at all.
    IgnoredTrailingContent,
    /// Full-width punctuation used as JSON's (`：` for `:`, `，` for `,`, as CJK models write).
    FullwidthPunctuation,
    /// A LaTeX command written with one backslash where JSON has an escape (`\frac`, `\beta`,
    /// `\theta` in maths) was read as the command, backslash kept, not as a form feed,
    /// backspace, tab or line break (see `repair::latex` for exactly when).
    LatexEscape,
    /// A markdown escape a model wrote in a string or key (`\_`, `\*`, `\#`, `\[`, `\]`, `\>`,
    /// `\~`: `user\_id`, `file\_name.py`) became the character; kept where the string shows
    /// maths (`$a\_1$`) or other literal backslashes (a regular expression, a Windows path).
    MarkdownEscape,
    /// A template of the answer echoed from the prompt (`{"label": "string", "score":
    /// "number"}`: every leaf a type name) before the value that fills it was skipped.
    SkippedTemplate,
    /// The JSON Schema the prompt gave, echoed before the instance, was skipped.
    SkippedSchemaEcho,
    /// A list around one function call (`[lookup_order({…})]`) became the call's arguments.
    UnwrappedCall,

    // --- schema stage: coercions (made only with a schema and coercion on) ---
    /// A string holding a number became the number the schema wants (`"12"` → `12`).
    CoercedNumber,
    /// A number or boolean became the string the schema wants.
    CoercedString,
    /// A string (`"yes"`, `"False"`) became the boolean the schema wants.
    CoercedBoolean,
    /// A string (`"null"`, `"None"`) became the null the schema wants.
    CoercedNull,
    /// A lone value became a one-item list, as the schema wants a list.
    WrappedSingleValue,
    /// A one-item list became its item, as the schema wants a single value.
    UnwrappedSingleItem,
    /// A value matched an `enum` or `const` option up to case and punctuation (or was the one option the text named).
    MatchedEnum,
    /// A property name matched a declared one up to case and `snake_case`/`camelCase`/`kebab-case`.
    RenamedKey,
    /// A property the schema does not allow (`additionalProperties: false`) was removed.
    DroppedUnknownProperty,
    /// A missing required property was filled with the schema's `default`.
    FilledDefault,
    /// A missing required property that allows null was filled with null.
    FilledNull,
    /// A scalar became the only property of the object the schema wants.
    WrappedInObject,
    /// A string holding JSON (`"{\"a\": 1}"`) became the object or list the schema wants.
    DecodedJsonString,

    // --- schema stage: salvage (only with `InvalidItems::Drop`) ---
    /// An array item that failed its item schema was left out (`Parsed::dropped` has its
    /// validation errors).
    DroppedInvalidItem,
}

impl RepairKind {
    /// The stable snake_case name.
    pub fn as_str(self) -> &'static str {
        use RepairKind::*;
        match self {
            Comment => "comment",
            TrailingComma => "trailing_comma",
            SmartQuotes => "smart_quotes",
            ControlCharacter => "control_character",
            SpecialWhitespace => "special_whitespace",
            ClosedTruncatedObject => "closed_truncated_object",
            ClosedTruncatedArray => "closed_truncated_array",
            DuplicateKey => "duplicate_key",
            ClosedTruncatedString => "closed_truncated_string",
            CompletedTruncatedValue => "completed_truncated_value",
            DroppedTruncatedMember => "dropped_truncated_member",
            ExtraComma => "extra_comma",
            MissingComma => "missing_comma",
            MissingColon => "missing_colon",
            MissingValue => "missing_value",
            SingleQuotes => "single_quotes",
            UnquotedKey => "unquoted_key",
            UnquotedString => "unquoted_string",
            PythonLiteral => "python_literal",
            JavascriptLiteral => "javascript_literal",
            UnescapedQuote => "unescaped_quote",
            MissingEndQuote => "missing_end_quote",
            MissingStartQuote => "missing_start_quote",
            InvalidEscape => "invalid_escape",
            InvalidNumber => "invalid_number",
            NumberAsString => "number_as_string",
            MismatchedCloser => "mismatched_closer",
            ExtraCloser => "extra_closer",
            ExtraOpener => "extra_opener",
            MissingCloser => "missing_closer",
            EscapedString => "escaped_string",
            WrappedInArray => "wrapped_in_array",
            Ellipsis => "ellipsis",
            FunctionWrapper => "function_wrapper",
            ConcatenatedStrings => "concatenated_strings",
            InvalidUnicodeEscape => "invalid_unicode_escape",
            InvalidUtf8 => "invalid_utf8",
            DroppedGarbage => "dropped_garbage",
            TripleQuotes => "triple_quotes",
            AbandonedDraft => "abandoned_draft",
            MissingOpener => "missing_opener",
            IgnoredTrailingContent => "ignored_trailing_content",
            FullwidthPunctuation => "fullwidth_punctuation",
            LatexEscape => "latex_escape",
            MarkdownEscape => "markdown_escape",
            SkippedTemplate => "skipped_template",
            SkippedSchemaEcho => "skipped_schema_echo",
            UnwrappedCall => "unwrapped_call",
            CoercedNumber => "coerced_number",
            CoercedString => "coerced_string",
            CoercedBoolean => "coerced_boolean",
            CoercedNull => "coerced_null",
            WrappedSingleValue => "wrapped_single_value",
            UnwrappedSingleItem => "unwrapped_single_item",
            MatchedEnum => "matched_enum",
            RenamedKey => "renamed_key",
            DroppedUnknownProperty => "dropped_unknown_property",
            FilledDefault => "filled_default",
            FilledNull => "filled_null",
            WrappedInObject => "wrapped_in_object",
            DecodedJsonString => "decoded_json_string",
            DroppedInvalidItem => "dropped_invalid_item",
        }
    }

    /// Every kind, in declaration order (for docs, metrics and tests).
    pub const ALL: &'static [RepairKind] = &[
        RepairKind::Comment,
        RepairKind::TrailingComma,
        RepairKind::SmartQuotes,
        RepairKind::ControlCharacter,
        RepairKind::SpecialWhitespace,
        RepairKind::ClosedTruncatedObject,
        RepairKind::ClosedTruncatedArray,
        RepairKind::DuplicateKey,
        RepairKind::ClosedTruncatedString,
        RepairKind::CompletedTruncatedValue,
        RepairKind::DroppedTruncatedMember,
        RepairKind::ExtraComma,
        RepairKind::MissingComma,
        RepairKind::MissingColon,
        RepairKind::MissingValue,
        RepairKind::SingleQuotes,
        RepairKind::UnquotedKey,
        RepairKind::UnquotedString,
        RepairKind::PythonLiteral,
        RepairKind::JavascriptLiteral,
        RepairKind::UnescapedQuote,
        RepairKind::MissingEndQuote,
        RepairKind::MissingStartQuote,
        RepairKind::InvalidEscape,
        RepairKind::InvalidNumber,
        RepairKind::NumberAsString,
        RepairKind::MismatchedCloser,
        RepairKind::ExtraCloser,
        RepairKind::ExtraOpener,
        RepairKind::MissingCloser,
        RepairKind::EscapedString,
        RepairKind::WrappedInArray,
        RepairKind::Ellipsis,
        RepairKind::FunctionWrapper,
        RepairKind::ConcatenatedStrings,
        RepairKind::InvalidUnicodeEscape,
        RepairKind::InvalidUtf8,
        RepairKind::DroppedGarbage,
        RepairKind::TripleQuotes,
        RepairKind::AbandonedDraft,
        RepairKind::MissingOpener,
        RepairKind::IgnoredTrailingContent,
        RepairKind::FullwidthPunctuation,
        RepairKind::LatexEscape,
        RepairKind::MarkdownEscape,
        RepairKind::SkippedTemplate,
        RepairKind::SkippedSchemaEcho,
        RepairKind::UnwrappedCall,
        RepairKind::CoercedNumber,
        RepairKind::CoercedString,
        RepairKind::CoercedBoolean,
        RepairKind::CoercedNull,
        RepairKind::WrappedSingleValue,
        RepairKind::UnwrappedSingleItem,
        RepairKind::MatchedEnum,
        RepairKind::RenamedKey,
        RepairKind::DroppedUnknownProperty,
        RepairKind::FilledDefault,
        RepairKind::FilledNull,
        RepairKind::WrappedInObject,
        RepairKind::DecodedJsonString,
        RepairKind::DroppedInvalidItem,
    ];

    /// The lowest level at which this repair is made.
    pub fn min_level(self) -> RepairLevel {
        use RepairKind::*;
        match self {
            DuplicateKey => RepairLevel::None,
            Comment
            | TrailingComma
            | SmartQuotes
            | ControlCharacter
            | SpecialWhitespace
            | ClosedTruncatedObject
            | ClosedTruncatedArray
            | LatexEscape
            | DroppedInvalidItem => RepairLevel::Conservative,
            _ => RepairLevel::Full,
        }
    }

    /// The defect this kind repairs, as a noun phrase for syntax errors ("trailing comma").
    pub fn defect(self) -> &'static str {
        use RepairKind::*;
        match self {
            Comment => "comment",
            TrailingComma => "trailing comma",
            SmartQuotes => "smart quote used as a string delimiter",
            ControlCharacter => "raw control character inside a string",
            SpecialWhitespace => "non-JSON whitespace character",
            ClosedTruncatedObject => "unexpected end of input inside an object (missing '}')",
            ClosedTruncatedArray => "unexpected end of input inside an array (missing ']')",
            DuplicateKey => "duplicate key",
            ClosedTruncatedString => "unexpected end of input inside a string (missing '\"')",
            CompletedTruncatedValue => "unexpected end of input inside a number or literal",
            DroppedTruncatedMember => "unexpected end of input inside an object member",
            ExtraComma => "unexpected comma",
            MissingComma => "missing comma",
            MissingColon => "missing ':' after object key",
            MissingValue => "missing value after ':'",
            SingleQuotes => "string in single quotes or backticks",
            UnquotedKey => "unquoted object key",
            UnquotedString => "unquoted string value",
            PythonLiteral => "Python literal (True, False or None)",
            JavascriptLiteral => "JavaScript literal (undefined, NaN or Infinity)",
            UnescapedQuote => "unescaped '\"' inside a string",
            MissingEndQuote => "string missing its closing quote",
            MissingStartQuote => "string missing its opening quote",
            InvalidEscape => "invalid escape sequence",
            InvalidNumber => "invalid number",
            NumberAsString => "invalid number",
            MismatchedCloser => "mismatched closing bracket",
            ExtraCloser => "unexpected closing bracket",
            ExtraOpener => "unexpected opening brace",
            MissingCloser => "missing closing bracket",
            EscapedString => "string with escaped quotes (\\\"…\\\")",
            WrappedInArray => "several top-level values",
            Ellipsis => "ellipsis ('...')",
            FunctionWrapper => "function call around a value",
            ConcatenatedStrings => "string concatenation with '+'",
            InvalidUnicodeEscape => "invalid \\u escape (lone surrogate)",
            InvalidUtf8 => "invalid UTF-8",
            DroppedGarbage => "unexpected character",
            TripleQuotes => "Python triple-quoted string",
            AbandonedDraft => "an abandoned draft before the JSON",
            MissingOpener => "missing opening brace",
            IgnoredTrailingContent => "JSON-like text after the value",
            FullwidthPunctuation => "full-width punctuation ('：' or '，') used as JSON's",
            LatexEscape => "LaTeX command read as a JSON escape",
            MarkdownEscape => "markdown escape in a string",
            SkippedTemplate => "a template echoed before the answer",
            SkippedSchemaEcho => "a JSON Schema echoed before the answer",
            UnwrappedCall => "a list around one function call",
            CoercedNumber => "string where a number is wanted",
            CoercedString => "number or boolean where a string is wanted",
            CoercedBoolean => "string where a boolean is wanted",
            CoercedNull => "string where null is wanted",
            WrappedSingleValue => "lone value where a list is wanted",
            UnwrappedSingleItem => "list where a single value is wanted",
            MatchedEnum => "value that is not one of the options",
            RenamedKey => "property name that differs from the schema's",
            DroppedUnknownProperty => "property the schema does not allow",
            FilledDefault => "missing required property",
            FilledNull => "missing required property",
            WrappedInObject => "scalar where an object is wanted",
            DecodedJsonString => "JSON text inside a string",
            DroppedInvalidItem => "array item that fails its schema",
        }
    }

    /// The entry is a schema coercion (the schema stage's), not a syntax repair.
    pub fn is_coercion(self) -> bool {
        use RepairKind::*;
        matches!(
            self,
            CoercedNumber
                | CoercedString
                | CoercedBoolean
                | CoercedNull
                | WrappedSingleValue
                | UnwrappedSingleItem
                | MatchedEnum
                | RenamedKey
                | DroppedUnknownProperty
                | FilledDefault
                | FilledNull
                | WrappedInObject
                | DecodedJsonString
        )
    }

    /// The repair fixed a character a string should have escaped: a `"`, a raw control
    /// character, a lone backslash, a bad `\u` escape.
    pub fn is_escaping(self) -> bool {
        use RepairKind::*;
        matches!(
            self,
            UnescapedQuote | ControlCharacter | InvalidEscape | InvalidUnicodeEscape
        )
    }

    /// The repair is the completion of a reply that was cut off.
    pub fn is_truncation(self) -> bool {
        use RepairKind::*;
        matches!(
            self,
            ClosedTruncatedObject
                | ClosedTruncatedArray
                | ClosedTruncatedString
                | CompletedTruncatedValue
                | DroppedTruncatedMember
        )
    }
}

impl std::fmt::Display for RepairKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_match_serde_and_all_is_complete() {
        for kind in RepairKind::ALL {
            let json = serde_json::to_string(kind).unwrap();
            assert_eq!(json, format!("\"{}\"", kind.as_str()));
        }
        let mut names: Vec<_> = RepairKind::ALL.iter().map(|k| k.as_str()).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), RepairKind::ALL.len());
    }
}
