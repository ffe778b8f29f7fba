"""`intake.loader.parse` reads a snapshot file in one scan of the wire decoder
(`_whole_snapshot`): the same `Loaded` as the member-by-member parse, value for value (types,
lexemes, duplicate keys, key order), text and errors included."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "model"))
from helpers.nesting import refused_depth  # noqa: E402
from test_fastpaths import KEYS, WIRE_TEXT  # noqa: E402
from test_pieces import _shape  # noqa: E402

from catalogaudit.errors import InputError  # noqa: E402
from catalogaudit.intake import loader  # noqa: E402
from catalogaudit.model import jsonwire, jsonwrite  # noqa: E402

WS = st.sampled_from(["", " ", "\n  ", " \t\r\n "])


@st.composite
def snapshot_text(draw: st.DrawFn) -> str:
    """A snapshot-like file: `formatVersion` and `listings` among other members (any wire
    value: odd lexemes, duplicate keys, lone surrogate escapes, NaN), sometimes a duplicate
    top-level key, any spacing, sometimes cut short or followed by more."""
    ws = draw(WS)
    members = [(k, draw(WIRE_TEXT)) for k in draw(st.lists(KEYS, max_size=3))]
    members.insert(draw(st.integers(0, len(members))), ('"listings"', draw(WIRE_TEXT)))
    members.insert(draw(st.integers(0, len(members))), ('"formatVersion"', draw(WIRE_TEXT)))
    if draw(st.booleans()):  # NOTE: the whole scan is tried when a snapshot key comes first
        members.insert(0, members.pop(draw(st.integers(0, len(members) - 1))))
    if draw(st.booleans()):
        members.append(draw(st.sampled_from(members)))
    body = "{" + ws + ("," + ws).join(f"{k}{ws}:{ws}{v}" for k, v in members) + ws + "}"
    return draw(st.sampled_from([body, ws + body + ws, body[:-1], body + " x", "\ufeff" + body]))


def _loaded(data: bytes) -> Any:
    """What `parse` gives, as it must survive: every field, the document's shape, or the
    error's message."""
    try:
        got = loader.parse("file.json", data)
    except InputError as exc:
        return ("error", str(exc))
    doc = None if got.snapshot is None else _shape(got.snapshot)
    pages = {k: [(p.text, _shape(p.result), p.plain) for p in v] for k, v in got.pages.items()}
    return (got.name, got.form, doc, got.text, got.inferred, pages, got.handshake_text)


def _both(data: bytes, monkeypatch: pytest.MonkeyPatch) -> tuple[Any, Any]:
    fast = _loaded(data)
    with monkeypatch.context() as m:
        m.setattr(loader, "_whole_snapshot", lambda *_: None)
        exact = _loaded(data)
    return fast, exact


@settings(
    max_examples=400, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(snapshot_text())
def test_a_snapshot_file_read_whole_is_the_member_by_member_parse(
    monkeypatch: pytest.MonkeyPatch, text: str
) -> None:
    data = text.encode("utf-8", "surrogatepass")
    fast, exact = _both(data, monkeypatch)
    assert fast == exact


@pytest.mark.parametrize(
    "text",
    [
        '{"formatVersion": 1, "listings": {"a": -0, "b": [1.50, 1E3, NaN, -Infinity]}}',
        '{"formatVersion": 1, "listings": {"a": 1, "a": 2}, "formatVersion": 2}',
        '{"formatVersion": 1, "listings": "\\ud800\\udfff\\u00e9\\/"}',
        '{"formatVersion": 1, "listings": -' + "9" * 50_000 + "}",  # over the bound with its sign
        '{"formatVersion": 1, "listings": []} {}',
        '["formatVersion", "listings"]',
        '{"tools": [], "x": "formatVersion listings"}',  # a raw result naming them
    ],
)
def test_odd_snapshot_files_read_as_before(monkeypatch: pytest.MonkeyPatch, text: str) -> None:
    limit = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(jsonwire.MAX_INT_DIGITS)  # as the CLI runs
    try:
        fast, exact = _both(text.encode(), monkeypatch)
    finally:
        sys.set_int_max_str_digits(limit)
    assert fast == exact


def test_nesting_at_the_recursion_limit_reads_as_before(monkeypatch: pytest.MonkeyPatch) -> None:
    """One scan nests one level deeper than a member's: it may refuse where the member-by-member
    parse does not (and then that parse decides), never the other way round."""
    limit = refused_depth()
    outcomes = set()
    for depth in range(limit - 40, limit + 40):
        deep = "[" * depth + "]" * depth
        data = ('{"formatVersion": 1, "listings": ' + deep + "}").encode()
        fast, exact = (_nesting(data), None)
        with monkeypatch.context() as m:
            m.setattr(loader, "_whole_snapshot", lambda *_: None)
            exact = _nesting(data)
        assert fast == exact, depth
        outcomes.add(fast[0])
    assert outcomes == {"error", "snapshot"}  # NOTE: the limit was crossed


def _nesting(data: bytes) -> tuple[str, int]:
    """The form read (or "error") and how deep the listings nest (no recursion to tell)."""
    try:
        got = loader.parse("file.json", data)
    except InputError:
        return ("error", 0)
    assert got.snapshot is not None
    value, depth = got.snapshot["listings"], 0
    while value:
        value, depth = value[0], depth + 1
    return (got.form, depth)


def test_a_snapshot_file_is_not_parsed_member_by_member(monkeypatch: pytest.MonkeyPatch) -> None:
    """The fast read is taken (fails on the old code, which had only that parse)."""

    def refused(*_: Any) -> Any:
        raise AssertionError("parsed member by member")

    monkeypatch.setattr(loader, "parse_members", refused)
    doc = {"formatVersion": 1, "listings": {"tools": {"items": [{"a": 1.50}]}}}
    got = loader.parse("file.json", json.dumps(doc, indent=2).replace("1.5", "1.50").encode())
    assert got.form == "snapshot" and got.text is not None
    assert jsonwrite.lexeme(got.snapshot["listings"]["tools"]["items"][0]["a"]) == "1.50"  # type: ignore[index]
