"""`sides_of(..., packed=True)` (the wire page texts kept as UTF-8 bytes) answers every question
a side is asked exactly as the unpacked side does: wire items, page text equality, the doc."""

from __future__ import annotations

from typing import Any

import pytest

from catalogaudit.diffing.sides import sides_of
from catalogaudit.model import jsonwire, jsonwrite

PAGES = [
    '{"tools":[{"name":"a\\ud800","n":1.50,"z":1,"a":2}]}',
    '{"tools":[{"name":"\U0001f600 b","x":"\\u00e9"}],"nextCursor":null}',
]


def _doc(pages: list[str]) -> dict[str, Any]:
    items = [i for p in pages for i in jsonwire.loads(p)["tools"]]
    rec = {"status": "ok", "items": items, "servedPositions": list(range(len(items)))}
    return {"capture": {}, "listings": {"tools": rec}, "wire": {"pages": {"tools": pages}}}


@pytest.mark.parametrize("pages", [PAGES, PAGES[:1], ['{"tools": [}']])
def test_a_packed_side_reads_the_same_wire(pages: list[str]) -> None:
    doc = (
        _doc(pages)
        if pages != ['{"tools": [}']
        else {**_doc(PAGES[:1]), "wire": {"pages": {"tools": pages}}}
    )
    plain = sides_of("x", doc)[0][0]
    packed = sides_of("x", doc, packed=True)[0][0]
    got, want = packed.wire_items("tools"), plain.wire_items("tools")
    assert (got is None) == (want is None)
    if want is not None:
        assert got is not None
        assert [jsonwrite.compact(i) for i in got] == [jsonwrite.compact(i) for i in want]
        assert [list(i) for i in got] == [list(i) for i in want]  # served key order
    texts = packed.page_texts("tools")
    assert texts is not None and all(isinstance(t, bytes) for t in texts)
    assert [t.decode("utf-8", "surrogatepass") for t in texts] == pages
    assert doc["wire"]["pages"]["tools"] == pages  # the caller's doc is not changed
    assert packed.doc is not None and packed.doc["listings"] is doc["listings"]


def test_packed_texts_compare_as_the_texts_do() -> None:
    a = sides_of("a", _doc(PAGES), packed=True)[0][0]
    b = sides_of("b", _doc(PAGES), packed=True)[0][0]
    c = sides_of("c", _doc([PAGES[0], PAGES[1].replace('"x":', '"x" :')]), packed=True)[0][0]
    assert a.page_texts("tools") == b.page_texts("tools")
    assert a.page_texts("tools") != c.page_texts("tools")
