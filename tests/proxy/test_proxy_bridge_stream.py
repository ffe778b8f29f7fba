"""`proxy --url URL` (a stdio client in front of a Streamable HTTP server) relays what the server
sends on its standalone GET event stream (issue 38): server-everything's simulated logging
sends `notifications/message` with no request to ride on, so without the GET stream the stdio
client would never see one.
"""

from __future__ import annotations

import json
import queue
import subprocess
import threading
import time
from typing import Any

import pytest
from helpers import PYTHON, free_port, npm_bin, wait_port

pytestmark = pytest.mark.npm


def test_server_messages_on_the_get_stream_reach_the_stdio_client() -> None:
    port = free_port()
    server = subprocess.Popen(
        [npm_bin("mcp-server-everything"), "streamableHttp"],
        env={"PORT": str(port), "PATH": "/usr/bin:/bin"},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        wait_port(port, server)
        url = f"http://127.0.0.1:{port}/mcp"
        proxy = subprocess.Popen(
            [PYTHON, "-m", "catalogaudit", "proxy", "--url", url],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        assert proxy.stdin is not None and proxy.stdout is not None and proxy.stderr is not None
        lines: queue.Queue[bytes] = queue.Queue()
        threading.Thread(target=lambda: [lines.put(x) for x in proxy.stdout], daemon=True).start()

        def send(msg: dict[str, Any]) -> None:
            proxy.stdin.write(json.dumps(msg).encode() + b"\n")  # type: ignore[union-attr]
            proxy.stdin.flush()  # type: ignore[union-attr]

        def until(wanted: Any, within: float) -> dict[str, Any]:
            deadline = time.monotonic() + within
            while True:
                msg = json.loads(lines.get(timeout=max(0.1, deadline - time.monotonic())))
                if wanted(msg):
                    return dict(msg)

        info = {"name": "bridge-test", "version": "1"}
        params = {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": info}
        send({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": params})
        assert "result" in until(lambda m: m.get("id") == 0, 30)
        send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        call = {"name": "toggle-simulated-logging", "arguments": {}}
        send({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": call})
        # one message at once, then one every 5 s, each on the standalone stream
        logged = until(lambda m: m.get("method") == "notifications/message", 30)
        assert "data" in logged["params"], logged
        proxy.stdin.close()
        assert proxy.wait(30) == 0
        err = proxy.stderr.read().decode()
        assert "Traceback" not in err, err
    finally:
        server.terminate()
        server.wait(10)
