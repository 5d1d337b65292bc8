//! The embedded store: SQLite (bundled with rusqlite, nothing to install), in WAL mode so a
//! reader (a report) can run beside a batch.

use super::migrations::{pending, RUN_COUNTS, SQLITE_LEDGER};
use super::{Row, RunInfo, Stamp, Store, StoreError, StoreResult, Stored, StoredResult};
use llmjson_batch::{Processed, Rendered};
use rusqlite::{params, Connection, OptionalExtension};

pub struct Sqlite {
    connection: Connection,
    path: String,
}

fn failed(what: &str, path: &str) -> impl Fn(rusqlite::Error) -> StoreError {
    let context = format!("sqlite:{path}: {what}");
    move |e| StoreError(format!("{context}: {e}"))
}

impl Sqlite {
    pub fn open(path: &str) -> StoreResult<Self> {
        let connection = Connection::open(path).map_err(failed("cannot open", path))?;
        // WAL: a commit is one append, and readers do not block the writer. NORMAL sync keeps
        // every commit through a killed process (only a power cut can lose the last ones).
        connection
            .execute_batch(
                "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; \
                 PRAGMA foreign_keys = ON; PRAGMA busy_timeout = 5000;",
            )
            .map_err(failed("cannot set up", path))?;
        let mut store = Sqlite {
            connection,
            path: path.to_string(),
        };
        store.migrate()?;
        Ok(store)
    }

    fn err(&self, what: &str) -> impl Fn(rusqlite::Error) -> StoreError {
        failed(what, &self.path)
    }

    fn migrate(&mut self) -> StoreResult<()> {
        self.connection
            .execute_batch(SQLITE_LEDGER)
            .map_err(failed("cannot create the migrations table", &self.path))?;
        let applied: i64 = self
            .connection
            .query_row(
                "SELECT coalesce(max(version), 0) FROM schema_migrations",
                [],
                |r| r.get(0),
            )
            .map_err(failed("cannot read the schema version", &self.path))?;
        let todo =
            pending(applied).map_err(|e| StoreError(format!("sqlite:{}: {e}", self.path)))?;
        for migration in todo {
            let what = format!("migration {} ({})", migration.version, migration.name);
            let tx = self
                .connection
                .transaction()
                .map_err(failed(&what, &self.path))?;
            tx.execute_batch(migration.sqlite)
                .map_err(failed(&what, &self.path))?;
            tx.execute(
                "INSERT INTO schema_migrations (version, name) VALUES (?1, ?2)",
                params![migration.version, migration.name],
            )
            .map_err(failed(&what, &self.path))?;
            tx.commit().map_err(failed(&what, &self.path))?;
        }
        Ok(())
    }
}

impl Store for Sqlite {
    fn begin_run(&mut self, options: &str, inputs: &str) -> StoreResult<i64> {
        self.connection
            .execute(
                "INSERT INTO runs (llmjson_version, options, inputs) VALUES (?1, ?2, ?3)",
                params![env!("CARGO_PKG_VERSION"), options, inputs],
            )
            .map_err(self.err("cannot start a run"))?;
        Ok(self.connection.last_insert_rowid())
    }

    fn run(&mut self, id: i64) -> StoreResult<Option<RunInfo>> {
        self.connection
            .query_row(
                "SELECT id, started_at, finished_at, status, options, inputs FROM runs WHERE id = ?1",
                params![id],
                |r| {
                    Ok(RunInfo {
                        id: r.get(0)?,
                        started_at: r.get(1)?,
                        finished_at: r.get(2)?,
                        status: r.get(3)?,
                        options: r.get(4)?,
                        inputs: r.get(5)?,
                    })
                },
            )
            .optional()
            .map_err(self.err("cannot read the run"))
    }

    fn latest_run(&mut self, unfinished_only: bool) -> StoreResult<Option<i64>> {
        let sql = if unfinished_only {
            "SELECT max(id) FROM runs WHERE status <> 'finished'"
        } else {
            "SELECT max(id) FROM runs"
        };
        self.connection
            .query_row(sql, [], |r| r.get(0))
            .map_err(self.err("cannot read the runs"))
    }

    fn stored(&mut self, run: i64) -> StoreResult<Stored> {
        let mut statement = self
            .connection
            .prepare("SELECT seq FROM results WHERE run_id = ?1 ORDER BY seq")
            .map_err(failed("cannot read the stored results", &self.path))?;
        let seqs = statement
            .query_map(params![run], |r| r.get::<_, i64>(0))
            .map_err(failed("cannot read the stored results", &self.path))?
            .collect::<Result<Vec<i64>, _>>()
            .map_err(failed("cannot read the stored results", &self.path))?;
        Ok(Stored::from_sorted(
            seqs.into_iter().map(|s| u64::try_from(s).unwrap_or(0)),
        ))
    }

    fn stamps(&mut self, run: i64, from_seq: u64) -> StoreResult<Vec<Stamp>> {
        let path = self.path.clone();
        let mut statement = self
            .connection
            .prepare(
                "SELECT seq, record_id, outcome, request_id, latency_ms FROM results \
                 WHERE run_id = ?1 AND seq >= ?2 ORDER BY seq",
            )
            .map_err(failed("cannot read the stored results", &path))?;
        let from = i64::try_from(from_seq).unwrap_or(i64::MAX);
        let stamps = statement
            .query_map(params![run, from], |r| {
                Ok(Stamp {
                    seq: u64::try_from(r.get::<_, i64>(0)?).unwrap_or(0),
                    record_id: r.get(1)?,
                    outcome: r.get(2)?,
                    request_id: r.get(3)?,
                    latency_ms: r.get(4)?,
                })
            })
            .map_err(failed("cannot read the stored results", &path))?
            .collect::<Result<Vec<Stamp>, _>>()
            .map_err(failed("cannot read the stored results", &path))?;
        Ok(stamps)
    }

    fn insert(&mut self, run: i64, results: &[(Processed, Rendered)]) -> StoreResult<()> {
        let path = self.path.clone();
        let tx = self
            .connection
            .transaction()
            .map_err(failed("cannot store results", &path))?;
        {
            let mut statement = tx
                .prepare_cached(
                    "INSERT INTO results (run_id, seq, record_id, request_id, ok, outcome, \
                     error_kind, error_message, value, repairs, diagnostics, latency_ms, \
                     reply_excerpt) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)",
                )
                .map_err(failed("cannot store results", &path))?;
            for (processed, rendered) in results {
                let row = Row::of(processed, rendered);
                statement
                    .execute(params![
                        run,
                        row.seq,
                        row.record_id,
                        row.request_id,
                        row.ok,
                        row.outcome,
                        row.error_kind,
                        row.error_message,
                        row.value,
                        row.repairs,
                        row.diagnostics,
                        row.latency_ms,
                        row.excerpt,
                    ])
                    .map_err(failed("cannot store results", &path))?;
            }
        }
        tx.commit().map_err(failed("cannot store results", &path))
    }

    fn finish_run(&mut self, run: i64, status: &str) -> StoreResult<()> {
        let path = self.path.clone();
        let tx = self
            .connection
            .transaction()
            .map_err(failed("cannot finish the run", &path))?;
        tx.execute(RUN_COUNTS, params![run])
            .map_err(failed("cannot count the run", &path))?;
        tx.execute(
            "UPDATE runs SET status = ?2, finished_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') \
             WHERE id = ?1",
            params![run, status],
        )
        .map_err(failed("cannot finish the run", &path))?;
        tx.commit().map_err(failed("cannot finish the run", &path))
    }

    fn for_each_result(&mut self, run: i64, each: &mut dyn FnMut(StoredResult)) -> StoreResult<()> {
        let path = self.path.clone();
        let mut statement = self
            .connection
            .prepare(
                "SELECT seq, record_id, ok, outcome, error_message, repairs, latency_ms, \
                 reply_excerpt FROM results WHERE run_id = ?1 ORDER BY seq",
            )
            .map_err(failed("cannot read the results", &path))?;
        let mut rows = statement
            .query(params![run])
            .map_err(failed("cannot read the results", &path))?;
        while let Some(r) = rows
            .next()
            .map_err(failed("cannot read the results", &path))?
        {
            let read = || -> rusqlite::Result<StoredResult> {
                Ok(StoredResult {
                    seq: r.get(0)?,
                    record_id: r.get(1)?,
                    ok: r.get(2)?,
                    outcome: r.get(3)?,
                    error_message: r.get(4)?,
                    repairs: r.get(5)?,
                    latency_ms: r.get(6)?,
                    excerpt: r.get(7)?,
                })
            };
            each(read().map_err(failed("cannot read a result", &path))?);
        }
        Ok(())
    }
}
