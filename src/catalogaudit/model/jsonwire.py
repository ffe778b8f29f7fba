"""Wire-faithful JSON: parse without losing number lexemes, key order or anomalies (the
writers are `jsonwrite`'s).

Python's `json.loads` turns `1.0`, `1.00` and `1E0` into the same float and silently keeps the
last of two duplicate keys. An auditor must see what was served, so numbers keep their exact
lexeme (`WireInt`, `WireFloat`), duplicate keys are remembered on the object (`WireObject`), and
`anomalies()` reports NaN/Infinity, lone surrogates and invalid UTF-8 with their JSON Pointer.

One decoder, three sets of hooks on the C scanner: `raw_decode_plain` also says whether the
value is plain (no duplicate key or NaN); `raw_decode`, the same parse without that count, or
(`compared`) values only compared with `==`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from catalogaudit.model.wiretypes import (
    MAX_INT_DIGITS,
    MAX_SAFE_INTEGER,
    NON_FINITE,
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


def raw_decode_plain(text: str, idx: int = 0) -> tuple[Any, int, bool]:
    """`raw_decode`, and whether the value is plain: no duplicate key and no NaN/Infinity, so
    that a lone surrogate or an unsafe integer is all the anomaly it may hold
    (`model.capture.page_anomalies`). The count lives in this call's hooks (threads parse at
    once)."""
    odd = [0]

    def constant(lexeme: str) -> WireFloat:
        odd[0] += 1
        return WireFloat(lexeme)

    def pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
        obj = object_from_pairs(items)
        if type(obj) is WireObject:
            odd[0] += 1
        return obj

    decoder = json.JSONDecoder(
        parse_float=WireFloat,
        parse_int=parse_int_lexeme,
        parse_constant=constant,
        object_pairs_hook=pairs,
    )
    with _WireErrors(idx):
        value, end = decoder.raw_decode(text, idx)
    return value, end, odd[0] == 0


class _WireErrors:
    """The decoder's errors as `WireDecodeError`s. A context, not a call: the decoder runs one
    Python frame below the caller of `raw_decode` and `raw_decode_plain`, so both refuse the
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


#: The wire decoder's own hooks, called straight from the C scanner: the same values as
#: `raw_decode_plain`'s without its count.
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


def raw_decode(text: str, idx: int = 0, *, compared: bool = False) -> tuple[Any, int]:
    """Parse one value starting at `idx`; return it and the offset just past it: the value
    `raw_decode_plain` parses, or the same error. `compared`: a value only compared with `==`
    (a wire page's items against the readable ones), equal to it without a hook per object or
    float."""
    with _WireErrors(idx):
        return (_COMPARED if compared else _WHOLE).raw_decode(text, idx)


def loads(text: str) -> Any:
    """Parse one JSON document wire-faithfully (whitespace around it)."""
    value, end = raw_decode(text, WS.match(text, 0).end())  # type: ignore[union-attr]
    return ended(text, value, end)


def ended(text: str, value: Any, end: int) -> Any:
    """`value` when only whitespace follows `end` in `text`."""
    end = WS.match(text, end).end()  # type: ignore[union-attr]
    if end != len(text):
        raise WireDecodeError(f"extra data at offset {end}", end)
    return value


def decode_utf8(data: bytes) -> tuple[str, bool]:
    """Decode bytes; invalid UTF-8 survives as surrogate escapes and is reported, not fatal."""
    try:
        return data.decode("utf-8"), False
    except UnicodeDecodeError:
        return data.decode("utf-8", "surrogateescape"), True


@dataclass(frozen=True)
class Member:
    """One top-level member of a JSON object, with the exact source span of its value."""

    value: Any
    start: int
    end: int
    #: See `raw_decode_plain`.
    plain: bool = False


def parse_members(text: str) -> dict[str, Member]:
    """Parse a top-level object keeping each member's span, so `result` text can be kept verbatim.

    Request ids, SSE ids and envelope key order differ between runs and SDKs; the span lets us
    keep exactly the served `result` and nothing else. A duplicate key keeps its last member.
    """
    members, end = object_members(text)
    return ended(text, members, end)  # type: ignore[no-any-return]


def object_members(text: str, duplicates: list[str] | None = None) -> tuple[dict[str, Member], int]:
    """`parse_members` of the object `text` starts with, and the offset just past it (what
    follows is the caller's: JSON Lines read the first line of their text once)."""
    ws = WS.match
    pos = ws(text, 0).end()  # type: ignore[union-attr]
    if not text.startswith("{", pos):
        raise WireDecodeError("not a JSON object", pos)
    members: dict[str, Member] = {}
    pos = ws(text, pos + 1).end()  # type: ignore[union-attr]
    if text.startswith("}", pos):
        return members, pos + 1
    while True:
        if not text.startswith('"', pos):
            raise WireDecodeError(f"expected a key at offset {pos}", pos)
        key, pos = raw_decode(text, pos)
        pos = ws(text, pos).end()  # type: ignore[union-attr]
        if not text.startswith(":", pos):
            raise WireDecodeError(f"expected ':' at offset {pos}", pos)
        start = ws(text, pos + 1).end()  # type: ignore[union-attr]
        value, end, plain = raw_decode_plain(text, start)
        if duplicates is not None and key in members:
            duplicates.append(key)
        members[key] = Member(value, start, end, plain)
        pos = ws(text, end).end()  # type: ignore[union-attr]
        if text.startswith(",", pos):
            pos = ws(text, pos + 1).end()  # type: ignore[union-attr]
            continue
        if text.startswith("}", pos):
            return members, pos + 1
        raise WireDecodeError(f"expected ',' or '}}' at offset {pos}", pos)


# --- anomalies -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Anomaly:
    """Something JSON allows a parser to resolve silently, found at `pointer`."""

    #: duplicate-key | non-finite-number | lone-surrogate | invalid-utf8; with `numbers`:
    #: beyond-double | big-integer; capture's unsafe-integer (CA544)
    kind: str
    pointer: str
    detail: str
    #: What it is about: `key` or `string` (a lone surrogate), the number's lexeme.
    subject: str = ""
    #: How many anomalies of its kind it stands for, itself the first (`unsafe_integers`).
    count: int = 1


def escape_pointer(token: str) -> str:
    """RFC 6901 reference-token escaping."""
    return token.replace("~", "~0").replace("/", "~1")


def pointer_join(base: str, token: str | int) -> str:
    """Append one reference token to a JSON Pointer."""
    text = token if type(token) is str else str(token)
    if "~" in text or "/" in text:
        text = escape_pointer(text)
    return f"{base}/{text}"


def pointer_of(tokens: Iterable[str | int], base: str = "") -> str:
    """The JSON Pointer of a path of keys and indexes (a jsonschema error's `absolute_path`)."""
    return base + "".join("/" + escape_pointer(str(t)) for t in tokens)


def pointer_tokens(pointer: str) -> list[str]:
    """The unescaped reference tokens of a JSON Pointer (RFC 6901 section 4)."""
    return [t.replace("~1", "/").replace("~0", "~") for t in pointer.split("/")[1:]]


_SURROGATE = re.compile("[\ud800-\udfff]")
_ESCAPED_BYTE = re.compile("[\udc80-\udcff]")


def anomalies(value: Any, invalid_utf8: bool = False, numbers: bool = False) -> list[Anomaly]:
    """Walk a parsed value and list every anomaly with its pointer, in document order;
    `numbers`: also what RFC 8785 cannot hold (numbers beyond the double range, integers
    beyond +-(2^53-1))."""
    found: list[Anomaly] = []

    def text(s: str, at: str, what: str) -> None:
        if not _SURROGATE.search(s):
            return
        if invalid_utf8 and _ESCAPED_BYTE.search(s):
            detail = "string contains bytes that are not UTF-8"
            found.append(Anomaly("invalid-utf8", at, detail, what))
        else:
            detail = "string contains an unpaired surrogate"
            found.append(Anomaly("lone-surrogate", at, detail, what))

    stack: list[tuple[Any, str]] = [(value, "")]
    while stack:
        node, at = stack.pop()
        if isinstance(node, dict):
            if isinstance(node, WireObject):
                found.extend(
                    Anomaly("duplicate-key", pointer_join(at, key), f"key {key!r} repeated")
                    for key in node.duplicates
                )
            for key in node:
                text(key, pointer_join(at, key), "key")
            stack.extend((v, pointer_join(at, k)) for k, v in reversed(node.items()))
        elif isinstance(node, list):
            stack.extend((v, pointer_join(at, i)) for i, v in reversed(list(enumerate(node))))
        elif isinstance(node, str):
            text(node, at, "string")
        elif isinstance(node, WireFloat) and node.lexeme in NON_FINITE:
            lexeme = node.lexeme
            found.append(Anomaly("non-finite-number", at, f"{lexeme} is not JSON", lexeme))
        elif numbers and isinstance(node, float) and node - node != 0:
            found.append(Anomaly("beyond-double", at, "", repr(node)))
        elif numbers and isinstance(node, int) and not isinstance(node, bool):
            if abs(node) > MAX_SAFE_INTEGER:
                found.append(Anomaly("big-integer", at, "", f"{node}"))
    return found
