"""The `rewrite` command: typer options in, `verbs.rewrite` does the rest.

Operators who cannot change a server still need its catalog to pass their gateway: this shows,
before deploying a substitution list, every string it changes and which findings it clears.
"""

from typing import Annotated, Any

import typer

from catalogaudit.cli.options import (
    CHECKED,
    ConfigOpt,
    Group,
    List,
    ReportFormatOpt,
    filled,
    grouped,
)
from catalogaudit.cli.root import app
from catalogaudit.formatters import RewriteFormat


@app.command(name="rewrite")
@grouped
def rewrite_command(
    snapshot: Annotated[str, typer.Argument(help="Snapshot (or any catalog input) to rewrite.")],
    substitutions: Annotated[
        str | None,
        typer.Option(
            help="Ordered old=new pairs, comma-separated (\\, \\= \\\\ escape). "
            "Default: $CATALOGAUDIT_SUBSTITUTIONS."
        ),
    ] = None,
    fixes: Annotated[
        List, typer.Option("--fix", help="codex-app or cache-hints; repeatable.")
    ] = None,
    output: Annotated[
        str, typer.Option("-o", "--output", help="Rewritten snapshot ('-' stdout).")
    ] = "-",
    report: Annotated[
        str | None,
        typer.Option(help="Report file (default: stdout, or stderr when -o is stdout)."),
    ] = None,
    output_format: ReportFormatOpt[RewriteFormat] = RewriteFormat.TEXT,
    _checked: Group = CHECKED,
    fail_on: Annotated[
        str | None, typer.Option(help="error (default), warning, info, never.")
    ] = None,
    config: ConfigOpt = None,
    **given: Any,
) -> None:
    """Rewrite prose with ordered substitutions and apply profile fixes, without the server.

    Writes the derived catalog (hashes recomputed, a `derived` block, no `wire` section),
    reports every change, and re-audits: which findings the rewrite cleared, which remain.
    The re-audit uses --profile, else the configured profiles, else the profiles of --fix.
    Exit codes: 0 written and the re-audit passes --fail-on, 1 written but findings remain,
    2 errors (nothing written).
    """
    from catalogaudit.verbs import RewriteOptions, run_rewrite

    options = filled(RewriteOptions, {**locals(), **given})
    raise typer.Exit(run_rewrite(options))
