"""`--strict-baseline` (issue 20): a baseline entry that matches no finding fails the run with a
CA920 finding naming it, as the MCP conformance runner fails on stale expected failures."""

from __future__ import annotations

import json
from pathlib import Path

from helpers import FIXTURES, cli

EVERYTHING = str(FIXTURES / "real-servers" / "server-everything.snapshot.json")
FILESYSTEM = str(FIXTURES / "real-servers" / "server-filesystem.snapshot.json")


def _baseline(tmp_path: Path) -> Path:
    path = tmp_path / "baseline.json"
    made = cli("audit", "--profile", "anthropic", "--write-baseline", str(path), EVERYTHING)
    assert made.code == 0 and path.exists(), str(made)
    return path


def test_a_baseline_that_still_matches_passes(tmp_path: Path) -> None:
    path = _baseline(tmp_path)
    ok = cli("audit", "--profile", "anthropic", "--baseline", str(path), "--strict-baseline",
             EVERYTHING)  # fmt: skip
    assert ok.code == 0, str(ok)


def test_a_stale_entry_exits_1_with_a_finding_naming_it(tmp_path: Path) -> None:
    path = _baseline(tmp_path)
    doc = json.loads(path.read_text())
    stale = doc["findings"][0]
    # the fixed server: drop the tool that finding was about from the capture
    snap = json.loads(Path(EVERYTHING).read_text())
    snap.pop("wire")  # the readable items are then the source of truth
    tools = snap["listings"]["tools"]
    keep = [i for i, t in enumerate(tools["items"]) if t["name"] != stale["identity"]]
    fixed = tmp_path / "fixed.json"
    fixed.write_text(json.dumps({**snap, "listings": {**snap["listings"], "tools": {
        **tools,
        "items": [tools["items"][i] for i in keep],
        "itemHashes": [tools["itemHashes"][i] for i in keep],
        "servedPositions": list(range(len(keep))),
    }}}))  # fmt: skip
    plain = cli("audit", "--profile", "anthropic", "--baseline", str(path), str(fixed))
    assert plain.code == 0, "without --strict-baseline a stale entry passes silently"
    strict = cli("audit", "--profile", "anthropic", "--baseline", str(path), "--strict-baseline",
                 "--format", "json", str(fixed))  # fmt: skip
    assert strict.code == 1, str(strict)
    (f,) = [f for f in strict.json()["findings"] if f["ruleId"] == "CA920"]
    assert f["severity"] == "error"
    assert f["identity"] == stale["identity"]
    assert stale["fingerprint"][:12] in f["message"] and "ANT-SCHEMA-002" in f["message"]


def test_entries_of_rules_that_did_not_run_are_not_judged(tmp_path: Path) -> None:
    path = _baseline(tmp_path)
    other = cli("audit", "--baseline", str(path), "--strict-baseline", EVERYTHING)
    assert other.code == 0, str(other)
    assert "were not judged" in other.stdout


def test_a_plain_fingerprint_list_that_matches_nothing_is_stale(tmp_path: Path) -> None:
    path = tmp_path / "prints.txt"
    path.write_text("0" * 64 + "\n")
    result = cli("audit", "--baseline", str(path), "--strict-baseline", FILESYSTEM)
    assert result.code == 1 and "CA920" in result.stdout


def test_strict_baseline_needs_a_baseline_and_works_from_config(tmp_path: Path) -> None:
    alone = cli("audit", "--strict-baseline", FILESYSTEM)
    assert alone.code == 2 and alone.stderr.startswith("error: --strict-baseline needs")
    (tmp_path / "prints.txt").write_text("0" * 64 + "\n")
    (tmp_path / "catalogaudit.toml").write_text('baseline = "prints.txt"\nstrict-baseline = true\n')
    assert cli("audit", FILESYSTEM, cwd=tmp_path).code == 1
