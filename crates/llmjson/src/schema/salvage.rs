//! Salvage (`InvalidItems::Drop`): the array items that fail their item schema are left out,
//! each reported with its validation errors, when what is left validates.
//!
//! Which item a violation condemns is read from the violation itself: its instance path says
//! where it is, its schema path which keyword each array step went through. The item dropped is
//! the innermost one whose array applies `items` (or `additionalItems`/`unevaluatedItems`) to
//! it, so a bad tag costs the tag, not the record holding it. Positional items (`prefixItems`,
//! draft 7's `items: [...]`) are never dropped: the items after them would change meaning.
//!
//! Dropping can break what held the item (`minItems`, a condition on its parent), so the value
//! is validated again and the violations that remain condemn the enclosing items, a few rounds
//! at most; the validator is the arbiter, and no value that fails it is returned. Every path
//! reported is in the coordinates of the value as written (the fourth record is `/records/3`
//! whatever else was dropped).

use super::Schema;
use crate::error::SchemaError;
use crate::value::Value;
use std::collections::HashMap;

/// One step of a path into a value.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum Step {
    Key(String),
    Index(usize),
}

/// An item to leave out: its path (as written) and the violations inside it.
#[derive(Debug)]
pub(crate) struct Condemned {
    steps: Vec<Step>,
    pub(crate) errors: Vec<SchemaError>,
}

impl Condemned {
    /// The item's JSON Pointer.
    pub(crate) fn pointer(&self) -> String {
        pointer(&self.steps)
    }
}

/// The value with its invalid items left out, and those items.
#[derive(Debug)]
pub(crate) struct Salvaged {
    pub(crate) value: Value,
    pub(crate) dropped: Vec<Condemned>,
}

/// Rounds of drop-and-validate before giving up: each round condemns items that enclose the
/// previous round's (a list left too short, a parent's condition), so real schemas settle in
/// two or three.
const MAX_ROUNDS: usize = 8;

/// `value` (which `schema` refuses with `errors`) without the items that fail their item
/// schema, if what is left validates; `None` when a violation is not inside a droppable item.
pub(crate) fn salvage(
    schema: &Schema,
    value: &Value,
    errors: Vec<SchemaError>,
) -> Option<Salvaged> {
    let mut condemned: Vec<Condemned> = Vec::new();
    let mut errors = errors;
    let mut pruned_value: Option<Value> = None;
    for _ in 0..MAX_ROUNDS {
        // The value the errors are about, and how its indices map back to the written ones.
        let about = pruned_value.as_ref().unwrap_or(value);
        let dropped_by_parent = by_parent(&condemned);
        let mut more = false;
        for mut error in errors {
            let steps = steps_of(about, &error.instance_path)?;
            let item = droppable_item(about, &steps, &error.schema_path);
            let written = as_written(&steps, &dropped_by_parent);
            error.instance_path = pointer(&written);
            if let Some(len) = item {
                condemn(&mut condemned, written[..len].to_vec(), error);
                more = true;
            }
        }
        if !more {
            return None;
        }
        let pruned = without(value, &condemned);
        match schema.validate(&pruned) {
            Ok(()) => {
                condemned.sort_by(|a, b| written_order(&a.steps, &b.steps));
                return Some(Salvaged {
                    value: pruned,
                    dropped: condemned,
                });
            }
            Err(remaining) => {
                errors = remaining;
                pruned_value = Some(pruned);
            }
        }
    }
    None
}

/// Adds `error` to the item at `steps`: into an enclosing condemned item if there is one; an
/// item enclosing earlier ones takes them (and their errors) over.
fn condemn(condemned: &mut Vec<Condemned>, steps: Vec<Step>, error: SchemaError) {
    if let Some(holder) = condemned.iter_mut().find(|c| steps.starts_with(&c.steps)) {
        holder.errors.push(error);
        return;
    }
    let mut errors = Vec::new();
    condemned.retain_mut(|c| {
        let inside = c.steps.starts_with(&steps);
        if inside {
            errors.append(&mut c.errors);
        }
        !inside
    });
    errors.push(error);
    condemned.push(Condemned { steps, errors });
}

/// The written indices left out of each array (by the array's written path), sorted.
fn by_parent(condemned: &[Condemned]) -> HashMap<Vec<Step>, Vec<usize>> {
    let mut map: HashMap<Vec<Step>, Vec<usize>> = HashMap::new();
    for c in condemned {
        if let Some((Step::Index(i), parent)) = c.steps.split_last() {
            map.entry(parent.to_vec()).or_default().push(*i);
        }
    }
    for indices in map.values_mut() {
        indices.sort_unstable();
    }
    map
}

/// A path in the pruned value, as the written value has it: each index moved past the items
/// left out before it.
fn as_written(steps: &[Step], dropped_by_parent: &HashMap<Vec<Step>, Vec<usize>>) -> Vec<Step> {
    let mut written: Vec<Step> = Vec::with_capacity(steps.len());
    for step in steps {
        let step = match step {
            Step::Index(i) => {
                let mut index = *i;
                if let Some(dropped) = dropped_by_parent.get(written.as_slice()) {
                    for &d in dropped {
                        if d <= index {
                            index += 1;
                        } else {
                            break;
                        }
                    }
                }
                Step::Index(index)
            }
            Step::Key(k) => Step::Key(k.clone()),
        };
        written.push(step);
    }
    written
}

/// `value` without the condemned items (which never hold one another). Deeper arrays first, so
/// the written paths to the others stay true.
fn without(value: &Value, condemned: &[Condemned]) -> Value {
    let mut pruned = value.clone();
    let mut parents: Vec<(Vec<Step>, Vec<usize>)> = by_parent(condemned).into_iter().collect();
    parents.sort_by_key(|(parent, _)| std::cmp::Reverse(parent.len()));
    for (parent, dropped) in parents {
        if let Some(Value::Array(items)) = at_mut(&mut pruned, &parent) {
            let mut index = 0;
            items.retain(|_| {
                let keep = dropped.binary_search(&index).is_err();
                index += 1;
                keep
            });
        }
    }
    pruned
}

fn at_mut<'v>(value: &'v mut Value, steps: &[Step]) -> Option<&'v mut Value> {
    let mut at = value;
    for step in steps {
        at = match (at, step) {
            (Value::Array(items), Step::Index(i)) => items.get_mut(*i)?,
            (Value::Object(map), Step::Key(k)) => map.get_mut(k.as_str())?,
            _ => return None,
        };
    }
    Some(at)
}

/// The steps of `pointer` into `value` (indices where the value has an array).
fn steps_of(value: &Value, pointer: &str) -> Option<Vec<Step>> {
    let mut steps = Vec::new();
    let mut at = Some(value);
    for token in crate::value::pointer_tokens(pointer)? {
        let step = match at {
            Some(Value::Array(items)) => {
                let i = token.parse::<usize>().ok()?;
                at = items.get(i);
                Step::Index(i)
            }
            Some(Value::Object(map)) => {
                at = map.get(token.as_str());
                Step::Key(token)
            }
            _ => return None,
        };
        steps.push(step);
    }
    Some(steps)
}

/// How long the path of the innermost item on `steps` that its array's `items` keyword governs
/// is (`None`: no array step on the path is such an item).
fn droppable_item(value: &Value, steps: &[Step], schema_path: &str) -> Option<usize> {
    let keywords = item_keywords(schema_path);
    let mut array_steps = 0;
    let mut at = value;
    let mut innermost = None;
    for (j, step) in steps.iter().enumerate() {
        at = match (at, step) {
            (Value::Array(items), Step::Index(i)) => {
                if keywords.get(array_steps) == Some(&ItemKeyword::Each) {
                    innermost = Some(j + 1);
                }
                array_steps += 1;
                items.get(*i)?
            }
            (Value::Object(map), Step::Key(k)) => map.get(k.as_str())?,
            _ => return None,
        };
    }
    innermost
}

/// How a schema keyword reaches into an array's items.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ItemKeyword {
    /// The same schema for each item (`items`, `additionalItems`, `unevaluatedItems`): an item
    /// that fails it can go.
    Each,
    /// A schema for the item at one position (`prefixItems`, draft 7's `items: [...]`).
    Positional,
}

/// The keywords of a schema path that step into an array's items, in order: the n-th is the
/// one the instance path's n-th array index went through. Names and positions that follow
/// `properties`, `$defs`, `allOf` and the like are skipped, not read as keywords.
fn item_keywords(schema_path: &str) -> Vec<ItemKeyword> {
    let Some(tokens) = crate::value::pointer_tokens(schema_path) else {
        return Vec::new();
    };
    let tokens: Vec<String> = tokens.collect();
    let mut keywords = Vec::new();
    let mut i = 0;
    while i < tokens.len() {
        let next_is_index = tokens
            .get(i + 1)
            .is_some_and(|t| t.parse::<usize>().is_ok());
        i += match tokens[i].as_str() {
            "properties" | "patternProperties" | "$defs" | "definitions" | "dependentSchemas"
            | "dependencies" | "allOf" | "anyOf" | "oneOf" => 2,
            "prefixItems" => {
                keywords.push(ItemKeyword::Positional);
                2
            }
            "items" if next_is_index => {
                keywords.push(ItemKeyword::Positional);
                2
            }
            "items" | "additionalItems" | "unevaluatedItems" => {
                keywords.push(ItemKeyword::Each);
                1
            }
            _ => 1,
        };
    }
    keywords
}

fn pointer(steps: &[Step]) -> String {
    let mut out = String::new();
    for step in steps {
        out.push('/');
        match step {
            Step::Key(k) => out.push_str(&crate::value::pointer_token(k)),
            Step::Index(i) => out.push_str(&i.to_string()),
        }
    }
    out
}

/// Paths in the order the reply wrote them (indices as numbers, not as text).
fn written_order(a: &[Step], b: &[Step]) -> std::cmp::Ordering {
    for (x, y) in a.iter().zip(b) {
        let order = match (x, y) {
            (Step::Index(i), Step::Index(j)) => i.cmp(j),
            (Step::Key(k), Step::Key(l)) => k.cmp(l),
            (Step::Index(_), Step::Key(_)) => std::cmp::Ordering::Less,
            (Step::Key(_), Step::Index(_)) => std::cmp::Ordering::Greater,
        };
        if order.is_ne() {
            return order;
        }
    }
    a.len().cmp(&b.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn schema(document: serde_json::Value) -> Schema {
        Schema::new(document).expect("schema")
    }

    fn records() -> Schema {
        schema(serde_json::json!({
            "$defs": {"record": {
                "type": "object",
                "required": ["name"],
                "properties": {
                    "name": {"type": "string"},
                    "tags": {"type": "array", "items": {"type": "string"}, "minItems": 1}
                }
            }},
            "type": "object",
            "properties": {
                "records": {"type": "array", "items": {"$ref": "#/$defs/record"}, "minItems": 1},
                "pair": {"type": "array", "prefixItems": [{"type": "integer"}, {"type": "string"}]}
            }
        }))
    }

    /// Each dropped item's path, with the paths of its errors.
    type Dropped = Vec<(String, Vec<String>)>;

    fn run(schema: &Schema, json: &str) -> Option<(Value, Dropped)> {
        let value: Value = json.parse().expect("json");
        let errors = schema.validate(&value).expect_err("invalid");
        salvage(schema, &value, errors).map(|s| {
            let dropped = s
                .dropped
                .iter()
                .map(|c| {
                    let paths = c.errors.iter().map(|e| e.instance_path.clone()).collect();
                    (c.pointer(), paths)
                })
                .collect();
            (s.value, dropped)
        })
    }

    #[test]
    fn drops_the_records_that_fail_and_keeps_the_rest() {
        let (value, dropped) = run(
            &records(),
            r#"{"records": [{"name": "a"}, {"nome": "b"}, {"name": "c"}, {"name": 4}]}"#,
        )
        .expect("salvaged");
        assert_eq!(
            value,
            r#"{"records": [{"name": "a"}, {"name": "c"}]}"#.parse::<Value>().unwrap()
        );
        assert_eq!(
            dropped,
            vec![
                ("/records/1".to_string(), vec!["/records/1".to_string()]),
                (
                    "/records/3".to_string(),
                    vec!["/records/3/name".to_string()]
                ),
            ]
        );
    }

    #[test]
    fn a_bad_tag_costs_the_tag_not_the_record() {
        let (value, dropped) = run(
            &records(),
            r#"{"records": [{"name": "a", "tags": ["x", 2, "y"]}]}"#,
        )
        .expect("salvaged");
        assert_eq!(
            value,
            r#"{"records": [{"name": "a", "tags": ["x", "y"]}]}"#
                .parse::<Value>()
                .unwrap()
        );
        assert_eq!(dropped[0].0, "/records/0/tags/1");
    }

    #[test]
    fn a_list_left_too_short_condemns_what_holds_it_with_paths_as_written() {
        // Record 1's only tag is bad: dropping it leaves `tags` under minItems, so the record
        // goes, taking the tag's error with it; record 2 becomes index 1 in the pruned value
        // but is reported as written.
        let (value, dropped) = run(
            &records(),
            r#"{"records": [{"name": "a"}, {"name": "b", "tags": [1]}, {"name": 3}]}"#,
        )
        .expect("salvaged");
        assert_eq!(
            value,
            r#"{"records": [{"name": "a"}]}"#.parse::<Value>().unwrap()
        );
        assert_eq!(
            dropped,
            vec![
                (
                    "/records/1".to_string(),
                    vec![
                        "/records/1/tags/0".to_string(),
                        "/records/1/tags".to_string()
                    ]
                ),
                (
                    "/records/2".to_string(),
                    vec!["/records/2/name".to_string()]
                ),
            ]
        );
    }

    #[test]
    fn refuses_what_no_drop_can_fix() {
        // Every record bad: the list would be empty, under its minItems; a positional item
        // is never dropped; a violation outside any item has nothing to drop.
        let schema = records();
        assert!(run(&schema, r#"{"records": [{"name": 1}]}"#).is_none());
        assert!(run(&schema, r#"{"records": [], "pair": [1, 2]}"#).is_none());
        assert!(run(&schema, r#"{"records": 5}"#).is_none());
    }

    #[test]
    fn items_of_a_root_list_and_of_draft_7_tuples() {
        let list = schema(serde_json::json!({"type": "array", "items": {"type": "integer"}}));
        let (value, dropped) = run(&list, r#"[1, "two", 3, null]"#).expect("salvaged");
        assert_eq!(value, "[1, 3]".parse::<Value>().unwrap());
        let paths: Vec<&str> = dropped.iter().map(|(p, _)| p.as_str()).collect();
        assert_eq!(paths, ["/1", "/3"]);
        let tuple = schema(serde_json::json!({
            "$schema": "http://json-schema.org/draft-07/schema#",
            "type": "array", "items": [{"type": "integer"}], "additionalItems": {"type": "string"}
        }));
        let (value, dropped) = run(&tuple, r#"[1, "a", 2, "b"]"#).expect("salvaged");
        assert_eq!(value, r#"[1, "a", "b"]"#.parse::<Value>().unwrap());
        assert_eq!(dropped[0].0, "/2");
        assert!(run(&tuple, r#"["x", "a"]"#).is_none());
    }

    #[test]
    fn reads_which_keyword_each_array_step_went_through() {
        use ItemKeyword::{Each, Positional};
        assert_eq!(
            item_keywords("/properties/items/items/$ref/properties/prefixItems/prefixItems/0/type"),
            vec![Each, Positional]
        );
        assert_eq!(item_keywords("/anyOf/1/items/anyOf"), vec![Each]);
        assert_eq!(item_keywords("/$defs/items/items/0"), vec![Positional]);
    }
}
