"""catalogaudit: snapshot, audit, canonicalize, hash and diff MCP server catalogs.

The public Python API (docs/api.md)::

    import catalogaudit as ca

    s = ca.load("catalog.snapshot.json")          # any input the CLI reads
    report = ca.audit(s, profiles=["codex-app"])  # .findings: what `audit` reports
    changes = ca.diff("old.json", s)              # .changes, .exit_code(fail_on)

Exceptions (every expected failure; its message is one line)::

    CatalogauditError
     +-- UsageError        bad options or option values
     +-- InputError        a file or stream that cannot be read as a catalog
     +-- ServerError       the server exited, hung, sent garbage or an HTTP error
          +-- ProtocolError  it answered in a way the protocol does not allow to continue

Only the names in `__all__` are public; every module and subpackage is internal (and named
unlike the API, so importing one never rebinds an API name). The API is loaded on first use,
so `import catalogaudit` stays as cheap as the version number.
"""

from __future__ import annotations

from catalogaudit._version import __version__
from catalogaudit.errors import (
    CatalogauditError,
    InputError,
    ProtocolError,
    ServerError,
    UsageError,
)

# NOTE: not `typing.TYPE_CHECKING`: importing typing would triple the cost of `import
# catalogaudit` (mypy reads any `TYPE_CHECKING` name as true).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from catalogaudit._api import (
        Change,
        DiffReport,
        Finding,
        Location,
        Report,
        Severity,
        Snapshot,
        Source,
        StabilityReport,
        audit,
        canonicalize,
        diff,
        hashes,
        load,
        render,
        rewrite,
        snapshot,
        stability,
    )

#: The names the API package provides, loaded on first access (PEP 562).
_LAZY = frozenset(
    {
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
    }
)


def __getattr__(name: str) -> Any:
    if name not in _LAZY:
        raise AttributeError(f"module 'catalogaudit' has no attribute {name!r}")
    from catalogaudit import _api

    value = getattr(_api, name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(__all__)


__all__ = [
    "CatalogauditError",
    "Change",
    "DiffReport",
    "Finding",
    "InputError",
    "Location",
    "ProtocolError",
    "Report",
    "ServerError",
    "Severity",
    "Snapshot",
    "Source",
    "StabilityReport",
    "UsageError",
    "__version__",
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
