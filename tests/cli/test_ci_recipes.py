"""Every recipe of docs/ci.md, run as written: the `sh` block under each `<!-- recipe: NAME -->`
marker runs in a temporary git repository holding a real MCP server (fixtures/servers/
release_server.py as `server.py`, and the `mcp-server-time` package for the scheduled audit),
with the test environment's `catalogaudit`, `python` and `pre-commit` first on PATH; then the
files the commands wrote are parsed."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
import yaml
from helpers import PYTHON, ROOT, SERVERS

pytestmark = pytest.mark.timeout(900)

DOC = (ROOT / "docs" / "ci.md").read_text(encoding="utf-8")
VENV_BIN = Path(PYTHON).parent
ACTION = yaml.safe_load((ROOT / "action.yml").read_text(encoding="utf-8"))


def recipe(name: str) -> str:
    after = DOC.split(f"<!-- recipe: {name} -->\n", 1)[1]
    assert after.startswith("```sh\n"), name
    return after.removeprefix("```sh\n").split("\n```", 1)[0] + "\n"


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GIT_", "GITHUB_"))}
    env["PATH"] = f"{VENV_BIN}{os.pathsep}{env.get('PATH', '')}"
    env.update(
        GIT_AUTHOR_NAME="t",
        GIT_AUTHOR_EMAIL="t@example.invalid",
        GIT_COMMITTER_NAME="t",
        GIT_COMMITTER_EMAIL="t@example.invalid",
        PRE_COMMIT_COLOR="never",
    )
    env.update(extra)
    return env


def sh(script: str, cwd: Path, **extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["bash", "-eo", "pipefail", "-c", script],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=900,
        env=_env(**extra),
    )


def git(repo: Path, *args: str) -> str:
    proc = subprocess.run(
        ["git", *args], cwd=repo, capture_output=True, text=True, check=True, env=_env()
    )
    return proc.stdout.strip()


def _release(path: Path, release: str) -> None:
    """`server.py` is release_server.py with its default release set: a real code change."""
    text = (SERVERS / "release_server.py").read_text(encoding="utf-8")
    text = text.replace('else "1"', f'else "{release}"')
    assert f'else "{release}"' in text
    path.write_text(text, encoding="utf-8")


def _server_repo(tmp_path: Path, module: str = "server.py") -> Path:
    repo = tmp_path / "repo"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    _release(repo / module, "1")
    run = ["python", module] if module.endswith(".py") else ["python", "-m", module]
    got = sh(f"catalogaudit snapshot -o catalog.snapshot.json -- {' '.join(run)}", repo)
    assert got.returncode == 0, got.stderr
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "release 1")
    return repo


def test_gate_recipe(tmp_path: Path) -> None:
    repo = _server_repo(tmp_path)
    git(repo, "checkout", "-q", "-b", "pr")
    _release(repo / "server.py", "2")  # adds a required input: breaking
    got = sh(recipe("gate"), repo)
    assert got.returncode == 1, got.stderr
    (line,) = [x for x in got.stderr.splitlines() if x.startswith("ci: ")]
    assert re.fullmatch(r"ci: catalog\.snapshot\.json: 1 breaking.*; exit 1", line), line
    summary = (repo / "gate" / "summary.md").read_text()
    assert summary.startswith("<!-- catalogaudit:ci catalog.snapshot.json -->\n")
    assert "CA810" in summary and "failed" in summary.splitlines()[1]
    sarif = json.loads((repo / "gate" / "catalogaudit.sarif").read_text())
    assert sarif["version"] == "2.1.0"
    new = json.loads((repo / "gate" / "new.snapshot.json").read_text())
    assert new["capture"]["transport"] == "stdio" or "listings" in new
    # the cosmetic release passes
    _release(repo / "server.py", "1")
    assert sh(recipe("gate"), repo).returncode == 0


def test_the_action_snippet_uses_real_inputs() -> None:
    block = DOC.split("```yaml\n      - uses: actions/checkout@v4", 1)[1].split("```", 1)[0]
    steps = yaml.safe_load("      - uses: actions/checkout@v4" + block)
    (gate,) = [s for s in steps if str(s.get("uses", "")).startswith("catalogaudit/")]
    assert set(gate["with"]) <= set(ACTION["inputs"])
    tables = DOC.split("| input | default | meaning |", 1)[1].split("\n\n", 1)[0]
    documented = set(re.findall(r"^\| `([a-z-]+)` \|", tables, re.M))
    assert documented == set(ACTION["inputs"]), documented ^ set(ACTION["inputs"])
    outputs = DOC.split("| output | value |", 1)[1].split("\n\n", 1)[0]
    named = set(re.findall(r"`([a-z-]+)`", outputs.split("\n", 2)[2]))
    assert set(ACTION["outputs"]) <= named


def _hook_repo(tmp_path: Path) -> tuple[Path, str]:
    repo = tmp_path / "hooks"
    repo.mkdir()
    for name in ("pyproject.toml", "README.md", "LICENSE", ".pre-commit-hooks.yaml"):
        shutil.copy(ROOT / name, repo / name)
    shutil.copytree(ROOT / "src", repo / "src", ignore=shutil.ignore_patterns("__pycache__"))
    git(repo, "init", "-q", "-b", "main")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "hooks")
    return repo, git(repo, "rev-parse", "HEAD")


def _server_venv(repo: Path) -> None:
    """The project's own environment (`.venv`), whose packages include `mcp` (a .pth file to
    the test environment's site-packages), unlike pre-commit's hook environment."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(repo / ".venv")], check=True)
    code = "import sysconfig; print(sysconfig.get_path('purelib'))"
    probe = subprocess.run(
        [str(repo / ".venv" / "bin" / "python"), "-c", code],
        capture_output=True,
        text=True,
        check=True,
    )
    Path(probe.stdout.strip(), "shared.pth").write_text(sysconfig.get_path("purelib") + "\n")


@pytest.mark.slow_install
def test_pre_commit_recipe(tmp_path: Path) -> None:
    hooks, rev = _hook_repo(tmp_path)
    repo = _server_repo(tmp_path)
    _server_venv(repo)
    config = yaml.safe_load(
        DOC.split("## pre-commit hooks", 1)[1].split("```yaml\n", 1)[1].split("```", 1)[0]
    )
    config["repos"][0].update(repo=str(hooks), rev=rev)
    (repo / ".pre-commit-config.yaml").write_text(yaml.safe_dump(config))
    hooks_section = DOC.split("## pre-commit hooks", 1)[1]
    toml = hooks_section.split("```toml\n", 1)[1].split("```", 1)[0]
    (repo / "pyproject.toml").write_text(toml)
    (repo / ".gitignore").write_text(".venv/\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "hooks")
    env = {"PRE_COMMIT_HOME": str(tmp_path / "pre-commit-home")}
    got = sh("env -u PYTHONPATH bash -eo pipefail -c " + _quote(recipe("pre-commit")), repo, **env)
    out = got.stdout + got.stderr
    assert got.returncode == 0, out
    line = re.compile(r"^(catalogaudit [a-z ]+?)\.+(Passed|Failed)$", re.M)
    verdicts = {m[1]: m[2] for m in line.finditer(out)}
    assert verdicts == {
        "catalogaudit audit": "Passed",
        "catalogaudit canonicalize": "Passed",
        "catalogaudit live diff": "Passed",
    }, out
    assert "no changes" in out


def _quote(script: str) -> str:
    return "'" + script.replace("'", "'\\''") + "'"


def test_schedule_recipes(tmp_path: Path) -> None:
    repo = tmp_path / "ops"
    repo.mkdir()
    _release(repo / "server.py", "1")
    (repo / "servers.txt").write_text("time mcp-server-time\nnotes python server.py\n")
    got = sh(recipe("accept"), repo)
    assert got.returncode == 0, got.stderr
    assert sorted(p.name for p in (repo / "catalogs").iterdir()) == [
        "notes.snapshot.json",
        "time.snapshot.json",
    ]
    got = sh(recipe("schedule"), repo)
    assert got.returncode == 0, got.stderr
    for name in ("time", "notes"):
        report = json.loads((repo / "reports" / f"{name}.diff.json").read_text())
        assert report["changes"] == [] or all(c["level"] == "cosmetic" for c in report["changes"])
        suite = ET.parse(repo / "reports" / f"{name}.junit.xml").getroot()
        assert suite.tag in ("testsuites", "testsuite")
    # the notes server's next release breaks its contract: the job fails and names it
    _release(repo / "server.py", "2")
    got = sh(recipe("schedule"), repo)
    assert got.returncode == 1, got.stderr
    assert (repo / "changed.txt").read_text().split() == ["notes"]
    report = json.loads((repo / "reports" / "notes.diff.json").read_text())
    assert "CA810" in {c["ruleId"] for c in report["changes"]}


def test_gitlab_recipe_is_the_example_job(tmp_path: Path) -> None:
    job = yaml.safe_load((ROOT / "docs" / "examples" / "gitlab-ci.yml").read_text())
    lines = [x for x in job["catalogaudit"]["script"] if "pip install" not in x]
    assert "\n".join(lines) + "\n" == recipe("gitlab")
    reports = job["catalogaudit"]["artifacts"]["reports"]
    assert reports == {
        "junit": "catalogaudit-junit.xml",
        "codequality": ["gl-audit.json", "gl-diff.json"],
    }


def test_gitlab_recipe(tmp_path: Path) -> None:
    repo = _server_repo(tmp_path, module="my_server.py")
    origin = tmp_path / "origin.git"
    subprocess.run(["git", "init", "-q", "--bare", str(origin)], check=True)
    git(repo, "remote", "add", "origin", str(origin))
    git(repo, "push", "-q", "origin", "main")
    git(repo, "checkout", "-q", "-b", "mr")
    env = {"CI_MERGE_REQUEST_TARGET_BRANCH_NAME": "main"}
    got = sh(recipe("gitlab"), repo, **env)
    assert got.returncode == 0, got.stderr
    junit = ET.parse(repo / "catalogaudit-junit.xml").getroot()
    assert junit.tag in ("testsuites", "testsuite")
    for name in ("gl-audit.json", "gl-diff.json"):
        for issue in json.loads((repo / name).read_text()):
            assert {"check_name", "fingerprint", "severity", "description"} <= set(issue)
            assert issue["location"]["path"] and issue["location"]["lines"]["begin"] >= 1
    _release(repo / "my_server.py", "2")
    got = sh(recipe("gitlab"), repo, **env)
    assert got.returncode == 1, got.stderr
    issues = json.loads((repo / "gl-diff.json").read_text())
    (breaking,) = [i for i in issues if i["check_name"] == "CA810"]
    assert breaking["severity"] == "critical"
    # new.snapshot.json is a scratch file of the job: the issue points at the committed snapshot
    assert breaking["location"]["path"] == "catalog.snapshot.json"


def test_fleet_recipe_and_its_matrix(tmp_path: Path) -> None:
    """The fleet recipe on five replayed real servers (two under names Codex sanitizes to
    one); the example workflow's matrix runs the recipe's commands, shard by shard."""
    flow = yaml.safe_load((ROOT / "docs" / "examples" / "catalogaudit-fleet.yml").read_text())
    script = recipe("fleet")
    loop, body = script.split("\n", 2)[:2]
    shards = flow["jobs"]["snapshot"]["strategy"]["matrix"]["shard"]
    assert loop == "for i in " + " ".join(map(str, shards)) + "; do"
    runs = [s["run"] for s in flow["jobs"]["snapshot"]["steps"] if "run" in s]
    total = f"/{len(shards)}"
    assert body.strip().replace("$i", "${{ matrix.shard }}") in runs
    assert total in body
    reports = [s["run"] for s in flow["jobs"]["report"]["steps"] if "run" in s]
    for line in script.splitlines()[3:]:
        assert line in reports, line
    gitlab = yaml.safe_load((ROOT / "docs" / "examples" / "gitlab-ci-fleet.yml").read_text())
    assert gitlab["fleet-snapshot"]["parallel"] == len(shards)
    node = body.strip().replace(f'"$i{total}"', '"$CI_NODE_INDEX/$CI_NODE_TOTAL"')
    assert node.replace("fleet-$i", "fleet-$CI_NODE_INDEX") in gitlab["fleet-snapshot"]["script"]
    assert script.splitlines()[-1] in gitlab["fleet-report"]["script"]
    real = ROOT / "fixtures" / "real-servers"
    servers = {
        name: {"command": "python", "args": ["-m", "catalogaudit", "serve", str(real / stem)]}
        for name, stem in {
            "git": "mcp-server-git.snapshot.json",
            "time": "mcp-server-time.snapshot.json",
            "everything": "server-everything.snapshot.json",
            "notes-a": "server-memory.snapshot.json",
            "notes_a": "server-memory.snapshot.json",
        }.items()
    }
    (tmp_path / ".vscode").mkdir()
    (tmp_path / ".vscode" / "mcp.json").write_text(json.dumps({"servers": servers}))
    got = sh(script, tmp_path)
    assert got.returncode == 1, got.stderr  # Codex: mcp__notes_a__* twice (CA931, error)
    assert sorted(p.name for p in (tmp_path / "shards").iterdir()) == [f"fleet-{i}" for i in shards]
    sarif = json.loads((tmp_path / "fleet.sarif").read_text())
    rules = {r["ruleId"] for run in sarif["runs"] for r in run["results"]}
    assert {"CA931", "CA932"} <= rules
    whole = sh("catalogaudit snapshot --servers .vscode/mcp.json -o whole", tmp_path)
    assert whole.returncode == 0, whole.stderr
    one = sh("catalogaudit audit whole --format json --fail-on never", tmp_path)
    joined = sh("catalogaudit audit shards/fleet-* --format json --fail-on never", tmp_path)
    assert one.stdout == joined.stdout and one.stdout
