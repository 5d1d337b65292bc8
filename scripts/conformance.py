#!/usr/bin/env python3
"""Scores llmjson and its peers on the shared corpora and on the fault generator's cases, by the
same rules; writes docs/conformance.md.

    python3 scripts/conformance.py [--corpora ../shared/corpora] [--out docs/conformance.md]
                                   [--fault-seed 20261123] [--fault-count N]

Installs the peers into target/peers/ (PyPI json-repair and fast-json-repair in a virtualenv, npm
jsonrepair), builds the llmjson CLI, runs every tool on every case, and judges every answer with
the same function:

- JSONTestSuite: `y` passes when the tool's value equals Python's json.loads of the input, `n`
  passes when the tool refuses the input; `i` and the transform cases are implementation-defined
  and not scored. Cases run with the tool's strict mode where it has one (llmjson --level none,
  json_repair strict=True).
- seeds and jsonrepair: `must_fail` passes when the tool refuses; otherwise the tool's value must
  equal the expected value (numbers compared by value). llmjson gets the case's options (level,
  truncation, max_removed_ratio); the peers have no such options and run with their defaults.
- faults: the generator's cases (crates/llmjson-faults, the seed the Rust scoreboard asserts): the
  value must equal the document before the faults. Cases of the `truncation` class are read with
  llmjson's `--truncation drop` (the peers have no such policy and keep what they complete). A
  per-class table counts every case holding the class, alone or with others.
- BAML cases carry a JSON Schema of their target type; llmjson gets it (--schema), the peers
  (which take no schema) are scored on their answer to the raw reply. Not scored: schemas with
  BAML-only extensions (x-baml-*), BAML's streaming mode (partial), cases without an expectation.

"Refuses" means: an error, or (json_repair, fast-json-repair) an empty result.
Standard library only; needs Python 3.11, pip, Node.js with npm, and cargo.
"""

from __future__ import annotations

import argparse
import base64
import datetime
import json
import math
import os
import subprocess
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PEERS = ROOT / "target" / "peers"
TOOLS = ["llmjson", "llmjson (no schema)", "json_repair", "fast_json_repair", "jsonrepair"]
CORPORA = ["seeds", "jsonrepair", "jsontestsuite", "baml"]
# The fault generator's cases, scored like a corpus (made by `llmjson-faults`, not read from disk).
FAULTS = "faults"


def sh(*args: str, **kw) -> subprocess.CompletedProcess:
    return subprocess.run(args, check=True, **kw)


def install_peers() -> dict[str, str]:
    """Installs the peers once; returns their versions."""
    venv = PEERS / "venv"
    if not (venv / "bin" / "python").exists():
        sh(sys.executable, "-m", "venv", str(venv))
    py = str(venv / "bin" / "python")
    sh(py, "-m", "pip", "install", "-q", "--disable-pip-version-check", "json-repair", "fast-json-repair")
    if not (PEERS / "node_modules" / "jsonrepair").exists():
        sh("npm", "install", "--silent", "--no-audit", "--no-fund", "--prefix", str(PEERS), "jsonrepair")
    versions = {}
    for pkg in ["json-repair", "fast-json-repair"]:
        out = subprocess.run([py, "-m", "pip", "show", pkg], capture_output=True, text=True).stdout
        versions[pkg] = next((l.split(": ")[1] for l in out.splitlines() if l.startswith("Version")), "?")
    pkg_json = json.loads((PEERS / "node_modules" / "jsonrepair" / "package.json").read_text())
    versions["jsonrepair"] = pkg_json["version"]
    return versions


def load_cases(corpora: Path) -> list[dict]:
    cases = []
    for name in CORPORA:
        for line in (corpora / f"{name}.jsonl").read_text(encoding="utf-8").splitlines():
            if not line.strip():
                continue
            row = json.loads(line)
            if row.get("input") is not None:
                raw = row["input"].encode("utf-8")
            else:
                raw = base64.b64decode(row.get("input_b64") or "")
            row["raw"] = raw
            row["corpus"] = name
            cases.append(row)
    return cases


def load_fault_cases(seed: int, count: int) -> list[dict]:
    """The generator's cases for `seed`, as corpus rows."""
    out = subprocess.run(
        ["cargo", "run", "-q", "--release", "-p", "llmjson-faults", "--", "--seed", str(seed)]
        + ([] if count is None else ["--count", str(count)]),
        cwd=ROOT, capture_output=True, text=True, check=True,
    ).stdout
    cases = []
    for line in out.split("\n"):
        if not line.strip():
            continue
        row = json.loads(line)
        cases.append({
            "id": f"faults/{row['id']}",
            "corpus": FAULTS,
            "category": row["faults"][0],
            "faults": row["faults"],
            "raw": row["input"].encode("utf-8"),
            "expected_is_json": True,
            "expected_value": row["expected"],
            "options": row.get("options") or {},
        })
    return cases


def applicable(case: dict) -> bool:
    opts = case.get("options") or {}
    if opts.get("schema") is not None:
        # BAML: scored where JSON Schema can say what is wanted (no x-baml-* extensions), outside
        # BAML's streaming mode (partial values: a later stage), and where there is an expectation.
        return (
            not opts.get("partial")
            and "x-baml-" not in json.dumps(opts["schema"])
            and (case.get("expected_is_json") or case.get("must_fail"))
        )
    if case["corpus"] == "jsontestsuite" and case["category"] not in ("y", "n"):
        return False
    return True


def strict(case: dict) -> bool:
    opts = case.get("options") or {}
    return bool(opts.get("strict")) or opts.get("level") == "none"


def run_llmjson(cases: list[dict], use_schema: bool = True) -> dict[str, dict]:
    sh("cargo", "build", "-q", "--release", "-p", "llmjson-cli", cwd=ROOT)
    exe = str(ROOT / "target" / "release" / "llmjson")
    results = {}
    env = {k: v for k, v in os.environ.items() if k != "LLMJSON_REPAIR"}
    schema_dir = Path(tempfile.mkdtemp(prefix="llmjson-schemas-"))
    for n, case in enumerate(cases):
        opts = case.get("options") or {}
        args = [exe, "repair"]
        if use_schema and opts.get("schema") is not None:
            schema_file = schema_dir / f"{n}.json"
            schema_file.write_text(json.dumps(opts["schema"]), encoding="utf-8")
            args += ["--schema", str(schema_file)]
        if strict(case):
            args += ["--level", "none"]
        elif opts.get("level"):
            args += ["--level", opts["level"]]
        if opts.get("truncation"):
            args += ["--truncation", opts["truncation"]]
        if opts.get("max_removed_ratio") is not None:
            args += ["--max-removed-ratio", str(opts["max_removed_ratio"])]
        p = subprocess.run(args, input=case["raw"], capture_output=True, env=env)
        if p.returncode == 0:
            results[case["id"]] = {"ok": True, "output": p.stdout.decode("utf-8")}
        else:
            results[case["id"]] = {"ok": False, "error": p.stderr.decode("utf-8", "replace").strip()}
    return results


def run_batch(command: list[str], cases: list[dict]) -> dict[str, dict]:
    lines = "".join(
        json.dumps({"id": c["id"], "input": c["raw"].decode("utf-8", "replace"), "strict": strict(c)}) + "\n"
        for c in cases
    )
    p = subprocess.run(command, input=lines, capture_output=True, text=True, check=True)
    # Split on "\n" only: str.splitlines() also splits on U+2028, which JSON.stringify leaves raw.
    return {r["id"]: r for r in map(json.loads, filter(None, p.stdout.split("\n")))}


def same(a, b) -> bool:
    """Values equal; numbers by value; a bool is never a number."""
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
            return True
        return a == b or float(a) == float(b)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    return type(a) is type(b) and a == b


def judge(case: dict, result: dict | None) -> bool:
    """The one rule every tool is scored by."""
    if result is None:
        return False
    refused = not result.get("ok")
    value = None
    if not refused:
        try:
            value = json.loads(result["output"])
        except (json.JSONDecodeError, TypeError):
            return False  # output that is not JSON is a failure, whatever was expected
    if case["corpus"] == "jsontestsuite":
        if case["category"] == "n":
            return refused
        try:
            expected = json.loads(case["raw"].decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError):
            return False
        return not refused and same(value, expected)
    if case.get("must_fail"):
        return refused
    if refused:
        return False
    if case.get("expected_is_json"):
        return same(value, case.get("expected_value"))
    return True


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--corpora", default=os.environ.get("LLMJSON_CORPORA", str(ROOT.parent / "shared" / "corpora")))
    ap.add_argument("--out", default=str(ROOT / "docs" / "conformance.md"))
    ap.add_argument("--fault-seed", type=int, default=20261123)
    ap.add_argument("--fault-count", type=int, default=None,
                    help="default: the scoreboard's fixed set")
    args = ap.parse_args()

    versions = install_peers()
    cases = load_cases(Path(args.corpora)) + load_fault_cases(args.fault_seed, args.fault_count)
    scored = [c for c in cases if applicable(c)]
    py = str(PEERS / "venv" / "bin" / "python")
    runner = str(ROOT / "scripts" / "peers" / "python_runner.py")
    with_schema = [c for c in scored if (c.get("options") or {}).get("schema") is not None]
    guided = run_llmjson(scored)
    # What the schema stage adds: the same CLI, the schema withheld (the same run elsewhere).
    unguided = {**guided, **run_llmjson(with_schema, use_schema=False)}
    results = {
        "llmjson": guided,
        "llmjson (no schema)": unguided,
        "json_repair": run_batch([py, runner, "json_repair"], scored),
        "fast_json_repair": run_batch([py, runner, "fast_json_repair"], scored),
        "jsonrepair": run_batch(["node", str(ROOT / "scripts" / "peers" / "jsonrepair_runner.js"), str(PEERS)], scored),
    }

    passed = {t: defaultdict(int) for t in TOOLS}
    totals = defaultdict(int)
    by_category = defaultdict(lambda: defaultdict(int))
    cat_totals = defaultdict(int)
    for c in scored:
        key = c["corpus"]
        totals[key] += 1
        cat = (c["corpus"], c["category"])
        cat_totals[cat] += 1
        for tool in TOOLS:
            if judge(c, results[tool].get(c["id"])):
                passed[tool][key] += 1
                by_category[tool][cat] += 1
    not_applicable = defaultdict(int)
    for c in cases:
        if not applicable(c):
            not_applicable[c["corpus"]] += 1

    def cell(n: int, d: int) -> str:
        return f"{n}/{d} ({100 * n / d:.1f}%)" if d else "—"

    head = "| corpus | cases scored | " + " | ".join(TOOLS) + " |"
    rule = "|---|---:|" + "---:|" * len(TOOLS)
    lines = [
        "# Conformance",
        "",
        "llmjson and its peers, scored by the same rules on the same cases: the shared corpora",
        "(`../shared/corpora`), read in place, and the fault generator's cases (`faults`: everyday",
        "model faults, alone and combined, that no corpus was tuned on). Generated by:",
        "",
        "```sh",
        "python3 scripts/conformance.py",
        "```",
        "",
        f"Run on {datetime.date.today().isoformat()}. Peers: json-repair {versions['json-repair']} and "
        f"fast-json-repair {versions['fast-json-repair']} (PyPI), jsonrepair {versions['jsonrepair']} (npm).",
        "",
        head,
        rule,
    ]
    all_n = defaultdict(int)
    all_d = 0
    for corpus in CORPORA + [FAULTS]:
        d = totals[corpus]
        if not d:
            lines.append(f"| {corpus} | 0 ({not_applicable[corpus]} not yet applicable) | " + " | ".join("—" for _ in TOOLS) + " |")
            continue
        all_d += d
        for t in TOOLS:
            all_n[t] += passed[t][corpus]
        lines.append(f"| {corpus} | {d} | " + " | ".join(cell(passed[t][corpus], d) for t in TOOLS) + " |")
    lines.append(f"| **all** | {all_d} | " + " | ".join(f"**{cell(all_n[t], all_d)}**" for t in TOOLS) + " |")
    lines += [
        "",
        "## By category",
        "",
        "| corpus / category | cases | " + " | ".join(TOOLS) + " |",
        "|---|---:|" + "---:|" * len(TOOLS),
    ]
    for cat in sorted(cat_totals):
        if cat[0] == FAULTS:
            continue
        d = cat_totals[cat]
        lines.append(f"| {cat[0]} / {cat[1]} | {d} | " + " | ".join(cell(by_category[t][cat], d) for t in TOOLS) + " |")
    # The generator's classes: every case holding the class, alone or combined.
    fault_tools = [t for t in TOOLS if t != "llmjson (no schema)"]
    n_faults = sum(1 for c in cases if c["corpus"] == FAULTS)
    class_n = {t: defaultdict(int) for t in fault_tools}
    class_d = defaultdict(int)
    for c in scored:
        if c["corpus"] != FAULTS:
            continue
        for f in c["faults"]:
            class_d[f] += 1
            for t in fault_tools:
                class_n[t][f] += judge(c, results[t].get(c["id"]))
    lines += [
        "",
        f"## Fault generator, by class (seed {args.fault_seed}, {n_faults} cases)",
        "",
        "Every case holding the class, alone or with one or two others. Generated with",
        "`cargo run -p llmjson-faults -- --seed N`; the Rust scoreboard asserts the same seed",
        "(`cargo test -p llmjson --test it fault_scoreboard`).",
        "",
        "| class | cases | " + " | ".join(fault_tools) + " |",
        "|---|---:|" + "---:|" * len(fault_tools),
    ]
    # In the generator's order of classes (case i is made for class i mod the number of classes).
    order = list(dict.fromkeys(c["category"] for c in scored if c["corpus"] == FAULTS))
    order += [f for f in class_d if f not in order]
    for f in order:
        d = class_d[f]
        lines.append(f"| {f} | {d} | " + " | ".join(cell(class_n[t][f], d) for t in fault_tools) + " |")
    lines += [
        "",
        "## Rules",
        "",
        "- JSONTestSuite: `y` passes when the value equals Python's `json.loads` of the input; `n` passes",
        "  when the tool refuses the input (an error, or an empty result). `i` and transform cases are",
        "  implementation-defined and not scored. Tools run in their strict mode where they have one",
        "  (`llmjson --level none`, `json_repair(strict=True)`); the others have none.",
        "- seeds and jsonrepair: `must_fail` passes when the tool refuses; otherwise the value must equal",
        "  the expected value, numbers compared by value. llmjson gets each case's options (`level`,",
        "  `truncation`, `max_removed_ratio`); the peers have no such options and use their defaults.",
        "- Output that is not valid JSON fails the case.",
        "- faults: the value must equal the document before the faults. `truncation` cases are read",
        "  with llmjson's `--truncation drop` (the peers have no such policy: they keep what they",
        "  complete, and fail those cases); `truncation_complete` cases expect the completion.",
        "- BAML cases carry a JSON Schema of their target type: llmjson gets it (`--schema`); the",
        "  \"llmjson (no schema)\" column is the same CLI without it (what schema guidance adds); the peers",
        "  cannot take a schema and are scored on what they return for the raw reply. Not scored "
        f"({not_applicable['baml']}): schemas with BAML-only",
        "  extensions (`x-baml-*`: aliases, checks), BAML's streaming mode (`partial`), and cases",
        "  without an expected value.",
        "- llmjson's own failures are each explained in",
        "  `crates/llmjson/tests/conformance/expected_failures.txt` (conventions we chose on purpose:",
        "  prose is not JSON, a dangling key is dropped, the first of several objects wins, ...).",
        "",
    ]
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text("\n".join(lines), encoding="utf-8")
    print("\n".join(lines[13 : 14 + len(CORPORA) + 3]))
    print(f"written to {args.out}")


if __name__ == "__main__":
    main()
