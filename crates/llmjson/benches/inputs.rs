//! Inputs shared by the benchmarks and `examples/scaling.rs`: LLM-plan-like documents (nested
//! objects, unicode, code in strings), valid and broken, at any size; and small broken replies.

// Each bench binary uses part of these inputs.
#![allow(dead_code)]

/// One plan step, valid JSON, with unicode and code in a string.
const STEP: &str = r#"{"id": "s12", "title": "Normalise the 日本語 documents", "tool": "python", "depends_on": ["s10", "s11"], "params": {"retries": 3, "timeout_s": 12.5, "dry_run": false, "owner": null}, "code": "def run(doc):\n    if doc.get(\"lang\") == \"ja\":\n        return normalise(doc[\"body\"])\n    return doc\n", "expected_output": "a list of {\"path\", \"title\"} records"}"#;

/// The same step with the common faults: unquoted keys, single quotes, a comment, Python
/// literals, trailing commas.
const STEP_BROKEN: &str = r#"{id: "s12", 'title': 'Normalise the 日本語 documents', "tool": "python", // runs in the sandbox
 "depends_on": ["s10", "s11",], "params": {"retries": 3, "timeout_s": 12.5, "dry_run": False, "owner": None,}, "code": "def run(doc):\n    if doc.get(\"lang\") == \"ja\":\n        return normalise(doc[\"body\"])\n    return doc\n", "expected_output": "a list of {\"path\", \"title\"} records",}"#;

/// A step with everything at once: smart quotes, unescaped quotes in code, raw newlines, a
/// missing comma, trailing commas, a comment holding quotes, and strings as Python's `repr`
/// writes them (single quotes around code and JSON with `"` unescaped, `\'` and `\\` escapes).
const STEP_ALL: &str = "{“id”: “s12”, title: 'Normalise the 日本語 documents', \"tool\": \"python\" \"depends_on\": [\"s10\" \"s11\",], /* the \"params\" apply to every run */ \"params\": {\"retries\": 3, \"dry_run\": False,}, 'snippet': 'print(\"x\")\\n', 'payload': 'payload = \\'{\"a\": 1}\\'', \"code\": \"def run(doc):\n    if doc.get(\"lang\") == \"ja\":\n        return normalise(doc[\"body\"])\n\", 'path': 'C:\\\\Users\\\\me', \"sql\": \"INSERT INTO events (doc) VALUES ('{\"id\": 7, \"tags\": [\"a\", \"b\"]}');\", \"ok\": True,}";

/// What `STEP_ALL` means, as valid JSON: the expected value of the all-faults family.
const STEP_ALL_VALID: &str = r#"{"id": "s12", "title": "Normalise the 日本語 documents", "tool": "python", "depends_on": ["s10", "s11"], "params": {"retries": 3, "dry_run": false}, "snippet": "print(\"x\")\n", "payload": "payload = '{\"a\": 1}'", "code": "def run(doc):\n    if doc.get(\"lang\") == \"ja\":\n        return normalise(doc[\"body\"])\n", "path": "C:\\Users\\me", "sql": "INSERT INTO events (doc) VALUES ('{\"id\": 7, \"tags\": [\"a\", \"b\"]}');", "ok": true}"#;

/// How many steps make a plan of about `size` bytes, its wrapping included: a "10 MB" input
/// stays within the default 10 MiB size limit.
fn steps_for(step: &str, size: usize) -> usize {
    (size.saturating_sub(256) / (step.len() + 2)).max(1)
}

fn plan(step: &str, size: usize) -> String {
    let n = steps_for(step, size);
    let mut out = String::with_capacity(size + 64);
    out.push_str("{\"objective\": \"Migrate the archive\", \"steps\": [");
    for i in 0..n {
        if i > 0 {
            out.push_str(",\n");
        }
        out.push_str(step);
    }
    out.push_str("]}");
    out
}

/// A valid plan of about `size` bytes.
pub fn valid(size: usize) -> String {
    plan(STEP, size)
}

/// The valid plan with the common faults in every step.
pub fn broken(size: usize) -> String {
    plan(STEP_BROKEN, size)
}

/// Every fault at once, inside prose and a fence (cut short of its closing brackets).
pub fn broken_all(size: usize) -> String {
    let mut doc = plan(STEP_ALL, size);
    doc.truncate(doc.len() - 2);
    format!("Sure! Here is the plan:\n```json\n{doc}\n```\nLet me know if you need changes.")
}

/// The valid JSON that `broken_all(size)` stands for.
pub fn broken_all_expected(size: usize) -> String {
    // Same number of steps as `broken_all`: sized by the broken step's length.
    let n = steps_for(STEP_ALL, size);
    let steps = vec![STEP_ALL_VALID; n].join(",\n");
    format!("{{\"objective\": \"Migrate the archive\", \"steps\": [{steps}]}}")
}

/// The valid JSON that `broken(size)` stands for.
pub fn broken_expected(size: usize) -> String {
    let n = steps_for(STEP_BROKEN, size);
    let steps = vec![STEP; n].join(",\n");
    format!("{{\"objective\": \"Migrate the archive\", \"steps\": [{steps}]}}")
}

/// `count` small broken replies of 0.5–4 KB, in a fixed pseudo-random mix of faults and sizes.
pub fn small_replies(count: usize) -> Vec<String> {
    small_replies_with_expected(count)
        .into_iter()
        .map(|(reply, _)| reply)
        .collect()
}

/// The small replies, each with the valid JSON it stands for.
pub fn small_replies_with_expected(count: usize) -> Vec<(String, String)> {
    let mut state = 0x2545_f491_4f6c_dd1du64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    (0..count)
        .map(|_| {
            let size = 512 + (next() % 3584) as usize;
            match next() % 3 {
                0 => (broken(size), broken_expected(size)),
                1 => (broken_all(size), broken_all_expected(size)),
                _ => (
                    format!("Here you go:\n{}\nThanks!", broken(size)),
                    broken_expected(size),
                ),
            }
        })
        .collect()
}
