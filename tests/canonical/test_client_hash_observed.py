"""`hash --client C` per tool against the bytes `verify --client C --model` observed, for the
four clients with model views, on every recorded catalog (issue 35: the hashes "equal what
`verify --model` observed"), key order included.

The records: Claude Code's and Codex's key-order probe hold each object's SHA-256 as sent
(`modelViewSha256`); Codex's, opencode's and Gemini CLI's sessions in
fixtures/model/clients.observed.json hold the objects parsed in sent key order, whose compact
text is the bytes sent (the server-filesystem oracle checks that against the SHA-256 of the
request bytes). Key order is where the clients differ most (Codex
writes its own struct's order and sorts properties; the TypeScript SDK's clients send `type`,
`properties`, `required` first), so the profile's order data is also taken out here to show
the comparison sees it.
"""

from __future__ import annotations

import copy
import hashlib
import json
from pathlib import Path
from typing import Any

import pytest
from helpers import FIXTURES, cli, fixture
from helpers.model_sample import write

from catalogaudit.verify import prompts

RECORD = json.loads((FIXTURES / "model" / "clients.observed.json").read_text(encoding="utf-8"))
#: Records of one session each that keep each object's SHA-256 as sent: client -> (served
#: catalog, record).
HASHED = {
    "claude-code": [
        (fixture("model", "root-combinators-tools.json"), "root-combinators.observed.json"),
        (
            fixture("real-servers", "server-filesystem.snapshot.json"),
            "server-filesystem.observed.json",
        ),
        (fixture("stability", "key-order", "b.json"), "key-order.observed.json"),
    ],
    # two probe tools served with every kept keyword in reverse order
    "codex": [(fixture("model", "codex-key-order-tools.json"), "codex-key-order.observed.json")],
}
#: Per client, the profile data that orders the keys it sends.
ORDER_DATA = {
    "claude-code": ("schema_first",),
    "codex": ("schema_rewrite.order", "schema_rewrite.sorted"),
    "opencode": ("schema_first",),
    "gemini-cli": ("schema_first",),
}


def _sha(view: Any) -> str:
    text = json.dumps(view, separators=(",", ":"), ensure_ascii=False)
    return "sha256:" + hashlib.sha256(text.encode()).hexdigest()


def _observed(client: str, where: Path) -> list[tuple[Path, dict[str, tuple[str, str | None]]]]:
    """(snapshot, served name -> (offered, `sha256:` of the object as sent)) per recorded
    catalog of `client`."""
    out: list[tuple[Path, dict[str, tuple[str, str | None]]]] = []
    for source, record in HASHED.get(client, []):
        tools = json.loads(fixture("model", record).read_text())["tools"]
        seen = {n: m.get("tool-search-off", m) for n, m in tools.items()}
        digest = {n: v.get("modelViewSha256") for n, v in seen.items()}
        out.append(
            (
                _snapshot(source, where),
                {n: (v["offered"], digest[n] and "sha256:" + digest[n]) for n, v in seen.items()},
            )
        )
    if client not in RECORD:
        return out
    run = f"{client}@{RECORD[client]['version']}"
    for n, (source, tools) in enumerate(RECORD[client]["catalogs"].items()):
        raw = write(run, where) if source == "sample" else FIXTURES / source
        seen: dict[str, tuple[str, str | None]] = {}
        for name, got in tools.items():
            view = copy.deepcopy(got["modelView"])
            if isinstance(view, dict):
                # the session served catalog N as server `catalogN`; `hash` names its one
                # input `catalog0` (opencode and Gemini CLI put it in the tool's name)
                view["name"] = str(view["name"]).replace(f"catalog{n}", "catalog0", 1)
            seen[name] = (got["offered"], _sha(view) if view is not None else None)
        out.append((_snapshot(raw, where), seen))
    return out


def _snapshot(raw: Path, where: Path) -> Path:
    """A snapshot of a recorded tools/list result (a snapshot as it is)."""
    if "capture" in json.loads(raw.read_text(encoding="utf-8")):
        return raw
    snap = where / f"{raw.stem}.snapshot.json"
    made = cli("snapshot", "--from", raw, "-o", snap)
    assert made.code == 0, str(made)
    return snap


def _hashed(snap: Path, client: str) -> dict[str, tuple[str, str | None]]:
    got = cli("hash", snap, "--client", client, "--format", "json")
    assert got.code == 0, str(got)
    tools = got.json()["clients"][client]["tools"]
    return {t["identity"]: (t["offered"], t["prompt"]) for t in tools}


def _differing(client: str, where: Path) -> list[str]:
    wrong: list[str] = []
    compared = 0
    for snap, seen in _observed(client, where):
        mine = _hashed(snap, client)
        assert set(mine) == set(seen), snap
        for name, (offered, digest) in seen.items():
            compared += offered == "inline"
            if mine[name] != (offered, digest if offered == "inline" else None):
                wrong.append(f"{snap.name} {name}: hash {mine[name]}, observed {offered} {digest}")
    assert compared >= 40, compared
    return wrong


@pytest.mark.parametrize("client", sorted(ORDER_DATA))
def test_per_tool_hashes_equal_the_observed_bytes(client: str, tmp_path: Path) -> None:
    wrong = _differing(client, tmp_path)
    assert not wrong, wrong[:5]


@pytest.mark.parametrize("client", sorted(ORDER_DATA))
def test_without_the_order_data_they_do_not(
    client: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    views, calls = prompts._entries()
    entries = copy.deepcopy(views)
    for entry in entries[client]:
        for path in ORDER_DATA[client]:
            *parents, key = path.split(".")
            holder = entry
            for part in parents:
                holder = holder[part]
            del holder[key]
    monkeypatch.setattr(prompts, "_entries", lambda: (entries, calls))
    assert _differing(client, tmp_path)
