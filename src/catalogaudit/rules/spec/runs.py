"""What `snapshot --runs` proved per item: which items' served bytes changed between starts.

One listing that differed between runs says nothing about its other items: a tool identical in
every run is stable, whatever another tool of the listing did. So CA701 and CA703 judge each
item by its own runs, and CA702 names the items that changed. The later runs' pages are in
`wire.otherRuns` (a run that is not in `differingRuns` was identical to run 1); without them
(`--no-wire`) an item of a listing that differed cannot be cleared.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from catalogaudit.canonical import sha256
from catalogaudit.model import Catalog, Item, WireDecodeError, compact, identity, loads

#: Items are matched by identity, never by position (items without one share the key None).
Key = str | None


@dataclass(frozen=True)
class Runs:
    """Per listing: None when every run served it identically, else the keys of the items
    that changed (or None inside: not known per item, so every item counts as changed)."""

    count: int
    changed: dict[str, frozenset[Key] | None]

    def item_changed(self, item: Item) -> bool:
        """Whether this item's served bytes changed between the runs (or cannot be cleared)."""
        keys = self.changed.get(item.listing, frozenset())
        return keys is None or item.identity in keys


def runs_of(catalog: Catalog) -> Runs | None:
    """What the runs of a `--runs N` capture with restarts proved; None for one capture (or
    sessions of one HTTP server, which prove nothing per start)."""
    runs = catalog.capture.get("runs")
    if not isinstance(runs, dict) or not runs.get("restarts"):
        return None
    count, agreement = runs.get("count"), runs.get("agreement")
    if not isinstance(count, int) or count < 2 or not isinstance(agreement, dict):
        return None
    wire = _dict(catalog.doc.get("wire"))
    others = {
        _dict(o).get("run"): _dict(_dict(o).get("pages"))
        for o in wire.get("otherRuns") or []
        if isinstance(o, dict)
    }
    differing = [r for r in runs.get("differingRuns") or [] if isinstance(r, int)]
    changed: dict[str, frozenset[Key] | None] = {}
    for name, kinds in agreement.items():
        if isinstance(kinds, dict) and kinds.get("served") is True:
            continue
        first = _served(name, _dict(wire.get("pages")).get(name))
        later = [_served(name, others.get(run, {}).get(name)) for run in differing]
        if first is None or any(s is None for s in later):
            changed[name] = None
            continue
        keys = {
            k
            for s in later
            if s is not None
            for k in first.keys() | s.keys()
            if first.get(k) != s.get(k)
        }
        changed[name] = frozenset(keys)
    return Runs(count, changed)


def _served(name: str, texts: Any) -> dict[Key, list[str]] | None:
    """The served-bytes hashes of one run's items, by identity (None: pages not kept)."""
    if not isinstance(texts, list) or not texts:
        return None
    out: dict[Key, list[str]] = {}
    for text in texts:
        if not isinstance(text, (str, bytes)):
            return None
        try:
            page = loads(text if isinstance(text, str) else text.decode("utf-8"))
        except (WireDecodeError, UnicodeDecodeError):
            return None
        items = page.get(name) if isinstance(page, dict) else None
        for item in items if isinstance(items, list) else []:
            out.setdefault(identity(name, item), []).append(sha256(compact(item)))
    return out


def _dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}
