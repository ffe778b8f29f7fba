"""Connection limits of `serve --http`: thread-per-connection with bounds a hostile or slow
client cannot outlast.

- a listen backlog of `BACKLOG` (hundreds of clients connecting at once);
- at most `MAX_CONNECTIONS` handler threads;
- each request cycle of a connection (waiting for its request, reading it, answering it) ends
  within `--idle-timeout`: a slowloris client trickling bytes is cut off by a watchdog, not by a
  per-read timeout only;
- when every thread is taken, a new connection closes the one that has waited longest for (or
  been reading) its request, if that is over `GRACE` seconds, the way nginx reuses idle
  keep-alive connections when it runs out: slow or idle clients cannot hold every thread for
  the idle timeout while a normal client waits, and a burst of normal clients, each waiting
  less than `GRACE` for its thread to read, is not cut. Connections whose request is being
  answered are never closed this way.
"""

from __future__ import annotations

import contextlib
import socket
import threading
import time
from http.server import ThreadingHTTPServer
from typing import Any, TypeVar

from catalogaudit.errors import CatalogauditError

#: Connections handled at once, one thread each.
MAX_CONNECTIONS = 256
#: The listen backlog (socketserver's default of 5 made loopback clients time out).
BACKLOG = 1024
#: How often the watchdog looks for connections past their `--idle-timeout`.
WATCH_EVERY = 0.25
#: How long a connection may wait for or read its request before a new one may evict it.
GRACE = 2.0


_S = TypeVar("_S", bound="Connections")


class Connections(ThreadingHTTPServer):
    """A threading HTTP server with the limits above; call `limit` before serving."""

    daemon_threads = True
    request_queue_size = BACKLOG
    lock: threading.Lock
    idle: float
    slots: threading.BoundedSemaphore
    #: Each connection's end of its current request cycle.
    deadlines: dict[Any, float]
    #: Connections whose request has been read and is being answered (not to be evicted).
    busy: set[Any]

    @classmethod
    def bound(cls: type[_S], host: str, port: int, handler: Any) -> _S:
        """Bind the listener, IPv6 for a host with a colon; one `error:` line when the port is
        taken or the host is wrong."""
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        bound: type[_S] = type("_BoundServer", (cls,), {"address_family": family})
        try:
            return bound((host, port), handler)
        except OSError as exc:
            raise CatalogauditError(
                f"cannot listen on {host}:{port}: {exc.strerror or exc}"
            ) from None

    def limit(self, idle: float) -> None:
        self.lock = threading.Lock()
        self.idle = idle
        self.slots = threading.BoundedSemaphore(MAX_CONNECTIONS)
        self.deadlines = {}
        self.busy = set()

    def process_request(self, request: Any, client_address: Any) -> None:
        """Start a handler thread once one of `MAX_CONNECTIONS` slots is free, evicting the
        connection that has waited longest for its request when none is."""
        # NOTE: with every connection busy answering, a slot frees within the idle timeout;
        # past it, this one is dropped.
        give_up = time.monotonic() + self.idle
        acquired = self.slots.acquire(blocking=False)
        while not acquired:
            if time.monotonic() >= give_up:
                self.shutdown_request(request)
                return
            self.evict()
            acquired = self.slots.acquire(timeout=WATCH_EVERY)
        self.watch(request)
        try:
            super().process_request(request, client_address)
        except BaseException:
            self.forget(request)
            self.slots.release()
            raise

    def process_request_thread(self, request: Any, client_address: Any) -> None:
        try:
            super().process_request_thread(request, client_address)
        finally:
            self.forget(request)
            self.slots.release()

    def watch(self, conn: Any) -> None:
        """(Re)start the connection's request cycle: it must end within the idle timeout."""
        with self.lock:
            self.deadlines[conn] = time.monotonic() + self.idle

    def forget(self, conn: Any) -> None:
        with self.lock:
            self.deadlines.pop(conn, None)
            self.busy.discard(conn)

    def answering(self, conn: Any, yes: bool) -> None:
        with self.lock:
            (self.busy.add if yes else self.busy.discard)(conn)

    def evict(self) -> None:
        """Cut the connection not being answered whose request cycle began first, if that was
        over `GRACE` seconds ago."""
        latest = time.monotonic() - GRACE + self.idle  # NOTE: a cycle's deadline is start + idle
        with self.lock:
            idle = [
                (end, id(c), c)
                for c, end in self.deadlines.items()
                if c not in self.busy and end <= latest
            ]
        if idle:
            with contextlib.suppress(OSError):
                min(idle)[2].shutdown(socket.SHUT_RDWR)

    def expire(self) -> None:
        """Cut every connection past its deadline (its handler then reads EOF and ends)."""
        now = time.monotonic()
        with self.lock:
            late = [conn for conn, end in self.deadlines.items() if end <= now]
        for conn in late:
            with contextlib.suppress(OSError):
                conn.shutdown(socket.SHUT_RDWR)

    def watchdog(self) -> None:
        """The watchdog thread: cut connections past their idle timeout, until the socket
        closes."""
        while self.socket.fileno() >= 0:
            time.sleep(WATCH_EVERY)
            self.expire()
