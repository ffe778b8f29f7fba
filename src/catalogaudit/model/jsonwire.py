"""Wire-faithful JSON: parse without losing number lexemes, key order or anomalies; write it back.

Python's `json.loads` turns `1.0`, `1.00` and `1E0` into the same float and silently keeps the
last of two duplicate keys. An auditor must see what was served, so numbers keep their exact
lexeme (`WireInt`, `WireFloat`), duplicate keys are remembered on the object (`WireObject`), and
`anomalies()` reports NaN/Infinity, lone surrogates and invalid UTF-8 with their JSON Pointer.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

import rfc8785

from catalogaudit.model import _writer
from catalogaudit.model._fast import WS as _WS
from catalogaudit.model._fast import (
    ended,
    loads_whole,
    raw_decode_compared,
    raw_decode_plain,
    raw_decode_whole,
)
from catalogaudit.model._writer import Verbatim as Verbatim
from catalogaudit.model.wiretypes import (
    INTEGER_LEXEME,
    MAX_INT_DIGITS,
    MAX_SAFE_INTEGER,
    NON_FINITE,
    WireDecodeError,
    WireFloat,
    WireInt,
    WireLimitError,
    WireObject,
)

__all__ = [
    "INTEGER_LEXEME",
    "MAX_INT_DIGITS",
    "WireLimitError",
    "MAX_SAFE_INTEGER",
    "WireDecodeError",
    "WireFloat",
    "WireInt",
    "WireObject",
    "loads_whole",
    "raw_decode_plain",
    "raw_decode_whole",
]

#: How a writer spells a number (`lexeme`, `jcs_number`).
NumberText = Callable[[int | float], str]


def decode_utf8(data: bytes) -> tuple[str, bool]:
    """Decode bytes; invalid UTF-8 survives as surrogate escapes and is reported, not fatal."""
    try:
        return data.decode("utf-8"), False
    except UnicodeDecodeError:
        return data.decode("utf-8", "surrogateescape"), True


def loads(text: str) -> Any:
    """Parse one JSON document wire-faithfully."""
    return loads_plain(text)[0]


def loads_plain(text: str) -> tuple[Any, bool]:
    """`loads`, and whether the document is plain (see `raw_decode_plain`)."""
    value, end, plain = raw_decode_plain(text, _WS.match(text, 0).end())  # type: ignore[union-attr]
    return ended(text, value, end), plain


def raw_decode(text: str, idx: int = 0, *, compared: bool = False) -> tuple[Any, int]:
    """Parse one value starting at `idx`; return it and the offset just past it. `compared`:
    a value only compared with `==`, faster (`_fast.raw_decode_compared`)."""
    if compared:
        return raw_decode_compared(text, idx)
    value, end, _ = raw_decode_plain(text, idx)
    return value, end


_C_COMPACT: Callable[[Any], str] = json.JSONEncoder(
    separators=(",", ":"), ensure_ascii=False, check_circular=False, allow_nan=False
).encode


def plain_compact(value: Any) -> bytes:
    """`compact(value)` as UTF-8, for a value from a plain parse (see `raw_decode_plain`).

    The C encoder writes plain values as `compact` does, lone surrogates aside: those fail to
    encode as UTF-8 and take the exact writer, as anything else the encoder refuses does.
    """
    try:
        return _C_COMPACT(value).encode("utf-8")
    except (ValueError, TypeError, UnicodeEncodeError):
        return compact(value).encode("utf-8")


@dataclass(frozen=True)
class Member:
    """One top-level member of a JSON object, with the exact source span of its value."""

    value: Any
    start: int
    end: int
    #: See `raw_decode_plain`.
    plain: bool = False


def parse_members(text: str, duplicates: list[str] | None = None) -> dict[str, Member]:
    """Parse a top-level object keeping each member's span, so `result` text can be kept verbatim.

    Request ids, SSE ids and envelope key order differ between runs and SDKs; the span lets us
    keep exactly the served `result` and nothing else. A duplicate key keeps its last member,
    and is appended to `duplicates` when given.
    """
    ws = _WS.match
    pos = ws(text, 0).end()  # type: ignore[union-attr]
    if not text.startswith("{", pos):
        raise WireDecodeError("not a JSON object", pos)
    members: dict[str, Member] = {}
    pos = ws(text, pos + 1).end()  # type: ignore[union-attr]
    if text.startswith("}", pos):
        return _finish(text, pos + 1, members)
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
            return _finish(text, pos + 1, members)
        raise WireDecodeError(f"expected ',' or '}}' at offset {pos}", pos)


def _finish(text: str, pos: int, members: dict[str, Member]) -> dict[str, Member]:
    return ended(text, members, pos)  # type: ignore[no-any-return]


# --- anomalies -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Anomaly:
    """Something JSON allows a parser to resolve silently, found at `pointer`."""

    kind: str  # duplicate-key | non-finite-number | lone-surrogate | invalid-utf8
    pointer: str
    detail: str


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


def anomalies(value: Any, pointer: str = "", invalid_utf8: bool = False) -> list[Anomaly]:
    """Walk a parsed value and list every anomaly with its pointer, in document order."""
    found: list[Anomaly] = []

    def text(s: str, at: str) -> None:
        if not _SURROGATE.search(s):
            return
        if invalid_utf8 and _ESCAPED_BYTE.search(s):
            found.append(Anomaly("invalid-utf8", at, "string contains bytes that are not UTF-8"))
        else:
            found.append(Anomaly("lone-surrogate", at, "string contains an unpaired surrogate"))

    stack: list[tuple[Any, str]] = [(value, pointer)]
    while stack:
        node, at = stack.pop()
        if isinstance(node, dict):
            if isinstance(node, WireObject):
                found.extend(
                    Anomaly("duplicate-key", pointer_join(at, key), f"key {key!r} repeated")
                    for key in node.duplicates
                )
            for key in node:
                text(key, pointer_join(at, key))
            stack.extend((v, pointer_join(at, k)) for k, v in reversed(node.items()))
        elif isinstance(node, list):
            stack.extend((v, pointer_join(at, i)) for i, v in reversed(list(enumerate(node))))
        elif isinstance(node, str):
            text(node, at)
        elif isinstance(node, WireFloat) and node.lexeme in NON_FINITE:
            found.append(Anomaly("non-finite-number", at, f"{node.lexeme} is not JSON"))
    return found


# --- writing ---------------------------------------------------------------------------------

_ESCAPES = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r"}
_ESCAPES["\t"] = "\\t"
for _i in range(0x20):
    _ESCAPES.setdefault(chr(_i), f"\\u{_i:04x}")
_NEEDS_ESCAPE = re.compile('[\x00-\x1f"\\\\\ud800-\udfff]')


def _escape_char(match: re.Match[str]) -> str:
    ch = match.group(0)
    # NOTE: RFC 8785 cannot represent lone surrogates (or surrogate-escaped invalid UTF-8); we
    # write them as \u escapes so the file stays valid UTF-8 and the anomaly stays visible.
    return _ESCAPES.get(ch) or f"\\u{ord(ch):04x}"


def dump_string(s: str) -> str:
    """A JSON string with RFC 8785 section 3.2.2.2 escaping."""
    return '"' + _NEEDS_ESCAPE.sub(_escape_char, s) + '"'


def jcs_key(key: str) -> bytes:
    """Sort key for RFC 8785 section 3.2.3: compare UTF-16 code units."""
    return key.encode("utf-16-be", "surrogatepass")


def lexeme(number: int | float) -> str:
    """The wire lexeme of a parsed number; numbers we made ourselves get their JCS form."""
    if isinstance(number, (WireInt, WireFloat)):
        return number.lexeme
    if isinstance(number, int):
        return str(number)
    return rfc8785.dumps(number).decode("ascii")


def jcs_number(number: int | float) -> str:
    """RFC 8785 number: the ECMAScript form of the IEEE double (big integers lose precision)."""
    if isinstance(number, int) and -MAX_SAFE_INTEGER <= number <= MAX_SAFE_INTEGER:
        return str(int(number))
    try:
        return rfc8785.dumps(float(number)).decode("ascii")
    except (rfc8785.CanonicalizationError, OverflowError):
        # NaN/Infinity or 1E400: not representable; keep the lexeme so hashing still works and
        # the anomaly (reported elsewhere) stays visible in what was hashed.
        return lexeme(number)


def dumps(value: Any, *, sort_keys: bool, indent: int | None, number: NumberText = lexeme) -> str:
    """Serialize with RFC 8785 escapes; keys sorted (RFC 8785) or served; numbers via `number`.

    The fast writer (C string escaping, code-point key order where every key is ASCII) gives
    the same text as the exact one, `exact_dumps`, except around lone surrogates, which the C
    escaper keeps raw: then the exact writer runs (tests/model prove the two equal).
    """
    out: list[str] = []
    try:
        _writer.write(value, sort_keys, indent, number, out.append)
        text: str | None = "".join(out)
    except RecursionError:
        text = None
    if text is None or _SURROGATE.search(text):
        return exact_dumps(value, sort_keys=sort_keys, indent=indent, number=number)
    return text


def exact_dumps(
    value: Any, *, sort_keys: bool, indent: int | None, number: NumberText = lexeme
) -> str:
    """The reference writer, one generator step per value: `dumps` must equal it."""
    return "".join(_chunks(value, sort_keys, indent, number, 0))


def _chunks(
    value: Any,
    sort_keys: bool,
    indent: int | None,
    number: Callable[[int | float], str],
    depth: int,
) -> Iterator[str]:
    if value is None:
        yield "null"
    elif value is True:
        yield "true"
    elif value is False:
        yield "false"
    elif isinstance(value, str):
        yield dump_string(value)
    elif isinstance(value, (int, float)):
        yield number(value)
    elif isinstance(value, dict):
        if not value:
            yield "{}"
            return
        keys = sorted(value, key=jcs_key) if sort_keys else list(value)
        inner, close, sep, colon = _layout(indent, depth)
        yield "{" + inner
        for i, key in enumerate(keys):
            if i:
                yield sep
            yield dump_string(key) + colon
            yield from _chunks(value[key], sort_keys, indent, number, depth + 1)
        yield close + "}"
    elif isinstance(value, (list, tuple)):
        if not value:
            yield "[]"
            return
        inner, close, sep, _ = _layout(indent, depth)
        yield "[" + inner
        for i, item in enumerate(value):
            if i:
                yield sep
            yield from _chunks(item, sort_keys, indent, number, depth + 1)
        yield close + "]"
    else:
        raise TypeError(f"cannot serialize {type(value).__name__}")


def _layout(indent: int | None, depth: int) -> tuple[str, str, str, str]:
    if indent is None:
        return "", "", ",", ":"
    pad = "\n" + " " * (indent * (depth + 1))
    return pad, "\n" + " " * (indent * depth), "," + pad, ": "


def compact(value: Any) -> str:
    """Served form: served key order, no whitespace, RFC 8785 escapes, wire lexemes."""
    return dumps(value, sort_keys=False, indent=None)


def canonical(value: Any) -> str:
    """RFC 8785 (JCS) text of a value."""
    return dumps(value, sort_keys=True, indent=None, number=jcs_number)


def _written_number(number: int | float) -> str:
    text = lexeme(number)
    # NOTE: NaN/Infinity are not JSON; the readable copy says null and the `wire` section keeps
    # the served text, so the file stays parseable by every JSON reader.
    return "null" if text in NON_FINITE else text


def written(value: Any) -> str:
    """The one written form of catalogaudit files: JCS key order, lexemes, 2-space indent, EOL."""
    return dumps(value, sort_keys=True, indent=2, number=_written_number) + "\n"


def write_written(
    value: Any, sink: Callable[[str], object], *, exact: bool = False, depth: int = 0
) -> None:
    """`written(value)` handed to `sink` in pieces of about a megabyte, never held whole; the
    fast writer keeps lone surrogates raw (the sink's UTF-8 encoding refuses them), `exact`
    runs the exact writer, which escapes them (the text is then held whole: rare). `depth`
    (not `exact`): the text of `value` as it stands that deep in a document, no final EOL."""
    if exact:
        sink(exact_dumps(value, sort_keys=True, indent=2, number=_written_number) + "\n")
        return
    _writer.write(value, True, 2, _written_number, sink, 1 << 16, depth)
    if not depth:
        sink("\n")


def is_integer_lexeme(number: int | float) -> bool:
    """True when the number was written as an integer on the wire (`1`, not `1.0` or `1E0`)."""
    return bool(INTEGER_LEXEME.match(lexeme(number)))
