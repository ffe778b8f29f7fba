"""Handshake checks: can a client with a given era and version support reach the server at all?

The facts come from the snapshot's capture block, recorded by a real handshake:
`capture.protocol` says which era and version the capture negotiated, and for a 2026-07-28
capture made with `snapshot --legacy-probe`, `capture.protocol.legacy` says whether the server
also answers a legacy `initialize` in a fresh session (P:2026-07-28/basic/versioning: a
2026-only server answers it with -32022). A static snapshot records no handshake: a legacy one
is skipped, and a 2026-07-28 one gets the note of a capture without the legacy probe.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from catalogaudit.model import Catalog, pointer_join
from catalogaudit.rules.base import Context, Hit
from catalogaudit.rules.checks.common import check

VERSIONS: dict[str, Any] = {"type": "array", "items": {"type": "string"}, "minItems": 1}
PROTO = "/capture/protocol"


@check(
    "handshake",
    {
        "discover": {
            "type": "boolean",
            "description": "The client sends `server/discover` first and speaks 2026-07-28 "
            "when the server does (default false: it only sends `initialize`).",
        },
        "modern_versions": {
            **VERSIONS,
            "description": "Versions the client adopts from a DiscoverResult (default 2026-07-28).",
        },
        "initialize_versions": {
            **VERSIONS,
            "description": "protocolVersion values the client accepts in an InitializeResult "
            "(default: any).",
        },
        "requests": {
            "type": "string",
            "description": "The protocolVersion the client's initialize asks for, when it "
            "differs from the one the capture offered: a server that echoed the capture's "
            "offer is taken to echo this one too, so only a counter-offer is checked.",
        },
    },
)
def handshake(catalog: Catalog, params: Mapping[str, Any], ctx: Context) -> Iterator[Hit]:
    """The client meets the server the way the capture did, or fails the whole server: a
    2026-07-28 server reached by `server/discover` when the client probes it and shares a
    version; otherwise through `initialize`, whose answered `protocolVersion` must be one of
    `initialize_versions`. A 2026-only server (its legacy `initialize` answered -32022) is
    unreachable for a client that never sends discover. With `requests`, an answer that echoed
    the capture's own offer stands for an echo of the client's version (P:2025-11-25
    basic/lifecycle, version negotiation: a server that supports the requested version must
    answer with it), so only a counter-offer can fail. A catalog-level hit; a note, not a
    finding, when a 2026-07-28 capture did not record the legacy answer
    (`snapshot --legacy-probe`): the rule cannot tell then."""
    proto = catalog.capture.get("protocol")
    if not isinstance(proto, dict) or proto.get("handshake") not in (
        "initialize",
        "server/discover",
        "static",
    ):
        return
    accepted: Sequence[str] | None = params.get("initialize_versions")
    if proto.get("handshake") == "static" and proto.get("era") != "modern":
        return
    asks = params.get("requests")
    if proto.get("era") != "modern":
        version = proto.get("negotiated")
        offered = proto.get("offered")
        if asks is not None and isinstance(offered, list) and offered[-1:] == [version]:
            return  # it echoed the offer (initialize's is the last): it echoes `asks` too
        if accepted is not None and version not in accepted:
            yield Hit(
                None,
                f"{PROTO}/negotiated",
                f"initialize was answered with protocolVersion {_shown(version)}, which the "
                f"client does not accept (it speaks {', '.join(accepted)})",
                excerpt=str(version),
            )
        return
    if params.get("discover", False) and _shares(catalog, proto, params):
        return
    how = (
        "the client never sends server/discover"
        if not params.get("discover", False)
        else "the server's supportedVersions share no version with the client"
    )
    legacy = proto.get("legacy")
    if not isinstance(legacy, dict):
        yield Hit(
            None,
            PROTO,
            f"a 2026-07-28 server and {how}: whether it also answers a legacy initialize was "
            "not recorded (capture with `snapshot --legacy-probe` to know); if it does not",
            excerpt="legacy",
            note=True,
        )
        return
    if legacy.get("answered") is not True:
        yield Hit(
            None,
            f"{PROTO}/legacy",
            f"the server answers server/discover only and {how}: its legacy initialize "
            f"got {_refusal(legacy)}",
            excerpt=_refusal(legacy),
        )
        return
    version = legacy.get("version")
    if asks is not None and version == legacy.get("offered"):
        return  # the probe's offer was echoed: so is the client's
    if accepted is not None and version not in accepted:
        yield Hit(
            None,
            f"{PROTO}/legacy/version",
            f"{how}, and the server's legacy initialize names protocolVersion "
            f"{_shown(version)}, which the client does not accept (it speaks "
            f"{', '.join(accepted)})",
            excerpt=str(version),
        )


@check(
    "http-answers",
    {
        "methods": {
            **VERSIONS,
            "description": "Request methods whose answers the client reads "
            "(default initialize and tools/list).",
        },
        "content_type": {
            "enum": ["text/event-stream", "application/json"],
            "description": "The answer Content-Type the client mishandles.",
        },
    },
    required=("content_type",),
)
def http_answers(catalog: Catalog, params: Mapping[str, Any], ctx: Context) -> Iterator[Hit]:
    """How a Streamable HTTP server answered: one catalog-level hit per method in `methods`
    whose answer came as `content_type` (P:2025-11-25 basic/transports lets the server pick
    JSON or an SSE stream per request), read from `capture.http.answers`. Stdio and static
    captures are skipped; an HTTP capture made before catalogaudit recorded the answers gives
    a note (the rule cannot tell)."""
    if catalog.capture.get("transport") != "streamable-http":
        return
    record = catalog.capture.get("http")
    answers = record.get("answers") if isinstance(record, dict) else None
    wanted: Sequence[str] = params.get("methods", ("initialize", "tools/list"))
    if not isinstance(answers, dict):
        yield Hit(
            None,
            "/capture",
            "an HTTP capture that did not record how the server answered (snapshot it again "
            "to know); if it answers " + ", ".join(wanted) + f" as {params['content_type']}",
            excerpt="http",
            note=True,
        )
        return
    for method in wanted:
        if answers.get(method) == params["content_type"]:
            yield Hit(
                None,
                pointer_join("/capture/http/answers", method),
                f"the server answered {method} with Content-Type {params['content_type']}",
                excerpt=params["content_type"],
            )


def _shares(catalog: Catalog, proto: Mapping[str, Any], params: Mapping[str, Any]) -> bool:
    supported = catalog.capture.get("supportedVersions")
    if not isinstance(supported, list):
        supported = [proto.get("negotiated")]
    modern = params.get("modern_versions", ("2026-07-28",))
    return any(v in modern for v in supported)


def _refusal(legacy: Mapping[str, Any]) -> str:
    error = legacy.get("error")
    if isinstance(error, dict) and "code" in error:
        return f"{error.get('code')} {error.get('message', '')}".strip()
    reason = legacy.get("reason")
    return str(reason) if reason else "no answer"


def _shown(value: Any) -> str:
    return f'"{value}"' if isinstance(value, str) else "none"
