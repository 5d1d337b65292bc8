//! `llmjson batch` and `llmjson report` end to end: inputs, results in order, exit codes, bad
//! input, the stores (SQLite always; PostgreSQL against a real server when one is given in
//! LLMJSON_TEST_POSTGRES), resuming after a failure, a kill and Ctrl-C, metrics, and the
//! report in a real headless browser (when one is installed). Crashes at random moments and
//! what `--resume` makes of them: tests/crash.rs.

#[macro_use]
mod common;

use common::*;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// `n` records of the kinds a run meets: valid, repaired (fenced, single quotes, trailing
/// commas, cut off), and failing (no JSON, empty).
fn records(n: usize) -> String {
    let mut out = String::new();
    for i in 0..n {
        let reply = match i % 6 {
            0 => format!("{{\"n\": {i}, \"tags\": [\"a\", \"b\"]}}"),
            1 => format!("Sure!\n```json\n{{'n': {i}, 'ok': True,}}\n```"),
            2 => format!("{{\"n\": {i}, \"plan\": [1, 2, 3"),
            3 => "I cannot answer that.".to_string(),
            4 => format!("[{i}, // a comment\n 2,]"),
            _ => String::new(),
        };
        out.push_str(&serde_json::json!({"id": format!("r{i}"), "reply": reply}).to_string());
        out.push('\n');
    }
    out
}

#[test]
fn results_come_in_input_order_with_every_field() {
    let dir = scratch("order");
    let input = write(&dir, "in.jsonl", records(3000));
    let out = llmjson(&["batch", &input, "--jobs", "2"], b"");
    assert_eq!(out.status.code(), Some(1), "some records fail: exit 1");
    let lines = results(&out);
    assert_eq!(lines.len(), 3000);
    for (i, line) in lines.iter().enumerate() {
        assert_eq!(line["seq"], i, "in input order");
        assert_eq!(line["id"], format!("r{i}"));
        for field in ["ok", "outcome", "value", "repairs", "error", "diagnostics"] {
            assert!(line.get(field).is_some(), "{field} in {line}");
        }
    }
    assert_eq!(lines[0]["outcome"], "ok");
    assert_eq!(lines[1]["outcome"], "repaired");
    assert_eq!(lines[1]["value"], serde_json::json!({"n": 1, "ok": true}));
    assert_eq!(lines[2]["diagnostics"]["outcome"], "repaired");
    assert_eq!(lines[3]["error"]["kind"], "no_json");
    assert_eq!(lines[5]["error"]["kind"], "empty");
    assert_eq!(lines[4]["value"], serde_json::json!([4, 2]));
    // No progress bar or summary when standard error is not a terminal; the exit 1 is said.
    assert_eq!(
        text(&out.stderr),
        "llmjson: 1000 of 3000 records gave no value (exit 1; --fail-on none exits 0)\n"
    );

    let lenient = llmjson(&["batch", &input, "--fail-on", "none"], b"");
    assert_eq!(lenient.status.code(), Some(0), "--fail-on none");
    let outcomes = |o: &Output| -> Vec<serde_json::Value> {
        results(o).iter().map(|l| l["outcome"].clone()).collect()
    };
    assert_eq!(outcomes(&lenient), outcomes(&out));
}

#[test]
fn each_result_is_what_repair_gives_for_that_reply() {
    let dir = scratch("same");
    let input = write(&dir, "in.jsonl", records(12));
    let out = llmjson(&["batch", &input, "--fail-on", "none"], b"");
    for (line, record) in results(&out).iter().zip(records(12).lines()) {
        let record: serde_json::Value = serde_json::from_str(record).unwrap();
        let reply = record["reply"].as_str().unwrap();
        let single = llmjson(&["repair"], reply.as_bytes());
        if single.status.success() {
            let value: serde_json::Value = serde_json::from_slice(&single.stdout).unwrap();
            assert_eq!(line["value"], value, "{reply}");
        } else {
            assert_eq!(line["ok"], false, "{reply}");
        }
    }
}

#[test]
fn fields_are_configurable_and_a_record_may_carry_a_schema() {
    let input = concat!(
        r#"{"request": "a", "output": "{\"n\": \"5\"}", "schema": {"type": "object", "properties": {"n": {"type": "integer"}}}}"#,
        "\n",
        r#"{"request": "b", "output": "{\"n\": \"x\"}", "schema": {"type": "object", "properties": {"n": {"type": "integer"}}}}"#,
        "\n\n"
    );
    let out = llmjson(
        &["batch", "--id-field", "request", "--reply-field", "output"],
        input.as_bytes(),
    );
    let lines = results(&out);
    assert_eq!(lines.len(), 2, "a blank line is no record");
    assert_eq!(lines[0]["id"], "a");
    assert_eq!(lines[0]["value"], serde_json::json!({"n": 5}));
    assert_eq!(lines[1]["error"]["kind"], "schema");
}

#[test]
fn bad_records_are_their_own_errors_and_the_run_goes_on() {
    let mut input = Vec::new();
    input.extend_from_slice(b"{\"id\": 1, \"reply\": \"[1]\"}\n");
    // Bytes that are not UTF-8 are read as everywhere: replaced, and here nothing else is left.
    input.extend_from_slice(b"{\"id\": 2, \"reply\": \"\xff\xfe\"}\n");
    input.extend_from_slice(b"{\"id\": 3, \"text\": \"[1]\"}\n");
    input.extend_from_slice(b"{\"id\": 4, \"reply\": \"");
    input.extend(std::iter::repeat_n(b'x', 20 << 20));
    input.extend_from_slice(b"\"}\n");
    input.extend_from_slice(b"not json at all\n");
    input.extend_from_slice(b"{\"id\": 6, \"reply\": \"{'last': true}\"}");
    let out = llmjson(&["batch"], &input);
    assert_eq!(out.status.code(), Some(1));
    let lines = results(&out);
    let kinds: Vec<_> = lines
        .iter()
        .map(|l| l["outcome"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(
        kinds,
        [
            "ok",
            "binary",
            "missing_field",
            "too_large",
            "bad_record",
            "repaired"
        ]
    );
    assert_eq!(
        lines[4]["id"], "-:5",
        "an unreadable record is named by its line"
    );
    assert!(lines[3]["error"]["message"]
        .as_str()
        .unwrap()
        .contains("bytes"));
}

#[test]
fn an_empty_file_is_a_run_of_nothing() {
    let dir = scratch("empty");
    let input = write(&dir, "empty.jsonl", "");
    let out = llmjson(&["batch", &input, "--summary"], b"");
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(out.stdout, b"");
    assert!(
        text(&out.stderr).contains("0 records"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn files_and_directories_are_one_reply_each_named_by_path() {
    let dir = scratch("dir");
    std::fs::create_dir_all(dir.join("replies/sub")).unwrap();
    write(&dir, "replies/b.txt", "{'b': 1}");
    write(&dir, "replies/a.txt", "```json\n{\"a\": 1}\n```");
    write(&dir, "replies/sub/c.md", "");
    write(
        &dir,
        "replies/sub/d.jsonl",
        "{\"id\": \"d1\", \"reply\": \"[1,]\"}\n",
    );
    let root = dir.join("replies");
    let out = llmjson(&["batch", root.to_str().unwrap()], b"");
    let lines = results(&out);
    let ids: Vec<String> = lines
        .iter()
        .map(|l| l["id"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(ids.len(), 4);
    assert!(ids[0].ends_with("a.txt") && ids[1].ends_with("b.txt"));
    assert!(ids[2].ends_with("c.md"));
    assert_eq!(
        ids[3], "d1",
        "a .jsonl file in a directory is read as records"
    );
    assert_eq!(lines[2]["error"]["kind"], "empty");
    // --input-format text reads a .jsonl file as one reply.
    let whole = llmjson(
        &[
            "batch",
            "--input-format",
            "text",
            root.join("sub/d.jsonl").to_str().unwrap(),
        ],
        b"",
    );
    assert_eq!(results(&whole)[0]["value"]["id"], "d1");
}

#[test]
fn usage_errors_exit_2_before_any_work() {
    let dir = scratch("usage");
    let out = llmjson(&["batch", dir.join("missing.jsonl").to_str().unwrap()], b"");
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("missing.jsonl"));
    let input = write(&dir, "in.jsonl", records(10));
    let results_file = dir.join("out.jsonl");
    for db in [
        "postgresql://nobody@127.0.0.1:1/none".to_string(),
        format!("sqlite:{}/no/such/dir/x.db", dir.display()),
        "mysql://x".to_string(),
    ] {
        let out = llmjson(
            &[
                "batch",
                &input,
                "--db",
                &db,
                "--out",
                results_file.to_str().unwrap(),
            ],
            b"",
        );
        assert_eq!(out.status.code(), Some(2), "{db}: {}", text(&out.stderr));
        assert!(!text(&out.stderr).is_empty());
        assert!(!results_file.exists(), "{db}: nothing written");
    }
    let out = llmjson(&["batch", &input, "--resume", "1"], b"");
    assert_eq!(out.status.code(), Some(2), "--resume RUN needs --db");
    assert!(
        text(&out.stderr).contains("needs --db"),
        "{}",
        text(&out.stderr)
    );
    let out = llmjson(&["batch", &input, "--resume"], b"");
    assert_eq!(
        out.status.code(),
        Some(2),
        "--resume without --db needs --out"
    );
    assert!(
        text(&out.stderr).contains("needs --out FILE"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn metrics_are_written_in_prometheus_text() {
    let dir = scratch("metrics");
    let input = write(&dir, "in.jsonl", records(600));
    let metrics = dir.join("m.prom");
    let out = llmjson(
        &[
            "batch",
            &input,
            "--out",
            dir.join("o").to_str().unwrap(),
            "--metrics",
            metrics.to_str().unwrap(),
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(1));
    let text = std::fs::read_to_string(&metrics).unwrap();
    let value = |series: &str| -> u64 {
        text.lines()
            .find_map(|l| l.strip_prefix(series)?.trim().parse().ok())
            .unwrap_or_else(|| panic!("{series} in {text}"))
    };
    assert_eq!(value("llmjson_replies_total{outcome=\"ok\"}"), 100);
    assert_eq!(value("llmjson_replies_total{outcome=\"repaired\"}"), 300);
    assert_eq!(value("llmjson_replies_total{outcome=\"failed\"}"), 200);
    assert_eq!(value("llmjson_failures_total{kind=\"no_json\"}"), 100);
    assert_eq!(value("llmjson_truncated_total"), 100);
    assert_eq!(value("llmjson_latency_seconds_count"), 600);
    assert_eq!(value("llmjson_latency_seconds_bucket{le=\"+Inf\"}"), 600);
    assert!(!dir.join("m.prom.tmp").exists());
}

// ---- stores ----

on_both_stores!(
    sqlite_stores_every_result,
    postgres_stores_every_result,
    "store",
    stores_every_result_and_counts_the_run
);
on_both_stores!(
    sqlite_resumes_after_a_failure,
    postgres_resumes_after_a_failure,
    "resume",
    resume_after_failure
);
on_both_stores!(
    sqlite_killed_run_keeps_what_it_committed,
    postgres_killed_run_keeps_what_it_committed,
    "kill",
    |url: &str, dir: &Path| interrupted_then_resumed(url, dir, "-KILL")
);
on_both_stores!(
    sqlite_ctrl_c_stops_cleanly,
    postgres_ctrl_c_stops_cleanly,
    "int",
    |url: &str, dir: &Path| interrupted_then_resumed(url, dir, "-INT")
);
on_both_stores!(
    sqlite_report_shows_the_runs_figures,
    postgres_report_shows_the_runs_figures,
    "report",
    |url: &str, dir: &Path| {
        report_of_a_run(url, dir);
    }
);

#[test]
fn postgres_stores_over_the_connections_the_server_allows() {
    let Some(url) = postgres_url("conns") else {
        return;
    };
    let dir = scratch("pg-conns");
    let input = write(&dir, "in.jsonl", records(5000));
    let out_path = dir.join("o.jsonl");
    // Four workers, four connections: every chunk committed and written in input order.
    let out = llmjson(
        &[
            "batch",
            &input,
            "--db",
            &url,
            "--jobs",
            "4",
            "--fail-on",
            "none",
            "--out",
            out_path.to_str().unwrap(),
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(
        query_count(
            &url,
            "SELECT count(DISTINCT seq) FROM results WHERE run_id = 1"
        ),
        5000
    );
    assert_eq!(seqs_in(&out_path), (0..5000).collect::<Vec<_>>());
    // A role the server lets open one connection only: the run goes over that one.
    let role = format!("llmjson_one_{}", std::process::id());
    let (base, database) = url.rsplit_once('/').unwrap();
    let mut admin = postgres::Client::connect(&url, postgres::NoTls).unwrap();
    admin
        .batch_execute(&format!(
            "DROP ROLE IF EXISTS {role}; CREATE ROLE {role} LOGIN CONNECTION LIMIT 1; \
             GRANT ALL ON ALL TABLES IN SCHEMA public TO {role}; \
             GRANT ALL ON SCHEMA public TO {role}; \
             GRANT ALL ON ALL SEQUENCES IN SCHEMA public TO {role}"
        ))
        .unwrap();
    let scheme_end = base.find("://").unwrap() + 3;
    let host = &base[base.rfind('@').map_or(scheme_end, |at| at + 1)..];
    let limited = format!("{}{role}@{host}/{database}", &base[..scheme_end]);
    let out = llmjson(
        &[
            "batch",
            &input,
            "--db",
            &limited,
            "--jobs",
            "4",
            "--fail-on",
            "none",
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(
        query_count(
            &url,
            "SELECT count(DISTINCT seq) FROM results WHERE run_id = 2"
        ),
        5000
    );
    drop(admin);
}

fn stores_every_result_and_counts_the_run(url: &str, dir: &Path) {
    let input = write(dir, "in.jsonl", records(2500));
    let out = llmjson(
        &[
            "batch",
            &input,
            "--db",
            url,
            "--out",
            dir.join("o.jsonl").to_str().unwrap(),
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    assert_eq!(query_count(url, "SELECT count(*) FROM results"), 2500);
    assert_eq!(
        query_count(
            url,
            "SELECT count(DISTINCT seq) FROM results WHERE run_id = 1"
        ),
        2500
    );
    assert_eq!(
        query_count(url, "SELECT records + 0 * ok FROM runs WHERE id = 1"),
        2500
    );
    assert_eq!(
        query_count(url, "SELECT failed FROM runs WHERE id = 1"),
        833
    );
    assert_eq!(
        query_text(url, "SELECT status FROM runs WHERE id = 1"),
        "finished"
    );
    assert_eq!(
        query_count(
            url,
            "SELECT count(*) FROM results WHERE run_id = 1 AND error_kind = 'no_json'"
        ),
        417
    );
    assert_eq!(
        query_text(url, "SELECT record_id FROM results WHERE seq = 7"),
        "r7"
    );
    // A second run in the same store is a new run.
    let again = llmjson(&["batch", &input, "--db", url, "--fail-on", "none"], b"");
    assert_eq!(again.status.code(), Some(0));
    assert_eq!(query_count(url, "SELECT count(*) FROM runs"), 2);
    if !url.starts_with("sqlite:") {
        // The large columns compress with lz4 (Debian's server is built with it).
        assert_eq!(
            query_count(
                url,
                "SELECT count(*) FROM pg_attribute WHERE attrelid = 'results'::regclass \
                 AND attcompression = 'l'"
            ),
            4
        );
    }
    // Every migration applied once: versions 1 to the newest, none twice.
    let applied = query_count(url, "SELECT count(*) FROM schema_migrations");
    assert!(applied >= 3, "{applied}");
    assert_eq!(
        query_count(url, "SELECT max(version) FROM schema_migrations"),
        applied
    );
}

/// A run that stops part way (the output disk full: /dev/full) keeps what it committed, and
/// `--resume last` completes it: every record stored exactly once.
fn resume_after_failure(url: &str, dir: &Path) {
    let input = write(dir, "in.jsonl", records(5000));
    let out = llmjson(&["batch", &input, "--db", url, "--out", "/dev/full"], b"");
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("--resume 1"),
        "{}",
        text(&out.stderr)
    );
    let first = query_count(url, "SELECT count(*) FROM results");
    assert!(first > 0 && first < 5000, "committed part: {first}");
    assert_eq!(
        query_text(url, "SELECT status FROM runs WHERE id = 1"),
        "failed"
    );
    let resumed = llmjson(
        &[
            "batch",
            &input,
            "--db",
            url,
            "--resume",
            "last",
            "--summary",
            "--out",
            dir.join("rest.jsonl").to_str().unwrap(),
        ],
        b"",
    );
    assert_eq!(resumed.status.code(), Some(1), "{}", text(&resumed.stderr));
    assert!(
        text(&resumed.stderr).contains(&format!(
            "{first} stored before, written to the results file from the store"
        )),
        "{}",
        text(&resumed.stderr)
    );
    assert_eq!(query_count(url, "SELECT count(*) FROM results"), 5000);
    assert_eq!(
        query_count(url, "SELECT count(DISTINCT seq) FROM results"),
        5000
    );
    assert_eq!(
        query_text(url, "SELECT status FROM runs WHERE id = 1"),
        "finished"
    );
    assert_eq!(
        query_count(url, "SELECT records FROM runs WHERE id = 1"),
        5000
    );
    // The results file of the resumed run is the whole run: what the first run committed
    // (rebuilt from the store), then the rest, in input order.
    assert_eq!(
        seqs_in(dir.join("rest.jsonl")),
        (0..5000).collect::<Vec<_>>()
    );
    // Other options: refused.
    let other = llmjson(
        &[
            "batch",
            &input,
            "--db",
            url,
            "--resume",
            "1",
            "--level",
            "conservative",
        ],
        b"",
    );
    assert_eq!(other.status.code(), Some(2));
    assert!(text(&other.stderr).contains("other options"));
}

/// Stops a run with a signal once it has committed some results, then resumes it.
fn interrupted_then_resumed(url: &str, dir: &Path, signal: &str) {
    let input = write(dir, "in.jsonl", records(60_000));
    let mut child = Command::new(env!("CARGO_BIN_EXE_llmjson"))
        .args([
            "batch",
            &input,
            "--db",
            url,
            "--jobs",
            "1",
            "--out",
            "/dev/null",
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        // Before the run creates its tables, the query fails: nothing stored yet.
        let stored = try_count(url, "SELECT count(*) FROM results").unwrap_or(0);
        if stored > 0 || Instant::now() > deadline {
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let killed = Command::new("kill")
        .args([signal, &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let status = child.wait().unwrap();
    let stored = query_count(url, "SELECT count(*) FROM results");
    if signal == "-INT" {
        assert_eq!(status.code(), Some(130));
        assert_eq!(
            query_text(url, "SELECT status FROM runs WHERE id = 1"),
            "interrupted"
        );
    }
    assert!(
        stored < 60_000,
        "the run finished before the signal: make the input longer"
    );
    eprintln!("{signal}: {stored} of 60000 stored before the signal");
    assert_eq!(
        query_count(url, "SELECT count(DISTINCT seq) FROM results"),
        stored,
        "no record stored twice"
    );
    let resumed = llmjson(
        &[
            "batch",
            &input,
            "--db",
            url,
            "--resume",
            "last",
            "--out",
            "/dev/null",
        ],
        b"",
    );
    assert_eq!(resumed.status.code(), Some(1), "{}", text(&resumed.stderr));
    assert_eq!(query_count(url, "SELECT count(*) FROM results"), 60_000);
    assert_eq!(
        query_count(url, "SELECT count(DISTINCT seq) FROM results"),
        60_000
    );
    assert_eq!(
        query_count(url, "SELECT records FROM runs WHERE id = 1"),
        60_000
    );
}

// ---- report ----

fn report_of_a_run(url: &str, dir: &Path) -> String {
    let input = write(dir, "in.jsonl", records(900));
    llmjson(&["batch", &input, "--db", url, "--out", "/dev/null"], b"");
    let html = dir.join("report.html");
    let out = llmjson(&["report", "--db", url, "-o", html.to_str().unwrap()], b"");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let page = std::fs::read_to_string(&html).unwrap();
    assert!(page.contains("data-label=\"ok\" data-value=\"150\""));
    assert!(page.contains("data-label=\"repaired\" data-value=\"450\""));
    assert!(page.contains("data-label=\"failed\" data-value=\"300\""));
    assert!(page.contains("data-label=\"no_json\" data-value=\"150\""));
    assert!(page.contains("data-label=\"trailing_comma\" data-value=\"300\""));
    assert_eq!(page.matches("<li data-seq=").count(), 20, "the 20 worst");
    html.to_string_lossy().into_owned()
}

#[test]
fn a_report_of_a_missing_database_leaves_none_behind() {
    let dir = scratch("report-no-db");
    let db = dir.join("nope.db");
    let url = format!("sqlite:{}", db.display());
    let out = llmjson(&["report", "--db", &url, "-o", "/dev/null"], b"");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("no such database"),
        "{}",
        text(&out.stderr)
    );
    assert!(!db.exists(), "no empty database is left behind");
}

#[test]
fn a_report_of_a_missing_run_is_a_usage_error() {
    let dir = scratch("report-missing");
    report_of_a_run(&sqlite_url(&dir), &dir);
    let out = llmjson(
        &[
            "report",
            "--db",
            &sqlite_url(&dir),
            "--run",
            "9",
            "-o",
            "/dev/null",
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("no such run"));
}

fn browser() -> Option<PathBuf> {
    for name in ["chromium", "chromium-browser", "google-chrome"] {
        for dir in ["/usr/bin", "/usr/local/bin"] {
            let path = Path::new(dir).join(name);
            if path.exists() {
                return Some(path);
            }
        }
    }
    if std::env::var("LLMJSON_REQUIRE_BROWSER").is_ok_and(|v| v == "1") {
        panic!("LLMJSON_REQUIRE_BROWSER=1 but no chromium is installed");
    }
    eprintln!("SKIPPED the browser check: no chromium (.ci/run installs Debian's package)");
    None
}

fn headless(browser: &Path, profile: &Path, args: &[&str]) -> Output {
    Command::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--virtual-time-budget=2000",
            &format!("--user-data-dir={}", profile.display()),
        ])
        .args(args)
        .output()
        .expect("the browser runs")
}

#[test]
fn the_report_renders_in_a_real_browser() {
    let Some(browser) = browser() else { return };
    let dir = scratch("browser");
    let html = report_of_a_run(&sqlite_url(&dir), &dir);
    let url = format!("file://{html}");
    let dom = headless(&browser, &dir.join("profile-dom"), &["--dump-dom", &url]);
    let dom = text(&dom.stdout);
    // The page's own check counted every bar the browser laid out with a width.
    let bars = dom.matches("<g class=\"bar\"").count();
    assert!(bars > 10, "{dom}");
    assert!(
        dom.contains(&format!("data-rendered-bars=\"{bars}\"")),
        "every bar rendered: {}",
        &dom[..dom.len().min(400)]
    );
    let shot = dir.join("report.png");
    headless(
        &browser,
        &dir.join("profile-shot"),
        &[
            &format!("--screenshot={}", shot.display()),
            "--window-size=1200,1600",
            &url,
        ],
    );
    let png = std::fs::read(&shot).expect("a screenshot");
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
    assert!(
        png.len() > 20_000,
        "a page with charts, not a blank one: {} bytes",
        png.len()
    );
}

#[test]
fn postgres_logs_are_jsonb() {
    let Some(url) = postgres_url("jsonb") else {
        return;
    };
    let dir = scratch("pg-jsonb");
    let input = write(&dir, "in.jsonl", records(600));
    llmjson(&["batch", &input, "--db", &url, "--out", "/dev/null"], b"");
    // The logs are jsonb: a team queries inside them.
    assert_eq!(
        query_count(
            &url,
            "SELECT count(*) FROM results WHERE run_id = 1 AND repairs @> '[{\"kind\": \"trailing_comma\"}]'"
        ),
        200
    );
    assert_eq!(
        query_text(
            &url,
            "SELECT diagnostics->>'outcome' FROM results WHERE run_id = 1 AND seq = 1"
        ),
        "repaired"
    );
}

#[test]
fn metrics_are_rewritten_while_the_run_goes_on() {
    let dir = scratch("metrics-interval");
    let metrics = dir.join("m.prom");
    let mut child = Command::new(env!("CARGO_BIN_EXE_llmjson"))
        .args(["batch", "--metrics", metrics.to_str().unwrap()])
        .args(["--metrics-interval", "0", "--out", "/dev/null"])
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    // One full chunk (1,024 records) and a part of the next; the input stays open.
    stdin.write_all(records(1500).as_bytes()).unwrap();
    stdin.flush().unwrap();
    let deadline = Instant::now() + Duration::from_secs(60);
    let mid_run = loop {
        if let Ok(text) = std::fs::read_to_string(&metrics) {
            break text;
        }
        assert!(
            Instant::now() < deadline,
            "no metrics file while the run goes on"
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    assert!(
        mid_run.contains("llmjson_latency_seconds_count 1024\n"),
        "{mid_run}"
    );
    drop(stdin);
    child.wait().unwrap();
    let last = std::fs::read_to_string(&metrics).unwrap();
    assert!(
        last.contains("llmjson_latency_seconds_count 1500\n"),
        "{last}"
    );
}
