"""The hook tests share one hook repository and one pre-commit store, so the hook's environment
is built once per run, not once per test or per xdist worker (see hookrepo.py)."""

from __future__ import annotations

import os

import pytest
from hookrepo import HookRepo, make_hook_repo


@pytest.fixture(scope="session")
def hook_repo(tmp_path_factory: pytest.TempPathFactory) -> HookRepo:
    """Under xdist the workers' base directories share a parent, which is this run's: the first
    worker to ask makes the repository there (under a lock), the others reuse it, and
    pre-commit's own store lock lets one of them build the environment the others then use."""
    if not os.environ.get("PYTEST_XDIST_WORKER"):
        return make_hook_repo(
            tmp_path_factory.mktemp("hookrepo"), tmp_path_factory.mktemp("pre-commit-home")
        )
    from filelock import FileLock  # NOTE: not in the smoke extra, whose tests import this module

    shared = tmp_path_factory.getbasetemp().parent
    repo, home, made = shared / "hookrepo", shared / "pre-commit-home", shared / "hookrepo.rev"
    with FileLock(str(shared / "hookrepo.lock")):
        if not made.exists():
            repo.mkdir()
            home.mkdir()
            made.write_text(make_hook_repo(repo, home).rev)
    return HookRepo(repo, made.read_text(), home)
