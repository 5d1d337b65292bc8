//! The team store: a PostgreSQL server. Results go in with COPY (one per transaction), the
//! repair log, value and diagnostics as `jsonb`.

use super::migrations::{pending, POSTGRES_LEDGER, RUN_COUNTS};
use super::{shown, Row, RunInfo, Stamp, Store, StoreError, StoreResult, Stored, StoredResult};
use llmjson_batch::{Processed, Rendered};
use postgres::fallible_iterator::FallibleIterator;
use postgres::types::ToSql;
use postgres::{Client, NoTls};
use std::io::Write;
use std::time::Duration;

pub struct Postgres {
    client: Client,
    url: String,
}

/// Any two runs migrating one database at once wait for each other on this lock.
const MIGRATION_LOCK: i64 = 0x006c_6c6d_6a73_6f6e;

fn failed<E: std::fmt::Display>(what: &str, url: &str) -> impl Fn(E) -> StoreError {
    let context = format!("{}: {what}", shown(url));
    move |e| StoreError(format!("{context}: {e}"))
}

impl Postgres {
    pub fn open(url: &str) -> StoreResult<Self> {
        let mut store = Postgres::connect(url)?;
        store.migrate()?;
        Ok(store)
    }

    fn connect(url: &str) -> StoreResult<Self> {
        let mut config: postgres::Config = url
            .parse()
            .map_err(failed::<postgres::Error>("not a PostgreSQL URL", url))?;
        if config.get_connect_timeout().is_none() {
            // An unreachable server is an error before any work, not a long hang.
            config.connect_timeout(Duration::from_secs(10));
        }
        let client = config
            .connect(NoTls)
            .map_err(failed::<postgres::Error>("cannot connect", url))?;
        Ok(Postgres {
            client,
            url: url.to_string(),
        })
    }

    fn migrate(&mut self) -> StoreResult<()> {
        let url = self.url.clone();
        let mut tx = self
            .client
            .transaction()
            .map_err(failed("cannot migrate", &url))?;
        tx.execute("SELECT pg_advisory_xact_lock($1)", &[&MIGRATION_LOCK])
            .map_err(failed("cannot lock for migration", &url))?;
        tx.batch_execute(POSTGRES_LEDGER)
            .map_err(failed("cannot create the migrations table", &url))?;
        let applied: i64 = tx
            .query_one(
                "SELECT coalesce(max(version), 0)::bigint FROM schema_migrations",
                &[],
            )
            .map_err(failed("cannot read the schema version", &url))?
            .get(0);
        let todo = pending(applied).map_err(|e| StoreError(format!("{}: {e}", shown(&url))))?;
        for migration in todo {
            let what = format!("migration {} ({})", migration.version, migration.name);
            tx.batch_execute(migration.postgres)
                .map_err(failed(&what, &url))?;
            tx.execute(
                "INSERT INTO schema_migrations (version, name) VALUES ($1, $2)",
                &[&migration.version, &migration.name],
            )
            .map_err(failed(&what, &url))?;
        }
        tx.commit().map_err(failed("cannot migrate", &url))
    }
}

/// A CSV field for COPY: quoted, quotes doubled; `None` is NULL (an unquoted empty field).
/// PostgreSQL text cannot hold NUL, so a NUL becomes U+FFFD (the JSON texts never hold one raw:
/// JSON escapes it, see `jsonb_safe`).
fn csv_field(out: &mut Vec<u8>, field: Option<&str>) {
    let Some(text) = field else { return };
    out.push(b'"');
    for &b in text.as_bytes() {
        match b {
            b'"' => out.extend_from_slice(b"\"\""),
            0 => out.extend_from_slice("\u{fffd}".as_bytes()),
            _ => out.push(b),
        }
    }
    out.push(b'"');
}

/// `jsonb` refuses the escape `\u0000` (it cannot hold NUL in a string): it becomes `\ufffd`.
/// Only a real escape is changed: one preceded by an even number of backslashes.
fn jsonb_safe(json: &str) -> std::borrow::Cow<'_, str> {
    if !json.contains("\\u0000") {
        return json.into();
    }
    let mut out = String::with_capacity(json.len());
    let mut backslashes = 0usize;
    let mut rest = json;
    while let Some(c) = rest.chars().next() {
        if c == '\\' && backslashes % 2 == 0 && rest.starts_with("\\u0000") {
            out.push_str("\\ufffd");
            rest = &rest[6..];
            backslashes = 0;
            continue;
        }
        backslashes = if c == '\\' { backslashes + 1 } else { 0 };
        out.push(c);
        rest = &rest[c.len_utf8()..];
    }
    out.into()
}

impl Store for Postgres {
    fn begin_run(&mut self, options: &str, inputs: &str) -> StoreResult<i64> {
        let url = self.url.clone();
        let row = self
            .client
            .query_one(
                "INSERT INTO runs (llmjson_version, options, inputs) \
                 VALUES ($1, $2::text::jsonb, $3::text::jsonb) RETURNING id",
                &[&env!("CARGO_PKG_VERSION"), &options, &inputs],
            )
            .map_err(failed("cannot start a run", &url))?;
        Ok(row.get(0))
    }

    fn run(&mut self, id: i64) -> StoreResult<Option<RunInfo>> {
        let url = self.url.clone();
        let row = self
            .client
            .query_opt(
                "SELECT id, started_at::text, finished_at::text, status, options::text, \
                 inputs::text FROM runs WHERE id = $1",
                &[&id],
            )
            .map_err(failed("cannot read the run", &url))?;
        Ok(row.map(|r| RunInfo {
            id: r.get(0),
            started_at: r.get(1),
            finished_at: r.get(2),
            status: r.get(3),
            options: r.get(4),
            inputs: r.get(5),
        }))
    }

    fn latest_run(&mut self, unfinished_only: bool) -> StoreResult<Option<i64>> {
        let url = self.url.clone();
        let sql = if unfinished_only {
            "SELECT max(id) FROM runs WHERE status <> 'finished'"
        } else {
            "SELECT max(id) FROM runs"
        };
        let row = self
            .client
            .query_one(sql, &[])
            .map_err(failed("cannot read the runs", &url))?;
        Ok(row.get(0))
    }

    fn stored(&mut self, run: i64) -> StoreResult<Stored> {
        let url = self.url.clone();
        let mut seqs = Vec::new();
        let params: [&(dyn ToSql + Sync); 1] = [&run];
        let mut rows = self
            .client
            .query_raw(
                "SELECT seq FROM results WHERE run_id = $1 ORDER BY seq",
                params.iter().copied(),
            )
            .map_err(failed("cannot read the stored results", &url))?;
        while let Some(row) = rows
            .next()
            .map_err(failed("cannot read the stored results", &url))?
        {
            seqs.push(u64::try_from(row.get::<_, i64>(0)).unwrap_or(0));
        }
        Ok(Stored::from_sorted(seqs))
    }

    fn stamps(&mut self, run: i64, from_seq: u64) -> StoreResult<Vec<Stamp>> {
        let url = self.url.clone();
        let from = i64::try_from(from_seq).unwrap_or(i64::MAX);
        let params: [&(dyn ToSql + Sync); 2] = [&run, &from];
        let mut rows = self
            .client
            .query_raw(
                "SELECT seq, record_id, outcome, request_id::text, latency_ms FROM results \
                 WHERE run_id = $1 AND seq >= $2 ORDER BY seq",
                params.iter().copied(),
            )
            .map_err(failed("cannot read the stored results", &url))?;
        let mut stamps = Vec::new();
        while let Some(r) = rows
            .next()
            .map_err(failed("cannot read the stored results", &url))?
        {
            stamps.push(Stamp {
                seq: u64::try_from(r.get::<_, i64>(0)).unwrap_or(0),
                record_id: r.get(1),
                outcome: r.get(2),
                request_id: r.get(3),
                latency_ms: r.get(4),
            });
        }
        Ok(stamps)
    }

    fn more_connections(&self, n: usize) -> StoreResult<Vec<Box<dyn Store>>> {
        // The extra connections only add speed: a server at its connection limit gets the
        // run over the ones it accepts (at least the first, already open).
        Ok((0..n)
            .map_while(|_| Postgres::connect(&self.url).ok())
            .map(|store| Box::new(store) as Box<dyn Store>)
            .collect())
    }

    fn insert(&mut self, run: i64, results: &[(Processed, Rendered)]) -> StoreResult<()> {
        let url = self.url.clone();
        let mut data = Vec::with_capacity(results.len() * 1024);
        let run = run.to_string();
        for (processed, rendered) in results {
            let row = Row::of(processed, rendered);
            let seq = row.seq.to_string();
            let latency = row.latency_ms.to_string();
            let value = row.value.map(jsonb_safe);
            let repairs = jsonb_safe(row.repairs);
            let diagnostics = row.diagnostics.map(jsonb_safe);
            let fields: [Option<&str>; 13] = [
                Some(&run),
                Some(&seq),
                Some(&row.record_id),
                row.request_id,
                Some(if row.ok { "t" } else { "f" }),
                Some(row.outcome),
                row.error_kind,
                row.error_message,
                value.as_deref(),
                Some(&repairs),
                diagnostics.as_deref(),
                Some(&latency),
                Some(row.excerpt),
            ];
            for (i, field) in fields.iter().enumerate() {
                if i > 0 {
                    data.push(b',');
                }
                csv_field(&mut data, *field);
            }
            data.push(b'\n');
        }
        let mut tx = self
            .client
            .transaction()
            .map_err(failed("cannot store results", &url))?;
        let mut writer = tx
            .copy_in(
                "COPY results (run_id, seq, record_id, request_id, ok, outcome, error_kind, \
                 error_message, value, repairs, diagnostics, latency_ms, reply_excerpt) \
                 FROM STDIN (FORMAT csv)",
            )
            .map_err(failed("cannot store results", &url))?;
        writer
            .write_all(&data)
            .map_err(failed("cannot store results", &url))?;
        writer
            .finish()
            .map_err(failed("cannot store results", &url))?;
        tx.commit().map_err(failed("cannot store results", &url))
    }

    fn finish_run(&mut self, run: i64, status: &str) -> StoreResult<()> {
        let url = self.url.clone();
        let mut tx = self
            .client
            .transaction()
            .map_err(failed("cannot finish the run", &url))?;
        tx.execute(RUN_COUNTS, &[&run])
            .map_err(failed("cannot count the run", &url))?;
        tx.execute(
            "UPDATE runs SET status = $2, finished_at = now() WHERE id = $1",
            &[&run, &status],
        )
        .map_err(failed("cannot finish the run", &url))?;
        tx.commit().map_err(failed("cannot finish the run", &url))
    }

    fn for_each_result(&mut self, run: i64, each: &mut dyn FnMut(StoredResult)) -> StoreResult<()> {
        let url = self.url.clone();
        let params: [&(dyn ToSql + Sync); 1] = [&run];
        let mut rows = self
            .client
            .query_raw(
                "SELECT seq, record_id, ok, outcome, error_message, repairs::text, latency_ms, \
                 reply_excerpt FROM results WHERE run_id = $1 ORDER BY seq",
                params.iter().copied(),
            )
            .map_err(failed("cannot read the results", &url))?;
        while let Some(r) = rows
            .next()
            .map_err(failed("cannot read the results", &url))?
        {
            each(StoredResult {
                seq: r.get(0),
                record_id: r.get(1),
                ok: r.get(2),
                outcome: r.get(3),
                error_message: r.get(4),
                repairs: r.get(5),
                latency_ms: r.get(6),
                excerpt: r.get(7),
            });
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_fields_quote_and_null() {
        let mut out = Vec::new();
        csv_field(&mut out, Some("a\"b,\nc"));
        out.push(b',');
        csv_field(&mut out, None);
        out.push(b',');
        csv_field(&mut out, Some(""));
        assert_eq!(String::from_utf8(out).unwrap(), "\"a\"\"b,\nc\",,\"\"");
    }

    #[test]
    fn only_real_nul_escapes_are_replaced_for_jsonb() {
        assert_eq!(jsonb_safe(r#"["a\u0000b"]"#), r#"["a\ufffdb"]"#);
        // An escaped backslash followed by the text u0000 is not an escape of NUL.
        assert_eq!(jsonb_safe(r#"["\\u0000"]"#), r#"["\\u0000"]"#);
        assert_eq!(jsonb_safe(r#"["\\\u0000é"]"#), r#"["\\\ufffdé"]"#);
        assert_eq!(jsonb_safe("[1]"), "[1]");
    }
}
