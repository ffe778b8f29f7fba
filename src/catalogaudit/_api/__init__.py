"""The public Python API, behind `catalogaudit`'s root (which imports this lazily).

- `catalogs`: `Snapshot`, `load`, `snapshot` (live), `canonicalize`, `hashes`, `rewrite`;
- `checks`: `audit` (a `Report`), `diff` (a `DiffReport`), `stability`;
- `render`: any of those in any format the command line writes.

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
from catalogaudit._api.rendering import render
from catalogaudit.diffing import Change, DiffReport
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
    "render",
    "rewrite",
    "snapshot",
    "stability",
]
