"""What the stdio and HTTP wire clients share: replies, limits, events, server requests."""

from __future__ import annotations

import threading
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Protocol

from catalogaudit.errors import ServerError
from catalogaudit.model import jsonwire

DEFAULT_MAX_MESSAGE = 64 * 1024 * 1024
#: How many non-JSON stdout lines (and notifications) we keep verbatim; the rest are counted.
KEEP_LINES = 20
EXCERPT = 160


class ServerTimeout(ServerError):
    """A request got no answer in time; the protocol layer may fall back on it (auto mode)."""


@dataclass(frozen=True)
class Limits:
    """Bounds that keep a hostile server from hanging or flooding us."""

    startup_timeout: float = 30.0
    request_timeout: float = 30.0
    total_timeout: float = 300.0
    max_message: int = DEFAULT_MAX_MESSAGE
    max_pages: int = 1000


@dataclass(frozen=True)
class Reply:
    """One JSON-RPC response, with the exact served text of its `result`."""

    method: str
    result: Any = None
    result_text: str | None = None
    error: dict[str, Any] | None = None
    http_status: int | None = None
    invalid_utf8: bool = False

    @property
    def ok(self) -> bool:
        """True when the server answered with a result."""
        return self.error is None

    def error_code(self) -> int | None:
        """The JSON-RPC error code, when there is one and it is an integer."""
        code = (self.error or {}).get("code")
        return code if isinstance(code, int) and not isinstance(code, bool) else None

    def describe_error(self) -> str:
        """`-32601 Method not found` (plus the HTTP status when there was one)."""
        err = self.error or {}
        text = f"{err.get('code')} {err.get('message', '')}".strip()
        return f"HTTP {self.http_status}: {text}" if self.http_status else text


@dataclass
class Events:
    """What the server did besides answering: recorded for hygiene findings, never hashed."""

    non_json_lines: list[str] = field(default_factory=list)
    non_json_count: int = 0
    notifications: Counter[str] = field(default_factory=Counter)
    server_requests: Counter[str] = field(default_factory=Counter)
    #: HTTP content codings the answers came in (`gzip`, `deflate`), decoded before anything
    #: else reads them; the snapshot records them beside the decoded page text.
    content_codings: set[str] = field(default_factory=set)
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def non_json(self, line: str) -> None:
        """Record a stdout line (or SSE payload) that is not a JSON-RPC message."""
        with self.lock:
            self.non_json_count += 1
            if len(self.non_json_lines) < KEEP_LINES:
                self.non_json_lines.append(excerpt(line))

    def notification(self, method: str) -> None:
        """Record a server notification by method."""
        with self.lock:
            self.notifications[method] += 1

    def server_request(self, method: str) -> None:
        """Record a server-to-client request by method."""
        with self.lock:
            self.server_requests[method] += 1


class Transport(Protocol):
    """A connection to one server that sends requests and returns `Reply` objects."""

    events: Events

    def describe(self) -> str:
        """How to name the server in an error message (command or URL, never secrets)."""
        ...

    def request(self, method: str, params: dict[str, Any] | None, timeout: float) -> Reply:
        """Send a request and wait for its response (raise `ServerError` on failure)."""
        ...

    def notify(self, method: str, params: dict[str, Any] | None) -> None:
        """Send a notification."""
        ...

    def set_protocol(self, version: str | None, modern: bool) -> None:
        """Tell the transport the negotiated revision (HTTP sends it as headers)."""
        ...

    def reset_session(self) -> None:
        """Forget any transport session (HTTP falls back from a modern probe this way)."""
        ...

    def close(self, failed: bool = False) -> None:
        """End the session and release every resource; never raises.

        `failed`: the capture gave up, so nothing is recorded about how the server ends and
        stdio waits less before signalling it."""
        ...


def seconds(value: float) -> str:
    """`3s`, `0.5s`: a timeout for messages (cut timeouts such as 0.98661 read as `1s`)."""
    return f"{value:.1f}".rstrip("0").rstrip(".") + "s"


def excerpt(text: str, limit: int = EXCERPT) -> str:
    """A short single-line excerpt of server output for messages."""
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 3] + "..."


def answer_server_request(msg: dict[str, Any], roots_declared: bool) -> dict[str, Any]:
    """Our answer to a server-to-client request: ping, roots/list, or method not found."""
    method = msg.get("method")
    out: dict[str, Any] = {"jsonrpc": "2.0", "id": msg.get("id")}
    if method == "ping":
        out["result"] = {}
    elif method == "roots/list" and roots_declared:
        out["result"] = {"roots": []}
    else:
        out["error"] = {"code": -32601, "message": f"Method not found: {method}"}
    return out


def classify(text: str, invalid_utf8: bool) -> tuple[str, Any, dict[str, jsonwire.Member] | None]:
    """Sort one incoming message into response, request, notification, batch or garbage.

    Returns the kind (`response`, `request`, `notification`, `batch`, `garbage`, or `refused`
    with the reason as the value: valid JSON over a parser limit), the parsed
    value, and the member spans of an object (so the `result` text can be cut out verbatim).
    """
    stripped = text.strip()
    if not stripped.startswith(("{", "[")):
        return "garbage", None, None
    try:
        if stripped.startswith("["):
            return "batch", jsonwire.loads(stripped), None
        members = jsonwire.parse_members(text)
    except jsonwire.WireLimitError as exc:
        return "refused", str(exc), None
    except jsonwire.WireDecodeError:
        return "garbage", None, None
    value = {k: m.value for k, m in members.items()}
    if "method" in value and isinstance(value.get("method"), str):
        return ("request" if "id" in value else "notification"), value, members
    if "id" in value and ("result" in value or "error" in value):
        return "response", value, members
    return "garbage", value, members


def reply_from(
    method: str,
    text: str,
    members: dict[str, jsonwire.Member],
    invalid_utf8: bool,
    http_status: int | None = None,
) -> Reply:
    """Build a `Reply` from a parsed response object, keeping the exact `result` text."""
    if "result" in members:
        m = members["result"]
        return Reply(
            method,
            m.value,
            text[m.start : m.end],
            http_status=http_status,
            invalid_utf8=invalid_utf8,
        )
    err = members["error"].value if "error" in members else None
    if not isinstance(err, dict):
        err = {"code": None, "message": f"malformed error member: {excerpt(str(err))}"}
    return Reply(method, error=err, http_status=http_status, invalid_utf8=invalid_utf8)
