//! Whether a field, once a snapshot shows it, stays: generated replies of every fault class fed
//! 7 and 64 bytes at a time, a snapshot after every chunk; a reply counts when a member or item
//! a snapshot showed with a value is absent (or null) in a later one. Replies that restate a
//! draft are counted apart (the final value replaces the draft).
//!
//! ```sh
//! cargo run -q --release -p llmjson --example stream_stability -- [SEED] [COUNT]
//! ```

use llmjson::{StreamParser, Value};

#[path = "shared/generated_replies.rs"]
mod generated_replies;

/// A path in `before` whose value is not null but is absent or null in `after`.
fn dropped(before: &Value, after: Option<&Value>, path: &mut String) -> Option<String> {
    let Some(after) = after else {
        return (!before.is_null()).then(|| path.clone());
    };
    if after.is_null() && !before.is_null() {
        return Some(path.clone());
    }
    match (before, after) {
        (Value::Object(a), Value::Object(b)) => {
            for (key, value) in a.iter() {
                let len = path.len();
                path.push('/');
                path.push_str(key);
                let found = dropped(value, b.get(key.as_str()), path);
                path.truncate(len);
                if found.is_some() {
                    return found;
                }
            }
            None
        }
        (Value::Array(a), Value::Array(b)) => {
            for (i, value) in a.iter().enumerate() {
                let len = path.len();
                path.push('/');
                path.push_str(&i.to_string());
                let found = dropped(value, b.get(i), path);
                path.truncate(len);
                if found.is_some() {
                    return found;
                }
            }
            None
        }
        // A scalar may grow (an open string or number); a container may replace a scalar the
        // truncation policy showed.
        _ => None,
    }
}

fn main() {
    let (mut replies, mut unstable, mut drafts, mut drafts_unstable) = (0, 0, 0, 0);
    let mut examples = Vec::new();
    let mut by_class: std::collections::BTreeMap<&'static str, (usize, usize)> = Default::default();
    for (case, options) in generated_replies::from_args() {
        let draft = case.faults.iter().any(|f| f.name() == "draft_then_final");
        let mut any = false;
        for chunk in [7, 64] {
            let mut stream = StreamParser::new(options.clone()).without_events();
            let mut shown: Option<Value> = None;
            for piece in case.input.as_bytes().chunks(chunk) {
                if stream.feed_bytes(piece).is_err() {
                    break;
                }
                let now = stream.snapshot().value;
                if let Some(before) = &shown {
                    if let Some(path) = dropped(before, now.as_ref(), &mut String::new()) {
                        any = true;
                        if examples.len() < 5 && !draft {
                            examples.push(format!("{} (chunk {chunk}): {path}", case.id));
                        }
                        break;
                    }
                }
                shown = now;
            }
        }
        for fault in &case.faults {
            let entry = by_class.entry(fault.name()).or_default();
            entry.0 += 1;
            entry.1 += usize::from(any && !draft);
        }
        if draft {
            drafts += 1;
            drafts_unstable += usize::from(any);
        } else {
            replies += 1;
            unstable += usize::from(any);
        }
    }
    let share = |n: usize, total: usize| 100.0 * n as f64 / total.max(1) as f64;
    println!(
        "a field shown, then absent or null: {unstable} of {replies} replies ({:.2}%); \
         replies restating a draft: {drafts_unstable} of {drafts} ({:.1}%)",
        share(unstable, replies),
        share(drafts_unstable, drafts)
    );
    for example in examples {
        println!("  {example}");
    }
    let mut rows: Vec<_> = by_class.into_iter().filter(|(_, (_, n))| *n > 0).collect();
    rows.sort_by_key(|(_, (total, n))| std::cmp::Reverse(n * 1000 / total.max(&1)));
    for (class, (total, n)) in rows {
        println!("  {class}: {n} of {total} ({:.1}%)", share(n, total));
    }
}
