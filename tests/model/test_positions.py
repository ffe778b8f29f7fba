"""`Catalog.location` finds a value's line and column in the file's text along its pointer
alone (issue 14, `model.positions.Finder`); every answer must equal a full map of the text
(`raw_positions`), in the written form or any other layout."""

from __future__ import annotations

from typing import Any

from helpers import FIXTURES
from helpers.positions import raw_positions
from hypothesis import given, settings
from hypothesis import strategies as st

from catalogaudit.model import jsonwire, jsonwrite
from catalogaudit.model.catalog import Catalog
from catalogaudit.model.findings import Location
from catalogaudit.model.positions import Finder

KEYS = st.sampled_from(
    ["a", "b", "", "/", "~", "a/b~c", '"', "\\", "\n", "\ue000", "\U0001f600", "\ud800", "é"]
) | st.text(max_size=4)
SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(-(2**60), 2**60)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=5)
    | st.sampled_from(["]", "}", "  ", "\n  ]"])
)
VALUES = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(KEYS, inner, max_size=4),
    max_leaves=30,
)


def _at(location: Location) -> tuple[int | None, int | None]:
    return location.line, location.column


BOGUS = ["x", "/", "//", "/~2", "/-", "/01", "/0/", "/999", "/a~1b", "/a/b"]


def _check(doc: Any, text: str | None = None) -> None:
    text = jsonwrite.written(doc) if text is None else text
    catalog = Catalog(doc if isinstance(doc, dict) else {"v": doc}, text=text)
    full = raw_positions(text)
    for pointer, at in full.items():
        assert _at(catalog.location(None, pointer)) == at, pointer
    for pointer in BOGUS:
        assert _at(catalog.location(None, pointer)) == (full.get(pointer) or (None, None))


@settings(max_examples=300, deadline=None)
@given(VALUES)
def test_positions_along_the_pointer_equal_the_full_map(value: Any) -> None:
    _check(value if isinstance(value, dict) else {"v": value})


def test_positions_in_a_real_snapshot() -> None:
    path = FIXTURES / "captures" / "server-filesystem-2026.8.31.snapshot.json"
    text = path.read_text(encoding="utf-8")
    doc = jsonwire.loads(text)
    assert jsonwrite.written(doc) == text
    _check(doc, text)


LAYOUTS = st.sampled_from(
    [
        {"separators": (",", ":")},
        {"separators": (" , ", " : "), "indent": "\t"},
        {"indent": 1, "ensure_ascii": False},
        {"indent": 5},
    ]
)


@settings(max_examples=200, deadline=None)
@given(VALUES, LAYOUTS)
def test_positions_in_any_layout_equal_the_full_map_of_the_text(value: Any, how: Any) -> None:
    """A hand-edited or reformatted snapshot keeps its lines: the finder reads the text
    itself, whatever its layout, and agrees with a full tokenizing map of it."""
    import json

    text = " \n" + json.dumps({"v": value}, **how) + "\n"
    doc = jsonwire.loads(text)
    full = raw_positions(text)
    finder = Finder(text)
    for pointer, at in full.items():
        assert finder.position(doc, pointer) == at, pointer
    for pointer in BOGUS:
        assert finder.position(doc, pointer) == full.get(pointer), pointer


def test_a_duplicate_key_points_at_the_member_the_document_holds() -> None:
    text = '{"a": {"x": 1},\n "b": 2,\n "a": {"x": 3}}'
    doc = jsonwire.loads(text)
    assert doc["a"] == {"x": 3}
    assert Finder(text).position(doc, "/a/x") == (3, 13)


def test_no_positions_when_the_document_is_not_the_texts_parse() -> None:
    doc = {"a": [1, {"b": 2}]}
    compact = Catalog(doc, text='{"a": [1, {"b": 2}]}\n')
    assert _at(compact.location(None, "/a/1/b")) == (1, 17)
    other = Catalog({"a": [1, 2, 3]}, text='{"a": {"b": 2}}')
    assert _at(other.location(None, "/a/2")) == (None, None)
    assert _at(other.location(None, "/a/1")) == (None, None)
