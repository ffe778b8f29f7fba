"""`snapshot --from`: merge files read by the loader into one snapshot (`source: static`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from catalogaudit.errors import InputError
from catalogaudit.intake.loader import Loaded, StaticPage, display_name
from catalogaudit.model import (
    LATEST_LEGACY,
    LISTINGS,
    METHODS,
    MODERN_VERSIONS,
    Capture,
    Finding,
    Listing,
    Page,
    ProtocolChoice,
    Session,
    Severity,
    WireDecodeError,
    anomaly_findings,
    compact,
    loads,
    page_anomalies,
)


def merge(
    inputs: Sequence[tuple[str, Loaded]], choice: ProtocolChoice, texts: bool = True
) -> Capture:
    """One capture from several static inputs; two inputs for one listing is an error.
    `texts=False`: its pages keep no text (inputs read with `loader.parse(texts=False)`, for a
    snapshot without a wire copy)."""
    pages: dict[str, list[StaticPage]] = {}
    owner: dict[str, str] = {}
    handshake: dict[str, Any] | None = None
    handshake_text: str | None = None
    snapshot_capture: dict[str, Any] | None = None
    for spec, loaded in inputs:
        found = dict(loaded.pages)
        if loaded.snapshot is not None:
            found = _snapshot_pages(loaded)
            snapshot_capture = loaded.snapshot.get("capture")
            wire = loaded.snapshot.get("wire")
            if isinstance(wire, dict) and isinstance(wire.get("handshake"), str):
                handshake_text = wire["handshake"]
        for name, got in found.items():
            if name in owner:
                raise InputError(
                    f"two inputs for {METHODS[name]}: {owner[name]} and {display_name(spec)}"
                )
            owner[name] = display_name(spec)
            pages[name] = got
        if loaded.handshake is not None:
            handshake, handshake_text = loaded.handshake, loaded.handshake_text
    session = _session(choice, handshake, handshake_text, snapshot_capture)
    listings = {name: _listing(name, pages.get(name), texts) for name in LISTINGS}
    return Capture(None, None, session, listings, [], inputs=[display_name(s) for s, _ in inputs])


def _snapshot_pages(loaded: Loaded) -> dict[str, list[StaticPage]]:
    doc = loaded.snapshot or {}
    wire = doc.get("wire") if isinstance(doc.get("wire"), dict) else None
    out: dict[str, list[StaticPage]] = {}
    for name in LISTINGS:
        rec = (doc.get("listings") or {}).get(name)
        if not isinstance(rec, dict) or rec.get("status") == "absent":
            continue
        texts = ((wire or {}).get("pages") or {}).get(name)
        if isinstance(texts, list) and texts and all(isinstance(t, str) for t in texts):
            out[name] = [_reparse(loaded.name, t) for t in texts]
            continue
        items = rec.get("items") or []
        positions = rec.get("servedPositions") or list(range(len(items)))
        served: list[Any] = [None] * len(items)
        for item, pos in zip(items, positions, strict=False):
            served[pos] = item
        result = {name: served}
        out[name] = [StaticPage(compact(result), result, False)]
    return out


def _reparse(source: str, text: str) -> StaticPage:
    try:
        return StaticPage(text, loads(text), False)
    except WireDecodeError as exc:
        raise InputError(f"{source}: a wire page is not JSON ({exc})") from None


def _session(
    choice: ProtocolChoice,
    handshake: dict[str, Any] | None,
    handshake_text: str | None,
    snapshot_capture: dict[str, Any] | None,
) -> Session:
    version: str | None = None
    findings: list[Finding] = []
    if choice.mode != "auto" and choice.requested not in ("legacy", "modern"):
        version = choice.offer
    elif handshake is not None and isinstance(handshake.get("protocolVersion"), str):
        version = handshake["protocolVersion"]
    elif isinstance(snapshot_capture, dict):
        proto = snapshot_capture.get("protocol") or {}
        if isinstance(proto.get("negotiated"), str):
            version = proto["negotiated"]
    elif handshake is not None and "supportedVersions" in handshake:
        version = MODERN_VERSIONS[0]
    if version is None:
        version = MODERN_VERSIONS[0] if choice.mode == "modern" else LATEST_LEGACY
        findings.append(
            Finding(
                "CA524",
                Severity.INFO,
                f"the inputs do not say their protocol revision; assumed {version} "
                "(pass --protocol REVISION to say it)",
            )
        )
    info = handshake or {}
    meta = info.get("_meta") if isinstance(info.get("_meta"), dict) else {}
    server_info = info.get("serverInfo") or (meta or {}).get("io.modelcontextprotocol/serverInfo")
    if handshake is None and isinstance(snapshot_capture, dict):
        # A snapshot input carries what its handshake said in its capture block.
        info = {
            "capabilities": snapshot_capture.get("serverCapabilities"),
            "instructions": snapshot_capture.get("instructions"),
            "supportedVersions": snapshot_capture.get("supportedVersions"),
        }
        server_info = snapshot_capture.get("serverInfo")
    return Session(
        era="modern" if version in MODERN_VERSIONS else "legacy",
        version=version,
        choice=choice,
        offered=[],
        capabilities_declared={},
        server_info=server_info,
        server_capabilities=info.get("capabilities"),
        instructions=info.get("instructions"),
        handshake_method="static",
        handshake_text=handshake_text,
        supported_versions=info.get("supportedVersions"),
        findings=findings,
    )


def _listing(name: str, pages: list[StaticPage] | None, texts: bool) -> Listing:
    if pages is None:
        return Listing(name, False, "absent", answer={"reason": "not in the inputs"})
    listing = Listing(name, True, "ok")
    for index, page in enumerate(pages):
        result = page.result
        items = result.get(name) if isinstance(result, dict) else None
        items = items if isinstance(items, list) else []
        fields = {k: v for k, v in result.items() if k != name} if isinstance(result, dict) else {}
        # NOTE: `page.text` may hold more than the page (`loader.parse(texts=False)`): what it
        # is asked only rules out a walk of the page, which finds the page's anomalies alone
        found = page_anomalies(result, page.text, page.invalid_utf8, page.plain, page.digits)
        listing.findings.extend(anomaly_findings(name, found, items, index))
        listing.pages.append(Page(page.text if texts else "", fields, list(items)))
    return listing
