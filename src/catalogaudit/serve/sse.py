"""The HTTP+SSE transport of 2024-11-05 for `catalogaudit serve --http PORT --transport sse`
(P:2024-11-05/basic/transports "HTTP with SSE").

`GET /sse` opens a session's event stream; its first event is `endpoint`, whose data is
`/messages?session_id=ID`; every client message is POSTed there (202, no body) and each
answer comes back on the stream as a `message` event. A stream with nothing to send for
`--idle-timeout` seconds ends (a keep-alive comment is sent meanwhile), and so does its session.
Both eras are answered as on stdio: the 2026-07-28 header rules belong to Streamable HTTP.
"""

from __future__ import annotations

import queue
import secrets
from typing import Any
from urllib.parse import parse_qs, urlsplit

from catalogaudit.model import WireDecodeError, decode_utf8, loads
from catalogaudit.serve.replay import error_text
from catalogaudit.serve.stdio import encode

STREAM_PATH, POST_PATH = "/sse", "/messages"
#: How often an idle stream gets a keep-alive comment (and looks whether the server stops).
KEEPALIVE = 5.0


def stream(handler: Any) -> None:
    """Serve one session's event stream until the client leaves or it idles out."""
    server = handler.server
    sid = secrets.token_hex(16)
    outbox: queue.SimpleQueue[str] = queue.SimpleQueue()
    with server.lock:
        server.sse_sessions[sid] = outbox
    try:
        handler.send_response(200)
        handler.send_header("Content-Type", "text/event-stream")
        handler.send_header("Cache-Control", "no-cache")
        handler.send_header("Connection", "close")
        handler.end_headers()
        handler.close_connection = True
        _write(handler, f"event: endpoint\ndata: {POST_PATH}?session_id={sid}\n\n")
        idle = 0.0
        while idle < server.idle:
            try:
                text = outbox.get(timeout=min(KEEPALIVE, server.idle))
            except queue.Empty:
                idle += min(KEEPALIVE, server.idle)
                _write(handler, ": keep-alive\n\n")
                continue
            idle = 0.0
            data = "".join(f"data: {line}\n" for line in text.split("\n"))
            _write(handler, f"event: message\n{data}\n")
    except OSError:
        pass  # the client left
    finally:
        with server.lock:
            server.sse_sessions.pop(sid, None)


def post(handler: Any, raw: bytes) -> None:
    """Take one message for a session: 202, and its answer goes out on the session's stream."""
    server = handler.server
    sid = (parse_qs(urlsplit(handler.path).query).get("session_id") or [""])[0]
    with server.lock:
        outbox = server.sse_sessions.get(sid)
    if outbox is None:
        handler._send(404, b"unknown or ended session\n", {"Content-Type": "text/plain"})
        return
    text, _ = decode_utf8(raw)
    try:
        msg = loads(text)
    except WireDecodeError:
        handler._send(400, b"Parse error\n", {"Content-Type": "text/plain"})
        return
    handler._send(202, b"Accepted\n", {"Content-Type": "text/plain"})
    answer = _answer(server.replay, msg)
    if answer is not None:
        outbox.put(answer)


def _answer(replay: Any, msg: Any) -> str | None:
    """The answer text, as stdio gives it (None for a notification)."""
    if not isinstance(msg, dict):
        return error_text(None, -32600, "Invalid Request: one JSON object per POST")
    return replay.answer(msg).text  # type: ignore[no-any-return]


def _write(handler: Any, text: str) -> None:
    handler.wfile.write(encode(text))
    handler.wfile.flush()
    handler.server.watch(handler.connection)  # NOTE: a live stream is not a slow client
