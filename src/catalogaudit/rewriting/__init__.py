"""Derived catalogs: prose rewritten by substitutions, profile fixes applied, re-audited.

- `substitutions`: the ordered `old=new` list and its parser;
- `derive`: the rewritten snapshot, its changes and refusals, before/after outcome;
- `suggest`: a substitution list proven to clear the prose findings (`audit --suggest`).
"""

__all__ = ["derive", "substitutions", "suggest"]
