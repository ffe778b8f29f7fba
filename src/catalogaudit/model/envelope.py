"""The one envelope of every JSON document a verb prints: `$schema`, `formatVersion`, `kind`.

Why one home: scripts that read several verbs' outputs dispatch on `kind` and check
`formatVersion`, so the three fields must be spelled and placed the same way everywhere. Each
kind has a JSON Schema in the package (`formatters/schemas/<kind>.schema.json`) whose `$id` is
the document's `$schema`; a kind's version is bumped on any incompatible change to its shape.
"""

from __future__ import annotations

from typing import Any

#: Where the published schemas' ids live (the repository's `schemas/` namespace).
SCHEMA_BASE = "https://github.com/catalogaudit/catalogaudit/schemas/"

#: Every kind of JSON output and its current format version.
VERSIONS: dict[str, int] = {
    "audit": 2,
    "matrix": 2,
    "suggest": 1,
    "diff": 2,
    "stability": 2,
    "hash": 1,
    "rules": 1,
    "rule": 1,
    "profiles": 1,
    "profile": 1,
    "rewrite": 1,
    "verify": 1,
    "baseline": 1,
    "fleet": 1,
}

#: The envelope's own keys, in the order they are documented.
FIELDS = ("$schema", "formatVersion", "kind")


def schema_id(kind: str) -> str:
    """The `$id` of `kind`'s schema (also the document's `$schema`)."""
    return f"{SCHEMA_BASE}{kind}.schema.json"


def envelope(kind: str, body: dict[str, Any]) -> dict[str, Any]:
    """`body` under the envelope of `kind` (a `KeyError` for a kind not in `VERSIONS`)."""
    clash = set(FIELDS) & set(body)
    if clash:
        raise ValueError(f"a {kind} document cannot carry its own {sorted(clash)}")
    return {"$schema": schema_id(kind), "formatVersion": VERSIONS[kind], "kind": kind, **body}
