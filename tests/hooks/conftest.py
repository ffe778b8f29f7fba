"""The hook tests of a worker share one hook repository and one pre-commit store, so the
hook's environment is built once per worker (see hookrepo.py)."""

from __future__ import annotations

import pytest
from hookrepo import HookRepo, make_hook_repo


@pytest.fixture(scope="session")
def hook_repo(tmp_path_factory: pytest.TempPathFactory) -> HookRepo:
    return make_hook_repo(
        tmp_path_factory.mktemp("hookrepo"), tmp_path_factory.mktemp("pre-commit-home")
    )
