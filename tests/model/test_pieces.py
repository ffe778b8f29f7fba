"""`model.pieces.parse_written` (a written-form file parsed piece by piece) gives exactly what
the whole-file parse gives, or None: never another value."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_fastpaths import WIRE_TEXT

from catalogaudit.model import jsonwire, jsonwrite, pieces
from catalogaudit.model.wiretypes import WireObject


def _shape(value: Any) -> Any:
    """Types, served key order, duplicate keys and lexemes: what must survive the parse."""
    if isinstance(value, dict):
        dups = getattr(value, "duplicates", None) if isinstance(value, WireObject) else None
        return (type(value).__name__, dups, [(k, _shape(v)) for k, v in value.items()])
    if isinstance(value, list):
        return ["list", *(_shape(v) for v in value)]
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return (type(value).__name__, jsonwrite.lexeme(value))
    return (type(value).__name__, value)


@pytest.fixture(params=[0, 7, 1 << 20], ids=["every container split", "small", "default"])
def piece(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> int:
    monkeypatch.setattr(pieces, "_PIECE", request.param)
    return int(request.param)


def _whole(data: bytes) -> Any:
    """The top-level value as `intake.loader.parse` reads a snapshot file (whole)."""
    text, _ = jsonwire.decode_utf8(data)
    text = text[1:] if text.startswith("\ufeff") else text
    return {k: m.value for k, m in jsonwire.parse_members(text).items()}


@settings(
    max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.lists(WIRE_TEXT, min_size=1, max_size=4))
def test_a_written_file_parses_to_the_same_document(piece: int, texts: list[str]) -> None:
    doc = {
        "formatVersion": 1,
        "listings": {"tools": {"items": [jsonwire.loads(t) for t in texts]}},
        "wire": {"pages": {"tools": texts}},
    }
    data = jsonwrite.written(doc).encode("utf-8")
    got = pieces.parse_written(data)
    assert got is not None
    assert _shape(got) == _shape(_whole(data))


@settings(
    max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(WIRE_TEXT, st.sampled_from(["\n", "\n  ", " ", ""]))
def test_any_other_file_gives_the_same_document_or_none(piece: int, text: str, ws: str) -> None:
    # NOTE: hand-written: any spacing, duplicate keys (the top level's too), not the written form
    data = '{\n  "formatVersion": 1,' + ws + '"listings":' + ws + text + ',\n  "x": ' + text
    for body in (data + "\n}\n", data + ',\n  "x": 2\n}\n', data + "}"):
        raw = body.encode("utf-8", "surrogatepass")
        try:
            whole = _shape(_whole(raw))
        except Exception:  # noqa: BLE001 - not JSON, or not a snapshot: then None
            whole = None
        got = pieces.parse_written(raw)
        assert got is None or _shape(got) == whole


@pytest.mark.parametrize(
    "data",
    [
        b'\xef\xbb\xbf{\n  "a": 1\n}\n',  # a BOM
        b'{\n  "a": "\xff"\n}\n',  # invalid UTF-8: the whole-file reader escapes it
        b'{\n  "a": 1,\n  "a": 2\n}\n',  # a duplicate top-level key
        b'{\n  "a": [\n    1,\n  2\n  ]\n}\n',  # another indentation
        b'{\n  "a": "x,\n  "b": 1\n}\n',  # a raw newline in a string: not JSON
    ],
)
def test_what_is_not_the_written_form_is_left_to_the_whole_parse(piece: int, data: bytes) -> None:
    assert pieces.parse_written(data) is None or piece > 0


def test_a_snapshot_fixture_parses_the_same(piece: int) -> None:
    from helpers import fixture

    paths = [p for p in sorted(fixture().glob("**/*.json")) if b'"formatVersion"' in p.read_bytes()]
    assert len(paths) > 20
    for path in paths:
        data = path.read_bytes()
        got = pieces.parse_written(data)
        if data == jsonwrite.written(_whole(data)).encode("utf-8"):
            assert got is not None, path
        assert got is None or _shape(got) == _shape(_whole(data)), path


def test_a_duplicate_key_below_the_top_is_kept_as_the_whole_parse_keeps_it(piece: int) -> None:
    data = b'{\n  "listings": {\n    "a": 1.50,\n    "a": [\n      -0,\n      1E3\n    ]\n  }\n}\n'
    got = pieces.parse_written(data)
    assert got is not None
    assert _shape(got) == _shape(_whole(data))
    assert isinstance(got["listings"], WireObject)


@settings(max_examples=400, deadline=None)
@given(
    st.text(alphabet=st.characters(codec=None), max_size=60),
    st.integers(min_value=1, max_value=9),
    st.booleans(),
)
def test_a_long_string_decoded_in_parts_is_the_string(text: str, piece: int, ascii: bool) -> None:
    """`_long_string` cuts the literal between tokens only: the parts joined are the value,
    whatever escapes (`\\uXXXX` pairs, lone surrogates, `\\"`) or UTF-8 sequences it holds."""
    import json

    literal = json.dumps(text, ensure_ascii=ascii).encode("utf-8", "surrogatepass")
    try:
        literal.decode("utf-8")
    except UnicodeDecodeError:
        return  # a raw lone surrogate is not UTF-8: the whole parse refuses it too
    old = pieces._PIECE
    pieces._PIECE = piece
    try:
        got = pieces._long_string(b"x" + literal, 1, 1 + len(literal))
    finally:
        pieces._PIECE = old
    assert got == jsonwire.raw_decode(literal.decode("utf-8"))[0] == text


def test_a_broken_long_string_is_refused() -> None:
    for literal in (b'"a"b"', b'"ab\\q"', b'"a\x01"', b'"ab'):
        with pytest.raises((pieces._NotWritten, jsonwire.WireDecodeError)):
            old = pieces._PIECE
            pieces._PIECE = 1
            try:
                pieces._long_string(literal, 0, len(literal))
            finally:
                pieces._PIECE = old


@pytest.mark.parametrize("text", ["\ud800x", "a\ud83d\ude00b", '\\"\\\\u0041', "\udfff\ud800"])
@pytest.mark.parametrize("piece", [1, 2, 3, 5])
def test_escaped_surrogates_survive_the_cuts(text: str, piece: int) -> None:
    import json

    literal = json.dumps(text).encode("ascii")
    old = pieces._PIECE
    pieces._PIECE = piece
    try:
        want = jsonwire.raw_decode(literal.decode("ascii"))[0]  # a pair joins: one character
        assert pieces._long_string(literal, 0, len(literal)) == want
    finally:
        pieces._PIECE = old


def _encoded_pages(value: Any) -> Any:
    """`value` with its `/wire/pages/LISTING/i` strings as UTF-8 bytes (`surrogatepass`)."""
    pages = value["wire"]["pages"]
    packed = {
        k: [t.encode("utf-8", "surrogatepass") if isinstance(t, str) else t for t in v]
        if isinstance(v, list)
        else v
        for k, v in pages.items()
    }
    return {**value, "wire": {**value["wire"], "pages": packed}}


@settings(
    max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.lists(WIRE_TEXT, min_size=1, max_size=4), st.booleans())
def test_packed_page_texts_are_the_texts_as_utf8(piece: int, texts: list[str], other: bool) -> None:
    """`packed=True` changes only the run-1 page texts, to exactly their UTF-8 bytes: long
    ones (encoded part by part) and short ones, nothing else (not `otherRuns`, not items)."""
    long_text = '{"tools":["' + "\U0001f600\\ud800" * 40 + '"]}'
    pages: list[str | None] = [*texts, long_text, None]
    doc: dict[str, Any] = {
        "formatVersion": 1,
        "listings": {"tools": {"items": [jsonwire.loads(t) for t in texts]}},
        "wire": {"pages": {"tools": pages, "prompts": texts[:1]}},
    }
    if other:
        doc["wire"]["otherRuns"] = [{"run": 2, "pages": {"tools": texts}}]
    data = jsonwrite.written(doc).encode("utf-8")
    got = pieces.parse_written(data, packed=True)
    plain = pieces.parse_written(data)
    assert got is not None and plain is not None
    assert _shape(got) == _shape(_encoded_pages(plain))
    assert got["wire"]["pages"]["tools"][-2] == long_text.encode("utf-8", "surrogatepass")
    assert got["wire"].get("otherRuns") == plain["wire"].get("otherRuns")


def _documents() -> list[bytes]:
    from helpers import fixture

    found = [p.read_bytes() for p in sorted(fixture().glob("**/*.json"))]
    long_page = '{"tools":[{"name":"a","d":"' + "\U0001f600\\ud800," * 200 + '"}],"n":1}'
    doc = {
        "formatVersion": 1,
        "listings": {"tools": {"items": [jsonwire.loads(long_page)["tools"][0]] * 30}},
        "wire": {"pages": {"tools": [long_page, None]}},
    }
    return [d for d in found if b'"formatVersion"' in d] + [jsonwrite.written(doc).encode()]


def test_nothing_before_a_released_offset_is_read_again(piece: int) -> None:
    """`release(offset)` promises the bytes before `offset` are done with (a mapped file's
    pages are dropped there): blanked as soon as released, the parse is still the same."""
    seen = 0
    for original in _documents():
        want = pieces.parse_written(original, packed=True)
        if want is None:
            continue
        data = bytearray(original)
        offsets: list[int] = []

        def release(offset: int, data: bytearray = data, offsets: list[int] = offsets) -> None:
            last = offsets[-1] if offsets else 0
            assert last <= offset <= len(data)
            data[last:offset] = b"\0" * (offset - last)
            offsets.append(offset)

        got = pieces.parse_written(data, packed=True, release=release)  # type: ignore[arg-type]
        assert got is not None and _shape(got) == _shape(want)
        assert offsets and original[offsets[-1] :].strip(b'"\n ]}') == b""  # closers only
        seen += 1
    assert seen > 20
