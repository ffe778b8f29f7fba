"""The one event-stream reader both HTTP transports use (`wire/eventstream.py`): however the
body is cut into pieces, the same events come out, with the same size bound."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from catalogaudit.wire import eventstream

BODY = (
    b": comment\r\n"
    b"event: endpoint\r\ndata: /messages?s=1\r\n\r\n"
    b'data: {"a":\n'
    b"data: 1}\n\n"
    b"id: 7\ndata:\n\n"  # a priming event: one empty data line
    b"event: ping\n\n"  # a name and no data
    b"retry: 5\n\n"  # nothing an event is made of: skipped
    b"data: tail\n"  # the stream ends inside this event
)
WANT = [
    eventstream.Event("endpoint", b"/messages?s=1", 1, True),
    eventstream.Event("", b'{"a":\n1}', 2, True),
    eventstream.Event("", b"", 1, True),
    eventstream.Event("ping", b"", 0, True),
    eventstream.Event("", b"tail", 1, False),
]


class TooBig(Exception):
    pass


@given(st.lists(st.integers(0, len(BODY)), max_size=12))
def test_pieces_do_not_change_the_events(cuts: list[int]) -> None:
    at = [0, *sorted(cuts), len(BODY)]
    pieces = [BODY[a:b] for a, b in zip(at, at[1:], strict=False)]
    assert list(eventstream.events(pieces, 1 << 20, TooBig)) == WANT


def test_an_event_over_the_limit_is_refused() -> None:
    lines = [b"data: " + b"x" * 10 + b"\n"] * 20  # 219 bytes joined, each piece 17
    with pytest.raises(TooBig):
        list(eventstream.events(lines, 200, TooBig))
    assert [len(e.data) for e in eventstream.events([*lines, b"\n"], 240, TooBig)] == [219]
