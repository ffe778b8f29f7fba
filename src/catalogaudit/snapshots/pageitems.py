"""A wire page text read one item at a time, for a caller that only compares its items.

Why: `resolve_wire` checks that a snapshot's readable items are its wire items. Parsed whole,
a page is all its items held at once, on top of the document; read item by item it is one
item. A packed page (UTF-8 bytes, `model.pieces`, `diffing.sides`) is decoded about `_WINDOW`
bytes at a time, never whole (a `str` holding one astral character takes 4 bytes a character).

Only the common page is read this way: one JSON object, no duplicate key, the listing's member
an array. Anything else raises `Irregular` (maybe after some items were yielded), and the caller
parses the page whole, as before: a page read here is exactly the whole parse's items and fields
(or, read `compared`, values equal to them in every comparison).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from catalogaudit.model import WireDecodeError, raw_decode

#: Bytes of a packed page decoded at a time.
_WINDOW = 1 << 16
_WS = re.compile(r"[ \t\n\r]*")
#: What may still follow a number's lexeme in the next window (`1` `.5`, `1e` `+5`).
_TAIL = re.compile(r"[0-9.eE+-]*")


class Irregular(Exception):
    """Not the common page (or not JSON): parse it whole."""


class _Reader:
    """A page text as a window of decoded text that grows on demand (`more`)."""

    def __init__(self, text: str | bytes, compared: bool = False) -> None:
        self.compared = compared
        self.data = text if isinstance(text, bytes) else b""
        self.buf = text if isinstance(text, str) else ""
        self.read = 0  # bytes of `data` decoded into `buf`
        self.pos = 0
        self.more()

    def more(self) -> bool:
        """Decode the next window onto what is still unread; False at the end."""
        size = len(self.data)
        if self.read >= size:
            return False
        cut = min(self.read + max(_WINDOW, 1), size)
        while cut < size and 0x80 <= self.data[cut] < 0xC0:  # never inside a UTF-8 sequence
            cut += 1
        chunk = str(memoryview(self.data)[self.read : cut], "utf-8", "surrogatepass")
        self.buf, self.pos, self.read = self.buf[self.pos :] + chunk, 0, cut
        return True

    def peek(self) -> str:
        """The next character after whitespace ("" at the end)."""
        while True:
            self.pos = _WS.match(self.buf, self.pos).end()  # type: ignore[union-attr]
            if self.pos < len(self.buf) or not self.more():
                return self.buf[self.pos : self.pos + 1]

    def skip(self, char: str) -> bool:
        """Whether the next character is `char` (then read past it)."""
        if self.peek() != char:
            return False
        self.pos += 1
        return True

    def take(self, char: str) -> None:
        if not self.skip(char):
            raise Irregular

    def value(self) -> Any:
        """The next value. A number whose tail (`.`, `e`, `+`, digits) reaches the end of the
        window may go on in the next, and a value that fails may be cut short: both are parsed
        again on more text (a string, an object or an array ends at its closing character)."""
        self.peek()
        while True:
            try:
                value, end = raw_decode(self.buf, self.pos, compared=self.compared)
            except WireDecodeError:
                if self.more():
                    continue
                raise Irregular from None
            tail = _TAIL.match(self.buf, end).end()  # type: ignore[union-attr]
            if self.buf[self.pos] not in '"{[' and tail == len(self.buf) and self.more():
                continue
            self.pos = end
            return value


def page_items(
    text: str | bytes, listing: str, fields: dict[str, Any], *, compared: bool = False
) -> Iterator[Any]:
    """The items of `listing` in one page text, in served order; its other members are put
    in `fields` (served order) by the time the iterator ends. Raises `Irregular`.
    `compared`: items and fields only compared with `==`, parsed without the wire types' hooks
    (`jsonwire.raw_decode`: equal to the whole parse's in every comparison, not the same)."""
    page = _Reader(text, compared)
    page.take("{")
    seen: set[str] = set()
    while True:
        if page.peek() != '"':
            raise Irregular
        key = page.value()
        if key in seen:
            raise Irregular  # NOTE: which value the whole parse keeps is its business
        seen.add(key)
        page.take(":")
        if key == listing:
            page.take("[")
            if not page.skip("]"):
                while True:
                    yield page.value()
                    if page.skip("]"):
                        break
                    page.take(",")
        else:
            fields[key] = page.value()
        if page.skip("}"):
            break
        page.take(",")
    if page.peek() != "" or listing not in seen:
        raise Irregular
