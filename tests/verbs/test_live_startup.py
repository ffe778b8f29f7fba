"""A live snapshot spawns its server before it loads what only the written document needs.

Why: the command waits for the server to start, so every module imported before the spawn
delays it end to end (bench/run.py, the live rows); those modules load while it starts.
"""

from __future__ import annotations

import subprocess

import pytest
from helpers import PYTHON, SERVERS

#: Loaded only after the server is spawned (`verbs.snapshot._prepare`, `wire.capture`); typer,
#: which parses the command line first, comes before.
LATER = (
    "catalogaudit.snapshots.build",
    "catalogaudit.intake",
    "catalogaudit.model.catalog",
    "catalogaudit.canonical.hashes",
    "catalogaudit.wire.handshake",
    "catalogaudit.wire.listing",
    "rich",
)

#: Records which of LATER are loaded when the server process is created, then runs the CLI.
PROBE = """
import subprocess, sys
LATER = {later!r}
seen = []
original = subprocess.Popen.__init__
def init(self, args, *a, **k):
    if not seen and 'example_server' in ' '.join(map(str, args)):
        seen.append(sorted(m for m in LATER if m in sys.modules))
    original(self, args, *a, **k)
subprocess.Popen.__init__ = init
from catalogaudit.cli import main
try:
    code = main({args!r})
except SystemExit as exc:
    code = exc.code
print('CODE', code)
print('AT SPAWN', seen)
"""


@pytest.mark.parametrize("runs", [[], ["--runs", "2", "--jobs", "2"]], ids=["one", "runs"])
def test_the_server_starts_before_the_document_modules_load(runs: list[str]) -> None:
    args = ["snapshot", *runs, "-o", "-", "--", PYTHON, str(SERVERS / "example_server.py"), "stdio"]
    code = PROBE.format(later=LATER, args=args)
    proc = subprocess.run([PYTHON, "-c", code], capture_output=True, text=True, check=False)
    said = proc.stdout.splitlines()
    assert said[-2:] == ["CODE 0", "AT SPAWN [[]]"], proc.stdout[-2000:] + proc.stderr
    assert '"formatVersion": 1' in proc.stdout  # and the snapshot was written after all
