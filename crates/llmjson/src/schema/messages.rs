//! Validation errors in words fit to send back to the model verbatim.

use crate::error::SchemaError;
use jsonschema::error::{TypeKind, ValidationErrorKind as Kind};
use serde_json::Value;

/// Values quoted in messages are cut to this many characters.
const QUOTE_LIMIT: usize = 60;

/// The first member a "not allowed" error names.
pub(super) fn unexpected_member<'e>(error: &'e jsonschema::ValidationError<'_>) -> Option<&'e str> {
    match &error.kind {
        Kind::AdditionalProperties { unexpected } | Kind::UnevaluatedProperties { unexpected } => {
            unexpected.first().map(String::as_str)
        }
        _ => None,
    }
}

pub(super) fn schema_error(error: &jsonschema::ValidationError<'_>) -> SchemaError {
    let schema_path = error.schema_path.as_str().to_string();
    let keyword = schema_path
        .rsplit('/')
        .next()
        .unwrap_or_default()
        .to_string();
    SchemaError {
        instance_path: error.instance_path.as_str().to_string(),
        schema_path,
        keyword,
        message: message(error),
    }
}

fn message(error: &jsonschema::ValidationError<'_>) -> String {
    let value = quote(&error.instance);
    match &error.kind {
        Kind::Enum { options } => format!("{value} is not one of {}", list(options)),
        Kind::Constant { expected_value } => format!("{value} is not {}", quote(expected_value)),
        Kind::Required { property } => {
            format!("the required property {} is missing", quote(property))
        }
        Kind::AdditionalProperties { unexpected } | Kind::UnevaluatedProperties { unexpected } => {
            let names: Vec<String> = unexpected.iter().map(|k| format!("'{k}'")).collect();
            if names.len() == 1 {
                format!("the property {} is not allowed", names[0])
            } else {
                format!("the properties {} are not allowed", names.join(", "))
            }
        }
        Kind::Type { kind } => {
            let wanted = match kind {
                TypeKind::Single(t) => article(&t.to_string()),
                TypeKind::Multiple(set) => {
                    let names: Vec<String> = set.iter().map(|t| t.to_string()).collect();
                    names.join(" or ")
                }
            };
            format!(
                "{value} is {}, not {wanted}",
                article(json_type(&error.instance))
            )
        }
        Kind::Minimum { limit } => format!("{value} is less than the minimum of {limit}"),
        Kind::Maximum { limit } => format!("{value} is greater than the maximum of {limit}"),
        Kind::ExclusiveMinimum { limit } => format!("{value} must be greater than {limit}"),
        Kind::ExclusiveMaximum { limit } => format!("{value} must be less than {limit}"),
        Kind::MinLength { limit } => format!("{value} is shorter than {limit} characters"),
        Kind::MaxLength { limit } => format!("{value} is longer than {limit} characters"),
        Kind::MinItems { limit } => format!("the list has fewer than {limit} items"),
        Kind::MaxItems { limit } => format!("the list has more than {limit} items"),
        Kind::MinProperties { limit } => format!("the object has fewer than {limit} properties"),
        Kind::MaxProperties { limit } => format!("the object has more than {limit} properties"),
        // Not the pattern's source: it tells a model nothing it can act on, may show what a
        // schema keeps to itself, and a generated one (an email's) runs to a line of its own.
        Kind::Pattern { .. } => format!("{value} does not match the pattern the schema requires"),
        Kind::Format { format } => format!("{value} is not a valid {format}"),
        Kind::UniqueItems => "the list has duplicate items".to_string(),
        Kind::MultipleOf { multiple_of } => format!("{value} is not a multiple of {multiple_of}"),
        Kind::AnyOf { .. } | Kind::OneOfNotValid { .. } => {
            format!("{value} does not match any of the allowed shapes")
        }
        Kind::OneOfMultipleValid { .. } => {
            format!("{value} matches more than one of the allowed shapes")
        }
        Kind::FalseSchema => "no value is allowed here".to_string(),
        _ => error.to_string(),
    }
}

/// A value as quoted in a message: strings in single quotes, other values as JSON, long ones cut.
fn quote(value: &Value) -> String {
    let text = match value {
        Value::String(s) => format!("'{s}'"),
        other => other.to_string(),
    };
    if text.chars().count() > QUOTE_LIMIT {
        let cut: String = text.chars().take(QUOTE_LIMIT).collect();
        format!("{cut}…")
    } else {
        text
    }
}

fn list(options: &Value) -> String {
    match options {
        Value::Array(items) => items.iter().map(quote).collect::<Vec<_>>().join(", "),
        other => quote(other),
    }
}

fn json_type(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(n) if n.is_i64() || n.is_u64() => "integer",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

fn article(word: &str) -> String {
    match word {
        "null" => "null".to_string(),
        w if w.starts_with(['a', 'e', 'i', 'o', 'u']) => format!("an {w}"),
        w => format!("a {w}"),
    }
}
