"""The page texts of a rewritten snapshot: the captured texts with only the rewrite in them.

A rewrite that dropped the `wire` section lost the served key order, so a replay of it (and a
diff or stability check of that replay against the input) showed every item as reordered
(CA861), not the one string that changed. Here each captured page keeps its exact text unless
an item on it changed: then the page object is re-joined from its members, unchanged items and
members copied byte for byte, each changed item written compactly in its served key order, and
fields the rewrite added (`--fix cache-hints`) appended.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

from catalogaudit.model import (
    LISTINGS,
    Catalog,
    WireDecodeError,
    array_items,
    compact,
    join,
    loads,
    members,
)


def rewritten_wire(
    catalog: Catalog,
    rewritten: dict[str, tuple[list[Any], list[dict[str, Any]]]],
    other: Callable[[str, Any], Any],
) -> dict[str, Any] | None:
    """The input's `wire` section with the rewrite spliced into its page texts (and into the
    legacy session's pages), or None when the input kept none or its pages do not hold the
    items; other runs' pages are not carried over (they were not rewritten)."""
    wire = catalog.doc.get("wire")
    if not isinstance(wire, dict) or not isinstance(wire.get("pages"), dict):
        return None
    pages: dict[str, Any] = {}
    for name in LISTINGS:
        texts = wire["pages"].get(name)
        if name not in rewritten:
            if catalog.present(name):
                return None  # items whose served texts are not all there
            pages[name] = texts if isinstance(texts, list) else []
            continue
        served, fields = rewritten[name]
        new = rewritten_pages(name, texts, served, fields)
        if new is None:
            return None
        pages[name] = new
    out: dict[str, Any] = {"handshake": wire.get("handshake"), "pages": pages}
    legacy = wire.get("legacy")
    if isinstance(legacy, dict) and isinstance(legacy.get("pages"), dict):
        out["legacy"] = {
            **legacy,
            "pages": {
                name: rewritten_texts(name, texts, partial(other, name))
                for name, texts in legacy["pages"].items()
                if isinstance(texts, list)
            },
        }
    return out


def rewritten_pages(
    name: str, texts: Sequence[str], served: Sequence[Any], fields: Sequence[dict[str, Any]]
) -> list[str] | None:
    """The page texts of one listing with the rewritten items (served order) and page fields
    spliced in; None when the captured texts do not hold exactly those items."""
    out: list[str] = []
    start = 0
    for index, text in enumerate(texts):
        pairs, elements = _page(name, text)
        if pairs is None or elements is None or start + len(elements) > len(served):
            return None
        new_elements = [
            _same_or_new(element, served[start + i]) for i, element in enumerate(elements)
        ]
        start += len(elements)
        added = fields[index] if index < len(fields) else {}
        keys = {key for key, _ in pairs}
        extra = [(k, compact(v)) for k, v in added.items() if k not in keys]
        if new_elements == elements and not extra:
            out.append(text)
            continue
        array = "[" + ",".join(new_elements) + "]"
        out.append(join([(k, array if k == name else v) for k, v in pairs] + extra))
    return out if start == len(served) else None


def rewritten_texts(name: str, texts: Sequence[Any], rewrite: Callable[[Any], Any]) -> list[Any]:
    """Page texts of another session (`wire.legacy`) with each item passed through `rewrite`;
    a page that is not an object with the item array is kept as it is."""
    out: list[Any] = []
    for text in texts:
        pairs, elements = _page(name, text) if isinstance(text, str) else (None, None)
        if pairs is None or elements is None:
            out.append(text)
            continue
        new = [_same_or_new(e, rewrite(loads(e))) for e in elements]
        if new == elements:
            out.append(text)
            continue
        array = "[" + ",".join(new) + "]"
        out.append(join([(k, array if k == name else v) for k, v in pairs]))
    return out


def page_items(name: str, text: str) -> list[str] | None:
    """The exact texts of a page's items (None: not an object with the item array)."""
    return _page(name, text)[1]


def _page(name: str, text: str) -> tuple[list[tuple[str, str]] | None, list[str] | None]:
    """A page's members and the exact texts of its items, or (None, None)."""
    try:
        pairs = members(text)
    except WireDecodeError:
        return None, None
    value = dict(pairs).get(name)
    if value is None or not value.lstrip().startswith("["):
        return None, None
    return pairs, array_items(value)


def _same_or_new(element: str, value: Any) -> str:
    """The captured text when the item is unchanged, else the item written compactly."""
    new = compact(value)
    return element if compact(loads(element)) == new else new
