//! A value written in the shape a typed column holds (what `llmjson.arrow` turns into a typed
//! Arrow array for Polars and DuckDB): the shape says, part by part, what the column's type
//! is, and each part of the value that does not fit its type is written as `null`, so that
//! the typed read of the text never fails a query on one row. Parts whose schema maps to no
//! column type (a union of types, a map, a schema with no type) are written as text: a string
//! as itself, anything else as its JSON text — what Spark's `from_json` makes of such a part.

use llmjson::Value;

/// The type of a typed column's part.
#[derive(Debug, Clone, PartialEq)]
pub enum Shape {
    /// A string: the value's own text if it is a string, else its JSON text.
    Text,
    /// A string.
    String,
    /// A 64-bit integer.
    Integer,
    /// A 64-bit float.
    Number,
    /// A boolean.
    Boolean,
    /// A list of one type.
    List(Box<Shape>),
    /// A struct of named fields, in order.
    Struct(Vec<(String, Shape)>),
}

/// How deep a shape may nest (a schema's mapping stops well before this).
const MAX_DEPTH: usize = 64;

impl Shape {
    /// The shape described by `text`: `"text"`, `"string"`, `"integer"`, `"number"`,
    /// `"boolean"`, `{"list": SHAPE}` or `{"struct": [[NAME, SHAPE], …]}`.
    pub fn parse(text: &str) -> Result<Self, String> {
        let description: serde_json::Value =
            serde_json::from_str(text).map_err(|e| format!("a shape is JSON: {e}"))?;
        Self::of(&description, 0)
    }

    fn of(description: &serde_json::Value, depth: usize) -> Result<Self, String> {
        if depth > MAX_DEPTH {
            return Err(format!("a shape nests deeper than {MAX_DEPTH}"));
        }
        match description {
            serde_json::Value::String(kind) => match kind.as_str() {
                "text" => Ok(Shape::Text),
                "string" => Ok(Shape::String),
                "integer" => Ok(Shape::Integer),
                "number" => Ok(Shape::Number),
                "boolean" => Ok(Shape::Boolean),
                other => Err(format!("no shape is called {other:?}")),
            },
            serde_json::Value::Object(map) if map.len() == 1 => {
                if let Some(items) = map.get("list") {
                    return Ok(Shape::List(Box::new(Self::of(items, depth + 1)?)));
                }
                let Some(serde_json::Value::Array(fields)) = map.get("struct") else {
                    return Err("a shape object is {\"list\": …} or {\"struct\": […]}".into());
                };
                fields
                    .iter()
                    .map(|field| match field {
                        serde_json::Value::Array(pair) if pair.len() == 2 => {
                            let name = pair[0].as_str().ok_or("a struct field's name is text")?;
                            Ok((name.to_owned(), Self::of(&pair[1], depth + 1)?))
                        }
                        _ => Err("a struct field is [NAME, SHAPE]".to_owned()),
                    })
                    .collect::<Result<_, _>>()
                    .map(Shape::Struct)
            }
            _ => Err("a shape is a name, {\"list\": …} or {\"struct\": […]}".into()),
        }
    }

    /// Writes `value` in this shape as JSON text: a struct's fields in the shape's order (a
    /// missing one `null`, the value's other members left out), and `null` for a part whose
    /// value does not fit (an integer out of range, an object where a list goes).
    pub fn write(&self, value: &Value, out: &mut String) {
        match (self, value) {
            (_, Value::Null) => out.push_str("null"),
            (Shape::Text, Value::String(_)) | (Shape::String, Value::String(_)) => {
                value.write_json(out)
            }
            (Shape::Text, _) => {
                let mut text = String::new();
                value.write_json(&mut text);
                Value::String(text).write_json(out);
            }
            (Shape::Boolean, Value::Bool(_)) => value.write_json(out),
            (Shape::Integer, Value::Number(n)) => match n.as_i64() {
                Some(i) => out.push_str(&i.to_string()),
                // A whole number written with a point ("3.0") is that integer.
                None => match n.as_f64().filter(|f| f.fract() == 0.0 && f.abs() < 9.0e15) {
                    Some(f) => out.push_str(&(f as i64).to_string()),
                    None => out.push_str("null"),
                },
            },
            (Shape::Number, Value::Number(n)) => match n.as_f64() {
                Some(_) => value.write_json(out),
                None => out.push_str("null"),
            },
            (Shape::List(items), Value::Array(values)) => {
                out.push('[');
                for (i, item) in values.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    items.write(item, out);
                }
                out.push(']');
            }
            (Shape::Struct(fields), Value::Object(map)) => {
                out.push('{');
                for (i, (name, shape)) in fields.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    Value::String(name.clone()).write_json(out);
                    out.push(':');
                    shape.write(map.get(name).unwrap_or(&Value::Null), out);
                }
                out.push('}');
            }
            _ => out.push_str("null"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shaped(shape: &str, value: &str) -> String {
        let shape = Shape::parse(shape).unwrap();
        let value = llmjson::parse(value, &llmjson::Options::default())
            .unwrap()
            .value;
        let mut out = String::new();
        shape.write(&value, &mut out);
        out
    }

    #[test]
    fn a_struct_keeps_its_fields_in_order_and_leaves_other_members_out() {
        let shape = r#"{"struct": [["title", "string"], ["n", "integer"], ["gone", "boolean"]]}"#;
        assert_eq!(
            shaped(shape, r#"{"n": 3, "extra": [1], "title": "a"}"#),
            r#"{"title":"a","n":3,"gone":null}"#
        );
    }

    #[test]
    fn a_part_that_does_not_fit_its_type_is_null() {
        let shape = r#"{"struct": [["n", "integer"], ["x", "number"], ["tags", {"list": "string"}], ["ok", "boolean"]]}"#;
        assert_eq!(
            shaped(
                shape,
                r#"{"n": 99999999999999999999, "x": "1.5", "tags": {"a": 1}, "ok": "yes"}"#
            ),
            r#"{"n":null,"x":null,"tags":null,"ok":null}"#
        );
        assert_eq!(shaped(r#""integer""#, "3.0"), "3");
        assert_eq!(
            shaped(r#"{"list": "integer"}"#, "[1, 2.5, null]"),
            "[1,null,null]"
        );
    }

    #[test]
    fn a_text_part_is_a_string_as_itself_and_anything_else_as_its_json() {
        let shape = r#"{"struct": [["any", "text"], ["more", "text"], ["none", "text"]]}"#;
        assert_eq!(
            shaped(
                shape,
                r#"{"any": "plain", "more": {"k": [1, "x\"y"]}, "none": null}"#
            ),
            r#"{"any":"plain","more":"{\"k\":[1,\"x\\\"y\"]}","none":null}"#
        );
    }

    #[test]
    fn a_bad_description_is_an_error_not_a_panic() {
        for bad in [
            "",
            "12",
            r#""date""#,
            r#"{"list": 1}"#,
            r#"{"struct": [["a"]]}"#,
            r#"{"struct": 1}"#,
            r#"{"list": "text", "struct": []}"#,
        ] {
            assert!(Shape::parse(bad).is_err(), "{bad}");
        }
        let deep = format!("{}\"text\"{}", "{\"list\": ".repeat(200), "}".repeat(200));
        assert!(Shape::parse(&deep).is_err());
    }
}
