"""Canonical forms and the three hashes.

- `jcs`: RFC 8785 bytes (orjson where it is exact), and bytes read at C speed for `quick`
  (`hash` of a list result) and `strict` (`canonicalize --jcs`);
- `hashes`: served, prompt and canonical hashes per item, listing and catalog.
"""

__all__ = ["hashes", "jcs"]
