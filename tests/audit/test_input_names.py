"""Inputs outside the current directory that share a file name are told apart in reports (the
gate issue, item 7): before, both printed as `.../catalog.snapshot.json`. The catalog is the
committed capture of the example server (fixtures/captures/README.md)."""

from __future__ import annotations

import shutil
from pathlib import Path

from helpers import cli, fixture

CAPTURE = fixture("captures", "example-server.snapshot.json")


def test_same_file_names_in_other_directories_stay_apart(tmp_path: Path) -> None:
    for name in ("staging", "release"):
        (tmp_path / name).mkdir()
        shutil.copy(CAPTURE, tmp_path / name / "catalog.snapshot.json")
    (tmp_path / "work").mkdir()
    args = [str(tmp_path / n / "catalog.snapshot.json") for n in ("staging", "release")]
    result = cli(
        "audit", *args, "--profile", "codex-app", "--format", "json", cwd=tmp_path / "work"
    )
    report = result.json()
    assert report["inputs"] == [
        ".../staging/catalog.snapshot.json",
        ".../release/catalog.snapshot.json",
    ], report["inputs"]
    files = {f["location"]["file"] for f in report["findings"]}
    assert files == set(report["inputs"]), files
    assert str(tmp_path) not in result.stdout, "no absolute paths in reports"
