//! Renderers: one per output format (JSON value, human log, JSON Lines log).

use crate::args::LogFormat;
use llmjson::{Repair, Value};
use std::io::{self, Write};

/// Writes `value` compact or pretty, optionally with every non-ASCII character escaped (exact
/// digits, key order as written: the library's writer).
pub fn write_json(
    out: &mut impl Write,
    value: &Value,
    pretty: bool,
    ascii: bool,
) -> io::Result<()> {
    out.write_all(
        value
            .to_json_styled(llmjson::Style { pretty, ascii })
            .as_bytes(),
    )
}

/// The repair log: `human` is one line per repair; `json` is one JSON object per line with the
/// fields `kind`, `span` (`start`, `end`), `line`, `column`, `path` and `detail`.
/// A library error for standard error: schema violations one per line, under a summary.
pub fn error_text(error: &llmjson::Error) -> String {
    match error {
        llmjson::Error::Schema { errors, .. } => {
            let mut text = format!(
                "error: the JSON does not fit the schema ({} {}):",
                errors.len(),
                if errors.len() == 1 {
                    "violation"
                } else {
                    "violations"
                }
            );
            for e in errors {
                text.push_str("\n  ");
                text.push_str(&e.to_string());
            }
            text
        }
        llmjson::Error::Grounding { message, .. } => format!("error: answer blocked\n{message}"),
        other => format!("error: {}", message(other)),
    }
}

/// An error's message, with the option that raises a limit named as this command spells it.
pub fn message(error: &llmjson::Error) -> String {
    let text = error.to_string();
    match error {
        llmjson::Error::TooLarge { .. } => text.replace("the max_size option", "--max-size"),
        _ => text,
    }
}

/// A library error as JSON Lines: one object per schema violation, or one for the error. Every
/// line has the same keys (`kind`, `message`, `line`, `column`, `offset`, `path`, `keyword`,
/// `schema_path`), `null` where they do not apply.
pub fn write_error_lines(out: &mut impl Write, error: &llmjson::Error) -> io::Result<()> {
    match error {
        llmjson::Error::Schema { errors, .. } => {
            for e in errors {
                let line = error_line(
                    "schema",
                    &e.message,
                    None,
                    Some(&e.instance_path),
                    Some(&e.keyword),
                    Some(&e.schema_path),
                );
                serde_json::to_writer(&mut *out, &line)?;
                out.write_all(b"\n")?;
            }
        }
        other => {
            let line = error_line(
                other.kind(),
                &message(other),
                other.position(),
                None,
                None,
                None,
            );
            serde_json::to_writer(&mut *out, &line)?;
            out.write_all(b"\n")?;
        }
    }
    out.flush()
}

/// One error as the JSON object every `--errors json` line is.
pub fn error_line(
    kind: &str,
    message: &str,
    position: Option<llmjson::Position>,
    path: Option<&str>,
    keyword: Option<&str>,
    schema_path: Option<&str>,
) -> serde_json::Value {
    // Position 0:0 means "a byte offset without a line" (invalid UTF-8).
    let (line, column) = match position {
        Some(p) if p.line > 0 => (Some(p.line), Some(p.column)),
        _ => (None, None),
    };
    serde_json::json!({
        "kind": kind,
        "message": message,
        "line": line,
        "column": column,
        "offset": position.map(|p| p.offset),
        "path": path,
        "keyword": keyword,
        "schema_path": schema_path,
    })
}

pub fn write_log(out: &mut impl Write, repairs: &[Repair], format: LogFormat) -> io::Result<()> {
    for repair in repairs {
        match format {
            LogFormat::Human => writeln!(out, "llmjson: repair: {repair}")?,
            LogFormat::Json => {
                serde_json::to_writer(&mut *out, repair)?;
                out.write_all(b"\n")?;
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ascii_escapes_non_ascii_including_astral() {
        let v: Value = r#"{"k":"é😀a", "n": 1.50}"#.parse().unwrap();
        let mut out = Vec::new();
        write_json(&mut out, &v, false, true).unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            r#"{"k":"\u00e9\ud83d\ude00a","n":1.50}"#
        );
    }
}
