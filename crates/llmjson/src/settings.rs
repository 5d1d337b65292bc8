//! What the stages below the public [`crate::Options`] read of a call: its policies and limits
//! as one plain value, and the schema's one question of the repair stage (`KeyNames`) — never
//! the schema or the evidence themselves, which sit in higher layers. `Options::settings` builds
//! it at the top of each call; the pipeline and the schema stage take it.

use crate::limits::{DEFAULT_MAX_DEPTH, DEFAULT_MAX_REMOVED_RATIO, DEFAULT_MAX_SIZE};
use crate::policy::{
    Coercion, DuplicateKeys, GuardComments, InvalidItems, RepairLevel, Truncation,
};
use crate::repair::KeyNames;

/// A call's settings, as the stages read them (each field is the [`crate::Options`] field of
/// the same name, which documents it).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Settings<'o> {
    pub(crate) level: RepairLevel,
    pub(crate) truncation: Truncation,
    pub(crate) max_removed_ratio: f64,
    pub(crate) guard_comments: GuardComments,
    pub(crate) duplicate_keys: DuplicateKeys,
    pub(crate) max_size: usize,
    pub(crate) max_depth: usize,
    pub(crate) coercion: Coercion,
    pub(crate) latex: bool,
    pub(crate) invalid_items: InvalidItems,
    /// The schema's answer to "may this key be here?", when a schema guides the call.
    pub(crate) keys: Option<&'o dyn KeyNames>,
    /// A schema or evidence is set: a stage after the pipeline reads the whole log, so no
    /// shortcut may leave part of it out.
    pub(crate) later_stages: bool,
}

impl Default for Settings<'_> {
    /// The defaults of every option (`Options::default` is built from them).
    fn default() -> Self {
        Settings {
            level: RepairLevel::Full,
            truncation: Truncation::Complete,
            max_removed_ratio: DEFAULT_MAX_REMOVED_RATIO,
            guard_comments: GuardComments::Data,
            duplicate_keys: DuplicateKeys::Last,
            max_size: DEFAULT_MAX_SIZE,
            max_depth: DEFAULT_MAX_DEPTH,
            coercion: Coercion::Fit,
            latex: true,
            invalid_items: InvalidItems::Fail,
            keys: None,
            later_stages: false,
        }
    }
}

impl Settings<'_> {
    /// These settings with another truncation policy.
    pub(crate) fn truncation(self, truncation: Truncation) -> Self {
        Settings { truncation, ..self }
    }
}
