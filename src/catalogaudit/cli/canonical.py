"""The `canonicalize` and `hash` commands: typer options in, `verbs.canonicalize` does the rest."""

from typing import Annotated

import typer

from catalogaudit.cli.options import FormatOpt
from catalogaudit.cli.root import app
from catalogaudit.formatters import HashFormat

#: `--protocol` for inputs that do not say their revision (not snapshots).
ProtocolOpt = Annotated[
    str,
    typer.Option(
        "--protocol",
        help="Revision of inputs that do not say it: auto, legacy, modern or a revision.",
    ),
]


#: The input of both verbs.
INPUT = typer.Argument(
    help="Snapshot, list result, JSON-RPC line, JSON Lines, - or git:REF:PATH.",
    metavar="FILE",
)


@app.command("canonicalize")
def canonicalize_cmd(
    files: Annotated[list[str], INPUT],
    check: Annotated[
        bool, typer.Option("--check", help="Print a diff; exit 1 if any file would change.")
    ] = False,
    in_place: Annotated[
        bool, typer.Option("--in-place", help="Rewrite the files; exit 1 if any changed.")
    ] = False,
    output: Annotated[
        str | None,
        typer.Option("-o", "--output", help="Output file ('-' for stdout, the default)."),
    ] = None,
    jcs: Annotated[
        bool,
        typer.Option("--jcs", help="Print the RFC 8785 bytes of any JSON document (no newline)."),
    ] = False,
    protocol: ProtocolOpt = "auto",
) -> None:
    """Write inputs in the one written form `snapshot` writes, hashes recomputed.

    A snapshot with a wire section is rebuilt from it: hand edits show as a diff.

    Exit codes: 0 done; 1 a file changed or would change (--check, --in-place); 2 error.
    """
    from catalogaudit.verbs import canonicalize_options, run_canonicalize

    options = canonicalize_options(files, check, in_place, output, jcs, protocol)
    raise typer.Exit(run_canonicalize(options))


@app.command("hash")
def hash_cmd(
    file: Annotated[str, INPUT],
    fmt: FormatOpt[HashFormat] = HashFormat.TEXT,
    protocol: ProtocolOpt = "auto",
    client: Annotated[
        list[str] | None,
        typer.Option(
            "--client",
            metavar="CLIENT",
            help="Also the prompt hash of what CLIENT (a profile id with model_view data, "
            "or all) sends the model for the tools, per tool and in its order. Repeatable.",
        ),
    ] = None,
) -> None:
    """Print the served, prompt and canonical hashes per item, per listing and for the catalog.

    With --client, also each client's prompt hash: its predicted tools array (names,
    fields, schema rewrites, order), tokens per tool, and which tools it defers.

    Exit codes: 0 printed, 2 usage or input error.
    """
    from catalogaudit.verbs import run_hash

    raise typer.Exit(run_hash(file, fmt, protocol, client or ()))
