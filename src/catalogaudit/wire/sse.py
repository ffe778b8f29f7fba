"""The HTTP+SSE transport of 2024-11-05 (P:2024-11-05/basic/transports "HTTP with SSE").

The client GETs the URL and keeps the event stream open; the server's first event is
`endpoint`, whose data is the URI every message is POSTed to; answers come back on the stream
as `message` events. Deprecated since 2025-03-26, still spoken by many deployed servers (the
`mcp` SDK's `sse_app`, fastmcp's `transport="sse"`). The same bounds as Streamable HTTP: one
event up to `--max-message-size` (decoded), the deadline on every read and write, same-origin
endpoints only, header values never in messages.
"""

from __future__ import annotations

import contextlib
import socket
import threading
import time
from collections.abc import Iterator, Mapping
from typing import Any
from urllib.parse import urljoin, urlsplit

import httpx

from catalogaudit.errors import ServerError
from catalogaudit.model import compact, decode_utf8
from catalogaudit.wire import eventstream
from catalogaudit.wire.encoding import ACCEPT_ENCODING, CodingError, codings, decoded
from catalogaudit.wire.http import _body_story, _http_error, _origin, public_url
from catalogaudit.wire.sockets import Clock, client
from catalogaudit.wire.transport import (
    SSE,
    Events,
    Inbox,
    Limits,
    NotAnEventStream,
    Reply,
    ServerTimeout,
    answer_server_request,
    classify,
    seconds,
)


class SseTransport:
    """One HTTP+SSE session: the event stream read by a thread, messages POSTed."""

    def __init__(
        self, url: str, *, headers: Mapping[str, str], limits: Limits, roots_declared: bool
    ) -> None:
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ServerError(f"--url must be an http:// or https:// URL, got {public_url(url)!r}")
        self.events = Events()
        self._url = url
        self._headers = {k: v for k, v in headers.items() if k.lower() != "accept-encoding"}
        self._limits = limits
        self._roots = roots_declared
        self._next_id = 0
        self._inbox = Inbox(self.events)
        self._cond = self._inbox.cond
        self._endpoint: str | None = None
        self._fatal: str | None = None
        self._ended = False
        self._version: str | None = None
        # NOTE: two clients, two clocks: the stream lives as long as the capture, each POST as
        # long as its request.
        self._stream_clock, self._post_clock = Clock(), Clock()
        self._stream_client = client(self._stream_clock)
        self._post_client = client(self._post_clock)
        self._response: httpx.Response | None = None
        self._thread: threading.Thread | None = None

    # --- Transport protocol -------------------------------------------------------------------

    def describe(self) -> str:
        """The endpoint URL without credentials or query."""
        return f"server at {public_url(self._url)} (HTTP+SSE)"

    def request(self, method: str, params: dict[str, Any] | None, timeout: float) -> Reply:
        """POST a request to the endpoint and wait for its answer on the event stream."""
        deadline = self._limits.until(timeout)
        self._next_id += 1
        rid = self._next_id
        msg: dict[str, Any] = {"jsonrpc": "2.0", "id": rid, "method": method}
        if params is not None:
            msg["params"] = params
        self._inbox.expect(rid)
        self._send(msg, method, deadline, timeout)

        def timed_out() -> ServerTimeout:
            said = f"no answer within {seconds(timeout)}"
            return ServerTimeout(f"{self.describe()}, {method}: {said}")

        return self._inbox.take(
            rid,
            method,
            deadline,
            lambda: self._check(method),
            timed_out,
            self._limits,
            self.describe(),
        )

    def notify(self, method: str, params: dict[str, Any] | None) -> None:
        """POST a notification (the server answers 202)."""
        msg: dict[str, Any] = {"jsonrpc": "2.0", "method": method}
        if params is not None:
            msg["params"] = params
        timeout = self._limits.request_timeout
        self._send(msg, method, self._limits.until(timeout), timeout)

    def late_answer(self) -> Reply | None:
        """The answer to the last request that timed out, if it has arrived since."""
        return self._inbox.late_answer(self._limits, self.describe())

    def set_protocol(self, version: str | None, modern: bool) -> None:
        """Send `MCP-Protocol-Version` after initialize (servers of 2024-11-05 ignore it)."""
        self._version = version if not modern else None

    def reset_session(self) -> None:
        """The stream is the session; a fallback `initialize` goes over the same one."""
        self._version = None

    def close(self, failed: bool = False) -> None:
        """Close the event stream (which ends the server's session) and both clients."""
        response, self._response = self._response, None
        if response is not None:
            _shutdown(response)
            with contextlib.suppress(httpx.HTTPError, OSError, RuntimeError):
                response.close()
        if self._thread is not None:
            self._thread.join(1.0)
        self._stream_client.close()
        self._post_client.close()

    # --- internals -----------------------------------------------------------------------------

    def _check(self, method: str) -> None:
        """Raise when the stream failed or ended (called with the condition held)."""
        if self._fatal:
            raise ServerError(f"{self.describe()}, {method}: {self._fatal}")
        if self._ended:
            raise ServerError(f"{self.describe()}, {method}: the server closed the event stream")

    def _headers_for(self, accept: str) -> dict[str, str]:
        headers = dict(self._headers)
        headers["Accept"] = accept
        headers["Accept-Encoding"] = ACCEPT_ENCODING
        if self._version:
            headers["MCP-Protocol-Version"] = self._version
        return headers

    def _send(self, msg: dict[str, Any], method: str, deadline: float, timeout: float) -> None:
        endpoint = self._await_endpoint(method, deadline, timeout)
        headers = self._headers_for("application/json, text/event-stream")
        headers["Content-Type"] = "application/json"
        self._post_clock.until = deadline
        body = compact(msg).encode("utf-8")
        try:
            left = max(0.01, deadline - time.monotonic())
            with self._post_client.stream(
                "POST", endpoint, content=body, headers=headers, timeout=httpx.Timeout(left)
            ) as resp:
                if resp.status_code >= 300:
                    raw = _head(resp, self._limits.max_message)
                    raise ServerError(
                        f"{self.describe()}, {method}: the message endpoint answered HTTP "
                        f"{resp.status_code}" + _body_story(raw)
                    )
        except CodingError as exc:
            raise ServerError(f"{self.describe()}, {method}: {exc}") from None
        except httpx.TimeoutException:
            raise ServerTimeout(
                f"{self.describe()}, {method}: no answer within {seconds(timeout)}"
            ) from None
        except httpx.HTTPError as exc:
            raise ServerError(f"{self.describe()}, {method}: {_http_error(exc)}") from None

    def _await_endpoint(self, method: str, deadline: float, timeout: float) -> str:
        """Open the stream on first use and wait for its `endpoint` event."""
        if self._response is None and self._thread is None:
            self._open(method, deadline, timeout)
        with self._cond:
            while self._endpoint is None:
                self._check(method)
                left = deadline - time.monotonic()
                if left <= 0:
                    raise ServerTimeout(
                        f"{self.describe()}, {method}: no endpoint event on the stream within "
                        f"{seconds(timeout)}"
                    )
                self._cond.wait(min(left, 0.25))
            return self._endpoint

    def _open(self, method: str, deadline: float, timeout: float) -> None:
        self._stream_clock.until = self._limits.until(self._limits.total_timeout)
        left = max(0.01, deadline - time.monotonic())
        req = self._stream_client.build_request(
            "GET", self._url, headers=self._headers_for(SSE), timeout=httpx.Timeout(left)
        )
        try:
            resp = self._stream_client.send(req, stream=True)
        except httpx.TimeoutException:
            raise ServerTimeout(
                f"{self.describe()}, {method}: the event stream did not open within "
                f"{seconds(timeout)}"
            ) from None
        except httpx.HTTPError as exc:
            raise ServerError(f"{self.describe()}, {method}: {_http_error(exc)}") from None
        ctype = resp.headers.get("content-type", "").split(";")[0].strip().lower()
        if resp.status_code != 200 or ctype != SSE:
            raw = _head(resp, 4096)
            resp.close()
            why = (
                f"GET answered HTTP {resp.status_code} with Content-Type {ctype or 'none'}, "
                "not an event stream"
            )
            raise NotAnEventStream(f"{self.describe()}, {method}: {why}" + _body_story(raw), why)
        self._response = resp
        self._thread = threading.Thread(target=self._read, args=(resp,), daemon=True)
        self._thread.start()

    def _read(self, resp: httpx.Response) -> None:
        try:
            for name, data in _events(resp, self._limits.max_message, self.events):
                if name == "endpoint":
                    self._on_endpoint(data)
                elif name in ("", "message"):
                    self._on_message(data)
        except ServerError as exc:
            self._stop(str(exc))
        except (CodingError, httpx.HTTPError, OSError, RuntimeError) as exc:
            said = _http_error(exc) if isinstance(exc, httpx.HTTPError) else str(exc)
            self._stop(f"the event stream failed: {said}")
        finally:
            with self._cond:
                self._ended = True
                self._cond.notify_all()

    def _stop(self, why: str) -> None:
        with self._cond:
            if self._response is not None:  # NOTE: not a failure once we closed it
                self._fatal = why
            self._cond.notify_all()

    def _on_endpoint(self, data: bytes) -> None:
        text, _ = decode_utf8(data)
        target = urljoin(self._url, text.strip())
        if _origin(target) != _origin(self._url):
            raise ServerError(f"refused an endpoint on another origin: {public_url(target)}")
        with self._cond:
            if self._endpoint is None:
                self._endpoint = target
                self._cond.notify_all()

    def _on_message(self, data: bytes) -> None:
        if not data.strip():
            return
        text, bad_utf8 = decode_utf8(data)
        kind, value, members = classify(text, bad_utf8)
        if kind == "refused":
            raise ServerError(f"an event cannot be read: {value}")
        if kind == "response" and members is not None:
            self._inbox.put(text, value, members, bad_utf8)
        elif kind == "request":
            self.events.server_request(value["method"])
            answer = answer_server_request(value, self._roots)
            timeout = self._limits.request_timeout
            with contextlib.suppress(ServerError):
                self._send(answer, str(value["method"]), self._limits.until(timeout), timeout)
        elif kind == "notification":
            self.events.notification(value["method"])
        else:
            self.events.non_json(text)


def _events(resp: httpx.Response, limit: int, events: Events) -> Iterator[tuple[str, bytes]]:
    """`(event name, data)` of each event ended by a blank line (`wire/eventstream.py`), the
    joined data of one event at most `limit` bytes once decoded."""
    applied = codings(resp.headers.get("content-encoding"))
    events.content_codings.update(applied)

    def too_big() -> ServerError:
        return ServerError(f"an SSE event exceeded {limit} bytes (see --max-message-size)")

    for event in eventstream.events(decoded(resp.iter_raw(), applied), limit, too_big):
        if event.ended:
            yield event.name, event.data


def _head(resp: httpx.Response, limit: int) -> bytes:
    """At most `limit` bytes of a (refused) body, for the error line."""
    out = bytearray()
    with contextlib.suppress(httpx.HTTPError, CodingError):
        for piece in resp.iter_bytes():
            out += piece
            if len(out) >= limit:
                break
    return bytes(out[:limit])


def _shutdown(resp: httpx.Response) -> None:
    """Wake the reader blocked on the stream's socket (closing it alone does not)."""
    stream = resp.extensions.get("network_stream")
    sock = stream.get_extra_info("socket") if stream is not None else None
    if isinstance(sock, socket.socket):
        with contextlib.suppress(OSError):
            sock.shutdown(socket.SHUT_RDWR)
