"""`hash` of list results straight from their bytes, with no snapshot built (issue 14).

Why: `hash big.json` built the whole snapshot (the wire-faithful parse, findings, readable
items) to print three hashes per item. For the common inputs, one page of one listing, or JSON
Lines of one page per listing (bare or as JSON-RPC responses), the C scanner reads the pages
keeping each float's lexeme (`jcs.read_documents`), and orjson writes each item's served and
prompt text with those lexemes (`jcs.served`), reads the served text back as values and
writes its RFC 8785 bytes (`jcs.plain_jcs`). What that reading loses is checked on the
bytes: a duplicate key (`jcs.same_members`), `-0`, an integer beyond 2^53-1. Anything else
(invalid UTF-8, a BOM, NaN, 1E400, a lone surrogate, two listings in a page or two pages of a
listing, a request, an error or a handshake, an item that is not an object or lacks or shares
an identity) gives None, and the caller builds the snapshot, which gives the same report:
`tests/canonical/test_quick_hash.py` proves it on real servers' pages and generated sources.
"""

from __future__ import annotations

import re
from typing import Any

import orjson

from catalogaudit.canonical import hashes
from catalogaudit.canonical import jcs as canonical
from catalogaudit.model import (
    HASH_KINDS,
    IDENTITY,
    LISTINGS,
    jcs_key,
    result_note,
)
from catalogaudit.model import with_envelope as envelope

#: `-0`, which the C scanner reads as 0 (in a string it only costs the exact path).
_NEGATIVE_ZERO = re.compile(rb"-0(?![.0-9eE])")


def hash_report(name: str, data: bytes) -> tuple[dict[str, Any], list[str]] | None:
    """The `hash` report of list results and the loader's notes on them ("input: a tools/list
    result", "line 2: ..."), or None when the input needs the full path."""
    if _NEGATIVE_ZERO.search(data):
        return None
    with canonical.gc_paused():
        docs = canonical.read_documents(data)
        try:
            return None if docs is None else _checked(name, data, docs)
        except (orjson.JSONEncodeError, orjson.JSONDecodeError, RecursionError):
            return None  # NOTE: a lone surrogate, 1E400, 255 levels


#: The members that make a document a JSON-RPC message (`intake.loader`).
_ENVELOPE = ("jsonrpc", "result", "error", "method")


def _checked(name: str, data: bytes, docs: list[Any]) -> tuple[dict[str, Any], list[str]] | None:
    found: dict[str, tuple[dict[str, str], list[dict[str, Any]]]] = {}
    notes: list[str] = []
    colons = 0
    for number, doc in enumerate(docs, 1):
        if type(doc) is not dict or ("formatVersion" in doc and "listings" in doc):
            return None  # NOTE: the second, a snapshot to the loader
        page: Any = doc
        if any(key in doc for key in _ENVELOPE):
            page = doc.get("result")
            if "method" in doc or type(page) is not dict:
                return None  # NOTE: skipped or refused by the loader, which says so
            rest = canonical.served({k: v for k, v in doc.items() if k != "result"})
            colons += rest.count(b":") + 1
        listed = [key for key in page if key in LISTINGS]
        if len(listed) != 1 or listed[0] in found or type(page[listed[0]]) is not list:
            return None
        listing = listed[0]
        hashed = _listing(listing, page)
        if hashed is None:
            return None
        found[listing] = hashed[:2]
        colons += hashed[2]
        where = f"line {number}" if len(docs) > 1 else "input"
        notes.append(f"{where}: {result_note(listing)}")
    if not canonical.same_members(data, colons):
        return None
    entries: dict[str, Any] = {lname: {"status": "absent"} for lname in LISTINGS}
    for listing, (hashes_of, rows) in found.items():
        entries[listing] = {"status": "ok", "hashes": hashes_of, "items": rows}
    catalog = {
        kind: hashes.catalog_hash({lname: h[kind] for lname, (h, _) in found.items()}, None)
        for kind in HASH_KINDS
    }
    body = {"input": name, "catalog": catalog, "listings": entries}
    return envelope("hash", body), notes


def _listing(
    listing: str, page: dict[str, Any]
) -> tuple[dict[str, str], list[dict[str, Any]], int] | None:
    """A one-page listing's hashes and item rows, and the colons of its compact text; None
    when an item is not an object or lacks or shares an identity."""
    items: list[Any] = page[listing]
    ident = IDENTITY[listing]
    if not all(type(i) is dict and type(i.get(ident)) is str for i in items):
        return None
    if len({i[ident] for i in items}) != len(items):
        return None
    fields = canonical.served({k: v for k, v in page.items() if k != listing})
    colons = fields.count(b":") + 1
    per_item: list[hashes.ItemHashes] = []
    for item in items:
        served = canonical.served(item)
        projected = hashes.prompt_projection(listing, item)
        prompt = served if len(projected) == len(item) else canonical.served(projected)
        if canonical.holds_float(served):  # NOTE: else its values as read are orjson's
            jcs = canonical.sha256(canonical.plain_jcs(orjson.loads(served)))
        else:
            jcs = canonical.sha256(canonical.plain_jcs(item, floats=False))
        per_item.append(hashes.ItemHashes(canonical.sha256(served), canonical.sha256(prompt), jcs))
        colons += served.count(b":")
    found = hashes.listing_hashes(listing, items, per_item)
    found["pageFields"] = hashes.page_fields_hash([fields.decode()])
    rows = [
        {"identity": items[i][ident], "servedPosition": i, **per_item[i].as_dict()}
        for i in sorted(range(len(items)), key=lambda i: jcs_key(items[i][ident]))
    ]
    return found, rows, colons
