"""The fast meta-schema shortcut never calls a schema valid that jsonschema rejects."""

from __future__ import annotations

from typing import Any

import jsonschema
from hypothesis import given, settings
from hypothesis import strategies as st

from catalogaudit.rules.spec.schema_fast import certainly_valid

KEYS = st.sampled_from(
    [
        "type",
        "properties",
        "required",
        "items",
        "enum",
        "minimum",
        "maxLength",
        "pattern",
        "anyOf",
        "additionalProperties",
        "$ref",
        "description",
        "default",
        "multipleOf",
        "x-vendor",
        "format",
        "not",
        "$defs",
        "uniqueItems",
        "minItems",
        "exclusiveMinimum",
    ]
)
VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-3, 3)
    | st.floats(-2, 2, allow_nan=False)
    | st.sampled_from(
        ["string", "object", "integer", "nope", "#/$defs/a", "http://x", "[a-", "^a$", ""]
    ),
    lambda c: st.lists(c, max_size=3) | st.dictionaries(KEYS | st.text(max_size=3), c, max_size=3),
    max_leaves=12,
)


@settings(max_examples=600)
@given(st.dictionaries(KEYS, VALUES, max_size=5))
def test_fast_valid_implies_jsonschema_valid(schema: dict[str, Any]) -> None:
    if certainly_valid(schema):
        jsonschema.Draft7Validator.check_schema(schema)
        jsonschema.Draft202012Validator.check_schema(schema)


def test_common_schemas_take_the_fast_path() -> None:
    tool = {
        "type": "object",
        "properties": {
            "q": {"type": "string", "description": "query", "minLength": 1, "pattern": "^a"},
            "n": {"type": ["integer", "null"], "minimum": 0, "default": 3},
            "tags": {"type": "array", "items": {"type": "string", "enum": ["a", "b"]}},
            "ref": {"$ref": "#/$defs/R"},
        },
        "required": ["q"],
        "additionalProperties": False,
        "$defs": {"R": {"type": "object"}},
        "x-mcp-header": "Q",
    }
    assert certainly_valid(tool)


def test_doubtful_schemas_fall_back() -> None:
    for schema in (
        {"type": "object", "required": True},
        {"type": "strin"},
        {"items": [{"type": "string"}]},
        {"pattern": "[a-"},
        {"minLength": 1.0},
        {"$ref": "http://example.com/s.json"},
        {"if": {}},
    ):
        assert not certainly_valid(schema), schema
