"""parse_with_retries and its async twin, with a scripted fake model."""

import asyncio

import pytest
from pydantic import BaseModel

import llmjson
from llmjson.retry import RetriesExhausted


class Step(BaseModel):
    id: str
    tool: str


class Fake:
    def __init__(self, *replies):
        self.replies = list(replies)
        self.feedback = []

    def __call__(self, feedback):
        self.feedback.append(feedback)
        return self.replies.pop(0)


SCHEMA = {
    "type": "object",
    "properties": {"id": {"type": "string"}, "tool": {"enum": ["python", "shell"]}},
    "required": ["id", "tool"],
}


def test_success_on_the_second_attempt_with_specific_feedback():
    model = Fake('{"id": "s1", "tool": "perl"}', '{"id": "s1", "tool": "shell"}')
    result = llmjson.parse_with_retries(model, schema=SCHEMA)
    assert result.value == {"id": "s1", "tool": "shell"}
    assert result.diagnostics["attempts"] == 2
    assert model.feedback[0] is None
    assert model.feedback[1] == (
        "Attempt 1 of 3 failed. Your JSON does not match the required schema:\n"
        "- /tool: 'perl' is not one of 'python', 'shell'\n"
        "Reply with the corrected JSON only."
    )
    assert llmjson.metrics.snapshot()["retry"] == 1


def test_feedback_never_repeats_and_the_budget_is_kept():
    model = Fake("no json", "still none", '{"id": 1}', "x")
    with pytest.raises(RetriesExhausted) as err:
        llmjson.parse_with_retries(model, schema=SCHEMA, max_retries=2)
    assert len(model.feedback) == 3, "1 + max_retries attempts"
    sent = [f for f in model.feedback if f]
    assert len(set(sent)) == len(sent)
    assert sent[1].endswith("(The previous attempt failed the same way.)")
    exhausted = err.value
    assert exhausted.last_reply == '{"id": 1}'
    assert [e.kind for e in exhausted.errors] == ["no_json", "no_json", "schema"]
    assert isinstance(exhausted, llmjson.LLMJSONError)


def test_truncation_gets_token_limit_advice():
    model = Fake('{"id": "s1", "to', '{"id": "s1", "tool": "python"}')
    result = llmjson.parse_with_retries(model, schema=SCHEMA)
    assert result.value["tool"] == "python"
    assert "cut off" in model.feedback[1]
    assert "does not match" not in model.feedback[1]


def test_the_caller_can_say_the_model_hit_its_limit():
    model = Fake(('{"id": "s1"}', True), '{"id": "s1", "tool": "python"}')
    with pytest.raises(RetriesExhausted) as err:
        llmjson.parse_with_retries(model, schema=SCHEMA, max_retries=0)
    assert err.value.advice and "raise the limit" in err.value.advice
    assert "cut off" in err.value.attempts[0].feedback


def test_models_work_with_retries():
    model = Fake("{id: 's1'}", "{id: 's1', tool: 'shell'}")
    result = llmjson.parse_with_retries(model, model=Step)
    assert isinstance(result.value, Step)


def test_async_twin():
    replies = ['{"id": "s1", "tool": "ruby"}', '{"id": "s1", "tool": "python"}']
    seen = []

    async def generate(feedback):
        seen.append(feedback)
        await asyncio.sleep(0)
        return replies.pop(0)

    result = asyncio.run(llmjson.parse_with_retries_async(generate, schema=SCHEMA))
    assert result.value["tool"] == "python"
    assert seen[0] is None and "'ruby' is not one of" in seen[1]
