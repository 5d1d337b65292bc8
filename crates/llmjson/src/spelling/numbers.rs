//! How numbers are spelled beyond JSON's grammar: the parts of a number-like token and what JSON
//! number an odd one reads as (`+1`, `.5`, `1.`, `1e`), digits grouped in thousands
//! (`1,299.99`), digits with `_` between them (`250_000`) and the typographic minus (`−12.5`).
//! The repair grammar prices these readings and the stream's live reader shows them; both read
//! the spelling here, so they agree on what a number is.

use super::MINUS_SIGN;

/// The parts of a number-like token.
#[derive(Debug, Clone, Copy)]
pub(crate) struct NumberShape {
    pub sign: u8,
    pub int_start: usize,
    pub int_digits: usize,
    pub frac_digits: Option<usize>,
    pub exp_digits: Option<usize>,
    pub end: usize,
}

impl NumberShape {
    /// The parts of the number-like token at `start` in `b[..end]` (it may not be a number at
    /// all). An exponent mark is read as one when digits follow it, or when `ends_at` says the
    /// token may end right after it (`1e` before a comma: cut short, `1e0`).
    pub(crate) fn read(
        b: &[u8],
        start: usize,
        end: usize,
        ends_at: impl Fn(usize) -> bool,
    ) -> NumberShape {
        let mut i = start;
        let sign = b.get(i).copied().unwrap_or(0);
        if sign == b'-' || sign == b'+' {
            i += 1;
        }
        let int_start = i;
        i += digits(&b[..end], i);
        let int_digits = i - int_start;
        let mut frac_digits = None;
        if i < end && b[i] == b'.' {
            let f = digits(&b[..end], i + 1);
            frac_digits = Some(f);
            i += 1 + f;
        }
        let mut exp_digits = None;
        if i < end && (b[i] == b'e' || b[i] == b'E') && (int_digits > 0 || frac_digits > Some(0)) {
            let mut j = i + 1;
            if j < end && (b[j] == b'+' || b[j] == b'-') {
                j += 1;
            }
            let e = digits(&b[..end], j);
            if e > 0 || j >= end || ends_at(j) {
                exp_digits = Some(e);
                i = j + e;
            }
        }
        NumberShape {
            sign,
            int_start,
            int_digits,
            frac_digits,
            exp_digits,
            end: i,
        }
    }

    /// RFC 8259 allows it as written.
    pub(crate) fn is_valid(&self, b: &[u8]) -> bool {
        self.sign != b'+'
            && self.int_digits > 0
            && self.frac_digits != Some(0)
            && self.exp_digits != Some(0)
            && !self.leading_zero(b)
    }

    /// `0789`: digits JSON cannot hold as a number.
    pub(crate) fn leading_zero(&self, b: &[u8]) -> bool {
        self.int_digits > 1 && b[self.int_start] == b'0'
    }

    /// No digit at all (a lone sign or dot).
    pub(crate) fn no_digits(&self) -> bool {
        self.int_digits == 0 && self.frac_digits.unwrap_or(0) == 0
    }

    /// The JSON number an odd spelling reads as: a leading `+` dropped and the digits JSON needs
    /// added (`+1` → `1`, `.5` → `0.5`, `-1.` → `-1.0`, `1e` → `1e0`, a lone `-` → `-0`). `text`
    /// is what the shape was read from; digits with a leading zero are no number (None).
    pub(crate) fn as_json(&self, text: &str) -> Option<String> {
        if self.leading_zero(text.as_bytes()) {
            return None;
        }
        let mut fixed = String::with_capacity(24);
        if self.sign == b'-' {
            fixed.push('-');
        }
        let int_end = self.int_start + self.int_digits;
        if self.int_digits == 0 {
            fixed.push('0');
        } else {
            fixed.push_str(&text[self.int_start..int_end]);
        }
        let mut k = int_end;
        if let Some(f) = self.frac_digits {
            fixed.push('.');
            fixed.push_str(&text[k + 1..k + 1 + f]);
            if f == 0 {
                fixed.push('0');
            }
            k += 1 + f;
        }
        if let Some(e) = self.exp_digits {
            fixed.push_str(&text[k..self.end]);
            if e == 0 {
                fixed.push('0');
            }
        }
        Some(fixed)
    }
}

/// How many ASCII digits start at `i` in `b`.
fn digits(b: &[u8], i: usize) -> usize {
    b.get(i..).map_or(0, |rest| {
        rest.iter().take_while(|d| d.is_ascii_digit()).count()
    })
}

/// A number with its digits grouped in thousands, as read so far.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Grouped {
    /// Not grouped: no `,ddd` group follows the first digits, or they have a fraction or an
    /// exponent.
    No,
    /// Grouped, up to here (a fraction after the last group included); what follows must end the
    /// token for the reading to hold.
    Ends(usize),
    /// `b[..end]` stops inside what may still become a group (`1,29`): the next bytes decide.
    Undecided,
}

/// `1,299.99`, `-12,000`: digits (a sign before them), then groups of a comma and three digits (a
/// fourth digit ends the groups), then a fraction, read in `b[..end]` from `i`. `more_may_come`: `end`
/// is where the text has arrived to, not where it ends (a group it cuts is undecided).
pub(crate) fn grouped(b: &[u8], i: usize, end: usize, more_may_come: bool) -> Grouped {
    let b = &b[..end];
    let first = NumberShape::read(b, i, end, |_| false);
    if first.frac_digits.is_some() || first.exp_digits.is_some() || first.int_digits == 0 {
        return Grouped::No;
    }
    let mut j = first.end;
    let mut groups = 0;
    while b.get(j) == Some(&b',') {
        let group = digits(b, j + 1);
        if more_may_come && j + 1 + group == end && group <= 3 {
            return Grouped::Undecided;
        }
        if group != 3 {
            break;
        }
        j += 4;
        groups += 1;
    }
    if groups == 0 {
        return Grouped::No;
    }
    if b.get(j) == Some(&b'.') {
        j += 1 + digits(b, j + 1);
    }
    Grouped::Ends(j)
}

/// `250_000`, `−12.5`, `1_000.5e1_0`: a number spelled with single `_` between digits or the
/// typographic minus, in `b[..end]` from `i`: where it ends, if it uses one of them (a JSON
/// number is not this spelling).
pub(crate) fn spelled_end(b: &[u8], i: usize, end: usize) -> Option<usize> {
    let b = &b[..end];
    let mut j = i;
    let mut spelled = false;
    if b[j..].starts_with(&MINUS_SIGN) {
        j += MINUS_SIGN.len();
        spelled = true;
    } else if b.get(j) == Some(&b'-') {
        j += 1;
    }
    // Digits, with single underscores between them.
    let digits = |j: &mut usize, spelled: &mut bool| {
        let start = *j;
        while *j < b.len() {
            if b[*j].is_ascii_digit() {
                *j += 1;
            } else if b[*j] == b'_' && *j > start && b.get(*j + 1).is_some_and(u8::is_ascii_digit) {
                *spelled = true;
                *j += 1;
            } else {
                break;
            }
        }
        *j > start
    };
    if !digits(&mut j, &mut spelled) {
        return None;
    }
    if b.get(j) == Some(&b'.') && b.get(j + 1).is_some_and(u8::is_ascii_digit) {
        j += 1;
        digits(&mut j, &mut spelled);
    }
    if matches!(b.get(j), Some(b'e' | b'E')) {
        let mut k = j + 1;
        if matches!(b.get(k), Some(b'+' | b'-')) {
            k += 1;
        }
        if b.get(k).is_some_and(u8::is_ascii_digit) {
            j = k;
            digits(&mut j, &mut spelled);
        }
    }
    spelled.then_some(j)
}

/// The JSON digits of a grouped or spelled number: separators and a leading `+` dropped, the
/// typographic minus made JSON's (`1,299.99` → `1299.99`, `−2_500` → `-2500`).
pub(crate) fn unspelled(raw: &str) -> String {
    raw.strip_prefix('+')
        .unwrap_or(raw)
        .chars()
        .filter(|&c| c != ',' && c != '_')
        .map(|c| if c == '\u{2212}' { '-' } else { c })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn json_of(text: &str) -> Option<String> {
        let shape = NumberShape::read(text.as_bytes(), 0, text.len(), |_| true);
        (shape.end == text.len()).then(|| shape.as_json(text))?
    }

    #[test]
    fn odd_spellings_read_as_the_json_number_they_mean() {
        for (odd, json) in [
            ("+1", "1"),
            (".5", "0.5"),
            ("-.5", "-0.5"),
            ("1.", "1.0"),
            ("1e", "1e0"),
            ("1.e5", "1.0e5"),
            ("2E+", "2E+0"),
            ("12", "12"),
        ] {
            assert_eq!(json_of(odd).as_deref(), Some(json), "{odd}");
        }
        assert_eq!(json_of("-").as_deref(), Some("-0"));
        assert_eq!(json_of(".").as_deref(), Some("0.0"));
        for no in ["007", "-007", "1.2.3", "1e5e"] {
            assert_eq!(json_of(no), None, "{no}");
        }
    }

    #[test]
    fn thousands_groups_are_digits_then_threes_then_a_fraction() {
        let g = |t: &str| grouped(t.as_bytes(), 0, t.len(), true);
        assert_eq!(g("1,299.99"), Grouped::Ends(8));
        assert_eq!(g("-12,000,000 "), Grouped::Ends(11));
        assert_eq!(g("999,000}"), Grouped::Ends(7));
        assert_eq!(g("1,2995"), Grouped::No);
        // Lakh-style `12,34,567` is not thousands; a first group of four is read as one.
        assert_eq!(g("12,34,567"), Grouped::No);
        assert_eq!(g("1234,567 "), Grouped::Ends(8));
        assert_eq!(g("+1,000 "), Grouped::Ends(6));
        assert_eq!(g("1.5,000"), Grouped::No);
        assert_eq!(g(",000"), Grouped::No);
        assert_eq!(g("1, 000"), Grouped::No);
        assert_eq!(g("1,29"), Grouped::Undecided);
        assert_eq!(g("1,000,"), Grouped::Undecided);
        assert_eq!(g("1,000,1x"), Grouped::Ends(5));
        // At the end of the whole text, a group of three is whole.
        let whole = |t: &str| grouped(t.as_bytes(), 0, t.len(), false);
        assert_eq!(whole("1,000"), Grouped::Ends(5));
        assert_eq!(whole("1,000,"), Grouped::Ends(5));
        assert_eq!(whole("1,29"), Grouped::No);
    }

    #[test]
    fn spelled_numbers_use_an_underscore_or_the_minus_sign() {
        let s = |t: &str| spelled_end(t.as_bytes(), 0, t.len());
        assert_eq!(s("250_000,"), Some(7));
        assert_eq!(s("\u{2212}12.5"), Some(7));
        assert_eq!(s("1_000.5e1_0"), Some(11));
        assert_eq!(s("1__0"), None);
        assert_eq!(s("_1"), None);
        assert_eq!(s("-12.5"), None);
        assert_eq!(unspelled("\u{2212}2_500"), "-2500");
        assert_eq!(unspelled("1,299.99"), "1299.99");
        assert_eq!(unspelled("+1,000"), "1000");
    }
}
