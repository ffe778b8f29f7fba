"""Folding for the human report: one cause on many items is one line, not one block per item.

A TS SDK server puts `$schema` in every tool, so a profile that dislikes it says so on every
tool: the one thing to fix drowns the report. mcpconform folds an info finding on 3 or more
tools into "(on all 28 tools)"; here any finding of one rule and cause (same rule, severity,
profile, listing, pointer and offending text) on `FOLD_AT` or more items folds, and so does a
finding that itself names that many items (GEM-SCHEMA-001, one per keyword). `--expand` shows
every finding as written. Folding changes the text report only: counts, exit codes and the
machine formats keep every finding.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from catalogaudit.model import Finding, normalize_excerpt

#: Items one cause must reach before it folds (mcpconform's threshold).
FOLD_AT = 3


@dataclass(frozen=True)
class Fold:
    """One folded line: a representative finding, the items, how many findings it stands for."""

    first: Finding
    identities: tuple[str, ...]
    findings: int

    @property
    def kind(self) -> str:
        """The listing the items belong to."""
        return self.first.kind


def _cause(f: Finding) -> tuple[str, str, str, str, str, str]:
    return (
        f.rule_id,
        f.severity.value,
        f.profile,
        f.kind,
        f.pointer,
        normalize_excerpt(f.excerpt),
    )


def fold(findings: Iterable[Finding]) -> tuple[list[Finding], list[Fold]]:
    """The findings still shown one by one, and the folded lines (in report order)."""
    ordered = sorted(findings, key=Finding.sort_key)
    groups: dict[tuple[str, ...], list[Finding]] = {}
    for f in ordered:
        if f.identity is not None and f.page is None:
            groups.setdefault(_cause(f), []).append(f)
    folded_ids: set[int] = set()
    folds: list[Fold] = []
    for members in groups.values():
        names = tuple(dict.fromkeys(m.identity for m in members if m.identity is not None))
        if len(names) >= FOLD_AT:
            folds.append(Fold(members[0], names, len(members)))
            folded_ids.update(id(m) for m in members)
    for f in ordered:
        if f.identity is None and len(f.items) >= FOLD_AT:
            folds.append(Fold(f, f.items, 1))
            folded_ids.add(id(f))
    folds.sort(key=lambda fo: fo.first.sort_key())
    return [f for f in ordered if id(f) not in folded_ids], folds
