"""RFC 8785 (JCS) bytes and canonical hashes.

`jcs_bytes` is `jsonwire.canonical` as UTF-8: orjson writes it, the exact writer the values
orjson would write otherwise (`jsonwire`). From source text scanned by `canonical.plain`, the
numbers the C encoder would write otherwise are wrapped (`Number`) and written through
placeholders (`unit_jcs`, `unit_compact`: `hash` of a list result, `canonicalize --jcs`).
"""

from __future__ import annotations

import gc
import hashlib
import json
import math
import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from catalogaudit.canonical import plain
from catalogaudit.model import jsonwire

#: JCS layout for the C encoder. `check_circular` is off: parsed JSON cannot be circular.
_SORTED: dict[str, Any] = {
    "sort_keys": True,
    "separators": (",", ":"),
    "ensure_ascii": False,
    "check_circular": False,
}
#: The same in served key order.
_SERVED: dict[str, Any] = {**_SORTED, "sort_keys": False}


def sha256(data: bytes) -> str:
    """`sha256:<lowercase hex>` of bytes."""
    return "sha256:" + hashlib.sha256(data).hexdigest()


def jcs_bytes(value: Any) -> bytes:
    """The RFC 8785 bytes of a parsed value (from `jsonwire` or `json.loads`).

    Equal to `jsonwire.canonical(value)` encoded as UTF-8; within the safe-integer range and
    without lone surrogates or NaN, equal to `rfc8785.dumps(value)`.
    """
    return jsonwire.canonical_utf8(value)


def _utf8(text: str) -> bytes | None:
    """UTF-8 bytes, or None for a lone surrogate (the slow path escapes it, as `jsonwire` does)."""
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:
        return None


def jcs_hash(value: Any) -> str:
    """`sha256:` of the RFC 8785 bytes of a value (the item canonical hash)."""
    return sha256(jcs_bytes(value))


# --- from file bytes ---------------------------------------------------------------------------


class Number:
    """A number the C encoder must not write itself: a float, or an integer beyond 2^53-1.

    Not a float subclass on purpose: the C encoder calls `default` for it, which is how an item
    learns, at no cost for the others, that it holds one.
    """

    __slots__ = ("lexeme",)

    def __init__(self, lexeme: str) -> None:
        self.lexeme = lexeme

    def jcs(self) -> str:
        """The RFC 8785 form, computed as the slow path computes it."""
        return jsonwire.jcs_number(self.wire())

    def wire(self) -> int | float:
        """The `jsonwire` value of the same lexeme."""
        if jsonwire.INTEGER_LEXEME.match(self.lexeme):
            return int(self.lexeme)
        return jsonwire.WireFloat(self.lexeme)


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


#: Placeholders for `Number` values: a string that starts with NUL, then its index.
_PLACEHOLDER = re.compile(r'"\\u0000([0-9]+)"')


def _marked(value: Any, sort_keys: bool) -> tuple[str, list[Number]]:
    """The C encoder's compact text of `value` (keys sorted or in served order), each `Number`
    written as a placeholder string (`"\\u0000<index>"`), and those numbers in order."""
    numbers: list[Number] = []

    def default(obj: Any) -> str:
        if isinstance(obj, Number):
            numbers.append(obj)
            return f"\x00{len(numbers) - 1}"
        raise TypeError(type(obj).__name__)

    layout = _SORTED if sort_keys else _SERVED
    return json.JSONEncoder(default=default, **layout).encode(value), numbers


def _unambiguous(text: str, numbers: list[Number]) -> bool:
    """No real string looks like a placeholder (each placeholder writes one `"\\u0000`)."""
    return text.count('"\\u0000') == len(numbers)


def _fill(text: str, texts: list[str]) -> str:
    """`text` with the i-th placeholder replaced by `texts[i]`."""
    return _PLACEHOLDER.sub(lambda m: texts[int(m.group(1))], text)


def thaw(value: Any) -> Any:
    """A value from `parse` with its wrapped numbers turned back into `jsonwire` numbers."""
    if isinstance(value, Number):
        return value.wire()
    if isinstance(value, dict):
        return {k: thaw(v) for k, v in value.items()}
    if isinstance(value, list):
        return [thaw(v) for v in value]
    return value


def unit_jcs(value: Any, text: str, start: int, end: int) -> tuple[bytes, int] | None:
    """The RFC 8785 bytes of a value scanned from `text[start:end]` by `plain.scanner(Number)`
    and the whitespace between its source's tokens, or None when its source lost a member or
    an escape, or holds NaN or Infinity (so the exact path must decide). The C encoder writes
    it; odd numbers go through placeholders."""
    encoded, numbers = _marked(value, sort_keys=True)
    # NOTE: a placeholder is written `"\u0000<index>"`, 8 characters and the index's digits.
    shift = sum(len(n.lexeme) - 8 - len(str(i)) for i, n in enumerate(numbers))
    gaps = plain.lossless(text, start, end, encoded, shift)
    if gaps is None:
        return None
    if numbers:
        if not all(math.isfinite(float(n.lexeme)) for n in numbers):
            return None
        if not _unambiguous(encoded, numbers):
            return _exact(value), gaps  # a string starts with NUL
        encoded = _fill(encoded, [n.jcs() for n in numbers])
    out = _utf8(encoded)
    if out is None or jsonwire.utf16_order_may_differ(out):
        return _exact(value), gaps
    return out, gaps


def _exact(value: Any) -> bytes:
    return jsonwire.canonical(thaw(value)).encode("utf-8")


def unit_compact(value: Any) -> str:
    """The compact served-order text of a value scanned by `plain.scanner(Number)`, odd numbers
    written as their lexemes: what `jsonwire.compact` writes for the exact parse (and does
    write, when a string starting with NUL makes the placeholders ambiguous)."""
    encoded, numbers = _marked(value, sort_keys=False)
    if not numbers:
        return encoded
    if not _unambiguous(encoded, numbers):
        return jsonwire.compact(thaw(value))
    return _fill(encoded, [n.lexeme for n in numbers])
