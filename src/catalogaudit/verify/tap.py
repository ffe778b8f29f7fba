"""A stdio relay that notes every `tools/call` a client sends a real server.

`python -m catalogaudit.verify.tap LOG -- COMMAND...` starts COMMAND and relays stdin to it
and its stdout back, line for line and byte for byte; each client line that is a `tools/call`
request is also appended to LOG as one JSON line (`{"name", "arguments", "outcome":
"forwarded"}`, the shape of `serve --call-log`), and each server line that answers
tools/list to LOG.tools, so the prediction reads what this very start served.
`verify --model -- COMMAND` puts it between Claude Code and the server, so a call that
reached the server is told from one the client refused, whatever the server answers.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
from typing import IO, Any


def _note(log: str, line: bytes) -> None:
    try:
        msg = json.loads(line)
    except ValueError:
        return
    if not isinstance(msg, dict) or msg.get("method") != "tools/call":
        return
    given = msg.get("params")
    params: dict[str, Any] = given if isinstance(given, dict) else {}
    record = {
        "name": params.get("name"),
        "arguments": params.get("arguments"),
        "outcome": "forwarded",
    }
    fd = os.open(log, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        os.write(fd, (json.dumps(record, ensure_ascii=False) + "\n").encode())
    finally:
        os.close(fd)


def _keep_tools(path: str, line: bytes) -> None:
    """A server line that answers tools/list goes to `path` too (the prediction's input)."""
    if b'"tools"' not in line:
        return
    try:
        msg = json.loads(line)
    except ValueError:
        return
    result = msg.get("result") if isinstance(msg, dict) else None
    if isinstance(result, dict) and isinstance(result.get("tools"), list):
        with open(path, "ab") as out:
            out.write(line if line.endswith(b"\n") else line + b"\n")


def _pump(src: IO[bytes], dst: IO[bytes], log: str | None, tools: str | None = None) -> None:
    try:
        for line in iter(src.readline, b""):
            if log is not None:
                _note(log, line)
            if tools is not None:
                _keep_tools(tools, line)
            dst.write(line)
            dst.flush()
    except (BrokenPipeError, OSError, ValueError):
        pass
    finally:
        try:
            dst.close()
        except OSError:
            pass


def main(argv: list[str]) -> int:
    """Relay until the server exits; its exit code is ours."""
    if len(argv) < 3 or argv[1] != "--":
        print("usage: python -m catalogaudit.verify.tap LOG -- COMMAND...", file=sys.stderr)
        return 2
    log, command = argv[0], argv[2:]
    try:
        child = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    except OSError as exc:
        print(f"error: cannot start {command[0]}: {exc.strerror}", file=sys.stderr)
        return 2
    assert child.stdin is not None and child.stdout is not None

    def stop(signum: int, _frame: Any) -> None:
        child.send_signal(signum)

    signal.signal(signal.SIGTERM, stop)
    up = threading.Thread(target=_pump, args=(sys.stdin.buffer, child.stdin, log), daemon=True)
    up.start()
    _pump(child.stdout, sys.stdout.buffer, None, log + ".tools")
    return child.wait()


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
