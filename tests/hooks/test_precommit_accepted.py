"""The pre-commit live diff honours the accepted-changes file (issue 34, item 1), through real
`pre-commit run` runs of the shipped hook on a repository whose server moves from release
1 to release 2 of a real fastmcp server (fixtures/servers/fastmcp_release.py: a renamed
required argument, a removed tool): red, green once the break is accepted in the committed file,
and the entries reported stale once the change is reverted."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers import PYTHON, SERVERS, cli
from hookrepo import HookRepo, commit_all, git
from test_precommit import verdicts

LINE = 'RELEASE = sys.argv[1] if len(sys.argv) > 1 else "1"'
HOOK = ("catalogaudit-live-diff", "--hook-stage", "manual", "--verbose")


def _release(repo: Path, release: str) -> None:
    source = (SERVERS / "fastmcp_release.py").read_text()
    (repo / "server.py").write_text(source.replace(LINE, LINE.replace('"1"', f'"{release}"')))


@pytest.mark.slow_install
@pytest.mark.timeout(1500)  # three pre-commit runs, the first may build the hook's environment
def test_live_diff_hook_accepts_a_committed_break(hook_repo: HookRepo, tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    repo.mkdir()
    _release(repo, "1")
    (repo / "catalogaudit.toml").write_text(
        f'snapshot = "catalog.snapshot.json"\nserver = {{command = [{json.dumps(PYTHON)}, '
        '"server.py"]}\n'
    )
    got = cli("snapshot", "-o", "catalog.snapshot.json", "--", PYTHON, "server.py", cwd=repo)
    assert got.code == 0, got
    commit_all(repo)
    _release(repo, "2")
    git(repo, "commit", "-qam", "release 2")
    code, out = hook_repo.run(repo, *HOOK)
    assert (code, verdicts(out)) == (1, {"catalogaudit live diff": "Failed"}), out

    wrote = cli("diff", "--live", "--accept", "purge moved; search takes text", cwd=repo)
    assert wrote.code == 0, wrote
    git(repo, "add", "catalogaudit.accepted.toml")
    git(repo, "commit", "-qm", "accept the break")
    code, out = hook_repo.run(repo, *HOOK)
    assert (code, verdicts(out)) == (0, {"catalogaudit live diff": "Passed"}), out
    assert "(accepted: purge moved; search takes text)" in out

    _release(repo, "1")
    git(repo, "commit", "-qam", "revert to release 1")
    code, out = hook_repo.run(repo, *HOOK)
    assert (code, verdicts(out)) == (0, {"catalogaudit live diff": "Passed"}), out
    assert "it is stale" in out, out
