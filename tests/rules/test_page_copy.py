"""CA610 hands jsonschema-rs a page built from each item's own copy (`Item.plain`, which CA403
reads too): the same value `model.validation.plain` makes of the whole page, also for items
nested just within and just beyond `MAX_DEPTH` at their depth in the page."""

from __future__ import annotations

from typing import Any

import pytest

from catalogaudit.model import MAX_DEPTH, NOT_PLAIN, Item, plain, raw_decode
from catalogaudit.rules.spec.pages import _plain_page


def _nested(levels: int) -> Any:
    value: Any = []
    for _ in range(levels - 1):
        value = [value]
    return value


def _item(value: Any, index: int = 0) -> Item:
    return Item("tools", f"t{index}", value, index, index)


WIRE = raw_decode('{"name": "w", "x": 1.50, "y": [-0, 12345678901234567]}')[0]
CASES = {
    "plain": [{"name": "a", "inputSchema": {"type": "object"}}],
    "wire numbers": [WIRE, {"name": "b"}],
    "lone surrogate": [{"name": "c", "d": "\ud800"}],
    "depth just within": [{"name": "d", "x": _nested(MAX_DEPTH - 3)}],
    "depth just beyond": [{"name": "e", "x": _nested(MAX_DEPTH - 2)}],
    "not an object": ["f", 1.5],
}


@pytest.mark.parametrize("values", list(CASES.values()), ids=list(CASES))
@pytest.mark.parametrize("fields", [{}, {"nextCursor": "c", "x": 2.5}], ids=["bare", "fields"])
def test_the_page_copy_is_the_copy_of_the_page(values: list[Any], fields: dict[str, Any]) -> None:
    items = [_item(v, i) for i, v in enumerate(values)]
    got = _plain_page(fields, "tools", items)
    want = plain({**fields, "tools": values})
    assert (got is NOT_PLAIN) == (want is NOT_PLAIN)
    if want is not NOT_PLAIN:
        assert got == want
        assert [type(v) for v in got["tools"]] == [type(v) for v in want["tools"]]
