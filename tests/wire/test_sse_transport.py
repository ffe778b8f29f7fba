"""The HTTP+SSE transport of 2024-11-05 (issue 33 item 3): `snapshot --url` captures real
`mcp` and `fastmcp` servers run with `transport="sse"`, found by the spec's backward
compatibility rule (a POST refused with 405, then a GET whose first event is `endpoint`) or
asked for with `--transport sse`, within the same bounds as Streamable HTTP."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from helpers import PYTHON, cli, fixture, free_port, validate_snapshot, wait_port


@contextmanager
def sdk_server(script: str, mode: str) -> Iterator[str]:
    """One of the SDK fixture servers on a free port; yields its base URL."""
    port = free_port()
    proc = subprocess.Popen(
        [PYTHON, str(fixture("servers", script)), mode, str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        wait_port(port, proc)
        yield f"http://127.0.0.1:{port}"
    finally:
        proc.terminate()
        proc.wait(10)


def snap(tmp_path: Path, *args: str, name: str = "s.json") -> dict[str, Any]:
    out = tmp_path / name
    got = cli("snapshot", "-o", str(out), *args)
    assert got.code == 0, str(got)
    doc = json.loads(out.read_text(encoding="utf-8"))
    validate_snapshot(doc)
    return doc


@pytest.mark.parametrize("script", ["example_server.py", "fastmcp_server.py"])
@pytest.mark.parametrize("protocol", ["auto", "legacy"])
def test_an_sse_server_is_found_and_captured_as_over_streamable_http(
    tmp_path: Path, script: str, protocol: str
) -> None:
    """Before: `error: ... server/discover: HTTP 405; body: Method Not Allowed`."""
    with sdk_server(script, "http") as base:
        http = snap(tmp_path, "--protocol", protocol, "--url", f"{base}/mcp", name="h.json")
    with sdk_server(script, "sse") as base:
        sse = snap(tmp_path, "--protocol", protocol, "--url", f"{base}/sse")
    assert sse["capture"]["transport"] == "sse"
    assert sse["capture"]["server"]["url"].endswith("/sse")
    assert sse["capture"]["protocol"] == http["capture"]["protocol"]
    assert sse["hashes"] == http["hashes"]
    assert sse["wire"]["pages"] == http["wire"]["pages"]
    assert "http" not in sse["capture"]  # Content-Types of Streamable HTTP answers only


def test_transport_sse_is_asked_for_and_refused_clearly(tmp_path: Path) -> None:
    with sdk_server("fastmcp_server.py", "sse") as base:
        doc = snap(tmp_path, "--transport", "sse", "--url", f"{base}/sse")
        assert doc["capture"]["transport"] == "sse"
        assert len(doc["listings"]["tools"]["items"]) == 3
        # the stream is bounded like any answer: the tools page is over 1,024 bytes
        got = cli("snapshot", "--max-message-size", "1024", "--url", f"{base}/sse")
        assert got.code == 2, str(got)
        assert got.stderr.count("\n") == 1 and "exceeded 1024 bytes" in got.stderr, got
        got = cli("snapshot", "--transport", "streamable-http", "--url", f"{base}/sse")
        assert got.code == 2 and "HTTP 405" in got.stderr, str(got)
        assert "--transport sse" in got.stderr
        got = cli("snapshot", "--url", f"{base}/nowhere")
        assert got.code == 2 and "no HTTP+SSE server either" in got.stderr, str(got)
    got = cli("snapshot", "--transport", "sse", "--", PYTHON, "-c", "pass")
    assert got.code == 2 and "--transport applies to --url only" in got.stderr, str(got)
