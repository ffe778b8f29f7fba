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
    identity_sort_key,
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
    found = [key for key in page if key in LISTINGS]
    if len(found) != 1 or type(page[found[0]]) is not list:
        return None
    listing = found[0]
    items: list[Any] = page[listing]
    ident = IDENTITY[listing]
    if not all(type(i) is dict and type(i.get(ident)) is str for i in items):
        return None
    if len({i[ident] for i in items}) != len(items):
        return None
    fields = canonical.served({k: v for k, v in page.items() if k != listing})
    hashed = [_item(listing, item) for item in items]
    if not canonical.same_members(data, fields.count(b":") + 1 + sum(h[4] for h in hashed)):
        return None
    return _report(name, listing, hashed, fields.decode()), result_note(listing)


def _item(listing: str, item: dict[str, Any]) -> tuple[str, str, str, str, int]:
    """(identity, served, prompt, canonical) hashes of one item, and its served text's colons."""
    served = canonical.served(item)
    projected = hashes.prompt_projection(listing, item)
    prompt = served if len(projected) == len(item) else canonical.served(projected)
    return (
        item[IDENTITY[listing]],
        canonical.sha256(served),
        canonical.sha256(prompt),
        canonical.sha256(canonical.plain_jcs(item)),
        served.count(b":"),
    )


def _report(
    name: str, listing: str, found: list[tuple[str, str, str, str, int]], fields: str
) -> dict[str, Any]:
    order = sorted(range(len(found)), key=lambda i: jcs_key(found[i][0]))
    canonical_order = sorted(identity_sort_key(f[0], f[3]) for f in found)
    listing_hashes = {
        "served": hashes.combine(f[1] for f in found),
        "prompt": hashes.combine(f[2] for f in found),
        "canonical": hashes.combine(key[2] for key in canonical_order),
        "pageFields": hashes.page_fields_hash_of([fields]),
    }
    entries: dict[str, Any] = {}
    for lname in LISTINGS:
        if lname != listing:
            entries[lname] = {"status": "absent"}
            continue
        items = [
            {
                "identity": found[i][0],
                "servedPosition": i,
                "served": found[i][1],
                "prompt": found[i][2],
                "canonical": found[i][3],
            }
            for i in order
        ]
        entries[lname] = {"status": "ok", "hashes": listing_hashes, "items": items}
    catalog = {
        kind: hashes.catalog_hash(
            {lname: listing_hashes[kind] if lname == listing else None for lname in LISTINGS},
            None,
        )
        for kind in HASH_KINDS
    }
    return envelope("hash", {"input": name, "catalog": catalog, "listings": entries})
