"""`serve --http PORT --transport sse` (issue 33 item 3): a capture of a real fastmcp server on
the HTTP+SSE transport of 2024-11-05 is replayed that way, byte for byte, to our own client
and to the `mcp` SDK's `sse_client`."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import anyio
import pytest
from helpers import PYTHON, cli, fixture, free_port, validate_snapshot, wait_port

SERVE = [PYTHON, "-m", "catalogaudit", "serve"]


@contextmanager
def running(argv: list[str], port: int) -> Iterator[None]:
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_port(port, proc)
        yield
    finally:
        proc.terminate()
        proc.wait(10)


def snap(out: Path, *args: str) -> dict[str, Any]:
    got = cli("snapshot", "-o", str(out), *args)
    assert got.code == 0, str(got)
    doc = json.loads(out.read_text(encoding="utf-8"))
    validate_snapshot(doc)
    return doc


@pytest.mark.parametrize("protocol", ["auto", "legacy"])
def test_an_sse_capture_replays_over_sse_as_captured(tmp_path: Path, protocol: str) -> None:
    port = free_port()
    server = [PYTHON, str(fixture("servers", "fastmcp_server.py")), "sse", str(port)]
    with running(server, port):
        first = snap(
            tmp_path / "a.json", "--protocol", protocol, "--url", f"http://127.0.0.1:{port}/sse"
        )
    assert first["capture"]["transport"] == "sse"
    port = free_port()
    replay = [*SERVE, str(tmp_path / "a.json"), "--http", str(port), "--transport", "sse"]
    with running([*replay, "--max-seconds", "120"], port):
        url = f"http://127.0.0.1:{port}/sse"
        again = snap(tmp_path / "b.json", "--protocol", protocol, "--url", url)
        # a POST to /sse is not the transport; auto-detection still finds it
        refused = cli("snapshot", "--transport", "streamable-http", "--url", url)
    assert again["capture"]["transport"] == "sse"
    assert again["capture"]["protocol"] == first["capture"]["protocol"]
    assert again["wire"]["pages"] == first["wire"]["pages"]
    assert again["hashes"] == first["hashes"]
    assert refused.code == 2 and "--transport sse" in refused.stderr, str(refused)


async def _tool_names(url: str) -> list[str]:
    from mcp import Client
    from mcp.client.sse import sse_client

    with anyio.fail_after(60):
        async with Client(sse_client(url), mode="auto", cache=None) as client:  # type: ignore[arg-type]
            listed = await client.list_tools()
    return [tool.name for tool in listed.tools]


def test_the_sdk_sse_client_lists_the_replayed_tools() -> None:
    snapshot = fixture("captures", "example-server.snapshot.json")
    served = json.loads(snapshot.read_text())["listings"]["tools"]["items"]
    port = free_port()
    argv = [
        *SERVE,
        str(snapshot),
        "--http",
        str(port),
        "--transport",
        "sse",
        "--max-seconds",
        "120",
    ]
    with running(argv, port):
        names = anyio.run(_tool_names, f"http://127.0.0.1:{port}/sse")
    assert sorted(names) == sorted(t["name"] for t in served)


def test_transport_sse_needs_http() -> None:
    snapshot = str(fixture("captures", "example-server.snapshot.json"))
    got = cli("serve", snapshot, "--transport", "sse")
    assert got.code == 2 and "--transport sse needs --http" in got.stderr, str(got)
