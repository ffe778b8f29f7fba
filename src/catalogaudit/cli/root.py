"""The typer application every verb module adds its commands to, with the root options.

Its own module so that the verb modules import it without importing each other: `app.py`
assembles them.
"""

from typing import Annotated

import typer

from catalogaudit._version import __version__

#: The words after `--` on this command line (None: no `--`), set by `entry` before parsing:
#: click folds them into the positional arguments, and `verify --model -- COMMAND` must tell
#: a command from snapshots.
AFTER_DASH: list[str] | None = None

app = typer.Typer(
    name="catalogaudit",
    no_args_is_help=True,
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
