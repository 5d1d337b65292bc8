//! Stage "coerce": fits a repaired value to the schema, logging every change.
//!
//! Coercion never fails: where it cannot fit a value it leaves it as it is and counts a
//! *misfit*, so that validation (the arbiter) reports it in its own words. Each change has a
//! *cost*; unions (`anyOf`, `oneOf`, type lists) and the pipeline's candidates (several JSON
//! values in one reply, the reply's text itself) are decided by the fewest misfits, then the
//! lowest cost, then the first. Every rule refuses to guess: an ambiguous match (two enum values
//! in one answer, `1,5`) is a misfit, never a pick.
//!
//! Accepted coercions (the README's "Coercion" section lists them for users):
//! - a numeric string where a number or integer is wanted: `"12"`, `"-3.5"`, `"1,234"` (groups
//!   of three digits only), `"$12.50"` (one leading currency sign), `"12%"` (the number as written;
//!   `/100` only when the schema's `maximum` rules the written number out), `"1/5"` (number only);
//!   surrounding spaces, quotes, `**`, and a final `.` are ignored;
//! - a number or boolean where a string is wanted (digits exactly as written);
//! - `"true"`, `"false"`, `"yes"`, `"no"` (any case) where a boolean is wanted; `"null"`,
//!   `"none"` where null is wanted;
//! - a lone value where an array is wanted (`"a"` → `["a"]`), and a one-item array where a
//!   single value is wanted;
//! - enum and const values matched up to case, spacing and punctuation (`in progress` →
//!   `IN_PROGRESS`), only when exactly one value matches;
//! - property names matched up to case and `snake_case` / `camelCase` / `kebab-case`;
//! - properties the schema forbids (`additionalProperties: false`) dropped;
//! - a missing required property filled from its `default`, else with `null` when null is allowed;
//! - a number or boolean where an object with a single property is wanted becomes that property;
//! - for the reply's text as a whole (the answer is prose): the one boolean, number or enum
//!   value the text names (`The answer is **True**`); two different ones are ambiguous.

use crate::value::{Map, Number, Value};
use crate::RepairKind;
use std::borrow::Cow;

/// One coercion, before positions are attached.
#[derive(Debug, Clone)]
pub(crate) struct Step {
    pub kind: RepairKind,
    pub path: String,
    pub detail: Cow<'static, str>,
}

/// A value fitted to a schema: the value, what it cost, what could not be fitted.
#[derive(Debug)]
pub(crate) struct Coerced {
    pub value: Value,
    pub misfits: u32,
    pub cost: u32,
    pub steps: Vec<Step>,
}

impl Coerced {
    /// The value as it is: nothing changed, nothing amiss.
    pub(crate) fn fits(value: Value) -> Self {
        Coerced {
            value,
            misfits: 0,
            cost: 0,
            steps: Vec::new(),
        }
    }

    fn misfit(value: Value) -> Self {
        Coerced {
            value,
            misfits: 1,
            cost: 0,
            steps: Vec::new(),
        }
    }

    fn changed(value: Value, cost: u32, step: Step) -> Self {
        Coerced {
            value,
            misfits: 0,
            cost,
            steps: vec![step],
        }
    }

    /// Adds a child's result (its value is taken by the caller).
    fn absorb(&mut self, child: &mut Coerced) {
        self.misfits += child.misfits;
        self.cost += child.cost;
        self.steps.append(&mut child.steps);
    }

    /// Ordering key: fewer misfits first, then lower cost.
    pub(crate) fn rank(&self) -> (u32, u32) {
        (self.misfits, self.cost)
    }
}

// Costs: what a change says about how far the reply was from the schema.
const COST_RENAME: u32 = 1;
const COST_ENUM_CASE: u32 = 1;
const COST_FILL: u32 = 1;
const COST_SCALAR: u32 = 2;
const COST_DROP: u32 = 2;
const COST_WRAP: u32 = 3;
const COST_UNWRAP: u32 = 3;
const COST_FROM_PROSE: u32 = 4;
const COST_INTO_OBJECT: u32 = 5;

/// Schema nodes visited per coercion, at most, per value node (and at least [`WORK_FLOOR`]):
/// unions try every branch, and nested unions multiply; past the budget the rest is left to
/// validation. Linear in the value, whatever the schema.
const WORK_PER_NODE: usize = 32;
const WORK_FLOOR: usize = 200_000;
/// `$ref` chains longer than this are treated as cycles.
const REF_LIMIT: usize = 32;
/// Values nested deeper than this are left as they are.
const DEPTH_LIMIT: usize = 256;

static NO_PROPERTIES: std::sync::LazyLock<Map> = std::sync::LazyLock::new(Map::new);

/// Fits `value` to the schema `root`. With `prose`, the value is the reply's whole text, and
/// scalars may be found inside it.
pub(crate) fn coerce(root: &Value, value: Value, prose: bool) -> Coerced {
    let budget = WORK_FLOOR.max(WORK_PER_NODE.saturating_mul(node_count(&value)));
    let mut coercer = Coercer {
        root,
        work: 0,
        budget,
    };
    let mut path = String::new();
    coercer.fit(value, root, &mut path, prose, 0)
}

/// Follows `$ref`s (local ones: `#`, `#/$defs/…`, `#/definitions/…`); an external or broken
/// reference, or a chain longer than [`REF_LIMIT`], reads as `true` (anything goes).
pub(crate) fn resolve_ref<'s>(root: &'s Value, mut node: &'s Value) -> &'s Value {
    for _ in 0..REF_LIMIT {
        let Some(reference) = node.get("$ref").and_then(Value::as_str) else {
            return node;
        };
        let Some(pointer) = reference.strip_prefix('#') else {
            return &Value::Bool(true);
        };
        match root.pointer(&percent_decode(pointer)) {
            Some(target) => node = target,
            None => return &Value::Bool(true),
        }
    }
    &Value::Bool(true)
}

struct Coercer<'s> {
    root: &'s Value,
    work: usize,
    budget: usize,
}

/// Values in a tree, counted without recursion.
fn node_count(value: &Value) -> usize {
    let mut count = 0;
    let mut stack = vec![value];
    while let Some(v) = stack.pop() {
        count += 1;
        match v {
            Value::Array(items) => stack.extend(items),
            Value::Object(map) => stack.extend(map.values()),
            _ => {}
        }
    }
    count
}

impl<'s> Coercer<'s> {
    fn resolve(&self, node: &'s Value) -> &'s Value {
        resolve_ref(self.root, node)
    }

    fn fit(
        &mut self,
        value: Value,
        schema: &'s Value,
        path: &mut String,
        prose: bool,
        depth: usize,
    ) -> Coerced {
        self.work += 1;
        if self.work > self.budget || depth > DEPTH_LIMIT {
            return Coerced::fits(value);
        }
        let schema = self.resolve(schema);
        let map = match schema {
            Value::Object(map) => map,
            Value::Bool(false) => return Coerced::misfit(value),
            _ => return Coerced::fits(value),
        };
        if let Some(Value::Array(branches)) = map.get("anyOf").or_else(|| map.get("oneOf")) {
            return self.union(value, branches, path, prose, depth);
        }
        if let Some(Value::Array(parts)) = map.get("allOf") {
            let mut total = Coerced::fits(Value::Null);
            let mut value = value;
            for part in parts {
                let mut fitted = self.fit(value, part, path, prose, depth + 1);
                value = std::mem::take(&mut fitted.value);
                total.absorb(&mut fitted);
            }
            total.value = value;
            return total;
        }
        if let Some(constant) = map.get("const") {
            return self.enumerated(value, std::slice::from_ref(constant), path, prose);
        }
        if let Some(Value::Array(options)) = map.get("enum") {
            return self.enumerated(value, options, path, prose);
        }
        let types = types_of(map);
        match types.as_slice() {
            [] => Coerced::fits(value),
            [single] => self.fit_type(value, single, map, path, prose, depth),
            several => {
                if let Some(own) = several.iter().find(|t| has_type(&value, t)) {
                    return self.fit_type(value, own, map, path, prose, depth);
                }
                let mut best: Option<Coerced> = None;
                for ty in several {
                    let fitted = self.fit_type(value.clone(), ty, map, path, prose, depth);
                    if best.as_ref().is_none_or(|b| fitted.rank() < b.rank()) {
                        best = Some(fitted);
                    }
                }
                best.unwrap_or_else(|| Coerced::misfit(value))
            }
        }
    }

    fn union(
        &mut self,
        value: Value,
        branches: &'s [Value],
        path: &mut String,
        prose: bool,
        depth: usize,
    ) -> Coerced {
        let mut best: Option<Coerced> = None;
        for branch in branches {
            let fitted = self.fit(value.clone(), branch, path, prose, depth + 1);
            let perfect = fitted.rank() == (0, 0);
            if best.as_ref().is_none_or(|b| fitted.rank() < b.rank()) {
                best = Some(fitted);
            }
            if perfect {
                break;
            }
        }
        best.unwrap_or_else(|| Coerced::misfit(value))
    }

    fn fit_type(
        &mut self,
        value: Value,
        ty: &str,
        map: &'s Map,
        path: &mut String,
        prose: bool,
        depth: usize,
    ) -> Coerced {
        match ty {
            "object" => self.fit_object(value, map, path, depth),
            "array" => self.fit_array(value, map, path, prose, depth),
            "string" => fit_string(value, path),
            "integer" | "number" => fit_number(value, ty == "integer", map, path, prose),
            "boolean" => fit_boolean(value, path, prose),
            "null" => fit_null(value, path),
            _ => Coerced::fits(value),
        }
    }

    fn fit_object(
        &mut self,
        value: Value,
        map: &'s Map,
        path: &mut String,
        depth: usize,
    ) -> Coerced {
        let properties = match map.get("properties") {
            Some(Value::Object(p)) => p,
            _ => &*NO_PROPERTIES,
        };
        let object = match value {
            Value::Object(object) => object,
            Value::Array(mut items) if items.len() == 1 && items[0].is_object() => {
                let item = items.pop().unwrap_or_default();
                let mut fitted = self.fit_object(item, map, path, depth);
                fitted.cost += COST_UNWRAP;
                fitted.steps.insert(
                    0,
                    step(
                        RepairKind::UnwrappedSingleItem,
                        path,
                        "took the object out of a one-item list",
                    ),
                );
                return fitted;
            }
            scalar @ (Value::Number(_) | Value::Bool(_)) if properties.len() == 1 => {
                // `1214` where `{"foo": integer}` is wanted: the only property it can be.
                let Some((name, schema)) = properties.iter().next() else {
                    return Coerced::misfit(scalar);
                };
                let mark = push_segment(path, name);
                let mut inner = self.fit(scalar, schema, path, false, depth + 1);
                path.truncate(mark);
                let mut object = Map::new();
                object.insert(name.clone(), std::mem::take(&mut inner.value));
                let mut fitted = Coerced::changed(
                    Value::Object(object),
                    COST_INTO_OBJECT,
                    step(
                        RepairKind::WrappedInObject,
                        path,
                        format!("the value became the object's only property '{name}'"),
                    ),
                );
                fitted.absorb(&mut inner);
                return fitted;
            }
            Value::String(text) => {
                return match embedded_json(&text, Value::is_object) {
                    Some(object) => self.decoded(object, map, path, depth),
                    None => Coerced::misfit(Value::String(text)),
                }
            }
            other => return Coerced::misfit(other),
        };
        let additional = map.get("additionalProperties");
        let has_patterns = map.contains_key("patternProperties");
        let mut result = Coerced::fits(Value::Null);
        let mut out = Map::new();
        // Declared names the reply wrote exactly: a near-miss key never takes their place.
        let exact: Vec<String> = object
            .keys()
            .filter(|k| properties.contains_key(k))
            .cloned()
            .collect();
        for (key, member) in object {
            let (name, schema) = match properties.get_key_value(&key) {
                Some((name, schema)) => (name.clone(), Some(schema)),
                None => match renamed(&key, properties, &exact, &out) {
                    Some((name, schema)) => {
                        result.cost += COST_RENAME;
                        result.steps.push(step(
                            RepairKind::RenamedKey,
                            path,
                            format!("'{key}' became '{name}'"),
                        ));
                        (name.clone(), Some(schema))
                    }
                    None => match additional {
                        Some(Value::Bool(false)) if !has_patterns => {
                            result.cost += COST_DROP;
                            result.steps.push(step(
                                RepairKind::DroppedUnknownProperty,
                                path,
                                format!("removed '{key}', which the schema does not allow"),
                            ));
                            continue;
                        }
                        Some(schema @ Value::Object(_)) => (key, Some(schema)),
                        _ => (key, None),
                    },
                },
            };
            let fitted_member = match schema {
                Some(schema) => {
                    let mark = push_segment(path, &name);
                    let mut fitted = self.fit(member, schema, path, false, depth + 1);
                    path.truncate(mark);
                    let v = std::mem::take(&mut fitted.value);
                    result.absorb(&mut fitted);
                    v
                }
                None => member,
            };
            out.insert(name, fitted_member);
        }
        if let Some(Value::Array(required)) = map.get("required") {
            for name in required.iter().filter_map(Value::as_str) {
                if out.contains_key(name) {
                    continue;
                }
                let schema = properties
                    .get(name)
                    .map_or(&Value::Bool(true), |s| self.resolve(s));
                if let Some(default) = schema.get("default") {
                    out.insert(name.to_string(), default.clone());
                    result.cost += COST_FILL;
                    result.steps.push(step(
                        RepairKind::FilledDefault,
                        path,
                        format!("added the missing '{name}' with its default {default}"),
                    ));
                } else if self.allows_null(schema, 0) {
                    out.insert(name.to_string(), Value::Null);
                    result.cost += COST_FILL;
                    result.steps.push(step(
                        RepairKind::FilledNull,
                        path,
                        format!("added the missing '{name}' as null"),
                    ));
                } else {
                    result.misfits += 1;
                }
            }
        }
        result.value = Value::Object(out);
        result
    }

    fn fit_array(
        &mut self,
        value: Value,
        map: &'s Map,
        path: &mut String,
        prose: bool,
        depth: usize,
    ) -> Coerced {
        let prefix: &[Value] = match map.get("prefixItems").or_else(|| match map.get("items") {
            Some(list @ Value::Array(_)) => Some(list),
            _ => None,
        }) {
            Some(Value::Array(list)) => list,
            _ => &[],
        };
        let rest = match map.get("items") {
            Some(Value::Array(_)) => map.get("additionalItems"),
            other => other,
        };
        let schema_at = |i: usize| prefix.get(i).or(rest);
        match value {
            Value::Array(items) => {
                let mut result = Coerced::fits(Value::Null);
                let mut out = Vec::with_capacity(items.len());
                for (i, item) in items.into_iter().enumerate() {
                    match schema_at(i) {
                        Some(schema) => {
                            let mark = push_index(path, i);
                            let mut fitted = self.fit(item, schema, path, false, depth + 1);
                            path.truncate(mark);
                            out.push(std::mem::take(&mut fitted.value));
                            result.absorb(&mut fitted);
                        }
                        None => out.push(item),
                    }
                }
                result.value = Value::Array(out);
                result
            }
            Value::Null => Coerced::misfit(Value::Null),
            Value::String(text) if embedded_json(&text, Value::is_array).is_some() => {
                let list = embedded_json(&text, Value::is_array).unwrap_or_default();
                self.decoded(list, map, path, depth)
            }
            lone => {
                let mark = push_index(path, 0);
                let mut inner = match schema_at(0) {
                    Some(schema) => self.fit(lone, schema, path, prose, depth + 1),
                    None => Coerced::fits(lone),
                };
                path.truncate(mark);
                let item = std::mem::take(&mut inner.value);
                let mut fitted = Coerced::changed(
                    Value::Array(vec![item]),
                    COST_WRAP,
                    step(
                        RepairKind::WrappedSingleValue,
                        path,
                        "a lone value became a one-item list",
                    ),
                );
                fitted.absorb(&mut inner);
                fitted
            }
        }
    }

    /// A container that was written as a JSON string (`"{\"a\": 1}"`, tool arguments encoded
    /// twice), fitted like one written directly.
    fn decoded(
        &mut self,
        container: Value,
        map: &'s Map,
        path: &mut String,
        depth: usize,
    ) -> Coerced {
        let mut inner = if container.is_array() {
            self.fit_array(container, map, path, false, depth)
        } else {
            self.fit_object(container, map, path, depth)
        };
        let mut fitted = Coerced::changed(
            std::mem::take(&mut inner.value),
            COST_WRAP,
            step(
                RepairKind::DecodedJsonString,
                path,
                "a string holding JSON became the value it holds",
            ),
        );
        fitted.absorb(&mut inner);
        fitted
    }

    /// `enum` and `const`: exact, else up to case and punctuation, else (for the reply's text)
    /// the one option the text names; from a list, the one item that is an option.
    fn enumerated(&self, value: Value, options: &'s [Value], path: &str, prose: bool) -> Coerced {
        if options.iter().any(|o| same_json(o, &value)) {
            return Coerced::fits(value);
        }
        let found = match &value {
            Value::String(text) => match_option(text, options, prose),
            Value::Number(_) | Value::Bool(_) => {
                let text = value.to_string();
                options
                    .iter()
                    .find(|o| o.as_str() == Some(text.as_str()))
                    .map(|o| (o, COST_SCALAR))
            }
            Value::Array(items) => {
                let mut matches = items
                    .iter()
                    .filter_map(|item| match item {
                        Value::String(text) => match_option(text, options, false).map(|m| m.0),
                        other => options.iter().find(|o| same_json(o, other)),
                    })
                    .collect::<Vec<_>>();
                matches.dedup_by(|a, b| same_json(a, b));
                match matches.as_slice() {
                    [only] => Some((*only, COST_UNWRAP)),
                    _ => None,
                }
            }
            _ => None,
        };
        match found {
            Some((option, cost)) => {
                became(&value, option.clone(), cost, RepairKind::MatchedEnum, path)
            }
            None => Coerced::misfit(value),
        }
    }

    fn allows_null(&self, schema: &'s Value, depth: usize) -> bool {
        if depth > REF_LIMIT {
            return false;
        }
        let schema = self.resolve(schema);
        // Only a schema that says null is allowed: an undeclared property is not filled.
        let Value::Object(map) = schema else {
            return false;
        };
        if map.get("type").is_some_and(|t| type_includes(t, "null")) {
            return true;
        }
        if map.get("const") == Some(&Value::Null) {
            return true;
        }
        if let Some(Value::Array(options)) = map.get("enum") {
            return options.contains(&Value::Null);
        }
        if let Some(Value::Array(branches)) = map.get("anyOf").or_else(|| map.get("oneOf")) {
            return branches.iter().any(|b| self.allows_null(b, depth + 1));
        }
        false
    }
}

/// The types a schema node wants: its `type`, else what its keywords imply.
fn types_of(map: &Map) -> Vec<&str> {
    match map.get("type") {
        Some(Value::String(t)) => vec![t.as_str()],
        Some(Value::Array(list)) => list.iter().filter_map(Value::as_str).collect(),
        _ => {
            if map.contains_key("properties")
                || map.contains_key("required")
                || map.contains_key("additionalProperties")
            {
                vec!["object"]
            } else if map.contains_key("items") || map.contains_key("prefixItems") {
                vec!["array"]
            } else {
                Vec::new()
            }
        }
    }
}

fn has_type(value: &Value, ty: &str) -> bool {
    match (value, ty) {
        (Value::Null, "null")
        | (Value::Bool(_), "boolean")
        | (Value::String(_), "string")
        | (Value::Array(_), "array")
        | (Value::Object(_), "object")
        | (Value::Number(_), "number") => true,
        (Value::Number(n), "integer") => is_integral(n),
        _ => false,
    }
}

fn is_integral(n: &Number) -> bool {
    // Exact digits: `12.0` and `1e3` are integers to JSON Schema too.
    n.is_i64()
        || n.is_u64()
        || n.as_f64()
            .is_some_and(|f| f.is_finite() && f.fract() == 0.0)
}

/// Values equal, numbers by numeric value (`1` is `1.0`).
fn same_json(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => {
            x.to_string() == y.to_string()
                || matches!((x.as_f64(), y.as_f64()), (Some(p), Some(q)) if p == q)
        }
        _ => a == b,
    }
}

fn fit_string(value: Value, path: &str) -> Coerced {
    match value {
        Value::String(_) => Coerced::fits(value),
        Value::Number(n) => {
            let text = n.to_string();
            let detail = format!("the number {text} became a string");
            Coerced::changed(
                Value::String(text),
                COST_SCALAR,
                step(RepairKind::CoercedString, path, detail),
            )
        }
        Value::Bool(b) => Coerced::changed(
            Value::String(b.to_string()),
            COST_SCALAR,
            step(
                RepairKind::CoercedString,
                path,
                format!("the boolean {b} became a string"),
            ),
        ),
        other => Coerced::misfit(other),
    }
}

fn fit_number(value: Value, integer: bool, map: &Map, path: &str, prose: bool) -> Coerced {
    match value {
        Value::Number(ref n) => {
            if !integer || is_integral(n) {
                Coerced::fits(value)
            } else {
                Coerced::misfit(value)
            }
        }
        Value::String(ref text) => {
            let maximum = map.get("maximum").and_then(Value::as_f64);
            let (parsed, cost) = match number_in(text, integer, maximum) {
                Some(n) => (Some(n), COST_SCALAR),
                None if prose => (number_in_prose(text, integer, maximum), COST_FROM_PROSE),
                None => (None, 0),
            };
            match parsed {
                Some(n) => became(
                    &value,
                    Value::Number(n),
                    cost,
                    RepairKind::CoercedNumber,
                    path,
                ),
                None => Coerced::misfit(value),
            }
        }
        other => Coerced::misfit(other),
    }
}

fn fit_boolean(value: Value, path: &str, prose: bool) -> Coerced {
    let Value::String(text) = &value else {
        return match value {
            Value::Bool(_) => Coerced::fits(value),
            other => Coerced::misfit(other),
        };
    };
    let word = trim_decoration(text).to_ascii_lowercase();
    let (found, cost) = match word.as_str() {
        "true" | "yes" => (Some(true), COST_SCALAR),
        "false" | "no" => (Some(false), COST_SCALAR),
        _ if prose => {
            // A negated mention names nothing ("it is not true" is no answer `true`).
            let lower = text.to_lowercase();
            let plain = |w: &str| mention(&lower, w) == Mention::Plain;
            let negated = |w: &str| mention(&lower, w) == Mention::Negated;
            match (plain("true"), plain("false")) {
                (true, false) if !negated("false") => (Some(true), COST_FROM_PROSE),
                (false, true) if !negated("true") => (Some(false), COST_FROM_PROSE),
                // Both named, or the one named only after a negator: no answer.
                _ => (None, 0),
            }
        }
        _ => (None, 0),
    };
    match found {
        Some(b) => became(
            &value,
            Value::Bool(b),
            cost,
            RepairKind::CoercedBoolean,
            path,
        ),
        None => Coerced::misfit(value),
    }
}

fn fit_null(value: Value, path: &str) -> Coerced {
    match &value {
        Value::Null => Coerced::fits(value),
        Value::String(text)
            if matches!(
                trim_decoration(text).to_ascii_lowercase().as_str(),
                "null" | "none"
            ) =>
        {
            became(
                &value,
                Value::Null,
                COST_SCALAR,
                RepairKind::CoercedNull,
                path,
            )
        }
        _ => Coerced::misfit(value),
    }
}

/// The option a string names: exactly, else up to case and punctuation, else (prose) the one
/// option the text mentions as a word — exact case first, then any case.
fn match_option<'o>(text: &str, options: &'o [Value], prose: bool) -> Option<(&'o Value, u32)> {
    let strings = || options.iter().filter(|o| o.is_string());
    let wanted = normalise(text);
    let loose: Vec<&Value> = strings()
        .filter(|o| o.as_str().is_some_and(|s| normalise(s) == wanted))
        .collect();
    match loose.as_slice() {
        [only] => return Some((only, COST_ENUM_CASE)),
        [] => {}
        several => {
            // `One` and `ONE` both normalise alike: only the exact spelling may decide.
            return several
                .iter()
                .find(|o| o.as_str() == Some(text.trim()))
                .map(|o| (*o, COST_ENUM_CASE));
        }
    }
    // A string whose first word is an option, the rest a description: `ONE: the first one`.
    if !prose {
        return None;
    }
    // Every option the text mentions, negated or not: two mentioned is ambiguous ("ONE is
    // right, not TWO" names two); one mentioned only after a negator names nothing.
    let mentioned = |fold: bool| -> Vec<(&'o Value, Mention)> {
        let haystack = if fold {
            text.to_ascii_lowercase()
        } else {
            text.to_string()
        };
        strings()
            .filter_map(|o| {
                let s = o.as_str().unwrap_or_default();
                let needle = if fold {
                    s.to_ascii_lowercase()
                } else {
                    s.to_string()
                };
                if needle.trim().is_empty() {
                    return None;
                }
                match mention(&haystack, needle.trim()) {
                    Mention::Absent => None,
                    m => Some((o, m)),
                }
            })
            .collect()
    };
    for fold in [false, true] {
        match mentioned(fold).as_slice() {
            [(only, Mention::Plain)] => return Some((only, COST_FROM_PROSE)),
            [] => continue,
            _ => return None,
        }
    }
    None
}

/// Lowercase, every run of non-alphanumeric characters one space, trimmed: `In-Progress.` and
/// `IN_PROGRESS` are both `in progress`.
fn normalise(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut gap = false;
    for c in text.chars() {
        if c.is_alphanumeric() {
            if gap && !out.is_empty() {
                out.push(' ');
            }
            gap = false;
            out.extend(c.to_lowercase());
        } else {
            gap = true;
        }
    }
    out
}

/// `type` is `name` or a list holding it.
pub(crate) fn type_includes(ty: &Value, name: &str) -> bool {
    match ty {
        Value::String(s) => s == name,
        Value::Array(list) => list.iter().any(|t| t == name),
        _ => false,
    }
}

/// Property-name key: lowercase alphanumerics only (`bookName`, `book_name`, `book-name`).
pub(crate) fn name_key(name: &str) -> String {
    name.chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect()
}

/// The declared property `key` stands for, up to case and word separators, if exactly one does
/// and the reply did not also write it exactly.
fn renamed<'p>(
    key: &str,
    properties: &'p Map,
    exact: &[String],
    out: &Map,
) -> Option<(&'p String, &'p Value)> {
    let wanted = name_key(key);
    if wanted.is_empty() {
        return None;
    }
    let mut matches = properties
        .iter()
        .filter(|(name, _)| name_key(name) == wanted);
    let found = matches.next()?;
    if matches.next().is_some() || exact.contains(found.0) || out.contains_key(found.0) {
        return None;
    }
    Some(found)
}

/// `word` occurs in `text` with no letter or digit on either side.
/// Words that negate what follows them within a few words ("not true", "isn't positive",
/// "não é verdade").
const NEGATORS: &[&str] = &[
    "not", "no", "never", "isn't", "isnt", "aren't", "wasn't", "weren't", "don't", "doesn't",
    "didn't", "cannot", "can't", "nor", "neither", "não", "nao", "nem", "nunca", "jamais",
];

/// How far back (in words) a negator still negates.
const NEGATION_REACH: usize = 3;

/// Whether `text` mentions `word` as a whole word, and whether every mention is negated.
fn mention(text: &str, word: &str) -> Mention {
    let mut from = 0;
    let (mut plain, mut negated) = (false, false);
    while let Some(k) = text[from..].find(word) {
        let at = from + k;
        let end = at + word.len();
        let before = text[..at].chars().next_back();
        let after = text[end..].chars().next();
        let boundary = |c: Option<char>| !c.is_some_and(char::is_alphanumeric);
        if boundary(before) && boundary(after) {
            let words = text[..at]
                .split(|c: char| !(c.is_alphanumeric() || c == '\'' || c == '’'))
                .filter(|w| !w.is_empty())
                .rev()
                .take(NEGATION_REACH);
            if words
                .map(|w| w.replace('’', "'").to_lowercase())
                .any(|w| NEGATORS.contains(&w.as_str()))
            {
                negated = true;
            } else {
                plain = true;
            }
        }
        from = at + word.len().max(1);
        if from > text.len() || !text.is_char_boundary(from) {
            break;
        }
    }
    match (plain, negated) {
        (true, _) => Mention::Plain,
        (false, true) => Mention::Negated,
        (false, false) => Mention::Absent,
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mention {
    Absent,
    Plain,
    /// Only ever mentioned after a negator: the text does not name it as the answer.
    Negated,
}

/// Why a reply in prose names no single answer where a boolean or an enum value is wanted: it
/// names two, or negates the one it names. `None` when it names none (or one, plainly).
pub(crate) fn prose_ambiguity(root: &Value, text: &str) -> Option<String> {
    let lower = text.to_lowercase();
    let wants = |t: &str| root.get("type").is_some_and(|v| type_includes(v, t));
    let mut named: Vec<String> = Vec::new();
    let mut negated: Vec<String> = Vec::new();
    let mut look = |word: &str, shown: &str| match mention(&lower, word) {
        Mention::Plain => named.push(shown.to_string()),
        Mention::Negated => negated.push(shown.to_string()),
        Mention::Absent => {}
    };
    if wants("boolean") {
        for (word, shown) in [
            ("true", "true"),
            ("yes", "yes"),
            ("sim", "sim"),
            ("false", "false"),
            ("no", "no"),
            ("não", "não"),
        ] {
            look(word, shown);
        }
    }
    if let Some(Value::Array(options)) = root.get("enum") {
        for option in options.iter().filter_map(Value::as_str) {
            if !option.trim().is_empty() {
                look(&option.to_lowercase(), option);
            }
        }
    }
    if named.len() + negated.len() > 1 {
        let all: Vec<String> = named.iter().chain(&negated).cloned().collect();
        return Some(format!(
            "the reply names {} — ambiguous, no single answer",
            quoted_list(&all)
        ));
    }
    if named.is_empty() && !negated.is_empty() {
        return Some(format!(
            "the reply negates {} (\"not …\") and names no answer",
            quoted_list(&negated)
        ));
    }
    None
}

fn quoted_list(items: &[String]) -> String {
    let quoted: Vec<String> = items.iter().map(|i| format!("'{i}'")).collect();
    match quoted.as_slice() {
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
        [] => String::new(),
    }
}

/// Spaces, quotes, markdown emphasis and a final sentence mark around a scalar.
fn trim_decoration(text: &str) -> &str {
    text.trim_matches(|c: char| {
        c.is_whitespace() || matches!(c, '"' | '\'' | '`' | '*' | '_' | '“' | '”')
    })
    .trim_end_matches(['.', '!', ';', ':', ','])
    .trim()
}

/// The number a string holds, as the rules in the module docs accept it.
fn number_in(text: &str, integer: bool, maximum: Option<f64>) -> Option<Number> {
    let t = trim_decoration(text);
    let (sign, t) = match t.strip_prefix('-') {
        Some(rest) => ("-", rest),
        None => ("", t.strip_prefix('+').unwrap_or(t)),
    };
    let t = t
        .strip_prefix(['$', '€', '£', '¥'])
        .unwrap_or(t)
        .trim_start();
    let (t, percent) = match t.strip_suffix('%') {
        Some(rest) => (rest.trim_end(), true),
        None => (t, false),
    };
    if let Some((num, den)) = t.split_once('/') {
        if integer || percent {
            return None;
        }
        let (n, d) = (plain_digits(num)?, plain_digits(den)?);
        let (n, d): (f64, f64) = (n.parse().ok()?, d.parse().ok()?);
        if d == 0.0 {
            return None;
        }
        let value = if sign == "-" { -n / d } else { n / d };
        return Number::from_f64(value);
    }
    let digits = ungroup(t)?;
    let mut written = format!("{sign}{digits}");
    if percent {
        let as_written: f64 = written.parse().ok()?;
        if maximum.is_some_and(|max| as_written > max && as_written / 100.0 <= max) {
            written = format!("{}", as_written / 100.0);
        }
    }
    if integer {
        written = integral_digits(&written)?;
    }
    written.parse::<Number>().ok()
}

/// The object or array a string holds as its whole content (repaired if need be), if any.
fn embedded_json(text: &str, wanted: fn(&Value) -> bool) -> Option<Value> {
    let trimmed = text.trim();
    if !(trimmed.starts_with('{') || trimmed.starts_with('[')) {
        return None;
    }
    let parsed = crate::parse_unguided(trimmed, &crate::settings::Settings::default()).ok()?;
    (parsed.span == (0..trimmed.len()) && wanted(&parsed.value)).then_some(parsed.value)
}

/// `1,234.5` → `1234.5` (groups of three only); `12.` → `12`; `.5` → `0.5`; plain digits as
/// they are. Anything else (`1,5`, `1.2.3`, `12abc`) is not a number.
fn ungroup(t: &str) -> Option<String> {
    let (whole, fraction) = match t.split_once('.') {
        Some((w, f)) => (w, Some(f)),
        None => (t, None),
    };
    let whole = if whole.contains(',') {
        let mut groups = whole.split(',');
        let first = groups.next()?;
        if first.is_empty() || first.len() > 3 || !first.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let mut out = first.to_string();
        for g in groups {
            if g.len() != 3 || !g.bytes().all(|b| b.is_ascii_digit()) {
                return None;
            }
            out.push_str(g);
        }
        out
    } else if whole.is_empty() {
        "0".to_string()
    } else {
        plain_digits(whole)?.to_string()
    };
    let whole = whole.trim_start_matches('0');
    let whole = if whole.is_empty() { "0" } else { whole };
    match fraction {
        None | Some("") => Some(whole.to_string()),
        Some(f) => {
            let (f, exponent) = match f.find(['e', 'E']) {
                Some(k) => (&f[..k], Some(&f[k + 1..])),
                None => (f, None),
            };
            if !f.bytes().all(|b| b.is_ascii_digit()) || f.is_empty() {
                return None;
            }
            let mut out = format!("{whole}.{f}");
            if let Some(e) = exponent {
                let e_digits = e.strip_prefix(['+', '-']).unwrap_or(e);
                if e_digits.is_empty() || !e_digits.bytes().all(|b| b.is_ascii_digit()) {
                    return None;
                }
                out.push('e');
                out.push_str(e);
            }
            Some(out)
        }
    }
}

fn plain_digits(t: &str) -> Option<&str> {
    let t = t.trim();
    (!t.is_empty() && t.bytes().all(|b| b.is_ascii_digit())).then_some(t)
}

/// `12.0` → `12`; `12.5` → none (not an integer).
fn integral_digits(written: &str) -> Option<String> {
    if written.contains(['e', 'E']) {
        let f: f64 = written.parse().ok()?;
        return (f.is_finite() && f.fract() == 0.0 && f.abs() < 9.0e15).then(|| format!("{f:.0}"));
    }
    match written.split_once('.') {
        None => Some(written.to_string()),
        Some((whole, fraction)) if fraction.bytes().all(|b| b == b'0') => Some(whole.to_string()),
        Some(_) => None,
    }
}

/// The one number a text mentions (`The total is 1,234.`); none when it mentions several.
fn number_in_prose(text: &str, integer: bool, maximum: Option<f64>) -> Option<Number> {
    let mut found: Option<Number> = None;
    let b = text.as_bytes();
    let mut i = 0;
    while i < b.len() {
        let starts = b[i].is_ascii_digit()
            && (i == 0 || !(b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'.'));
        if !starts {
            i += 1;
            continue;
        }
        let sign = i > 0 && b[i - 1] == b'-';
        let mut end = i;
        while end < b.len()
            && (b[end].is_ascii_digit()
                || (matches!(b[end], b',' | b'.' | b'/')
                    && end + 1 < b.len()
                    && b[end + 1].is_ascii_digit()))
        {
            end += 1;
        }
        if end < b.len() && b[end] == b'%' {
            end += 1;
        }
        if end < b.len() && b[end].is_ascii_alphabetic() {
            // `3rd`, `v2`, `10x`: not a quantity on its own.
            i = end;
            continue;
        }
        let token = format!("{}{}", if sign { "-" } else { "" }, &text[i..end]);
        let n = number_in(&token, integer, maximum)?;
        if found.as_ref().is_some_and(|f| f != &n) {
            return None;
        }
        found = Some(n);
        i = end;
    }
    found
}

/// `value` replaced by `new`, logged as "`value` became `new`".
fn became(value: &Value, new: Value, cost: u32, kind: RepairKind, path: &str) -> Coerced {
    let detail = format!("{} became {new}", short(value));
    Coerced::changed(new, cost, step(kind, path, detail))
}

fn step(kind: RepairKind, path: &str, detail: impl Into<Cow<'static, str>>) -> Step {
    Step {
        kind,
        path: path.to_string(),
        detail: detail.into(),
    }
}

/// A value as quoted in a detail, cut to 40 characters.
fn short(value: &Value) -> String {
    let text = value.to_string();
    if text.chars().count() > 40 {
        let cut: String = text.chars().take(40).collect();
        format!("{cut}…")
    } else {
        text
    }
}

fn push_segment(path: &mut String, key: &str) -> usize {
    let mark = path.len();
    path.push('/');
    crate::value::push_pointer_token(path, key);
    mark
}

fn push_index(path: &mut String, index: usize) -> usize {
    let mark = path.len();
    path.push('/');
    path.push_str(itoa::Buffer::new().format(index));
    mark
}

/// `%25` → `%`, as JSON Pointers in URI fragments are written.
fn percent_decode(pointer: &str) -> Cow<'_, str> {
    if !pointer.contains('%') {
        return Cow::Borrowed(pointer);
    }
    let hex = |b: u8| (b as char).to_digit(16);
    let bytes = pointer.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' && i + 2 < bytes.len() {
            if let (Some(hi), Some(lo)) = (hex(bytes[i + 1]), hex(bytes[i + 2])) {
                out.push((hi * 16 + lo) as u8);
                i += 3;
                continue;
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    Cow::Owned(String::from_utf8_lossy(&out).into_owned())
}
