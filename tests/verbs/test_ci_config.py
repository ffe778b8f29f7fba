"""`catalogaudit ci` reads the configuration every verb reads (issue 34, item 2): with
`[tool.catalogaudit] profiles = ["spec", "claude-code"]` it audits with both, its job summary
names the effective profiles and thresholds, and it counts the findings `audit` reports on the
same snapshot with the same configuration (the pre-commit hook and CI agree)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from helpers import FIXTURES, cli
from helpers.github_api import read_outputs


def _repo(tmp_path: Path, config: str, name: str = "pyproject.toml") -> Path:
    repo = tmp_path / "repo"
    repo.mkdir()
    real = FIXTURES / "real-servers" / "server-filesystem.snapshot.json"
    (repo / "catalog.snapshot.json").write_bytes(real.read_bytes())
    (repo / name).write_text(config)
    for args in (["init", "-q", "-b", "main"], ["add", "."], ["commit", "-q", "-m", "x"]):
        subprocess.run(
            ["git", "-c", "user.name=t", "-c", "user.email=t@t", *args], cwd=repo, check=True
        )
    return repo


def _ci(repo: Path, tmp_path: Path, *args: str) -> tuple[int, dict[str, str], str]:
    out = tmp_path / "out.txt"
    got = cli(
        "ci", "--baseline", "HEAD", "--no-comment", "--out-dir", str(tmp_path / "ci"), *args,
        cwd=repo, env={"GITHUB_OUTPUT": str(out)},
    )  # fmt: skip
    assert got.code in (0, 1), got
    return got.code, read_outputs(out), (tmp_path / "ci" / "summary.md").read_text()


def _audit_findings(repo: Path) -> list[dict[str, object]]:
    got = cli("audit", "catalog.snapshot.json", "--format", "json", cwd=repo)
    doc = json.loads(got.stdout)
    findings: list[dict[str, object]] = doc["findings"]
    return findings


def test_ci_audits_with_the_configured_profiles(tmp_path: Path) -> None:
    config = '[tool.catalogaudit]\nprofiles = ["spec", "claude-code"]\nfail-on = "info"\n'
    repo = _repo(tmp_path, config)
    code, outputs, summary = _ci(repo, tmp_path)
    found = _audit_findings(repo)
    assert found and int(outputs["findings"]) == len(found), (outputs, found)
    assert code == 1 and outputs["exit-code"] == "1"
    (line,) = [x for x in summary.splitlines() if x.startswith("- profiles:")]
    assert "`spec`" in line and "`claude-code@" in line, line
    assert "- fails on: a finding at `info` or worse, a change at `breaking` or above" in summary
    assert "- configuration: `pyproject.toml`" in summary
    # The command line wins over the configuration, key by key.
    code, outputs, summary = _ci(repo, tmp_path, "--profile", "spec", "--audit-fail-on", "error")
    (line,) = [x for x in summary.splitlines() if x.startswith("- profiles:")]
    assert line == "- profiles: `spec`" and code == 0 and outputs["findings"] == "0"


def test_catalogaudit_toml_and_its_unknown_keys(tmp_path: Path) -> None:
    repo = _repo(
        tmp_path, 'profiles = "codex-app"\ndiff-fail-on = "cosmetic"\n', "catalogaudit.toml"
    )
    _, _, summary = _ci(repo, tmp_path)
    assert "- profiles: `codex-app@" in summary and "a change at `cosmetic` or above" in summary
    (repo / "catalogaudit.toml").write_text('profile = ["spec"]\nfail_on = "info"\n')
    got = cli("ci", "--baseline", "HEAD", "--no-comment", cwd=repo)
    assert got.code == 2 and "unknown key 'fail_on'" in got.stderr, got
