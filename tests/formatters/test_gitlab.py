"""`--format gitlab` (GitLab code quality, for `audit` and `diff`): the fields GitLab reads
(https://docs.gitlab.com/ci/testing/code_quality/#code-quality-report-format), checked on a
real server's capture and a real server's breaking release."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

from helpers import FIXTURES, PYTHON, SERVERS, cli

from catalogaudit.formatters.gitlab import format_gitlab
from catalogaudit.model.findings import Finding, Location, Report, Severity

SEVERITIES = {"info", "minor", "major", "critical", "blocker"}


def _check_shape(issues: Any) -> None:
    assert isinstance(issues, list)
    for issue in issues:
        assert isinstance(issue["description"], str) and issue["description"]
        assert isinstance(issue["check_name"], str) and issue["check_name"]
        assert isinstance(issue["fingerprint"], str) and len(issue["fingerprint"]) == 64
        assert issue["severity"] in SEVERITIES
        assert isinstance(issue["location"]["path"], str)
        begin = issue["location"]["lines"]["begin"]
        assert isinstance(begin, int) and begin >= 1
    fingerprints = [i["fingerprint"] for i in issues]
    assert len(set(fingerprints)) == len(fingerprints), "GitLab merges equal fingerprints"


def _sarif_lines(doc: Any, key: str) -> dict[str, int]:
    return {
        r["partialFingerprints"][key]: r["locations"][0]["physicalLocation"]["region"]["startLine"]
        for r in doc["runs"][0]["results"]
    }


def test_audit_of_a_real_capture(tmp_path: Path) -> None:
    shutil.copy(
        FIXTURES / "real-servers" / "server-filesystem.snapshot.json", tmp_path / "fs.snapshot.json"
    )
    # Claude Code before 2.1.328 refused draft-07 outputSchemas (CC-SCHEMA-002, from reports):
    # 14 warnings on this capture; 2.1.328 was measured calling them (verify --model).
    args = [
        "audit",
        "fs.snapshot.json",
        "--profile",
        "codex-app",
        "--profile",
        "claude-code@2.1.258",
    ]
    got = cli(*args, "--format", "gitlab", "--fail-on", "never", cwd=tmp_path)
    assert got.code == 0, got
    issues = got.json()
    _check_shape(issues)
    assert len(issues) >= 10
    assert {i["location"]["path"] for i in issues} == {"fs.snapshot.json"}
    sarif = cli(*args, "--format", "sarif", "--fail-on", "never", cwd=tmp_path).json()
    lines = _sarif_lines(sarif, "catalogaudit/v1")
    assert {i["fingerprint"]: i["location"]["lines"]["begin"] for i in issues} == lines


def test_diff_of_a_real_breaking_release(tmp_path: Path) -> None:
    for release in ("1", "2"):
        out = str(tmp_path / f"r{release}.snapshot.json")
        got = cli("snapshot", "-o", out, "--", PYTHON, str(SERVERS / "release_server.py"), release)
        assert got.code == 0, got
    args = ["diff", "r1.snapshot.json", "r2.snapshot.json"]
    got = cli(*args, "--format", "gitlab", cwd=tmp_path)
    assert got.code == 1, got
    issues = got.json()
    _check_shape(issues)
    (breaking,) = [i for i in issues if i["check_name"] == "CA810"]
    assert breaking["severity"] == "critical"
    assert breaking["location"]["path"] == "r2.snapshot.json"
    assert '"folder"' in breaking["description"]
    sarif = cli(*args, "--format", "sarif", cwd=tmp_path).json()
    lines = _sarif_lines(sarif, "catalogauditChange/v1")
    assert {i["fingerprint"]: i["location"]["lines"]["begin"] for i in issues} == lines
    assert lines[breaking["fingerprint"]] > 1


def test_clean_is_an_empty_document_and_server_text_is_visible() -> None:
    assert format_gitlab(Report()) == "[]\n"
    hostile = Finding(
        "CA101",
        Severity.WARNING,
        "bad \x1b[31mred\x1b[0m name",
        kind="tools",
        identity="t",
        location=Location("git:HEAD:./c.snapshot.json", "/listings/tools/items/0", 7),
    )
    (issue,) = json.loads(format_gitlab(Report(findings=[hostile])))
    assert "\x1b" not in issue["description"]
    assert issue["location"] == {"path": "c.snapshot.json", "lines": {"begin": 7}}
    twice = json.loads(format_gitlab(Report(findings=[hostile, hostile])))
    assert len({i["fingerprint"] for i in twice}) == 2
