"""The fast check never calls valid what jsonschema rejects (CA610, the snapshot schema)."""

from __future__ import annotations

import json
from typing import Any

import jsonschema
import pytest
from helpers import fixture
from hypothesis import example, given, settings
from hypothesis import strategies as st

from catalogaudit.model import jsonwire
from catalogaudit.model.valid_fast import certainly_valid
from catalogaudit.rules.spec.common import REVISIONS
from catalogaudit.rules.spec.pages import RESULT_TYPES, result_schema

SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(-3, 3)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.sampled_from(
        [
            "",
            "a",
            "object",
            "string",
            "x",
            "#/$defs/a",
            "uri",
            "ttl",
            "^a",
            "[",
            "b$",
            "https://x/s.json",
        ]
    )
)
JSON = st.recursive(
    SCALARS,
    lambda c: (
        st.lists(c, max_size=3)
        | st.dictionaries(st.sampled_from(["a", "b", "name", "type", "x"]), c, max_size=3)
    ),
    max_leaves=10,
)
KEYS = st.sampled_from(
    [
        "type",
        "properties",
        "additionalProperties",
        "required",
        "items",
        "$ref",
        "const",
        "enum",
        "minimum",
        "maximum",
        "format",
        "description",
        "patternProperties",
        "anyOf",
        "minLength",
        "maxItems",
        "pattern",
        "uniqueItems",
        "propertyNames",
        "dependentRequired",
        "$id",
        "oneOf",
    ]
)
TYPE_NAMES = st.sampled_from(["string", "object", "array", "null", "boolean", "integer", "number"])
SCHEMA_VALUES = st.recursive(
    SCALARS | TYPE_NAMES | st.lists(TYPE_NAMES, max_size=2) | st.lists(SCALARS, max_size=3),
    lambda c: st.dictionaries(KEYS | st.sampled_from(["a", "b", "name"]), c, max_size=4),
    max_leaves=12,
)


def _jsonschema_valid(root: dict[str, Any], instance: Any) -> bool:
    plain = json.loads(jsonwire.written(instance))
    return all(
        cls(root).is_valid(plain)
        for cls in (jsonschema.Draft7Validator, jsonschema.Draft202012Validator)
    )


@settings(max_examples=1500, deadline=None)
@given(st.dictionaries(KEYS, SCHEMA_VALUES, max_size=4), SCHEMA_VALUES, JSON)
@example({"anyOf": [None, True]}, None, None)  # a branch that is no schema: jsonschema fails
def test_fast_valid_implies_jsonschema_valid(schema: Any, sub: Any, instance: Any) -> None:
    root = {**schema, "$defs": {"a": sub}, "definitions": {"a": sub}}
    if certainly_valid(root, instance, root):
        assert _jsonschema_valid(root, instance)


TOOLISH = st.fixed_dictionaries(
    {"name": st.sampled_from(["t", "get_x"]) | JSON},
    optional={
        "description": st.text(max_size=5) | JSON,
        "title": JSON,
        "inputSchema": st.fixed_dictionaries(
            {"type": st.just("object") | JSON}, optional={"properties": JSON, "required": JSON}
        )
        | JSON,
        "annotations": st.dictionaries(
            st.sampled_from(["readOnlyHint", "title", "destructiveHint"]), JSON, max_size=2
        ),
        "_meta": JSON,
        "icons": st.lists(JSON, max_size=2),
        "execution": JSON,
        "outputSchema": JSON,
        "uri": JSON,
        "uriTemplate": JSON,
        "arguments": st.lists(JSON, max_size=2),
    },
)


@pytest.mark.parametrize("revision", REVISIONS)
@pytest.mark.parametrize("listing", sorted(RESULT_TYPES))
@settings(max_examples=150, deadline=None)
@given(items=st.lists(TOOLISH, max_size=3), fields=st.dictionaries(KEYS, JSON, max_size=2))
def test_fast_valid_page_is_valid_for_the_mcp_schema(
    revision: str, listing: str, items: list[Any], fields: dict[str, Any]
) -> None:
    root = result_schema(revision, listing)
    page = {**fields, listing: items}
    # NOTE: also as the wire parser reads it (WireFloat/WireInt lexemes, WireObject duplicates).
    wire = jsonwire.loads(json.dumps(page, allow_nan=True))
    for value in (page, wire):
        if certainly_valid(root, value, root):
            assert _jsonschema_valid(root, value)


@pytest.mark.parametrize("revision", [r for r in REVISIONS if r < "2026-07-28"])
def test_a_real_sized_catalog_takes_the_fast_path(revision: str) -> None:
    page = json.loads(fixture("bench", "tools100.json").read_text(encoding="utf-8"))
    root = result_schema(revision, "tools")
    assert certainly_valid(root, page, root)
    assert not certainly_valid(root, {**page, "nextCursor": 3}, root)
    assert not certainly_valid(
        root, jsonwire.loads('{"tools": [], "_meta": {"a": 1, "a": 2}}'), root
    )


SNAPSHOT = fixture("bench", "tools100.json")


def _paths(value: Any, at: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [at]
    if isinstance(value, dict):
        for k, v in value.items():
            found += _paths(v, (*at, k))
    elif isinstance(value, list):
        for i, v in enumerate(value[:2]):
            found += _paths(v, (*at, i))
    return found


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_fast_valid_snapshot_is_valid_for_the_snapshot_schema(data: st.DataObject) -> None:
    from catalogaudit import intake
    from catalogaudit.snapshot import build

    doc = intake.read_catalog(str(SNAPSHOT), rehash=True).doc
    skeleton = build.skeleton(doc)
    at = data.draw(st.sampled_from(_paths(skeleton)))
    if at:
        target = skeleton
        for token in at[:-1]:
            target = target[token]
        target[at[-1]] = data.draw(JSON | SCHEMA_VALUES)
    if build.certainly_valid(skeleton):
        schema = build.snapshot_schema()
        errors = list(jsonschema.Draft202012Validator(schema).iter_errors(build.skeleton(skeleton)))
        assert errors == []


def test_built_snapshots_take_the_fast_path() -> None:
    from catalogaudit import intake
    from catalogaudit.snapshot import build

    assert build.certainly_valid(intake.read_catalog(str(SNAPSHOT), rehash=True).doc)
