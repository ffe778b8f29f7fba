"""Formatters: turn a finished report into a string; no I/O, no exit logic, no typer."""
