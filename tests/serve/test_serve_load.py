"""`serve` under load (issue 15 item 9): a huge stdin line costs linear time, hundreds of
loopback clients connecting at once are all answered, and slowloris connections are cut
after `--idle-timeout` instead of each holding a thread forever."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

from helpers import PYTHON, fixture

SNAPSHOT = str(fixture("captures", "example-server.snapshot.json"))
INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-11-25",
        "capabilities": {},
        "clientInfo": {"name": "load", "version": "1"},
    },
}


def _serve(*opts: str, stdin: int | None = subprocess.DEVNULL) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [PYTHON, "-m", "catalogaudit", "serve", SNAPSHOT, "--max-seconds", "120", *opts],
        stdin=stdin,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )


@contextmanager
def serving(*opts: str) -> Iterator[tuple[subprocess.Popen[bytes], int]]:
    """`serve --http 0 OPTS`: yield the process and its port."""
    proc = _serve("--http", "0", *opts)
    try:
        assert proc.stderr is not None
        line = proc.stderr.readline().decode()
        assert line.startswith("listening on http://127.0.0.1:"), line
        yield proc, int(line.rsplit(":", 1)[1].split("/")[0])
    finally:
        proc.kill()
        proc.communicate(timeout=10)


def _post(port: int, timeout: float) -> int:
    """One legacy initialize over a fresh connection; the HTTP status of the whole answer
    (400 -32022 from this 2026-07-28 snapshot: what matters is that it is answered)."""
    body = json.dumps(INITIALIZE).encode()
    head = (
        f"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n"
        f"Accept: application/json, text/event-stream\r\nContent-Length: {len(body)}\r\n"
        "Connection: close\r\n\r\n"
    ).encode()
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as s:
        s.sendall(head + body)
        data = b""
        while chunk := s.recv(65536):
            data += chunk
    return int(data.split(b" ", 2)[1])


def _threads(pid: int) -> int:
    with open(f"/proc/{pid}/status") as fh:
        return next(int(line.split()[1]) for line in fh if line.startswith("Threads:"))


def test_a_64_mb_stdin_line_costs_linear_time() -> None:
    """A 60 MB line (no newline until the end) then a request: 22.8 s of CPU before."""
    proc = _serve(stdin=subprocess.PIPE)
    assert proc.stdin is not None
    line = b'"' + b"x" * (60 * 1024 * 1024) + b'"\n'
    request = json.dumps(INITIALIZE).encode() + b"\n"

    def feed() -> None:
        assert proc.stdin is not None
        for i in range(0, len(line), 1 << 16):
            proc.stdin.write(line[i : i + (1 << 16)])
        proc.stdin.write(request)
        proc.stdin.close()

    writer = threading.Thread(target=feed)
    writer.start()
    assert proc.stdout is not None
    out = proc.stdout.read()
    writer.join()
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.stderr:
        proc.stderr.close()
    proc.stdout.close()
    answers = [json.loads(x) for x in out.splitlines()]
    assert answers[-1]["id"] == 1, answers[-1]  # answered (this snapshot is 2026-07-28 only)
    assert proc.returncode == 0
    cpu = usage.ru_utime + usage.ru_stime
    assert cpu < 4.0, cpu


def test_hundreds_of_concurrent_loopback_clients_are_answered() -> None:
    """300 clients at once: a listen backlog of 5 made 92 of them time out."""
    with serving() as (_, port):
        statuses: list[int | str] = []
        lock = threading.Lock()
        start = threading.Event()

        def client() -> None:
            start.wait()
            try:
                got: int | str = _post(port, timeout=3)
            except OSError as exc:
                got = type(exc).__name__
            with lock:
                statuses.append(got)

        threads = [threading.Thread(target=client) for _ in range(300)]
        for t in threads:
            t.start()
        start.set()
        for t in threads:
            t.join(60)
    failed = [s for s in statuses if s != 400]
    assert len(statuses) == 300 and not failed, failed[:5]


def test_slowloris_connections_are_cut_after_the_idle_timeout() -> None:
    """Clients that trickle a header byte every 0.5 s held a thread each, forever."""
    with serving("--idle-timeout", "2") as (proc, port):
        conns = [socket.create_connection(("127.0.0.1", port), timeout=10) for _ in range(40)]
        for c in conns:
            c.sendall(b"POST /mcp HTTP/1.1\r\n")
        started = time.monotonic()
        cut: set[int] = set()
        while len(cut) < len(conns) and time.monotonic() - started < 8:
            for i, c in enumerate(conns):
                if i in cut:
                    continue
                try:
                    c.sendall(b"X")
                    c.setblocking(False)
                    try:
                        if c.recv(1) == b"":
                            cut.add(i)
                    except BlockingIOError:
                        pass
                    finally:
                        c.setblocking(True)
                except OSError:
                    cut.add(i)
            time.sleep(0.5)
        took = time.monotonic() - started
        assert len(cut) == len(conns), f"{len(conns) - len(cut)} still open after {took:.1f}s"
        assert took < 2 + 2.5, took
        assert _post(port, timeout=5) == 400  # still serving
        assert _threads(proc.pid) < 10
        for c in conns:
            c.close()


def test_slow_clients_do_not_hold_every_thread() -> None:
    """300 clients sending half their headers, with a 60 s idle timeout: they held all 256
    threads and a normal client waited for the timeout; now it evicts the longest waiting."""
    with serving("--idle-timeout", "60") as (proc, port):
        slow = [socket.create_connection(("127.0.0.1", port), timeout=10) for _ in range(300)]
        for c in slow:
            c.sendall(b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        time.sleep(1.0)
        started = time.monotonic()
        assert _post(port, timeout=5) == 400
        assert time.monotonic() - started < 5
        assert _threads(proc.pid) <= 256 + 4
        for c in slow:
            c.close()


def test_connections_past_the_thread_cap_are_served() -> None:
    """600 idle connections: at most MAX_CONNECTIONS handler threads (serve.conns), and a
    request on a new connection is still answered."""
    with serving("--idle-timeout", "2") as (proc, port):
        idle = [socket.create_connection(("127.0.0.1", port), timeout=10) for _ in range(600)]
        time.sleep(1.0)
        assert _threads(proc.pid) <= 256 + 4
        assert _post(port, timeout=10) == 400
        for c in idle:
            c.close()


def test_idle_timeout_must_be_a_positive_number() -> None:
    proc = _serve("--http", "0", "--idle-timeout", "nan")
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == 2
    assert err.decode().splitlines() == [
        "error: --idle-timeout must be a positive number of seconds"
    ]
