"""`hash --client C`'s prompt hash (the whole MCP part of the request's tools array) against
the requests each client sent its `verify --model` stand-in (issue 35), for the four clients
with model views.

fixtures/model/requests.observed.json holds, per client, the `tools` member of its first
model request byte for byte, from one session serving a catalog of names that sort apart
by bytes and by collation (fixtures/model/name-order-tools.json) and server-everything,
whose `initialize` answer has instructions (Gemini CLI 0.61.0 refuses that capture, so its
session served the first only); tests/oracle/test_model_prompt_oracle.py records it. The MCP
part of one server is cut out of those bytes by each API's own shape (`helpers.prompt_parts`,
none of the project's code). The profile's layout data (`request`: sort, wrapping) is also
taken out to show the comparison sees it.
"""

from __future__ import annotations

import copy
import hashlib
import json
from pathlib import Path

import pytest
from helpers import FIXTURES, cli
from helpers.prompt_parts import mcp_part, server_name

from catalogaudit.verify import prompts

RECORD = json.loads((FIXTURES / "model" / "requests.observed.json").read_text(encoding="utf-8"))
CLIENTS = ("claude-code", "codex", "gemini-cli", "opencode")


def _sha(text: str) -> str:
    return "sha256:" + hashlib.sha256(text.encode("utf-8", "surrogateescape")).hexdigest()


def _snapshot(source: str, where: Path) -> Path:
    raw = FIXTURES / source
    if "capture" in json.loads(raw.read_text(encoding="utf-8")):
        return raw
    snap = where / f"{raw.stem}.snapshot.json"
    made = cli("snapshot", "--from", raw, "-o", snap)
    assert made.code == 0, str(made)
    return snap


def _compared(client: str, where: Path) -> list[tuple[str, str, str]]:
    """(catalog, `hash --client` prompt hash, observed) per catalog of the client's session."""
    rec = RECORD[client]
    out = []
    for source in rec["catalogs"]:
        got = cli("hash", _snapshot(source, where), "--client", client, "--format", "json")
        assert got.code == 0, str(got)
        prompt = got.json()["clients"][client]
        part = mcp_part(client, rec["tools"], server_name(client, source))
        assert part != "[]", (client, source)
        observed = _sha(part)
        out.append((source, prompt["prompt"], observed))
    return out


@pytest.mark.parametrize("client", CLIENTS)
def test_prompt_hash_equals_the_recorded_request(client: str, tmp_path: Path) -> None:
    compared = _compared(client, tmp_path)
    assert [(s, mine) for s, mine, _ in compared] == [(s, seen) for s, _, seen in compared]


@pytest.mark.parametrize("client", CLIENTS)
def test_without_the_layout_data_it_does_not(
    client: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    views, calls = prompts._entries()
    entries = copy.deepcopy(views)
    for entry in entries[client]:
        del entry["request"]
    monkeypatch.setattr(prompts, "_entries", lambda: (entries, calls))
    compared = _compared(client, tmp_path)
    if client == "gemini-cli":
        # served order is what no layout data means: Gemini CLI's bytes are unchanged
        assert all(mine == seen for _, mine, seen in compared)
    else:
        assert any(mine != seen for _, mine, seen in compared)
