"""`catalogaudit ci` on a 1,500-tool change: the job summary (and so the comment's body) stays
under 60,000 characters, below GitHub's 65,536-character comment limit.

The bound is the Markdown formatters' `max_chars` budget, which `verbs.ci.summary` gives each
section."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from helpers import cli
from helpers.github_api import read_outputs


def _tools(n: int, release: int) -> dict[str, object]:
    tools = []
    for i in range(n):
        props: dict[str, object] = {"query": {"type": "string", "description": f"area {i}"}}
        required = ["query"]
        if release == 2:  # every tool gains a required input: 1,500 breaking changes
            props["scope"] = {"type": "string"}
            required.append("scope")
        tools.append(
            {
                "name": f"tool_{i:04d}",
                "description": f"Tool number {i}, release {release}.",
                "inputSchema": {"type": "object", "properties": props, "required": required},
            }
        )
    return {"tools": tools}


def _git(repo: Path, *args: str) -> None:
    subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@t", *args], cwd=repo, check=True
    )


def test_a_1500_tool_change_keeps_the_summary_under_60000_chars(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    repo.mkdir()
    _git(repo, "init", "-q", "-b", "main")
    for release in (1, 2):
        listing = tmp_path / f"tools{release}.json"
        listing.write_text(json.dumps(_tools(1500, release)))
        got = cli("snapshot", "--from", str(listing), "-o", str(repo / "catalog.snapshot.json"))
        assert got.code == 0, got
        if release == 1:
            _git(repo, "add", "catalog.snapshot.json")
            _git(repo, "commit", "-q", "-m", "release 1")
    summary = tmp_path / "summary.md"
    outputs = tmp_path / "output.txt"
    env = {"GITHUB_STEP_SUMMARY": str(summary), "GITHUB_OUTPUT": str(outputs)}
    got = cli(
        "ci", "--no-comment", "--baseline", "HEAD", "--out-dir", str(tmp_path), cwd=repo, env=env
    )
    assert got.code == 1, got
    assert read_outputs(outputs)["has-breaking"] == "true"
    text = summary.read_text()
    assert "<!-- catalogaudit:ci catalog.snapshot.json -->" in text
    assert len(text) < 60000, len(text)
