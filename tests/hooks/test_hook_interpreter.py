"""The live-diff hook names the server's own interpreter (issue 19): inside pre-commit, `python`
on PATH is the hook's virtualenv, which has catalogaudit but not the server's packages, so the
README's `server = {command = ["python", ...]}` could not start an `mcp` server there.
`server.python = ".venv/bin/python"` (relative to the configuration file) replaces the
command's leading `python`. Run through `pre-commit run`, as users run the hook."""

from __future__ import annotations

import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest
from helpers import ROOT, SERVERS, cli
from hookrepo import HookRepo, commit_all

pytestmark = pytest.mark.timeout(900)


def _server_venv(repo: Path) -> None:
    """The server project's own environment: a real venv whose site-packages reach the test
    environment's (where `mcp` is installed) through a .pth file."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(repo / ".venv")], check=True)
    probe = subprocess.run(
        [
            str(repo / ".venv" / "bin" / "python"),
            "-c",
            "import sysconfig; print(sysconfig.get_path('purelib'))",
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    Path(probe.stdout.strip(), "shared.pth").write_text(sysconfig.get_path("purelib") + "\n")


@pytest.mark.slow_install
def test_server_python_names_the_servers_interpreter(hook_repo: HookRepo, tmp_path: Path) -> None:
    repo = tmp_path / "server"
    repo.mkdir()
    shutil.copy(SERVERS / "release_server.py", repo / "server.py")
    _server_venv(repo)
    (repo / ".gitignore").write_text(".venv/\n")
    got = cli(
        "snapshot",
        "-o",
        "catalog.snapshot.json",
        "--",
        ".venv/bin/python",
        "server.py",
        "1",
        cwd=repo,
    )
    assert got.code == 0, got
    config = repo / "catalogaudit.toml"
    config.write_text(
        'snapshot = "catalog.snapshot.json"\nserver = { command = ["python", "server.py", "1"] }\n'
    )
    commit_all(repo)
    # The README's old advice: `python` is the hook's virtualenv, without `mcp`.
    code, out = hook_repo.run(repo, "catalogaudit-live-diff", "--hook-stage", "manual", "--verbose")
    assert code == 1 and "catalogaudit live diff" in out and "Failed" in out, out
    assert "No module named 'mcp'" in out, out
    config.write_text(
        'snapshot = "catalog.snapshot.json"\n'
        'server = { command = ["python", "server.py", "1"], python = ".venv/bin/python" }\n'
    )
    commit_all(repo)
    code, out = hook_repo.run(repo, "catalogaudit-live-diff", "--hook-stage", "manual", "--verbose")
    assert code == 0 and "Passed" in out, out
    assert "no changes" in out, out


def test_server_python_needs_a_python_command(tmp_path: Path) -> None:
    (tmp_path / "catalogaudit.toml").write_text(
        'snapshot = "c.snapshot.json"\nserver = { command = ["node", "s.js"], python = "py" }\n'
    )
    shutil.copy(
        ROOT / "fixtures" / "real-servers" / "mcp-server-time.snapshot.json",
        tmp_path / "c.snapshot.json",
    )
    got = cli("diff", "--live", cwd=tmp_path)
    assert got.code == 2, got
    assert got.stderr.strip().splitlines()[-1] == (
        "error: server.python replaces the command's leading python; the command starts with 'node'"
    )
