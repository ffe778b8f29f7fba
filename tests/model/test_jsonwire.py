"""Wire-faithful parsing and the written form."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from catalogaudit.model import jsonwire, jsonwrite


@pytest.mark.parametrize(
    "lexeme",
    ["1", "1.0", "1.00", "1E2", "1e-7", "-0", "0.5", "-0.0", "123456789012345678901234567890"],
)
def test_number_lexemes_survive_a_round_trip(lexeme: str) -> None:
    value = jsonwire.loads(f'{{"p":{lexeme}}}')
    assert jsonwrite.compact(value) == f'{{"p":{lexeme}}}'
    assert jsonwrite.lexeme(value["p"]) == lexeme


@pytest.mark.parametrize(
    ("lexeme", "integer"),
    [("1", True), ("0", True), ("-0", True), ("1.0", False), ("1E0", False), ("0.5", False)],
)
def test_integer_on_the_wire_is_a_lexeme_property(lexeme: str, integer: bool) -> None:
    assert jsonwrite.is_integer_lexeme(jsonwire.loads(lexeme)) is integer


def test_parsed_numbers_still_compare_as_numbers() -> None:
    value = jsonwire.loads("[1.0, 1, 0.5]")
    assert value == [1, 1, 0.5]
    assert isinstance(value[0], float) and isinstance(value[1], int)


def test_served_key_order_is_kept_and_written_form_sorts_by_utf16() -> None:
    # U+1F600 is a surrogate pair (D83D DE00) and sorts before U+FB01 in UTF-16 (RFC 8785 3.2.3).
    text = '{"b":1,"\U0001f600":2,"\ufb01":3,"a":4}'
    value = jsonwire.loads(text)
    assert list(value) == ["b", "\U0001f600", "\ufb01", "a"]
    assert list(json.loads(jsonwrite.written(value))) == ["a", "b", "\U0001f600", "\ufb01"]


def test_duplicate_keys_keep_last_value_and_are_reported() -> None:
    value = jsonwire.loads('{"t":{"description":"a","description":"b"}}')
    assert value["t"]["description"] == "b"
    found = jsonwire.anomalies(value)
    assert [(a.kind, a.pointer) for a in found] == [("duplicate-key", "/t/description")]


def test_nan_lone_surrogate_and_invalid_utf8_are_reported_with_pointers() -> None:
    value = jsonwire.loads('{"a":[NaN, -Infinity],"s~/":"x\\ud800"}')
    kinds = [(a.kind, a.pointer) for a in jsonwire.anomalies(value)]
    assert kinds == [
        ("non-finite-number", "/a/0"),
        ("non-finite-number", "/a/1"),
        ("lone-surrogate", "/s~0~1"),
    ]
    text, bad = jsonwire.decode_utf8(b'{"d":"caf\xff"}')
    assert bad
    found = jsonwire.anomalies(jsonwire.loads(text), invalid_utf8=bad)
    assert [(a.kind, a.pointer) for a in found] == [("invalid-utf8", "/d")]


def test_written_form_is_valid_json_even_with_nan() -> None:
    value = jsonwire.loads('{"x":NaN,"y":1.50}')
    out = jsonwrite.written(value)
    assert out.endswith("\n")
    assert json.loads(out) == {"x": None, "y": 1.5}
    assert '"y": 1.50' in out


def test_rfc8785_escapes() -> None:
    value = '\u0000\u001f"\\\b\f\n\r\t\u007f\u00e9\u2028/'
    assert (
        jsonwrite.dump_string(value) == '"\\u0000\\u001f\\"\\\\\\b\\f\\n\\r\\t\u007f\u00e9\u2028/"'
    )


def test_members_give_exact_result_span() -> None:
    text = '{"result" : {"tools":[ {"name":"a"} ]} , "jsonrpc":"2.0","id":7}'
    members = jsonwire.parse_members(text)
    span = members["result"]
    assert text[span.start : span.end] == '{"tools":[ {"name":"a"} ]}'
    assert members["id"].value == 7


@pytest.mark.parametrize("bad", ['{"a":1', '{"a" 1}', "[1]", '{"a":1}x', ""])
def test_members_reject_non_objects_and_garbage(bad: str) -> None:
    with pytest.raises(jsonwire.WireDecodeError):
        jsonwire.parse_members(bad)


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**60), 2**60)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=5), children, max_size=4)
    ),
    max_leaves=20,
)


@given(json_values)
def test_compact_then_parse_is_identity_on_values(value: object) -> None:
    text = json.dumps(value)
    parsed = jsonwire.loads(text)
    assert jsonwire.loads(jsonwrite.compact(parsed)) == json.loads(text)
    assert jsonwrite.compact(jsonwire.loads(jsonwrite.compact(parsed))) == jsonwrite.compact(parsed)


@given(json_values)
def test_written_form_is_a_fixed_point(value: object) -> None:
    once = jsonwrite.written(jsonwire.loads(json.dumps(value)))
    assert jsonwrite.written(jsonwire.loads(once)) == once
