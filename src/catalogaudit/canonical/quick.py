"""`hash` of a one-page list result straight from its bytes, with no snapshot built (issue 14).

Why: `hash big.json` built the whole snapshot (the wire-faithful parse, findings, readable
items) to print three hashes per item. For the common input, one page of one listing as SDKs
write it (other page fields allowed), an item's hashes need its source text and one C
encoding (`canonical.plain`): when the source has no whitespace between tokens and no `\\u`
escape, the served text is the source text itself, and the prompt text its kept members'
source joined. Anything else (more than one listing, an item that is not an object or lacks
or shares an identity, a lost member or escape, NaN, an integer beyond 2^53-1, invalid UTF-8
or a BOM) gives None, and the caller builds the snapshot, which gives the same report:
`tests/canonical/test_quick_hash.py` proves it on real servers' pages and generated sources.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from catalogaudit.canonical import hashes, plain
from catalogaudit.canonical import jcs as canonical
from catalogaudit.model import jsonwire, names
from catalogaudit.model import with_envelope as envelope


class _Slow(Exception):
    """This input needs the snapshot path."""


def hash_report(name: str, data: bytes) -> tuple[dict[str, Any], str] | None:
    """The `hash` report of a one-page list result and the loader's note on it ("a tools/list
    result"), or None when the input needs the full path."""
    text, invalid_utf8 = jsonwire.decode_utf8(data)
    if invalid_utf8 or text.startswith("\ufeff") or plain.has_unsafe_integer(data):
        return None

    listing: list[str] = []

    def each(members: list[plain.Member], start: int, end: int) -> tuple[str, ...]:
        if not listing:
            raise _Slow  # NOTE: an array before the listing's key is known
        return _item_hashes(listing[0], text, members, start, end)

    page = _page(text, each, _ListingKey(listing))
    if page is None or not plain.trailing_only_whitespace(text, page[1]):
        return None
    fields = _page_fields(text, page[0], listing)
    found = next((m.elements for m in page[0] if m.elements is not None), None)
    if fields is None or found is None:
        return None
    if len({ident for ident, *_ in found}) != len(found):
        return None
    return _report(name, listing[0], found, fields), names.result_note(listing[0])


class _ListingKey:
    """Splits only the listing's array (the first of `LISTINGS` met) and notes its name."""

    def __init__(self, listing: list[str]) -> None:
        self.listing = listing

    def __call__(self, key: str) -> bool:
        if key in names.LISTINGS and not self.listing:
            self.listing.append(key)
            return True
        return False


def _page_fields(text: str, top: list[plain.Member], listing: list[str]) -> str | None:
    """The page's fields (everything but the listing) written compactly, or None when a
    field's source lost a member or an escape, or two top-level keys are the same."""
    if not listing or len({m.key for m in top}) != len(top):
        return None
    parts: list[str] = []
    for m in top:
        if m.key == listing[0]:
            if m.elements is None:
                return None
            continue
        if m.key in names.LISTINGS:
            return None  # several listings: the loader's error
        encoded = canonical.unit_compact(m.value)
        if plain.lossless(text, m.start, m.end, encoded) is None:
            return None
        parts.append(jsonwire.dump_string(m.key) + ":" + encoded)
    return "{" + ",".join(parts) + "}"


def _page(
    text: str, each: Callable[[Any, int, int], Any], split: Callable[[str], bool]
) -> tuple[list[plain.Member], int] | None:
    """The page object's members and its end, each item of the array `split` picks scanned
    member by member and handed to `each`; None when the text is not such an object (or
    `each` gave up)."""
    scan, _ = plain.scanner(canonical.Number)

    def item(text: str, pos: int) -> tuple[Any, int]:
        return plain.members(text, pos, scan)

    start = len(text) - len(text.lstrip(" \t\n\r"))
    with canonical.gc_paused():
        try:
            return plain.members(text, start, scan, each, item, split)
        except (StopIteration, ValueError, RecursionError, _Slow):
            return None


def _item_hashes(
    listing: str, text: str, members: list[plain.Member], start: int, end: int
) -> tuple[str, str, str, str]:
    """(identity, served, prompt, canonical) of one item, or `_Slow`."""
    ident = next((m.value for m in members if m.key == names.IDENTITY[listing]), None)
    if not isinstance(ident, str):
        raise _Slow
    return (ident, *_item_texts(listing, text, members, start, end))


def _item_texts(
    listing: str, text: str, members: list[plain.Member], start: int, end: int
) -> tuple[str, str, str]:
    """(served, prompt, canonical) hashes of one item scanned member by member, or `_Slow`."""
    item = {m.key: m.value for m in members}
    if len(item) != len(members):
        raise _Slow
    unit = canonical.unit_jcs(item, text, start, end)
    if unit is None:
        raise _Slow
    jcs, gaps = unit
    fields = names.PROMPT_FIELDS[listing]
    kept = [m for m in members if m.key in fields]
    verbatim = not gaps and text.find("\\u", start, end) < 0
    if verbatim:
        served = text[start:end].encode("utf-8")
        if len(kept) == len(members):
            prompt = served
        else:
            prompt = ("{" + ",".join(text[m.key_start : m.end] for m in kept) + "}").encode()
    else:
        served = canonical.unit_compact(item).encode("utf-8")
        prompt = canonical.unit_compact({m.key: m.value for m in kept}).encode("utf-8")
    return canonical.sha256(served), canonical.sha256(prompt), canonical.sha256(jcs)


def _report(
    name: str, listing: str, found: list[tuple[str, str, str, str]], fields: str
) -> dict[str, Any]:
    order = sorted(range(len(found)), key=lambda i: jsonwire.jcs_key(found[i][0]))
    canonical_order = sorted(names.identity_sort_key(f[0], f[3]) for f in found)
    listing_hashes = {
        "served": hashes.combine(f[1] for f in found),
        "prompt": hashes.combine(f[2] for f in found),
        "canonical": hashes.combine(key[2] for key in canonical_order),
        "pageFields": hashes.page_fields_hash_of([fields]),
    }
    entries: dict[str, Any] = {}
    for lname in names.LISTINGS:
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
            {lname: listing_hashes[kind] if lname == listing else None for lname in names.LISTINGS},
            None,
        )
        for kind in names.HASH_KINDS
    }
    return envelope("hash", {"input": name, "catalog": catalog, "listings": entries})
