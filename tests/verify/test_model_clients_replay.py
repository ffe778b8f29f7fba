"""The model views Codex, opencode and Gemini CLI were measured sending (issue 35,
fixtures/model/clients.observed.json, recorded by tests/oracle/test_model_clients_oracle.py)
against their profiles, without the clients: per tool, how it was offered, what a call came
to and the object sent must equal the `model_view` prediction. A profile change that
contradicts a measurement fails here."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from helpers import FIXTURES, cli
from helpers.model_sample import write

from catalogaudit.intake import read_catalog
from catalogaudit.verify.base import targets
from catalogaudit.verify.model_view import server_names, to_call
from catalogaudit.verify.predict_model import predict_views

RECORD = json.loads((FIXTURES / "model" / "clients.observed.json").read_text(encoding="utf-8"))


def _snapshot(run: str, source: str, where: Path) -> Path:
    raw = write(run, where) if source == "sample" else FIXTURES / source
    snap = where / f"{Path(source).stem}.snapshot.json"
    assert cli("snapshot", "--from", str(raw), "-o", str(snap)).code == 0
    return snap


@pytest.mark.parametrize("client", sorted(RECORD))
def test_recorded_views_are_predicted(client: str, tmp_path: Path) -> None:
    run = f"{client}@{RECORD[client]['version']}"
    sources = list(RECORD[client]["catalogs"])
    found = targets([read_catalog(str(_snapshot(run, s, tmp_path))).doc for s in sources], tmp_path)
    wrong: list[str] = []
    for source, target, server in zip(sources, found, server_names(found), strict=True):
        recorded: dict[str, Any] = RECORD[client]["catalogs"][source]
        calls = to_call(target, ["all"], real=False)
        got = predict_views(target, server, run, "default", calls)
        for item in target.catalog.items("tools"):
            seen = recorded[str(item.identity)]
            p = got[item.served_index]
            if (p.offered, p.call, p.view) != (seen["offered"], seen["call"], seen["modelView"]):
                wrong.append(f"{source} {item.identity}: {seen} != {p}"[:400])
    assert not wrong, wrong[:5]
    assert sum(len(c) for c in RECORD[client]["catalogs"].values()) > 100


def test_gemini_cli_profile_names_as_its_listing_driver() -> None:
    """The profile's name data and the listing driver's `qualified` agree (one rule, two
    readers: the prediction and the driver that finds a kept tool in the request)."""
    from catalogaudit.verify.drivers.gemini_cli import qualified as driver_name
    from catalogaudit.verify.predict_model import _entries, qualified

    (entry,) = _entries()[0]["gemini-cli"]
    for tool in ("get weather", "a.b:c-d", "x" * 40 + "y" * 40, "é" * 70):
        assert qualified(entry, "c0", tool) == driver_name("c0", tool)


def test_a_client_without_a_model_view_driver_is_a_usage_error(tmp_path: Path) -> None:
    got = cli("verify", "--client", "inspector", "--model", str(tmp_path / "x.json"))
    assert got.code == 2 and "model-view drivers exist for claude-code, codex" in got.stderr
