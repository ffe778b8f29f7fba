"""`canonicalize --jcs`: the RFC 8785 bytes of any JSON document, or an error naming what RFC
8785 (or I-JSON, RFC 7493) cannot hold. What orjson reads exactly it writes (`_orjson_jcs`,
proved equal to the exact path by `tests/canonical/test_quick_hash.py`)."""

from __future__ import annotations

from typing import BinaryIO

import orjson

from catalogaudit.canonical.jcs import (
    gc_paused,
    jcs_bytes,
    jcs_pieces,
    read_values,
    same_members,
)
from catalogaudit.errors import InputError
from catalogaudit.model import WireDecodeError, anomalies, decode_utf8, loads

#: What makes a value not I-JSON (RFC 7493) or outside RFC 8785, and how `canonicalize --jcs`
#: words it (`{}`: its subject): duplicate keys and lone surrogates (I-JSON sections 2.3 and
#: 2.1), NaN/Infinity and numbers beyond the double range (RFC 8785 section 3.2.2.3), and, as
#: in `rfc8785`, integers beyond +-(2^53-1): a conformant JCS maps 2^53 and 2^53+1 to the same
#: bytes (Appendix B).
_WORDS = {
    "duplicate-key": "duplicate key",
    "lone-surrogate": "{} has a lone surrogate",
    "invalid-utf8": "{} is not valid UTF-8",
    "non-finite-number": "{} is not a JSON number",
    "beyond-double": "{} is beyond the IEEE 754 double range",
    "big-integer": "integer {} is beyond +-(2^53-1)",
}


def write_jcs(data: bytes, name: str, fh: BinaryIO) -> int:
    """Write the RFC 8785 bytes of any JSON document to `fh` (which it may rewind and truncate:
    `verbs.output.emit_document`'s file), returning their size; or raise an `InputError`
    naming what JCS cannot hold."""
    quick = _orjson_jcs(data, fh)
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
    found = anomalies(value, invalid_utf8, numbers=True)  # in document order
    if found:
        where = found[0].pointer or "the document root"
        detail = _WORDS[found[0].kind].format(found[0].subject)
        more = f" (and {len(found) - 1} more)" if len(found) > 1 else ""
        raise InputError(f"{name}: not representable in RFC 8785: {detail} at {where}{more}")
    return fh.write(jcs_bytes(value))


def _orjson_jcs(data: bytes, fh: BinaryIO) -> int | None:
    """`write_jcs` at C speed (`jcs.read_values`, `jcs.plain_jcs`): RFC 8785 depends on values
    only. None, with `fh` emptied again, when the exact path must read the document (it says
    what RFC 8785 cannot hold), or a duplicate key was dropped."""
    with gc_paused():
        value = read_values(data)
        if value is None:
            return None
        size = colons = 0
        try:
            for piece in jcs_pieces(value, split=2):
                colons += piece.count(b":")
                size += fh.write(piece)
        except (orjson.JSONEncodeError, RecursionError):
            size = -1  # NOTE: 255 levels
    if size >= 0 and same_members(data, colons):
        return size
    fh.seek(0)
    fh.truncate()
    return None
