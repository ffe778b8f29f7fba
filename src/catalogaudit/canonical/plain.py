"""Plain JSON at C speed: a parse with no per-object hook, and the length test that proves it lost
nothing.

Why: the wire-faithful parse (`jsonwire`) calls a Python hook for every object to find duplicate
keys; on a 10 MB catalog that hook is most of the parse. Here CPython's C scanner builds plain
dicts, a hook runs only per fraction or exponent (`scan`), and what the hook cannot see is proved
absent afterwards by counting characters (`lossless`):

the C encoder's compact text of a parsed value is never longer than its source with the
whitespace between tokens removed, token by token: a string comes back with the fewest escapes
JSON allows (`\\/`, `\\u00e9` and `\\u0022` are longer than `/`, `é` and `\\"`), `-0` as `0`,
and a duplicate key drops a whole member. Number lexemes the encoder would write longer
(`1E3` -> `1000.0`) are what the hook flags. So equal lengths mean no duplicate key, no `-0` and
no escape beyond the fewest, and sorting keys changes no length, so the sorted text proves it too.
Raw tabs and newlines cannot be inside strings (the scanner is strict), so whitespace outside
strings is every tab and newline plus the spaces the encoder did not write itself.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from catalogaudit.model import has_sixteen_digits

Scan = Callable[[str, int], tuple[Any, int]]


def scanner(wrap: Callable[[str], Any]) -> tuple[Scan, list[int]]:
    """A C scanner (`scan(text, idx) -> (value, end)`) and its counter of odd numbers.

    A number is odd when the C encoder would not write it back as its lexeme or RFC 8785 would
    write it otherwise (`1.50`, `1E3`, `1e-07`, `100.0`, `-0.0`, NaN, Infinity): exponent or
    integral in `repr` (Python and ECMAScript agree on the shortest digits in fixed notation,
    RFC 8785 section 3.2.2.3). An odd number is parsed as `wrap(lexeme)`, so the C encoder
    hands it to its `default` instead of writing it. Integers are the C scanner's own; callers
    refuse integers beyond 2^53-1 (RFC 8785 rounds them) and `-0` fails `lossless`. The counter
    is per scanner, so threads can scan at once.
    """
    odd = [0]
    float_repr = float.__repr__

    def number(lexeme: str) -> Any:
        value = float(lexeme)
        text = float_repr(value)
        if text != lexeme or "e" in text or text.endswith(".0"):
            odd[0] += 1
            return wrap(lexeme)
        return value

    def constant(lexeme: str) -> Any:
        odd[0] += 1
        return wrap(lexeme)

    decoder = json.JSONDecoder(parse_float=number, parse_constant=constant)
    return decoder.scan_once, odd  # type: ignore[attr-defined]


@dataclass(frozen=True)
class Member:
    """One member of an object as scanned: its key, the span of its key's text through its
    value's, and either its value or what `each` made of its array's elements."""

    key: str
    key_start: int
    start: int
    end: int
    value: Any = None
    elements: list[Any] | None = None


def members(
    text: str,
    pos: int,
    scan: Scan,
    each: Callable[[Any, int, int], Any] | None = None,
    element: Scan | None = None,
    split: Callable[[str], bool] | None = None,
) -> tuple[list[Member], int]:
    """The members of the object at `pos` in source order (duplicates kept) and its end.

    With `each`, an array value is scanned element by element and each element's (value, start,
    end) handed to `each` at once, so only what `each` returns is kept (a 10 MB listing is never
    held parsed). Raises `ValueError` for anything that is not such an object (the caller then
    takes the exact path, which says what). `element` scans each element instead of `scan`
    (`hash` reads each item member by member); `split(key)` says which arrays to split (all,
    when not given)."""
    ws = _WS.match
    if not text.startswith("{", pos):
        raise ValueError("not an object")
    out: list[Member] = []
    pos = ws(text, pos + 1).end()  # type: ignore[union-attr]
    if text.startswith("}", pos):
        return out, pos + 1
    while True:
        if not text.startswith('"', pos):
            raise ValueError("expected a key")
        key_start = pos
        key, pos = scan(text, pos)
        pos = ws(text, pos).end()  # type: ignore[union-attr]
        if not text.startswith(":", pos):
            raise ValueError("expected ':'")
        start = ws(text, pos + 1).end()  # type: ignore[union-attr]
        if each is not None and text.startswith("[", start) and (split is None or split(key)):
            elements, end = _elements(text, start, element or scan, each)
            out.append(Member(key, key_start, start, end, elements=elements))
        else:
            value, end = scan(text, start)
            out.append(Member(key, key_start, start, end, value))
        pos = ws(text, end).end()  # type: ignore[union-attr]
        if text.startswith(",", pos):
            pos = ws(text, pos + 1).end()  # type: ignore[union-attr]
        elif text.startswith("}", pos):
            return out, pos + 1
        else:
            raise ValueError("expected ',' or '}'")


def _elements(
    text: str, pos: int, scan: Scan, each: Callable[[Any, int, int], Any]
) -> tuple[list[Any], int]:
    ws = _WS.match
    found: list[Any] = []
    pos = ws(text, pos + 1).end()  # type: ignore[union-attr]
    if text.startswith("]", pos):
        return found, pos + 1
    while True:
        value, end = scan(text, pos)
        found.append(each(value, pos, end))
        pos = ws(text, end).end()  # type: ignore[union-attr]
        if text.startswith(",", pos):
            pos = ws(text, pos + 1).end()  # type: ignore[union-attr]
        elif text.startswith("]", pos):
            return found, pos + 1
        else:
            raise ValueError("expected ',' or ']'")


def trailing_only_whitespace(text: str, pos: int) -> bool:
    """True when nothing but JSON whitespace follows `pos`."""
    return _WS.match(text, pos).end() == len(text)  # type: ignore[union-attr]


_WS = re.compile(r"[ \t\n\r]*")


def outside_strings_whitespace(text: str, start: int, end: int, inside: int) -> int:
    """Whitespace characters between the tokens of `text[start:end]`, whose strings hold
    `inside` spaces (the count in any compact encoding of its value)."""
    total = (
        text.count(" ", start, end)
        + text.count("\n", start, end)
        + text.count("\r", start, end)
        + text.count("\t", start, end)
    )
    return total - inside


def lossless(text: str, start: int, end: int, encoded: str, shift: int = 0) -> int | None:
    """The whitespace between tokens of `text[start:end]` when `encoded`, the C encoder's
    compact text (sorted or not) of the value scanned from it, has every member and the fewest
    escapes of its source (the module's argument); None means take the exact path. `shift`: how
    much longer `encoded` would be with each odd number written as its lexeme instead of what
    stands for it."""
    size = len(encoded) + shift
    if size == end - start:
        return 0  # NOTE: never longer than the source's tokens, so none were lost, no gap
    gaps = outside_strings_whitespace(text, start, end, encoded.count(" "))
    return gaps if size == end - start - gaps else None


def has_unsafe_integer(data: bytes) -> bool:
    """True when a run of digits somewhere reads as more than 2^53-1: an integer RFC 8785 would
    round (and the exact path notes, CA544). Runs in strings or fractions only cost the exact
    path. Zod writes 9007199254740991 itself, so a 16-digit run alone is not enough."""
    if not has_sixteen_digits(data):
        return False
    # NOTE: 17 digits are past 2^53-1 whatever they are (and `int` refuses 4,300 and more).
    return any(
        m.end() - m.start() > 16 or int(m.group()) > _MAX_SAFE for m in _LONG_RUN.finditer(data)
    )


_MAX_SAFE = 2**53 - 1
_LONG_RUN = re.compile(rb"[0-9]{16,}")
