"""`canonicalize --jcs`: the RFC 8785 bytes of any JSON document, or an error naming what RFC
8785 (or I-JSON, RFC 7493) cannot hold. What the C scanner reads exactly orjson writes
(`_orjson_jcs`, proved equal to the exact path by `tests/canonical/test_quick_hash.py`)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import orjson

from catalogaudit.canonical.jcs import (
    gc_paused,
    jcs_bytes,
    plain_jcs,
    read,
    same_members,
)
from catalogaudit.errors import InputError
from catalogaudit.model import (
    MAX_SAFE_INTEGER,
    WireDecodeError,
    WireFloat,
    decode_utf8,
    loads,
    pointer_join,
)


@dataclass(frozen=True)
class Problem:
    """Something RFC 8785 cannot represent, at a JSON Pointer."""

    pointer: str
    detail: str


_SURROGATE = re.compile("[\ud800-\udfff]")
_ESCAPED_BYTE = re.compile("[\udc80-\udcff]")


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
            found.extend(Problem(pointer_join(at, k), "duplicate key") for k in dups)
            for key in node:
                text(key, pointer_join(at, key), "key")
            stack.extend((v, pointer_join(at, k)) for k, v in reversed(node.items()))
        elif isinstance(node, list):
            stack.extend((v, pointer_join(at, i)) for i, v in reversed(list(enumerate(node))))
        elif isinstance(node, str):
            text(node, at, "string")
        elif isinstance(node, float) and node - node != 0:  # NaN or +-inf
            lexeme = node.lexeme if isinstance(node, WireFloat) else repr(node)
            if lexeme in ("NaN", "Infinity", "-Infinity", "nan", "inf", "-inf"):
                found.append(Problem(at, f"{lexeme} is not a JSON number"))
            else:
                found.append(Problem(at, f"{lexeme} is beyond the IEEE 754 double range"))
        elif isinstance(node, int) and not isinstance(node, bool):
            if abs(node) > MAX_SAFE_INTEGER:
                found.append(Problem(at, f"integer {node} is beyond +-(2^53-1)"))
    return found


def strict_jcs(data: bytes, name: str) -> bytes:
    """The RFC 8785 bytes of any JSON document, or an `InputError` naming what JCS cannot hold."""
    quick = _orjson_jcs(data)
    if quick is not None:
        return quick
    text, invalid_utf8 = decode_utf8(data)
    text = text.removeprefix("\ufeff")
    if not text.strip():
        raise InputError(f"{name}: empty input")
    try:
        value = loads(text)
    except WireDecodeError as exc:
        raise InputError(f"{name}: not JSON ({exc})") from None
    found = problems(value, invalid_utf8)
    if found:
        where = found[0].pointer or "the document root"
        more = f" (and {len(found) - 1} more)" if len(found) > 1 else ""
        raise InputError(
            f"{name}: not representable in RFC 8785: {found[0].detail} at {where}{more}"
        )
    return jcs_bytes(value)


def _orjson_jcs(data: bytes) -> bytes | None:
    """`strict_jcs` at C speed (`jcs.read`, `jcs.plain_jcs`): RFC 8785 depends on values only;
    None when the exact path must read the document (it says what RFC 8785 cannot hold), or
    a duplicate key was dropped."""
    with gc_paused():
        value = read(data)
        if value is None:
            return None
        try:
            out = plain_jcs(value, split=2)
        except (orjson.JSONEncodeError, RecursionError):
            return None  # NOTE: a lone surrogate, 1E400, 255 levels
    return out if same_members(data, out.count(b":")) else None
