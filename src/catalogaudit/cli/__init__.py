"""The face: the command line. `main` is the console script (`cli.entry`); each verb group's
module declares its typer options and hands a plain options object to `catalogaudit.verbs`.
The typer app (`app`) is loaded on first access: the hot offline verbs run without it
(`cli.fast`)."""

from __future__ import annotations

from typing import Any

from catalogaudit.cli.entry import main


def __getattr__(name: str) -> Any:
    if name != "app":
        raise AttributeError(f"module 'catalogaudit.cli' has no attribute {name!r}")
    from catalogaudit.cli.app import app

    return app


__all__ = ["app", "main"]
