//! The strings and numbers of a JSON value, each with its pointer and the subject its objects
//! bind it to: what the verify stage checks in a value, and indexes in JSON evidence.

use super::subject::{self, Subject};
use super::{tables, words};
use crate::value::Value;
use crate::Error;

/// A leaf of a JSON value that can state numbers.
pub(crate) enum Leaf<'v> {
    /// A string's text.
    Text(&'v str),
    /// A number's exact digits.
    Number(&'v str),
}

/// Visits every string and number of `value` in document order, with its JSON Pointer and the
/// subject its objects bind it to (keys are names, not text: they are not visited). An
/// explicit stack: no recursion.
///
/// An object binds what it holds when a member names a subject by its key (`"variant": "B"`,
/// `"year": 2023`), or when the object is a member whose key names one (`"Variant B": {…}`,
/// `"2023": {…}`).
pub(crate) fn walk_leaves<'v>(
    value: &'v Value,
    mut visit: impl FnMut(&str, Leaf<'_>, Subject) -> Result<(), Error>,
) -> Result<(), Error> {
    let mut stack: Vec<(String, &'v Value, Subject)> =
        vec![(String::new(), value, Subject::default())];
    while let Some((path, v, subject)) = stack.pop() {
        match v {
            Value::String(s) => visit(&path, Leaf::Text(s), subject)?,
            Value::Number(n) => visit(&path, Leaf::Number(&n.to_string()), subject)?,
            Value::Array(items) => {
                for (i, item) in items.iter().enumerate().rev() {
                    stack.push((format!("{path}/{i}"), item, subject));
                }
            }
            Value::Object(map) => {
                let own = object_subject(map.iter()).over(subject);
                for (k, item) in map.iter().rev() {
                    let key = crate::value::pointer_token(k);
                    let mut inner = own;
                    if matches!(item, Value::Object(_) | Value::Array(_)) {
                        if let Some((kind, id)) = tables::mention_in(k) {
                            inner.set(kind, id);
                        }
                    }
                    stack.push((format!("{path}/{key}"), item, inner));
                }
            }
            Value::Bool(_) | Value::Null => {}
        }
    }
    Ok(())
}

/// The subject an object's members name by their keys: `"variant": "B"`, `"sample": "A"`,
/// `"year": 2023`.
fn object_subject<'v>(members: impl Iterator<Item = (&'v String, &'v Value)>) -> Subject {
    let mut s = Subject::default();
    for (key, value) in members {
        let Some(word) = words::lookup(key.trim()) else {
            continue;
        };
        let Some((kind, words::Plural::One)) = word.kind else {
            continue;
        };
        let code = match value {
            Value::String(t) => t.trim().to_string(),
            Value::Number(n) => n.to_string(),
            _ => continue,
        };
        let id = match tables::mention_in(&code) {
            Some((k, id)) if k == kind => Some(id),
            _ if kind == words::Kind::Year => None,
            _ => subject::pack(&code),
        };
        if let Some(id) = id {
            s.set(kind, id);
        }
    }
    s
}
