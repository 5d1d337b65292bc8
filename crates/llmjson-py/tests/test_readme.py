"""Every ```python block of the README runs as written (they carry their own asserts), but for
those marked ``<!-- readme-check: skip REASON -->`` (a Spark cluster, a network), as
scripts/readme_check.py also skips them."""

import re
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[3] / "README.md"
BLOCKS = [
    block
    for mark, block in re.findall(
        r"(<!-- readme-check: [^>]*-->\n)?```python\n(.*?)```", README.read_text(encoding="utf-8"), flags=re.S
    )
    if not mark.startswith("<!-- readme-check: skip")
]


def test_the_readme_has_python_examples():
    assert len(BLOCKS) >= 3


@pytest.mark.parametrize("block", BLOCKS, ids=[f"block{i}" for i in range(len(BLOCKS))])
def test_readme_block_runs(block, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    exec(compile(block, str(README), "exec"), {"__name__": "readme"})
