//! Conversions: from Rust values, and to and from `serde_json::Value` (default features).

use super::{Map, Number, Value};

impl From<&serde_json::Number> for Number {
    fn from(n: &serde_json::Number) -> Number {
        // serde_json writes every number it holds as valid JSON (with `arbitrary_precision`, in a
        // build that turned it on, the exact digits).
        n.to_string().parse().unwrap_or_else(|_| {
            n.as_f64()
                .and_then(Number::from_f64)
                .unwrap_or_else(|| Number::from(0u8))
        })
    }
}

impl From<serde_json::Value> for Value {
    fn from(value: serde_json::Value) -> Value {
        use serde_json::Value as J;
        match value {
            J::Null => Value::Null,
            J::Bool(b) => Value::Bool(b),
            J::Number(n) => Value::Number(Number::from(&n)),
            J::String(s) => Value::String(s),
            J::Array(items) => Value::Array(items.into_iter().map(Value::from).collect()),
            J::Object(map) => Value::Object(map.into_iter().map(|(k, v)| (k, v.into())).collect()),
        }
    }
}

impl From<&Number> for serde_json::Number {
    /// Exact for integers of 64 bits and for every number `f64` holds exactly; other numbers
    /// become the nearest `f64` (serde_json's default number), and numbers beyond `f64`'s range
    /// the largest finite one of their sign. `Value::to_string` keeps every digit.
    fn from(n: &Number) -> serde_json::Number {
        if let Some(u) = n.as_u64() {
            return u.into();
        }
        if let Some(i) = n.as_i64() {
            return i.into();
        }
        let text = n.to_text();
        if let Ok(exact) = serde_json::from_str::<serde_json::Number>(&text) {
            return exact;
        }
        let negative = text.starts_with('-');
        let nearest = n
            .as_f64()
            .unwrap_or(if negative { f64::MIN } else { f64::MAX });
        serde_json::Number::from_f64(nearest).unwrap_or_else(|| 0.into())
    }
}

impl From<Value> for serde_json::Value {
    fn from(value: Value) -> serde_json::Value {
        use serde_json::Value as J;
        match value {
            Value::Null => J::Null,
            Value::Bool(b) => J::Bool(b),
            Value::Number(n) => J::Number((&n).into()),
            Value::String(s) => J::String(s),
            Value::Array(items) => J::Array(items.into_iter().map(J::from).collect()),
            Value::Object(map) => J::Object(map.into_iter().map(|(k, v)| (k, v.into())).collect()),
        }
    }
}

impl From<&Value> for serde_json::Value {
    fn from(value: &Value) -> serde_json::Value {
        use serde_json::Value as J;
        match value {
            Value::Null => J::Null,
            Value::Bool(b) => J::Bool(*b),
            Value::Number(n) => J::Number(n.into()),
            Value::String(s) => J::String(s.clone()),
            Value::Array(items) => J::Array(items.iter().map(J::from).collect()),
            Value::Object(map) => {
                J::Object(map.iter().map(|(k, v)| (k.clone(), v.into())).collect())
            }
        }
    }
}

impl From<bool> for Value {
    fn from(b: bool) -> Value {
        Value::Bool(b)
    }
}
impl From<String> for Value {
    fn from(s: String) -> Value {
        Value::String(s)
    }
}
impl From<&str> for Value {
    fn from(s: &str) -> Value {
        Value::String(s.to_string())
    }
}
impl From<Number> for Value {
    fn from(n: Number) -> Value {
        Value::Number(n)
    }
}
impl From<Map> for Value {
    fn from(map: Map) -> Value {
        Value::Object(map)
    }
}
impl<T: Into<Value>> From<Vec<T>> for Value {
    fn from(items: Vec<T>) -> Value {
        Value::Array(items.into_iter().map(Into::into).collect())
    }
}
impl<T: Into<Value>> From<Option<T>> for Value {
    fn from(v: Option<T>) -> Value {
        v.map_or(Value::Null, Into::into)
    }
}
impl From<f64> for Value {
    /// NaN and the infinities become `null` (JSON cannot spell them).
    fn from(f: f64) -> Value {
        Number::from_f64(f).map_or(Value::Null, Value::Number)
    }
}
macro_rules! from_integer {
    ($($t:ty)*) => {$(
        impl From<$t> for Value {
            fn from(n: $t) -> Value {
                Value::Number(Number::from(n))
            }
        }
    )*};
}
from_integer!(i8 i16 i32 i64 isize u8 u16 u32 u64 usize);

impl FromIterator<Value> for Value {
    fn from_iter<I: IntoIterator<Item = Value>>(iter: I) -> Value {
        Value::Array(iter.into_iter().collect())
    }
}
