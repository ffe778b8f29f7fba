"""What `diff` and `stability` share: catalog sides, item matching and byte causes (which values
changed: `paths`).

A side is one capture of a catalog as snapshot listing records plus the wire text, so served
order, served key order and number lexemes are all still there. Items are matched by identity
(name, uri, uriTemplate), never by position, and hashes are compared before anything is parsed
or deep-diffed, so large catalogs with few changes stay fast.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any

from catalogaudit.canonical import item_hashes, page_fields_hash
from catalogaudit.model import (
    HASH_KINDS,
    LISTINGS,
    WireDecodeError,
    identity,
    jcs_number,
    lexeme,
    loads,
    pointer_join,
)
from catalogaudit.snapshots import items_record


@dataclass
class Side:
    """One input to compare: a snapshot (or one run of it) as listing records plus wire text."""

    label: str
    capture: dict[str, Any]
    listings: dict[str, Any]
    wire: dict[str, Any] | None = None
    #: False for runs of `snapshot --runs`, whose capture blocks were not kept.
    capture_known: bool = True
    #: Runs that differed but whose pages were not kept (`--no-wire`), and the per-listing
    #: agreement `snapshot --runs` recorded for them: all that is left to judge them by.
    lost_runs: list[str] = field(default_factory=list)
    lost_agreement: dict[str, Any] = field(default_factory=dict)
    #: The snapshot document this side was read from (run 1 only), for file locations.
    doc: dict[str, Any] | None = field(default=None, repr=False)
    _served: dict[str, list[Any]] = field(default_factory=dict, repr=False)
    _wire: dict[str, list[Any] | None] = field(default_factory=dict, repr=False)
    _hashes: dict[str, list[dict[str, str]]] = field(default_factory=dict, repr=False)

    def record(self, name: str) -> dict[str, Any]:
        """The listing record (status, items, servedPositions, itemHashes, hashes, pages)."""
        rec = self.listings.get(name)
        return rec if isinstance(rec, dict) else {"status": "absent"}

    def served(self, name: str) -> list[Any]:
        """Readable items in served order (keys in written order, lexemes kept)."""
        if name not in self._served:
            self._served[name] = _served_order(self.record(name), "items")
        return self._served[name]

    def hashes(self, name: str) -> list[dict[str, str]]:
        """Item hashes in served order: as stored in the snapshot (`canonicalize --check`
        verifies them), or computed when the record has none."""
        if name not in self._hashes:
            stored = _served_order(self.record(name), "itemHashes")
            items = self.served(name)
            if len(stored) != len(items) or not all(
                isinstance(h, dict) and set(HASH_KINDS) <= set(h) for h in stored
            ):
                stored = [item_hashes(name, i).as_dict() for i in items]
            self._hashes[name] = stored
        return self._hashes[name]

    def wire_items(self, name: str) -> list[Any] | None:
        """Items in served order and served key order, parsed from the wire text (or None)."""
        if name not in self._wire:
            self._wire[name] = _parse_pages(name, (self.wire or {}).get(name))
            got = self._wire[name]
            if got is not None and len(got) != len(self.served(name)):
                self._wire[name] = None
        return self._wire[name]

    def page_texts(self, name: str) -> list[bytes] | None:
        """The wire page texts of a listing, when kept, as UTF-8 bytes: equal exactly when the
        texts are. Why bytes always: run 1's texts may be packed (`sides_of(...,
        packed=True)`, or read packed) while a later run's are parsed as `str`, and a `str`
        never equals `bytes`."""
        texts = (self.wire or {}).get(name)
        if not isinstance(texts, list):
            return None
        return [t.encode("utf-8", "surrogatepass") if isinstance(t, str) else t for t in texts]

    @property
    def instructions(self) -> str | None:
        """Server instructions (model-visible), when a string."""
        value = self.capture.get("instructions")
        return value if isinstance(value, str) else None


def _served_order(rec: dict[str, Any], key: str) -> list[Any]:
    values = rec.get(key)
    if not isinstance(values, list):
        return []
    positions = rec.get("servedPositions")
    if not isinstance(positions, list) or sorted(positions) != list(range(len(values))):
        return list(values)
    out: list[Any] = [None] * len(values)
    for value, pos in zip(values, positions, strict=True):
        out[pos] = value
    return out


def _parse_pages(name: str, texts: Any) -> list[Any] | None:
    if not isinstance(texts, list) or not all(isinstance(t, (str, bytes)) for t in texts):
        return None
    items: list[Any] = []
    for text in texts:
        try:
            result = loads(_text(text))
        except WireDecodeError:
            return None
        got = result.get(name) if isinstance(result, dict) else None
        items.extend(got if isinstance(got, list) else [])
    return items


def _text(text: str | bytes) -> str:
    """A page text back as `str` (a packed one is decoded for the parse only)."""
    return text if isinstance(text, str) else text.decode("utf-8", "surrogatepass")


def _packed(doc: dict[str, Any]) -> dict[str, Any]:
    """`doc` with its run-1 wire page texts as UTF-8 bytes, for a caller that only compares
    or parses them (`diff`, `stability`).

    Why: a page text holding one astral character is a 4-byte-per-character Python string,
    37 MB for the 10 MB bench page, held for the whole run per side though only the items
    whose served bytes changed are ever parsed from it. `surrogatepass` keeps a lone
    surrogate (a `\\ud800` escape) exactly, so the bytes decode back to the same text.
    """
    wire = _dict(doc.get("wire"))
    pages = _dict(wire.get("pages"))
    if not pages:
        return doc
    packed = {
        name: [t.encode("utf-8", "surrogatepass") if isinstance(t, str) else t for t in texts]
        if isinstance(texts, list)
        else texts
        for name, texts in pages.items()
    }
    return {**doc, "wire": {**wire, "pages": packed}}


def _dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _records_from_pages(pages: dict[str, Any], like: dict[str, Any]) -> dict[str, Any]:
    """Listing records of a later run, rebuilt from its kept wire pages (hashes recomputed)."""
    out: dict[str, Any] = {}
    for name in LISTINGS:
        base = _dict(like.get(name)) or {"status": "absent"}
        texts = pages.get(name)
        if "items" not in base or not isinstance(texts, list):
            out[name] = base
            continue
        served: list[Any] = []
        page_recs: list[dict[str, Any]] = []
        for text in texts:
            result = _dict(loads(text)) if isinstance(text, str) else {}
            got = result.get(name)
            got = got if isinstance(got, list) else []
            served.extend(got)
            page_recs.append(
                {"items": len(got), "fields": {k: v for k, v in result.items() if k != name}}
            )
        rec = {"status": base.get("status"), **items_record(name, served), "pages": page_recs}
        rec["hashes"]["pageFields"] = page_fields_hash([p["fields"] for p in page_recs])
        out[name] = rec
    return out


def sides_of(
    label: str, doc: dict[str, Any], *, packed: bool = False
) -> tuple[list[Side], list[str]]:
    """The sides one snapshot holds: one, or one per run of `snapshot --runs N`. `packed`:
    run 1's wire page texts are kept as UTF-8 bytes (`_packed`), in the sides and in
    `Side.doc`; for a caller that drops `doc` and never writes or positions it."""
    if packed:
        doc = _packed(doc)
    capture = dict(_dict(doc.get("capture")))
    runs = _dict(capture.get("runs"))
    wire = _dict(doc.get("wire"))
    pages = _dict(wire.get("pages")) if wire else None
    listings = _dict(doc.get("listings"))
    count = runs.get("count", 1)
    if not isinstance(count, int) or count < 2:
        return [Side(label, capture, listings, pages, doc=doc)], []
    first = Side(f"{label}#1", capture, listings, pages, doc=doc)
    others = {_dict(o).get("run"): _dict(o).get("pages") for o in wire.get("otherRuns") or []}
    differing = set(runs.get("differingRuns") or [])
    sides, notes = [first], []
    for run in range(2, count + 1):
        other = others.get(run)
        if run not in differing:
            sides.append(
                replace(first, label=f"{label}#{run}", _served={}, _wire={}, _hashes={}, doc=None)
            )
        elif isinstance(other, dict):
            recs = _records_from_pages(other, listings)
            sides.append(Side(f"{label}#{run}", capture, recs, other, capture_known=False))
        else:
            first.lost_runs.append(f"{label}#{run}")
            first.lost_agreement = _dict(runs.get("agreement"))
    if first.lost_runs:
        notes.append(
            f"{label}: runs {', '.join(first.lost_runs)} differed but their pages were not kept "
            "(--no-wire): only the per-listing agreement recorded at capture is known"
        )
    if runs.get("captureAgreed") is False:
        notes.append(f"{label}: the capture blocks of the runs differed (which keys is not kept)")
    return sides, notes


# --- matching and causes -----------------------------------------------------------------------

Key = tuple[str | None, int]


def keys(name: str, items: Sequence[Any]) -> list[Key]:
    """Matching keys in served order: (identity, occurrence); no identity: (None, k-th such)."""
    seen: dict[str | None, int] = {}
    out: list[Key] = []
    for item in items:
        ident = identity(name, item)
        seen[ident] = seen.get(ident, -1) + 1
        out.append((ident, seen[ident]))
    return out


@dataclass
class ItemDelta:
    """One item matched across two sides (positions are served positions; None: missing)."""

    key: Key
    old_pos: int | None
    new_pos: int | None
    old: Any = None
    new: Any = None
    old_hash: dict[str, str] = field(default_factory=dict)
    new_hash: dict[str, str] = field(default_factory=dict)

    @cached_property
    def verdict(self) -> str:
        """stable, bytes-only, content, added or removed (hash first: nothing is parsed)."""
        if self.old_pos is None:
            return "added"
        if self.new_pos is None:
            return "removed"
        if self.old_hash.get("served") == self.new_hash.get("served"):
            return "stable"
        if self.old_hash.get("canonical") == self.new_hash.get("canonical"):
            return "bytes-only"
        return "content"

    @property
    def prompt_changed(self) -> bool:
        """True when the item's prompt projection bytes changed (or it came or went)."""
        return self.verdict != "stable" and self.old_hash.get("prompt") != self.new_hash.get(
            "prompt"
        )


def match(old: Side, new: Side, name: str) -> tuple[list[ItemDelta], bool]:
    """Match items by identity; also say whether the served order of matched items changed."""
    oi, ni = old.served(name), new.served(name)
    oh, nh = old.hashes(name), new.hashes(name)
    ok, nk = keys(name, oi), keys(name, ni)
    new_at = {k: j for j, k in enumerate(nk)}
    old_keys = set(ok)
    out: list[ItemDelta] = []
    for i, k in enumerate(ok):
        j = new_at.get(k)
        if j is None:
            out.append(ItemDelta(k, i, None, oi[i], None, _h(oh, i)))
        else:
            out.append(ItemDelta(k, i, j, oi[i], ni[j], _h(oh, i), _h(nh, j)))
    out.extend(
        ItemDelta(k, None, j, None, ni[j], {}, _h(nh, j))
        for j, k in enumerate(nk)
        if k not in old_keys
    )
    order_changed = [k for k in ok if k in new_at] != [k for k in nk if k in old_keys]
    return out, order_changed


def _h(values: list[dict[str, str]], i: int) -> dict[str, str]:
    got = values[i] if i < len(values) else None
    return got if isinstance(got, dict) else {}


def byte_causes(old: Any, new: Any, at: str = "") -> list[tuple[str, str]]:
    """Where equal-meaning parts differ in bytes: ("key order" | "number lexeme", pointer)."""
    out: list[tuple[str, str]] = []
    if isinstance(old, dict) and isinstance(new, dict):
        common = [k for k in old if k in new]
        if common != [k for k in new if k in old]:
            out.append(("key order", at))
        for k in common:
            out.extend(byte_causes(old[k], new[k], pointer_join(at, k)))
    elif isinstance(old, list) and isinstance(new, list):
        for i, (a, b) in enumerate(zip(old, new, strict=False)):
            out.extend(byte_causes(a, b, pointer_join(at, i)))
    elif _number(old) and _number(new):
        if lexeme(old) != lexeme(new) and jcs_number(old) == jcs_number(new):
            out.append(("number lexeme", at))
    return out


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def item_causes(
    old_side: Side, new_side: Side, name: str, delta: ItemDelta
) -> list[dict[str, str]]:
    """Byte-level causes of one matched item, from the wire (served key order) when kept."""
    ow, nw = old_side.wire_items(name), new_side.wire_items(name)
    if (
        ow is not None
        and nw is not None
        and delta.old_pos is not None
        and delta.new_pos is not None
    ):
        found = byte_causes(ow[delta.old_pos], nw[delta.new_pos])
    else:
        found = [c for c in byte_causes(delta.old, delta.new) if c[0] == "number lexeme"]
        if not found and delta.verdict == "bytes-only":
            found = [("key order", "")]  # the only other served-bytes difference there is
    return [{"cause": c, "pointer": p} for c, p in dict.fromkeys(found)]
