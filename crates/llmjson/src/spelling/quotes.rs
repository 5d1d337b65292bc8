//! Quote characters: which ones open a string, and which ones may close it.
//!
//! A string opened with `"` closes only at `"`, so smart quotes inside normal text survive.
//! Strings opened with a smart or single quote accept the matching family of closers.

/// The family of the quote that opened a string.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum QuoteClass {
    /// `"`: closes at `"` only.
    Double,
    /// `'`: closes at `'` only.
    Single,
    /// `` ` ``: closes at `` ` ``, `´` or `'`.
    Backtick,
    /// `´`: closes at `´` or `'`.
    Acute,
    /// `“`, `”` or `„`: closes at `”`, `“` or `"`.
    SmartDouble,
    /// `‘` or `’`: closes at `’`, `‘` or `'`.
    SmartSingle,
    /// `\"` (JSON stringified once too often): closes at `\"` or `"`; `\\"` inside is a quote.
    Escaped,
    /// `"""` (a Python triple-quoted string): closes at `"""` only; a lone `"` inside is text.
    Triple,
}

pub(crate) const LEFT_DOUBLE: [u8; 3] = [0xE2, 0x80, 0x9C];
/// `”`.
pub(crate) const RIGHT_DOUBLE: [u8; 3] = [0xE2, 0x80, 0x9D];
/// `„`, the German low opening quote (closed by `“` or `”`).
const LOW_DOUBLE: [u8; 3] = [0xE2, 0x80, 0x9E];
const LEFT_SINGLE: [u8; 3] = [0xE2, 0x80, 0x98];
const RIGHT_SINGLE: [u8; 3] = [0xE2, 0x80, 0x99];
const ACUTE: [u8; 2] = [0xC2, 0xB4];

impl QuoteClass {
    /// The quote opening a string at `i`, with its byte length.
    pub(crate) fn opening_at(b: &[u8], i: usize) -> Option<(QuoteClass, usize)> {
        let rest = b.get(i..)?;
        match *rest.first()? {
            // `"""` never starts valid JSON (an empty string cannot be followed by a quote).
            b'"' if rest.starts_with(b"\"\"\"") => Some((QuoteClass::Triple, 3)),
            b'"' => Some((QuoteClass::Double, 1)),
            b'\'' => Some((QuoteClass::Single, 1)),
            // Three backticks are a Markdown fence, never a string delimiter.
            b'`' if rest.starts_with(b"```") => None,
            b'`' => Some((QuoteClass::Backtick, 1)),
            b'\\' if rest.get(1) == Some(&b'"') => Some((QuoteClass::Escaped, 2)),
            0xC2 if rest.starts_with(&ACUTE) => Some((QuoteClass::Acute, 2)),
            0xE2 if rest.starts_with(&LEFT_DOUBLE)
                || rest.starts_with(&RIGHT_DOUBLE)
                || rest.starts_with(&LOW_DOUBLE) =>
            {
                Some((QuoteClass::SmartDouble, 3))
            }
            0xE2 if rest.starts_with(&LEFT_SINGLE) || rest.starts_with(&RIGHT_SINGLE) => {
                Some((QuoteClass::SmartSingle, 3))
            }
            _ => None,
        }
    }

    /// Quotes kept as text in such a string come in pairs (quoted words: `"He said "yes""`).
    /// In single-quoted strings a quote kept as text is mostly an apostrophe (`'it's'`).
    pub(crate) fn paired(self) -> bool {
        matches!(
            self,
            QuoteClass::Double | QuoteClass::SmartDouble | QuoteClass::Escaped
        )
    }

    /// If a closer of this class starts at `i`, its byte length.
    pub(crate) fn closer_at(self, b: &[u8], i: usize) -> Option<usize> {
        let rest = &b[i..];
        let first = *rest.first()?;
        let smart = |a: &[u8; 3], c: &[u8; 3]| rest.starts_with(a) || rest.starts_with(c);
        match self {
            QuoteClass::Double => (first == b'"').then_some(1),
            QuoteClass::Single => (first == b'\'').then_some(1),
            QuoteClass::Backtick => match first {
                b'`' | b'\'' => Some(1),
                0xC2 if rest.starts_with(&ACUTE) => Some(2),
                _ => None,
            },
            QuoteClass::Acute => match first {
                b'\'' => Some(1),
                0xC2 if rest.starts_with(&ACUTE) => Some(2),
                _ => None,
            },
            QuoteClass::SmartDouble => match first {
                b'"' => Some(1),
                0xE2 if smart(&LEFT_DOUBLE, &RIGHT_DOUBLE) => Some(3),
                _ => None,
            },
            QuoteClass::SmartSingle => match first {
                b'\'' => Some(1),
                0xE2 if smart(&LEFT_SINGLE, &RIGHT_SINGLE) => Some(3),
                _ => None,
            },
            QuoteClass::Escaped => match first {
                b'"' => Some(1),
                b'\\' if rest.get(1) == Some(&b'"') => Some(2),
                _ => None,
            },
            QuoteClass::Triple => rest.starts_with(b"\"\"\"").then_some(3),
        }
    }

    /// Bytes the string scanner must stop at for this class (besides `\` and control bytes).
    pub(crate) fn stop_bytes(self) -> (u8, u8, u8) {
        match self {
            QuoteClass::Double => (b'"', b'"', b'"'),
            QuoteClass::Single => (b'\'', b'\'', b'\''),
            QuoteClass::Backtick => (b'`', b'\'', 0xC2),
            QuoteClass::Acute => (b'\'', 0xC2, 0xC2),
            QuoteClass::SmartDouble => (b'"', 0xE2, 0xE2),
            QuoteClass::SmartSingle => (b'\'', 0xE2, 0xE2),
            QuoteClass::Escaped | QuoteClass::Triple => (b'"', b'"', b'"'),
        }
    }
}

/// A quote of any class starts at `i`.
pub(crate) fn is_quote_at(b: &[u8], i: usize) -> bool {
    QuoteClass::opening_at(b, i).is_some()
}

/// The quote opening a string at `i`, if any (class and length).
pub(crate) fn quote_at(b: &[u8], i: usize) -> Option<(QuoteClass, usize)> {
    QuoteClass::opening_at(b, i)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn double_quoted_strings_close_only_at_ascii_double_quote() {
        let b = "“”\"".as_bytes();
        assert_eq!(QuoteClass::Double.closer_at(b, 0), None);
        assert_eq!(QuoteClass::Double.closer_at(b, 3), None);
        assert_eq!(QuoteClass::Double.closer_at(b, 6), Some(1));
        assert_eq!(QuoteClass::SmartDouble.closer_at(b, 3), Some(3));
    }

    #[test]
    fn opening_quotes_are_classified() {
        assert_eq!(
            QuoteClass::opening_at("‘a’".as_bytes(), 0),
            Some((QuoteClass::SmartSingle, 3))
        );
        assert_eq!(
            QuoteClass::opening_at("´a´".as_bytes(), 0),
            Some((QuoteClass::Acute, 2))
        );
        assert_eq!(QuoteClass::opening_at(b"a", 0), None);
    }
}
