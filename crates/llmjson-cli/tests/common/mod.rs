//! What the batch tests share: running the binary, scratch directories, and the stores
//! (SQLite always; PostgreSQL against a real server when one is given in
//! LLMJSON_TEST_POSTGRES).
#![allow(dead_code)] // each test binary uses its own part

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

pub fn llmjson(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_llmjson"))
        .args(args)
        .env_remove("LLMJSON_REPAIR")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("binary runs");
    match child.stdin.take().unwrap().write_all(stdin) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => panic!("writing stdin: {e}"),
        _ => {}
    }
    child.wait_with_output().unwrap()
}

pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

pub fn results(o: &Output) -> Vec<serde_json::Value> {
    text(&o.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("every result line is JSON"))
        .collect()
}

/// The `seq` of every line of a results file, in its order.
pub fn seqs_in(path: impl AsRef<Path>) -> Vec<u64> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|l| {
            serde_json::from_str::<serde_json::Value>(l).unwrap()["seq"]
                .as_u64()
                .unwrap()
        })
        .collect()
}

/// A fresh directory for one test.
pub fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("llmjson-batch-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

pub fn write(dir: &Path, name: &str, contents: impl AsRef<[u8]>) -> String {
    let path = dir.join(name);
    std::fs::write(&path, contents).unwrap();
    path.to_string_lossy().into_owned()
}

/// Two tests of one check: on SQLite, and on the PostgreSQL server (a fresh database named by
/// `$tag`), skipped with a message when there is none.
macro_rules! on_both_stores {
    ($sqlite:ident, $postgres:ident, $tag:literal, $check:expr) => {
        #[test]
        fn $sqlite() {
            let dir = scratch(concat!("sqlite-", $tag));
            $check(&sqlite_url(&dir), &dir);
        }

        #[test]
        fn $postgres() {
            let Some(url) = postgres_url($tag) else {
                return;
            };
            let dir = scratch(concat!("pg-", $tag));
            $check(&url, &dir);
        }
    };
}

/// A store for one test: a SQLite file, or a fresh database on the PostgreSQL server.
pub fn sqlite_url(dir: &Path) -> String {
    format!("sqlite:{}", dir.join("runs.db").display())
}

pub fn postgres_url(name: &str) -> Option<String> {
    let Ok(server) = std::env::var("LLMJSON_TEST_POSTGRES") else {
        if std::env::var("LLMJSON_REQUIRE_POSTGRES").is_ok_and(|v| v == "1") {
            panic!("LLMJSON_REQUIRE_POSTGRES=1 but LLMJSON_TEST_POSTGRES is not set");
        }
        eprintln!(
            "SKIPPED {name}: no PostgreSQL server (set LLMJSON_TEST_POSTGRES; .ci/run starts one)"
        );
        return None;
    };
    let database = format!("llmjson_{}_{name}", std::process::id());
    let mut client = postgres::Client::connect(&server, postgres::NoTls).expect("the test server");
    client
        .batch_execute(&format!("DROP DATABASE IF EXISTS {database}"))
        .unwrap();
    client
        .batch_execute(&format!("CREATE DATABASE {database}"))
        .unwrap();
    let (base, _) = server.rsplit_once('/').unwrap();
    Some(format!("{base}/{database}"))
}

/// Counts in the store, by SQL the two dialects share.
pub fn query_count(url: &str, sql: &str) -> i64 {
    try_count(url, sql).unwrap_or_else(|e| panic!("{sql}: {e}"))
}

pub fn try_count(url: &str, sql: &str) -> Result<i64, String> {
    if let Some(path) = url.strip_prefix("sqlite:") {
        let c = rusqlite::Connection::open(path).map_err(|e| e.to_string())?;
        c.query_row(sql, [], |r| r.get(0))
            .map_err(|e| e.to_string())
    } else {
        let mut c = postgres::Client::connect(url, postgres::NoTls).map_err(|e| e.to_string())?;
        Ok(c.query_one(sql, &[]).map_err(|e| e.to_string())?.get(0))
    }
}

pub fn query_text(url: &str, sql: &str) -> String {
    if let Some(path) = url.strip_prefix("sqlite:") {
        let c = rusqlite::Connection::open(path).unwrap();
        c.query_row(sql, [], |r| r.get(0)).unwrap()
    } else {
        let mut c = postgres::Client::connect(url, postgres::NoTls).unwrap();
        c.query_one(sql, &[]).unwrap().get(0)
    }
}
