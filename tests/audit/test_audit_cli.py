"""`catalogaudit audit` end to end: live capture, formats, configuration, errors."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from helpers import PYTHON, cli, fixture

EXAMPLE = [PYTHON, str(fixture("servers", "example_server.py")), "stdio"]
RAW_TOOLS = '{"tools":[{"name":"a b","inputSchema":{"type":"object","properties":{}}}]}'


def test_live_audit_snapshots_first_and_flags_codex_app_priorities() -> None:
    result = cli("audit", "--profile", "codex-app", "--format", "json", "--live", "--", *EXAMPLE)
    assert result.code == 1, str(result)
    report = json.loads(result.stdout)
    got = sorted(
        (f["ruleId"], f["identity"], f["pointer"])
        for f in report["findings"]
        if f["ruleId"] == "CDX-ANN-001"
    )
    assert got == [
        ("CDX-ANN-001", "notes://index", "/annotations/priority"),
        ("CDX-ANN-001", "notes://welcome", "/annotations/priority"),
    ]
    assert report["revision"] == "2026-07-28"


def test_codex_npm_accepts_what_codex_app_rejects(tmp_path: Path) -> None:
    snap = tmp_path / "s.json"
    assert cli("snapshot", "-o", str(snap), "--", *EXAMPLE).code == 0
    result = cli("audit", str(snap), "--profile", "codex@0.169.0", "--format", "json")
    assert "CDX-ANN-001" not in result.stdout, str(result)


def test_static_input_says_which_revision_it_assumed(tmp_path: Path) -> None:
    (tmp_path / "t.json").write_text(RAW_TOOLS)
    assumed = cli("audit", "t.json", "--format", "json", cwd=tmp_path)
    report = json.loads(assumed.stdout)
    assert report["revisionAssumed"] is True
    assert any("assumed" in n or "audited as 2025-11-25" in n for n in report["notes"])
    said = json.loads(
        cli("audit", "t.json", "--format", "json", "--revision", "2026-07-28", cwd=tmp_path).stdout
    )
    assert said["revisionAssumed"] is False and said["revision"] == "2026-07-28"


def test_configuration_file_supplies_profiles_and_threshold(tmp_path: Path) -> None:
    (tmp_path / "t.json").write_text(RAW_TOOLS)
    (tmp_path / "catalogaudit.toml").write_text('profiles = ["openai"]\nfail-on = "never"\n')
    result = cli("audit", "t.json", "--format", "json", cwd=tmp_path)
    assert result.code == 0, str(result)
    report = json.loads(result.stdout)
    assert report["profiles"] == ["openai"]
    assert {f["ruleId"] for f in report["findings"]} == {"OAI-NAME-001"}
    strict = cli("audit", "t.json", "--fail-on", "error", "--format", "json", cwd=tmp_path)
    assert strict.code == 1


def test_usage_errors_are_one_line(tmp_path: Path) -> None:
    (tmp_path / "t.json").write_text(RAW_TOOLS)
    for args, text in (
        (["--profile", "nope"], "nope"),
        (["--matrix", "--format", "sarif"], "--matrix supports"),
        # --format is an enum: the command line lists its choices (the house issue)
        (["--format", "yaml"], "'yaml' is not one of 'text', 'json', 'sarif', 'junit'"),
        (["--fail-on", "sometimes"], "'sometimes' is not one of 'error', 'warning', 'info'"),
        (["--baseline", "missing.json"], "no such file"),
    ):
        result = cli("audit", "t.json", *args, cwd=tmp_path)
        lines = result.stderr.strip().splitlines()
        assert result.code == 2 and len(lines) == 1, str(result)
        assert lines[0].startswith("error: ") and text in lines[0], str(result)


def test_sarif_points_at_lines_of_a_written_snapshot(tmp_path: Path) -> None:
    snap = tmp_path / "s.json"
    assert cli("snapshot", "-o", str(snap), "--", *EXAMPLE).code == 0
    result = cli("audit", str(snap), "--profile", "codex-app", "--format", "sarif")
    sarif = json.loads(result.stdout)
    results = sarif["runs"][0]["results"]
    lines = snap.read_text().splitlines()
    for r in results:
        region = r["locations"][0]["physicalLocation"]["region"]
        assert "priority" in lines[region["startLine"] - 1]
    assert len(results) == 2


def test_a_rule_that_crashes_under_matrix_is_said_and_exits_2(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A crashed rule's findings are missing from its profile's row: `--matrix` says which rule
    crashed under which profile on stderr and exits 2, as `audit` does, whatever the rows say."""
    import catalogaudit.auditing.engine as engine

    def crash(catalog: Any, ctx: Any) -> Any:
        raise OverflowError("the repetition number is too large")

    first = engine.SPEC_RULES[0]
    monkeypatch.setattr(engine, "SPEC_RULES", (replace(first, check=crash), *engine.SPEC_RULES[1:]))
    catalog = tmp_path / "tools.json"
    catalog.write_text(json.dumps({"tools": [{"name": "a", "inputSchema": {"type": "object"}}]}))
    for fmt in ("text", "json"):
        done = cli("audit", "--matrix", "--profile", "spec", "--format", fmt, catalog)
        assert done.code == 2, done
        said = f"error: {first.id} crashed under spec: OverflowError: the repetition number"
        assert said in done.stderr, done
    monkeypatch.undo()
    assert cli("audit", "--matrix", "--profile", "spec", catalog).code == 0
