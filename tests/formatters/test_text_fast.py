"""The human text's fast lines (`console.rows`: a printable line joined as strings, each style's
escapes asked of rich once) against rich's wrap and render of the same line (`console.rich_rows`,
the oracle), with colour and without (issue 14)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import catalogaudit.formatters.text as text_module
from catalogaudit.formatters.base import visible
from catalogaudit.formatters.console import Ink, make_console, rich_rows, rows
from catalogaudit.formatters.text import _console, _emit, format_text
from catalogaudit.model.findings import Finding, Report, Severity

PIECES = st.sampled_from(
    ["a", " ", "  ", "é", "\u4e2d", "\U0001f600", "\u200b", "\t", "\n", "[bold]", "\x1b", "\r"]
)
LINES = st.lists(PIECES | st.text(max_size=8), max_size=30).map("".join)
#: The styles the text formatters use, and none.
STYLES = st.sampled_from(
    ["", "", "bold", "bold red", "bold yellow", "dim", "magenta", "bold reverse", "green"]
)


@settings(max_examples=400, deadline=None)
@given(LINES, st.integers(20, 120), st.sampled_from([0, 2, 4]), st.booleans(), st.booleans())
def test_the_fast_line_is_what_rich_writes(
    line: str, width: int, indent: int, safe: bool, color: bool
) -> None:
    raw = visible(line) if safe else line
    parts = [(raw, ""), (" tail", "bold")]
    fast, fast_out = _console(color, width)
    _emit(fast, parts, indent)
    exact, exact_out = _console(color, width)
    room = max(width - indent, 20)
    rich_rows(exact.console, parts, room, room, indent, indent)
    assert fast_out.getvalue() == exact_out.getvalue()


#: Long printable lines of words, spaces and wide characters: the lines rich wraps.
WORDS = st.lists(
    st.sampled_from(["a", "bb", "word", " ", "  ", "é", "\u4e2d\u6587", "\U0001f600", "-", "/"])
    | st.text(st.characters(min_codepoint=32, max_codepoint=0x2FFF), max_size=30),
    min_size=1,
    max_size=60,
).map("".join)


@settings(max_examples=600, deadline=None)
@given(
    st.lists(st.tuples(WORDS, STYLES), min_size=1, max_size=6),
    st.integers(10, 120),
    st.integers(10, 120),
    st.sampled_from([0, 2, 4]),
    st.sampled_from([0, 2, 4]),
    st.booleans(),
)
def test_a_wrapped_line_is_what_rich_writes(
    parts: list[tuple[str, str]], first: int, rest: int, indent: int, hang: int, color: bool
) -> None:
    console, out = make_console(color, 200)
    rich_rows(console, parts, first, rest, indent, hang)
    written = rows(parts, first, rest, indent, hang, Ink(console) if color else None)
    if written is None:  # rich drops or expands what is not printable
        assert not "".join(t for t, _ in parts).isprintable()
    elif color:
        assert written == out.getvalue()
    else:  # NOTE: as a plain report is finished (trailing blanks dropped from each line)
        assert _finish_str(written) == _finish_str(out.getvalue())


def _finish_str(text: str) -> str:
    return "\n".join(line.rstrip() for line in text.split("\n"))


NAMES = st.sampled_from(["add", "read file", "\u4e2d\u6587", "x" * 70, "a/b-c", "q\tr"])
FINDINGS = st.builds(
    Finding,
    rule_id=st.sampled_from(["CA101", "CF-DESC-001", "GEM-SCHEMA-001"]),
    severity=st.sampled_from(list(Severity)),
    message=LINES,
    kind=st.sampled_from(["tools", "prompts", "capture"]),
    identity=st.none() | NAMES,
    pointer=st.sampled_from(["", "/description", "/inputSchema/properties/" + "p" * 60]),
    page=st.none() | st.just(0),
    excerpt=st.sampled_from(["", "a", ";", " ", "word"]),
    hint=LINES,
    source=st.sampled_from(["", "https://example.org/a/very/long/path/" + "seg/" * 20]),
    profile=st.sampled_from(["", "spec", "context-forge@1.0.0b2"]),
)


@settings(max_examples=150, deadline=None)
@given(
    st.lists(FINDINGS, max_size=12),
    st.lists(LINES, max_size=2),
    st.sampled_from([40, 60, 100, 200]),
    st.booleans(),
    st.booleans(),
)
def test_a_report_is_what_rich_writes(
    findings: list[Finding], notes: list[str], width: int, expand: bool, color: bool
) -> None:
    """The whole report, every line through `rows` against every line through rich."""
    report = Report(findings=findings, notes=notes, inputs=["a.json"])
    fast = format_text(report, color=color, width=width, expand=expand)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(text_module, "rows", lambda *_: None)
        exact = format_text(report, color=color, width=width, expand=expand)
    assert fast == exact


def test_a_long_message_is_cut_without_rich(monkeypatch: pytest.MonkeyPatch) -> None:
    called: list[object] = []
    monkeypatch.setattr(text_module, "rich_rows", lambda *a: called.append(a))
    for color in (False, True):
        console, out = _console(color, 40)
        _emit(console, [("word " * 30, "bold" if color else "")], 4)
        row = "word word word word word word word"
        if color:
            row = f"\x1b[1m{row}\x1b[0m"
        assert not called
        assert out.getvalue() == "".join("    " + line + "\n" for line in [row] * 4) + (
            "    \x1b[1mword word\x1b[0m\n" if color else "    word word\n"
        )


def test_each_style_is_asked_of_rich_once() -> None:
    console, _ = make_console(True, 100)
    asked: list[object] = []
    capture = console.capture
    console.capture = lambda: asked.append(1) or capture()  # type: ignore[method-assign]
    ink = Ink(console)
    assert ink("bold red") == ("\x1b[1;31m", "\x1b[0m")
    assert ink("bold red") == ("\x1b[1;31m", "\x1b[0m")
    assert ink("") == ("", "")
    assert len(asked) == 2
