"""The face: the command line. `main` is the console script (`cli.entry`); each verb group's
module declares its typer options once and hands a plain options object to
`catalogaudit.verbs`. Typer is imported when a command runs, and each verb's work only when
that verb runs, so the start-up holds what the command needs. The modules that declare
commands keep their annotations as objects (no `from __future__ import annotations`): typer
reads every command's annotations on every run, and a string annotation is evaluated each
time."""

from __future__ import annotations

from catalogaudit.cli.entry import main

__all__ = ["main"]
