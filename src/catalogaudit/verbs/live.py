"""The one live capture: options in, a snapshot document out (`snapshot`, `audit --live` and
`diff --live` all capture through `capture`), plus how options become the wire client's target
and limits. Header values and `--env` values are secrets: they reach the server, never the file.
"""

from __future__ import annotations

import math
import os
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from catalogaudit.errors import CatalogauditError, UsageError
from catalogaudit.model import client_capabilities, parse_protocol
from catalogaudit.verbs.secrets import Masker, masker_for

if TYPE_CHECKING:
    from catalogaudit.wire import Limits, Target

# NOTE: the wire client is imported where a capture needs it: `audit` imports this module for
# `SnapshotOptions`, and the pre-commit hook's offline audit must not load the wire client.
# `snapshots.build` too: it is imported while the server starts (`capture`), not before.


@dataclass(frozen=True)
class SnapshotOptions:
    """Everything `catalogaudit snapshot` was asked to do."""

    command: tuple[str, ...] = ()
    url: str | None = None
    #: `--transport`: `auto`, `streamable-http` or `sse` (the HTTP+SSE transport of 2024-11-05).
    transport: str = "auto"
    headers: tuple[str, ...] = ()
    cwd: str | None = None
    env: tuple[str, ...] = ()
    protocol: str = "auto"
    client_capabilities: str = "none"
    runs: int = 1
    jobs: int = 1
    timeout: float = 300.0
    startup_timeout: float = 30.0
    request_timeout: float = 30.0
    max_pages: int = 1000
    max_message_size: int = 64 * 1024 * 1024
    max_total_bytes: int = 256 * 1024 * 1024
    wire: bool = True
    #: After a modern capture, ask a fresh session whether legacy `initialize` is answered.
    legacy_probe: bool = False
    static_inputs: tuple[str, ...] = ()
    output: str = "-"
    #: `snapshot --expect-tool ...`: assertions on what was captured (`verbs.contract.KEYS`).
    contract: dict[str, Any] = field(default_factory=dict)
    #: More values to mask in what the server says (`--secret`; `env:VAR` reads a variable).
    secrets: tuple[str, ...] = ()
    #: Pass the server our whole environment, not the allow-list (`--inherit-env`).
    inherit_env: bool = False
    #: `--prices FILE`: price data for the bill of runs that differ (None: built-in).
    prices: str | None = None


def parse_headers(values: Sequence[str], environ: dict[str, str]) -> dict[str, str]:
    """`Name: value` pairs; `env:VAR` values come from the environment (kept out of history)."""
    out: dict[str, str] = {}
    for raw in values:
        name, sep, value = raw.partition(":")
        name, value = name.strip(), value.strip()
        if not sep or not name or any(c in name for c in " \t\r\n"):
            raise UsageError(f"--header must look like 'Name: value', got a value for {name!r}")
        if value.startswith("env:"):
            var = value[4:]
            if var not in environ:
                raise UsageError(f"--header {name}: environment variable {var} is not set")
            value = environ[var]
        if any(c in value for c in "\r\n"):
            raise UsageError(f"--header {name}: the value contains a line break")
        if not (name + value).isascii() or not all(c.isprintable() for c in name + value):
            # NOTE: HTTP/1.1 field values are bytes (RFC 9110 5.5); httpx sends ASCII only.
            # The value is never echoed: it may be a credential.
            raise UsageError(
                f"--header {name!r}: names and values must be printable ASCII "
                "(encode the value first, e.g. percent- or base64-encoded)"
            )
        out[name] = value
    return out


def parse_env(values: Sequence[str]) -> dict[str, str]:
    """`KEY=VALUE` pairs for the server's environment."""
    from catalogaudit.verbs.config import parse_pairs

    return parse_pairs(values, "--env")


#: The longest wait an option may ask for (a year): the system's waits (select, locks,
#: socket timeouts) overflow near 9.2e9 seconds.
MAX_SECONDS = 366 * 24 * 3600


def check_seconds(option: str, value: float) -> None:
    """Refuse a number of seconds that no wait can use: nan, inf, zero, negative, over a year."""
    if not math.isfinite(value) or value <= 0:
        raise UsageError(f"{option} must be a positive number of seconds")
    if value > MAX_SECONDS:
        raise UsageError(f"{option} must be at most {MAX_SECONDS} seconds (366 days)")


def limits_of(o: SnapshotOptions) -> Limits:
    """The wire client's bounds; `--timeout` starts now and ends the whole command (every run
    of `--runs` takes from the same deadline and the same `--max-total-bytes`)."""
    from catalogaudit.wire import Budget, Limits

    for name in ("timeout", "startup_timeout", "request_timeout"):
        check_seconds(f"--{name.replace('_', '-')}", getattr(o, name))
    if o.max_total_bytes < o.max_message_size:
        raise UsageError("--max-total-bytes must be at least --max-message-size")
    return Limits(
        startup_timeout=min(o.startup_timeout, o.timeout),
        request_timeout=min(o.request_timeout, o.timeout),
        total_timeout=o.timeout,
        max_message=o.max_message_size,
        max_pages=o.max_pages,
        deadline=time.monotonic() + o.timeout,
        budget=Budget(o.max_total_bytes),
    )


#: `--transport` values.
TRANSPORTS = ("auto", "streamable-http", "sse")


def target_of(o: SnapshotOptions) -> Target:
    from catalogaudit.wire import Target

    if o.url and o.command:
        raise UsageError("give either a server command after -- or --url, not both")
    if not o.url and not o.command:
        raise UsageError("give a server command after -- (or --url URL, or --from FILE)")
    if o.url and (o.env or o.cwd or o.inherit_env):
        raise UsageError("--env, --cwd and --inherit-env apply to stdio servers only")
    if o.url:
        check_url(o.url)
    if o.command and o.headers:
        raise UsageError("--header applies to --url only")
    if o.transport not in TRANSPORTS:
        raise UsageError(f"--transport must be one of {', '.join(TRANSPORTS)}, not {o.transport!r}")
    if o.command and o.transport != "auto":
        raise UsageError("--transport applies to --url only")
    return Target(
        argv=o.command,
        cwd=o.cwd,
        env=parse_env(o.env),
        url=o.url,
        headers=parse_headers(o.headers, dict(os.environ)),
        inherit_env=o.inherit_env,
        http_transport=o.transport,
    )


#: The longest `--url` (httpx refuses longer URLs: `httpx._urlparse.MAX_URL_LENGTH`).
MAX_URL = 65536


def check_url(url: str) -> None:
    """Refuse a `--url` the HTTP client cannot use, in one line (never echoing credentials)."""
    from urllib.parse import urlsplit

    if len(url) > MAX_URL:
        raise UsageError(f"--url is {len(url):,} characters long, over the {MAX_URL:,} allowed")
    shown = _url_shape(url)
    if any(c.isspace() or not c.isprintable() for c in url):
        raise UsageError(f"--url {shown}: contains a space or control character")
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 - raises ValueError for a port that is not a number
    except ValueError as exc:
        raise UsageError(f"--url {shown}: {exc}") from None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise UsageError(f"--url must be an http:// or https:// URL with a host, got {shown}")
    if any(c in (parts.hostname or "") for c in "${}<>\\^`|\"'"):
        raise UsageError(f"--url {shown}: the host contains characters a host cannot have")
    host = parts.hostname or ""
    if host.isascii() and ":" not in host:
        labels = host.removesuffix(".").split(".")
        if len(host) > 253 or any(not 0 < len(label) <= 63 for label in labels):
            # NOTE: RFC 1035 2.3.4; the resolver's IDNA step refuses such a name mid-request.
            raise UsageError(
                f"--url {shown}: a host name has labels of 1 to 63 characters, 253 in all"
            )


def _url_shape(url: str) -> str:
    """The URL without user info and query, for error lines."""
    head, _, _ = url.partition("?")
    scheme, sep, rest = head.partition("://")
    if sep and "@" in rest.split("/", 1)[0]:
        rest = "***@" + rest.split("@", 1)[1]
    return repr(f"{scheme}{sep}{rest}")


def secrets_of(o: SnapshotOptions, target: Target) -> Masker:
    """Everything to mask in what this capture's server says."""
    marked = [secret_value(v) for v in o.secrets]
    return masker_for(target.argv, target.env, target.headers, target.url, marked)


def secret_value(value: str) -> str:
    """A `--secret` value: itself, or the variable `env:VAR` names."""
    if value.startswith("env:"):
        var = value[4:]
        if var not in os.environ:
            raise UsageError(f"--secret env:{var}: environment variable {var} is not set")
        return os.environ[var]
    return value


def capture(
    o: SnapshotOptions,
    *,
    caps: dict[str, Any] | None = None,
    wire: bool | None = None,
    legacy_pages: bool = True,
    limits: Limits | None = None,
    meanwhile: Callable[[], None] | None = None,
) -> dict[str, Any]:
    """Capture the server `o` names once and build its snapshot document.

    `caps` overrides `--client-capabilities` (a live diff declares what the committed
    snapshot declared); `wire` overrides `--no-wire`. `--legacy-probe` lists the legacy
    session's pages too when the wire section is kept, unless `legacy_pages` is False (an
    audit that only needs to know whether the server answers). `limits` shares one deadline
    and byte budget between captures (`--runs`); by default the capture gets its own.
    `meanwhile` is the caller's own start-up work, done while the server starts.
    """
    declared = client_capabilities(o.client_capabilities) if caps is None else caps
    kept = o.wire if wire is None else wire
    from catalogaudit.wire import capture_server

    target = target_of(o)
    masker = secrets_of(o, target)

    def prepare() -> None:
        from catalogaudit.snapshots import build_snapshot  # noqa: F401 - used below, after the exit

        if meanwhile is not None:
            meanwhile()

    try:
        captured = capture_server(
            target,
            parse_protocol(o.protocol),
            declared,
            limits_of(o) if limits is None else limits,
            legacy_probe=o.legacy_probe,
            legacy_pages=o.legacy_probe and kept and legacy_pages,
            started=prepare,
        )
    except CatalogauditError as exc:
        if not masker:
            raise
        try:
            masked = type(exc)(masker.text(str(exc)))
        except TypeError:  # an error type with more arguments
            masked = CatalogauditError(masker.text(str(exc)))
        raise masked from None
    from catalogaudit.snapshots import build_snapshot

    if masker:
        _mask_handshake(captured, masker)
    return masker.document(build_snapshot(captured, wire=kept))


def _mask_handshake(captured: Any, masker: Masker) -> None:
    """Mask what the server says of itself (instructions, serverInfo, the handshake texts they
    came in) before anything is hashed: unlike the listings, it is not the catalog's items, and
    the catalog hash then covers what the file says."""
    session = captured.session
    session.instructions = masker.data(session.instructions)
    session.server_info = masker.data(session.server_info)
    if session.handshake_text is not None:
        session.handshake_text = masker.text(session.handshake_text)
    legacy = captured.legacy_wire
    if isinstance(legacy, dict) and isinstance(legacy.get("handshake"), str):
        legacy["handshake"] = masker.text(legacy["handshake"])


def abort() -> None:
    """A signal (or a failed run of several): end every server now and start no more."""
    reaper = sys.modules.get("catalogaudit.wire.reaper")
    if reaper is not None:  # NOTE: nothing to end when no capture ever loaded the wire client
        reaper.abort()


def at_exit(program: bool = True) -> None:
    """The command ends: a later command in this process starts servers again (an abort
    held for this one), and when the process ends next (`program`) nothing below us may
    outlive it: servers' descendants that left their process group and were re-parented to
    us as their subreaper. Embedded (`cli.main(argv)`), the host's other children are its."""
    reaper = sys.modules.get("catalogaudit.wire.reaper")
    if reaper is not None:
        reaper.reset()
        if program:
            reaper.at_exit()
