//! The grammar's readings of a spot, as a table: `(text, spot, mode, open containers) ⇒
//! [(reading, repair, cost)]`, in the order listed (ties go to the first). The costs are written
//! as numbers (the cost table's, `cost.rs`): a change to a reading or to its price fails here,
//! at the spot it changes.

use super::*;
use crate::repair::index::StructIndex;
use crate::repair::lex::{Kind, Lex};
use crate::repair::parser::Kinds;
use crate::spelling::QuoteClass;
use crate::RepairLevel;

/// The readings of the spot at the first `⁁` of `marked` (the mark is not part of the text).
fn readings(marked: &str, mode: Mode, open: &[Kind]) -> Vec<(Action, Option<RepairKind>, Cost)> {
    let at = marked.find('⁁').expect("a spot");
    let text = marked.replacen('⁁', "", 1);
    let index = StructIndex::new();
    let ctx = Ctx {
        lex: Lex {
            text: &text,
            b: text.as_bytes(),
            end: text.len(),
            fence: None,
            index: &index,
        },
        doc_start: 0,
        draft_values: 0,
        only_truncation: false,
        level: RepairLevel::Full,
        schema: None,
    };
    // The parser's own view of its containers, each opened at byte 0.
    let opened = vec![0; open.len()];
    let stack = Kinds(open, &opened);
    let mut out = Readings::new();
    match mode {
        // Inside a string, the spot is where the string's scan stops (a quote, the end).
        Mode::Str { class, .. } => {
            let (stop_at, stop) = ctx.lex.string_stop(at, class);
            assert_eq!(stop_at, at, "the spot is where the scan stops");
            ctx.in_string(&stack, mode, at, stop, &mut out);
        }
        _ => ctx.successors(&stack, mode, at, &mut out),
    }
    (0..out.len())
        .map(|i| {
            let s = out.get(i);
            (s.action, s.kind, s.cost)
        })
        .collect()
}

const VALUE: Mode = Mode::Value { after_comma: false };
const NEXT: Mode = Mode::Next {
    after_string: false,
};
const KEY: Mode = Mode::Key { after_comma: false };
const OBJECT: &[Kind] = &[Kind::Object];
const ARRAY: &[Kind] = &[Kind::Array];

/// A `"` string's content opened at byte 7 (`{"a": "…`).
const IN_STRING: Mode = Mode::Str {
    class: QuoteClass::Double,
    key: false,
    open: 7,
    odd: false,
};

type Case = (
    &'static str,
    Mode,
    &'static [Kind],
    &'static [(Action, Option<RepairKind>, Cost)],
);

#[test]
fn each_spot_reads_as_the_table_says() {
    use RepairKind as K;
    let cases: &[Case] = &[
        // Plain JSON: one reading, free.
        ("{\"a\": ⁁1}", VALUE, OBJECT, &[(Action::Number, None, 0)]),
        (
            "{\"a\": 1 // note\n⁁}",
            NEXT,
            OBJECT,
            &[(Action::Close, None, 0)],
        ),
        // Conventions: the repair is logged, the price is the convention's (charged apart).
        (
            "{\"a\": ⁁'x'}",
            VALUE,
            OBJECT,
            &[(Action::OpenString, Some(K::SingleQuotes), 0)],
        ),
        (
            "{\"a\": ⁁True}",
            VALUE,
            OBJECT,
            &[(Action::Literal, Some(K::PythonLiteral), 0)],
        ),
        (
            "{⁁a: 1}",
            KEY,
            OBJECT,
            &[(Action::BareKey, Some(K::UnquotedKey), 0)],
        ),
        // Cosmetic.
        (
            "[1, 2,⁁]",
            Mode::Value { after_comma: true },
            ARRAY,
            &[(Action::EmptySlot, Some(K::TrailingComma), 1)],
        ),
        (
            "{\"a\": ⁁tru",
            VALUE,
            OBJECT,
            &[(Action::Literal, Some(K::CompletedTruncatedValue), 1)],
        ),
        // Structural, each at its price.
        (
            "{\"a\": 1 ⁁\"b\": 2}",
            NEXT,
            OBJECT,
            &[(Action::MissingComma, Some(K::MissingComma), 2)],
        ),
        (
            "{\"a\" ⁁1}",
            Mode::Colon,
            OBJECT,
            &[(Action::MissingColon, Some(K::MissingColon), 3)],
        ),
        (
            "{\"a\": ⁁x}",
            VALUE,
            OBJECT,
            &[(Action::UnquotedValue, Some(K::UnquotedString), 3)],
        ),
        (
            "{\"a\": ⁁}",
            VALUE,
            OBJECT,
            &[(Action::MissingValue, Some(K::MissingValue), 5)],
        ),
        // Several readings: the plain one first; the search compares them over the window.
        (
            "[1, 2⁁}",
            NEXT,
            ARRAY,
            &[
                (Action::Mismatched, Some(K::MismatchedCloser), 3),
                (Action::StrayCloser, Some(K::ExtraCloser), 4),
            ],
        ),
        (
            "{\"a\": \"say ⁁\"hi\" now\"}",
            IN_STRING,
            OBJECT,
            &[
                (Action::CloseString, None, 0),
                (Action::TextQuote, Some(K::UnescapedQuote), 3),
            ],
        ),
        // A quote kept as text right before a delimiter is loose.
        (
            "{\"a\": \"x⁁\"}",
            IN_STRING,
            OBJECT,
            &[
                (Action::CloseString, None, 0),
                (Action::TextQuote, Some(K::UnescapedQuote), 3 + 4),
            ],
        ),
    ];
    for &(marked, mode, open, want) in cases {
        assert_eq!(readings(marked, mode, open), want, "{marked:?} in {mode:?}");
    }
}
