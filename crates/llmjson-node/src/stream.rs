//! `createStreamParser`'s native half: the library's `StreamParser` behind a JavaScript object.
//! Values cross as compact JSON, as `parse`'s do.

use crate::{
    failed, native_error, outcome_of, with_schema, CompiledOptions, NativeError, Outcome, Schema,
};
use llmjson::{Diagnostics, Event, Options};
use napi::bindgen_prelude::*;
use napi_derive::napi;

/// The value so far.
#[napi(object)]
pub struct NativeSnapshot {
    /// The partial value as compact JSON; `None` before the JSON starts.
    pub json: Option<String>,
    /// JSON Pointers of the complete values (the largest ones).
    pub complete: Vec<String>,
    /// Pointers a later byte may still change.
    pub provisional: Vec<String>,
    /// The root value closed.
    pub done: bool,
    /// What has arrived already needs a repair, rather than being merely incomplete.
    pub malformed: bool,
}

/// What changed in the value since the last call, for a copy kept in JavaScript.
#[napi(object)]
pub struct NativeChanges {
    /// The changes as one compact JSON array, each `["r", value or null]` (the value replaced),
    /// `["u"]` (up), `["e", key or null, index]` (enter a member), `["t", len]` (truncate), `["p", key or
    /// null, value]` (push), `["o", key or null, isObject]` (open): one `JSON.parse` per update.
    pub json: String,
    /// How many of the changes show the settled part (`null`: it did not change; the path kept
    /// last stands).
    pub settled: Option<u32>,
    /// What a later byte may still change, as where it starts: the open containers' pointers
    /// (outermost first)…
    pub provisional_open: Vec<String>,
    /// …the position of each one's first provisional member or element (those after it are
    /// provisional too)…
    pub provisional_from: Vec<u32>,
    /// …and the other provisional pointers (a closed root, values read with a guess, the open
    /// string or number).
    pub provisional_other: Vec<String>,
    /// The root value closed.
    pub done: bool,
    /// What has arrived already needs a repair, rather than being merely incomplete.
    pub malformed: bool,
    /// The innermost value still being written.
    pub open: Option<String>,
}

/// The changes as the compact JSON array [`NativeChanges::json`] describes.
fn changes_json(changes: &[llmjson::Change]) -> String {
    use llmjson::Change;
    fn key(out: &mut String, key: &Option<String>) {
        match key {
            Some(key) => out.push_str(&llmjson::Value::String(key.clone()).to_json()),
            None => out.push_str("null"),
        }
    }
    let mut out = String::from("[");
    for (i, change) in changes.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        match change {
            Change::Root(None) => out.push_str("[\"r\",null]"),
            Change::Root(Some(value)) => {
                out.push_str("[\"r\",");
                out.push_str(&value.to_json());
                out.push(']');
            }
            Change::Up => out.push_str("[\"u\"]"),
            Change::Enter { key: name, index } => {
                out.push_str("[\"e\",");
                key(&mut out, name);
                out.push(',');
                out.push_str(&index.to_string());
                out.push(']');
            }
            Change::Truncate(len) => {
                out.push_str("[\"t\",");
                out.push_str(&len.to_string());
                out.push(']');
            }
            Change::Push { key: name, value } => {
                out.push_str("[\"p\",");
                key(&mut out, name);
                out.push(',');
                out.push_str(&value.to_json());
                out.push(']');
            }
            Change::Open { key: name, object } => {
                out.push_str("[\"o\",");
                key(&mut out, name);
                out.push_str(if *object { ",true]" } else { ",false]" });
            }
        }
    }
    out.push(']');
    out
}

/// One event: `kind` is `key_started`, `element_appended`, `string_grew`, `value_completed`,
/// `revised` or `required_missing`.
#[napi(object)]
pub struct NativeEvent {
    pub kind: String,
    pub path: String,
    /// `string_grew`: the new text.
    pub text: Option<String>,
    /// `required_missing`: the property.
    pub property: Option<String>,
}

/// What `finish` gives back: `parse`'s outcome for the whole reply (its diagnostics record with
/// the stream's chunks and time to the first value); the last events are made when asked for
/// (`lastEvents`).
#[napi(object, object_from_js = false)]
pub struct NativeFinished {
    pub outcome: Outcome,
    /// The whole reply.
    pub text: String,
}

#[napi(js_name = "StreamParser")]
pub struct JsStreamParser {
    /// `None` once finished.
    inner: Option<llmjson::StreamParser>,
    options: Options,
    /// After `finish`: what makes the last events, until they are taken.
    later: Option<(llmjson::LaterEvents, String, Option<llmjson::Value>)>,
}

#[napi]
impl JsStreamParser {
    #[napi(constructor)]
    pub fn new(options: &CompiledOptions, schema: Option<&Schema>, events: bool) -> Result<Self> {
        let options = with_schema(Some(options), schema)?.into_owned();
        let mut inner = llmjson::StreamParser::new(options.clone());
        if !events {
            inner = inner.without_events();
        }
        Ok(JsStreamParser {
            inner: Some(inner),
            options,
            later: None,
        })
    }

    fn inner(&mut self) -> Result<&mut llmjson::StreamParser> {
        self.inner
            .as_mut()
            .ok_or_else(|| napi::Error::from_reason("the stream was finished"))
    }

    /// Feeds a chunk (a string, or bytes whose split characters are held until complete).
    /// Returns the error when the reply went over a limit.
    #[napi]
    pub fn feed(&mut self, chunk: Either<String, Buffer>) -> Result<Option<NativeError>> {
        let options = self.options.clone();
        let inner = self.inner()?;
        let result = match &chunk {
            Either::A(text) => inner.feed(text),
            Either::B(bytes) => inner.feed_bytes(bytes),
        };
        Ok(result
            .err()
            .map(|e| native_error(inner.text(), &e, &options)))
    }

    #[napi]
    pub fn snapshot(&mut self) -> Result<NativeSnapshot> {
        let snapshot = self.inner()?.snapshot();
        Ok(NativeSnapshot {
            json: snapshot.value.as_ref().map(llmjson::Value::to_json),
            complete: snapshot.complete,
            provisional: snapshot.provisional,
            done: snapshot.done,
            malformed: snapshot.malformed,
        })
    }

    /// What changed since the last call (the first call: the value so far). Without a schema
    /// that shapes the value and without `dropElement`; otherwise `snapshot`.
    #[napi]
    pub fn changes(&mut self) -> Result<NativeChanges> {
        let changes = self.inner()?.changes();
        Ok(NativeChanges {
            json: changes_json(&changes.changes),
            settled: changes
                .settled
                .map(|n| u32::try_from(n).unwrap_or(u32::MAX)),
            provisional_from: changes
                .provisional
                .open
                .iter()
                .map(|(_, from)| u32::try_from(*from).unwrap_or(u32::MAX))
                .collect(),
            provisional_open: changes
                .provisional
                .open
                .into_iter()
                .map(|(p, _)| p)
                .collect(),
            provisional_other: changes.provisional.other,
            done: changes.done,
            malformed: changes.malformed,
            open: changes.open,
        })
    }

    /// Whether `changes` may be used: no schema shaping the value, no `dropElement`.
    #[napi]
    pub fn in_place(&self) -> bool {
        self.options.schema.is_none() && self.options.truncation != llmjson::Truncation::DropElement
    }

    #[napi]
    pub fn events(&mut self) -> Result<Vec<NativeEvent>> {
        Ok(native_events(self.inner()?.events()))
    }

    #[napi]
    pub fn finish(&mut self) -> Result<NativeFinished> {
        let inner = self
            .inner
            .take()
            .ok_or_else(|| napi::Error::from_reason("the stream was finished"))?;
        let mut finished = inner.finish_later();
        let mut record = String::new();
        Diagnostics::of_streamed(&finished.result, &finished.stats, &self.options)
            .write_json(&mut record);
        let outcome = match &mut finished.result {
            Ok(parsed) => outcome_of(
                &finished.text,
                std::slice::from_mut(parsed),
                false,
                Some(record),
            )?,
            Err(e) => failed(&finished.text, e, &self.options, Some(record)),
        };
        let text = finished.text.clone();
        let value = match finished.result {
            Ok(parsed) => Some(parsed.value),
            Err(error) => error.value().cloned(),
        };
        self.later = Some((finished.events, finished.text, value));
        Ok(NativeFinished { outcome, text })
    }

    /// After `finish`: the events not taken before it, then its `revised` events (made now;
    /// once).
    #[napi]
    pub fn last_events(&mut self) -> Vec<NativeEvent> {
        match self.later.take() {
            Some((events, text, value)) => native_events(events.resolve(&text, value.as_ref())),
            None => Vec::new(),
        }
    }
}

fn native_events(events: Vec<Event>) -> Vec<NativeEvent> {
    events
        .into_iter()
        .map(|event| {
            let (kind, path, text, property) = match event {
                Event::KeyStarted { path } => ("key_started", path, None, None),
                Event::ElementAppended { path } => ("element_appended", path, None, None),
                Event::StringGrew { path, text } => ("string_grew", path, Some(text), None),
                Event::ValueCompleted { path } => ("value_completed", path, None, None),
                Event::Revised { path } => ("revised", path, None, None),
                Event::RequiredMissing { path, property } => {
                    ("required_missing", path, None, Some(property))
                }
            };
            NativeEvent {
                kind: kind.to_string(),
                path,
                text,
                property,
            }
        })
        .collect()
}
