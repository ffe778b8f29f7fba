"""The shipped `.pre-commit-hooks.yaml`, run through `pre-commit run` on temporary git
repositories: each hook green on a clean fixture and red on a broken one.

The hook repository is a temporary git copy of the working tree (pyproject, README, src and
the manifest), so the test exercises exactly the files in this checkout, committed or not; it
and the pre-commit store are shared by a worker's hook tests (conftest.py), so the hook's
environment is built once per worker.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
import yaml
from helpers import FIXTURES, PYTHON, ROOT, cli
from hookrepo import HookRepo, commit_all

MANIFEST = ROOT / ".pre-commit-hooks.yaml"
VENV_BIN = Path(PYTHON).parent


def hooks() -> list[dict[str, object]]:
    loaded = yaml.safe_load(MANIFEST.read_text(encoding="utf-8"))
    assert isinstance(loaded, list)
    return loaded


def fixture_repo(tmp_path: Path, case: str) -> Path:
    repo = tmp_path / case
    shutil.copytree(FIXTURES / "hooks" / case, repo)
    commit_all(repo)
    return repo


def verdicts(output: str) -> dict[str, str]:
    """`catalogaudit audit....Passed` lines as {hook name: Passed|Failed|Skipped}."""
    out: dict[str, str] = {}
    for line in output.splitlines():
        for verdict in ("Passed", "Failed", "(no files to check)Skipped"):
            if line.endswith(verdict) and line.startswith("catalogaudit "):
                out[line.split(".")[0]] = verdict.removeprefix("(no files to check)")
    return out


def _canonicalize_ready() -> None:
    got = cli("canonicalize", "--help")
    if got.code != 0:
        pytest.skip("`catalogaudit canonicalize` is not registered yet (commands/canonical.py)")


# --- the manifest ------------------------------------------------------------------------------


def test_manifest_is_valid_for_pre_commit() -> None:
    from pre_commit.clientlib import load_manifest

    loaded = load_manifest(str(MANIFEST))
    assert [h["id"] for h in loaded] == [
        "catalogaudit-audit",
        "catalogaudit-canonicalize",
        "catalogaudit-live-diff",
    ]
    by_id = {h["id"]: h for h in hooks()}
    assert by_id["catalogaudit-audit"]["entry"] == "catalogaudit audit --fail-on error"
    assert by_id["catalogaudit-canonicalize"]["entry"] == "catalogaudit canonicalize --in-place"
    live = by_id["catalogaudit-live-diff"]
    assert live["entry"] == "catalogaudit diff --live"
    assert (live["pass_filenames"], live["always_run"], live["stages"]) == (False, True, ["manual"])
    for hook in hooks():
        assert hook["language"] == "python"
        if hook["id"] != "catalogaudit-live-diff":
            assert hook["files"] == r"\.snapshot\.json$"
            assert "stages" not in hook  # offline hooks run at commit time


@pytest.mark.parametrize(
    ("path", "matches"),
    [
        ("catalog.snapshot.json", True),
        ("servers/fs/github.snapshot.json", True),
        ("catalog.json", False),
        ("catalog.snapshot.json.bak", False),
        ("snapshot.json", False),
    ],
)
def test_files_pattern(path: str, matches: bool) -> None:
    import re

    pattern = next(h["files"] for h in hooks() if h["id"] == "catalogaudit-audit")
    assert isinstance(pattern, str)
    assert bool(re.search(pattern, path)) is matches


def test_every_hook_id_is_documented() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    missing = [h["id"] for h in hooks() if str(h["id"]) not in text]
    assert not missing, f"README.md does not mention {missing}"


@pytest.mark.parametrize("page", ["README.md", "docs/pre-commit.md"])
def test_documented_config_is_the_shipped_hooks(page: str) -> None:
    """The copy-paste .pre-commit-config.yaml in the README and the hooks page names real
    hook ids."""
    text = (ROOT / page).read_text(encoding="utf-8")
    section = text.split("# pre-commit hooks", 1)[1]
    block = section.split("```yaml\n", 1)[1].split("```", 1)[0]
    config = yaml.safe_load(block)
    ids = {h["id"] for repo in config["repos"] for h in repo["hooks"]}
    assert ids == {str(h["id"]) for h in hooks()}


# --- the hooks, through pre-commit run ------------------------------------------------------


@pytest.mark.slow_install
def test_audit_hook_green_on_clean_red_on_broken(hook_repo: HookRepo, tmp_path: Path) -> None:
    clean = fixture_repo(tmp_path, "clean")
    code, out = hook_repo.run(clean, "catalogaudit-audit")
    assert (code, verdicts(out)) == (0, {"catalogaudit audit": "Passed"}), out

    broken = fixture_repo(tmp_path, "audit-error")
    code, out = hook_repo.run(broken, "catalogaudit-audit")
    assert (code, verdicts(out)) == (1, {"catalogaudit audit": "Failed"}), out
    assert "CA401" in out and "list_rows" in out

    # profiles come from the configuration: the clean catalog's `;` fails ContextForge 1.0.0rc1
    configured = fixture_repo(tmp_path, "profile-from-config")
    code, out = hook_repo.run(configured, "catalogaudit-audit")
    assert (code, verdicts(out)) == (1, {"catalogaudit audit": "Failed"}), out
    assert "CF-DESC-001" in out and "context-forge@1.0.0rc1" in out


@pytest.mark.slow_install
def test_canonicalize_hook_green_on_clean_red_on_rewritten(
    hook_repo: HookRepo, tmp_path: Path
) -> None:
    _canonicalize_ready()
    clean = fixture_repo(tmp_path, "clean")
    before = (clean / "catalog.snapshot.json").read_bytes()
    code, out = hook_repo.run(clean, "catalogaudit-canonicalize")
    assert (code, verdicts(out)) == (0, {"catalogaudit canonicalize": "Passed"}), out
    assert (clean / "catalog.snapshot.json").read_bytes() == before

    messy = fixture_repo(tmp_path, "not-canonical")
    code, out = hook_repo.run(messy, "catalogaudit-canonicalize")
    assert (code, verdicts(out)) == (1, {"catalogaudit canonicalize": "Failed"}), out
    # like other fixers: the file was rewritten into the written form, which equals clean's
    assert (messy / "catalog.snapshot.json").read_bytes() == before


def _time_repo(tmp_path: Path, name: str) -> tuple[Path, Path]:
    server = VENV_BIN / "mcp-server-time"
    if not server.exists():
        pytest.fail(f"{server} missing: the test extra installs mcp-server-time")
    repo = tmp_path / name
    repo.mkdir()
    snap = repo / "time.snapshot.json"
    got = cli("snapshot", "-o", str(snap), "--", str(server), cwd=repo)
    assert got.code == 0, got
    (repo / "catalogaudit.toml").write_text(
        f'snapshot = "time.snapshot.json"\nserver = {{command = [{json.dumps(str(server))}]}}\n'
    )
    return repo, snap


@pytest.mark.slow_install
def test_live_diff_hook_green_when_unchanged_red_when_the_server_lost_a_tool(
    hook_repo: HookRepo, tmp_path: Path
) -> None:
    same, _ = _time_repo(tmp_path, "same")
    commit_all(same)
    code, out = hook_repo.run(same, "catalogaudit-live-diff", "--hook-stage", "manual", "--verbose")
    assert (code, verdicts(out)) == (0, {"catalogaudit live diff": "Passed"}), out
    assert "no changes" in out

    drifted, snap = _time_repo(tmp_path, "drifted")
    _add_committed_tool(snap)
    commit_all(drifted)
    code, out = hook_repo.run(drifted, "catalogaudit-live-diff", "--hook-stage", "manual")
    assert (code, verdicts(out)) == (1, {"catalogaudit live diff": "Failed"}), out
    assert "retired_tool" in out

    # manual stage: a commit-time run does not start the server
    code, out = hook_repo.run(drifted, "catalogaudit-live-diff")
    assert "No hook with id `catalogaudit-live-diff` in stage `pre-commit`" in out, out


def _add_committed_tool(snap: Path) -> None:
    """The committed catalog has a tool the live server no longer serves (breaking)."""
    from catalogaudit.model import jsonwire
    from catalogaudit.snapshots import build as s

    doc = jsonwire.loads(snap.read_text())
    rec = doc["listings"]["tools"]
    tool = {"name": "retired_tool", "description": "Gone.", "inputSchema": {"type": "object"}}
    served = [*rec["items"], tool]
    page_fields = rec["hashes"]["pageFields"]
    rec.update(s.items_record("tools", served))
    rec["hashes"]["pageFields"] = page_fields
    rec["pages"][0]["items"] = len(served)
    doc.pop("wire")
    doc["capture"]["wire"] = "omitted"
    doc["capture"]["wireLost"] = s.WIRE_LOST
    doc["hashes"] = s.catalog_hashes(doc["listings"], doc["capture"].get("instructions"))
    assert not s.validate(doc)
    snap.write_text(s.render(doc))
