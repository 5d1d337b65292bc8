#!/usr/bin/env python3
"""The import graph of crates/llmjson/src, checked against the declared layer order.

Which file imports which: `use` declarations (braced groups expanded, `self` in a group meaning the
module) and paths through `crate::`, `super::`, `self::` or a child module in the code, each
followed through the `pub use` re-exports of the modules on its way (the crate root's included)
to the file that defines the name; a file's own `#[cfg(test)]` modules aside. The text is read as
Rust is: comments (nested block comments too), strings, raw strings, byte strings and character
literals are blanked before anything is matched, so that `"https://…"` does not hide the rest
of its line.

The rules (issue 61; ARCHITECTURE.md, "Layers"):
- the crate's top-level modules sit in LAYERS, lowest first: a file may import from its own
  module or from a lower layer, never from a higher one or from another module of its layer;
- no cycle of files, of any length;
- `locate/` imports nothing from `pipeline/` or `repair/` (issue 41).
An import that breaks a rule today and is listed in scripts/import_debts.txt is reported as a
debt, not a failure; one listed there that no longer exists fails too, so that the list only
shrinks (`--write-debts` rewrites it). Each cycle is printed with the path that closes it.

    python3 scripts/check_imports.py [--write-debts] [--graph]
"""

from __future__ import annotations

import re
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "crates" / "llmjson" / "src"
DEBTS = ROOT / "scripts" / "import_debts.txt"

#: The core's top-level modules, lowest layer first; modules in one tuple share a layer (and may
#: not import each other). `lib` (the crate root) re-exports everything and sits on top.
LAYERS: list[tuple[str, ...]] = [
    ("limits", "position"),
    ("policy", "verdict"),
    ("spelling",),
    ("value",),
    ("error",),
    ("locate",),
    ("repair",),
    ("settings",),
    ("parsed",),
    ("pipeline",),
    ("schema",),
    ("verify",),
    ("options",),
    ("api",),
    ("stream",),
    ("diagnostics", "metrics", "retry"),
    ("lib",),
]

Module = tuple[str, ...]


def module_of(path: Path, src: Path = SRC) -> Module:
    parts = list(path.relative_to(src).with_suffix("").parts)
    if parts[-1] in ("mod", "lib"):
        parts = parts[:-1]
    return tuple(parts)


def blank(text: str) -> str:
    """`text` with every comment, string and character literal replaced by spaces (newlines
    kept, so that line numbers hold)."""
    out = list(text)
    n, i = len(text), 0

    def clear(start: int, end: int) -> None:
        for k in range(start, min(end, n)):
            if out[k] != "\n":
                out[k] = " "

    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            clear(i, j)
            i = j
        elif text.startswith("/*", i):
            depth, j = 1, i + 2
            while j < n and depth:
                if text.startswith("/*", j):
                    depth, j = depth + 1, j + 2
                elif text.startswith("*/", j):
                    depth, j = depth - 1, j + 2
                else:
                    j += 1
            clear(i, j)
            i = j
        elif (m := re.match(r'(?:b|c)?r(#*)"', text[i : i + 300])) and not _ident_before(text, i):
            close = '"' + m.group(1)
            j = text.find(close, i + m.end())
            j = n if j < 0 else j + len(close)
            clear(i, j)
            i = j
        elif c == '"' or (c in "bc" and text.startswith('"', i + 1) and not _ident_before(text, i)):
            j = i + (1 if c == '"' else 2)
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            clear(i, j + 1)
            i = j + 1
        elif c == "'" or (c == "b" and text.startswith("'", i + 1) and not _ident_before(text, i)):
            q = i if c == "'" else i + 1
            if text.startswith("\\", q + 1):
                j = text.find("'", q + 3 if text.startswith("\\'", q + 1) else q + 2)
                j = n if j < 0 else j
                clear(i, j + 1)
                i = j + 1
            elif q + 2 < n and text[q + 2] == "'" and text[q + 1] != "'":
                clear(i, q + 3)
                i = q + 3
            else:  # a lifetime or a label: `'a`
                i = q + 1
        else:
            i += 1
    return "".join(out)


def _ident_before(text: str, i: int) -> bool:
    """Whether the character before `i` continues an identifier (`br"` inside `abr"` is not a
    literal's prefix)."""
    return i > 0 and (text[i - 1].isalnum() or text[i - 1] == "_")


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
        out.append("\n" * text.count("\n", m.start(), j))
        i = j
    out.append(text[i:])
    return "".join(out)


def expand(tree: str) -> list[str]:
    """`a::{self, b, c::{d, e as f}}` -> ['a', 'a::b', 'a::c::d', 'a::c::e as f']"""
    tree = re.sub(r"\s+", " ", tree).strip()
    m = re.match(r"^(.*?)\{(.*)\}$", tree, flags=re.S)
    if not m:
        return [re.sub(r"::self\b", "", tree)]
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
    return [e for p in parts if p.strip() for e in expand(prefix + p.strip())]


class Crate:
    def __init__(self, src: Path):
        files = {module_of(p, src): p for p in sorted(src.rglob("*.rs"))}
        blanked = {m: blank(p.read_text(encoding="utf-8")) for m, p in files.items()}
        # Files that are a `#[cfg(test)] mod name;` of their parent are tests too.
        tests = {
            m + (name,)
            for m, text in blanked.items()
            for name in re.findall(r"#\[cfg\(test\)\]\s*(?:#\[[^\]]*\]\s*)*mod\s+(\w+)\s*;", text)
        }
        self.files = {m: p for m, p in files.items() if not any(m[: len(t)] == t for t in tests)}
        self.src = src
        self.texts = {m: without_tests(blanked[m]) for m in self.files}
        self.uses: dict[Module, list[tuple[str, int]]] = {}
        for m, text in self.texts.items():
            found = []
            for statement in re.finditer(r"\buse\s+([^;]+);", text):
                line = text.count("\n", 0, statement.start()) + 1
                found += [(u, line) for u in expand(statement.group(1))]
            self.uses[m] = found

    def name(self, mod: Module) -> str:
        return str(self.files[mod].relative_to(self.src))

    def absolute(self, mod: Module, path: str) -> list[str] | None:
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
        if tuple(base + segs[:1]) in self.files:
            return base + segs
        return None

    def reexport(self, mod: Module, name: str) -> list[str] | None:
        """Where a `use` in `mod` takes `name` from (a `pub use` re-export, or a name it
        imported and a child reaches through `super::`)."""
        for use, _ in self.uses.get(mod, []):
            target, _, alias = use.partition(" as ")
            last = (alias or target.split("::")[-1]).strip()
            if last == name and "::" in target:
                return self.absolute(mod, target.strip())
        return None

    def resolve(self, mod: Module, path: str, depth: int = 0) -> Module | None:
        full = self.absolute(mod, path.split(" as ")[0].strip())
        if full is None:
            return None
        for k in range(len(full), -1, -1):
            owner = tuple(full[:k])
            if owner not in self.files:
                continue
            via = self.reexport(owner, full[k]) if k < len(full) and depth < 12 else None
            if via is not None and via + full[k + 1 :] != full:
                inner = self.resolve(owner, "crate::" + "::".join(via + full[k + 1 :]), depth + 1)
                if inner is not None:
                    return inner
            return owner
        return None

    def imports(self, mod: Module) -> dict[Module, int]:
        """The files `mod` imports, each with the first line that does."""
        found: dict[Module, int] = {}
        # The paths in the code, `use` declarations aside (read whole above: the inline pattern
        # would take `crate::a` of `use crate::a::{b, c}` for an import of `a` itself).
        text = re.sub(r"\buse\s+[^;]+;", lambda m: re.sub(r"[^\n]", " ", m.group(0)), self.texts[mod])
        paths = list(self.uses[mod])
        # `crate::…`, `super::…`, `self::…`, and a path through a child module (`lane::budget`
        # in `parser/mod.rs`): `absolute` drops any other head (a type, a local, a crate).
        for m in re.finditer(r"(?<![:\w])((?:[A-Za-z_]\w*)(?:::\w+)+)", text):
            paths.append((m.group(1), text.count("\n", 0, m.start()) + 1))
        for path, line in paths:
            target = self.resolve(mod, path)
            if target is not None and target != mod and target not in found:
                found[target] = line
        return found


def top(mod: Module) -> str:
    return mod[0] if mod else "lib"


def layer_of(module: str) -> int | None:
    for i, layer in enumerate(LAYERS):
        if module in layer:
            return i
    return None


def cycles(graph: dict[Module, set[Module]]) -> list[tuple[int, list[Module]]]:
    """One cycle through each strongly connected component of more than one node (Tarjan's
    algorithm, iterative): the component's size, and the shortest path from its first node back
    to it."""
    index: dict[Module, int] = {}
    low: dict[Module, int] = {}
    on_stack: set[Module] = set()
    stack: list[Module] = []
    components: list[list[Module]] = []
    counter = 0
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    components.append(sorted(component))
    out = []
    for component in components:
        members = set(component)
        start = component[0]
        # The shortest way back to `start` from one of its successors, inside the component.
        paths = {n: [start, n] for n in sorted(graph[start] & members)}
        frontier = list(paths)
        while start not in paths and frontier:
            nxt = []
            for n in frontier:
                for m in sorted(graph.get(n, set()) & members):
                    if m not in paths:
                        paths[m] = paths[n] + [m]
                        nxt.append(m)
            frontier = nxt
        out.append((len(component), paths.get(start, component)))
    return out


def findings(crate: Crate) -> tuple[list[str], dict[Module, dict[Module, int]]]:
    graph = {m: crate.imports(m) for m in crate.files}
    found = set()
    for a, targets in graph.items():
        for b, line in targets.items():
            ta, tb = top(a), top(b)
            la, lb = layer_of(ta), layer_of(tb)
            where = f"{crate.name(a)}:{line} -> {crate.name(b)}"
            if ta != tb and (la is None or lb is None or lb >= la):
                why = "same layer" if la == lb else "up a layer"
                found.add(f"layer ({why}: {ta} -> {tb}) {where}")
            if ta == "locate" and tb in ("pipeline", "repair"):
                found.add(f"locate {where}")
    edges = {m: set(t) for m, t in graph.items()}
    for size, cycle in cycles(edges):
        found.add(f"cycle of {size} files, through " + " -> ".join(crate.name(m) for m in cycle))
    return sorted(found), graph


def key(finding: str) -> str:
    """A finding without its line number (a debt stays the same debt when lines move)."""
    return re.sub(r":\d+ ->", " ->", finding)


def self_test() -> None:
    """The reader's own cases: what it must blank and what it must keep."""
    sample = (
        'let url = "https://example.com"; use crate::a;\n'
        "/* outer /* inner */ still comment use crate::b; */ use crate::c;\n"
        'let raw = r#"use crate::d; "quoted" "#; let ch = \'"\'; let q = \'\\\'\'; use crate::e;\n'
        "fn f<'a>(x: &'a str) -> &'a str { x } // use crate::g;\n"
        "let b = b'x'; let s = br\"use crate::h;\"; let e = '\\u{1F600}'; use crate::i;\n"
    )
    kept = re.findall(r"use crate::(\w)", blank(sample))
    assert kept == ["a", "c", "e", "i"], kept
    assert blank(sample).count("\n") == sample.count("\n")
    assert expand("a::{self, b, c::{d, e as f}}") == ["a", "a::b", "a::c::d", "a::c::e as f"]
    graph = {("a",): {("b",)}, ("b",): {("c",)}, ("c",): {("a",)}, ("d",): {("a",)}}
    assert cycles(graph) == [(3, [("a",), ("b",), ("c",), ("a",)])]
    # A parent and its child file that use each other: the child through `super::`, the parent
    # by a path through the child's name (no `use`); a type's path (`Vec::new`) is no import.
    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / "p").mkdir()
        (Path(tmp) / "lib.rs").write_text("mod p;\n")
        (Path(tmp) / "p" / "mod.rs").write_text("mod kid;\npub struct S;\nfn f() { kid::g(); Vec::<u8>::new(); }\n")
        (Path(tmp) / "p" / "kid.rs").write_text("use super::S;\npub fn g() {}\n")
        found, _ = findings(Crate(Path(tmp)))
        assert found == ["cycle of 2 files, through p/mod.rs -> p/kid.rs -> p/mod.rs"], found


def main() -> None:
    self_test()
    crate = Crate(SRC)
    unknown = [m for m in {top(m) for m in crate.files} if layer_of(m) is None]
    found, graph = findings(crate)
    if "--graph" in sys.argv:
        modules: dict[str, set[str]] = {}
        for a, targets in graph.items():
            for b in targets:
                if top(a) != top(b):
                    modules.setdefault(top(a), set()).add(top(b))
        for a in sorted(modules):
            print(f"{a} -> {', '.join(sorted(modules[a]))}")
    if "--write-debts" in sys.argv:
        DEBTS.write_text(
            "# Imports that break scripts/check_imports.py's rules today (issue 61): each is paid by\n"
            "# removing it, and then its line (the check fails on a line that no longer holds).\n"
            + "".join(key(f) + "\n" for f in found)
        )
    debts = {line.strip() for line in DEBTS.read_text().splitlines() if line.strip() and not line.startswith("#")}
    new = [f for f in found if key(f) not in debts]
    paid = sorted(debts - {key(f) for f in found})
    for m in sorted(unknown):
        print(f"breach: module {m} has no place in LAYERS")
    for f in new:
        print(f"breach: {f}")
    for d in paid:
        print(f"breach: paid but still listed in {DEBTS.name} (remove the line): {d}")
    owed = len(found) - len(new)
    print(f"import check: {len(crate.files)} files, {len(new) + len(paid) + len(unknown)} breaches, {owed} debts listed")
    sys.exit(1 if new or paid or unknown else 0)


if __name__ == "__main__":
    main()
