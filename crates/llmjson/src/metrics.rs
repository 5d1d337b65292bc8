//! Outcome counters and a latency histogram, written as Prometheus text exposition.
//!
//! The names are the same in Rust, the CLI (`llmjson batch --metrics`) and Python
//! (`llmjson.metrics`), so one dashboard serves all three. A [`Metrics`] is plain data: a batch
//! counts per worker and [`Metrics::merge`]s, a service keeps one behind its own lock.
//!
//! ```
//! use llmjson::{metrics::Metrics, Options};
//! use std::time::Duration;
//!
//! let mut metrics = Metrics::default();
//! let result = llmjson::parse("{\"a\": 1,}", &Options::default());
//! metrics.record(&result, Duration::from_micros(40));
//! assert_eq!(metrics.repaired, 1);
//! assert!(metrics.to_prometheus().contains("llmjson_repairs_total{kind=\"trailing_comma\"} 1"));
//! ```

use crate::{Error, Parsed};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::time::Duration;

/// Replies read, by `outcome`: `ok` (valid as written), `repaired`, `failed`.
pub const REPLIES_TOTAL: &str = "llmjson_replies_total";
/// Repairs applied, by `kind` (the repair log's kinds, schema coercions included).
pub const REPAIRS_TOTAL: &str = "llmjson_repairs_total";
/// Replies that gave no value, by `kind` (the error's kind: `no_json`, `syntax`, `schema`, …).
pub const FAILURES_TOTAL: &str = "llmjson_failures_total";
/// Repairs the safety guard refused (they would discard too much of the text).
pub const GUARD_REJECTIONS_TOTAL: &str = "llmjson_guard_rejections_total";
/// Replies that were cut off and completed.
pub const TRUNCATED_TOTAL: &str = "llmjson_truncated_total";
/// Answers blocked by the verify stage, by `reason`.
pub const FAIL_CLOSED_TOTAL: &str = "llmjson_fail_closed_total";
/// Attempts after the first in a retry loop.
pub const RETRIES_TOTAL: &str = "llmjson_retries_total";
/// Time per reply, in seconds (a histogram).
pub const LATENCY_SECONDS: &str = "llmjson_latency_seconds";

/// Every metric name, in the order they are written.
pub const NAMES: [&str; 8] = [
    REPLIES_TOTAL,
    REPAIRS_TOTAL,
    FAILURES_TOTAL,
    GUARD_REJECTIONS_TOTAL,
    TRUNCATED_TOTAL,
    FAIL_CLOSED_TOTAL,
    RETRIES_TOTAL,
    LATENCY_SECONDS,
];

/// The latency histogram's upper bounds, in seconds: 10 µs to 1 s, roughly ×2.5 apart (a reply
/// takes from a few microseconds to a few milliseconds; well under 10 ms is the promise).
pub const LATENCY_BUCKETS: [f64; 12] = [
    0.000_01, 0.000_025, 0.000_05, 0.000_1, 0.000_25, 0.000_5, 0.001, 0.002_5, 0.005, 0.01, 0.1,
    1.0,
];

/// How one reply ended, as the counters see it: what [`Metrics::count`] takes from a caller
/// that holds no `Result<Parsed, Error>` (a batch result, a stored row, Python).
#[derive(Debug, Clone, Copy)]
pub enum Ending<'a, K> {
    /// A value came out.
    Value {
        /// After at least one repair ([`Parsed::is_repaired`]).
        repaired: bool,
        /// The kind of every repair, coercions included.
        repair_kinds: K,
        /// The reply was cut off and completed.
        truncated: bool,
    },
    /// No value came out.
    Failed {
        /// The error's kind.
        kind: &'a str,
        /// Why the verify stage blocked the answer, when it did.
        fail_closed: Option<&'a str>,
    },
}

/// The counters: add with [`Metrics::record`] (or [`Metrics::count`]), combine with
/// [`Metrics::merge`], write with [`Metrics::to_prometheus`].
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Metrics {
    /// Replies valid as written.
    pub ok: u64,
    /// Replies repaired.
    pub repaired: u64,
    /// Replies that gave no value.
    pub failed: u64,
    /// Repairs by kind.
    pub repairs: BTreeMap<String, u64>,
    /// Failures by error kind.
    pub failures: BTreeMap<String, u64>,
    /// Repairs refused by the safety guard.
    pub guard_rejections: u64,
    /// Replies cut off and completed.
    pub truncated: u64,
    /// Answers blocked, by reason.
    pub fail_closed: BTreeMap<String, u64>,
    /// Retries.
    pub retries: u64,
    /// Latency: counts per bucket of [`LATENCY_BUCKETS`] (not cumulative), the last one past 1 s.
    pub latency_counts: [u64; LATENCY_BUCKETS.len() + 1],
    /// Latency: the sum, in seconds.
    pub latency_sum: f64,
}

impl Metrics {
    /// Replies counted, whatever their outcome.
    pub fn replies(&self) -> u64 {
        self.ok + self.repaired + self.failed
    }

    /// Counts one reply: its outcome, repairs, failure, truncation and time.
    pub fn record(&mut self, result: &Result<Parsed, Error>, elapsed: Duration) {
        match result {
            Ok(parsed) => self.count(
                Ending::Value {
                    repaired: parsed.is_repaired(),
                    repair_kinds: parsed.repairs.iter().map(|r| r.kind.as_str()),
                    truncated: parsed.is_truncated(),
                },
                elapsed,
            ),
            Err(error) => {
                let ending: Ending<'_, [&str; 0]> = Ending::Failed {
                    kind: error.kind(),
                    fail_closed: match error {
                        Error::Grounding { reason, .. } => Some(reason),
                        _ => None,
                    },
                };
                self.count(ending, elapsed);
            }
        }
    }

    /// Counts one reply that ended as `ending`, after `elapsed`.
    pub fn count<'a, K: IntoIterator<Item = &'a str>>(
        &mut self,
        ending: Ending<'a, K>,
        elapsed: Duration,
    ) {
        match ending {
            Ending::Value {
                repaired,
                repair_kinds,
                truncated,
            } => {
                if repaired {
                    self.repaired += 1;
                } else {
                    self.ok += 1;
                }
                for kind in repair_kinds {
                    bump(&mut self.repairs, kind);
                }
                self.truncated += u64::from(truncated);
            }
            Ending::Failed { kind, fail_closed } => {
                self.failed += 1;
                bump(&mut self.failures, kind);
                if kind == "repair_rejected" {
                    self.guard_rejections += 1;
                }
                if let Some(reason) = fail_closed {
                    bump(&mut self.fail_closed, reason);
                }
            }
        }
        let seconds = elapsed.as_secs_f64();
        let bucket = LATENCY_BUCKETS.partition_point(|&bound| bound < seconds);
        self.latency_counts[bucket] += 1;
        self.latency_sum += seconds;
    }

    /// Adds every counter of `other`.
    pub fn merge(&mut self, other: &Metrics) {
        self.ok += other.ok;
        self.repaired += other.repaired;
        self.failed += other.failed;
        for (map, theirs) in [
            (&mut self.repairs, &other.repairs),
            (&mut self.failures, &other.failures),
            (&mut self.fail_closed, &other.fail_closed),
        ] {
            for (key, n) in theirs {
                *map.entry(key.clone()).or_default() += n;
            }
        }
        self.guard_rejections += other.guard_rejections;
        self.truncated += other.truncated;
        self.retries += other.retries;
        for (mine, theirs) in self.latency_counts.iter_mut().zip(other.latency_counts) {
            *mine += theirs;
        }
        self.latency_sum += other.latency_sum;
    }

    /// The counters in Prometheus text exposition format (version 0.0.4).
    pub fn to_prometheus(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "# HELP {REPLIES_TOTAL} Replies read, by outcome.\n# TYPE {REPLIES_TOTAL} counter"
        );
        for (outcome, n) in [
            ("ok", self.ok),
            ("repaired", self.repaired),
            ("failed", self.failed),
        ] {
            let _ = writeln!(out, "{REPLIES_TOTAL}{{outcome=\"{outcome}\"}} {n}");
        }
        labelled(
            &mut out,
            REPAIRS_TOTAL,
            "Repairs applied, by kind.",
            "kind",
            &self.repairs,
        );
        labelled(
            &mut out,
            FAILURES_TOTAL,
            "Replies that gave no value, by error kind.",
            "kind",
            &self.failures,
        );
        plain(
            &mut out,
            GUARD_REJECTIONS_TOTAL,
            "Repairs refused by the safety guard.",
            self.guard_rejections,
        );
        plain(
            &mut out,
            TRUNCATED_TOTAL,
            "Replies cut off and completed.",
            self.truncated,
        );
        labelled(
            &mut out,
            FAIL_CLOSED_TOTAL,
            "Answers blocked by the verify stage, by reason.",
            "reason",
            &self.fail_closed,
        );
        plain(
            &mut out,
            RETRIES_TOTAL,
            "Attempts after the first in a retry loop.",
            self.retries,
        );
        let _ = writeln!(
            out,
            "# HELP {LATENCY_SECONDS} Time per reply, in seconds.\n# TYPE {LATENCY_SECONDS} histogram"
        );
        let mut cumulative = 0;
        for (bound, n) in LATENCY_BUCKETS.iter().zip(self.latency_counts) {
            cumulative += n;
            let _ = writeln!(
                out,
                "{LATENCY_SECONDS}_bucket{{le=\"{bound}\"}} {cumulative}"
            );
        }
        let _ = writeln!(
            out,
            "{LATENCY_SECONDS}_bucket{{le=\"+Inf\"}} {}\n{LATENCY_SECONDS}_sum {}\n{LATENCY_SECONDS}_count {}",
            self.replies(),
            self.latency_sum,
            self.replies()
        );
        out
    }
}

fn bump(map: &mut BTreeMap<String, u64>, key: &str) {
    match map.get_mut(key) {
        Some(n) => *n += 1,
        None => {
            map.insert(key.to_string(), 1);
        }
    }
}

fn plain(out: &mut String, name: &str, help: &str, n: u64) {
    let _ = writeln!(
        out,
        "# HELP {name} {help}\n# TYPE {name} counter\n{name} {n}"
    );
}

fn labelled(out: &mut String, name: &str, help: &str, label: &str, map: &BTreeMap<String, u64>) {
    let _ = writeln!(out, "# HELP {name} {help}\n# TYPE {name} counter");
    for (value, n) in map {
        // Label values are our own kinds (snake_case), but escape as the format says anyway.
        let escaped = value
            .replace('\\', "\\\\")
            .replace('"', "\\\"")
            .replace('\n', "\\n");
        let _ = writeln!(out, "{name}{{{label}=\"{escaped}\"}} {n}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Options;

    fn counted(replies: &[&str]) -> Metrics {
        let mut m = Metrics::default();
        for r in replies {
            m.record(
                &crate::parse(r, &Options::default()),
                Duration::from_micros(30),
            );
        }
        m
    }

    #[test]
    fn each_reply_counts_once_in_one_outcome() {
        let m = counted(&[
            "{\"a\": 1}",
            "{'a': 1,}",
            "",
            "no json here",
            "{\"a\": [1, 2",
        ]);
        assert_eq!((m.ok, m.repaired, m.failed), (1, 2, 2));
        assert_eq!(m.failures["empty"], 1);
        assert_eq!(m.failures["no_json"], 1);
        assert_eq!(m.truncated, 1);
        assert_eq!(m.repairs["trailing_comma"], 1);
        assert_eq!(m.latency_counts.iter().sum::<u64>(), 5);
    }

    #[test]
    fn a_guard_rejection_is_a_failure_and_its_own_counter() {
        let mut m = Metrics::default();
        // A member commented out is data: the guard counts it (prose would not be counted).
        let reply = format!(
            "{{\"a\": 1, /* \"c\": \"{}\", */ \"b\": 2}}",
            "x".repeat(60)
        );
        let result = crate::parse(&reply, &Options::default());
        assert!(matches!(result, Err(Error::RepairRejected { .. })));
        m.record(&result, Duration::ZERO);
        assert_eq!(m.guard_rejections, 1);
        assert_eq!(m.failures["repair_rejected"], 1);
    }

    #[test]
    fn merging_equals_counting_together() {
        let a = counted(&["{'a': 1}", ""]);
        let b = counted(&["[1, 2,]", "{\"x\": tru"]);
        let mut merged = a.clone();
        merged.merge(&b);
        let together = counted(&["{'a': 1}", "", "[1, 2,]", "{\"x\": tru"]);
        assert_eq!(merged, together);
    }

    #[test]
    fn latency_lands_in_the_first_bucket_that_holds_it() {
        let mut m = Metrics::default();
        for elapsed in [
            Duration::from_micros(10),
            Duration::from_micros(11),
            Duration::from_secs(5),
        ] {
            let ending = Ending::Value {
                repaired: false,
                repair_kinds: [],
                truncated: false,
            };
            m.count(ending, elapsed);
        }
        assert_eq!(m.latency_counts[0], 1, "10 µs is within le=0.00001");
        assert_eq!(m.latency_counts[1], 1);
        assert_eq!(m.latency_counts[LATENCY_BUCKETS.len()], 1, "past 1 s");
    }

    #[test]
    fn the_exposition_has_every_family_and_cumulative_buckets() {
        let m = counted(&["{'a': 1}", "{\"a\": 1}", "nothing"]);
        let text = m.to_prometheus();
        for name in NAMES {
            assert!(text.contains(&format!("# TYPE {name} ")), "{name} missing");
        }
        assert!(text.contains("llmjson_replies_total{outcome=\"repaired\"} 1"));
        assert!(text.contains("llmjson_failures_total{kind=\"no_json\"} 1"));
        assert!(text.contains("llmjson_latency_seconds_bucket{le=\"+Inf\"} 3"));
        assert!(text.contains("llmjson_latency_seconds_count 3"));
        // Buckets never decrease.
        let counts: Vec<u64> = text
            .lines()
            .filter(|l| l.starts_with("llmjson_latency_seconds_bucket"))
            .map(|l| l.rsplit(' ').next().unwrap().parse().unwrap())
            .collect();
        assert!(counts.windows(2).all(|w| w[0] <= w[1]), "{counts:?}");
        assert_eq!(counts.len(), LATENCY_BUCKETS.len() + 1);
    }
}
