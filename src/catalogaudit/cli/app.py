"""The typer command line: parse options, call the core, print, exit. No policy lives here.

This module assembles the verbs: `snapshot` here, the others in their modules, each added
to `root.app`.
"""

from typing import Annotated, Any

import typer

from catalogaudit.cli.options import (
    CONTRACT,
    REACH,
    START,
    Group,
    List,
    PricesOpt,
    TimeoutOpt,
    grouped,
    server_options,
)
from catalogaudit.cli.root import app
from catalogaudit.errors import UsageError


@app.command()
@grouped
def snapshot(
    command: Annotated[List, typer.Argument(help="The stdio server command, after --.")] = None,
    _reach: Group = REACH,
    _start: Group = START,
    runs: Annotated[int, typer.Option(min=1, help="Start the server N times and compare.")] = 1,
    jobs: Annotated[int, typer.Option(min=1, help="Runs at once (only where it is safe).")] = 1,
    timeout: TimeoutOpt = 300.0,
    startup_timeout: Annotated[float, typer.Option(help="Seconds for the handshake.")] = 30.0,
    request_timeout: Annotated[float, typer.Option(help="Seconds for each request.")] = 30.0,
    max_pages: Annotated[int, typer.Option(min=1, help="Page cap per listing.")] = 1000,
    max_message_size: Annotated[
        int, typer.Option(min=1024, help="Largest accepted message, in bytes.")
    ] = 64 * 1024 * 1024,
    max_total_bytes: Annotated[
        int,
        typer.Option(
            min=1024, help="Most bytes of answers kept in all (every page, every run): 256 MiB."
        ),
    ] = 256 * 1024 * 1024,
    no_wire: Annotated[
        bool, typer.Option("--no-wire", help="Omit the wire section (loses served bytes).")
    ] = False,
    legacy_probe: Annotated[
        bool,
        typer.Option(
            "--legacy-probe",
            help="After a 2026-07-28 capture, start a fresh session and record whether the "
            "server also answers a legacy initialize (clients that never send "
            "server/discover need it).",
        ),
    ] = False,
    static_inputs: Annotated[
        list[str] | None,
        typer.Option("--from", help="Static input (file, -, git:REF:PATH). Repeatable."),
    ] = None,
    output: Annotated[
        str, typer.Option("-o", "--output", help="Output file ('-' for stdout).")
    ] = "-",
    servers: Annotated[
        str | None,
        typer.Option(
            "--servers",
            metavar="FILE",
            help="Every server a client configuration or registry server.json names, each "
            "into -o DIR (--jobs at once).",
        ),
    ] = None,
    shard: Annotated[
        str | None,
        typer.Option("--shard", metavar="I/N", help="With --servers: only shard I of N."),
    ] = None,
    prices: PricesOpt = None,
    _contract: Group = CONTRACT,
    **given: Any,
) -> None:
    """Capture a server's four listings exactly as served into a snapshot file.

    Exit codes: 0 written, 1 written but unstable across --runs or a contract assertion
    failed (with --servers: a server failed, the others written), 2 nothing written.
    """
    from catalogaudit.verbs import from_parameters, run_fleet_snapshot, run_snapshot

    o = {**locals(), **given}
    options = server_options(o, command or (), wire=not no_wire, contract=from_parameters(o))
    if servers is not None:
        raise typer.Exit(run_fleet_snapshot(options, servers, shard))
    if shard is not None:
        raise UsageError("--shard splits the servers of --servers FILE")
    raise typer.Exit(run_snapshot(options))


# NOTE: each module adds its verbs to `app` (typer imports are cheap; each verb's work is
# imported when it runs), in the order `--help` lists them.
from catalogaudit.cli import audit, diff, rewrite, profiles, canonical  # noqa: E402, F401, I001
from catalogaudit.cli import serve, proxy, verify, ci  # noqa: E402, F401, I001
