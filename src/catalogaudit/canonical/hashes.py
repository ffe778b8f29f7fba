"""The three hashes (served, prompt, canonical) per item, listing and catalog.

Definitions (the product brief, "Three hashes"; pinned by `tests/vectors/hashes.json`):

- item served: SHA-256 of the item written compactly in served key order, RFC 8785 string
  escapes, numbers as their wire lexemes;
- item prompt: the same over the projection clients forward to the model, keys in served order;
- item canonical: SHA-256 of the RFC 8785 (JCS) bytes of the item;
- listing: SHA-256 over the item hashes, each followed by `\\n`, in served order (served, prompt)
  or in (identity, canonical hash) order (canonical, so item order cannot change it);
- page fields: SHA-256 over each page's result minus its item array, compact, one per line;
- catalog: SHA-256 over `catalogaudit-catalog-v1\\n`, then `<listing> <hash|absent>\\n` for the
  four listings in protocol order, then `instructions <sha256 of the JSON string|absent>\\n`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import orjson

from catalogaudit.canonical import jcs as canonical
from catalogaudit.canonical.jcs import sha256
from catalogaudit.model import (
    LISTINGS,
    PROMPT_FIELDS,
    compact,
    compact_utf8,
    dump_string,
    has_unsafe_integer,
    identity,
    identity_sort_key,
)


@dataclass(frozen=True)
class ItemHashes:
    """The three hashes of one item."""

    served: str
    prompt: str
    canonical: str

    def as_dict(self) -> dict[str, str]:
        """Plain form for the snapshot file."""
        return {"served": self.served, "prompt": self.prompt, "canonical": self.canonical}


def prompt_projection(listing: str, item: Any) -> Any:
    """The part of an item a client puts in front of the model, in served key order."""
    if not isinstance(item, dict):
        return item
    fields = PROMPT_FIELDS[listing]
    return {k: v for k, v in item.items() if k in fields}


def item_hashes(listing: str, item: Any) -> ItemHashes:
    """Hash one item three ways (the prompt text is the served text when the projection keeps
    every member)."""
    text = compact_utf8(item)
    served = canonical.sha256(text)
    projected = prompt_projection(listing, item)
    same = projected is item or len(projected) == len(item)
    return ItemHashes(
        served=served,
        prompt=served if same else canonical.sha256(compact_utf8(projected)),
        canonical=canonical.sha256(_jcs_of(item, text)),
    )


def _jcs_of(item: Any, text: bytes) -> bytes:
    """`jcs_bytes(item)`, from its served `text` where orjson reads that exactly (the values
    of its lexemes: no integer beyond 2^53-1, NaN, 1E400 or lone surrogate) and writes it
    (`jcs.plain_jcs`), so that no number costs a Python call. An item without a float is
    written by orjson as it stands (its integers are ints, its objects dicts: nothing to read
    again, no number to spell again), unless orjson writes a float in it: one we made
    ourselves, written integral in `text` (a NaN or Infinity orjson refuses)."""
    if not has_unsafe_integer(text):
        try:
            if not canonical.holds_float(text):
                out = canonical.plain_jcs(item, floats=False)
                if not canonical.holds_float(out):
                    return out
            return canonical.plain_jcs(orjson.loads(text))
        except (orjson.JSONDecodeError, orjson.JSONEncodeError, RecursionError):
            pass
    return canonical.jcs_bytes(item)


def combine(hashes: Iterable[str]) -> str:
    """A listing hash: SHA-256 over the given item hashes, each followed by a newline."""
    return sha256("".join(h + "\n" for h in hashes))


def listing_hashes(
    listing: str, served_items: Sequence[Any], per_item: Sequence[ItemHashes]
) -> dict[str, str]:
    """Listing hashes of the three kinds from items in served order and their item hashes."""
    canonical_order = sorted(
        (
            identity_sort_key(identity(listing, item), h.canonical)
            for item, h in zip(served_items, per_item, strict=True)
        )
    )
    return {
        "served": combine(h.served for h in per_item),
        "prompt": combine(h.prompt for h in per_item),
        "canonical": combine(key[2] for key in canonical_order),
    }


def page_fields_hash(page_fields: Sequence[Mapping[str, Any] | str]) -> str:
    """Hash of the page-level fields (nextCursor, ttlMs, cacheScope, resultType, _meta, ...),
    each page's as a mapping or already written compactly."""
    texts = (f if isinstance(f, str) else compact(dict(f)) for f in page_fields)
    return sha256("".join(text + "\n" for text in texts))


def catalog_hash(listing_hash: Mapping[str, str | None], instructions: str | None) -> str:
    """The catalog hash of one kind from the four listing hashes (None: absent) and instructions."""
    lines = ["catalogaudit-catalog-v1"]
    lines.extend(f"{name} {listing_hash.get(name) or 'absent'}" for name in LISTINGS)
    instr = "absent" if instructions is None else sha256(dump_string(instructions))
    lines.append(f"instructions {instr}")
    return sha256("".join(line + "\n" for line in lines))
