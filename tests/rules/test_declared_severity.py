"""Every finding carries the severity its rule declares in `catalogaudit rules`, docs/rules.md
and SARIF rule metadata (the gate issue, item 3): the capture rules and the spec rules.

Before, the capture rules CA510-CA544 were all declared `warning` while CA520 was emitted as
info and CA530/CA540/CA541 as errors, and several spec rules softened some hits. Checked on
captures of real servers (fixtures/captures), on a live server that prints a banner, and on
every spec rule's fixtures.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import FIXTURES, PYTHON, SERVERS, cli

from catalogaudit.rules.registry import spec_meta
from catalogaudit.rules.unchecked import CAPTURE_RULES

DECLARED = {rule_id: meta.severity.value for rule_id, meta in spec_meta().items()}


def test_capture_rules_declare_what_the_listing_says() -> None:
    result = cli("rules", "--format", "json")
    listed = {r["id"]: r["severity"] for r in result.json()["rules"]}
    for rule_id in CAPTURE_RULES:
        assert listed[rule_id] == DECLARED[rule_id], rule_id


@pytest.mark.parametrize(
    "capture", sorted((FIXTURES / "captures").glob("*.snapshot.json")), ids=lambda p: p.stem
)
def test_findings_of_real_captures_have_their_declared_severity(capture: Path) -> None:
    result = cli("audit", str(capture), "--format", "json", "--fail-on", "never")
    found = result.json()["findings"]
    assert found or "filesystem" not in capture.name, "CA520 expected on the legacy capture"
    for f in found:
        assert f["severity"] == DECLARED[f["ruleId"]], f


def test_a_stdout_banner_keeps_its_severity(tmp_path: Path) -> None:
    """A live server that prints a banner on stdout (CA510)."""
    snap = tmp_path / "raw.json"
    server = [PYTHON, str(SERVERS / "raw_server.py"), "--banner"]
    assert cli("snapshot", "-o", str(snap), "--", *server).code == 0
    result = cli("audit", str(snap), "--format", "json", "--fail-on", "never")
    found = result.json()["findings"]
    assert "CA510" in {f["ruleId"] for f in found}, str(result)
    for f in found:
        assert f["severity"] == DECLARED[f["ruleId"]], f


def test_every_spec_rule_emits_its_declared_severity_on_its_fixtures() -> None:
    """Before, CA302, CA403, CA601, CA602, CA603 and CA611 softened some hits below (or above)
    their declared severity; those cases are rules of their own now (CA304, CA407, CA604,
    CA605, CA606, CA612)."""
    wrong = []
    for path in sorted((FIXTURES / "rules").glob("CA*/*/*.json")):
        if path.name.endswith(".expected.json") or path.name.startswith("_"):
            continue
        result = cli("audit", str(path), "--format", "json", "--fail-on", "never")
        wrong.extend(
            (path.parent.parent.name, f["ruleId"], f["severity"])
            for f in result.json()["findings"]
            if f["severity"] != DECLARED[f["ruleId"]]
        )
    assert not wrong, wrong


def test_every_profile_rule_emits_the_severity_its_clause_declares() -> None:
    """A profile rule declares one severity per check clause (per version range); before, the
    `handshake` check wrote an info hit under its error rules when the legacy probe was not
    recorded. That case is a report note now (`test_an_unrecorded_probe_is_a_note`)."""
    import json

    from catalogaudit.intake import read_catalog
    from catalogaudit.model.catalog import Catalog
    from catalogaudit.profiles import resolve
    from catalogaudit.rules.base import Context

    wrong = []
    for config in sorted((FIXTURES / "rules").glob("*/fail/_config.json")):
        if config.parent.parent.name.startswith("CA"):
            continue
        for stem, case in json.loads(config.read_text())["cases"].items():
            path = next(config.parent.glob(f"{stem}.json*"))  # .json or .jsonl
            doc = read_catalog(str(path), protocol=case.get("revision", "auto")).doc
            resolved = resolve.resolve(case["profile"], case.get("settings", {}))
            declared: dict[str, set[str]] = {}
            for rule, _clause, severity in resolve.applicable(resolved):
                declared.setdefault(rule.id, set()).add(severity.value)
            ctx = Context(
                server_name=case.get("server_name"), gateway_name=case.get("gateway_name")
            )
            found, _ = resolve.run_profile(Catalog(doc, source=stem), resolved, ctx)
            wrong.extend(
                (config.parent.parent.name, stem, f.rule_id, f.severity.value)
                for f in found
                if f.severity.value not in declared.get(f.rule_id, {f.severity.value})
            )
    assert not wrong, wrong


def test_an_unrecorded_probe_is_a_note() -> None:
    case = FIXTURES / "rules" / "CDX-ERA-001" / "pass" / "not_probed.json"
    result = cli("audit", str(case), "--profile", "codex@0.169.0", "--format", "json")
    report = result.json()
    assert [f["ruleId"] for f in report["findings"] if f["ruleId"].startswith("CDX")] == []
    (note,) = [n for n in report["notes"] if "CDX-ERA-001" in n]
    assert "snapshot --legacy-probe" in note and "Codex fails the whole server" in note


def test_the_rules_listing_names_every_severity_a_profile_rule_declares() -> None:
    """CF-DESC-002 is an error before ContextForge 0.7.0 and a warning from it: `rules` (and
    docs/rules.md, SARIF rule metadata) say both, not the rule-level one alone."""
    from catalogaudit.profiles.load import load_all

    listed = {(r["origin"], r["id"]): r for r in cli("rules", "--format", "json").json()["rules"]}
    for profile in load_all().values():
        for rule in profile.rules:
            entry = listed[(profile.id, rule.id)]
            for clause in rule.checks:
                sev = clause.severity.value
                assert sev == entry["severity"] or f"{sev} for {clause.type}" in entry["summary"], (
                    rule.id,
                    sev,
                    entry,
                )
