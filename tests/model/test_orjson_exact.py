"""orjson carries the writers (`jsonwrite.dumps`: the served, canonical and written forms); the
exact writer (`exact_dumps`) is the oracle, byte for byte, on the shapes where orjson
alone would differ: lexemes orjson does not keep (`1.50`, `1E3`, `-0`, NaN), floats we made
ourselves (integral, exponents, 17 significant digits), integers beyond 2^53 and 2^64, astral
and U+E000+ keys (UTF-16 order), lone surrogates, `\\u`-escaped text and deep nesting."""

from __future__ import annotations

import enum
import io
import json
from typing import Any

import orjson
import pytest
from helpers.exact_writer import exact_dumps
from hypothesis import given, settings
from hypothesis import strategies as st
from test_fastpaths import ALL_KINDS, WIRE_TEXT

from catalogaudit.canonical import hashes, jcs
from catalogaudit.model import jsonwire, jsonwrite
from catalogaudit.snapshots import build as snap


class _Level(enum.IntEnum):
    LOW = 1


class _Name(str, enum.Enum):
    A = "a\u00e9"


#: Python values a caller may hand the writers: plain floats (the risky ones among them),
#: integers of any size, odd keys, enums.
SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(-(2**70), 2**70)
    | st.sampled_from([10**49 + 7, -(2**64), 2**53 + 1, _Level.LOW, _Name.A])
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.sampled_from([1.0, 100.0, -0.0, 1e3, 1e16, 1e21, 1e-7, 5e-324, 0.8444218515250481])
    | st.text(max_size=6)
    | st.sampled_from(["\ud800", "x\udfff", "é 😀", "\u2028/\x7f\x00"])
)
KEYS = st.sampled_from(["a", "\ue000", "\uffff x", "\U0001f600", "\U0001f600a", "é", ""]) | st.text(
    max_size=3
)
VALUES = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(KEYS, inner, max_size=4),
    max_leaves=30,
)


def _deep(levels: int, leaf: Any) -> Any:
    for i in range(levels):
        leaf = {f"l{i}": [leaf, 1.0]} if i % 2 else [leaf, {"\ue000": 1, "\U0001f600": 2}]
    return leaf


def _written(value: Any) -> bytes:
    number = jsonwrite._written_number
    return (exact_dumps(value, sort_keys=True, indent=2, number=number) + "\n").encode()


@settings(max_examples=400, deadline=None)
@given(WIRE_TEXT)
def test_orjson_writes_wire_values_as_the_exact_writer(text: str) -> None:
    value = jsonwire.loads(text)
    for kind in ALL_KINDS:
        assert jsonwrite.dumps(value, **kind) == exact_dumps(value, **kind)  # type: ignore[arg-type]


@settings(max_examples=400, deadline=None)
@given(VALUES)
def test_orjson_writes_python_values_as_the_exact_writer(value: Any) -> None:
    for kind in ALL_KINDS:
        assert jsonwrite.dumps(value, **kind) == exact_dumps(value, **kind)  # type: ignore[arg-type]
    assert jcs.jcs_bytes(value) == exact_dumps(
        value, sort_keys=True, indent=None, number=jsonwrite.jcs_number
    ).encode("utf-8", "surrogatepass")


@settings(max_examples=200, deadline=None)
@given(VALUES, st.booleans())
def test_escaped_text_and_deep_nesting_write_as_the_exact_writer(value: Any, ascii: bool) -> None:
    # NOTE: what Python's json.dumps writes by default: every non-ASCII character escaped
    doc = {"tools": [_deep(50, value), value], "wire": {"pages": {"tools": [json.dumps(value)]}}}
    wire = jsonwire.loads(json.dumps(doc, ensure_ascii=ascii))
    fh = io.BytesIO()
    size = snap.write(wire, fh)  # type: ignore[arg-type]
    assert fh.getvalue() == _written(wire)
    assert size == len(fh.getvalue())
    assert snap.render(wire).encode() == _written(wire)
    for kind in ALL_KINDS:
        assert jsonwrite.dumps(wire, **kind) == exact_dumps(wire, **kind)  # type: ignore[arg-type]


@settings(max_examples=300, deadline=None)
@given(
    st.text(min_size=4, max_size=40) | st.sampled_from(['a\ud800b\udcff\U0001f600"\\\n' * 3]),
    VALUES,
)
def test_a_long_string_is_written_in_slices_as_the_exact_writer(text: str, value: Any) -> None:
    # NOTE: slices of 3 characters: every string longer than that is written in pieces
    doc = {"tools": [value, text], "wire": {"pages": {"tools": [text, json.dumps(value)]}}}
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(jsonwrite, "_SLICE", 3)
        fh = io.BytesIO()
        snap.write(doc, fh)
        assert fh.getvalue() == _written(doc)
        for kind in ALL_KINDS:
            assert jsonwrite.dumps(doc, **kind) == exact_dumps(doc, **kind)  # type: ignore[arg-type]
        assert jcs.jcs_bytes(doc) == exact_dumps(
            doc, sort_keys=True, indent=None, number=jsonwrite.jcs_number
        ).encode("utf-8", "surrogatepass")


def test_a_value_orjson_cannot_write_takes_the_exact_writer_alone() -> None:
    items = [{"name": f"t{i}", "x": 0.5, "y": jsonwire.WireFloat("1.50")} for i in range(50)]
    odd = [{"s": "\ud800"}, {"n": 2**70}, {"f": 1.0}, {"\ue000": 1, "\U0001f600": 2}]
    doc = {"tools": [*items, *odd]}
    for kind in ALL_KINDS:
        assert jsonwrite.dumps(doc, **kind) == exact_dumps(doc, **kind)  # type: ignore[arg-type]
    assert b'"f": 1\n' in _written(doc) and b'"y": 1.50' in _written(doc)


def test_a_wide_list_is_written_in_batches_up_to_the_first_orjson_would_write_otherwise() -> None:
    items = [{"name": f"t{i}", "y": jsonwire.WireFloat("1.50")} for i in range(200)]
    items[100] = {"\ue000": 1, "\U0001f600": 2}  # NOTE: a batch in UTF-16 order (63-126)
    items[170] = {"f": 1.0}  # NOTE: the next batch fails: from there one by one
    texts = {"pages": {"tools": [json.dumps(i, ensure_ascii=False) for i in items] + ["1.0"]}}
    for doc in (items, {"tools": items}, [items, [*items[:64], 2**70]], texts):
        for kind in ALL_KINDS:
            assert jsonwrite.dumps(doc, **kind) == exact_dumps(doc, **kind)  # type: ignore[arg-type]
        assert (
            jcs.jcs_bytes(doc)
            == exact_dumps(doc, sort_keys=True, indent=None, number=jsonwrite.jcs_number).encode()
        )


def test_a_key_is_told_from_a_string_that_looks_like_one_around_escapes() -> None:
    both = "\ue000 \U0001f600"
    keyless = [both + '\\": 1', '"\\\\' + both, both + '\\\\\\":']
    for value in keyless:
        for text in (orjson.dumps([value]), orjson.dumps({"k": value}, option=orjson.OPT_INDENT_2)):
            assert not jsonwrite.utf16_order_may_differ(text)
    for key in (both, "a\\" + both, both + '\\"', both + "\\\\"):
        assert jsonwrite.utf16_order_may_differ(orjson.dumps({key: 1}))
        assert jsonwrite.utf16_order_may_differ(orjson.dumps([{"a": both}, {key: [1]}]))


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(KEYS, VALUES, max_size=4) | WIRE_TEXT.map(jsonwire.loads))
def test_the_canonical_hash_is_the_exact_writers_jcs(item: Any) -> None:
    # NOTE: floats we made ourselves (1.0, 1e16) are written integral in the served text
    exact = exact_dumps(item, sort_keys=True, indent=None, number=jsonwrite.jcs_number)
    want = jcs.sha256(exact.encode("utf-8", "surrogatepass"))
    assert hashes.item_hashes("tools", item).canonical == want


def test_a_listing_of_big_items_is_written_in_pieces_of_about_one_item() -> None:
    # NOTE: 12 tools of 200 kB: their 2.4 MB of written text was one piece, held twice
    big = {
        "type": "object",
        "properties": {f"p{i}": {"description": "x" * 40} for i in range(3000)},
    }
    doc = {
        "listings": {"tools": {"items": [{"name": f"t{i}", "inputSchema": big} for i in range(12)]}}
    }
    pieces: list[bytes] = []
    jsonwrite.write_written(doc, pieces.append)
    assert b"".join(pieces) == _written(doc)
    one = len(jsonwrite.written(doc["listings"]["tools"]["items"][0]))
    assert one > 200_000 and max(len(p) for p in pieces) < 2 * one
