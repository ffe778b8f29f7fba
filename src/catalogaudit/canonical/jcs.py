"""RFC 8785 (JCS) bytes and canonical hashes.

`jcs_bytes` is `jsonwrite.canonical` as UTF-8: orjson writes it, the exact writer the values
orjson would write otherwise (`jsonwire`). From bytes (`hash` of a list result, `canonicalize
--jcs`), the C scanner (`read_documents`: floats kept as lexemes) and orjson (`read_values`:
floats as doubles) read at C speed what they read exactly, and `served` and `plain_jcs` write
the same bytes as the exact writers would from the exact parse.
"""

from __future__ import annotations

import gc
import hashlib
import json
import re
from collections.abc import Iterator
from contextlib import contextmanager
from itertools import pairwise
from typing import Any

import orjson

from catalogaudit.model import (
    canonical_utf8,
    has_unsafe_integer,
    jcs_key,
    jcs_number,
    utf16_order_may_differ,
    utf16_ordered,
)


def sha256(data: str | bytes) -> str:
    """`sha256:<lowercase hex>` of bytes, or of a text's UTF-8 bytes."""
    if isinstance(data, str):
        data = data.encode("utf-8")
    return "sha256:" + hashlib.sha256(data).hexdigest()


#: The RFC 8785 bytes of a parsed value (`jsonwrite.canonical` as UTF-8; within the
#: safe-integer range and without lone surrogates or NaN, `rfc8785.dumps(value)`).
jcs_bytes = canonical_utf8


def jcs_hash(value: Any) -> str:
    """`sha256:` of the RFC 8785 bytes of a value (the item canonical hash)."""
    return sha256(jcs_bytes(value))


@contextmanager
def gc_paused() -> Iterator[None]:
    """Pause the cyclic GC while bulk JSON work runs, and exempt what is alive after it from
    the collections to come (`gc.freeze`): parsed JSON holds no cycles.

    NOTE: a parse allocates a container per JSON object or array and frees none, so the
    collector ran over and over for nothing; and the first allocation after the pause made
    it walk every object the pause made, to find no cycle. A command ends soon after (and
    `cli.entry` freezes the heap then too); cycles made later are still collected.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.freeze()
            gc.enable()


# --- bytes read by the C scanner, written by orjson --------------------------------------------


def _refuse(lexeme: str) -> Any:
    raise ValueError(lexeme)  # NOTE: NaN, Infinity: the exact path names them


#: The C scanner with no hook per object: each float kept as its lexeme in an `orjson.Fragment`
#: (a C type the scanner calls with no Python frame, and orjson writes as it stands), NaN and
#: Infinity refused.
_READER = json.JSONDecoder(parse_float=orjson.Fragment, parse_constant=_refuse)


#: JSON whitespace, and what `str.splitlines` ends a line at (how `intake` splits JSON Lines).
_WS = re.compile(r"[ \t\n\r]*")
_LINE_BREAK = re.compile("[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]")


def read_documents(data: bytes) -> list[Any] | None:
    """The values of a JSON document, or of JSON Lines (several values, one a line, as
    `intake` splits them), read by the C scanner (floats as their lexemes, `_READER`); None
    when the exact decoder must read them: invalid UTF-8, a BOM, NaN, not JSON, nested beyond
    the stack, a value of JSON Lines over more than one line, or a digit run that may be an
    integer beyond 2^53-1 (`has_unsafe_integer`). What else this reading loses is asked of the
    text written from it: a duplicate key (`same_members`), a lone surrogate (orjson refuses to
    write it)."""
    if has_unsafe_integer(data):
        return None
    try:
        text = data.decode("utf-8")
        if text.startswith("\ufeff"):
            return None
        values: list[Any] = []
        spans: list[tuple[int, int]] = []
        pos = _WS.match(text).end()  # type: ignore[union-attr]
        while pos < len(text):
            value, end = _READER.raw_decode(text, pos)
            values.append(value)
            spans.append((pos, end))
            pos = _WS.match(text, end).end()  # type: ignore[union-attr]
    except (ValueError, RecursionError):
        return None
    if len(spans) > 1 and (
        any(_LINE_BREAK.search(text, start, end) for start, end in spans)
        or not all(_LINE_BREAK.search(text, end, after) for (_, end), (after, _) in pairwise(spans))
    ):
        return None
    return values or None


#: Every float token has a digit before its point or exponent: a text without one holds no
#: float (`holds_float`).
_DIGITS_TO_ZERO = bytes.maketrans(b"0123456789eE", b"0000000000..")


def holds_float(text: bytes) -> bool:
    """Whether a compact text may hold a float token, asked of it with every digit made `0` and
    `.`, `e`, `E` made `.`, by `bytes.find` (in a string such bytes only cost a reading)."""
    return b"0." in text.translate(_DIGITS_TO_ZERO)


def served(value: Any) -> bytes:
    """`jsonwrite.compact_utf8` of a value `read_documents` gave: served key order, floats as
    their lexemes. Raises `orjson.JSONEncodeError` where orjson refuses (a lone surrogate,
    255 levels)."""
    return orjson.dumps(value)


def read_values(data: bytes) -> Any:
    """The value of one JSON document as orjson reads it (floats as doubles, correctly
    rounded), or None where the exact decoder must read it: what `read_documents` leaves to it,
    and 1E400 (orjson refuses what overflows a double). A duplicate key is for `same_members`
    to find in the text written from it."""
    if has_unsafe_integer(data):
        return None  # NOTE: orjson reads an integer beyond 64 bits as a double, silently
    try:
        return orjson.loads(data)
    except (orjson.JSONDecodeError, RecursionError):
        return None


#: Number tokens orjson writes otherwise than ECMAScript (RFC 8785 3.2.2.3): a float written
#: integral (`1.0`, `-0.0`: ECMAScript writes `1`, `0`), or with an exponent where ECMAScript
#: writes fixed notation (`1e-6`, `1e+16` to `1e+20`). Any other double orjson writes as
#: ECMAScript does: the shortest round-trip digits, fixed for 1e-5 <= |x| < 1e16, `1e-7` and
#: `1e+21` alike (`tests/model/test_fastpaths.py`). Asked only outside strings (`es6_numbers`).
_INTEGRAL_END = re.compile(rb"\.0(?=[,\]}]|\Z)")
_NEGATIVE_ZERO = re.compile(rb"-0\.0(?=[,\]}]|\Z)")
#: (with what precedes the token, so that `re` tries it at punctuation only, not at each digit)
_FIXED_IN_ES6 = re.compile(rb"([:,\[])(-?[0-9]+(?:\.[0-9]+)?e(?:-6|\+1[6-9]|\+20))(?=[,\]}]|\Z)")
#: Stand-ins for the escapes `\\` and `\"` while a text is split at its quotes: orjson writes
#: every control character escaped, so neither byte is in its text.
_BACKSLASH, _QUOTE = b"\x02\x02", b"\x01\x01"


def _integral(text: bytes) -> bool:
    """Whether `_INTEGRAL_END` may match: asked at `bytes.find`'s speed."""
    return b".0," in text or b".0]" in text or b".0}" in text or text.endswith(b".0")


def _respell(token: re.Match[bytes]) -> bytes:
    return token.group(1) + jcs_number(float(token.group(2))).encode()


#: The end of a token `_FIXED_IN_ES6` matches, and a number token as orjson writes one.
_EXPONENT_END = re.compile(rb"e(?:-6|\+1[6-9]|\+20)(?=[,\]}]|\Z)")
_NUMBER = re.compile(rb"-?[0-9]+(?:\.[0-9]+)?(?:e[+-][0-9]+)?")


def _sparse(out: bytes) -> bytes:
    """`es6_numbers` token by token, for a text where such tokens are few: each told from
    the same bytes in a string by the quotes before it (escapes stood in for)."""
    ends = sorted(m.end() for p in (_INTEGRAL_END, _EXPONENT_END) for m in p.finditer(out))
    plain = out.replace(b"\\\\", _BACKSLASH).replace(b'\\"', _QUOTE)
    pieces: list[bytes] = []
    done = counted = quotes = 0
    for end in ends:
        near = max(0, end - 32)  # NOTE: a double's token is at most 24 bytes
        delimiter = max(out.rfind(b":", near, end), out.rfind(b",", near, end))
        start = 1 + max(delimiter, out.rfind(b"[", near, end))
        if (start == 0 and near) or not _NUMBER.fullmatch(out, start, end):
            continue  # NOTE: in a string
        quotes += plain.count(b'"', counted, start)
        counted = start
        if quotes % 2:
            continue  # NOTE: in a string
        pieces += (out[done:start], jcs_number(float(out[start:end])).encode())
        done = end
    pieces.append(out[done:])
    return b"".join(pieces)


def es6_numbers(out: bytes) -> bytes:
    """orjson's compact text with each number token it writes otherwise than ECMAScript
    respelled (`jcs_number`), strings untouched. The text is split at the quotes that open and
    close strings (escapes stood in for first), so every step is one pass in C: the text
    outside strings holds only punctuation, literals and number tokens."""
    if not (b"e-6" in out or b"e+" in out or _integral(out)):
        return out  # no token orjson writes otherwise (nor a string that looks like one)
    found = sum(out.count(lead) for lead in (b".0,", b".0]", b".0}", b"e-6", b"e+"))
    if found * 256 < len(out):
        return _sparse(out)  # NOTE: the passes below cost the whole text, these a token each
    escaped = b"\\" in out
    if escaped:
        out = out.replace(b"\\\\", _BACKSLASH).replace(b'\\"', _QUOTE)
    parts = out.split(b'"')
    bare = b'"'.join(parts[0::2])  # NOTE: what is outside strings, quotes between
    if b"e-6" in bare or b"e+" in bare:
        bare = _FIXED_IN_ES6.sub(_respell, b"," + bare)[1:]  # NOTE: "," before a lone token
    if _integral(bare):
        bare = _INTEGRAL_END.sub(b"", _NEGATIVE_ZERO.sub(b"0", bare))
    parts[0::2] = bare.split(b'"')
    out = b'"'.join(parts)
    if escaped:
        out = out.replace(_QUOTE, b'\\"').replace(_BACKSLASH, b"\\\\")
    return out


def plain_jcs(value: Any, floats: bool = True) -> bytes:
    """`jcs_bytes` of a value `read_values` gave: orjson writes it with keys sorted, the
    numbers it writes otherwise than ECMAScript spelled again (`es6_numbers`); where UTF-16
    order may differ from orjson's, from a copy with every object's keys in UTF-16 order
    (`jsonwrite.utf16_ordered`), which orjson keeps. `floats`: False for a value known to hold
    none (nothing to spell again). Raises `orjson.JSONEncodeError` as `served` does."""
    out = orjson.dumps(value, option=orjson.OPT_SORT_KEYS)
    if utf16_order_may_differ(out):  # NOTE: never for a scalar
        out = orjson.dumps(utf16_ordered(value))
    return es6_numbers(out) if floats else out


def jcs_pieces(value: Any, split: int) -> Iterator[bytes]:
    """`plain_jcs(value)` in pieces: the first `split` levels member by member (a document's
    listings and their items), so that neither the whole text nor a list of its pieces is
    held, and a key whose UTF-16 order may differ costs one member written twice."""
    kind = type(value)
    if split > 0 and kind is list:
        yield b"["
        for n, member in enumerate(value):
            if n:
                yield b","
            yield from jcs_pieces(member, split - 1)
        yield b"]"
    elif split > 0 and kind is dict:
        yield b"{"
        for n, key in enumerate(sorted(value, key=jcs_key)):
            yield (b"," if n else b"") + orjson.dumps(key) + b":"
            yield from jcs_pieces(value[key], split - 1)
        yield b"}"
    else:
        yield plain_jcs(value)


def same_members(data: bytes, colons: int) -> bool:
    """Whether the compact text (any key order, RFC 8785 escapes) of what was read from `data`,
    which holds `colons` colons, has as many members as `data`: False when a duplicate key was
    dropped. Every member has one colon, and a string's colons are the same in both unless
    escaped in `data` (`\\u003a`; a miscount there only says False)."""
    escaped = data.count(b"\\u003a") + data.count(b"\\u003A") if b"\\u003" in data else 0
    return data.count(b":") + escaped == colons
