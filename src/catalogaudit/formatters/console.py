"""The one rendering path of human text: lines and tables to a string, coloured or not, at a
width; rich gives the styles' escapes and draws the tables, nothing is printed.

Why one path: every verb's text then follows the terminal the same way (`verbs/terminal.py`
picks colour and width), wraps between words only, and folds a value longer than the line
(a URL, a JSON pointer) after one of its separators (`/`, `?`, `&`, `-`, ...), where a reader
expects a break, never inside a word. Server text reaches a `Page` only after `visible` and only
as a plain string (never rich markup), so it cannot style or escape the terminal.

Lines without colour are wrapped here and joined without loading rich (rich only measures
non-ASCII text), so the hot verbs (`diff` in a hook) stay as light as before. A coloured line
is wrapped here too and joined with the escapes rich writes for each of its styles (`Ink`,
asked once per style); a line rich would change (tabs, control codes) goes through its render.
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from catalogaudit.model import Severity

if TYPE_CHECKING:
    from rich.console import Console

#: A piece of a line: plain text, or (text, rich style name).
Part = str | tuple[str, str]
#: A table cell: one part, or several.
Cell = Part | list[Part]

SEVERITY_STYLE = {
    Severity.ERROR: "bold red",
    Severity.WARNING: "bold yellow",
    Severity.INFO: "bold cyan",
}
#: Colour of a diff change class and of a stability verdict: red breaks, yellow the model sees.
CLASS_STYLE = {
    "breaking": "bold red",
    "unknown": "red",
    "model-visible": "yellow",
    "compatible": "green",
    "additive": "green",
    "cosmetic": "dim",
    "stable": "green",
    "bytes-only": "yellow",
    "content": "bold red",
    "pass": "bold green",
    "FAIL": "bold red",
}
DIM = "dim"
#: Characters a long value may be folded after (URL and pointer separators, hyphens).
_BREAK_AFTER = "/?&=#-_.,;:|"
_WORD = re.compile(r"(\S+)\s*")


def cells(text: str) -> int:
    """Terminal columns of `text` (rich's measure, loaded only for non-ASCII text)."""
    if text.isascii():
        return len(text)
    from rich.cells import cell_len

    return cell_len(text)


def _cut(word: str, start: int, room: int) -> int:
    """Where a word too long for a line is folded: after the last separator that fits, else
    (a word with no separator there) at the room."""
    end = start
    while end < len(word) and cells(word[start : end + 1]) <= room:
        end += 1
    seps = [i + 1 for i in range(start, end) if word[i] in _BREAK_AFTER and i + 1 < len(word)]
    return seps[-1] if seps else max(end, start + 1)


def breaks(text: str, first: int, rest: int) -> list[tuple[int, int]]:
    """(start, end) of each line of `text` wrapped greedily between words, the first line
    `first` columns wide and the others `rest`; a newline always breaks; trailing blanks are
    not part of a line."""
    lines: list[tuple[int, int]] = []
    wide = not text.isascii()  # NOTE: else a span's columns are its length: no call per word
    for start, end in _paragraphs(text):
        room = first if not lines else rest
        line_start, used = start, 0
        for m in _WORD.finditer(text, start, end):
            at, stop, after = m.start(), m.end(1), m.end()
            if at > start and line_start == start and used == 0:
                used = cells(text[start:at]) if wide else at - start  # the paragraph's indent
            width = cells(text[at:stop]) if wide else stop - at
            if used and used + width > room:
                lines.append((line_start, at))
                line_start, used, room = at, 0, rest
            if not used and width > room:
                word, done = text[at:stop], 0
                while cells(word[done:]) > room:
                    cut = _cut(word, done, room)
                    lines.append((line_start, at + cut))
                    line_start, done, room = at + cut, cut, rest
                width = cells(word[done:])
            used += width + (cells(text[stop:after]) if wide else after - stop)
        lines.append((line_start, end))
    return [(s, s + len(text[s:e].rstrip())) for s, e in lines]


def _paragraphs(text: str) -> list[tuple[int, int]]:
    out, start = [], 0
    for m in re.finditer("\n", text):
        out.append((start, m.start()))
        start = m.end()
    out.append((start, len(text)))
    return out


@dataclass
class Column:
    """A table column: its header, and whether it may wrap (an id never does)."""

    header: str
    no_wrap: bool = False
    justify: str = "left"
    ratio: int | None = None


@dataclass
class _Line:
    parts: list[tuple[str, str]]
    indent: int
    hang: int


@dataclass
class _Table:
    columns: Sequence[Column]
    rows: list[list[list[tuple[str, str]]]]
    indent: int


@dataclass
class Page:
    """Human text, built line by line and table by table, rendered once by `text()`."""

    color: bool = False
    width: int = 100
    blocks: list[_Line | _Table] = field(default_factory=list)

    def line(self, *parts: Part, indent: int = 0, hang: int | None = None) -> None:
        """One logical line, wrapped to the width: its first row at `indent` columns, the
        rows it wraps to at `hang` (default: `indent`)."""
        pieces = [(p, "") if isinstance(p, str) else p for p in parts]
        self.blocks.append(_Line(pieces, indent, indent if hang is None else hang))

    def blank(self) -> None:
        """An empty line."""
        self.line()

    def lines(self, lines: Iterable[str], style: str = "") -> None:
        """Lines of plain text, each wrapped under its own indentation four columns deeper
        (reports written as lines of strings)."""
        for line in lines:
            body = line.lstrip(" ")
            indent = len(line) - len(body)
            self.line((body, style), indent=indent, hang=indent + 4)

    def table(self, columns: Sequence[Column], rows: Sequence[Sequence[Cell]]) -> None:
        """A table without borders under a rule of its headers; a cell is text or parts."""
        body = [[_parts(cell) for cell in row] for row in rows]
        self.blocks.append(_Table(columns, body, 0))

    def text(self) -> str:
        """The page as a string: ANSI styles when coloured, no trailing blanks on a line."""
        out: list[str] = []
        console: Console | None = None
        ink: Ink | None = None
        buffer = io.StringIO()
        for block in self.blocks:
            if isinstance(block, _Line) and not self.color:
                plain = "".join([t for t, _ in block.parts])
                bounds = breaks(plain, *self._rooms(block))
                out.append(_joined(plain, bounds, block.indent, block.hang))
                continue
            if console is None:
                console, buffer = make_console(self.color, self.width)
                ink = Ink(console)
            if isinstance(block, _Line):
                line = (block.parts, *self._rooms(block), block.indent, block.hang)
                written = rows(*line, ink)
                if written is not None:
                    out.append(written)
                    continue
            buffer.seek(0)
            buffer.truncate()
            if isinstance(block, _Line):
                rich_rows(console, *line)
            else:
                console.print(_rich_table(block))
            out.append(finish(buffer.getvalue(), self.color))
        return "".join(out)

    def _rooms(self, b: _Line) -> tuple[int, int]:
        return max(self.width - b.indent, 10), max(self.width - b.hang, 10)


class Ink:
    """The escapes a console writes around text of each style, asked of the console once per
    style (its colour system, `no_color` and all), so a styled line is joined as strings
    instead of going through rich's render line by line."""

    def __init__(self, console: Console) -> None:
        self._console = console
        self._codes: dict[str, tuple[str, str]] = {}

    def __call__(self, style: str) -> tuple[str, str]:
        """The escape before and the one after text of `style` ("" and "" for none)."""
        codes = self._codes.get(style)
        if codes is None:
            from rich.text import Text

            with self._console.capture() as capture:
                self._console.print(Text("x", style), end="", soft_wrap=True, crop=False)
            before, _, after = capture.get().partition("x")
            codes = self._codes[style] = (before, after)
        return codes


def rows(
    parts: Sequence[tuple[str, str]],
    first: int,
    rest: int,
    indent: int,
    hang: int,
    ink: Ink | None = None,
) -> str | None:
    """A line of (text, style) pieces wrapped between words (`breaks`, the first row `first`
    columns wide, the others `rest`), its first row indented by `indent` and the others by
    `hang`, each piece in `ink`'s escapes (None: plain); what `rich_rows` prints for the same
    line. None when the line is not printable: rich expands its tabs and drops control codes,
    so `rich_rows` writes it."""
    plain = "".join([t for t, _ in parts])
    if not plain.isprintable():
        return None
    bounds = [(0, len(plain.rstrip()))] if cells(plain) <= first else breaks(plain, first, rest)
    if ink is None:  # NOTE: no style to place (most reports of many findings)
        return _joined(plain, bounds, indent, hang)
    out: list[str] = []
    for i, (s, e) in enumerate(bounds):
        out.append(" " * (hang if i else indent))
        at = 0
        for chunk, style in parts:
            end = at + len(chunk)
            lo, hi = max(s, at), min(e, end)
            if lo < hi:
                before, after = ink(style) if style else ("", "")
                out.append(before + plain[lo:hi] + after)
            at = end
        out.append("\n")
    return "".join(out)


def _joined(plain: str, bounds: Sequence[tuple[int, int]], indent: int, hang: int) -> str:
    """The rows of `plain` between `bounds`, the first indented by `indent`, the others `hang`."""
    return "".join(
        [" " * (hang if i else indent) + plain[s:e] + "\n" for i, (s, e) in enumerate(bounds)]
    )


def rich_rows(
    console: Console,
    parts: Sequence[tuple[str, str]],
    first: int,
    rest: int,
    indent: int,
    hang: int,
) -> None:
    """`rows` printed through rich's render on `console`: the path of a line that is not
    printable, and the oracle `rows` is tested against."""
    from rich.text import Text

    text = Text()
    for chunk, style in parts:
        text.append(chunk, style)
    for i, (s, e) in enumerate(breaks(text.plain, first, rest)):
        row = Text(" " * (hang if i else indent)) + text[s:e]
        console.print(row, soft_wrap=True, crop=False)


def reflow(text: str, *, width: int = 100) -> str:
    """Lines of plain text through a `Page`: each wrapped between words at `width`, its rows
    under its own indentation, four columns deeper (the simple reports: rewrite, suggest,
    verify)."""
    page = Page(width=width)
    page.lines(text.splitlines())
    return page.text()


def _parts(cell: Cell) -> list[tuple[str, str]]:
    items = cell if isinstance(cell, list) else [cell]
    return [(p, "") if isinstance(p, str) else p for p in items]


def _rich_table(t: _Table) -> Any:
    from rich import box
    from rich.table import Table
    from rich.text import Text

    table = Table(box=box.SIMPLE_HEAD, show_edge=False, highlight=False, pad_edge=False)
    for col in t.columns:
        table.add_column(
            col.header,
            no_wrap=col.no_wrap,
            overflow="fold",
            justify=col.justify,  # type: ignore[arg-type]
            ratio=col.ratio,
        )
    for row in t.rows:
        cells_ = []
        for parts in row:
            text = Text()
            for chunk, style in parts:
                text.append(chunk, style)
            cells_.append(text)
        table.add_row(*cells_)
    return table


def make_console(color: bool, width: int) -> tuple[Console, io.StringIO]:
    """A rich console that writes to a string: every setting rich would otherwise read from
    the environment (FORCE_COLOR, NO_COLOR, COLUMNS, TERM=dumb, COLORTERM) given, so the text
    depends on the arguments only; the 16 "standard" colours every terminal and CI log shows."""
    from rich.console import Console

    buffer = io.StringIO()
    console = Console(
        file=buffer,
        width=width,
        height=25,
        force_terminal=color,
        force_jupyter=False,
        force_interactive=False,
        no_color=not color,
        color_system="standard" if color else None,
        markup=False,
        emoji=False,
        highlight=False,
        legacy_windows=False,
        soft_wrap=False,
    )
    return console, buffer


def finish(out: str, color: bool) -> str:
    """Rich pads some lines; trailing blanks only make diffs noisy."""
    if color:
        return out
    return "\n".join(line.rstrip() for line in out.split("\n"))


__all__ = [
    "CLASS_STYLE",
    "DIM",
    "SEVERITY_STYLE",
    "Cell",
    "Column",
    "Ink",
    "Page",
    "breaks",
    "cells",
    "reflow",
    "rich_rows",
    "rows",
]
