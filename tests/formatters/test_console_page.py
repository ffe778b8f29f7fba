"""The one rendering path (`formatters/console.py`): lines wrap between words, a value longer
than a line folds after a separator, colour changes styles only, and a plain page needs no
rich."""

from __future__ import annotations

import re
import subprocess
import sys

from hypothesis import given, settings
from hypothesis import strategies as st
from rich.cells import cell_len

from catalogaudit.formatters.console import Column, Page, breaks

TEXT = st.lists(
    st.sampled_from(["a", "bb", "word", " ", "  ", "é", "\u4e2d\u6587", "-", "/", "?", "https://"])
    | st.text(st.characters(min_codepoint=33, max_codepoint=0x2FFF), max_size=40),
    max_size=40,
).map("".join)
SEPARATORS = "/?&=#-_.,;:|"


@settings(max_examples=500, deadline=None)
@given(TEXT, st.integers(10, 120), st.integers(10, 120))
def test_rows_fit_keep_every_word_and_break_only_between_words(
    text: str, first: int, rest: int
) -> None:
    rows = breaks(text, first, rest)
    for i, (s, e) in enumerate(rows):
        room = first if i == 0 else rest
        assert cell_len(text[s:e]) <= room or len(text[s:e]) == 1, (text[s:e], room)
    # nothing but the blanks at a break is lost, nothing is repeated
    assert re.sub(r"\s", "", "".join(text[s:e] for s, e in rows)) == re.sub(r"\s", "", text)
    for i, ((s1, e1), (s2, _)) in enumerate(zip(rows, rows[1:], strict=False)):
        if e1 != s2 or not text[e1 - 1].strip() or not text[s2].strip():
            continue  # a break between words
        # a word folded: after a separator, or where none fits and the row is full
        fragment = text[s1:e1].split()[-1]
        room = first if i == 0 else rest
        if text[e1 - 1] not in SEPARATORS:
            assert not any(c in SEPARATORS for c in fragment[:-1]), (fragment, room)
            assert cell_len(text[s1:e1]) + cell_len(text[s2]) > room, (text[s1:e1], room)


def test_a_url_folds_after_a_slash_and_words_wrap_whole() -> None:
    url = "https://github.com/anthropics/claude-code/blob/main/src/tools/list/schema.ts#L120"
    page = Page(width=40)
    page.line("source: ", url, " and then some words", indent=2, hang=4)
    rows = page.text().splitlines()
    assert rows[0] == "  source:"
    assert all(len(r) <= 40 for r in rows)
    assert all(r.rstrip().endswith(("/", "#")) for r in rows[1:-2]), rows
    assert "".join(r.strip() for r in rows[1:-1]).startswith(url)
    assert rows[-1] == "    and then some words" or rows[-1].endswith("words")


def test_colour_changes_styles_only() -> None:
    def page(color: bool) -> str:
        p = Page(color=color, width=50)
        p.line(("error", "bold red"), " a message long enough to wrap onto a second row", hang=4)
        p.table([Column("Rule", no_wrap=True), Column("Summary")], [["CA801", "removed"]])
        return p.text()

    coloured, plain = page(True), page(False)
    assert "\x1b[1;31merror" in coloured and "\x1b" not in plain
    stripped = re.sub("\x1b\\[[0-9;]*m", "", coloured)
    assert [r.rstrip() for r in stripped.splitlines()] == plain.splitlines()


def test_a_plain_page_of_lines_loads_no_rich() -> None:
    code = (
        "import sys\n"
        "from catalogaudit.formatters.console import Page\n"
        "p = Page(width=30)\n"
        "p.line('a line that is much too long for thirty columns', indent=2, hang=4)\n"
        "assert len(p.text().splitlines()) == 2\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'rich'))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
