"""The `audit --matrix` table: every profile's verdict on one catalog, at a glance.

A matrix is one table, so it exists in the table-shaped formats only: text (a `console.Page`),
Markdown and JSON. `MATRIX_FORMATS` lets the CLI reject the others up front.

The text table keeps one row per profile at any width: what breaks is listed below it, and
below `WIDE` columns the verified column says how many rules a verify run observed instead of
the whole sentence (`catalogaudit profiles ID` has it), so 23 profiles fit one screen.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from catalogaudit.formatters.base import assert_never, plural, shown_breaks, visible
from catalogaudit.formatters.console import CLASS_STYLE, DIM, Cell, Column, Page
from catalogaudit.formatters.formats import OutputFormat
from catalogaudit.formatters.json import dumps
from catalogaudit.formatters.md import DEFAULT_MAX_CHARS, Section, code, escape_text, fit
from catalogaudit.model import MatrixRow
from catalogaudit.model import with_envelope as envelope

#: From this width on, the verified sentence fits its column in one or two rows.
WIDE = 160

MATRIX_FORMATS = frozenset({OutputFormat.TEXT, OutputFormat.MARKDOWN, OutputFormat.JSON})


def matrix_document(rows: Sequence[MatrixRow]) -> dict[str, Any]:
    """The matrix as plain data; rows keep the order given (the order profiles were asked for),
    each with every break (error-level finding), not the tables' first five."""
    return envelope(
        "matrix",
        {
            "matrix": [
                {
                    "profile": row.profile,
                    "verdict": "pass" if row.passed else "fail",
                    "errors": row.errors,
                    "warnings": row.warnings,
                    "infos": row.infos,
                    "verified": row.verified,
                    "breaks": [b.as_dict() for b in row.breaks],
                    "rules": [e.as_dict() for e in row.evidence],
                }
                for row in rows
            ],
        },
    )


def _markdown(rows: Sequence[MatrixRow], max_chars: int) -> str:
    table = Section(
        header=[
            "| Profile | Verdict | Errors | Warnings | Info | Verified | What breaks |",
            "| --- | --- | ---: | ---: | ---: | --- | --- |",
        ]
    )
    for row in rows:
        verdict = "pass" if row.passed else "**FAIL**"
        breaks = "<br>".join(escape_text(b) for b in shown_breaks(row)) or "-"
        table.rows.append(
            f"| {code(row.profile, in_table=True)} | {verdict} | {row.errors} | {row.warnings} "
            f"| {row.infos} | {escape_text(row.verified)} | {breaks} |"
        )
        table.ranks.append(0 if row.passed else 1)  # failing profiles kept first
    return fit([], [table], max_chars=max_chars)


def _verified(row: MatrixRow) -> str:
    """`8 of 12 rules`: how many of the rules that apply a recorded verify run observed."""
    if not row.evidence:
        return visible(row.verified, keep="")
    seen = sum(1 for e in row.evidence if e.verified)
    return f"{seen} of {plural(len(row.evidence), 'rule')}"


def matrix_text(rows: Sequence[MatrixRow], *, color: bool = False, width: int = 100) -> str:
    """The human matrix: one row per profile, then what breaks under each failing one."""
    wide = width >= WIDE
    page = Page(color=color, width=width)
    columns = [
        Column("Profile", no_wrap=True),
        Column("Verdict", no_wrap=True),
        Column("Findings"),
        Column("Verified" if wide else "Verified rules", ratio=2 if wide else None),
    ]
    body: list[list[Cell]] = []
    for row in rows:
        verdict = "pass" if row.passed else "FAIL"
        counts = [
            plural(n, word)
            for n, word in ((row.errors, "error"), (row.warnings, "warning"), (row.infos, "info"))
            if n
        ]
        body.append(
            [
                visible(row.profile, keep=""),
                (verdict, CLASS_STYLE[verdict]),
                ", ".join(counts) or "-",
                visible(row.verified, keep="") if wide else _verified(row),
            ]
        )
    page.table(columns, body)
    failing = [row for row in rows if row.breaks]
    if failing:
        page.blank()
        page.line(("What breaks", "bold"), (" (error findings; --format json lists each)", DIM))
    for row in failing:
        page.line((visible(row.profile, keep=""), "bold"), f": {plural(row.errors, 'error')}")
        for text in shown_breaks(row):
            page.line(visible(text, keep=""), indent=2, hang=4)
    if not wide:
        page.blank()
        page.line(
            ("Verified rules", "bold"),
            ": the rules a recorded verify run observed at listing time; the others are "
            "from sources (`catalogaudit profiles ID` says how each rule is known).",
            hang=2,
        )
    return page.text()


def format_matrix(
    rows: Sequence[MatrixRow],
    fmt: OutputFormat,
    *,
    color: bool = False,
    width: int = 100,
    max_chars: int = DEFAULT_MAX_CHARS,
) -> str:
    """Render the matrix; `ValueError` for a format that has no table (see `MATRIX_FORMATS`);
    `max_chars` bounds the Markdown."""
    if fmt is OutputFormat.TEXT:
        return matrix_text(rows, color=color, width=width)
    if fmt is OutputFormat.MARKDOWN:
        return _markdown(rows, max_chars)
    if fmt is OutputFormat.JSON:
        return dumps(matrix_document(rows))
    if fmt in (OutputFormat.SARIF, OutputFormat.JUNIT, OutputFormat.GITHUB, OutputFormat.GITLAB):
        raise ValueError(f"--matrix has no {fmt.value} form; use text, markdown or json")
    assert_never(fmt)
