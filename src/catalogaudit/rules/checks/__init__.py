"""The profile check vocabulary: every check type a profile file may name, by name.

Each entry is a pure function `CheckFn(catalog, params, ctx) -> Iterable[Hit]` over
`catalog.Catalog` (items in served order, numbers with their wire lexemes). Prose checks read
strings only through `walker.visits`, so the audit and the rewrite see the same strings. The
JSON Schema of each check's params is in `PARAMS`; profile files are validated against it
when loaded. `docs/profiles.md` describes the vocabulary for people.
"""

from __future__ import annotations

from typing import Any

# NOTE: importing the modules registers their checks; the order fixes nothing but the docs.
from catalogaudit.rules.checks import handshake as checks_handshake
from catalogaudit.rules.checks import keywords as checks_keywords
from catalogaudit.rules.checks import listing as checks_listing
from catalogaudit.rules.checks import names as checks_names
from catalogaudit.rules.checks import prose as checks_prose
from catalogaudit.rules.checks import schema as checks_schema
from catalogaudit.rules.checks.common import REGISTRY, CheckFn, CheckSpec

#: Check type -> function.
CHECKS: dict[str, CheckFn] = {name: spec.fn for name, spec in sorted(REGISTRY.items())}
#: Check type -> JSON Schema of its params.
PARAMS: dict[str, dict[str, Any]] = {name: spec.params for name, spec in REGISTRY.items()}
#: Check type -> its docstring (what it tests and why).
DOCS: dict[str, str] = {name: spec.doc for name, spec in REGISTRY.items()}

__all__ = [
    "CHECKS",
    "DOCS",
    "PARAMS",
    "CheckFn",
    "CheckSpec",
    "checks_handshake",
    "checks_keywords",
    "checks_listing",
    "checks_names",
    "checks_prose",
    "checks_schema",
]
