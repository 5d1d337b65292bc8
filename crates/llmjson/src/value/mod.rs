//! llmjson's value: what the repair stage builds and every stage after it reads.
//!
//! Objects keep the reply's key order and numbers keep their exact digits, without asking
//! serde_json for its `preserve_order` and `arbitrary_precision` features (features unify across
//! a build: turning them on would change serde_json for every crate in a user's program).
//! [`Value`] implements serde's `Serialize` and `Deserialize`, is itself a serde `Deserializer`
//! ([`crate::from_value`]), converts to and from `serde_json::Value`, and writes itself as JSON
//! with exact digits (`Display`: compact; `{:#}`: pretty).

mod convert;
mod map;
pub(crate) mod number;
pub(crate) mod parse;
pub(crate) mod serde_impl;
pub(crate) mod write;

pub(crate) use map::NULL;
pub use map::{Entry, IntoIter, Iter, IterMut, Map, OccupiedEntry, VacantEntry, Value};
pub use number::{Number, NumberError};

impl Value {
    /// Is `null`.
    pub fn is_null(&self) -> bool {
        matches!(self, Value::Null)
    }
    /// Is `true` or `false`.
    pub fn is_boolean(&self) -> bool {
        matches!(self, Value::Bool(_))
    }
    /// Is a number.
    pub fn is_number(&self) -> bool {
        matches!(self, Value::Number(_))
    }
    /// Is a string.
    pub fn is_string(&self) -> bool {
        matches!(self, Value::String(_))
    }
    /// Is an array.
    pub fn is_array(&self) -> bool {
        matches!(self, Value::Array(_))
    }
    /// Is an object.
    pub fn is_object(&self) -> bool {
        matches!(self, Value::Object(_))
    }
    /// The boolean, if it is one.
    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Value::Bool(b) => Some(*b),
            _ => None,
        }
    }
    /// The string, if it is one.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::String(s) => Some(s),
            _ => None,
        }
    }
    /// The number, if it is one.
    pub fn as_number(&self) -> Option<&Number> {
        match self {
            Value::Number(n) => Some(n),
            _ => None,
        }
    }
    /// The number as `i64`, if it is an integer in range.
    pub fn as_i64(&self) -> Option<i64> {
        self.as_number().and_then(Number::as_i64)
    }
    /// The number as `u64`, if it is a non-negative integer in range.
    pub fn as_u64(&self) -> Option<u64> {
        self.as_number().and_then(Number::as_u64)
    }
    /// The number as `f64`, if it is a number within `f64`'s range.
    pub fn as_f64(&self) -> Option<f64> {
        self.as_number().and_then(Number::as_f64)
    }
    /// The array, if it is one.
    pub fn as_array(&self) -> Option<&Vec<Value>> {
        match self {
            Value::Array(a) => Some(a),
            _ => None,
        }
    }
    /// The array, mutably, if it is one.
    pub fn as_array_mut(&mut self) -> Option<&mut Vec<Value>> {
        match self {
            Value::Array(a) => Some(a),
            _ => None,
        }
    }
    /// The object, if it is one.
    pub fn as_object(&self) -> Option<&Map> {
        match self {
            Value::Object(m) => Some(m),
            _ => None,
        }
    }
    /// The object, mutably, if it is one.
    pub fn as_object_mut(&mut self) -> Option<&mut Map> {
        match self {
            Value::Object(m) => Some(m),
            _ => None,
        }
    }
    /// A member of an object or an element of an array.
    pub fn get<I: Index>(&self, index: I) -> Option<&Value> {
        index.index_into(self)
    }
    /// A member of an object or an element of an array, mutably.
    pub fn get_mut<I: Index>(&mut self, index: I) -> Option<&mut Value> {
        index.index_into_mut(self)
    }
    /// The value at a JSON Pointer (RFC 6901): `""` is the whole value, `"/a/0"` a member's
    /// first element.
    pub fn pointer(&self, pointer: &str) -> Option<&Value> {
        let mut at = self;
        for token in pointer_tokens(pointer)? {
            at = match at {
                Value::Object(map) => map.get(&token)?,
                Value::Array(items) => {
                    if token.len() > 1 && token.starts_with('0') {
                        return None;
                    }
                    items.get(token.parse::<usize>().ok()?)?
                }
                _ => return None,
            };
        }
        Some(at)
    }
    /// Takes the value out, leaving `null`.
    pub fn take(&mut self) -> Value {
        std::mem::take(self)
    }
    /// The JSON type's name: `null`, `boolean`, `number`, `string`, `array`, `object`.
    pub fn type_name(&self) -> &'static str {
        match self {
            Value::Null => "null",
            Value::Bool(_) => "boolean",
            Value::Number(_) => "number",
            Value::String(_) => "string",
            Value::Array(_) => "array",
            Value::Object(_) => "object",
        }
    }
}

/// Appends `key` to a JSON Pointer as one reference token (RFC 6901: `~` is written `~0`, `/`
/// is written `~1`), without the `/` before it. Every pointer the crate writes goes through here.
pub(crate) fn push_pointer_token(out: &mut String, key: &str) {
    if !key.bytes().any(|b| b == b'~' || b == b'/') {
        out.push_str(key);
        return;
    }
    for c in key.chars() {
        match c {
            '~' => out.push_str("~0"),
            '/' => out.push_str("~1"),
            c => out.push(c),
        }
    }
}

/// `key` as one reference token of a JSON Pointer ([`push_pointer_token`]).
pub(crate) fn pointer_token(key: &str) -> std::borrow::Cow<'_, str> {
    if key.bytes().any(|b| b == b'~' || b == b'/') {
        let mut out = String::with_capacity(key.len() + 2);
        push_pointer_token(&mut out, key);
        std::borrow::Cow::Owned(out)
    } else {
        std::borrow::Cow::Borrowed(key)
    }
}

/// The reference tokens of a JSON Pointer (RFC 6901), unescaped: none for `""` (the whole
/// value); `None` when the pointer does not start with `/`.
pub(crate) fn pointer_tokens(pointer: &str) -> Option<impl Iterator<Item = String> + '_> {
    let rest = match pointer {
        "" => None,
        _ => Some(pointer.strip_prefix('/')?),
    };
    Some(
        rest.into_iter()
            .flat_map(|r| r.split('/'))
            .map(|t| t.replace("~1", "/").replace("~0", "~")),
    )
}

/// The JSON Pointer `pointer` is `outer` or points inside it (`/a/b` is within `/a`, not within
/// `/ab`).
pub(crate) fn pointer_within(pointer: &str, outer: &str) -> bool {
    pointer
        .strip_prefix(outer)
        .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
}

/// What can index a [`Value`]: `&str` (an object's key) or `usize` (an array's position).
pub trait Index: private::Sealed {
    #[doc(hidden)]
    fn index_into(self, value: &Value) -> Option<&Value>;
    #[doc(hidden)]
    fn index_into_mut(self, value: &mut Value) -> Option<&mut Value>;
}

mod private {
    pub trait Sealed {}
    impl Sealed for usize {}
    impl Sealed for &str {}
    impl Sealed for &String {}
}

impl Index for usize {
    fn index_into(self, value: &Value) -> Option<&Value> {
        value.as_array()?.get(self)
    }
    fn index_into_mut(self, value: &mut Value) -> Option<&mut Value> {
        value.as_array_mut()?.get_mut(self)
    }
}

impl Index for &str {
    fn index_into(self, value: &Value) -> Option<&Value> {
        value.as_object()?.get(self)
    }
    fn index_into_mut(self, value: &mut Value) -> Option<&mut Value> {
        value.as_object_mut()?.get_mut(self)
    }
}

impl Index for &String {
    fn index_into(self, value: &Value) -> Option<&Value> {
        value.as_object()?.get(self)
    }
    fn index_into_mut(self, value: &mut Value) -> Option<&mut Value> {
        value.as_object_mut()?.get_mut(self)
    }
}

/// `value["key"]` and `value[0]` read like serde_json's: a missing member is `null` (never a
/// panic).
impl<I: Index> std::ops::Index<I> for Value {
    type Output = Value;
    fn index(&self, index: I) -> &Value {
        index.index_into(self).unwrap_or(&NULL)
    }
}

impl std::fmt::Debug for Value {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Value::Null => f.write_str("Null"),
            Value::Bool(b) => write!(f, "Bool({b})"),
            Value::Number(n) => write!(f, "Number({n})"),
            Value::String(s) => write!(f, "String({s:?})"),
            Value::Array(items) => {
                f.write_str("Array ")?;
                f.debug_list().entries(items).finish()
            }
            Value::Object(map) => {
                f.write_str("Object ")?;
                map.fmt(f)
            }
        }
    }
}

impl PartialEq for Value {
    /// Structural equality; numbers equal as numbers (`1.50 == 1.5`), objects regardless of
    /// member order (as serde_json compares).
    fn eq(&self, other: &Value) -> bool {
        match (self, other) {
            (Value::Null, Value::Null) => true,
            (Value::Bool(a), Value::Bool(b)) => a == b,
            (Value::Number(a), Value::Number(b)) => a == b,
            (Value::String(a), Value::String(b)) => a == b,
            (Value::Array(a), Value::Array(b)) => a == b,
            (Value::Object(a), Value::Object(b)) => a == b,
            _ => false,
        }
    }
}

impl PartialEq<serde_json::Value> for Value {
    fn eq(&self, other: &serde_json::Value) -> bool {
        use serde_json::Value as J;
        match (self, other) {
            (Value::Null, J::Null) => true,
            (Value::Bool(a), J::Bool(b)) => a == b,
            (Value::Number(a), J::Number(b)) => *a == Number::from(b),
            (Value::String(a), J::String(b)) => a == b,
            (Value::Array(a), J::Array(b)) => {
                a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x == y)
            }
            (Value::Object(a), J::Object(b)) => {
                a.len() == b.len() && b.iter().all(|(k, y)| a.get(k).is_some_and(|x| x == y))
            }
            _ => false,
        }
    }
}

impl PartialEq<Value> for serde_json::Value {
    fn eq(&self, other: &Value) -> bool {
        other == self
    }
}

impl PartialEq<bool> for Value {
    fn eq(&self, other: &bool) -> bool {
        self.as_bool() == Some(*other)
    }
}
impl PartialEq<str> for Value {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == Some(other)
    }
}
impl PartialEq<&str> for Value {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == Some(*other)
    }
}
impl PartialEq<String> for Value {
    fn eq(&self, other: &String) -> bool {
        self.as_str() == Some(other.as_str())
    }
}
impl PartialEq<f64> for Value {
    fn eq(&self, other: &f64) -> bool {
        match self.as_number() {
            Some(n) => Number::from_f64(*other).is_some_and(|o| *n == o),
            None => false,
        }
    }
}
macro_rules! eq_integer {
    ($($t:ty)*) => {$(
        impl PartialEq<$t> for Value {
            fn eq(&self, other: &$t) -> bool {
                self.as_number() == Some(&Number::from(*other))
            }
        }
    )*};
}
eq_integer!(i8 i16 i32 i64 isize u8 u16 u32 u64 usize);

#[cfg(test)]
mod tests;

impl From<&crate::spelling::LiteralSpelling> for Value {
    /// The value a literal's spelling reads as (`True` → `true`).
    fn from(spelling: &crate::spelling::LiteralSpelling) -> Self {
        match spelling.literal {
            crate::spelling::Literal::True => Value::Bool(true),
            crate::spelling::Literal::False => Value::Bool(false),
            crate::spelling::Literal::Null => Value::Null,
        }
    }
}
