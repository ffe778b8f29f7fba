"""The profiles' `model_view` prediction for tools that share a sent name, against what the
real clients sent (fixtures/model/name-collisions.observed.json, recorded by
tests/oracle/test_name_collisions_oracle.py with `verify --model`, 2026-12-07): Claude Code
and Codex send the first tool of a name, opencode and Gemini CLI the last, and verify sees
every tool of the name as that one object; Codex sends names that meet only after sanitizing
(`a.b`, `a_b` and `a b`; `x_y` and `x y`; an empty name and `_`) and names too long each with a
SHA-1 suffix of its own."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from helpers import FIXTURES, cli

from catalogaudit.intake import read_catalog
from catalogaudit.verify.base import targets
from catalogaudit.verify.predict_model import predict_views

SOURCE = FIXTURES / "model" / "name-collisions-tools.json"
RECORD = json.loads((FIXTURES / "model" / "name-collisions.observed.json").read_text())


@pytest.fixture(scope="module")
def snapshot(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    snap = tmp_path_factory.mktemp("collisions") / "name-collisions.snapshot.json"
    assert cli("snapshot", "--from", str(SOURCE), "-o", str(snap)).code == 0
    return read_catalog(str(snap)).doc


@pytest.mark.parametrize("client", sorted(RECORD))
def test_each_tool_of_a_shared_name_is_predicted_as_sent(
    client: str, snapshot: dict[str, Any], tmp_path: Path
) -> None:
    entry = RECORD[client]
    (target,) = targets([snapshot], tmp_path)
    names = frozenset(str(i.value["name"]) for i in target.catalog.items("tools"))
    profile = f"{client}@{entry['version']}"
    got: dict[str, Any] = {}
    wrong = []
    for seen in entry["views"]:
        if seen["mode"] not in got:
            got[seen["mode"]] = predict_views(target, entry["server"], profile, seen["mode"], names)
        p = got[seen["mode"]][seen["index"]]
        if (p.offered, p.call, p.view) != (seen["offered"], seen["call"], seen["modelView"]):
            wrong.append((seen["mode"], seen["index"], p.offered, p.view))
    assert not wrong, wrong


def test_the_record_shows_first_and_last() -> None:
    """The record itself: which tool's description each client sent under the name `ok`."""
    sent = {
        client: {
            str(v["modelView"].get("description"))
            for v in entry["views"]
            if v["identity"] == "ok" and v["modelView"]
        }
        for client, entry in RECORD.items()
    }
    first, last = {"First of two tools named ok."}, {"Second of two tools named ok."}
    assert sent == {"claude-code": first, "codex": first, "gemini-cli": last, "opencode": last}
    codex = {v["identity"]: v["name"] for v in RECORD["codex"]["views"]}
    assert codex["a.b"] == "mcp__catalog0/a_b_f76ec3e0b9c1" and codex["alone"].endswith("/alone")
