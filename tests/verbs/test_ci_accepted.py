"""Accepting an intended break in the pull request (issue 34, item 1), end to end with two
releases of a real fastmcp server run over stdio (fixtures/servers/fastmcp_release.py: release 2
renames the required argument of `search` and removes `purge`).

In a temporary repository whose main branch commits release 1's snapshot, the pull request moves
the server to release 2: the gate (`ci`) and the pre-commit live diff (`diff --live`, the hook's
entry) both fail; `diff --live --accept REASON` writes catalogaudit.accepted.toml; with it
committed both pass, and the job summary and the PR comment say which breaks were accepted and
why; once the change is reverted, both report the entries as stale.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from helpers import PYTHON, SERVERS, cli
from helpers.github_api import GitHubStandIn, read_outputs

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

TOKEN = "ghs_acceptStandIn0123456789abcdefABCDEF"
REASON = "release 2: search takes text; purge moved to the admin server"
LINE = 'RELEASE = sys.argv[1] if len(sys.argv) > 1 else "1"'


def _git(repo: Path, *args: str) -> str:
    proc = subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@t", *args],
        cwd=repo, capture_output=True, text=True, check=True,
    )  # fmt: skip
    return proc.stdout.strip()


def _release(repo: Path, release: str) -> None:
    source = (SERVERS / "fastmcp_release.py").read_text()
    assert LINE in source
    (repo / "server.py").write_text(source.replace(LINE, LINE.replace('"1"', f'"{release}"')))


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    repo = tmp_path / "repo"
    repo.mkdir()
    _git(repo, "init", "-q", "-b", "main")
    _release(repo, "1")
    (repo / "pyproject.toml").write_text(
        "[tool.catalogaudit]\n"
        'snapshot = "catalog.snapshot.json"\n'
        f'server = {{command = [{json.dumps(PYTHON)}, "server.py"]}}\n'
    )
    got = cli("snapshot", "-o", "catalog.snapshot.json", "--", PYTHON, "server.py", cwd=repo)
    assert got.code == 0, got
    _git(repo, "add", ".")
    _git(repo, "commit", "-q", "-m", "release 1")
    _git(repo, "checkout", "-q", "-b", "pr")
    return repo


def _ci(repo: Path, tmp: Path, api: str) -> tuple[Any, dict[str, str], str]:
    event = tmp / "event.json"
    event.write_text(json.dumps({"pull_request": {"number": 5}}))
    for name in ("summary.md", "output.txt"):
        (tmp / name).write_text("")
    env = {
        "GITHUB_EVENT_PATH": str(event),
        "GITHUB_STEP_SUMMARY": str(tmp / "summary.md"),
        "GITHUB_OUTPUT": str(tmp / "output.txt"),
        "GITHUB_API_URL": api,
        "GITHUB_REPOSITORY": "octo/server",
        "GITHUB_TOKEN": TOKEN,
        "RUNNER_TEMP": str(tmp / "runner"),
    }
    got = cli("ci", "--baseline", "main", "--", PYTHON, "server.py", cwd=repo, env=env)
    return got, read_outputs(tmp / "output.txt"), (tmp / "summary.md").read_text()


def test_an_accepted_break_passes_and_a_stale_entry_is_reported(repo: Path, tmp_path: Path) -> None:
    with GitHubStandIn(TOKEN) as api:
        # The pull request moves the server to release 2: both gates fail.
        _release(repo, "2")
        _git(repo, "commit", "-q", "-am", "release 2")
        got, out, summary = _ci(repo, tmp_path, api.url)
        assert got.code == 1 and out["has-breaking"] == "true", got
        assert "CA801" in summary and "CA810" in summary and "accepted" not in summary
        live = cli("diff", "--live", cwd=repo)
        assert live.code == 1 and "CA801" in live.stdout and "CA810" in live.stdout, live

        # One command writes the entries; the file is committed with the change.
        wrote = cli("diff", "--live", "--accept", REASON, "--expires", "2999-12-31", cwd=repo)
        assert wrote.code == 0, wrote
        accepted = tomllib.loads((repo / "catalogaudit.accepted.toml").read_text())["accept"]
        named = {(e["rule"], e["item"], e.get("at", "")) for e in accepted}
        assert ("CA801", "tools/purge", "") in named, named
        assert ("CA810", "tools/search", "/inputSchema/properties/text") in named, named
        assert all(e["reason"] == REASON for e in accepted)
        _git(repo, "add", "catalogaudit.accepted.toml")
        _git(repo, "commit", "-q", "-m", "accept the break")

        live = cli("diff", "--live", cwd=repo)
        joined = re.sub(r"\n {4,}", " ", live.stdout)  # a long change goes on under itself
        assert live.code == 0 and joined.count(f"(accepted: {REASON})") == len(accepted)
        got, out, summary = _ci(repo, tmp_path, api.url)
        assert got.code == 0 and out["exit-code"] == "0", got
        assert out["has-breaking"] == "false", out
        assert "Accepted on purpose" in summary and "purge moved to the admin server" in summary
        (comment,) = api.comments[5]  # the first run's comment, updated
        assert "Accepted on purpose" in comment["body"]
        assert "purge moved to the admin server" in comment["body"]
        assert "| breaking, accepted | CA801 |" in comment["body"]

        # The change is reverted: nothing to accept any more, and the entries say so.
        _release(repo, "1")
        _git(repo, "commit", "-q", "-am", "back to release 1")
        got, out, summary = _ci(repo, tmp_path, api.url)
        assert got.code == 0, got
        stale = [x for x in got.stderr.splitlines() if "it is stale" in x]
        assert len(stale) == len(accepted) and all(x.startswith("warning: ") for x in stale)
        assert summary.count("it is stale") == len(accepted)
        live = cli("diff", "--live", cwd=repo)
        assert live.code == 0 and live.stdout.count("it is stale") == len(accepted), live


def test_an_expired_entry_accepts_nothing(repo: Path, tmp_path: Path) -> None:
    _release(repo, "2")
    wrote = cli("diff", "--live", "--accept", "for a while", "--expires", "2020-01-01", cwd=repo)
    assert wrote.code == 0, wrote
    live = cli("diff", "--live", cwd=repo)
    assert live.code == 1 and "expired on 2020-01-01" in live.stdout, live


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('[[accept]]\nrule = "CA801"\nitem = "tools/purge"\n', "reason must be a string"),
        ('[[accept]]\nrule = "CA801"\nitem = "t"\nreason = "r"\nwhy = 1\n', "unknown key 'why'"),
        ('[[accept]]\nrule = "CA801"\nitem = "t"\nreason = "r"\nexpires = "soon"\n', "a date"),
        ('[[accept]]\nrule = "CA801"\nitem = "t"\nreason = "r"\nat = "x"\n', "JSON Pointer"),
        ("accept = 3\n", "array of tables"),
        ("[x]\n", "nothing else"),
    ],
)
def test_a_malformed_file_is_one_error(repo: Path, text: str, message: str) -> None:
    (repo / "catalogaudit.accepted.toml").write_text(text)
    got = cli("diff", "catalog.snapshot.json", "catalog.snapshot.json", cwd=repo)
    assert got.code == 2 and got.stderr.count("\n") == 1 and message in got.stderr, got
