"""`proxy --url URL` without `--listen`: a stdio client in front of a Streamable HTTP server.

Each line from the client is POSTed to `--url` as it came (P:2025-11-25 and P:2026-07-28
basic/transports: `Accept` of JSON and event streams; `Mcp-Session-Id` once `initialize` gave
one; `MCP-Protocol-Version`, the negotiated or the request's `_meta` revision; `Mcp-Method` at
2026-07-28), and every message of the answer, a JSON body or the events of a stream, becomes
one line to the client, through `Session.from_server` (the fixes). Requests are sent from a
bounded pool of threads, so a slow call does not hold the list calls behind it. A request the
server does not answer gets a JSON-RPC error from us. Once the client has sent
`notifications/initialized` in a legacy session, the standalone GET event stream is opened
(P:2025-11-25 basic/transports "Listening for Messages from the Server"), and what the server
sends on it (its requests and notifications) becomes lines to the client as well; a server
that answers the GET with 405 has none. At stdin EOF the session is ended (DELETE).
"""

from __future__ import annotations

import sys
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx

from catalogaudit.model import MODERN_VERSIONS, WireDecodeError, decode_utf8, loads
from catalogaudit.proxy.session import Policy, Session
from catalogaudit.serve import Stopped, each_line, error_text, install_sigterm, stopped
from catalogaudit.wire import Limits

#: Requests in flight at once.
WORKERS = 8
_VERSION = "io.modelcontextprotocol/protocolVersion"


class _Bridge:
    def __init__(self, url: str, session: Session, limits: Limits) -> None:
        self.url, self.session, self.limits = url, session, limits
        self.http = httpx.Client(trust_env=False, timeout=limits.request_timeout)
        self.lock = threading.Lock()
        self.sid: str | None = None
        self.version: str | None = None
        self.listening = False

    def write(self, line: bytes) -> None:
        # NOTE: a line break inside a JSON body can only be whitespace between tokens.
        line = line.replace(b"\r\n", b" ").replace(b"\n", b" ").replace(b"\r", b" ")
        with self.lock:
            sys.stdout.buffer.write(line + b"\n")
            sys.stdout.buffer.flush()

    def send(self, raw: bytes) -> None:
        """POST one client message and relay its answer (run on a pool thread)."""
        try:
            msg: Any = loads(decode_utf8(raw)[0])
        except (WireDecodeError, RecursionError):
            msg = None
        method = msg.get("method") if isinstance(msg, dict) else None
        rid = msg.get("id") if isinstance(msg, dict) and isinstance(method, str) else None
        params = msg.get("params") if isinstance(msg, dict) else None
        meta = params.get("_meta") if isinstance(params, dict) else None
        modern = meta.get(_VERSION) if isinstance(meta, dict) else None
        headers = {
            "Content-Type": "application/json",
            "Accept": "application/json, text/event-stream",
        }
        if self.sid:
            headers["Mcp-Session-Id"] = self.sid
        version = modern if isinstance(modern, str) else self.version
        if version:
            headers["MCP-Protocol-Version"] = version
        if isinstance(modern, str) and isinstance(method, str):
            headers["Mcp-Method"] = method
        try:
            with self.http.stream("POST", self.url, content=raw, headers=headers) as answer:
                self._answer(answer, method, rid)
        except httpx.HTTPError as exc:
            if rid is not None:
                why = f"the server did not answer ({type(exc).__name__})"
                self.write(error_text(rid, -32000, why).encode())
        if method == "notifications/initialized" and self.version not in MODERN_VERSIONS:
            self.listen()

    def listen(self) -> None:
        """Open the standalone GET event stream once, on a thread of its own."""
        with self.lock:
            if self.listening:
                return
            self.listening = True
        threading.Thread(target=self._stream, name="proxy-bridge-get", daemon=True).start()

    def _stream(self) -> None:
        headers = {"Accept": "text/event-stream"}
        if self.sid:
            headers["Mcp-Session-Id"] = self.sid
        if self.version:
            headers["MCP-Protocol-Version"] = self.version
        # NOTE: no read bound: the stream may be quiet for long; stdin EOF closes the client.
        timeout = httpx.Timeout(self.limits.request_timeout, read=None)
        try:
            with self.http.stream("GET", self.url, headers=headers, timeout=timeout) as answer:
                kind = answer.headers.get("Content-Type", "").split(";")[0].strip().lower()
                if answer.status_code == 200 and kind == "text/event-stream":
                    self._events(answer, None)
        except (httpx.HTTPError, RuntimeError, OSError, ValueError):
            pass  # the stream or the client closed, or stdout did: nothing more to relay

    def _answer(self, answer: httpx.Response, method: Any, rid: Any) -> None:
        if method == "initialize" and answer.headers.get("Mcp-Session-Id"):
            self.sid = answer.headers["Mcp-Session-Id"]
        kind = answer.headers.get("Content-Type", "").split(";")[0].strip().lower()
        if kind == "text/event-stream":
            self._events(answer, method)
            return
        body = bytearray()
        for piece in answer.iter_bytes():
            body += piece
            if len(body) > self.limits.max_message:
                raise httpx.DecodingError("the answer exceeded --max-message-size")
        if kind == "application/json" and body.strip():
            self._message(bytes(body), method)
        elif rid is not None and answer.status_code >= 400:
            why = f"HTTP {answer.status_code} from the server"
            self.write(error_text(rid, -32000, why).encode())

    def _events(self, answer: httpx.Response, method: Any) -> None:
        """Each event's data of a stream as one message to the client."""
        data: list[bytes] = []
        size = 0
        for line in answer.iter_lines():
            raw = line.encode("utf-8", "surrogateescape")
            if raw.startswith(b"data:"):
                data.append(raw[5:].removeprefix(b" "))
                size += len(raw)
                if size > self.limits.max_message:
                    raise httpx.DecodingError("an event exceeded --max-message-size")
            elif not raw and data:
                self._message(b"\n".join(data), method)
                data, size = [], 0
        if data:
            self._message(b"\n".join(data), method)

    def _message(self, raw: bytes, method: Any) -> None:
        if method == "initialize":
            try:
                result = loads(decode_utf8(raw)[0]).get("result")
                if isinstance(result, dict) and isinstance(result.get("protocolVersion"), str):
                    self.version = result["protocolVersion"]
            except (WireDecodeError, AttributeError, RecursionError):
                pass
        self.write(self.session.from_server(raw))

    def end(self) -> None:
        """End the server's session (DELETE, as the transport pages ask), then close."""
        if self.sid:
            try:
                self.http.delete(self.url, headers={"Mcp-Session-Id": self.sid})
            except httpx.HTTPError:
                pass
        self.http.close()


def run_bridge(url: str, policy: Policy, limits: Limits, say: Any) -> int:
    """Relay our stdio to the HTTP server until stdin closes or SIGTERM; the exit code."""
    bridge = _Bridge(url, Session(policy, say), limits)
    pool = ThreadPoolExecutor(WORKERS, thread_name_prefix="proxy-bridge")

    def handle(line: bytes) -> None:
        if not line.strip():
            return
        if len(line) > limits.max_message:
            too_long()
            return
        bridge.session.from_client(line)
        future = pool.submit(bridge.send, line)
        try:
            msg = loads(decode_utf8(line)[0])
        except (WireDecodeError, RecursionError):
            return
        # NOTE: `initialize` is answered before anything else is sent (its session id and
        # revision go on every later request), and a notification reaches the server before
        # the requests after it (`notifications/initialized` first); requests run side by side.
        if isinstance(msg, dict) and (msg.get("method") == "initialize" or "id" not in msg):
            future.result()

    def too_long() -> None:
        say(f"a client message exceeded {limits.max_message} bytes: dropped")
        bridge.write(error_text(None, -32700, "Parse error: line too long").encode())

    try:
        install_sigterm()
        why = each_line(handle, too_long, max_line=limits.max_message)
        pool.shutdown(wait=True)
        return stopped(why, "proxy")
    except Stopped as exc:
        return stopped(str(exc), "proxy")
    except BrokenPipeError:
        return stopped("the client closed stdout", "proxy")
    finally:
        pool.shutdown(wait=False, cancel_futures=True)
        bridge.end()
