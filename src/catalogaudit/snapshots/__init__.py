"""The snapshot document (`snapshot.schema.json`, format version 1).

- `build`: a capture to its document, hashes, `--runs` merges, schema validation, the
  written form;
- `ahead`: parts of the written form rendered ahead of writing (`build.build_rendered`);
- `rehash`: a document read back: the wire copy wins over hand-edited readable items
  (`resolve_wire`), every hash recomputed (`rehash`).
"""

from __future__ import annotations

TYPE_CHECKING = False  # NOTE: not `typing`'s: the face stays as cheap as its modules
if TYPE_CHECKING:
    from catalogaudit.snapshots.build import build as build_snapshot
    from catalogaudit.snapshots.build import (
        catalog_hashes,
        errors,
        items_record,
        merge_runs,
        render,
        snapshot_schema,
        validate,
        write,
    )
    from catalogaudit.snapshots.rehash import hash_document, resolve_wire
    from catalogaudit.snapshots.rehash import rehash as rehash_snapshot

#: What other packages use, by the module that defines it (`face=name` where the names
#: differ), loaded on first use (PEP 562): importing the face costs nothing more.
_FROM = {
    "build": (
        "build_snapshot=build catalog_hashes errors items_record merge_runs render "
        "snapshot_schema validate write"
    ),
    "rehash": "hash_document rehash_snapshot=rehash resolve_wire",
}


def __getattr__(name: str) -> object:
    for module, names in _FROM.items():
        for entry in names.split():
            face, _, attr = entry.partition("=")
            if face == name:
                from importlib import import_module

                value = getattr(import_module(f"{__name__}.{module}"), attr or name)
                globals()[name] = value
                return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "build_snapshot",
    "catalog_hashes",
    "errors",
    "hash_document",
    "items_record",
    "merge_runs",
    "rehash_snapshot",
    "render",
    "resolve_wire",
    "snapshot_schema",
    "validate",
    "write",
]
