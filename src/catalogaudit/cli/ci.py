"""`catalogaudit ci`: typer options in, `verbs.ci` does the rest (the GitHub Action runs this)."""

import shlex
from typing import Annotated, Any, Literal

import typer

from catalogaudit.cli.options import (
    REACH,
    AcceptedOpt,
    AuditFailOn,
    ConfigOpt,
    Group,
    List,
    ProfileOpt,
    TimeoutOpt,
    filled,
    grouped,
    server_options,
)
from catalogaudit.cli.root import app
from catalogaudit.errors import UsageError

#: `--diff-fail-on`: a change at this level or above fails the gate.
DiffFailOn = Literal["breaking", "model-visible", "cosmetic", "never"]


@app.command("ci")
@grouped
def ci(
    command: Annotated[
        List,
        typer.Argument(
            help="The stdio server command, after -- (none and no --url: the committed "
            "snapshot is the candidate)."
        ),
    ] = None,
    snapshot: Annotated[
        str | None,
        typer.Option(
            help="The committed snapshot's path in the repository (default: config snapshot, "
            "else catalog.snapshot.json)."
        ),
    ] = None,
    command_line: Annotated[
        str | None,
        typer.Option("--command", help="The stdio server command as one line (split like sh)."),
    ] = None,
    _reach: Group = REACH,
    header_lines: Annotated[
        str | None,
        typer.Option(
            "--headers", help="More 'Name: value' headers, one a line (the Action's input)."
        ),
    ] = None,
    runs: Annotated[int, typer.Option(min=1, help="Capture the server N times and compare.")] = 1,
    timeout: TimeoutOpt = 300.0,
    baseline: Annotated[
        str | None,
        typer.Option(help="Git ref of the baseline snapshot (default: the PR's merge base)."),
    ] = None,
    profiles: ProfileOpt = None,
    audit_fail_on: Annotated[
        AuditFailOn | None,
        typer.Option(
            help="Fail on findings of this severity or worse (default: config fail-on, else error)."
        ),
    ] = None,
    diff_fail_on: Annotated[
        DiffFailOn | None,
        typer.Option(
            help="Fail on changes at this level or above (default: config "
            "diff-fail-on, else breaking)."
        ),
    ] = None,
    config: ConfigOpt = None,
    accepted: AcceptedOpt = None,
    comment: Annotated[
        bool, typer.Option("--comment/--no-comment", help="Post or update the PR comment.")
    ] = True,
    sarif: Annotated[
        bool, typer.Option("--sarif/--no-sarif", help="Write the audit as SARIF.")
    ] = False,
    out_dir: Annotated[
        str | None,
        typer.Option(help="Where summary.md, catalogaudit.sarif and the new snapshot go."),
    ] = None,
    api_timeout: Annotated[
        float,
        typer.Option(min=0.1, max=3600, help="Seconds for all of the PR comment's API calls."),
    ] = 60.0,
    **given: Any,
) -> None:
    """Gate a pull request: snapshot, diff against the baseline, audit, job summary, one PR
    comment, SARIF, step outputs.

    Exit codes: 0 passed, 1 failed, 2 errors.
    """
    from catalogaudit.verbs import CiOptions, run_ci

    if command and command_line:
        raise UsageError("give the server command after -- or as --command, not both")
    try:
        argv = tuple(command or ()) or tuple(shlex.split(command_line or ""))
    except ValueError as exc:
        raise UsageError(f"--command: {exc}") from None
    o = {**locals(), **given}
    lines = [h.strip() for h in (header_lines or "").splitlines() if h.strip()]
    headers = (*(o["headers"] or ()), *lines)
    server = server_options(o, argv, url=o["url"] or None, headers=headers)
    options = filled(
        CiOptions,
        o,
        server=server,
        baseline=baseline or None,
        profiles=tuple(p.strip() for v in profiles or () for p in v.split(",") if p.strip()),
    )
    raise typer.Exit(run_ci(options))
