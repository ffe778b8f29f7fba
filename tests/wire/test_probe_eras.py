"""The `server/discover` probe against servers that answer it late or die on it (issue 33
items 1 and 2): both are captured by default, in the era they speak."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from helpers import PYTHON, validate_snapshot
from helpers.rawservers import assert_gone, findings, http_server, raw, read_pids, snapshot_ok

TIME_SERVER = str(Path(sys.executable).parent / "mcp-server-time")

#: `catalogaudit` with the probe's own wait cut to 1 s, so a server that starts in 2 s answers
#: it late without the test waiting the real 10 s (`--startup-timeout` stays 30 s).
SHORT_PROBE = (
    "import sys\n"
    "from catalogaudit.wire import handshake\n"
    "handshake.DISCOVER_PROBE_TIMEOUT = 1.0\n"
    "from catalogaudit.cli import main\n"
    "sys.exit(main())\n"
)


def test_a_late_answer_to_the_probe_is_a_modern_answer(tmp_path: Path) -> None:
    """mcp-server-time (mcp 2.3.0, a 2026-07-28 server) started 2 s late: the probe gives up
    after 1 s and `initialize` is sent, then the server answers the queued probe and refuses
    `initialize` with -32022. Before the fix: exit 2, `initialize: -32022 ...`."""
    out = tmp_path / "s.json"
    server = f"sleep 2; exec {TIME_SERVER}"
    proc = subprocess.run(
        [PYTHON, "-c", SHORT_PROBE, "snapshot", "-o", str(out), "--", "sh", "-c", server],
        capture_output=True,
        text=True,
        timeout=90,
    )
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(out.read_text(encoding="utf-8"))
    validate_snapshot(doc)
    proto = doc["capture"]["protocol"]
    assert (proto["era"], proto["negotiated"], proto["handshake"]) == (
        "modern",
        "2026-07-28",
        "server/discover",
    )
    # what a warm start records: the probe was answered, nothing fell back
    assert proto["offered"] == ["2026-07-28"]
    assert findings(doc, "CA520") == []
    assert {t["name"] for t in doc["listings"]["tools"]["items"]} == {
        "get_current_time",
        "convert_time",
    }


def test_a_server_that_dies_on_the_probe_is_captured_in_the_legacy_era(tmp_path: Path) -> None:
    """A server that exits on a method it does not know (the raw JSON-RPC fixture with
    --exit-on-unknown; mcp 1.6.0, chroma-mcp 0.2.6's SDK, exits only on its next line: see
    test_probe_real_mcp16.py) is started again and captured with `initialize`, and CA520 says
    so. Before the fix: exit 2,
    `server/discover: the server exited with status 1`, no word of `--protocol legacy`."""
    pid_file = tmp_path / "pids"
    server = raw("--era", "legacy", "--exit-on-unknown", "--pid-file", str(pid_file))
    doc, _ = snapshot_ok(tmp_path, "--", *server)
    proto = doc["capture"]["protocol"]
    assert (proto["era"], proto["negotiated"], proto["requested"]) == (
        "legacy",
        "2025-11-25",
        "auto",
    )
    assert len(doc["listings"]["tools"]["items"]) == 3
    (note,) = findings(doc, "CA520")
    assert "server/discover the server exited with status 1" in note["message"]
    assert "started it again" in note["message"]
    assert "--protocol legacy" in note["message"]
    assert_gone(read_pids(pid_file))  # the second start wrote the file; it is gone too


def test_a_slow_modern_http_server_refusing_initialize_is_asked_again(tmp_path: Path) -> None:
    """Over HTTP a late answer is lost with its POST: a cold 2026-07-28 server (the raw HTTP
    fixture, first answer 3 s late) leaves the 2 s probe unanswered, refuses `initialize`
    with -32022, and is asked `server/discover` again. Before the fix: exit 2 on -32022."""
    with http_server(tmp_path, "--era", "modern", "--slow-first", "3") as server:
        doc, _ = snapshot_ok(tmp_path, "--startup-timeout", "4", "--url", server.url)
    proto = doc["capture"]["protocol"]
    assert (proto["era"], proto["negotiated"]) == ("modern", "2026-07-28")
    assert findings(doc, "CA520") == []
    assert len(doc["listings"]["tools"]["items"]) == 3
