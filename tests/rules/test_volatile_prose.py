"""CA701 and CA201 on real servers over stdio (issue 12, item 3).

CA701 used to catch a random port only inside `$ref`, so a callback port or a pid in prose
passed, and mcp-server-time's host time zone in three descriptions gave "No findings" although
the capture records TZ; it flagged mcp-server-git's example timestamps and a fixed timestamp
that `snapshot --runs 3` had proved stable. CA201 is new: control and bidi characters in prose.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

from helpers import PYTHON, SERVERS, cli

VOLATILE = [PYTHON, str(SERVERS / "volatile_server.py"), "stdio"]
BIN = Path(PYTHON).parent


def findings(snap: Path, rules: str) -> list[dict[str, Any]]:
    result = cli("audit", str(snap), "--select", rules, "--format", "json")
    assert result.code in (0, 1), str(result)
    found: list[dict[str, Any]] = result.json()["findings"]
    return found


def snapshot(
    snap: Path, *server: str, runs: int = 1, env: dict[str, str] | None = None, code: int = 0
) -> None:
    args = ["snapshot", "-o", str(snap)] + (["--runs", str(runs)] if runs > 1 else [])
    result = cli(*args, "--", *server, env=env, timeout=180)
    assert result.code == code, str(result)


def test_ports_and_pids_in_prose_change_per_start(tmp_path: Path) -> None:
    snap = tmp_path / "volatile.json"
    snapshot(snap, *VOLATILE, "--volatile")
    found = {(f["identity"], f["pointer"]): f for f in findings(snap, "CA701,CA704")}
    assert set(found) == {("callback", "/description"), ("rates", "/description")}
    assert "a local port" in found["callback", "/description"]["message"]
    # one capture cannot tell them from examples: a suspect (CA704, info), not CA701
    assert {(f["ruleId"], f["severity"]) for f in found.values()} == {("CA704", "info")}


def test_runs_clear_text_that_was_identical_across_starts(tmp_path: Path) -> None:
    one, three = tmp_path / "one.json", tmp_path / "three.json"
    snapshot(one, *VOLATILE)
    assert [f["identity"] for f in findings(one, "CA704")] == ["rates"]
    snapshot(three, *VOLATILE, runs=3)
    doc = json.loads(three.read_text())
    assert doc["capture"]["runs"]["stable"] and doc["capture"]["runs"]["count"] == 3
    assert findings(three, "CA701,CA704") == []
    # Unstable runs judge each item by its own runs (issue 33): the port changed, so callback
    # stays flagged; rates was identical in both runs, so it is cleared.
    unstable = tmp_path / "unstable.json"
    snapshot(unstable, *VOLATILE, "--volatile", runs=2, code=1)  # 1: unstable
    assert {f["identity"] for f in findings(unstable, "CA701")} == {"callback"}
    assert findings(unstable, "CA704") == []  # runs were made: no suspect, a verdict


def test_the_captured_time_zone_in_mcp_server_time(tmp_path: Path) -> None:
    snap = tmp_path / "time.json"
    env = {"TZ": "America/New_York"}
    snapshot(snap, str(BIN / "mcp-server-time"), env=env)
    assert json.loads(snap.read_text())["capture"]["server"]["environment"]["values"]["TZ"] == (
        "America/New_York"
    )
    found = findings(snap, "CA701")
    assert sorted((f["identity"], f["pointer"]) for f in found) == [
        ("convert_time", "/inputSchema/properties/source_timezone/description"),
        ("convert_time", "/inputSchema/properties/target_timezone/description"),
        ("get_current_time", "/inputSchema/properties/timezone/description"),
    ]
    assert all("the captured TZ value" in f["message"] for f in found)
    # Runs on one machine cannot clear a per-machine value.
    runs = tmp_path / "runs.json"
    snapshot(runs, str(BIN / "mcp-server-time"), runs=2, env=env)
    assert len(findings(runs, "CA701")) == 3


def test_example_timestamps_of_mcp_server_git_are_not_clocks(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    repo.mkdir()
    git = {
        **os.environ,
        "GIT_AUTHOR_NAME": "t",
        "GIT_AUTHOR_EMAIL": "t@t",
        "GIT_COMMITTER_NAME": "t",
    }
    git["GIT_COMMITTER_EMAIL"] = "t@t"
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    subprocess.run(
        ["git", "-C", str(repo), "commit", "-q", "--allow-empty", "-m", "x"], check=True, env=git
    )
    snap = tmp_path / "git.json"
    snapshot(snap, str(BIN / "mcp-server-git"), "--repository", str(repo))
    texts = snap.read_text()
    assert "e.g., '2024-01-15T14:30:25'" in texts  # the server still says it
    assert findings(snap, "CA701,CA703,CA704") == []


def test_control_and_bidi_characters_in_prose(tmp_path: Path) -> None:
    snap = tmp_path / "volatile.json"
    snapshot(snap, *VOLATILE)
    found = findings(snap, "CA201")
    assert [(f["identity"], f["pointer"], f["severity"]) for f in found] == [
        ("bell", "/description", "warning")
    ]
    assert "U+0007, U+202E" in found[0]["message"]
    text = cli("audit", str(snap), "--select", "CA201")
    assert "\x07" not in text.stdout and "\u202e" not in text.stdout
    assert "\\x07" in text.stdout
