"""`snapshot --runs N`: restart the server and prove (or disprove) byte stability."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers import PYTHON, cli, fixture, validate_snapshot

UNSTABLE = str(fixture("servers", "unstable_server.py"))


def runs(tmp_path: Path, mode: str, *extra: str) -> tuple[int, dict]:
    out = tmp_path / "s.json"
    result = cli(
        "snapshot",
        "--runs",
        "3",
        *extra,
        "-o",
        str(out),
        "--",
        PYTHON,
        UNSTABLE,
        str(tmp_path / "counter"),
        mode,
    )
    assert result.code in (0, 1), str(result)
    doc = json.loads(out.read_text())
    validate_snapshot(doc)
    return result.code, doc


def test_stable_server_exits_0_and_says_so(tmp_path: Path) -> None:
    code, doc = runs(tmp_path, "stable")
    assert code == 0
    r = doc["capture"]["runs"]
    assert r["stable"] is True and r["count"] == 3 and r["restarts"] is True
    assert r["differingRuns"] == []
    assert "otherRuns" not in doc["wire"]
    assert (tmp_path / "counter").read_text() == "3"


@pytest.mark.parametrize(
    ("mode", "prompt_agrees", "canonical_agrees"),
    [
        ("order", False, True),  # key order: bytes only, and the prompt bytes change too
        ("lexeme", False, True),  # 1 vs 1.0 inside inputSchema: bytes only
        ("content", False, False),  # a description that counts restarts
    ],
)
def test_unstable_server_exits_1_and_keeps_the_differing_pages(
    tmp_path: Path, mode: str, prompt_agrees: bool, canonical_agrees: bool
) -> None:
    code, doc = runs(tmp_path, mode)
    assert code == 1
    r = doc["capture"]["runs"]
    assert r["stable"] is False
    tools = r["agreement"]["tools"]
    assert tools["served"] is False
    assert tools["prompt"] is prompt_agrees
    assert tools["canonical"] is canonical_agrees
    assert r["agreement"]["prompts"] == {
        "served": True,
        "prompt": True,
        "canonical": True,
        "pageFields": True,
    }
    # order/lexeme: runs 1 and 3 are odd starts and agree; content: every start differs.
    # The wire pages of each differing run are kept for offline analysis.
    expected = [2, 3] if mode == "content" else [2]
    assert r["differingRuns"] == expected
    others = doc["wire"]["otherRuns"]
    assert [o["run"] for o in others] == expected
    for other in others:
        assert other["pages"]["tools"][0] != doc["wire"]["pages"]["tools"][0]


def test_jobs_run_in_parallel_and_agree(tmp_path: Path) -> None:
    code, doc = runs(tmp_path, "stable", "--jobs", "3")
    assert code == 0
    assert doc["capture"]["runs"]["count"] == 3


def test_runs_without_wire_still_compare(tmp_path: Path) -> None:
    code, doc = runs(tmp_path, "content", "--no-wire")
    assert code == 1
    assert "wire" not in doc
    assert doc["capture"]["wire"] == "omitted"
    assert "served hashes can no longer be recomputed" in doc["capture"]["wireLost"]
