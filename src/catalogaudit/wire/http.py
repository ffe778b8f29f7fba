"""Streamable HTTP wire client (P:2025-11-25 and P:2026-07-28 basic/transports).

POSTs each message with `Accept: application/json, text/event-stream` and `Accept-Encoding:
gzip, deflate` (decoded by `wire.encoding`, the size cap on the decoded bytes) and reads a JSON
body or an SSE stream (priming events with empty data, comments, notifications and server
requests before the response). Legacy sessions echo `Mcp-Session-Id` and end with DELETE;
2026-07-28 sends `MCP-Protocol-Version` and `Mcp-Method` on every request. Redirects are
followed only within the same origin. Header values never reach messages or snapshots.
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Mapping
from contextlib import closing
from typing import Any
from urllib.parse import urljoin, urlsplit

import httpx

from catalogaudit.errors import ProtocolError, ServerError
from catalogaudit.model import compact, decode_utf8
from catalogaudit.wire import eventstream
from catalogaudit.wire.encoding import ACCEPT_ENCODING, CodingError, codings, decoded
from catalogaudit.wire.sockets import Clock, client
from catalogaudit.wire.transport import (
    JSON_TYPE,
    SSE,
    Events,
    Limits,
    NotStreamable,
    Reply,
    ServerTimeout,
    answer_server_request,
    classify,
    excerpt,
    reply_from,
    seconds,
)

MAX_REDIRECTS = 5
#: The DELETE that ends a legacy session gets this long, also after the deadline passed.
CLOSE_GRACE = 2.0
REDIRECTS = (301, 302, 303, 307, 308)


def public_url(url: str) -> str:
    """The URL without credentials, query or fragment: safe to print and to record."""
    parts = urlsplit(url)
    host = parts.hostname or ""
    if ":" in host:
        host = f"[{host}]"
    port = f":{parts.port}" if parts.port else ""
    return f"{parts.scheme}://{host}{port}{parts.path}"


def _origin(url: str) -> tuple[str, str | None, int | None]:
    parts = urlsplit(url)
    default = {"http": 80, "https": 443}.get(parts.scheme)
    return parts.scheme, parts.hostname, parts.port or default


class HttpTransport:
    """A Streamable HTTP endpoint."""

    def __init__(
        self,
        url: str,
        *,
        headers: Mapping[str, str],
        limits: Limits,
        roots_declared: bool,
    ) -> None:
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ServerError(f"--url must be an http:// or https:// URL, got {public_url(url)!r}")
        self.events = Events()
        self._url = url
        self._headers = dict(headers)
        self._limits = limits
        self._roots = roots_declared
        self._session: str | None = None
        self._version: str | None = None
        self._modern = False
        self._next_id = 0
        self._clock = Clock()
        self._client = client(self._clock)

    # --- Transport protocol -------------------------------------------------------------------

    def describe(self) -> str:
        """The endpoint URL without credentials or query."""
        return f"server at {public_url(self._url)}"

    def request(self, method: str, params: dict[str, Any] | None, timeout: float) -> Reply:
        """POST a request and read its response from JSON or SSE, within `timeout` seconds."""
        self._next_id += 1
        rid = self._next_id
        msg: dict[str, Any] = {"jsonrpc": "2.0", "id": rid, "method": method}
        if params is not None:
            msg["params"] = params
        deadline = self._clock.until = self._limits.until(timeout)
        try:
            reply = self._exchange(msg, method, rid, deadline, timeout)
            self._limits.budget.take(len(reply.result_text or ""), f"{self.describe()}, {method}")
            return reply
        except CodingError as exc:
            raise ServerError(f"{self.describe()}, {method}: {exc}") from None
        except httpx.TimeoutException:
            raise ServerTimeout(
                f"{self.describe()}, {method}: no answer within {seconds(timeout)}"
            ) from None
        except httpx.HTTPError as exc:
            raise ServerError(f"{self.describe()}, {method}: {_http_error(exc)}") from None

    def notify(self, method: str, params: dict[str, Any] | None) -> None:
        """POST a notification; the server answers 202 without a body."""
        msg: dict[str, Any] = {"jsonrpc": "2.0", "method": method}
        if params is not None:
            msg["params"] = params
        deadline = self._clock.until = self._limits.until(self._limits.request_timeout)
        try:
            with self._post(msg, method, deadline) as resp:
                if resp.status_code >= 400:
                    body = self._read_body(resp, deadline, method)
                    raise ServerError(
                        f"{self.describe()}, {method}: HTTP {resp.status_code}" + _body_story(body)
                    )
        except CodingError as exc:
            raise ServerError(f"{self.describe()}, {method}: {exc}") from None
        except httpx.TimeoutException:
            raise ServerTimeout(f"{self.describe()}, {method}: no answer in time") from None
        except httpx.HTTPError as exc:
            raise ServerError(f"{self.describe()}, {method}: {_http_error(exc)}") from None

    def late_answer(self) -> Reply | None:
        """A request that timed out was cancelled with its POST: no answer comes late."""
        return None

    def set_protocol(self, version: str | None, modern: bool) -> None:
        """Send `MCP-Protocol-Version` (and, when modern, `Mcp-Method`) from now on."""
        if version is not None and not (version.isascii() and version.isprintable()):
            # NOTE: an HTTP header carries printable ASCII only; what the server negotiated
            # cannot be sent back, so no request of this session can follow.
            raise ProtocolError(
                f"{self.describe()}: the negotiated protocolVersion {version!r} is not printable "
                "ASCII, so it cannot be sent in the MCP-Protocol-Version header"
            )
        self._version = version
        self._modern = modern

    def reset_session(self) -> None:
        """Start over without a session id or protocol header (fallback from a modern probe)."""
        self._session = None
        self._version = None
        self._modern = False

    def close(self, failed: bool = False) -> None:
        """End a legacy session with DELETE (405 is fine), then close the connection pool."""
        try:
            if self._session is not None:
                headers = self._base_headers(None)
                grace = min(CLOSE_GRACE, self._limits.request_timeout)
                self._clock.until = time.monotonic() + grace
                self._client.request("DELETE", self._url, headers=headers, timeout=grace)
        except httpx.HTTPError:
            pass
        finally:
            self._session = None
            self._client.close()

    # --- internals -----------------------------------------------------------------------------

    def _base_headers(self, method: str | None) -> dict[str, str]:
        # NOTE: we decode only what we offer, so a --header Accept-Encoding does not replace it.
        headers = {k: v for k, v in self._headers.items() if k.lower() != "accept-encoding"}
        headers["Accept"] = "application/json, text/event-stream"
        headers["Accept-Encoding"] = ACCEPT_ENCODING
        if self._version:
            headers["MCP-Protocol-Version"] = self._version
        if self._modern and method:
            headers["Mcp-Method"] = method
        if self._session is not None and not self._modern:
            headers["Mcp-Session-Id"] = self._session
        return headers

    def _post(self, msg: dict[str, Any], method: str, deadline: float) -> closing[httpx.Response]:
        """Open a streamed POST, following same-origin redirects only."""
        body = compact(msg).encode("utf-8")
        url = self._url
        for _ in range(MAX_REDIRECTS + 1):
            headers = self._base_headers(method)
            headers["Content-Type"] = "application/json"
            left = max(0.01, deadline - time.monotonic())
            req = self._client.build_request(
                "POST", url, content=body, headers=headers, timeout=httpx.Timeout(left)
            )
            resp = self._client.send(req, stream=True)
            if resp.status_code not in REDIRECTS:
                return closing(resp)
            location = resp.headers.get("location")
            resp.close()
            if not location:
                raise ServerError(
                    f"{self.describe()}, {method}: HTTP {resp.status_code} without Location"
                )
            target = urljoin(url, location)
            if _origin(target) != _origin(self._url):
                raise ServerError(
                    f"{self.describe()}, {method}: refused a cross-origin redirect to "
                    f"{public_url(target)}"
                )
            url = target
        raise ServerError(f"{self.describe()}, {method}: more than {MAX_REDIRECTS} redirects")

    def _exchange(
        self, msg: dict[str, Any], method: str, rid: int, deadline: float, timeout: float
    ) -> Reply:
        with self._post(msg, method, deadline) as resp:
            session = resp.headers.get("mcp-session-id")
            if session is not None and not self._modern and method == "initialize":
                self._session = session
            ctype = resp.headers.get("content-type", "").split(";")[0].strip().lower()
            status = resp.status_code
            if ctype in (JSON_TYPE, SSE):
                self.events.answer(method, ctype)
            if ctype == "text/event-stream" and status < 300:
                return self._read_sse(resp, method, rid, deadline, timeout)
            raw = self._read_body(resp, deadline, method)
            text, bad_utf8 = decode_utf8(raw)
            kind, value, members = classify(text, bad_utf8)
            if kind == "refused":
                raise ServerError(f"{self.describe()}, {method}: the body cannot be read: {value}")
            if kind == "response" and members is not None and (status < 300 or "error" in members):
                # NOTE: a 4xx with a JSON-RPC error body is an answer (era detection reads it).
                return reply_from(method, text, members, bad_utf8, None if status < 300 else status)
            if kind == "request" and value == msg:
                raise ServerError(
                    f"{self.describe()}, {method}: the body repeats our own {method} request "
                    "instead of answering (an echo endpoint, not an MCP server?)"
                )
            if status in (400, 404, 405) and kind != "response":
                raise NotStreamable(
                    f"{self.describe()}, {method}: HTTP {status}" + _body_story(raw)
                )
            if status >= 300:
                raise ServerError(f"{self.describe()}, {method}: HTTP {status}" + _body_story(raw))
            if ctype != "application/json":
                raise ServerError(
                    f"{self.describe()}, {method}: HTTP {status} with Content-Type "
                    f"{ctype or 'none'}, not JSON or SSE" + _body_story(raw)
                )
            raise ServerError(
                f"{self.describe()}, {method}: the body is not a JSON-RPC response"
                + _body_story(raw)
            )

    def _body(self, resp: httpx.Response) -> tuple[Iterator[bytes], str]:
        """The decoded body as it arrives, and ` once decoded (gzip)` for size messages."""
        applied = codings(resp.headers.get("content-encoding"))
        self.events.content_codings.update(applied)
        said = f" once decoded ({', '.join(applied)})" if applied else ""
        return decoded(resp.iter_raw(), applied), said

    def _read_body(self, resp: httpx.Response, deadline: float, method: str) -> bytes:
        data = bytearray()
        pieces, said = self._body(resp)
        for piece in pieces:
            data += piece
            if len(data) > self._limits.max_message:
                raise ServerError(
                    f"{self.describe()}, {method}: the body exceeded "
                    f"{self._limits.max_message} bytes{said} (see --max-message-size)"
                )
            if time.monotonic() > deadline:
                raise httpx.ReadTimeout("deadline")
        return bytes(data)

    def _read_sse(
        self, resp: httpx.Response, method: str, rid: int, deadline: float, timeout: float
    ) -> Reply:
        for data in self._sse_events(resp, method, deadline):
            if not data.strip():
                continue  # priming event (P:2025-11-25 transports: empty data with an id)
            text, bad_utf8 = decode_utf8(data)
            kind, value, members = classify(text, bad_utf8)
            if kind == "refused":
                raise ServerError(f"{self.describe()}, {method}: an event cannot be read: {value}")
            if kind == "response" and members is not None:
                if value.get("id") == rid:
                    return reply_from(method, text, members, bad_utf8)
                self.events.non_json("[unexpected response id] " + text)
            elif kind == "request":
                self.events.server_request(value["method"])
                self._answer(value, deadline)
            elif kind == "notification":
                self.events.notification(value["method"])
            else:
                self.events.non_json(text)
        raise ServerError(f"{self.describe()}, {method}: the SSE stream ended without a response")

    def _sse_events(self, resp: httpx.Response, method: str, deadline: float) -> Iterator[bytes]:
        """Yield the data of each SSE event that has data lines (`wire/eventstream.py`),
        within the deadline."""
        limit = self._limits.max_message
        pieces, said = self._body(resp)

        def too_big() -> ServerError:
            return ServerError(
                f"{self.describe()}, {method}: an SSE event exceeded "
                f"{limit} bytes{said} (see --max-message-size)"
            )

        for event in eventstream.events(_within(pieces, deadline), limit, too_big):
            if event.lines:
                yield event.data

    def _answer(self, request: dict[str, Any], deadline: float) -> None:
        """POST our answer within the deadline of the request whose stream carried it."""
        answer = answer_server_request(request, self._roots)
        try:
            with self._post(answer, str(request.get("method")), deadline):
                pass
        except (httpx.HTTPError, ServerError):
            pass
        if time.monotonic() > deadline:
            raise httpx.ReadTimeout("deadline")  # events already read wait no longer either


def _http_error(exc: httpx.HTTPError) -> str:
    if isinstance(exc, httpx.ConnectError):
        return "cannot connect (is the server running and the URL right?)"
    return f"{type(exc).__name__}: {excerpt(str(exc))}"


def _within(pieces: Iterator[bytes], deadline: float) -> Iterator[bytes]:
    """The pieces of a body, each read before the deadline."""
    for piece in pieces:
        if time.monotonic() > deadline:
            raise httpx.ReadTimeout("deadline")
        yield piece


def _body_story(raw: bytes) -> str:
    """`; body: <excerpt>`, or how many bytes of binary data, never the bytes themselves."""
    text, bad_utf8 = decode_utf8(raw)
    text = text.strip()
    if not text:
        return " (empty body)"
    if bad_utf8 or any(c < " " and c not in "\t\n\r" or "\x7f" <= c <= "\x9f" for c in text):
        return f"; body: {len(raw)} bytes of binary data, starting {raw[:8].hex(' ')}"
    return f"; body: {excerpt(text, 120)}"
