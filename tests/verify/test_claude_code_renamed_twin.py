"""Claude Code 2.1.328 sends one object per sent name: of `get_user` and `get.user` (both
`mcp__<server>__get_user`) only the first served reaches the model, in both modes. Measured
2026-12-06 with `verify --client claude-code --model` on
fixtures/rules/CC-NAME-001/fail/dot_underscore_collision.json (get_user inline / deferred and
called); since 2026-12-07 verify sees every tool of a sent name as the one object sent under
it, and the same run gave both tools get_user's object (one SHA-256 per mode) and their calls
reached. The other order and an exact duplicate: tests/verify/test_name_collisions.py."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import FIXTURES, cli

from catalogaudit.intake import read_catalog
from catalogaudit.verify.base import targets
from catalogaudit.verify.model_view import server_names
from catalogaudit.verify.predict_model import predict_views

SOURCE = FIXTURES / "rules" / "CC-NAME-001" / "fail" / "dot_underscore_collision.json"
#: The tools part of the model request `verify --model` saw (tool search off), as its report
#: prints it.
MEASURED_PROMPT = "sha256:c86ebea5b9be319c7c848f1114603f6a2886c9f9409d5585fc5ad35506ff650e"
MEASURED = {"tool-search-off": "inline", "default": "deferred"}


@pytest.mark.parametrize("mode", sorted(MEASURED))
def test_a_renamed_twin_is_seen_as_the_first(mode: str, tmp_path: Path) -> None:
    snap = tmp_path / "twin.snapshot.json"
    assert cli("snapshot", "--from", str(SOURCE), "-o", str(snap)).code == 0
    (target,) = targets([read_catalog(str(snap)).doc], tmp_path)
    (server,) = server_names([target])
    got = predict_views(target, server, "claude-code@2.1.328", mode, frozenset())
    first, twin = (got[item.served_index] for item in target.catalog.items("tools"))
    assert first.offered == MEASURED[mode] and twin == first


def test_hash_client_predicts_the_measured_prompt(tmp_path: Path) -> None:
    snap = tmp_path / "twin.snapshot.json"
    assert cli("snapshot", "--from", str(SOURCE), "-o", str(snap)).code == 0
    hashed = cli("hash", "--client", "claude-code@2.1.328", "--format", "json", snap)
    assert hashed.code == 0, str(hashed)
    prompt = hashed.json()["clients"]["claude-code"]
    assert prompt["prompt"] == MEASURED_PROMPT
    assert [t["identity"] for t in prompt["tools"] if t["offered"] == "not-offered"] == ["get.user"]


def test_the_collision_is_a_warning_from_2_1_328() -> None:
    now = cli("audit", "--profile", "claude-code@2.1.328", "--format", "json", SOURCE)
    before = cli("audit", "--profile", "claude-code@2.1.327", "--format", "json", SOURCE)
    severity = {
        at: {f["severity"] for f in r.json()["findings"] if f["ruleId"] == "CC-NAME-001"}
        for at, r in (("now", now), ("before", before))
    }
    assert severity == {"now": {"warning"}, "before": {"error"}}
