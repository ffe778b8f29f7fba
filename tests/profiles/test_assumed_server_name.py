"""Qualified-name checks without `--server-name` (issue 33, item 7): the server's own
`serverInfo.name` is assumed, and the report says so; `--server-name` overrides. On
gitlab-mcp 2.1.64 (fixtures/real-servers/verdicts/), whose 118 tools include names up to 40
characters, nothing was reported by default."""

from __future__ import annotations

from typing import Any

from helpers import cli, fixture

VERDICTS = fixture("real-servers", "verdicts")
GITLAB = "mcp-gitlab-2.1.64.snapshot.json"
PROFILES = ("--profile", "claude-code", "--profile", "cursor", "--profile", "gemini-cli")
NAMED = ("CC-NAME-001", "CUR-NAME-001", "GCLI-NAME-001")


def audit(*args: str, code: int = 1) -> dict[str, Any]:
    result = cli("audit", GITLAB, *PROFILES, *args, "--format", "json", cwd=VERDICTS)
    assert result.code == code, str(result)
    doc: dict[str, Any] = result.json()
    return doc


def name_findings(doc: dict[str, Any]) -> list[tuple[str, str]]:
    return sorted((f["ruleId"], f["identity"]) for f in doc["findings"] if f["ruleId"] in NAMED)


def test_the_server_info_name_is_assumed_and_said() -> None:
    default = audit()
    given = audit("--server-name", "zereight-gitlab-mcp-server")
    found = name_findings(default)
    assert found == name_findings(given)
    counts = {rule: sum(1 for r, _ in found if r == rule) for rule in NAMED}
    assert counts == {"CC-NAME-001": 13, "CUR-NAME-001": 9, "GCLI-NAME-001": 9}
    for f in default["findings"]:
        if f["ruleId"] in NAMED:
            assert '"zereight-gitlab-mcp-server" assumed from serverInfo.name' in f["message"]
    assert not any("assumed" in f["message"] for f in given["findings"])
    said = [n for n in default["notes"] if "serverInfo.name" in n]
    assert len(said) >= 3 and all('"zereight-gitlab-mcp-server"' in n for n in said)
    assert not [n for n in given["notes"] if "serverInfo.name" in n]


def test_server_name_overrides() -> None:
    # a 2-character name leaves every qualified name within the limits
    short = audit("--server-name", "gl", code=0)
    assert name_findings(short) == []
    assert not [n for n in short["notes"] if "serverInfo.name" in n]
