"""`proxy --listen PORT --url URL`: Streamable HTTP in front of a Streamable HTTP server.

Each request is sent on to `--url` with its method, headers (hop-by-hop ones dropped; the body
asked for unencoded, so it can be read) and body, and the answer comes back with its status,
headers and body. The answer to a list request of a session with a fix on is rewritten as over
stdio (`Session.from_server`): a JSON body whole, an event stream event by event (only the
event holding the answer; every other byte of the stream passes as it came). A session is one
client: named in the `_meta` of each 2026-07-28 request, or in `initialize` and then known by
the `Mcp-Session-Id` the server gave it, so sessions of different clients get their own answers.

The client side is `serve`'s server (`serve.conns`: bounded connections and idle cycles),
bound to loopback unless `--host` says otherwise; bodies are bounded by `--max-message-size`,
every read from the server by `--request-timeout` (a GET event stream has no read bound: it
may be quiet for long; `--idle-timeout` still ends it). Headers and URLs are never printed.
"""

from __future__ import annotations

import signal
import sys
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler
from typing import Any

import httpx

from catalogaudit.proxy.session import Client, Policy, Session
from catalogaudit.serve import Connections, Stopped, install_sigterm, stopped
from catalogaudit.wire import Limits

#: Headers that belong to one connection, not to the message (RFC 9110 7.6.1), and those we
#: set ourselves (the length and coding of what we send).
HOP = frozenset(
    "connection keep-alive proxy-connection transfer-encoding te trailer upgrade host "
    "content-length content-encoding accept-encoding proxy-authorization".split()
)
#: Sessions remembered by their Mcp-Session-Id, at most (the oldest is forgotten).
MAX_SESSIONS = 4096
SSE = "text/event-stream"


class _Server(Connections):
    upstream: str
    http: httpx.Client
    policy: Policy
    limits: Limits
    note: Callable[[str], None]
    clients: OrderedDict[str, Client | None]


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server: _Server

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
        """Log nothing: request lines and headers may carry secrets."""

    def setup(self) -> None:
        super().setup()
        self.connection.settimeout(self.server.idle)

    def handle(self) -> None:
        try:
            super().handle()
        except (ConnectionError, TimeoutError):
            pass  # a client closing a keep-alive connection (or idling past it) is normal

    def handle_one_request(self) -> None:
        super().handle_one_request()
        self.server.answering(self.connection, False)
        self.server.watch(self.connection)

    def do_GET(self) -> None:
        self._relay("GET", b"")

    def do_DELETE(self) -> None:
        self._relay("DELETE", b"")

    def do_POST(self) -> None:
        try:
            length = int(self.headers.get("Content-Length") or 0)
        except ValueError:
            length = -1
        if length < 0 or length > self.server.limits.max_message:
            self.close_connection = True  # the unread body must not be taken for a request
            self._plain(413 if length > 0 else 400, b"bad Content-Length\n")
            return
        self._relay("POST", self.rfile.read(length) if length > 0 else b"")

    def _plain(self, status: int, body: bytes) -> None:
        self.send_response(status)
        self.send_header("Content-Type", "text/plain")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def _relay(self, method: str, body: bytes) -> None:
        server = self.server
        server.answering(self.connection, True)
        sid = self.headers.get("Mcp-Session-Id")
        with server.lock:
            known = server.clients.get(sid) if sid else None
        agent = Client.of_agent(self.headers.get("User-Agent"))
        session = Session(server.policy, server.note, known, agent)
        if body:
            session.from_client(body)
        headers = [(k, v) for k, v in self.headers.items() if k.lower() not in HOP]
        headers.append(("Accept-Encoding", "identity"))
        bound = server.limits.request_timeout
        timeout = httpx.Timeout(bound, read=None if method == "GET" else bound)
        request = server.http.build_request(
            method, server.upstream, headers=headers, content=body, timeout=timeout
        )
        try:
            answer = server.http.send(request, stream=True)
        except httpx.HTTPError as exc:
            self._plain(
                502, f"bad gateway: the server did not answer ({type(exc).__name__})\n".encode()
            )
            return
        try:
            self._answer(answer, session)
        except httpx.HTTPError:
            self.close_connection = True  # the answer broke off; so does ours
        finally:
            answer.close()
        given = answer.headers.get("Mcp-Session-Id")
        if given and session.client is not None:
            with server.lock:
                server.clients[given] = session.client
                while len(server.clients) > MAX_SESSIONS:
                    server.clients.popitem(last=False)

    def _answer(self, answer: httpx.Response, session: Session) -> None:
        self.send_response(answer.status_code)
        for key, value in answer.headers.multi_items():
            if key.lower() not in HOP:
                self.send_header(key, value)
        kind = answer.headers.get("Content-Type", "").split(";")[0].strip().lower()
        if answer.status_code in (204, 304):  # no body, by definition (RFC 9110 15.3.5)
            self.end_headers()
        elif not session.waiting():
            self._chunks(answer.iter_bytes())
        elif kind == SSE:
            self._chunks(self._events(answer.iter_bytes(), session))
        else:
            body = _bounded(answer.iter_bytes(), self.server.limits.max_message)
            new = session.from_server(body) if kind == "application/json" else body
            self.send_header("Content-Length", str(len(new)))
            self.end_headers()
            self.wfile.write(new)

    def _chunks(self, pieces: Iterator[bytes]) -> None:
        """The body as it comes, chunked (keep-alive survives an answer of unknown length)."""
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        for piece in pieces:
            if piece:
                self.wfile.write(b"%x\r\n%s\r\n" % (len(piece), piece))
                self.wfile.flush()
                self.server.watch(self.connection)  # a live stream is not idle
        self.wfile.write(b"0\r\n\r\n")

    def _events(self, pieces: Iterator[bytes], session: Session) -> Iterator[bytes]:
        """The event stream with the event holding our answer rewritten, the rest as it came."""
        buf = bytearray()
        limit = self.server.limits.max_message
        for piece in pieces:
            buf += piece
            while True:
                end, size = _event_end(buf)
                if end < 0:
                    break
                yield _event(bytes(buf[:end]), session) + bytes(buf[end : end + size])
                del buf[: end + size]
            if len(buf) > limit:
                raise httpx.DecodingError("an event exceeded --max-message-size")
        if buf:
            yield bytes(buf)


def _event_end(buf: bytearray) -> tuple[int, int]:
    """Where the first event's blank line starts and how long it is ((-1, 0): none yet)."""
    found = [(buf.find(sep), len(sep)) for sep in (b"\n\n", b"\r\n\r\n", b"\r\r")]
    found = [f for f in found if f[0] >= 0]
    return min(found) if found else (-1, 0)


def _event(block: bytes, session: Session) -> bytes:
    """One event's lines, its data rewritten when it is the answer to a pending list call."""
    lines = block.splitlines()
    data = [ln[5:].removeprefix(b" ") for ln in lines if ln.startswith(b"data:")]
    if not data:
        return block
    joined = b"\n".join(data)
    new = session.from_server(joined)
    if new == joined:
        return block
    nl = b"\r\n" if b"\r\n" in block else b"\n"
    kept = [ln for ln in lines if not ln.startswith(b"data:")]
    return nl.join([*kept, b"data: " + new])


def _bounded(pieces: Iterator[bytes], limit: int) -> bytes:
    out = bytearray()
    for piece in pieces:
        out += piece
        if len(out) > limit:
            raise httpx.DecodingError("the answer exceeded --max-message-size")
    return bytes(out)


def run_http(
    url: str,
    host: str,
    port: int,
    idle: float,
    policy: Policy,
    limits: Limits,
    say: Callable[[str], None],
) -> int:
    """Listen until SIGTERM; say the URL on stderr once listening."""
    httpd = _Server.bound(host, port, _Handler)
    said: OrderedDict[str, None] = OrderedDict()

    def once(line: str) -> None:  # the same client on every stateless request: said once
        if line not in said:
            said[line] = None
            while len(said) > MAX_SESSIONS:
                said.popitem(last=False)
            say(line)

    httpd.upstream, httpd.policy, httpd.limits, httpd.note = url, policy, limits, once
    httpd.clients = OrderedDict()
    httpd.http = httpx.Client(trust_env=False, follow_redirects=False)
    httpd.limit(idle)
    install_sigterm()
    threads = [
        threading.Thread(target=httpd.serve_forever, name="proxy-http", daemon=True),
        threading.Thread(target=httpd.watchdog, name="proxy-idle", daemon=True),
    ]
    started = False
    try:
        shown = f"[{host}]" if ":" in host else host
        sys.stderr.write(f"listening on http://{shown}:{httpd.server_address[1]}/mcp\n")
        sys.stderr.flush()
        # NOTE: SIGTERM held back while the threads start, as `serve --http` does.
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGTERM})
        try:
            for t in threads:
                t.start()
            started = True
        finally:
            signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM})
        done = threading.Event()
        while not done.wait(1.0):
            pass
        return 0  # pragma: no cover - only a signal ends the wait
    except Stopped as exc:
        return stopped(str(exc), "proxy")
    finally:
        if started:
            httpd.shutdown()
            threads[0].join(5)
        httpd.server_close()
        httpd.http.close()
