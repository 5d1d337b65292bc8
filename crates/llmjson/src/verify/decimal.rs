//! Numbers as written: digits and the precision they were written to. `12.30` is 1230 × 10⁻²,
//! not 12.3: the answer's precision decides which evidence can ground it (rounding is allowed
//! only toward a less precise answer).

/// `mant × 10^exp`, with `exp` the precision as written (`12.30` → 1230, -2; `3.2M` → 32, 5).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct Decimal {
    pub mant: i128,
    pub exp: i32,
}

/// Digits kept exactly: beyond this many, the low digits are dropped (the exponent grows).
const MAX_DIGITS: usize = 30;

impl Decimal {
    /// From ASCII digits with `decimals` of them after the mark, a sign and a power of ten.
    pub fn from_digits(digits: &[u8], decimals: usize, negative: bool, power: i32) -> Option<Self> {
        let first = digits.iter().position(|&d| d != b'0');
        let significant = first.map_or(&digits[digits.len()..], |f| &digits[f..]);
        let kept = significant.len().min(MAX_DIGITS);
        let mut mant: i128 = 0;
        for &d in &significant[..kept] {
            mant = mant * 10 + i128::from(d - b'0');
        }
        let dropped = (significant.len() - kept) as i32;
        let exp = power
            .checked_sub(i32::try_from(decimals).ok()?)?
            .checked_add(dropped)?;
        Some(Decimal {
            mant: if negative { -mant } else { mant },
            exp,
        })
    }

    /// The same value with trailing zeros stripped (zero is `0 × 10⁰`): equal values, equal keys.
    pub fn canonical(self) -> (i128, i32) {
        if self.mant == 0 {
            return (0, 0);
        }
        let (mut m, mut e) = (self.mant, self.exp);
        while m % 10 == 0 {
            m /= 10;
            e += 1;
        }
        (m, e)
    }

    /// The same number without its sign.
    pub fn magnitude(self) -> Self {
        Decimal {
            mant: self.mant.abs(),
            exp: self.exp,
        }
    }

    pub fn to_f64(self) -> f64 {
        self.mant as f64 * 10f64.powi(self.exp)
    }

    /// The same quantity as a fraction of one (`45%` → 0.45), or as a percentage (0.45 → 45).
    pub fn shifted(self, by: i32) -> Self {
        Decimal {
            mant: self.mant,
            exp: self.exp.saturating_add(by),
        }
    }

    /// `self` (evidence) grounds `answer`: the same value, or `answer` is `self` rounded to the
    /// answer's (coarser) precision, half a unit either way (ties go both ways).
    pub fn grounds(self, answer: Decimal) -> bool {
        if self.canonical() == answer.canonical() {
            return true;
        }
        if self.exp > answer.exp {
            return false;
        }
        let gap = answer.exp - self.exp;
        let (Some(scale), Some(unit)) = (pow10(gap), pow10(gap)) else {
            return self.close_f64(answer);
        };
        let Some(scaled) = answer.mant.checked_mul(scale) else {
            return self.close_f64(answer);
        };
        match self.mant.checked_sub(scaled) {
            Some(diff) => diff
                .unsigned_abs()
                .checked_mul(2)
                .is_some_and(|d| d <= unit.unsigned_abs()),
            None => self.close_f64(answer),
        }
    }

    /// Beyond exact arithmetic (exponents hundreds apart): within half the answer's unit.
    fn close_f64(self, answer: Decimal) -> bool {
        let unit = 10f64.powi(answer.exp);
        (self.to_f64() - answer.to_f64()).abs() <= unit / 2.0 * (1.0 + 1e-12)
    }

    /// `self` rounded to the precision `10^exp` (half away from zero); `None` when `exp` is
    /// finer than `self` already is.
    pub fn rounded(self, exp: i32) -> Option<Decimal> {
        if exp <= self.exp {
            return None;
        }
        let unit = pow10(exp - self.exp)?;
        let q = self.mant / unit;
        let r = self.mant % unit;
        let up = r.unsigned_abs() * 2 >= unit.unsigned_abs();
        let mant = if up { q + self.mant.signum() } else { q };
        Some(Decimal { mant, exp })
    }

    /// Reads back what [`Decimal::plain`] writes (`-12.30`, `3200000`, `12e40`); `None` for
    /// anything else.
    pub fn from_plain(s: &str) -> Option<Self> {
        let (negative, s) = match s.strip_prefix('-') {
            Some(rest) => (true, rest),
            None => (false, s),
        };
        let (body, power) = match s.split_once('e') {
            Some((body, power)) => (body, power.parse().ok()?),
            None => (s, 0),
        };
        let (int, frac) = body.split_once('.').unwrap_or((body, ""));
        let digits: Vec<u8> = int.bytes().chain(frac.bytes()).collect();
        if digits.is_empty() || !digits.iter().all(u8::is_ascii_digit) {
            return None;
        }
        Decimal::from_digits(&digits, frac.len(), negative, power)
    }

    /// The written form, for messages: digits with a `.` mark (`1230 × 10⁻²` → `12.30`).
    pub fn plain(self) -> String {
        let sign = if self.mant < 0 { "-" } else { "" };
        let digits = self.mant.unsigned_abs().to_string();
        if self.exp >= 0 {
            if self.exp > 30 {
                return format!("{sign}{digits}e{}", self.exp);
            }
            let zeros = if self.mant == 0 { 0 } else { self.exp as usize };
            return format!("{sign}{digits}{}", "0".repeat(zeros));
        }
        let decimals = self.exp.unsigned_abs() as usize;
        if decimals > 30 {
            return format!("{sign}{digits}e{}", self.exp);
        }
        let padded = format!("{digits:0>width$}", width = decimals + 1);
        let (int, frac) = padded.split_at(padded.len() - decimals);
        format!("{sign}{int}.{frac}")
    }
}

fn pow10(n: i32) -> Option<i128> {
    10i128.checked_pow(u32::try_from(n).ok()?)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(s: &str) -> Decimal {
        Decimal::from_plain(s).unwrap()
    }

    #[test]
    fn plain_reads_back() {
        for v in [
            d("12.30"),
            d("-0.05"),
            Decimal { mant: 32, exp: 5 },
            Decimal { mant: -7, exp: 40 },
            Decimal { mant: 3, exp: -35 },
        ] {
            // (The same value; `3200000` reads back with its zeros as digits.)
            let back = Decimal::from_plain(&v.plain()).map(Decimal::canonical);
            assert_eq!(back, Some(v.canonical()), "{}", v.plain());
        }
        assert_eq!(Decimal::from_plain("12,3"), None);
        assert_eq!(Decimal::from_plain(""), None);
        assert_eq!(Decimal::from_plain("-"), None);
    }

    #[test]
    fn rounding_grounds_only_a_less_precise_answer() {
        assert!(d("12.34").grounds(d("12.3")));
        assert!(!d("12.3").grounds(d("12.34")));
        assert!(d("12.35").grounds(d("12.4")) && d("12.35").grounds(d("12.3")));
        assert!(!d("12.36").grounds(d("12.3")));
        assert!(d("12.3").grounds(d("12.30")), "equal values always ground");
        assert!(d("-0.05").grounds(d("-0.1")));
        assert!(d("3215000").grounds(Decimal { mant: 32, exp: 5 }));
        assert!(!d("3260000").grounds(Decimal { mant: 32, exp: 5 }));
    }

    #[test]
    fn canonical_forms_and_printing() {
        assert_eq!(d("12.30").canonical(), d("12.3").canonical());
        assert_eq!(d("0.000").canonical(), (0, 0));
        assert_eq!(d("12.30").plain(), "12.30");
        assert_eq!(d("-0.05").plain(), "-0.05");
        assert_eq!(Decimal { mant: 32, exp: 5 }.plain(), "3200000");
        assert_eq!(d("12.35").rounded(-1), Some(d("12.4")));
        assert_eq!(d("-12.35").rounded(-1), Some(d("-12.4")));
    }

    #[test]
    fn long_digit_runs_keep_their_magnitude() {
        let long = Decimal::from_digits(&[b'9'; 40], 0, false, 0).unwrap();
        assert_eq!(long.exp, 10);
        assert!(long.grounds(long));
        assert!(Decimal { mant: 1, exp: 300 }.grounds(Decimal { mant: 1, exp: 300 }));
        assert!(!Decimal { mant: 1, exp: -300 }.grounds(Decimal { mant: 2, exp: 300 }));
    }
}
