"""The per-element work of one big document shared with a forked process, by source position.

Why: `hash` and `canonicalize --jcs` of a 10 MB catalog spend most of their time encoding and
hashing items one by one, and no item's work needs another's. Scanning the text is the smaller
part (about a third), so both processes scan all of it and each does the costly part for half
of the elements: this one for those that start before the midpoint, the other for the rest,
which it returns in source order to stand in for `THEIRS`. Both scan the same text the same
way, so the orders agree; whatever goes wrong over there (`fanout.beside`) gives the same
results computed here, so the outcome is the one-process outcome.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

#: `verbs.fanout.beside`: start a function in another process now; what it returns waits for
#: the function's result.
Beside = Callable[[Callable[[], Any]], Callable[[], Any]]
#: What is done with each element: (value, start, end) -> result.
Each = Callable[[Any, int, int], Any]
#: How a walk takes its per-element function: given it, returns the one to use.
Wrap = Callable[[Each], Each]

R = TypeVar("R")

#: Text, in characters, from which the work is shared: a fork of a process holding a 1 MB text
#: costs about a millisecond, the second half of its elements' work about six.
SHARED = 1 << 20


class _Theirs:
    """What stands for an element the other process works on, until `fill`."""

    def __repr__(self) -> str:
        return "THEIRS"


THEIRS: Any = _Theirs()


def shared(
    walk: Callable[[Wrap], R | None], size: int, beside: Beside | None
) -> tuple[R | None, list[Any] | None]:
    """`walk(wrap)` here, and for a text of `size` characters (at least `SHARED`) with
    `beside`, in another process too; here `wrap(each)` gives `THEIRS` for the elements that
    start at or after the midpoint, and the other process's results for those come back in
    source order. Returns what the walk here returned (None: the input needs the exact path)
    and the other results ([] when nothing was shared; None when the other walk gave None)."""
    if beside is None or size < SHARED:
        return walk(_whole), []
    at = size // 2

    def here(each: Each) -> Each:
        return lambda value, start, end: each(value, start, end) if start < at else THEIRS

    def theirs() -> list[Any] | None:
        got: list[Any] = []

        def collect(each: Each) -> Each:
            def one(value: Any, start: int, end: int) -> Any:
                if start >= at:
                    got.append(each(value, start, end))

            return one

        return None if walk(collect) is None else got

    later = beside(theirs)
    try:
        mine = walk(here)
    finally:
        got = later()  # NOTE: the other process is waited for even when this walk raised
    return mine, got


def _whole(each: Each) -> Each:
    return each


def fill(lists: list[list[Any]], got: list[Any]) -> bool:
    """Put `got` in place of each `THEIRS` of `lists`, in order (the lists in source order);
    False when the counts differ (then the caller takes the exact path)."""
    pending = iter(got)
    for values in lists:
        for i, value in enumerate(values):
            if value is THEIRS:
                nxt = next(pending, THEIRS)
                if nxt is THEIRS:
                    return False
                values[i] = nxt
    return next(pending, THEIRS) is THEIRS
