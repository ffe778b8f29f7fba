"""An HTTP capture records how the server answered each request (`capture.http.answers`): JSON
or an SSE stream, per method, from real servers over real HTTP (the raw HTTP fixture server in
each era, and `catalogaudit serve --http` with and without `--sse`); CDX-XPORT-001 reads it."""

from __future__ import annotations

import json
import signal
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from helpers import PYTHON, cli, validate_snapshot
from helpers.rawservers import http_server, snapshot_ok

JSON, SSE = "application/json", "text/event-stream"
LISTS = ["tools/list", "prompts/list", "resources/list", "resources/templates/list"]
TOOL = {"name": "echo", "description": "Echo.", "inputSchema": {"type": "object"}}


@pytest.mark.parametrize("answer", ["json", "sse"])
@pytest.mark.parametrize("era", ["legacy", "modern"])
def test_raw_server_answers_are_recorded_per_method(tmp_path: Path, era: str, answer: str) -> None:
    with http_server(tmp_path, "--era", era, "--answer", answer) as server:
        doc, _ = snapshot_ok(tmp_path, "--url", server.url)
    kind = SSE if answer == "sse" else JSON
    expected = dict.fromkeys(["server/discover", *LISTS], kind)
    if era == "legacy":
        # The 2026-07-28 probe is refused with a JSON error body; initialize is answered.
        expected.update({"server/discover": JSON, "initialize": kind})
    assert doc["capture"]["http"] == {"answers": expected}
    validate_snapshot(doc)


@contextmanager
def serving(snapshot: Path, *opts: str) -> Iterator[str]:
    """`catalogaudit serve --http 0` on loopback; yields the URL it prints."""
    proc = subprocess.Popen(
        [PYTHON, "-m", "catalogaudit", "serve", str(snapshot), "--http", "0", *opts],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stderr is not None
        line = proc.stderr.readline()
        assert line.startswith("listening on "), line
        yield line.split()[-1]
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(10)


@pytest.mark.parametrize("sse", [False, True])
def test_serve_http_answers_and_the_codex_rule(tmp_path: Path, sse: bool) -> None:
    raw = tmp_path / "tools.json"
    raw.write_text(json.dumps({"tools": [TOOL]}), encoding="utf-8")
    static = tmp_path / "static.json"
    assert cli("snapshot", "--from", str(raw), "-o", str(static)).code == 0
    snap = tmp_path / "http.json"
    with serving(static, *(["--sse"] if sse else [])) as url:
        assert cli("snapshot", "--url", url, "-o", str(snap)).code == 0
    doc = json.loads(snap.read_text(encoding="utf-8"))
    kind = SSE if sse else JSON
    assert doc["capture"]["http"]["answers"] == dict.fromkeys(
        ["initialize", "server/discover", *LISTS], kind
    )
    validate_snapshot(doc)
    # The reported versions warn on SSE answers; 0.169.0, measured keeping them, does not.
    for profile, fires in (("codex@0.137.0", sse), ("codex@0.169.0", False)):
        out = cli("audit", str(snap), "--profile", profile, "--format", "json")
        found = [f for f in out.json()["findings"] if f["ruleId"] == "CDX-XPORT-001"]
        pointers = sorted(f["location"]["pointer"] for f in found)
        want = ["/capture/http/answers/initialize", "/capture/http/answers/tools~1list"]
        assert pointers == (want if fires else []), (profile, found)
        assert all(f["severity"] == "warning" for f in found)


def test_stdio_capture_records_no_http_answers(tmp_path: Path) -> None:
    raw = tmp_path / "tools.json"
    raw.write_text(json.dumps({"tools": [TOOL]}), encoding="utf-8")
    static = tmp_path / "static.json"
    assert cli("snapshot", "--from", str(raw), "-o", str(static)).code == 0
    snap = tmp_path / "stdio.json"
    serve = [PYTHON, "-m", "catalogaudit", "serve", str(static)]
    assert cli("snapshot", "-o", str(snap), "--", *serve).code == 0
    doc = json.loads(snap.read_text(encoding="utf-8"))
    assert doc["capture"]["transport"] == "stdio" and "http" not in doc["capture"]
