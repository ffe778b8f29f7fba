"""Rewrite accounting pairs findings by rule, place and offending text (the gate issue, item 2).

Before, `rewrite <server-filesystem 2026.8.31> --substitutions ';=|' --profile
context-forge@0.9.0` reported "cleared 0, new 0": the `;` finding of `read_media_file` was
cleared and a `|` finding introduced at the same place, and pairing by place alone hid both.
And `rewrite --fix codex-app` re-audited with `spec`, reporting nothing cleared. Both catalogs
are committed captures of real servers (fixtures/captures/README.md).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from helpers import cli, fixture

FILESYSTEM = fixture("captures", "server-filesystem-2026.8.31.snapshot.json")
EXAMPLE = fixture("captures", "example-server.snapshot.json")


def rewrite(tmp_path: Path, source: Path, *args: str) -> dict[str, Any]:
    out = tmp_path / "rewritten.json"
    result = cli("rewrite", str(source), "-o", str(out), "--format", "json", *args)
    assert result.code in (0, 1), str(result)
    assert out.exists()
    return result.json()  # type: ignore[no-any-return]


def brief(findings: list[dict[str, Any]]) -> list[tuple[str, str, str]]:
    return sorted((f["ruleId"], f["identity"], f["message"].split('"')[3]) for f in findings)


def test_a_substitution_shows_what_it_cleared_and_what_it_introduced(tmp_path: Path) -> None:
    doc = rewrite(
        tmp_path, FILESYSTEM, "--substitutions", ";=|", "--profile", "context-forge@0.9.0"
    )
    assert brief(doc["cleared"]) == [("CF-DESC-001", "read_media_file", ";")]
    assert brief(doc["introduced"]) == [("CF-DESC-001", "read_media_file", "|")]
    assert {f["ruleId"] for f in doc["remaining"]} == {"CF-DESC-004"}
    assert len(doc["remaining"]) == 4
    assert doc["before"]["error"] == doc["after"]["error"] == 1


def test_a_substitution_that_clears_reports_it_cleared(tmp_path: Path) -> None:
    doc = rewrite(
        tmp_path, FILESYSTEM, "--substitutions", ";=\\,", "--profile", "context-forge@0.9.0"
    )
    assert brief(doc["cleared"]) == [("CF-DESC-001", "read_media_file", ";")]
    assert doc["introduced"] == []
    assert doc["after"]["error"] == 0


def test_a_profile_fix_is_re_audited_with_its_profile(tmp_path: Path) -> None:
    doc = rewrite(tmp_path, EXAMPLE, "--fix", "codex-app")
    assert [p.partition("@")[0] for p in doc["profiles"]] == ["codex-app"]
    assert sorted((f["ruleId"], f["identity"]) for f in doc["cleared"]) == [
        ("CDX-ANN-001", "notes://index"),
        ("CDX-ANN-001", "notes://welcome"),
    ]
    assert doc["remaining"] == doc["introduced"] == []
