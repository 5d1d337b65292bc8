"""Runs one Python peer over cases read as JSON Lines on stdin; writes one result per line.

Input lines: {"id", "input", "strict"}; output lines: {"id", "ok", "output"} or {"id", "ok": false,
"error"}. "strict" asks for the peer's strict mode where it has one (json_repair's strict=True).
"""
import json
import sys

tool = sys.argv[1]
if tool == "json_repair":
    import json_repair

    def repair(text, strict):
        return json_repair.repair_json(text, strict=strict)
elif tool == "fast_json_repair":
    import fast_json_repair

    def repair(text, strict):
        return fast_json_repair.repair_json(text)
else:
    sys.exit(f"unknown tool {tool}")

for line in sys.stdin:
    case = json.loads(line)
    try:
        out = repair(case["input"], case["strict"])
        # Both peers return "" when they find nothing to repair into.
        if not isinstance(out, str) or out == "":
            result = {"id": case["id"], "ok": False, "error": "empty result"}
        else:
            result = {"id": case["id"], "ok": True, "output": out}
    except Exception as e:  # noqa: BLE001 - any failure of the peer is its answer
        result = {"id": case["id"], "ok": False, "error": f"{type(e).__name__}: {e}"}
    sys.stdout.write(json.dumps(result) + "\n")
