//! Values a reply holds before its answer that are not the answer: the prompt's template echoed
//! back (`Output format: {"label": "string", "score": "number"}`, every leaf a type name) and
//! the JSON Schema the prompt gave (`{"$schema": …, "type": "object", "properties": {…}}`).
//! Like a `<think>` draft, such a decoy is skipped when a value follows that fills it (the same
//! keys with real leaves; for a schema, any value that is not one), and the skip is logged.
//! A decoy alone is kept: a reply may be asked for a schema.

use crate::{RepairKind, Value};

/// Type names a template writes for a leaf (compared in lower case).
const TYPE_NAMES: &[&str] = &[
    "string",
    "str",
    "text",
    "number",
    "num",
    "int",
    "integer",
    "float",
    "double",
    "decimal",
    "bool",
    "boolean",
    "object",
    "array",
    "list",
    "dict",
    "date",
    "datetime",
    "date-time",
    "time",
    "null",
    "uuid",
    "url",
    "uri",
    "email",
    "any",
    "value",
    "yyyy-mm-dd",
    "texto",
    "número",
    "numero",
    "inteiro",
    "booleano",
    "entier",
    "chaîne",
    "nombre",
    "文字列",
    "数値",
    "整数",
    "真偽値",
];

/// A leaf spelled as a type: `string`, `<number>`, `string | null`, `string[]`, `...`.
fn type_name(s: &str) -> bool {
    let t = s.trim();
    // Type names are short: a longer leaf is a value (and no lower-casing is paid for it).
    if t.is_empty() || t.len() > 40 {
        return false;
    }
    if t.len() >= 3 && t.starts_with('<') && t.ends_with('>') {
        return true;
    }
    if t.chars().all(|c| c == '.' || c == '…') {
        return true;
    }
    let one = |part: &str| {
        let p = part.trim().to_lowercase();
        let p = p.trim_end_matches("[]");
        let p = p
            .strip_prefix("list[")
            .or_else(|| p.strip_prefix("array<"))
            .map_or(p, |inner| inner.trim_end_matches([']', '>']));
        TYPE_NAMES.contains(&p)
    };
    if t.contains('|') {
        // A union may name literals among its types (`true|false`, `"a" | "b"`, `null`).
        let parts: Vec<&str> = t.split('|').map(str::trim).collect();
        parts.iter().any(|p| one(p))
            || parts
                .iter()
                .all(|p| matches!(*p, "true" | "false" | "null") || p.starts_with(['"', '\'']))
    } else {
        one(t)
    }
}

/// Whether every leaf of `value` is a type name (nulls and empty containers are neither), and
/// whether one was seen; stops at the first real leaf (an answer's first leaf usually is one).
pub(crate) fn only_type_names(value: &Value, named: &mut bool) -> bool {
    match value {
        Value::Object(map) => map.iter().all(|(_, v)| only_type_names(v, named)),
        Value::Array(items) => items.iter().all(|v| only_type_names(v, named)),
        Value::String(s) if type_name(s) => {
            *named = true;
            true
        }
        Value::Null => true,
        _ => false,
    }
}

/// A container whose every leaf is a type name.
pub(crate) fn is_template(value: &Value) -> bool {
    if !matches!(value, Value::Object(_) | Value::Array(_)) {
        return false;
    }
    let mut named = false;
    only_type_names(value, &mut named) && named
}

/// A JSON Schema document: `$schema`, or a type with the keyword that describes its contents.
pub(crate) fn is_schema(value: &Value) -> bool {
    let Value::Object(map) = value else {
        return false;
    };
    if map.get("$schema").is_some() {
        return true;
    }
    let kind = map.get("type").and_then(Value::as_str);
    match kind {
        Some("object") => {
            map.get("properties").is_some_and(Value::is_object)
                // `{"type": "object", "required": ["id"]}`: nothing but a schema's keywords.
                || (map.get("required").is_some_and(Value::is_array)
                    && map.iter().all(|(k, _)| SCHEMA_KEYWORDS.contains(&k.as_str())))
        }
        Some("array") => map.get("items").is_some_and(Value::is_object),
        _ => false,
    }
}

/// A JSON Schema document's own keywords (the root of a schema holds only these).
pub(crate) const SCHEMA_KEYWORDS: &[&str] = &[
    "$schema",
    "$id",
    "$ref",
    "$defs",
    "definitions",
    "type",
    "title",
    "description",
    "properties",
    "items",
    "required",
    "additionalProperties",
    "enum",
];

/// What a value before the answer is, if it is a decoy.
pub(crate) fn decoy_kind(value: &Value) -> Option<RepairKind> {
    if is_schema(value) {
        Some(RepairKind::SkippedSchemaEcho)
    } else if is_template(value) {
        Some(RepairKind::SkippedTemplate)
    } else {
        None
    }
}

/// `answer` is what `decoy` (of `kind`) stood for: a template's keys with real leaves, or a
/// value that is not a schema.
pub(crate) fn fills(kind: RepairKind, decoy: &Value, answer: &Value) -> bool {
    if !matches!(answer, Value::Object(_) | Value::Array(_)) {
        return false;
    }
    match kind {
        RepairKind::SkippedSchemaEcho => !is_schema(answer),
        // A value a sentence weighs (a draft, an example) gives way to any later object or list.
        RepairKind::AbandonedDraft => true,
        _ => !is_template(answer) && same_shape(decoy, answer),
    }
}

/// The answer has the template's shape: most of its keys, or items like its item.
fn same_shape(template: &Value, answer: &Value) -> bool {
    match (template, answer) {
        (Value::Object(t), Value::Object(a)) => {
            let shared = t.iter().filter(|(k, _)| a.get(k).is_some()).count();
            shared > 0 && shared * 2 >= t.len().min(a.len())
        }
        (Value::Array(t), Value::Array(a)) => match (t.first(), a.first()) {
            (Some(ti @ Value::Object(_)), Some(ai)) => same_shape(ti, ai),
            _ => true,
        },
        // A template of one item, answered with a list of them.
        (Value::Object(_), Value::Array(a)) => a.first().is_some_and(|ai| same_shape(template, ai)),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(s: &str) -> Value {
        crate::parse(s, &crate::Options::default()).unwrap().value
    }

    #[test]
    fn templates_are_told_from_answers() {
        for t in [
            r#"{"label": "string", "score": "number"}"#,
            r#"{"items": [{"id": "<id>", "tags": ["str"]}], "ok": "true|false"}"#,
            r#"{"name": "...", "when": "YYYY-MM-DD", "note": "string | null"}"#,
            r#"{"names": "string[]", "n": "int", "extra": null}"#,
        ] {
            assert!(is_template(&v(t)), "{t}");
        }
        for a in [
            r#"{"label": "spam", "score": 0.93}"#,
            r#"{"type": "string", "count": 3}"#,
            r#"{"label": "text", "n": 1}"#,
            r#"["a", "b"]"#,
        ] {
            assert!(!is_template(&v(a)), "{a}");
        }
    }

    #[test]
    fn schemas_are_told_from_instances() {
        assert!(is_schema(&v(
            r#"{"type": "object", "properties": {"a": {"type": "string"}}}"#
        )));
        assert!(is_schema(&v(r#"{"$schema": "x", "type": "array"}"#)));
        assert!(!is_schema(&v(r#"{"type": "object", "name": "x"}"#)));
        assert!(!is_schema(&v(r#"{"type": "invoice", "properties": 3}"#)));
    }

    #[test]
    fn an_answer_fills_its_template() {
        let t = v(r#"{"label": "string", "score": "number"}"#);
        assert!(fills(
            RepairKind::SkippedTemplate,
            &t,
            &v(r#"{"label": "spam", "score": 1}"#)
        ));
        assert!(!fills(
            RepairKind::SkippedTemplate,
            &t,
            &v(r#"{"other": 1}"#)
        ));
        assert!(fills(
            RepairKind::SkippedTemplate,
            &t,
            &v(r#"[{"label": "a", "score": 1}]"#)
        ));
        let s = v(r#"{"type": "object", "properties": {"a": {"type": "string"}}}"#);
        assert!(fills(
            RepairKind::SkippedSchemaEcho,
            &s,
            &v(r#"{"a": "x"}"#)
        ));
        assert!(!fills(RepairKind::SkippedSchemaEcho, &s, &v("3")));
    }
}
