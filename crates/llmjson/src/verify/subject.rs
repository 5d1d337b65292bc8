//! Subjects: what a measurement is about (`Variant B`, `sample A`, `2023`), as the text binds
//! it. A number of the answer is grounded only by an evidence number of a compatible subject:
//! `Variant A reached 44.2 MPa` is not grounded by `Variant B: 44.2 MPa` (seed 004's
//! `cross_variant_mix`).

use super::words::{Kind, KINDS};

/// For each kind, the id of the subject in force (0: none named; [`MANY`]: several at once,
/// bound to none).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash)]
pub(crate) struct Subject([Id; KINDS]);

/// A subject's id within its kind: a short code packed as its bytes, a longer one hashed, a
/// year as itself.
pub(crate) type Id = u32;

/// Several subjects of a kind at once (`Variants A and B`): compatible with any.
pub(crate) const MANY: Id = Id::MAX;

/// A code longer than four bytes is hashed into ids with this bit set.
const HASHED: Id = 1 << 31;

impl Subject {
    pub fn set(&mut self, kind: Kind, id: Id) {
        self.0[kind.index()] = id;
    }

    pub fn get(&self, kind: Kind) -> Id {
        self.0[kind.index()]
    }

    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|&id| id == 0)
    }

    /// A hash of the whole subject (equal subjects, equal fingerprints).
    pub fn fingerprint(&self) -> u64 {
        self.0.iter().fold(0x9E37_79B9_7F4A_7C15u64, |h, &id| {
            (h ^ u64::from(id))
                .wrapping_mul(0x100_0000_01B3)
                .rotate_left(29)
        })
    }

    /// `self`, with the kinds it does not name taken from `under`.
    pub fn over(mut self, under: Subject) -> Subject {
        for (mine, theirs) in self.0.iter_mut().zip(under.0) {
            if *mine == 0 {
                *mine = theirs;
            }
        }
        self
    }

    /// The first kind both name, each as one subject, and differently: the two cannot be the
    /// same measurement.
    pub fn conflict(&self, other: &Subject) -> Option<Kind> {
        Kind::all().into_iter().find(|&k| {
            let (a, b) = (self.get(k), other.get(k));
            a != 0 && b != 0 && a != MANY && b != MANY && a != b
        })
    }

    /// `variant B`, `variant B, year 2023`: the kinds named, for diagnostics (one string, built
    /// once: every checked number carries its subject).
    pub fn describe(&self) -> String {
        use std::fmt::Write;
        let mut out = String::new();
        for k in Kind::all() {
            let id = self.get(k);
            if id == 0 || id == MANY {
                continue;
            }
            if !out.is_empty() {
                out.push_str(", ");
            }
            out.push_str(k.name());
            out.push(' ');
            if k == Kind::Year {
                let _ = write!(out, "{id}");
            } else if id & HASHED != 0 {
                let _ = write!(out, "#{id:08x}");
            } else {
                for c in id.to_be_bytes().into_iter().filter(|&c| c != 0) {
                    out.push(char::from(c));
                }
            }
        }
        out
    }
}

/// A code (`B`, `S1`, `L-07`, `12`, `IV`) as an id: up to 8 ASCII letters, digits or dashes,
/// upper-cased (leading zeros of a number dropped); `None` for anything else.
pub(crate) fn pack(code: &str) -> Option<Id> {
    let code = code.trim_matches('-');
    if code.is_empty()
        || code.len() > 8
        || !code.bytes().all(|c| c.is_ascii_alphanumeric() || c == b'-')
    {
        return None;
    }
    // `Sample 07` and `Sample 7` name the same thing.
    let code = if code.bytes().all(|c| c.is_ascii_digit()) {
        let digits = code.trim_start_matches('0');
        if digits.is_empty() {
            "0"
        } else {
            digits
        }
    } else {
        code
    };
    let upper = code.bytes().map(|c| c.to_ascii_uppercase());
    if code.len() <= 4 {
        return Some(upper.fold(0, |id, c| id << 8 | Id::from(c)));
    }
    let h = upper.fold(0x811C_9DC5u32, |h, c| {
        (h ^ u32::from(c)).wrapping_mul(0x0100_0193)
    });
    Some(HASHED | (h & !HASHED & !1) | 1)
}

/// A year as an id.
pub(crate) fn year(y: u16) -> Id {
    Id::from(y)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn subjects_conflict_only_when_both_name_one_kind_differently() {
        let mut a = Subject::default();
        a.set(Kind::Variant, pack("A").unwrap());
        let mut b = Subject::default();
        b.set(Kind::Variant, pack("b").unwrap());
        assert_eq!(a.conflict(&b), Some(Kind::Variant));
        assert_eq!(a.conflict(&Subject::default()), None);
        let mut many = Subject::default();
        many.set(Kind::Variant, MANY);
        assert_eq!(a.conflict(&many), None);
        b.set(Kind::Year, year(2023));
        assert_eq!(b.describe(), "variant B, year 2023");
        assert_eq!(pack("07"), pack("7"));
        assert_eq!(pack("café"), None);
    }
}
