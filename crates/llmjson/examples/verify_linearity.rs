//! Whether `Evidence::add_text` and `verify` stay linear on hostile shapes of text (a soup of
//! digits, a log of dates, one long clause of numbers, wide and tall tables, thousands of keys,
//! unclosed parentheses, …): each shape is read at `n` and at `4n` repetitions, and the ratio
//! of the times printed (about 4 is linear; above 8 is flagged). The text is both the evidence
//! and the answer, so every number is looked up.
//!
//! `cargo run --release -p llmjson --example verify_linearity -- [n] [shape]`
use llmjson::verify::{verify, Evidence, VerifyOptions};
/// The shapes, each repeated `n` times.
fn shapes(n: usize) -> Vec<(&'static str, String)> {
    let mut v = vec![];
    v.push(("digits", "1,2.3 4\u{a0}5-6–7e8%".repeat(n)));
    v.push((
        "dates",
        (0..n)
            .map(|i| {
                format!(
                    "On {} March 2025 the audit found {} defects; ",
                    1 + i % 28,
                    i
                )
            })
            .collect(),
    ));
    v.push((
        "dates_nopunct",
        (0..n)
            .map(|i| format!("{} March 2025 ", 1 + i % 28))
            .collect(),
    ));
    v.push(("ids", (0..n).map(|i| format!("A-{i} ")).collect()));
    v.push((
        "years",
        (0..n).map(|i| format!("{} ", 1990 + i % 30)).collect(),
    ));
    v.push((
        "words_nums",
        (0..n).map(|i| format!("w{} {} ", i % 7, i)).collect(),
    ));
    v.push((
        "list_line",
        (0..n)
            .map(|i| format!("item{}: {} kg; ", i % 50, i))
            .collect(),
    ));
    v.push(("table_wide", {
        let mut s = String::from("|");
        for i in 0..n {
            s.push_str(&format!(" c{i} |"));
        }
        s.push('\n');
        s.push('|');
        for _ in 0..n {
            s.push_str("---|");
        }
        s.push('\n');
        for r in 0..3 {
            s.push('|');
            for i in 0..n {
                s.push_str(&format!(" {} |", r * n + i));
            }
            s.push('\n');
        }
        s
    }));
    v.push(("table_tall", {
        let mut s = String::from("| a | b |\n|---|---|\n");
        for i in 0..n {
            s.push_str(&format!("| r{i} | {i} |\n"));
        }
        s
    }));
    v.push(("json_keys", {
        let mut s = String::from("{");
        for i in 0..n {
            s.push_str(&format!("\"k{i}\": {i}, "));
        }
        s.push_str("\"z\": 0}");
        s
    }));
    v.push((
        "json_deep",
        format!(
            "{}1{}",
            "{\"a\": [".repeat(n.min(100)),
            "]}".repeat(n.min(100))
        ),
    ));
    v.push((
        "headings",
        (0..n)
            .map(|i| format!("## Section {i}\nvalue {i} kg\n"))
            .collect(),
    ));
    v.push(("conds", (0..n).map(|i| format!("at {} °C ", i)).collect()));
    v.push(("weeks", (0..n).map(|i| format!("week {} ", i)).collect()));
    v.push(("parens", "(".repeat(n) + &"1 ".repeat(n)));
    v.push((
        "caps",
        (0..n).map(|i| format!("Alpha Beta {} ", i)).collect(),
    ));
    v.push(("newlines", (0..n).map(|i| format!("{}\n", i)).collect()));
    v.push(("colons", (0..n).map(|i| format!("a: {} ", i)).collect()));
    v.push((
        "label_sentences",
        format!(
            "Total: 1 kg. {}",
            (0..n).map(|i| format!("x{i} {i} kg. ")).collect::<String>()
        ),
    ));
    v.push(("money", (0..n).map(|i| format!("R$ {},00 e ", i)).collect()));
    // One sentence of periods placed by words (`the following week's`), a run of dashed digit
    // groups, items between middle dots, and numbered things the evidence labels.
    v.push((
        "placed_periods",
        (0..n)
            .map(|i| {
                format!(
                    "week {} had {i} and the following week's {} ",
                    i % 50,
                    i + 3
                )
            })
            .collect(),
    ));
    v.push((
        "dashed_run",
        (0..n).map(|i| format!("{}-", i % 10)).collect(),
    ));
    v.push((
        "middots",
        (0..n)
            .map(|i| format!("Site{} {i},5 % · ", i % 7))
            .collect(),
    ));
    v.push((
        "numbered",
        (0..n)
            .map(|i| {
                format!(
                    "alcance {} de {} noites, {i}-day pass {} € ; ",
                    i % 9,
                    i % 5,
                    i
                )
            })
            .collect(),
    ));
    // Stop 71's rules: statement lines set by spaces (one long run of blanks too), records
    // sharing item labels, asides that label inside parentheses, thresholds, denominators.
    v.push((
        "statement",
        (0..n)
            .map(|i| format!("Staff costs {i}          ({i})\n"))
            .collect::<String>()
            + &" ".repeat(n)
            + "(1)",
    ));
    v.push((
        "records",
        (0..n)
            .map(|i| format!("- Shift {}: {i} units; waste rate: {}%\n", i % 3, i % 9))
            .collect(),
    ));
    v.push((
        "asides",
        (0..n)
            .map(|i| format!("Calls: {i} (Q2: {}; +3.{}%) ", i + 1, i % 9))
            .collect(),
    ));
    v.push((
        "thresholds",
        (0..n)
            .map(|i| {
                format!(
                    "{i} were older than {} days, {i},5 per 1,000 beds; ",
                    i % 90
                )
            })
            .collect(),
    ));
    v
}
/// Measures each shape (or only `shape`) at `n` and `4n`.
fn main() {
    let n: usize = std::env::args()
        .nth(1)
        .map_or(2_000, |a| a.parse().unwrap());
    let only = std::env::args().nth(2);
    let (small, big) = (shapes(n), shapes(4 * n));
    for ((name, s), (_, b)) in small.into_iter().zip(big) {
        if only.as_deref().is_some_and(|o| o != name) {
            continue;
        }
        let mut times = vec![];
        for text in [&s, &b] {
            let t = std::time::Instant::now();
            let mut e = Evidence::new();
            e.add_text("r", text).unwrap();
            let t1 = t.elapsed();
            let _ = verify(text, &e, &VerifyOptions::default()).unwrap();
            times.push((t1.as_secs_f64(), (t.elapsed() - t1).as_secs_f64()));
        }
        let (ri, rv) = (
            times[1].0 / times[0].0.max(1e-6),
            times[1].1 / times[0].1.max(1e-6),
        );
        println!(
            "{name:14} {:8} B: index x{ri:5.1} verify x{rv:5.1}  ({:.3}s/{:.3}s){}",
            b.len(),
            times[1].0,
            times[1].1,
            if ri > 8.0 || rv > 8.0 {
                "  <-- QUADRATIC?"
            } else {
                ""
            }
        );
    }
}
