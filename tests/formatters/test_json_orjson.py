"""The JSON and SARIF reports are written by orjson where its text is the standard library's
(`formatters.json.dumps`), byte for byte against `exact_dumps`, the reference, on generated
values with what makes the two differ: non-ASCII, astral and DEL characters, control
characters, lone surrogates, floats, NaN, integers beyond 64 bits, subclasses, enums, sets."""

from __future__ import annotations

import enum
from typing import Any

from hypothesis import example, given, settings
from hypothesis import strategies as st
from test_formatters import full_report, hostile_report

from catalogaudit.formatters import json as report_json
from catalogaudit.formatters.sarif import sarif_log
from catalogaudit.model import Severity


class _Name(str):
    pass


class _Plain(enum.Enum):
    A = 1


TEXT = st.text(
    st.sampled_from(["a", "\x7f", "\x00", "\x1f", "\n", '"', "\\", "/", "\u00e9", "\u2028"])
    | st.sampled_from(["\ufeff", "\U0001f600", "\ud800", "\U0010ffff", "\x85", "\u202e"])
    | st.characters(),
    max_size=6,
)
ODD = st.sampled_from(
    [1.0, -0.0, 1e-7, 1e16, float("nan"), float("inf"), 2**64, -(2**63) - 1, 2**63 - 1]
    + [_Name("x"), Severity.ERROR, _Plain.A, frozenset({"b", "a"}), True, None, -(2**63)]
)
SCALARS = st.integers() | TEXT | st.booleans() | st.none() | ODD | st.floats()
VALUES = st.recursive(
    SCALARS,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.lists(inner, max_size=3).map(tuple)
        | st.dictionaries(TEXT, inner, max_size=4)
        | st.dictionaries(st.sampled_from([_Name("k"), 1, "k"]), inner, max_size=2)
    ),
    max_leaves=12,
)


@settings(max_examples=1500, deadline=None)
@given(VALUES)
@example({"b": [{}, []], "a": "\x7f\u00e9\U0001f600", "\u00e9": 1, "z": [2**64]})
@example({"a": "\ud83d", "b": (1, "x")})
def test_orjson_writes_what_json_dumps_writes(value: Any) -> None:
    assert _outcome(report_json.dumps, value) == _outcome(report_json.exact_dumps, value)


def _outcome(write: Any, value: Any) -> str:
    try:
        return str(write(value))
    except TypeError as e:  # NOTE: keys json cannot sort (1 and "k"): refused alike
        return f"TypeError: {e}"


def test_a_report_document_is_written_by_orjson() -> None:
    """The documents the reports write hold only builtin types, so orjson writes them."""
    for report in (full_report(), hostile_report()):
        for document in (report_json.report_document(report), sarif_log(report, None)):
            assert report_json._orjson(document) is not None
            assert report_json.dumps(document) == report_json.exact_dumps(document)
