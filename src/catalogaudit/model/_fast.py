"""The fast parse: `raw_decode_plain`, which also says whether the C encoder writes the value
back as it was served (the writer is `model/_writer.py`).
"""

from __future__ import annotations

import json
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

# --- plain parsing -----------------------------------------------------------------------------


def raw_decode_plain(text: str, idx: int = 0) -> tuple[Any, int, bool]:
    """`raw_decode`, and whether the value is plain: no duplicate keys, no NaN/Infinity, no
    `-0` and every fraction or exponent written as Python's `repr` writes the float.

    A plain value's compact form is what the C encoder writes (`plain_compact`), so hashing it
    needs no pure-Python writer. The count lives in this call's hooks (threads parse at once).
    """
    odd = [0]
    decoder = _counting_decoder(odd)
    try:
        value, end = decoder.raw_decode(text, idx)
    except json.JSONDecodeError as exc:
        raise WireDecodeError(f"{exc.msg} at offset {exc.pos}", exc.pos) from None
    except RecursionError:
        raise WireLimitError("nesting too deep", idx) from None
    except LongInteger as exc:
        raise WireLimitError(f"{exc} (at most {MAX_INT_DIGITS:,} are read)", idx) from None
    return value, end, odd[0] == 0


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
