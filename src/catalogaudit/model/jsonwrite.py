"""Writing JSON values back: the served (`compact`), canonical (RFC 8785) and written forms.

orjson writes each value it writes exactly (`_orjson` says when it would not); the others are
written member by member, down to the scalars orjson would write otherwise (`_scalar`).
`tests/helpers/exact_writer.py` is the oracle, byte for byte.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from operator import methodcaller
from typing import Any

import orjson
import rfc8785

from catalogaudit.model.wiretypes import (
    INTEGER_LEXEME,
    MAX_SAFE_INTEGER,
    NON_FINITE,
    WireFloat,
    WireInt,
    has_sixteen_digits,
)

#: How a writer spells a number (`lexeme`, `jcs_number`).
NumberText = Callable[[int | float], str]

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
    """RFC 8785 number: the ECMAScript form of the IEEE double (big integers lose precision).

    `repr` writes the shortest round-trip digits, as ECMAScript does: in fixed notation (less
    an integral float's `.0`) and with exponents of 21 or more its text is ECMAScript's; the
    rest (and NaN, Infinity, 1E400, which keep their lexeme) is rfc8785's to write."""
    if isinstance(number, int) and -MAX_SAFE_INTEGER <= number <= MAX_SAFE_INTEGER:
        return str(int(number))
    try:
        double = float(number)
        text = repr(double)
        if "e" not in text and "n" not in text:
            return "0" if text == "-0.0" else text.removesuffix(".0")
        if "e+" in text and int(text.partition("e+")[2]) >= 21:
            return text
        return rfc8785.dumps(double).decode("ascii")
    except (rfc8785.CanonicalizationError, OverflowError):
        # NOTE: NaN/Infinity or 1E400: not representable; keep the lexeme so hashing still works
        # and the anomaly (reported elsewhere) stays visible in what was hashed.
        return lexeme(number)


#: orjson's options for each layout; subclasses (`WireInt`, `WireObject`, str enums) go to
#: `default`, as do float subclasses (`WireFloat`) always.
_OPTIONS = {
    (False, None): orjson.OPT_PASSTHROUGH_SUBCLASS,
    (True, None): orjson.OPT_PASSTHROUGH_SUBCLASS | orjson.OPT_SORT_KEYS,
    (False, 2): orjson.OPT_PASSTHROUGH_SUBCLASS | orjson.OPT_INDENT_2,
    (True, 2): orjson.OPT_PASSTHROUGH_SUBCLASS | orjson.OPT_INDENT_2 | orjson.OPT_SORT_KEYS,
}
#: The end of a number token orjson may write otherwise than `lexeme`/`jcs_number` for a
#: float we made ourselves (`1.0`, `-0.0`, `1e-7`, `1e+16`; ES6 writes `1`, `0`, `1e-7`,
#: `10000000000000000`): integral (`.0`), or with an exponent (orjson writes its sign). Its
#: other floats are the ES6 form: the shortest round-trip digits, in fixed notation only for
#: 1e-5 <= |x| < 1e16, inside ES6's 1e-6 <= |x| < 1e21. Counted at a token's end; in a string
#: the same bytes only cost the exact writer for that value.
_INTEGRAL_END = re.compile(rb"\.0[,\]}\n]")
_EXPONENT = re.compile(rb"e[+-][0-9]+(?=[,\]}\n]|\Z)")
#: A run of 16 digits or more (spelt to start with a character set, which `re` skips to in C).
_LONG_RUN = re.compile(rb"[0-9][0-9]{15,}")
#: What may end a number token.
_TOKEN_END = frozenset(b",]}\n")
#: UTF-8 lead bytes of U+E000..U+FFFF and of U+10000..U+10FFFF.
_BMP_HIGH = (b"\xee", b"\xef")
_ASTRAL = (b"\xf0", b"\xf1", b"\xf2", b"\xf3", b"\xf4")
_BACKSLASH = ord("\\")


def _orjson(value: Any, sort_keys: bool, indent: int | None, number: NumberText) -> bytes | None:
    """`dumps(value)` as UTF-8 by orjson, or None where orjson's text could differ: a lone
    surrogate or an integer beyond 64 bits (refused), a float we made ourselves written
    integral or with an exponent, or (JCS) an integer beyond 2^53-1; keys in UTF-16 order
    where it may differ from code-point order (`utf16_ordered`). Numbers that keep a lexeme go
    to `default` and are written by `number`, as `_scalar` writes them, their risky tokens
    counted: any more in the text are orjson's own."""
    jcs = number is jcs_number
    # NOTE: the writers that spell a finite `WireFloat` and a `WireInt` by its lexeme, which
    # `default` then takes as it stands (most of a number-heavy item's calls)
    lexemes = number is lexeme or number is _written_number
    risky = 0

    def default(obj: Any) -> Any:
        nonlocal risky
        if lexemes and type(obj) is WireInt:
            return orjson.Fragment(obj.lexeme)  # NOTE: digits only: never a risky token
        if lexemes and type(obj) is WireFloat and obj.lexeme not in NON_FINITE:
            spelt: str = obj.lexeme
            if spelt.endswith(".0") or "e+" in spelt or "e-" in spelt:
                risky += 1  # NOTE: as below
            return orjson.Fragment(spelt)
        if isinstance(obj, (int, float)):  # `WireFloat`, `WireInt`, int enums
            text = number(obj).encode()
            # NOTE: one token: what `_risky` would count in it, without its scans
            if text.endswith(b".0") or b"e+" in text or b"e-" in text:
                risky += 1
            elif jcs and len(text) > 15 and text.lstrip(b"-").isdigit():
                risky += 1
            return orjson.Fragment(text)
        if isinstance(obj, str):
            return str.__str__(obj)
        if isinstance(obj, dict):
            return dict(obj)
        if isinstance(obj, (list, tuple)):
            return list(obj)
        raise TypeError(type(obj).__name__)

    try:
        data = orjson.dumps(value, default=default, option=_OPTIONS[sort_keys, indent])
    except orjson.JSONEncodeError:
        return None
    if isinstance(value, str):
        return data  # NOTE: no number or key in it; a lone surrogate, orjson refused
    if _risky(data, jcs) != risky:
        return None
    if sort_keys and utf16_order_may_differ(data):
        # NOTE: the same members and tokens, each object's keys put in UTF-16 order first
        return orjson.dumps(utf16_ordered(value), default=default, option=_OPTIONS[False, indent])
    return data


def _risky(data: bytes, jcs: bool) -> int:
    """Number tokens in `data` that orjson may write otherwise than `_scalar`."""
    found = len(_INTEGRAL_END.findall(data)) + data.endswith(b".0")
    if b"e+" in data or b"e-" in data:
        found += len(_EXPONENT.findall(data))
    if jcs and has_sixteen_digits(data):
        found += sum(1 for m in _LONG_RUN.finditer(data) if _integer_token(data, m))
    return found


def _integer_token(data: bytes, run: re.Match[bytes]) -> bool:
    """Whether a run of digits is an integer token: maybe beyond 2^53-1, which RFC 8785
    rounds (not a fraction's or an exponent's digits)."""
    start, end = run.span()
    if start and data[start - 1] == ord("-"):
        start -= 1
    if start and data[start - 1] in b".eE+":
        return False
    return end == len(data) or data[end] in _TOKEN_END


def utf16_order_may_differ(data: bytes) -> bool:
    """True when sorting keys by code point might differ from UTF-16 order (RFC 8785 section
    3.2.3): only where one key has U+E000..U+FFFF and another an astral code point at their
    first difference. So only texts with both kinds, and one of them in a key, are asked."""
    if not (any(b in data for b in _BMP_HIGH) and any(b in data for b in _ASTRAL)):
        return False
    for lead in (*_BMP_HIGH, *_ASTRAL):
        pos = data.find(lead)
        while pos >= 0:
            # NOTE: lead bytes occur only inside strings, never inside an escape sequence.
            end = _string_end(data, pos)
            if end < 0 or data[end + 1 : end + 2] == b":":
                return True  # a key
            pos = data.find(lead, end)
    return False


#: `jcs_key` as a C call (no Python frame per key).
_UTF16 = methodcaller("encode", "utf-16-be", "surrogatepass")
_CONTAINERS = (dict, list, tuple)


def utf16_ordered(value: Any) -> Any:
    """A copy of a container with each object's keys in UTF-16 order (RFC 8785 section 3.2.3),
    which orjson writes as it stands."""
    if not isinstance(value, dict):
        return [utf16_ordered(v) if isinstance(v, _CONTAINERS) else v for v in value]
    out = {}
    keys = sorted(value)
    if not "".join(keys).isascii():  # NOTE: on ASCII keys code-point order is UTF-16 order
        keys.sort(key=_UTF16)
    for key in keys:
        member = value[key]
        out[key] = utf16_ordered(member) if isinstance(member, _CONTAINERS) else member
    return out


def _string_end(data: bytes, pos: int) -> int:
    """The offset of the quote that closes the string holding offset `pos` (-1: none): the
    next quote after an even run of backslashes."""
    end = data.find(b'"', pos)
    while end >= 0:
        before = end - 1
        while data[before] == _BACKSLASH:
            before -= 1
        if (end - 1 - before) % 2 == 0:
            return end
        end = data.find(b'"', end + 1)
    return end


def _pieces(
    value: Any, sort_keys: bool, indent: int | None, number: NumberText, depth: int, split: int
) -> Iterator[bytes]:
    """The UTF-8 text of `value` as it stands at `depth` of a document, in pieces: orjson's
    for each value it writes exactly (`_orjson`), else member by member, each tried again; the
    first `split` levels member by member anyway (a big document), a list's in batches."""
    if isinstance(value, str) and len(value) > _SLICE:
        yield from _string_pieces(value, number)
        return
    container = isinstance(value, (dict, list, tuple)) and bool(value)
    if not ((split > 0 and container) or _members_first(value)):
        data = _orjson(value, sort_keys, indent, number)
        if data is not None:
            if indent and depth:  # NOTE: rebound: orjson's text is not held beside the piece
                data = data.replace(b"\n", _layout(indent, depth)[1])
            yield data
            return
        if not container:
            yield _scalar(value, number).encode()
            return
    inner, close, sep, colon = _layout(indent, depth)
    if isinstance(value, dict):
        keys = sorted(value, key=jcs_key) if sort_keys else list(value)
        yield b"{" + inner
        for i, key in enumerate(keys):
            yield (sep if i else b"") + dump_string(key).encode() + colon
            yield from _pieces(value[key], sort_keys, indent, number, depth + 1, split - 1)
        yield close + b"}"
    else:
        yield b"[" + inner
        start, size = 0, 1  # NOTE: a batch's members, doubled while its text is under `_BATCH`
        while len(value) > 1 and start < len(value) and not _texts(value):
            data = _orjson(list(value[start : start + size]), sort_keys, indent, number)
            if data is None:
                break  # NOTE: members orjson writes otherwise: the rest one by one
            if indent and depth:
                data = data.replace(b"\n", close)
            yield sep if start else b""
            # NOTE: the members' text within orjson's `[...]`, laid out as below; `data` let go
            piece, data = data[1 + len(inner) : len(data) - len(close) - 1], b""
            start, size = start + size, min(size * 2, _WIDE) if len(piece) < _BATCH else size
            yield piece
        for i in range(start, len(value)):
            if i:
                yield sep
            yield from _pieces(value[i], sort_keys, indent, number, depth + 1, split - 1)
        yield close + b"]"


def _string_pieces(text: str, number: NumberText) -> Iterator[bytes]:
    """A long string's JSON text (a page text), `_SLICE` characters at a time (an escape is one
    character's). Why: orjson reads a `str` through its UTF-8 form, which CPython keeps on the
    string for its life (a 10 MB page text: 10 MB more), and the whole text was as much."""
    yield b'"'
    for start in range(0, len(text), _SLICE):
        part = text[start : start + _SLICE]
        data = _orjson(part, False, None, number) or _scalar(part, number).encode()
        yield data[1:-1]
    yield b'"'


#: `_SLICE`: characters of a string written at a time (`_string_pieces`). An object of more
#: than `_WIDE` members, most of them containers, is not tried whole (one member orjson writes
#: otherwise would make the whole text be written for nothing): its members are written one by
#: one; a list of containers (a listing's items) in batches of at most `_WIDE` members until one
#: is a batch orjson writes otherwise, each at most twice `_BATCH` bytes or one member (20 tools
#: of 500 kB were one 17 MB text, held twice to be laid out).
_SLICE, _WIDE, _BATCH = 1 << 16, 64, 1 << 18


def _members_first(value: Any) -> bool:
    """Whether `_pieces` writes `value` member by member without trying it whole: a list mostly
    of containers (in batches), a wide object (`_WIDE`), one whose lone member is a container
    (its text would be the same attempt again), or a list of strings (a listing's page texts:
    each string's text a piece as orjson writes it, with no key or number to check in it)."""
    if not isinstance(value, (dict, list, tuple)) or not value:
        return False
    members = value.values() if isinstance(value, dict) else value
    if _texts(value):
        return True
    if len(value) == 1:
        return isinstance(next(iter(members)), (dict, list, tuple))
    if isinstance(value, dict) and len(value) <= _WIDE:
        return False
    return sum(1 for v in members if isinstance(v, (dict, list, tuple))) * 2 > len(value)


def _texts(value: Any) -> bool:
    """Whether a container is a list of strings only (a listing's page texts)."""
    return not isinstance(value, dict) and all(isinstance(v, str) for v in value)


def dumps(value: Any, *, sort_keys: bool, indent: int | None, number: NumberText = lexeme) -> str:
    """Serialize with RFC 8785 escapes; keys sorted (RFC 8785) or served; numbers via `number`:
    orjson writes every value it writes exactly, `_pieces` the containers it would not, member
    by member (`_orjson`)."""
    return b"".join(_pieces(value, sort_keys, indent, number, 0, 0)).decode()


def _scalar(value: Any, number: NumberText) -> str:
    """A scalar as `_orjson` would not write it: a lone surrogate, a risky number (null,
    booleans and empty containers orjson always writes)."""
    if isinstance(value, str):
        return dump_string(value)
    if isinstance(value, (int, float)):
        return number(value)
    raise TypeError(f"cannot serialize {type(value).__name__}")


def _layout(indent: int | None, depth: int) -> tuple[bytes, bytes, bytes, bytes]:
    """What follows a container's opener, precedes its closer, separates members, ends a key."""
    if indent is None:
        return b"", b"", b",", b":"
    pad = b"\n" + b" " * (indent * (depth + 1))
    return pad, b"\n" + b" " * (indent * depth), b"," + pad, b": "


def compact(value: Any) -> str:
    """Served form: served key order, no whitespace, RFC 8785 escapes, wire lexemes."""
    return dumps(value, sort_keys=False, indent=None)


def canonical(value: Any) -> str:
    """RFC 8785 (JCS) text of a value."""
    return dumps(value, sort_keys=True, indent=None, number=jcs_number)


def canonical_utf8(value: Any) -> bytes:
    """`canonical(value)` as UTF-8."""
    return b"".join(_pieces(value, True, None, jcs_number, 0, 0))


def compact_utf8(value: Any) -> bytes:
    """`compact(value)` as UTF-8."""
    return b"".join(_pieces(value, False, None, lexeme, 0, 0))


def _written_number(number: int | float) -> str:
    text = lexeme(number)
    # NOTE: NaN/Infinity are not JSON; the readable copy says null and the `wire` section keeps
    # the served text, so the file stays parseable by every JSON reader.
    return "null" if text in NON_FINITE else text


def written(value: Any) -> str:
    """The one written form of catalogaudit files: JCS key order, lexemes, 2-space indent, EOL."""
    return dumps(value, sort_keys=True, indent=2, number=_written_number) + "\n"


def write_written(value: Any, sink: Callable[[bytes], object]) -> None:
    """`written(value)` as UTF-8 handed to `sink` in pieces, never held whole: the members of
    the top three levels one by one, a listing's items in batches, a page text in slices."""
    for piece in _pieces(value, True, 2, _written_number, 0, 3):
        sink(piece)
    sink(b"\n")


def is_integer_lexeme(number: int | float) -> bool:
    """True when the number was written as an integer on the wire (`1`, not `1.0` or `1E0`)."""
    return bool(INTEGER_LEXEME.match(lexeme(number)))
