"""Protocol eras: `server/discover` or `initialize`, and what the handshake established.

Era detection follows P:2026-07-28/basic/versioning and transports: probe `server/discover`
at 2026-07-28; a -32022 naming a modern version means retry; any other error or silence (or
an exit) means a legacy server, so `initialize`. Listing the catalog is `wire.listing`."""

from __future__ import annotations

import time
from typing import Any

from catalogaudit.errors import ProtocolError
from catalogaudit.model import (
    CLIENT_INFO,
    LATEST_LEGACY,
    LEGACY_VERSIONS,
    MODERN_VERSIONS,
    Finding,
    ProtocolChoice,
    Session,
    Severity,
)
from catalogaudit.wire.transport import (
    ExitedOnProbe,
    Limits,
    Reply,
    ServerExited,
    ServerTimeout,
    Transport,
    seconds,
)

#: How long a discover probe may stay silent before we call the server legacy (the mcp SDK
#: uses 10 s, `mcp/client/_probe.py::DISCOVER_TIMEOUT_SECONDS`).
DISCOVER_PROBE_TIMEOUT = 10.0


def _meta(version: str, caps: dict[str, Any]) -> dict[str, Any]:
    return {
        "io.modelcontextprotocol/protocolVersion": version,
        "io.modelcontextprotocol/clientCapabilities": caps,
        "io.modelcontextprotocol/clientInfo": CLIENT_INFO,
    }


def negotiate(
    transport: Transport,
    choice: ProtocolChoice,
    caps: dict[str, Any],
    limits: Limits,
    deadline: float | None = None,
    *,
    probe: bool = True,
) -> Session:
    """Establish the era and version the way the spec's detection rules say.

    `--startup-timeout` bounds the whole handshake, the discover probe and the fallback
    `initialize` together (a silent server fails after it, not after twice it); in auto mode the
    probe waits at most half of it, so a legacy server that ignores the probe still has time for
    `initialize`. A slow starter that answers the probe after that (stdio keeps the late
    answer), or refuses `initialize` with -32022, is modern: a late answer to the probe is a
    modern answer. `deadline` (monotonic) is the end of the whole capture (`--timeout`): no
    handshake request waits past it either. `probe=False` sends `initialize` only (a server
    that exited on the probe, started again).
    """
    budget = _Budget(transport, limits.startup_timeout, deadline)
    if choice.mode == "legacy" or not probe:
        return _initialize(transport, choice, caps, budget, [])
    offered: list[str] = []
    version = choice.offer
    fallback_reason = ""
    for attempt in range(2):
        offered.append(version)
        transport.set_protocol(version, True)
        cap = None
        if choice.mode == "auto":
            cap = min(DISCOVER_PROBE_TIMEOUT, limits.startup_timeout / 2)
        timeout = budget.left("server/discover", cap)
        try:
            reply = transport.request("server/discover", {"_meta": _meta(version, caps)}, timeout)
        except ServerTimeout:
            if choice.mode == "modern" or budget.spent():
                raise
            fallback_reason = f"server/discover got no answer within {seconds(timeout)}"
            budget.silent_probe = True
            break
        except ServerExited as exc:
            # NOTE: only a server that read the probe died of it; one that exits at start
            # without reading stdin fails here, with its own story.
            if choice.mode == "modern" or not exc.read:
                raise
            raise ExitedOnProbe(str(exc), exc.story, True) from None
        if reply.ok and _speaks(reply, version):
            return _modern_session(reply, choice, caps, offered, version)
        if reply.ok:
            # A result without our version in supportedVersions is not a DiscoverResult we can
            # use (the conformance `initialize` fixture answers `{}`): treat it as legacy.
            if choice.mode == "modern":
                raise ProtocolError(
                    f"{transport.describe()}, server/discover: the result does not list "
                    f"{version} in supportedVersions"
                )
            fallback_reason = f"server/discover result does not list {version} as supported"
            break
        retry = _retry_version(reply)
        if reply.error_code() == -32022 and retry and attempt == 0:
            version = retry
            continue
        if reply.error_code() == -32022 and choice.mode == "modern":
            raise ProtocolError(
                f"{transport.describe()}, server/discover: the server does not support "
                f"{version} ({reply.describe_error()})"
            )
        if choice.mode == "modern":
            raise ProtocolError(
                f"{transport.describe()}, server/discover: {reply.describe_error()} "
                "(the server does not speak 2026-07-28; try --protocol legacy)"
            )
        fallback_reason = f"server/discover answered {reply.describe_error()}"
        break
    transport.reset_session()
    if not budget.silent_probe:
        session = _initialize(transport, choice, caps, budget, offered)
    else:
        session = _after_silent_probe(transport, choice, caps, budget, offered, version)
        if session.era == "modern":
            return session
    session.findings.append(
        Finding(
            "CA520",
            Severity.INFO,
            f"not a 2026-07-28 server: {fallback_reason}; fell back to initialize",
        )
    )
    return session


def _after_silent_probe(
    transport: Transport, choice: ProtocolChoice, caps: dict[str, Any], budget: _Budget,
    offered: list[str], version: str,
) -> Session:  # fmt: skip
    """`initialize` after a probe that got no answer in time: a modern session when the probe's
    answer came late or `initialize` was refused with -32022 (a slow modern server), else the
    legacy session; `ExitedOnProbe` when the server exits on it (servers on mcp 1.6.0 fail
    their session on the probe and exit on the next line they read).

    What is recorded is what the probe would have recorded had it been answered in time, so a
    cold start and a warm one give the same snapshot."""
    try:
        session = _initialize(transport, choice, caps, budget, offered)
    except ServerExited as exc:
        if not exc.read:
            raise
        story = f"no answer, then {exc.story} on initialize"
        raise ExitedOnProbe(str(exc), story, True) from None
    except (ServerTimeout, ProtocolError) as exc:
        late = _late_modern(transport, version)
        if late is not None:
            return _modern_session(late, choice, caps, offered, version)
        if not isinstance(exc, _Refused) or exc.reply.error_code() != -32022:
            raise
        refused = exc.reply
        # NOTE: -32022 (UnsupportedProtocolVersion) is a modern error; over HTTP the probe's
        # late answer is lost with its POST, so the server is asked again with the time left.
        again = _retry_version(refused) or version
        transport.reset_session()
        transport.set_protocol(again, True)
        params = {"_meta": _meta(again, caps)}
        reply = transport.request("server/discover", params, budget.left("server/discover"))
        if reply.ok and _speaks(reply, again):
            return _modern_session(reply, choice, caps, _once([*offered, again]), again)
        raise
    late = _late_modern(transport, version)
    if late is not None:
        return _modern_session(late, choice, caps, offered, version)
    return session


def _once(versions: list[str]) -> list[str]:
    return list(dict.fromkeys(versions))


def _late_modern(transport: Transport, version: str) -> Reply | None:
    """The probe's late answer, when it is a DiscoverResult that speaks `version`."""
    late = transport.late_answer()
    if late is not None and late.method == "server/discover" and late.ok and _speaks(late, version):
        return late
    return None


class _Refused(ProtocolError):
    """`initialize` was answered with an error (kept: a -32022 there means a modern server)."""

    def __init__(self, message: str, reply: Reply) -> None:
        super().__init__(message)
        self.reply = reply


class _Budget:
    """What is left of the `--startup-timeout` (and of the capture's `--timeout`)."""

    def __init__(self, transport: Transport, startup: float, deadline: float | None) -> None:
        self.transport = transport
        self.startup = startup
        self.end = time.monotonic() + startup
        self.deadline = deadline
        #: The discover probe timed out: `initialize` is the second request a silent server
        #: left unanswered, and its error names the whole start-up time.
        self.silent_probe = False

    def left(self, method: str, cap: float | None = None) -> float:
        """Seconds the next handshake request may wait (raise when none are left)."""
        left = self.end - time.monotonic()
        if left <= 0:
            raise ServerTimeout(
                f"{self.transport.describe()}, {method}: the --startup-timeout "
                f"({seconds(self.startup)}) ran out"
            )
        left = min(left, cap) if cap is not None else left
        return _within(self.transport, method, left, self.deadline)

    def spent(self) -> bool:
        """Whether the start-up time or the capture's time is over."""
        now = time.monotonic()
        return now >= self.end or (self.deadline is not None and now >= self.deadline)


def _within(transport: Transport, method: str, timeout: float, deadline: float | None) -> float:
    """`timeout`, cut to what is left of the capture's `deadline` (raise when nothing is)."""
    if deadline is None:
        return timeout
    left = deadline - time.monotonic()
    if left <= 0:
        raise ServerTimeout(f"{transport.describe()}, {method}: the --timeout ran out")
    return min(timeout, left)


def _speaks(reply: Reply, version: str) -> bool:
    result = reply.result
    if not isinstance(result, dict):
        return False
    supported = result.get("supportedVersions")
    return isinstance(supported, list) and version in supported


def _retry_version(reply: Reply) -> str | None:
    data = (reply.error or {}).get("data")
    supported = data.get("supported") if isinstance(data, dict) else None
    if isinstance(supported, list):
        for v in MODERN_VERSIONS:
            if v in supported:
                return v
    return None


def _modern_session(
    reply: Reply, choice: ProtocolChoice, caps: dict[str, Any], offered: list[str], version: str
) -> Session:
    result = reply.result if isinstance(reply.result, dict) else {}
    meta = result.get("_meta")
    server_info = meta.get("io.modelcontextprotocol/serverInfo") if isinstance(meta, dict) else None
    session = Session(
        era="modern",
        version=version,
        choice=choice,
        offered=offered,
        capabilities_declared=caps,
        server_info=server_info,
        server_capabilities=result.get("capabilities"),
        instructions=result.get("instructions"),
        handshake_method="server/discover",
        handshake_text=reply.result_text,
        supported_versions=result.get("supportedVersions"),
    )
    if not isinstance(reply.result, dict):
        session.findings.append(
            Finding("CA521", Severity.ERROR, "server/discover result is not an object")
        )
    return session


def _initialize(
    transport: Transport,
    choice: ProtocolChoice,
    caps: dict[str, Any],
    budget: _Budget,
    offered: list[str],
) -> Session:
    version = choice.offer if choice.mode == "legacy" else LATEST_LEGACY
    offered = [*offered, version]
    transport.set_protocol(None, False)
    params = {"protocolVersion": version, "capabilities": caps, "clientInfo": CLIENT_INFO}
    timeout = budget.left("initialize")
    try:
        reply = transport.request("initialize", params, timeout)
    except ServerTimeout as exc:
        if not budget.silent_probe:
            raise
        # NOTE: keep what the transport added (non-JSON-RPC lines seen) after the time.
        said, whole = f"no answer within {seconds(timeout)}", seconds(budget.startup)
        raise ServerTimeout(
            str(exc).replace(
                said, f"no answer within {whole} (--startup-timeout; server/discover got none)", 1
            )
        ) from None
    if not reply.ok:
        raise _Refused(f"{transport.describe()}, initialize: {reply.describe_error()}", reply)
    result = reply.result if isinstance(reply.result, dict) else {}
    negotiated = result.get("protocolVersion")
    findings: list[Finding] = []
    if not isinstance(negotiated, str):
        findings.append(
            Finding("CA521", Severity.ERROR, "initialize result has no protocolVersion string")
        )
        negotiated = version
    elif negotiated != version:
        findings.append(
            Finding(
                "CA522",
                Severity.INFO,
                f"offered {version}, the server counter-offered {negotiated}",
                extra={"offered": version, "counterOffer": negotiated},
            )
        )
        if negotiated not in LEGACY_VERSIONS:
            findings.append(
                Finding(
                    "CA523",
                    Severity.WARNING,
                    f"initialize answered with {negotiated!r}, which is not a handshake-era "
                    "revision; the session continues as legacy",
                )
            )
    transport.set_protocol(negotiated, False)
    transport.notify("notifications/initialized", None)
    return Session(
        era="legacy",
        version=negotiated,
        choice=choice,
        offered=offered,
        capabilities_declared=caps,
        server_info=result.get("serverInfo"),
        server_capabilities=result.get("capabilities"),
        instructions=result.get("instructions"),
        handshake_method="initialize",
        handshake_text=reply.result_text,
        findings=findings,
    )


def legacy_probe(
    transport: Transport, caps: dict[str, Any], limits: Limits, deadline: float | None = None
) -> tuple[dict[str, Any], Session | None]:
    """Whether a modern server also answers a legacy `initialize`, in a fresh session.

    Clients that never probe `server/discover` (Codex 0.169.0, the TS SDK 1.32.2, opencode,
    Inspector: compat-rules.md "Measured with real clients") meet a server only through
    `initialize`; a 2026-only server answers it with -32022 (P:2026-07-28/basic/versioning) and
    those clients fail. The result is what `capture.protocol.legacy` records: `answered`, the
    version `offered` and the `version` answered, or the `error` (code and message) or
    `reason` (silence) instead. When the server answered, the legacy session it opened comes
    back too (initialized), so the caller may list in it; else None.
    """
    transport.set_protocol(None, False)
    params = {"protocolVersion": LATEST_LEGACY, "capabilities": caps, "clientInfo": CLIENT_INFO}
    out: dict[str, Any] = {"answered": False, "offered": LATEST_LEGACY}
    timeout = min(limits.startup_timeout, DISCOVER_PROBE_TIMEOUT)
    try:
        timeout = _within(transport, "initialize", timeout, deadline)
        reply = transport.request("initialize", params, timeout)
    except ServerTimeout:
        out["reason"] = f"initialize got no answer within {seconds(timeout)}"
        return out, None
    if not reply.ok:
        err = reply.error or {}
        out["error"] = {
            k: err[k] for k in ("code", "message") if isinstance(err.get(k), (int, str))
        }
        return out, None
    result = reply.result if isinstance(reply.result, dict) else {}
    version = result.get("protocolVersion")
    if not isinstance(version, str):
        out["reason"] = "the initialize result has no protocolVersion string"
        return out, None
    out.update(answered=True, version=version)
    transport.set_protocol(version, False)
    transport.notify("notifications/initialized", None)
    session = Session(
        era="legacy",
        version=version,
        choice=ProtocolChoice("legacy", "legacy", LATEST_LEGACY),
        offered=[LATEST_LEGACY],
        capabilities_declared=caps,
        server_info=result.get("serverInfo"),
        server_capabilities=result.get("capabilities"),
        instructions=result.get("instructions"),
        handshake_method="initialize",
        handshake_text=reply.result_text,
    )
    return out, session
