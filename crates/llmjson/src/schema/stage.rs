//! The schema stage in the pipeline: choose among the reply's candidate values the one that fits
//! the schema best, coerce it, validate it.

use super::coerce::{self, Coerced};
use super::salvage::{self, Salvaged};
use super::Schema;
use crate::parsed::DroppedItem;
use crate::position::PositionCursor;
use crate::settings::Settings;
use crate::{
    Coercion, Error, InvalidItems, Parsed, Repair, RepairKind, RepairLevel, Source, Truncation,
    Value,
};
use std::borrow::Cow;
use std::collections::HashMap;
use std::ops::Range;

/// One reading of the reply.
struct Candidate {
    parsed: Parsed,
    reading: Reading,
    /// A combined reading: where each of its items was found.
    parts: Vec<Range<usize>>,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Reading {
    /// A JSON value found in the reply.
    Located,
    /// Several located values read as one list (the subject of an error report only when no
    /// value the model wrote is: the model did not write that list).
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
    options: &Settings<'_>,
    schema: &Schema,
) -> Result<Parsed, Error> {
    // The reply is walked once: its first value, and from there, if that does not fit as it
    // is, the others.
    let (first, rest) = match crate::pipeline::first_and_rest(text, options) {
        Ok((parsed, rest)) => (Ok(parsed), Some(rest)),
        Err(e) => (Err(e), None),
    };
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
            let mut all = vec![parsed.clone()];
            if let Some(rest) = rest {
                // A later value that fails leaves the first alone as the one reading.
                if rest.values(text, options, &mut all).is_err() {
                    all.truncate(1);
                }
            }
            // A reply cut inside an array element, under `drop`: the element left out whole is
            // a reading too (tried after the member-drop; a strict schema may want it).
            if options.truncation == Truncation::Drop && parsed.is_truncated() {
                let whole = options.truncation(Truncation::DropElement);
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
    let parts: Vec<Range<usize>> = located.iter().map(|p| p.span.clone()).collect();
    let several = located.len() > 1;
    let all_as_list = several.then(|| combined(&located));
    let mut candidates: Vec<Candidate> = located
        .into_iter()
        .map(|parsed| Candidate {
            parsed,
            reading: Reading::Located,
            parts: Vec::new(),
        })
        .collect();
    candidates.extend(all_as_list.map(|parsed| Candidate {
        parsed,
        reading: Reading::Combined,
        parts,
    }));
    if fit && options.level != RepairLevel::None && !text.trim().is_empty() {
        candidates.push(Candidate {
            parsed: whole_text(text),
            reading: Reading::WholeText,
            parts: Vec::new(),
        });
    }
    // Salvage (leaving out the items that fail their item schema) is tried only when no reading
    // validates as it is, on the readings of JSON the reply holds.
    let salvage = options.invalid_items == InvalidItems::Drop;

    // The best reading that validates, with its total cost; the readings of JSON that do not
    // (for salvage, and the best located one for the error).
    let mut best_valid: Option<(u32, Candidate, Coerced)> = None;
    let mut failing: Vec<(u32, Candidate, Coerced)> = Vec::new();
    let mut lone_values_refused = false;
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
            // A lone value wrapped into the list the schema wants, while the reply holds
            // several values that are such a list together (one record per line): taken alone
            // it would lose the others without a word. The values as one list decide instead.
            let one_of_many = several
                && candidate.reading == Reading::Located
                && coerced
                    .steps
                    .iter()
                    .any(|s| s.kind == RepairKind::WrappedSingleValue && s.path.is_empty());
            if one_of_many {
                lone_values_refused = true;
                continue;
            }
            if best_valid.as_ref().is_none_or(|(best, ..)| cost < *best) {
                best_valid = Some((cost, candidate, coerced));
            }
        } else if candidate.reading != Reading::WholeText {
            failing.push((cost, candidate, coerced));
        }
    }
    if let Some((_, candidate, coerced)) = best_valid {
        return Ok(with_changes(text, candidate, coerced, None));
    }
    // Fewest misfits, then the lowest cost, then the earliest.
    failing.sort_by_key(|(cost, _, coerced)| (coerced.misfits, *cost));
    if salvage {
        for i in 0..failing.len() {
            let (_, candidate, coerced) = &failing[i];
            if let Some(found) = salvage_reading(text, options, schema, candidate, coerced) {
                let (_, candidate, coerced) = failing.swap_remove(i);
                return Ok(with_changes(text, candidate, coerced, Some(found)));
            }
        }
    }
    // The error is about the best value the reply wrote; about the values as one list when
    // that is the only reading the reply's values could have (a lone value was refused as a
    // list above) or when they were read as nothing else.
    let wanted = if lone_values_refused {
        Reading::Combined
    } else {
        Reading::Located
    };
    let best_located = match failing
        .iter()
        .position(|(_, candidate, _)| candidate.reading == wanted)
    {
        Some(i) => Some(failing.swap_remove(i)),
        None => failing.into_iter().next(),
    };
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
                errors: vec![crate::error::SchemaError {
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
fn bare_values_around(text: &str, options: &Settings<'_>, located: &[Parsed]) -> Vec<Parsed> {
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
    options: &Settings<'_>,
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
    place_all(text, &mut parsed.repairs, offset);
    place_all(text, &mut parsed.dropped, offset);
    parsed
}

/// What has a span in the reply and the line and column of its start.
trait Placed {
    fn placement(&mut self) -> (&mut Range<usize>, &mut usize, &mut usize);
}

impl Placed for Repair {
    fn placement(&mut self) -> (&mut Range<usize>, &mut usize, &mut usize) {
        (&mut self.span, &mut self.line, &mut self.column)
    }
}

impl Placed for DroppedItem {
    fn placement(&mut self) -> (&mut Range<usize>, &mut usize, &mut usize) {
        (&mut self.span, &mut self.line, &mut self.column)
    }
}

/// Moves each span `offset` bytes on and sets its line and column: the entries are in text
/// order, so one forward walk gives them all.
fn place_all<T: Placed>(text: &str, entries: &mut [T], offset: usize) {
    let mut cursor = PositionCursor::new(text);
    for entry in entries {
        let (span, line, column) = entry.placement();
        *span = span.start + offset..span.end + offset;
        let position = cursor.seek(span.start);
        *line = position.line;
        *column = position.column;
    }
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
        dropped: Vec::new(),
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
        dropped: Vec::new(),
    }
}

/// A salvage that the safety guard allows, with where its items are in the reply.
struct SalvageFound {
    salvaged: Salvaged,
    places: HashMap<String, Range<usize>>,
    /// Non-whitespace bytes of the dropped items.
    dropped_bytes: usize,
}

/// `candidate`'s coerced value without its invalid items, when what is left validates and the
/// items left out, counted with what the repair discarded, stay within the safety guard.
fn salvage_reading(
    text: &str,
    options: &Settings<'_>,
    schema: &Schema,
    candidate: &Candidate,
    coerced: &Coerced,
) -> Option<SalvageFound> {
    let errors = schema.validate(&coerced.value).err()?;
    let salvaged = salvage::salvage(schema, &coerced.value, errors)?;
    let pointers: Vec<String> = salvaged.dropped.iter().map(|c| c.pointer()).collect();
    let mut wanted: Vec<&str> = pointers.iter().map(String::as_str).collect();
    wanted.extend(coerced.steps.iter().map(|s| s.path.as_str()));
    let places = candidate_places(text, candidate, &wanted);
    let dropped_bytes: usize = pointers
        .iter()
        .map(|pointer| match places.get(pointer) {
            Some(span) if !span.is_empty() => {
                let bytes = &text.as_bytes()[span.clone()];
                bytes.len() - crate::repair::parser::json_whitespace(bytes)
            }
            // Not where the text shows it: its compact JSON's length stands in.
            _ => coerced
                .value
                .pointer(pointer)
                .map_or(0, |item| item.to_string().len()),
        })
        .sum();
    let removed = candidate.parsed.removed_bytes + dropped_bytes;
    if crate::pipeline::guard_refuses(removed, candidate.parsed.located_bytes, options).is_some() {
        return None;
    }
    Some(SalvageFound {
        salvaged,
        places,
        dropped_bytes,
    })
}

/// The chosen reading as the result: its value coerced (and salvaged), the coercions and the
/// dropped items appended to the repair log. A coercion is about a value, not a place in the
/// text: its span is empty, at the start of the value it changed (or, for a value the text does
/// not hold, such as a filled default, of the nearest holder). A dropped item's span is its
/// text.
fn with_changes(
    text: &str,
    candidate: Candidate,
    coerced: Coerced,
    salvage: Option<SalvageFound>,
) -> Parsed {
    let Coerced {
        value, mut steps, ..
    } = coerced;
    let (value, dropped, places, dropped_bytes) = match salvage {
        Some(found) => {
            // A coercion inside an item left out changed nothing returned.
            let pointers: Vec<String> =
                found.salvaged.dropped.iter().map(|c| c.pointer()).collect();
            steps.retain(|step| {
                !pointers
                    .iter()
                    .any(|p| crate::value::pointer_within(&step.path, p))
            });
            let Salvaged { value, dropped } = found.salvaged;
            (value, dropped, found.places, found.dropped_bytes)
        }
        None if steps.is_empty() => {
            let mut parsed = candidate.parsed;
            parsed.value = value;
            return parsed;
        }
        None => {
            let wanted: Vec<&str> = steps.iter().map(|s| s.path.as_str()).collect();
            let places = candidate_places(text, &candidate, &wanted);
            (value, Vec::new(), places, 0)
        }
    };
    let mut parsed = candidate.parsed;
    parsed.value = value;
    parsed.removed_bytes += dropped_bytes;
    let start = parsed.span.start;
    let place = |path: &str| -> Range<usize> {
        match places.get(path) {
            Some(span) => span.clone(),
            None => {
                let at = nearest_place(&places, path).unwrap_or(start);
                at..at
            }
        }
    };
    let mut entries: Vec<(Range<usize>, RepairKind, String, Cow<'static, str>)> = steps
        .into_iter()
        .map(|step| {
            let at = place(&step.path).start;
            (at..at, step.kind, step.path, step.detail)
        })
        .collect();
    let mut dropped_items: Vec<DroppedItem> = dropped
        .into_iter()
        .map(|condemned| {
            let path = condemned.pointer();
            DroppedItem {
                span: place(&path),
                line: 0,
                column: 0,
                path,
                errors: condemned.errors,
            }
        })
        .collect();
    for item in &dropped_items {
        let first = item.errors.first().map_or("", |e| e.message.as_str());
        let detail = match item.errors.len() {
            0 | 1 => format!("left out: {first}"),
            n => format!("left out: {first} (and {} more)", n - 1),
        };
        entries.push((
            item.span.clone(),
            RepairKind::DroppedInvalidItem,
            item.path.clone(),
            Cow::Owned(detail),
        ));
    }
    // In text order, so one forward walk gives every line and column.
    entries.sort_by_key(|(span, ..)| span.start);
    dropped_items.sort_by_key(|item| item.span.start);
    let mut added: Vec<Repair> = entries
        .into_iter()
        .map(|(span, kind, path, detail)| Repair {
            kind,
            span,
            line: 0,
            column: 0,
            path,
            detail,
        })
        .collect();
    place_all(text, &mut added, 0);
    place_all(text, &mut dropped_items, 0);
    parsed.repairs.append(&mut added);
    parsed.repairs.sort_by_key(|r| r.span.start);
    parsed.dropped = dropped_items;
    parsed
}

/// Where the values at the `wanted` JSON Pointers (and their ancestors) are in `text`: found
/// in the candidate's located text, or for a combined reading, item by item in the values it
/// combines.
fn candidate_places(
    text: &str,
    candidate: &Candidate,
    wanted: &[&str],
) -> HashMap<String, Range<usize>> {
    fn shift(
        places: &mut HashMap<String, Range<usize>>,
        spans: HashMap<String, Range<usize>>,
        offset: usize,
        prefix: &str,
    ) {
        places.extend(spans.into_iter().map(|(path, span)| {
            (
                format!("{prefix}{path}"),
                span.start + offset..span.end + offset,
            )
        }));
    }
    let mut places = HashMap::new();
    if candidate.parts.is_empty() {
        let span = candidate.parsed.span.clone();
        shift(
            &mut places,
            value_spans(&text[span.clone()], wanted),
            span.start,
            "",
        );
        return places;
    }
    places.insert(String::new(), candidate.parsed.span.clone());
    for (i, part) in candidate.parts.iter().enumerate() {
        let prefix = format!("/{i}");
        let inside: Vec<&str> = wanted
            .iter()
            .filter(|w| crate::value::pointer_within(w, &prefix))
            .map(|w| &w[prefix.len()..])
            .collect();
        if !inside.is_empty() {
            let spans = value_spans(&text[part.clone()], &inside);
            shift(&mut places, spans, part.start, &prefix);
        }
    }
    places
}

/// Where the value at `path` (or at its nearest ancestor the text holds) starts.
fn nearest_place(places: &HashMap<String, Range<usize>>, path: &str) -> Option<usize> {
    let mut p = path;
    loop {
        if let Some(span) = places.get(p) {
            return Some(span.start);
        }
        let cut = p.rfind('/')?;
        p = &p[..cut];
    }
}

/// The spans (in `json`) of the values at the `wanted` JSON Pointers and their ancestors,
/// found in one forward walk of the text (strings skipped with their escapes; a text the walk
/// cannot follow just yields fewer places). A value cut off by the end of the text ends there.
fn value_spans(json: &str, wanted: &[&str]) -> HashMap<String, Range<usize>> {
    use std::collections::HashSet;
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
            recorded: Option<String>,
        },
        Array {
            path_len: usize,
            index: usize,
            recorded: Option<String>,
        },
    }
    let b = json.as_bytes();
    let mut places: HashMap<String, Range<usize>> = HashMap::new();
    let mut path = String::new();
    let mut stack: Vec<Frame> = Vec::new();
    let mut expect_value = true;
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        // Inside a character (the walk steps over text a byte at a time): nothing to read.
        if c.is_ascii_whitespace() || !json.is_char_boundary(i) {
            i += 1;
            continue;
        }
        // Comments (the repair removed them; their brackets and commas are not structure).
        if c == b'/' && matches!(b.get(i + 1), Some(b'/' | b'*')) {
            i = if b[i + 1] == b'/' {
                b[i..]
                    .iter()
                    .position(|&x| x == b'\n')
                    .map_or(b.len(), |n| i + n)
            } else {
                json[i + 2..].find("*/").map_or(b.len(), |n| i + 2 + n + 2)
            };
            continue;
        }
        // An unquoted key (`{name: 1}`): up to its colon.
        if !expect_value && !matches!(c, b'"' | b'\'' | b'}' | b',') {
            if let Some(Frame::Object {
                key: key @ None, ..
            }) = stack.last_mut()
            {
                let run = b[i..]
                    .iter()
                    .position(|&x| matches!(x, b':' | b',' | b'}' | b'\n'))
                    .map_or(b.len(), |n| i + n);
                *key = Some(json[i..run].trim_end().to_string());
                i = run;
                continue;
            }
        }
        // Where a value starts: record the path it has.
        if expect_value && !matches!(c, b']' | b'}' | b',' | b':') {
            let mut full = path.clone();
            match stack.last() {
                Some(Frame::Object { key: Some(k), .. }) => {
                    full.push('/');
                    full.push_str(&crate::value::pointer_token(k));
                }
                Some(Frame::Array { index, .. }) => {
                    full.push('/');
                    full.push_str(&index.to_string());
                }
                _ => {}
            }
            let recorded = (targets.contains(full.as_str()) && !places.contains_key(&full))
                .then(|| full.clone());
            expect_value = false;
            match c {
                b'{' | b'[' => {
                    if let Some(p) = &recorded {
                        places.insert(p.clone(), i..i);
                    }
                    let path_len = path.len();
                    stack.push(if c == b'{' {
                        Frame::Object {
                            path_len,
                            key: None,
                            recorded,
                        }
                    } else {
                        expect_value = true;
                        Frame::Array {
                            path_len,
                            index: 0,
                            recorded,
                        }
                    });
                    path = full;
                    i += 1;
                    continue;
                }
                b'"' | b'\'' => {
                    let end = string_end(b, i);
                    if let Some(p) = recorded {
                        places.insert(p, i..end);
                    }
                    i = end;
                    continue;
                }
                _ => {
                    if let Some(p) = recorded {
                        let run = b[i..]
                            .iter()
                            .position(|&x| matches!(x, b',' | b']' | b'}' | b'\n'))
                            .map_or(b.len(), |n| i + n);
                        let end = i + json[i..run].trim_end().len();
                        places.insert(p, i..end);
                    }
                }
            }
        }
        match c {
            b'"' | b'\'' => {
                let end = string_end(b, i);
                if let Some(Frame::Object { key, .. }) = stack.last_mut() {
                    if key.is_none() {
                        let raw = &json[i..end.min(json.len())];
                        *key = Some(
                            serde_json::from_str::<String>(raw)
                                .unwrap_or_else(|_| raw.trim_matches(['"', '\'']).to_string()),
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
                    Some(
                        Frame::Object {
                            path_len, recorded, ..
                        }
                        | Frame::Array {
                            path_len, recorded, ..
                        },
                    ) => {
                        path.truncate(path_len);
                        if let Some(span) = recorded.and_then(|p| places.get_mut(&p)) {
                            span.end = i + 1;
                        }
                    }
                    None => break,
                }
                i += 1;
            }
            _ => i += 1,
        }
    }
    // Containers the text leaves open end where it does.
    let end = json.trim_end().len();
    for frame in stack {
        if let Frame::Object {
            recorded: Some(p), ..
        }
        | Frame::Array {
            recorded: Some(p), ..
        } = frame
        {
            if let Some(span) = places.get_mut(&p) {
                span.end = end;
            }
        }
    }
    places
}

/// The end (one past the closing quote) of the string starting at `at` (with `"` or `'`),
/// escapes skipped.
fn string_end(b: &[u8], at: usize) -> usize {
    let quote = b[at];
    let mut k = at + 1;
    while k < b.len() {
        match b[k] {
            b'\\' => k += 2,
            x if x == quote => return k + 1,
            _ => k += 1,
        }
    }
    b.len()
}
