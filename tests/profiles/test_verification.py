"""The record of real verify runs: how `profiles` and `audit --matrix` show it, how the refresh
script builds it from the differential suite's log, and that the committed record is sound."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from typing import Any

import pytest
from helpers import FIXTURES, ROOT, cli
from packaging.version import Version

from catalogaudit.profiles import resolve as profiles
from catalogaudit.profiles import summary
from catalogaudit.profiles.load import VerifiedRun, load_all, load_verified
from catalogaudit.verify import DRIVERS


def _script() -> Any:
    spec = importlib.util.spec_from_file_location(
        "refresh_verification", ROOT / "scripts" / "refresh_verification.py"
    )
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


refresh = _script()


def _run(pid: str, version: str, date: str = "2026-11-30") -> VerifiedRun:
    return VerifiedRun(pid, Version(version), date, 5, 16)


@pytest.fixture
def recorded(monkeypatch: pytest.MonkeyPatch) -> None:
    """A record in which codex 0.169.0 and two context-forge releases passed."""
    record = {
        "codex": (_run("codex", "0.169.0"),),
        "context-forge": (_run("context-forge", "0.9.0"), _run("context-forge", "1.0.0")),
    }
    monkeypatch.setattr(profiles, "load_verified", lambda: record)
    monkeypatch.setattr(
        profiles, "driver_ids", lambda: frozenset({"codex", "context-forge", "ts-sdk"})
    )


def test_status_names_the_enforcer_version_and_date(recorded: None) -> None:
    assert profiles.resolve("codex@0.169.0", {}).verified == (
        "verified at listing time against codex 0.169.0 on 2026-11-30 for 5 of 9 rules; "
        "the other 4 from sources"
    )
    cf = profiles.resolve("context-forge@1.0.0rc1", {}).verified
    assert cf.startswith("unverified at 1.0.0rc1 (verify runs passed on 0.9.0, 1.0.0); rules ")
    assert cf.endswith("measured on 1.0.0rc1 (2026-11-30)")


def test_no_driver_and_no_run_are_both_unverified(recorded: None) -> None:
    assert profiles.resolve("codex-app", {}).verified.startswith("unverified (no verify driver)")
    assert profiles.resolve("openai", {}).verified.startswith("unverified (no verify driver)")
    assert profiles.resolve("ts-sdk", {}).verified.startswith("unverified (no verify run")


def test_summary_text_counts_versions(recorded: None, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(
        "catalogaudit.profiles.resolve.load_verified",
        lambda: {"context-forge": (_run("context-forge", "0.6.0"), _run("context-forge", "1.0.7"))},
    )
    rows = {r.id: r for r in summary.profile_summaries()}
    rules = load_all()["context-forge"].rules
    measured = sum(1 for r in rules if r.phase == "listing" and r.confidence == "measured")
    text = rows["context-forge"].verified_text
    head, _, share = text.partition(", listing time: ")
    assert head == "2 versions 0.6.0 .. 1.0.7 (2026-11-30)"
    vouched, _, total = share.removesuffix(" rules").partition(" of ")
    # the newest run vouches for the measured listing-time rules that apply at its version
    assert int(total) == len(rules) and 0 < int(vouched) <= measured < len(rules)
    assert rows["codex"].verified_text == "unverified"
    assert rows["codex-app"].verified_text == "unverified (no driver)"


def _report(cid: str, version: str, rows: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "date": "2026-12-01",
        "client": {"id": cid, "version": version},
        "observations": rows,
    }


def _row(catalog: str, verdict: str, predicted: str, index: int | None = 0) -> dict[str, Any]:
    return {
        "catalog": f"/tmp/x/{catalog}.json",
        "listing": "tools",
        "index": index,
        "identity": "t" if index is not None else None,
        "verdict": verdict,
        "message": "client words" if verdict != "kept" else "",
        "predicted": predicted,
        "predictedBecause": "",
        "matches": verdict == predicted,
    }


def test_merge_keeps_versions_not_run_and_drops_versions_that_mismatched() -> None:
    previous = {
        "profiles": {
            "codex": [
                {
                    "enforcer": "codex",
                    "version": v,
                    "date": "2026-11-01",
                    "scenarios": 1,
                    "observations": 1,
                }
                for v in ("0.168.0", "0.169.0")
            ],
        }
    }
    runs = refresh.aggregate(
        [
            _report("codex", "0.169.0", [_row("B", "kept", "dropped")]),
            _report(
                "ts-sdk", "1.32.2", [_row("B", "failed", "failed", None), _row("C", "kept", "kept")]
            ),
        ]
    )
    merged = refresh.merge(previous, runs)
    assert [e["version"] for e in merged["profiles"]["codex"]] == ["0.168.0"]
    assert merged["profiles"]["ts-sdk"] == [
        {
            "enforcer": "ts-sdk",
            "version": "1.32.2",
            "date": "2026-12-01",
            "scenarios": 2,
            "observations": 2,
        }
    ]
    (bad,) = merged["mismatches"]
    assert (bad["scenario"], bad["profile"], bad["subject"]) == (
        "B",
        "codex@0.169.0",
        'tools[0] "t"',
    )
    ledger = [
        {
            "scenario": "B",
            "profile": "codex@0.169.0",
            "change": "fixed X",
            "date": "d",
            "predicted": "p",
            "observed": "o",
        }
    ]
    doc = refresh.render(merged, ledger, ["codex", "opencode", "ts-sdk"])
    assert '| B | `codex@0.169.0` | tools[0] "t" | dropped | kept |  | fixed X |' in doc
    assert "Drivers with no clean run recorded: opencode." in doc


def test_the_committed_record_is_sound_and_the_doc_is_in_sync() -> None:
    """Every recorded run is of a real driver at a version the profile knows, and
    docs/verification.md is what the refresh script renders from the record."""
    everything = load_all()
    for pid, runs in load_verified().items():
        assert pid in DRIVERS, pid
        known = {k.version for k in everything[pid].versions}
        for run in runs:
            assert run.enforcer == pid and run.version in known, (pid, run)
            assert run.scenarios > 0 and run.observations >= run.scenarios
    doc = (ROOT / "docs" / "verification.md").read_text(encoding="utf-8")
    assert doc == refresh.expected_doc(), "run: python scripts/refresh_verification.py --log LOG"


def test_profiles_verb_and_matrix_show_verification() -> None:
    listing = cli("profiles", "--format", "json")
    assert listing.code == 0, str(listing)
    rows = {r["id"]: r for r in listing.json()["profiles"]}
    assert rows["codex-app"]["driver"] is False and rows["codex-app"]["verified"] == []
    assert rows["codex"]["driver"] is True
    matrix = cli(
        "audit",
        "--matrix",
        "--format",
        "json",
        "--profile",
        "codex-app",
        "--profile",
        "openai",
        str(FIXTURES / "oracle" / "B-array-input-schema" / "tools.json"),
    )
    assert matrix.code in (0, 1), str(matrix)
    for row in matrix.json()["matrix"]:
        assert row["verified"].startswith("unverified (no verify driver)"), row


def test_verify_appends_its_report_to_the_log(tmp_path: Path) -> None:
    """The suite's runs reach the refresh script through CATALOGAUDIT_VERIFICATION_LOG."""
    snap = tmp_path / "B.json"
    made = cli(
        "snapshot",
        "--from",
        str(FIXTURES / "oracle" / "B-array-input-schema" / "tools.json"),
        "-o",
        str(snap),
    )
    assert made.code == 0, str(made)
    log = tmp_path / "log.jsonl"
    log.write_text('{"earlier": true}\n')
    result = cli(
        "verify",
        "--client",
        "python-sdk",
        str(snap),
        env={"CATALOGAUDIT_VERIFICATION_LOG": str(log)},
        timeout=120,
    )
    assert result.code == 0, str(result)
    lines = log.read_text().splitlines()
    assert len(lines) == 2 and json.loads(lines[0]) == {"earlier": True}
    entry = json.loads(lines[1])
    assert entry["client"]["id"] == "python-sdk" and entry["matches"] is True
    assert {o["verdict"] for o in entry["observations"]} == {"failed", "dropped"}


def test_request_time_effects_predict_no_loss_at_listing(tmp_path: Path) -> None:
    """CC-NAME-001 fails the conversation later, when the name is sent to the model; Claude Code
    still lists the tool (found by the random catalogs: predicted dropped, observed kept)."""
    from catalogaudit.verify.base import targets
    from catalogaudit.verify.predict import predict

    raw = tmp_path / "tools.json"
    long_name = "build_" + "y" * 70
    raw.write_text(
        json.dumps({"tools": [{"name": long_name, "inputSchema": {"type": "object"}}]}),
        encoding="utf-8",
    )
    snap = tmp_path / "long.json"
    assert cli("snapshot", "--from", str(raw), "-o", str(snap)).code == 0
    (target,) = targets([snap], tmp_path)
    audit = cli("audit", "--profile", "claude-code@2.1.328", "--format", "json", str(snap))
    assert "CC-NAME-001" in audit.stdout  # the audit still reports it, as an error
    verdicts = [(o.index, o.verdict) for o in predict(target, "claude-code@2.1.328")]
    assert verdicts == [(None, "kept"), (0, "kept")]
