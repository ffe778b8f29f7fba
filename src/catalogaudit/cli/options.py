"""Options several verbs share, declared once so their help and bounds agree."""

from __future__ import annotations

from typing import Annotated, Optional

import typer

#: `--max-chars` of every verb that writes Markdown (None: `formatters.md.DEFAULT_MAX_CHARS`).
MaxChars = Annotated[
    Optional[int],  # noqa: UP045 - typer needs Optional on 3.10
    typer.Option(
        "--max-chars",
        min=200,
        help="Markdown: at most this many characters (default 60000, under GitHub's comment "
        "limit); what is cut is counted in the last line.",
    ),
]
