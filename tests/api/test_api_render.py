"""`catalogaudit.render` (issue 34, item 5): every report the API returns, in every format the
command line has, is the same bytes as the verb prints for the same inputs from the same
directory. The inputs are real captures (fixtures/real-servers) and the diff fixtures, in a
temporary git repository so the SARIF, annotation, JUnit and GitLab paths are the repository's."""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from helpers import FIXTURES, cli

import catalogaudit as ca
from catalogaudit.formatters.formats import DiffFormat, OutputFormat, StabilityFormat


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    repo = tmp_path_factory.mktemp("render")
    shutil.copy(FIXTURES / "real-servers" / "server-filesystem.snapshot.json", repo / "fs.json")
    for name in ("old", "new"):
        shutil.copy(FIXTURES / "diff" / "input-schema" / f"{name}.json", repo / f"{name}.json")
    for args in (["init", "-q", "-b", "main"], ["add", "."], ["commit", "-q", "-m", "x"]):
        subprocess.run(
            ["git", "-c", "user.name=t", "-c", "user.email=t@t", *args], cwd=repo, check=True
        )
    here = Path.cwd()
    os.chdir(repo)
    try:
        yield repo
    finally:
        os.chdir(here)


@pytest.mark.parametrize("fmt", [f.value for f in OutputFormat])
def test_an_audit_in_every_format(repo: Path, fmt: str) -> None:
    args = ["--profile", "spec", "--profile", "claude-code", "--fail-on", "info"]
    got = cli("audit", "fs.json", "--format", fmt, *args, cwd=repo)
    assert got.code in (0, 1), got
    report = ca.audit("fs.json", profiles=["spec", "claude-code"])
    assert ca.render(report, fmt, fail_on="info") == got.stdout


@pytest.mark.parametrize("fmt", [f.value for f in DiffFormat])
def test_a_diff_in_every_format(repo: Path, fmt: str) -> None:
    got = cli(
        "diff", "old.json", "new.json", "--format", fmt, "--fail-on", "model-visible", cwd=repo
    )
    assert got.code in (0, 1), got
    result = ca.diff("old.json", "new.json")
    rendered = ca.render(result, fmt, fail_on="model-visible", old="old.json", new="new.json")
    assert rendered == got.stdout


def test_diff_summary_and_the_report_type(repo: Path) -> None:
    result = ca.diff("old.json", "new.json")
    assert (
        ca.render(result, summary=True) == cli("diff", "old.json", "new.json", "--summary").stdout
    )


@pytest.mark.parametrize("fmt", [f.value for f in StabilityFormat])
def test_stability_in_every_format(repo: Path, fmt: str) -> None:
    got = cli("stability", "old.json", "new.json", "--format", fmt, cwd=repo)
    assert got.code in (0, 1), got
    assert ca.render(ca.stability("old.json", "new.json"), fmt) == got.stdout


def test_a_wrong_format_or_report_is_a_usage_error(repo: Path) -> None:
    with pytest.raises(ca.UsageError, match="format must be one of"):
        ca.render(ca.audit("fs.json"), "yaml")
    with pytest.raises(ca.UsageError, match="takes a Report"):
        ca.render({"kind": "hash"})  # type: ignore[arg-type]


def test_a_listing_level_finding_names_its_listing_not_none(repo: Path) -> None:
    """`tools/None` no more: `Finding.subject` is `tools/NAME`, or the listing alone."""
    report = ca.audit("fs.json")
    subjects = {f.subject for f in report.findings}
    assert subjects and not [s for s in subjects if s.endswith("/None")], subjects
    assert all(
        f.subject == (f.kind if f.identity is None else f"{f.kind}/{f.identity}")
        for f in report.findings
    )
