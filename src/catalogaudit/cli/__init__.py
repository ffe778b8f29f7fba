"""The face: the typer command line. `main` is the console script; each verb group's module
declares its options and hands a plain options object to `catalogaudit.verbs`."""

from __future__ import annotations

from catalogaudit.cli.app import app, main

__all__ = ["app", "main"]
