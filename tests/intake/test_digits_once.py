"""Digit runs that may be integers beyond 2^53-1 are asked once of the bytes read
(`intake.loader`), and a page said to have none is not asked again
(`model.capture.page_anomalies`); a page read without its own text is asked along the text
holding it: the findings are those of asking each page's text."""

from __future__ import annotations

import json
import re
from dataclasses import replace
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from catalogaudit.intake import loader, static
from catalogaudit.model.protocol import parse_protocol

NUMBERS = st.sampled_from(
    ["1", "-0", "9007199254740991", "9007199254740992", "12345678901234567", "1.50", "1E3"]
)
TEXTS = st.sampled_from(["a", "1234567890123456", "x9007199254740993", "\U0001f600", "é"])


def _input(draw: Any) -> str:
    tools = [
        f'{{"name": {json.dumps(f"t{i}")}, "description": {json.dumps(draw(TEXTS))}, '
        f'"n": {draw(NUMBERS)}}}'
        for i in range(draw(st.integers(0, 4)))
    ]
    page = (
        '{"tools": [' + ",".join(tools) + "]" + (', "id": 12345678901234567' * draw(st.booleans()))
    )
    return page + "}" if not draw(st.booleans()) else f'{{"jsonrpc": "2.0", "result": {page}}}}}'


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_a_page_said_to_have_no_unsafe_integer_has_none_and_gives_the_same_results(
    data: st.DataObject,
) -> None:
    text = _input(data.draw)
    loaded = loader.parse("in.json", text.encode())
    for page in loaded.pages["tools"]:
        if not page.digits:
            assert all(int(run) <= 2**53 - 1 for run in re.findall("[0-9]{16,}", page.text))
    pages = [replace(p, digits=True) for p in loaded.pages["tools"]]
    asked = [("in.json", replace(loaded, pages={"tools": pages}))]
    once = static.merge([("in.json", loaded)], parse_protocol("auto"))
    each = static.merge(asked, parse_protocol("auto"))
    assert [f.as_dict() for f in once.listings["tools"].findings] == [
        f.as_dict() for f in each.listings["tools"].findings
    ]
    # NOTE: read without page texts, a page is asked along the whole text holding it (the
    # JSON-RPC envelope's id included): the same findings
    whole = [("in.json", loader.parse("in.json", text.encode(), texts=False))]
    bare = static.merge(whole, parse_protocol("auto"), texts=False)
    assert [f.as_dict() for f in bare.listings["tools"].findings] == [
        f.as_dict() for f in each.listings["tools"].findings
    ]
