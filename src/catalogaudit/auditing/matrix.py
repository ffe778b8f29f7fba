"""`audit --matrix`: every named profile's verdict on one catalog, one row each."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from catalogaudit.auditing.engine import AuditOptions, audit
from catalogaudit.model import Catalog, MatrixBreak, MatrixRow, RuleEvidence, Severity


def matrix(
    catalog: Catalog, profile_specs: Sequence[str], options: AuditOptions
) -> list[MatrixRow]:
    """Every named profile's verdict on one catalog."""
    from catalogaudit.profiles import verified_text

    rows: list[MatrixRow] = []
    for spec in profile_specs:
        report = audit(catalog, replace(options, profiles=(spec,)))
        counts = report.counts()
        verified, evidence = ("spec", ()) if spec == "spec" else verified_text(spec)
        how = {e.rule_id: e for e in evidence}
        breaks = tuple(
            MatrixBreak(
                f.rule_id, f.kind, f.identity, f.pointer, f.message, _tag(how.get(f.rule_id))
            )
            for f in report.sorted_findings()
            if f.severity is Severity.ERROR
        )
        label, errors, warnings = report.profiles[0], counts["error"], counts["warning"]
        crashed = tuple(report.rule_errors)
        rows.append(
            MatrixRow(label, verified, errors, warnings, counts["info"], breaks, evidence, crashed)
        )
    return rows


def _tag(evidence: RuleEvidence | None) -> str:
    """`, verified at listing time` or `, call time, from sources` after a break's rule id."""
    if evidence is None:
        return ""
    if evidence.verified:
        return ", verified at listing time"
    return ", call time, from sources" if evidence.phase == "call" else ", from sources"
