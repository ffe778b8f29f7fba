"""CF-DESC-004's hint fits what it flags (issue 33, item 8): chrome-devtools-mcp 1.11.0 names
an HTML `<select>` in its `fill` tool, which ContextForge 1.0.0rc1+ strips; the hint spoke only
of `REVISION:PATH` placeholders."""

from __future__ import annotations

from helpers import cli, fixture

VERDICTS = fixture("real-servers", "verdicts")


def test_the_hint_covers_an_html_element_named_in_prose() -> None:
    result = cli(
        "audit",
        "chrome-devtools-mcp-1.11.0.snapshot.json",
        "--profile",
        "context-forge",
        "--select",
        "CF-DESC-004",
        "--format",
        "json",
        cwd=VERDICTS,
    )
    assert result.code == 0, str(result)  # a warning: the default --fail-on is error
    found = [f for f in result.json()["findings"] if f["identity"] == "fill"]
    assert found and "<select>" in found[0]["message"]
    assert "HTML element" in found[0]["hint"] and "<select>" in found[0]["hint"]
