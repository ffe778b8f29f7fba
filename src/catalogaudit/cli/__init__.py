"""The face: the command line. `main` is the console script (`cli.entry`); each verb group's
module declares its typer options once and hands a plain options object to
`catalogaudit.verbs`. Typer is imported when a command runs (`app` on first access), and
each verb's work only when that verb runs, so the start-up holds what the command needs."""

from __future__ import annotations

from typing import Any

from catalogaudit.cli.entry import main


def __getattr__(name: str) -> Any:
    if name != "app":
        raise AttributeError(f"module 'catalogaudit.cli' has no attribute {name!r}")
    from catalogaudit.cli.app import app

    return app


__all__ = ["app", "main"]
