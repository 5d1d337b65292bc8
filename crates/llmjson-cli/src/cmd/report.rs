//! `llmjson report`: one self-contained HTML file about a stored run — outcomes, repairs by
//! kind, failures by kind, the latency histogram, and the worst replies with their repair logs.
//! Inline CSS and SVG, no script from anywhere, no network: it opens from a mail attachment.

use crate::args::ReportArgs;
use crate::store::{self, RunInfo, StoredResult};
use crate::Failure;
use llmjson::metrics::{Ending, Metrics, LATENCY_BUCKETS};
use std::collections::{BTreeMap, BinaryHeap};
use std::fmt::Write as _;
use std::time::Duration;

pub fn run(args: &ReportArgs) -> Result<(), Failure> {
    let usage = |e: store::StoreError| Failure::Usage(e.0);
    let mut store = store::open_existing(&args.db).map_err(usage)?;
    let id = match args.run {
        Some(id) => id,
        None => store
            .latest_run(false)
            .map_err(usage)?
            .ok_or_else(|| Failure::Usage("the store holds no run yet".into()))?,
    };
    let run = store
        .run(id)
        .map_err(usage)?
        .ok_or_else(|| Failure::Usage(format!("--run {id}: no such run in the store")))?;
    let mut summary = Summary::new(args.worst);
    store
        .for_each_result(id, &mut |result| summary.add(result))
        .map_err(usage)?;
    let html = render(&run, &summary);
    std::fs::write(&args.out, html)
        .map_err(|e| Failure::Usage(format!("cannot write {}: {e}", args.out.display())))?;
    Ok(())
}

/// A stored result ranked for "worst": any failure before any repair, then by how many
/// repairs, then the earlier record first.
struct Ranked {
    failed: bool,
    repairs: usize,
    result: StoredResult,
    log: Vec<serde_json::Value>,
}

impl Ranked {
    fn key(&self) -> (bool, usize, std::cmp::Reverse<i64>) {
        (
            self.failed,
            self.repairs,
            std::cmp::Reverse(self.result.seq),
        )
    }
}

impl PartialEq for Ranked {
    fn eq(&self, other: &Self) -> bool {
        self.key() == other.key()
    }
}
impl Eq for Ranked {}
impl PartialOrd for Ranked {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Ranked {
    // Reversed: the heap's top is the least bad, the one to drop when a worse one comes.
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        other.key().cmp(&self.key())
    }
}

/// What the report shows, gathered in one pass over the stored results.
struct Summary {
    metrics: Metrics,
    failed_closed: u64,
    worst: BinaryHeap<Ranked>,
    keep: usize,
}

impl Summary {
    fn new(keep: usize) -> Self {
        Summary {
            metrics: Metrics::default(),
            failed_closed: 0,
            worst: BinaryHeap::new(),
            keep,
        }
    }

    fn add(&mut self, result: StoredResult) {
        let latency = Duration::from_secs_f64(result.latency_ms.max(0.0) / 1000.0);
        let log: Vec<serde_json::Value> = serde_json::from_str(&result.repairs).unwrap_or_default();
        let valid_as_written = result.ok && result.outcome == "ok";
        let kinds = log
            .iter()
            .filter_map(|repair| repair.get("kind").and_then(|k| k.as_str()));
        let ending = if result.ok {
            // The report shows no truncation count: a stored row does not say it apart.
            Ending::Value {
                repaired: !valid_as_written,
                repair_kinds: kinds,
                truncated: false,
            }
        } else {
            self.failed_closed += u64::from(result.outcome == "grounding");
            Ending::Failed {
                kind: &result.outcome,
                fail_closed: None,
            }
        };
        self.metrics.count(ending, latency);
        if valid_as_written || self.keep == 0 {
            return;
        }
        let ranked = Ranked {
            failed: !result.ok,
            repairs: log.len(),
            result,
            log,
        };
        if self.worst.len() < self.keep {
            self.worst.push(ranked);
        } else if self.worst.peek().is_some_and(|least| ranked < *least) {
            // `<` in the reversed order: `ranked` is worse than the least bad kept.
            self.worst.pop();
            self.worst.push(ranked);
        }
    }
}

fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(c),
        }
    }
    out
}

/// A horizontal bar chart as inline SVG: one labelled bar per row, its count at its end. Each
/// bar carries `data-label` and `data-value`, so a test (or a script) can read the figures.
fn bar_chart(id: &str, title: &str, rows: &[(String, u64)], colour: &str) -> String {
    let mut svg = String::new();
    let _ = write!(svg, "<section><h2>{}</h2>", escape(title));
    if rows.is_empty() {
        svg.push_str("<p class=\"none\">None.</p></section>");
        return svg;
    }
    let max = rows.iter().map(|r| r.1).max().unwrap_or(1).max(1);
    let (label_width, bar_width, row_height) = (220.0, 420.0, 24.0);
    let height = row_height * rows.len() as f64 + 8.0;
    let _ = write!(
        svg,
        "<svg id=\"{id}\" class=\"chart\" xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" \
         height=\"{height}\" role=\"img\" aria-label=\"{}\">",
        label_width + bar_width + 90.0,
        escape(title)
    );
    for (i, (label, value)) in rows.iter().enumerate() {
        let y = 4.0 + row_height * i as f64;
        // A count of 0 draws no bar; any other count at least a pixel.
        let width = if *value == 0 {
            0.0
        } else {
            (*value as f64 / max as f64 * bar_width).max(1.0)
        };
        let _ = write!(
            svg,
            "<g class=\"bar\" data-label=\"{label}\" data-value=\"{value}\">\
             <text x=\"{}\" y=\"{}\" text-anchor=\"end\">{label}</text>\
             <rect x=\"{label_width}\" y=\"{y}\" width=\"{width:.1}\" height=\"{}\" fill=\"{colour}\"/>\
             <text x=\"{}\" y=\"{}\">{value}</text></g>",
            label_width - 8.0,
            y + 16.0,
            row_height - 6.0,
            label_width + width + 6.0,
            y + 16.0,
            label = escape(label),
        );
    }
    svg.push_str("</svg></section>");
    svg
}

fn sorted_counts(map: &BTreeMap<String, u64>) -> Vec<(String, u64)> {
    let mut rows: Vec<(String, u64)> = map.iter().map(|(k, v)| (k.clone(), *v)).collect();
    rows.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    rows
}

fn latency_label(upper: Option<f64>) -> String {
    match upper {
        Some(s) if s < 0.001 => format!("≤ {} µs", (s * 1e6).round()),
        Some(s) if s < 1.0 => format!("≤ {} ms", s * 1e3),
        Some(s) => format!("≤ {s} s"),
        None => format!("> {} s", LATENCY_BUCKETS[LATENCY_BUCKETS.len() - 1]),
    }
}

fn render(run: &RunInfo, summary: &Summary) -> String {
    let m = &summary.metrics;
    let records = m.replies();
    let outcomes = vec![
        ("ok".to_string(), m.ok),
        ("repaired".to_string(), m.repaired),
        ("failed".to_string(), m.failed - summary.failed_closed),
        ("failed closed".to_string(), summary.failed_closed),
    ];
    let latency: Vec<(String, u64)> = m
        .latency_counts
        .iter()
        .enumerate()
        .map(|(i, n)| (latency_label(LATENCY_BUCKETS.get(i).copied()), *n))
        .collect();
    let mut html = String::new();
    let _ = write!(
        html,
        "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\">\
         <title>llmjson run {id}</title><style>{STYLE}</style></head><body>\
         <h1>llmjson run {id}</h1><table class=\"run\">\
         <tr><th>status</th><td id=\"status\">{status}</td></tr>\
         <tr><th>started</th><td>{started}</td></tr><tr><th>finished</th><td>{finished}</td></tr>\
         <tr><th>records</th><td id=\"records\">{records}</td></tr>\
         <tr><th>mean latency</th><td>{mean:.3} ms</td></tr>\
         <tr><th>inputs</th><td><code>{inputs}</code></td></tr>\
         <tr><th>options</th><td><code>{options}</code></td></tr></table>",
        id = run.id,
        status = escape(&run.status),
        started = escape(&run.started_at),
        finished = escape(run.finished_at.as_deref().unwrap_or("—")),
        mean = if records == 0 {
            0.0
        } else {
            m.latency_sum * 1000.0 / records as f64
        },
        inputs = escape(&run.inputs),
        options = escape(&run.options),
    );
    html.push_str(&bar_chart("outcomes", "Outcomes", &outcomes, "#3b7dd8"));
    html.push_str(&bar_chart(
        "repairs",
        "Repairs by kind",
        &sorted_counts(&m.repairs),
        "#d89b3b",
    ));
    html.push_str(&bar_chart(
        "failures",
        "Failures by kind",
        &sorted_counts(&m.failures),
        "#c94a4a",
    ));
    html.push_str(&bar_chart(
        "latency",
        "Latency per reply",
        &latency,
        "#5a9e6f",
    ));
    let worst = {
        let mut rows: Vec<&Ranked> = summary.worst.iter().collect();
        rows.sort();
        rows
    };
    let _ = write!(
        html,
        "<section><h2>Worst replies</h2><p>Failures first, then the replies that needed the \
         most repairs ({} shown).</p><ol id=\"worst\">",
        worst.len()
    );
    for ranked in worst {
        let r = &ranked.result;
        let _ = write!(
            html,
            "<li data-seq=\"{}\"><h3>{} <span class=\"outcome {cls}\">{}</span></h3>",
            r.seq,
            escape(&r.record_id),
            escape(&r.outcome),
            cls = if r.ok { "repaired" } else { "failed" },
        );
        if let Some(message) = &r.error_message {
            let _ = write!(html, "<p class=\"error\">{}</p>", escape(message));
        }
        let _ = write!(html, "<pre>{}</pre>", escape(&r.excerpt));
        if !ranked.log.is_empty() {
            html.push_str("<ul class=\"log\">");
            for repair in &ranked.log {
                let field = |name: &str| {
                    repair
                        .get(name)
                        .map(|v| match v {
                            serde_json::Value::String(s) => s.clone(),
                            other => other.to_string(),
                        })
                        .unwrap_or_default()
                };
                let _ = write!(
                    html,
                    "<li><code>{}:{}</code> <b>{}</b> at <code>{}</code>: {}</li>",
                    escape(&field("line")),
                    escape(&field("column")),
                    escape(&field("kind")),
                    escape(&match field("path") {
                        p if p.is_empty() => "(root)".to_string(),
                        p => p,
                    }),
                    escape(&field("detail")),
                );
            }
            html.push_str("</ul>");
        }
        html.push_str("</li>");
    }
    html.push_str("</ol></section>");
    // Checks, once the page is laid out, that every bar of a count above 0 has a width: a
    // browser test reads the count from the body's data-rendered-bars (headless --dump-dom).
    html.push_str(
        "<script>addEventListener('load',function(){var n=0;\
         document.querySelectorAll('g.bar rect').forEach(function(r){\
         if(r.parentNode.dataset.value==='0'||r.getBBox().width>0)n++;});\
         document.body.dataset.renderedBars=n;});</script>",
    );
    html.push_str("</body></html>\n");
    html
}

const STYLE: &str = "body{font:14px/1.45 system-ui,sans-serif;margin:2em auto;max-width:60em;\
color:#222}h1{font-size:1.6em}h2{font-size:1.2em;margin-top:1.6em;border-bottom:1px solid #ddd}\
table.run th{text-align:left;padding-right:1em;vertical-align:top}table.run code{font-size:12px;\
word-break:break-all}svg.chart text{font-size:12px;fill:#333}pre{background:#f6f6f6;padding:.6em;\
white-space:pre-wrap;word-break:break-all;max-height:14em;overflow:auto}.outcome{font-size:.8em;\
padding:.1em .5em;border-radius:.6em;color:#fff}.outcome.failed{background:#c94a4a}\
.outcome.repaired{background:#d89b3b}.error{color:#a33}ul.log{font-size:13px}.none{color:#777}";

#[cfg(test)]
mod tests {
    use super::*;

    fn stored(seq: i64, outcome: &str, repairs: usize) -> StoredResult {
        let log: Vec<_> = (0..repairs)
            .map(|i| serde_json::json!({"kind": "trailing_comma", "line": 1, "column": i, "path": "", "detail": "removed ','"}))
            .collect();
        StoredResult {
            seq,
            record_id: format!("r{seq}"),
            ok: outcome == "ok" || outcome == "repaired",
            outcome: outcome.to_string(),
            error_message: None,
            repairs: serde_json::to_string(&log).unwrap(),
            latency_ms: 0.05,
            excerpt: "<script>alert(1)</script>".into(),
        }
    }

    #[test]
    fn the_worst_are_failures_then_the_most_repaired() {
        let mut s = Summary::new(3);
        for (seq, outcome, repairs) in [
            (0, "repaired", 1),
            (1, "repaired", 5),
            (2, "ok", 0),
            (3, "no_json", 0),
            (4, "repaired", 2),
            (5, "repaired", 5),
        ] {
            s.add(stored(seq, outcome, repairs));
        }
        let mut kept: Vec<&Ranked> = s.worst.iter().collect();
        kept.sort();
        let seqs: Vec<i64> = kept.iter().map(|r| r.result.seq).collect();
        assert_eq!(seqs, [3, 1, 5]);
        assert_eq!(
            (s.metrics.ok, s.metrics.repaired, s.metrics.failed),
            (1, 4, 1)
        );
        assert_eq!(s.metrics.repairs["trailing_comma"], 13);
    }

    #[test]
    fn the_page_escapes_what_replies_hold_and_carries_its_figures() {
        let mut s = Summary::new(5);
        s.add(stored(0, "repaired", 2));
        s.add(stored(1, "grounding", 0));
        let run = RunInfo {
            id: 7,
            started_at: "t0".into(),
            finished_at: None,
            status: "finished".into(),
            options: "{}".into(),
            inputs: "[\"<x>\"]".into(),
        };
        let html = render(&run, &s);
        assert!(!html.contains("<script>alert"), "a reply's text is escaped");
        assert!(html.contains("&lt;script&gt;alert(1)"));
        assert!(html.contains("data-label=\"failed closed\" data-value=\"1\""));
        assert!(html.contains("data-label=\"repaired\" data-value=\"1\""));
        assert!(html.contains("data-label=\"trailing_comma\" data-value=\"2\""));
        assert!(html.contains("[&quot;&lt;x&gt;&quot;]"));
        // Nothing is fetched: the only URL is the SVG namespace.
        assert_eq!(
            html.matches("http").count(),
            html.matches("http://www.w3.org/2000/svg").count()
        );
    }
}
