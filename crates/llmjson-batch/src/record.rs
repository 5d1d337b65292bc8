//! One input record: a JSON Lines line (`{"id": …, "reply": "…", "schema": …, "evidence": …}`)
//! or a whole text file, read into what the pipeline needs, or into the reason it cannot be.

use crate::lines::Line;

/// Which fields of a JSON Lines record hold the id and the reply.
#[derive(Debug, Clone)]
pub struct Fields {
    /// The id's field (default `id`).
    pub id: String,
    /// The reply's field (default `reply`).
    pub reply: String,
}

impl Default for Fields {
    fn default() -> Self {
        Fields {
            id: "id".to_string(),
            reply: "reply".to_string(),
        }
    }
}

/// A record as read, not yet decoded: decoding a JSON Lines record (a strict JSON parse of
/// the whole line) is left to the parallel workers, so the reading thread only splits lines.
#[derive(Debug)]
pub enum Pending {
    /// A JSON Lines line.
    Line {
        /// Its place in the run.
        seq: u64,
        /// Where it comes from (a path, or `-`), for the ids of records without one.
        source: std::sync::Arc<str>,
        /// Its 1-based line number in `source`.
        line_number: u64,
        /// The line.
        line: Line,
    },
    /// A record already read (a whole file).
    Record(Record),
}

impl Pending {
    /// Its place in the run.
    pub fn seq(&self) -> u64 {
        match self {
            Pending::Line { seq, .. } => *seq,
            Pending::Record(record) => record.seq,
        }
    }

    /// Roughly how many bytes it holds (what bounds a chunk).
    pub fn size(&self) -> usize {
        match self {
            Pending::Line {
                line: Line::Bytes(bytes),
                ..
            } => bytes.len(),
            Pending::Line { .. } => 0,
            Pending::Record(Record {
                input: Input::Reply { text, .. },
                ..
            }) => text.len(),
            Pending::Record(_) => 0,
        }
    }

    /// The record, decoded.
    pub fn decode(self, fields: &Fields) -> Record {
        match self {
            Pending::Line {
                seq,
                source,
                line_number,
                line,
            } => Record::from_line(seq, &source, line_number, line, fields),
            Pending::Record(record) => record,
        }
    }
}

/// A record, numbered by its place in the run.
#[derive(Debug, Clone)]
pub struct Record {
    /// Its place in the run (0-based, over every input in order): what `--resume` counts.
    pub seq: u64,
    /// The record's id: its id field, else `source:line` (a file's path for a text file).
    pub id: serde_json::Value,
    /// The reply, or why the record could not be read.
    pub input: Input,
}

/// What a record holds.
#[derive(Debug, Clone)]
pub enum Input {
    /// A reply to parse, with the record's own schema and evidence, if any.
    Reply {
        /// The model's reply.
        text: String,
        /// Where the first byte that was not UTF-8 was, now U+FFFD in `text` (`None`: it was
        /// UTF-8): the reply is read as `llmjson::parse_bytes` reads bytes, so a batch, the CLI
        /// and the bindings give it the same outcome.
        invalid_utf8_at: Option<usize>,
        /// A JSON Schema for this record only.
        schema: Option<serde_json::Value>,
        /// Evidence for this record only: a text, an array of texts, or JSON.
        evidence: Option<serde_json::Value>,
    },
    /// A reply over the size limit, refused unread (its size in bytes): the pipeline's
    /// `too_large`, with the record every door gives it.
    TooLarge {
        /// The reply's size.
        size: usize,
    },
    /// The record could not be read: the reason, as an error kind and a message.
    Unreadable {
        /// `invalid_utf8`, `too_large`, `bad_record` or `missing_field`.
        kind: &'static str,
        /// What was wrong, and where.
        message: String,
    },
}

impl Record {
    /// A record from one JSON Lines line (`line_number` 1-based, in `source`).
    pub fn from_line(
        seq: u64,
        source: &str,
        line_number: u64,
        line: Line,
        fields: &Fields,
    ) -> Self {
        let fallback_id = || serde_json::Value::String(format!("{source}:{line_number}"));
        let unreadable = |kind, message| Record {
            seq,
            id: fallback_id(),
            input: Input::Unreadable { kind, message },
        };
        let bytes = match line {
            Line::TooLong(length) => {
                return unreadable(
                    "too_large",
                    format!("the record is {length} bytes, over the line limit"),
                )
            }
            Line::Bytes(bytes) => bytes,
        };
        // A line that is not UTF-8 is read as bytes are everywhere: bad bytes become U+FFFD;
        // when one lands in the reply, its parse logs an `invalid_utf8` repair there.
        let (text, line_had_bad_bytes) = match String::from_utf8(bytes) {
            Ok(text) => (text, false),
            Err(e) => (String::from_utf8_lossy(e.as_bytes()).into_owned(), true),
        };
        // Only the fields a record uses are kept; the others are skipped unread.
        let fields_read = {
            let mut de = serde_json::Deserializer::from_str(&text);
            serde::de::DeserializeSeed::deserialize(RecordSeed(fields), &mut de)
                .and_then(|read| de.end().map(|()| read))
        };
        let read = match fields_read {
            Ok(read) => read,
            Err(e) => {
                return unreadable(
                    "bad_record",
                    format!(
                        "the record is not a JSON object: {e} (a JSON Lines record is strict JSON)"
                    ),
                )
            }
        };
        let id = match read.id {
            Some(serde_json::Value::Null) | None => fallback_id(),
            Some(id) => id,
        };
        let input = match read.reply {
            Some(serde_json::Value::String(text)) => Input::Reply {
                invalid_utf8_at: if line_had_bad_bytes {
                    text.find('\u{fffd}')
                } else {
                    None
                },
                text,
                schema: read.schema.filter(|s| !s.is_null()),
                evidence: read.evidence.filter(|e| !e.is_null()),
            },
            Some(other) => Input::Unreadable {
                kind: "bad_record",
                message: format!(
                    "the field {:?} is a JSON {}, not a string",
                    fields.reply,
                    json_type_name(&other)
                ),
            },
            None => Input::Unreadable {
                kind: "missing_field",
                message: format!(
                    "the record has no {:?} field (name the reply's field with --reply-field, \
                     or reply_field= in Python)",
                    fields.reply
                ),
            },
        };
        Record { seq, id, input }
    }

    /// A record from a whole file (its path as the id): the reply is its bytes, read as
    /// `llmjson::parse_bytes` reads them ([`Input::of_bytes`]).
    pub fn from_file(seq: u64, path: &str, bytes: Vec<u8>) -> Self {
        let id = serde_json::Value::String(path.to_string());
        Record {
            seq,
            id,
            input: Input::of_bytes(bytes),
        }
    }
}

impl Input {
    /// A reply given as bytes (a file, an Arrow binary cell), decoded as `llmjson::parse_bytes`
    /// decodes: bytes that are not UTF-8 become U+FFFD and the parse decides (an `invalid_utf8`
    /// repair, a refusal under `strict_utf8` or level `none`, binary when most were bad).
    pub fn of_bytes(bytes: Vec<u8>) -> Input {
        let (text, invalid_utf8_at) = match String::from_utf8(bytes) {
            Ok(text) => (text, None),
            Err(e) => {
                let at = e.utf8_error().valid_up_to();
                (String::from_utf8_lossy(e.as_bytes()).into_owned(), Some(at))
            }
        };
        Input::Reply {
            text,
            invalid_utf8_at,
            schema: None,
            evidence: None,
        }
    }
}

/// The fields of a record the pipeline uses.
#[derive(Default)]
struct RecordFields {
    id: Option<serde_json::Value>,
    reply: Option<serde_json::Value>,
    schema: Option<serde_json::Value>,
    evidence: Option<serde_json::Value>,
}

/// Reads a record object keeping only its id, reply, schema and evidence (a repeated field:
/// the last, as a JSON object reader keeps it).
struct RecordSeed<'f>(&'f Fields);

impl<'de> serde::de::DeserializeSeed<'de> for RecordSeed<'_> {
    type Value = RecordFields;

    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<RecordFields, D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de> serde::de::Visitor<'de> for RecordSeed<'_> {
    type Value = RecordFields;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("an object")
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<RecordFields, A::Error> {
        let mut read = RecordFields::default();
        while let Some(key) = map.next_key::<std::borrow::Cow<'de, str>>()? {
            let slot = if key == self.0.reply {
                &mut read.reply
            } else if key == self.0.id {
                &mut read.id
            } else if key == "schema" {
                &mut read.schema
            } else if key == "evidence" {
                &mut read.evidence
            } else {
                map.next_value::<serde::de::IgnoredAny>()?;
                continue;
            };
            *slot = Some(map.next_value()?);
        }
        Ok(read)
    }
}

fn json_type_name(value: &serde_json::Value) -> &'static str {
    match value {
        serde_json::Value::Null => "null",
        serde_json::Value::Bool(_) => "boolean",
        serde_json::Value::Number(_) => "number",
        serde_json::Value::String(_) => "string",
        serde_json::Value::Array(_) => "array",
        serde_json::Value::Object(_) => "object",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(line: &[u8]) -> Record {
        Record::from_line(
            7,
            "in.jsonl",
            8,
            Line::Bytes(line.to_vec()),
            &Fields::default(),
        )
    }

    fn unreadable(record: &Record) -> (&'static str, String) {
        match &record.input {
            Input::Unreadable { kind, message } => (kind, message.clone()),
            other => panic!("read: {other:?}"),
        }
    }

    #[test]
    fn a_record_gives_its_id_reply_schema_and_evidence() {
        let r = read(
            br#"{"id": 12, "reply": "{'a': 1}", "schema": {"type": "object"}, "evidence": "a 1"}"#,
        );
        assert_eq!(r.seq, 7);
        assert_eq!(r.id, serde_json::json!(12));
        match r.input {
            Input::Reply {
                text,
                schema,
                evidence,
                ..
            } => {
                assert_eq!(text, "{'a': 1}");
                assert_eq!(schema, Some(serde_json::json!({"type": "object"})));
                assert_eq!(evidence, Some(serde_json::json!("a 1")));
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn without_an_id_the_record_is_named_by_its_place() {
        assert_eq!(
            read(br#"{"reply": "x"}"#).id,
            serde_json::json!("in.jsonl:8")
        );
        assert_eq!(
            read(br#"{"id": null, "reply": "x"}"#).id,
            serde_json::json!("in.jsonl:8")
        );
    }

    #[test]
    fn configured_fields_are_read() {
        let fields = Fields {
            id: "request".into(),
            reply: "output".into(),
        };
        let r = Record::from_line(
            0,
            "-",
            1,
            Line::Bytes(br#"{"request": "r1", "output": "[1]"}"#.to_vec()),
            &fields,
        );
        assert_eq!(r.id, serde_json::json!("r1"));
        assert!(matches!(r.input, Input::Reply { ref text, .. } if text == "[1]"));
    }

    #[test]
    fn each_unreadable_record_says_why() {
        assert_eq!(unreadable(&read(b"{\"id\": 1}")).0, "missing_field");
        assert_eq!(unreadable(&read(br#"{"reply": 3}"#)).0, "bad_record");
        assert_eq!(unreadable(&read(b"[1]")).0, "bad_record");
        let (kind, message) = unreadable(&read(b"{'reply': 'x'}"));
        assert_eq!(kind, "bad_record");
        assert!(message.contains("line 1 column 2"), "{message}");
        let long = Record::from_line(0, "f", 1, Line::TooLong(20_000_000), &Fields::default());
        assert_eq!(unreadable(&long).0, "too_large");
        let (_, message) = unreadable(&read(b"{\"id\": 1}"));
        assert!(message.contains("--reply-field"), "{message}");
    }

    #[test]
    fn bytes_that_are_not_utf8_are_read_as_parse_bytes_reads_them() {
        // In a JSON Lines record: the bad byte lands in the reply, whose parse logs it.
        match read(b"{\"reply\": \"{\\\"name\\\": \\\"Jos\xe9\\\"}\"}").input {
            Input::Reply {
                text,
                invalid_utf8_at,
                ..
            } => {
                assert_eq!(text, "{\"name\": \"Jos\u{fffd}\"}");
                assert_eq!(invalid_utf8_at, Some(13));
            }
            other => panic!("{other:?}"),
        }
        // Outside the reply: nothing in the reply to log.
        match read(b"{\"note\": \"\xff\", \"reply\": \"[1]\"}").input {
            Input::Reply {
                invalid_utf8_at, ..
            } => assert_eq!(invalid_utf8_at, None),
            other => panic!("{other:?}"),
        }
        let file = Record::from_file(3, "dir/a.txt", b"[1, \"\xc3(\"]".to_vec());
        assert_eq!(file.id, serde_json::json!("dir/a.txt"));
        assert!(matches!(
            file.input,
            Input::Reply {
                invalid_utf8_at: Some(5),
                ..
            }
        ));
    }
}
