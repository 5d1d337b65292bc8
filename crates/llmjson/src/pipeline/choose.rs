//! Which candidate in a reply is the answer: a value that opens the reply, a ```` ```json ````
//! fence or tool-call block, another fence whose content is a value, the first JSON-looking
//! thing in the prose, JSON in a line of code; a reply that starts with a key is an object whose
//! brace is missing. Each candidate is parsed to decide (the repair stage says where it ends).

use super::found::{config, found, to_error, Detail, Found};
use crate::locate::{Block, Scan, Source};
use crate::repair::{self, Config, Fail, Output};
use crate::settings::Settings;
use crate::{Error, RepairKind, RepairLevel, Value};

/// Parses the value at a candidate start: a line that starts with a quoted key is an object
/// whose `{` is missing.
pub(crate) fn parse_candidate(
    text: &str,
    start: usize,
    region_end: usize,
    fence: Option<repair::Fence>,
    config: Config<'_>,
) -> Result<Output, Fail> {
    if crate::spelling::starts_quote(text.as_bytes(), start) {
        let inside = Config {
            inside_object: true,
            ..config
        };
        return repair::parser::parse(text, start, region_end, fence, inside);
    }
    repair::parse_at(text, start, region_end, fence, config)
}

/// The answer: the first candidate, unless it is a decoy (an echoed template or schema, see
/// `decoys.rs`; a draft written inside a sentence that goes on past it) that a later value
/// fills — then that value, with the skip logged. A decoy masks
/// its span and the choice runs again, as a `<think>` block is masked.
pub(crate) fn locate_answer(
    scan: &Scan<'_>,
    options: &Settings<'_>,
    detail: Detail,
) -> Result<Found, Error> {
    let first = locate_first(scan, options, detail)?;
    if options.level < RepairLevel::Full {
        return Ok(first);
    }
    let mut chosen = first;
    let mut masked: Option<Scan<'_>> = None;
    let mut skipped = Vec::new();
    // A reply rarely echoes more than a template and a schema: a few rounds, each linear.
    for _ in 0..4 {
        // (A value written inside a sentence that goes on past it is a draft being weighed.)
        let draft = || {
            let end = value_end(&chosen.out);
            let inline = crate::locate::inline_in_sentence(scan.text.as_bytes(), chosen.start, end);
            (matches!(chosen.source, Source::Text) && inline == Some(true))
                .then_some(RepairKind::AbandonedDraft)
        };
        let Some(kind) = super::decoys::decoy_kind(&chosen.out.value).or_else(draft) else {
            break;
        };
        // The decoy ends with its value, not with the text it left out after it (which may
        // be the answer).
        let decoy = chosen.start..value_end(&chosen.out).max(chosen.start + 1);
        let next_scan = masked.as_ref().unwrap_or(scan).with_mask(decoy.clone());
        match locate_first(&next_scan, options, detail) {
            // (A draft gives way to a value on a later line: two values in one sentence are
            // alternatives, of which the first is taken.)
            Ok(next)
                if next.start >= decoy.end
                    && (kind != RepairKind::AbandonedDraft
                        || scan.text.as_bytes()[decoy.end..next.start].contains(&b'\n'))
                    && super::decoys::fills(kind, &chosen.out.value, &next.out.value) =>
            {
                skipped.push(repair::parser::RawRepair::at_root(
                    kind,
                    decoy.start,
                    decoy.end,
                    match kind {
                        RepairKind::SkippedSchemaEcho => {
                            "the JSON Schema echoed before the answer was skipped"
                        }
                        RepairKind::AbandonedDraft => {
                            "a draft written in a sentence before the answer was skipped"
                        }
                        _ => "the template echoed before the answer was skipped",
                    },
                ));
                chosen = next;
                masked = Some(next_scan);
            }
            _ => break,
        }
    }
    if !skipped.is_empty() {
        skipped.append(&mut chosen.out.repairs);
        chosen.out.repairs = skipped;
    }
    let chosen = list_siblings(scan, chosen, config(options, detail));
    Ok(unwrap_single_call(scan.text, chosen))
}

/// `[lookup_order({"order_id": "A-17"})]`: a list holding one function call is the call, and
/// the call's arguments are the answer (the wrapper is logged by the parser; the list here).
fn unwrap_single_call(text: &str, mut found: Found) -> Found {
    let Value::Array(items) = &mut found.out.value else {
        return found;
    };
    // The call opens the list: the wrapper starts at its first item (paths are not always
    // computed, the span says it).
    let b = text.as_bytes();
    let first_item = (found.out.start + 1..b.len()).find(|&i| !b[i].is_ascii_whitespace());
    let called = b.get(found.out.start) == Some(&b'[')
        && found
            .out
            .repairs
            .iter()
            .any(|r| r.kind == RepairKind::FunctionWrapper && Some(r.start) == first_item);
    if items.len() != 1 || !called || !matches!(items[0], Value::Object(_)) {
        return found;
    }
    let Some(item) = items.pop() else {
        return found;
    };
    found.out.value = item;
    for r in &mut found.out.repairs {
        if let Some(rest) = r.path.strip_prefix("/0") {
            r.path = rest.to_string();
        }
    }
    let (start, end) = (found.out.start, found.out.end);
    found.out.repairs.push(repair::parser::RawRepair::at_root(
        RepairKind::UnwrappedCall,
        start,
        end,
        "the list around one call removed",
    ));
    found
}

/// Where the value ends: before the text it left out after it, if any.
fn value_end(out: &Output) -> usize {
    out.repairs
        .iter()
        .filter(|r| r.kind == RepairKind::IgnoredTrailingContent)
        .map(|r| r.start)
        .min()
        .unwrap_or(out.end)
}

/// Objects written one after another with commas and no brackets (`{…}, {…}, {…}`) are one
/// list. The parser reads such a reply as one object whose closers were stray (its members
/// merge), or as the first object with the rest left out. Where that reading ended an object
/// before `, {` (a stray closer it logged at the root, or the end of the object it kept), each
/// object is parsed alone; the list is the answer if it covers what the reading read and needs
/// fewer repairs than merging (leaving objects out is never cheaper).
fn list_siblings(scan: &Scan<'_>, found: Found, config: Config<'_>) -> Found {
    if config.level < RepairLevel::Full || !matches!(found.out.value, Value::Object(_)) {
        return found;
    }
    let text = scan.text;
    let b = text.as_bytes();
    let next_object = |end: usize| {
        let comma = skip_blanks(b, end);
        (b.get(comma) == Some(&b',')).then(|| skip_blanks(b, comma + 1))
    };
    // The doubt: the merged reading took an object's closer for a stray one (at the root,
    // before `, {`), or the reading ended after the first object and left the rest out
    // (checked first: most replies have neither, and then nothing is scanned again).
    let is_boundary = |end: usize| next_object(end).is_some_and(|k| b.get(k) == Some(&b'{'));
    let mut ends: Vec<usize> = found
        .out
        .repairs
        .iter()
        .filter(|r| r.kind == RepairKind::ExtraCloser && r.path.is_empty())
        .map(|r| r.start + 1)
        .filter(|&e| b.get(e - 1) == Some(&b'}') && is_boundary(e))
        .collect();
    let left_out = found
        .out
        .repairs
        .iter()
        .find(|r| r.kind == RepairKind::IgnoredTrailingContent)
        .map(|r| r.start);
    // Where the reading closed the object it kept, when it left the rest out: its own
    // judgement of the quotes, which may be broken (`"name": "Ana, "city": …}`).
    let read_end = left_out
        .and_then(|k| {
            let e = b[..k].iter().rposition(|c| !c.is_ascii_whitespace())? + 1;
            (e > found.start && b[e - 1] == b'}').then_some(e)
        })
        .filter(|&e| is_boundary(e));
    ends.extend(read_end);
    ends.sort_unstable();
    ends.dedup();
    if ends.is_empty() {
        return found;
    }
    let mut parts = Vec::new();
    let mut at = found.start;
    let mut known = ends.into_iter();
    let mut end = known.next().unwrap_or(text.len());
    loop {
        let Ok(out) = repair::parse_at(text, at, end, None, config) else {
            return found;
        };
        // Each object but the last closed itself where the reading ended it.
        let closed = out.repairs.iter().all(|r| !r.kind.is_truncation());
        if !matches!(out.value, Value::Object(_)) || (!closed && end != text.len()) {
            return found;
        }
        parts.push(out);
        match next_object(end) {
            Some(k) if b.get(k) == Some(&b'{') => {
                at = k;
                // Past the ends the reading found, where the braces balance; the last object
                // may be unbalanced (cut, or a closer lost): it reads to the end.
                end = match known.next() {
                    Some(e) if e > k => e,
                    _ => balanced_end(b, k).unwrap_or(text.len()),
                };
            }
            _ => break,
        }
    }
    let repairs: usize = parts.iter().map(|p| p.repairs.len()).sum();
    // The list must cover what the merged reading read (nothing it held may go unlogged),
    // and need fewer repairs than merging — or than leaving the other objects out, which
    // loses data and is never the cheaper reading when the list reads them all.
    let covers = parts.last().is_some_and(|p| p.end >= value_end(&found.out));
    if !covers || (read_end.is_none() && repairs + 1 >= found.out.repairs.len()) {
        return found;
    }
    let Found { start, source, .. } = found;
    let end = parts.last().map_or(start, |p| p.end);
    let mut log = Vec::with_capacity(repairs + 1);
    let mut removed = 0;
    let mut values = Vec::with_capacity(parts.len());
    for part in parts {
        removed += part.removed;
        log.extend(part.repairs);
        values.push(part.value);
    }
    log.push(repair::parser::RawRepair::at_root(
        RepairKind::WrappedInArray,
        start,
        end,
        "objects written one after another became a list",
    ));
    Found {
        start,
        out: Output {
            value: Value::Array(values),
            start,
            end,
            repairs: log,
            removed,
        },
        source,
    }
}

fn skip_blanks(b: &[u8], mut k: usize) -> usize {
    while k < b.len() && b[k].is_ascii_whitespace() {
        k += 1;
    }
    k
}

/// Where the object opening at `start` ends, counting braces and brackets outside
/// double-quoted strings: right after its closer, if they balance before the text ends.
fn balanced_end(b: &[u8], start: usize) -> Option<usize> {
    let mut depth = 0usize;
    let mut in_string = false;
    let mut i = start;
    while i < b.len() {
        let c = b[i];
        if in_string {
            match c {
                b'\\' => i += 1,
                b'"' => in_string = false,
                _ => {}
            }
        } else {
            match c {
                b'"' => in_string = true,
                b'{' | b'[' => depth += 1,
                b'}' | b']' => {
                    depth = depth.checked_sub(1)?;
                    if depth == 0 {
                        return Some(i + 1);
                    }
                }
                _ => {}
            }
        }
        i += 1;
    }
    None
}

pub(crate) fn locate_first(
    scan: &Scan<'_>,
    options: &Settings<'_>,
    detail: Detail,
) -> Result<Found, Error> {
    let text = scan.text;
    let config = config(options, detail);
    let to_err = |f: Fail| to_error(text, f, options);
    if options.level == RepairLevel::None {
        return locate_exact(scan, options, detail);
    }

    // A reply whose first value lies in Python's triple quotes (`"""{…}"""`, after a label
    // or `output = `) is that JSON: the quotes wrap it as a fence would, they do not make it
    // one string.
    if let Some(block) = scan.first_triple_quoted() {
        // Members with no braces start at the first key (`parse_candidate` opens the object).
        let first_key = (block.content_start..block.content_end)
            .find(|&i| !text.as_bytes()[i].is_ascii_whitespace())
            .filter(|&i| scan.key_at(i));
        if let Some(start) = first_key.or_else(|| block_candidate(scan, &block, config)) {
            if let Ok(out) = parse_candidate(text, start, block.region_end, block.fence, config) {
                return Ok(found(out, block.source.clone()));
            }
        }
    }
    // A value that opens the reply is parsed first: fences and tags *inside* it (markdown in a
    // string value) are text, not blocks.
    let mut leading_error = None;
    // A bracket at the start that did not look like JSON, read anyway: if the JSON found
    // later lies inside it, it was the document all along (`[⏎ (⏎ 9⏎ 7⏎ ), [9]]`).
    let mut enclosing = None;
    let leading = match scan.first_content() {
        Some(start) if matches!(text.as_bytes()[start], b'{' | b'[') => {
            // A reply that is one valid JSON document is exactly that, whatever it looks like
            // (the callers tried serde_json on it first; llmjson's parser repairs nothing in
            // valid JSON). Otherwise the bracket must look like JSON to be taken.
            let json_like = scan.opens_with_json(start);
            match repair::parse_at(text, start, text.len(), None, config) {
                Ok(out)
                    if json_like
                        || (out.repairs.is_empty() && text[out.end..].trim().is_empty()) =>
                {
                    Some(found(out, Source::Text))
                }
                Ok(out) => {
                    enclosing = Some(out);
                    None
                }
                Err(fail) => {
                    if json_like {
                        leading_error = Some(fail);
                    }
                    None
                }
            }
        }
        Some(start) if scan.is_scalar_at(start) => match leading_scalar(scan, start, config) {
            // `"depth": 10` alone is a member whose braces are missing (read below), not a
            // string that holds a quote: a scalar that opens with a key is taken only as it is
            // written (`"\":"` is a valid string).
            Ok(Some(found)) if !found.out.repairs.is_empty() && scan.key_at(start) => None,
            Ok(found) => found,
            Err(fail) => {
                leading_error = Some(fail);
                None
            }
        },
        _ => None,
    };
    // A reply that begins with `"key":` is an object whose `{` is missing (prefilled).
    let leading = match (leading, scan.first_content()) {
        (None, Some(start)) if scan.key_at(start) => {
            let inside = Config {
                inside_object: true,
                ..config
            };
            match repair::parse_once(text, start, text.len(), inside) {
                Ok(out) => Some(found(out, Source::Text)),
                Err(_) => None,
            }
        }
        (leading, _) => leading,
    };
    // 1. A ```json fence or a tool-call block is preferred, even over a leading value. Blocks
    // inside the leading value (markdown in its strings) are text: only look after it.
    let blocks = scan.blocks_from(leading.as_ref().map_or(0, |f| f.out.end));
    for block in blocks.iter().filter(|b| b.preferred) {
        if let Some(start) = block_candidate(scan, block, config) {
            let out = parse_candidate(text, start, block.region_end, block.fence, config)
                .map_err(to_err)?;
            return Ok(found(out, block.source.clone()));
        }
        // `<tool_call>city="Porto", days=3</tool_call>`: the arguments with no braces.
        if let Some(start) = bare_arguments(scan, block) {
            let inside = Config {
                inside_object: true,
                ..config
            };
            if let Ok(out) = repair::parser::parse(text, start, block.region_end, None, inside) {
                return Ok(found(out, block.source.clone()));
            }
        }
    }
    if let Some(found) = leading {
        return Ok(found);
    }
    // 2. Any other fence whose content is a JSON value.
    let other_fences = || blocks.iter().filter(|b| !b.preferred);
    for block in other_fences() {
        if let Some(start) = block_candidate(scan, block, config) {
            if scan.starts_block(block, start) {
                let out = parse_candidate(text, start, block.region_end, block.fence, config)
                    .map_err(to_err)?;
                return Ok(found(out, block.source.clone()));
            }
        }
    }
    let inside_enclosing = |start: usize| {
        enclosing
            .as_ref()
            .is_some_and(|e: &Output| e.start <= start && start < e.end)
    };
    // 3. The first thing in the prose that looks like JSON.
    if let Some(start) = scan.find_candidate_outside(&blocks, 0) {
        if inside_enclosing(start) {
            return Ok(found(
                enclosing.take().ok_or(Error::Internal("enclosing"))?,
                Source::Text,
            ));
        }
        // JSON in inline code (`` `{"status": "ok"}` ``) ends where the code does.
        let region_end =
            crate::locate::inline_code_end(text.as_bytes(), start).unwrap_or(text.len());
        let out = parse_candidate(text, start, region_end, None, config).map_err(to_err)?;
        return Ok(found(out, Source::Text));
    }
    // 4. JSON inside a line of code in a fence (a command's payload): the answer only when
    // nothing else holds JSON.
    for block in other_fences() {
        if let Some(start) = block_candidate(scan, block, config) {
            let out = parse_candidate(text, start, block.region_end, block.fence, config)
                .map_err(to_err)?;
            return Ok(found(out, block.source.clone()));
        }
    }
    // 5. A reply that starts with a bracket (`[a, b]`, `{,"a":1}`) is JSON even if its first
    // bytes look odd.
    let bracket_start = scan
        .first_content()
        .filter(|&i| matches!(text.as_bytes()[i], b'{' | b'['));
    if let Some(start) = bracket_start {
        let out = repair::parse_at(text, start, text.len(), None, config).map_err(to_err)?;
        return Ok(found(out, Source::Text));
    }
    if let Some(fail) = leading_error {
        return Err(to_err(fail));
    }
    Err(no_json(scan))
}

/// Where the value in `block` starts: the first thing that looks like JSON, unless the block
/// opens with a bracket whose value encloses it (`[(3 3), (2, 6)]` is the list, not its second
/// item) — the rule the reply's own leading bracket follows, so nothing before the value in the
/// block is left out unseen.
fn block_candidate(scan: &Scan<'_>, block: &Block, config: Config<'_>) -> Option<usize> {
    let b = scan.text.as_bytes();
    // In a JSON fence, a bracket that opens the content is the value even when it looks like a
    // citation (`[1]`).
    let opening = (block.content_start..block.content_end)
        .find(|&i| !b[i].is_ascii_whitespace())
        .filter(|&i| block.preferred && matches!(b[i], b'{' | b'[') && !scan.is_masked(i));
    let candidate = scan
        .find_candidate(block.content_start, block.content_end)
        .or(opening)?;
    let first = (block.content_start..candidate).find(|&i| !b[i].is_ascii_whitespace());
    let Some(first) = first.filter(|&i| matches!(b[i], b'{' | b'[')) else {
        return Some(candidate);
    };
    match parse_candidate(scan.text, first, block.region_end, block.fence, config) {
        Ok(out) if out.end > candidate => Some(first),
        _ => Some(candidate),
    }
}

/// A tool-call block whose content opens with a bare key and `=` or `:` (`city="Porto",
/// days=3`, `city: "Porto"`): its first byte, the start of an object whose braces are missing.
/// Only in a tool-call tag, where the content is arguments by construction (in prose,
/// `Note: the dates are in UTC` is a sentence).
fn bare_arguments(scan: &Scan<'_>, block: &Block) -> Option<usize> {
    if block.source != Source::ToolCall {
        return None;
    }
    let b = scan.text.as_bytes();
    let start = (block.content_start..block.content_end).find(|&i| !b[i].is_ascii_whitespace())?;
    let mut k = start;
    while k < block.content_end && (b[k].is_ascii_alphanumeric() || b[k] == b'_') {
        k += 1;
    }
    if k == start || !b[start].is_ascii_alphabetic() && b[start] != b'_' {
        return None;
    }
    while k < block.content_end && b[k] == b' ' {
        k += 1;
    }
    let separator = match b.get(k) {
        Some(b'=') => b.get(k + 1) != Some(&b'='),
        Some(b':') => b.get(k + 1) != Some(&b'/'),
        _ => false,
    };
    if !separator {
        return None;
    }
    // Then a value: quoted, a number, a bracket, or one word that ends the argument
    // (`units=metric,`); words that run on (`Note: nothing to call`) are a sentence.
    let mut v = k + 1;
    while v < block.content_end && b[v] == b' ' {
        v += 1;
    }
    let first = *b.get(v).filter(|_| v < block.content_end)?;
    if matches!(first, b'"' | b'\'' | b'[' | b'{' | b'-') || first.is_ascii_digit() {
        return Some(start);
    }
    let mut w = v;
    while w < block.content_end && (b[w].is_ascii_alphanumeric() || b[w] == b'_') {
        w += 1;
    }
    while w < block.content_end && matches!(b[w], b' ' | b'\t' | b'\r') {
        w += 1;
    }
    (w > v && (w == block.content_end || matches!(b[w], b',' | b'\n'))).then_some(start)
}

/// A reply that starts with a scalar is that scalar only if nothing but noise follows (or
/// several scalars form a list): `3 reasons: {...}` is prose. The fast path may stop early
/// (`"a" + "b"`, a quote inside the text): then the tolerant parse decides.
pub(crate) fn leading_scalar(
    scan: &Scan<'_>,
    start: usize,
    config: Config<'_>,
) -> Result<Option<Found>, Fail> {
    let text = scan.text;
    let whole = |out: &Output| scan.only_trailing_noise(out.end, text.len());
    let out = match repair::parse_at(text, start, text.len(), None, config) {
        Ok(out) if !whole(&out) => repair::parse_once(text, start, text.len(), config)?,
        other => other?,
    };
    if whole(&out) {
        return Ok(Some(found(out, Source::Text)));
    }
    Ok(scalar_list(scan, start, out, config).map(|list| found(list, Source::Text)))
}

/// A reply made only of scalars separated by commas or newlines (`1, 2, 3`) is one list.
pub(crate) fn scalar_list(
    scan: &Scan<'_>,
    start: usize,
    first: Output,
    config: Config<'_>,
) -> Option<Output> {
    let text = scan.text;
    let b = text.as_bytes();
    let mut items = vec![first.value];
    let mut repairs = first.repairs;
    let mut removed = first.removed;
    let mut pos = first.end;
    loop {
        let mut separated = false;
        while pos < b.len() && matches!(b[pos], b' ' | b'\t' | b'\r' | b'\n' | b',') {
            separated |= matches!(b[pos], b',' | b'\n');
            pos += 1;
        }
        if pos >= b.len() {
            break;
        }
        if !separated || !scan.is_scalar_at(pos) {
            return None;
        }
        let out = repair::parse_at(text, pos, text.len(), None, config).ok()?;
        if matches!(out.value, Value::Object(_) | Value::Array(_)) {
            return None;
        }
        items.push(out.value);
        repairs.extend(out.repairs);
        removed += out.removed;
        pos = out.end;
    }
    if config.level < RepairLevel::Full || items.len() < 2 {
        return None;
    }
    repairs.push(repair::parser::RawRepair::at_root(
        RepairKind::WrappedInArray,
        start,
        pos,
        "several top-level values became an array",
    ));
    Some(Output {
        value: Value::Array(items),
        start,
        end: pos,
        repairs,
        removed,
    })
}

/// Level `none`: the located region (the whole reply, else a block's content) must hold exactly
/// one JSON value.
pub(crate) fn locate_exact(
    scan: &Scan<'_>,
    options: &Settings<'_>,
    detail: Detail,
) -> Result<Found, Error> {
    let text = scan.text;
    let first = scan.first_content().ok_or(Error::Empty)?;
    // The whole reply first: a valid document may hold fences inside its strings.
    let whole = exact_in(text, first, text.len(), None, Source::Text, options, detail);
    if whole.is_ok() {
        return whole;
    }
    let blocks = scan.blocks();
    let block = blocks
        .iter()
        .find(|b| b.preferred)
        .or_else(|| blocks.first());
    match block {
        Some(b) => {
            let start = text[b.content_start..b.content_end]
                .find(|c: char| !c.is_ascii_whitespace())
                .map(|i| b.content_start + i)
                .ok_or_else(|| no_json(scan))?;
            exact_in(
                text,
                start,
                b.region_end,
                b.fence,
                b.source.clone(),
                options,
                detail,
            )
        }
        None => whole,
    }
}

pub(crate) fn exact_in(
    text: &str,
    start: usize,
    region_end: usize,
    fence: Option<repair::Fence>,
    source: Source,
    options: &Settings<'_>,
    detail: Detail,
) -> Result<Found, Error> {
    let out = repair::parse_at(text, start, region_end, fence, config(options, detail))
        .map_err(|f| to_error(text, f, options))?;
    let rest = text[out.end..region_end].trim_start_matches([' ', '\t', '\n', '\r']);
    let at_fence = fence.is_some_and(|f| rest.as_bytes().starts_with(&[f.byte; 3]));
    if !rest.is_empty() && !at_fence {
        let offset = region_end - rest.len();
        return Err(to_error(
            text,
            Fail::Syntax {
                offset,
                message: "unexpected text after the JSON value".into(),
                truncated: false,
            },
            options,
        ));
    }
    Ok(found(out, source))
}

pub(crate) fn no_json(scan: &Scan<'_>) -> Error {
    let hint = if scan.has_masks() && scan.json_only_in_masks() {
        Some("JSON appears only inside a <think> block, which is skipped".to_string())
    } else {
        None
    };
    Error::NoJson { hint }
}
