"""Where the wire decoder starts refusing nested arrays, for tests at that boundary.

Python before 3.12 counts Python frames and C levels in one recursion budget (about
`sys.getrecursionlimit()`); 3.12 and later bound C levels alone, at a fixed, higher limit."""

from __future__ import annotations

from catalogaudit.model import jsonwire


def refused_depth() -> int:
    """The least nesting of arrays `jsonwire.raw_decode` refuses, called from here."""
    lo, hi = 1, 1 << 17
    while lo < hi:
        mid = (lo + hi) // 2
        try:
            jsonwire.raw_decode("[" * mid + "]" * mid)
        except jsonwire.WireLimitError:
            hi = mid
        else:
            lo = mid + 1
    return lo
