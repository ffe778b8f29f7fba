"""`snapshots.pageitems.page_items` (a wire page read one item at a time, from its text or its
UTF-8 bytes in windows) gives exactly the whole parse's items and fields, or `Irregular`."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "model"))
from test_fastpaths import KEYS, WIRE_TEXT  # noqa: E402
from test_pieces import _shape  # noqa: E402

from catalogaudit.model import jsonwire  # noqa: E402
from catalogaudit.snapshots import pageitems  # noqa: E402

WS = st.sampled_from(["", " ", "\n", " \t\r\n "])


@st.composite
def page_text(draw: st.DrawFn) -> str:
    """A page: the listing's array among other members, any spacing; sometimes a duplicate
    key, a listing that is not an array, no listing, or not an object at all."""
    ws = draw(WS)
    items = draw(st.lists(WIRE_TEXT, max_size=5))
    members = [(k, draw(WIRE_TEXT)) for k in draw(st.lists(KEYS, max_size=3))]
    listing = "[" + ws + ("," + ws).join(items) + ws + "]" if items or draw(st.booleans()) else "1"
    if draw(st.integers(0, 9)):
        members.insert(draw(st.integers(0, len(members))), ('"tools"', listing))
    body = "{" + ws + ("," + ws).join(f"{k}{ws}:{ws}{v}" for k, v in members) + ws + "}"
    return draw(st.sampled_from([body, ws + body + ws, body, draw(WIRE_TEXT)]))


def _read(text: str | bytes) -> tuple[list[Any], dict[str, Any]] | None:
    fields: dict[str, Any] = {}
    try:
        items = list(pageitems.page_items(text, "tools", fields))
    except pageitems.Irregular:
        return None
    return items, fields


@pytest.fixture(params=[1, 3, 1 << 20], ids=["window 1", "window 3", "default"])
def window(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> int:
    monkeypatch.setattr(pageitems, "_WINDOW", request.param)
    return int(request.param)


@settings(
    max_examples=400, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(page_text())
def test_a_page_read_item_by_item_is_the_whole_parse(window: int, text: str) -> None:
    try:
        whole = jsonwire.loads(text)
    except jsonwire.WireDecodeError:
        whole = None
    common = (
        type(whole) is dict  # no duplicate key at the top (a WireObject has one)
        and isinstance(whole.get("tools"), list)
    )
    for given_text in (text, text.encode("utf-8", "surrogatepass")):
        got = _read(given_text)
        if not common:
            assert got is None
            continue
        assert got is not None, "the common page is read item by item"
        assert isinstance(whole, dict)
        items, fields = got
        assert _shape(items) == _shape(whole["tools"])
        assert _shape(fields) == _shape({k: v for k, v in whole.items() if k != "tools"})


@pytest.mark.parametrize(
    "text",
    [
        '{"tools":[1,2]',  # cut short
        '{"tools":[1,2]} x',  # more after the page
        '{"tools":[1 2]}',
        '{"tools":[],"tools":[]}',
        '{"nextCursor":12}',  # no listing
        '{"tools":[1],"n":123',
        "[1]",
    ],
)
def test_what_is_not_a_common_page_is_irregular(window: int, text: str) -> None:
    assert _read(text) is None
    assert _read(text.encode()) is None


def test_a_number_cut_by_a_window_is_read_whole(window: int) -> None:
    text = '{"tools":[12345, 1.5e10],"n":67890}'
    assert _read(text.encode()) == ([12345, 1.5e10], {"n": 67890})


def test_windows_never_cut_a_utf8_sequence(monkeypatch: pytest.MonkeyPatch) -> None:
    text = '{"tools":["\U0001f600\u00e9\ud800x"]}'
    for size in range(1, 12):
        monkeypatch.setattr(pageitems, "_WINDOW", size)
        assert _read(text.encode("utf-8", "surrogatepass")) == (["\U0001f600\u00e9\ud800x"], {})
