"""The `python-sdk` verify driver: the PyPI `mcp` package's `Client` (measured on 2.3.0).

The client runs in a child interpreter (`--client-path`: a Python executable, default this
one) so another `mcp` release in another virtual environment can be verified, and the SDK's
stderr noise and any hang stay out of our process. A pydantic ValidationError on a page fails
the whole list, and its message is what we report.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

from catalogaudit.verify.base import ClientNotFound, ListOutcome, Target, run_job

SCRIPT = Path(__file__).with_name("python_sdk_client.py")


class PythonSdkDriver:
    """Drives `mcp.Client` in a child interpreter, one process for every catalog."""

    id = "python-sdk"
    #: `verify --transport http`: the job names each server's URL instead of its argv.
    transports = ("stdio", "http")

    def __init__(self, python: str | None = None, timeout: float = 60) -> None:
        self.python = python or sys.executable
        self.timeout = timeout

    def version(self) -> str:
        """`mcp`'s installed version in that interpreter."""
        code = "import importlib.metadata as m; print(m.version('mcp'))"
        try:
            proc = subprocess.run(
                [self.python, "-c", code], capture_output=True, text=True, timeout=60
            )
        except OSError as exc:
            raise ClientNotFound(f"python-sdk: cannot run {self.python}: {exc.strerror}") from None
        if proc.returncode != 0:
            raise ClientNotFound(f"python-sdk: the mcp package is not installed in {self.python}")
        return proc.stdout.strip()

    def run(self, targets: Sequence[Target]) -> list[list[ListOutcome]]:
        """List every target's listings with the SDK and parse its per-listing outcomes."""
        return run_job("python-sdk", [self.python, str(SCRIPT)], targets, self.timeout)


def driver(client_path: str | None) -> PythonSdkDriver:
    """The driver; `client_path` is a Python executable with `mcp` installed."""
    return PythonSdkDriver(client_path)
