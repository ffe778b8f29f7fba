"""RFC 8785 (JCS) bytes and canonical hashes.

`jcs_bytes` is `jsonwrite.canonical` as UTF-8: orjson writes it, the exact writer the values
orjson would write otherwise (`jsonwire`). From bytes (`hash` of a list result, `canonicalize
--jcs`), `read` parses at C speed what it can read exactly, and `served` and `plain_jcs` write
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
    """Pause the cyclic GC (restoring its state after): bulk JSON work makes no cycles.

    NOTE: a parse allocates a container per JSON object or array and frees none, so the
    collector runs over and over for nothing; pausing it saves a quarter of the parse.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


# --- bytes read by the C scanner, written by orjson --------------------------------------------


class Lexeme(str):
    """A float's lexeme as `read` keeps it (a `str` subclass: the C scanner makes it with no
    Python frame, and orjson hands it to `default`, which spells it)."""

    __slots__ = ()


def _refuse(lexeme: str) -> Any:
    raise ValueError(lexeme)  # NOTE: NaN, Infinity: the exact path names them


#: The C scanner with no hook per object: floats kept as lexemes, NaN and Infinity refused.
_READER = json.JSONDecoder(parse_float=Lexeme, parse_constant=_refuse)
#: orjson's options: a `Lexeme` goes to `default`.
_SERVED = orjson.OPT_PASSTHROUGH_SUBCLASS
_SORTED = orjson.OPT_PASSTHROUGH_SUBCLASS | orjson.OPT_SORT_KEYS


def read(data: bytes) -> Any:
    """The value of a JSON document read by the C scanner (floats as `Lexeme`s), or None when
    the exact decoder must read it (see `read_documents`), or `data` is not one document."""
    values = read_documents(data)
    return values[0] if values is not None and len(values) == 1 else None


#: JSON whitespace, and what `str.splitlines` ends a line at (how `intake` splits JSON Lines).
_WS = re.compile(r"[ \t\n\r]*")
_LINE_BREAK = re.compile("[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]")


def read_documents(data: bytes) -> list[Any] | None:
    """The values of a JSON document, or of JSON Lines (several values, one a line, as
    `intake` splits them), read by the C scanner (floats as `Lexeme`s); None when the exact
    decoder must read them: invalid UTF-8, a BOM, NaN, not JSON, nested beyond the stack, a
    value of JSON Lines over more than one line, or a digit run that may be an integer beyond
    2^53-1 (`has_unsafe_integer`). What else this reading loses is asked of the text written
    from it: a duplicate key (`same_members`), a lone surrogate (orjson refuses to write it)."""
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


def _lexeme(obj: Any) -> Any:
    if type(obj) is Lexeme:
        return orjson.Fragment(str.__str__(obj))
    raise TypeError(type(obj).__name__)


def _es6(obj: Any) -> Any:
    """A `Lexeme` as RFC 8785 writes its double (`jcs_number`); refuses what has no JCS form
    (1E400)."""
    if type(obj) is not Lexeme:
        raise TypeError(type(obj).__name__)
    number = float(obj)
    if number - number != 0:
        raise TypeError(obj)
    return orjson.Fragment(jcs_number(number))


def served(value: Any) -> bytes:
    """`jsonwrite.compact_utf8` of a value `read` gave: served key order, floats as lexemes.
    Raises `orjson.JSONEncodeError` where orjson refuses (a lone surrogate, 255 levels)."""
    return orjson.dumps(value, default=_lexeme, option=_SERVED)


def plain_jcs(value: Any, split: int = 0) -> bytes:
    """`jcs_bytes` of a value `read` gave: orjson writes it with keys sorted and floats as
    ECMAScript writes them, member by member where UTF-16 order may differ (and in the first
    `split` levels anyway: a document's listings, so one such key costs one item written
    twice). Raises `orjson.JSONEncodeError` as `served` does, and for a float beyond the double
    range."""
    kind = type(value)
    if split <= 0 or (kind is not dict and kind is not list):
        out = orjson.dumps(value, default=_es6, option=_SORTED)
        if not utf16_order_may_differ(out):  # NOTE: never for a scalar
            return out
    if kind is list:
        return b"[" + b",".join(plain_jcs(v, split - 1) for v in value) + b"]"
    keys = sorted(value, key=jcs_key)
    pairs = (orjson.dumps(k) + b":" + plain_jcs(value[k], split - 1) for k in keys)
    return b"{" + b",".join(pairs) + b"}"


def same_members(data: bytes, colons: int) -> bool:
    """Whether the compact text (any key order, RFC 8785 escapes) of what was read from `data`,
    which holds `colons` colons, has as many members as `data`: False when a duplicate key was
    dropped. Every member has one colon, and a string's colons are the same in both unless
    escaped in `data` (`\\u003a`; a miscount there only says False)."""
    escaped = data.count(b"\\u003a") + data.count(b"\\u003A") if b"\\u003" in data else 0
    return data.count(b":") + escaped == colons
