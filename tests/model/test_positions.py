"""`Catalog.location` finds a value's line and column in the written text along its pointer
alone (issue 14); every answer must equal the full map `written_positions` makes."""

from __future__ import annotations

from typing import Any

from helpers import FIXTURES
from hypothesis import given, settings
from hypothesis import strategies as st

from catalogaudit.model import jsonwire
from catalogaudit.model.catalog import Catalog, written_positions

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
BOGUS = ["x", "/", "//", "/~2", "/-", "/01", "/0/", "/999", "/a~1b", "/a/b"]


def _check(doc: Any, text: str | None = None) -> None:
    text = jsonwire.written(doc) if text is None else text
    catalog = Catalog(doc if isinstance(doc, dict) else {"v": doc}, text=text)
    full = written_positions(catalog.doc)
    for pointer, at in full.items():
        assert catalog._position(pointer) == at, pointer
    for pointer in BOGUS:
        assert catalog._position(pointer) == full.get(pointer), pointer


@settings(max_examples=300, deadline=None)
@given(VALUES)
def test_positions_along_the_pointer_equal_the_full_map(value: Any) -> None:
    _check(value if isinstance(value, dict) else {"v": value})


def test_positions_in_a_real_snapshot() -> None:
    path = FIXTURES / "captures" / "server-filesystem-2026.8.31.snapshot.json"
    text = path.read_text(encoding="utf-8")
    doc = jsonwire.loads(text)
    assert jsonwire.written(doc) == text
    _check(doc, text)


def test_no_positions_when_the_text_is_not_the_written_form() -> None:
    doc = {"a": [1, {"b": 2}]}
    catalog = Catalog(doc, text='{"a": [1, {"b": 2}]}\n')
    assert catalog.location(None, "/a/1/b").line is None
    written = Catalog(doc, text=jsonwire.written(doc))
    assert (written.location(None, "/a/1/b").line, written.location(None, "/a/1/b").column) == (
        written_positions(doc)["/a/1/b"]
    )
