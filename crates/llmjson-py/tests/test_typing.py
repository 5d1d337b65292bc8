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
