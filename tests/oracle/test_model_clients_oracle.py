"""Differential oracle (issue 35): what Codex 0.169.0, opencode 1.18.33 and Gemini CLI 0.61.0
send the model for each MCP tool, and whether a call of it reaches the server, against their
profiles' `model_view` data.

`verify --client C --model` runs the client against the loopback stand-in of its model API
(OpenAI Responses, Chat Completions, Gemini). Covered: the server-filesystem 2026.8.31 capture
(issue 35's done-when, Codex and opencode; Gemini CLI 0.61.0 refuses a 2025-11-25 server) and
every capture under fixtures/real-servers, one
session over the lattice sample (every kept `tool.inputSchema`/`tool.description` shape,
`helpers.model_sample`), the probe, root-combinator and keyword catalogs, the prompt bytes
over three starts of a server whose key and enum order change per start, and the tools Gemini
CLI leaves out for sharing a name with a built-in tool it denies headless (GCLI-NAME-003).
Every view must equal the profile's prediction and the one recorded in
fixtures/model/clients.observed.json
(`CATALOGAUDIT_RECORD_MODEL=1` rewrites it on purpose), so a change in a client shows even if
a profile change followed it; `tests/verify/test_model_clients_replay.py` replays that record
against the profiles without the clients.

Run with `pytest -m oracle` (any -m that selects them) or CATALOGAUDIT_ORACLE=1.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from pathlib import Path
from typing import Any

import pytest
from helpers import FIXTURES, ROOT, SERVERS, cli, fixture
from helpers.model_sample import write
from helpers.oracle_common import asked_for, not_installed  # noqa: F401 - a fixture

pytestmark = pytest.mark.oracle

MODULES = ROOT / "tests" / "node_modules"
FS = fixture("captures", "server-filesystem-2026.8.31.snapshot.json")
RECORD = FIXTURES / "model" / "clients.observed.json"
#: Client id -> (pinned version, executable under node_modules/.bin).
CLIENTS = {
    "codex": ("0.169.0", "codex"),
    "opencode": ("1.18.33", "opencode"),
    "gemini-cli": ("0.61.0", "gemini"),
}
#: The catalogs of the recorded session, in order (the server names depend on it).
SOURCES = (
    "sample",
    "model/probe-tools.json",
    "model/root-combinators-tools.json",
    "model/keywords-tools.json",
)


def model(client: str, *args: str) -> tuple[int, dict[str, Any]]:
    """One `verify --client C --model --format json` run: exit 0 or 1, never 2."""
    version, binary = CLIENTS[client]
    if not (MODULES / ".bin" / binary).is_file():
        not_installed(f"{client} (npm ci --prefix tests)")
        pytest.skip("npm packages not installed: run `npm ci --prefix tests`")
    result = cli(
        "verify",
        "--client",
        f"{client}@{version}",
        "--client-path",
        str(MODULES),
        "--model",
        "--format",
        "json",
        *args,
        timeout=900,
    )
    assert result.code in (0, 1), str(result)
    return result.code, result.json()


def mismatches(doc: dict[str, Any]) -> list[str]:
    return [
        f"{v['identity']}: {v['offered']}/{v['call']} {json.dumps(v['modelView'])[:200]}, "
        f"predicted {json.dumps(v['predicted'])[:200]} ({v['predictedBecause']})"
        for v in doc["modelViews"]
        if not v["matches"]
    ]


def snapshots(client: str, where: Path) -> list[Path]:
    """The recorded session's catalogs as snapshots, in `SOURCES` order."""
    out = []
    for source in SOURCES:
        raw = (
            write(f"{client}@{CLIENTS[client][0]}", where)
            if source == "sample"
            else (FIXTURES / source)
        )
        snap = where / f"{Path(source).stem}.snapshot.json"
        got = cli("snapshot", "--from", str(raw), "-o", str(snap))
        assert got.code == 0, str(got)
        out.append(snap)
    return out


@pytest.mark.parametrize("client", ["codex", "opencode"])
def test_server_filesystem_capture(client: str) -> None:
    """Issue 35's done-when: every tool's model view and call as the profile predicts."""
    code, doc = model(client, str(FS))
    assert code == 0 and not mismatches(doc), mismatches(doc)
    views = doc["modelViews"]
    served = [t["name"] for t in json.loads(FS.read_text())["listings"]["tools"]["items"]]
    assert sorted(v["identity"] for v in views) == sorted(served) and len(served) == 14
    for v in views:
        assert (v["offered"], v["call"]) == ("inline", "reached"), v
        sent = json.dumps(v["modelView"], separators=(",", ":"), ensure_ascii=False)
        assert hashlib.sha256(sent.encode()).hexdigest() == v["modelViewSha256"]
    name = {
        "codex": "mcp__secure_filesystem_server/{}",
        "opencode": "secure-filesystem-server_{}",
    }[client]
    assert all(v["name"] == name.format(v["identity"]) for v in views)
    schema = {"codex": "parameters", "opencode": "parameters"}[client]
    (read,) = [v for v in views if v["identity"] == "read_file"]
    # Codex drops $schema and every keyword it does not model; opencode keeps them
    assert ("$schema" in read["modelView"][schema]) is (client == "opencode")


@pytest.mark.parametrize("client", ["codex", "opencode"])
def test_real_server_captures(client: str) -> None:
    """Every capture under fixtures/real-servers in one session (Gemini CLI 0.61.0 refuses
    their 2025-11-25 initialize answers; the listing profile does not predict that yet)."""
    captures = sorted((FIXTURES / "real-servers").glob("*.snapshot.json"))
    code, doc = model(client, *map(str, captures))
    assert code == 0 and not mismatches(doc), mismatches(doc)
    assert len(doc["modelViews"]) >= 150
    # opencode's MCP client refuses a task-required tool; Codex calls it
    task = [v for v in doc["modelViews"] if v["identity"] == "simulate-research-query"]
    assert task and {v["call"] for v in task} == {"refused" if client == "opencode" else "reached"}


@pytest.mark.parametrize("client", sorted(CLIENTS))
def test_lattice_sample_and_fixture_catalogs(client: str, tmp_path: Path) -> None:
    """One session over the lattice sample and the probe, root-combinator and keyword
    catalogs: every view, offer and call as predicted, and as recorded."""
    snaps = snapshots(client, tmp_path)
    code, doc = model(client, *map(str, snaps))
    assert code == 0 and not mismatches(doc), mismatches(doc)
    seen = {
        source: {
            v["identity"]: {k: v[k] for k in ("offered", "call", "modelView")}
            for v in doc["modelViews"]
            if v["catalog"] == str(snap)
        }
        for source, snap in zip(SOURCES, snaps, strict=True)
    }
    recorded = json.loads(RECORD.read_text()) if RECORD.exists() else {}
    if os.environ.get("CATALOGAUDIT_RECORD_MODEL") == "1":
        recorded[client] = {"version": CLIENTS[client][0], "catalogs": seen}
        RECORD.write_text(json.dumps(recorded, indent=1, ensure_ascii=False) + "\n")
    assert recorded[client]["catalogs"] == seen


@pytest.mark.parametrize("client", ["codex", "opencode"])
def test_prompt_bytes_over_three_starts(client: str, tmp_path: Path) -> None:
    """The server's schema key order changes per start: opencode sends it as served, Codex
    rebuilds the schema (properties by name), so only the enum's item order reaches it."""
    server = [sys.executable, str(SERVERS / "schema_order_server.py"), str(tmp_path / "n")]
    code, doc = model(client, "--runs", "3", "--", *server)
    assert code == 1 and not mismatches(doc), mismatches(doc)
    prompt = doc["promptBytes"]
    assert prompt["stable"] is False and prompt["starts"] == 3
    changed = {(c["tool"], c["how"]) for c in prompt["changes"]}
    expected = {
        "codex": {("mcp__schema_order/ordered", "item order")},
        "opencode": {
            ("schema-order_ordered", "item order"),
            ("schema-order_shuffled", "key order"),
        },
    }[client]
    assert changed == expected


def test_gemini_cli_builtin_names_and_server_filesystem(tmp_path: Path) -> None:
    """Gemini CLI run headless leaves out a tool named like a built-in tool its policies deny
    (GCLI-NAME-003): server-filesystem's write_file, and the names of the built-ins catalog;
    as predicted, and as recorded in fixtures/model/gemini-builtin-names.observed.json."""
    path = FIXTURES / "model" / "gemini-builtin-names.observed.json"
    record = json.loads(path.read_text())
    names = "model/gemini-builtin-names-tools.json"
    snap = tmp_path / "gemini-builtin-names-tools.snapshot.json"
    assert cli("snapshot", "--from", str(FIXTURES / names), "-o", str(snap)).code == 0
    fs = FIXTURES / "real-servers" / "server-filesystem.snapshot.json"
    code, doc = model("gemini-cli", str(snap), str(fs))
    assert code == 0 and not mismatches(doc), mismatches(doc)
    seen = {
        source: {
            "prompt": doc["prompts"][str(where)],
            "offered": {
                v["identity"]: v["offered"] for v in doc["modelViews"] if v["catalog"] == str(where)
            },
        }
        for source, where in ((names, snap), ("real-servers/" + fs.name, fs))
    }
    if os.environ.get("CATALOGAUDIT_RECORD_MODEL") == "1":
        record["catalogs"] = seen
        path.write_text(json.dumps(record, indent=1) + "\n")
    assert seen == record["catalogs"]
    assert seen["real-servers/" + fs.name]["offered"]["write_file"] == "not-offered"
