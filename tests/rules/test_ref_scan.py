"""CA701's `$ref` scan: the pointer-free pre-check answers yes exactly when the `strings`
walk would meet a pointer ending in the member's name."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from catalogaudit.rules.spec.common import holds_string_member, strings

NAMES = st.sampled_from(["$ref", "a/$ref", "~$ref", "ref", "$re", "x"])
VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.sampled_from(["http://localhost:1", "$ref"]),
    lambda c: st.lists(c, max_size=3) | st.dictionaries(NAMES, c, max_size=3),
    max_leaves=20,
)


@settings(max_examples=500)
@given(VALUES)
def test_the_scan_agrees_with_the_walk(value: Any) -> None:
    walked = any(at.endswith("/$ref") for _, at in strings(value, "/inputSchema"))
    assert holds_string_member(value, "$ref") == walked


def test_a_deep_ref_is_found() -> None:
    schema = {"properties": {"a": {"items": [{"$ref": "http://localhost:8080/s"}]}}}
    assert holds_string_member(schema, "$ref")
    assert not holds_string_member({"properties": {"$ref": {"type": "string"}}}, "$ref")
