"""The fast parse: `raw_decode_plain`, which also says whether the value is plain (no
duplicate key, NaN, `-0` or lexeme `repr` would not write); `raw_decode_whole` and
`raw_decode_compared`, the same parse without that count, for a value kept whole or compared.
"""

from __future__ import annotations

import json
import re
from typing import Any

from catalogaudit.model.wiretypes import (
    MAX_INT_DIGITS,
    LongInteger,
    WireDecodeError,
    WireFloat,
    WireLimitError,
    WireObject,
    object_from_pairs,
    parse_int_lexeme,
)

#: JSON whitespace.
WS = re.compile(r"[ \t\n\r]*")

# --- plain parsing -----------------------------------------------------------------------------


def raw_decode_plain(text: str, idx: int = 0) -> tuple[Any, int, bool]:
    """`raw_decode`, and whether the value is plain: no duplicate keys, no NaN/Infinity, no
    `-0` and every fraction or exponent written as Python's `repr` writes the float.

    A plain page has no anomaly to walk for (`model.capture.page_anomalies`). The count lives
    in this call's hooks (threads parse at once).
    """
    odd = [0]
    decoder = _counting_decoder(odd)
    with _WireErrors(idx):
        value, end = decoder.raw_decode(text, idx)
    return value, end, odd[0] == 0


class _WireErrors:
    """The decoder's errors as `WireDecodeError`s. A context, not a call: the decoder runs one
    Python frame below the caller in each `raw_decode_*`, so every one of them refuses the
    same nesting (before Python 3.12 frames and C levels share one recursion budget)."""

    __slots__ = ("idx",)

    def __init__(self, idx: int) -> None:
        self.idx = idx

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind: object, exc: BaseException | None, tb: object) -> None:
        if isinstance(exc, json.JSONDecodeError):
            # NOTE: json's "Unterminated string starting at" names its offset itself
            what = exc.msg.removesuffix(" at")
            raise WireDecodeError(f"{what} at offset {exc.pos}", exc.pos) from None
        if isinstance(exc, RecursionError):
            raise WireLimitError("nesting too deep", self.idx) from None
        if isinstance(exc, LongInteger):
            raise WireLimitError(f"{exc} (at most {MAX_INT_DIGITS:,} are read)", self.idx) from None


def _counting_decoder(odd: list[int]) -> json.JSONDecoder:
    """The wire decoder, counting in `odd[0]` the values the C encoder would not write back."""
    float_repr = float.__repr__

    def number(lexeme: str) -> WireFloat:
        value = WireFloat(lexeme)
        if float_repr(value) != lexeme:  # 1.50, 1E3, NaN: only the lexeme says it
            odd[0] += 1
        return value

    def integer(lexeme: str) -> int:
        if lexeme == "-0":
            odd[0] += 1
        return parse_int_lexeme(lexeme)

    def pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
        obj = object_from_pairs(items)
        if type(obj) is WireObject:
            odd[0] += 1
        return obj

    return json.JSONDecoder(
        parse_float=number, parse_int=integer, parse_constant=number, object_pairs_hook=pairs
    )


# --- without the count -------------------------------------------------------------------------

#: The wire decoder's own hooks, called straight from the C scanner: the same values as
#: `raw_decode_plain`'s without a closure around each (a sixth of reading a snapshot file).
_WHOLE = json.JSONDecoder(
    parse_float=WireFloat,
    parse_int=parse_int_lexeme,
    parse_constant=WireFloat,
    object_pairs_hook=object_from_pairs,
)
#: Values equal (`==`) to the wire decoder's in every comparison, and its errors: its integers
#: (`-0`, the length bound) and constants, but floats and objects the C scanner's own (a float
#: of the same lexeme; an object keeping the last of duplicate keys, as `WireObject` does).
_COMPARED = json.JSONDecoder(parse_int=parse_int_lexeme, parse_constant=WireFloat)


#: `_WHOLE`'s scanner: one value at an offset, `(value, end)`; raises as the C scanner does
#: (`StopIteration` where no value starts), not `WireDecodeError`.
scan_whole: Any = _WHOLE.scan_once  # type: ignore[attr-defined]


def raw_decode_whole(text: str, idx: int = 0) -> tuple[Any, int]:
    """`raw_decode_plain` without its verdict: the same value, or the same error."""
    with _WireErrors(idx):
        return _WHOLE.raw_decode(text, idx)


def raw_decode_compared(text: str, idx: int = 0) -> tuple[Any, int]:
    """A value only compared with `==` (a wire page's items against the readable ones): equal
    to what `raw_decode_plain` parses, or the same error, without a hook per object or float."""
    with _WireErrors(idx):
        return _COMPARED.raw_decode(text, idx)


def loads_whole(text: str) -> Any:
    """`jsonwire.loads` by `raw_decode_whole`: one document, whitespace around it."""
    value, end = raw_decode_whole(text, WS.match(text, 0).end())  # type: ignore[union-attr]
    return ended(text, value, end)


def ended(text: str, value: Any, end: int) -> Any:
    """`value` when only whitespace follows `end` in `text`."""
    end = WS.match(text, end).end()  # type: ignore[union-attr]
    if end != len(text):
        raise WireDecodeError(f"extra data at offset {end}", end)
    return value
