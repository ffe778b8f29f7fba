"""Gemini CLI 0.61.0 run headless leaves out an MCP tool named like a built-in tool its policy
engine denies (GCLI-NAME-003): what `verify --client gemini-cli --model` measured
(fixtures/model/gemini-builtin-names.observed.json, recorded by
tests/oracle/test_model_clients_oracle.py) against the profile, without the client: which
tools are offered, and the prompt hash `hash --client gemini-cli` predicts."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from helpers import FIXTURES, cli

from catalogaudit.intake import read_catalog
from catalogaudit.verify.base import targets
from catalogaudit.verify.model_view import server_names
from catalogaudit.verify.predict_model import predict_views

RECORD = json.loads(
    (FIXTURES / "model" / "gemini-builtin-names.observed.json").read_text(encoding="utf-8")
)
RUN = f"{RECORD['client']}@{RECORD['version']}"


def _snapshot(source: str, where: Path) -> Path:
    if source.endswith(".snapshot.json"):
        return FIXTURES / source
    snap = where / f"{Path(source).stem}.snapshot.json"
    assert cli("snapshot", "--from", str(FIXTURES / source), "-o", str(snap)).code == 0
    return snap


@pytest.mark.parametrize("source", sorted(RECORD["catalogs"]))
def test_offered_and_prompt_as_measured(source: str, tmp_path: Path) -> None:
    recorded: dict[str, Any] = RECORD["catalogs"][source]
    snap = _snapshot(source, tmp_path)
    (target,) = targets([read_catalog(str(snap)).doc], tmp_path)
    (server,) = server_names([target])
    got = predict_views(target, server, RUN, "default", frozenset())
    offered = {
        str(item.identity): got[item.served_index].offered for item in target.catalog.items("tools")
    }
    assert offered == recorded["offered"]
    hashed = cli("hash", "--client", RUN, "--format", "json", str(snap))
    assert hashed.code == 0, str(hashed)
    prompt = hashed.json()["clients"]["gemini-cli"]
    assert prompt["prompt"] == recorded["prompt"]
    left = {t["identity"] for t in prompt["tools"] if t["offered"] == "not-offered"}
    assert left == {k for k, v in recorded["offered"].items() if v == "not-offered"}


def test_the_record_shows_the_rule() -> None:
    """The measured cases the rule's wording rests on: write_file is the one tool of
    server-filesystem left out; a renamed name counts, other spellings and allowed
    built-ins do not."""
    fs = RECORD["catalogs"]["real-servers/server-filesystem.snapshot.json"]["offered"]
    assert [k for k, v in fs.items() if v != "inline"] == ["write_file"]
    names = RECORD["catalogs"]["model/gemini-builtin-names-tools.json"]["offered"]
    assert sorted(k for k, v in names.items() if v == "not-offered") == sorted(
        [
            "activate_skill",
            "ask_user",
            "exit_plan_mode",
            "replace",
            "run_shell_command",
            "web_fetch",
            "write_file",
            "write_todos",
            "write/file",
        ]
    )
    for kept in ("read_file", "list_directory", "write-file", "write.file", "enter_plan_mode"):
        assert names[kept] == "inline"
