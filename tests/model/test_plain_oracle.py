"""`validation.plain` against the standard library: what jsonschema-rs is handed is the value
`json.loads` reads from the same text, in builtin types only, or `NOT_PLAIN` exactly where
jsonschema-rs cannot read it (non-finite numbers, integers beyond 64 bits, lone surrogates,
nesting `MAX_DEPTH` deep). Texts carry what the wire parser keeps apart: number spellings,
duplicate keys, escapes."""

from __future__ import annotations

import json
import math
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from catalogaudit.model import jsonwire, validation

_NUMBERS = st.one_of(
    st.integers(min_value=-(2**70), max_value=2**70).map(str),
    st.integers(min_value=2**63 - 2, max_value=2**63 + 1).map(str),
    st.integers(min_value=-(2**63) - 1, max_value=-(2**63) + 2).map(str),
    st.floats(allow_nan=False, allow_infinity=False).map(repr),
    st.floats(allow_nan=False, allow_infinity=False).map(lambda f: f"{f:.17g}"),
    st.sampled_from(["-0", "1.50E1", "-0.0", "1E3", "2e+2", "0.1e1", "2.5E-324"]),
)
#: Strings as JSON text: `\u` escapes or raw characters (with the paired surrogates of an
#: astral character), or holding a lone surrogate either way.
_STRINGS = st.one_of(
    st.builds(json.dumps, st.text(max_size=6), ensure_ascii=st.booleans()),
    st.sampled_from(["\ud800", "a\udfff", "\ud83d\ude00", "\ud83d", "\udc00x"]).flatmap(
        lambda s: st.sampled_from([f'"{s}"', json.dumps(json.loads(f'"{s}"'), ensure_ascii=False)])
    ),
)
_SCALARS = st.one_of(
    _NUMBERS,
    _STRINGS,
    st.sampled_from(["true", "false", "null"]),
    st.sampled_from(["NaN", "Infinity", "-Infinity", "1e400", "-1e400"]),
)


def _containers(children: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    # NOTE: keys may repeat (a small alphabet): the wire parser keeps the last value
    keys = st.one_of(st.sampled_from(['"a"', '"b"', '"\\u0061"']), _STRINGS)
    objects = st.lists(st.tuples(keys, children), max_size=4).map(
        lambda pairs: "{" + ", ".join(f"{k}: {v}" for k, v in pairs) + "}"
    )
    arrays = st.lists(children, max_size=4).map(lambda xs: "[" + ",".join(xs) + "]")
    return st.one_of(objects, arrays)


_TEXTS = st.recursive(_SCALARS, _containers, max_leaves=12)
#: Wrapped in enough arrays to reach `MAX_DEPTH` nesting, or not.
_NESTED = st.tuples(
    _TEXTS,
    st.sampled_from(
        [0, 0, 0, validation.MAX_DEPTH - 2, validation.MAX_DEPTH - 1, validation.MAX_DEPTH]
    ),
).map(lambda t: "[" * t[1] + t[0] + "]" * t[1])


def _refused(value: Any, depth: int = 0) -> bool:
    """What jsonschema-rs cannot be handed, of a value `json.loads` read."""
    if isinstance(value, (dict, list)):
        if depth >= validation.MAX_DEPTH:
            return True
        members = value.items() if isinstance(value, dict) else enumerate(value)
        return any((isinstance(k, str) and _lone(k)) or _refused(v, depth + 1) for k, v in members)
    if isinstance(value, str):
        return _lone(value)
    if isinstance(value, float):
        return not math.isfinite(value)
    if isinstance(value, int) and not isinstance(value, bool):
        return not -(2**63) < value < 2**63
    return False


def _lone(text: str) -> bool:
    return any("\ud800" <= c <= "\udfff" for c in text)


def _same(got: Any, want: Any) -> bool:
    """Equal, of the same builtin types at every level, keys in the same order, zeros signed."""
    if type(got) is not type(want):
        return False
    if isinstance(want, dict):
        return list(got) == list(want) and all(_same(got[k], want[k]) for k in want)
    if isinstance(want, list):
        return len(got) == len(want) and all(map(_same, got, want))
    if isinstance(want, float):
        return got == want and math.copysign(1, got) == math.copysign(1, want)
    return bool(got == want)


@given(_NESTED)
def test_plain_is_the_standard_librarys_value_or_refused(text: str) -> None:
    """Of the wire parse, and of the standard library's own parse (builtin values whose
    integers are not bounded by the parser's lexeme lengths)."""
    want = json.loads(text)
    for value in (jsonwire.loads(text), json.loads(text)):
        got = validation.plain(value)
        if _refused(want):
            assert got is validation.NOT_PLAIN
        else:
            assert _same(got, want)
