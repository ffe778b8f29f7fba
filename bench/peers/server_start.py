"""Peer of a live `catalogaudit snapshot`: start the server, send `initialize`, close stdin,
wait for it to exit. Usage: server_start.py COMMAND [ARG...]"""

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

proc = subprocess.Popen(sys.argv[1:], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
assert proc.stdin is not None and proc.stdout is not None
proc.stdin.write(json.dumps(INITIALIZE).encode() + b"\n")
proc.stdin.flush()
proc.stdout.readline()  # the initialize result
proc.stdin.close()
proc.stdout.read()
sys.exit(proc.wait())
