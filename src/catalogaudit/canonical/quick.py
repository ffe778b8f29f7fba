"""`hash` of a one-page list result straight from its bytes, with no snapshot built (issue 14).

Why: `hash big.json` built the whole snapshot (the wire-faithful parse, findings, readable
items) to print three hashes per item. For the common input, one page of one listing, the C
scanner reads the page keeping each float's lexeme (`jcs.read`), and orjson writes each item:
its served and prompt text with those lexemes (`jcs.served`), its RFC 8785 bytes
(`jcs.plain_jcs`). What that reading loses is checked on the bytes: a duplicate key
(`jcs.same_members`), `-0`, an integer beyond 2^53-1. Anything else (invalid UTF-8, a BOM,
NaN, a lone surrogate, more than one listing, an item that is not an object or lacks or shares
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


def hash_report(name: str, data: bytes) -> tuple[dict[str, Any], str] | None:
    """The `hash` report of a one-page list result and the loader's note on it ("a tools/list
    result"), or None when the input needs the full path."""
    if _NEGATIVE_ZERO.search(data):
        return None
    with canonical.gc_paused():
        page = canonical.read(data)
        try:
            return None if page is None else _checked(name, data, page)
        except (orjson.JSONEncodeError, RecursionError):
            return None


def _checked(name: str, data: bytes, page: Any) -> tuple[dict[str, Any], str] | None:
    if type(page) is not dict:
        return None
    listed = [key for key in page if key in LISTINGS]
    if len(listed) != 1 or type(page[listed[0]]) is not list:
        return None
    listing = listed[0]
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
        jcs = canonical.sha256(canonical.plain_jcs(item))
        per_item.append(hashes.ItemHashes(canonical.sha256(served), canonical.sha256(prompt), jcs))
        colons += served.count(b":")
    if not canonical.same_members(data, colons):
        return None
    found = hashes.listing_hashes(listing, items, per_item)
    found["pageFields"] = hashes.page_fields_hash_of([fields.decode()])
    rows = [
        {"identity": items[i][ident], "servedPosition": i, **per_item[i].as_dict()}
        for i in sorted(range(len(items)), key=lambda i: jcs_key(items[i][ident]))
    ]
    entries: dict[str, Any] = {lname: {"status": "absent"} for lname in LISTINGS}
    entries[listing] = {"status": "ok", "hashes": found, "items": rows}
    catalog = {kind: hashes.catalog_hash({listing: found[kind]}, None) for kind in HASH_KINDS}
    body = {"input": name, "catalog": catalog, "listings": entries}
    return envelope("hash", body), result_note(listing)
