"""The audit engine: selection, baseline, rule crashes, capture findings."""

from __future__ import annotations

from typing import Any

import pytest

from catalogaudit.auditing.baseline import read_baseline, write_baseline
from catalogaudit.auditing.engine import AuditOptions, audit, run_rules
from catalogaudit.auditing.selection import selected
from catalogaudit.intake import static
from catalogaudit.intake.loader import Loaded, StaticPage
from catalogaudit.model import jsonwire
from catalogaudit.model.catalog import Catalog
from catalogaudit.model.findings import Finding, RuleMeta, Severity
from catalogaudit.model.protocol import parse_protocol
from catalogaudit.rules.base import Context, Rule
from catalogaudit.snapshots import build as snapshot

META = {
    "CA401": RuleMeta("CA401", "schema.input-object", Severity.ERROR, "s"),
    "CA405": RuleMeta("CA405", "schema.network-ref", Severity.WARNING, "s"),
    "CF-DESC-001": RuleMeta("CF-DESC-001", "cf.desc", Severity.ERROR, "s", origin="context-forge"),
}


def finding(rule: str, profile: str = "spec") -> Finding:
    return Finding(rule, Severity.ERROR, "m", kind="tools", identity="t", profile=profile)


@pytest.mark.parametrize(
    ("rule", "profile", "select", "ignore", "kept"),
    [
        ("CA401", "spec", [], [], True),
        ("CA401", "spec", [], ["CA4"], False),
        ("CA401", "spec", ["CA4"], ["CA401"], False),  # exact id beats a prefix
        ("CA401", "spec", ["CA401"], ["CA4"], True),
        ("CA405", "spec", ["CA4"], ["CA40"], False),  # the longer prefix wins
        ("CA405", "spec", ["CA40"], ["CA4"], True),
        ("CA401", "spec", ["CA4"], ["CA4"], False),  # a tie: ignore wins
        ("CA401", "spec", ["schema"], [], True),  # by dotted name prefix
        ("CA405", "spec", ["schema.input-object"], [], False),
        ("CF-DESC-001", "context-forge@1.0.0b2", [], ["context-forge"], False),  # by profile
        ("CF-DESC-001", "context-forge@1.0.0b2", ["CF-"], [], True),
        ("CF-DESC-001", "context-forge@1.0.0b2", ["CA"], [], False),
        ("CA401", "spec", [], ["/tools/t"], False),  # a subject pointer
        ("CA401", "spec", [], ["/tools/u"], True),
        ("CA401", "spec", [], ["/prompts/t"], True),
    ],
)
def test_select_ignore_decision_table(
    rule: str, profile: str, select: list[str], ignore: list[str], kept: bool
) -> None:
    assert selected(finding(rule, profile), META, select, ignore) is kept


def catalog_of(result: str, revision: str = "2025-11-25") -> Catalog:
    loaded = Loaded("case.json", "list-result")
    listing = next(iter(jsonwire.loads(result)))
    loaded.pages[listing] = [StaticPage(result, jsonwire.loads(result), False)]
    doc = snapshot.build(static.merge([("case.json", loaded)], parse_protocol(revision)))
    return Catalog(doc, source="case.json")


BAD = (
    '{"tools":[{"name":"a","inputSchema":{"type":"array"}},'
    '{"name":"b b","inputSchema":{"type":"object"}}]}'
)


def test_baseline_round_trip_suppresses_exactly_the_known_findings() -> None:
    cat = catalog_of(BAD)
    report = audit(cat, AuditOptions())
    ids = sorted(f.rule_id for f in report.findings)
    assert ids == ["CA101", "CA401"]
    base = read_baseline(write_baseline(report), "b.json")
    again = audit(cat, AuditOptions(baseline=base))
    assert again.findings == [] and again.suppressed == 2
    worse = catalog_of(BAD.replace('"b b"', '"c c"'))
    third = audit(worse, AuditOptions(baseline=base))
    assert [(f.rule_id, f.identity) for f in third.findings] == [("CA101", "c c")]


def test_fingerprints_survive_reordering() -> None:
    a = audit(catalog_of(BAD), AuditOptions())
    swapped = (
        '{"tools":[{"name":"b b","inputSchema":{"type":"object"}},'
        '{"name":"a","inputSchema":{"type":"array"}}]}'
    )
    b = audit(catalog_of(swapped), AuditOptions())
    assert {f.fingerprint for f in a.findings} == {f.fingerprint for f in b.findings}
    assert {f.location.pointer for f in a.findings if f.location} != set()


def test_a_crashing_rule_is_reported_and_the_others_still_run() -> None:
    def boom(catalog: Catalog, ctx: Context) -> Any:
        raise RuntimeError("kaput")

    from catalogaudit.rules.registry import SPEC_RULES

    crashing = Rule("CA999", "x.boom", Severity.ERROR, "s", "d", "h", "https://x", boom)
    found, errors = run_rules(catalog_of(BAD), [crashing, *SPEC_RULES], Context())
    assert [(e.rule_id, e.error) for e in errors] == [("CA999", "RuntimeError: kaput")]
    assert {f.rule_id for f in found} >= {"CA101", "CA401"}


def test_exit_codes() -> None:
    report = audit(catalog_of(BAD), AuditOptions())
    assert report.exit_code("error") == 1
    assert report.exit_code("never") == 0
    only_warn = audit(catalog_of(BAD), AuditOptions(ignore=("CA401",)))
    assert only_warn.exit_code("error") == 0 and only_warn.exit_code("warning") == 1
