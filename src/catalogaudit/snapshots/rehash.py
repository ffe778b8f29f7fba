"""A snapshot read back: the wire copy wins over the readable items, and hashes are recomputed.

The `wire` section is what the server sent; the readable `listings` are derived from it and may
have been edited by hand. Every verb reads snapshots through `resolve_wire` (via
`catalogaudit.intake`), so an edited readable copy is reported once, the same way, and the wire
copy is what gets audited, hashed, diffed, served and verified. `rehash` (canonicalize, hash)
also recomputes every hash. Without a wire section the readable items are all there is: served
key order is lost (`snapshots.build.WIRE_LOST`), so served-order hashes are kept where the canonical
hash still matches.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from catalogaudit.canonical import ItemHashes, item_hashes, jcs_hash, page_fields_hash
from catalogaudit.errors import InputError
from catalogaudit.model import (
    LISTINGS,
    WireDecodeError,
    anomaly_findings,
    canonical,
    identity,
    loads,
    unsafe_integers,
)
from catalogaudit.model import with_envelope as envelope
from catalogaudit.snapshots import build as snap
from catalogaudit.snapshots import pageitems

#: The one line every verb prints (stderr) when a listing's readable items disagree with the
#: wire section; `{where}` is `FILE: listings.NAME`.
WIRE_DIFFERS = (
    "warning: {where}: the readable items differ from the wire section; using the wire copy"
)
WIRE_PAGES_DIFFER = (
    "warning: {where}: the readable page fields differ from the wire section; using the wire copy"
)

_DERIVED = ("items", "servedPositions", "itemHashes", "hashes", "pages")


@dataclass(frozen=True)
class _Page:
    fields: dict[str, Any]
    items: list[Any]
    result: Any


@dataclass(frozen=True)
class Rehashed:
    """A snapshot read back and rehashed, and what to tell the user about it."""

    doc: dict[str, Any]
    #: One `WIRE_DIFFERS` (or `WIRE_PAGES_DIFFER`) line per listing rebuilt from the wire.
    warnings: list[str]
    #: Listings without a wire section whose items changed since they were hashed.
    notes: list[str]
    #: The CA544 findings the snapshot did not carry yet.
    added: list[dict[str, Any]]


def rehash(doc: dict[str, Any], name: str) -> Rehashed:
    """The snapshot with every listing rebuilt (from the wire where kept) and rehashed."""
    listings = doc.get("listings")
    findings = doc.get("findings", [])
    if not isinstance(listings, dict) or not isinstance(findings, list):
        raise InputError(f"{name}: not a valid catalogaudit snapshot: no listings or findings")
    wire: dict[str, Any] = doc["wire"] if isinstance(doc.get("wire"), dict) else {}
    wire_pages: dict[str, Any] = wire["pages"] if isinstance(wire.get("pages"), dict) else {}
    out: dict[str, Any] = {}
    warnings: list[str] = []
    notes: list[str] = []
    added: list[dict[str, Any]] = []
    known = {canonical(f) for f in findings}
    for lname in LISTINGS:
        rec = listings.get(lname)
        where = f"{name}: listings.{lname}"
        if not isinstance(rec, dict):
            raise InputError(f"{where} is missing")
        if rec.get("status") == "absent" and "items" not in rec:
            out[lname] = rec
            continue
        texts = wire_pages.get(lname)
        if isinstance(texts, list) and texts and all(isinstance(t, str) for t in texts):
            pages = _wire_pages(where, lname, texts)
            out[lname] = _from_wire(where, lname, rec, pages, warnings)
        else:
            pages, recorded = _readable_pages(where, lname, rec)
            out[lname], stale = _record(lname, rec, pages, recorded)
            if stale and any(recorded):
                notes.append(
                    f"{where}: {stale} item(s) changed since hashed; without a wire section their "
                    "served and prompt hashes use the file's key order"
                )
        added.extend(_unsafe_integers(lname, pages, known))
    return Rehashed(_relisted(doc, out, findings=findings + added), warnings, notes, added)


def _relisted(doc: dict[str, Any], listings: dict[str, Any], **more: Any) -> dict[str, Any]:
    """`doc` with these listing records (and `more` members), its catalog hashes recomputed."""
    capture: dict[str, Any] = doc["capture"] if isinstance(doc.get("capture"), dict) else {}
    hashes = snap.catalog_hashes(listings, capture.get("instructions"))
    return {**doc, "listings": listings, **more, "hashes": hashes}


def _wire_pages(where: str, lname: str, texts: list[Any]) -> list[_Page]:
    """A listing's wire pages parsed (a packed text, UTF-8 bytes from `model.pieces`, decoded
    back)."""
    pages: list[_Page] = []
    for i, text in enumerate(texts):
        try:
            result = loads(text if isinstance(text, str) else text.decode("utf-8", "surrogatepass"))
        except WireDecodeError as exc:
            raise InputError(f"{where}: wire page {i} is not JSON ({exc})") from None
        if not isinstance(result, dict):  # as the wire client records it (CA537)
            pages.append(_Page({}, [], result))
            continue
        items = result.get(lname)
        fields = {k: v for k, v in result.items() if k != lname}
        pages.append(_Page(fields, items if isinstance(items, list) else [], result))
    return pages


def _from_wire(
    where: str, lname: str, rec: dict[str, Any], pages: list[_Page], warnings: list[str]
) -> dict[str, Any]:
    """The listing record rebuilt from its wire pages, and in `warnings` what differed."""
    record, _ = _record(lname, rec, pages, None)
    if rec.get("items") != record["items"]:
        warnings.append(WIRE_DIFFERS.format(where=where))
    elif rec.get("pages") != record["pages"]:
        warnings.append(WIRE_PAGES_DIFFER.format(where=where))
    return record


def _readable_pages(where: str, lname: str, rec: dict[str, Any]) -> tuple[list[_Page], list[Any]]:
    """Pages in served order from the readable copy, and the recorded item hashes by position."""
    items = rec.get("items", [])
    positions = rec.get("servedPositions", list(range(len(items))))
    served = _served_order(items, positions)
    if served is None:
        raise InputError(
            f"{where}: servedPositions does not match the items "
            "(re-snapshot, or give each item its served position)"
        )
    recorded = _served_order(rec.get("itemHashes"), positions) or [None] * len(items)
    meta = rec.get("pages", [{"items": len(items), "fields": {}}])
    counts: list[int] = []
    if isinstance(meta, list) and all(isinstance(p, dict) for p in meta):
        counts = [p["items"] for p in meta if isinstance(p.get("items"), int)]
    if len(counts) != len(meta) or sum(counts) != len(items):
        raise InputError(f"{where}: the page item counts do not add up to {len(items)} items")
    pages: list[_Page] = []
    start = 0
    for page, count in zip(meta, counts, strict=True):
        fields = page["fields"] if isinstance(page.get("fields"), dict) else {}
        chunk = served[start : start + count]
        pages.append(_Page(fields, chunk, {**fields, lname: chunk}))
        start += count
    return pages, recorded


def _record(
    lname: str, rec: dict[str, Any], pages: list[_Page], recorded: list[Any] | None
) -> tuple[dict[str, Any], int]:
    """A listing record as `snapshot.items_record` writes it, and how many items were rehashed.

    With `recorded` (no wire section), an item keeps its recorded served and prompt hashes
    while its canonical hash still matches: they cover served key order, which is lost.
    """
    served = [item for page in pages for item in page.items]
    per_item: list[ItemHashes] = []
    for i, item in enumerate(served):
        old = recorded[i] if recorded is not None else None
        if isinstance(old, dict) and old.get("canonical") == jcs_hash(item):
            kept_served, kept_prompt = old.get("served"), old.get("prompt")
            if isinstance(kept_served, str) and isinstance(kept_prompt, str):
                per_item.append(ItemHashes(kept_served, kept_prompt, old["canonical"]))
                continue
        per_item.append(item_hashes(lname, item))
    rehashed = len(served) - sum(
        1 for i, h in enumerate(per_item) if recorded and recorded[i] == h.as_dict()
    )
    old_fields = (rec.get("hashes") or {}).get("pageFields") if recorded is not None else None
    record = {k: v for k, v in rec.items() if k not in _DERIVED}
    record.update(snap.items_record(lname, served, per_item=per_item))
    # NOTE: page fields are hashed in served key order, lost without the wire section.
    record["hashes"]["pageFields"] = (
        old_fields if isinstance(old_fields, str) else page_fields_hash([p.fields for p in pages])
    )
    record["pages"] = snap.page_meta(pages)
    return record, rehashed


def _unsafe_integers(lname: str, pages: list[_Page], known: set[str]) -> Iterator[dict[str, Any]]:
    """CA544 findings the document does not already carry (e.g. after a hand edit)."""
    for index, page in enumerate(pages):
        for finding in anomaly_findings(lname, unsafe_integers(page.result), page.items, index):
            found = finding.as_dict()
            if canonical(found) not in known:
                known.add(canonical(found))
                yield found


def resolve_wire(doc: dict[str, Any], name: str) -> tuple[dict[str, Any], list[str]]:
    """The snapshot with each listing whose readable items (or page fields) differ from its wire
    pages rebuilt from the wire (that listing's hashes recomputed), and one warning per listing.

    Listings that agree are kept as written, so reading a snapshot costs one parse of its wire
    pages (item by item), not a rehash. A page text may be packed (UTF-8 bytes: `intake`'s
    `lean`). A snapshot without a wire section is returned as it is.
    """
    listings = doc.get("listings")
    wire_pages = doc["wire"].get("pages") if isinstance(doc.get("wire"), dict) else None
    if not isinstance(listings, dict) or not isinstance(wire_pages, dict):
        return doc, []
    rebuilt: dict[str, Any] = {}
    warnings: list[str] = []
    for lname in LISTINGS:
        rec = listings.get(lname)
        texts = wire_pages.get(lname)
        if not isinstance(rec, dict) or not isinstance(texts, list) or not texts:
            continue
        if not all(isinstance(t, (str, bytes)) for t in texts) or _agrees(lname, rec, texts):
            continue
        where = f"{name}: listings.{lname}"
        pages = _wire_pages(where, lname, texts)
        served = [item for page in pages for item in page.items]
        if _readable(rec) == served and rec.get("pages") == snap.page_meta(pages):
            continue
        rebuilt[lname] = _from_wire(where, lname, rec, pages, warnings)
    if not rebuilt:
        return doc, []
    return _relisted(doc, {**listings, **rebuilt}), warnings


def _agrees(lname: str, rec: dict[str, Any], texts: list[str | bytes]) -> bool:
    """True when the readable items and page fields are the wire pages', read item by item and
    `compared` (`pageitems`: only `==` asks about them); False when they differ or a page is
    not the common one (parse it whole)."""
    readable = _readable(rec)
    meta = rec.get("pages")
    if readable is None or not isinstance(meta, list) or len(meta) != len(texts):
        return False
    at = 0
    for page, text in zip(meta, texts, strict=True):
        fields: dict[str, Any] = {}
        count = 0
        try:
            for item in pageitems.page_items(text, lname, fields, compared=True):
                if at >= len(readable) or not readable[at] == item:  # noqa: SIM201 - as `==`
                    return False
                at += 1
                count += 1
        except pageitems.Irregular:
            return False
        if page != {"items": count, "fields": fields}:
            return False
    return at == len(readable)


def _readable(rec: dict[str, Any]) -> list[Any] | None:
    """A record's readable items back in served order, or None when the positions do not fit."""
    return _served_order(rec.get("items"), rec.get("servedPositions"))


def _served_order(values: Any, positions: Any) -> list[Any] | None:
    """`values` (items, or their hashes) put at their served positions, or None when the
    positions do not fit them."""
    if not isinstance(values, list) or not isinstance(positions, list):
        return None
    if len(positions) != len(values) or sorted(
        p if isinstance(p, int) and not isinstance(p, bool) else -1 for p in positions
    ) != list(range(len(values))):
        return None
    served: list[Any] = [None] * len(values)
    for value, pos in zip(values, positions, strict=True):
        served[pos] = value
    return served


def hash_document(name: str, doc: dict[str, Any]) -> dict[str, Any]:
    """The hashes of a rehashed document (`hash --format json`, the API's `hashes`): the
    catalog's, then per listing its own and each item's, items in file (identity) order."""
    listings: dict[str, Any] = {}
    for lname in LISTINGS:
        rec = doc["listings"][lname]
        entry: dict[str, Any] = {"status": rec["status"]}
        if "hashes" in rec:
            entry["hashes"] = rec["hashes"]
            entry["items"] = [
                {"identity": identity(lname, item), "servedPosition": pos, **h}
                for item, pos, h in zip(
                    rec["items"], rec["servedPositions"], rec["itemHashes"], strict=True
                )
            ]
        listings[lname] = entry
    return envelope("hash", {"input": name, "catalog": doc["hashes"], "listings": listings})
