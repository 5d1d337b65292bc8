"""llmjson.loads against the standard library's json.loads on the valid benchmark documents, in
one process (the issue's target: a valid reply loads at least as fast as json.loads).

    target/py-venv/bin/python scripts/py_loads_vs_json.py   (after scripts/bench.py made the inputs)
"""
import json
import time
from pathlib import Path

import llmjson

INPUTS = Path(__file__).resolve().parent.parent / "target" / "bench-inputs"


def best(f, text, rounds):
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        f(text)
        times.append(time.perf_counter() - start)
    return min(times)


print("| input | json.loads | llmjson.loads | ratio |")
print("|---|---:|---:|---:|")
for size in ["1KB", "64KB", "1MB", "10MB"]:
    text = (INPUTS / f"valid-{size}.txt").read_text(encoding="utf-8")
    assert llmjson.loads(text) == json.loads(text)
    rounds = 2000 if size == "1KB" else 50 if size == "64KB" else 5
    stdlib, ours = best(json.loads, text, rounds), best(llmjson.loads, text, rounds)
    print(f"| valid-{size} | {stdlib * 1e6:.1f} µs | {ours * 1e6:.1f} µs | {ours / stdlib:.2f}× |")
