"""A plain audit of raw results builds its snapshot without hashes and without the wire copy
of its pages; no finding may change: every rule case of the fixtures, audited both ways with
the spec rules and every profile."""

from __future__ import annotations

from pathlib import Path

import pytest

from catalogaudit import intake
from catalogaudit.auditing.engine import AuditOptions, audit
from catalogaudit.model.catalog import Catalog
from catalogaudit.profiles.summary import profile_summaries

ROOT = Path(__file__).resolve().parents[2]
CASES = sorted(
    p
    for p in (ROOT / "fixtures" / "rules").glob("*/*/*.json")
    if not p.name.endswith(".expected.json") and not p.name.startswith("_")
)


def _findings(path: Path, hashed: bool, profiles: tuple[str, ...]) -> list[dict[str, object]]:
    try:
        (got,) = intake.read_catalogs([str(path)], hashed=hashed)
    except Exception as exc:  # an input every reader refuses: refused the same way
        return [{"refused": f"{type(exc).__name__}: {exc}"}]
    report = audit(Catalog(got.doc, source=got.name), AuditOptions(profiles=profiles))
    return [f.as_dict() for f in report.findings] + [{"errors": str(report.rule_errors)}]


@pytest.mark.parametrize("path", CASES, ids=lambda p: "/".join(p.parts[-3:]))
def test_the_unhashed_audit_finds_the_same(path: Path) -> None:
    profiles = ("spec", *(p.id for p in profile_summaries()))
    assert _findings(path, False, profiles) == _findings(path, True, profiles)
