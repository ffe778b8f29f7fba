"""Parse a file in the written form (`jsonwire.written`) piece by piece, never decoding it
whole.

Why: a 29 MB snapshot holding one astral character decodes to a 116 MB Python string, held
while the whole document is parsed; `diff` reads two of them. The written form puts every
member of a container at depth `d` after `",\\n"` and `2 * (d + 1)` spaces (a raw newline can
only be whitespace in JSON), so a container larger than `_PIECE` bytes is split there and each
member parsed alone, by the same wire decoder (`jsonwire.raw_decode`: lexemes, duplicate keys).

A split is trusted only when every piece parses whole: JSON's grammar has one reading, so
members that each parse completely are the container's members. Anything else (another
indentation, a BOM, invalid UTF-8, a duplicate top-level key) gives None and the caller parses
the file whole, as before.
"""

from __future__ import annotations

import re
from typing import Any

from catalogaudit.model import jsonwire
from catalogaudit.model.wiretypes import object_from_pairs

#: Containers at most this many bytes are parsed in one piece.
_PIECE = 1 << 20
#: A member key and its separator, as the written form writes them.
_KEY = re.compile(rb'"(?:[^"\\\x00-\x1f]|\\.)*": ')
_SEPARATORS: dict[int, re.Pattern[bytes]] = {}


class _NotWritten(Exception):
    """The bytes are not in the written form here: parse the file whole."""


def parse_written(data: bytes) -> dict[str, Any] | None:
    """The top-level object of `data` when it is in the written form, else None."""
    if not (data.startswith(b"{\n") and data.endswith(b"\n}\n")):
        return None
    try:
        value = _value(data, 0, len(data) - 1, 0, top=True)
    except (_NotWritten, jsonwire.WireDecodeError, UnicodeDecodeError):
        return None
    return value if type(value) is dict else None


def _value(data: bytes, start: int, end: int, depth: int, *, top: bool = False) -> Any:
    opener = data[start]
    if end - start > _PIECE and opener == ord('"'):
        return _long_string(data, start, end)
    if end - start <= max(_PIECE, 2) or opener not in b"{[":
        # NOTE: decoded through a memoryview: a slice would copy the piece (the 12 MB wire
        # page of the bench snapshot) while its text and its value are both alive
        return _whole(str(memoryview(data)[start:end], "utf-8"))
    closer = b"}" if opener == ord("{") else b"]"
    pad = b"\n" + b"  " * (depth + 1)
    if data[start + 1 : start + 1 + len(pad)] != pad or data[end - 1 : end] != closer:
        raise _NotWritten
    close = b"\n" + b"  " * depth
    body_end = end - 1 - len(close)
    if data[body_end : end - 1] != close:
        raise _NotWritten
    pieces = _split(data, start + 1 + len(pad), body_end, depth + 1)
    if opener == ord("["):
        return [_value(data, a, b, depth + 1) for a, b in pieces]
    pairs: list[tuple[str, Any]] = []
    for a, b in pieces:
        found = _KEY.match(data, a, b)
        if found is None:
            raise _NotWritten
        key = _whole(data[a : found.end() - 2].decode("utf-8"))
        if type(key) is not str:
            raise _NotWritten
        pairs.append((key, _value(data, found.end(), b, depth + 1)))
    if top and len({k for k, _ in pairs}) != len(pairs):
        raise _NotWritten  # NOTE: the whole-file reader keeps the last; do not guess
    return dict(pairs) if top else object_from_pairs(pairs)


#: Bytes that end a token inside a string literal: not a backslash, `u` or hex digit (so not
#: inside an escape), ASCII (so not inside a UTF-8 sequence).
_BOUNDARY = frozenset(b"\"/ ,:;[]{}()<>=!?*+-_.#@$%&|~^`'ghijklmnopqrstvwxyzGHIJKLMNOPQRSTUVWXYZ")


def _long_string(data: bytes, start: int, end: int) -> str:
    """A string member larger than `_PIECE`, decoded about `_PIECE` bytes of literal at a time.

    Why: decoded whole, the literal (escapes and all; 4 bytes a character once it holds one
    astral character) and the value are alive together: 48 + 37 MB for the bench snapshot's
    wire page. Cut just after a byte in `_BOUNDARY` no escape spans the cut, so the parts'
    values joined are the value; each part is checked as one whole literal, as `_whole` does.
    """
    if data[end - 1] != ord('"'):
        raise _NotWritten
    view = memoryview(data)
    parts: list[str] = []
    at, stop = start + 1, end - 1
    while at < stop:
        cut = min(at + max(_PIECE, 1), stop)
        while cut < stop and data[cut - 1] not in _BOUNDARY:
            cut += 1
        value = _whole('"' + str(view[at:cut], "utf-8") + '"')
        if type(value) is not str:
            raise _NotWritten
        parts.append(value)
        at = cut
    return "".join(parts)


def _split(data: bytes, start: int, end: int, depth: int) -> list[tuple[int, int]]:
    """The spans between the member separators of a container whose members are at `depth`."""
    sep = _SEPARATORS.get(depth)
    if sep is None:
        # NOTE: a deeper member's separator has more spaces: not followed by one more
        sep = _SEPARATORS[depth] = re.compile(b",\n" + b"  " * depth + b"(?! )")
    spans: list[tuple[int, int]] = []
    at = start
    for found in sep.finditer(data, start, end):
        spans.append((at, found.start()))
        at = found.end()
    spans.append((at, end))
    return spans


def _whole(text: str) -> Any:
    """One complete value and nothing else (no whitespace either side in the written form)."""
    value, end = jsonwire.raw_decode(text, 0)
    if end != len(text):
        raise _NotWritten
    return value
