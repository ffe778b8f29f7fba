"""Peer of a live `catalogaudit snapshot`: start the server, send `initialize`, close stdin,
wait for it to exit. Usage: server_start.py [--initialized] COMMAND [ARG...]

`--initialized` also sends `notifications/initialized` after the result, as every client must
(MCP lifecycle) and `snapshot` does: the start-to-exit time a compliant client cannot go below
(server-everything exits on EOF only once the 350 ms timer its `oninitialized` starts fires)."""

import json
import subprocess
import sys

INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "peer", "version": "0"},
    },
}

initialized = sys.argv[1:2] == ["--initialized"]
command = sys.argv[2:] if initialized else sys.argv[1:]
proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
assert proc.stdin is not None and proc.stdout is not None
proc.stdin.write(json.dumps(INITIALIZE).encode() + b"\n")
proc.stdin.flush()
proc.stdout.readline()  # the initialize result
if initialized:
    proc.stdin.write(b'{"jsonrpc":"2.0","method":"notifications/initialized"}\n')
    proc.stdin.flush()
proc.stdin.close()
proc.stdout.read()
sys.exit(proc.wait())
