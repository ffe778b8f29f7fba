"""The snapshot file: build it from captures, hash it, compare runs, validate and write it.

Layout is published as `snapshots/snapshot.schema.json` (format version 1). The file is written
in the one written form (`jsonwrite.written`): deterministic for the same served catalog.
"""

from __future__ import annotations

import json
import pkgutil
from collections.abc import Sequence
from functools import cache
from typing import Any, BinaryIO

from catalogaudit.canonical import (
    ItemHashes,
    catalog_hash,
    item_hashes,
    listing_hashes,
    page_fields_hash,
)
from catalogaudit.model import (
    CLIENT_INFO,
    HASH_KINDS,
    LISTINGS,
    NOT_PLAIN,
    Capture,
    Listing,
    canonical,
    identity,
    identity_sort_key,
    plain,
    pointer_of,
    write_written,
    written,
)
from catalogaudit.model import validator as validation_validator

FORMAT_VERSION = 1
WIRE_LOST = (
    "served key order, number lexemes of NaN/Infinity, escapes, duplicate keys and the exact "
    "page text; served hashes can no longer be recomputed from this file"
)


def build(
    capture: Capture,
    *,
    wire: bool = True,
    hashed: bool = True,
) -> dict[str, Any]:
    """Turn one capture into the snapshot document (plain JSON values, wire lexemes kept).

    `hashed=False` leaves out every hash (`hashes`, `itemHashes`): an audit of raw results reads
    none. Such a document is never written.
    """
    session = capture.session
    listings = {name: listing_record(capture.listings[name], hashed) for name in LISTINGS}
    cap: dict[str, Any] = {"source": "live" if capture.server is not None else "static"}
    if capture.server is not None:
        cap["transport"] = capture.transport
        cap["server"] = capture.server
        if capture.content_codings:
            cap["contentEncoding"] = list(capture.content_codings)
    else:
        cap["inputs"] = list(capture.inputs)
    cap.update(
        {
            "protocol": {
                "requested": session.choice.requested,
                "offered": list(session.offered),
                "negotiated": session.version,
                "era": session.era,
                "handshake": session.handshake_method,
            },
            "clientCapabilities": session.capabilities_declared,
            "clientInfo": {"name": CLIENT_INFO["name"]},
            "serverCapabilities": session.server_capabilities,
            "serverInfo": session.server_info,
            "wire": "kept" if wire else "omitted",
        }
    )
    if session.instructions is not None:
        cap["instructions"] = session.instructions
    if session.supported_versions is not None:
        cap["supportedVersions"] = session.supported_versions
    if session.legacy is not None:
        cap["protocol"]["legacy"] = session.legacy
    if capture.http_answers is not None:
        cap["http"] = {"answers": dict(sorted(capture.http_answers.items()))}
    if not wire:
        cap["wireLost"] = WIRE_LOST
    findings = [*session.findings, *capture.findings]
    for name in LISTINGS:
        findings.extend(capture.listings[name].findings)
    doc: dict[str, Any] = {"formatVersion": FORMAT_VERSION, "capture": cap, "listings": listings}
    if hashed:
        doc["hashes"] = catalog_hashes(listings, session.instructions)
    doc["findings"] = [f.as_dict() for f in findings]
    if wire:
        doc["wire"] = {
            "handshake": session.handshake_text,
            "pages": {
                name: [page.text for page in capture.listings[name].pages] for name in LISTINGS
            },
        }
        if capture.legacy_wire is not None:
            doc["wire"]["legacy"] = capture.legacy_wire
    return doc


def listing_record(listing: Listing, hashed: bool = True) -> dict[str, Any]:
    """The readable record of one listing: sorted items, their hashes, pages and status."""
    served = listing.items()
    record: dict[str, Any] = {"status": listing.status, "advertised": listing.advertised}
    if listing.answer is not None:
        record["answer"] = listing.answer
    if listing.status == "absent":
        return record
    record.update(items_record(listing.name, served, hashed=hashed))
    record["pages"] = page_meta(listing.pages)
    if hashed:
        record["hashes"]["pageFields"] = page_fields_hash([p.fields for p in listing.pages])
    return record


def page_meta(pages: Sequence[Any]) -> list[dict[str, Any]]:
    """A listing record's `pages`: each page's item count and fields."""
    return [{"items": len(page.items), "fields": page.fields} for page in pages]


def items_record(
    name: str,
    served: Sequence[Any],
    *,
    hashed: bool = True,
    per_item: Sequence[ItemHashes] | None = None,
) -> dict[str, Any]:
    """Items sorted by (identity, served position), with served positions and hashes
    (`hashed=False`: no hashes, see `build`; `per_item`: the item hashes, if known)."""
    order = sorted(
        range(len(served)), key=lambda i: identity_sort_key(identity(name, served[i]), i)
    )
    record: dict[str, Any] = {"items": [served[i] for i in order], "servedPositions": order}
    if hashed:
        if per_item is None:
            per_item = [item_hashes(name, item) for item in served]
        record["itemHashes"] = [per_item[i].as_dict() for i in order]
        record["hashes"] = listing_hashes(name, served, per_item)
    return record


def catalog_hashes(listings: dict[str, Any], instructions: Any) -> dict[str, str]:
    """The catalog hash of each kind from the listing records."""
    instr = instructions if isinstance(instructions, str) else None
    out: dict[str, str] = {}
    for kind in HASH_KINDS:
        per = {name: rec.get("hashes", {}).get(kind) for name, rec in listings.items()}
        out[kind] = catalog_hash(per, instr)
    return out


# --- runs --------------------------------------------------------------------------------------


def merge_runs(docs: Sequence[dict[str, Any]], restarts: bool, wire: bool) -> dict[str, Any]:
    """Run 1's snapshot plus the run comparison (per listing and hash kind, whether every run
    agreed with run 1) and the wire pages of runs that differed."""
    doc = docs[0]
    agreement = {
        name: {
            kind: len({_listing_hash(d, name, kind) for d in docs}) == 1
            for kind in (*HASH_KINDS, "pageFields")
        }
        for name in LISTINGS
    }
    # NOTE: a proxy may compress one session and not the next; the served bytes are the same.
    facts = {
        canonical({k: v for k, v in d["capture"].items() if k != "contentEncoding"}) for d in docs
    }
    handshake = len(facts) == 1
    differing = [i + 1 for i, d in enumerate(docs) if i and d["hashes"] != doc["hashes"]]
    doc["capture"]["runs"] = {
        "count": len(docs),
        "restarts": restarts,
        "agreement": agreement,
        "captureAgreed": handshake,
        "stable": handshake and all(all(v.values()) for v in agreement.values()),
        "differingRuns": differing,
    }
    if wire and differing:
        doc["wire"]["otherRuns"] = [
            {"run": i, "pages": docs[i - 1]["wire"]["pages"]} for i in differing
        ]
    return doc


def _listing_hash(doc: dict[str, Any], name: str, kind: str) -> str | None:
    value = doc["listings"][name].get("hashes", {}).get(kind)
    return value if isinstance(value, str) else None


# --- schema and writing ------------------------------------------------------------------------


@cache
def snapshot_schema() -> dict[str, Any]:
    """The published JSON Schema of the snapshot file."""
    # NOTE: pkgutil, not importlib.resources, which costs more to import (a live snapshot
    # reads the schema while its server starts).
    data = pkgutil.get_data("catalogaudit.snapshots", "snapshot.schema.json")
    assert data is not None  # a file of the package, always there
    loaded: dict[str, Any] = json.loads(data)
    return loaded


def validate(doc: dict[str, Any]) -> list[str]:
    """Schema violations of a snapshot document, as `pointer: message` strings."""
    found = sorted(errors(doc), key=lambda e: list(e.absolute_path))
    # NOTE: an error at the top level has an empty pointer: the message alone, not ": msg"
    return [f"{pointer_of(e.absolute_path)}: ".removeprefix(": ") + e.message for e in found]


def errors(doc: dict[str, Any]) -> list[Any]:
    """python-jsonschema's errors of the document (the reference, and what users read), asked
    only when jsonschema-rs (`model.validation`) finds some or cannot read a value exactly."""
    # NOTE: each listing's items emptied: the schema says nothing about items (`"items":
    # {"type": "array"}`), so the errors are the same, without walking megabytes of tools
    listings = doc.get("listings")
    bare = doc
    if isinstance(listings, dict):
        bare = {**doc, "listings": {k: _no_items(v) for k, v in listings.items()}}
    copy = plain(bare)
    if copy is not NOT_PLAIN and _valid()(copy):
        return []
    import jsonschema  # lazy: heavy, and only needed when a snapshot has errors

    validator = jsonschema.Draft202012Validator(snapshot_schema())
    return list(validator.iter_errors(json.loads(written(bare))))


@cache
def _valid() -> Any:
    return validation_validator(snapshot_schema()).is_valid


def _no_items(record: Any) -> Any:
    if isinstance(record, dict) and isinstance(record.get("items"), list):
        return {**record, "items": []}
    return record


def render(doc: dict[str, Any]) -> str:
    """The bytes `snapshot` writes (as text)."""
    return written(doc)


def write(doc: dict[str, Any], fh: BinaryIO) -> int:
    """Write `render(doc)` as UTF-8 to `fh` in pieces and return its size in bytes.

    Why: the written form is about three times the catalog, and several times that as one
    Python string.
    """
    size = 0

    def sink(data: bytes) -> None:
        nonlocal size
        size += len(data)
        fh.write(data)

    write_written(doc, sink)
    return size
