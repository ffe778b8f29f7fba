"""Issue 13, items 1 and 2: each surface says, rule by rule, whether a verify run observed the
rule at listing time or the rule is from its sources; and the verdicts the TS SDK's own
schemas got from sourced rules follow that evidence (server-filesystem's real capture)."""

from __future__ import annotations

from collections import Counter
from typing import Any

from helpers import FIXTURES, ROOT, cli

from catalogaudit.profiles import resolve as profiles
from catalogaudit.profiles.load import load_all, load_verified

CAPTURE = FIXTURES / "captures" / "server-filesystem-2026.8.31.snapshot.json"
TOOLS = 14  # server-filesystem 2026.8.31: every tool declares draft-07 in both schemas


def _audit(*profile: str, path: str = str(CAPTURE)) -> list[dict[str, Any]]:
    args = [a for p in profile for a in ("--profile", p)]
    result = cli("audit", *args, "--format", "json", path)
    assert result.code in (0, 1), str(result)
    findings: list[dict[str, Any]] = result.json()["findings"]
    return findings


def test_anthropic_draft_07_input_schema_is_info_not_a_refused_request() -> None:
    found = Counter((f["ruleId"], f["severity"]) for f in _audit("anthropic"))
    assert found == {("ANT-SCHEMA-002", "info"): TOOLS}, found


def test_codex_object_root_without_properties_is_not_an_error() -> None:
    """codex-rs inserts `properties: {}` before calling the Responses API."""
    case = FIXTURES / "rules" / "CDX-SCHEMA-001" / "pass" / "object_without_properties.json"
    assert [f for f in _audit("codex", path=str(case)) if f["severity"] == "error"] == []
    assert _audit("codex") == []


def test_gemini_one_finding_per_cause_naming_every_tool() -> None:
    (only,) = _audit("gemini")
    assert (only["ruleId"], only["severity"], only["excerpt"]) == (
        "GEM-SCHEMA-001",
        "warning",
        "$schema",
    )
    assert f"in {TOOLS} tools: " in only["message"]
    assert '"list_allowed_directories"' in only["message"] and '"write_file"' in only["message"]


def test_claude_code_output_dialect_is_a_call_time_warning_from_sources() -> None:
    """Before 2.1.328 the draft-07 outputSchema reports stand (a call-time warning from
    sources); 2.1.328 was measured calling these tools (verify --model, issue 17), so there
    the rule does not apply and the capture passes clean."""
    assert _audit("claude-code") == []
    found = Counter((f["ruleId"], f["severity"]) for f in _audit("claude-code@2.1.258"))
    assert found == {("CC-SCHEMA-002", "warning"): TOOLS}, found
    result = cli(
        "audit", "--matrix", "--format", "json", "--profile", "claude-code@2.1.258", str(CAPTURE)
    )
    (row,) = result.json()["matrix"]
    assert row["verdict"] == "pass" and row["warnings"] == TOOLS
    rules = {r["id"]: r for r in row["rules"]}
    said = rules["CC-SCHEMA-002"]
    assert (said["phase"], said["verified"]) == ("call", False)
    assert said["evidence"].startswith(
        "call time, from sources (https://github.com/anthropics/claude-code/issues/86142"
    )
    latest = cli("audit", "--matrix", "--format", "json", "--profile", "claude-code", str(CAPTURE))
    (row,) = latest.json()["matrix"]
    assert row["verified"].startswith("verified at listing time against claude-code 2.1.328")
    (run,) = [r for r in load_verified()["claude-code"] if str(r.version) == "2.1.328"]
    assert {r["id"]: r for r in row["rules"]}["CC-SCHEMA-001"]["evidence"] == (
        f"verified at listing time against claude-code 2.1.328 on {run.date}"
    )


def test_no_surface_calls_a_call_time_rule_verified() -> None:
    """Evidence, `profiles ID`, `rules`, SARIF rule help and docs/verification.md."""
    for pid, runs in load_verified().items():
        for run in runs:
            resolved = profiles.resolve(f"{pid}@{run.version}", {})
            for said in profiles.rule_evidence(resolved):
                if said.phase == "call":
                    assert not said.verified and "from sources (https://" in said.text, said
    detail = cli("profiles", "claude-code", "--format", "json").json()
    phases = {r["id"]: (r["phase"], r["evidence"]) for r in detail["rules"]}
    assert phases["CC-SCHEMA-002"][0] == phases["CC-NAME-001"][0] == "call"
    assert all(e.startswith("call time, from sources") for p, e in phases.values() if p == "call")
    text = cli("profiles", "claude-code", env={"COLUMNS": "1000"}).stdout  # one line each
    assert "evidence at 2.1.328: call time, from sources (https://github.com/anthropics" in text
    assert "verified 2026-11-30" not in text  # the sources' check date is not a verification
    for meta in cli("rules", "--format", "json").json()["rules"]:
        if meta["phase"] == "call":
            assert not meta["evidence"].startswith("verified"), meta
    sarif = cli(
        "audit", "--profile", "claude-code@2.1.258", "--format", "sarif", str(CAPTURE)
    ).json()
    (descriptor,) = [
        r for r in sarif["runs"][0]["tool"]["driver"]["rules"] if r["id"] == "CC-SCHEMA-002"
    ]
    assert "Evidence (call time): call time, from sources (" in descriptor["help"]["text"]
    assert descriptor["properties"]["phase"] == "call"
    doc = (ROOT / "docs" / "verification.md").read_text(encoding="utf-8")
    (line,) = [x for x in doc.splitlines() if x.startswith("| `claude-code@2.1.328` |")]
    verified, _, listing, call = (c.strip() for c in line.strip("|").split("|")[1:])
    assert "CC-SCHEMA-001" in verified and "CC-NAME-001" in call
    # CC-SCHEMA-002 applies before 2.1.328 only (measured calling at 2.1.328, issue 17)
    assert "CC-SCHEMA-002" not in verified + listing + call


def test_phase_defaults_to_call_for_request_scoped_rules() -> None:
    rules = {r.id: r for p in load_all().values() for r in p.rules}
    assert rules["CC-NAME-001"].phase == "call"  # scope request, no phase written
    assert rules["CC-SCHEMA-001"].phase == "listing"
