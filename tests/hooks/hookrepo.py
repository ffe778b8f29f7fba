"""One hook repository and one pre-commit store per test run.

`pre-commit try-repo` builds the hook's environment (a pip install of the package) in a fresh
store on every run; `pre-commit run` with a configuration naming the repository at a revision
builds it once per store, as it does for users. So every hook test shares the repository and
the store (the xdist workers too: conftest.py), and the environment is built once.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

from helpers import PYTHON, ROOT


def hook_env() -> dict[str, str]:
    """The environment of a git or pre-commit call: no inherited GIT_* (a test run from a git
    hook would point them at the wrong repository) and no PYTHONPATH (the hook's environment
    must not see the test environment's packages)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_") and k != "PYTHONPATH"}
    env.update(
        GIT_AUTHOR_NAME="t",
        GIT_AUTHOR_EMAIL="t@example.invalid",
        GIT_COMMITTER_NAME="t",
        GIT_COMMITTER_EMAIL="t@example.invalid",
        PRE_COMMIT_COLOR="never",
    )
    return env


def git(repo: Path, *args: str) -> str:
    done = subprocess.run(
        ["git", *args], cwd=repo, check=True, capture_output=True, text=True, env=hook_env()
    )
    return done.stdout


def commit_all(repo: Path) -> None:
    if not (repo / ".git").exists():
        git(repo, "init", "-q", "-b", "main")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "step")


@dataclass(frozen=True)
class HookRepo:
    """A git copy of this checkout's hook manifest and package, and the pre-commit store its
    environment is built in."""

    path: Path
    rev: str
    home: Path

    def run(self, repo: Path, *args: str) -> tuple[int, str]:
        """`pre-commit run ARGS --all-files` in `repo` with the three shipped hooks configured
        from this repository (the configuration lives outside `repo`, so it is never a file
        the hooks see); the exit status and the combined output."""
        import yaml  # NOTE: not in the smoke extra, whose tests import this module's conftest

        config = repo.parent / f"{repo.name}.pre-commit-config.yaml"
        manifest = yaml.safe_load((self.path / ".pre-commit-hooks.yaml").read_text())
        hooks = [{"id": hook["id"]} for hook in manifest]
        entry = {"repo": str(self.path), "rev": self.rev, "hooks": hooks}
        config.write_text(yaml.safe_dump({"repos": [entry]}))
        proc = subprocess.run(
            [PYTHON, "-m", "pre_commit", "run", "-c", str(config), *args, "--all-files"],
            cwd=repo,
            capture_output=True,
            text=True,
            timeout=900,
            env={**hook_env(), "PRE_COMMIT_HOME": str(self.home)},
        )
        return proc.returncode, proc.stdout + proc.stderr


def make_hook_repo(repo: Path, home: Path) -> HookRepo:
    """Copy the manifest and the package into `repo`, commit them, and name the store."""
    for name in ("pyproject.toml", "README.md", "LICENSE", ".pre-commit-hooks.yaml"):
        shutil.copy(ROOT / name, repo / name)
    shutil.copytree(
        ROOT / "src", repo / "src", ignore=shutil.ignore_patterns("__pycache__", "*.pyc")
    )
    commit_all(repo)
    return HookRepo(repo, git(repo, "rev-parse", "HEAD").strip(), home)
