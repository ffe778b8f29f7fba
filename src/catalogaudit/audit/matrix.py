"""`audit --matrix`: every named profile's verdict on one catalog, one row each."""

from __future__ import annotations

from collections.abc import Sequence

from catalogaudit.audit.engine import AuditOptions, audit
from catalogaudit.model.catalog import Catalog
from catalogaudit.model.findings import (
    MatrixRow,
    Severity,
)


def matrix(
    catalog: Catalog, profile_specs: Sequence[str], options: AuditOptions
) -> list[MatrixRow]:
    """Every named profile's verdict on one catalog."""
    from catalogaudit.profiles import resolve as profiles

    rows: list[MatrixRow] = []
    for spec in profile_specs:
        report = audit(catalog, AuditOptions(**{**options.__dict__, "profiles": (spec,)}))
        counts = report.counts()
        verified = "spec" if spec == "spec" else profiles.verified_text(spec)
        breaks = tuple(
            f"{f.kind} {f.identity or ''} ({f.rule_id})".replace("  ", " ")
            for f in report.sorted_findings()
            if f.severity is Severity.ERROR
        )[:5]
        rows.append(
            MatrixRow(
                report.profiles[0],
                verified,
                counts["error"],
                counts["warning"],
                counts["info"],
                breaks,
            )
        )
    return rows
