//! Stages "coerce" and "validate": a JSON Schema compiled once, the schema-guided coercion of a
//! repaired value, and validation that reports every error in words a model can act on.
//!
//! The schema is read twice, for two jobs. Coercion walks the schema document itself (it needs
//! to know which type is wanted where, not whether a value is valid); validation is the
//! `jsonschema` crate's, which is the arbiter: a coerced value is only returned if it validates.

pub(crate) mod coerce;
mod messages;
mod salvage;
pub(crate) mod stage;

use crate::error::SchemaError;
use crate::value::Value;
use crate::Error;
use std::any::TypeId;
use std::collections::{HashMap, HashSet};
use std::fmt;
use std::sync::{Arc, LazyLock, Mutex};

/// A JSON Schema (drafts 7 and 2020-12, `$ref`/`$defs` included), compiled once and reused
/// across calls. Put it in [`crate::Options::schema`] to have replies coerced and validated.
///
/// ```
/// let schema = llmjson::Schema::new(serde_json::json!({
///     "type": "object",
///     "properties": {"retries": {"type": "integer"}},
///     "required": ["retries"],
/// }))?;
/// let options = llmjson::Options::default().schema(schema);
/// let parsed = llmjson::parse("{retries: '3'}", &options)?;
/// assert_eq!(parsed.value["retries"], 3);
/// # Ok::<(), llmjson::Error>(())
/// ```
pub struct Schema {
    /// The document as given, for `jsonschema` and for [`Schema::document`].
    document: serde_json::Value,
    /// The same document as llmjson's value: what coercion walks.
    walk: Value,
    validator: jsonschema::Validator,
    /// Every property name the schema declares (as [`coerce::name_key`]s), for the parser's
    /// quote decisions.
    property_names: HashSet<String>,
    /// Every object in the schema names its properties and forbids others: a key the schema
    /// does not name cannot be a real key.
    closed: bool,
    /// Some property is marked done-only: a stream's snapshots look for such members.
    done_only: bool,
}

impl Schema {
    /// Compiles a schema document. External `$ref`s (files, URLs) are not fetched.
    ///
    /// # Errors
    /// [`Error::InvalidSchema`] when the document is not a valid JSON Schema.
    pub fn new(document: serde_json::Value) -> Result<Schema, Error> {
        let walk = Value::from(document.clone());
        Schema::compile(document, walk)
    }

    fn compile(document: serde_json::Value, walk: Value) -> Result<Schema, Error> {
        if let Some(at) = left_recursion(&walk) {
            return Err(Error::InvalidSchema {
                message: format!(
                    "the schema at '{at}' refers back to itself without descending into the \
                     value ($ref through anyOf/oneOf/allOf/not/if/then/else): validating with it \
                     would never end"
                ),
            });
        }
        // `format` is checked, not only annotated: a schema that says `"format": "email"` means
        // it. The formats the jsonschema crate knows (date, date-time, time, duration, email,
        // hostname, ipv4, ipv6, uri, uri-reference, iri, uuid, regex, json-pointer, …) are
        // checked; an unknown format is ignored, as the specification says.
        let validator = jsonschema::options()
            .should_validate_formats(true)
            .build(&document)
            .map_err(|e| Error::InvalidSchema {
                message: e.to_string(),
            })?;
        let mut found = Gathered {
            names: HashSet::new(),
            closed: true,
            done_only: false,
        };
        gather(&walk, &mut found, 0);
        Ok(Schema {
            document,
            walk,
            validator,
            property_names: found.names,
            closed: found.closed,
            done_only: found.done_only,
        })
    }

    /// Compiles a schema from its JSON text.
    ///
    /// # Errors
    /// [`Error::InvalidSchema`] when the text is not JSON or not a valid JSON Schema.
    pub fn from_json(text: &str) -> Result<Schema, Error> {
        let document = serde_json::from_str(text).map_err(|e| Error::InvalidSchema {
            message: format!("the schema is not JSON: {e}"),
        })?;
        // Read again by llmjson's own reader: coercion then sees the properties in written order.
        let walk = crate::value::parse::document(
            text,
            crate::MAX_DEPTH_CEILING,
            crate::DuplicateKeys::Last,
        )
        .unwrap_or_else(|| Value::from(serde_json::Value::clone(&document)));
        Schema::compile(document, walk)
    }

    /// The schema of a Rust type, derived with `schemars` (draft 2020-12).
    ///
    /// # Errors
    /// [`Error::InvalidSchema`] if the derived schema does not compile (a bug in the derive).
    pub fn for_type<T: schemars::JsonSchema>() -> Result<Schema, Error> {
        let generated = schemars::schema_for!(T);
        Schema::new(generated.to_value())
    }

    /// The schema document.
    pub fn document(&self) -> &serde_json::Value {
        &self.document
    }

    /// The schema document as llmjson's value (what coercion walks).
    pub(crate) fn walk(&self) -> &Value {
        &self.walk
    }

    /// Validates a value, reporting every error (not only the first).
    ///
    /// # Errors
    /// Every violation, each with the instance's JSON Pointer, the schema keyword, and a message
    /// that can be sent back to the model as it is.
    pub fn validate(&self, value: &Value) -> Result<(), Vec<SchemaError>> {
        let instance = serde_json::Value::from(value);
        // In the order the reply wrote the values (a container before what it holds; a member
        // that is not allowed where it was written), not in the order serde_json's sorted maps
        // hand them to the validator.
        let mut keyed: Vec<(Vec<usize>, SchemaError)> = self
            .validator
            .iter_errors(&instance)
            .map(|e| {
                let mut order = written_order(value, e.instance_path.as_str());
                if let Some(member) = messages::unexpected_member(&e) {
                    if let Some(i) = value
                        .pointer(e.instance_path.as_str())
                        .and_then(Value::as_object)
                        .and_then(|map| map.get_index_of(member))
                    {
                        order.push(i);
                    }
                }
                (order, messages::schema_error(&e))
            })
            .collect();
        keyed.sort_by(|a, b| a.0.cmp(&b.0));
        let errors: Vec<SchemaError> = keyed.into_iter().map(|(_, e)| e).collect();
        if errors.is_empty() {
            Ok(())
        } else {
            Err(errors)
        }
    }

    /// The value is valid (no report built).
    pub fn is_valid(&self, value: &Value) -> bool {
        self.validator.is_valid(&serde_json::Value::from(value))
    }

    /// Some property is marked done-only ([`crate::DONE_ONLY`]).
    pub(crate) fn has_done_only(&self) -> bool {
        self.done_only
    }

    /// Whether `key` can be a key somewhere in a valid value (up to case and word separators,
    /// as coercion renames keys): `Some(true)` when the schema names it, `Some(false)` when the
    /// schema names its keys and forbids all others, `None` when it allows other keys somewhere.
    pub(crate) fn knows_key(&self, key: &str) -> Option<bool> {
        if self.property_names.contains(&coerce::name_key(key)) {
            Some(true)
        } else if self.closed {
            Some(false)
        } else {
            None
        }
    }
}

impl fmt::Debug for Schema {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Schema")
            .field("document", &self.document)
            .finish_non_exhaustive()
    }
}

impl PartialEq for Schema {
    fn eq(&self, other: &Self) -> bool {
        self.document == other.document
    }
}

/// `T`'s schema, derived and compiled on first use and shared afterwards.
pub(crate) fn for_type_cached<T: schemars::JsonSchema + 'static>() -> Result<Arc<Schema>, Error> {
    static CACHE: LazyLock<Mutex<HashMap<TypeId, Arc<Schema>>>> = LazyLock::new(Default::default);
    let id = TypeId::of::<T>();
    // A poisoned lock only means another thread panicked while inserting: the map is intact.
    if let Some(schema) = CACHE.lock().unwrap_or_else(|e| e.into_inner()).get(&id) {
        return Ok(Arc::clone(schema));
    }
    let schema = Arc::new(Schema::for_type::<T>()?);
    CACHE
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .insert(id, Arc::clone(&schema));
    Ok(schema)
}

/// A `$ref` cycle that applies to the same value all the way round (`{"anyOf": [{"$ref": "#"}]}`):
/// the JSON Pointer of a schema on it, if there is one. Such a schema has no meaning, and the
/// validator would recurse until memory runs out, so it is refused when compiled.
fn left_recursion(root: &Value) -> Option<String> {
    // Every schema object in the document, by JSON Pointer; then a depth-first search along the
    // edges that apply a subschema to the *same* value.
    let mut pointers = Vec::new();
    let mut stack = vec![(String::new(), root)];
    while let Some((pointer, node)) = stack.pop() {
        match node {
            Value::Object(map) => {
                pointers.push(pointer.clone());
                for (key, child) in map {
                    if !matches!(key.as_str(), "const" | "enum" | "default" | "examples") {
                        stack.push((
                            format!("{pointer}/{}", crate::value::pointer_token(key)),
                            child,
                        ));
                    }
                }
            }
            Value::Array(items) => {
                for (i, child) in items.iter().enumerate() {
                    stack.push((format!("{pointer}/{i}"), child));
                }
            }
            _ => {}
        }
    }
    let in_place = |pointer: &str| -> Vec<String> {
        let Some(Value::Object(map)) = root.pointer(pointer) else {
            return Vec::new();
        };
        let mut next = Vec::new();
        if let Some(target) = map.get("$ref").and_then(Value::as_str) {
            if let Some(local) = target.strip_prefix('#') {
                next.push(local.to_string());
            }
        }
        for key in ["anyOf", "oneOf", "allOf"] {
            if let Some(Value::Array(list)) = map.get(key) {
                next.extend((0..list.len()).map(|i| format!("{pointer}/{key}/{i}")));
            }
        }
        for key in ["not", "if", "then", "else"] {
            if map.contains_key(key) {
                next.push(format!("{pointer}/{key}"));
            }
        }
        next
    };
    // 1: on the current path; 2: done.
    let mut state: HashMap<String, u8> = HashMap::new();
    for start in pointers {
        if state.contains_key(&start) {
            continue;
        }
        let mut path = vec![(start.clone(), in_place(&start))];
        state.insert(start, 1);
        while let Some((_, pending)) = path.last_mut() {
            match pending.pop() {
                Some(next) => match state.get(&next) {
                    Some(1) => return Some(next),
                    Some(_) => {}
                    None => {
                        let edges = in_place(&next);
                        state.insert(next.clone(), 1);
                        path.push((next, edges));
                    }
                },
                None => {
                    if let Some((done, _)) = path.pop() {
                        state.insert(done, 2);
                    }
                }
            }
        }
    }
    None
}

/// Schemas nested deeper than this are not walked for names (the validator still checks them).
const NAME_DEPTH_LIMIT: usize = 64;

/// Where the value at `pointer` was written: the member or element index at each step. A
/// parent sorts before its children; a path the value does not have sorts after its parent.
fn written_order(value: &Value, pointer: &str) -> Vec<usize> {
    let mut order = Vec::new();
    let mut at = Some(value);
    for token in crate::value::pointer_tokens(pointer).into_iter().flatten() {
        let (index, next) = match at {
            Some(Value::Object(map)) => match map.get_index_of(&token) {
                Some(i) => (i, map.get_index(i).map(|(_, v)| v)),
                None => (usize::MAX, None),
            },
            Some(Value::Array(items)) => match token.parse::<usize>() {
                Ok(i) => (i, items.get(i)),
                Err(_) => (usize::MAX, None),
            },
            _ => (usize::MAX, None),
        };
        order.push(index);
        at = next;
    }
    order
}

/// The JSON Schema keyword that marks a property to be shown only once its value is complete:
/// `{"properties": {"summary": {"type": "string", "x-llmjson-done-only": true}}}` (with
/// Pydantic: `Field(json_schema_extra={"x-llmjson-done-only": True})`). A snapshot leaves such
/// a member out while its value is still being read, so a UI never shows half of it.
pub const DONE_ONLY: &str = "x-llmjson-done-only";

/// What one walk of the schema document learns for the parser and the stream.
struct Gathered {
    /// Every property name (as [`coerce::name_key`]s).
    names: HashSet<String>,
    /// Every object schema is closed (`additionalProperties: false`, no pattern properties).
    closed: bool,
    /// Some property is marked done-only ([`crate::DONE_ONLY`]).
    done_only: bool,
}

/// Walks the document once, gathering what [`Gathered`] says.
fn gather(node: &Value, found: &mut Gathered, depth: usize) {
    if depth > NAME_DEPTH_LIMIT {
        found.closed = false;
        return;
    }
    match node {
        Value::Object(map) => {
            let is_object_schema = map
                .get("type")
                .is_some_and(|t| coerce::type_includes(t, "object"))
                || map.contains_key("properties");
            if is_object_schema {
                let forbids_others = map.get("additionalProperties") == Some(&Value::Bool(false))
                    && !map.contains_key("patternProperties");
                if !forbids_others {
                    found.closed = false;
                }
            }
            if let Some(Value::Object(props)) = map.get("properties") {
                found
                    .names
                    .extend(props.keys().map(|k| coerce::name_key(k)));
            }
            found.done_only |= map.get(DONE_ONLY).and_then(Value::as_bool) == Some(true);
            for (key, child) in map {
                // `const`, `enum`, `default` and `examples` hold values, not schemas.
                if !matches!(key.as_str(), "const" | "enum" | "default" | "examples") {
                    gather(child, found, depth + 1);
                }
            }
        }
        Value::Array(items) => {
            for child in items {
                gather(child, found, depth + 1);
            }
        }
        _ => {}
    }
}

/// The repair stage's one question of a schema ([`crate::repair::KeyNames`]).
impl crate::repair::KeyNames for Schema {
    fn knows_key(&self, key: &str) -> Option<bool> {
        Schema::knows_key(self, key)
    }
}
