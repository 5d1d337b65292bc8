"""Times one Python peer on the benchmark inputs; prints JSON Lines like bench/peers-rs.

    python python_bench.py TOOL DIR      (TOOL: json_repair | fast_json_repair | llmjson)

Best of several rounds per input; a speed counts only where the value equals the expected one.
Sizes whose single run exceeds the budget are skipped for larger inputs of the same family.
"""
import json
import sys
import time
from pathlib import Path

tool, directory = sys.argv[1], Path(sys.argv[2])
if tool == "json_repair":
    import json_repair as peer
elif tool == "llmjson":
    import llmjson as peer  # the drop-in: llmjson.loads, conversion to Python objects included

    tool = "llmjson.loads (Python)"
else:
    import fast_json_repair as peer

BUDGET_SECONDS = 5.0
SIZES = ["1KB", "64KB", "1MB", "10MB"]


def loads(text):
    try:
        return peer.loads(text)
    except Exception:  # noqa: BLE001 - a failure is an answer
        return None


for family in ["valid", "broken", "all-faults"]:
    for size in SIZES:
        name = f"{family}-{size}"
        text = (directory / f"{name}.txt").read_text(encoding="utf-8")
        expected = json.loads((directory / f"{name}.expected.json").read_text(encoding="utf-8"))
        rounds = 20 if size in ("1KB", "64KB") else 3
        best, value = float("inf"), None
        for _ in range(rounds):
            start = time.perf_counter()
            value = loads(text)
            best = min(best, time.perf_counter() - start)
            if best > BUDGET_SECONDS:
                break
        print(json.dumps({"tool": tool, "input": name, "bytes": len(text.encode()), "seconds": best,
                          "correct": value == expected}), flush=True)
        if best > BUDGET_SECONDS:
            break

cases = [json.loads(line) for line in (directory / "replies.jsonl").read_text(encoding="utf-8").splitlines()]
times = [float("inf")] * len(cases)
correct = 0
for round_ in range(3):
    for i, case in enumerate(cases):
        start = time.perf_counter()
        value = loads(case["input"])
        times[i] = min(times[i], time.perf_counter() - start)
        if round_ == 0 and value == case["expected"]:
            correct += 1
times.sort()
print(json.dumps({"tool": tool, "input": "replies", "median": times[len(times) // 2],
                  "p99": times[len(times) * 99 // 100], "correct": correct, "count": len(cases)}), flush=True)
