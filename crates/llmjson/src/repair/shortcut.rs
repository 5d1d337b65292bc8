//! The parser's shortcuts, and (in tests) the switch that turns each off.

/// The parser's shortcuts: ways to reach the decision the search would make without asking it
/// spot by spot. Each must leave every outcome (value and full repair log) as it is; the unit
/// tests in `parser::lane::tests` turn each off in turn and compare, and
/// `scripts/outcomes.sh` compares whole commits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Shortcut {
    /// The fast lane: a valid value or key read by the strict reader in one go.
    Lane = 1,
    /// The convention lane: the fast lane also reads comments, bare keys, single quotes,
    /// Python literals and trailing commas where their reading is certain (`conventions.rs`).
    Conventions = 2,
    /// The clean path's strict skip of a valid string (`search.rs`).
    StringSkip = 4,
    /// The parser takes the readings the clean path vouched for without asking the grammar.
    Vouched = 8,
    /// A reply that is valid JSON cut short is found so by one check, and no container open at
    /// its end is read to the end again (`parse_at`, the fast lane); nor is a container the
    /// lane's last refused attempt was reading when it was refused (`lane::LaneRefusal`).
    CutShort = 16,
    /// A reply the same check finds invalid before its end is not read by the strict parse
    /// first, only to fail there (`parse_at`).
    StrictRefused = 32,
    /// The fast lane reads a key and its member's value as one stretch (`lane.rs`).
    Members = 64,
}

#[cfg(test)]
impl Shortcut {
    pub(crate) const ALL: [Shortcut; 7] = [
        Shortcut::Lane,
        Shortcut::Conventions,
        Shortcut::StringSkip,
        Shortcut::Vouched,
        Shortcut::CutShort,
        Shortcut::StrictRefused,
        Shortcut::Members,
    ];
}

/// Whether the parser takes `shortcut` (always, outside tests).
#[cfg(not(test))]
#[inline(always)]
pub(crate) fn shortcut(_shortcut: Shortcut) -> bool {
    true
}

#[cfg(test)]
thread_local! {
    /// The shortcuts turned off (a mask of [`Shortcut`] bits).
    pub(crate) static SHORTCUTS_OFF: std::cell::Cell<u8> = const { std::cell::Cell::new(0) };
}

#[cfg(test)]
pub(crate) fn shortcut(shortcut: Shortcut) -> bool {
    SHORTCUTS_OFF.with(|off| off.get() & shortcut as u8 == 0)
}
