"""The `rewrite` command: typer options in, `verbs.rewrite` does the rest.

Operators who cannot change a server still need its catalog to pass their gateway: this shows,
before deploying a substitution list, every string it changes and which findings it clears.
"""

from __future__ import annotations

from typing import Annotated

import typer

from catalogaudit.cli.options import complete_profiles
from catalogaudit.formatters import RewriteFormat

List = list[str] | None


def register(app: typer.Typer) -> None:
    """Add the verb to the app."""
    app.command(name="rewrite")(rewrite_command)


def rewrite_command(
    snapshot: Annotated[str, typer.Argument(help="Snapshot (or any catalog input) to rewrite.")],
    substitutions: Annotated[
        str | None,
        typer.Option(
            help="Ordered old=new pairs, comma-separated (\\, \\= \\\\ escape). "
            "Default: $CATALOGAUDIT_SUBSTITUTIONS."
        ),
    ] = None,
    fix: Annotated[
        List, typer.Option("--fix", help="codex-app or cache-hints; repeatable.")
    ] = None,
    output: Annotated[
        str, typer.Option("-o", "--output", help="Rewritten snapshot ('-' stdout).")
    ] = "-",
    report: Annotated[
        str | None,
        typer.Option(help="Report file (default: stdout, or stderr when -o is stdout)."),
    ] = None,
    output_format: Annotated[
        RewriteFormat, typer.Option("--format", help="Report format.")
    ] = RewriteFormat.TEXT,
    profile: Annotated[
        List,
        typer.Option(
            "--profile",
            help="Re-audit with ID or ID@VERSION; repeatable.",
            autocompletion=complete_profiles,
        ),
    ] = None,
    profile_setting: Annotated[
        List, typer.Option("--profile-setting", help="Enforcer setting KEY=VALUE.")
    ] = None,
    server_name: Annotated[str | None, typer.Option(help="Server name for name checks.")] = None,
    gateway_name: Annotated[str | None, typer.Option(help="Gateway name (ContextForge).")] = None,
    revision: Annotated[str | None, typer.Option(help="Protocol revision to audit as.")] = None,
    fail_on: Annotated[
        str | None, typer.Option(help="error (default), warning, info, never.")
    ] = None,
    config: Annotated[str | None, typer.Option(help="Configuration file.")] = None,
) -> None:
    """Rewrite prose with ordered substitutions and apply profile fixes, without the server.

    Writes the derived catalog (hashes recomputed, a `derived` block, no `wire` section),
    reports every change, and re-audits: which findings the rewrite cleared, which remain.
    Exit codes: 0 written and the re-audit passes --fail-on, 1 written but findings remain,
    2 errors (nothing written).
    """
    from catalogaudit.verbs import RewriteOptions, run_rewrite

    options = RewriteOptions(
        snapshot=snapshot,
        substitutions=substitutions,
        fixes=tuple(fix or ()),
        output=output,
        report=report,
        output_format=output_format,
        profiles=tuple(profile or ()),
        profile_settings=tuple(profile_setting or ()),
        server_name=server_name,
        gateway_name=gateway_name,
        revision=revision,
        fail_on=fail_on,
        config=config,
    )
    raise typer.Exit(run_rewrite(options))
