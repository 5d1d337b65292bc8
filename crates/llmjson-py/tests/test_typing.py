"""The native module's stub matches it (mypy.stubtest), and the package type-checks strictly."""

import subprocess
import sys
from pathlib import Path

import llmjson

PACKAGE = Path(llmjson.__file__).parent


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", *args], capture_output=True, text=True)


def test_the_stub_matches_the_native_module():
    result = run("mypy.stubtest", "llmjson._llmjson")
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_package_is_typed_and_passes_mypy_strict():
    assert (PACKAGE / "py.typed").exists()
    result = run("mypy", "--strict", "--no-incremental", "-p", "llmjson")
    assert result.returncode == 0, result.stdout + result.stderr


def test_a_model_types_the_result(tmp_path):
    # `parse(text, model=P)` is a `ParseResult[P]` to a type checker: `.value` is a `P`.
    snippet = tmp_path / "uses_model.py"
    snippet.write_text(
        "import llmjson\n"
        "from pydantic import BaseModel\n"
        "class Plan(BaseModel):\n"
        "    steps: list[str]\n"
        "result = llmjson.parse('{\"steps\": []}', model=Plan)\n"
        "reveal_type(result.value)\n"
        "steps: list[str] = result.value.steps\n"
    )
    out = run("mypy", "--strict", "--no-incremental", str(snippet))
    assert 'Revealed type is "uses_model.Plan"' in out.stdout, out.stdout + out.stderr
