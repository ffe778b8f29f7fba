"""The written form handed on in pieces (`jsonwire.write_written`, `snapshot.build.write`) is
the same text as the exact writer's, whatever the piece boundaries (issue 14: a 10 MB catalog's
written form is never held whole)."""

from __future__ import annotations

import io
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_fastpaths import ALL_KINDS, WIRE_TEXT

from catalogaudit.model import _writer, jsonwire
from catalogaudit.snapshot import build as snap


def _exact_written(value: Any) -> str:
    return jsonwire.exact_dumps(value, sort_keys=True, indent=2, number=jsonwire._written_number)


def _pieces(value: Any, chunk: int, **kind: Any) -> list[str]:
    got: list[str] = []
    _writer.write(
        value, kind["sort_keys"], kind["indent"], kind.get("number", jsonwire.lexeme), got.append,
        chunk,
    )  # fmt: skip
    return got


@settings(max_examples=300, deadline=None)
@given(WIRE_TEXT, st.integers(1, 8))
def test_pieces_join_to_the_exact_text_at_any_chunk_size(text: str, chunk: int) -> None:
    value = jsonwire.loads(text)
    for kind in ALL_KINDS:
        joined = "".join(_pieces(value, chunk, **kind))
        if not jsonwire._SURROGATE.search(joined):  # kept raw: the callers run the exact writer
            assert joined == jsonwire.exact_dumps(value, **kind)  # type: ignore[arg-type]


@settings(max_examples=300, deadline=None)
@given(WIRE_TEXT)
def test_snapshot_write_gives_the_written_bytes_lone_surrogates_too(text: str) -> None:
    value = {"wire": {"pages": [text]}, "items": [jsonwire.loads(text)]}
    fh = io.BytesIO(b"kept")
    fh.seek(4)
    size = snap.write(value, fh)  # type: ignore[arg-type]
    want = (_exact_written(value) + "\n").encode("utf-8")
    assert fh.getvalue() == b"kept" + want
    assert size == len(want)
    assert snap.render(value).encode("utf-8") == want


def test_a_lone_surrogate_late_in_the_document_restarts_the_exact_writer() -> None:
    # NOTE: many pieces are written before the surrogate is met; they must not stay
    value = {"a": ["x" * 100] * 70000, "z": "\ud800"}
    fh = io.BytesIO()
    size = snap.write(value, fh)  # type: ignore[arg-type]
    assert fh.getvalue() == (_exact_written(value) + "\n").encode("utf-8")
    assert size == len(fh.getvalue())
    assert b'"\\ud800"' in fh.getvalue()


@pytest.mark.parametrize("length", [_writer._LONG - 1, _writer._LONG, 3 * _writer._LONG + 7])
def test_a_long_string_is_written_in_slices_with_the_same_text(length: int) -> None:
    page = ('tab\t"quote"\\ \x01 é \U0001f600 \ue000 ' * (length // 20 + 1))[:length]
    value = {"wire": {"pages": {"tools": [page, "short"]}}, "n": [1, 2.5]}
    pieces = _pieces(value, 4, sort_keys=True, indent=2, number=jsonwire._written_number)
    assert "".join(pieces) + "\n" == _exact_written(value) + "\n"
    if length > _writer._LONG:  # handed on in slices, never whole
        assert max(len(p) for p in pieces) < len(jsonwire.dump_string(page))


@pytest.mark.parametrize("depth", [62, 63, 64, 65, 80])
def test_values_nested_past_the_precomputed_pads_are_indented_as_the_exact_writer_does(
    depth: int,
) -> None:
    # NOTE: the writer reads its first 64 indents from a table and computes deeper ones.
    value: Any = {"leaf": [1, "x"]}
    for level in range(depth):
        value = {"k": value, "n": level} if level % 2 else [value, level]
    joined = "".join(_pieces(value, 4, sort_keys=True, indent=2, number=jsonwire._written_number))
    assert joined == _exact_written(value)
