"""The human report (and the `--matrix` table) rendered with rich; the only rich importer here.

Server text is untrusted. It is only ever a plain string between the escapes of our own styles,
or of a rich `Text` object (never markup, so `[bold]` stays literal), and only after
`base.visible` has turned control sequences, bidi overrides and other invisible characters into
escapes, so neither the server nor its text can put an escape sequence on the user's terminal.
"""

from __future__ import annotations

import io
import json
import re
from collections.abc import Callable
from typing import NamedTuple

from rich.cells import cell_len
from rich.console import Console

from catalogaudit.formatters.base import (
    by_subject,
    location_label,
    plural,
    sorted_rule_errors,
    summary_parts,
    visible,
)
from catalogaudit.formatters.console import (
    DIM,
    SEVERITY_STYLE,
    Ink,
    cells,
    finish,
    make_console,
    rich_rows,
    rows,
)
from catalogaudit.formatters.fold import Fold, fold
from catalogaudit.model import Finding, Report

INDENT = 4
HIGHLIGHT = "bold reverse"


class _Out(NamedTuple):
    """The console a report is printed on, with what every line asks of it read once (rich
    computes `width` and `file` on each read)."""

    console: Console
    width: int
    write: Callable[[str], object]
    ink: Ink | None  # None: no colour


def _console(color: bool, width: int) -> tuple[_Out, io.StringIO]:
    console, buffer = make_console(color, width)
    ink = None if console.no_color else Ink(console)
    return _Out(console, console.width, console.file.write, ink), buffer


def _finish(buffer: io.StringIO, color: bool) -> str:
    return finish(buffer.getvalue(), color)


#: A line as pieces of (text, rich style).
Parts = list[tuple[str, str]]


def _emit(out: _Out, line: Parts, indent: int, hang: int | None = None) -> None:
    """Print `line` wrapped to the console width between words (a long value folded after a
    separator, `console.breaks`): its first row indented by `indent` columns, the others by
    `hang` (default: `indent`)."""
    hang = indent if hang is None else hang
    shape = (max(out.width - indent, 20), max(out.width - hang, 20), indent, hang)
    # NOTE: a printable line is joined as strings, its styles' escapes asked of rich once
    # (`console.Ink`): rich's render of each line cost most of a report of many findings
    # (bench/README.md). A line with tabs or control codes goes through rich's render.
    written = rows(line, *shape, out.ink)
    if written is None:
        rich_rows(out.console, line, *shape)
    else:
        out.write(written)


def _plain(parts: Parts) -> str:
    return "".join([t for t, _ in parts])


def _spans(message: str, excerpt: str) -> list[tuple[int, int]]:
    """Where the excerpt occurs in the message, as written or JSON-quoted (as rules quote it)."""
    if not excerpt:
        return []
    needle = visible(excerpt)
    if needle not in message:
        needle = visible(json.dumps(excerpt, ensure_ascii=False)[1:-1])
        if needle not in message:
            return []
    return [(m.start(), m.end()) for m in re.finditer(re.escape(needle), message)]


def _finding(out: _Out, f: Finding, color: bool) -> None:
    head: Parts = [(f.severity.value, SEVERITY_STYLE[f.severity]), (" ", ""), (f.rule_id, "bold")]
    if f.pointer:
        head += [(" at ", ""), (visible(f.pointer, keep=""), "magenta")]
    if f.page is not None:
        head.append((f" (page {f.page})", ""))
    if f.profile:
        head.append((f" [{visible(f.profile, keep='')}]", DIM))
    _emit(out, head, 2)

    message = visible(f.message)
    spans = _spans(message, f.excerpt)
    body: Parts = []
    done = 0
    for start, end in spans:
        body += [(message[done:start], ""), (message[start:end], HIGHLIGHT)]
        done = end
    body.append((message[done:], ""))
    _emit(out, body, INDENT)
    # Carets only where columns are certain: one line, no tabs (rich expands them).
    one_line = not any(c in message for c in "\n\t") and INDENT + cells(message) <= out.width
    if spans and not color and one_line:
        # Without colour the highlight is a caret line under the excerpt, as compilers do.
        marks = [" "] * cells(message)
        for start, end in spans:
            col, size = cells(message[:start]), max(1, cells(message[start:end]))
            marks[col : col + size] = ["^"] * size
        _emit(out, [("".join(marks).rstrip(), "")], INDENT)
    elif f.excerpt and (not spans or not color):
        _emit(out, [("excerpt: ", DIM), (visible(f.excerpt), HIGHLIGHT)], INDENT)

    where = location_label(f)
    for label, value in (("file", where), ("hint", f.hint), ("source", f.source)):
        if value:
            _emit(out, [(f"{label}: ", DIM), (visible(value), "")], INDENT)


#: How a folded line names the items' listing.
_ITEMS = {
    "tools": "tools",
    "prompts": "prompts",
    "resources": "resources",
    "resourceTemplates": "resource templates",
}


def _folded(out: _Out, fo: Fold) -> None:
    """One line: severity, rule, where, profile, the cause, the count and as many item names
    as the width holds (the rest counted)."""
    f = fo.first
    head: Parts = [(f.severity.value, SEVERITY_STYLE[f.severity]), (" ", ""), (f.rule_id, "bold")]
    if f.pointer:
        head += [(" at ", ""), (visible(f.pointer, keep=""), "magenta")]
    if f.profile:
        head.append((f" [{visible(f.profile, keep='')}]", DIM))
    cause = visible(" ".join(f.excerpt.split()), keep="")
    cause = json.dumps(cause if len(cause) <= 24 else cause[:23] + "\u2026", ensure_ascii=False)
    # The cause is the offending text; where the pointer already names it, or it would leave
    # no room for the items, the pointer says enough.
    if f.excerpt and not (
        f.pointer
        and (f.pointer.endswith("/" + f.excerpt) or cell_len(_plain(head)) + len(cause) > 60)
    ):
        head += [(" ", ""), (cause, HIGHLIGHT)]
    n = len(fo.identities)
    head.append((f" on {n} {_ITEMS.get(f.kind, f.kind)}:", ""))
    names = [visible(i, keep="") for i in fo.identities]
    room = out.width - 2 - cell_len(_plain(head)) - 1
    if room < min(20, max(cell_len(x) for x in names) + 8):
        # NOTE: a long pointer leaves no room: the head wraps, the names get a row of their own
        _emit(out, head, 2, 4)
        head, room = [], out.width - 4
    else:
        head.append((" ", ""))
    shown: list[str] = []
    for i, name in enumerate(names):
        rest = len(names) - i - 1
        tail = f", \u2026 (+{rest})" if rest else ""
        if shown and cell_len(", ".join([*shown, name]) + tail) > room:
            break
        shown.append(name)
    line = ", ".join(shown)
    if len(shown) < n:
        line += f", \u2026 (+{n - len(shown)})"
    head.append((line, ""))
    if not _plain(head).startswith(f.severity.value):
        _emit(out, head, 4)
        return
    _emit(out, head, 2, 4)


def format_text(
    report: Report, *, color: bool = False, width: int = 100, expand: bool = False
) -> str:
    """The human report: findings grouped by subject (one cause on many items folded to one
    line unless `expand`), then rule errors, notes and a summary."""
    out, buffer = _console(color, width)
    single, folds = (list(report.findings), []) if expand else fold(report.findings)
    for kind in dict.fromkeys(fo.kind for fo in folds):
        _emit(out, [(kind, "bold"), (" (folded: one rule and cause on many items)", DIM)], 0)
        for fo in folds:
            if fo.kind == kind:
                _folded(out, fo)
        out.write("\n")
    groups = by_subject(single)
    for (kind, identity), findings in groups:
        header: Parts = [(kind, "bold")]
        if identity is not None:
            header += [(" ", ""), (f'"{visible(identity, keep="")}"', "bold underline")]
        _emit(out, header, 0)
        for f in findings:
            _finding(out, f, color)
        out.write("\n")
    if not groups and not folds:
        _emit(out, [("No findings.", "green")], 0)
        out.write("\n")
    for rule_id, error in sorted_rule_errors(report):
        line = [("rule error ", "bold red"), (rule_id, "bold"), (": " + visible(error), "")]
        _emit(out, line, 0, 2)
    for note in report.notes:
        _emit(out, [("note: " + visible(note), "")], 0, 2)
    if folds:
        count = sum(fo.findings for fo in folds)
        folded = (
            f"note: {plural(count, 'finding')} folded into {plural(len(folds), 'line')}; "
            "--expand shows each with its message, hint and source"
        )
        _emit(out, [(folded, "")], 0, 2)
    if report.inputs:
        inputs = ", ".join(visible(i, keep="") for i in report.inputs)
        _emit(out, [("inputs: " + inputs, "")], 0, 2)
    summary: Parts = []
    for i, part in enumerate(summary_parts(report)):
        if i:
            summary.append(("; ", ""))
        summary.append((visible(part), "bold" if i == 0 else ""))
    _emit(out, summary, 0, 2)
    return _finish(buffer, color)
