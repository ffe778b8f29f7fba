"""Sockets that keep a deadline: every connect, read and write of the HTTP client is cut to
what is left of the current exchange (`Clock.until`), so a server that trickles one byte
just before each read timeout cannot stretch a request past `--request-timeout`, nor the
command past `--timeout`.

httpx's timeouts are per operation (each read waits up to the read timeout again), so the
bound lives below them, in the httpcore network backend the client's connection pool uses.
"""

from __future__ import annotations

import time
from typing import Any

import httpcore
import httpx


class Clock:
    """The end (monotonic) of the exchange in progress; None: no bound beyond httpx's own."""

    def __init__(self) -> None:
        self.until: float | None = None

    def cut(self, timeout: float | None, error: type[Exception]) -> float | None:
        """`timeout`, cut to what is left; raise `error` once nothing is."""
        if self.until is None:
            return timeout
        left = self.until - time.monotonic()
        if left <= 0:
            raise error("the deadline passed")
        return left if timeout is None else min(timeout, left)


class _Stream(httpcore.NetworkStream):
    def __init__(self, inner: httpcore.NetworkStream, clock: Clock) -> None:
        self._inner = inner
        self._clock = clock

    def read(self, max_bytes: int, timeout: float | None = None) -> bytes:
        return self._inner.read(max_bytes, self._clock.cut(timeout, httpcore.ReadTimeout))

    def write(self, buffer: bytes, timeout: float | None = None) -> None:
        self._inner.write(buffer, self._clock.cut(timeout, httpcore.WriteTimeout))

    def close(self) -> None:
        self._inner.close()

    def start_tls(
        self,
        ssl_context: Any,
        server_hostname: str | None = None,
        timeout: float | None = None,
    ) -> httpcore.NetworkStream:
        cut = self._clock.cut(timeout, httpcore.ConnectTimeout)
        return _Stream(self._inner.start_tls(ssl_context, server_hostname, cut), self._clock)

    def get_extra_info(self, info: str) -> Any:
        return self._inner.get_extra_info(info)


class DeadlineBackend(httpcore.NetworkBackend):
    """httpcore's sockets, every connect, read and write cut to what `clock` leaves."""

    def __init__(self, clock: Clock) -> None:
        self._inner = httpcore.SyncBackend()
        self._clock = clock

    def connect_tcp(
        self,
        host: str,
        port: int,
        timeout: float | None = None,
        local_address: str | None = None,
        socket_options: Any = None,
    ) -> httpcore.NetworkStream:
        cut = self._clock.cut(timeout, httpcore.ConnectTimeout)
        inner = self._inner.connect_tcp(host, port, cut, local_address, socket_options)
        return _Stream(inner, self._clock)

    def connect_unix_socket(
        self, path: str, timeout: float | None = None, socket_options: Any = None
    ) -> httpcore.NetworkStream:
        cut = self._clock.cut(timeout, httpcore.ConnectTimeout)
        return _Stream(self._inner.connect_unix_socket(path, cut, socket_options), self._clock)

    def sleep(self, seconds: float) -> None:
        self._inner.sleep(seconds)


def client(clock: Clock) -> httpx.Client:
    """An httpx client (no redirects, no environment) whose sockets keep `clock`."""
    transport = httpx.HTTPTransport(trust_env=False)
    # NOTE: httpx 0.28 offers no network_backend option; its transport's pool is rebuilt with
    # the same defaults and our backend (tests/wire/test_hostile_wire.py trickles through it).
    transport._pool = httpcore.ConnectionPool(
        ssl_context=httpx.create_ssl_context(trust_env=False),
        max_connections=100,
        max_keepalive_connections=20,
        keepalive_expiry=5.0,
        network_backend=DeadlineBackend(clock),
    )
    return httpx.Client(transport=transport, follow_redirects=False, trust_env=False)
