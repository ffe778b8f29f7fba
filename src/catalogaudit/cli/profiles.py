"""`catalogaudit profiles [ID[@VERSION]]`: what each profile checks, for which versions, and
on what evidence. Typer options in, `verbs.profiles` does the rest."""

from typing import Annotated

import typer

from catalogaudit.cli.options import FormatOpt, complete_profiles
from catalogaudit.cli.root import app
from catalogaudit.formatters import ProfilesFormat


@app.command("profiles")
def profiles(
    profile: Annotated[
        str | None,
        typer.Argument(
            help="A profile id, optionally @VERSION, to show its rules.",
            autocompletion=complete_profiles,
        ),
    ] = None,
    output_format: FormatOpt[ProfilesFormat] = ProfilesFormat.TEXT,
) -> None:
    """List the client, gateway and LLM-API profiles, or show one profile's rules with their
    version ranges, sources and confidence."""
    from catalogaudit.verbs import run_profiles

    raise typer.Exit(run_profiles(profile, output_format))
