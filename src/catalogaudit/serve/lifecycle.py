"""Clean ends of a long-running verb (`serve`, `proxy`): SIGTERM, a deadline, stdin EOF."""

from __future__ import annotations

import signal
import sys
from typing import Any


class Stopped(Exception):
    """SIGTERM or `--max-seconds`: the clean ends of a serve run (exit 0)."""


def on_sigterm(signum: int, frame: Any) -> None:
    """Raised in the main thread, so the transport's `finally` blocks close everything."""
    signal.signal(signal.SIGTERM, signal.SIG_IGN)  # a second one must not cut the cleanup
    raise Stopped("stopped by SIGTERM")


def install_sigterm() -> None:
    """Replace the CLI's SIGTERM handler (which reports an error) with a clean stop."""
    try:
        signal.signal(signal.SIGTERM, on_sigterm)
    except ValueError:
        pass  # not the main thread (embedded use)


def stopped(reason: str, verb: str = "serve") -> int:
    """Say why serving ended (stderr; stdout belongs to the protocol) and exit 0."""
    sys.stderr.write(f"catalogaudit {verb}: {reason}\n")
    sys.stderr.flush()
    return 0
