"""The audit engine: run the spec rules and the profiles over one catalog and collect findings.

- `engine`: `audit(catalog, options) -> Report`;
- `selection`: `--select`/`--ignore`; `baseline`: accepted fingerprints; `matrix`: the
  `--matrix` rows.
"""

__all__ = ["baseline", "engine", "matrix", "selection"]
