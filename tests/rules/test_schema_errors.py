"""CA403's shortcut (validate only what `certainly_valid` cannot prove) names the same error
as validating the whole schema, on generated schemas with defects at any depth."""

from __future__ import annotations

from typing import Any

import jsonschema
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from catalogaudit.model import jsonwire
from catalogaudit.rules.spec.schema_errors import (
    _DIRECT,
    _units,
    exact_schema_error,
    first_schema_error,
)

#: Leaves that are valid or not as keyword values (a negative multipleOf, a bad regex, ...).
LEAVES = (
    st.none()
    | st.booleans()
    | st.integers(-2, 3)
    | st.sampled_from(["string", "object", "nope", "#/$defs/a", "http://x", "[a-", "^a$", ""])
)
#: Keywords with a plain value, and the schema-position keywords of both dialects.
PLAIN = ["type", "multipleOf", "minimum", "pattern", "required", "enum", "format", "$id"]
MAPS = ["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"]
ONES = ["items", "additionalProperties", "not", "if", "then", "contains", "propertyNames"]
LISTS = ["allOf", "anyOf", "prefixItems"]


def schemas() -> st.SearchStrategy[Any]:
    def extend(inner: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
        names = st.sampled_from(["a", "b", "^x", "[", "description"])
        keyword = st.one_of(
            st.tuples(st.sampled_from(PLAIN), LEAVES | st.lists(LEAVES, max_size=2)),
            st.tuples(st.sampled_from(MAPS), st.dictionaries(names, inner, max_size=3)),
            st.tuples(st.sampled_from(ONES), inner),
            st.tuples(st.sampled_from(LISTS), st.lists(inner, max_size=3) | inner),
            st.tuples(st.just("dependencies"), st.dictionaries(names, inner, max_size=2)),
        )
        return st.lists(keyword, max_size=5).map(dict)

    base = st.dictionaries(st.sampled_from(PLAIN), LEAVES, max_size=3)
    return st.recursive(base | st.booleans(), extend, max_leaves=25)


def _view(exc: Any) -> Any:
    if exc is None:
        return None
    return jsonwire.pointer_of(exc.absolute_path), exc.message, str(exc.instance)[:200]


@settings(max_examples=400, deadline=None)
@given(schemas().filter(lambda s: isinstance(s, dict)))
def test_the_shortcut_names_the_exact_error(schema: dict[str, Any]) -> None:
    for cls in (jsonschema.Draft202012Validator, jsonschema.Draft7Validator):
        assert _view(first_schema_error(cls, schema)) == _view(exact_schema_error(cls, schema))


def test_a_deep_defect_among_valid_properties() -> None:
    valid = {"type": "string", "description": "d", "minLength": 1}
    schema = {
        "type": "object",
        "properties": {
            **{f"p{i}": dict(valid) for i in range(20)},
            "deep": {"type": "object", "properties": {"n": {"type": "number", "multipleOf": -1}}},
        },
    }
    cls = jsonschema.Draft202012Validator
    got = first_schema_error(cls, schema)
    assert _view(got) == _view(exact_schema_error(cls, schema))
    assert jsonwire.pointer_of(got.absolute_path) == "/properties/deep/properties/n/multipleOf"


def test_an_error_above_a_replaced_child_takes_the_exact_path() -> None:
    # draft-07 `items` is an anyOf: its one error sits above the valid children and shows them.
    schema = {"items": {"properties": {"ok": {"type": "string"}, "bad": {"type": "x"}}}}
    cls = jsonschema.Draft7Validator
    assert _view(first_schema_error(cls, schema)) == _view(exact_schema_error(cls, schema))


#: Valid schemas `certainly_valid` proves, to nest a defect among.
VALID = st.sampled_from(
    [{"type": "string", "description": "d"}, {"type": "integer", "minimum": 0}, True, {}]
)
#: Defects of both dialects, and values that are valid but not proven so.
BAD = st.sampled_from(
    [
        {"type": "number", "multipleOf": -0.25},
        {"type": "nope"},
        {"pattern": "[a-"},
        {"required": "a"},
        {"items": [{"type": "x"}]},
        {"patternProperties": {"[": {}}},
        {"dependencies": {"a": {"type": 3}}},
        {"minLength": -1, "maxLength": "x"},
    ]
)


def nested() -> st.SearchStrategy[Any]:
    """Schemas whose every level but one defect's is proven valid: the defect (or two) sits
    under `properties`, `$defs`, `definitions`, `items`, `additionalProperties`, `not`,
    `anyOf`/`allOf`/`oneOf` or `prefixItems`, among valid siblings."""

    def extend(inner: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
        names = st.sampled_from(["a", "b", "~x", "c/d"])
        slot = st.one_of(
            st.tuples(
                st.sampled_from(["properties", "$defs", "definitions"]),
                st.dictionaries(names, inner | VALID, min_size=1, max_size=3),
            ),
            st.tuples(st.sampled_from(["items", "additionalProperties", "not"]), inner),
            st.tuples(
                st.sampled_from(["anyOf", "allOf", "oneOf", "prefixItems"]),
                st.lists(inner | VALID, min_size=1, max_size=3),
            ),
        )
        own = st.sampled_from([{}, {"type": "object"}, {"description": "x", "type": "array"}])
        return st.tuples(own, st.lists(slot, min_size=1, max_size=3)).map(
            lambda t: {**t[0], **dict(t[1])}
        )

    return st.recursive(BAD | VALID, extend, max_leaves=12)


@settings(max_examples=300, deadline=None)
@given(nested().filter(lambda s: isinstance(s, dict)))
def test_each_unit_alone_names_the_exact_error(schema: dict[str, Any]) -> None:
    for cls in (jsonschema.Draft202012Validator, jsonschema.Draft7Validator):
        assert _view(first_schema_error(cls, schema)) == _view(exact_schema_error(cls, schema))


def test_a_deep_defect_is_validated_alone() -> None:
    # NOTE: jsonschema validates only the bad schema, not its three ancestors (0.2 ms, not 1.2).
    bad = {"type": "number", "multipleOf": -1}
    schema = {
        "type": "object",
        "properties": {"ok": {"type": "string"}, "deep": {"anyOf": [{"properties": {"n": bad}}]}},
    }
    units: list[Any] = []
    _units(schema, (), _DIRECT["Draft202012Validator"], units)
    assert units == [(("properties", "deep", "anyOf", 0, "properties", "n"), bad)]
    units = []
    _units({"items": {"properties": {"n": bad}}}, (), _DIRECT["Draft7Validator"], units)
    assert units == [((), {"items": {"properties": {"n": bad}}})]  # draft-07 items: an anyOf


@pytest.mark.parametrize(
    "values",
    [(0.0, -0.0, 0, False), (-1, -1.0, True), ("1", 1), ([1], [1.0], (1,))],
)
def test_kept_errors_tell_apart_values_jsonschema_prints_differently(values: Any) -> None:
    # NOTE: the reduced schemas' errors are kept by type and repr: 0.0 and -0.0 are equal in
    # Python but printed apart in the message, so each must be its own entry.
    for cls in (jsonschema.Draft202012Validator, jsonschema.Draft7Validator):
        for value in values:
            for schema in (
                {"multipleOf": value, "description": "a"},
                {"description": "b", "properties": {"x": {"minLength": value}}},
            ):
                assert _view(first_schema_error(cls, schema)) == _view(
                    exact_schema_error(cls, schema)
                )


def test_a_real_servers_defects_are_named_with_numbers_as_served(tmp_path: Any) -> None:
    """A real `mcp` server's schemas (fixtures/servers/schema_defects_server.py), snapshotted
    over stdio and audited: the `patternProperties` name that is no regex is found (dropping a
    proven-valid child lost the meta-schema's check of the names), and the message and excerpt
    show a number as the server wrote it, not the parser's wrapper ("WireFloat('-0.25')")."""
    import json

    from helpers import PYTHON, SERVERS, cli

    snap = tmp_path / "defects.snapshot.json"
    made = cli("snapshot", "-o", str(snap), "--", PYTHON, str(SERVERS / "schema_defects_server.py"))
    assert made.code == 0, made
    done = cli("audit", "--format", "json", str(snap))
    found = {
        (f["identity"], f["pointer"]): f
        for f in json.loads(done.stdout)["findings"]
        if f["ruleId"] == "CA403"
    }
    assert set(found) == {
        ("pay", "/inputSchema/properties/amount/multipleOf"),
        ("tag", "/inputSchema/patternProperties"),
    }
    pay = found["pay", "/inputSchema/properties/amount/multipleOf"]
    assert pay["message"].endswith("schema: -0.25 is less than or equal to the minimum of 0")
    assert pay["excerpt"] == "-0.25"
    assert found["tag", "/inputSchema/patternProperties"]["message"].endswith(
        "schema: '[' is not a 'regex'"
    )
    assert "Wire" not in done.stdout
    assert repr(jsonwire.loads("[1.50E1, -0]")) == "[1.50E1, -0]"
