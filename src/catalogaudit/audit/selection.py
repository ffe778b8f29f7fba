"""`--select` and `--ignore`: which findings a run keeps (flake8's rule: the most specific
pattern wins, and ignore wins a tie)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from catalogaudit.model import jsonwire
from catalogaudit.model.findings import (
    Finding,
    RuleMeta,
)


def _matches(pattern: str, finding: Finding, meta: RuleMeta | None) -> int:
    """How specifically `pattern` names the finding (0: not at all; longer wins)."""
    rule = finding.rule_id
    if pattern == rule:
        return 1000
    if pattern.startswith("/"):
        # A subject pointer: /<kind>/<identity, RFC 6901 escaped><item pointer>.
        ident = jsonwire.escape_pointer(finding.identity or "")
        subject = f"/{finding.kind}/{ident}{finding.pointer}"
        if subject == pattern or subject.startswith(pattern.rstrip("/") + "/"):
            return len(pattern)
        return 0
    best = 0
    if rule.startswith(pattern):
        best = len(pattern)
    if meta is not None and (meta.name == pattern or meta.name.startswith(pattern + ".")):
        best = max(best, len(pattern))
    profile = finding.profile.split("@", 1)[0]
    if pattern in (finding.profile, profile):
        best = max(best, 1)
    return best


def selected(
    finding: Finding, metas: Mapping[str, RuleMeta], select: Iterable[str], ignore: Iterable[str]
) -> bool:
    """`--select`/`--ignore` by rule id, id prefix, rule name, profile or subject pointer
    (`/tools/add/inputSchema`); the longest match wins, and ignore wins a tie (flake8's
    decision rule)."""
    meta = metas.get(finding.rule_id)
    sel = max((_matches(p, finding, meta) for p in select), default=None)
    ign = max((_matches(p, finding, meta) for p in ignore), default=0)
    if sel is None:
        return ign == 0
    return sel > ign
