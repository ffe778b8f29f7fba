"""The `audit --matrix` table: every profile's verdict on one catalog, at a glance.

A matrix is one table, so it exists in the table-shaped formats only: text (rich, via
`text.py`), Markdown and JSON. `MATRIX_FORMATS` lets the CLI reject the others up front.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from catalogaudit.formatters.base import assert_never, shown_breaks
from catalogaudit.formatters.formats import OutputFormat
from catalogaudit.formatters.json import dumps
from catalogaudit.formatters.md import DEFAULT_MAX_CHARS, Section, code, escape_text, fit
from catalogaudit.model import MatrixRow
from catalogaudit.model import with_envelope as envelope

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
        from catalogaudit.formatters.text import format_matrix_text

        return format_matrix_text(rows, color=color, width=width)
    if fmt is OutputFormat.MARKDOWN:
        return _markdown(rows, max_chars)
    if fmt is OutputFormat.JSON:
        return dumps(matrix_document(rows))
    if fmt in (OutputFormat.SARIF, OutputFormat.JUNIT, OutputFormat.GITHUB, OutputFormat.GITLAB):
        raise ValueError(f"--matrix has no {fmt.value} form; use text, markdown or json")
    assert_never(fmt)
