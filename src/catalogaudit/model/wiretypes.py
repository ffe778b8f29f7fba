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
_SIXTEEN = b"0" * 16


def has_sixteen_digits(text: str | bytes) -> bool:
    """Whether `text` holds sixteen ASCII digits in a row, asked of the UTF-8 bytes (a digit is
    the same byte, any other character no digit byte), which `bytes.translate` scans in C."""
    data = text if isinstance(text, bytes) else text.encode("utf-8", "surrogatepass")
    return data.translate(_DIGITS_TO_ZERO).find(_SIXTEEN) >= 0


#: A run of digits that may be an integer beyond 2^53-1: not a fraction's or an exponent's.
_LONG_RUN = re.compile(rb"[0-9][0-9]{15,}(?![0-9.eE])")
_NOT_INTEGER = frozenset(b".eE+")


def has_unsafe_integer(data: str | bytes) -> bool:
    """True when a run of digits somewhere may be an integer beyond 2^53-1, which RFC 8785
    rounds (and the exact path notes, CA544) and orjson reads as a double beyond 64 bits. Runs
    in strings only cost the exact path; zod writes 9007199254740991 itself, so a 16-digit run
    alone is not enough (17 digits are past 2^53-1 whatever they are)."""
    if isinstance(data, str):
        data = data.encode("utf-8", "surrogatepass")
    zeros = data.translate(_DIGITS_TO_ZERO)
    if zeros.find(_SIXTEEN) < 0:
        return False
    # NOTE: a float written with 17 significant digits has a run of 16 after its point: those
    # runs are cut short first, in C, so that only the runs left are asked one by one.
    if zeros.replace(b"." + _SIXTEEN, b".").find(_SIXTEEN) < 0:
        return False
    return any(
        (m.start() == 0 or data[m.start() - 1] not in _NOT_INTEGER)
        and (m.end() - m.start() > 16 or int(m.group()) > MAX_SAFE_INTEGER)
        for m in _LONG_RUN.finditer(data)
    )


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
