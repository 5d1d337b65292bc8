//! Replies written apart from the code (a JSONL file of `{"id", "class", "reply", "expected"}`;
//! `examples/heldout/`: `stream_starts.jsonl` (72 replies, six classes of where the JSON
//! starts), `stream_starts_b.jsonl` (60) and `starts_c.jsonl` (48), each written at stop 78 by a
//! helper that never read the code; the first two were then used to fix what they showed, the
//! third only measured),
//! read whole and streamed: per class, how many `parse` reads as expected, and how many a
//! stream fed in 1-, 7- and 64-byte chunks (its events read after every chunk, nothing else)
//! revises — anywhere, and at the root. A stream read by a snapshot after every chunk counts
//! the settled values it showed that the final value reads otherwise.
//!
//! ```sh
//! cargo run -q --release -p llmjson --example stream_heldout -- examples/heldout/stream_starts.jsonl
//! ```

use llmjson::{Event, Options, StreamParser};
use std::collections::BTreeMap;

const CHUNKS: [usize; 3] = [1, 7, 64];

#[derive(Default)]
struct Tally {
    total: usize,
    parsed_as_expected: usize,
    /// Replies with a `Revised` event, in the worst of the chunkings.
    revised: usize,
    at_root: usize,
    /// Settled values shown, and of those read otherwise at the end.
    settled_shown: usize,
    settled_revised: usize,
}

fn main() {
    let path = std::env::args().nth(1).expect("a JSONL file");
    let text = std::fs::read_to_string(&path).expect("readable");
    let mut by_class: BTreeMap<String, Tally> = BTreeMap::new();
    let verbose = std::env::var_os("SHOW").is_some();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let case: serde_json::Value = serde_json::from_str(line).expect("one JSON object a line");
        let reply = case["reply"].as_str().expect("a reply");
        let class = case["class"].as_str().unwrap_or("-").to_string();
        let options = Options::default();
        let parsed = llmjson::parse(reply, &options);
        let got: Option<serde_json::Value> = parsed
            .as_ref()
            .ok()
            .and_then(|p| serde_json::from_str(&p.value.to_string()).ok());
        let as_expected = got.as_ref() == Some(&case["expected"]);
        let t = by_class.entry(class).or_default();
        t.total += 1;
        t.parsed_as_expected += usize::from(as_expected);
        if verbose && !as_expected {
            println!(
                "MISREAD {}: got {:?}",
                case["id"],
                got.map(|g| g.to_string())
            );
        }
        let final_value = parsed.as_ref().ok().map(|p| p.value.clone());
        let (mut any, mut root) = (false, false);
        for chunk in CHUNKS {
            // Events alone (what a consumer of events sees), and snapshots alone (what a view
            // shows: a `Revised` event also covers what a snapshot showed, provisional or not).
            let mut stream = StreamParser::new(options.clone());
            let mut events = Vec::new();
            for piece in reply.as_bytes().chunks(chunk) {
                if stream.feed_bytes(piece).is_err() {
                    break;
                }
                events.extend(stream.events());
            }
            events.extend(stream.finish_with_events().events);
            let mut stream = StreamParser::new(options.clone());
            for piece in reply.as_bytes().chunks(chunk) {
                if stream.feed_bytes(piece).is_err() {
                    break;
                }
                let snapshot = stream.snapshot();
                let Some(value) = &snapshot.value else {
                    continue;
                };
                for path in &snapshot.complete {
                    if !snapshot.is_settled(path) {
                        continue;
                    }
                    t.settled_shown += 1;
                    let last = final_value.as_ref().and_then(|v| v.pointer(path));
                    if value.pointer(path) != last {
                        t.settled_revised += 1;
                    }
                }
            }
            let revised: Vec<&str> = events.iter().filter_map(Event::revised).collect();
            if verbose && !revised.is_empty() && chunk == 7 {
                println!(
                    "REVISED {} (chunk {chunk}): {:?}",
                    case["id"],
                    &revised[..revised.len().min(4)]
                );
            }
            any |= !revised.is_empty();
            root |= revised.contains(&"");
        }
        t.revised += usize::from(any);
        t.at_root += usize::from(root);
    }
    let share = |n: usize, total: usize| 100.0 * n as f64 / total.max(1) as f64;
    println!("| class | replies | parsed as expected | revised (any chunking) | at the root | settled values shown, revised |");
    println!("|---|---:|---:|---:|---:|---:|");
    let mut all = Tally::default();
    for (class, t) in &by_class {
        println!(
            "| {class} | {} | {} | {} | {} | {} of {} ({:.1}%) |",
            t.total,
            t.parsed_as_expected,
            t.revised,
            t.at_root,
            t.settled_revised,
            t.settled_shown,
            share(t.settled_revised, t.settled_shown)
        );
        all.total += t.total;
        all.parsed_as_expected += t.parsed_as_expected;
        all.revised += t.revised;
        all.at_root += t.at_root;
        all.settled_shown += t.settled_shown;
        all.settled_revised += t.settled_revised;
    }
    println!(
        "| all | {} | {} ({:.0}%) | {} ({:.1}%) | {} ({:.1}%) | {} of {} ({:.2}%) |",
        all.total,
        all.parsed_as_expected,
        share(all.parsed_as_expected, all.total),
        all.revised,
        share(all.revised, all.total),
        all.at_root,
        share(all.at_root, all.total),
        all.settled_revised,
        all.settled_shown,
        share(all.settled_revised, all.settled_shown)
    );
}
