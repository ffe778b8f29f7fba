"""Content codings of HTTP answers (RFC 9110 section 8.4): gzip and deflate, decoded as they
arrive, so the size cap applies to the decoded bytes and a decompression bomb never inflates
past it in memory (every step inflates at most `PIECE` bytes).

httpx would decode too, but only what it offers itself (br and zstd when those packages are
installed) and without a bound per step; the wire client reads `iter_raw()` and decodes here,
so the page text it records is the decoded body, byte for byte.
"""

from __future__ import annotations

import zlib
from collections.abc import Iterable, Iterator

from catalogaudit.errors import ServerError

#: What we offer (RFC 9110 section 12.5.3), and therefore all we can decode.
ACCEPT_ENCODING = "gzip, deflate"
#: The most one inflate step returns (zlib `max_length`).
PIECE = 64 * 1024
_GZIP = 16 + zlib.MAX_WBITS
_ALIASES = {"x-gzip": "gzip"}


class CodingError(ServerError):
    """A body that is not what its Content-Encoding says, or in a coding we did not offer."""


def codings(header: str | None) -> list[str]:
    """The codings of a Content-Encoding value in the order applied (`identity` dropped)."""
    names = [c.strip().lower() for c in (header or "").split(",")]
    out = [_ALIASES.get(n, n) for n in names if n and n != "identity"]
    for name in out:
        if name not in ("gzip", "deflate"):
            raise CodingError(f"Content-Encoding {name!r} was not offered ({ACCEPT_ENCODING})")
    return out


def decoded(chunks: Iterable[bytes], applied: list[str]) -> Iterator[bytes]:
    """The body bytes with every coding in `applied` undone (the last applied first)."""
    stream: Iterable[bytes] = chunks
    for coding in reversed(applied):
        stream = _Inflater(coding).run(stream)
    yield from stream


class _Inflater:
    """One coding: gzip (members may follow each other) or deflate (zlib, or raw as sent by
    some servers although RFC 9110 section 8.4.1.2 says zlib)."""

    def __init__(self, coding: str) -> None:
        self.coding = coding
        self.z = zlib.decompressobj(_GZIP) if coding == "gzip" else None
        self.head = b""
        self.fed = False

    def run(self, chunks: Iterable[bytes]) -> Iterator[bytes]:
        for chunk in chunks:
            if chunk:
                self.fed = True
                yield from self._feed(chunk)
        self._finish()

    def _feed(self, data: bytes) -> Iterator[bytes]:
        if self.z is None:
            self.head += data
            if len(self.head) < 2:
                return
            data, self.head = self.head, b""
            wrapped = (data[0] & 0x0F) == 8 and ((data[0] << 8) | data[1]) % 31 == 0
            self.z = zlib.decompressobj(zlib.MAX_WBITS if wrapped else -zlib.MAX_WBITS)
        z = self.z
        while True:
            try:
                piece = z.decompress(data, PIECE)
            except zlib.error as exc:
                raise CodingError(f"the {self.coding} body is corrupt ({exc})") from None
            if piece:
                yield piece
            if z.eof:
                data = z.unused_data
                if not data:
                    return
                if self.coding != "gzip":
                    raise CodingError("the deflate body has bytes after its end")
                z = self.z = zlib.decompressobj(_GZIP)  # the next gzip member
                continue
            data = z.unconsumed_tail
            # NOTE: a full piece may leave output inside zlib although all input was taken.
            if not data and len(piece) < PIECE:
                return

    def _finish(self) -> None:
        if not self.fed:
            return  # no body at all (a 202, an empty error) is not a corrupt one
        if self.z is None or not self.z.eof:
            raise CodingError(f"the {self.coding} body is truncated (its stream never ends)")
