"""The loopback HTTP server every model API stand-in runs on: it records each request byte for
byte (method, path, headers without credentials, raw body) and hands it to the API family's
`respond`, which says what to answer. One home for the recording and the bounds, so the
Anthropic Messages (`verify.messages_api`), OpenAI Responses (`verify.responses_api`), Chat
Completions (`verify.chat_api`) and Gemini (`verify.gemini_api`) stand-ins differ only in
their wire formats.

Bounded, because a client under test is not trusted to stop: a body over `Limits.body` bytes
is answered 413 and recorded without its body; past `Limits.count` requests every request is
answered 429 and no longer recorded; past `Limits.seconds` every request is answered 503.
Only 127.0.0.1 is bound; a client reaches it directly (loopback bypasses the closed proxy).
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from catalogaudit.serve import instance

#: Headers that carry a credential: never recorded (Gemini's key header included).
SECRET = ("x-api-key", "authorization", "proxy-authorization", "cookie", "x-goog-api-key")
#: A query parameter that carries a credential (`?key=`): left out of the recorded path.
_SECRET_QUERY = ("key",)


@dataclass(frozen=True)
class Limits:
    """How much one stand-in takes: bytes per request body, requests, seconds."""

    body: int = 16 * 1024 * 1024
    count: int = 400
    seconds: float = 900


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

    @property
    def route(self) -> str:
        """The path without its query and trailing slash."""
        return self.path.split("?", 1)[0].rstrip("/")


#: An answer: status, body bytes, content type.
Answer = tuple[int, bytes, str]
#: The API family's script: the answer to one recorded request.
Respond = Callable[[Recorded], Answer]


def json_answer(value: Any, status: int = 200) -> Answer:
    """A JSON answer."""
    return status, json.dumps(value).encode(), "application/json"


def sse(events: Sequence[tuple[str | None, Any]]) -> bytes:
    """Server-sent events: `event:` lines where named, one `data:` JSON line each."""
    out = []
    for name, data in events:
        head = f"event: {name}\n" if name else ""
        out.append(f"{head}data: {data if isinstance(data, str) else json.dumps(data)}\n\n")
    return "".join(out).encode()


class StandIn:
    """The running stand-in: `url`, the `requests` so far."""

    def __init__(self, respond: Respond, is_model: Callable[[str], bool], limits: Limits) -> None:
        self.respond = respond
        self.is_model = is_model
        self.limits = limits
        self.requests: list[Recorded] = []
        self._lock = threading.Lock()
        self._seen = 0
        self._until = time.monotonic() + limits.seconds
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(self))
        self._server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}"

    def take(self, rec: Recorded) -> Answer | None:
        """Record `rec` unless a bound says no; the refusal to send, if any."""
        with self._lock:
            self._seen += 1
            if time.monotonic() > self._until:
                return json_answer({"error": "stand-in: time is up"}, 503)
            if self._seen > self.limits.count:
                return json_answer({"error": "stand-in: too many requests"}, 429)
            self.requests.append(rec)
        return None

    def model_requests(self) -> list[Recorded]:
        """The model requests (POSTs to a route `is_model` accepts), in arrival order."""
        with self._lock:
            return [r for r in self.requests if r.method == "POST" and self.is_model(r.route)]


@contextmanager
def running(
    respond: Respond, is_model: Callable[[str], bool], limits: Limits | None = None
) -> Iterator[StandIn]:
    """Serve `respond` on a free loopback port for the `with` block; `is_model` says which
    routes are model requests."""
    stand = StandIn(respond, is_model, limits or Limits())
    thread = threading.Thread(target=stand._server.serve_forever, daemon=True)
    thread.start()
    try:
        yield stand
    finally:
        stand._server.shutdown()
        stand._server.server_close()
        thread.join(5)


def _clean(path: str) -> str:
    """The path with credential query parameters left out."""
    bare, _, query = path.partition("?")
    if not query:
        return path
    kept = [p for p in query.split("&") if p.partition("=")[0] not in _SECRET_QUERY]
    return f"{bare}?{'&'.join(kept)}" if kept else bare


def _handler(stand: StandIn) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - stdlib name
            """Quiet: the record is the log."""

        def _send(self, answer: Answer) -> None:
            status, body, kind = answer
            self.send_response(status)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            if self.command != "HEAD":
                self.wfile.write(body)

        def _serve(self) -> None:
            try:
                length = int(self.headers.get("Content-Length") or 0)
            except ValueError:
                length = -1
            headers = {k.lower(): v for k, v in self.headers.items() if k.lower() not in SECRET}
            path = _clean(self.path)
            if length < 0 or length > stand.limits.body:
                refused = stand.take(Recorded(self.command, path, headers, b""))
                self.close_connection = True
                self._send(refused or json_answer({"error": "stand-in: body too large"}, 413))
                return
            body = self.rfile.read(length) if length else b""
            rec = Recorded(self.command, path, headers, body)
            self._send(stand.take(rec) or stand.respond(rec))

        do_POST = do_GET = do_HEAD = do_PUT = do_DELETE = _serve

    return Handler


@dataclass
class Script:
    """What to call: `wanted(name)` says whether a tool offered to the model is to be called.
    Every family's stand-in asks it which of the tools a request offers to call now."""

    wanted: Callable[[str], bool]
    #: Tool name -> the arguments the stand-in sent (filled as it plays).
    sent: dict[str, Any] = field(default_factory=dict)
    #: Call id -> the tool name it called.
    ids: dict[str, str] = field(default_factory=dict)
    #: Load the wanted deferred tools with the client's search tool first (Claude Code).
    search: bool = False

    def calls(
        self, offered: Iterable[tuple[str, Any]], called: set[str], prefix: str
    ) -> list[tuple[str, str, Any]]:
        """(call id, name, arguments) for each offered tool wanted and not called yet, all in
        one turn; the arguments are made from the schema the client sent
        (`serve.instances`), so a well-behaved server accepts them."""
        out: list[tuple[str, str, Any]] = []
        for name, schema in offered:
            if name in called or not self.wanted(name) or any(n == name for _, n, _ in out):
                continue
            made = instance(schema if isinstance(schema, dict) else {})
            # A model's function arguments are always an object.
            args = made if isinstance(made, dict) else {}
            cid = f"{prefix}{len(self.ids)}"
            self.sent[name] = args
            self.ids[cid] = name
            out.append((cid, name, args))
        return out


@dataclass(frozen=True)
class Offered:
    """One tool as a model request offered it: the name the model sees, and the exact text
    of the tool's own object as sent (its hash is the model view's)."""

    name: str
    text: str

    def value(self) -> Any:
        """The parsed object."""
        return json.loads(self.text)


def member(text: str, key: str) -> str | None:
    """The exact text of an object text's member `key` (None: absent or not an object)."""
    from catalogaudit.model import members

    try:
        return dict(members(text)).get(key)
    except (ValueError, TypeError):
        return None


def items(text: str | None) -> list[str]:
    """The exact text of each element of an array text ([] when it is not one)."""
    from catalogaudit.model import array_items

    if not text or not text.lstrip().startswith("["):
        return []
    return array_items(text)


def body_text(rec: Recorded) -> str:
    """The request body as text (bytes that are not UTF-8 kept as surrogates)."""
    return rec.body.decode("utf-8", "surrogateescape")


def text_of(content: Any) -> str:
    """A tool result's text: a string, or the `text` of each part of a list."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(str(c.get("text", "")) for c in content if isinstance(c, dict))
    return json.dumps(content) if content is not None else ""
