"""What a streaming UI costs in Python (issue 59): a reply — a list of 64 KB plans — fed in
256-byte chunks with ``snapshot()`` read after every chunk, against one ``llmjson.parse`` of the
whole reply (best of 3, same run), at 16 KB, 256 KB and 1 MB.

    python3 scripts/bench_stream_snapshots.py [CHUNK]

Needs the llmjson package installed (``pip install ./crates/llmjson-py``); with jsonmend installed
(``pip install jsonmend``, a pure-Python incremental mender whose value is a live view extended in
place), its ``Mender.feed`` after every chunk is the peer column. Prints a markdown table.
"""

from __future__ import annotations

import json
import sys
import time

import llmjson

STEP = {
    "id": "s12",
    "title": "Normalise the 日本語 documents",
    "tool": "python",
    "depends_on": ["s10", "s11"],
    "params": {"retries": 3, "timeout_s": 12.5, "dry_run": False, "owner": None},
    "code": 'def run(doc):\n    if doc.get("lang") == "ja":\n        return normalise(doc["body"])\n    return doc\n',
    "expected_output": 'a list of {"path", "title"} records',
}


def plan(size: int) -> dict:
    one = len(json.dumps(STEP, ensure_ascii=False)) + 2
    return {"objective": "Migrate the archive", "steps": [STEP] * max(1, (size - 256) // one)}


def reply(size: int) -> str:
    one = json.dumps(plan(min(size, 64 << 10)), ensure_ascii=False)
    return "[" + ",\n".join([one] * max(1, size // len(one))) + "]"


def best(f, runs: int = 3) -> float:
    out = float("inf")
    for _ in range(runs):
        started = time.perf_counter()
        f()
        out = min(out, time.perf_counter() - started)
    return out


def streamed(text: str, chunk: int, read: str) -> None:
    """Feeds ``text`` in ``chunk``-character pieces; after each reads nothing (events on, as by
    default), the snapshot, the value kept in place (``live``), or the events."""
    parser = llmjson.StreamParser(events=read not in ("snapshot", "live"))
    for at in range(0, len(text), chunk):
        parser.feed(text[at : at + chunk])
        if read == "snapshot":
            parser.snapshot()
        elif read == "live":
            parser.live()
        elif read == "events":
            parser.events()
    parser.finish()


def mended(text: str, chunk: int) -> None:
    import jsonmend

    mender = jsonmend.Mender()
    for at in range(0, len(text), chunk):
        mender.feed(text[at : at + chunk])
    mender.close()


def main() -> None:
    chunk = int(sys.argv[1]) if len(sys.argv) > 1 else 256
    try:
        import jsonmend

        peer = f"jsonmend {getattr(jsonmend, '__version__', '?')} `Mender.feed` every chunk"
    except ImportError:
        peer = None
    head = (
        f"| reply, {chunk} B chunks | one-shot `parse` | feed only | feed + `events()` every chunk "
        "| feed + `snapshot()` every chunk | ratio | feed + `live()` every chunk |"
    )
    print(head + (f" {peer} |" if peer else ""))
    print("|---|---:|---:|---:|---:|---:|---:|" + ("---:|" if peer else ""))
    for size in (16 << 10, 256 << 10, 1 << 20):
        text = reply(size)
        one_shot = best(lambda: llmjson.parse(text))
        fed = best(lambda: streamed(text, chunk, ""))
        events = best(lambda: streamed(text, chunk, "events"))
        read = best(lambda: streamed(text, chunk, "snapshot"))
        live = best(lambda: streamed(text, chunk, "live"))
        row = (
            f"| {len(text.encode()) >> 10} KB | {one_shot * 1e3:.2f} ms | {fed / one_shot:.2f}× | "
            f"{events / one_shot:.2f}× | {read * 1e3:.1f} ms | **{read / one_shot:.2f}×** | "
            f"{live * 1e3:.1f} ms ({live / one_shot:.2f}×) |"
        )
        if peer:
            other = best(lambda: mended(text, chunk))
            row += f" {other * 1e3:.1f} ms ({other / one_shot:.2f}×) |"
        print(row)


if __name__ == "__main__":
    main()
