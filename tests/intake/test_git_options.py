"""`git:REF:PATH` inputs and configured paths cannot make catalogaudit write or read outside
the repository (the security item of the issue "A hostile world").

Before the fix, `git:--output=FILE:x` ran `git show --output=FILE:x`, which created FILE:x with
the output of `git show`; a pull request could ship that as `snapshot` in catalogaudit.toml.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from helpers import cli

TOOLS = '{"tools":[{"name":"a","inputSchema":{"type":"object"}}]}'


def repo(tmp_path: Path) -> Path:
    """A git repository with one committed list result, tools.json."""
    root = tmp_path / "repo"
    root.mkdir()
    git = ["git", "-C", str(root), "-c", "user.email=t@example.org", "-c", "user.name=t"]
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    (root / "tools.json").write_text(TOOLS)
    subprocess.run([*git, "add", "tools.json"], check=True)
    subprocess.run([*git, "commit", "-qm", "tools"], check=True)
    return root


def victim(tmp_path: Path) -> tuple[Path, str]:
    """A directory outside the repository and the file name git would write there."""
    target = tmp_path / "outside"
    target.mkdir()
    return target, "name:x"


@pytest.mark.parametrize(
    "verb",
    [
        ["audit"],
        ["hash"],
        ["canonicalize"],
        ["snapshot", "--from"],
        ["diff", "git:HEAD:tools.json"],
        ["stability"],
    ],
    ids=lambda v: v[0],
)
def test_git_option_as_ref_writes_nothing(tmp_path: Path, verb: list[str]) -> None:
    root = repo(tmp_path)
    target, name = victim(tmp_path)
    spec = f"git:--output={target}/{name}"
    args = [*verb, spec]
    if verb[0] == "stability":
        args.append(spec)
    result = cli(*args, cwd=root)
    assert result.code == 2, str(result)
    assert list(target.iterdir()) == [], "git wrote a file through an option"
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), str(result)
    assert "cannot start with '-'" in lines[0]


def test_end_of_options_keeps_an_option_in_the_path_inert(tmp_path: Path) -> None:
    """A ref that passes the '-' check cannot smuggle an option after the colon either."""
    root = repo(tmp_path)
    target, _ = victim(tmp_path)
    result = cli("hash", f"git:HEAD:--output={target}/x", cwd=root)
    assert result.code == 2, str(result)
    assert list(target.iterdir()) == []


@pytest.mark.parametrize("where", ["catalogaudit.toml", "pyproject.toml"])
def test_configured_git_option_writes_nothing(tmp_path: Path, where: str) -> None:
    root = repo(tmp_path)
    target, name = victim(tmp_path)
    line = f'snapshot = "git:--output={target}/{name}"\n'
    text = line if where == "catalogaudit.toml" else "[tool.catalogaudit]\n" + line
    (root / where).write_text(text)
    result = cli("audit", cwd=root)
    assert result.code == 2, str(result)
    assert list(target.iterdir()) == []
    assert f"{where}: snapshot: a git ref cannot start with '-'" in result.stderr


@pytest.mark.parametrize("key", ["snapshot", "baseline"])
@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("../outside/tools.json", "is outside the directory of catalogaudit.toml"),
        ("{abs}", "must be a path relative to catalogaudit.toml"),
        ("link.json", "is outside the directory of catalogaudit.toml"),
        ("-", "must name a file in the repository"),
    ],
    ids=["dotdot", "absolute", "symlink", "stdin"],
)
def test_configured_paths_stay_in_the_repository(
    tmp_path: Path, key: str, value: str, message: str
) -> None:
    root = repo(tmp_path)
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "tools.json").write_text(TOOLS)
    (root / "link.json").symlink_to(outside / "tools.json")
    value = value.replace("{abs}", str(outside / "tools.json"))
    (root / "catalogaudit.toml").write_text(f'{key} = "{value}"\n')
    result = cli("audit", "tools.json", cwd=root)
    assert result.code == 2, str(result)
    assert f"catalogaudit.toml: {key}" in result.stderr and message in result.stderr, str(result)


def test_configured_paths_inside_the_repository_still_work(tmp_path: Path) -> None:
    root = repo(tmp_path)
    (root / "sub").mkdir()
    (root / "sub" / "tools.json").write_text(TOOLS)
    (root / "catalogaudit.toml").write_text('snapshot = "sub/../sub/tools.json"\n')
    assert cli("audit", cwd=root).code == 0
    (root / "catalogaudit.toml").write_text('snapshot = "git:HEAD:tools.json"\n')
    result = cli("audit", cwd=root)
    assert result.code == 0, str(result)


def test_explicit_config_paths_are_relative_to_the_config_file(tmp_path: Path) -> None:
    root = repo(tmp_path)
    (root / "catalogaudit.toml").write_text('snapshot = "tools.json"\n')
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    result = cli("audit", "--config", str(root / "catalogaudit.toml"), cwd=elsewhere)
    assert result.code == 0, str(result)
