"""The `$ref` pre-check of CA701 and CA405 (`may_hold`) never answers no where the walk would
meet a `$ref` member, also when it asks the item's keys (`Item.keys`, found by its copy for
jsonschema-rs, which stops short at a lone surrogate or a huge integer, and keeps only the keys
rules ask about)."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from catalogaudit.model import Item
from catalogaudit.rules.spec.common import may_hold, strings
from catalogaudit.walker import subschemas

NAMES = st.sampled_from(["$ref", "a/$ref", "~$ref", "ref", "$re", "x"])
VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.sampled_from(["http://localhost:1", "$ref"]),
    lambda c: st.lists(c, max_size=3) | st.dictionaries(NAMES, c, max_size=3),
    max_leaves=20,
)


@settings(max_examples=500)
@given(VALUES)
def test_the_scan_never_misses_what_the_walks_meet(value: Any) -> None:
    walked = any(at.endswith("/$ref") for _, at in strings(value, "/inputSchema"))
    subs = any("$ref" in sub for sub, _, _ in subschemas(value))
    if walked or subs:
        assert may_hold(value, "$ref")


def test_a_deep_ref_is_found() -> None:
    schema = {"properties": {"a": {"items": [{"$ref": "http://localhost:8080/s"}]}}}
    assert may_hold(schema, "$ref")
    assert not may_hold({"properties": {"ref": {"type": "string", "x": 1.5}}}, "$ref")


@settings(max_examples=500)
@given(VALUES, st.sampled_from(["", "\ud800", 2**70]))
def test_the_items_keys_never_hide_what_the_walks_meet(value: Any, odd: Any) -> None:
    item = Item("tools", "t", {"name": "t", "inputSchema": value, "odd": odd}, 0, 0)
    walked = any(at.endswith("/$ref") for _, at in strings(value, "/inputSchema"))
    subs = any("$ref" in sub for sub, _, _ in subschemas(value))
    if walked or subs:
        assert may_hold(value, "$ref", item)
    for key in ("x", "ref"):  # NOTE: not among the keys the item keeps (`Item.keys`)
        if _held(value, key):
            assert may_hold(value, key, item)


def _held(value: Any, key: str) -> bool:
    if isinstance(value, dict):
        return key in value or any(_held(v, key) for v in value.values())
    return isinstance(value, list) and any(_held(v, key) for v in value)
