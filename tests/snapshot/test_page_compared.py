"""`snapshots.rehash` compares a wire page with the readable items read `compared` (the C
scanner's floats and objects): every verdict is the one the wire decoder's values give."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "model"))
sys.path.insert(0, str(Path(__file__).resolve().parent))
from helpers.nesting import refused_depth  # noqa: E402
from test_pageitems import page_text  # noqa: E402

from catalogaudit.model import jsonwire  # noqa: E402
from catalogaudit.snapshots import pageitems, rehash  # noqa: E402


def _record(text: str) -> dict[str, Any] | None:
    """The readable record a snapshot of `text` holds, as the exact parse reads the page."""
    fields: dict[str, Any] = {}
    try:
        items = list(pageitems.page_items(text, "tools", fields))
    except pageitems.Irregular:
        return None
    return {
        "items": items,
        "servedPositions": list(range(len(items))),
        "pages": [{"items": len(items), "fields": fields}],
    }


def _verdicts(texts: list[str | bytes], rec: dict[str, Any]) -> tuple[bool, bool]:
    """`_agrees` read `compared`, and read with the wire decoder's own values."""
    fast = rehash._agrees("tools", rec, texts)
    exact_items = pageitems.page_items

    def exact(text: str | bytes, listing: str, fields: dict[str, Any], **_: Any) -> Any:
        return exact_items(text, listing, fields)

    with pytest.MonkeyPatch.context() as m:
        m.setattr(pageitems, "page_items", exact)
        return fast, rehash._agrees("tools", rec, texts)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(page_text(), page_text(), st.booleans(), st.booleans())
def test_the_compared_read_gives_the_exact_verdict(
    text: str, other: str, same: bool, packed: bool
) -> None:
    """Pages against their own readable record (agreeing unless NaN) or another page's: `-0`,
    `1.50` against `1.5`, `1` against `1.0` and `true`, duplicate keys, lone surrogates."""
    rec = _record(text if same else other)
    if rec is None:
        return
    page: str | bytes = text.encode("utf-8", "surrogatepass") if packed else text
    fast, exact = _verdicts([page], rec)
    assert fast == exact


@pytest.mark.parametrize(
    ("page", "readable"),
    [
        ('{"tools":[{"a":-0}]}', '{"tools":[{"a":0}]}'),
        ('{"tools":[{"a":1.50,"b":1E3}]}', '{"tools":[{"a":1.5,"b":1000}]}'),
        ('{"tools":[{"a":1,"a":2}]}', '{"tools":[{"a":2}]}'),
        ('{"tools":[{"a":1,"a":2}]}', '{"tools":[{"a":1}]}'),
        ('{"tools":[{"a":NaN}]}', '{"tools":[{"a":NaN}]}'),
        ('{"tools":[{"a":true}]}', '{"tools":[{"a":1}]}'),
        ('{"tools":["\\ud800"]}', '{"tools":["\\ud800"]}'),
        ('{"tools":[-' + "9" * 50_000 + "]}", '{"tools":[1]}'),
    ],
)
def test_odd_pages_get_the_exact_verdict(page: str, readable: str) -> None:
    limit = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(jsonwire.MAX_INT_DIGITS)  # as the CLI runs
    try:
        rec = _record(readable)
        assert rec is not None
        fast, exact = _verdicts([page], rec)
    finally:
        sys.set_int_max_str_digits(limit)
    assert fast == exact


def test_the_compared_read_refuses_the_nesting_the_exact_read_refuses() -> None:
    """Read at the same call depth: an item nested at the recursion limit is irregular in
    both reads or in neither (Python before 3.12 counts frames and C levels in one budget)."""
    limit = refused_depth()
    outcomes = set()
    for depth in range(limit - 40, limit + 40):
        text = '{"tools":[' + "[" * depth + "]" * depth + "]}"
        got = [_count(text, compared) for compared in (True, False)]
        assert got[0] == got[1], depth
        outcomes.add(got[0])
    assert outcomes == {1, -1}  # NOTE: the limit was crossed


def _count(text: str, compared: bool) -> int:
    """How many items the page holds, -1 when it is irregular."""
    try:
        return len(list(pageitems.page_items(text, "tools", {}, compared=compared)))
    except pageitems.Irregular:
        return -1


def test_an_agreeing_page_is_not_read_by_the_wire_decoder(monkeypatch: pytest.MonkeyPatch) -> None:
    """The compared read is taken (fails on the old code, which read with the wire decoder)."""

    def refused(*_: Any) -> Any:
        raise AssertionError("read by the wire decoder")

    page = '{"tools":[{"name":"a","x":1.50}],"nextCursor":null}'
    rec = _record(page)
    assert rec is not None
    doc = {"listings": {"tools": rec}, "wire": {"pages": {"tools": [page]}}}
    monkeypatch.setattr(jsonwire, "raw_decode_plain", refused)
    assert rehash.resolve_wire(doc, "file.json") == (doc, [])
