"""Differential oracle (issue 35): the `tools` bytes each client sends its `verify --model`
stand-in, against fixtures/model/requests.observed.json (which
tests/canonical/test_client_prompt_observed.py compares `hash --client` with).

One session per client over the catalogs the record names, tool search off for Claude Code,
no calls. Each server's part of the fresh request (`helpers.prompt_parts`) must equal the
recorded one, so a client that changes its layout shows here; the clients' own tools may
differ between sessions (Gemini CLI's name a temporary directory) and are not compared.
`CATALOGAUDIT_RECORD_MODEL=1` rewrites the record on purpose. And over lattice shapes where
the client dropped a tool or failed the list, `hash --client` offers what the request carried.

Run with `pytest -m oracle` (any -m that selects them) or CATALOGAUDIT_ORACLE=1.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from helpers import FIXTURES, ROOT, cli
from helpers.lattice_drops import cases as lattice_drops
from helpers.lattice_drops import snapshot
from helpers.oracle_common import MODEL_CLIENTS, asked_for, not_installed  # noqa: F401
from helpers.prompt_parts import mcp_part, server_name

from catalogaudit.intake import read_catalog
from catalogaudit.model import SEARCH_OFF
from catalogaudit.verify import driver, model_view, targets
from catalogaudit.verify import model_clients as clients

pytestmark = pytest.mark.oracle

MODULES = ROOT / "tests" / "node_modules"
RECORD = FIXTURES / "model" / "requests.observed.json"
CLIENTS = MODEL_CLIENTS


def _tools(client: str, sources: list[str], where: Path) -> str:
    """The `tools` text of the first model request that carried the catalogs' tools."""
    version, binary = CLIENTS[client]
    if not (MODULES / ".bin" / binary).is_file():
        not_installed(f"{client} (npm ci --prefix tests)")
        pytest.skip("npm packages not installed: run `npm ci --prefix tests`")
    docs = []
    for source in sources:
        raw = FIXTURES / source
        if "capture" not in json.loads(raw.read_text(encoding="utf-8")):
            snap = where / f"{raw.stem}.snapshot.json"
            assert cli("snapshot", "--from", raw, "-o", snap).code == 0
            raw = snap
        docs.append(read_catalog(str(raw)).doc)
    drv = driver(client, str(MODULES), version)
    assert drv.version() == version
    served = model_view.servers(targets(docs, where), where, ["none"])
    if client == "claude-code":
        run = model_view.session(drv, served, SEARCH_OFF, where)
        main = model_view.main_request(run.requests)
        assert main is not None, run.output[-300:]
        return model_view.tools_text(main)
    return clients.tools_text(client, clients.session(drv, served, where))


@pytest.mark.parametrize("client", sorted(CLIENTS))
def test_each_servers_part_of_the_request_is_as_recorded(client: str, tmp_path: Path) -> None:
    record = json.loads(RECORD.read_text(encoding="utf-8"))
    # Gemini CLI 0.61.0 refuses the real-server captures' initialize answers
    sources = ["model/name-order-tools.json"]
    if client != "gemini-cli":
        sources.append("real-servers/server-everything.snapshot.json")
    tools = _tools(client, sources, tmp_path)
    if os.environ.get("CATALOGAUDIT_RECORD_MODEL") == "1":
        mode = {"mode": SEARCH_OFF} if client == "claude-code" else {}
        entry = {"version": CLIENTS[client][0], **mode, "catalogs": sources, "tools": tools}
        record[client] = entry
        RECORD.write_text(json.dumps(record, indent=1, ensure_ascii=False) + "\n")
    assert record[client]["catalogs"] == sources
    for source in sources:
        server = server_name(client, source)
        fresh = mcp_part(client, tools, server)
        assert fresh != "[]", (source, tools[:300])
        assert fresh == mcp_part(client, record[client]["tools"], server), source


@pytest.mark.parametrize("client", sorted(CLIENTS))
def test_what_the_client_drops_is_left_out_as_verify_model_sees(
    client: str, tmp_path: Path
) -> None:
    """Lattice shapes where the client dropped a tool or failed the list (the ledger), in
    one `verify --model` session: per catalog, the tools `hash --client` offers inline are
    the ones the client's model request carried (as a set: two tools of one name are one
    name in the request, so `verify --model` cannot tell them apart)."""
    version, binary = CLIENTS[client]
    if not (MODULES / ".bin" / binary).is_file():
        not_installed(f"{client} (npm ci --prefix tests)")
        pytest.skip("npm packages not installed: run `npm ci --prefix tests`")
    run = f"{client}@{version}"
    snaps = [snapshot(shape, tmp_path) for shape, _ in lattice_drops(run, 3)]
    # a catalog the client keeps, so some model request carries MCP tools
    kept = tmp_path / "name-order.snapshot.json"
    source = FIXTURES / "model" / "name-order-tools.json"
    assert cli("snapshot", "--from", source, "-o", kept).code == 0
    snaps.append(kept)
    got = cli(
        "verify",
        "--client",
        run,
        "--client-path",
        str(MODULES),
        "--model",
        "--calls",
        "none",
        "--format",
        "json",
        *map(str, snaps),
        timeout=900,
    )
    assert got.code in (0, 1), str(got)
    mode = SEARCH_OFF if client == "claude-code" else "default"
    seen: dict[str, list[str]] = {}
    for view in got.json()["modelViews"]:
        if view["mode"] == mode and view["offered"] == "inline":
            seen.setdefault(view["catalog"], []).append(view["identity"])
    wrong = []
    for snap in snaps:
        prompt = cli("hash", snap, "--client", run, "--format", "json").json()["clients"][client]
        mine = {t["identity"] for t in prompt["tools"] if t["offered"] == "inline"}
        if mine != set(seen.get(str(snap), [])):
            wrong.append(f"{snap.name}: hash offers {mine}, the request had {seen.get(str(snap))}")
    assert not wrong, wrong


@pytest.mark.parametrize("client", sorted(CLIENTS))
def test_the_observed_prompt_hash_is_predicted(client: str, tmp_path: Path) -> None:
    """`verify --model`'s prompt per catalog (its server's part of the first model request)
    equals `hash --client`'s, on the name-order catalog and server-filesystem 2026.8.31 (not
    for Gemini CLI, which refuses that capture)."""
    version, binary = CLIENTS[client]
    if not (MODULES / ".bin" / binary).is_file():
        not_installed(f"{client} (npm ci --prefix tests)")
        pytest.skip("npm packages not installed: run `npm ci --prefix tests`")
    run = f"{client}@{version}"
    snaps = [tmp_path / "name-order.snapshot.json"]
    source = FIXTURES / "model" / "name-order-tools.json"
    assert cli("snapshot", "--from", source, "-o", snaps[0]).code == 0
    if client != "gemini-cli":
        snaps.append(FIXTURES / "captures" / "server-filesystem-2026.8.31.snapshot.json")
    args = ["--client-path", str(MODULES), "--model", "--calls", "none", "--format", "json"]
    got = cli("verify", "--client", run, *args, *map(str, snaps), timeout=900)
    assert got.code == 0, str(got)
    seen = got.json()["prompts"]
    for snap in snaps:
        prompt = cli("hash", snap, "--client", run, "--format", "json").json()["clients"][client]
        assert prompt["inline"] > 0 and seen[str(snap)] == prompt["prompt"], snap.name
