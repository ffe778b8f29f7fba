"""One live capture: open the transport, negotiate, fetch the four listings, always clean up."""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from catalogaudit.errors import ServerError, UsageError
from catalogaudit.model import LATEST_LEGACY, LISTINGS, Finding, ProtocolChoice, Severity
from catalogaudit.wire.transport import (
    ExitedOnProbe,
    Limits,
    NotAnEventStream,
    NotStreamable,
    Transport,
)

if TYPE_CHECKING:
    from catalogaudit.model import Capture

# NOTE: the wire clients (httpx above all) are imported where a capture needs them, so a verb
# that only imports this module (for `ENV_VALUE_*` or `Target`) loads no HTTP stack; the
# handshake and the listings (`capture`) once the server is started, so it starts sooner.

#: Environment variables whose values change real catalogs (mcp-server-time embeds TZ), so
#: their values are recorded; every other variable is recorded by name only.
ENV_VALUE_ALLOW = ("TZ", "LANG")
ENV_VALUE_PREFIX = "LC_"

#: What a stdio server inherits from our environment by default: the `mcp` SDK's
#: `get_default_environment` list (github.com/modelcontextprotocol/python-sdk,
#: src/mcp/client/stdio/__init__.py, DEFAULT_INHERITED_ENV_VARS) plus the locale and time zone
#: variables above, which change real catalogs. `--env` adds to it; `--inherit-env` passes all.
ENV_INHERIT = (
    ("APPDATA", "HOMEDRIVE", "HOMEPATH", "LOCALAPPDATA", "PATH", "PATHEXT")
    + ("PROCESSOR_ARCHITECTURE", "SYSTEMDRIVE", "SYSTEMROOT", "TEMP", "USERNAME", "USERPROFILE")
    if os.name == "nt"
    else ("HOME", "LOGNAME", "PATH", "SHELL", "TERM", "USER")
)


def server_environment(extra: Mapping[str, str], inherit: bool) -> dict[str, str]:
    """The stdio server's environment: the allow-list (or everything) plus `--env`."""
    base = {
        k: v
        for k, v in os.environ.items()
        if inherit or k in ENV_INHERIT or k in ENV_VALUE_ALLOW or k.startswith(ENV_VALUE_PREFIX)
    }
    # NOTE: values starting with "()" are shell functions (bash exports); the SDK skips them.
    if not inherit:
        base = {k: v for k, v in base.items() if not v.startswith("()")}
    return {**base, **extra}


@dataclass(frozen=True)
class Target:
    """Which server to capture and how to reach it; header values are secrets."""

    argv: tuple[str, ...] = ()
    cwd: str | None = None
    env: Mapping[str, str] = field(default_factory=dict)
    url: str | None = None
    headers: Mapping[str, str] = field(default_factory=dict, repr=False)
    #: Pass the whole environment instead of `ENV_INHERIT` (`--inherit-env`).
    inherit_env: bool = False
    #: `--transport`: `auto` (Streamable HTTP, then HTTP+SSE when a POST is refused without a
    #: JSON-RPC body), `streamable-http` or `sse`.
    http_transport: str = "auto"

    @property
    def transport(self) -> str:
        """`stdio`, `streamable-http` or `sse` (what `--transport` asked for; `auto` is
        `streamable-http` until the server refuses it)."""
        if not self.url:
            return "stdio"
        return "sse" if self.http_transport == "sse" else "streamable-http"

    def record(self) -> dict[str, Any]:
        """What the snapshot says about the target: no values of env or headers, no abs paths."""
        if self.url:
            from catalogaudit.wire.http import public_url

            return {"url": public_url(self.url), "headers": sorted(self.headers, key=str.lower)}
        env = server_environment(self.env, self.inherit_env)
        values = {
            k: v for k, v in env.items() if k in ENV_VALUE_ALLOW or k.startswith(ENV_VALUE_PREFIX)
        }
        return {
            "command": portable_argv(self.argv, self.cwd),
            "environment": {"set": sorted(self.env), "values": values},
        }


def portable_argv(argv: Sequence[str], cwd: str | None) -> list[str]:
    """The command line without absolute paths, so snapshots are the same on every machine."""
    base = Path(cwd or os.getcwd()).resolve()
    out: list[str] = []
    for i, arg in enumerate(argv):
        if not arg.startswith("/"):
            out.append(arg)
            continue
        path = Path(arg)
        if i == 0:
            out.append(path.name)
            continue
        try:
            out.append(str(path.resolve().relative_to(base)))
        except ValueError:
            out.append(f".../{path.name}")
    return out


def open_transport(
    target: Target, limits: Limits, roots_declared: bool, sse: bool = False
) -> Transport:
    """Start the server (stdio) or prepare the HTTP client (`sse`: of HTTP+SSE)."""
    if target.url and (sse or target.http_transport == "sse"):
        from catalogaudit.wire.sse import SseTransport

        return SseTransport(
            target.url, headers=target.headers, limits=limits, roots_declared=roots_declared
        )
    if target.url:
        from catalogaudit.wire.http import HttpTransport

        return HttpTransport(
            target.url, headers=target.headers, limits=limits, roots_declared=roots_declared
        )
    if not target.argv:
        raise UsageError("give a server command after -- or a --url")
    env = server_environment(target.env, target.inherit_env)
    from catalogaudit.wire.stdio import StdioTransport

    return StdioTransport(
        target.argv, cwd=target.cwd, env=env, limits=limits, roots_declared=roots_declared
    )


def capture(
    target: Target,
    choice: ProtocolChoice,
    caps: dict[str, Any],
    limits: Limits,
    *,
    legacy_probe: bool = False,
    legacy_pages: bool = False,
    started: Callable[[], None] | None = None,
) -> Capture:
    """Run one capture; the transport is closed on every path (no orphan processes).

    `started` is called once the server process runs (stdio) or the HTTP client is made,
    before the handshake: the caller's own start-up (imports) overlaps the server's.

    With `legacy_probe`, a modern session is followed by a fresh one (a new server process
    over stdio, a new session over HTTP) that sends a legacy `initialize`, so the snapshot
    says whether clients that never send `server/discover` can reach the server at all; with
    `legacy_pages` too, that session lists the four listings and their page texts are kept
    (`wire.legacy`), since a server may serve other texts in that era (key order, no cache
    fields) and `serve` replays them to legacy clients.
    """
    deadline = limits.until(limits.total_timeout)
    transport = open_transport(target, limits, "roots" in caps)
    done = False
    try:
        from catalogaudit.wire.handshake import negotiate
        from catalogaudit.wire.listing import fetch_listing

        if started is not None:
            started()
        try:
            session = negotiate(transport, choice, caps, limits, deadline)
        except NotStreamable as exc:
            if target.http_transport != "auto":
                raise ServerError(
                    f"{exc} (--transport sse speaks the HTTP+SSE transport of 2024-11-05)"
                ) from None
            # NOTE: the spec's backward compatibility (P:2025-03-26 transports): a POST
            # refused with 4xx and no JSON-RPC body, then a GET that opens an event stream
            # whose first event is `endpoint` is the HTTP+SSE transport of 2024-11-05.
            transport.close(failed=True)
            transport = open_transport(target, limits, "roots" in caps, sse=True)
            try:
                session = negotiate(transport, choice, caps, limits, deadline)
            except ServerError as again:
                if not isinstance(again, NotAnEventStream):
                    raise
                raise ServerError(
                    f"{exc} (and it is no HTTP+SSE server either: {again.why})"
                ) from None
        except ExitedOnProbe as exc:
            # NOTE: servers on old SDKs (chroma-mcp 0.2.6 on mcp 1.6.0) exit on a method they
            # do not know; such a server is legacy, so it is started again without the probe.
            transport.close(failed=True)
            transport = open_transport(target, limits, "roots" in caps)
            session = negotiate(transport, choice, caps, limits, deadline, probe=False)
            session.findings.append(
                Finding(
                    "CA520",
                    Severity.INFO,
                    f"not a 2026-07-28 server: on server/discover {exc.story}; started it again "
                    "and captured it with initialize (--protocol legacy skips the probe)",
                )
            )
        listings = {
            name: fetch_listing(transport, session, name, limits, deadline) for name in LISTINGS
        }
        done = True
    finally:
        transport.close(failed=not done)
    found = _hygiene(transport)
    legacy_wire = None
    # NOTE: by name: importing wire.sse would load httpx into every stdio capture.
    kind = "sse" if type(transport).__name__ == "SseTransport" else target.transport
    if legacy_probe and session.era == "modern":
        session.legacy, legacy_wire = _probe_legacy(
            target, caps, limits, deadline, legacy_pages, kind == "sse"
        )
    codings = sorted(transport.events.content_codings)
    from catalogaudit.model import Capture

    captured = Capture(kind, target.record(), session, listings, found, content_codings=codings)
    captured.legacy_wire = legacy_wire
    if kind == "streamable-http":
        captured.http_answers = dict(transport.events.answers)
    return captured


def _probe_legacy(
    target: Target,
    caps: dict[str, Any],
    limits: Limits,
    deadline: float,
    pages: bool,
    sse: bool = False,
) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """The probe's record, and with `pages` the legacy session's handshake and page texts
    (a listing that failed keeps its error under `answers`)."""
    from catalogaudit.errors import ServerError
    from catalogaudit.wire import handshake as protocol
    from catalogaudit.wire.listing import fetch_listing

    transport = open_transport(target, limits, "roots" in caps, sse)
    try:
        record, session = protocol.legacy_probe(transport, caps, limits, deadline)
        if session is None or not pages:
            return record, None
        legacy: dict[str, Any] = {"handshake": session.handshake_text, "pages": {}}
        for name in LISTINGS:
            listing = fetch_listing(transport, session, name, limits, deadline)
            legacy["pages"][name] = [page.text for page in listing.pages]
            if listing.answer is not None:
                legacy.setdefault("answers", {})[name] = listing.answer
        return record, legacy
    except ServerError as exc:
        # NOTE: a server that dies on a legacy initialize is unreachable for those clients
        # too; that is the fact recorded, not a failed capture.
        return {"answered": False, "offered": LATEST_LEGACY, "reason": str(exc)}, None
    finally:
        transport.close()


def _tally(counts: Mapping[str, int], others: int, what: str) -> str:
    """`a x2, b x1` and, past the names kept, how many more arrived under other names."""
    said = ", ".join(f"{m} x{n}" for m, n in sorted(counts.items()))
    if others:
        said += f"; {others} more {what}{'s' if others != 1 else ''} under other names (not kept)"
    return said


def _hygiene(transport: Transport) -> list[Finding]:
    ev = transport.events
    out: list[Finding] = []
    if ev.non_json_count:
        lines = (
            "1 line that is not a JSON-RPC message"
            if ev.non_json_count == 1
            else f"{ev.non_json_count} lines that are not JSON-RPC messages"
        )
        out.append(
            Finding(
                "CA510",
                Severity.WARNING,
                f"the server wrote {lines} to stdout; first: {ev.non_json_lines[0]!r}",
                extra={"count": ev.non_json_count, "lines": list(ev.non_json_lines)},
            )
        )
    changed = {m: n for m, n in ev.notifications.items() if m.endswith("/list_changed")}
    if changed:
        extra: dict[str, Any] = {"notifications": dict(sorted(changed.items()))}
        if ev.other_notifications:
            extra["notKept"] = ev.other_notifications
        out.append(
            Finding(
                "CA511",
                Severity.INFO,
                "list_changed notifications arrived during capture: "
                + _tally(changed, ev.other_notifications, "notification"),
                extra=extra,
            )
        )
    if ev.server_requests:
        extra = {"requests": dict(sorted(ev.server_requests.items()))}
        if ev.other_requests:
            extra["notKept"] = ev.other_requests
        out.append(
            Finding(
                "CA512",
                Severity.INFO,
                "the server sent requests to the client: "
                + _tally(ev.server_requests, ev.other_requests, "request"),
                extra=extra,
            )
        )
    from catalogaudit.wire.stdio import StdioTransport

    # NOTE: a server kept alive by a request it sent after stdin closed waits on us, not on
    # its own (server-everything's roots/list); whether that request came before or after the
    # close is timing, so it is not written into the snapshot either.
    if (
        isinstance(transport, StdioTransport)
        and not transport.exited_by_itself()
        and not transport.waited_on_us()
    ):
        out.append(Finding("CA513", Severity.WARNING, "the server did not exit when stdin closed"))
    return out
