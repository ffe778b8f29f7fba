"""Hostile servers: every failure ends in time, says what happened in one line, writes nothing
and leaves no process behind; odd but survivable behaviour lands in the snapshot's findings."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from helpers import PYTHON, free_port
from helpers.rawservers import (
    FAST,
    MARGIN,
    SENTINEL,
    SERVER_NAME,
    TOTAL_TIMEOUT,
    assert_gone,
    counts,
    findings,
    http_server,
    raw,
    read_pids,
    records,
    snapshot_fails,
    snapshot_ok,
)

# (raw_server flags, extra snapshot options, phrases the one error line must contain)
FAILING = [
    pytest.param(["--hang"], [], ["initialize", "no answer within 3s"], id="hang"),
    pytest.param(
        ["--exit-now"],
        [],
        ["server/discover", "exited with status 3", "--exit-now given"],
        id="exit-now",
    ),
    pytest.param(
        ["--crash-after-init"],
        [],
        ["tools/list", "exited with status 1", "RuntimeError: simulated crash after initialize"],
        id="crash-after-init",
    ),
    pytest.param(
        ["--flood"],
        [],
        ["tools/list", "no answer within 3s", "non-JSON-RPC lines", "FLOOD this line"],
        id="flood",
    ),
    pytest.param(
        ["--flood-noline"],
        ["--max-message-size", "1048576"],
        ["tools/list", "exceeded 1048576 bytes"],
        id="flood-noline",
    ),
    pytest.param(
        ["--malformed"],
        [],
        ["tools/list", "no answer within 3s", "1 non-JSON-RPC line", '{"jsonrpc":"2.0","id":'],
        id="malformed",
    ),
    pytest.param(
        ["--endless-cursor", "--page-size", "2"],
        ["--max-pages", "5"],
        ["tools/list", "still paginating after 5 pages"],
        id="endless-cursor",
    ),
    pytest.param(
        ["--ignore-eof", "--hang"],
        [],
        ["initialize", "no answer within 3s"],
        id="ignore-eof-hang",
    ),
    pytest.param(
        ["--spawn-child", "--hang"],
        [],
        ["initialize", "no answer within 3s"],
        id="spawn-child-hang",
    ),
    pytest.param(
        ["--spawn-child", "--ignore-eof", "--crash-after-init"],
        [],
        ["tools/list", "exited with status 1"],
        id="spawn-child-crash",
    ),
]


@pytest.mark.parametrize(("flags", "options", "phrases"), FAILING)
def test_hostile_stdio_server_fails_cleanly(
    tmp_path: Path, flags: list[str], options: list[str], phrases: list[str]
) -> None:
    pid_file = tmp_path / "pids"
    line, result = snapshot_fails(
        tmp_path, *FAST, *options, "--", *raw(*flags, "--pid-file", str(pid_file))
    )
    assert result.seconds < TOTAL_TIMEOUT + MARGIN, result.seconds
    assert line.startswith(f"{SERVER_NAME}, "), line
    for phrase in phrases:
        assert phrase in line, line
    pids = read_pids(pid_file)
    assert len(pids) == (2 if "--spawn-child" in flags else 1)
    assert_gone(pids)


def test_a_quick_failure_is_quick(tmp_path: Path) -> None:
    line, result = snapshot_fails(tmp_path, *FAST, "--", *raw("--exit-now"))
    assert "exited with status 3" in line
    assert result.seconds < 5, result.seconds


def test_a_flood_does_not_slow_the_shutdown(tmp_path: Path) -> None:
    """After the 3 s request timeout, closing a flooding server takes its grace periods only.

    The reader thread handling the flood once won the GIL back after each small read of the
    /proc walk that finds the server's descendants: this run took 4.6 to 18.9 s (CI: 16.7 s)."""
    line, result = snapshot_fails(tmp_path, *FAST, "--", *raw("--flood"))
    assert "tools/list: no answer within 3s" in line, line
    # 3 s request timeout; then 0.5 s for an EOF exit, SIGTERM; measured 3.6 to 5.1 s
    assert result.seconds < 3 + 5, result.seconds


def test_the_total_timeout_covers_the_handshake(tmp_path: Path) -> None:
    """--timeout bounds the discover probe and initialize together, not each of them."""
    args = ("--startup-timeout", "30", "--request-timeout", "3", "--timeout", "4")
    line, result = snapshot_fails(tmp_path, *args, "--", *raw("--hang"))
    # the start-up time is cut to the 4 s; the probe had 2 s of it, initialize the rest
    assert line.endswith(
        "initialize: no answer within 4s (--startup-timeout; server/discover got none)"
    ), line
    # Without the shared deadline this run took 10 s (probe) + 30 s (initialize).
    assert result.seconds < 4 + 3, result.seconds


@pytest.mark.parametrize(
    "server", [pytest.param(raw("--hang"), id="hang"), pytest.param(["sleep", "60"], id="sleep")]
)
def test_the_startup_timeout_covers_the_whole_handshake(tmp_path: Path, server: list[str]) -> None:
    """A silent server fails after --startup-timeout, not after the probe's and initialize's.

    `sleep` also ignores stdin EOF: after a failed capture it gets a short grace, then SIGTERM.
    """
    line, result = snapshot_fails(tmp_path, "--startup-timeout", "5", "--", *server)
    assert "initialize: no answer within 5s" in line, line
    # 12 s before: 5 s probe, 5 s initialize, then 2 s for an exit on stdin EOF
    # (the 3 s margin is for a loaded machine; before the fix it took 10.5 s and 12.3 s)
    assert result.seconds < 5 + 3, result.seconds


def test_spawned_child_is_reaped_on_success(tmp_path: Path) -> None:
    pid_file = tmp_path / "pids"
    doc, _ = snapshot_ok(tmp_path, "--", *raw("--spawn-child", "--pid-file", str(pid_file)))
    assert counts(doc) == (3, 2, 4, 1)
    assert findings(doc, "CA513") == []  # the server itself exited on EOF
    pids = read_pids(pid_file)
    assert len(pids) == 2
    assert_gone(pids)


def test_server_ignoring_eof_is_killed_and_reported(tmp_path: Path) -> None:
    pid_file = tmp_path / "pids"
    args = ("--", *raw("--ignore-eof", "--pid-file", str(pid_file)))
    started = time.monotonic()
    doc, _ = snapshot_ok(tmp_path, *FAST, *args)
    # close stdin, wait 2 s, SIGTERM (ignored), wait 2 s, SIGKILL
    assert time.monotonic() - started < 4 + MARGIN
    assert counts(doc) == (3, 2, 4, 1)
    (finding,) = findings(doc, "CA513")
    assert finding["severity"] == "warning"
    assert_gone(read_pids(pid_file))


def test_banner_lines_are_counted_and_quoted(tmp_path: Path) -> None:
    doc, _ = snapshot_ok(tmp_path, *FAST, "--", *raw("--banner"))
    (finding,) = findings(doc, "CA510")
    assert finding["extra"]["count"] == 2
    assert "2 lines" in finding["message"]
    first = "raw_server fixture starting (this banner line is not JSON)"
    assert repr(first) in finding["message"]
    assert finding["extra"]["lines"][0] == first
    assert counts(doc) == (3, 2, 4, 1)
    names = [t["name"] for t in doc["listings"]["tools"]["items"]]
    assert names == ["tool_000", "tool_001", "tool_002"]


def test_one_banner_line_is_singular(tmp_path: Path) -> None:
    doc, _ = snapshot_ok(tmp_path, *FAST, "--", *raw("--one-banner"))
    (finding,) = findings(doc, "CA510")
    assert finding["extra"]["count"] == 1
    assert finding["message"].startswith(
        "the server wrote 1 line that is not a JSON-RPC message to stdout"
    ), finding


def test_repeated_cursor_stops_with_ca533(tmp_path: Path) -> None:
    doc, _ = snapshot_ok(tmp_path, *FAST, "--", *raw("--repeat-cursor", "--page-size", "2"))
    rules = findings(doc, "CA533")
    assert {f["kind"] for f in rules} == {"tools", "prompts", "resources", "resourceTemplates"}
    tools = next(f for f in rules if f["kind"] == "tools")
    assert tools["pointer"] == "/nextCursor" and tools["page"] == 1
    assert tools["severity"] == "error"
    assert len(doc["listings"]["tools"]["pages"]) == 2  # stopped instead of looping
    assert doc["listings"]["tools"]["status"] == "partial"
    assert counts(doc) == (3, 2, 4, 1)


def test_duplicate_across_pages_is_ca534_with_the_identity(tmp_path: Path) -> None:
    doc, _ = snapshot_ok(tmp_path, *FAST, "--", *raw("--dup-across-pages", "--page-size", "2"))
    by_kind = {f["kind"]: f for f in findings(doc, "CA534")}
    assert set(by_kind) == {"tools", "resources"}  # prompts 2, templates 1: one page only
    assert by_kind["tools"]["identity"] == "tool_001"
    assert by_kind["tools"]["page"] == 1
    assert by_kind["resources"]["identity"] == "file:///fixture/resource_001.txt"
    tools = doc["listings"]["tools"]
    names = [t["name"] for t in tools["items"]]
    assert names == ["tool_000", "tool_001", "tool_001", "tool_002"]  # both copies kept
    assert tools["servedPositions"] == [0, 1, 2, 3]


def test_list_changed_is_ca511(tmp_path: Path) -> None:
    doc, _ = snapshot_ok(tmp_path, *FAST, "--", *raw("--list-changed"))
    (finding,) = findings(doc, "CA511")
    assert finding["extra"]["notifications"] == {"notifications/tools/list_changed": 1}
    assert doc["capture"]["serverCapabilities"]["tools"] == {"listChanged": True}
    assert counts(doc) == (3, 2, 4, 1)


@pytest.mark.parametrize("caps", ["none", "full"])
def test_server_requests_are_answered(tmp_path: Path, caps: str) -> None:
    record = tmp_path / "received.jsonl"
    doc, _ = snapshot_ok(
        tmp_path,
        *FAST,
        "--client-capabilities",
        caps,
        "--",
        *raw("--server-requests", "--record", str(record)),
    )
    (finding,) = findings(doc, "CA512")
    assert finding["extra"]["requests"] == {"ping": 1, "roots/list": 1, "sampling/createMessage": 1}
    # The fixture answers tools/list with an error unless every reply passed its checks.
    assert doc["listings"]["tools"]["status"] == "ok"
    assert counts(doc)[0] == 3
    replies = {
        r["message"]["id"]: r["message"]
        for r in records(record)
        if "message" in r and "method" not in r["message"]
    }
    assert replies[9001]["result"] == {}
    if caps == "full":
        assert replies[9002]["result"] == {"roots": []}
    else:
        assert replies[9002]["error"]["code"] == -32601
    assert replies[9003]["error"]["code"] == -32601  # we never sample


# --- HTTP -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("flags", "phrases"),
    [
        pytest.param(
            ["--status", "500"], ["HTTP 500", "body: 500 Internal Server Error"], id="500"
        ),
        pytest.param(["--status", "401"], ["HTTP 401", "body: 401 Unauthorized"], id="401"),
        pytest.param(
            ["--html"],
            ["HTTP 200", "text/html", "not JSON or SSE", "<title>Sign in</title>"],
            id="html",
        ),
        pytest.param(["--hang"], ["initialize", "no answer within 3s"], id="hang"),
        pytest.param(["--echo"], ["the body repeats our own server/discover request"], id="echo"),
    ],
)
def test_hostile_http_server_fails_cleanly(
    tmp_path: Path, flags: list[str], phrases: list[str]
) -> None:
    with http_server(tmp_path, *flags) as server:
        line, result = snapshot_fails(tmp_path, *FAST, "--url", server.url)
    assert result.seconds < TOTAL_TIMEOUT + MARGIN, result.seconds
    assert line.startswith(f"server at {server.url}, "), line
    if "--hang" not in flags:
        assert "server/discover" in line, line
        assert result.seconds < 5, result.seconds
    for phrase in phrases:
        assert phrase in line, line


def test_a_command_that_echoes_our_requests_is_named_so(tmp_path: Path) -> None:
    """`cat` sends our own lines back; they are neither its requests nor its errors."""
    line, result = snapshot_fails(tmp_path, *FAST, "--", "cat")
    assert line == (
        "server 'cat', server/discover: stdout repeats our own server/discover request instead "
        "of answering (the command echoes its input: is it an MCP server?)"
    ), line
    assert result.seconds < 5, result.seconds


def test_server_text_in_an_error_line_is_inert(tmp_path: Path) -> None:
    """A stderr tail with terminal escapes is quoted with the escapes shown, not obeyed."""
    crash = "printf '\\033[2J\\033]0;owned\\007boom\\n' >&2; exit 3"
    line, result = snapshot_fails(tmp_path, *FAST, "--", "sh", "-c", crash)
    assert line.endswith("exited with status 3; stderr: \\x1b[2J\\x1b]0;owned\\x07boom"), line
    assert "\x1b" not in result.stderr and "\x07" not in result.stderr


def test_missing_command_is_one_line(tmp_path: Path) -> None:
    line, result = snapshot_fails(tmp_path, *FAST, "--", "catalogaudit-no-such-server-xyz")
    assert line == "cannot start server 'catalogaudit-no-such-server-xyz': command not found"
    assert result.seconds < 5


def test_closed_port_is_one_line(tmp_path: Path) -> None:
    url = f"http://127.0.0.1:{free_port()}/mcp"
    line, result = snapshot_fails(tmp_path, *FAST, "--url", url)
    assert line.startswith(f"server at {url}, server/discover: cannot connect"), line
    assert result.seconds < 5


# --- signals ----------------------------------------------------------------------------------


def _wait_for(predicate: Callable[[], bool], timeout: float = 20) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, "timed out waiting"
        time.sleep(0.05)


def _sigterm_catalogaudit(tmp_path: Path, flags: list[str], ready: Callable[[], bool]) -> None:
    """Snapshot `raw_server FLAGS`, SIGTERM us 0.5 s after `ready()`; nothing may be left."""
    out = tmp_path / "out.json"
    out.write_text(SENTINEL)
    pid_file = tmp_path / "pids"
    long = ("--startup-timeout", "60", "--request-timeout", "60", "--timeout", "120")
    server = raw(*flags, "--spawn-child", "--pid-file", str(pid_file))
    proc = subprocess.Popen(
        [PYTHON, "-m", "catalogaudit", "snapshot", "-o", str(out), *long, "--", *server],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        _wait_for(pid_file.exists)
        _wait_for(ready)
        time.sleep(0.5)
        assert proc.poll() is None, "catalogaudit ended before the signal"
        pids = read_pids(pid_file)
        assert len(pids) == 2
        started = time.monotonic()
        proc.send_signal(signal.SIGTERM)
        _, stderr = proc.communicate(timeout=15)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert time.monotonic() - started < 6
    assert proc.returncode == 2
    assert stderr.strip().splitlines() == [
        "error: terminated by SIGTERM; no partial file written"
    ], stderr
    assert out.read_text() == SENTINEL
    assert_gone(pids)


def test_sigterm_while_waiting_leaves_no_server(tmp_path: Path) -> None:
    started = time.monotonic()
    _sigterm_catalogaudit(tmp_path, ["--hang"], lambda: time.monotonic() - started > 1.0)


def test_sigterm_during_shutdown_leaves_no_server(tmp_path: Path) -> None:
    """SIGTERM while we wait for a server that ignores EOF and SIGTERM to exit."""
    record = tmp_path / "received.jsonl"

    def capture_done() -> bool:
        try:
            got = [r.get("message", {}).get("method") for r in records(record)]
        except ValueError:  # a line being written
            return False
        return "resources/templates/list" in got

    _sigterm_catalogaudit(tmp_path, ["--ignore-eof", "--record", str(record)], capture_done)


def test_a_good_run_replaces_the_old_file(tmp_path: Path) -> None:
    """The counterpart of the sentinel checks in snapshot_fails: success does replace it."""
    out = tmp_path / "out.json"
    out.write_text(SENTINEL)
    doc, _ = snapshot_ok(tmp_path, *FAST, "--", *raw(), name="out.json")
    assert out.read_text() != SENTINEL
    assert json.loads(out.read_text()) == doc
    assert not [p for p in os.listdir(tmp_path) if p.endswith(".tmp")]
