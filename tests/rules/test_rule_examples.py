"""`catalogaudit rule ID`: every rule's failing example fails it and its passing example passes
it, run through the audit engine; the packaged examples are the fixtures' own cases."""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

import pytest
from helpers import PYTHON, ROOT, cli

import catalogaudit as api
from catalogaudit.rules import examples
from catalogaudit.verbs.rule import _metas

ALL_IDS = sorted({m.id for m in _metas()})
WITH_EXAMPLES = sorted(examples.examples())


def run_example(example: dict[str, Any], tmp: Path) -> set[str]:
    """The rule ids the audit engine reports on one example, audited as its case says."""
    path = tmp / f"case.{example['format']}"
    path.write_text(example["text"], encoding="utf-8")
    snap = api.load(str(path), protocol=example["revision"] or "auto")
    report = api.audit(
        snap,
        example["profile"] or "spec",
        settings=example["settings"],
        server_name=example["serverName"],
        gateway_name=example["gatewayName"],
    )
    return {f.rule_id for f in report.findings}


@pytest.mark.parametrize("rule_id", WITH_EXAMPLES)
def test_failing_example_fails_and_passing_example_passes(rule_id: str, tmp_path: Path) -> None:
    found = examples.of(rule_id)
    assert found["failing"] is not None and found["passing"] is not None, rule_id
    assert rule_id in run_example(found["failing"], tmp_path), "the failing example passes"
    assert rule_id not in run_example(found["passing"], tmp_path), "the passing example fails"


def test_the_packaged_examples_are_the_fixtures_cases() -> None:
    result = subprocess.run(
        [PYTHON, str(ROOT / "scripts" / "rule_examples.py"), "--check"],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_every_rule_has_examples_or_says_where_its_findings_come_from() -> None:
    missing = [r for r in ALL_IDS if r not in WITH_EXAMPLES]
    assert all(r.startswith(("CA5", "CA9")) or r == "PROFILE-VER-001" for r in missing), missing
    for rule_id in missing:
        assert examples.why_none(rule_id) != "no fixture holds an example of this rule"


def test_rule_text_names_what_why_severity_sources_and_both_examples() -> None:
    result = cli("rule", "cc-schema-001")
    assert result.code == 0, result
    out = result.stdout
    for part in (
        "CC-SCHEMA-001 claude-code.schema.object-root (error)",
        "What it checks:",
        "Why:",
        "evidence: verified at listing time against claude-code",
        "https://github.com/anthropics/claude-code/issues/88049",
        "Failing example (fixtures/rules/CC-SCHEMA-001/fail/",
        "Passing example (fixtures/rules/CC-SCHEMA-001/pass/",
    ):
        assert part in out, part


def test_rule_json_and_markdown() -> None:
    doc = cli("rule", "CA101", "--format", "json").json()
    assert doc["kind"] == "rule" and doc["rule"]["id"] == "CA101"
    assert doc["rule"]["failing"]["file"].startswith("fixtures/rules/CA101/fail/")
    assert doc["rule"]["evidence"].startswith("from the MCP specification")
    md = cli("rule", "CA101", "--format", "markdown").stdout
    assert md.startswith("## CA101 ") and "**Failing example**" in md and "```json" in md


def test_a_rule_without_examples_says_why() -> None:
    out = cli("rule", "CA530").stdout
    assert "Examples:" in out and "found while capturing" in out


@pytest.mark.parametrize(
    ("raw", "suggestion"), [("CA10", "CA101"), ("cc-schema-01", "CC-SCHEMA-001"), ("XYZ", "")]
)
def test_an_unknown_rule_is_one_line_exit_2_with_the_closest(raw: str, suggestion: str) -> None:
    result = cli("rule", raw)
    assert result.code == 2 and result.stdout == ""
    (line,) = result.stderr.splitlines()
    assert line.startswith(f"error: unknown rule {raw!r}")
    if suggestion:
        assert f"did you mean {suggestion}?" in line
