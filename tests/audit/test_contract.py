"""Contract assertions (issue 20): `--expect-*`, `--forbid-*`, `--min-*` on `snapshot`, `audit`
and `diff`, and as configuration keys; each failed assertion is an error finding of its own
rule (CA910-CA912) and exits 1, like any finding at or above `--fail-on`."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import FIXTURES, PYTHON, SERVERS, cli

MEMORY = str(FIXTURES / "real-servers" / "server-memory.snapshot.json")
FILESYSTEM = str(FIXTURES / "real-servers" / "server-filesystem.snapshot.json")
EMPTY = str(SERVERS / "empty_server.py")


@pytest.fixture(scope="module")
def empty_snapshot(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A real `mcp` server that registers nothing, captured over stdio."""
    out = tmp_path_factory.mktemp("empty") / "empty.snapshot.json"
    result = cli("snapshot", "-o", str(out), "--", PYTHON, EMPTY)
    assert result.code == 0, str(result)
    return out


def test_min_tools_on_a_server_that_lists_no_tools_fails_naming_the_assertion(
    empty_snapshot: Path,
) -> None:
    result = cli("audit", "--min-tools", "1", "--format", "json", str(empty_snapshot))
    assert result.code == 1, str(result)
    found = result.json()["findings"]
    assert [(f["ruleId"], f["severity"], f["listing"]) for f in found] == [
        ("CA912", "error", "tools")
    ]
    assert found[0]["message"].startswith("--min-tools 1: 0 tools listed")
    # without the assertion the same catalog is clean: the finding is the assertion's
    assert cli("audit", str(empty_snapshot)).code == 0


def test_min_tools_live_and_at_snapshot_time(tmp_path: Path) -> None:
    audit = cli("audit", "--min-tools", "1", "--live", "--", PYTHON, EMPTY)
    assert audit.code == 1 and "CA912" in audit.stdout and "--min-tools 1" in audit.stdout
    out = tmp_path / "s.json"
    snap = cli("snapshot", "--min-tools", "1", "-o", str(out), "--", PYTHON, EMPTY)
    assert snap.code == 1, str(snap)
    assert out.exists(), "the snapshot is still written"
    assert "error CA912: --min-tools 1: 0 tools listed, fewer than 1" in snap.stderr


def test_forbid_tool_glob_fails_on_a_catalog_holding_a_match_and_passes_without() -> None:
    held = cli("audit", "--forbid-tool", "delete_*", "--format", "json", MEMORY)
    assert held.code == 1, str(held)
    hits = sorted(f["identity"] for f in held.json()["findings"] if f["ruleId"] == "CA911")
    assert hits == ["delete_entities", "delete_observations", "delete_relations"]
    # server-filesystem has write_file and move_file but no delete_*
    assert cli("audit", "--forbid-tool", "delete_*", FILESYSTEM).code == 0


def test_expect_tool_passes_when_listed_and_fails_when_not() -> None:
    assert cli("audit", "--expect-tool", "read_graph", MEMORY).code == 0
    missing = cli("audit", "--expect-tool", "delete_file", "--format", "json", MEMORY)
    assert missing.code == 1
    (f,) = [f for f in missing.json()["findings"] if f["ruleId"] == "CA910"]
    assert (f["listing"], f["identity"]) == ("tools", "delete_file")
    assert f["message"] == '--expect-tool delete_file: no tool "delete_file" is listed'


def test_prompt_resource_and_template_assertions() -> None:
    everything = str(FIXTURES / "real-servers" / "server-everything.snapshot.json")
    ok = cli(
        "audit",
        "--min-prompts", "4",
        "--min-resources", "7",
        "--min-templates", "2",
        "--forbid-prompt", "nope*",
        everything,
    )  # fmt: skip
    assert ok.code == 0, str(ok)
    bad = cli("audit", "--min-prompts", "5", "--expect-resource", "x://y", "--format", "json",
              everything)  # fmt: skip
    assert bad.code == 1
    got = sorted(
        (f["ruleId"], f["listing"]) for f in bad.json()["findings"] if f["ruleId"] >= "CA9"
    )
    assert got == [("CA910", "resources"), ("CA912", "prompts")]


def test_config_keys_and_the_command_line_wins(tmp_path: Path) -> None:
    (tmp_path / "catalogaudit.toml").write_text('forbid-tool = ["delete_*"]\nmin-tools = 20\n')
    result = cli("audit", "--format", "json", MEMORY, cwd=tmp_path)
    assert result.code == 1
    rules = sorted(f["ruleId"] for f in result.json()["findings"] if f["ruleId"] >= "CA9")
    assert rules == ["CA911", "CA911", "CA911", "CA912"]
    assert "config min-tools" in str(result.json())
    over = cli("audit", "--min-tools", "1", "--forbid-tool", "zzz", MEMORY, cwd=tmp_path)
    assert over.code == 0, str(over)
    (tmp_path / "catalogaudit.toml").write_text("min-tools = -1\n")
    bad = cli("audit", MEMORY, cwd=tmp_path)
    assert bad.code == 2 and "min-tools must be a whole number" in bad.stderr
    assert "Traceback" not in bad.stderr


def test_fail_on_never_and_ignore_apply_to_assertions() -> None:
    assert cli("audit", "--min-tools", "99", "--fail-on", "never", MEMORY).code == 0
    assert cli("audit", "--min-tools", "99", "--ignore", "CA912", MEMORY).code == 0


def test_assertions_are_rules_that_rules_and_sarif_know() -> None:
    listing = cli("rules", "--format", "json")
    assert listing.code == 0
    for rule in ("CA910", "CA911", "CA912", "CA920"):
        assert rule in listing.stdout
    sarif = cli("audit", "--min-tools", "99", "--format", "sarif", MEMORY).json()
    run = sarif["runs"][0]
    assert "CA912" in {r["id"] for r in run["tool"]["driver"]["rules"]}
    assert [r["ruleId"] for r in run["results"] if r["ruleId"] == "CA912"] == ["CA912"]


def test_diff_checks_assertions_on_the_new_catalog() -> None:
    old = str(FIXTURES / "captures" / "server-filesystem-2026.1.14.snapshot.json")
    new = str(FIXTURES / "captures" / "server-filesystem-2026.8.31.snapshot.json")
    ok = cli("diff", old, new, "--fail-on", "never", "--expect-tool", "read_file")
    assert ok.code == 0, str(ok)
    bad = cli("diff", old, new, "--fail-on", "cosmetic", "--format", "json",
              "--expect-tool", "delete_file")  # fmt: skip
    assert bad.code == 1
    doc = bad.json()
    assert [a["ruleId"] for a in doc["assertions"]] == ["CA910"]
    text = cli("diff", old, new, "--fail-on", "never", "--min-tools", "99")
    assert "error CA912 --min-tools 99: 14 tools listed, fewer than 99" in text.stdout
