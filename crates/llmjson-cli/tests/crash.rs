//! Fault injection: `llmjson batch` killed with SIGKILL at random moments (an OOM kill, a lost
//! machine) and resumed each time, on SQLite, on PostgreSQL and with a results file alone; at
//! the end the file and the store hold every record exactly once, every line is JSON, and the
//! values are an uninterrupted run's. Then the states a crash leaves, made by hand (a torn
//! line, a missing file, another run's file, the broken line an older llmjson left), each
//! resumed into the very file the run would have written, byte for byte.

#[macro_use]
mod common;

use common::*;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The replies of examples/replies.jsonl round and round, their ids made unique.
fn replies(n: usize) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/replies.jsonl");
    let examples: Vec<serde_json::Value> = std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let mut out = String::new();
    for i in 0..n {
        let mut record = examples[i % examples.len()].clone();
        record["id"] = format!("{}-{i}", record["id"].as_str().unwrap_or("r")).into();
        out.push_str(&record.to_string());
        out.push('\n');
    }
    out
}

/// Random numbers (xorshift) from a seed that is printed, so that a failure can be replayed
/// with LLMJSON_CRASH_SEED.
struct Random(u64);

impl Random {
    fn new(tag: &str) -> Self {
        let seed = std::env::var("LLMJSON_CRASH_SEED")
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or_else(|| {
                std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map_or(1, |d| d.as_nanos() as u64)
                    | 1
            });
        eprintln!("{tag}: LLMJSON_CRASH_SEED={seed}");
        Random(seed)
    }

    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// A number in `0..1`.
    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// A result line without what two parses of one reply differ in (request id, latency).
fn comparable(line: &str) -> serde_json::Value {
    let mut value: serde_json::Value =
        serde_json::from_str(line).unwrap_or_else(|e| panic!("not JSON ({e}): {line}"));
    if let Some(d) = value["diagnostics"].as_object_mut() {
        d.remove("request_id");
        d.remove("latency_ms");
    }
    value
}

/// What the store holds of each result, by seq: request id, latency, value.
type StoredRow = (i64, Option<String>, f64, Option<serde_json::Value>);

fn stored_rows(url: &str) -> Vec<StoredRow> {
    let value = |text: Option<String>| text.map(|t| serde_json::from_str(&t).unwrap());
    if let Some(path) = url.strip_prefix("sqlite:") {
        let c = rusqlite::Connection::open(path).unwrap();
        let mut statement = c
            .prepare("SELECT seq, request_id, latency_ms, value FROM results ORDER BY seq")
            .unwrap();
        let rows = statement
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))
            .unwrap()
            .map(|r| {
                let (seq, id, latency, v): (i64, Option<String>, f64, Option<String>) = r.unwrap();
                (seq, id, latency, value(v))
            })
            .collect();
        rows
    } else {
        let mut c = postgres::Client::connect(url, postgres::NoTls).unwrap();
        c.query(
            "SELECT seq, request_id::text, latency_ms, value::text FROM results ORDER BY seq",
            &[],
        )
        .unwrap()
        .iter()
        .map(|r| (r.get(0), r.get(1), r.get(2), value(r.get(3))))
        .collect()
    }
}

/// The results file holds records 0..n in order, each line JSON and equal to the
/// uninterrupted run's; the store (if any) holds each record once, with the file's request
/// id, latency and value: one account.
fn assert_one_account(out: &Path, reference: &str, store: Option<&str>) {
    let written = std::fs::read_to_string(out).unwrap();
    assert!(written.ends_with('\n'), "the last line is whole");
    let lines: Vec<&str> = written.lines().collect();
    let expected: Vec<&str> = reference.lines().collect();
    assert_eq!(lines.len(), expected.len(), "every record once in the file");
    for (i, (line, want)) in lines.iter().zip(&expected).enumerate() {
        let got = comparable(line);
        assert_eq!(got["seq"], i, "in input order");
        assert_eq!(got, comparable(want), "record {i} as an uninterrupted run");
    }
    let Some(url) = store else { return };
    let rows = stored_rows(url);
    assert_eq!(rows.len(), lines.len(), "every record once in the store");
    for ((seq, request_id, latency, value), line) in rows.iter().zip(&lines) {
        let line: serde_json::Value = serde_json::from_str(line).unwrap();
        assert_eq!(line["seq"], *seq);
        let diagnostics = &line["diagnostics"];
        assert_eq!(
            diagnostics["request_id"].as_str(),
            request_id.as_deref(),
            "record {seq}: the file's request id is the store's"
        );
        if request_id.is_some() {
            // serde_json reads a float to within one unit in the last place.
            let in_file = diagnostics["latency_ms"].as_f64().unwrap();
            assert!(
                (in_file - latency).abs() <= latency.abs() * 1e-12,
                "record {seq}: latency {in_file} in the file, {latency} in the store"
            );
        }
        assert_eq!(
            value
                .as_ref()
                .map_or(serde_json::Value::Null, numbers_as_floats),
            numbers_as_floats(&line["value"]),
            "record {seq}: the file's value is the store's"
        );
    }
    assert_eq!(
        query_text(url, "SELECT status FROM runs WHERE id = 1"),
        "finished"
    );
    assert_eq!(
        query_count(url, "SELECT records FROM runs WHERE id = 1"),
        lines.len() as i64
    );
}

/// A value with every number as a float: `jsonb` keeps a number's value, not its spelling
/// (`1.5E+2` comes back as `150`).
fn numbers_as_floats(value: &serde_json::Value) -> serde_json::Value {
    use serde_json::Value;
    match value {
        Value::Number(n) => n.as_f64().map_or(Value::Null, Value::from),
        Value::Array(items) => items.iter().map(numbers_as_floats).collect(),
        Value::Object(members) => members
            .iter()
            .map(|(k, v)| (k.clone(), numbers_as_floats(v)))
            .collect(),
        other => other.clone(),
    }
}

const KILLS: usize = 5;

/// Runs the batch, kills it with SIGKILL at five random moments (four once the results file
/// has grown past a random point, plus a random jitter; one at a random instant after the
/// start, while it is opening or reconciling), resumes it each time, then lets it finish.
fn killed_and_resumed(store: Option<&str>, dir: &Path, tag: &str) {
    let records = 30_000;
    let input = write(dir, "in.jsonl", replies(records));
    let reference_path = dir.join("reference.jsonl");
    let started = Instant::now();
    let reference = llmjson(
        &[
            "batch",
            &input,
            "--fail-on",
            "none",
            "--out",
            reference_path.to_str().unwrap(),
        ],
        b"",
    );
    assert_eq!(
        reference.status.code(),
        Some(0),
        "{}",
        text(&reference.stderr)
    );
    let uninterrupted = started.elapsed();
    let reference = std::fs::read_to_string(&reference_path).unwrap();
    let full_size = reference.len() as f64;
    // Where each record's line ends in a whole results file.
    let offsets: Vec<u64> = reference
        .match_indices('\n')
        .map(|(i, _)| i as u64 + 1)
        .collect();

    let mut random = Random::new(tag);
    let out = dir.join("r.jsonl");
    let out_arg = out.to_str().unwrap();
    let mut common: Vec<&str> = vec!["--fail-on", "none", "--jobs", "2", "--out", out_arg];
    if let Some(url) = store {
        common.extend(["--db", url]);
    }
    let mut landed = 0;
    let mut notes = String::new();
    for kill in 0..=KILLS {
        // The first run starts the run; the others resume it, written every way a user may:
        // `--resume` before the input (clap reads the input as its value and gives it back),
        // after it, and `--resume=last`.
        let mut args: Vec<&str> = vec!["batch"];
        match kill {
            0 => args.push(&input),
            k if k % 3 == 1 => args.extend(["--resume", &input]),
            k if k % 3 == 2 => args.extend([&input, "--resume"]),
            _ => args.extend([&input, "--resume=last"]),
        }
        args.extend(&common);
        if kill == KILLS {
            let last = llmjson(&args, b"");
            notes.push_str(&text(&last.stderr));
            assert_eq!(last.status.code(), Some(0), "{notes}");
            break;
        }
        let mut child = Command::new(env!("CARGO_BIN_EXE_llmjson"))
            .args(&args)
            .env_remove("LLMJSON_REPAIR")
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let spawned = Instant::now();
        let give_up = uninterrupted * 20 + Duration::from_secs(30);
        if kill == 4 && store.is_some() {
            // In the gap a crash leaves between the store's commit and the file's flush: kill
            // when the store holds a record the file does not (if the run leaves such a moment
            // to see; else at its next record).
            let url = store.unwrap_or_default();
            let stored_before = try_count(url, "SELECT count(*) FROM results").unwrap_or(0);
            loop {
                let stored = try_count(url, "SELECT count(*) FROM results").unwrap_or(0);
                let size = std::fs::metadata(&out).map_or(0, |m| m.len());
                let written = offsets.partition_point(|&end| end <= size) as i64;
                if (stored > written && stored > stored_before)
                    || child.try_wait().unwrap().is_some()
                    || spawned.elapsed() > give_up
                {
                    eprintln!("{tag}: kill {kill}: {stored} records stored, {written} written");
                    break;
                }
            }
        } else if kill == 2 {
            // Early: while the run opens the store and makes the file whole.
            std::thread::sleep(Duration::from_secs_f64(0.15 * random.unit()));
        } else {
            // Once the file passes a random point of the run's length (later for each kill),
            // then a random moment more.
            let target = full_size * (kill as f64 + random.unit()) / (KILLS as f64 + 1.0);
            while std::fs::metadata(&out).map_or(0.0, |m| m.len() as f64) < target
                && child.try_wait().unwrap().is_none()
                && spawned.elapsed() < give_up
            {
                std::thread::sleep(Duration::from_millis(2));
            }
            std::thread::sleep(Duration::from_secs_f64(0.04 * random.unit()));
        }
        if child.try_wait().unwrap().is_none() {
            landed += 1;
        }
        let _ = child.kill();
        let status = child.wait_with_output().unwrap();
        notes.push_str(&text(&status.stderr));
        let size = std::fs::metadata(&out).map_or(0, |m| m.len());
        eprintln!(
            "{tag}: kill {kill} after {:?}: the file holds {size} of {full_size} bytes",
            spawned.elapsed()
        );
    }
    eprintln!("{tag}: what the resumed runs said:\n{notes}");
    assert!(
        landed >= KILLS - 1,
        "only {landed} of {KILLS} kills came while the run went on: make the input longer"
    );
    assert_one_account(&out, &reference, store);
}

#[test]
fn sqlite_run_killed_five_times_holds_every_record_once() {
    let dir = scratch("crash-sqlite");
    killed_and_resumed(Some(&sqlite_url(&dir)), &dir, "sqlite");
}

#[test]
fn postgres_run_killed_five_times_holds_every_record_once() {
    let Some(url) = postgres_url("crash") else {
        return;
    };
    let dir = scratch("crash-pg");
    killed_and_resumed(Some(&url), &dir, "postgres");
}

#[test]
fn file_only_run_killed_five_times_holds_every_record_once() {
    let dir = scratch("crash-file");
    killed_and_resumed(None, &dir, "file");
}

// ---- the states a crash leaves, made by hand ----

/// A finished run's results file; each state a crash (or an older llmjson) can leave it in is
/// resumed into that same file, byte for byte: the records the store holds are parsed again
/// and given the request id and latency it kept.
fn every_damaged_file_is_made_whole(url: &str, dir: &Path) {
    let input = write(dir, "in.jsonl", replies(3000));
    let out = dir.join("r.jsonl");
    let out_arg = out.to_str().unwrap();
    let args = [
        "batch",
        &input,
        "--db",
        url,
        "--out",
        out_arg,
        "--fail-on",
        "none",
    ];
    assert_eq!(llmjson(&args, b"").status.code(), Some(0));
    let whole = std::fs::read(&out).unwrap();
    let lines: Vec<&[u8]> = whole.split_inclusive(|&b| b == b'\n').collect();
    let join = |parts: &[&[u8]]| parts.concat();
    let boundary = join(&lines[..1000]).len();
    let cases: Vec<(&str, Option<Vec<u8>>, &str)> = vec![
        (
            "torn mid-line",
            Some(whole[..join(&lines[..1100]).len() + 7].to_vec()),
            "(a torn last line: the run stopped while writing it); the",
        ),
        (
            "cut at a line's end",
            Some(whole[..boundary].to_vec()),
            "kept the first 1000 records",
        ),
        (
            "the last newline missing",
            Some(whole[..whole.len() - 1].to_vec()),
            "kept the first 2999 records",
        ),
        ("missing", None, "does not exist: it is written anew"),
        ("empty", Some(Vec::new()), "holds no record of this run"),
        (
            // What an older llmjson left: a torn line, then the next run's lines after it.
            "a broken line then other lines",
            Some(
                [
                    join(&lines[..700]),
                    lines[700][..lines[700].len() / 2].to_vec(),
                    join(&lines[1200..]),
                ]
                .concat(),
            ),
            "line 701 is not a result line",
        ),
        (
            "records out of order",
            Some([join(&lines[..5]), join(&lines[6..])].concat()),
            "line 6 is record 6 where record 5 was due",
        ),
        (
            "another run's file",
            Some(
                String::from_utf8_lossy(&whole)
                    .replace("\"id\":\"", "\"id\":\"other-")
                    .into_bytes(),
            ),
            "it is another run's file",
        ),
    ];
    let resume = || llmjson(&[&args[..], &["--resume", "1", "--summary"]].concat(), b"");
    for (name, contents, said) in cases {
        match contents {
            Some(bytes) => std::fs::write(&out, bytes).unwrap(),
            None => std::fs::remove_file(&out).unwrap(),
        }
        let resumed = resume();
        let stderr = text(&resumed.stderr);
        assert_eq!(resumed.status.code(), Some(0), "{name}: {stderr}");
        assert!(stderr.contains(said), "{name}: {stderr}");
        assert!(
            std::fs::read(&out).unwrap() == whole,
            "{name}: the file is the run's, byte for byte"
        );
        assert!(
            stderr.contains("0 records in"),
            "{name}: nothing parsed anew: {stderr}"
        );
    }
    assert_eq!(query_count(url, "SELECT count(*) FROM results"), 3000);
    // The store holds more than the file: the records it holds past the file are written
    // from it, the rest parsed and stored.
    std::fs::write(&out, &whole[..boundary]).unwrap();
    delete_results_from(url, 2000);
    let resumed = resume();
    let stderr = text(&resumed.stderr);
    assert_eq!(resumed.status.code(), Some(0), "{stderr}");
    assert!(
        stderr.contains("1000 records in")
            && stderr.contains("1000 already in the results file, 1000 stored before"),
        "{stderr}"
    );
    let reference = String::from_utf8(whole.clone()).unwrap();
    assert_one_account(&out, &reference, Some(url));
    let rewritten = std::fs::read(&out).unwrap();
    assert!(
        rewritten[..join(&lines[..2000]).len()] == whole[..join(&lines[..2000]).len()],
        "the records the store held are the run's own lines"
    );
    // A stored record that the input no longer gives the same way (another id) stops the run:
    // the inputs changed since.
    std::fs::remove_file(&out).unwrap();
    std::fs::write(&input, replies(3000).replace("\"id\":\"", "\"id\":\"y")).unwrap();
    let refused = resume();
    assert_eq!(refused.status.code(), Some(2), "{}", text(&refused.stderr));
    assert!(
        text(&refused.stderr).contains("the inputs changed since the run"),
        "{}",
        text(&refused.stderr)
    );
}

fn delete_results_from(url: &str, seq: i64) {
    let sql = format!("DELETE FROM results WHERE seq >= {seq}");
    if let Some(path) = url.strip_prefix("sqlite:") {
        rusqlite::Connection::open(path)
            .unwrap()
            .execute(&sql, [])
            .unwrap();
    } else {
        postgres::Client::connect(url, postgres::NoTls)
            .unwrap()
            .batch_execute(&sql)
            .unwrap();
    }
}

on_both_stores!(
    sqlite_damaged_results_files_are_made_whole,
    postgres_damaged_results_files_are_made_whole,
    "damaged",
    every_damaged_file_is_made_whole
);

#[test]
fn a_results_file_alone_is_cut_at_its_torn_line_and_completed() {
    let dir = scratch("file-alone");
    let input = write(&dir, "in.jsonl", replies(3000));
    let out = dir.join("r.jsonl");
    let out_arg = out.to_str().unwrap();
    let run = |extra: &[&str]| {
        let mut args = vec!["batch", &input, "--out", out_arg, "--fail-on", "none"];
        args.extend(extra);
        llmjson(&args, b"")
    };
    assert_eq!(run(&[]).status.code(), Some(0));
    let whole = std::fs::read_to_string(&out).unwrap();
    // Seven bytes into a line near the file's two fifths: a torn line.
    let from = whole.len() * 2 / 5;
    let kept = from
        + whole.as_bytes()[from..]
            .iter()
            .position(|&b| b == b'\n')
            .unwrap()
        + 1;
    std::fs::write(&out, &whole.as_bytes()[..kept + 7]).unwrap();
    let resumed = run(&["--resume", "--summary"]);
    let stderr = text(&resumed.stderr);
    assert_eq!(resumed.status.code(), Some(0), "{stderr}");
    assert!(stderr.contains("a torn last line"), "{stderr}");
    let after = std::fs::read_to_string(&out).unwrap();
    assert_eq!(
        after[..kept],
        whole[..kept],
        "what was whole is kept as it was"
    );
    assert_one_account(&out, &whole, None);
    let done = whole[..kept].lines().count();
    assert!(
        stderr.contains(&format!("{} records in", 3000 - done)),
        "only the rest is parsed: {stderr}"
    );

    // Other inputs: refused, whatever is in the file.
    let other = write(
        &dir,
        "other.jsonl",
        replies(3000).replace("\"id\":\"", "\"id\":\"x"),
    );
    let refused = llmjson(&["batch", &other, "--out", out_arg, "--resume"], b"");
    assert_eq!(refused.status.code(), Some(2));
    assert!(text(&refused.stderr).contains("is not the input's record 2999"));
    let shorter = write(&dir, "short.jsonl", replies(10));
    let refused = llmjson(&["batch", &shorter, "--out", out_arg, "--resume"], b"");
    assert_eq!(refused.status.code(), Some(2));
    assert!(text(&refused.stderr).contains("holds 3000 records, and the inputs only 10"));
    assert_eq!(
        std::fs::read_to_string(&out).unwrap(),
        after,
        "left as it was"
    );
}
