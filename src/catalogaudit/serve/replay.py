"""`catalogaudit serve`: answer MCP requests from a snapshot, byte for byte.

This module is the transport-free core: `Replay.answer` takes one parsed JSON-RPC message and
returns the exact response text (or None for a notification) plus what an HTTP transport needs
to pick a status. Success responses are `{"jsonrpc":"2.0","id":<id>,"result":<text>}` with the
captured result text spliced in verbatim; the id is written back with its own lexeme.

Eras (P:2026-07-28/basic/versioning): `legacy` answers `initialize` (echoing an older published
revision when the capture shows the server echoed ours, else counter-offering the captured
version, P:<rev>/basic/lifecycle "Version Negotiation") and -32601 to
`server/discover`; `modern` answers `server/discover`, checks every request's `_meta`
(-32602 when missing, -32022 for an unsupported version) and rejects `initialize` with -32022;
`dual` answers both; `as-captured` is the era the snapshot negotiated, or both eras when a
modern capture recorded that the server also answered a legacy `initialize` and the pages of
that legacy session (`capture.protocol.legacy`, `wire.legacy`: `snapshot --legacy-probe`);
legacy sessions are then answered with the legacy texts the server sent. A modern capture with
a wire section that recorded the answer but not the pages refuses legacy sessions (-32022
saying why) rather than send them texts the server never sent in that era.
`--initialize-version V` makes every InitializeResult name V whatever the client offered, e.g.
a server that answers `initialize` with `2026-07-28` (scenario K of compat-rules.md "Measured
with real clients").
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from catalogaudit.errors import UsageError
from catalogaudit.model import (
    LATEST_LEGACY,
    LEGACY_VERSIONS,
    METHODS,
    MODERN_VERSIONS,
    Catalog,
    WireDecodeError,
    compact,
    dump_string,
    loads,
    replace_member,
)
from catalogaudit.serve import calls as serve_calls
from catalogaudit.serve import pages as serve_pages

PROTOCOLS = ("as-captured", "legacy", "modern", "dual")
CACHE_HINTS = ("as-captured", "present", "absent", "discover-only")
META_VERSION = "io.modelcontextprotocol/protocolVersion"
META_CAPS = "io.modelcontextprotocol/clientCapabilities"
LIST_METHODS = {method: name for name, method in METHODS.items()}
NO_WIRE_WARNING = (
    "warning: {name} has no wire section; serving the readable items in served order, so "
    "key order, escapes and NaN/Infinity lexemes may differ from what the server sent"
)

#: Why `as-captured` refuses legacy sessions of a modern capture without its legacy pages.
REFUSAL = (
    "the server answered a legacy initialize, but this snapshot holds none of its legacy "
    "pages (take it with `snapshot --legacy-probe`), so legacy sessions are refused; "
    "`--protocol dual` serves them the 2026-07-28 page texts instead"
)
MODERN_PAGES_WARNING = (
    "warning: legacy sessions get the 2026-07-28 page texts (cache fields, _meta, key order), "
    "which the server may not send in that era; `snapshot --legacy-probe` records its legacy pages"
)


@dataclass(frozen=True)
class ServeOptions:
    """Everything `catalogaudit serve` was asked to do."""

    snapshot: str
    protocol: str = "as-captured"
    cache_hints: str = "as-captured"
    page_size: int | None = None
    capabilities: str = "as-captured"
    http_port: int | None = None
    host: str = "127.0.0.1"
    sse: bool = False
    #: With --http: `streamable-http`, or `sse` (the HTTP+SSE transport of 2024-11-05).
    transport: str = "streamable-http"
    max_seconds: float | None = None
    #: With --http: each request cycle of a connection ends within this (slowloris clients).
    idle_timeout: float = 30.0
    #: The protocolVersion every InitializeResult names (None: echo or counter-offer).
    initialize_version: str | None = None
    #: `--call-log FILE`: one JSON line per tools/call (`serve.calls`).
    call_log: str | None = None


@dataclass(frozen=True)
class Answer:
    """One response: its exact text (None for notifications) and its JSON-RPC error code."""

    text: str | None
    code: int | None = None
    #: The era the request was answered in (HTTP sessions exist only in legacy).
    era: str = "legacy"


class Replay:
    """A snapshot ready to serve: every answer text is built once, before the first request."""

    def __init__(self, doc: dict[str, Any], options: ServeOptions) -> None:
        capture = doc["capture"]
        proto = capture.get("protocol", {})
        self.captured_era = proto.get("era", "legacy")
        self.negotiated = str(proto.get("negotiated") or LATEST_LEGACY)
        probe = proto.get("legacy")
        probe = probe if isinstance(probe, dict) else {}
        wire = doc.get("wire") if isinstance(doc.get("wire"), dict) else None
        legacy_wire = wire.get("legacy") if wire and isinstance(wire.get("legacy"), dict) else None
        #: Lines for stderr before serving (the replay itself does no I/O).
        self.notes: list[str] = []
        #: Why legacy sessions are refused, when the era was answered but not recorded.
        self.refusal: str | None = None
        mode = options.protocol
        if mode == "as-captured":
            both = self.captured_era == "modern" and probe.get("answered") is True
            if both and wire is not None and legacy_wire is None:
                both = False
                self.refusal = REFUSAL
                self.notes.append(f"note: {REFUSAL}")
            mode = "dual" if both else self.captured_era
        self.legacy = mode in ("legacy", "dual")
        if self.legacy and self.captured_era == "modern" and wire and legacy_wire is None:
            self.notes.append(MODERN_PAGES_WARNING)
        self.modern = mode in ("modern", "dual")
        self.init_version = options.initialize_version
        if self.init_version is not None and not self.legacy:
            raise UsageError(
                "--initialize-version needs an initialize to answer: use --protocol legacy "
                "or dual (this snapshot is served modern-only)"
            )
        if self.init_version is None and self.captured_era == "modern":
            # NOTE: the legacy probe saw a counter-offer (not an echo of what it offered):
            # replay it to every client, as that server would.
            answered, offered = probe.get("version"), probe.get("offered")
            if isinstance(answered, str) and isinstance(offered, str) and answered != offered:
                self.init_version = answered
        #: The version the captured server named back when offered it: the replay echoes
        #: an older published revision too, as the real servers measured do (`_echoed`).
        self.echoed = _echoed(proto, probe) if self.init_version is None else None
        self.supported = (
            [self.negotiated] if self.captured_era == "modern" else list(MODERN_VERSIONS)
        )
        handshake = wire.get("handshake") if wire else None
        caps_text = _capabilities(options.capabilities, capture)
        hints = options.cache_hints
        self._init_text: str | None = None
        self._discover: str
        if self.captured_era == "legacy" and isinstance(handshake, str):
            self._init_text = _with_caps(handshake, options.capabilities, caps_text)
            if self.init_version is not None:
                self._init_text = replace_member(
                    self._init_text, "protocolVersion", dump_string(self.init_version)
                )
        self.legacy_listings: dict[str, serve_pages.ListingReplay] | None = None
        if self.captured_era == "modern" and legacy_wire is not None and self.legacy:
            recorded = legacy_wire.get("handshake")
            if isinstance(recorded, str):
                self._init_text = _with_caps(recorded, options.capabilities, caps_text)
                if options.initialize_version is not None:
                    self._init_text = replace_member(
                        self._init_text,
                        "protocolVersion",
                        dump_string(options.initialize_version),
                    )
            self.legacy_listings = serve_pages.legacy_replay(legacy_wire, options.page_size, hints)
        if self.captured_era == "modern" and isinstance(handshake, str):
            self._discover = _with_caps(handshake, options.capabilities, caps_text)
        else:
            self._discover = serve_pages.discover_text(capture, self.supported, caps_text)
        disc_mode = "present" if hints == "discover-only" else hints
        self._discover = serve_pages.with_hints(self._discover, disc_mode, None)
        self._capture = capture
        self._caps_text = caps_text
        self.listings = serve_pages.listings_replay(doc, options.page_size, hints)
        #: Tool name -> the served tool (first of a name wins), for tools/call.
        self.tools: dict[str, dict[str, Any]] = {}
        for item in Catalog(doc).items("tools"):
            if isinstance(item.value, dict) and isinstance(item.value.get("name"), str):
                self.tools.setdefault(item.value["name"], item.value)
        #: Told of every tools/call (verbs.serve writes `--call-log` with it).
        self.on_call: serve_calls.CallHook | None = None

    # --- answering ------------------------------------------------------------------------------

    def answer(self, msg: Any) -> Answer:
        """Answer one parsed client message (stdio line or HTTP body)."""
        if not isinstance(msg, dict) or not isinstance(msg.get("method"), str):
            if (
                isinstance(msg, dict)
                and "method" not in msg
                and ("result" in msg or "error" in msg)
            ):
                return Answer(None)  # a response to a request we never send: ignore
            rid = msg.get("id") if isinstance(msg, dict) else None
            return Answer(error_text(rid, -32600, "Invalid Request"), -32600)
        method: str = msg["method"]
        if "id" not in msg:
            return Answer(None, era=self.era_of(method, msg.get("params")))
        rid = msg["id"]
        params = msg.get("params")
        if params is not None and not isinstance(params, dict):
            return Answer(error_text(rid, -32602, "params must be an object"), -32602)
        era = self.era_of(method, params)
        if method == "ping":
            return Answer(result_text(rid, "{}"), era=era)
        if method == "initialize":
            return self._initialize(rid, params or {})
        if era == "modern":
            bad = self.check_meta(rid, params)
            if bad is not None:
                return bad
        if method == "server/discover":
            if not self.modern:
                return Answer(error_text(rid, -32601, "Method not found"), -32601)
            return Answer(result_text(rid, self._discover), era="modern")
        if method in LIST_METHODS:
            return self._list(rid, LIST_METHODS[method], params or {}, era)
        if method == "tools/call":
            return self._call(rid, params or {}, era)
        return Answer(error_text(rid, -32601, "Method not found"), -32601, era)

    def _call(self, rid: Any, params: dict[str, Any], era: str) -> Answer:
        """`tools/call`: a schema-valid made-up result (`serve.calls`), reported to `on_call`."""
        name = params.get("name")
        tool = self.tools.get(name) if isinstance(name, str) else None
        if tool is None:
            text = error_text(rid, -32602, f"Unknown tool: {name}")
            self._report(name, params.get("arguments"), "unknown tool")
            return Answer(text, -32602, era)
        result, outcome = serve_calls.tool_result(tool, params.get("arguments", {}))
        if era == "modern":  # P:2026-07-28/basic/index "ResultType": every result carries one
            result["resultType"] = "complete"
        self._report(name, params.get("arguments"), outcome)
        return Answer(result_text(rid, compact(result)), era=era)

    def _report(self, name: Any, arguments: Any, outcome: str) -> None:
        if self.on_call is not None:
            self.on_call({"name": name, "arguments": arguments, "outcome": outcome})

    def era_of(self, method: str, params: Any) -> str:
        """Which era a request belongs to: by method, else by `_meta` (dual mode)."""
        if not self.legacy:
            return "modern"
        if not self.modern or method == "initialize":
            return "legacy"
        if method == "server/discover":
            return "modern"
        meta = params.get("_meta") if isinstance(params, dict) else None
        return "modern" if isinstance(meta, dict) and META_VERSION in meta else "legacy"

    def check_meta(self, rid: Any, params: Any) -> Answer | None:
        """P:2026-07-28/basic/index "_meta": required keys (-32602) and the version (-32022)."""
        meta = params.get("_meta") if isinstance(params, dict) else None
        if not isinstance(meta, dict) or not isinstance(meta.get(META_VERSION), str):
            return modern_error(rid, -32602, f"missing required _meta key {META_VERSION}")
        if meta[META_VERSION] not in self.supported:
            return self.unsupported(rid, meta[META_VERSION])
        if not isinstance(meta.get(META_CAPS), dict):
            return modern_error(rid, -32602, f"missing required _meta key {META_CAPS}")
        return None

    def unsupported(self, rid: Any, requested: Any) -> Answer:
        """-32022 with `data.supported`, so a client retries with a version we speak."""
        data = {"supported": self.supported, "requested": requested}
        return modern_error(rid, -32022, "Unsupported protocol version", data)

    def _initialize(self, rid: Any, params: dict[str, Any]) -> Answer:
        requested = params.get("protocolVersion")
        if not self.legacy:
            if self.refusal is not None:
                data = {"supported": self.supported, "requested": requested}
                message = f"catalogaudit serve: {self.refusal}"
                return modern_error(rid, -32022, message, data)
            return self.unsupported(rid, requested)
        text = self._init_text
        if text is None:
            # NOTE: no captured InitializeResult (modern or static capture): speak any legacy
            # revision the client asks for, else counter-offer the newest one.
            version = requested if requested in LEGACY_VERSIONS else LATEST_LEGACY
            if self.init_version is not None:
                version = self.init_version
            text = serve_pages.initialize_text(self._capture, str(version), self._caps_text)
        elif self.echoed is not None and requested in LEGACY_VERSIONS and requested < self.echoed:
            # The captured InitializeResult names the version we offered; the server echoed
            # it, so it names an older published revision a client asks for in its place.
            text = replace_member(text, "protocolVersion", dump_string(requested))
        # Otherwise served as captured: it echoes a client that asked for the captured version
        # and counter-offers it to any other (lifecycle rules).
        return Answer(result_text(rid, text))

    def _list(self, rid: Any, name: str, params: dict[str, Any], era: str) -> Answer:
        legacy = self.legacy_listings if era == "legacy" else None
        replay = (legacy or self.listings)[name]
        cursor = params.get("cursor")
        if cursor is not None and replay.error_cursor is not None and cursor == replay.error_cursor:
            return Answer(rpc_error(rid, replay.error), _code(replay.error), era)
        if not replay.pages:
            if replay.error is not None:
                return Answer(rpc_error(rid, replay.error), _code(replay.error), era)
            return Answer(error_text(rid, -32601, "Method not found"), -32601, era)
        if cursor is None:
            index = 0
        elif not isinstance(cursor, str) or cursor not in replay.cursors:
            return Answer(error_text(rid, -32602, "Invalid cursor"), -32602, era)
        else:
            index = replay.cursors[cursor]
        return Answer(result_text(rid, replay.pages[index]), era=era)


def _echoed(proto: dict[str, Any], probe: dict[str, Any]) -> str | None:
    """The legacy version the captured server answered with the very version it was offered.

    Measured on 2026-12-06: server-everything, -filesystem and -memory (TS SDK 1.32.2) and
    mcp-server-time and -git (Python mcp 2.3.0), each offered 2025-11-25 by the capture, echo
    2025-06-18, 2025-03-26 and 2024-11-05 when a client asks for those (fixtures/oracle-era/
    README.md). A server that counter-offered (or a capture without an initialize) gets None.
    """
    if proto.get("era") == "modern":
        version = probe.get("version")
        return version if isinstance(version, str) and version == probe.get("offered") else None
    offered, negotiated = proto.get("offered"), proto.get("negotiated")
    if proto.get("handshake") != "initialize" or not isinstance(offered, list) or not offered:
        return None
    return negotiated if isinstance(negotiated, str) and offered[-1] == negotiated else None


def _code(error: dict[str, Any] | None) -> int | None:
    code = (error or {}).get("code")
    return code if isinstance(code, int) and not isinstance(code, bool) else None


def result_text(rid: Any, text: str) -> str:
    """The success envelope with the result text spliced in verbatim."""
    return '{"jsonrpc":"2.0","id":' + compact(rid) + ',"result":' + text + "}"


def rpc_error(rid: Any, error: dict[str, Any] | None) -> str:
    """An error response carrying a recorded error object as it was recorded."""
    body = error if error is not None else {"code": -32601, "message": "Method not found"}
    return '{"jsonrpc":"2.0","id":' + compact(rid) + ',"error":' + compact(body) + "}"


def error_text(rid: Any, code: int, message: str, data: Any = None) -> str:
    """An error response of our own."""
    err: dict[str, Any] = {"code": code, "message": message}
    if data is not None:
        err["data"] = data
    return rpc_error(rid, err)


def modern_error(rid: Any, code: int, message: str, data: Any = None) -> Answer:
    """An error answered in the 2026-07-28 era (HTTP 400 for these codes)."""
    return Answer(error_text(rid, code, message, data), code, "modern")


def _capabilities(value: str, capture: dict[str, Any]) -> str:
    """The capabilities text: as captured, or the `--capabilities` JSON object verbatim."""
    if value == "as-captured":
        caps = capture.get("serverCapabilities")
        return compact(caps if isinstance(caps, dict) else {})
    try:
        parsed = loads(value)
    except WireDecodeError as exc:
        raise UsageError(f"--capabilities is not JSON: {exc}") from None
    if not isinstance(parsed, dict):
        raise UsageError("--capabilities must be a JSON object such as '{\"resources\":{}}'")
    return compact(parsed)


def _with_caps(handshake: str, value: str, caps_text: str) -> str:
    if value == "as-captured":
        return handshake
    return replace_member(handshake, "capabilities", caps_text)
