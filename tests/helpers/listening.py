"""A `catalogaudit` process that listens (`serve --http`, `proxy --listen`): started, its URL
read from its `listening on URL` stderr line, and ended by SIGTERM after."""

from __future__ import annotations

import signal
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager

from helpers import PYTHON


@contextmanager
def listening(*args: str) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """`catalogaudit ARGS`: its URL and process; SIGTERMed when the block ends."""
    proc = subprocess.Popen(
        [PYTHON, "-m", "catalogaudit", *args], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    assert proc.stderr is not None
    try:
        while True:
            line = proc.stderr.readline().decode()
            assert line, f"{args[0]} ended before listening"
            if line.startswith("listening on "):
                break
        yield line.split()[-1], proc
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
        proc.wait(30)
