"""CF-DESC-002 counts a description whitespace-stripped (ContextForge's `str_strip_whitespace`)
where CC-DESC-001 counts it as served: the two numbers differ for one text, so the stripped
count says so (issue 33, item 8: 9,498 against 9,508 characters, unexplained)."""

from __future__ import annotations

from helpers import cli, fixture

CASE = fixture("rules", "CF-DESC-002", "fail", "tool_4097_0_6_0.json")


def test_a_stripped_count_says_it_is_stripped() -> None:
    result = cli(
        "audit",
        str(CASE),
        "--profile",
        "context-forge@0.6.0",
        "--select",
        "CF-DESC-002",
        "--format",
        "json",
    )
    assert result.code == 1, str(result)
    (found,) = result.json()["findings"]
    assert "once surrounding whitespace is stripped, as the enforcer counts" in found["message"]
