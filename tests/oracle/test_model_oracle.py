"""Differential oracle (issue 17): what Claude Code 2.1.328 sends the model, and whether a call
of each tool reaches the server, against the claude-code profile's model_view and call data.

`verify --client claude-code --model` runs `claude -p` against the loopback Messages API
stand-in (no key, no model) with tool search off and by default. Covered: a snapshot of
server-filesystem 2026.8.31 (issue 17's done-when: 14 tools inline as mcp__<server>__<name>,
each call reached; by default all deferred behind ToolSearch, loaded with it and called),
the listing-time scenarios B and D, a probe catalog of the model-view rules, root
combinators (flattened, issue 32), the prompt bytes
over three starts of a server of ours whose schema key and enum order change per start
(unstable, naming the tools) and of server-everything (stable), and the real servers
server-filesystem, server-everything, mcp-server-time and mcp-server-git. The profile's
prediction must equal every observation.

Run with `pytest -m oracle` (any -m that selects them) or CATALOGAUDIT_ORACLE=1.
"""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from helpers import FIXTURES, ROOT, SERVERS, cli, fixture
from helpers.oracle_common import (  # noqa: F401 - asked_for is a fixture
    asked_for,
    not_installed,
    scenario_snapshots,
)

pytestmark = pytest.mark.oracle

MODULES = ROOT / "tests" / "node_modules"
BIN = MODULES / ".bin"
VENV_BIN = Path(sys.executable).parent
FS = fixture("captures", "server-filesystem-2026.8.31.snapshot.json")


def _claude() -> None:
    if not (BIN / "claude").is_file():
        not_installed("claude-code (npm ci --prefix tests)")
        pytest.skip("npm packages not installed: run `npm ci --prefix tests`")


def model(*args: str, cwd: Path | None = None) -> tuple[int, dict[str, Any]]:
    """One `verify --client claude-code --model --format json` run: exit 0 or 1, never 2."""
    _claude()
    result = cli(
        "verify",
        "--client",
        "claude-code@2.1.328",
        "--client-path",
        str(MODULES),
        "--model",
        "--format",
        "json",
        *args,
        timeout=600,
        cwd=cwd,
    )
    assert result.code in (0, 1), str(result)
    return result.code, result.json()


def _mismatches(doc: dict[str, Any]) -> list[str]:
    return [
        f"{v['identity']} ({v['mode']}): {v['offered']}/{v['call']}, predicted {v['predicted']}"
        f" ({v['predictedBecause']})"
        for v in doc["modelViews"]
        if not v["matches"]
    ]


def test_server_filesystem_snapshot_inline_then_deferred() -> None:
    """Issue 17's done-when on the 2026.8.31 snapshot."""
    code, doc = model(str(FS))
    assert code == 0 and not _mismatches(doc), _mismatches(doc)
    served = [t["name"] for t in json.loads(FS.read_text())["listings"]["tools"]["items"]]
    assert len(served) == 14
    off = [v for v in doc["modelViews"] if v["mode"] == "tool-search-off"]
    assert sorted(v["identity"] for v in off) == sorted(served)
    for v in off:
        assert v["offered"] == "inline" and v["call"] == "reached"
        assert v["name"] == f"mcp__secure-filesystem-server__{v['identity']}"
        assert list(v["modelView"]) == ["name", "description", "input_schema"]
        sent = json.dumps(v["modelView"], separators=(",", ":"), ensure_ascii=False)
        assert hashlib.sha256(sent.encode()).hexdigest() == v["modelViewSha256"]
        assert v["modelView"]["input_schema"]["$schema"].startswith(
            "http://json-schema.org/draft-07"
        )
    # the draft-07 outputSchema reports (CC-SCHEMA-002): this call reached the server and
    # its structured result came back to the model
    (lad,) = [v for v in off if v["identity"] == "list_allowed_directories"]
    assert json.loads(lad["message"]) == {"content": "a"}
    # by default: named only, loaded through ToolSearch (then with defer_loading), called
    default = [v for v in doc["modelViews"] if v["mode"] == "default"]
    assert [(v["offered"], v["call"]) for v in default] == [("deferred", "reached")] * 14
    assert all(v["modelView"]["defer_loading"] is True for v in default)


def test_scenarios_and_probe(tmp_path: Path) -> None:
    """The listing-time scenario matrix (a failed tool list offers nothing) and the probe of
    the model-view rules: only name/description/input_schema, '' for no description, invalid
    characters renamed, a name over 64 characters sent as is, no description cut."""
    snaps = scenario_snapshots(tmp_path, ["B-array-input-schema", "D-no-input-schema"])
    probe = tmp_path / "probe.json"
    got = cli("snapshot", "--from", str(FIXTURES / "model" / "probe-tools.json"), "-o", str(probe))
    assert got.code == 0, str(got)
    code, doc = model(*map(str, snaps.values()), str(probe))
    assert code == 0 and not _mismatches(doc), _mismatches(doc)
    by = {(v["catalog"], v["identity"], v["mode"]): v for v in doc["modelViews"]}
    for snap in snaps.values():
        rows = [v for v in doc["modelViews"] if v["catalog"] == str(snap)]
        assert rows and all(v["offered"] == "not-offered" for v in rows)
    p = str(probe)
    assert by[(p, "nodesc", "tool-search-off")]["modelView"]["description"] == ""
    dotted = by[(p, "dotted.name with space", "tool-search-off")]
    assert dotted["name"].endswith("__dotted_name_with_space")
    long = by[(p, "longdesc", "tool-search-off")]["modelView"]["description"]
    assert len(long) == 2103 and long.endswith("END")
    over = by[(p, "n" * 70, "tool-search-off")]
    assert len(over["name"]) > 64 and over["call"] == "reached"


def test_root_combinators(tmp_path: Path) -> None:
    """Issue 32: root anyOf/oneOf/allOf and their mixes, flattened as the profile's
    schema_normalize data says; tools Claude Code leaves out (a combinator that is not an
    array, a schema its own 2020-12 check refuses) predicted not offered. Every view must also
    equal the one recorded in fixtures/model/root-combinators.observed.json, so a change in
    Claude Code shows even if a profile change followed it."""
    snap = tmp_path / "rc.json"
    got = cli(
        "snapshot",
        "--from",
        str(FIXTURES / "model" / "root-combinators-tools.json"),
        "-o",
        str(snap),
    )
    assert got.code == 0, str(got)
    code, doc = model(str(snap))
    assert code == 0 and not _mismatches(doc), _mismatches(doc)
    recorded = json.loads((FIXTURES / "model" / "root-combinators.observed.json").read_text())
    for v in doc["modelViews"]:
        seen = recorded["tools"][v["identity"]][v["mode"]]
        assert (v["offered"], v["modelView"]) == (seen["offered"], seen["modelView"]), v["identity"]
    (anyof,) = [
        v for v in doc["modelViews"] if v["identity"] == "anyof" and v["mode"] == "tool-search-off"
    ]
    assert anyof["modelView"]["input_schema"]["required"] == []
    assert anyof["modelView"]["description"].startswith("Input constraint: Provide parameters")


def test_seeded_random_catalogs(tmp_path: Path) -> None:
    """The seeded random catalogs of the listing oracle (helpers.random_catalogs), all in one
    session: names, fields, schemas, deferral and calls as the profile predicts."""
    from helpers.random_catalogs import DEFAULT_SEED, write

    paths = []
    for seed in range(DEFAULT_SEED, DEFAULT_SEED + 6):
        inputs = write(seed, tmp_path / f"random-{seed}")
        if not any(p.name == "tools.json" for p in inputs):
            continue
        out = tmp_path / f"random-{seed}.json"
        got = cli("snapshot", *[a for p in inputs for a in ("--from", str(p))], "-o", str(out))
        assert got.code == 0, str(got)
        paths.append(str(out))
    assert paths
    code, doc = model(*paths)
    assert code == 0 and not _mismatches(doc), f"seeds from {DEFAULT_SEED}: {_mismatches(doc)}"


def test_prompt_bytes_unstable_names_the_tools(tmp_path: Path) -> None:
    counter = tmp_path / "counter"
    server = [sys.executable, str(SERVERS / "schema_order_server.py"), str(counter)]
    code, doc = model("--runs", "3", "--", *server)
    assert code == 1
    prompt = doc["promptBytes"]
    assert prompt["stable"] is False and prompt["starts"] == 3
    changed = {(c["tool"], c["how"]) for c in prompt["changes"]}
    assert changed == {
        ("mcp__schema-order__shuffled", "key order"),
        ("mcp__schema-order__ordered", "item order"),
    }
    assert not _mismatches(doc), _mismatches(doc)


def test_prompt_bytes_server_everything_stable(tmp_path: Path) -> None:
    code, doc = model("--runs", "3", "--", str(BIN / "mcp-server-everything"), "stdio")
    assert code == 0, _mismatches(doc)
    assert doc["promptBytes"]["stable"] is True and doc["promptBytes"]["changes"] == []


def _git_repo(where: Path) -> Path:
    repo = where / "repo"
    repo.mkdir()
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    subprocess.run(
        [
            "git",
            "-C",
            str(repo),
            "-c",
            "user.name=t",
            "-c",
            "user.email=t@invalid",
            "commit",
            "-q",
            "--allow-empty",
            "-m",
            "init",
        ],
        check=True,
    )
    return repo


@pytest.mark.parametrize("server", ["server-filesystem", "mcp-server-time", "mcp-server-git"])
def test_real_servers(server: str, tmp_path: Path) -> None:
    """Every tool as predicted; destructive tools (destructiveHint: true) are not called."""
    commands = {
        "server-filesystem": [str(BIN / "mcp-server-filesystem"), str(tmp_path)],
        "mcp-server-time": [str(VENV_BIN / "mcp-server-time")],
        "mcp-server-git": [
            str(VENV_BIN / "mcp-server-git"),
            "--repository",
            str(_git_repo(tmp_path)),
        ],
    }
    argv = commands[server]
    if not Path(argv[0]).is_file():
        not_installed(server)
        pytest.skip(f"{server} not installed")
    code, doc = model("--", *argv)
    assert code == 0 and not _mismatches(doc), _mismatches(doc)
    off = [v for v in doc["modelViews"] if v["mode"] == "tool-search-off"]
    assert off and all(v["offered"] == "inline" for v in off)
    assert {v["call"] for v in doc["modelViews"]} <= {"reached", "not-called"}
    assert any(v["call"] == "reached" for v in off)
