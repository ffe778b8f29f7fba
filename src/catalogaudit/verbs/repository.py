"""Where report paths are relative to (SARIF `artifactLocation`, annotation `file=`)."""

from __future__ import annotations

import subprocess
from pathlib import Path

from catalogaudit.formatters import Repository, repository_path


def repository(specs: dict[str, str] | None = None) -> Repository:
    """The repository root found by walking up from the current directory to a `.git` entry
    (a directory, or a worktree's file; no git process, no network), else the current
    directory; `specs` maps each report's file label to the input as given."""
    cwd = Path.cwd().resolve()
    root = next((d for d in (cwd, *cwd.parents) if (d / ".git").exists()), cwd)
    return Repository(root.as_posix(), cwd.as_posix(), dict(specs or {}))


def in_repository(spec: str, repo: Repository) -> bool:
    """Whether an input is something the repository holds: `git:REF:PATH`, or a file inside
    the root that git tracks (`git ls-files`; without git, any file inside the root)."""
    if spec.startswith("git:"):
        return True
    if spec == "-":
        return False
    _, outside = repository_path(spec, repo)
    if outside is not None:
        return False
    try:
        done = subprocess.run(
            ["git", "ls-files", "--error-unmatch", "--", spec],
            capture_output=True,
            timeout=30,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired):
        return True
    return done.returncode == 0
