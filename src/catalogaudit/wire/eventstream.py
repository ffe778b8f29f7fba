"""The one reader of `text/event-stream` bodies (W3C EventSource parsing), for both HTTP
transports: Streamable HTTP's answers to a POST (`wire/http.py`) and the 2024-11-05 HTTP+SSE
event stream (`wire/sse.py`).

The data lines of an event are joined as they arrive and the message cap applies to the joined
event, so a list of many short lines costs no more than its bytes; a long line without a
newline is not searched again for one.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import NamedTuple


class Event(NamedTuple):
    """One event: its `event` field ("" when none), its joined `data`, how many data lines it
    had, and whether a blank line ended it (False: the stream ended inside it)."""

    name: str
    data: bytes
    lines: int
    ended: bool


def events(
    pieces: Iterable[bytes], limit: int, too_big: Callable[[], Exception]
) -> Iterator[Event]:
    """The events of a body arriving in `pieces` (comments and empty events skipped; fields
    other than `event` and `data` ignored), raising `too_big()` once the unread bytes and the
    event being joined exceed `limit`. An unended event with data lines comes last."""
    buf = bytearray()
    data = bytearray()
    name = ""
    lines = 0  # data lines of the event being read
    scanned = 0  # of `buf`, known to hold no newline
    for piece in pieces:
        buf += piece
        if len(buf) + len(data) > limit:
            raise too_big()
        while True:
            nl = buf.find(b"\n", scanned)
            if nl < 0:
                scanned = len(buf)
                break
            line = bytes(buf[:nl]).rstrip(b"\r")
            del buf[: nl + 1]
            scanned = 0
            if not line:
                if lines or name:
                    yield Event(name, bytes(data), lines, True)
                data.clear()
                name, lines = "", 0
                continue
            if line.startswith(b":"):
                continue
            field, _, val = line.partition(b":")
            val = val[1:] if val.startswith(b" ") else val
            if field == b"event":
                name = val.decode("utf-8", "replace")
            elif field == b"data":
                if lines:
                    data += b"\n"
                data += val
                lines += 1
                if len(data) > limit:
                    raise too_big()
    if lines:
        yield Event(name, bytes(data), lines, False)


__all__ = ["Event", "events"]
