"""The fast writer behind `jsonwire.dumps` and `jsonwire.write_written`: one recursive
function appending pieces to a list, handed to a sink every `chunk` pieces.

Why not the generator of `jsonwire.exact_dumps`: one generator frame per value and a regex
substitution per string made the written form of a 10 MB catalog take seconds. Here strings go
through CPython's C escaper (`json.encoder.encode_basestring`, which escapes exactly what RFC
8785 section 3.2.2.2 escapes, except lone surrogates: the callers check for them and then run
the exact writer), keys sort by code point when every key of an object is ASCII (UTF-16 order
is the same then), string and plain integer members are written in their container's loop (no
call per value), each key is escaped once, and plain safe integers skip the `number` call.

Why a sink: the written form of a 10 MB catalog is a 29 MB text, 116 MB as a Python string
when one character is astral; handed on in pieces, it is never held whole. A string longer
than `_LONG` (a page text kept in `wire`) is escaped in slices for the same reason: escaping
is per character, so the slices give the same text.

Why `Verbatim`: a part of a document rendered ahead (`snapshot.ahead`: a big catalog's items,
rendered while they are hashed) is handed to the sink as it stands, at its place;
`write(..., depth=d)` rendered it as it stands at depth `d` of the document.
"""

from __future__ import annotations

import json.encoder
from collections.abc import Callable, Iterable
from typing import Any

_ESCAPE: Callable[[str], str] = json.encoder.encode_basestring
_SAFE = 2**53 - 1
#: Strings at least this long are escaped (and handed on) in slices of this many characters.
_LONG = 1 << 18


class Verbatim:
    """A value's text already rendered (UTF-8 pieces); `write` hands it to the sink itself."""

    __slots__ = ("pieces",)

    def __init__(self, pieces: Iterable[bytes]) -> None:
        self.pieces = pieces


def _utf16(key: str) -> bytes:
    return key.encode("utf-16-be", "surrogatepass")


def write(
    value: Any,
    sort_keys: bool,
    indent: int | None,
    number: Callable[[int | float], str],
    sink: Callable[[str], object],
    chunk: int | None = None,
    depth: int = 0,
) -> None:
    """Hand `sink` the text of `value` in order, in pieces of about `chunk` parts (None: one
    piece); the same text as `jsonwire.exact_dumps` for values without lone surrogates. The
    text is the value's as it stands at `depth` of a document; a `Verbatim` is handed on."""
    out: list[str] = []
    put = out.append
    escape = _ESCAPE
    limit = chunk if chunk is not None else -1
    pads = ["\n" + " " * (indent * d) for d in range(64)] if indent is not None else []
    colon = ": " if indent is not None else ":"
    #: NOTE: `pads[depth]` is read in place below, not through `pad` (a call per container
    #: was a tenth of the written form's time); `pad` is for deeper values only.
    deepest = len(pads) - 1

    def pad(depth: int) -> str:
        if depth < len(pads):
            return pads[depth]
        return "\n" + " " * ((indent or 0) * depth)

    #: `"key": ` per key met, escaped once (schemas repeat `type`, `description`, ...).
    heads: dict[str, str] = {}

    def head_of(key: str) -> str:
        text = heads[key] = escape(key) + colon
        return text

    def flush() -> None:
        if out:
            sink("".join(out))
            out.clear()

    def long_string(s: str) -> None:
        put('"')
        for at in range(0, len(s), _LONG):
            put(escape(s[at : at + _LONG])[1:-1])
            if limit >= 0:
                flush()
        put('"')

    def write(v: Any, depth: int) -> None:
        t = type(v)
        if t is str:
            if len(v) < _LONG:
                put(escape(v))
            else:
                long_string(v)
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
                inner = pads[depth + 1] if depth < deepest else pad(depth + 1)
                sep = "," + inner
                lead = "{" + inner
                # NOTE: strings and plain integers written here and in the list branch below,
                # not through `write`: a call per value was half the written form's time.
                for key in keys:
                    x = v[key]
                    put(lead)
                    put(heads.get(key) or head_of(key))
                    lead = sep
                    tx = type(x)
                    if tx is str and len(x) < _LONG:
                        put(escape(x))
                    elif tx is int and -_SAFE <= x <= _SAFE:
                        put(int.__repr__(x))
                    else:
                        write(x, depth + 1)
                put((pads[depth] if depth < deepest else pad(depth)) + "}")
            if len(out) > limit >= 0:
                flush()
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
                inner = pads[depth + 1] if depth < deepest else pad(depth + 1)
                sep = "," + inner
                lead = "[" + inner
                for item in v:
                    put(lead)
                    lead = sep
                    tx = type(item)
                    if tx is str and len(item) < _LONG:
                        put(escape(item))
                    elif tx is int and -_SAFE <= item <= _SAFE:
                        put(int.__repr__(item))
                    else:
                        write(item, depth + 1)
                put((pads[depth] if depth < deepest else pad(depth)) + "]")
            if len(out) > limit >= 0:
                flush()
        elif isinstance(v, str):
            put(escape(v))
        elif isinstance(v, (int, float)):
            put(number(v))
        elif type(v) is Verbatim:
            flush()
            sink(v)  # type: ignore[arg-type]  # NOTE: only `snapshot.build.write` gives one
        else:
            raise TypeError(f"cannot serialize {type(v).__name__}")

    write(value, depth)
    flush()
