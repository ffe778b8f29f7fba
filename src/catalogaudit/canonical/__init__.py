"""Canonical forms and the three hashes.

- `jcs`: RFC 8785 bytes, fast and exact (the C encoder where it equals JCS), strict `--jcs`;
- `hashes`: served, prompt and canonical hashes per item, listing and catalog.
"""

__all__ = ["hashes", "jcs"]
