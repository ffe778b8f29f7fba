"""The `verify` command: typer options in, `verbs.verify` does the rest.

Exit codes: 0 every observation matches the profile's prediction; 1 a mismatch; 2 errors
(client not found, bad input: one `error:` line, printed by `cli.entry.main`).
"""

from __future__ import annotations

import enum
from typing import Annotated, Optional

import typer

from catalogaudit.cli.options import MaxChars
from catalogaudit.formatters.formats import VerifyFormat


class VerifyTransport(str, enum.Enum):
    """How the client meets the served snapshots (`verify.transports`)."""

    STDIO = "stdio"
    HTTP = "http"


def register(app: typer.Typer) -> None:
    """Add `verify` to the app."""

    @app.command("verify")
    def verify_cmd(
        catalogs: Annotated[
            list[str],
            typer.Argument(help="Snapshot files.", metavar="CATALOG...", show_default=False),
        ],
        client: Annotated[
            str,
            typer.Option(
                "--client",
                help="Client: python-sdk, ts-sdk, codex, claude-code, opencode, inspector or "
                "context-forge, optionally with @VERSION.",
            ),
        ],
        client_path: Annotated[
            Optional[str],  # noqa: UP045 - typer needs Optional on 3.10
            typer.Option(
                help="python-sdk: a Python with mcp; ts-sdk: a node_modules dir; codex, "
                "claude-code, opencode, inspector: the executable or a node_modules dir "
                "(default: on PATH); context-forge: a release venv or a directory of them "
                "(default: ~/.cache/catalogaudit/context-forge/VERSION, made by "
                "`python -m catalogaudit.verify.drivers.context_forge_install VERSION`)."
            ),
        ] = None,
        output_format: Annotated[
            VerifyFormat, typer.Option("--format", help="Report format.")
        ] = VerifyFormat.TEXT,
        output: Annotated[
            str,
            typer.Option("-o", "--output", help="Report file, written atomically ('-' stdout)."),
        ] = "-",
        transport: Annotated[
            VerifyTransport,
            typer.Option(
                help="stdio: the client spawns `catalogaudit serve`; http: each snapshot is "
                "served with `serve --http` on a loopback port and the client is given its URL "
                "(codex, inspector, python-sdk, ts-sdk)."
            ),
        ] = VerifyTransport.STDIO,
        max_chars: MaxChars = None,
        sse: Annotated[
            bool,
            typer.Option("--sse", help="With --transport http, answer every request as SSE."),
        ] = False,
    ) -> None:
        """Run a real client against `catalogaudit serve` and compare with its profile.

        Reports per list and item what the client kept, dropped or failed on, with the
        client's own message, and whether the profile predicted it.

        Exit codes: 0 all match the profile; 1 a mismatch; 2 error.
        """
        from catalogaudit.verbs import verify

        raise typer.Exit(
            verify.run(
                client,
                catalogs,
                client_path,
                output_format,
                output,
                transport.value,
                sse,
                max_chars,
            )
        )
