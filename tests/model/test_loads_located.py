"""`model.positions.loads_located`: a snapshot file's parse with its items' offsets kept (issue
14). The value is `jsonwire.loads`'s (types, lexemes, duplicate keys at every level,
errors), and its finder answers every pointer as a finder that read the text from scratch
and as the full map of the text, in any layout."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from helpers import FIXTURES
from helpers.positions import raw_positions
from hypothesis import given, settings
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_fastpaths import KEYS, WIRE_TEXT  # noqa: E402
from test_pieces import _shape  # noqa: E402

from catalogaudit.model import jsonwire  # noqa: E402
from catalogaudit.model.positions import Finder, loads_located  # noqa: E402

WS = st.sampled_from(["", " ", "\n  ", " \t\r\n "])


def _object(draw: st.DrawFn, members: list[tuple[str, str]]) -> str:
    """An object of these (key text, value text) members, spaced one way, sometimes with a
    member repeated (a duplicate key, whose last value counts)."""
    if members and draw(st.booleans()):
        members = [*members, draw(st.sampled_from(members))]
    ws = draw(WS)
    return "{" + ws + ("," + ws).join(f"{k}{ws}:{ws}{v}" for k, v in members) + ws + "}"


@st.composite
def snapshot_text(draw: st.DrawFn) -> str:
    """The containers `loads_located` reads member by member (the top, `listings`, each
    listing, its `items`), around any wire values, spaced any way, sometimes broken."""
    listings = []
    for name in draw(st.lists(st.sampled_from(["tools", "prompts", "x"]), max_size=3)):
        ws = draw(WS)
        elements = draw(st.lists(WIRE_TEXT, max_size=4))
        trailing = "," if elements and draw(st.integers(0, 9)) == 0 else ""  # not JSON
        items = "[" + ws + ("," + ws).join(elements) + trailing + ws + "]"
        other = [(k, draw(WIRE_TEXT)) for k in draw(st.lists(KEYS, max_size=2))]
        listing = _object(draw, [('"items"', draw(st.sampled_from([items, "7", '"s"']))), *other])
        listings.append((json.dumps(name), draw(st.sampled_from([listing, "[]", "null"]))))
    top = [
        ('"formatVersion"', "1"),
        ('"listings"', _object(draw, listings)),
        *((k, draw(WIRE_TEXT)) for k in draw(st.lists(KEYS, max_size=2))),
    ]
    body = _object(draw, draw(st.permutations(top)))
    ws = draw(WS)
    broken = [body[:-1], body + " x", body.replace(",", ",,", 1), body.replace("}", ",}", 1)]
    return draw(st.sampled_from([ws + body + ws, ws + body + ws, *broken]))


def _pointers(value: Any, at: str = "") -> list[str]:
    out = [at]
    if isinstance(value, dict):
        for k, v in value.items():
            out += _pointers(v, jsonwire.pointer_join(at, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out += _pointers(v, f"{at}/{i}")
    return out


def _check(text: str) -> None:
    try:
        whole: Any = _shape(jsonwire.loads(text))
    except jsonwire.WireDecodeError:
        whole = None
    located = loads_located(text)
    if located is None:
        assert whole is None, text  # NOTE: refused only what the one scan refuses
        return
    doc, finder = located
    assert _shape(doc) == whole, text
    fresh = Finder(text)
    full = raw_positions(text)
    for pointer in _pointers(doc):
        got = finder.position(doc, pointer)
        assert got == fresh.position(doc, pointer), (text, pointer)
        if type(doc) is dict and pointer in full:  # NOTE: the map keeps a duplicate's first
            assert got == full[pointer] or "WireObject" in repr(_shape(doc)), (text, pointer)


@settings(max_examples=500, deadline=None)
@given(snapshot_text())
def test_located_parse_is_the_whole_parse_and_finds_what_a_fresh_finder_finds(text: str) -> None:
    _check(text)


def test_a_real_snapshot_is_located_as_read_from_scratch() -> None:
    for path in sorted((FIXTURES / "real-servers").glob("*.snapshot.json"))[:6]:
        _check(path.read_text(encoding="utf-8"))


def test_items_are_found_without_passing_over_the_ones_before() -> None:
    """The point of it: the finder already holds every item's offset, so asking for the last
    item's member reads no item before it (a fresh finder passes over them all)."""
    items = ",\n".join(json.dumps({"name": f"t{i}", "d": "x" * 100}) for i in range(50))
    text = '{"formatVersion": 1, "listings": {"tools": {"items": [\n' + items + "\n]}}}"
    located = loads_located(text)
    assert located is not None
    doc, finder = located
    skipped: list[int] = []
    import catalogaudit.model.positions as positions

    real = positions._skip
    try:
        positions._skip = lambda t, at: skipped.append(at) or real(t, at)  # type: ignore[assignment]
        line, column = finder.position(doc, "/listings/tools/items/49/d") or (0, 0)
    finally:
        positions._skip = real
    assert (line, column) == (51, text.splitlines()[50].index('"x') + 1)
    assert len(skipped) <= 1  # NOTE: at most the item's own "name" before "d"
