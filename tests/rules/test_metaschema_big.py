"""CA403 on schemas holding integers jsonschema-rs cannot read (a 50-digit `default`): they are
read through order-keeping stand-ins (`model.validation.stand_ins`), and the first error must stay
python-jsonschema's own on the original schema, the reference, in every dialect."""

from __future__ import annotations

from typing import Any

import jsonschema_specifications
import pytest
from helpers import DIALECTS, error_view
from hypothesis import example, given, settings
from hypothesis import strategies as st

from catalogaudit.model import NOT_PLAIN, jsonwire, validation
from catalogaudit.rules.spec import metaschema
from catalogaudit.rules.spec.metaschema import first_schema_error, python_first

BIG = [10**50, 10**50 + 1, -(10**50), 2**63, -(2**63), 2**62, 2**70]
NUMBERS = (
    st.sampled_from(BIG)
    | st.integers(-(2**64), 2**64)
    | st.sampled_from([0, 1, -1, 0.5, -0.25, 1.0, 2.0**70, 1e19, -1e300, 4.611686018427388e18])
    | st.sampled_from(["-0", "100000000000000000000000000000000000000000000000001"]).map(
        jsonwire.loads
    )
)
SCALARS = NUMBERS | st.booleans() | st.none() | st.sampled_from(["a", "string", "integer"])
VALUES = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=4), max_leaves=8)
KEYWORDS = ["enum", "const", "default", "examples", "minimum", "multipleOf", "minLength"]
KEYWORDS += ["maxItems", "type", "required", "uniqueItems", "exclusiveMinimum"]


def schemas() -> st.SearchStrategy[Any]:
    def extend(inner: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
        under = st.sampled_from(["properties", "$defs", "definitions"])
        return st.one_of(
            st.dictionaries(st.sampled_from(KEYWORDS), VALUES, max_size=4),
            st.tuples(under, st.dictionaries(st.sampled_from(["a", "b"]), inner, max_size=2)).map(
                lambda kv: {kv[0]: kv[1]}
            ),
            st.tuples(st.sampled_from(["items", "not", "allOf"]), inner).map(
                lambda kv: {kv[0]: [kv[1]] if kv[0] == "allOf" else kv[1]}
            ),
        )

    return st.recursive(st.dictionaries(st.sampled_from(KEYWORDS), VALUES), extend, max_leaves=8)


@pytest.mark.parametrize("name", DIALECTS)
@settings(max_examples=300, deadline=None)
@given(schema=schemas())
@example(schema={"enum": [10**50, 10**50 + 1]})  # distinct: draft-04's uniqueItems holds
@example(schema={"enum": [10**50, 10**50], "minLength": -(10**50)})
@example(schema={"enum": [2**70, 2.0**70]})  # equal as numbers: a float this large is refused
@example(schema={"enum": [[10**50, True], [0.5], [10**50, 1]], "multipleOf": -(10**50)})
@example(schema={"required": [10**50, 10**50 + 1], "minimum": 10**50})
@example(schema={"minLength": 10**50, "maxItems": 2**63 - 1, "default": -(10**50)})
def test_big_integers_keep_python_jsonschemas_first_error(name: str, schema: Any) -> None:
    expected = python_first(name, schema)
    assert error_view(first_schema_error(name, schema)) == error_view(expected)
    copy = validation.stand_ins(schema)
    if copy is not NOT_PLAIN:
        # NOTE: and jsonschema-rs answers alike (stricter would only be slower, not wrong)
        assert bool(metaschema._rs(name).is_valid(copy)) == (expected is None)


def test_a_catalogs_big_defaults_are_read_by_jsonschema_rs() -> None:
    """The stand-ins are used, not python-jsonschema's whole walk, for a schema whose only
    number it cannot read is a 50-digit default (the bench's `int50` shape)."""
    schema = jsonwire.loads(
        '{"type": "object", "properties": {"n": {"type": "integer", '
        '"default": 12345678901234567890123456789012345678901234567890, '
        '"examples": [-12345678901234567890123456789012345678901234567890, 7]}}}'
    )
    copy = validation.stand_ins(schema)
    assert copy is not NOT_PLAIN
    n = copy["properties"]["n"]
    assert n["examples"][1] == 7
    assert n["default"] > 7 > n["examples"][0]
    assert first_schema_error("Draft202012Validator", schema) is None


def _numbers(value: Any) -> list[Any]:
    if isinstance(value, dict):
        return [n for v in value.values() for n in _numbers(v)]
    if isinstance(value, list):
        return [n for v in value for n in _numbers(v)]
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return [value]
    return []


def test_the_meta_schemas_bound_numbers_far_below_the_stand_ins() -> None:
    """The stand-ins keep order against every number the meta-schemas compare with (the
    argument of `stand_ins`): none reaches the stand-ins' range."""
    found = [
        n
        for uri in jsonschema_specifications.REGISTRY
        for n in _numbers(jsonschema_specifications.REGISTRY.contents(uri))
    ]
    assert found
    assert all(-validation.STAND_IN_BOUND < n < validation.STAND_IN_BOUND for n in found)
