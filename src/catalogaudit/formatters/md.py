"""The one Markdown home: inert server text and the character budget, for every Markdown report.

Escaping is for CommonMark/GFM as GitHub renders PR comments and job summaries, and only of
what would change the rendering, so the raw Markdown (a `summary.md` read as a file) stays
readable: a backslash (CommonMark 2.4: it yields the literal character) before each character
that can open markup anywhere in a line (emphasis, code, links, images, HTML tags and entities,
table pipes, strikethrough, math), before a `:` that would start an emoji shortcode or an
autolink (`://`) and the `.` of `www.`, and before a block marker a line starts with (`-`, `>`,
`1.`); `@` and `#` also get a zero-width space so server text cannot mention people or teams
(`@everyone`) or reference issues (the trick Renovate uses). Identifiers go in code spans sized
to outlast any backticks they contain. Control, bidi and other invisible characters are shown as
escapes first (`model.inert.visible`). Newlines become spaces: one line never becomes two blocks.

`fit` cuts a report to a budget (GitHub rejects a comment over 65,536 characters): whole rows
only, never inside an escape, the head (summary) always, the most severe rows first.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from catalogaudit.model import visible

#: `--max-chars` default: under GitHub's 65,536-character comment limit, with room to spare.
DEFAULT_MAX_CHARS = 60_000
#: Where the full report is, unless the caller knows better (a JSON or SARIF file it wrote).
FULL_REPORT = "rerun with `--format json` for the full report"

_ZWSP = "&#8203;"
_URL = re.compile(r"^https?://[A-Za-z0-9\-._~:/?#\[\]@!$&'()*+,;=%]+$")
_NEWLINE = re.compile(r"\r\n|\r|\n")


def _one_line(text: str) -> str:
    # A newline could end a list item or a table row; everything else invisible is escaped.
    return visible(_NEWLINE.sub(" ", text), keep="")


#: What can open markup anywhere in a line (GFM: `~` strikethrough, `$` math on GitHub).
_MARKUP = frozenset("\\`*_[]<|~&!@#$")
_LIST_START = re.compile(r"^[0-9]{1,9}[.)]")
#: A `:` that starts an emoji shortcode (`:x:`) or an autolink's `://`; the `.` of `www.`.
_CONTEXT = re.compile(r":(?=//|[a-z0-9_+-]+:)|(?<=\bwww)\.", re.I)


def escape_text(text: str, *, lead: bool = True) -> str:
    """Untrusted text (or our own sentences carrying names) as inert Markdown prose: one line,
    safe in table cells and list items, escaping only what would change the rendering (see the
    module docstring); a block marker it starts with (`-`, `>`, `1.`) is escaped too unless
    `lead=False` (a fragment in the middle of a line)."""
    line = _one_line(text)
    start = _LIST_START.match(line) if lead else None
    marker = start.end() - 1 if start else (0 if lead else -1)
    contextual = {m.start() for m in _CONTEXT.finditer(line)}
    out: list[str] = []
    for i, ch in enumerate(line):
        if ch in _MARKUP or i in contextual or (i == marker and ch in "-+=>.)"):
            out.append("\\" + ch)
            if ch in "@#":
                out.append(_ZWSP)
        else:
            out.append(ch)
    return "".join(out)


#: Our own sentences that may carry names (file labels, verdicts): the same escaping.
words = escape_text


def code(text: str, *, in_table: bool = False) -> str:
    """Untrusted text as a code span (CommonMark 6.1): literal, no mentions, no HTML.

    `in_table`: GFM splits table cells on `|` before it parses code spans, so pipes are escaped.
    """
    body = _one_line(text)
    if not body:
        return '""'
    longest = max((len(run) for run in re.findall(r"`+", body)), default=0)
    fence = "`" * (longest + 1)
    if body[0] in "` " or body[-1] in "` ":
        body = f" {body} "
    if in_table:
        body = body.replace("|", "\\|")
    return f"{fence}{body}{fence}"


def link(url: str) -> str:
    """An autolink for a well-formed http(s) URL, else the URL as escaped text."""
    return f"<{url}>" if _URL.match(url) else escape_text(url)


@dataclass
class Section:
    """A cuttable part of a report: `rows` (whole Markdown lines or blocks) under `header`,
    closed by `footer`; header and footer are shown only when at least one row is.

    `ranks` (one per row, higher is more important, default 0) say which rows survive a cut;
    the survivors keep their order.
    """

    header: list[str] = field(default_factory=list)
    rows: list[str] = field(default_factory=list)
    footer: list[str] = field(default_factory=list)
    ranks: list[int] = field(default_factory=list)


def _size(lines: Sequence[str]) -> int:
    return sum(len(line) + 1 for line in lines)


def closing_line(left_out: int, total: int, max_chars: int, where: str = FULL_REPORT) -> str:
    """The line that says a report was cut: how much, why, and where the full report is."""
    return f"_{left_out} of {total} items left out to fit {max_chars} characters; {where}._"


def fit(
    head: Sequence[str],
    sections: Sequence[Section],
    *,
    max_chars: int = DEFAULT_MAX_CHARS,
    where: str = FULL_REPORT,
) -> str:
    """`head` then `sections` as one Markdown document of at most `max_chars` characters.

    When everything fits, nothing changes. Otherwise rows are kept by rank (then in order)
    while they fit, the rest are dropped whole, and one closing line says how many of how
    many were left out and `where` the full report is (e.g. "see `audit.sarif`"). The head is
    cut only when it alone is over budget. Pure; the callers (every Markdown formatter, the
    `ci` verb's job summary and PR comment) pass `max_chars` as a keyword.
    """
    blocks = [(s, list(s.ranks) + [0] * (len(s.rows) - len(s.ranks))) for s in sections]
    whole = list(head)
    for s, _ in blocks:
        if s.rows:
            whole += [*s.header, *s.rows, *s.footer]
    if _size(whole) <= max_chars:
        return "\n".join(whole) + "\n"
    total = sum(len(s.rows) for s in sections)
    budget = max_chars - _size(["", closing_line(total, total, max_chars, where)])
    kept_head = list(head)
    while kept_head and _size(kept_head) > budget:
        kept_head.pop()
    used = _size(kept_head)
    order = sorted(
        ((-rank, si, ri) for si, (_, ranks) in enumerate(blocks) for ri, rank in enumerate(ranks)),
    )
    chosen: set[tuple[int, int]] = set()
    opened: set[int] = set()
    for _, si, ri in order:
        s = blocks[si][0]
        cost = len(s.rows[ri]) + 1
        if si not in opened:
            cost += _size(s.header) + _size(s.footer)
        if used + cost > budget:
            break
        used += cost
        opened.add(si)
        chosen.add((si, ri))
    out = list(kept_head)
    for si, (s, _) in enumerate(blocks):
        if si in opened:
            rows = [row for ri, row in enumerate(s.rows) if (si, ri) in chosen]
            out += [*s.header, *rows, *s.footer]
    out += ["", closing_line(total - len(chosen), total, max_chars, where)]
    return "\n".join(out) + "\n"
