//! A JSON number as written: integers that fit 64 bits are held as integers, every other number
//! keeps its text (`1.50` stays `1.50`, `1e400` stays `1e400`) and is read as `f64` on demand.

use std::fmt;

/// A JSON number with its exact digits.
///
/// ```
/// use llmjson::Number;
/// let n: Number = "1.50".parse()?;
/// assert_eq!(n.to_string(), "1.50");
/// assert_eq!(n.as_f64(), Some(1.5));
/// assert_eq!(n, "1.5".parse::<Number>()?); // equal as numbers
/// assert_eq!(Number::from(7u8).as_i64(), Some(7));
/// # Ok::<(), llmjson::NumberError>(())
/// ```
#[derive(Clone)]
pub struct Number(Repr);

#[derive(Clone)]
enum Repr {
    /// A non-negative integer that fits `u64`.
    PosInt(u64),
    /// A negative integer that fits `i64`.
    NegInt(i64),
    /// Anything else, as written (validated JSON number grammar).
    Text(Box<str>),
}

/// The text is not a JSON number (RFC 8259 grammar).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("not a JSON number: {0:?}")]
pub struct NumberError(pub String);

impl Number {
    /// From JSON number text whose shape [`scan`] already found (`integer`: no fraction, no
    /// exponent).
    #[inline]
    pub(crate) fn from_scanned(text: &str, integer: bool) -> Number {
        if integer && text.len() <= 20 {
            if let Some(digits) = text.strip_prefix('-') {
                if digits != "0" {
                    if let Ok(n) = text.parse::<i64>() {
                        return Number(Repr::NegInt(n));
                    }
                }
            } else if let Ok(n) = text.parse::<u64>() {
                return Number(Repr::PosInt(n));
            }
        }
        Number(Repr::Text(text.into()))
    }

    /// From an `f64`; `None` for NaN and the infinities (JSON has no spelling for them).
    /// The text is the shortest that reads back as the same `f64`.
    pub fn from_f64(value: f64) -> Option<Number> {
        if !value.is_finite() {
            return None;
        }
        if value.fract() == 0.0
            && value.abs() < 9.0e15
            && !(value == 0.0 && value.is_sign_negative())
        {
            // Whole numbers keep a decimal point, as serde_json writes them ("2.0").
            return Some(Number(Repr::Text(format!("{value:?}").into())));
        }
        let mut buf = ryu_like(value);
        if !buf.contains(['.', 'e', 'E']) {
            buf.push_str(".0");
        }
        Some(Number(Repr::Text(buf.into())))
    }

    /// The number as `i64`, when it is an integer in range.
    pub fn as_i64(&self) -> Option<i64> {
        match self.0 {
            Repr::PosInt(n) => i64::try_from(n).ok(),
            Repr::NegInt(n) => Some(n),
            Repr::Text(_) => None,
        }
    }

    /// The number as `u64`, when it is a non-negative integer in range.
    pub fn as_u64(&self) -> Option<u64> {
        match self.0 {
            Repr::PosInt(n) => Some(n),
            _ => None,
        }
    }

    /// The number as `f64` (the nearest; `None` only when it is beyond `f64`'s range).
    pub fn as_f64(&self) -> Option<f64> {
        match &self.0 {
            Repr::PosInt(n) => Some(*n as f64),
            Repr::NegInt(n) => Some(*n as f64),
            Repr::Text(t) => t.parse::<f64>().ok().filter(|f| f.is_finite()),
        }
    }

    /// Held as an `i64` (an integer in range).
    pub fn is_i64(&self) -> bool {
        self.as_i64().is_some()
    }

    /// Held as a `u64` (a non-negative integer in range).
    pub fn is_u64(&self) -> bool {
        matches!(self.0, Repr::PosInt(_))
    }

    /// Neither `i64` nor `u64`: a fraction, an exponent, `-0` or an integer beyond 64 bits.
    pub fn is_f64(&self) -> bool {
        matches!(self.0, Repr::Text(_))
    }

    /// Written as an integer (no fraction, no exponent), whatever its size.
    pub fn is_integer_text(&self) -> bool {
        match &self.0 {
            Repr::Text(t) => !t.contains(['.', 'e', 'E']),
            _ => true,
        }
    }

    /// The number's text, as it will be written (exact digits).
    pub fn to_text(&self) -> std::borrow::Cow<'_, str> {
        match &self.0 {
            Repr::Text(t) => std::borrow::Cow::Borrowed(t),
            Repr::PosInt(n) => std::borrow::Cow::Owned(itoa::Buffer::new().format(*n).to_owned()),
            Repr::NegInt(n) => std::borrow::Cow::Owned(itoa::Buffer::new().format(*n).to_owned()),
        }
    }

    /// Appends the number's text to `out`.
    pub(crate) fn write_to(&self, out: &mut String) {
        match &self.0 {
            Repr::Text(t) => out.push_str(t),
            Repr::PosInt(n) => out.push_str(itoa::Buffer::new().format(*n)),
            Repr::NegInt(n) => out.push_str(itoa::Buffer::new().format(*n)),
        }
    }

    /// `(negative, significant digits, exponent)`: equal numbers, equal triples.
    fn canonical(&self) -> (bool, String, i64) {
        let text = self.to_text();
        let (negative, rest) = match text.strip_prefix('-') {
            Some(r) => (true, r),
            None => (false, &*text),
        };
        let (mantissa, power) = match rest.find(['e', 'E']) {
            Some(i) => (&rest[..i], rest[i + 1..].parse::<i64>().unwrap_or(0)),
            None => (rest, 0),
        };
        let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
        let mut digits: String = int.chars().chain(frac.chars()).collect();
        let mut exp = power.saturating_sub(frac.len() as i64);
        let lead = digits.len() - digits.trim_start_matches('0').len();
        digits.drain(..lead);
        let trimmed = digits.trim_end_matches('0').len();
        exp = exp.saturating_add((digits.len() - trimmed) as i64);
        digits.truncate(trimmed);
        if digits.is_empty() {
            return (false, digits, 0);
        }
        (negative, digits, exp)
    }
}

/// The shortest text that reads back as `value` (Rust's `Display` for `f64` is exact and
/// shortest, but writes `1e300` as 1 followed by 300 zeros: large and small magnitudes use an
/// exponent, as JavaScript and serde_json do).
fn ryu_like(value: f64) -> String {
    let abs = value.abs();
    if abs != 0.0 && !(1e-7..1e21).contains(&abs) {
        let s = format!("{value:e}");
        // Rust writes `1e300`, `1.5e-8`: already valid JSON.
        return s;
    }
    format!("{value}")
}

impl PartialEq for Number {
    /// Equal as numbers: `1.50 == 1.5`, `1e2 == 100`, `-0 == 0`.
    fn eq(&self, other: &Number) -> bool {
        match (&self.0, &other.0) {
            (Repr::PosInt(a), Repr::PosInt(b)) => a == b,
            (Repr::NegInt(a), Repr::NegInt(b)) => a == b,
            (Repr::PosInt(_), Repr::NegInt(_)) | (Repr::NegInt(_), Repr::PosInt(_)) => false,
            _ => self.canonical() == other.canonical(),
        }
    }
}

impl fmt::Display for Number {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_text())
    }
}

impl fmt::Debug for Number {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Number({})", self.to_text())
    }
}

impl std::str::FromStr for Number {
    type Err = NumberError;

    /// Parses text that follows the JSON number grammar exactly.
    fn from_str(text: &str) -> Result<Number, NumberError> {
        match scan(text.as_bytes(), 0) {
            Some((end, integer)) if end == text.len() => Ok(Number::from_scanned(text, integer)),
            _ => Err(NumberError(text.to_string())),
        }
    }
}

/// The JSON number (`-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`) starting at `start`: where it ends, and whether it is written as an integer
/// (no fraction, no exponent). `None` when no valid number starts there.
#[inline]
pub(crate) fn scan(b: &[u8], start: usize) -> Option<(usize, bool)> {
    let digits = |mut i: usize| {
        while let Some(b'0'..=b'9') = b.get(i) {
            i += 1;
        }
        i
    };
    let mut i = start + usize::from(b.get(start) == Some(&b'-'));
    i = match b.get(i)? {
        b'0' => i + 1,
        b'1'..=b'9' => digits(i + 1),
        _ => return None,
    };
    let mut integer = true;
    if b.get(i) == Some(&b'.') {
        let end = digits(i + 1);
        if end == i + 1 {
            return None;
        }
        (i, integer) = (end, false);
    }
    if let Some(b'e' | b'E') = b.get(i) {
        i += 1;
        if let Some(b'+' | b'-') = b.get(i) {
            i += 1;
        }
        let end = digits(i);
        if end == i {
            return None;
        }
        (i, integer) = (end, false);
    }
    Some((i, integer))
}

macro_rules! from_unsigned {
    ($($t:ty)*) => {$(
        impl From<$t> for Number {
            fn from(n: $t) -> Number {
                Number(Repr::PosInt(n as u64))
            }
        }
    )*};
}
macro_rules! from_signed {
    ($($t:ty)*) => {$(
        impl From<$t> for Number {
            fn from(n: $t) -> Number {
                if n < 0 {
                    Number(Repr::NegInt(n as i64))
                } else {
                    Number(Repr::PosInt(n as u64))
                }
            }
        }
    )*};
}
from_unsigned!(u8 u16 u32 u64 usize);
from_signed!(i8 i16 i32 i64 isize);

#[cfg(test)]
mod tests {
    use super::*;

    fn n(text: &str) -> Number {
        text.parse().unwrap()
    }

    #[test]
    fn integers_in_range_are_integers_and_others_keep_their_text() {
        assert_eq!(n("18446744073709551615").as_u64(), Some(u64::MAX));
        assert_eq!(n("-9223372036854775808").as_i64(), Some(i64::MIN));
        assert!(n("18446744073709551616").is_f64());
        assert_eq!(
            n("18446744073709551616").to_string(),
            "18446744073709551616"
        );
        assert_eq!(n("-0").to_string(), "-0");
        assert_eq!(n("1.50").to_string(), "1.50");
        assert_eq!(n("1E+2").to_string(), "1E+2");
        assert_eq!(n("1e400").as_f64(), None);
    }

    #[test]
    fn equality_is_numeric_and_exact() {
        assert_eq!(n("1.50"), n("1.5"));
        assert_eq!(n("1e2"), n("100"));
        assert_eq!(n("0.0"), n("-0"));
        assert_eq!(
            n("12345678901234567890123"),
            n("1.2345678901234567890123e22")
        );
        assert_ne!(n("12345678901234567890123"), n("12345678901234567890124"));
        assert_ne!(n("1"), n("-1"));
        assert_ne!(n("1e400"), n("2e400"));
    }

    #[test]
    fn the_grammar_is_json_s() {
        for bad in [
            "", "-", "01", "1.", ".5", "+1", "1e", "1e+", "0x10", "1 ", "--1", "NaN",
        ] {
            assert!(bad.parse::<Number>().is_err(), "{bad:?}");
        }
        for good in ["0", "-0", "0.5", "10", "1e5", "1E-5", "-1.25e+10"] {
            assert!(good.parse::<Number>().is_ok(), "{good:?}");
        }
    }

    #[test]
    fn from_f64_reads_back_exactly() {
        for x in [
            0.1,
            2.0,
            -3.5,
            1e300,
            1.5e-8,
            123456.789,
            f64::MAX,
            f64::MIN_POSITIVE,
            -0.0,
        ] {
            let number = Number::from_f64(x).unwrap();
            assert!(number.to_string().parse::<Number>().is_ok(), "{number}");
            assert_eq!(number.as_f64(), Some(x), "{number}");
        }
        assert_eq!(Number::from_f64(2.0).unwrap().to_string(), "2.0");
        assert!(Number::from_f64(f64::NAN).is_none());
    }
}
