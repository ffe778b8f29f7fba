"""Helpers for tests that drive the raw fixture servers (fixtures/servers/raw*_server.py).

Shared by test_hostile.py, test_pagination.py and test_http_transport.py: start the HTTP raw
server on a free port, run `catalogaudit snapshot` into a file, check exit-2 runs (one line, the
old output untouched) and wait until the processes a server left in its pid file are gone.
"""

from __future__ import annotations

import contextlib
import json
import os
import select
import signal
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from helpers import PYTHON, Result, cli, cli_process, fixture, pid_alive, validate_snapshot

RAW = str(fixture("servers", "raw_server.py"))
RAW_HTTP = str(fixture("servers", "raw_http_server.py"))
#: Small limits for hostile servers: every run must end long before pytest's own timeout.
FAST = ("--startup-timeout", "3", "--request-timeout", "3", "--timeout", "10")
TOTAL_TIMEOUT = 10.0
#: Slack on top of --timeout: interpreter start-up, and the stdio shutdown sequence (close
#: stdin, 2 s, SIGTERM, 2 s, SIGKILL) that runs after the capture gave up.
MARGIN = 5.0
SENTINEL = "sentinel: an earlier snapshot that a failed run must not touch\n"
#: How `catalogaudit` names a stdio server started as `python raw_server.py ...`.
SERVER_NAME = f"server '{Path(PYTHON).name}'"


def raw(*args: str) -> list[str]:
    """The stdio raw server command line (after `--`)."""
    return [PYTHON, RAW, *args]


def snapshot_ok(
    tmp_path: Path, *args: str, name: str = "s.json", process: bool = False
) -> tuple[dict[str, Any], str]:
    """Run `snapshot -o FILE ARGS`, require exit 0 and a valid snapshot; return (doc, text).
    `process`: as a real process (what outlives the command is the point)."""
    out = tmp_path / name
    result = (cli_process if process else cli)("snapshot", "-o", str(out), *args)
    assert result.code == 0, str(result)
    assert "Traceback" not in result.stderr, str(result)
    text = out.read_text(encoding="utf-8")
    doc = json.loads(text)
    validate_snapshot(doc)
    return doc, text


def snapshot_fails(tmp_path: Path, *args: str) -> tuple[str, Result]:
    """Run `snapshot -o FILE ARGS` over an existing FILE; require the exit-2 contract.

    Exit 2, nothing on stdout, exactly one stderr line starting `error: ` and no traceback,
    and FILE still holds its old content. Returns the line (without `error: `) and the result.
    """
    out = tmp_path / "out.json"
    out.write_text(SENTINEL, encoding="utf-8")
    result = cli("snapshot", "-o", str(out), *args)
    assert result.code == 2, str(result)
    assert result.stdout == "", str(result)
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), str(result)
    assert "Traceback" not in result.stderr
    assert out.read_text(encoding="utf-8") == SENTINEL, "a failed run touched the output file"
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".out.json")) == []
    return lines[0][len("error: ") :], result


def read_pids(path: Path) -> list[int]:
    """The pids a raw server wrote with --pid-file (server first, then its child)."""
    assert path.exists(), f"the server never started: no {path}"
    return [int(line) for line in path.read_text().split()]


def assert_gone(pids: list[int], within: float = 2.0) -> None:
    """Every pid exits (or is a zombie) within `within` seconds."""
    deadline = time.monotonic() + within
    while True:
        alive = [p for p in pids if pid_alive(p)]
        if not alive:
            return
        if time.monotonic() > deadline:
            break
        time.sleep(0.05)
    for pid in alive:  # do not leak them into the rest of the session
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
    raise AssertionError(f"processes left behind: {alive}")


def records(path: Path) -> list[dict[str, Any]]:
    """What a raw server wrote with --record, one JSON object per line."""
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


@dataclass
class HttpServer:
    """A running raw_http_server.py."""

    proc: subprocess.Popen[bytes]
    port: int
    record: Path

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/mcp"

    def requests(self) -> list[dict[str, Any]]:
        return records(self.record)


@contextmanager
def http_server(tmp_path: Path, *args: str, name: str = "http") -> Iterator[HttpServer]:
    """Start raw_http_server.py on a port of its choosing (`--port 0`, read back `PORT=`)."""
    record = tmp_path / f"{name}-record.jsonl"
    errlog = tmp_path / f"{name}-stderr.txt"
    with open(errlog, "wb") as err:
        proc = subprocess.Popen(
            [PYTHON, RAW_HTTP, "--port", "0", "--record", str(record), *args],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=err,
        )
    try:
        port = _read_port(proc, errlog)
        yield HttpServer(proc, port, record)
    finally:
        proc.terminate()
        try:
            proc.wait(5)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(5)
        if proc.stdout:
            proc.stdout.close()


def _read_port(proc: subprocess.Popen[bytes], errlog: Path, timeout: float = 20) -> int:
    assert proc.stdout is not None
    fd = proc.stdout.fileno()
    buf = b""
    deadline = time.monotonic() + timeout
    while b"\n" not in buf:
        left = deadline - time.monotonic()
        if left <= 0 or not select.select([fd], [], [], left)[0]:
            raise AssertionError(f"raw_http_server printed no PORT=: {errlog.read_text()}")
        chunk = os.read(fd, 4096)
        if not chunk:
            raise AssertionError(f"raw_http_server exited: {errlog.read_text()}")
        buf += chunk
    line = buf.split(b"\n", 1)[0].decode()
    assert line.startswith("PORT="), line
    return int(line[len("PORT=") :])


def findings(doc: dict[str, Any], rule: str) -> list[dict[str, Any]]:
    """The snapshot's findings with one rule id."""
    return [f for f in doc["findings"] if f["ruleId"] == rule]


def counts(doc: dict[str, Any]) -> tuple[int | None, ...]:
    """Item counts of the four listings (None when absent)."""
    out = []
    for name in ("tools", "prompts", "resources", "resourceTemplates"):
        rec = doc["listings"][name]
        out.append(len(rec["items"]) if "items" in rec else None)
    return tuple(out)
