"""`proxy` over stdio: our stdin and stdout are the client's, the server is our child.

The client side is `serve`'s line reader (`serve.stdio.each_line`); the server side is the wire
client's process handling (`wire.RelayTransport`: own process group, bounded writes, drained
stdout and stderr, the reaper), so the server dies with us. Client lines are written to the
server as they came; server lines go to the client through `Session.from_server`.

Ends: the client closes our stdin (we close the server's and wait for it, then SIGTERM and
SIGKILL its group), SIGTERM, or the server ends on its own (we close our stdout).
"""

from __future__ import annotations

import os
import sys
import threading
from collections.abc import Callable, Mapping, Sequence
from typing import BinaryIO

from catalogaudit.errors import CatalogauditError
from catalogaudit.model import decode_utf8
from catalogaudit.proxy.session import Policy, Session
from catalogaudit.serve import Stopped, each_line, error_text, install_sigterm, stopped
from catalogaudit.wire import Limits, RelayTransport

PREFIX = "catalogaudit proxy"


class ServerEnded(CatalogauditError):
    """The server ended before the client did (or broke a bound): exit 1, said on stderr."""


def say(line: str) -> None:
    """One note on stderr (stdout belongs to the protocol)."""
    sys.stderr.write(f"{PREFIX}: {line}\n")
    sys.stderr.flush()


def run_stdio(
    argv: Sequence[str],
    policy: Policy,
    limits: Limits,
    *,
    env: Mapping[str, str],
    cwd: str | None,
    masked: Callable[[str], str],
) -> int:
    """Relay between our stdio and the server's until one side ends; the exit code (0 the
    client or a signal ended it, 1 the server did). `masked` hides secrets in our notes."""
    out = sys.stdout.buffer
    lock = threading.Lock()
    wake_r, wake_w = os.pipe()
    session = Session(policy, lambda s: say(masked(s)))
    gone: list[bool] = []  # the client closed our stdout

    def relay(raw: bytes | None) -> None:
        if raw is None:
            os.write(wake_w, b".")
            return
        if not gone and not _write(out, lock, session.from_server(raw)):
            gone.append(True)
            os.write(wake_w, b".")

    def handle(line: bytes) -> None:
        if len(line) > limits.max_message:
            too_long()
            return
        session.from_client(line)
        why = transport.send_line(decode_utf8(line)[0])
        if why is not None:
            raise ServerEnded(f"{transport.describe()}: a message could not be sent ({why})")

    def too_long() -> None:
        say(f"a client message exceeded {limits.max_message} bytes: dropped")
        _write(out, lock, error_text(None, -32700, "Parse error: line too long").encode())

    def errors(line: bytes) -> None:
        text = masked(decode_utf8(line)[0]).encode("utf-8", "surrogateescape")
        with lock_err:
            sys.stderr.buffer.write(text + b"\n")
            sys.stderr.flush()

    lock_err = threading.Lock()
    transport = RelayTransport(argv, cwd=cwd, env=env, limits=limits, relay=relay, errors=errors)
    code = 0
    try:
        install_sigterm()
        why = each_line(handle, too_long, wake=wake_r, max_line=limits.max_message)
        if why == "woken" and gone:
            return stopped("the client closed stdout", "proxy")
        if why == "woken":
            code = 1
            why = transport.fatal or transport.exit_story()
        return stopped(masked(why), "proxy") or code
    except Stopped as exc:
        return stopped(str(exc), "proxy")
    except ServerEnded as exc:
        say(masked(str(exc)))
        return 1
    finally:
        transport.close()
        os.close(wake_r)
        os.close(wake_w)


def _write(out: BinaryIO, lock: threading.Lock, line: bytes) -> bool:
    """One line to the client; False when it closed our stdout."""
    try:
        with lock:
            out.write(line + b"\n")
            out.flush()
    except (BrokenPipeError, ValueError, OSError):
        return False
    return True
