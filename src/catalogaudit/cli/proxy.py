"""The `proxy` command: typer options in, `verbs.proxy` does the rest.

Exit codes (its help does not list them): 0 the client (stdin EOF) or SIGTERM ended the
session; 1 the server ended first; 2 usage errors and a server that cannot be started.
"""

from typing import Annotated

import typer

from catalogaudit.cli.options import CwdOpt, List, filled
from catalogaudit.cli.root import app


@app.command(name="proxy")
def proxy_command(
    command: Annotated[List, typer.Argument(help="The stdio server command, after --.")] = None,
    listen: Annotated[
        int | None,
        typer.Option(
            metavar="PORT", min=0, max=65535, help="Streamable HTTP on PORT (0 picks one)."
        ),
    ] = None,
    url: Annotated[
        str | None,
        typer.Option(help="The Streamable HTTP server's URL (without --listen: stdio to it)."),
    ] = None,
    host: Annotated[str, typer.Option(help="Address to bind with --listen.")] = "127.0.0.1",
    idle_timeout: Annotated[
        float, typer.Option(help="With --listen: seconds a connection may stay quiet.")
    ] = 300.0,
    fixes: Annotated[
        List,
        typer.Option("--fix", help="codex-app or cache-hints for every client; repeatable."),
    ] = None,
    no_fixes: Annotated[
        List, typer.Option("--no-fix", help="A fix for no client; repeatable.")
    ] = None,
    substitutions: Annotated[
        str | None,
        typer.Option(
            help="Ordered old=new pairs for every client, as rewrite's. "
            "Default: $CATALOGAUDIT_SUBSTITUTIONS."
        ),
    ] = None,
    cwd: CwdOpt = None,
    request_timeout: Annotated[
        float, typer.Option(help="Seconds a message may wait for the server to read it.")
    ] = 30.0,
    max_message_size: Annotated[
        int, typer.Option(help="Largest message either side may send, in bytes.")
    ] = 64 * 1024 * 1024,
    secrets: Annotated[
        List, typer.Option("--secret", help="A value never to print (env:VAR reads it).")
    ] = None,
) -> None:
    """Relay a client to a server, applying the fixes its client needs.

    Every message passes untouched except list results, rewritten as `rewrite` would for
    the fixes on for the session's client (its profile's, --fix, not --no-fix) and
    --substitutions. The active fixes are said once on stderr at start.
    """
    from catalogaudit.verbs import ProxyOptions, run_proxy

    options = filled(ProxyOptions, locals())
    raise typer.Exit(run_proxy(options))
