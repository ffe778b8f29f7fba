"""A stand-in for the Anthropic Messages API on loopback: no model, no key, no internet.

A client pointed at it (`ANTHROPIC_BASE_URL=http://127.0.0.1:PORT`) sends it exactly what it
would send the model; every request is recorded byte for byte (method, path, headers without
credentials, raw body). `POST /v1/messages` plays a script, streamed as server-sent events
(`message_start`, `content_block_start/delta/stop`, `message_delta`, `message_stop`) or as one
JSON message, as the request asks:

- a request whose `tools` hold tools of the plan that no earlier turn called gets one
  `tool_use` block per such tool, all in one turn, with arguments made from the `input_schema`
  the client sent (`serve.instances`), so a well-behaved server accepts them; with `search`,
  a request that only names them as deferred first gets a `ToolSearch` call that loads them;
- any other request (the turn after the `tool_result`s, the client's side requests) gets a
  short text and `end_turn`.

`POST /v1/messages/count_tokens` answers a token count; anything else is recorded and answered
`{}`. Only 127.0.0.1 is bound.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from catalogaudit.serve import instance

#: Headers that carry a credential: never recorded.
_SECRET = ("x-api-key", "authorization", "proxy-authorization", "cookie")
FINAL_TEXT = "Done."
#: The prefix of the ids of the `tool_use` blocks the stand-in writes.
TOOL_USE_ID = "toolu_catalogaudit_"
#: Claude Code's tool that loads deferred tools.
SEARCH = "ToolSearch"


@dataclass(frozen=True)
class Recorded:
    """One request as it arrived: method, path, headers (credentials left out), body bytes."""

    method: str
    path: str
    headers: dict[str, str]
    body: bytes

    def json(self) -> Any:
        """The parsed body (None when it is not JSON)."""
        try:
            return json.loads(self.body)
        except ValueError:
            return None


@dataclass
class Script:
    """What to call: `wanted(name)` says whether a tool offered to the model is to be called."""

    wanted: Callable[[str], bool]
    #: Tool name -> the arguments the stand-in sent (filled as it plays).
    sent: dict[str, Any] = field(default_factory=dict)
    #: tool_use id -> the tool name it called.
    ids: dict[str, str] = field(default_factory=dict)
    #: Load the wanted deferred tools with the client's `ToolSearch` tool first
    #: (`select:<name>,...`), then call them.
    search: bool = False

    def reply(self, body: Any) -> tuple[list[dict[str, Any]], str]:
        """The content blocks and stop reason for one /v1/messages request body."""
        tools = body.get("tools") if isinstance(body, dict) else None
        called = _called(body)
        if self.search and SEARCH not in called:
            names = [n for n in sorted(deferred_names(body)) if self.wanted(n)]
            offered = any(isinstance(t, dict) and t.get("name") == SEARCH for t in tools or [])
            if names and offered:
                query = {"query": "select:" + ",".join(names), "max_results": len(names)}
                use = {"type": "tool_use", "id": f"{TOOL_USE_ID}search", "name": SEARCH}
                return [{**use, "input": query}], "tool_use"
        todo = [
            t
            for t in tools or []
            if isinstance(t, dict)
            and isinstance(t.get("name"), str)
            and t["name"] not in called
            and t["name"] != SEARCH
            and self.wanted(t["name"])
        ]
        if not todo:
            return [{"type": "text", "text": FINAL_TEXT}], "end_turn"
        blocks = []
        for n, tool in enumerate(todo):
            args = instance(tool.get("input_schema", {}))
            self.sent[tool["name"]] = args
            self.ids[f"{TOOL_USE_ID}{n}"] = tool["name"]
            blocks.append(
                {"type": "tool_use", "id": f"{TOOL_USE_ID}{n}", "name": tool["name"], "input": args}
            )
        return blocks, "tool_use"


def deferred_names(body: Any) -> set[str]:
    """Names a request lists by themselves on a line of its messages or system text: Claude
    Code's list of deferred tools (`The following deferred tools are now available via
    ToolSearch`), MCP tools only."""
    out: set[str] = set()

    def walk(node: Any) -> None:
        if isinstance(node, str):
            out.update(line.strip() for line in node.splitlines() if line.startswith("mcp__"))
        elif isinstance(node, list):
            for v in node:
                walk(v)
        elif isinstance(node, dict):
            for v in node.values():
                walk(v)

    if isinstance(body, dict):
        walk(body.get("messages"))
        walk(body.get("system"))
    return out


def _called(body: Any) -> set[str]:
    """Tool names some earlier assistant turn of this conversation already asked for."""
    out: set[str] = set()
    messages = body.get("messages") if isinstance(body, dict) else None
    for msg in messages or []:
        if isinstance(msg, dict) and msg.get("role") == "assistant":
            content = msg.get("content")
            for block in content if isinstance(content, list) else []:
                if isinstance(block, dict) and block.get("type") == "tool_use":
                    out.add(str(block.get("name")))
    return out


class StandIn:
    """The running stand-in: `url`, the `requests` so far, the `script` it plays."""

    def __init__(self, script: Script) -> None:
        self.script = script
        self.requests: list[Recorded] = []
        self._lock = threading.Lock()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(self))
        self._server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}"

    def record(self, rec: Recorded) -> None:
        with self._lock:
            self.requests.append(rec)

    def messages(self) -> list[Recorded]:
        """The `POST /v1/messages` requests, in arrival order."""
        with self._lock:
            return [r for r in self.requests if r.method == "POST" and _route(r.path) == "messages"]


def _route(path: str) -> str:
    bare = path.split("?", 1)[0].rstrip("/")
    if bare.endswith("/v1/messages"):
        return "messages"
    if bare.endswith("/v1/messages/count_tokens"):
        return "count"
    return "other"


@contextmanager
def running(script: Script) -> Iterator[StandIn]:
    """Serve the stand-in on a free loopback port for the `with` block."""
    stand = StandIn(script)
    thread = threading.Thread(target=stand._server.serve_forever, daemon=True)
    thread.start()
    try:
        yield stand
    finally:
        stand._server.shutdown()
        stand._server.server_close()
        thread.join(5)


def _handler(stand: StandIn) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - stdlib name
            """Quiet: the record is the log."""

        def _take(self) -> bytes:
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length) if length else b""
            headers = {k.lower(): v for k, v in self.headers.items() if k.lower() not in _SECRET}
            stand.record(Recorded(self.command, self.path, headers, body))
            return body

        def _send(self, status: int, body: bytes, kind: str = "application/json") -> None:
            self.send_response(status)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            if self.command != "HEAD":
                self.wfile.write(body)

        def do_POST(self) -> None:
            raw = self._take()
            route = _route(self.path)
            if route == "count":
                self._send(200, b'{"input_tokens":1}')
                return
            if route != "messages":
                self._send(200, b"{}")
                return
            try:
                body = json.loads(raw)
            except ValueError:
                self._send(400, _error("invalid_request_error", "body is not JSON"))
                return
            blocks, stop = stand.script.reply(body)
            model = str(body.get("model", "stand-in")) if isinstance(body, dict) else "stand-in"
            n = len(stand.messages())
            if isinstance(body, dict) and body.get("stream") is True:
                self._send(200, _events(n, model, blocks, stop), "text/event-stream")
            else:
                self._send(200, json.dumps(_message(n, model, blocks, stop)).encode())

        def do_GET(self) -> None:
            self._take()
            self._send(200, b"{}")

        do_HEAD = do_GET
        do_PUT = do_POST
        do_DELETE = do_GET

    return Handler


def _error(kind: str, message: str) -> bytes:
    return json.dumps({"type": "error", "error": {"type": kind, "message": message}}).encode()


def _usage() -> dict[str, int]:
    return {
        "input_tokens": 1,
        "output_tokens": 1,
        "cache_creation_input_tokens": 0,
        "cache_read_input_tokens": 0,
    }


def _message(n: int, model: str, blocks: list[dict[str, Any]], stop: str) -> dict[str, Any]:
    return {
        "id": f"msg_catalogaudit_{n}",
        "type": "message",
        "role": "assistant",
        "model": model,
        "content": blocks,
        "stop_reason": stop,
        "stop_sequence": None,
        "usage": _usage(),
    }


def _events(n: int, model: str, blocks: list[dict[str, Any]], stop: str) -> bytes:
    """The message as the streamed event sequence."""
    start = {**_message(n, model, [], stop), "stop_reason": None}
    out: list[tuple[str, dict[str, Any]]] = [
        ("message_start", {"type": "message_start", "message": start})
    ]
    for i, block in enumerate(blocks):
        if block["type"] == "tool_use":
            opening: dict[str, Any] = {**block, "input": {}}
            delta = {"type": "input_json_delta", "partial_json": json.dumps(block["input"])}
        else:
            opening = {"type": "text", "text": ""}
            delta = {"type": "text_delta", "text": block["text"]}
        out.append(
            (
                "content_block_start",
                {"type": "content_block_start", "index": i, "content_block": opening},
            )
        )
        out.append(
            ("content_block_delta", {"type": "content_block_delta", "index": i, "delta": delta})
        )
        out.append(("content_block_stop", {"type": "content_block_stop", "index": i}))
    out.append(
        (
            "message_delta",
            {
                "type": "message_delta",
                "delta": {"stop_reason": stop, "stop_sequence": None},
                "usage": {"output_tokens": 1},
            },
        )
    )
    out.append(("message_stop", {"type": "message_stop"}))
    return "".join(f"event: {e}\ndata: {json.dumps(d)}\n\n" for e, d in out).encode()
