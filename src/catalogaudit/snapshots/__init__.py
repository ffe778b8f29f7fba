"""The snapshot document (`snapshot.schema.json`, format version 1).

- `build`: a capture to its document, hashes, `--runs` merges, schema validation, the
  written form;
- `ahead`: parts of the written form rendered ahead of writing (`build.build_rendered`);
- `rehash`: a document read back: the wire copy wins over hand-edited readable items
  (`resolve_wire`), every hash recomputed (`rehash`).
"""

__all__ = ["build", "rehash"]
