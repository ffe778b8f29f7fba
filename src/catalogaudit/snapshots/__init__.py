"""The snapshot document (`snapshot.schema.json`, format version 1).

- `build`: a capture to its document, hashes, `--runs` merges, schema validation, the
  written form;
- `rehash`: a document read back: the wire copy wins over hand-edited readable items
  (`resolve_wire`), every hash recomputed (`rehash`).
"""

from __future__ import annotations

from catalogaudit._faces import lazy

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

#: What other packages use, by the module that defines it (`catalogaudit._faces.lazy`).
__getattr__ = lazy(
    globals(),
    {
        "build": (
            "build_snapshot=build catalog_hashes errors items_record merge_runs render "
            "snapshot_schema validate write"
        ),
        "rehash": "hash_document rehash_snapshot=rehash resolve_wire",
    },
)
