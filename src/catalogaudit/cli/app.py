"""The typer command line: parse options, call the core, print, exit. No policy lives here."""

from __future__ import annotations

from typing import Annotated, Any

import typer

from catalogaudit._version import __version__
from catalogaudit.cli import contract as c
from catalogaudit.cli.options import PricesOpt, Transport, TransportOpt, server_options

app = typer.Typer(
    name="catalogaudit",
    help="Snapshot, audit, canonicalize, hash and diff MCP server catalogs.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=True,
    context_settings={"help_option_names": ["-h", "--help"]},
)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"catalogaudit {__version__}")
        raise typer.Exit(0)


@app.callback()
def _root(
    version: Annotated[
        bool,
        typer.Option("--version", callback=_version, is_eager=True, help="Print the version."),
    ] = False,
    traceback: Annotated[
        bool, typer.Option("--traceback", help="Show the full traceback on errors.")
    ] = False,
) -> None:
    """Snapshot, audit, canonicalize, hash and diff MCP server catalogs."""


ProtocolOpt = Annotated[
    str,
    typer.Option(
        "--protocol",
        help="auto (2026-07-28 discover, else initialize), legacy, modern, or a revision "
        "such as 2025-06-18.",
    ),
]


InheritEnvOpt = Annotated[
    bool,
    typer.Option(
        "--inherit-env",
        help="Pass the stdio server our whole environment (default: HOME, LOGNAME, PATH, "
        "SHELL, TERM, USER, LANG, LC_*, TZ, plus --env).",
    ),
]
SecretOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--secret",
        help="A value to mask wherever server text is written (env:VAR reads it). Repeatable.",
    ),
]


@app.command()
def snapshot(
    command: Annotated[
        list[str] | None,
        typer.Argument(help="The stdio server command, after --.", show_default=False),
    ] = None,
    url: Annotated[str | None, typer.Option(help="Streamable HTTP endpoint.")] = None,
    transport: TransportOpt = Transport.AUTO,
    header: Annotated[
        list[str] | None,
        typer.Option("--header", help="'Name: value' (value may be env:VAR). Repeatable."),
    ] = None,
    cwd: Annotated[str | None, typer.Option(help="Working directory of the server.")] = None,
    env: Annotated[
        list[str] | None,
        typer.Option("--env", help="KEY=VALUE for the server. Repeatable."),
    ] = None,
    inherit_env: InheritEnvOpt = False,
    secret: SecretOpt = None,
    protocol: ProtocolOpt = "auto",
    client_capabilities: Annotated[
        str, typer.Option(help="none, or full (roots, sampling, elicitation).")
    ] = "none",
    runs: Annotated[int, typer.Option(min=1, help="Start the server N times and compare.")] = 1,
    jobs: Annotated[int, typer.Option(min=1, help="Runs at once (only where it is safe).")] = 1,
    timeout: Annotated[float, typer.Option(help="Seconds for the whole snapshot.")] = 300.0,
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
    from_: Annotated[
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
    expect_tool: c.ExpectTool = None,
    forbid_tool: c.ForbidTool = None,
    min_tools: c.MinTools = None,
    expect_prompt: c.ExpectPrompt = None,
    forbid_prompt: c.ForbidPrompt = None,
    min_prompts: c.MinPrompts = None,
    expect_resource: c.ExpectResource = None,
    forbid_resource: c.ForbidResource = None,
    min_resources: c.MinResources = None,
    expect_template: c.ExpectTemplate = None,
    forbid_template: c.ForbidTemplate = None,
    min_templates: c.MinTemplates = None,
) -> None:
    """Capture a server's four listings exactly as served into a snapshot file.

    Exit codes: 0 written, 1 written but unstable across --runs or a contract assertion
    failed (with --servers: a server failed, the others written), 2 nothing written.
    """
    raise typer.Exit(_snapshot(dict(locals())))


def _snapshot(o: dict[str, Any]) -> int:
    """The `snapshot` command's body: every option by its parameter name."""
    from catalogaudit.verbs import from_parameters, run_fleet_snapshot, run_snapshot

    options = server_options(
        o,
        o["command"] or (),
        wire=not o["no_wire"],
        static_inputs=tuple(o["from_"] or ()),
        contract=from_parameters(o),
    )
    if o["servers"] is not None:
        return run_fleet_snapshot(options, o["servers"], o["shard"])
    if o["shard"] is not None:
        from catalogaudit.errors import UsageError

        raise UsageError("--shard splits the servers of --servers FILE")
    return run_snapshot(options)


from catalogaudit.cli.commands import register_all  # noqa: E402 - after the app and snapshot

register_all(app)


__all__ = ["app"]
