"""Colour and width of text output: the one place that reads the terminal and its variables.

Colour: `--color always` or `never` decide; else `NO_COLOR` (any non-empty value) turns it
off, `FORCE_COLOR` (any non-empty value but `0`) turns it on even when stdout is not a
terminal, and otherwise only a terminal gets colour. A report written to a file (`-o FILE`)
never does unless `--color always` asks (https://no-color.org, https://force-color.org).

Width: a file gets the fixed 100 columns, so a committed report does not change with the
terminal it was made in; stdout follows `COLUMNS` or the terminal's width, and a pipe without
`COLUMNS` (CI logs, tests) gets 100 as well.
"""

from __future__ import annotations

import os
import shutil
import sys

from catalogaudit.errors import UsageError

#: The width of text written to a file or a pipe.
FIXED_WIDTH = 100
#: Narrower than this and a rich table cannot hold its columns.
MIN_WIDTH = 40


def _on_terminal() -> bool:
    try:
        return sys.stdout is not None and sys.stdout.isatty()
    except ValueError:  # closed
        return False


def color(choice: str, output: str | None) -> bool:
    """Whether text output is coloured (see the module docstring for the order)."""
    if choice not in ("auto", "always", "never"):
        raise UsageError("--color must be auto, always or never")
    if choice != "auto":
        return choice == "always"
    if output not in (None, "-"):
        return False
    if os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("FORCE_COLOR", "0") not in ("", "0"):
        return True
    return _on_terminal()


def width(output: str | None) -> int:
    """Columns of text output: fixed for files and pipes, the terminal's otherwise."""
    if output not in (None, "-"):
        return FIXED_WIDTH
    columns = os.environ.get("COLUMNS", "")
    if columns.isdigit() and int(columns) > 0:
        return max(MIN_WIDTH, int(columns))
    if not _on_terminal():
        return FIXED_WIDTH
    return max(MIN_WIDTH, shutil.get_terminal_size((FIXED_WIDTH, 24)).columns)


def stderr_width() -> int | None:
    """Columns to wrap the lines said on stderr at: `COLUMNS` or stderr's terminal; None when
    stderr is a pipe or a file (a log keeps each warning on one line, for grep)."""
    columns = os.environ.get("COLUMNS", "")
    if columns.isdigit() and int(columns) > 0:
        return max(MIN_WIDTH, int(columns))
    try:
        if sys.stderr is None or not sys.stderr.isatty():
            return None
    except ValueError:
        return None
    return max(MIN_WIDTH, shutil.get_terminal_size((FIXED_WIDTH, 24)).columns)


__all__ = ["FIXED_WIDTH", "color", "stderr_width", "width"]
