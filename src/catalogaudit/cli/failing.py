"""The one-line error every expected failure ends in (both parsers print it the same way)."""

from __future__ import annotations

import sys
from typing import NoReturn


def fail(message: str) -> NoReturn:
    """One `error:` line on stderr, exit 2."""
    # NOTE: messages quote servers (bodies, stderr tails, lines): controls are shown escaped,
    # so no byte a server chose reaches the terminal and the error stays one line. Both
    # imports are lazy: every start-up imports this module.
    from catalogaudit.model import EXIT_ERROR, visible

    sys.stderr.write(f"error: {visible(message, keep='')}\n")
    sys.stderr.flush()
    raise SystemExit(EXIT_ERROR)
