"""`implies` is sound: whenever it says one schema accepts everything another does, a real
validator agrees on every instance tried. Schemas: every property schema of the release pairs
in fixtures/real-servers/verdicts/, old against new and new against old."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import jsonschema
from helpers import fixture

from catalogaudit.diffing.subsume import implies

PAIRS = [
    ("mongodb-mcp-server-0.2.0", "mongodb-mcp-server-3.0.4"),
    ("azure-devops-mcp-2.2.2", "azure-devops-mcp-2.9.0"),
    ("tavily-mcp-0.2.12", "tavily-mcp-0.2.15"),
]
INSTANCES: list[Any] = [
    None,
    True,
    False,
    0,
    1,
    -1,
    2.5,
    10**6,
    "",
    "a",
    "asc",
    "2025-01-01",
    "x" * 300,
    [],
    ["a"],
    ["a", "b"],
    [1],
    [{"a": 1}],
    {},
    {"a": 1},
    {"$meta": "textScore"},
    {"a": "b", "c": [1]},
    {"stage": {"$match": {}}},
    [{"$match": {"a": 1}}],
]


def _subschemas(schema: Any) -> Iterator[Any]:
    if isinstance(schema, dict):
        yield schema
        for key in ("properties", "$defs", "definitions"):
            for sub in (
                (schema.get(key) or {}).values() if isinstance(schema.get(key), dict) else ()
            ):
                yield from _subschemas(sub)
        for key in ("items", "additionalProperties"):
            yield from _subschemas(schema.get(key))
        for key in ("anyOf", "oneOf", "allOf"):
            for sub in schema.get(key) or []:
                yield from _subschemas(sub)


def _schemas(name: str) -> dict[tuple[str, str], Any]:
    doc = json.loads(fixture("real-servers", "verdicts", f"{name}.snapshot.json").read_text())
    out: dict[tuple[str, str], Any] = {}
    for tool in doc["listings"]["tools"]["items"]:
        props = tool.get("inputSchema", {}).get("properties", {})
        for prop, schema in props.items():
            out[(tool["name"].replace("-", "_"), prop)] = schema
    return out


def _valid(schema: Any, instance: Any) -> bool:
    return jsonschema.Draft202012Validator(schema).is_valid(instance)


def test_implies_never_claims_what_a_validator_refutes() -> None:
    proved = 0
    for old_name, new_name in PAIRS:
        old, new = _schemas(old_name), _schemas(new_name)
        for key in old.keys() & new.keys():
            for a in _subschemas(old[key]):
                for b in _subschemas(new[key]):
                    for narrow, wide in ((a, b), (b, a)):
                        if not implies(narrow, wide):
                            continue
                        proved += 1
                        for instance in INSTANCES:
                            if _valid(narrow, instance):
                                assert _valid(wide, instance), (key, narrow, wide, instance)
    assert proved > 50  # the test proves something: widenings and equalities were found


def test_what_implies_does_not_prove() -> None:
    string = {"type": "string"}
    either = {"anyOf": [string, {"type": "array", "items": string}]}
    assert implies(string, either) and not implies(either, string)
    assert implies(True, {}) and implies({}, True)
    # additionalProperties is read against its siblings: the same value is not the same rule
    closed = {"type": "object", "properties": {"a": string}, "additionalProperties": False}
    assert not implies(closed, {"type": "object", "additionalProperties": False})
    # a $ref's target may differ between the two catalogs
    assert not implies({"$ref": "#/$defs/x"}, {"$ref": "#/$defs/x"})
