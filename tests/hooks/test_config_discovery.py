"""Configuration is found the way ruff finds it (the gate issue, item 6): from the current
directory upward to the repository root (the first directory holding `.git`), and a file found
above the current directory is named on stderr.

Before, only the current directory was read, so from a subdirectory the configured profiles
were silently dropped and the gate ran with `spec` alone. The catalog is the committed capture
of the example server (fixtures/captures/README.md), which codex-app fails (CDX-ANN-001).
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

from helpers import cli, fixture

CAPTURE = fixture("captures", "example-server.snapshot.json")


def repo(tmp_path: Path, config_name: str, text: str) -> Path:
    root = tmp_path / "repo"
    (root / "src" / "deep").mkdir(parents=True)
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    shutil.copy(CAPTURE, root / "catalog.snapshot.json")
    (root / config_name).write_text(text)
    return root


def rules_of(result: object) -> set[str]:
    return {f["ruleId"] for f in result.json()["findings"]}  # type: ignore[attr-defined]


def test_a_subdirectory_uses_the_repository_configuration(tmp_path: Path) -> None:
    root = repo(
        tmp_path,
        "catalogaudit.toml",
        'profiles = ["codex-app"]\nsnapshot = "catalog.snapshot.json"\nformat = "json"\n',
    )
    result = cli("audit", cwd=root / "src" / "deep")
    assert result.code == 1, str(result)
    assert "CDX-ANN-001" in rules_of(result)
    assert result.stderr.splitlines()[0] == f"note: config: {root.resolve()}/catalogaudit.toml"


def test_pyproject_tables_are_found_upward_too(tmp_path: Path) -> None:
    root = repo(tmp_path, "pyproject.toml", '[tool.catalogaudit]\nprofiles = ["codex-app"]\n')
    result = cli("audit", str(root / "catalog.snapshot.json"), "--format", "json", cwd=root / "src")
    assert "CDX-ANN-001" in rules_of(result), str(result)
    assert f"note: config: {root.resolve()}/pyproject.toml" in result.stderr


def test_the_search_stops_at_the_repository_root(tmp_path: Path) -> None:
    root = repo(tmp_path, "README", "")
    (tmp_path / "catalogaudit.toml").write_text('profiles = ["codex-app"]\n')  # above .git
    result = cli("audit", str(root / "catalog.snapshot.json"), "--format", "json", cwd=root)
    assert "CDX-ANN-001" not in rules_of(result), str(result)
    assert "note: config" not in result.stderr


def test_a_configuration_in_the_current_directory_is_not_announced(tmp_path: Path) -> None:
    root = repo(tmp_path, "catalogaudit.toml", 'profiles = ["codex-app"]\nformat = "json"\n')
    result = cli("audit", "catalog.snapshot.json", cwd=root)
    assert "CDX-ANN-001" in rules_of(result), str(result)
    assert "note: config" not in result.stderr
