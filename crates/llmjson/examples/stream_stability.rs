//! Whether a field, once a snapshot shows it, stays: generated replies of every fault class fed
//! 7 and 64 bytes at a time, a snapshot after every chunk; a reply counts when a member or item
//! a snapshot showed with a value is absent (or null) in a later one. Replies that restate a
//! draft are counted apart (the final value replaces the draft). It also prints how many values
//! the snapshots showed in all: a view that shows less drops less.
//!
//! ```sh
//! cargo run -q --release -p llmjson --example stream_stability -- [SEED] [COUNT]
//! ```

#[path = "shared/generated_replies.rs"]
mod generated_replies;
#[path = "shared/vanished.rs"]
mod vanished;
use vanished::watch;

fn main() {
    let (mut replies, mut unstable, mut drafts, mut drafts_unstable) = (0, 0, 0, 0);
    let mut examples = Vec::new();
    // How much the snapshots show: a view that showed nothing would never drop a field.
    let mut shown_in_all = 0usize;
    let mut by_class: std::collections::BTreeMap<&'static str, (usize, usize)> = Default::default();
    for (case, options) in generated_replies::from_args() {
        let draft = case.faults.iter().any(|f| f.name() == "draft_then_final");
        let mut any = false;
        for chunk in [7, 64] {
            let watched = watch(case.input.as_bytes(), &options, chunk);
            shown_in_all += watched.shown_in_all;
            if let (Some((_, path)), false) = (watched.first_drop, any) {
                any = true;
                if examples.len() < 5 && !draft {
                    examples.push(format!("{} (chunk {chunk}): {path}", case.id));
                }
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
    println!("values shown, summed over every snapshot: {shown_in_all}");
    for example in examples {
        println!("  {example}");
    }
    let mut rows: Vec<_> = by_class.into_iter().filter(|(_, (_, n))| *n > 0).collect();
    rows.sort_by_key(|(_, (total, n))| std::cmp::Reverse(n * 1000 / total.max(&1)));
    for (class, (total, n)) in rows {
        println!("  {class}: {n} of {total} ({:.1}%)", share(n, total));
    }
}
