"""The fast half of `jsonwire.dumps`: one recursive function appending to a list.

Why not the generator of `jsonwire.exact_dumps`: one generator frame per value and a regex
substitution per string made the written form of a 10 MB catalog take seconds. Here strings go
through CPython's C escaper (`json.encoder.encode_basestring`, which escapes exactly what RFC
8785 section 3.2.2.2 escapes, except lone surrogates: `jsonwire.dumps` checks the output for
them and then runs the exact writer), keys sort by code point when every key of an object is
ASCII (UTF-16 order is the same then) and plain safe integers skip the `number` call.
"""

from __future__ import annotations

import json
import json.encoder
from collections.abc import Callable
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

_ESCAPE: Callable[[str], str] = json.encoder.encode_basestring
_SAFE = 2**53 - 1


def _utf16(key: str) -> bytes:
    return key.encode("utf-16-be", "surrogatepass")


def dumps(
    value: Any, sort_keys: bool, indent: int | None, number: Callable[[int | float], str]
) -> str:
    """The same text as `jsonwire.exact_dumps` for values without lone surrogates."""
    out: list[str] = []
    put = out.append
    escape = _ESCAPE
    pads = ["\n" + " " * (indent * d) for d in range(64)] if indent is not None else []
    colon = ": " if indent is not None else ":"

    def pad(depth: int) -> str:
        if depth < len(pads):
            return pads[depth]
        return "\n" + " " * ((indent or 0) * depth)

    def write(v: Any, depth: int) -> None:
        t = type(v)
        if t is str:
            put(escape(v))
        elif v is None:
            put("null")
        elif v is True:
            put("true")
        elif v is False:
            put("false")
        elif t is int and -_SAFE <= v <= _SAFE:
            put(int.__repr__(v))
        elif isinstance(v, dict):
            if not v:
                put("{}")
                return
            if sort_keys:
                keys = sorted(v)
                if not "".join(keys).isascii():
                    keys = sorted(v, key=_utf16)
            else:
                keys = list(v)
            if indent is None:
                first = True
                for key in keys:
                    put(("{" if first else ",") + escape(key) + ":")
                    first = False
                    write(v[key], depth + 1)
                put("}")
            else:
                inner = pad(depth + 1)
                sep = "," + inner
                put("{" + inner)
                first = True
                for key in keys:
                    if not first:
                        put(sep)
                    first = False
                    put(escape(key) + colon)
                    write(v[key], depth + 1)
                put(pad(depth) + "}")
        elif isinstance(v, (list, tuple)):
            if not v:
                put("[]")
                return
            if indent is None:
                put("[")
                first = True
                for item in v:
                    if not first:
                        put(",")
                    first = False
                    write(item, depth + 1)
                put("]")
            else:
                inner = pad(depth + 1)
                sep = "," + inner
                put("[" + inner)
                first = True
                for item in v:
                    if not first:
                        put(sep)
                    first = False
                    write(item, depth + 1)
                put(pad(depth) + "]")
        elif isinstance(v, str):
            put(escape(v))
        elif isinstance(v, (int, float)):
            put(number(v))
        else:
            raise TypeError(f"cannot serialize {type(v).__name__}")

    write(value, 0)
    return "".join(out)


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
