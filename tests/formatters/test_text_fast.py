"""The text report's fast line (`formatters.text._emit` without colour: a printable line that
fits is written as it is) against rich's wrap and render of the same line (issue 14)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rich.text import Text

import catalogaudit.formatters.text as text_module
from catalogaudit.formatters.base import visible
from catalogaudit.formatters.text import _console, _emit, _finish, _wrapped

PIECES = st.sampled_from(
    ["a", " ", "  ", "é", "\u4e2d", "\U0001f600", "\u200b", "\t", "\n", "[bold]", "\x1b", "\r"]
)
LINES = st.lists(PIECES | st.text(max_size=8), max_size=30).map("".join)


@settings(max_examples=400, deadline=None)
@given(LINES, st.integers(20, 120), st.sampled_from([0, 2, 4]), st.booleans())
def test_the_fast_line_is_what_rich_writes(line: str, width: int, indent: int, safe: bool) -> None:
    raw = visible(line) if safe else line
    text = Text(raw)
    text.append(" tail", "bold")
    fast, fast_out = _console(False, width)
    _emit(fast, text, indent)
    exact, exact_out = _console(False, width)
    _wrapped(exact, text, max(width - indent, 20), indent)
    assert fast_out.getvalue() == exact_out.getvalue()
    parts, parts_out = _console(False, width)  # the same line as pieces, no `Text` built
    _emit(parts, [(raw, ""), (" tail", "bold")], indent)
    assert parts_out.getvalue() == exact_out.getvalue()


#: Long printable lines of words, spaces and wide characters: the lines rich wraps.
WORDS = st.lists(
    st.sampled_from(["a", "bb", "word", " ", "  ", "é", "\u4e2d\u6587", "\U0001f600", "-", "/"])
    | st.text(st.characters(min_codepoint=32, max_codepoint=0x2FFF), max_size=30),
    min_size=1,
    max_size=60,
).map("".join)


@settings(max_examples=600, deadline=None)
@given(WORDS, st.integers(20, 120), st.sampled_from([0, 2, 4]))
def test_a_wrapped_line_is_what_rich_writes(line: str, width: int, indent: int) -> None:
    text = Text(line)
    text.stylize("bold", 0, len(line) // 2)  # styles are dropped without colour
    fast, fast_out = _console(False, width)
    _emit(fast, text, indent)
    exact, exact_out = _console(False, width)
    _wrapped(exact, text, max(width - indent, 20), indent)
    # NOTE: as the report is finished without colour (trailing blanks dropped from each line)
    assert _finish(fast_out, False) == _finish(exact_out, False)


def test_a_long_message_is_cut_without_rich(monkeypatch: pytest.MonkeyPatch) -> None:
    called: list[object] = []
    monkeypatch.setattr(text_module, "_wrapped", lambda *a: called.append(a))
    console, out = _console(False, 40)
    _emit(console, Text("word " * 30), 4)
    assert not called
    assert out.getvalue() == "".join(
        "    " + line + "\n" for line in ["word word word word word word word"] * 4 + ["word word"]
    )
