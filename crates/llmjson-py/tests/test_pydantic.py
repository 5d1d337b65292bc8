"""Pydantic v2 models: guided repair from the model's JSON Schema, a model instance back, and
Pydantic's own errors as JSONSchemaError with paths."""

from enum import Enum

import pytest
from pydantic import BaseModel, ConfigDict, field_validator

import llmjson


class Tool(str, Enum):
    python = "python"
    shell = "shell"
    browser = "browser"


class Step(BaseModel):
    model_config = ConfigDict(extra="forbid")
    id: str
    tool: Tool
    depends_on: list[str] = []
    retries: int = 1


class Plan(BaseModel):
    model_config = ConfigDict(extra="forbid")
    objective: str
    steps: list[Step]

    @field_validator("steps")
    @classmethod
    def not_empty(cls, steps: list[Step]) -> list[Step]:
        if not steps:
            raise ValueError("a plan needs at least one step")
        return steps


REPLY = """Sure! Here is the plan:
```json
{
  "objective": "Normalise the archive",
  "steps": [
    {"id": "s1", "tool": "Python", "retries": "2"},
    {"id": "s2", "tool": "SHELL", "dependsOn": "s1", "note": "after s1"},
  ]
"""


def test_a_model_guides_repair_and_comes_back_as_an_instance():
    result = llmjson.parse(REPLY, model=Plan)
    plan = result.value
    assert isinstance(plan, Plan)
    assert plan.steps[0].tool is Tool.python and plan.steps[0].retries == 2
    assert plan.steps[1].depends_on == ["s1"]
    kinds = {r.kind for r in result.repairs}
    assert {"matched_enum", "coerced_number", "renamed_key", "wrapped_single_value",
            "dropped_unknown_property", "closed_truncated_object"} <= kinds
    assert result.diagnostics["stages"][-1] == "model"


def test_schema_violations_and_model_errors_have_paths():
    with pytest.raises(llmjson.JSONSchemaError) as err:
        llmjson.parse('{"objective": "x", "steps": [{"id": "s1", "tool": "perl"}]}', model=Plan)
    assert [v.path for v in err.value.errors] == ["/steps/0/tool"]
    assert "'perl' is not one of" in err.value.errors[0].message

    # A validator only Pydantic knows: its error, as ours, with the path.
    with pytest.raises(llmjson.JSONSchemaError) as err:
        llmjson.parse('{"objective": "x", "steps": []}', model=Plan)
    assert [v.path for v in err.value.errors] == ["/steps"]
    assert "at least one step" in err.value.errors[0].message
    assert err.value.diagnostics["failed_stage"] == "model"
    assert err.value.feedback.startswith("Your JSON does not match the required schema:\n- /steps:")


def test_nested_lists_of_models_and_enums():
    class Matrix(BaseModel):
        rows: list[list[Tool]]

    result = llmjson.parse("{rows: [['Python', 'shell'], ['BROWSER']]}", model=Matrix)
    assert result.value.rows == [[Tool.python, Tool.shell], [Tool.browser]]


def test_json_repair_style_calls_take_a_model_as_schema():
    assert llmjson.loads("{objective: 'x', steps: [{id: 'a', tool: 'shell'}]}", schema=Plan) == {
        "objective": "x",
        "steps": [{"id": "a", "tool": "shell"}],
    }
