"""The `diff` and `stability` commands: typer options in, `verbs.diff` does the rest."""

from typing import Annotated, Any, Literal

import typer

from catalogaudit.cli.options import (
    CONTRACT,
    AcceptedOpt,
    ColorOpt,
    Group,
    MaxChars,
    PricesOpt,
    ReportFormatOpt,
    filled,
    grouped,
)
from catalogaudit.cli.root import app
from catalogaudit.formatters import DiffFormat, StabilityFormat

#: `--fail-on` threshold: cosmetic < model-visible < breaking.
FailOn = Literal["never", "cosmetic", "model-visible", "breaking"]


OutputOpt = Annotated[
    str, typer.Option("-o", "--output", help="Write the report here ('-' for stdout).")
]


@app.command("diff")
@grouped
def diff_cmd(
    old: Annotated[
        str | None,
        typer.Argument(
            help="Old catalog: file, -, or git:REF:PATH (--live: default the configured snapshot)."
        ),
    ] = None,
    new: Annotated[
        str | None, typer.Argument(help="New catalog: file, -, or git:REF:PATH.")
    ] = None,
    fail_on: Annotated[
        FailOn, typer.Option("--fail-on", help="Exit 1 at or above this level.")
    ] = "breaking",
    unknown: Annotated[
        Literal["fail", "ignore"],
        typer.Option(help="fail: undecidable changes count as breaking; ignore: as model-visible."),
    ] = "fail",
    fmt: ReportFormatOpt[DiffFormat] = DiffFormat.TEXT,
    output: OutputOpt = "-",
    max_chars: MaxChars = None,
    color: ColorOpt = "auto",
    live: Annotated[
        bool,
        typer.Option(
            "--live",
            help="Snapshot the configured server now, with the committed snapshot's capture "
            "settings, and diff the committed snapshot against it.",
        ),
    ] = False,
    config: Annotated[
        str | None, typer.Option(help="Configuration file (--live, contract keys).")
    ] = None,
    schema_only: Annotated[
        bool,
        typer.Option(
            "--schema-only",
            help="Ignore prose (descriptions, titles, argument descriptions, at any depth).",
        ),
    ] = False,
    prose_only: Annotated[
        bool, typer.Option("--prose-only", help="Look at prose (wording) and nothing else.")
    ] = False,
    allowlist: Annotated[
        str | None,
        typer.Option(
            help="Names or globs, one a line: their removal or rename is breaking (CA805)."
        ),
    ] = None,
    accepted: AcceptedOpt = None,
    accept: Annotated[
        str | None,
        typer.Option(
            help="Accept every change at or above --fail-on for this reason: write one "
            "entry each to the accepted-changes file.",
            metavar="REASON",
        ),
    ] = None,
    expires: Annotated[
        str | None, typer.Option(help="With --accept: the entries' expiry date (YYYY-MM-DD).")
    ] = None,
    summary: Annotated[
        bool, typer.Option("--summary", help="Text: one line per class and rule, counted.")
    ] = False,
    expand: Annotated[
        bool, typer.Option("--expand", help="Text: list what a folded change stands for.")
    ] = False,
    prices: PricesOpt = None,
    _contract: Group = CONTRACT,
    **given: Any,
) -> None:
    """Classify what changed between two catalogs (breaking, unknown, model-visible,
    additive, compatible, cosmetic).

    Exit codes: 0 nothing at or above --fail-on, 1 something is, 2 errors.
    """
    from catalogaudit.verbs import DiffOptions, from_parameters, run_diff

    o = {**locals(), **given}
    both = schema_only and prose_only
    mode = "both" if both else "schema" if schema_only else "prose" if prose_only else "all"
    raise typer.Exit(run_diff(filled(DiffOptions, o, mode=mode, contract=from_parameters(o))))


@app.command("stability")
def stability_cmd(
    files: Annotated[
        list[str],
        typer.Argument(
            help="Snapshots or captures of one server; one `snapshot --runs N` file is enough."
        ),
    ],
    fmt: ReportFormatOpt[StabilityFormat] = StabilityFormat.TEXT,
    output: OutputOpt = "-",
    max_chars: MaxChars = None,
    color: ColorOpt = "auto",
    prices: PricesOpt = None,
) -> None:
    """Say per listing and item whether captures agree: stable, bytes-only (the cause
    named) or content, with the JSON paths that changed and the prompt-cache cost.

    Exit codes: 0 stable, 1 not stable, 2 errors.
    """
    from catalogaudit.verbs import StabilityOptions, run_stability

    options = filled(StabilityOptions, locals())
    raise typer.Exit(run_stability(options))
