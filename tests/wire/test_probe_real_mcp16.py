"""Issue 33 item 2 with the real server: a FastMCP server on the MCP Python SDK `mcp==1.6.0`
(chroma-mcp 0.2.6's SDK), installed into a cached venv. Unlike the raw fixture's
--exit-on-unknown (tests/wire/test_probe_eras.py), mcp 1.6.0 does not exit on the probe: its
session fails (a traceback on stderr), stdout stays silent, and the process exits with status 1
only when it reads its next line. So the probe times out, the fallback `initialize` is what it
dies of, and the capture starts it again without the probe (CA520 says so)."""

from __future__ import annotations

import fcntl
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from helpers import SERVERS, cli
from helpers.rawservers import assert_gone, findings, read_pids, snapshot_ok

pytestmark = [pytest.mark.slow_install, pytest.mark.timeout(900)]

#: mcp 1.6.0 does not bound pydantic, and pydantic 2.11 removed a private name it imports.
PINS = ("mcp==1.6.0", "pydantic==2.10.6")
SERVER = str(SERVERS / "mcp16_server.py")
TOOLS = {"add", "echo", "count_words"}
PROBE = b'{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{}}\n'


def _cache() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "catalogaudit" / "test-servers"


@pytest.fixture(scope="module")
def mcp16() -> str:
    """The pinned venv's python, built once (under a lock: xdist workers share the cache)."""
    root = _cache()
    root.mkdir(parents=True, exist_ok=True)
    venv = root / "mcp-1.6.0"
    python = venv / "bin" / "python"
    stamp = venv / "catalogaudit-pins.txt"
    with open(root / "mcp-1.6.0.lock", "w", encoding="ascii") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not stamp.exists() or stamp.read_text(encoding="ascii") != "\n".join(PINS):
            subprocess.run([sys.executable, "-m", "venv", "--clear", str(venv)], check=True)
            proc = subprocess.run(
                [str(python), "-m", "pip", "install", "-q", *PINS],
                capture_output=True,
                text=True,
                timeout=600,
            )
            if proc.returncode != 0:
                why = f"pip install {' '.join(PINS)} failed: {proc.stderr[-2000:]}"
                if os.environ.get("CI"):
                    pytest.fail(why)
                pytest.skip(why)
            stamp.write_text("\n".join(PINS), encoding="ascii")
    return str(python)


def test_mcp16_fails_its_session_on_the_probe_and_lingers(mcp16: str) -> None:
    """The premise, observed on the pinned server: no answer, a validation traceback naming
    the method, still alive; the next line it reads ends it with status 1."""
    proc = subprocess.Popen(
        [mcp16, SERVER], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    try:
        assert proc.stdin is not None
        proc.stdin.write(PROBE)
        proc.stdin.flush()
        time.sleep(3)
        assert proc.poll() is None, "mcp 1.6.0 now exits on the probe itself"
        proc.stdin.write(b"\n")
        proc.stdin.flush()
        out, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 1
    assert out == b""
    assert b"input_value='server/discover'" in err


def test_mcp16_is_captured_by_default_in_the_legacy_era(mcp16: str, tmp_path: Path) -> None:
    """What issue 33 asks: captured without `--protocol legacy`, with CA520 saying why, and
    no server left behind. Before: exit 2, `initialize: the server exited with status 1`."""
    pid_file = tmp_path / "pids"
    doc, _ = snapshot_ok(tmp_path, "--", mcp16, SERVER, "--pid-file", str(pid_file))
    proto = doc["capture"]["protocol"]
    assert (proto["era"], proto["requested"]) == ("legacy", "auto")
    assert {t["name"] for t in doc["listings"]["tools"]["items"]} == TOOLS
    (note,) = findings(doc, "CA520")
    assert "--protocol legacy" in note["message"]
    assert_gone(read_pids(pid_file))


def test_mcp16_audit_live_by_default(mcp16: str, tmp_path: Path) -> None:
    """`audit --live` shares the capture: the same server, the same default."""
    pid_file = tmp_path / "pids"
    result = cli("audit", "--live", "--", mcp16, SERVER, "--pid-file", str(pid_file))
    try:
        assert result.code == 0, str(result)
        assert "CA520" in result.stdout
    finally:
        assert_gone(read_pids(pid_file))


def test_mcp16_is_captured_with_protocol_legacy(mcp16: str, tmp_path: Path) -> None:
    """The workaround the issue names works on the real server, and no start is left over."""
    pid_file = tmp_path / "pids"
    doc, _ = snapshot_ok(
        tmp_path, "--protocol", "legacy", "--", mcp16, SERVER, "--pid-file", str(pid_file)
    )
    proto = doc["capture"]["protocol"]
    assert (proto["era"], proto["handshake"], proto["negotiated"]) == (
        "legacy",
        "initialize",
        "2024-11-05",
    )
    assert {t["name"] for t in doc["listings"]["tools"]["items"]} == TOOLS
    assert findings(doc, "CA520") == []
    assert_gone(read_pids(pid_file))
