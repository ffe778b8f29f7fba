"""Differential oracle: what each model client sends of tools that share a sent name
(fixtures/model/name-collisions-tools.json: two tools named `ok`, `a.b` before `a_b` and
`a b`, `x_y` before `x y`, an empty name before `_`, names of 200 non-ASCII and 300 ASCII
characters), against fixtures/model/name-collisions.observed.json, which
tests/verify/test_name_collisions.py compares the profiles' predictions with.

One `verify --model` session per client, every tool called; its prompt hash must be the one
`hash --client` predicts. `CATALOGAUDIT_RECORD_MODEL=1`
rewrites the record on purpose. Run with `pytest -m oracle` or CATALOGAUDIT_ORACLE=1.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from helpers import FIXTURES, ROOT, cli
from helpers.oracle_common import MODEL_CLIENTS, asked_for, not_installed  # noqa: F401

pytestmark = pytest.mark.oracle

MODULES = ROOT / "tests" / "node_modules"
SOURCE = FIXTURES / "model" / "name-collisions-tools.json"
RECORD = FIXTURES / "model" / "name-collisions.observed.json"
CLIENTS = MODEL_CLIENTS
FIELDS = ("mode", "index", "identity", "offered", "call", "name", "modelView")


@pytest.mark.parametrize("client", sorted(CLIENTS))
def test_tools_that_share_a_sent_name_are_sent_as_recorded(client: str, tmp_path: Path) -> None:
    version, binary = CLIENTS[client]
    if not (MODULES / ".bin" / binary).is_file():
        not_installed(f"{client} (npm ci --prefix tests)")
        pytest.skip("npm packages not installed: run `npm ci --prefix tests`")
    snap = tmp_path / "name-collisions.snapshot.json"
    assert cli("snapshot", "--from", SOURCE, "-o", snap).code == 0
    run = f"{client}@{version}"
    args = ["--client-path", str(MODULES), "--model", "--format", "json"]
    got = cli("verify", "--client", run, *args, snap, timeout=900)
    assert got.code in (0, 1), str(got)
    views = [{k: v[k] for k in FIELDS} for v in got.json()["modelViews"]]
    record = json.loads(RECORD.read_text(encoding="utf-8")) if RECORD.is_file() else {}
    if os.environ.get("CATALOGAUDIT_RECORD_MODEL") == "1":
        record[client] = {"version": version, "server": "catalog0", "views": views}
        RECORD.write_text(json.dumps(dict(sorted(record.items())), indent=1) + "\n")
    assert record[client]["version"] == version
    assert views == record[client]["views"]
    prompt = cli("hash", snap, "--client", run, "--format", "json").json()["clients"][client]
    assert got.json()["prompts"][str(snap)] == prompt["prompt"]
