//! The schema stage in the pipeline: choose among the reply's candidate values the one that fits
//! the schema best, coerce it, validate it.

use super::coerce::{self, Coerced};
use super::Schema;
use crate::position::PositionCursor;
use crate::{Coercion, Error, Options, Parsed, Repair, RepairLevel, Source, Truncation, Value};

/// One reading of the reply.
struct Candidate {
    parsed: Parsed,
    reading: Reading,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Reading {
    /// A JSON value found in the reply.
    Located,
    /// Several located values read as one list (never the subject of an error report: the
    /// model did not write that list).
    Combined,
    /// The reply's whole text as one string.
    WholeText,
}

impl Reading {
    /// What choosing this reading costs over a located value taken as it is.
    fn extra_cost(self) -> u32 {
        match self {
            Reading::Combined => COST_COMBINED,
            Reading::Located | Reading::WholeText => 0,
        }
    }
}

/// Reading several located values as one list costs this much more than one of them.
const COST_COMBINED: u32 = 1;

/// Parses `text` and fits the value to `schema`. Every JSON value in the reply, and all of them
/// as one list, are candidates: the one that validates after the cheapest coercions wins, the
/// earliest on a tie. Only when none fits is the reply's text itself tried, as one string (a
/// string is wanted, or an answer in prose names a boolean, a number or an enum value).
pub(crate) fn parse_guided(
    text: &str,
    options: &Options,
    schema: &Schema,
) -> Result<Parsed, Error> {
    let first = crate::parse_unguided(text, options);
    let located = match &first {
        Ok(parsed) => {
            // Valid as it is: nothing to choose or coerce. Strict mode takes the value as it
            // is, valid or not: no other candidate, no coercion.
            if schema.is_valid(&parsed.value) {
                return first;
            }
            if options.level == RepairLevel::None {
                return Err(Error::Schema {
                    errors: schema.validate(&parsed.value).err().unwrap_or_default(),
                    value: Box::new(parsed.value.clone()),
                    truncated: parsed.is_truncated(),
                });
            }
            let mut all =
                crate::pipeline::parse_all(text, options).unwrap_or_else(|_| vec![parsed.clone()]);
            // A reply cut inside an array element, under `drop`: the element left out whole is
            // a reading too (tried after the member-drop; a strict schema may want it).
            if options.truncation == Truncation::Drop && parsed.is_truncated() {
                let whole = options.clone().truncation(Truncation::DropElement);
                if let Ok(p) = crate::parse_unguided(text, &whole) {
                    if p.value != parsed.value {
                        all.insert(1.min(all.len()), p);
                    }
                }
            }
            if parsed.source != Source::Text {
                // The first value came from a fence or a tool-call block: bare JSON before or
                // after the blocks is a candidate too (a draft before the fence, a correction
                // after it).
                all.extend(bare_values_around(text, options, &all));
            }
            all
        }
        Err(_) => Vec::new(),
    };
    // Strict mode (level `none`, the kill switch) is parse-then-validate: nothing is coerced.
    let fit = options.coercion == Coercion::Fit && options.level != RepairLevel::None;
    let has_json = !located.is_empty();
    let all_as_list = (located.len() > 1).then(|| combined(&located));
    let mut candidates: Vec<Candidate> = located
        .into_iter()
        .map(|parsed| Candidate {
            parsed,
            reading: Reading::Located,
        })
        .collect();
    candidates.extend(all_as_list.map(|parsed| Candidate {
        parsed,
        reading: Reading::Combined,
    }));
    if fit && options.level != RepairLevel::None && !text.trim().is_empty() {
        candidates.push(Candidate {
            parsed: whole_text(text),
            reading: Reading::WholeText,
        });
    }

    // The best reading that validates, and the best located one that does not (for the error),
    // each with its total cost.
    let mut best_valid: Option<(u32, Candidate, Coerced)> = None;
    let mut best_located: Option<(u32, Candidate, Coerced)> = None;
    for candidate in candidates {
        let whole = candidate.reading == Reading::WholeText;
        // The reply's text as a whole is the last resort: only when no JSON value in it fits.
        if whole && best_valid.is_some() {
            break;
        }
        // The text is searched for a scalar only when it holds no JSON: `{"a": 1}` is not an
        // answer "1" to a question wanting a number.
        let prose = !whole || !has_json;
        let value = candidate.parsed.value.clone();
        let coerced = if fit {
            coerce::coerce(schema.walk(), value, prose)
        } else {
            Coerced::fits(value)
        };
        let cost = coerced.cost + candidate.reading.extra_cost();
        if schema.is_valid(&coerced.value) {
            if best_valid.as_ref().is_none_or(|(best, ..)| cost < *best) {
                best_valid = Some((cost, candidate, coerced));
            }
        } else if candidate.reading == Reading::Located
            && best_located
                .as_ref()
                .is_none_or(|(best, _, k)| (coerced.misfits, cost) < (k.misfits, *best))
        {
            best_located = Some((cost, candidate, coerced));
        }
    }
    if let Some((_, candidate, coerced)) = best_valid {
        return Ok(with_coercions(text, candidate.parsed, coerced));
    }
    match (best_located, first) {
        (Some((_, candidate, coerced)), _) => {
            let errors = schema.validate(&coerced.value).err().unwrap_or_default();
            Err(Error::Schema {
                errors,
                value: Box::new(coerced.value),
                truncated: candidate.parsed.is_truncated(),
            })
        }
        // Prose where a boolean or an enum value is wanted, naming two answers or negating the
        // one it names: an ambiguity, said as such (not "no JSON").
        (None, Err(error)) => match (fit && !has_json)
            .then(|| coerce::prose_ambiguity(schema.walk(), text))
            .flatten()
        {
            Some(message) => Err(Error::Schema {
                errors: vec![super::SchemaError {
                    instance_path: String::new(),
                    schema_path: String::new(),
                    keyword: "ambiguous".to_string(),
                    message,
                }],
                value: Box::new(Value::String(text.to_string())),
                truncated: false,
            }),
            None => Err(error),
        },
        (None, Ok(_)) => Err(Error::Internal("no candidate to validate")),
    }
}

/// The JSON values in the text before the first and after the last located value, with spans
/// and log positions in `text`'s terms.
fn bare_values_around(text: &str, options: &Options, located: &[Parsed]) -> Vec<Parsed> {
    let (Some(first), Some(last)) = (
        located.iter().map(|p| p.span.start).min(),
        located.iter().map(|p| p.span.end).max(),
    ) else {
        return Vec::new();
    };
    let mut found = Vec::new();
    for (from, to) in [(0, first), (last, text.len())] {
        let part = &text[from..to];
        if part.trim().is_empty() {
            continue;
        }
        if let Ok(values) = crate::pipeline::parse_all(part, options) {
            found.extend(values.into_iter().map(|p| shifted(text, p, from)));
        }
    }
    found
}

/// A value parsed from `text[offset..]`, with its spans and positions moved into `text`.
/// Every value in the reply, each fitted to `schema` and validated (`parse_all` with a schema):
/// the first that does not fit is the error.
pub(crate) fn parse_all_guided(
    text: &str,
    options: &Options,
    schema: &Schema,
) -> Result<Vec<Parsed>, Error> {
    let located = crate::pipeline::parse_all(text, options)?;
    let mut out = Vec::with_capacity(located.len());
    for value in located {
        let span = value.span.clone();
        // Only this value's text: the guided parse may not wander to a neighbour.
        let guided = parse_guided(&text[span.clone()], options, schema)?;
        let mut guided = shifted(text, guided, span.start);
        guided.source = value.source;
        out.push(guided);
    }
    Ok(out)
}

fn shifted(text: &str, mut parsed: Parsed, offset: usize) -> Parsed {
    parsed.span = parsed.span.start + offset..parsed.span.end + offset;
    // The log is in text order: one forward walk gives every line and column.
    let mut cursor = PositionCursor::new(text);
    for repair in &mut parsed.repairs {
        repair.span = repair.span.start + offset..repair.span.end + offset;
        let position = cursor.seek(repair.span.start);
        repair.line = position.line;
        repair.column = position.column;
    }
    parsed
}

/// Every located value as one list (`{"a":1} {"a":2}` where a list is wanted).
fn combined(located: &[Parsed]) -> Parsed {
    let start = located.first().map_or(0, |p| p.span.start);
    let end = located.last().map_or(0, |p| p.span.end);
    Parsed {
        value: Value::Array(located.iter().map(|p| p.value.clone()).collect()),
        repairs: located.iter().flat_map(|p| p.repairs.clone()).collect(),
        span: start..end,
        source: located.first().map_or(Source::Text, |p| p.source.clone()),
        removed_bytes: located.iter().map(|p| p.removed_bytes).sum(),
        located_bytes: located.iter().map(|p| p.located_bytes).sum(),
        verification: None,
    }
}

/// The reply's text as one string (a string is wanted, or a scalar is named in prose).
fn whole_text(text: &str) -> Parsed {
    Parsed {
        value: Value::String(text.to_string()),
        repairs: Vec::new(),
        span: 0..text.len(),
        source: Source::Text,
        removed_bytes: 0,
        located_bytes: 0,
        verification: None,
    }
}

/// Appends the coercions to the repair log. A coercion is about a value, not a place in the
/// text: its span is empty, at the start of the located JSON; its path says which value.
fn with_coercions(text: &str, mut parsed: Parsed, coerced: Coerced) -> Parsed {
    parsed.value = coerced.value;
    if coerced.steps.is_empty() {
        return parsed;
    }
    // Each coercion points at the value it changed (found by its path in the located text),
    // or, for a value the text does not hold (a filled default), at the nearest holder.
    let start = parsed.span.start;
    let located = &text[parsed.span.clone()];
    let wanted: Vec<&str> = coerced.steps.iter().map(|s| s.path.as_str()).collect();
    let places = value_places(located, &wanted);
    let mut steps: Vec<(usize, _)> = coerced
        .steps
        .into_iter()
        .map(|step| {
            (
                start + nearest_place(&places, &step.path).unwrap_or(0),
                step,
            )
        })
        .collect();
    // In text order, so one forward walk gives every line and column.
    steps.sort_by_key(|(at, _)| *at);
    let mut cursor = PositionCursor::new(text);
    for (at, step) in steps {
        let position = cursor.seek(at);
        parsed.repairs.push(Repair {
            kind: step.kind,
            span: at..at,
            line: position.line,
            column: position.column,
            path: step.path,
            detail: step.detail,
        });
    }
    parsed.repairs.sort_by_key(|r| r.span.start);
    parsed
}

/// Where the value at `path` (or at its nearest ancestor the text holds) starts.
fn nearest_place(places: &std::collections::HashMap<String, usize>, path: &str) -> Option<usize> {
    let mut p = path;
    loop {
        if let Some(&at) = places.get(p) {
            return Some(at);
        }
        let cut = p.rfind('/')?;
        p = &p[..cut];
    }
}

/// The start offsets (in `json`) of the values at the `wanted` JSON Pointers and their
/// ancestors, found in one forward walk of the text (strings skipped with their escapes; a
/// text the walk cannot follow just yields fewer places).
fn value_places(json: &str, wanted: &[&str]) -> std::collections::HashMap<String, usize> {
    use std::collections::{HashMap, HashSet};
    let mut targets: HashSet<&str> = HashSet::new();
    for w in wanted {
        let mut p = *w;
        targets.insert(p);
        while let Some(cut) = p.rfind('/') {
            p = &p[..cut];
            targets.insert(p);
        }
    }
    enum Frame {
        Object {
            path_len: usize,
            key: Option<String>,
        },
        Array {
            path_len: usize,
            index: usize,
        },
    }
    let b = json.as_bytes();
    let mut places = HashMap::new();
    let mut path = String::new();
    let mut stack: Vec<Frame> = Vec::new();
    let mut expect_value = true;
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        // Where a value starts: record the path it has.
        if expect_value && !matches!(c, b']' | b'}' | b',' | b':') {
            let mut full = path.clone();
            match stack.last() {
                Some(Frame::Object { key: Some(k), .. }) => {
                    full.push('/');
                    full.push_str(&k.replace('~', "~0").replace('/', "~1"));
                }
                Some(Frame::Array { index, .. }) => {
                    full.push('/');
                    full.push_str(&index.to_string());
                }
                _ => {}
            }
            if targets.contains(full.as_str()) {
                places.entry(full.clone()).or_insert(i);
            }
            expect_value = false;
            match c {
                b'{' => {
                    stack.push(Frame::Object {
                        path_len: path.len(),
                        key: None,
                    });
                    path = full;
                    i += 1;
                    continue;
                }
                b'[' => {
                    stack.push(Frame::Array {
                        path_len: path.len(),
                        index: 0,
                    });
                    path = full;
                    expect_value = true;
                    i += 1;
                    continue;
                }
                _ => {}
            }
        }
        match c {
            b'"' => {
                let end = string_end(b, i);
                if let Some(Frame::Object { key, .. }) = stack.last_mut() {
                    if key.is_none() {
                        let raw = &json[i..end.min(json.len())];
                        *key = Some(
                            serde_json::from_str::<String>(raw)
                                .unwrap_or_else(|_| raw.trim_matches('"').to_string()),
                        );
                    }
                }
                i = end;
            }
            b':' => {
                expect_value = true;
                i += 1;
            }
            b',' => {
                match stack.last_mut() {
                    Some(Frame::Array { index, .. }) => {
                        *index += 1;
                        expect_value = true;
                    }
                    Some(Frame::Object { key, .. }) => *key = None,
                    None => {}
                }
                i += 1;
            }
            b'}' | b']' => {
                match stack.pop() {
                    Some(Frame::Object { path_len, .. } | Frame::Array { path_len, .. }) => {
                        path.truncate(path_len);
                    }
                    None => break,
                }
                i += 1;
            }
            _ => i += 1,
        }
    }
    places
}

/// The end (one past the closing quote) of the string starting at `at`, escapes skipped.
fn string_end(b: &[u8], at: usize) -> usize {
    let mut k = at + 1;
    while k < b.len() {
        match b[k] {
            b'\\' => k += 2,
            b'"' => return k + 1,
            _ => k += 1,
        }
    }
    b.len()
}
