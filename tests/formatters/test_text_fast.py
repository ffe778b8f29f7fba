"""The text report's fast line (`formatters.text._emit` without colour: a printable line that
fits is written as it is) against rich's wrap and render of the same line (issue 14)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from rich.text import Text

from catalogaudit.formatters.base import visible
from catalogaudit.formatters.text import _console, _emit, _wrapped

PIECES = st.sampled_from(
    ["a", " ", "  ", "é", "\u4e2d", "\U0001f600", "\u200b", "\t", "\n", "[bold]", "\x1b", "\r"]
)
LINES = st.lists(PIECES | st.text(max_size=8), max_size=30).map("".join)


@settings(max_examples=400, deadline=None)
@given(LINES, st.integers(20, 120), st.sampled_from([0, 2, 4]), st.booleans())
def test_the_fast_line_is_what_rich_writes(line: str, width: int, indent: int, safe: bool) -> None:
    text = Text(visible(line) if safe else line)
    text.append(" tail", "bold")
    fast, fast_out = _console(False, width)
    _emit(fast, text, indent)
    exact, exact_out = _console(False, width)
    _wrapped(exact, text, max(width - indent, 20), indent)
    assert fast_out.getvalue() == exact_out.getvalue()
