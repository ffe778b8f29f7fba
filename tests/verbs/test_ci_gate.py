"""`catalogaudit ci` end to end, as the GitHub Action runs it: a temporary git repository with a
committed snapshot of a real `mcp` server (fixtures/servers/release_server.py), a pull-request
event payload, temporary GITHUB_STEP_SUMMARY and GITHUB_OUTPUT files, and a loopback stand-in
for GitHub's REST API. The first run posts one comment; the second finds it by its marker and
updates it."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path
from typing import Any

import pytest
from helpers import PYTHON, SERVERS, cli, free_port
from helpers.github_api import GitHubStandIn, read_outputs

TOKEN = "ghs_standInToken0123456789abcdefABCDEF"
SERVER = str(SERVERS / "release_server.py")


def _git(repo: Path, *args: str) -> str:
    proc = subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@t", *args],
        cwd=repo,
        capture_output=True,
        text=True,
        check=True,
    )
    return proc.stdout.strip()


@pytest.fixture
def repo(tmp_path: Path) -> tuple[Path, str]:
    """A repository whose main branch commits release 1's snapshot; HEAD is a PR branch."""
    repo = tmp_path / "repo"
    repo.mkdir()
    _git(repo, "init", "-q", "-b", "main")
    got = cli("snapshot", "-o", str(repo / "catalog.snapshot.json"), "--", PYTHON, SERVER, "1")
    assert got.code == 0, got
    _git(repo, "add", "catalog.snapshot.json")
    _git(repo, "commit", "-q", "-m", "release 1")
    base = _git(repo, "rev-parse", "HEAD")
    _git(repo, "checkout", "-q", "-b", "pr")
    (repo / "README").write_text("the PR\n")
    _git(repo, "add", "README")
    _git(repo, "commit", "-q", "-m", "a PR commit")
    return repo, base


def _env(tmp: Path, base: str, api: str, number: int = 7) -> dict[str, str]:
    event = tmp / "event.json"
    event.write_text(json.dumps({"pull_request": {"number": number, "base": {"sha": base}}}))
    for name in ("summary.md", "output.txt"):
        (tmp / name).write_text("")
    return {
        "GITHUB_EVENT_PATH": str(event),
        "GITHUB_STEP_SUMMARY": str(tmp / "summary.md"),
        "GITHUB_OUTPUT": str(tmp / "output.txt"),
        "GITHUB_API_URL": api,
        "GITHUB_REPOSITORY": "octo/server",
        "GITHUB_TOKEN": TOKEN,
        "RUNNER_TEMP": str(tmp / "runner"),
    }


def _outputs(tmp: Path) -> dict[str, str]:
    return read_outputs(tmp / "output.txt")


def _ci(repo: Path, env: dict[str, str], *args: str) -> Any:
    return cli("ci", "--snapshot", "catalog.snapshot.json", *args, cwd=repo, env=env)


def test_breaking_then_cosmetic_posts_then_updates_one_comment(
    repo: tuple[Path, str], tmp_path: Path
) -> None:
    path, base = repo
    with GitHubStandIn(TOKEN) as api:
        api.add(7, "LGTM from a human")
        env = _env(tmp_path, base, api.url)
        # Release 2 adds a required input to `search`: breaking.
        first = _ci(path, env, "--sarif", "--", PYTHON, SERVER, "2")
        assert first.code == 1, first
        out = _outputs(tmp_path)
        assert out["has-breaking"] == "true" and out["model-visible"] == "true", out
        assert out["exit-code"] == "1" and out["findings"] == "0", out
        summary = Path(out["summary-path"]).read_text()
        assert summary == (tmp_path / "summary.md").read_text()
        assert "<!-- catalogaudit:ci catalog.snapshot.json -->" in summary
        assert "CA810" in summary and f"`catalog.snapshot.json` at `{base}`" in summary
        # one page title; the diff and the audit are its sections, the audit's subjects below
        levels = re.findall(r"^(#+) (\S+)", summary, flags=re.M)
        assert levels[0] == ("##", "catalogaudit:") and [h for h, _ in levels].count("##") == 1
        assert ("###", "catalogaudit") in levels and ("###", "catalogaudit:") in levels
        sarif = json.loads(Path(out["sarif-path"]).read_text())
        assert sarif["version"] == "2.1.0"
        assert [r.method for r in api.requests] == ["GET", "GET", "POST"]
        assert all(r.headers["authorization"] == f"Bearer {TOKEN}" for r in api.requests)
        assert api.requests[0].path == "/user"
        assert api.requests[1].path == "/repos/octo/server/issues/7/comments"
        assert api.requests[1].query == {"per_page": ["100"], "page": ["1"]}
        assert "comment created" in first.stderr
        (mine,) = [c for c in api.comments[7] if "catalogaudit:ci" in c["body"]]
        # Release 1.1 spells the annotation hints out at their defaults: cosmetic only.
        for name in ("summary.md", "output.txt"):
            (tmp_path / name).write_text("")
        second = _ci(path, env, "--", PYTHON, SERVER, "1.1")
        assert second.code == 0, second
        out = _outputs(tmp_path)
        assert out["has-breaking"] == "false" and out["model-visible"] == "false", out
        assert out["exit-code"] == "0"
        assert [r.method for r in api.requests] == ["GET", "GET", "POST", "GET", "GET", "PATCH"]
        assert api.requests[5].path == f"/repos/octo/server/issues/comments/{mine['id']}"
        assert len(api.comments[7]) == 2, "a second comment instead of an update"
        assert api.comments[7][0]["body"] == "LGTM from a human"
        assert "CA873" in mine["body"] and "CA810" not in mine["body"]
        assert "comment updated" in second.stderr
    # The token reaches the Authorization header and nothing else.
    written = [first.stdout, first.stderr, second.stdout, second.stderr]
    written += [p.read_text() for p in (tmp_path / "runner").rglob("*") if p.is_file()]
    written += [(tmp_path / n).read_text() for n in ("summary.md", "output.txt")]
    assert not [w for w in written if TOKEN in w]


def test_an_unreachable_api_warns_and_the_verdict_stands(
    repo: tuple[Path, str], tmp_path: Path
) -> None:
    path, base = repo
    env = _env(tmp_path, base, f"http://127.0.0.1:{free_port()}")
    got = _ci(path, env, "--", PYTHON, SERVER, "2")
    assert got.code == 1, got
    warnings = [line for line in got.stderr.splitlines() if line.startswith("warning: pull")]
    assert len(warnings) == 1 and "the verdict stands" in warnings[0], got.stderr
    assert "Traceback" not in got.stderr
    assert _outputs(tmp_path)["has-breaking"] == "true"


def test_an_api_error_status_warns_without_the_token(
    repo: tuple[Path, str], tmp_path: Path
) -> None:
    path, base = repo
    with GitHubStandIn(TOKEN) as api:
        api.fail_with = 403
        env = _env(tmp_path, base, api.url)
        got = _ci(path, env, "--", PYTHON, SERVER, "1")
    assert got.code == 0, got
    assert "HTTP 403: forced failure" in got.stderr and TOKEN not in got.stderr


def test_committed_snapshot_mode_and_a_new_snapshot(repo: tuple[Path, str], tmp_path: Path) -> None:
    """No server given: the PR's committed snapshot is the candidate; a snapshot the PR adds
    has no baseline, so only the audit runs."""
    path, base = repo
    got = cli("snapshot", "-o", str(path / "catalog.snapshot.json"), "--", PYTHON, SERVER, "2")
    assert got.code == 0, got
    env = _env(tmp_path, base, "http://127.0.0.1:9")
    got = _ci(path, env, "--no-comment")
    assert got.code == 1 and _outputs(tmp_path)["has-breaking"] == "true", got
    (path / "other.snapshot.json").write_text((path / "catalog.snapshot.json").read_text())
    got = cli("ci", "--snapshot", "other.snapshot.json", "--no-comment", cwd=path, env=env)
    assert got.code == 0, got
    assert "does not exist at the baseline" in (tmp_path / "summary.md").read_text()


def test_a_shallow_clone_gets_one_error_line(repo: tuple[Path, str], tmp_path: Path) -> None:
    path, _ = repo
    env = _env(tmp_path, "0" * 40, "http://127.0.0.1:9")
    got = _ci(path, env, "--no-comment")
    assert got.code == 2, got
    assert got.stderr.strip().splitlines()[-1].startswith("error: cannot find the merge base")
    assert "fetch-depth: 0" in got.stderr
    assert _outputs(tmp_path)["exit-code"] == "2"
    summary = (tmp_path / "summary.md").read_text()
    assert "errored" in summary and "fetch-depth: 0" in summary, summary


def test_findings_count_at_or_above_fail_on(tmp_path: Path) -> None:
    """A real capture (server-filesystem) with the Codex and Claude Code profiles: warnings
    count only when the audit threshold reaches them. (Claude Code 2.1.258, which refused the
    capture's draft-07 outputSchemas per the reports: 14 CC-SCHEMA-002 warnings.)"""
    repo = tmp_path / "repo"
    repo.mkdir()
    _git(repo, "init", "-q", "-b", "main")
    real = Path(__file__).parents[2] / "fixtures" / "real-servers"
    (repo / "fs.snapshot.json").write_bytes((real / "server-filesystem.snapshot.json").read_bytes())
    _git(repo, "add", ".")
    _git(repo, "commit", "-q", "-m", "accepted")
    profiles = ["--profile", "codex-app,claude-code@2.1.258"]
    results = {}
    for level in ("error", "warning"):
        out = tmp_path / f"{level}.txt"
        got = cli(
            "ci", "--snapshot", "fs.snapshot.json", "--baseline", "HEAD", "--no-comment",
            *profiles, "--audit-fail-on", level, "--out-dir", str(tmp_path / level),
            cwd=repo, env={"GITHUB_OUTPUT": str(out)},
        )  # fmt: skip
        assert out.exists(), got
        values = read_outputs(out)
        results[level] = (got.code, values["findings"], values["exit-code"])
        assert values["has-breaking"] == "false" and values["model-visible"] == "false"
    assert results["error"] == (0, "0", "0")
    code, findings, exit_code = results["warning"]
    assert (code, exit_code) == (1, "1") and int(findings) >= 10, results


def test_runs_that_disagree_fail_the_gate(tmp_path: Path) -> None:
    """`--runs 2` on a server whose bytes change between restarts: the gate fails (exit 1) and
    the summary says why, even with no baseline to diff against."""
    repo = tmp_path / "repo"
    repo.mkdir()
    _git(repo, "init", "-q", "-b", "main")
    (repo / "README").write_text("x\n")
    _git(repo, "add", ".")
    _git(repo, "commit", "-q", "-m", "no snapshot yet")
    server = [PYTHON, str(SERVERS / "unstable_server.py"), str(tmp_path / "count"), "order"]
    outputs = tmp_path / "out.txt"
    got = cli(
        "ci", "--snapshot", "catalog.snapshot.json", "--baseline", "HEAD", "--no-comment",
        "--runs", "2", "--out-dir", str(tmp_path / "ci"), "--", *server,
        cwd=repo, env={"GITHUB_OUTPUT": str(outputs)},
    )  # fmt: skip
    assert got.code == 1, got
    assert read_outputs(outputs)["exit-code"] == "1"
    summary = (tmp_path / "ci" / "summary.md").read_text()
    assert "differed between runs" in summary and "does not exist at the baseline" in summary
