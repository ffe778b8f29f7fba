"""Parse a file in the written form (`jsonwrite.written`) piece by piece, never decoding it
whole.

Why: a 29 MB snapshot holding one astral character decodes to a 116 MB Python string, held
while the whole document is parsed; `diff` reads two of them. The written form puts every
member of a container at depth `d` after `",\\n"` and `2 * (d + 1)` spaces (a raw newline can
only be whitespace in JSON), so a container larger than `_PIECE` bytes is split there and each
member parsed alone, by the same wire decoder (`jsonwire.loads`: lexemes, duplicate keys).

A split is trusted only when every piece parses whole: JSON's grammar has one reading, so
members that each parse completely are the container's members. Anything else (another
indentation, a BOM, invalid UTF-8, a duplicate top-level key) gives None and the caller parses
the file whole, as before.
"""

from __future__ import annotations

import io
import mmap
import re
from collections.abc import Callable
from typing import Any

from catalogaudit.model import jsonwire
from catalogaudit.model.wiretypes import object_from_pairs

#: What is parsed: the file's bytes, or the file mapped (`intake.loader.parse_mapped_snapshot`).
Buffer = bytes | mmap.mmap
#: Containers at most this many bytes are parsed in one piece.
_PIECE = 1 << 20
#: Bytes of a long string's literal decoded at a time (`_long_string`). NOTE: a part is alive
#: four times over as it is decoded (4 bytes a character after one astral character): 1 MB
#: parts raised the bench page's peak by 13 MB, 256 kB parts by 3.
_PART = 1 << 18
#: A member key and its separator, as the written form writes them.
_KEY = re.compile(rb'"(?:[^"\\\x00-\x1f]|\\.)*": ')
_SEPARATORS: dict[int, re.Pattern[bytes]] = {}


class _NotWritten(Exception):
    """The bytes are not in the written form here: parse the file whole."""


def parse_written(
    data: Buffer, *, packed: bool = False, release: Callable[[int], object] | None = None
) -> dict[str, Any] | None:
    """The top-level object of `data` (bytes, or a read-only `mmap`) in the written form, else
    None. `packed`: each string at `/wire/pages/LISTING/i` (run 1's page texts) comes back as its
    UTF-8 bytes (`surrogatepass`: a lone surrogate kept), as `diff.sides` packs them; a long
    one is encoded part by part, never decoded whole (a 40 MB string for the bench page).
    `release(offset)`: called as the parse goes, once nothing before `offset` is read again
    (pieces are parsed in file order), so a mapped file's pages can be let go on the way.
    """
    if not (data[:2] == b"{\n" and data[len(data) - 3 :] == b"\n}\n"):
        return None
    done = release or _keep
    try:
        value = _value(data, 0, len(data) - 1, 0, done, at=() if packed else None)
    except (_NotWritten, jsonwire.WireDecodeError, UnicodeDecodeError):
        return None
    return value if type(value) is dict else None  # NOTE: a duplicate top-level key: not here


def _keep(offset: int) -> None:
    """No `release`: the caller holds the bytes anyway."""


#: The path of a packed page text: `/wire/pages/LISTING/i` (`None`: any key or index).
_PACKED = ("wire", "pages", None, None)


def _under(at: tuple[Any, ...] | None, key: Any) -> tuple[Any, ...] | None:
    """The path one level down, while it can still lead to a packed page text (else None)."""
    if at is None or len(at) >= len(_PACKED):
        return None
    wanted = _PACKED[len(at)]
    return (*at, key) if wanted is None or wanted == key else None


def _value(
    data: Buffer,
    start: int,
    end: int,
    depth: int,
    done: Callable[[int], object],
    *,
    at: tuple[Any, ...] | None = None,
) -> Any:
    opener = data[start]
    pack = at is not None and len(at) == len(_PACKED)
    if end - start > _PIECE and opener == ord('"'):
        return _long_string(data, start, end, pack=pack, done=done)
    # NOTE: a container on the way to the packed page texts is split however small it is, so
    # that each page text is met alone
    on_path = at is not None and not pack
    if opener not in b"{[" or end - start <= 2 or (end - start <= _PIECE and not on_path):
        # NOTE: decoded through a memoryview: a slice would copy the piece (the 12 MB wire
        # page of the bench snapshot) while its text and its value are both alive
        value = jsonwire.loads(str(memoryview(data)[start:end], "utf-8"))
        done(end)
        return value.encode("utf-8", "surrogatepass") if pack and type(value) is str else value
    pad = b"\n" + b"  " * (depth + 1)
    close = b"\n" + b"  " * depth + (b"}" if opener == ord("{") else b"]")
    body_end = end - len(close)
    if data[start + 1 : start + 1 + len(pad)] != pad or data[body_end:end] != close:
        raise _NotWritten
    pieces = _split(data, start + 1 + len(pad), body_end, depth + 1)
    if opener == ord("["):
        return [
            _value(data, a, b, depth + 1, done, at=_under(at, i)) for i, (a, b) in enumerate(pieces)
        ]
    pairs: list[tuple[str, Any]] = []
    for a, b in pieces:
        found = _KEY.match(data, a, b)
        if found is None:
            raise _NotWritten
        key = jsonwire.loads(data[a : found.end() - 2].decode("utf-8"))
        if type(key) is not str:
            raise _NotWritten
        pairs.append((key, _value(data, found.end(), b, depth + 1, done, at=_under(at, key))))
    return object_from_pairs(pairs)


#: Bytes that end a token inside a string literal: not a backslash, `u` or hex digit (so not
#: inside an escape), ASCII (so not inside a UTF-8 sequence).
_BOUNDARY = frozenset(b"\"/ ,:;[]{}()<>=!?*+-_.#@$%&|~^`'ghijklmnopqrstvwxyzGHIJKLMNOPQRSTUVWXYZ")


def _long_string(
    data: Buffer,
    start: int,
    end: int,
    *,
    pack: bool = False,
    done: Callable[[int], object] = _keep,
) -> str | bytes:
    """A string member larger than `_PIECE`, decoded about `_PIECE` bytes of literal at a time.

    Why: decoded whole, the literal (escapes and all; 4 bytes a character once it holds one
    astral character) and the value are alive together: 48 + 37 MB for the bench snapshot's
    wire page. Cut just after a byte in `_BOUNDARY` no escape spans the cut, so the parts'
    values joined are the value; each part is checked as one whole literal.
    """
    if data[end - 1] != ord('"'):
        raise _NotWritten
    view = memoryview(data)
    parts: list[str] = []
    # NOTE: packed parts go straight into one buffer (`getvalue` hands it over, no copy):
    # parts joined held the 10 MB bench page twice
    packed = io.BytesIO()
    at, stop = start + 1, end - 1
    while at < stop:
        cut = min(at + max(min(_PIECE, _PART), 1), stop)
        while cut < stop and data[cut - 1] not in _BOUNDARY:
            cut += 1
        value = jsonwire.loads('"' + str(view[at:cut], "utf-8") + '"')
        if type(value) is not str:
            raise _NotWritten
        if pack:
            packed.write(value.encode("utf-8", "surrogatepass"))
        else:
            parts.append(value)
        at = cut
        done(at)
    return packed.getvalue() if pack else "".join(parts)


def _split(data: Buffer, start: int, end: int, depth: int) -> list[tuple[int, int]]:
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
