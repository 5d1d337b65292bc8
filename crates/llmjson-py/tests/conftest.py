import pytest

import llmjson


@pytest.fixture(autouse=True)
def _fresh_metrics_and_env(monkeypatch):
    """Each test starts with zeroed counters and without the kill switch."""
    monkeypatch.delenv("LLMJSON_REPAIR", raising=False)
    llmjson.metrics.reset()
    yield
