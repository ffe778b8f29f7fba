"""The helpers every formatter shares: inert server text, subjects, counts (no I/O, no rich)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import NoReturn

from catalogaudit.model import Finding, MatrixRow, Report, Severity, visible
from catalogaudit.model import inert_text as inert


def assert_never(value: NoReturn) -> NoReturn:
    """`typing.assert_never` (3.11+) for Python 3.10: mypy proves the `if` chain is exhaustive."""
    raise AssertionError(f"unhandled value: {value!r}")


# --- untrusted text: the one escaping function lives in model.inert (verbs.output uses it too)

__all__ = ["inert", "visible"]

# --- shared report vocabulary ------------------------------------------------------------------

#: Subjects in report order: the session and the whole catalog first, then protocol order.
SUBJECT_ORDER: tuple[str, ...] = (
    "capture",
    "catalog",
    "tools",
    "prompts",
    "resources",
    "resourceTemplates",
)

#: A finding's subject: its kind and, for item findings, the item's identity.
Subject = tuple[str, str | None]


def subject_sort_key(subject: Subject) -> tuple[int, str, str]:
    """Known kinds in `SUBJECT_ORDER`, unknown kinds after them by name, then by identity."""
    kind, identity = subject
    rank = SUBJECT_ORDER.index(kind) if kind in SUBJECT_ORDER else len(SUBJECT_ORDER)
    return (rank, kind, identity or "")


def by_subject(findings: Iterable[Finding]) -> list[tuple[Subject, list[Finding]]]:
    """Findings grouped by subject (kind + identity), each group in `Finding.sort_key` order."""
    groups: dict[Subject, list[Finding]] = {}
    for f in sorted(findings, key=Finding.sort_key):
        groups.setdefault((f.kind, f.identity), []).append(f)
    return sorted(groups.items(), key=lambda kv: subject_sort_key(kv[0]))


def subject_path(kind: str, identity: str | None) -> str:
    """`tools/add`, or the bare kind (`catalog`) for subjects without an identity."""
    return kind if identity is None else f"{kind}/{identity}"


def plural(count: int, word: str) -> str:
    """`1 error`, `2 errors`; `info` never takes an s."""
    if count == 1 or word == "info":
        return f"{count} {word}"
    return f"{count} {word}s"


def counts_phrase(report: Report) -> str:
    """`2 errors, 1 warning, 0 info`: always all three, so the line shape never changes."""
    counts = report.counts()
    return ", ".join(plural(counts[s.value], s.value) for s in Severity)


def location_label(finding: Finding) -> str:
    """`file:line:col` (as much as is known), or "" when no file was read."""
    loc = finding.location
    if loc is None or not loc.file:
        return ""
    out = loc.file
    if loc.line is not None:
        out += f":{loc.line}"
        if loc.column is not None:
            out += f":{loc.column}"
    return out


def summary_parts(report: Report) -> list[str]:
    """The pieces of the one-line summary shared by text and Markdown (plain strings)."""
    parts = [counts_phrase(report)]
    parts.append("profiles: " + (", ".join(report.profiles) if report.profiles else "none"))
    if report.suppressed:
        parts.append(f"{report.suppressed} suppressed")
    if report.rule_errors:
        parts.append(plural(len(report.rule_errors), "rule error"))
    if report.revision:
        assumed = " (assumed)" if report.revision_assumed else ""
        parts.append(f"revision {report.revision}{assumed}")
    if report.rewritten:
        parts.append("audited as if rewritten")
    return parts


def sorted_rule_errors(report: Report) -> Sequence[tuple[str, str]]:
    """Rule errors as (rule id, error) pairs in a stable order."""
    return sorted((e.rule_id, e.error) for e in report.rule_errors)


def shown_breaks(row: MatrixRow, limit: int = 5) -> list[str]:
    """The first `limit` breaks of a matrix row as table text, then how many more (the
    matrix JSON lists every one)."""
    shown = [b.text for b in row.breaks[:limit]]
    if len(row.breaks) > limit:
        shown.append(f"... and {len(row.breaks) - limit} more (--format json lists every one)")
    return shown
