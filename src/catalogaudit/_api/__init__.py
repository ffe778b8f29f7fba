"""The public Python API, behind `catalogaudit`'s root (which imports this lazily).

- `catalogs`: `Snapshot`, `load`, `snapshot` (live), `canonicalize`, `hashes`, `rewrite`;
- `checks`: `audit` (a `Report`), `diff` (a `DiffReport`), `stability`.

Private: import these from `catalogaudit`, whose `__all__` is the promise (docs/api.md).
"""

from __future__ import annotations

from catalogaudit._api.catalogs import (
    Snapshot,
    Source,
    canonicalize,
    hashes,
    load,
    rewrite,
    snapshot,
)
from catalogaudit._api.checks import StabilityReport, audit, diff, stability
from catalogaudit.diffing import Change
from catalogaudit.diffing import DiffResult as DiffReport
from catalogaudit.model import Finding, Location, Report, Severity

__all__ = [
    "Change",
    "DiffReport",
    "Finding",
    "Location",
    "Report",
    "Severity",
    "Snapshot",
    "Source",
    "StabilityReport",
    "audit",
    "canonicalize",
    "diff",
    "hashes",
    "load",
    "rewrite",
    "snapshot",
    "stability",
]
