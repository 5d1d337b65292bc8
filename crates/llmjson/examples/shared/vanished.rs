//! Whether a later snapshot dropped a field an earlier one showed (shared by the
//! `stream_stability` example and the streaming tests).

use llmjson::{Options, StreamParser, Value};

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

/// How many values `value` shows (itself and every member and item, at any depth).
pub fn values_shown(value: &Value) -> usize {
    1 + match value {
        Value::Object(map) => map.iter().map(|(_, v)| values_shown(v)).sum(),
        Value::Array(items) => items.iter().map(values_shown).sum(),
        _ => 0,
    }
}

/// What the snapshots of a reply fed `chunk` bytes at a time showed (one after every chunk).
pub struct Watched {
    /// The first field a snapshot dropped: how many bytes had arrived, and its pointer.
    pub first_drop: Option<(usize, String)>,
    /// Values shown, summed over every snapshot.
    pub shown_in_all: usize,
    /// The last snapshot's value (the whole reply arrived, `finish` not called).
    pub last: Option<Value>,
}

pub fn watch(input: &[u8], options: &Options, chunk: usize) -> Watched {
    let mut stream = StreamParser::new(options.clone()).without_events();
    let mut watched = Watched {
        first_drop: None,
        shown_in_all: 0,
        last: None,
    };
    let mut fed = 0;
    for piece in input.chunks(chunk.max(1)) {
        if stream.feed_bytes(piece).is_err() {
            break;
        }
        fed += piece.len();
        let now = stream.snapshot().value;
        watched.shown_in_all += now.as_ref().map_or(0, values_shown);
        if let (Some(before), None) = (&watched.last, &watched.first_drop) {
            if let Some(path) = dropped(before, now.as_ref(), &mut String::new()) {
                watched.first_drop = Some((fed, path));
            }
        }
        watched.last = now;
    }
    watched
}
