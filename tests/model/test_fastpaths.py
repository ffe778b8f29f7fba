"""The fast paths (issue 14) against the exact ones, byte for byte, on hostile wire text.

The generated texts are what a server can send: any number lexeme (`1.50`, `1E3`, `-0`,
`NaN`, 20-digit integers), duplicate keys, lone surrogate escapes, astral and U+E000+ keys
(where UTF-16 and code-point order differ), control characters, and several whitespace
layouts. Every fast answer must equal the exact writer's or the full walk's.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from helpers import jcs_of
from hypothesis import given, settings
from hypothesis import strategies as st

from catalogaudit.model import jsonwire, jsonwrite
from catalogaudit.model.capture import page_anomalies, unsafe_integers

LEXEMES = (
    st.sampled_from(
        [
            "0",
            "-0",
            "1",
            "-17",
            "1.0",
            "1.50",
            "0.5",
            "1e-07",
            "1E3",
            "1e+16",
            "2.5E-3",
            "3.14159",
            "100.0",
            "9007199254740993",
            "-12345678901234567890",
            "1E400",
            "NaN",
            "Infinity",
            "-Infinity",
        ]
    )
    | st.integers(-(2**70), 2**70).map(str)
    | st.floats(allow_nan=False).map(repr).filter(lambda s: s not in ("inf", "-inf"))
)
STRINGS = st.text(
    alphabet=st.characters(codec="utf-8")
    | st.sampled_from(["\x00", "\x1f", "\x7f", '"', "\\", "\ue000", "\uffff", "\U0001f600"]),
    max_size=6,
)
#: Escapes as written in JSON text; the last two: an escaped backslash before a surrogate
#: escape (`\\ud83d\udc00` holds a lone low surrogate, `\\\ud83d\ude00` a pair).
ESCAPES = st.sampled_from(
    ["\\ud800", "\\udfff", "\\ud83d\\ude00", "\\u00e9", "\\n", "\\/"]
    + ["\\\\ud83d\\udc00", "\\\\\\ud83d\\ude00"]
)


@st.composite
def string_text(draw: st.DrawFn) -> str:
    """A JSON string literal, sometimes with raw escapes (lone surrogates among them)."""
    body = json.dumps(draw(STRINGS), ensure_ascii=draw(st.booleans()))[1:-1]
    if draw(st.booleans()):
        body += draw(ESCAPES)
    return '"' + body + '"'


#: Keys where UTF-16 order and code-point order disagree (RFC 8785 section 3.2.3), and others.
KEYS = st.sampled_from(["a", "b", "\ue000", "\uffff x", "\U0001f600", "\U0001f600a", "é", ""]).map(
    lambda k: json.dumps(k, ensure_ascii=False)
)


def value_text(children: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    pairs = st.lists(st.tuples(KEYS | string_text(), children), max_size=4)
    objects = st.tuples(pairs, st.booleans(), st.sampled_from(["", " ", "\n  "])).map(_object)
    arrays = st.tuples(st.lists(children, max_size=4), st.sampled_from(["", " "])).map(
        lambda a: "[" + ("," + a[1]).join(a[0]) + "]"
    )
    return objects | arrays


def _object(spec: tuple[list[tuple[str, str]], bool, str]) -> str:
    pairs, duplicate, ws = spec
    if duplicate and pairs:
        pairs = [*pairs, pairs[0]]
    return "{" + ws + ("," + ws).join(f"{k}:{ws}{v}" for k, v in pairs) + ws + "}"


WIRE_TEXT = st.recursive(
    LEXEMES | string_text() | st.sampled_from(["true", "false", "null"]), value_text, max_leaves=25
)
ALL_KINDS = [
    {"sort_keys": False, "indent": None},
    {"sort_keys": True, "indent": None, "number": jsonwrite.jcs_number},
    {"sort_keys": True, "indent": 2, "number": jsonwrite._written_number},
    {"sort_keys": True, "indent": 2},
]


@settings(max_examples=400, deadline=None)
@given(WIRE_TEXT, st.booleans())
def test_page_anomalies_equal_the_full_walk(text: str, invalid_utf8: bool) -> None:
    value, _, plain = jsonwire.raw_decode_plain(text)
    full = [*jsonwire.anomalies(value, invalid_utf8), *unsafe_integers(value)]
    assert page_anomalies(value, text, invalid_utf8, plain) == full


def _unsafe_pointers(value: Any, at: str = "") -> Iterator[str]:
    """The reference walk: recursive, every member in order."""
    if isinstance(value, (dict, list)):
        members = value.items() if isinstance(value, dict) else enumerate(value)
        for key, member in members:
            yield from _unsafe_pointers(member, jsonwire.pointer_join(at, key))
    elif isinstance(value, int) and not isinstance(value, bool) and abs(value) > 2**53 - 1:
        yield at


def _expected(value: Any) -> list[tuple[str, int]]:
    """The reference grouping: each item of an array of the page result (a dict) is a group,
    the rest of the page one; (first pointer, count) per group, by first pointer's order."""
    groups: dict[str | None, list[Any]] = {}
    for at in _unsafe_pointers(value):
        steps = at.split("/")
        key = steps[1].replace("~1", "/").replace("~0", "~") if len(steps) > 2 else None
        is_item = isinstance(value, dict) and isinstance(value.get(key), list)
        group = "/".join(steps[:3]) if is_item else None
        groups.setdefault(group, [at, 0])[1] += 1
    return [(first, count) for first, count in groups.values()]


@settings(max_examples=300, deadline=None)
@given(WIRE_TEXT)
def test_unsafe_integers_are_found_once_per_item_in_document_order(text: str) -> None:
    value = jsonwire.loads(text)
    for big in ("9007199254740993", "-12345678901234567890123"):
        value = [value, {"a/b": [jsonwire.loads(big)], "~": {"x": value}}]
        for page in (value, {"tools": value, "_meta": {"m": value}, "n": jsonwire.loads(big)}):
            found = unsafe_integers(page)
            expected = _expected(page)
            assert [a.pointer for a in found] == [at for at, _ in expected]
            for anomaly, (_, count) in zip(found, expected, strict=True):
                assert anomaly.kind == "unsafe-integer" and "beyond 2^53-1" in anomaly.detail
                assert anomaly.count == count
    assert [a.pointer for a in unsafe_integers(jsonwire.loads("1e400"))] == []
    assert [a.pointer for a in unsafe_integers(2**60)] == [""]


def test_plain_is_false_only_for_duplicate_keys_and_non_finite_numbers() -> None:
    for text in ("[NaN]", "[-Infinity]", '{"a":1,"a":2}', '[{"b":[{"a":1,"a":2}]}]'):
        assert jsonwire.raw_decode_plain(text)[2] is False, text
    for text in ("[1.50]", "[1E3]", "[-0]", "[1e400]", "[12345678901234567890]", '"NaN"'):
        assert jsonwire.raw_decode_plain(text)[2] is True, text


@settings(max_examples=300, deadline=None)
@given(WIRE_TEXT)
def test_strict_jcs_is_the_exact_writers_bytes_or_a_refusal(text: str) -> None:
    from catalogaudit.canonical import jcs
    from catalogaudit.errors import InputError
    from catalogaudit.model import anomalies

    found = anomalies(jsonwire.loads(text), numbers=True)
    try:
        out = jcs_of(text.encode("utf-8", "surrogatepass"), "t")
    except InputError:
        return  # refused: the walk ran (or the text is not one document)
    assert not found
    assert out == jcs.jcs_bytes(jsonwire.loads(text))


@settings(max_examples=2000, deadline=None)
@given(st.floats(allow_nan=False, allow_infinity=False))
def test_a_float_the_c_encoder_writes_unflagged_is_its_es6_form(number: float) -> None:
    import rfc8785

    from catalogaudit.canonical import jcs

    assert jcs.jcs_bytes([number, {"f": number}]) == rfc8785.dumps([number, {"f": number}])


#: Strings holding what `jcs.es6_numbers` looks for, which it must leave as they are.
LOOKALIKES = ["", "1.0", ":1.0,", ",-0.0]", "[1e-6}", 'a"b:1.0,', "\\", '\\"', "x:1e+16]", "é😀"]


@settings(max_examples=2000, deadline=None)
@given(st.floats(allow_nan=False, allow_infinity=False), st.sampled_from(LOOKALIKES), st.booleans())
def test_orjson_doubles_respelled_are_rfc8785s(number: float, text: str, long: bool) -> None:
    import rfc8785

    from catalogaudit.canonical import jcs

    padding = "x" * 2000 if long else ""  # NOTE: long, the tokens are respelled one by one
    value = [number, {"f": number, text: [text, number, {text: text}], "p": padding}]
    assert jcs.plain_jcs(value) == rfc8785.dumps(value)


@settings(max_examples=1000, deadline=None)
@given(WIRE_TEXT)
def test_the_canonical_hash_from_the_served_text_is_the_exact_writers(text: str) -> None:
    from catalogaudit.canonical import hashes, jcs

    value = jsonwire.loads(text)
    assert hashes._jcs_of(value, jsonwrite.compact_utf8(value)) == jcs.jcs_bytes(value)
