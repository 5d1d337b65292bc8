//! How often the live view is wrong: generated replies of every fault class fed in chunks of
//! 1, 7 and 64 bytes, the events read after every chunk (as a live view reads them); a reply
//! counts when a `Revised` event comes (something the stream showed as complete that the final
//! value contradicts), and at the root when one is about the whole value. Per class, the worst
//! of the three chunkings.
//!
//! ```sh
//! cargo run -q --release -p llmjson --example stream_revisions -- [SEED] [COUNT]
//! ```

use llmjson::{Event, StreamParser};

#[path = "shared/generated_replies.rs"]
mod generated_replies;
use std::collections::BTreeMap;

const CHUNKS: [usize; 3] = [1, 7, 64];

#[derive(Default)]
struct Tally {
    total: usize,
    revised: [usize; 3],
    at_root: [usize; 3],
}

fn main() {
    let mut by_class: BTreeMap<&'static str, Tally> = BTreeMap::new();
    let mut all = Tally::default();
    // Replies that restate a draft are expected to be revised (the final value replaces it).
    let mut no_draft = Tally::default();
    for (case, options) in generated_replies::from_args() {
        let mut outcome = [(false, false); 3];
        for (k, chunk) in CHUNKS.into_iter().enumerate() {
            let mut stream = StreamParser::new(options.clone());
            let mut events = Vec::new();
            for piece in case.input.as_bytes().chunks(chunk) {
                if stream.feed_bytes(piece).is_err() {
                    break;
                }
                events.extend(stream.events());
            }
            events.extend(stream.finish_with_events().events);
            let revised: Vec<&str> = events.iter().filter_map(Event::revised).collect();
            outcome[k] = (!revised.is_empty(), revised.contains(&""));
        }
        let count_in = |t: &mut Tally| {
            t.total += 1;
            for (k, (any, root)) in outcome.iter().enumerate() {
                t.revised[k] += usize::from(*any);
                t.at_root[k] += usize::from(*root);
            }
        };
        count_in(&mut all);
        if !case.faults.iter().any(|f| f.name() == "draft_then_final") {
            count_in(&mut no_draft);
        }
        let mut seen = Vec::new();
        for fault in &case.faults {
            if !seen.contains(&fault.name()) {
                seen.push(fault.name());
                count_in(by_class.entry(fault.name()).or_default());
            }
        }
    }
    let share = |n: usize, total: usize| 100.0 * n as f64 / total.max(1) as f64;
    println!("| class | replies | revised (1 / 7 / 64 B) | worst | at the root (worst) |");
    println!("|---|---:|---:|---:|---:|");
    let mut rows: Vec<(&str, &Tally)> = by_class.iter().map(|(k, v)| (*k, v)).collect();
    rows.sort_by(|a, b| {
        let worst = |t: &Tally| {
            t.revised
                .iter()
                .map(|&r| share(r, t.total))
                .fold(0.0, f64::max)
        };
        worst(b.1).total_cmp(&worst(a.1))
    });
    rows.push(("all", &all));
    rows.push(("all but drafts restated later", &no_draft));
    for (name, t) in rows {
        let per: Vec<String> = t
            .revised
            .iter()
            .map(|&r| format!("{:.0}%", share(r, t.total)))
            .collect();
        let worst = t
            .revised
            .iter()
            .map(|&r| share(r, t.total))
            .fold(0.0, f64::max);
        let root = t
            .at_root
            .iter()
            .map(|&r| share(r, t.total))
            .fold(0.0, f64::max);
        println!(
            "| {name} | {} | {} | {worst:.1}% | {root:.1}% |",
            t.total,
            per.join(" / ")
        );
    }
}
