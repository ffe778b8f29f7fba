"""Which transport `verify` meets its servers over: stdio (the client spawns `serve`), or
with `--transport http` each snapshot served by `catalogaudit serve --http` on a loopback port,
so the client meets it over Streamable HTTP, its answers JSON or, with `--sse`, SSE streams.

The prediction must see the server as the client meets it, not as it was captured: the target's
capture block says `streamable-http` and, in `http.answers`, the Content-Type `serve` answers
every request with, so a profile rule that reads how a server answers (CDX-XPORT-001) predicts
this run.
"""

from __future__ import annotations

import copy
import os
import queue
import signal
import subprocess
import tempfile
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import IO, Any

from catalogaudit.errors import CatalogauditError, UsageError
from catalogaudit.intake import Intake
from catalogaudit.model import METHODS, Catalog, Observation
from catalogaudit.verify import base
from catalogaudit.verify.base import Driver, Target, server_argv

#: Transports `verify` can serve a snapshot over.
STDIO, HTTP = "stdio", "http"
JSON_TYPE, SSE = "application/json", "text/event-stream"
_LISTENING = "listening on "


def supported(driver: Driver) -> tuple[str, ...]:
    """The transports a driver's client can be pointed at (`stdio` unless it says more)."""
    found: tuple[str, ...] = getattr(driver, "transports", (STDIO,))
    return found


def verify(
    driver: Driver,
    catalogs: Sequence[str | Path | dict[str, Any] | Intake],
    transport: str = STDIO,
    sse: bool = False,
) -> list[tuple[Target, list[Observation]]]:
    """`base.verify` over the chosen transport: with http, every catalog is served by
    `serve --http` (SSE answers with `sse`) and the client is given its URL."""
    if transport not in supported(driver):
        raise UsageError(
            f"--transport {transport}: the {driver.id} driver runs its client over "
            + " or ".join(supported(driver))
        )
    if sse and transport != HTTP:
        raise UsageError("--sse needs --transport http")
    if transport == STDIO:
        return base.verify(driver, catalogs)
    with tempfile.TemporaryDirectory(prefix="catalogaudit-verify-") as tmp:
        found = base.targets(catalogs, Path(tmp))
        timeout = float(getattr(driver, "timeout", 60))
        with served(found, sse, timeout * 4) as live:
            results = driver.run(live)
            return [(t, base.observe(t, r)) for t, r in zip(live, results, strict=True)]


def label(transport: str, sse: bool) -> str:
    """How a run met its servers: `stdio`, `http` (JSON answers) or `http+sse`."""
    return f"{transport}+sse" if transport == HTTP and sse else transport


def as_served(target: Target, url: str, sse: bool) -> Target:
    """The target with its URL, and its capture block as `serve --http` presents it."""
    doc = copy.deepcopy(target.catalog.doc)
    cap = doc.setdefault("capture", {})
    cap["transport"] = "streamable-http"
    answer = SSE if sse else JSON_TYPE
    methods = ["initialize", "server/discover", *(METHODS[n] for n in target.listings)]
    cap["http"] = {"answers": dict.fromkeys(sorted(methods), answer)}
    return replace(target, catalog=Catalog(doc, source=target.label), url=url)


@contextmanager
def served(targets: Sequence[Target], sse: bool, max_seconds: float) -> Iterator[list[Target]]:
    """Start one `serve --http 0` per target, wait for each URL, stop them all afterwards."""
    procs: list[subprocess.Popen[str]] = []
    try:
        out: list[Target] = []
        for target in targets:
            argv = [*server_argv(target, max_seconds), "--http", "0"]
            if sse:
                argv.append("--sse")
            proc = subprocess.Popen(
                argv,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.PIPE,
                text=True,
                start_new_session=True,
            )
            procs.append(proc)
            out.append(as_served(target, _url(proc, target, 30.0), sse))
        yield out
    finally:
        for proc in procs:
            _stop(proc)


def _url(proc: subprocess.Popen[str], target: Target, timeout: float) -> str:
    """The URL `serve --http` prints once it listens (its first `listening on` line)."""
    assert proc.stderr is not None
    lines: queue.Queue[str | None] = queue.Queue()
    threading.Thread(target=_drain, args=(proc.stderr, lines), daemon=True).start()
    deadline = time.monotonic() + timeout
    seen: list[str] = []
    while (left := deadline - time.monotonic()) > 0:
        try:
            line = lines.get(timeout=left)
        except queue.Empty:
            break
        if line is None:
            break
        if line.startswith(_LISTENING):
            return line[len(_LISTENING) :].strip()
        seen.append(line.strip())
    tail = seen[-1] if seen else "no output"
    raise CatalogauditError(f"serve --http {target.label}: did not start listening ({tail})")


def _drain(stream: IO[str], lines: queue.Queue[str | None]) -> None:
    """Read the server's stderr to its end, so it never blocks on a full pipe."""
    for line in stream:
        lines.put(line)
    lines.put(None)


def _stop(proc: subprocess.Popen[str]) -> None:
    """SIGTERM the server's process group, then SIGKILL if it lingers."""
    for sig, wait in ((signal.SIGTERM, 5.0), (signal.SIGKILL, None)):
        if proc.poll() is not None:
            return
        try:
            os.killpg(proc.pid, sig)
        except ProcessLookupError:
            return
        try:
            proc.wait(wait)
            return
        except subprocess.TimeoutExpired:
            continue
