"""What changed between two catalogs, and whether captures of one server agree.

- `sides`: a snapshot document as one or more comparable sides (one per `--runs` run);
- `items`: `diff(old, new)`, the classified changes (breaking ... cosmetic, unknown, renames);
- `rules` and `schema`: the per-field and per-JSON-Schema change rules (CA8xx);
- `stability`: `report(sides)`, stable / bytes-only / content per listing and item.
"""

__all__ = ["items", "rules", "schema", "sides", "stability"]
