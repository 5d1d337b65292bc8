//! The store's schema, as numbered migrations: the same tables in SQLite and PostgreSQL, each
//! migration in both dialects. A store applies the ones it has not applied yet, in order, each
//! in its own transaction, and refuses a database migrated by a newer llmjson.

/// One step of the schema.
#[derive(Debug)]
pub struct Migration {
    pub version: i64,
    pub name: &'static str,
    pub sqlite: &'static str,
    pub postgres: &'static str,
}

/// Every migration, oldest first. Never edit one that has shipped: add the next.
pub const MIGRATIONS: &[Migration] = &[
    Migration {
        version: 1,
        name: "runs and results",
        sqlite: "
            CREATE TABLE runs (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                started_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
                finished_at TEXT,
                status TEXT NOT NULL DEFAULT 'running',
                llmjson_version TEXT NOT NULL,
                options TEXT NOT NULL,
                inputs TEXT NOT NULL,
                records INTEGER NOT NULL DEFAULT 0,
                ok INTEGER NOT NULL DEFAULT 0,
                repaired INTEGER NOT NULL DEFAULT 0,
                failed INTEGER NOT NULL DEFAULT 0
            );
            CREATE TABLE results (
                run_id INTEGER NOT NULL REFERENCES runs(id),
                seq INTEGER NOT NULL,
                record_id TEXT NOT NULL,
                request_id TEXT,
                ok INTEGER NOT NULL,
                outcome TEXT NOT NULL,
                error_kind TEXT,
                error_message TEXT,
                value TEXT,
                repairs TEXT NOT NULL,
                diagnostics TEXT,
                latency_ms REAL NOT NULL,
                reply_excerpt TEXT NOT NULL,
                PRIMARY KEY (run_id, seq)
            );",
        postgres: "
            CREATE TABLE runs (
                id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
                started_at TIMESTAMPTZ NOT NULL DEFAULT now(),
                finished_at TIMESTAMPTZ,
                status TEXT NOT NULL DEFAULT 'running',
                llmjson_version TEXT NOT NULL,
                options JSONB NOT NULL,
                inputs JSONB NOT NULL,
                records BIGINT NOT NULL DEFAULT 0,
                ok BIGINT NOT NULL DEFAULT 0,
                repaired BIGINT NOT NULL DEFAULT 0,
                failed BIGINT NOT NULL DEFAULT 0
            );
            CREATE TABLE results (
                run_id BIGINT NOT NULL REFERENCES runs(id),
                seq BIGINT NOT NULL,
                record_id TEXT NOT NULL,
                request_id UUID,
                ok BOOLEAN NOT NULL,
                outcome TEXT NOT NULL,
                error_kind TEXT,
                error_message TEXT,
                value JSONB,
                repairs JSONB NOT NULL,
                diagnostics JSONB,
                latency_ms DOUBLE PRECISION NOT NULL,
                reply_excerpt TEXT NOT NULL,
                PRIMARY KEY (run_id, seq)
            );",
    },
    Migration {
        version: 2,
        name: "results by run and error kind",
        sqlite: "CREATE INDEX results_run_error_kind ON results (run_id, error_kind);",
        postgres: "CREATE INDEX results_run_error_kind ON results (run_id, error_kind);",
    },
    Migration {
        version: 3,
        name: "lz4 for the large columns",
        // A result's row is over the 2 KB past which PostgreSQL compresses it; with pglz's
        // default a run of 100,000 replies took 11.6 s, with lz4 9.0 s. SQLite does not
        // compress.
        sqlite: "",
        postgres: "
            DO $$
            BEGIN
                ALTER TABLE results
                    ALTER COLUMN value SET COMPRESSION lz4,
                    ALTER COLUMN repairs SET COMPRESSION lz4,
                    ALTER COLUMN diagnostics SET COMPRESSION lz4,
                    ALTER COLUMN reply_excerpt SET COMPRESSION lz4;
            EXCEPTION WHEN feature_not_supported THEN
                -- A server built without lz4 keeps its default.
                NULL;
            END $$;",
    },
];

/// The table that records which migrations ran (created before any migration).
pub const SQLITE_LEDGER: &str = "CREATE TABLE IF NOT EXISTS schema_migrations (
    version INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    applied_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')))";

/// The same, for PostgreSQL.
pub const POSTGRES_LEDGER: &str = "CREATE TABLE IF NOT EXISTS schema_migrations (
    version BIGINT PRIMARY KEY,
    name TEXT NOT NULL,
    applied_at TIMESTAMPTZ NOT NULL DEFAULT now())";

/// The migrations a database at `applied` (its highest version) still needs, or why it cannot
/// be used.
pub fn pending(applied: i64) -> Result<&'static [Migration], String> {
    let newest = MIGRATIONS.last().map_or(0, |m| m.version);
    if applied > newest {
        return Err(format!(
            "the database's schema is at version {applied}, newer than this llmjson knows \
             ({newest}): use a newer llmjson"
        ));
    }
    let done = MIGRATIONS
        .iter()
        .take_while(|m| m.version <= applied)
        .count();
    Ok(&MIGRATIONS[done..])
}

/// The counts a finished run records, from its stored results (same SQL in both dialects).
pub const RUN_COUNTS: &str = "
    UPDATE runs SET
        records = (SELECT count(*) FROM results WHERE run_id = runs.id),
        ok = (SELECT count(*) FROM results WHERE run_id = runs.id AND outcome = 'ok'),
        repaired = (SELECT count(*) FROM results WHERE run_id = runs.id AND outcome = 'repaired'),
        failed = (SELECT count(*) FROM results WHERE run_id = runs.id AND error_kind IS NOT NULL)
    WHERE id = $1";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_increase_by_one_from_one() {
        for (i, m) in MIGRATIONS.iter().enumerate() {
            assert_eq!(m.version, i as i64 + 1, "{}", m.name);
        }
    }

    #[test]
    fn a_database_gets_the_migrations_past_its_version() {
        assert_eq!(pending(0).unwrap().len(), MIGRATIONS.len());
        assert_eq!(pending(1).unwrap()[0].version, 2);
        assert!(pending(MIGRATIONS.len() as i64).unwrap().is_empty());
        assert!(pending(99).unwrap_err().contains("newer"));
    }
}
