"""The GitHub Action (`action.yml`) and the example workflows: validated offline against the
schemas check-jsonschema vendors, and the composite action's steps run for real, the way a
runner runs them: its `${{ }}` expressions filled in from inputs, the install step installing
catalogaudit from the action's own checkout into a fresh venv, the gate step calling
`catalogaudit ci` against a loopback stand-in for GitHub's REST API."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml
from helpers import PYTHON, ROOT, SERVERS, cli
from helpers.github_api import GitHubStandIn, read_outputs

CHECK = str(Path(PYTHON).parent / "check-jsonschema")
EXAMPLES = ROOT / "docs" / "examples"
ACTION = yaml.safe_load((ROOT / "action.yml").read_text(encoding="utf-8"))
TOKEN = "ghs_actionStandIn0123456789abcdefABCDEF"


def _offline() -> list[str]:
    """`unshare -n` (a network namespace with no network) where it works: proves offline."""
    if shutil.which("unshare"):
        probe = subprocess.run(["unshare", "-n", "true"], capture_output=True)
        if probe.returncode == 0:
            return ["unshare", "-n"]
    return []


@pytest.mark.parametrize(
    ("schema", "files"),
    [
        ("vendor.github-actions", ["action.yml"]),
        ("vendor.github-workflows", sorted(str(p) for p in EXAMPLES.glob("catalogaudit-*.yml"))),
        ("vendor.gitlab-ci", ["docs/examples/gitlab-ci.yml", "docs/examples/gitlab-ci-fleet.yml"]),
    ],
)
def test_validates_offline(schema: str, files: list[str]) -> None:
    assert files
    proc = subprocess.run(
        [*_offline(), CHECK, "--builtin-schema", schema, *files],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "ok -- validation done" in proc.stdout


def test_ci_run_validates_them() -> None:
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "--builtin-schema vendor.github-actions action.yml" in ci
    assert "--builtin-schema vendor.github-workflows docs/examples/catalogaudit-" in ci
    assert "--builtin-schema vendor.gitlab-ci docs/examples/gitlab-ci.yml" in ci


def test_the_action_is_composite_and_installs_its_own_checkout() -> None:
    assert ACTION["runs"]["using"] == "composite"
    install = ACTION["runs"]["steps"][0]["run"]
    assert 'pip install --disable-pip-version-check -q "$GITHUB_ACTION_PATH"' in install
    want = {"has-breaking", "model-visible", "findings", "exit-code", "summary-path"}
    assert want <= set(ACTION["outputs"])
    # Inputs reach the script through env only (no `${{ }}` inside `run:`: script injection).
    for step in ACTION["runs"]["steps"]:
        assert "${{" not in step["run"], step["name"]


def _expand(value: str, scope: dict[str, Any]) -> str:
    def one(m: re.Match[str]) -> str:
        node: Any = scope
        for part in m[1].strip().split("."):
            node = node.get(part, "") if isinstance(node, dict) else ""
        return str(node)

    return re.sub(r"\$\{\{([^}]*)\}\}", one, value)


def _run_action(inputs: dict[str, str], cwd: Path, env: dict[str, str]) -> dict[str, str]:
    """Run action.yml's steps as a runner does; return the action's outputs and exit codes."""
    scope: dict[str, Any] = {"github": {"token": env["GITHUB_TOKEN"]}, "steps": {}}
    defaults = {k: _expand(str(v.get("default", "")), scope) for k, v in ACTION["inputs"].items()}
    scope["inputs"] = {**defaults, **inputs}
    base = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    codes: list[int] = []
    for i, step in enumerate(ACTION["runs"]["steps"]):
        out_file = Path(env["RUNNER_TEMP"]) / f"step{i}.out"
        out_file.write_text("")
        step_env = {k: _expand(str(v), scope) for k, v in (step.get("env") or {}).items()}
        where = cwd / _expand(step.get("working-directory", "."), scope)
        proc = subprocess.run(
            ["bash", "-e", "-c", step["run"]],
            cwd=where,
            env={**base, **env, **step_env, "GITHUB_OUTPUT": str(out_file)},
            capture_output=True,
            text=True,
            timeout=600,
        )
        codes.append(proc.returncode)
        scope["steps"][step.get("id", f"s{i}")] = {
            "outputs": read_outputs(out_file),
            "stderr": proc.stderr,
        }
        if proc.returncode != 0 and step.get("id") != "gate":
            raise AssertionError(f"step {step['name']} failed:\n{proc.stdout}\n{proc.stderr}")
    outputs = {k: _expand(v["value"], scope) for k, v in ACTION["outputs"].items()}
    return {**outputs, "codes": json.dumps(codes), "stderr": scope["steps"]["gate"]["stderr"]}


def _git(repo: Path, *args: str) -> str:
    proc = subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@t", *args],
        cwd=repo,
        capture_output=True,
        text=True,
        check=True,
    )
    return proc.stdout.strip()


@pytest.mark.slow_install
def test_the_composite_action_runs_for_real(tmp_path: Path) -> None:
    server = SERVERS / "release_server.py"
    repo = tmp_path / "repo"
    (repo / "mcp").mkdir(parents=True)
    _git(repo, "init", "-q", "-b", "main")
    snap = repo / "mcp" / "catalog.snapshot.json"
    got = cli("snapshot", "-o", str(snap), "--", PYTHON, str(server), "1")
    assert got.code == 0, got
    _git(repo, "add", ".")
    _git(repo, "commit", "-q", "-m", "release 1")
    base = _git(repo, "rev-parse", "HEAD")
    _git(repo, "checkout", "-q", "-b", "pr")
    runner = tmp_path / "runner"
    runner.mkdir()
    event = tmp_path / "event.json"
    event.write_text(json.dumps({"pull_request": {"number": 3, "base": {"sha": base}}}))
    summary = tmp_path / "summary.md"
    summary.write_text("")
    with GitHubStandIn(TOKEN) as api:
        env = {
            "GITHUB_ACTION_PATH": str(ROOT),
            "GITHUB_EVENT_PATH": str(event),
            "GITHUB_STEP_SUMMARY": str(summary),
            "GITHUB_API_URL": api.url,
            "GITHUB_REPOSITORY": "octo/gateway",
            "GITHUB_TOKEN": TOKEN,
            "RUNNER_TEMP": str(runner),
        }
        inputs = {
            "command": f"{PYTHON} {server} 2",
            "working-directory": "mcp",
            "snapshot": "catalog.snapshot.json",
            "sarif": "true",
            "profiles": "openai-strict",  # OAI-STRICT-001 on `search`: a SARIF result
            "fail-on": "never",
            "python": PYTHON,
        }
        out = _run_action(inputs, repo, env)
        assert json.loads(out["codes"]) == [0, 1], out["stderr"]
        assert out["has-breaking"] == "true" and out["model-visible"] == "true", out
        assert out["exit-code"] == "1" and out["findings"] == "0"
        assert Path(out["summary-path"]).read_text() == summary.read_text()
        sarif = json.loads(Path(out["sarif-path"]).read_text())
        assert sarif["version"] == "2.1.0"
        # code scanning resolves locations from the repository's root, not working-directory
        uris = {
            loc["physicalLocation"]["artifactLocation"]["uri"]
            for result in sarif["runs"][0]["results"]
            for loc in result.get("locations", [])
        }
        assert uris == {"mcp/catalog.snapshot.json"}
        # GET /user (refused for an installation token), the listing, the new comment.
        assert [(r.method, r.path.split("/")[-1]) for r in api.requests] == [
            ("GET", "user"),
            ("GET", "comments"),
            ("POST", "comments"),
        ]
        (comment,) = api.comments[3]
        assert comment["body"].startswith("<!-- catalogaudit:ci catalog.snapshot.json -->")
        inputs["command"] = f"{PYTHON} {server} 1.1"
        out = _run_action(inputs, repo, env)
        assert json.loads(out["codes"]) == [0, 0], out["stderr"]
        assert out["has-breaking"] == "false" and out["model-visible"] == "false", out
        assert [r.method for r in api.requests] == ["GET", "GET", "POST", "GET", "GET", "PATCH"]
        assert len(api.comments[3]) == 1
