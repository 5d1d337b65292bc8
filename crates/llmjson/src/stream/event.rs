//! What a stream says happened (a leaf: the tree makes events, the live reader reports a
//! string's growth, the stream hands them out).

/// What happened in the stream since the caller last asked. Paths are JSON Pointers (RFC 6901:
/// `""` is the whole value, `/steps/0/title` a member of an element).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Event {
    /// An object's key was read; its value comes next at `path`.
    KeyStarted {
        /// The member's pointer.
        path: String,
    },
    /// An array got a new element at `path` (its index is the pointer's last token).
    ElementAppended {
        /// The element's pointer.
        path: String,
    },
    /// The string at `path` grew by `text` (at most one event per string per feed).
    StringGrew {
        /// The string's pointer.
        path: String,
        /// The new text, escapes decoded.
        text: String,
    },
    /// The value at `path` is complete (its closing quote, bracket or delimiter arrived).
    ValueCompleted {
        /// The value's pointer.
        path: String,
    },
    /// A value shown as complete before is read otherwise now: a repeated key replaced it, or
    /// the final parse (at [`StreamParser::finish`](crate::StreamParser::finish)) reads it
    /// differently.
    Revised {
        /// The pointer of the highest value that changed.
        path: String,
    },
    /// With a schema: the object at `path` closed without `property`, which the schema
    /// requires: it can no longer appear there.
    RequiredMissing {
        /// The object's pointer.
        path: String,
        /// The missing property.
        property: String,
    },
}

impl Event {
    /// The pointer of a [`Event::Revised`] event (`None` for the others): what a caller that
    /// showed the stream's values takes back.
    pub fn revised(&self) -> Option<&str> {
        match self {
            Event::Revised { path } => Some(path),
            _ => None,
        }
    }
}
