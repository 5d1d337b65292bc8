//! How JSON-like forms are spelled (literals, numbers beyond JSON's grammar, quotes, full-width
//! punctuation, reasoning and tool-call tags): the one table every reader asks — locate (is this JSON?),
//! the repair grammar and its lanes (what does it read as?), the stream's live reader (what does
//! the snapshot show?). Accepting a new spelling is one row here, and every reader agrees: the
//! tests below read each row through all of them.
//!
//! It imports only the value type: any stage may ask it.

pub(crate) mod latex;
pub(crate) mod numbers;
pub(crate) mod quotes;
pub(crate) use quotes::{is_quote_at as starts_quote, quote_at, QuoteClass};

/// `，` and `：`: full-width comma and colon (a CJK model's punctuation).
pub(crate) const WIDE_COMMA: [u8; 3] = [0xEF, 0xBC, 0x8C];
pub(crate) const WIDE_COLON: [u8; 3] = [0xEF, 0xBC, 0x9A];
/// `−` (U+2212), the minus sign of typeset text.
pub(crate) const MINUS_SIGN: [u8; 3] = [0xE2, 0x88, 0x92];

/// The characters a model formatting for markdown escapes inside JSON strings (`user\_id`,
/// `\*bold\*`, `\#tag`, `\[1\]`, `\> quote`, `\~`): `\` then one of these is that character.
pub(crate) fn markdown_escape(e: u8) -> bool {
    matches!(e, b'_' | b'*' | b'#' | b'[' | b']' | b'>' | b'~')
}

/// JSON's one-character escapes: the character the byte after `\` stands for (`\n`, `\"`, …).
pub(crate) fn simple_escape(e: u8) -> Option<char> {
    Some(match e {
        b'"' => '"',
        b'\\' => '\\',
        b'/' => '/',
        b'b' => '\u{8}',
        b'f' => '\u{c}',
        b'n' => '\n',
        b'r' => '\r',
        b't' => '\t',
        _ => return None,
    })
}

/// What a `\u` escape reads as: the one decoder of every reader, each of which applies its own
/// policy to the answer (the strict reader refuses all but a character; the repair parser logs
/// a lone surrogate as U+FFFD and completes a cut one; the stream's live reader waits for the
/// rest of a cut one).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum UnicodeEscape {
    /// A character, and the bytes its escape takes: 6, or 12 for a surrogate pair.
    Char(char, usize),
    /// A surrogate without its other half (the 6 bytes of its own escape).
    LoneSurrogate,
    /// The text ends inside the escape, or after a high surrogate where its low half may follow
    /// (only hex digits, or a prefix of `\u` and hex digits, before the end).
    Cut,
    /// Not four hex digits (`C:\users`).
    NotHex,
}

/// Decodes the `\u` escape whose backslash is at `at` in `b`, the text ending at `end`.
pub(crate) fn unicode_escape(b: &[u8], at: usize, end: usize) -> UnicodeEscape {
    let end = end.min(b.len());
    let hex = |p: usize| if p + 4 <= end { hex4(&b[p..]) } else { None };
    let digits = |from: usize| b.get(from.min(end)..end).unwrap_or(&[]);
    let Some(unit) = hex(at + 2) else {
        let cut = at + 6 > end && digits(at + 2).iter().all(u8::is_ascii_hexdigit);
        return if cut {
            UnicodeEscape::Cut
        } else {
            UnicodeEscape::NotHex
        };
    };
    match unit {
        0xD800..=0xDBFF => {
            let rest = digits(at + 6);
            if let Some(low) = hex(at + 8).filter(|low| (0xDC00..0xE000).contains(low)) {
                if rest.starts_with(b"\\u") {
                    let code = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00);
                    let pair = char::from_u32(code).unwrap_or('\u{FFFD}');
                    return UnicodeEscape::Char(pair, 12);
                }
            }
            // Fewer than six bytes left, all of them a beginning of a low half (`\u`, then
            // `d`, then `c`–`f`, then hex digits): it may still come. `\u00` cannot be one.
            let low_half_digit = |(k, d): (usize, &u8)| match k {
                0 => matches!(d, b'd' | b'D'),
                1 => matches!(d, b'c'..=b'f' | b'C'..=b'F'),
                _ => d.is_ascii_hexdigit(),
            };
            let may_follow = rest.len() < 6
                && rest.iter().zip(b"\\u").all(|(a, w)| a == w)
                && rest
                    .get(2..)
                    .unwrap_or(&[])
                    .iter()
                    .enumerate()
                    .all(low_half_digit);
            if may_follow {
                UnicodeEscape::Cut
            } else {
                UnicodeEscape::LoneSurrogate
            }
        }
        0xDC00..=0xDFFF => UnicodeEscape::LoneSurrogate,
        code => {
            char::from_u32(code).map_or(UnicodeEscape::LoneSurrogate, |c| UnicodeEscape::Char(c, 6))
        }
    }
}

/// The four hex digits a `\u` escape needs, at the start of `b`, and nothing else (a sign or a
/// fifth digit is not read).
pub(crate) fn hex4(b: &[u8]) -> Option<u32> {
    b.get(..4)?.iter().try_fold(0u32, |code, &d| {
        Some(code * 16 + char::from(d).to_digit(16)?)
    })
}

/// What a literal word reads as.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Literal {
    True,
    False,
    Null,
}

/// Who writes a literal this way: JSON's own spellings need no repair; the others are logged as
/// that convention's literal (`RepairKind::PythonLiteral`, `RepairKind::JavascriptLiteral`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Dialect {
    Json,
    Python,
    JavaScript,
}

/// One spelling of a literal.
#[derive(Debug)]
pub(crate) struct LiteralSpelling {
    pub word: &'static str,
    pub literal: Literal,
    pub dialect: Dialect,
    /// A word cut off by the end of the text that begins this one reads as it (`tru` under the
    /// `complete` truncation policy). Only the everyday spellings: `N` is not read as `NaN`.
    pub completes_cut: bool,
    /// The convention lane (a reply written in one convention, read without the search) reads
    /// it: every spelling of another language, which the grammar reads with one reading there
    /// (its convention charged once), but `-Infinity`, which starts where a number does.
    pub in_lane: bool,
    /// What the repair log says of it: `'True' became true`.
    pub read_as: &'static str,
}

/// A row: `spelling!("True" => true, Python, cut, lane)`.
macro_rules! spelling {
    ($word:literal => $value:tt, $dialect:ident, $cut:literal, $lane:literal) => {
        LiteralSpelling {
            word: $word,
            literal: spelling!(@literal $value),
            dialect: Dialect::$dialect,
            completes_cut: $cut,
            in_lane: $lane,
            read_as: concat!("'", $word, "' became ", stringify!($value)),
        }
    };
    (@literal true) => { Literal::True };
    (@literal false) => { Literal::False };
    (@literal null) => { Literal::Null };
}

/// Every literal spelling read: the word, what it reads as, its dialect, whether a cut word
/// completes to it, whether the convention lane reads it.
pub(crate) static LITERALS: &[LiteralSpelling] = &[
    spelling!("true" => true, Json, true, false),
    spelling!("false" => false, Json, true, false),
    spelling!("null" => null, Json, true, false),
    spelling!("True" => true, Python, true, true),
    spelling!("False" => false, Python, true, true),
    spelling!("None" => null, Python, true, true),
    spelling!("TRUE" => true, Python, false, true),
    spelling!("FALSE" => false, Python, false, true),
    spelling!("NULL" => null, Python, false, true),
    spelling!("Null" => null, Python, false, true),
    spelling!("undefined" => null, JavaScript, false, true),
    spelling!("NaN" => null, JavaScript, false, true),
    spelling!("Infinity" => null, JavaScript, false, true),
    // (Read where a number starts.)
    spelling!("-Infinity" => null, JavaScript, false, false),
];

/// The spelling `word` is, if it is one.
pub(crate) fn literal(word: &str) -> Option<&'static LiteralSpelling> {
    LITERALS.iter().find(|s| s.word == word)
}

/// `word` is a literal spelling.
pub(crate) fn is_literal(word: &str) -> bool {
    literal(word).is_some()
}

/// The literal a word cut off by the end of the text begins (`tru` → `true`), among the
/// spellings that complete a cut.
pub(crate) fn completing(cut: &str) -> Option<&'static LiteralSpelling> {
    if cut.is_empty() {
        return None;
    }
    LITERALS
        .iter()
        .find(|s| s.completes_cut && s.word.starts_with(cut))
}

/// Some spelling begins with `cut` (more text may make it one).
pub(crate) fn may_become_literal(cut: &str) -> bool {
    LITERALS.iter().any(|s| s.word.starts_with(cut))
}

/// The literal spelling `text` begins with, if any (not checked for a word boundary after it).
pub(crate) fn literal_prefix_of(text: &[u8]) -> Option<&'static LiteralSpelling> {
    LITERALS
        .iter()
        .find(|s| text.starts_with(s.word.as_bytes()))
}

/// Tags around a model's reasoning, skipped whole: JSON inside is a draft, not the answer (an
/// unclosed one runs to the end of the reply).
pub(crate) const REASONING_TAGS: &[(&str, &str)] =
    &[("<think>", "</think>"), ("<thinking>", "</thinking>")];

/// Tags around a tool call: the JSON inside is preferred, and the close tag ends it.
pub(crate) const TOOL_TAGS: &[(&str, &str)] = &[
    ("<tool_call>", "</tool_call>"),
    ("<function_call>", "</function_call>"),
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::Value;

    #[test]
    fn every_spelling_is_found_once_and_cut_words_complete_to_everyday_ones() {
        for s in LITERALS {
            assert!(
                std::ptr::eq(literal(s.word).expect("found"), s),
                "{}",
                s.word
            );
            assert_eq!(LITERALS.iter().filter(|t| t.word == s.word).count(), 1);
        }
        assert_eq!(completing("tru").map(|s| s.word), Some("true"));
        assert_eq!(completing("Fa").map(|s| s.word), Some("False"));
        assert_eq!(completing("N").map(|s| s.word), Some("None"));
        assert!(completing("NaN").is_none() && completing("").is_none());
        assert!(may_become_literal("Na") && !may_become_literal("nope"));
        assert_eq!(literal_prefix_of(b"None, 1").map(|s| s.word), Some("None"));
    }

    fn parsed(text: &str) -> crate::Parsed {
        crate::parse(text, &crate::Options::default()).unwrap_or_else(|e| panic!("{text}: {e}"))
    }

    /// The snapshot after `text` arrives a byte at a time, without the end.
    fn shown(text: &str) -> Option<Value> {
        let mut stream = crate::StreamParser::new(crate::Options::default());
        for b in text.as_bytes().chunks(1) {
            stream.feed_bytes(b).expect("fed");
        }
        stream.snapshot().value
    }

    #[test]
    fn every_reader_reads_every_spelling_alike() {
        for s in LITERALS {
            let (word, want) = (s.word, Value::from(s));
            let object = |a: Value| Value::Object([("a".to_string(), a)].into_iter().collect());
            // The grammar, with the repair its dialect is logged as.
            let p = parsed(&format!("{{\"a\": {word}, \"b\": 1}}"));
            assert_eq!(p.value.get("a"), Some(&want), "{word}");
            let kinds: Vec<_> = p.repairs.iter().map(|r| r.kind).collect();
            let expected: Vec<_> = crate::repair::grammar::repair_of(s.dialect)
                .into_iter()
                .collect();
            assert_eq!(kinds, expected, "{word}");
            // Locate: a list after prose that starts with it is JSON.
            let p = parsed(&format!("The values: [{word}, 1] as asked."));
            assert_eq!(
                p.value,
                Value::Array(vec![want.clone(), Value::from(1)]),
                "{word}"
            );
            // The convention lane (a reply in single quotes) and a bare key's object.
            let p = parsed(&format!("{{'a': {word}, 'b': 'x'}}"));
            assert_eq!(p.value.get("a"), Some(&want), "{word}");
            let p = parsed(&format!("{{a: {word}}}"));
            assert_eq!(p.value, object(want.clone()), "{word}");
            // The stream's live reader: in a snapshot before the end, after prose too.
            let text = format!("{{\"a\": {word}, \"b\": ");
            assert_eq!(shown(&text), Some(object(want.clone())), "{word}");
            let text = format!("Here: [{word}, ");
            assert_eq!(
                shown(&text),
                Some(Value::Array(vec![want.clone()])),
                "{word}"
            );
            // A cut word completes to the everyday spellings only, in parse and in a snapshot.
            let cut = &word[..word.len() - 1];
            let completed = crate::parse(&format!("{{\"a\": {cut}"), &crate::Options::default())
                .ok()
                .and_then(|p| p.value.get("a").cloned());
            let snapshot = shown(&format!("{{\"a\": {cut}")).and_then(|v| v.get("a").cloned());
            if s.completes_cut {
                assert_eq!(completed.as_ref(), Some(&want), "{cut}");
                assert_eq!(snapshot.as_ref(), Some(&want), "{cut}");
            } else {
                assert_ne!(completed.as_ref(), Some(&want), "{cut}");
                assert_ne!(snapshot.as_ref(), Some(&want), "{cut}");
            }
        }
    }

    #[test]
    fn every_reader_reads_every_number_spelling_alike() {
        // (as written, what it reads as): odd, grouped in thousands, spelled with `_` or `−`.
        let spellings = [
            (".5", "0.5"),
            ("+1", "1"),
            ("1.", "1.0"),
            ("-.25", "-0.25"),
            ("1,299.99", "1299.99"),
            ("-12,000,000", "-12000000"),
            ("250_000", "250000"),
            ("1_000.5", "1000.5"),
            ("\u{2212}12.5", "-12.5"),
            ("\u{2212}3", "-3"),
        ];
        for (written, json) in spellings {
            let want: Value = json.parse().expect("a number");
            let object = |a: Value| Value::Object([("a".to_string(), a)].into_iter().collect());
            let p = parsed(&format!("{{\"a\": {written}, \"b\": 1}}"));
            assert_eq!(p.value.get("a"), Some(&want), "{written}");
            let p = parsed(&format!("{{a: {written}}}"));
            assert_eq!(p.value, object(want.clone()), "{written}");
            let p = parsed(&format!("{{'a': {written}, 'b': 'x'}}"));
            assert_eq!(p.value.get("a"), Some(&want), "{written}");
            // The live reader, once what follows the number has arrived.
            let text = format!("{{\"a\": {written}, \"b\": ");
            assert_eq!(shown(&text), Some(object(want.clone())), "{written}");
            let text = format!("Here: {{\"a\": {written}}}");
            assert_eq!(shown(&text), Some(object(want.clone())), "{written}");
        }
        // Digits in a list are items, not groups; a leading zero is kept as written.
        let p = parsed("[1,299, 3]");
        assert_eq!(p.value, "[1, 299, 3]".parse::<Value>().expect("json"));
        assert_eq!(shown("[1,299, 3,"), Some(p.value));
        let p = parsed("{\"a\": 007, \"b\": 1}");
        assert_eq!(p.value.get("a"), Some(&Value::from("007")));
        let snapshot = shown("{\"a\": 007, \"b\": ").and_then(|v| v.get("a").cloned());
        assert_eq!(snapshot, Some(Value::from("007")));
    }

    #[test]
    fn every_reader_skips_every_reasoning_block() {
        for (open, close) in REASONING_TAGS {
            let reply = format!("{open}Draft: {{\"a\": 1}}{close}\nAnswer: {{\"a\": 2}}");
            assert_eq!(
                parsed(&reply).value.get("a"),
                Some(&Value::from(2)),
                "{open}"
            );
            // The stream never shows the draft.
            let mut stream = crate::StreamParser::new(crate::Options::default());
            for b in reply.as_bytes().chunks(1) {
                stream.feed_bytes(b).expect("fed");
                let a = stream.snapshot().value.and_then(|v| v.get("a").cloned());
                assert_ne!(a, Some(Value::from(1)), "{open}");
            }
            let value = stream.finish().expect("parsed").value;
            assert_eq!(value.get("a"), Some(&Value::from(2)), "{open}");
        }
    }

    #[test]
    fn every_reader_decodes_every_escape_alike() {
        let simple = b"\"\\/bfnrt".iter().map(|&e| {
            let c = simple_escape(e).expect("an escape");
            (format!("\\{}", e as char), c)
        });
        // `\u` escapes: a character, or a surrogate pair.
        let unicode = [("\\u00e9", 'é'), ("\\ud83d\\ude00", '😀'), ("\\u0041", 'A')]
            .map(|(escape, c)| (escape.to_string(), c));
        for (escape, c) in simple.chain(unicode) {
            let want = Value::String(format!("{c}x"));
            // The strict reader (a valid reply), the repair parser (a comma missing after it),
            // the stream's live reader (the string still open).
            let valid = parsed(&format!("{{\"a\": \"{escape}x\"}}"));
            let repaired = parsed(&format!("{{\"a\": \"{escape}x\" \"b\": 1}}"));
            let shown = shown(&format!("{{\"a\": \"{escape}x"));
            assert_eq!(valid.value.get("a"), Some(&want), "{escape}");
            assert_eq!(repaired.value.get("a"), Some(&want), "{escape}");
            assert_eq!(
                shown.as_ref().and_then(|v| v.get("a")),
                Some(&want),
                "{escape}"
            );
        }
        assert_eq!(hex4(b"00e9"), Some(0xe9));
        assert_eq!(hex4(b"+0e9"), None);
        assert_eq!(hex4(b"0e9"), None);
    }

    #[test]
    fn a_unicode_escape_reads_as_one_decoder_says() {
        use UnicodeEscape::*;
        let read = |text: &str| unicode_escape(text.as_bytes(), 0, text.len());
        assert_eq!(read("\\u00e9 rest"), Char('é', 6));
        assert_eq!(read("\\ud83d\\ude00"), Char('😀', 12));
        // A lone surrogate: a high one before other text, or before a low half that is not
        // one; a low one alone.
        assert_eq!(read("\\ud83d rest of it"), LoneSurrogate);
        assert_eq!(read("\\ud83d\\u0041"), LoneSurrogate);
        assert_eq!(read("\\ude00"), LoneSurrogate);
        // Cut: inside the four digits, or after a high surrogate where the low one may follow
        // (`\uD`, `\uDC`…); a cut escape that cannot be the low half leaves the high one lone.
        let cases = [
            ("\\u", Cut),
            ("\\u2", Cut),
            ("\\u26a", Cut),
            ("\\ud83d", Cut),
            ("\\ud83d\\", Cut),
            ("\\ud83d\\u", Cut),
            ("\\ud83d\\uD", Cut),
            ("\\ud83d\\uDC", Cut),
            ("\\ud83d\\ude0", Cut),
            ("\\ud83d\\x", LoneSurrogate),
            ("\\ud83d\\u00", LoneSurrogate),
            ("\\ud83d\\u4", LoneSurrogate),
            ("\\ud83d\\uda", LoneSurrogate),
            ("\\ud83d\\uD0", LoneSurrogate),
        ];
        for (text, want) in cases {
            assert_eq!(read(text), want, "{text}");
        }
        // Not hex: `C:\users`.
        assert_eq!(read("\\users"), NotHex);
        assert_eq!(read("\\u2g"), NotHex);
        // The end given is where the text stops, whatever follows it.
        assert_eq!(unicode_escape(b"\\u00e9", 0, 4), Cut);
        assert_eq!(unicode_escape(b"\\ud83d\\ude00", 0, 6), Cut);
    }
}
