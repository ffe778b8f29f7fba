"""A read-only view of one snapshot for rules: items in served order, pages, revision, locations."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from catalogaudit.model import jsonwire
from catalogaudit.model.findings import Location
from catalogaudit.model.jsonwrite import dump_string
from catalogaudit.model.names import LISTINGS, identity
from catalogaudit.model.positions import Finder
from catalogaudit.model.protocol import MODERN_VERSIONS
from catalogaudit.model.validation import NOT_PLAIN, plain

#: The keys rules ask `Item.keys` about: `$ref` (CA405, CA408, the volatile rules),
#: `x-mcp-header` (CA406), `pattern` and `patternProperties` (CA403).
ASKED = frozenset({"$ref", "x-mcp-header", "pattern", "patternProperties"})


#: `Item`'s slots before `plain` is asked.
_UNSET: Any = object()
_NONE: frozenset[str] = frozenset()


@dataclass(frozen=True, slots=True)
class Item:
    """One served item and where it sits. Slots: a catalog may hold 20,000 of them, and the
    copy and keys `plain` keeps grew an instance dictionary per item."""

    listing: str
    identity: str | None
    value: Any
    #: Position in served order across pages.
    served_index: int
    #: Position in the snapshot's sorted `items` array (what a location points at).
    index: int
    _copy: Any = field(default=_UNSET, init=False, repr=False, compare=False)
    _keys: Any = field(default=_UNSET, init=False, repr=False, compare=False)

    @property
    def plain(self) -> Any:
        """The item as jsonschema-rs reads it at its depth in a page (result, array, item:
        `model.validation.plain(value, 2)`), or `NOT_PLAIN`: CA610 validates pages of them, CA403
        the schemas in them, so each item is copied once."""
        if self._copy is _UNSET:
            keys: set[Any] | None = set() if self.listing == "tools" else None
            copy = plain(self.value, 2, keys)
            known = None if keys is None or copy is NOT_PLAIN else ASKED & keys or _NONE
            object.__setattr__(self, "_copy", copy)
            object.__setattr__(self, "_keys", known)
        return self._copy

    @property
    def keys(self) -> frozenset[str] | None:
        """Which of the `ASKED` keys some object of a tool has, or None (not known: `plain`
        stopped short, or not a tool), found by the walk that copies it (`plain`): a rule
        asking whether an object of its schemas holds one (`rules.spec.common.may_hold`) then
        walks only the tools that have it. Only those: every key of every tool, kept to the
        audit's end, raised its peak memory on catalogs of many tools (bench/README.md)."""
        if self._keys is _UNSET:
            self.plain  # noqa: B018 - sets `_keys`
        return self._keys  # type: ignore[no-any-return]

    def lacks(self, key: str) -> bool:
        """Whether no object of the item has a member `key`, as far as `keys` knows."""
        return key in ASKED and self.keys is not None and key not in self.keys

    def forget_plain(self) -> None:
        """Drop the kept `plain` copy once its last reader (CA610) has it (`keys` stays): kept
        to the audit's end, the copies of a catalog served with wire numbers were a fifth of
        its peak memory."""
        object.__setattr__(self, "_copy", _UNSET)

    @property
    def label(self) -> str:
        """How messages name the item: `tool 'add'`, `resource 'file:///x'`."""
        kind = {
            "tools": "tool",
            "prompts": "prompt",
            "resources": "resource",
            "resourceTemplates": "resource template",
        }[self.listing]
        if self.identity is None:
            return f"{kind} #{self.served_index}"
        return f"{kind} {dump_string(self.identity)}"


@dataclass
class Catalog:
    """A snapshot document plus what the audit needs to know about where it came from."""

    doc: dict[str, Any]
    #: The file it was read from (as the user named it), or `<live>`.
    source: str = "<live>"
    #: The text of the snapshot file `doc` was parsed from, in any layout (line and column
    #: of findings: `model.positions.Finder`); None when `doc` is not its parse.
    text: str | None = None
    revision_override: str | None = None
    notes: list[str] = field(default_factory=list)
    #: The input as given (a path or `git:REF:PATH`), when `source` is a display name of it.
    spec: str | None = None
    #: The text of the one raw list input (a `tools/list` result, a JSON-RPC response) the
    #: catalog was built from: its items' regions (`model.positions`).
    raw: str | None = None

    @property
    def capture(self) -> dict[str, Any]:
        """The snapshot's capture block."""
        cap = self.doc.get("capture")
        return cap if isinstance(cap, dict) else {}

    @property
    def revision(self) -> str:
        """The negotiated (or overridden, or assumed) protocol revision."""
        if self.revision_override:
            return self.revision_override
        proto = self.capture.get("protocol") or {}
        neg = proto.get("negotiated") if isinstance(proto, dict) else None
        return neg if isinstance(neg, str) else "2025-11-25"

    @property
    def revision_assumed(self) -> bool:
        """True when neither the input nor the user said the revision."""
        if self.revision_override:
            return False
        return any(f.get("ruleId") == "CA524" for f in self.capture_findings)

    @property
    def modern(self) -> bool:
        """True for 2026-07-28 and later."""
        return self.revision in MODERN_VERSIONS

    @property
    def capture_findings(self) -> list[dict[str, Any]]:
        """Findings recorded at capture, as stored in the snapshot."""
        found = self.doc.get("findings")
        return [f for f in found if isinstance(f, dict)] if isinstance(found, list) else []

    @property
    def instructions(self) -> str | None:
        """Server instructions, when a string."""
        value = self.capture.get("instructions")
        return value if isinstance(value, str) else None

    def listing(self, name: str) -> dict[str, Any]:
        """The listing record of the snapshot (status, items, pages, hashes)."""
        rec = (self.doc.get("listings") or {}).get(name)
        return rec if isinstance(rec, dict) else {"status": "absent", "advertised": False}

    def present(self, name: str) -> bool:
        """True when the listing was captured (not absent)."""
        return "items" in self.listing(name)

    @cached_property
    def _items(self) -> dict[str, list[Item]]:
        out: dict[str, list[Item]] = {}
        for name in LISTINGS:
            rec = self.listing(name)
            items = rec.get("items") or []
            positions = rec.get("servedPositions") or list(range(len(items)))
            served: list[Item | None] = [None] * len(items)
            for index, (value, pos) in enumerate(zip(items, positions, strict=False)):
                if isinstance(pos, int) and 0 <= pos < len(served) and served[pos] is None:
                    served[pos] = Item(name, identity(name, value), value, pos, index)
            out[name] = [i for i in served if i is not None]
        return out

    def items(self, name: str) -> list[Item]:
        """Items of one listing in served order."""
        return self._items[name]

    def all_items(self) -> Iterator[Item]:
        """Every item of every listing, listings in protocol order, items in served order."""
        for name in LISTINGS:
            yield from self._items[name]

    def pages(self, name: str) -> list[dict[str, Any]]:
        """Page-level fields of each page of a listing."""
        pages = self.listing(name).get("pages") or []
        return [p.get("fields") or {} for p in pages if isinstance(p, dict)]

    def location(self, item: Item | None, pointer: str = "") -> Location:
        """A location in the source file: a JSON Pointer into the snapshot, plus line/column."""
        if item is None:
            doc_pointer = pointer
        else:
            doc_pointer = f"/listings/{item.listing}/items/{item.index}{pointer}"
        pos = None
        if self.text is not None:
            pos = self._finder.position(self.doc, doc_pointer)
        elif self.raw is not None and item is not None:
            pos = self._raw_position(item, pointer)
        return Location(self.source, doc_pointer, *(pos or (None, None)))

    def _raw_position(self, item: Item, pointer: str) -> tuple[int, int] | None:
        """Where a value of an item is in the raw input: its listing's array (`/tools`, or
        `/result/tools` in a JSON-RPC response), at the item's served position, then the
        pointer inside the item (or its nearest parent)."""
        raw = self._raw_doc
        listing = self.listing(item.listing)
        if raw is None or len(listing.get("pages") or [None]) > 1:
            return None
        base = _listing_array(raw, item.listing)
        if base is None:
            return None
        finder = self._finder
        where = f"{base}/{item.served_index}{pointer}"
        found = finder.position(raw, where)
        while found is None and where.count("/") > base.count("/") + 1:
            where = where.rsplit("/", 1)[0]
            found = finder.position(raw, where)
        return found

    @cached_property
    def _raw_doc(self) -> Any:
        """The raw input parsed again (what `_finder` reads it along), or None when it is
        not one JSON document (JSON Lines)."""
        try:
            return jsonwire.loads(self.raw or "")
        except jsonwire.WireDecodeError:
            return None

    @cached_property
    def _finder(self) -> Finder:
        """The finder of the snapshot file's text, else of the raw input's (`location`)."""
        return Finder(self.text if self.text is not None else self.raw or "")


def _listing_array(raw: Any, listing: str) -> str | None:
    """The pointer of a listing's array in a raw list result or JSON-RPC response."""
    result = raw.get("result") if isinstance(raw, dict) else None
    for base, node in (("", raw), ("/result", result)):
        if isinstance(node, dict) and isinstance(node.get(listing), list):
            return f"{base}/{listing}"
    return None
