#!/usr/bin/env python3
"""The import graph of crates/llmjson/src, checked: which files import which (`use` declarations
and paths through `crate::`, `super::`, `self::` or a child module, re-exports followed to the
file that defines the name; a file's own `#[cfg(test)]` module aside).

Two rules (issue 41): no two files import each other, and `locate/` imports nothing from
`pipeline/` or `repair/`. The check prints each breach and fails if there is one.

    python3 scripts/check_imports.py
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "crates" / "llmjson" / "src"

Module = tuple[str, ...]


def module_of(path: Path) -> Module:
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    if parts[-1] in ("mod", "lib"):
        parts = parts[:-1]
    return tuple(parts)


FILES: dict[Module, Path] = {module_of(p): p for p in sorted(SRC.rglob("*.rs"))}


def strip(text: str) -> str:
    text = re.sub(r"//[^\n]*", "", text)
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    text = re.sub(r"'(?:\\.|[^'\\\n])'", "' '", text)
    return re.sub(r'"(?:\\.|[^"\\])*"', '""', text)


def without_tests(text: str) -> str:
    out, i = [], 0
    for m in re.finditer(r"#\[cfg\(test\)\]\s*(?:#\[[^\]]*\]\s*)*mod\s+\w+\s*\{", text):
        if m.start() < i:
            continue
        out.append(text[i : m.start()])
        depth, j = 1, m.end()
        while j < len(text) and depth:
            depth += {"{": 1, "}": -1}.get(text[j], 0)
            j += 1
        i = j
    out.append(text[i:])
    return "".join(out)


def expand(tree: str) -> list[str]:
    """`a::{b, c::{d, e as f}}` -> ['a::b', 'a::c::d', 'a::c::e as f']"""
    tree = re.sub(r"\s+", " ", tree).strip()
    m = re.match(r"^(.*?)\{(.*)\}$", tree, flags=re.S)
    if not m:
        return [tree]
    prefix, inner = m.group(1).replace(" ", ""), m.group(2)
    parts, depth, cur = [], 0, ""
    for ch in inner:
        if ch == "," and depth == 0:
            parts.append(cur)
            cur = ""
            continue
        depth += {"{": 1, "}": -1}.get(ch, 0)
        cur += ch
    parts.append(cur)
    return [prefix + e for p in parts if p.strip() for e in expand(p.strip())]


TEXTS = {m: without_tests(strip(p.read_text(encoding="utf-8"))) for m, p in FILES.items()}
USES = {m: [u for s in re.findall(r"\buse\s+([^;]+);", t) for u in expand(s)] for m, t in TEXTS.items()}


def absolute(mod: Module, path: str) -> list[str] | None:
    segs = [s for s in path.split("::") if s]
    if not segs:
        return None
    if segs[0] == "crate":
        return segs[1:]
    base = list(mod)
    if segs[0] in ("super", "self"):
        while segs and segs[0] in ("super", "self"):
            if segs[0] == "super":
                base = base[:-1]
            segs = segs[1:]
        return base + segs
    if tuple(base + segs[:1]) in FILES:
        return base + segs
    return None


def reexport(mod: Module, name: str) -> list[str] | None:
    """Where a `pub use` in `mod` takes `name` from."""
    for use in USES.get(mod, []):
        target, _, alias = use.partition(" as ")
        last = (alias or target.split("::")[-1]).strip()
        if last == name and "::" in target:
            return absolute(mod, target.strip())
    return None


def resolve(mod: Module, path: str, depth: int = 0) -> Module | None:
    full = absolute(mod, path.split(" as ")[0].strip())
    if full is None:
        return None
    for k in range(len(full), -1, -1):
        owner = tuple(full[:k])
        if owner not in FILES:
            continue
        # A name the owner re-exports (`pub use x::Name`): follow it to the file defining it.
        via = reexport(owner, full[k]) if k < len(full) and depth < 8 else None
        if via is not None and via + full[k + 1 :] != full:
            inner = resolve(owner, "crate::" + "::".join(via + full[k + 1 :]), depth + 1)
            if inner is not None:
                return inner
        return owner
    return None


def imports(mod: Module) -> set[Module]:
    found: set[Module] = set()
    text = TEXTS[mod]
    paths = list(USES[mod])
    paths += re.findall(r"(?<![:\w])((?:crate|super|self)(?:::\w+)+)", text)
    for path in paths:
        target = resolve(mod, path)
        if target is not None and target != mod:
            found.add(target)
    return found


def name(mod: Module) -> str:
    return str(FILES[mod].relative_to(SRC))


def breaches() -> list[str]:
    graph = {m: imports(m) for m in FILES}
    out = set()
    for a, targets in graph.items():
        for b in targets:
            if a in graph.get(b, ()):
                x, y = sorted((name(a), name(b)))
                out.add(f"mutual {x} {y}")
            if a[:1] == ("locate",) and b[:1] in (("pipeline",), ("repair",)):
                out.add(f"locate {name(a)} {name(b)}")
    return sorted(out)


def main() -> None:
    found = breaches()
    for b in found:
        print(f"breach: {b}")
    print(f"import check: {len(FILES)} files, {len(found)} breaches")
    sys.exit(1 if found else 0)


if __name__ == "__main__":
    main()
