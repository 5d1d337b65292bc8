//! The `llmjson` command end to end: output, logs, exit codes, the kill switch.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

/// `llmjson` started with `args` and `env`, its three streams piped.
fn spawn(args: &[&str], env: &[(&str, &str)]) -> std::process::Child {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_llmjson"));
    cmd.args(args)
        .env_remove("LLMJSON_REPAIR")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd.spawn().expect("binary runs")
}

fn llmjson(args: &[&str], stdin: &str, env: &[(&str, &str)]) -> Output {
    let mut child = spawn(args, env);
    // A command that fails before reading its input (a usage error) closes the pipe early.
    match child.stdin.take().unwrap().write_all(stdin.as_bytes()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => panic!("writing stdin: {e}"),
        _ => {}
    }
    child.wait_with_output().unwrap()
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).unwrap()
}

fn example(name: &str) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../examples")
        .join(name);
    path.to_string_lossy().into_owned()
}

#[test]
fn repair_prints_one_line_and_exits_zero() {
    let out = llmjson(
        &["repair"],
        "Sure!\n```json\n{a: 1, 'b': [1,2,],}\n```",
        &[],
    );
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(stdout(&out), "{\"a\":1,\"b\":[1,2]}\n");
    assert_eq!(stderr(&out), "");
}

#[test]
fn pretty_and_ascii() {
    let out = llmjson(
        &["repair", "--pretty", "--ascii", "-"],
        "{\"g\": \"経済\"}",
        &[],
    );
    assert_eq!(stdout(&out), "{\n  \"g\": \"\\u7d4c\\u6e08\"\n}\n");
}

#[test]
fn the_log_goes_to_stderr_in_both_formats() {
    let out = llmjson(&["repair", "--log"], "{\"a\": True,}", &[]);
    assert_eq!(stdout(&out), "{\"a\":true}\n");
    assert_eq!(
        stderr(&out),
        "llmjson: repair: 1:7 python_literal at /a: 'True' became true\n\
         llmjson: repair: 1:11 trailing_comma at (root): removed\n"
    );
    let out = llmjson(
        &["repair", "--log", "--log-format", "json"],
        "{\"a\": True}",
        &[],
    );
    assert_eq!(
        stderr(&out),
        "{\"kind\":\"python_literal\",\"span\":{\"start\":6,\"end\":10},\"line\":1,\"column\":7,\"path\":\"/a\",\"detail\":\"'True' became true\"}\n"
    );
}

#[test]
fn policies_from_flags() {
    let cut = "{\"a\": 1, \"b\": \"x";
    assert_eq!(
        stdout(&llmjson(&["repair"], cut, &[])),
        "{\"a\":1,\"b\":\"x\"}\n"
    );
    assert_eq!(
        stdout(&llmjson(&["repair", "--truncation", "drop"], cut, &[])),
        "{\"a\":1}\n"
    );
    let out = llmjson(&["repair", "--level", "conservative"], "{'a': 1}", &[]);
    assert_eq!(out.status.code(), Some(1));
    let comment = format!(
        "{{\"a\": 1, /* \"c\": \"{}\", */ \"b\": 2}}",
        "x".repeat(40)
    );
    assert_eq!(llmjson(&["repair"], &comment, &[]).status.code(), Some(1));
    assert_eq!(
        llmjson(&["repair", "--max-removed-ratio", "0.9"], &comment, &[])
            .status
            .code(),
        Some(0)
    );
    // A prose comment is not counted unless every comment is.
    let prose = format!("{{\"a\": 1, /* {} */ \"b\": 2}}", "a long aside ".repeat(8));
    assert_eq!(llmjson(&["repair"], &prose, &[]).status.code(), Some(0));
    assert_eq!(
        llmjson(&["repair", "--guard-comments", "all"], &prose, &[])
            .status
            .code(),
        Some(1)
    );
    let out = llmjson(&["repair", "--max-size", "5"], "{\"a\": 1}", &[]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("over the limit of 5 bytes"));
    let out = llmjson(
        &["repair", "--duplicate-keys", "first"],
        "{\"a\": 1, \"a\": 2}",
        &[],
    );
    assert_eq!(stdout(&out), "{\"a\":1}\n");
}

#[test]
fn an_oversized_stream_is_refused_without_stating_a_wrong_size() {
    // 8 bytes on standard input, a limit of 3: reading stops at 4, so the size is unknown.
    let out = llmjson(&["repair", "--max-size", "3"], "{\"a\":1}\n", &[]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        stderr(&out),
        "llmjson: error: input is more than 3 bytes, over the limit of 3 bytes (--max-size raises it)\n"
    );
    let out = llmjson(
        &["repair", "--max-size", "3", "--errors", "json"],
        "{\"a\":1}\n",
        &[],
    );
    let line: serde_json::Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    assert_eq!(line["kind"], "too_large");
}

#[test]
fn an_oversized_file_is_refused_by_its_real_size() {
    let out = llmjson(
        &["repair", "--max-size", "100", &example("code-artifact.txt")],
        "",
        &[],
    );
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        stderr(&out),
        "llmjson: error: input is 308 bytes, over the limit of 100 bytes (--max-size raises it)\n"
    );
}

/// `llmjson` with raw bytes on standard input.
fn llmjson_bytes(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = spawn(args, &[]);
    let _ = child.stdin.take().unwrap().write_all(stdin);
    child.wait_with_output().unwrap()
}

#[test]
fn binary_input_is_refused_as_not_text() {
    // A file of another kind (the first bytes of an executable, with `[]` in it), random
    // bytes, and an executable of this machine: each refused, exit 1, whatever the level.
    let mut elf = b"\x7fELF\x02\x01\x01\0\0\0\0\0\0\0\0\0\x03\0>\0".to_vec();
    elf.extend_from_slice(b"GLIBC_2.17 [] main");
    for level in ["full", "none"] {
        let out = llmjson_bytes(&["repair", "--level", level], &elf);
        assert_eq!(out.status.code(), Some(1), "{level}");
        assert_eq!(
            stderr(&out),
            "llmjson: error: the input is binary, not text (a NUL byte at offset 7)\n"
        );
        assert_eq!(stdout(&out), "");
    }
    let mut seed = 0x2545_f491_4f6c_dd1d_u64;
    let noise: Vec<u8> = (0..4096)
        .map(|_| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed >> 32) as u8
        })
        .collect();
    let out = llmjson_bytes(&["repair", "--errors", "json"], &noise);
    assert_eq!(out.status.code(), Some(1));
    let line: serde_json::Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    assert_eq!(line["kind"], "binary");
    assert!(line["message"]
        .as_str()
        .unwrap()
        .starts_with("the input is binary, not text"));
    if std::path::Path::new("/bin/ls").is_file() {
        let out = llmjson(&["repair", "/bin/ls"], "", &[]);
        assert_eq!(out.status.code(), Some(1));
        assert!(
            stderr(&out).contains("the input is binary, not text"),
            "{}",
            stderr(&out)
        );
    }
    // Latin-1 text is text: repaired, the bad bytes logged.
    let out = llmjson_bytes(&["repair", "--log"], b"{\"name\": \"Jo\xe3o\"}");
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(stdout(&out), "{\"name\":\"Jo\u{fffd}o\"}\n");
    assert!(stderr(&out).contains("invalid_utf8"), "{}", stderr(&out));
}

#[test]
fn option_values_take_either_spelling() {
    let schema = example("plan.schema.json");
    for spelling in ["validate-only", "validate_only"] {
        let out = llmjson(
            &["repair", "--schema", &schema, "--coercion", spelling],
            "{}",
            &[],
        );
        assert_eq!(out.status.code(), Some(1), "{spelling}: {}", stderr(&out));
        assert!(
            stderr(&out).contains("does not fit the schema"),
            "{}",
            stderr(&out)
        );
    }
    for spelling in ["drop-element", "drop_element"] {
        let out = llmjson(&["repair", "--truncation", spelling], "[[1], [2, 3", &[]);
        assert_eq!(stdout(&out), "[[1]]\n", "{spelling}");
    }
}

#[test]
fn help_texts_use_words_a_user_knows() {
    for command in ["repair", "batch", "verify", "validate", "extract", "report"] {
        let out = llmjson(&[command, "--help"], "", &[]);
        let help = stdout(&out);
        for internal in ["seed 0", "seed's", "the letter of"] {
            assert!(
                !help.contains(internal),
                "{command} --help says {internal:?}"
            );
        }
    }
}

#[test]
fn all_values_as_an_array() {
    let out = llmjson(&["repair", "--all"], "{\"a\": 1} then {\"b\": 2}", &[]);
    assert_eq!(stdout(&out), "[{\"a\":1},{\"b\":2}]\n");
    let out = llmjson(&["extract", "--all"], "{\"a\": 1} then {'b': 2}", &[]);
    assert_eq!(stdout(&out), "{\"a\": 1}\n{'b': 2}\n");
}

#[test]
fn extract_prints_the_located_text_untouched() {
    let out = llmjson(
        &["extract"],
        "Here:\n```json\n{'a': 1, // c\n}\n```\nbye",
        &[],
    );
    assert_eq!(stdout(&out), "{'a': 1, // c\n}\n");
}

#[test]
fn errors_exit_one_with_a_single_prefixed_message() {
    let out = llmjson(&["repair"], "", &[]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        stderr(&out),
        "llmjson: error: empty response: the input is empty or only whitespace\n"
    );
    let out = llmjson(&["repair"], "Sorry, I can't.", &[]);
    assert_eq!(stderr(&out), "llmjson: error: no JSON in the response\n");
    assert_eq!(stdout(&out), "");
}

#[test]
fn usage_errors_exit_two() {
    assert_eq!(
        llmjson(&["repair", "--level", "lenient"], "", &[])
            .status
            .code(),
        Some(2)
    );
    assert_eq!(llmjson(&["frobnicate"], "", &[]).status.code(), Some(2));
    let out = llmjson(&["repair", "/no/such/file.txt"], "", &[]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).starts_with("llmjson: cannot read /no/such/file.txt"));
    assert_eq!(
        llmjson(&["repair", "--max-removed-ratio", "2"], "", &[])
            .status
            .code(),
        Some(2)
    );
}

#[test]
fn the_kill_switch_forces_level_none() {
    let input = "{\"version\": \"1.0\", \"steps\":[1,2,], }";
    assert_eq!(llmjson(&["repair"], input, &[]).status.code(), Some(0));
    let out = llmjson(&["repair"], input, &[("LLMJSON_REPAIR", "0")]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        stderr(&out),
        "llmjson: error: trailing comma at line 1 column 32 (byte 31); not repaired at level none\n    \
         {\"version\": \"1.0\", \"steps\":[1,2,], }\n                                   ^\n"
    );
    // It overrides --level too; valid JSON still passes.
    let out = llmjson(
        &["repair", "--level", "full"],
        "{\"a\": 1}",
        &[("LLMJSON_REPAIR", "0")],
    );
    assert_eq!(out.status.code(), Some(0));
}

#[test]
fn the_shipped_examples_repair() {
    let cases = [
        ("truncated-plan.txt", "\"owner_id\",\"type\":\"uu\"}"),
        ("fenced-with-prose.md", "\"expected_output\":\"a summary\"}"),
        ("code-artifact.txt", "print(\\\"hello, world\\\")"),
        ("japanese-prose.txt", "{\"genre\":\"エンジニア\""),
        ("tool-call.txt", "\"fresh\":true"),
    ];
    for (file, needle) in cases {
        let out = llmjson(&["repair", &example(file)], "", &[]);
        assert_eq!(out.status.code(), Some(0), "{file}: {}", stderr(&out));
        assert!(stdout(&out).contains(needle), "{file}: {}", stdout(&out));
    }
}

#[test]
fn a_closed_stdout_is_not_an_error() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_llmjson"))
        .args(["repair", &example("code-artifact.txt")])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    assert!(matches!(out.status.code(), Some(0)), "{}", stderr(&out));
}

#[test]
fn repair_with_a_schema_coerces_and_logs_each_change() {
    let schema = example("plan.schema.json");
    let out = llmjson(
        &[
            "repair",
            "--schema",
            &schema,
            "--log",
            &example("plan-reply.md"),
        ],
        "",
        &[],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        "{\"objective\":\"Normalise the archive\",\"steps\":[{\"id\":\"s1\",\"tool\":\"python\",\
         \"retries\":2,\"code\":\"print(\\\"start\\\")\"},{\"id\":\"s2\",\"tool\":\"shell\",\
         \"depends_on\":[\"s1\"],\"retries\":1}]}\n"
    );
    let log = stderr(&out);
    for line in [
        "matched_enum at /steps/0/tool: \"Python\" became \"python\"",
        "coerced_number at /steps/0/retries: \"2\" became 2",
        "renamed_key at /steps/1: 'dependsOn' became 'depends_on'",
        "dropped_unknown_property at /steps/1: removed 'note', which the schema does not allow",
        "filled_default at /steps/1: added the missing 'retries' with its default 1",
    ] {
        assert!(log.contains(line), "{line} not in\n{log}");
    }
    // Coercion off: the same reply does not fit.
    let out = llmjson(
        &["repair", "--schema", &schema, "--coercion", "validate-only"],
        "{\"objective\": \"x\", \"steps\": [{\"id\": \"s1\", \"tool\": \"python\", \"retries\": \"2\"}]}",
        &[],
    );
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        stderr(&out),
        "llmjson: error: the JSON does not fit the schema (1 violation):\n  \
         /steps/0/retries: '2' is a string, not an integer\n"
    );
}

#[test]
fn validate_exits_zero_one_or_two() {
    let schema = example("plan.schema.json");
    let good = "{\"objective\": \"x\", \"steps\": [{\"id\": \"s1\", \"tool\": \"shell\", \"retries\": 0}]}";
    let out = llmjson(&["validate", "--schema", &schema], good, &[]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(stdout(&out), "");
    assert_eq!(stderr(&out), "");

    let bad = "{\"steps\": [{\"id\": \"s1\", \"tool\": \"pyhton\", \"retries\": -1}]}";
    let out = llmjson(&["validate", "--schema", &schema, "-"], bad, &[]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        stderr(&out),
        "llmjson: error: the JSON does not fit the schema (3 violations):\n  \
         (root): the required property 'objective' is missing\n  \
         /steps/0/tool: 'pyhton' is not one of 'python', 'shell', 'browser'\n  \
         /steps/0/retries: -1 is less than the minimum of 0\n"
    );

    let out = llmjson(
        &["validate", "--schema", &schema, "--errors", "json"],
        bad,
        &[],
    );
    assert_eq!(out.status.code(), Some(1));
    let lines: Vec<serde_json::Value> = stdout(&out)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 3);
    assert_eq!(lines[1]["path"], "/steps/0/tool");
    assert_eq!(lines[1]["kind"], "schema");
    assert_eq!(lines[1]["keyword"], "enum");
    assert_eq!(
        lines[1]["schema_path"],
        "/properties/steps/items/$ref/properties/tool/enum"
    );
    // Any other failure is one line too, with its kind.
    let out = llmjson(
        &["validate", "--schema", &schema, "--errors", "json"],
        "no json",
        &[],
    );
    assert_eq!(out.status.code(), Some(1));
    let line: serde_json::Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    assert_eq!(line["kind"], "no_json");
    assert_eq!(line["message"], "no JSON in the response");
    // One shape for every error: the same keys, positions as fields.
    let keys = |v: &serde_json::Value| v.as_object().unwrap().keys().cloned().collect::<Vec<_>>();
    assert_eq!(keys(&line), keys(&lines[0]));
    let out = llmjson(
        &["repair", "--level", "none", "--errors", "json"],
        "{\"a\": 1,\n \"b\": 2,}",
        &[],
    );
    let line: serde_json::Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    assert_eq!(
        (
            line["kind"].as_str(),
            line["line"].as_u64(),
            line["column"].as_u64()
        ),
        (Some("syntax"), Some(2), Some(8))
    );
    assert_eq!(keys(&line), keys(&lines[0]));
    // A usage error (exit 2) is a JSON line too.
    let out = llmjson(
        &["validate", "--schema", "/no/such.json", "--errors", "json"],
        good,
        &[],
    );
    assert_eq!(out.status.code(), Some(2));
    let line: serde_json::Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    assert_eq!(line["kind"], "usage");

    // Usage errors: no schema, an unreadable one, an invalid one.
    assert_eq!(llmjson(&["validate"], good, &[]).status.code(), Some(2));
    let out = llmjson(&["validate", "--schema", "/no/such.json"], good, &[]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).starts_with("llmjson: cannot read the schema /no/such.json"));
    let out = llmjson(
        &["validate", "--schema", &example("plan-reply.md")],
        good,
        &[],
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("invalid schema: the schema is not JSON"));
    // As a JSON line, an invalid schema has the kind it has at every door.
    let out = llmjson(
        &[
            "validate",
            "--schema",
            &example("plan-reply.md"),
            "--errors",
            "json",
        ],
        good,
        &[],
    );
    assert_eq!(out.status.code(), Some(2));
    let line: serde_json::Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    assert_eq!(line["kind"], "invalid_schema");
}

fn temp_file(name: &str, bytes: &[u8]) -> String {
    let dir = std::env::temp_dir().join(format!("llmjson-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    path.to_string_lossy().into_owned()
}

#[test]
fn verify_blocks_the_seed_answer_and_exits_one() {
    let evidence = example("ider/evidence.txt");
    let answer = example("ider/answer.txt");
    let out = llmjson(
        &[
            "verify",
            "--evidence",
            &evidence,
            "--fail-closed",
            "--language",
            "pt",
            &answer,
        ],
        "",
        &[],
    );
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.starts_with("VERIFICAÇÃO FALHOU: 2 número(s)"),
        "{text}"
    );
    assert!(text.contains("\"36,9 MPa\"") && text.contains("\"1,91 GPa\""));
}

#[test]
fn verify_exits_zero_on_a_grounded_answer_and_reports_json() {
    let evidence = example("ider/evidence.txt");
    let out = llmjson(
        &["verify", "--evidence", &evidence, "--report", "json"],
        "A variante B teve 38,2 MPa e 9,1 % de alongamento.",
        &[],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let report: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(report["verification"]["verified"], true);
    assert_eq!(report["verification"]["matched"], 2);
}

#[test]
fn verify_fails_closed_by_default_and_reports_only_when_asked() {
    let evidence = example("ider/evidence.txt");
    // Seed 004's hard rule: without flags, an ungrounded answer never reaches standard output.
    let out = llmjson(
        &["verify", "--evidence", &evidence],
        "B reached 36.9 MPa.",
        &[],
    );
    assert_eq!(out.status.code(), Some(1));
    // (The blocking message quotes about 30 characters around each unmatched number.)
    let shown = stdout(&out);
    assert!(
        shown.starts_with("VERIFICATION FAILED: 1 number(s)"),
        "{shown}"
    );
    assert!(shown.contains("The answer was blocked"), "{shown}");
    assert!(shown.contains("\"36.9 MPa\""), "{shown}");
    let out = llmjson(
        &[
            "verify",
            "--evidence",
            &evidence,
            "--report-only",
            "--diagnostics",
            "-",
        ],
        "B reached 36.9 MPa.",
        &[],
    );
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(stdout(&out), "B reached 36.9 MPa.\n");
    let err = stderr(&out);
    assert!(err.contains("not grounded: \"36.9 MPa\""), "{err}");
    let record: serde_json::Value = serde_json::from_str(err.lines().next().unwrap()).unwrap();
    assert_eq!(record["verification_unmatched"], 1);
    assert_eq!(record["fail_closed_triggered"], false);
}

#[test]
fn verify_refuses_bad_evidence_with_a_usage_error() {
    let bad = temp_file("bad-evidence.txt", b"12 \xff 3");
    let out = llmjson(&["verify", "--evidence", &bad], "12", &[]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("is not UTF-8"), "{}", stderr(&out));
    let out = llmjson(&["verify"], "12", &[]);
    assert_eq!(out.status.code(), Some(2));
    let big = temp_file("big-evidence.txt", "1 ".repeat(600).as_bytes());
    let out = llmjson(
        &["verify", "--evidence", &big, "--max-evidence", "1000"],
        "1",
        &[],
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("over the limit"), "{}", stderr(&out));
}

#[test]
fn repair_writes_a_diagnostics_record_and_fails_closed_with_evidence() {
    let evidence = temp_file("lab.csv", b"sample,mpa\nA,41.8\nB,38.2\n");
    let record = temp_file("record.json", b"");
    let out = llmjson(
        &["repair", "--evidence", &evidence, "--diagnostics", &record],
        "{'sample': 'B', 'mpa': 38.2,}",
        &[],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let d: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&record).unwrap()).unwrap();
    assert_eq!(d["outcome"], "repaired");
    assert_eq!(
        d["stages"],
        serde_json::json!(["locate", "repair", "verify"])
    );
    assert_eq!(d["verification_passed"], true);
    let out = llmjson(
        &["repair", "--evidence", &evidence, "--fail-closed"],
        "{\"sample\": \"B\", \"mpa\": 39.9}",
        &[],
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("VERIFICATION FAILED"),
        "{}",
        stderr(&out)
    );
}

/// An object whose only property is a string `version`.
const VERSION_ONLY_SCHEMA: &[u8] =
    br#"{"type": "object", "properties": {"version": {"type": "string"}},
     "additionalProperties": false}"#;

#[test]
fn validate_reports_what_is_there_without_coercing() {
    let schema = temp_file("strict.schema.json", VERSION_ONLY_SCHEMA);
    let reply = r#"{"version": 1, "extra": true}"#;
    let out = llmjson(&["validate", "--schema", &schema], reply, &[]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(
        err.contains("2 violations") && err.contains("'extra' is not allowed"),
        "{err}"
    );
    // `repair --schema` still fits by default; validate fits only when asked.
    let out = llmjson(&["repair", "--schema", &schema], reply, &[]);
    assert_eq!(stdout(&out), "{\"version\":\"1\"}\n");
    let out = llmjson(
        &["validate", "--schema", &schema, "--coercion", "fit"],
        reply,
        &[],
    );
    assert_eq!(out.status.code(), Some(0));
}

#[test]
fn flags_that_would_do_nothing_are_refused() {
    let schema = temp_file("any.schema.json", b"{}");
    for args in [
        vec!["validate", "--all", "--schema", schema.as_str()],
        vec!["extract", "--schema", schema.as_str()],
        vec!["repair", "--log-format", "json"],
        vec!["repair", "--max-depth", "2000"],
        vec!["repair", "--max-depth", "0"],
    ] {
        let out = llmjson(&args, "{\"a\": 1}", &[]);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
    }
}

#[test]
fn extract_all_prints_json_lines() {
    let out = llmjson(
        &["extract", "--all"],
        "one:\n{\n  \"a\": 1\n}\ntwo: [1,\n 2] and {'b': 2}\n",
        &[],
    );
    assert_eq!(stdout(&out), "{\"a\":1}\n[1,2]\n{'b': 2}\n");
}

#[test]
fn the_kill_switch_is_strict_mode_with_a_schema_too() {
    let schema = temp_file("kill.schema.json", VERSION_ONLY_SCHEMA);
    let reply = r#"{"version": 1, "extra": true}"#;
    let out = llmjson(&["repair", "--schema", &schema], reply, &[]);
    assert_eq!(out.status.code(), Some(0));
    let out = llmjson(
        &["repair", "--schema", &schema],
        reply,
        &[("LLMJSON_REPAIR", "0")],
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("2 violations"), "{}", stderr(&out));
}

#[test]
fn fail_on_tells_a_script_what_happened() {
    let cut = "{\"a\": [1, 2";
    let out = llmjson(&["repair", "--fail-on", "truncated"], cut, &[]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(stdout(&out), "{\"a\":[1,2]}\n");
    assert!(stderr(&out).contains("cut off"), "{}", stderr(&out));
    let out = llmjson(&["repair", "--fail-on", "truncated"], "{'a': 1}", &[]);
    assert_eq!(out.status.code(), Some(0));
    let out = llmjson(&["repair", "--fail-on", "repaired"], "{'a': 1}", &[]);
    assert_eq!(out.status.code(), Some(1));
    let out = llmjson(&["repair", "--fail-on", "repaired"], "{\"a\": 1}", &[]);
    assert_eq!(out.status.code(), Some(0));
    let out = llmjson(&["extract", "--fail-on", "repaired"], "{\"a\": 1}", &[]);
    assert_eq!(out.status.code(), Some(2));
}

/// Runs `llmjson` with `pieces` written to its standard input one at a time, a pause between
/// them, so that each arrives as its own read.
fn llmjson_slowly(args: &[&str], pieces: &[&str]) -> Output {
    let mut child = spawn(args, &[]);
    let mut stdin = child.stdin.take().unwrap();
    for piece in pieces {
        stdin.write_all(piece.as_bytes()).unwrap();
        stdin.flush().unwrap();
        std::thread::sleep(std::time::Duration::from_millis(150));
    }
    drop(stdin);
    child.wait_with_output().unwrap()
}

#[test]
fn repair_stream_prints_the_value_as_it_arrives_then_the_final_one() {
    let pieces = [
        "Sure! ```json\n{\"steps\": [{\"id\": 1, ",
        "\"title\": \"Boil water\"}, ",
        "{\"id\": 2, \"title\": \"Add pas",
        "ta\"}]}\n```\n",
    ];
    let out = llmjson_slowly(&["repair", "--stream"], &pieces);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let lines: Vec<String> = stdout(&out).lines().map(str::to_string).collect();
    let whole: String = pieces.concat();
    let one_shot = stdout(&llmjson(&["repair"], &whole, &[]));
    // The last line is `repair`'s output for the whole reply.
    assert_eq!(format!("{}\n", lines.last().unwrap()), one_shot);
    // Before it, the value grew: each line a JSON value, none printed twice in a row.
    assert!(lines.len() >= 3, "{lines:?}");
    assert_eq!(lines[0], r#"{"steps":[{"id":1}]}"#);
    for pair in lines[..lines.len() - 1].windows(2) {
        assert_ne!(pair[0], pair[1]);
    }
    for line in &lines {
        serde_json::from_str::<serde_json::Value>(line).expect("a JSON line");
    }
    // By default (--every value) a line shows complete values only: never "Add pas".
    assert!(lines.iter().all(|l| !l.contains("Add pas\"")), "{lines:?}");
}

#[test]
fn repair_stream_every_value_prints_only_what_is_complete() {
    let pieces = [
        "{\"a\": \"b",
        "b",
        "b\", \"n\": [1, 2",
        "3, 4], \"c\": \"d\"}",
    ];
    let out = llmjson_slowly(&["repair", "--stream"], &pieces);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert!(
        !text.contains("\"bb\""),
        "a string still being written: {lines:?}"
    );
    assert!(
        !text.contains("[1,2]"),
        "a number still being written (23): {lines:?}"
    );
    assert_eq!(lines.last(), Some(&r#"{"a":"bbb","n":[1,23,4],"c":"d"}"#));
    // Each line before the last holds complete values only: each is a prefix of the final
    // value's members.
    for line in &lines {
        let value: serde_json::Value = serde_json::from_str(line).expect("a JSON line");
        if let Some(a) = value.get("a") {
            assert_eq!(a, "bbb", "{lines:?}");
        }
    }
}

#[test]
fn repair_stream_every_line_and_chunk_and_the_policies() {
    let pieces = ["{\"a\": [1,\n", "2]\n", ", \"b\": tr"];
    let out = llmjson_slowly(&["repair", "--stream", "--every", "line", "--log"], &pieces);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        stdout(&out),
        "{\"a\":[1]}\n{\"a\":[1,2]}\n{\"a\":[1,2],\"b\":true}\n"
    );
    assert!(
        stderr(&out).contains("completed_truncated_value"),
        "{}",
        stderr(&out)
    );

    let out = llmjson_slowly(
        &[
            "repair",
            "--stream",
            "--every",
            "chunk",
            "--fail-on",
            "truncated",
            "--truncation",
            "drop",
        ],
        &["{\"a\": 1, \"b\": \"x"],
    );
    assert_eq!(out.status.code(), Some(1));
    // The value so far (the cut string dropped), then the final value (the same).
    assert_eq!(stdout(&out), "{\"a\":1}\n{\"a\":1}\n");
    // --every needs --stream; --stream refuses --pretty and --all.
    for args in [
        &["repair", "--every", "chunk"][..],
        &["repair", "--stream", "--pretty"][..],
        &["repair", "--stream", "--all"][..],
    ] {
        assert_eq!(llmjson(args, "{}", &[]).status.code(), Some(2), "{args:?}");
    }
}

#[test]
fn repair_stream_records_chunks_and_refuses_what_one_shot_refuses() {
    let out = llmjson_slowly(
        &["repair", "--stream", "--diagnostics", "-"],
        &["[1, ", "2]"],
    );
    assert_eq!(out.status.code(), Some(0));
    let record: serde_json::Value =
        serde_json::from_str(stderr(&out).trim()).expect("one JSON record");
    assert_eq!(record["stream_chunks"], 2);
    assert!(record["stream_first_value_ms"].as_f64().is_some());
    assert_eq!(record["outcome"], "ok");

    let out = llmjson(&["repair", "--stream"], "no json here", &[]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        stderr(&out),
        stderr(&llmjson(&["repair"], "no json here", &[]))
    );
    let deep = "[".repeat(300);
    let out = llmjson(&["repair", "--stream"], &deep, &[]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("nesting deeper than"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn latex_written_with_one_backslash_reads_as_latex_unless_no_latex() {
    let reply = r#"{"answer": "$\frac{a}{b} + \beta$", "table": "Name\tScore"}"#;
    let out = llmjson(&["repair", "--log"], reply, &[]);
    assert_eq!(
        stdout(&out).trim(),
        r#"{"answer":"$\\frac{a}{b} + \\beta$","table":"Name\tScore"}"#
    );
    assert!(stderr(&out).contains("latex_escape"), "{}", stderr(&out));
    let rfc = llmjson(&["repair", "--no-latex"], reply, &[]);
    assert_eq!(
        stdout(&rfc).trim(),
        r#"{"answer":"$\u000crac{a}{b} + \u0008eta$","table":"Name\tScore"}"#
    );
    // The kill switch is level none: RFC 8259's reading too.
    let strict = llmjson(&["repair"], reply, &[("LLMJSON_REPAIR", "0")]);
    assert_eq!(stdout(&strict), stdout(&rfc));
}

/// A reply listing `n` records in a fence, those at `bad` without their required `name`.
fn records_reply(n: usize, bad: &[usize]) -> String {
    let records: Vec<String> = (0..n)
        .map(|i| {
            if bad.contains(&i) {
                format!("{{\"id\": {i}}}")
            } else {
                format!("{{\"id\": {i}, \"name\": \"record {i}\"}}")
            }
        })
        .collect();
    format!(
        "The records:\n```json\n{{\"records\": [\n  {}\n]}}\n```",
        records.join(",\n  ")
    )
}

const RECORDS_SCHEMA: &str = r#"{"type": "object", "properties": {"records": {"type": "array",
    "items": {"type": "object", "required": ["id", "name"],
              "properties": {"id": {"type": "integer"}, "name": {"type": "string"}}}}}}"#;

#[test]
fn invalid_items_drop_returns_the_valid_records_and_names_the_others() {
    let dir = std::env::temp_dir().join(format!("llmjson-cli-drop-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let schema = dir.join("records.schema.json");
    std::fs::write(&schema, RECORDS_SCHEMA).unwrap();
    let schema = schema.to_str().unwrap();
    let reply = records_reply(100, &[3, 41, 99]);
    // The default stays fail-closed: no value, every violation named.
    let refused = llmjson(&["repair", "--schema", schema], &reply, &[]);
    assert_eq!(refused.status.code(), Some(1), "{}", stderr(&refused));
    assert!(stdout(&refused).is_empty());
    assert!(
        stderr(&refused).contains("3 violations"),
        "{}",
        stderr(&refused)
    );
    let out = llmjson(
        &[
            "repair",
            "--schema",
            schema,
            "--invalid-items",
            "drop",
            "--log",
            "--diagnostics",
            "-",
        ],
        &reply,
        &[],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let value: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    let ids: Vec<u64> = value["records"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["id"].as_u64().unwrap())
        .collect();
    assert_eq!(ids.len(), 97);
    assert!(!ids.contains(&3) && !ids.contains(&41) && !ids.contains(&99));
    let log = stderr(&out);
    for (line, index) in [(7, 3), (45, 41), (103, 99)] {
        let entry = format!(
            "{line}:3 dropped_invalid_item at /records/{index}: left out: the required property 'name' is missing"
        );
        assert!(log.contains(&entry), "{entry}\n{log}");
    }
    let record: serde_json::Value = log
        .lines()
        .find_map(|l| serde_json::from_str(l).ok())
        .expect("the diagnostics record");
    let dropped = record["dropped_items"].as_array().unwrap();
    assert_eq!(dropped.len(), 3);
    assert_eq!(dropped[1]["path"], "/records/41");
    let span = &dropped[1]["span"];
    let (start, end) = (
        span["start"].as_u64().unwrap() as usize,
        span["end"].as_u64().unwrap() as usize,
    );
    assert_eq!(&reply[start..end], "{\"id\": 41}");
    assert_eq!(record["outcome"], "repaired");
    // Mostly invalid: still refused.
    let mostly = records_reply(10, &[0, 1, 2, 3, 4, 5, 6]);
    let out = llmjson(
        &["repair", "--schema", schema, "--invalid-items", "drop"],
        &mostly,
        &[],
    );
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    // And in a batch, record by record.
    let lines: String = [records_reply(20, &[5]), records_reply(20, &[])]
        .iter()
        .enumerate()
        .map(|(i, r)| format!("{}\n", serde_json::json!({"id": i, "reply": r})))
        .collect();
    let out = llmjson(
        &["batch", "--schema", schema, "--invalid-items", "drop"],
        &lines,
        &[],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let results: Vec<serde_json::Value> = stdout(&out)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(
        results[0]["diagnostics"]["dropped_items"][0]["path"],
        "/records/5"
    );
    assert_eq!(results[0]["value"]["records"].as_array().unwrap().len(), 19);
    assert_eq!(
        results[1]["diagnostics"]["dropped_items"],
        serde_json::json!([])
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_percentage_is_its_fraction_unless_kept_apart_and_the_old_flag_says_it_is_gone() {
    let dir = std::env::temp_dir().join(format!("llmjson-cli-percent-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let evidence = dir.join("evidence.txt");
    std::fs::write(&evidence, "Return rate: 0.07").unwrap();
    let evidence = evidence.to_str().unwrap();
    let out = llmjson(&["verify", "--evidence", evidence], "Returns were 7%.", &[]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    let out = llmjson(
        &["verify", "--evidence", evidence, "--percent-distinct"],
        "Returns were 7%.",
        &[],
    );
    assert_eq!(out.status.code(), Some(1));
    let out = llmjson(
        &["verify", "--evidence", evidence, "--percent-fraction"],
        "Returns were 7%.",
        &[],
    );
    assert_eq!(out.status.code(), Some(0));
    assert!(
        stderr(&out).contains("--percent-fraction is deprecated"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn bytes_that_are_not_utf8_are_replaced_and_said_or_refused_with_strict_utf8() {
    let reply = b"Here: {\"name\": \"Jos\xe9\", \"city\": \"S\xe3o Paulo\"}";
    // repair: replaced, logged, and said on standard error even without --log.
    let out = llmjson_bytes(&["repair"], reply);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        stdout(&out),
        "{\"name\":\"Jos\u{fffd}\",\"city\":\"S\u{fffd}o Paulo\"}\n"
    );
    assert!(
        stderr(&out).contains("not UTF-8 (line 1, column 20)"),
        "{}",
        stderr(&out)
    );
    // extract prints the reply's own bytes, untouched.
    let out = llmjson_bytes(&["extract"], reply);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        out.stdout,
        b"{\"name\": \"Jos\xe9\", \"city\": \"S\xe3o Paulo\"}\n"
    );
    assert!(stderr(&out).contains("not UTF-8"), "{}", stderr(&out));
    // --strict-utf8 refuses, with where.
    for command in ["repair", "extract"] {
        let out = llmjson_bytes(&[command, "--strict-utf8"], reply);
        assert_eq!(out.status.code(), Some(1), "{command}");
        assert!(out.stdout.is_empty(), "{command}");
        assert!(
            stderr(&out).contains("not valid UTF-8 at byte 19"),
            "{}",
            stderr(&out)
        );
    }
    // The same outcome in a batch of files, in its record and its diagnostics.
    let file = temp_file("latin1.txt", reply);
    let out = llmjson(&["batch", "--input-format", "text", &file], "", &[]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let line: serde_json::Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    assert_eq!(line["outcome"], "repaired");
    assert_eq!(line["diagnostics"]["outcome"], "repaired");
    assert_eq!(line["repairs"][0]["kind"], "invalid_utf8");
}

#[test]
fn every_non_zero_exit_says_why_on_standard_error() {
    let evidence = temp_file("why-evidence.txt", b"Revenue was 4817 units.");
    let cases: [(&[&str], &str); 4] = [
        (&["repair"], "no json here"),
        (&["repair"], ""),
        (
            &["verify", "--evidence", &evidence],
            "Revenue was 9999 units.",
        ),
        (&["batch"], "{\"response\": \"[1]\"}\n"),
    ];
    for (args, input) in cases {
        let out = llmjson(args, input, &[]);
        assert_ne!(out.status.code(), Some(0), "{args:?}");
        let err = stderr(&out);
        assert!(err.starts_with("llmjson: "), "{args:?}: {err:?}");
    }
    // A record without the reply field names the flag that names it.
    let out = llmjson(&["batch"], "{\"response\": \"[1]\"}\n", &[]);
    assert!(stdout(&out).contains("--reply-field"), "{}", stdout(&out));
}
