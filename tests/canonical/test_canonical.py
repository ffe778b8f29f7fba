"""RFC 8785 bytes: the RFC's own examples, `rfc8785` as the oracle, and fast path == slow path."""

from __future__ import annotations

import gc
import hashlib
import io
import json
import struct
from typing import Any

import pytest
import rfc8785
from helpers import FIXTURES, jcs_of
from hypothesis import given, settings
from hypothesis import strategies as st

from catalogaudit.canonical import hashes
from catalogaudit.canonical import jcs as canonical
from catalogaudit.errors import InputError
from catalogaudit.model import jsonwire, jsonwrite
from catalogaudit.model.wiretypes import WireFloat, WireInt

CASES = sorted(p.stem for p in (FIXTURES / "canonical" / "input").iterdir())
MAX_SAFE = 2**53 - 1

# --- RFC 8785's worked examples ----------------------------------------------------------------


def vector(name: str) -> tuple[bytes, bytes, str]:
    """Input, expected output and the sha256 guarding the output (house style rule 21)."""
    base = FIXTURES / "canonical"
    return (
        (base / "input" / f"{name}.json").read_bytes(),
        (base / "output" / f"{name}.json").read_bytes(),
        (base / "sha256" / f"{name}.sha256").read_text(),
    )


def test_the_rfc_examples_are_all_there() -> None:
    assert CASES == [
        "rfc8785-3.2.2-primitives",
        "rfc8785-3.2.3-sorting",
        "rfc8785-appendix-b-numbers",
    ]


@pytest.mark.parametrize("name", CASES)
def test_rfc_examples_byte_for_byte(name: str) -> None:
    data, expected, digest = vector(name)
    assert hashlib.sha256(expected).hexdigest() == digest, "output file edited (newline added?)"
    assert not expected.endswith(b"\n")
    assert jcs_of(data, name) == expected
    assert canonical.jcs_bytes(jsonwire.loads(data.decode())) == expected
    assert canonical.jcs_bytes(json.loads(data)) == expected
    assert jsonwrite.canonical(jsonwire.loads(data.decode())).encode() == expected
    assert rfc8785.dumps(json.loads(data)) == expected  # the oracle agrees with the RFC too


@pytest.mark.parametrize(
    "text",
    ['{"b":["\\\\u003a",1.5],"a":{"k":"\\u003a"}}', '{"a":1,"a":2,"b":{"c":[1,2]}}'],
)
def test_a_document_the_quick_path_gives_up_on_after_writing_is_written_once(text: str) -> None:
    """`\\u003a` (an escaped backslash, then `u003a`) makes the quick path's colon count
    miss, a dropped duplicate key too: what it wrote is taken back, and the exact path's bytes
    (or its refusal) are all there is."""
    data = text.encode()
    from catalogaudit.canonical import strict

    probe = io.BytesIO()
    assert strict._orjson_jcs(data, probe) is None  # NOTE: the case is the one meant
    assert probe.getvalue() == b""
    fh = io.BytesIO()
    try:
        size = strict.write_jcs(data, "x", fh)
    except InputError as exc:
        assert "duplicate key" in str(exc)
        return
    assert fh.getvalue() == rfc8785.dumps(json.loads(data))
    assert size == len(fh.getvalue())


@pytest.mark.parametrize(
    ("bits", "name"), [("7fffffffffffffff", "nan"), ("7ff0000000000000", "inf")]
)
def test_appendix_b_nan_and_infinity_are_errors(bits: str, name: str) -> None:
    value = struct.unpack(">d", bytes.fromhex(bits))[0]
    assert repr(value) == name
    text = json.dumps([value])  # Python writes NaN / Infinity, which JCS cannot hold
    assert text in ("[NaN]", "[Infinity]")
    with pytest.raises(InputError, match=r"is not a JSON number at /0$"):
        jcs_of(text.encode(), "x")


# --- what --jcs refuses, with its pointer --------------------------------------------------------


NOT_JCS = "doc.json: not representable in RFC 8785: "


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"a":{"b":1,"b":2}}', NOT_JCS + "duplicate key at /a/b"),
        ('{"x":[1,NaN]}', NOT_JCS + "NaN is not a JSON number at /x/1"),
        ("[-Infinity]", NOT_JCS + "-Infinity is not a JSON number at /0"),
        ('{"m":1E400}', NOT_JCS + "1E400 is beyond the IEEE 754 double range at /m"),
        ('{"n":9007199254740992}', NOT_JCS + "integer 9007199254740992 is beyond +-(2^53-1) at /n"),
        ("[-9007199254740992]", NOT_JCS + "integer -9007199254740992 is beyond +-(2^53-1) at /0"),
        ('{"a/b~":"\\ud800"}', NOT_JCS + "string has a lone surrogate at /a~1b~0"),
        ('{"\\udc00":1}', NOT_JCS + "key has a lone surrogate at /\udc00"),
        ('"\\ud83d"', NOT_JCS + "string has a lone surrogate at the document root"),
        ('[NaN,{"a":1,"a":2}]', NOT_JCS + "NaN is not a JSON number at /0 (and 1 more)"),
        ("", "doc.json: empty input"),
        ("[1,", "doc.json: not JSON (Expecting value at offset 3)"),
        ('["a', "doc.json: not JSON (Unterminated string starting at offset 1)"),  # not "at at"
    ],
)
def test_strict_jcs_errors_name_the_problem_and_its_pointer(text: str, message: str) -> None:
    with pytest.raises(InputError) as err:
        jcs_of(text.encode(), "doc.json")
    assert str(err.value) == message


def test_invalid_utf8_is_named_as_such() -> None:
    with pytest.raises(InputError, match=r"string is not valid UTF-8 at /s$"):
        jcs_of(b'{"s":"a\xffb"}', "x")


def test_safe_extremes_and_bom_are_accepted() -> None:
    data = f"\ufeff[{MAX_SAFE},{-MAX_SAFE},9007199254740992.0]".encode()
    assert jcs_of(data, "x") == b"[9007199254740991,-9007199254740991,9007199254740992]"


# --- the fast path: when it may be used, and that it is ------------------------------------


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ({"\ufb33": 1, "\U0001f600": 2}, '{"\U0001f600":2,"\ufb33":1}'),  # UTF-16 order
        ({"b": [1.0, 1e-7, 1e16, -0.0]}, '{"b":[1,1e-7,10000000000000000,0]}'),
        ({"s": "[1.5", "n": 1234567890123456}, '{"n":1234567890123456,"s":"[1.5"}'),
        ({"big": 2**63 - 1}, '{"big":9223372036854776000}'),
        ({"s": "\ud800x"}, '{"s":"\\ud800x"}'),
        ({"c": "\x00\x1f\x7f\u2028/"}, '{"c":"\\u0000\\u001f\x7f\u2028/"}'),
        ([WireInt("-0"), WireFloat("1E400")], "[0,1E400]"),
        ("top", '"top"'),
    ],
)
def test_jcs_bytes_edge_cases(value: Any, expected: str) -> None:
    assert canonical.jcs_bytes(value) == expected.encode("utf-8")
    assert jsonwrite.canonical(value) == expected


def test_gc_is_paused_and_restored() -> None:
    assert gc.isenabled()
    with canonical.gc_paused():
        assert not gc.isenabled()
    assert gc.isenabled()
    gc.disable()
    try:
        with canonical.gc_paused():
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()


# --- hypothesis: the fast path against rfc8785 and against the slow path --------------------------

TRICKY = '\x00\x1f"\\/\x7f\u0080\u2028\ue000\ufb33\uffff\U0001f600é1.[:,e'
chars = st.characters(blacklist_categories=("Cs",)) | st.sampled_from(TRICKY)
keys = st.text(chars, max_size=5)
scalars = (
    st.none()
    | st.booleans()
    | st.integers(-MAX_SAFE, MAX_SAFE)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(chars, max_size=12)
)
values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(keys, inner, max_size=5),
    max_leaves=25,
)


@settings(max_examples=400, deadline=None)
@given(values, st.booleans())
def test_same_bytes_as_rfc8785_on_every_path(value: Any, ascii_only: bool) -> None:
    expected = rfc8785.dumps(value)
    text = json.dumps(value, ensure_ascii=ascii_only)
    assert canonical.jcs_bytes(value) == expected
    assert canonical.jcs_bytes(jsonwire.loads(text)) == expected
    assert jcs_of(text.encode(), "x") == expected


def walk(value: Any) -> list[Any]:
    if isinstance(value, dict):
        return [value, *(x for v in value.values() for x in walk(v))]
    if isinstance(value, list):
        return [value, *(x for v in value for x in walk(v))]
    return [value]


@settings(max_examples=200, deadline=None)
@given(values)
def test_idempotent(value: Any) -> None:
    once = canonical.jcs_bytes(value)
    assert canonical.jcs_bytes(json.loads(once)) == once
    # NOTE: the double 2.0**53 is written `9007199254740992`, an integer lexeme that --jcs
    # (like rfc8785) refuses on the way back in: idempotent within the safe-integer range.
    big = [x for x in walk(value) if isinstance(x, float) and MAX_SAFE < abs(x) < 1e21]
    if not big:
        assert jcs_of(once, "x") == once


def reorder(value: Any, rnd: Any) -> Any:
    if isinstance(value, dict):
        keys = list(value)
        rnd.shuffle(keys)
        return {k: reorder(value[k], rnd) for k in keys}
    if isinstance(value, list):
        return [reorder(v, rnd) for v in value]
    return value


@settings(max_examples=200, deadline=None)
@given(values, st.randoms(use_true_random=False))
def test_insensitive_to_key_order(value: Any, rnd: Any) -> None:
    assert canonical.jcs_bytes(reorder(value, rnd)) == canonical.jcs_bytes(value)


items = st.lists(
    st.fixed_dictionaries({"name": st.text(chars, max_size=3)}, optional={"v": values}),
    max_size=6,
)


@settings(max_examples=150, deadline=None)
@given(items, st.randoms(use_true_random=False))
def test_listing_canonical_hash_is_insensitive_to_item_and_key_order(
    served: list[Any], rnd: Any
) -> None:
    shuffled = [reorder(i, rnd) for i in served]
    rnd.shuffle(shuffled)
    expected = _listing_hashes(served)["canonical"]
    assert _listing_hashes(shuffled)["canonical"] == expected


def _listing_hashes(served: list[Any]) -> dict[str, str]:
    return hashes.listing_hashes("tools", served, [hashes.item_hashes("tools", i) for i in served])


def leaves(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Paths to every scalar and every empty container."""
    if isinstance(value, dict) and value:
        return [p for k, v in value.items() for p in leaves(v, (*path, k))]
    if isinstance(value, list) and value:
        return [p for i, v in enumerate(value) for p in leaves(v, (*path, i))]
    return [path]


def changed(value: Any, path: tuple[Any, ...], new: Any) -> Any:
    if not path:
        return new
    head, rest = path[0], path[1:]
    if isinstance(value, dict):
        return {**value, head: changed(value[head], rest, new)}
    return [changed(v, rest, new) if i == head else v for i, v in enumerate(value)]


def other(leaf: Any) -> Any:
    """A value whose JCS bytes differ from the leaf's."""
    if isinstance(leaf, str):
        return leaf + "x"
    if isinstance(leaf, bool) or leaf is None:
        return not leaf
    if leaf == [] or leaf == {}:
        return [None] if isinstance(leaf, list) else {"": None}
    return [leaf]  # a number (adding 1 to 1e300 would not change it)


@settings(max_examples=300, deadline=None)
@given(values, st.data())
def test_sensitive_to_any_value_change(value: Any, data: Any) -> None:
    path = data.draw(st.sampled_from(leaves(value)))
    leaf = value
    for step in path:
        leaf = leaf[step]
    mutated = changed(value, path, other(leaf))
    assert canonical.jcs_bytes(mutated) != canonical.jcs_bytes(value)
    assert canonical.jcs_bytes(mutated) == rfc8785.dumps(mutated)
