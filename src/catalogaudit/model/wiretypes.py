"""The values of wire-faithful JSON: numbers that keep their lexeme, objects that remember
duplicate keys (`jsonwire` parses into them; this module only defines them)."""

from __future__ import annotations

import re
from typing import Any

#: RFC 8785 section 3.2.2.2 and our brief: "an integer on the wire" is exactly this lexeme.
INTEGER_LEXEME = re.compile(r"-?(?:0|[1-9][0-9]*)\Z")

#: The safe-integer range of RFC 8785 section 3.2.2.3 (IEEE 754 doubles).
MAX_SAFE_INTEGER = 2**53 - 1

_DIGITS_TO_ZERO = bytes.maketrans(b"0123456789", b"0" * 10)


def has_sixteen_digits(text: str | bytes) -> bool:
    """Whether `text` holds sixteen ASCII digits in a row, asked of the UTF-8 bytes (a digit is
    the same byte, any other character no digit byte), which `bytes.translate` scans in C."""
    data = text if isinstance(text, bytes) else text.encode("utf-8", "surrogatepass")
    return data.translate(_DIGITS_TO_ZERO).find(b"0" * 16) >= 0


#: Each byte as what it says of a run of digits: a digit `0`; `.`, `e`, `E` (a fraction or
#: an exponent) `.`; `+` itself; any other byte a space.
_RUN_SHAPES = bytes(
    {**dict.fromkeys(b"0123456789", ord("0")), **dict.fromkeys(b".eE", ord(".")), 43: 43}.get(
        byte, ord(" ")
    )
    for byte in range(256)
)
#: Where a run of sixteen digits or more that may be an integer starts, in the shapes: after
#: a space, so not a fraction's or an exponent's (no `.`, `e`, `E` or `+` before it).
_RUN_START = b" " + b"0" * 16
_ZEROS = re.compile(rb"0+")


def has_unsafe_integer(data: str | bytes) -> bool:
    """True when a run of digits somewhere may be an integer beyond 2^53-1, which RFC 8785
    rounds (and the exact path notes, CA544) and orjson reads as a double beyond 64 bits. Runs
    in strings only cost the exact path; zod writes 9007199254740991 itself, so a 16-digit run
    alone is not enough (17 digits are past 2^53-1 whatever they are).

    NOTE: the runs are found in the shapes by `bytes.find`, not a pattern: one test per run
    that may be an integer, none per 17-digit float (its run follows its point)."""
    if isinstance(data, str):
        data = data.encode("utf-8", "surrogatepass")
    shapes = b" " + data.translate(_RUN_SHAPES)  # NOTE: shapes[i] is data[i - 1]
    at = shapes.find(_RUN_START)
    while at >= 0:
        end = _ZEROS.match(shapes, at + 1).end()  # type: ignore[union-attr]
        # NOTE: not a fraction's or an exponent's either when `.`, `e` or `E` follows
        if shapes[end : end + 1] != b"." and (
            end - at > 17 or int(data[at : end - 1]) > MAX_SAFE_INTEGER
        ):
            return True
        at = shapes.find(_RUN_START, end)
    return False


NON_FINITE = ("NaN", "Infinity", "-Infinity")


class WireInt(int):
    """An integer whose lexeme `str` would not write, or that may be beyond 2^53-1: `-0`, and
    lexemes of 16 digits or more (so orjson hands them to the writers' `default`, which
    spells them, instead of refusing those beyond 64 bits); others are plain ints. No
    attribute per instance: the lexeme is derived (JSON forbids leading zeros and "+")."""

    __slots__ = ()

    @property
    def lexeme(self) -> str:
        return "-0" if self == 0 else int.__repr__(self)

    def __repr__(self) -> str:
        # NOTE: the lexeme, as served: jsonschema's messages (CA403, CA610) quote a value by
        # its repr, and a user reads "-0", not "WireInt('-0')".
        return self.lexeme


_new_float = float.__new__


class WireFloat(float):
    """A non-integer number (fraction, exponent or NaN/Infinity) with its exact wire lexeme."""

    # NOTE: a slot, not a dict per instance: the parser makes one per float served.
    __slots__ = ("lexeme",)
    lexeme: str

    def __new__(cls, lexeme: str) -> WireFloat:
        self = _new_float(cls, lexeme)  # NOTE: float() reads the lexeme itself
        self.lexeme = lexeme
        return self

    def __repr__(self) -> str:
        return self.lexeme  # NOTE: as `WireInt.__repr__`: "-0.25", not "WireFloat('-0.25')"


class WireObject(dict):  # type: ignore[type-arg]
    """A JSON object that had duplicate keys; it keeps the last value, as most parsers do."""

    duplicates: list[str]


class WireDecodeError(ValueError):
    """Text that is not JSON at all; carries the position for a one-line message."""

    def __init__(self, message: str, pos: int) -> None:
        super().__init__(message)
        self.pos = pos


#: Longest integer lexeme read: CPython refuses int <-> str over 4,300 digits (a quadratic-time
#: guard, docs.python.org/3/library/stdtypes.html#int-max-str-digits); JSON allows any length,
#: so integers are read exactly up to this bound (milliseconds) and refused beyond it. The CLI
#: raises the interpreter's limit to it (`cli.entry.main`).
MAX_INT_DIGITS = 50_000

#: The largest input any command reads (a file, stdin, a `git:` blob), and so the largest
#: snapshot `snapshot` writes. Here, not in `intake`, so a live snapshot can check its size
#: without loading the intake.
MAX_INPUT = 512 * 1024 * 1024


class LongInteger(ValueError):
    """An integer lexeme over `MAX_INT_DIGITS` (or the interpreter's limit) met while parsing."""


class WireLimitError(WireDecodeError):
    """Valid JSON refused: nested beyond the parser's stack, or an integer over the bound."""


def parse_int_lexeme(lexeme: str) -> int:
    # NOTE: only "-0" differs from str(int(lexeme)); JSON forbids leading zeros and "+".
    if len(lexeme) > MAX_INT_DIGITS:
        raise LongInteger(f"an integer of {len(lexeme.lstrip('-'))} digits")
    try:
        return WireInt(lexeme) if lexeme == "-0" or len(lexeme) > 15 else int(lexeme)
    except ValueError:  # over the interpreter's int-string limit (not raised by the CLI)
        raise LongInteger(f"an integer of {len(lexeme.lstrip('-'))} digits") from None


def object_from_pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    obj = dict(pairs)
    if len(obj) == len(pairs):
        return obj
    seen: set[str] = set()
    dup: list[str] = []
    for key, _ in pairs:
        if key in seen and key not in dup:
            dup.append(key)
        seen.add(key)
    wire = WireObject(obj)
    wire.duplicates = dup
    return wire
