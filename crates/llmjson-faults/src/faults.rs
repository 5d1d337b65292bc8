//! The fault classes: each edits the tokens of a valid document the way models get JSON wrong,
//! only where a careful reader would not doubt what was meant (its precondition), and locks what
//! it touched so that a second fault cannot make the spot ambiguous.

use crate::rng::Rng;
use crate::text::{comment, is_code, is_quoted_text, TextKind};
use crate::tokens::{lock_around, next_sig, prev_sig, render_str, StrStyle, Tok, K};

/// One kind of mistake.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Fault {
    /// The last closers are missing (`{"a": [1, 2`).
    MissingCloserEnd,
    /// A closer inside is missing where what follows shows it (`{"a": [1, 2, "b": 3}`).
    MissingCloserInner,
    /// A closer is doubled (`[{"id": 1}}, {"id": 2}]`).
    ExtraCloser,
    /// A closer of the wrong kind (`["red", "blue"}`).
    WrongCloser,
    /// The root closed before its last members (`{"a": "x"}, "b": "y"}`).
    PrematureClose,
    /// A key without its opening quote (`{status": 1}`).
    KeyMissingOpenQuote,
    /// A key without its closing quote (`{"status: "done"}`).
    KeyMissingCloseQuote,
    /// A string value without its opening quote (`{"a": done"}`).
    ValueMissingOpenQuote,
    /// A string value without its closing quote (`{"a": "done, "b": 1}`).
    ValueMissingCloseQuote,
    /// Typographic quotes as both delimiters (`“a”`, `‘a’`).
    SmartQuotes,
    /// A typographic quote on one side only (`"prices go up”`).
    SmartQuoteMixed,
    /// Quotes meant as text left unescaped (`"He said "yes""`).
    UnescapedQuotes,
    /// Source code in a string with its quotes (and maybe line breaks) unescaped.
    CodeInString,
    /// Line breaks and tabs written raw inside strings.
    RawNewlines,
    /// A key without its colon (`{"a" 1}`).
    MissingColon,
    /// A doubled comma or colon.
    DoubledPunctuation,
    /// A stutter after a string value (`"07:58",","city"`).
    Stutter,
    /// A comma missing between two values on one line.
    MissingCommaInline,
    /// A comma missing at a line end.
    MissingCommaNewline,
    /// `// comments`.
    LineComment,
    /// `/* comments */`.
    BlockComment,
    /// `# comments` on their own line.
    HashComment,
    /// `True`, `False`, `None`.
    PythonLiterals,
    /// `undefined` for null.
    JsLiterals,
    /// Strings in single quotes.
    SingleQuotes,
    /// A comma before a closer.
    TrailingComma,
    /// Keys without quotes.
    UnquotedKeys,
    /// Word values without quotes (`{"status": done}`).
    UnquotedValues,
    /// A string written as two joined with `+`.
    ConcatenatedStrings,
    /// The JSON stringified once too often (`{\"a\": 1}`).
    EscapedJson,
    /// Cut at any byte, read with `truncation: drop`.
    Truncation,
    /// Cut inside a string or after a token, read with the default `truncation: complete`.
    TruncationComplete,
    /// An abandoned draft before the answer (`Draft: {"a": [1, 2 -- wait. Final: {...}`).
    DraftThenFinal,
    /// JSON inside a shell or code command in a non-JSON fence before the answer.
    DecoyCodeFence,
    /// A draft inside `<think>` before the answer.
    ThinkDecoy,
    /// The reply starts inside the object: its `{` is missing (a prefilled brace).
    MissingOpener,
    /// An object member's value written as JSON text in a string without escaping
    /// (`"arguments": "{"city": "Paris"}"`): the value is that text.
    StringifiedJson,
    /// Lists written as Python tuples (`(1, 2)`).
    PythonTuples,
    /// Member numbers written with thousands separators (`12,345`, `1,299.99`).
    GroupedNumbers,
    /// `=` or `=>` for `:`.
    EqualsColon,
    /// German low quotes as delimiters (`„a“`).
    LowQuotes,
    /// Every string as Python's `repr` writes it (`'print("x")\n'`, `'it\'s'`, `"it's"`), and
    /// `True`, `False`, `None`: a document printed from Python.
    PythonRepr,
    /// Every string in JavaScript's single quotes (`'it\'s'`, `'say "hi"'`), keys mostly bare.
    JsSingleQuotes,
    /// Comments of prose, in several scripts and lengths, at line ends or on lines of their own.
    ProseComment,
    /// Comments holding quotes (`// the "id" must be unique`, `# don't rename 'status'`).
    QuotedComment,
    /// A member or item commented out (`// "age": 31,`, `/* 3, */`): the value leaves it out.
    CommentedOut,
    /// A comment after a container's last value, before its closer, running over the closer on
    /// a one-line layout (`"fast" // default }`).
    CommentAfterValue,
    /// Python tuples nested (`(("a", 1), ("b", 2))`), sets (`{'red', 'blue'}`), a scalar in
    /// parentheses (`(5)`).
    PythonContainers,
    /// Full-width `：` and `，` as structure (`{"名前"："花子"，"年齢"：30}`).
    FullwidthPunctuation,
    /// The JSON in inline-code backticks (`` `{"status": "ok"}` ``).
    InlineCode,
    /// Digit separators and the minus sign U+2212 in numbers (`250_000`, `−12.5`).
    DigitSeparators,
    /// In a laid-out document, a string value that lost its closing quote at the end of its line.
    OpenStringAtLineEnd,
    /// In a laid-out document, a closer written twice (`]]` where the layout shows one).
    ExtraCloserPretty,
    /// LaTeX written with single backslashes, as models answer maths (`"$\frac{a}{b} +
    /// \beta$"`): `\f`, `\b`, `\t`, `\n`, `\r` begin command names, not control characters.
    LatexBackslashes,
    /// Control: tables and lists whose real tabs and line breaks are JSON escapes, some before
    /// letters that spell a LaTeX command (`"Fruit\tan apple"`): valid JSON, to stay as it is.
    ControlEscapes,
    /// A template of the answer with type names for leaves (`{"label": "string"}`), echoed from
    /// the prompt before the answer: the answer is the value after it.
    TemplateEcho,
    /// The JSON Schema the prompt gave, echoed before the instance.
    SchemaEcho,
    /// The JSON inside Python triple quotes (`"""{…}"""`, `'''[…]'''`), maybe around a fence.
    TripleQuotes,
    /// A function call around the arguments (`lookup_order({…})`, `search(q="x", limit=3)`).
    CallAround,
    /// A fence of two or four backticks.
    OddFence,
    /// The root object's members with no braces (`"status": "done", "retries": 2`).
    BareMembers,
    /// The root list's objects one after another with no brackets (`{…}, {…}`).
    UnbracketedObjects,
    /// Markdown escapes in keys and values (`user\_id`, `\*\*bold\*\*`); maths keeps its own.
    MarkdownEscapes,
    /// One flat object as `key=value` pairs (`{name=search, path="src/*.rs", limit=5}`).
    KeywordPairs,
    /// A member's object value with its quotes escaped and the rest not
    /// (`"args\":{\"id\":\"A7\"}`).
    HalfEscaped,
    /// `>` or `->` for `:` after quoted keys (`"weight">2.5`).
    ArrowSeparator,
    /// A nested object written with brackets (`["lang": "pt", "level": "B2"]`).
    BracketObject,
    /// Values with units or decimal commas left unquoted (`"altura": 1,82 m`).
    UnitValues,
}

impl Fault {
    /// Every class.
    pub const ALL: &'static [Fault] = &[
        Fault::MissingCloserEnd,
        Fault::MissingCloserInner,
        Fault::ExtraCloser,
        Fault::WrongCloser,
        Fault::PrematureClose,
        Fault::KeyMissingOpenQuote,
        Fault::KeyMissingCloseQuote,
        Fault::ValueMissingOpenQuote,
        Fault::ValueMissingCloseQuote,
        Fault::SmartQuotes,
        Fault::SmartQuoteMixed,
        Fault::UnescapedQuotes,
        Fault::CodeInString,
        Fault::RawNewlines,
        Fault::MissingColon,
        Fault::DoubledPunctuation,
        Fault::Stutter,
        Fault::MissingCommaInline,
        Fault::MissingCommaNewline,
        Fault::LineComment,
        Fault::BlockComment,
        Fault::HashComment,
        Fault::PythonLiterals,
        Fault::JsLiterals,
        Fault::SingleQuotes,
        Fault::TrailingComma,
        Fault::UnquotedKeys,
        Fault::UnquotedValues,
        Fault::ConcatenatedStrings,
        Fault::EscapedJson,
        Fault::Truncation,
        Fault::TruncationComplete,
        Fault::DraftThenFinal,
        Fault::DecoyCodeFence,
        Fault::ThinkDecoy,
        Fault::MissingOpener,
        Fault::StringifiedJson,
        Fault::PythonTuples,
        Fault::GroupedNumbers,
        Fault::EqualsColon,
        Fault::LowQuotes,
        Fault::PythonRepr,
        Fault::JsSingleQuotes,
        Fault::ProseComment,
        Fault::QuotedComment,
        Fault::CommentedOut,
        Fault::CommentAfterValue,
        Fault::PythonContainers,
        Fault::FullwidthPunctuation,
        Fault::InlineCode,
        Fault::DigitSeparators,
        Fault::OpenStringAtLineEnd,
        Fault::ExtraCloserPretty,
        Fault::LatexBackslashes,
        Fault::ControlEscapes,
        Fault::TemplateEcho,
        Fault::SchemaEcho,
        Fault::TripleQuotes,
        Fault::CallAround,
        Fault::OddFence,
        Fault::BareMembers,
        Fault::UnbracketedObjects,
        Fault::MarkdownEscapes,
        Fault::KeywordPairs,
        Fault::HalfEscaped,
        Fault::ArrowSeparator,
        Fault::BracketObject,
        Fault::UnitValues,
    ];

    /// How often models write this fault, relative to the others (a rough share of the faults
    /// seen in real replies): the scoreboard's cases follow these weights, so its overall figure
    /// is what a user meets, not an average over classes.
    pub fn weight(self) -> usize {
        use Fault::*;
        match self {
            // The conventions models fall into whole documents at a time.
            PythonRepr | ProseComment | TrailingComma => 3,
            JsSingleQuotes | QuotedComment | CommentAfterValue | LineComment | SingleQuotes
            | PythonLiterals | UnquotedKeys | Truncation | TruncationComplete
            | MissingCloserEnd | UnescapedQuotes | CodeInString | RawNewlines => 2,
            _ => 1,
        }
    }

    /// Every class as often as its weight, interleaved: case `i` of a seed is made for class
    /// `schedule()[i % len]`.
    pub fn schedule() -> Vec<Fault> {
        let most = Fault::ALL.iter().map(|f| f.weight()).max().unwrap_or(1);
        let mut out = Vec::new();
        for round in 0..most {
            out.extend(Fault::ALL.iter().copied().filter(|f| f.weight() > round));
        }
        out
    }

    /// The same string-writing convention touches every string: two of them do not mix, nor
    /// does one with a fault that writes a single string its own way.
    pub fn writes_strings(self) -> bool {
        use Fault::*;
        matches!(
            self,
            PythonRepr
                | JsSingleQuotes
                | SingleQuotes
                | SmartQuotes
                | SmartQuoteMixed
                | LowQuotes
                | UnescapedQuotes
                | CodeInString
                | RawNewlines
                | ConcatenatedStrings
                | StringifiedJson
                | ValueMissingCloseQuote
                | ValueMissingOpenQuote
                | KeyMissingOpenQuote
                | KeyMissingCloseQuote
                | OpenStringAtLineEnd
                | EscapedJson
                | LatexBackslashes
                | MarkdownEscapes
                | KeywordPairs
                | HalfEscaped
                | UnitValues
        )
    }

    /// A slip at one spot (a lost quote or closer, a doubled one, a missing comma), not a habit
    /// a reply keeps throughout (a quote style, comments, literals).
    pub fn is_slip(self) -> bool {
        use Fault::*;
        matches!(
            self,
            MissingCloserEnd
                | MissingCloserInner
                | ExtraCloser
                | ExtraCloserPretty
                | WrongCloser
                | PrematureClose
                | KeyMissingOpenQuote
                | KeyMissingCloseQuote
                | ValueMissingOpenQuote
                | ValueMissingCloseQuote
                | OpenStringAtLineEnd
                | SmartQuoteMixed
                | UnescapedQuotes
                | CodeInString
                | MissingColon
                | DoubledPunctuation
                | Stutter
                | MissingCommaInline
                | MissingCommaNewline
                | StringifiedJson
                | CommentedOut
                | ConcatenatedStrings
                | UnquotedValues
                | HalfEscaped
                | ArrowSeparator
                | BracketObject
        )
    }

    /// A whole-document convention (see [`Fault::writes_strings`]).
    pub fn is_convention(self) -> bool {
        matches!(self, Fault::PythonRepr | Fault::JsSingleQuotes)
    }

    /// The value is not the document's: read it from the faulted tokens (a member commented
    /// out is not in it; a stringified member is a string).
    pub fn changes_value(self) -> bool {
        matches!(self, Fault::StringifiedJson | Fault::CommentedOut)
    }

    /// The stable snake_case name.
    pub fn name(self) -> &'static str {
        use Fault::*;
        match self {
            MissingCloserEnd => "missing_closer_end",
            MissingCloserInner => "missing_closer_inner",
            ExtraCloser => "extra_closer",
            WrongCloser => "wrong_closer",
            PrematureClose => "premature_close",
            KeyMissingOpenQuote => "key_missing_open_quote",
            KeyMissingCloseQuote => "key_missing_close_quote",
            ValueMissingOpenQuote => "value_missing_open_quote",
            ValueMissingCloseQuote => "value_missing_close_quote",
            SmartQuotes => "smart_quotes",
            SmartQuoteMixed => "smart_quote_mixed",
            UnescapedQuotes => "unescaped_quotes",
            CodeInString => "code_in_string",
            RawNewlines => "raw_newlines",
            MissingColon => "missing_colon",
            DoubledPunctuation => "doubled_punctuation",
            Stutter => "stutter",
            MissingCommaInline => "missing_comma_inline",
            MissingCommaNewline => "missing_comma_newline",
            LineComment => "line_comment",
            BlockComment => "block_comment",
            HashComment => "hash_comment",
            PythonLiterals => "python_literals",
            JsLiterals => "js_literals",
            SingleQuotes => "single_quotes",
            TrailingComma => "trailing_comma",
            UnquotedKeys => "unquoted_keys",
            UnquotedValues => "unquoted_values",
            ConcatenatedStrings => "concatenated_strings",
            EscapedJson => "escaped_json",
            Truncation => "truncation",
            TruncationComplete => "truncation_complete",
            DraftThenFinal => "draft_then_final",
            DecoyCodeFence => "decoy_code_fence",
            ThinkDecoy => "think_decoy",
            MissingOpener => "missing_opener",
            StringifiedJson => "stringified_json",
            PythonTuples => "python_tuples",
            GroupedNumbers => "grouped_numbers",
            EqualsColon => "equals_colon",
            LowQuotes => "low_quotes",
            PythonRepr => "python_repr",
            JsSingleQuotes => "js_single_quotes",
            ProseComment => "prose_comment",
            QuotedComment => "quoted_comment",
            CommentedOut => "commented_out",
            CommentAfterValue => "comment_after_value",
            PythonContainers => "python_containers",
            FullwidthPunctuation => "fullwidth_punctuation",
            InlineCode => "inline_code",
            DigitSeparators => "digit_separators",
            OpenStringAtLineEnd => "open_string_at_line_end",
            ExtraCloserPretty => "extra_closer_pretty",
            LatexBackslashes => "latex_backslashes",
            ControlEscapes => "control_escapes",
            TemplateEcho => "template_echo",
            SchemaEcho => "schema_echo",
            TripleQuotes => "triple_quotes",
            CallAround => "call_around",
            OddFence => "odd_fence",
            BareMembers => "bare_members",
            UnbracketedObjects => "unbracketed_objects",
            MarkdownEscapes => "markdown_escapes",
            KeywordPairs => "keyword_pairs",
            HalfEscaped => "half_escaped",
            ArrowSeparator => "arrow_separator",
            BracketObject => "bracket_object",
            UnitValues => "unit_values",
        }
    }

    /// The class with this name.
    pub fn by_name(name: &str) -> Option<Fault> {
        Fault::ALL.iter().copied().find(|f| f.name() == name)
    }

    /// A string content the document must hold for this fault to apply.
    pub fn needs_text(self) -> Option<TextKind> {
        match self {
            Fault::UnescapedQuotes => Some(TextKind::Quoted),
            Fault::CodeInString => Some(TextKind::Code),
            Fault::RawNewlines => Some(TextKind::Multiline),
            Fault::UnquotedValues => Some(TextKind::BareWords),
            Fault::ValueMissingOpenQuote => Some(TextKind::Word),
            Fault::PythonRepr | Fault::JsSingleQuotes => Some(TextKind::SingleQuotedHard),
            Fault::LatexBackslashes => Some(TextKind::Maths),
            Fault::ControlEscapes => Some(TextKind::Controls),
            _ => None,
        }
    }

    /// The fault needs one member per line.
    pub fn needs_lines(self) -> bool {
        matches!(
            self,
            Fault::MissingCommaNewline
                | Fault::HashComment
                | Fault::OpenStringAtLineEnd
                | Fault::ExtraCloserPretty
        )
    }

    /// The fault may put a line break in a one-line document (a comment that ends its line).
    pub fn breaks_lines(self) -> bool {
        matches!(
            self,
            Fault::LineComment
                | Fault::HashComment
                | Fault::ProseComment
                | Fault::QuotedComment
                | Fault::CommentedOut
                | Fault::CommentAfterValue
                | Fault::RawNewlines
                | Fault::CodeInString
        )
    }

    /// The fault needs the document on one line (inline code does not span lines).
    pub fn needs_one_line(self) -> bool {
        matches!(self, Fault::InlineCode | Fault::HalfEscaped)
    }

    /// Applied to the whole reply, not to tokens (it goes alone or with token faults only).
    pub fn is_wrapper(self) -> bool {
        matches!(
            self,
            Fault::DraftThenFinal
                | Fault::DecoyCodeFence
                | Fault::ThinkDecoy
                | Fault::EscapedJson
                | Fault::InlineCode
                | Fault::TemplateEcho
                | Fault::SchemaEcho
                | Fault::TripleQuotes
                | Fault::CallAround
                | Fault::OddFence
        )
    }

    /// Takes away the root container's brackets: nothing else may touch the root or wrap it.
    pub fn strips_root(self) -> bool {
        matches!(self, Fault::BareMembers | Fault::UnbracketedObjects)
    }

    /// A reader tells this form by its quoted keys (members with no braces, an object in
    /// brackets, an object whose `{` is missing).
    pub fn told_by_quoted_keys(self) -> bool {
        matches!(
            self,
            Fault::BareMembers | Fault::BracketObject | Fault::MissingOpener
        )
    }

    /// Writes keys other than in double quotes, or their colons other than `:`.
    pub fn rewrites_keys(self) -> bool {
        matches!(
            self,
            Fault::UnquotedKeys
                | Fault::SingleQuotes
                | Fault::PythonRepr
                | Fault::JsSingleQuotes
                | Fault::KeyMissingOpenQuote
                | Fault::KeyMissingCloseQuote
                | Fault::KeywordPairs
                | Fault::ArrowSeparator
                | Fault::EqualsColon
                | Fault::SmartQuotes
                | Fault::LowQuotes
        )
    }

    /// Touches the root's brackets or what a reader takes as the reply's end.
    pub fn touches_root(self) -> bool {
        matches!(
            self,
            Fault::MissingOpener
                | Fault::MissingCloserEnd
                | Fault::MissingCloserInner
                | Fault::PrematureClose
                | Fault::ExtraCloser
                | Fault::ExtraCloserPretty
                | Fault::WrongCloser
                | Fault::CommentAfterValue
        ) || self.strips_root()
            || self.is_wrapper()
    }

    /// A cut: applied last.
    pub fn is_cut(self) -> bool {
        matches!(self, Fault::Truncation | Fault::TruncationComplete)
    }

    /// May share a reply with a cut: the fault does not change which values are complete at
    /// any byte in a way a reader could doubt.
    pub fn survives_cut(self) -> bool {
        !matches!(
            self,
            Fault::MissingCloserEnd
                | Fault::PrematureClose
                | Fault::ConcatenatedStrings
                | Fault::EscapedJson
                | Fault::DraftThenFinal
                | Fault::ThinkDecoy
                | Fault::Truncation
                | Fault::TruncationComplete
                | Fault::StringifiedJson
                | Fault::LatexBackslashes
                | Fault::GroupedNumbers
                | Fault::InlineCode
                | Fault::CommentedOut
                | Fault::DigitSeparators
                | Fault::PythonContainers
        ) && !self.is_form()
    }

    /// A form of `crate::forms` (what real replies hold that the first classes did not write).
    pub fn is_form(self) -> bool {
        matches!(
            self,
            Fault::TemplateEcho
                | Fault::SchemaEcho
                | Fault::TripleQuotes
                | Fault::CallAround
                | Fault::OddFence
                | Fault::BareMembers
                | Fault::UnbracketedObjects
                | Fault::MarkdownEscapes
                | Fault::KeywordPairs
                | Fault::HalfEscaped
                | Fault::ArrowSeparator
                | Fault::BracketObject
                | Fault::UnitValues
        )
    }
}

pub(crate) fn is_ident(s: &str) -> bool {
    let mut chars = s.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

const LITERAL_WORDS: &[&str] = &[
    "true",
    "false",
    "null",
    "True",
    "False",
    "None",
    "undefined",
    "NaN",
    "Infinity",
    "TRUE",
    "FALSE",
    "NULL",
    "Null",
];

/// Reads unambiguously without quotes: words and spaces, no delimiters, not a number or literal.
fn bare_safe(s: &str) -> bool {
    let t = s.trim();
    !t.is_empty()
        && t == s
        && !LITERAL_WORDS.contains(&t)
        && !t.starts_with(|c: char| c.is_ascii_digit() || matches!(c, '-' | '+' | '.'))
        && s.chars()
            .all(|c| c.is_alphanumeric() || c == ' ' || c == '_')
}

/// Reads unambiguously without its closing quote: one line, no quotes or brackets.
pub(crate) fn open_end_safe(s: &str) -> bool {
    !s.is_empty()
        && !s.ends_with(|c: char| c.is_whitespace())
        && !s.contains([
            '"', '{', '}', '[', ']', '\\', '\n', '\r', '\t', '“', '”', '\'',
        ])
        && !s.contains("//")
        && !s.contains("/*")
}

/// Plain content that any quote style can hold.
fn quotable(s: &str, quote: char) -> bool {
    !s.contains(['"', '\\', '\n', '\r', '\t', '“', '”', '‘', '’', quote])
}

pub(crate) fn unlocked(toks: &[Tok], pred: impl Fn(usize, &Tok) -> bool) -> Vec<usize> {
    (0..toks.len())
        .filter(|&i| !toks[i].locked && pred(i, &toks[i]))
        .collect()
}

pub(crate) fn is_value_str(t: &Tok) -> bool {
    t.k == K::Str && t.text.starts_with('"') && t.text.ends_with('"') && t.text.len() >= 2
}

pub(crate) fn standard_key(t: &Tok) -> bool {
    t.k == K::Key && t.text.starts_with('"') && t.text.ends_with('"')
}

pub(crate) fn insert(toks: &mut Vec<Tok>, at: usize, text: &str, like: usize) {
    let mut t = toks[like].clone();
    t.k = K::Noise;
    t.text = text.to_string();
    t.content = text.to_string();
    t.locked = true;
    toks.insert(at, t);
}

fn matching_open(toks: &[Tok], close: usize) -> Option<usize> {
    let mut depth = 0usize;
    for j in (0..close).rev() {
        match toks[j].k {
            K::Close => depth += 1,
            K::Open if depth == 0 => return Some(j),
            K::Open => depth -= 1,
            _ => {}
        }
    }
    None
}

pub(crate) fn matching_close(toks: &[Tok], open: usize) -> usize {
    let mut depth = 0usize;
    for (j, t) in toks.iter().enumerate().skip(open) {
        match t.k {
            K::Open => depth += 1,
            K::Close => {
                depth -= 1;
                if depth == 0 {
                    return j;
                }
            }
            _ => {}
        }
    }
    toks.len() - 1
}

/// The object opening at `open` holds at least one member, only plain scalars (strings without
/// quotes or backslashes), and no token a fault touched.
fn plain_object(toks: &[Tok], open: usize) -> bool {
    let close = matching_close(toks, open);
    close > open + 1
        && toks[open + 1..close].iter().any(|t| t.k == K::Key)
        && toks[open..=close].iter().enumerate().all(|(k, t)| {
            // The object's own `{` is the only opener inside it.
            let nested = t.k == K::Open && k > 0;
            let delicate =
                matches!(t.k, K::Str | K::Key) && t.content.contains(['"', '\\', '\n', '\t']);
            !t.locked && !nested && !delicate
        })
}

fn non_empty(toks: &[Tok], close: usize) -> bool {
    matches!(prev_sig(toks, close), Some(p) if toks[p].k != K::Open)
}

/// Applies a token fault. `false` when the document has no place where it applies.
pub fn apply(fault: Fault, toks: &mut Vec<Tok>, rng: &mut Rng) -> bool {
    match fault {
        Fault::MissingCloserEnd => {
            let mut run = Vec::new();
            let mut i = toks.len();
            while let Some(p) = prev_sig(toks, i) {
                if toks[p].k != K::Close || toks[p].locked {
                    break;
                }
                run.push(p);
                i = p;
            }
            if run.is_empty() {
                return false;
            }
            let n = rng.range(1, run.len());
            for &c in &run[..n] {
                toks[c].text.clear();
                lock_around(toks, c);
            }
            true
        }
        Fault::MissingCloserInner => {
            let cands = unlocked(toks, |i, t| {
                if t.k != K::Close || !non_empty(toks, i) {
                    return false;
                }
                let Some(n) = next_sig(toks, i) else {
                    return false;
                };
                let after = next_sig(toks, n);
                let nk = toks[n].k;
                (t.bracket == b'['
                    && t.parent == b'{'
                    && nk == K::Comma
                    && after.is_some_and(|a| toks[a].k == K::Key))
                    || (t.bracket == b'{'
                        && t.parent == b'['
                        && nk == K::Comma
                        && after.is_some_and(|a| toks[a].k == K::Open && toks[a].bracket == b'{'))
                    || (nk == K::Close && toks[n].bracket != t.bracket)
            });
            pick_and(toks, rng, &cands, |toks, c, _| {
                toks[c].text.clear();
                lock_around(toks, c);
            })
        }
        Fault::ExtraCloser => extra_closer(toks, rng, false),
        Fault::WrongCloser => {
            let cands = unlocked(toks, |i, t| t.k == K::Close && non_empty(toks, i));
            pick_and(toks, rng, &cands, |toks, c, _| {
                toks[c].text = if toks[c].bracket == b'{' { "]" } else { "}" }.into();
                lock_around(toks, c);
                if let Some(o) = matching_open(toks, c) {
                    toks[o].locked = true;
                }
            })
        }
        Fault::PrematureClose => {
            let Some(root) = toks.iter().position(|t| t.k == K::Open) else {
                return false;
            };
            let closer = if toks[root].bracket == b'{' { "}" } else { "]" };
            let cands = unlocked(toks, |i, t| {
                t.k == K::Comma
                    && t.depth == 1
                    && prev_sig(toks, i).is_some_and(|p| !toks[p].locked)
            });
            pick_and(toks, rng, &cands, |toks, c, _| {
                lock_around(toks, c);
                insert(toks, c, closer, c);
            })
        }
        Fault::KeyMissingOpenQuote | Fault::KeyMissingCloseQuote => {
            let cands = unlocked(toks, |_, t| standard_key(t) && is_ident(&t.content));
            pick_and(toks, rng, &cands, |toks, c, _| {
                let k = toks[c].content.clone();
                toks[c].text = if fault == Fault::KeyMissingOpenQuote {
                    format!("{k}\"")
                } else {
                    format!("\"{k}")
                };
                lock_around(toks, c);
            })
        }
        Fault::ValueMissingOpenQuote => {
            let cands = unlocked(toks, |_, t| is_value_str(t) && bare_safe(&t.content));
            pick_and(toks, rng, &cands, |toks, c, _| {
                let style = StrStyle {
                    open: "",
                    ..StrStyle::JSON
                };
                toks[c].text = render_str(&toks[c].content.clone(), style);
                lock_around(toks, c);
            })
        }
        Fault::ValueMissingCloseQuote => {
            let cands = unlocked(toks, |i, t| {
                if !is_value_str(t) || !open_end_safe(&t.content) {
                    return false;
                }
                match next_sig(toks, i) {
                    Some(n) if toks[n].k == K::Close => true,
                    Some(n) if toks[n].k == K::Comma => {
                        // In an array, only before another string: `["red, "blue"]`.
                        t.parent == b'{'
                            || next_sig(toks, n).is_some_and(|a| is_value_str(&toks[a]))
                    }
                    _ => false,
                }
            });
            pick_and(toks, rng, &cands, |toks, c, _| {
                let style = StrStyle {
                    close: "",
                    ..StrStyle::JSON
                };
                toks[c].text = render_str(&toks[c].content.clone(), style);
                toks[c].open_ended = true;
                lock_around(toks, c);
            })
        }
        Fault::SmartQuotes => {
            let single = rng.chance(0.3);
            let (open, close, q) = if single {
                ("‘", "’", '\'')
            } else {
                ("“", "”", '"')
            };
            let cands = unlocked(toks, |_, t| {
                (is_value_str(t) || standard_key(t)) && quotable(&t.content, q)
            });
            let all = rng.chance(0.5);
            let mut done = false;
            for (n, &c) in cands.iter().enumerate() {
                if all || rng.chance(0.3) || (n + 1 == cands.len() && !done) {
                    let style = StrStyle {
                        open,
                        close,
                        ..StrStyle::JSON
                    };
                    toks[c].text = render_str(&toks[c].content.clone(), style);
                    toks[c].locked = true;
                    done = true;
                }
            }
            done
        }
        Fault::SmartQuoteMixed => {
            let cands = unlocked(toks, |_, t| {
                (is_value_str(t) || standard_key(t)) && quotable(&t.content, '"')
            });
            let (open, close) = *rng.pick(&[("\"", "”"), ("“", "\""), ("”", "”"), ("\"", "“")]);
            pick_and(toks, rng, &cands, |toks, c, _| {
                let style = StrStyle {
                    open,
                    close,
                    ..StrStyle::JSON
                };
                toks[c].text = render_str(&toks[c].content.clone(), style);
                lock_around(toks, c);
            })
        }
        Fault::UnescapedQuotes => {
            let cands = unlocked(toks, |_, t| is_value_str(t) && is_quoted_text(&t.content));
            pick_and(toks, rng, &cands, |toks, c, _| {
                let style = StrStyle {
                    raw_quotes: true,
                    ..StrStyle::JSON
                };
                toks[c].text = render_str(&toks[c].content.clone(), style);
                lock_around(toks, c);
            })
        }
        Fault::CodeInString => {
            let cands = unlocked(toks, |_, t| {
                is_value_str(t) && is_code(&t.content) && t.content.contains('"')
            });
            let raw_controls = rng.chance(0.5);
            pick_and(toks, rng, &cands, |toks, c, _| {
                let style = StrStyle {
                    raw_quotes: true,
                    raw_controls,
                    ..StrStyle::JSON
                };
                toks[c].text = render_str(&toks[c].content.clone(), style);
                lock_around(toks, c);
            })
        }
        Fault::RawNewlines => {
            let cands = unlocked(toks, |_, t| {
                is_value_str(t) && t.content.contains(['\n', '\t']) && !t.content.contains('"')
            });
            if cands.is_empty() {
                return false;
            }
            for &c in &cands {
                let style = StrStyle {
                    raw_controls: true,
                    ..StrStyle::JSON
                };
                toks[c].text = render_str(&toks[c].content.clone(), style);
                toks[c].locked = true;
            }
            true
        }
        Fault::MissingColon => {
            let cands = unlocked(toks, |i, t| {
                t.k == K::Key
                    && toks
                        .get(i + 1)
                        .is_some_and(|c| c.k == K::Colon && !c.locked)
            });
            pick_and(toks, rng, &cands, |toks, k, _| {
                let spaced = toks.get(k + 2).is_some_and(|t| t.k == K::Ws);
                toks[k + 1].text = if spaced { "" } else { " " }.into();
                lock_around(toks, k + 1);
                toks[k].locked = true;
            })
        }
        Fault::DoubledPunctuation => {
            let cands = unlocked(toks, |_, t| matches!(t.k, K::Comma | K::Colon));
            pick_and(toks, rng, &cands, |toks, c, rng| {
                let doubled = if toks[c].k == K::Comma {
                    *rng.pick(&[",,", ", ,", ",,,"])
                } else {
                    "::"
                };
                toks[c].text = doubled.into();
                lock_around(toks, c);
            })
        }
        Fault::Stutter => {
            let cands = unlocked(toks, |i, t| {
                t.k == K::Comma
                    && t.parent == b'{'
                    && prev_sig(toks, i).is_some_and(|p| is_value_str(&toks[p]) && !toks[p].locked)
                    && next_sig(toks, i).is_some_and(|n| standard_key(&toks[n]) && !toks[n].locked)
            });
            pick_and(toks, rng, &cands, |toks, c, _| {
                lock_around(toks, c);
                insert(toks, c + 1, "\",", c);
            })
        }
        Fault::MissingCommaInline | Fault::MissingCommaNewline => {
            let newline = fault == Fault::MissingCommaNewline;
            let cands = unlocked(toks, |i, t| {
                let breaks = toks
                    .get(i + 1)
                    .is_some_and(|w| w.k == K::Ws && w.text.contains('\n'));
                t.k == K::Comma
                    && breaks == newline
                    && prev_sig(toks, i).is_some_and(|p| !toks[p].locked)
                    && next_sig(toks, i).is_some_and(|n| !toks[n].locked)
            });
            pick_and(toks, rng, &cands, |toks, c, _| {
                let spaced = toks.get(c + 1).is_some_and(|t| t.k == K::Ws);
                toks[c].text = if spaced { "" } else { " " }.into();
                lock_around(toks, c);
            })
        }
        Fault::LineComment | Fault::BlockComment => {
            // After an opener or a comma, before the next member.
            let cands = unlocked(toks, |i, t| {
                matches!(t.k, K::Open | K::Comma)
                    && next_sig(toks, i).is_some_and(|n| !toks[n].locked && toks[n].k != K::Close)
            });
            pick_and(toks, rng, &cands, |toks, c, rng| {
                let body = comment(rng);
                let text = if fault == Fault::LineComment {
                    format!(" // {body}\n")
                } else {
                    format!(" /* {body} */ ")
                };
                lock_around(toks, c);
                insert(toks, c + 1, &text, c);
            })
        }
        Fault::HashComment => {
            let cands = unlocked(toks, |i, t| {
                t.k == K::Ws
                    && t.text.starts_with('\n')
                    && i > 0
                    && matches!(toks[i - 1].k, K::Open | K::Comma)
                    && next_sig(toks, i).is_some_and(|n| !toks[n].locked)
            });
            pick_and(toks, rng, &cands, |toks, c, rng| {
                let body = comment(rng);
                let ws = toks[c].text.clone();
                toks[c].text = format!("{ws}# {body}{ws}");
                lock_around(toks, c);
            })
        }
        Fault::PythonLiterals | Fault::JsLiterals => {
            let cands = unlocked(toks, |_, t| {
                t.k == K::Lit && (fault == Fault::PythonLiterals || t.text == "null")
            });
            if cands.is_empty() {
                return false;
            }
            for &c in &cands {
                let word = match toks[c].text.as_str() {
                    _ if fault == Fault::JsLiterals => "undefined",
                    "true" => "True",
                    "false" => "False",
                    _ => "None",
                };
                toks[c].text = word.into();
                toks[c].locked = true;
            }
            true
        }
        Fault::SingleQuotes => {
            let cands = unlocked(toks, |_, t| {
                (is_value_str(t) || standard_key(t)) && quotable(&t.content, '\'')
            });
            if cands.is_empty() {
                return false;
            }
            let all = rng.chance(0.6);
            for (n, &c) in cands.iter().enumerate() {
                if all || rng.chance(0.4) || n == 0 {
                    let style = StrStyle {
                        open: "'",
                        close: "'",
                        ..StrStyle::JSON
                    };
                    toks[c].text = render_str(&toks[c].content.clone(), style);
                    toks[c].locked = true;
                }
            }
            true
        }
        Fault::TrailingComma => {
            let cands = unlocked(toks, |i, t| {
                t.k == K::Close
                    && non_empty(toks, i)
                    && prev_sig(toks, i).is_some_and(|p| !toks[p].locked)
            });
            pick_and(toks, rng, &cands, |toks, c, _| {
                let Some(p) = prev_sig(toks, c) else { return };
                lock_around(toks, c);
                insert(toks, p + 1, ",", c);
            })
        }
        Fault::UnquotedKeys => {
            let cands = unlocked(toks, |_, t| standard_key(t) && is_ident(&t.content));
            if cands.is_empty() {
                return false;
            }
            let all = rng.chance(0.5);
            for (n, &c) in cands.iter().enumerate() {
                if all || rng.chance(0.4) || n == 0 {
                    toks[c].text = toks[c].content.clone();
                    toks[c].open_ended = true;
                    toks[c].locked = true;
                }
            }
            true
        }
        Fault::UnquotedValues => {
            let cands = unlocked(toks, |_, t| is_value_str(t) && bare_safe(&t.content));
            pick_and(toks, rng, &cands, |toks, c, _| {
                toks[c].text = toks[c].content.clone();
                toks[c].open_ended = true;
                lock_around(toks, c);
            })
        }
        Fault::ConcatenatedStrings => {
            let cands = unlocked(toks, |_, t| {
                is_value_str(t) && t.content.chars().count() >= 12 && t.content.contains(' ')
            });
            pick_and(toks, rng, &cands, |toks, c, _| {
                let content = toks[c].content.clone();
                let mut mid = content.len() / 2;
                while !content.is_char_boundary(mid) {
                    mid += 1;
                }
                let cut = content[mid..].find(' ').map_or(mid, |k| mid + k);
                let (a, b) = content.split_at(cut);
                toks[c].text = format!(
                    "{} + {}",
                    render_str(a, StrStyle::JSON),
                    render_str(b, StrStyle::JSON)
                );
                lock_around(toks, c);
            })
        }
        Fault::MissingOpener => {
            // The root object's `{`, when it comes first and a quoted key follows.
            let Some(first) = toks.iter().position(|t| t.is_sig()) else {
                return false;
            };
            let ok = toks[first].k == K::Open
                && toks[first].bracket == b'{'
                && !toks[first].locked
                && next_sig(toks, first).is_some_and(|n| standard_key(&toks[n]));
            if ok {
                toks[first].text.clear();
                lock_around(toks, first);
            }
            ok
        }
        Fault::StringifiedJson => {
            // An object member's value that is an object of plain scalars, on one line.
            let cands = unlocked(toks, |i, t| {
                t.k == K::Open && t.bracket == b'{' && t.parent == b'{' && plain_object(toks, i)
            });
            pick_and(toks, rng, &cands, |toks, o, _| {
                let close = matching_close(toks, o);
                let compact: String = toks[o..=close]
                    .iter()
                    .filter(|t| t.k != K::Ws)
                    .map(|t| match t.k {
                        K::Colon => ": ".to_string(),
                        K::Comma => ", ".to_string(),
                        _ => t.text.clone(),
                    })
                    .collect();
                toks[o].text = format!("\"{compact}");
                toks[o].k = K::Str;
                toks[o].content = compact.clone();
                for t in &mut toks[o + 1..=close] {
                    t.text.clear();
                    t.k = K::Noise;
                    t.locked = true;
                }
                toks[close].text = "\"".into();
                toks[close].k = K::Noise;
                lock_around(toks, o);
            })
        }
        Fault::PythonTuples => {
            let cands = unlocked(toks, |i, t| {
                t.k == K::Open && t.bracket == b'[' && {
                    let close = matching_close(toks, i);
                    let items = (i + 1..close)
                        .filter(|&j| toks[j].is_sig() && toks[j].k != K::Comma)
                        .count();
                    items >= 2
                        && (i + 1..close).all(|j| !toks[j].locked && !matches!(toks[j].k, K::Open))
                }
            });
            if cands.is_empty() {
                return false;
            }
            for &o in &cands {
                let close = matching_close(toks, o);
                toks[o].text = "(".into();
                toks[close].text = ")".into();
                toks[o].locked = true;
                toks[close].locked = true;
            }
            true
        }
        Fault::GroupedNumbers => {
            let cands = unlocked(toks, |_, t| {
                t.k == K::Num
                    && t.parent == b'{'
                    && t.content.chars().all(|c| c.is_ascii_digit() || c == '.')
                    && t.content.split('.').next().is_some_and(|i| i.len() >= 4)
            });
            if cands.is_empty() {
                return false;
            }
            for &c in &cands {
                let content = toks[c].content.clone();
                let (int, frac) = match content.split_once('.') {
                    Some((i, f)) => (i.to_string(), format!(".{f}")),
                    None => (content.clone(), String::new()),
                };
                let mut grouped = String::new();
                for (n, ch) in int.chars().enumerate() {
                    if n > 0 && (int.len() - n) % 3 == 0 {
                        grouped.push(',');
                    }
                    grouped.push(ch);
                }
                toks[c].text = format!("{grouped}{frac}");
                lock_around(toks, c);
            }
            true
        }
        Fault::EqualsColon => {
            let cands = unlocked(toks, |_, t| t.k == K::Colon);
            if cands.is_empty() {
                return false;
            }
            let arrow = rng.chance(0.3);
            let all = rng.chance(0.6);
            for (n, &c) in cands.iter().enumerate() {
                if all || n == 0 || rng.chance(0.3) {
                    toks[c].text = if arrow { " =>" } else { " =" }.into();
                    toks[c].locked = true;
                }
            }
            true
        }
        Fault::LowQuotes => {
            let cands = unlocked(toks, |_, t| {
                (is_value_str(t) || standard_key(t)) && quotable(&t.content, '"')
            });
            if cands.is_empty() {
                return false;
            }
            for (n, &c) in cands.iter().enumerate() {
                if n == 0 || rng.chance(0.5) {
                    let style = StrStyle {
                        open: "„",
                        close: "“",
                        ..StrStyle::JSON
                    };
                    toks[c].text = render_str(&toks[c].content.clone(), style);
                    toks[c].locked = true;
                }
            }
            true
        }
        Fault::PythonRepr
        | Fault::JsSingleQuotes
        | Fault::ProseComment
        | Fault::QuotedComment
        | Fault::CommentedOut
        | Fault::CommentAfterValue
        | Fault::PythonContainers
        | Fault::FullwidthPunctuation
        | Fault::DigitSeparators
        | Fault::OpenStringAtLineEnd
        | Fault::ExtraCloserPretty => crate::written::apply(fault, toks, rng),
        Fault::LatexBackslashes => {
            // A model that writes LaTeX so writes all of it.
            let cands = unlocked(toks, |_, t| {
                is_value_str(t) && crate::text::MATHS.contains(&t.content.as_str())
            });
            for &c in &cands {
                let style = StrStyle {
                    raw_backslashes: true,
                    ..StrStyle::JSON
                };
                toks[c].text = render_str(&toks[c].content.clone(), style);
                toks[c].locked = true;
            }
            !cands.is_empty()
        }
        Fault::ControlEscapes => {
            // Nothing to change: the tables stay as JSON writes them, locked so that no other
            // fault rewrites them.
            let cands = unlocked(toks, |_, t| {
                is_value_str(t) && crate::text::CONTROLS.contains(&t.content.as_str())
            });
            for &c in &cands {
                toks[c].locked = true;
            }
            !cands.is_empty()
        }
        Fault::EscapedJson
        | Fault::InlineCode
        | Fault::Truncation
        | Fault::TruncationComplete
        | Fault::DraftThenFinal
        | Fault::DecoyCodeFence
        | Fault::ThinkDecoy => false,
        // The forms real replies hold (their wrappers apply to the reply, not to tokens).
        _ => crate::forms::apply(fault, toks, rng),
    }
}

/// A closer written twice, before a comma or at the end (`[{"id": 1}}, …`); `first_on_line`:
/// only a closer that starts its line (`]]` where the layout shows one).
pub(crate) fn extra_closer(toks: &mut Vec<Tok>, rng: &mut Rng, first_on_line: bool) -> bool {
    let cands = unlocked(toks, |i, t| {
        t.k == K::Close
            && (!first_on_line
                || (i > 0 && toks[i - 1].k == K::Ws && toks[i - 1].text.starts_with('\n')))
            && match next_sig(toks, i) {
                Some(n) => toks[n].k == K::Comma,
                None => true,
            }
    });
    pick_and(toks, rng, &cands, |toks, c, _| {
        let text = toks[c].text.clone();
        lock_around(toks, c);
        insert(toks, c + 1, &text, c);
    })
}

pub(crate) fn pick_and(
    toks: &mut Vec<Tok>,
    rng: &mut Rng,
    cands: &[usize],
    edit: impl FnOnce(&mut Vec<Tok>, usize, &mut Rng),
) -> bool {
    if cands.is_empty() {
        return false;
    }
    let c = *rng.pick(cands);
    edit(toks, c, rng);
    true
}
