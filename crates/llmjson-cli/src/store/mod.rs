//! Where a batch run's results are kept: SQLite (embedded, the default) or PostgreSQL, with one
//! schema for both (`migrations.rs`), created and upgraded by the tool itself.
//!
//! Each call of [`Store::insert`] is one transaction: what was committed survives an interrupted
//! or killed run, and `--resume` skips it.

mod inserters;
mod migrations;
mod postgres;
mod sqlite;

pub use inserters::{Chunk, Inserters};
use llmjson_batch::{Processed, Rendered};
use std::collections::HashSet;
use std::fmt;

/// A store's failure, with what was being done.
#[derive(Debug)]
pub struct StoreError(pub String);

impl fmt::Display for StoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

pub type StoreResult<T> = Result<T, StoreError>;

/// What a run row holds.
#[derive(Debug, Clone)]
pub struct RunInfo {
    pub id: i64,
    pub started_at: String,
    pub finished_at: Option<String>,
    /// `running`, `finished`, `interrupted` or `failed`.
    pub status: String,
    /// The options the run was started with (JSON).
    pub options: String,
    /// The inputs, as given (JSON array).
    pub inputs: String,
}

/// One stored result, as the report reads it.
#[derive(Debug, Clone)]
pub struct StoredResult {
    pub seq: i64,
    pub record_id: String,
    pub ok: bool,
    pub outcome: String,
    pub error_message: Option<String>,
    /// The repair log (JSON array).
    pub repairs: String,
    pub latency_ms: f64,
    pub excerpt: String,
}

/// What the store kept of one result that its line cannot be rebuilt without: the parse is
/// deterministic but for the diagnostics record's request id and latency, so a stored result
/// parsed again and given these back is, byte for byte, the line the run wrote (or would have).
#[derive(Debug, Clone, PartialEq)]
pub struct Stamp {
    pub seq: u64,
    /// As [`Row::record_id`] writes it.
    pub record_id: String,
    pub outcome: String,
    /// The diagnostics record's request id (`None` for a record that could not be read).
    pub request_id: Option<String>,
    pub latency_ms: f64,
}

/// The records of a run already stored: a prefix of the run (what an interrupted run leaves)
/// and any others.
#[derive(Debug, Default)]
pub struct Stored {
    prefix: u64,
    others: HashSet<u64>,
}

impl Stored {
    /// Builds the set from the stored `seq`s, in increasing order.
    pub fn from_sorted(seqs: impl IntoIterator<Item = u64>) -> Self {
        let mut stored = Stored::default();
        for seq in seqs {
            if seq == stored.prefix && stored.others.is_empty() {
                stored.prefix += 1;
            } else {
                stored.others.insert(seq);
            }
        }
        stored
    }

    pub fn contains(&self, seq: u64) -> bool {
        seq < self.prefix || self.others.contains(&seq)
    }

    pub fn len(&self) -> u64 {
        self.prefix + self.others.len() as u64
    }
}

/// A store: the operations a run and a report need, the same for every database.
pub trait Store: Send {
    /// Starts a run; returns its id.
    fn begin_run(&mut self, options: &str, inputs: &str) -> StoreResult<i64>;
    /// The run, if there is one with this id.
    fn run(&mut self, id: i64) -> StoreResult<Option<RunInfo>>;
    /// The most recent run (for `report` without `--run`), or the most recent one not finished
    /// (for `--resume last`).
    fn latest_run(&mut self, unfinished_only: bool) -> StoreResult<Option<i64>>;
    /// Which records of the run are already stored.
    fn stored(&mut self, run: i64) -> StoreResult<Stored>;
    /// Up to `n` more connections to the same database, for inserts side by side (none where
    /// writers take turns anyway, as in SQLite).
    fn more_connections(&self, n: usize) -> StoreResult<Vec<Box<dyn Store>>> {
        let _ = n;
        Ok(Vec::new())
    }
    /// The stamps of the run's stored results from `seq` on, in order.
    fn stamps(&mut self, run: i64, from_seq: u64) -> StoreResult<Vec<Stamp>>;
    /// Stores results, in one transaction.
    fn insert(&mut self, run: i64, results: &[(Processed, Rendered)]) -> StoreResult<()>;
    /// Sets the run's status and its counts (from what is stored, so a resumed run counts
    /// every part).
    fn finish_run(&mut self, run: i64, status: &str) -> StoreResult<()>;
    /// Every stored result of the run, in order.
    fn for_each_result(&mut self, run: i64, each: &mut dyn FnMut(StoredResult)) -> StoreResult<()>;
}

/// Opens the store a `--db` URL names (`sqlite:PATH` or `postgresql://…`), creating or
/// upgrading its schema. Fails before any work when the database cannot be reached.
pub fn open(url: &str) -> StoreResult<Box<dyn Store>> {
    if let Some(path) = url.strip_prefix("sqlite:") {
        let path = path.strip_prefix("//").unwrap_or(path);
        if path.is_empty() {
            return Err(StoreError(
                "--db sqlite: needs a path (sqlite:runs.db)".into(),
            ));
        }
        Ok(Box::new(sqlite::Sqlite::open(path)?))
    } else if url.starts_with("postgresql://") || url.starts_with("postgres://") {
        Ok(Box::new(postgres::Postgres::open(url)?))
    } else {
        Err(StoreError(format!(
            "--db {url:?}: expected sqlite:PATH or postgresql://USER@HOST:PORT/DATABASE"
        )))
    }
}

/// Opens a store that must already exist (a report reads one): a SQLite path that names no
/// file is an error, and no empty database is left behind.
pub fn open_existing(url: &str) -> StoreResult<Box<dyn Store>> {
    if let Some(path) = url.strip_prefix("sqlite:") {
        let path = path.strip_prefix("//").unwrap_or(path);
        if !path.is_empty() && !std::path::Path::new(path).is_file() {
            return Err(StoreError(format!(
                "--db {url}: no such database (a batch run creates it: llmjson batch --db {url})"
            )));
        }
    }
    open(url)
}

/// A URL without its password, for messages.
pub fn shown(url: &str) -> String {
    match (url.find("://"), url.rfind('@')) {
        (Some(scheme), Some(at)) if at > scheme => {
            let credentials = &url[scheme + 3..at];
            match credentials.split_once(':') {
                Some((user, _)) => format!("{}{user}:***{}", &url[..scheme + 3], &url[at..]),
                None => url.to_string(),
            }
        }
        _ => url.to_string(),
    }
}

/// The columns every store writes for one result, computed once.
pub struct Row<'a> {
    pub seq: i64,
    pub record_id: String,
    pub request_id: Option<&'a str>,
    pub ok: bool,
    pub outcome: &'static str,
    pub error_kind: Option<&'static str>,
    pub error_message: Option<&'a str>,
    pub value: Option<&'a str>,
    pub repairs: &'a str,
    pub diagnostics: Option<&'a str>,
    pub latency_ms: f64,
    pub excerpt: &'a str,
}

impl<'a> Row<'a> {
    pub fn of(processed: &'a Processed, rendered: &'a Rendered) -> Self {
        Row {
            seq: i64::try_from(processed.seq).unwrap_or(i64::MAX),
            record_id: record_id(&processed.id),
            request_id: processed
                .diagnostics
                .as_ref()
                .map(|d| d.request_id.as_str()),
            ok: processed.ok(),
            outcome: processed.outcome(),
            error_kind: processed.failure.as_ref().map(|f| f.kind),
            error_message: processed.failure.as_ref().map(|f| f.message.as_str()),
            value: rendered.value(),
            repairs: rendered.repairs(),
            diagnostics: rendered.diagnostics(),
            latency_ms: processed.elapsed.as_secs_f64() * 1000.0,
            excerpt: &processed.excerpt,
        }
    }
}

/// A record's id as the store keeps it: a string id as its text, any other id as its JSON.
pub fn record_id(id: &serde_json::Value) -> String {
    match id {
        serde_json::Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stored_records_are_a_prefix_and_the_rest() {
        let s = Stored::from_sorted([0, 1, 2, 5, 7]);
        assert_eq!(s.len(), 5);
        assert!((0..3).all(|i| s.contains(i)));
        assert!(!s.contains(3) && s.contains(5) && !s.contains(6) && s.contains(7));
        assert_eq!(Stored::from_sorted([]).len(), 0);
    }

    #[test]
    fn a_password_is_not_shown() {
        assert_eq!(
            shown("postgresql://me:secret@db:5432/x"),
            "postgresql://me:***@db:5432/x"
        );
        assert_eq!(
            shown("postgresql://me@db:5432/x"),
            "postgresql://me@db:5432/x"
        );
        assert_eq!(shown("sqlite:a.db"), "sqlite:a.db");
    }

    #[test]
    fn an_unknown_url_is_refused_with_the_forms_that_work() {
        let e = open("mysql://x").err().expect("refused");
        assert!(e.0.contains("sqlite:PATH"), "{e}");
        assert!(open("sqlite:").is_err());
    }
}
