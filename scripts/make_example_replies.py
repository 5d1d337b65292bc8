#!/usr/bin/env python3
"""Writes examples/replies.jsonl: 300 replies as a team logs them, one JSON Lines record each
(`id`, `model`, `reply`). About half are valid JSON (bare, fenced, or with a sentence around
it), a third carry the fault generator's faults, and the rest are what else comes back: an
empty reply, a refusal, a reply cut off by the token limit. Deterministic (fixed seeds); run
once, the output is committed:

    cargo build --release -p llmjson-faults && python3 scripts/make_example_replies.py

`--count N --out FILE` writes a larger set of the same mix (the batch benchmark's input).
"""

import argparse
import json
import random
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
parser = argparse.ArgumentParser()
parser.add_argument("--count", type=int, default=300)
parser.add_argument("--out", type=Path, default=ROOT / "examples/replies.jsonl")
args = parser.parse_args()
COUNT = args.count

cases = [
    json.loads(line)
    for line in subprocess.run(
        [str(ROOT / "target/release/llmjson-faults"), "--seed", "2026", "--count", str(COUNT)],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.splitlines()
]
rng = random.Random(2026)
records = []
for i, case in enumerate(cases):
    valid = json.dumps(case["expected"], ensure_ascii=False, indent=rng.choice([None, 2]))
    roll = rng.random()
    if roll < 0.30:
        reply = valid
    elif roll < 0.42:
        reply = f"```json\n{valid}\n```"
    elif roll < 0.50:
        reply = f"Here is the result:\n\n{valid}\n\nLet me know if you need anything else."
    elif roll < 0.88:
        reply = case["input"]
    elif roll < 0.92:
        reply = valid[: max(1, int(len(valid) * rng.uniform(0.5, 0.95)))]
    elif roll < 0.96:
        reply = rng.choice(
            [
                "I'm sorry, but I can't help with that request.",
                "I don't have enough information to produce the JSON you asked for.",
            ]
        )
    else:
        reply = rng.choice(["", "   \n"])
    records.append(
        {"id": f"req-{i + 1:04d}", "model": rng.choice(["model-a", "model-b"]), "reply": reply}
    )
args.out.write_text(
    "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), encoding="utf-8"
)
print(f"wrote {len(records)} records to {args.out}")
