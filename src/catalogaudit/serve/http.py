"""Streamable HTTP transport of `catalogaudit serve` (stdlib `http.server`, one `/mcp` endpoint).

POST only carries messages (P:2025-11-25 and P:2026-07-28 basic/transports). A 2026-07-28
request must carry `MCP-Protocol-Version` equal to its `_meta` version and `Mcp-Method` equal
to its method (else 400 + -32020); errors map to 404 (-32601) or 400, as the 2026-07-28 pages
say. Legacy sessions get an `Mcp-Session-Id` on `initialize`, must echo it (400 without, 404
for an unknown one) and end with DELETE. GET is 405 in both eras (no standalone SSE stream),
DELETE is 405 when only 2026-07-28 is served. Notifications get 202. Bound to loopback unless
`--host` says otherwise, and a browser `Origin` from elsewhere is refused (403).

Under load, connections are bounded as `serve.conns` says.
"""

from __future__ import annotations

import secrets
import signal
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from catalogaudit.model import LEGACY_VERSIONS, WireDecodeError, decode_utf8, loads
from catalogaudit.serve import sse
from catalogaudit.serve.conns import Connections
from catalogaudit.serve.lifecycle import Stopped, install_sigterm, stopped
from catalogaudit.serve.replay import Answer, error_text
from catalogaudit.serve.stdio import encode

if TYPE_CHECKING:
    from catalogaudit.serve.replay import Replay, ServeOptions

PATH = "/mcp"
MAX_BODY = 16 * 1024 * 1024
LOOPBACK = ("127.0.0.1", "localhost", "::1")


def status_of(answer: Answer) -> int:
    """HTTP status of an answer: 2026-07-28 maps errors to 404/400; legacy answers 200."""
    if answer.code is None or answer.era != "modern":
        return 200
    if answer.code == -32601:
        return 404
    return 500 if answer.code == -32603 else 400


class _Server(Connections):
    replay: Replay
    sse: bool
    #: `--transport sse`: the HTTP+SSE transport of 2024-11-05 (`serve.sse`), its sessions.
    legacy_sse: bool
    sse_sessions: dict[str, Any]
    sessions: set[str]


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "catalogaudit-serve"
    sys_version = ""
    server: _Server

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
        """Log nothing: stderr is the user's, and request lines may carry secrets."""

    def version_string(self) -> str:
        """`Server: catalogaudit-serve`: the base class appends `sys_version` after a space."""
        return self.server_version

    def setup(self) -> None:
        super().setup()
        self.connection.settimeout(self.server.idle)  # each read and write, besides the watchdog

    def handle(self) -> None:
        try:
            super().handle()
        except (ConnectionError, TimeoutError):
            pass  # a client closing a keep-alive connection (or idling past it) is normal

    def handle_one_request(self) -> None:
        super().handle_one_request()
        self.server.answering(self.connection, False)
        self.server.watch(self.connection)  # the next request gets the whole idle timeout

    # --- plumbing -------------------------------------------------------------------------------

    def _send(self, status: int, body: bytes = b"", headers: dict[str, str] | None = None) -> None:
        self.send_response(status)
        for key, value in (headers or {}).items():
            self.send_header(key, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def _rpc(self, status: int, text: str, headers: dict[str, str] | None = None) -> None:
        headers = dict(headers or {})
        if self.server.sse and status == 200:
            data = "".join(f"data: {line}\n" for line in text.split("\n"))
            headers.update({"Content-Type": "text/event-stream", "Cache-Control": "no-cache"})
            self._send(status, encode(f"event: message\n{data}\n"), headers)
            return
        headers["Content-Type"] = "application/json"
        self._send(status, encode(text), headers)

    def _allowed(self, legacy_sse_path: str = sse.POST_PATH) -> bool:
        """Path and Origin checks shared by every verb (404, 403)."""
        path = legacy_sse_path if self.server.legacy_sse else PATH
        if urlsplit(self.path).path != path:
            said = f"not found: the MCP endpoint is {self._endpoint()}\n".encode()
            self._send(404, said, {"Content-Type": "text/plain"})
            return False
        origin = self.headers.get("Origin")
        host = self.server.server_address[0]
        if origin and str(host) in LOOPBACK and urlsplit(origin).hostname not in LOOPBACK:
            self._send(403, b"forbidden: Origin is not loopback\n", {"Content-Type": "text/plain"})
            return False
        return True

    # --- verbs ----------------------------------------------------------------------------------

    def _endpoint(self) -> str:
        return sse.STREAM_PATH if self.server.legacy_sse else PATH

    def do_GET(self) -> None:
        self.server.answering(self.connection, True)
        if self.server.legacy_sse:
            if self._allowed(sse.STREAM_PATH):
                sse.stream(self)
            return
        if self._allowed():
            allow = "POST, DELETE" if self.server.replay.legacy else "POST"
            self._send(405, b"", {"Allow": allow})

    def do_DELETE(self) -> None:
        self.server.answering(self.connection, True)
        if not self._allowed():
            return
        if self.server.legacy_sse or not self.server.replay.legacy:
            self._send(405, b"", {"Allow": "POST"})
            return
        sid = self.headers.get("Mcp-Session-Id")
        if sid is None:
            self._rpc(400, error_text(None, -32000, "Bad Request: Mcp-Session-Id is required"))
            return
        with self.server.lock:
            known = sid in self.server.sessions
            self.server.sessions.discard(sid)
        if known:
            self._send(200)
        else:
            self._rpc(404, error_text(None, -32001, "Session not found"))

    def do_POST(self) -> None:
        try:
            length = int(self.headers.get("Content-Length") or 0)
        except ValueError:
            length = -1
        if length < 0 or length > MAX_BODY:
            self.close_connection = True  # the unread body must not be taken for a request
            self._send(413 if length > 0 else 400, b"bad Content-Length\n")
            return
        # NOTE: read the body before any refusal, or its bytes would be parsed as the next
        # request on this keep-alive connection.
        raw = self.rfile.read(length) if length > 0 else b""
        self.server.answering(self.connection, True)
        if not self._allowed():
            return
        if self.server.legacy_sse:
            sse.post(self, raw)
            return
        text, _ = decode_utf8(raw)
        try:
            msg = loads(text)
        except WireDecodeError:
            self._rpc(400, error_text(None, -32700, "Parse error"))
            return
        if not isinstance(msg, dict):
            self._rpc(400, error_text(None, -32600, "Invalid Request: one JSON object per POST"))
            return
        method = msg.get("method")
        if not isinstance(method, str):
            self._send(202)  # a response to a request we never send
            return
        if self._era(method, msg.get("params")) == "modern":
            self._modern(msg, method)
        else:
            self._legacy(msg, method)

    def _era(self, method: str, params: Any) -> str:
        replay = self.server.replay
        header = self.headers.get("MCP-Protocol-Version")
        if replay.legacy and replay.modern and method != "initialize" and header:
            # NOTE: a dual server tells eras apart by the header too: a legacy client sends
            # its negotiated legacy revision there, a 2026-07-28 client sends 2026-07-28.
            return "legacy" if header in LEGACY_VERSIONS else "modern"
        return replay.era_of(method, params)

    def _modern(self, msg: dict[str, Any], method: str) -> None:
        replay = self.server.replay
        rid = msg.get("id")
        if method != "initialize":
            params = msg.get("params")
            meta = params.get("_meta") if isinstance(params, dict) else None
            version = meta.get("io.modelcontextprotocol/protocolVersion") if meta else None
            header = self.headers.get("MCP-Protocol-Version")
            problem = None
            if header is None:
                problem = "MCP-Protocol-Version header is required"
            elif self.headers.get("Mcp-Method") != method:
                problem = "Mcp-Method header is missing or differs from the body's method"
            elif isinstance(version, str) and version != header:
                problem = "MCP-Protocol-Version header differs from _meta protocolVersion"
            if problem is not None:
                self._rpc(400, error_text(rid, -32020, f"Header mismatch: {problem}"))
                return
            if "id" in msg:
                bad = replay.check_meta(rid, params)
                if bad is not None and bad.text is not None:
                    self._rpc(status_of(bad), bad.text)
                    return
        answer = replay.answer(msg)
        if answer.text is None:
            self._send(202)
        else:
            self._rpc(status_of(answer), answer.text)

    def _legacy(self, msg: dict[str, Any], method: str) -> None:
        replay = self.server.replay
        if method == "initialize":
            answer = replay.answer(msg)
            headers: dict[str, str] = {}
            if answer.code is None and answer.text is not None:
                sid = secrets.token_hex(16)
                with self.server.lock:
                    self.server.sessions.add(sid)
                headers["Mcp-Session-Id"] = sid
            if answer.text is None:
                self._send(202)
            else:
                self._rpc(status_of(answer), answer.text, headers)
            return
        if method != "server/discover":
            session = self.headers.get("Mcp-Session-Id")
            if session is None:
                self._rpc(400, error_text(None, -32000, "Bad Request: Mcp-Session-Id is required"))
                return
            with self.server.lock:
                known = session in self.server.sessions
            if not known:
                self._rpc(404, error_text(None, -32001, "Session not found"))
                return
            version = self.headers.get("MCP-Protocol-Version")
            if version is not None and version not in (*LEGACY_VERSIONS, replay.negotiated):
                self._rpc(400, error_text(None, -32000, f"Unsupported protocol version {version}"))
                return
        answer = replay.answer(msg)
        if answer.text is None:
            self._send(202)
        else:
            self._rpc(status_of(answer), answer.text)


def make_server(
    replay: Replay,
    host: str,
    port: int,
    sse_answers: bool,
    idle: float = 30.0,
    legacy_sse: bool = False,
) -> _Server:
    """Bind the listener (one `error:` line when the port is taken or the host is wrong)."""
    httpd = _Server.bound(host, port, _Handler)
    httpd.replay = replay
    httpd.sse = sse_answers
    httpd.legacy_sse = legacy_sse
    httpd.sse_sessions = {}
    httpd.sessions = set()
    httpd.limit(idle)
    return httpd


def serve_http(replay: Replay, options: ServeOptions) -> int:
    """Serve until SIGTERM or the deadline; print the URL to stderr once listening."""
    deadline = None if options.max_seconds is None else time.monotonic() + options.max_seconds
    httpd: _Server | None = None
    started = False
    install_sigterm()
    try:
        legacy_sse = options.transport == "sse"
        httpd = make_server(
            replay,
            options.host,
            options.http_port or 0,
            options.sse,
            options.idle_timeout,
            legacy_sse,
        )
        port = httpd.server_address[1]
        shown = f"[{options.host}]" if ":" in options.host else options.host
        path = sse.STREAM_PATH if legacy_sse else PATH
        sys.stderr.write(f"listening on http://{shown}:{port}{path}\n")
        sys.stderr.flush()
        thread = threading.Thread(target=httpd.serve_forever, name="serve-http", daemon=True)
        watchdog = threading.Thread(target=httpd.watchdog, name="serve-idle", daemon=True)
        # NOTE: SIGTERM is held back while the thread starts: raised inside `start()`, it
        # would leave a thread serving on a socket we are closing. Threads inherit the mask,
        # so the signal always reaches the main thread, where the handler runs.
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGTERM})
        try:
            thread.start()
            watchdog.start()
            started = True
        finally:
            signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM})
        done = threading.Event()
        while True:
            left = 1.0 if deadline is None else min(1.0, deadline - time.monotonic())
            if left <= 0:
                raise Stopped(f"--max-seconds {options.max_seconds:g} reached")
            done.wait(left)
    except Stopped as exc:
        return stopped(str(exc))
    finally:
        if httpd is not None:
            if started:  # NOTE: shutdown() waits forever unless serve_forever ran
                httpd.shutdown()
                thread.join(5)
            httpd.server_close()
