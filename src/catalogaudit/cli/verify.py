"""The `verify` command: typer options in, `verbs.verify` does the rest."""

from typing import Annotated, Literal

import typer

from catalogaudit.cli.options import MaxChars, ReportFormatOpt, complete_clients
from catalogaudit.cli.root import app
from catalogaudit.formatters import VerifyFormat

#: How the client meets the served snapshots (`verify.transports`).
VerifyTransport = Literal["stdio", "http"]


@app.command("verify")
def verify_cmd(
    catalogs: Annotated[
        list[str],
        typer.Argument(help="Snapshot files.", metavar="CATALOG..."),
    ],
    client: Annotated[
        str,
        typer.Option(
            "--client",
            help="Client: python-sdk, ts-sdk, ts-sdk-v2, codex, claude-code, opencode, "
            "inspector, gemini-cli or context-forge, optionally with @VERSION.",
            autocompletion=complete_clients,
        ),
    ],
    client_path: Annotated[
        str | None,
        typer.Option(
            help="python-sdk: a Python with mcp; ts-sdk, ts-sdk-v2: a node_modules dir; "
            "codex, claude-code, opencode, inspector, gemini-cli: the executable or a "
            "node_modules dir "
            "(default: on PATH); context-forge: a release venv or a directory of them "
            "(default: ~/.cache/catalogaudit/context-forge/VERSION, made by "
            "`python -m catalogaudit.verify.drivers.context_forge_install VERSION`)."
        ),
    ] = None,
    output_format: ReportFormatOpt[VerifyFormat] = VerifyFormat.TEXT,
    output: Annotated[
        str,
        typer.Option("-o", "--output", help="Report file, written atomically ('-' stdout)."),
    ] = "-",
    transport: Annotated[
        VerifyTransport,
        typer.Option(
            help="stdio: the client spawns `catalogaudit serve`; http: each snapshot is "
            "served with `serve --http` on a loopback port and the client is given its URL "
            "(codex, inspector, python-sdk, ts-sdk, ts-sdk-v2)."
        ),
    ] = "stdio",
    max_chars: MaxChars = None,
    sse: Annotated[
        bool,
        typer.Option("--sse", help="With --transport http, answer every request as SSE."),
    ] = False,
    model: Annotated[
        bool,
        typer.Option(
            "--model",
            help="claude-code, codex, opencode, gemini-cli: run the client against a "
            "loopback stand-in of its model API (Messages, Responses, Chat Completions, "
            "Gemini) and report per tool what the model is sent (modelView, SHA-256), how "
            "it is offered and what a call comes to. Snapshots, or a real server after `--`.",
        ),
    ] = False,
    calls: Annotated[
        list[str] | None,
        typer.Option(
            "--calls",
            metavar="all|none|NAME",
            help="With --model: the tools to call (repeatable or comma-separated; default "
            "all; against a real server `all` skips tools with destructiveHint: true).",
        ),
    ] = None,
    runs: Annotated[
        int,
        typer.Option(
            min=1,
            help="With --model: N starts (of the server after `--`, or N snapshots in "
            "turn); compare the `tools` bytes of the model requests.",
        ),
    ] = 1,
) -> None:
    """Run a real client against `catalogaudit serve` and compare with its profile.

    Reports per list and item what the client kept, dropped or failed on, with the
    client's own message, and whether the profile predicted it.

    Exit codes: 0 all match the profile; 1 a mismatch; 2 error.
    """
    from catalogaudit.cli import root
    from catalogaudit.verbs import ModelOptions, run_verify

    options = None
    if model or calls or runs != 1:
        if not model:
            raise typer.BadParameter("--calls and --runs need --model")
        command = tuple(root.AFTER_DASH or ())
        catalogs = catalogs[: len(catalogs) - len(command)] if command else catalogs
        options = ModelOptions(tuple(calls or ("all",)), runs, command)
    o = (client, catalogs, client_path, output_format, output, transport, sse, max_chars)
    raise typer.Exit(run_verify(*o, options))
