"""The `serve` command: typer options in, `verbs.serve` does the rest."""

from typing import Annotated, Literal

import typer

from catalogaudit.cli.options import filled
from catalogaudit.cli.root import app

#: Which eras `serve` answers.
ServeProtocol = Literal["as-captured", "legacy", "modern", "dual"]
#: What `serve` does with ttlMs, cacheScope and resultType.
CacheHints = Literal["as-captured", "present", "absent", "discover-only"]


@app.command("serve")
def serve_cmd(
    snapshot: Annotated[
        str,
        typer.Argument(
            help="Snapshot file (or - or git:REF:PATH).",
            metavar="SNAPSHOT",
        ),
    ],
    http_port: Annotated[
        int | None,
        typer.Option(
            "--http",
            metavar="PORT",
            min=0,
            max=65535,
            help="Serve Streamable HTTP on PORT (0 picks one) instead of stdio.",
        ),
    ] = None,
    host: Annotated[str, typer.Option(help="Address to bind with --http.")] = "127.0.0.1",
    protocol: Annotated[ServeProtocol, typer.Option(help="Eras to answer.")] = "as-captured",
    cache_hints: Annotated[
        CacheHints,
        typer.Option(help="Keep, add or remove ttlMs, cacheScope and resultType."),
    ] = "as-captured",
    page_size: Annotated[
        int | None,
        typer.Option(min=1, help="Re-paginate with N items per page (default: as captured)."),
    ] = None,
    capabilities: Annotated[
        str,
        typer.Option(help="as-captured, or a JSON object of server capabilities."),
    ] = "as-captured",
    sse: Annotated[
        bool, typer.Option("--sse", help="With --http, answer requests as SSE streams.")
    ] = False,
    transport: Annotated[
        str,
        typer.Option(
            help="With --http: streamable-http (/mcp), or sse, the HTTP+SSE transport of "
            "2024-11-05 (GET /sse, POST /messages)."
        ),
    ] = "streamable-http",
    max_seconds: Annotated[
        float | None,
        typer.Option(help="Stop (exit 0) after this many seconds."),
    ] = None,
    idle_timeout: Annotated[
        float,
        typer.Option(
            help="With --http, close a connection whose next request is not read and "
            "answered within this many seconds (slow or idle clients)."
        ),
    ] = 30.0,
    initialize_version: Annotated[
        str | None,
        typer.Option(
            metavar="VERSION",
            help="Answer every initialize with this protocolVersion, whatever the client "
            "offered (e.g. 2026-07-28 in a legacy handshake). Needs --protocol legacy or "
            "dual (or a snapshot served with a legacy handshake).",
        ),
    ] = None,
    call_log: Annotated[
        str | None,
        typer.Option(
            metavar="FILE",
            help="Append one JSON line per tools/call (name, arguments, outcome). Calls "
            "are answered with a result valid for the tool's outputSchema.",
        ),
    ] = None,
) -> None:
    """Replay a snapshot as a live MCP server over stdio, or Streamable HTTP with --http.

    Page texts and the handshake are served exactly as captured (wire section).
    As captured, a modern snapshot whose capture recorded that the server also answered a
    legacy initialize (snapshot --legacy-probe) answers both eras.

    Exit codes: 0 ended cleanly (stdin EOF, SIGTERM, --max-seconds); 2 error.
    """
    from catalogaudit.verbs import ServeOptions, run_serve

    options = filled(ServeOptions, locals())
    raise typer.Exit(run_serve(options))
