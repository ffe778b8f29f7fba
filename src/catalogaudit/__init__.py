"""catalogaudit: snapshot, audit, canonicalize, hash and diff MCP server catalogs."""

from __future__ import annotations

__version__ = "0.1.0"

__all__ = ["__version__"]
