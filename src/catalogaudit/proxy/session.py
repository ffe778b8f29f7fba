"""One proxied session: who the client is, which of its requests are list or call requests, and
the one change made on the way back: the list result rewritten by `rewriting.rewrite_result`,
a call result's content priorities by `rewriting.rewrite_answer` (`codex-app` sessions).

Every other line passes as it came, byte for byte: requests, notifications, the server's own
requests and the client's answers to them, errors, batches and lines that are not JSON. The
client names itself in `initialize` (`clientInfo`) or, at 2026-07-28, in the `_meta` of every
request (P:2026-07-28/basic/index "_meta"); the fixes its profile calls for apply from then on.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from catalogaudit.model import (
    LISTINGS,
    METHODS,
    MODERN_VERSIONS,
    WireDecodeError,
    compact,
    decode_utf8,
    loads,
    parse_members,
    visible,
)
from catalogaudit.rewriting import (
    FIXES,
    Substitutions,
    client_profiles,
    needed_fixes,
    rewrite_answer,
    rewrite_result,
)

#: List requests waiting for their answer, at most (a client that never reads its answers
#: must not grow us): the oldest is forgotten, and its answer then passes unchanged.
MAX_PENDING = 4096
LISTING_OF = {METHODS[name]: name for name in LISTINGS}
#: Call requests whose results hold content blocks (`rewriting.live.BLOCKS`).
ANSWERS = frozenset({"tools/call", "prompts/get"})
_VERSION = "io.modelcontextprotocol/protocolVersion"
_CLIENT = "io.modelcontextprotocol/clientInfo"


@dataclass(frozen=True)
class Client:
    """What a client said it is (`Implementation`: name, title, version), or, for a request
    without clientInfo, what its User-Agent says (`agent`: the product name)."""

    name: str
    title: str
    version: str
    agent: str = ""

    @classmethod
    def of(cls, info: Any) -> Client | None:
        """The client of a `clientInfo` value, or None when it is not an object."""
        if not isinstance(info, dict):
            return None
        fields = [info.get(k) for k in ("name", "title", "version")]
        name, title, version = (v if isinstance(v, str) else "" for v in fields)
        return cls(name, title, version)

    @classmethod
    def of_agent(cls, header: str | None) -> Client | None:
        """The client a User-Agent names by its first product, `NAME/VERSION` (RFC 9110
        10.1.5), or None without one."""
        product = (header or "").split(maxsplit=1)[0] if (header or "").strip() else ""
        name, _, version = product.partition("/")
        return cls("", "", version, agent=name) if name else None

    def describe(self) -> str:
        """`claude-code 2.1.328`, `codex-mcp-client 0.169.0 (User-Agent)` (control characters
        escaped: client text is untrusted)."""
        said = " ".join(p for p in (self.name or self.agent, self.version) if p) or "(unnamed)"
        return visible(said + (" (User-Agent)" if self.agent else ""), keep="")


@dataclass(frozen=True)
class Policy:
    """Which fixes a session gets: `--fix` for every client, `--no-fix` for none, the rest
    where the client's profile needs them; substitutions for every client."""

    forced: frozenset[str] = frozenset()
    off: frozenset[str] = frozenset()
    subs: Substitutions | None = None

    def fixes_for(self, client: Client | None) -> tuple[str, ...]:
        """The fixes for one client (FIXES order)."""
        auto = (
            needed_fixes(client.name, client.title, client.version, client.agent) if client else ()
        )
        return tuple(f for f in FIXES if f not in self.off and (f in self.forced or f in auto))

    def idle(self) -> bool:
        """Nothing can ever change: every fix off and no substitutions (pure passthrough)."""
        return self.subs is None and set(FIXES) <= self.off

    def announce(self) -> list[str]:
        """What is switched on, said once at start."""
        lines = []
        for fix in FIXES:
            if fix in self.off:
                lines.append(f"fix {fix}: off (--no-fix)")
            elif fix in self.forced:
                lines.append(f"fix {fix}: on for every client (--fix)")
            else:
                lines.append(f"fix {fix}: on for clients whose profile needs it")
        if self.subs is not None:
            lines.append(
                f"substitutions: {len(self.subs.pairs)} pair(s) for every client "
                f"({visible(self.subs.text, keep='')})"
            )
        return lines


@dataclass(frozen=True)
class _Pending:
    method: str
    modern: bool
    fixes: tuple[str, ...]


class Session:
    """The state of one client connection through the proxy (one reader per direction: the
    pending calls are shared under a lock)."""

    def __init__(
        self,
        policy: Policy,
        note: Callable[[str], None],
        client: Client | None = None,
        agent: Client | None = None,
    ) -> None:
        self.policy = policy
        #: Who the client said it is (over HTTP: known by its Mcp-Session-Id already).
        self.client = client
        #: Over HTTP, the client its User-Agent names: taken when no clientInfo is known.
        self.agent = agent
        self._note = note
        self._pending: OrderedDict[str, _Pending] = OrderedDict()
        self._lock = threading.Lock()

    def from_client(self, raw: bytes) -> None:
        """Look at a line on its way to the server (it is sent unchanged)."""
        if self.policy.idle():
            return
        try:
            msg = loads(decode_utf8(raw)[0])
        except (WireDecodeError, RecursionError):
            return
        if not isinstance(msg, dict) or "id" not in msg or not isinstance(msg.get("method"), str):
            return
        params: dict[str, Any] = _obj(msg.get("params"))
        meta: dict[str, Any] = _obj(params.get("_meta"))
        info = params.get("clientInfo") if msg["method"] == "initialize" else meta.get(_CLIENT)
        client = Client.of(info) or (self.agent if self.client is None else None)
        if client is not None:
            self.identify(client)
        method = msg["method"]
        if method not in LISTING_OF and method not in ANSWERS:
            return
        fixes = self.policy.fixes_for(self.client)
        if method in ANSWERS and "codex-app" not in fixes:
            return
        if not fixes and self.policy.subs is None:
            return
        modern = meta.get(_VERSION) in MODERN_VERSIONS
        with self._lock:
            self._pending[compact(msg["id"])] = _Pending(method, modern, fixes)
            while len(self._pending) > MAX_PENDING:
                self._pending.popitem(last=False)

    def waiting(self) -> bool:
        """Whether an answer may need rewriting (a list call of a fixed session is pending)."""
        return bool(self._pending)

    def from_server(self, raw: bytes) -> bytes:
        """A line on its way to the client: the answer to a pending list or call request
        rewritten, any other line as it came."""
        if not self._pending:
            return raw
        text, _ = decode_utf8(raw)
        try:
            members = parse_members(text)
        except (WireDecodeError, RecursionError):
            return raw
        rid = members.get("id")
        if rid is None or "method" in members:
            return raw
        with self._lock:
            pending = self._pending.pop(compact(rid.value), None)
        result = members.get("result")
        if pending is None or result is None:
            return raw
        served = text[result.start : result.end]
        listing = LISTING_OF.get(pending.method)
        if listing is None:
            fixed = rewrite_answer(pending.method, served, pending.fixes)
        else:
            page = rewrite_result(listing, served, self.policy.subs, pending.fixes, pending.modern)
            if page.refused:
                self._note(
                    f"{len(page.refused)} string(s) of a {pending.method} answer left "
                    "as written: the substitutions would grow them past the bound"
                )
            fixed = page.text
        if fixed == served:
            return raw
        new = text[: result.start] + fixed + text[result.end :]
        return new.encode("utf-8", "surrogateescape")

    def identify(self, client: Client) -> None:
        """The client of this session from now on, said when it changes."""
        if client == self.client:
            return
        self.client = client
        profiles = client_profiles(client.name, client.title, client.version, client.agent)
        fixes = self.policy.fixes_for(client)
        self._note(
            f"client {client.describe()} (profile {', '.join(profiles) or 'none'}): "
            f"fixes {', '.join(fixes) or 'none'}"
        )


def _obj(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}
