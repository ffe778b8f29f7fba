"""`audit DIR` on a fleet built to break client limits: ten servers (replays of real servers'
captures by `catalogaudit serve`), two of them the same server under names that differ only
in a character Codex sanitizes (`notes-a`, `notes_a`), 137 tools in all. And `--shard I/N`:
two shards cover the fleet exactly once, and the shards' directories audited together give
the report the unsharded directory gives, in every format."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers import FIXTURES, PYTHON, ROOT, cli

REAL = FIXTURES / "real-servers"
FLEET = {
    "chart": "antv-mcp-server-chart",
    "docs": "context7-mcp",
    "git": "mcp-server-git",
    "time": "mcp-server-time",
    "notion": "notion-mcp-server",
    "browser": "playwright-mcp",
    "everything": "server-everything",
    "files": "server-filesystem",
    "notes-a": "server-memory",
    "notes_a": "server-memory",
}


@pytest.fixture(scope="module")
def fleets(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The fleet captured whole (`all/`) and in two shards (`s1/`, `s2/`)."""
    root = tmp_path_factory.mktemp("fleet")
    servers = {
        name: {
            "command": PYTHON,
            "args": ["-m", "catalogaudit", "serve", str(REAL / f"{stem}.snapshot.json")],
        }
        for name, stem in FLEET.items()
    }
    config = root / "mcp.json"
    config.write_text(json.dumps({"servers": servers}), encoding="utf-8")
    for out, shard in (("all", None), ("s1", "1/2"), ("s2", "2/2")):
        args = ["snapshot", "--servers", config, "--jobs", "4", "-o", root / out]
        got = cli(*args, *(["--shard", shard] if shard else []), timeout=300)
        assert got.code == 0, str(got)
    return root


def _rows(d: Path) -> list[str]:
    return [r["name"] for r in json.loads((d / "fleet.json").read_text())["rows"]]


def test_two_shards_cover_the_fleet_exactly_once(fleets: Path) -> None:
    one, two = _rows(fleets / "s1"), _rows(fleets / "s2")
    assert not set(one) & set(two)
    assert sorted(one + two) == sorted(FLEET) == _rows(fleets / "all")
    assert abs(len(one) - len(two)) <= 1
    for d in ("s1", "s2"):
        names = {p.name for p in (fleets / d).glob("*.snapshot.json")}
        assert len(names) == len(_rows(fleets / d))


@pytest.mark.parametrize("fmt", ["json", "text", "sarif", "markdown", "junit", "github", "gitlab"])
def test_the_joined_shards_give_the_unsharded_report(fleets: Path, fmt: str) -> None:
    whole = cli("audit", fleets / "all", "--format", fmt, "--color", "never")
    joined = cli("audit", fleets / "s2", fleets / "s1", "--format", fmt, "--color", "never")
    assert whole.code == joined.code == 1, str(whole)
    assert whole.stdout == joined.stdout


def test_the_fleet_report_has_the_collision_and_the_counts(fleets: Path) -> None:
    got = cli("audit", fleets / "all", "--format", "json")
    findings = [f for f in got.json()["findings"] if f["listing"] == "fleet"]
    collisions = [f for f in findings if f["ruleId"] == "CA931"]
    codex = [f for f in collisions if f["identity"].startswith("codex@")]
    # every memory tool twice: mcp__notes_a__<tool> for both servers under Codex
    assert len(codex) == 9
    assert all(f["excerpt"].startswith("mcp__notes_a__") for f in codex)
    assert "'notes-a'" in codex[0]["message"] and "'notes_a'" in codex[0]["message"]
    # Claude Code keeps '-': the two names stay apart
    assert not [f for f in collisions if f["identity"].startswith("claude-code@")]
    # the Docker MCP gateway does not qualify: the same tools collide by their own names
    assert len([f for f in collisions if f["identity"].startswith("docker-mcp-gateway")]) == 9
    counts = {f["ruleId"]: f for f in findings if f["ruleId"].endswith(("COUNT-001", "COUNT-002"))}
    assert {"WSF-COUNT-001", "VSC-COUNT-001", "CUR-COUNT-001"} <= set(counts)
    assert "137 tools" in counts["WSF-COUNT-001"]["message"]
    assert counts["WSF-COUNT-001"]["severity"] == "warning"
    assert counts["VSC-COUNT-001"]["severity"] == "error"


def test_profiles_narrow_the_clients(fleets: Path) -> None:
    got = cli("audit", fleets / "all", "--profile", "codex", "--format", "json")
    clients = {f["identity"] for f in got.json()["findings"] if f["listing"] == "fleet"}
    assert clients == {"codex@0.169.0"}
    got = cli(
        "audit", fleets / "all", "--profile", "windsurf", "--ignore", "CA932", "--format", "json"
    )
    (only,) = [f for f in got.json()["findings"] if f["listing"] == "fleet"]
    assert only["ruleId"] == "WSF-COUNT-001"


def test_one_shard_alone_says_so_and_bad_joins_are_refused(fleets: Path, tmp_path: Path) -> None:
    got = cli("audit", fleets / "s1", "--format", "json", "--fail-on", "never")
    assert got.code == 0
    assert any("shard 1/2" in n for n in got.json()["notes"])
    twice = cli("audit", fleets / "s1", fleets / "s1")
    assert twice.code == 2 and "exactly once" in twice.stderr
    mixed = cli("audit", fleets / "all", fleets / "s1")
    assert mixed.code == 2 and mixed.stderr.startswith("error: ")
    other = tmp_path / "other"
    other.mkdir()
    manifest = json.loads((fleets / "s2" / "fleet.json").read_text())
    (other / "fleet.json").write_text(json.dumps({**manifest, "fleet": "0" * 16}))
    got = cli("audit", fleets / "s1", other)
    assert got.code == 2 and "different fleets" in got.stderr


def test_the_fleet_report_validates_as_an_audit_document(fleets: Path) -> None:
    import jsonschema

    schema = json.loads(
        (ROOT / "src" / "catalogaudit" / "formatters" / "schemas" / "audit.schema.json").read_text()
    )
    doc = cli("audit", fleets / "all", "--format", "json").json()
    jsonschema.Draft202012Validator(schema).validate(doc)
    assert doc["inputs"][-1] == "fleet.json"


def test_worker_processes_give_the_one_process_report(fleets: Path) -> None:
    one = cli("audit", fleets / "all", "--format", "json", "--jobs", "1")
    forked = cli("audit", fleets / "all", "--format", "json", "--jobs", "3")
    assert one.code == forked.code == 1
    assert one.stdout == forked.stdout
