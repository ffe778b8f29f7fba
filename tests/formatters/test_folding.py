"""Folding in the text report (issue 20): one rule and cause on many items is one line with its
count and items; `--expand` shows each finding; the machine formats keep every finding."""

from __future__ import annotations

from helpers import FIXTURES, cli

EVERYTHING = str(FIXTURES / "real-servers" / "server-everything.snapshot.json")


def test_gem_schema_001_on_server_everything_is_one_line_with_its_count() -> None:
    result = cli("audit", "--profile", "gemini", EVERYTHING)
    assert result.code == 0, str(result)
    lines = [line for line in result.stdout.splitlines() if "GEM-SCHEMA-001" in line]
    assert len(lines) == 1, result.stdout
    assert '"$schema" on 13 tools: echo, get-annotated-message' in lines[0]
    assert len(lines[0]) <= 100
    # the finding's wrapped message, excerpt, file, hint and source lines are gone
    assert "brainlid" not in result.stdout
    assert "note: 1 finding folded into 1 line; --expand shows each" in result.stdout


def test_repeated_findings_of_one_cause_fold_and_expand_shows_each() -> None:
    folded = cli("audit", "--profile", "anthropic", EVERYTHING)
    lines = [line for line in folded.stdout.splitlines() if "ANT-SCHEMA-002" in line]
    assert len(lines) == 1 and "on 13 tools: echo" in lines[0], folded.stdout
    expanded = cli("audit", "--profile", "anthropic", "--expand", EVERYTHING)
    assert expanded.stdout.count("info ANT-SCHEMA-002") == 13
    assert "folded" not in expanded.stdout
    # counts and exit codes do not fold
    assert folded.stdout.splitlines()[-1] == expanded.stdout.splitlines()[-1]
    assert "0 errors, 0 warnings, 13 info" in folded.stdout


def test_fewer_than_three_items_do_not_fold_and_json_keeps_every_finding() -> None:
    both = cli("audit", "--profile", "claude-code@2.1.258", "--profile", "anthropic", EVERYTHING)
    # CC-SCHEMA-002 (before 2.1.328) is on one tool: still a full block; ANT-SCHEMA-002 folds
    assert "warning CC-SCHEMA-002" in both.stdout and "hint:" in both.stdout
    assert "note: 13 findings folded into 1 line" in both.stdout
    doc = cli("audit", "--profile", "anthropic", "--format", "json", EVERYTHING).json()
    assert len(doc["findings"]) == 13
