"""`canonicalize --jcs`: the RFC 8785 bytes of any JSON document, or an error naming what RFC
8785 (or I-JSON, RFC 7493) cannot hold. Plain documents take a C-speed path (`_quick_jcs`,
proved equal to the exact path by `tests/canonical/test_quick_hash.py`)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from catalogaudit.canonical import plain
from catalogaudit.canonical.jcs import Number, gc_paused, jcs_bytes, unit_jcs
from catalogaudit.errors import InputError
from catalogaudit.model import SIXTEEN_DIGITS, jsonwire


@dataclass(frozen=True)
class Problem:
    """Something RFC 8785 cannot represent, at a JSON Pointer."""

    pointer: str
    detail: str


_SURROGATE = re.compile("[\ud800-\udfff]")
_ESCAPED_BYTE = re.compile("[\udc80-\udcff]")
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89abcdefABCDEF]")


def problems(value: Any, invalid_utf8: bool = False) -> list[Problem]:
    """What makes a `jsonwire` value not I-JSON (RFC 7493) or outside RFC 8785, in document order.

    Duplicate keys and lone surrogates (I-JSON sections 2.3 and 2.1), NaN/Infinity and numbers
    beyond the double range (RFC 8785 section 3.2.2.3), and, as in `rfc8785`, integers beyond
    +-(2^53-1): a conformant JCS maps 2^53 and 2^53+1 to the same bytes (Appendix B).
    """
    found: list[Problem] = []

    def text(s: str, at: str, what: str) -> None:
        if _SURROGATE.search(s):
            if invalid_utf8 and _ESCAPED_BYTE.search(s):
                found.append(Problem(at, f"{what} is not valid UTF-8"))
            else:
                found.append(Problem(at, f"{what} has a lone surrogate"))

    stack: list[tuple[Any, str]] = [(value, "")]
    while stack:
        node, at = stack.pop()
        if isinstance(node, dict):
            dups = getattr(node, "duplicates", ())
            found.extend(Problem(jsonwire.pointer_join(at, k), "duplicate key") for k in dups)
            for key in node:
                text(key, jsonwire.pointer_join(at, key), "key")
            stack.extend((v, jsonwire.pointer_join(at, k)) for k, v in reversed(node.items()))
        elif isinstance(node, list):
            stack.extend(
                (v, jsonwire.pointer_join(at, i)) for i, v in reversed(list(enumerate(node)))
            )
        elif isinstance(node, str):
            text(node, at, "string")
        elif isinstance(node, float) and node - node != 0:  # NaN or +-inf
            lexeme = node.lexeme if isinstance(node, jsonwire.WireFloat) else repr(node)
            if lexeme in ("NaN", "Infinity", "-Infinity", "nan", "inf", "-inf"):
                found.append(Problem(at, f"{lexeme} is not a JSON number"))
            else:
                found.append(Problem(at, f"{lexeme} is beyond the IEEE 754 double range"))
        elif isinstance(node, int) and not isinstance(node, bool):
            if abs(node) > jsonwire.MAX_SAFE_INTEGER:
                found.append(Problem(at, f"integer {node} is beyond +-(2^53-1)"))
    return found


def strict_jcs(data: bytes, name: str) -> bytes:
    """The RFC 8785 bytes of any JSON document, or an `InputError` naming what JCS cannot hold."""
    text, invalid_utf8 = jsonwire.decode_utf8(data)
    text = text.removeprefix("\ufeff")
    if not text.strip():
        raise InputError(f"{name}: empty input")
    quick = None if invalid_utf8 else _quick_jcs(text, data)
    if quick is not None:
        return quick
    try:
        value, plain_parse = jsonwire.loads_plain(text)
    except jsonwire.WireDecodeError as exc:
        raise InputError(f"{name}: not JSON ({exc})") from None
    # NOTE: a plain parse has no duplicate key and no NaN/Infinity; valid UTF-8 without a
    # surrogate escape has no lone surrogate; without 16 digits in a row, no unsafe integer.
    # Then `problems` has nothing to find and its walk is skipped.
    clean = plain_parse and not invalid_utf8 and not _SURROGATE_ESCAPE.search(text)
    found = [] if clean and not SIXTEEN_DIGITS.search(text) else problems(value, invalid_utf8)
    if found:
        where = found[0].pointer or "the document root"
        more = f" (and {len(found) - 1} more)" if len(found) > 1 else ""
        raise InputError(
            f"{name}: not representable in RFC 8785: {found[0].detail} at {where}{more}"
        )
    return jcs_bytes(value)


def _quick_jcs(text: str, data: bytes) -> bytes | None:
    """`strict_jcs` at C speed (`canonical.plain`): top-level members one by one, arrays element
    by element, each written by the C encoder; None when the document needs the exact path (a
    lost member or escape, an integer beyond 2^53-1, NaN, a lone surrogate, or not JSON)."""
    if plain.has_unsafe_integer(data):
        return None
    scan, _ = plain.scanner(Number)
    start = len(text) - len(text.lstrip(" \t\n\r"))
    with gc_paused():
        if not text.startswith("{", start):
            try:
                value, end = scan(text, start)
                whole = unit_jcs(value, text, start, end)
            except (StopIteration, ValueError, RecursionError):
                return None
            if whole is None or not plain.trailing_only_whitespace(text, end):
                return None
            return whole[0]

        # NOTE: each element is written as it is scanned, so the parsed listing is never held.
        try:
            page = plain.members(text, start, scan, lambda v, s, e: unit_jcs(v, text, s, e))
        except (StopIteration, ValueError, RecursionError):
            return None
        if not plain.trailing_only_whitespace(text, page[1]):
            return None
        found = page[0]
        keys = {m.key for m in found}
        if len(keys) != len(found) or _SURROGATE.search("".join(keys)):
            return None  # the exact path names the duplicate key or the lone surrogate
        # NOTE: one join of every piece: joining each array, then each member, then the
        # document copied the 10 MB three times more (15 ms).
        pieces: list[bytes] = [b"{"]
        for m in sorted(found, key=lambda m: jsonwire.jcs_key(m.key)):
            pieces += (b",", jsonwire.dump_string(m.key).encode("utf-8"), b":")
            if m.elements is None:
                whole = unit_jcs(m.value, text, m.start, m.end)
                if whole is None:
                    return None
                pieces.append(whole[0])
                continue
            if None in m.elements:
                return None
            first = len(pieces)
            for element in m.elements:
                pieces += (b",", element[0])
            if len(pieces) == first:
                pieces.append(b"[]")
            else:
                pieces[first] = b"["  # NOTE: in place of the first element's comma
                pieces.append(b"]")
    if len(pieces) > 1:
        del pieces[1]  # NOTE: the first member's comma
    pieces.append(b"}")
    return b"".join(pieces)
