"""What the stdio and HTTP wire clients share: replies, limits, events, server requests."""

from __future__ import annotations

import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from catalogaudit.errors import ServerError
from catalogaudit.model import Member, WireDecodeError, WireLimitError, loads, parse_members

DEFAULT_MAX_MESSAGE = 64 * 1024 * 1024
#: `--max-total-bytes`: all the answers one command keeps (pages, handshakes, every run).
DEFAULT_MAX_TOTAL = 256 * 1024 * 1024
#: How many non-JSON stdout lines (and notifications) we keep verbatim; the rest are counted.
KEEP_LINES = 20
#: How many distinct notification and server-request method names are kept (the rest counted).
KEEP_NAMES = 20
EXCERPT = 160
#: The two answer types of Streamable HTTP (P:2025-11-25 basic/transports).
JSON_TYPE, SSE = "application/json", "text/event-stream"


class ServerTimeout(ServerError):
    """A request got no answer in time; the protocol layer may fall back on it (auto mode)."""


class ServerExited(ServerError):
    """The server process ended (or closed stdout) before it answered; `story` says how,
    without its stderr; `read` whether it had read everything we sent (the request too)."""

    def __init__(self, message: str, story: str = "", read: bool = False) -> None:
        super().__init__(message)
        self.story = story
        self.read = read


class NotStreamable(ServerError):
    """A POST was refused with 400, 404 or 405 and no JSON-RPC body: maybe the HTTP+SSE
    transport of 2024-11-05 (P:2026-07-28 streamable-http "Backward Compatibility")."""


class NotAnEventStream(ServerError):
    """The GET of the HTTP+SSE transport did not open an event stream; `why` says what came."""

    def __init__(self, message: str, why: str) -> None:
        super().__init__(message)
        self.why = why


class ExitedOnProbe(ServerExited):
    """The server ended on the `server/discover` probe (servers on old SDKs exit on an
    unknown method): the capture starts it again and sends `initialize` only."""


class Budget:
    """What is left of `--max-total-bytes`, shared by every capture of one command (thread-safe:
    `--jobs` runs take from it at once)."""

    def __init__(self, total: int) -> None:
        self.total = total
        self.used = 0
        self._lock = threading.Lock()

    def take(self, size: int, who: str) -> None:
        """Count `size` bytes kept from the server; raise `ServerError` past the budget."""
        with self._lock:
            self.used += size
            over = self.used > self.total
        if over:
            raise ServerError(
                f"{who}: the answers exceeded {self.total} bytes in total (see --max-total-bytes)"
            )


@dataclass(frozen=True)
class Limits:
    """Bounds that keep a hostile server from hanging or flooding us.

    `deadline` (monotonic) ends the whole command: every capture of `--runs`, every wait,
    write and read; without one, each capture gets `total_timeout` from its start."""

    startup_timeout: float = 30.0
    request_timeout: float = 30.0
    total_timeout: float = 300.0
    max_message: int = DEFAULT_MAX_MESSAGE
    max_pages: int = 1000
    deadline: float | None = None
    budget: Budget = field(default_factory=lambda: Budget(DEFAULT_MAX_TOTAL), compare=False)

    def until(self, timeout: float) -> float:
        """The monotonic end of a wait of `timeout` seconds starting now, cut to the deadline."""
        end = time.monotonic() + timeout
        return end if self.deadline is None else min(end, self.deadline)


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
    #: Notifications and requests whose method was not kept (past `KEEP_NAMES` distinct names).
    other_notifications: int = 0
    other_requests: int = 0
    #: Responses to ids we were not waiting for: counted, the first few kept as excerpts.
    unknown_answers: int = 0
    unknown_answer_lines: list[str] = field(default_factory=list)
    #: HTTP content codings the answers came in (`gzip`, `deflate`), decoded before anything
    #: else reads them; the snapshot records them beside the decoded page text.
    content_codings: set[str] = field(default_factory=set)
    #: HTTP only: request method -> the Content-Type of its answer (`application/json` or
    #: `text/event-stream`); SSE wins when a method was answered both ways (one page of many).
    answers: dict[str, str] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def non_json(self, line: str) -> None:
        """Record a stdout line (or SSE payload) that is not a JSON-RPC message."""
        with self.lock:
            self.non_json_count += 1
            if len(self.non_json_lines) < KEEP_LINES:
                self.non_json_lines.append(excerpt(line))

    def notification(self, method: str) -> None:
        """Record a server notification by method (the first `KEEP_NAMES` names)."""
        with self.lock:
            if not _kept(self.notifications, method):
                self.other_notifications += 1

    def answer(self, method: str, content_type: str) -> None:
        """Record how an HTTP answer came: clients differ on SSE answers (CDX-XPORT-001)."""
        with self.lock:
            if self.answers.get(method) != SSE:
                self.answers[method] = content_type

    def server_request(self, method: str) -> None:
        """Record a server-to-client request by method (the first `KEEP_NAMES` names)."""
        with self.lock:
            if not _kept(self.server_requests, method):
                self.other_requests += 1

    def garbage_story(self) -> str:
        """`; it wrote 3 non-JSON-RPC lines to stdout, first: ...` for a timeout's message."""
        said = ""
        if self.unknown_answers:
            n = self.unknown_answers
            said = f"; it sent {n} answer{'s' if n != 1 else ''} to ids we were not waiting for"
        if not self.non_json_count:
            return said
        first = self.non_json_lines[0] if self.non_json_lines else ""
        plural = "s" if self.non_json_count != 1 else ""
        return (
            f"{said}; it wrote {self.non_json_count} non-JSON-RPC line{plural} to stdout, "
            f"first: {first}"
        )

    def unknown_answer(self, text: str) -> None:
        """Record a response to an id we are not waiting for (late, or never ours)."""
        with self.lock:
            self.unknown_answers += 1
            if len(self.unknown_answer_lines) < KEEP_LINES:
                self.unknown_answer_lines.append(excerpt(text))


def _kept(names: Counter[str], method: str) -> bool:
    """Count `method` in `names` when it is known or there is room; False when dropped."""
    name = excerpt(method)
    if name in names or len(names) < KEEP_NAMES:
        names[name] += 1
        return True
    return False


class Inbox:
    """Answers by id for a transport whose answers arrive on a reader thread (stdio, HTTP+SSE):
    the one awaited is kept, and so is the answer to the last request that timed out (a slow
    server answers the discover probe after `initialize` was sent); others are counted."""

    def __init__(self, events: Events) -> None:
        self.cond = threading.Condition()
        self._events = events
        self._responses: dict[Any, tuple[str, dict[str, Member], bool]] = {}
        self._awaited: int | None = None
        self._late: tuple[int, str] | None = None

    def expect(self, rid: int) -> None:
        """The request `rid` is about to be sent."""
        with self.cond:
            self._awaited = rid

    def put(
        self, text: str, value: dict[str, Any], members: dict[str, Member], bad_utf8: bool
    ) -> None:
        """Keep a response (reader thread) when it is awaited or late, else count it."""
        with self.cond:
            late = self._late[0] if self._late else None
            if value["id"] not in (self._awaited, late) or isinstance(value["id"], bool):
                self._events.unknown_answer(text)
                return
            self._responses[value["id"]] = (text, members, bad_utf8)
            self.cond.notify_all()

    def take(
        self,
        rid: int,
        method: str,
        deadline: float,
        check: Callable[[], None],
        timed_out: Callable[[], ServerTimeout],
        limits: Limits,
        who: str,
    ) -> Reply:
        """Wait for the answer to `rid` until `deadline`; `check` (called with the condition
        held) raises when the transport failed; `timed_out` is the error past the deadline."""
        with self.cond:
            while rid not in self._responses:
                check()
                left = deadline - time.monotonic()
                if left <= 0:
                    self._late = (rid, method)
                    raise timed_out()
                self.cond.wait(min(left, 0.25))
            text, members, bad_utf8 = self._responses.pop(rid)
            self._awaited = None
        limits.budget.take(len(text), f"{who}, {method}")
        return reply_from(method, text, members, bad_utf8)

    def late_answer(self, limits: Limits, who: str) -> Reply | None:
        """The answer to the last request that timed out, if it has arrived since."""
        with self.cond:
            if self._late is None or self._late[0] not in self._responses:
                return None
            (rid, method), self._late = self._late, None
            text, members, bad_utf8 = self._responses.pop(rid)
        limits.budget.take(len(text), f"{who}, {method}")
        return reply_from(method, text, members, bad_utf8)


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

    def late_answer(self) -> Reply | None:
        """The answer to the last request that timed out, if it arrived since (stdio keeps
        it; over HTTP a timed-out request is cancelled)."""
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
    """A short single-line excerpt of server output for messages (only the head of a long
    text is looked at: splitting megabytes of short lines would cost far more than them)."""
    head = text[: 4 * limit]
    flat = " ".join(head.split())
    if len(flat) <= limit and len(head) == len(text):
        return flat
    return flat[: limit - 3] + "..."


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


def classify(text: str, invalid_utf8: bool) -> tuple[str, Any, dict[str, Member] | None]:
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
            return "batch", loads(stripped), None
        members = parse_members(text)
    except WireLimitError as exc:
        return "refused", str(exc), None
    except WireDecodeError:
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
    members: dict[str, Member],
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
