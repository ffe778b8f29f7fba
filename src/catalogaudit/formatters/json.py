"""The machine-readable audit report: one JSON document under the envelope of kind `audit`
(`model.envelope`), described by `formatters/schemas/audit.schema.json`."""

from __future__ import annotations

import json
from typing import Any

from catalogaudit._version import __version__
from catalogaudit.model import Report, RuleMeta
from catalogaudit.model import with_envelope as envelope


def rule_dict(meta: RuleMeta) -> dict[str, Any]:
    """A rule's metadata as reports publish it (every field, empty strings included)."""
    return {
        "id": meta.id,
        "name": meta.name,
        "severity": meta.severity.value,
        "summary": meta.summary,
        "description": meta.description,
        "hint": meta.hint,
        "source": meta.source,
        "origin": meta.origin,
        "versions": meta.versions,
        "confidence": meta.confidence,
    }


def report_document(report: Report) -> dict[str, Any]:
    """The report as plain data (also the basis of other machine formats' property bags)."""
    return envelope(
        "audit",
        {
            "tool": {"name": "catalogaudit", "version": __version__},
            "inputs": list(report.inputs),
            "revision": report.revision or None,
            "revisionAssumed": report.revision_assumed,
            "profiles": list(report.profiles),
            "rewritten": report.rewritten,
            "notes": list(report.notes),
            "counts": report.counts(),
            "suppressed": report.suppressed,
            "findings": [f.report_dict() for f in report.sorted_findings()],
            "ruleErrors": [
                {"ruleId": e.rule_id, "error": e.error}
                for e in sorted(report.rule_errors, key=lambda e: (e.rule_id, e.error))
            ],
            "rules": [rule_dict(report.rules[k]) for k in sorted(report.rules)],
        },
    )


def _fallback(value: object) -> Any:
    # `Finding.extra` is open-ended; never let an odd value crash the report. Sets are sorted
    # so the output stays deterministic.
    if isinstance(value, (set, frozenset)):
        return sorted(value, key=repr)
    return str(value)


def dumps(document: Any) -> str:
    """Deterministic JSON: sorted keys, two-space indent, ASCII only, final newline.

    ASCII-only output keeps server text's control and bidi characters as `\\uXXXX` escapes,
    so even `cat report.json` on a terminal cannot be hijacked, and lone surrogates survive.
    """
    return (
        json.dumps(document, indent=2, sort_keys=True, ensure_ascii=True, default=_fallback) + "\n"
    )


def format_json(report: Report) -> str:
    """The full JSON document, also when the report is clean."""
    return dumps(report_document(report))
