"""`hash --client C`: the prompt hash of what client C sends the model for the tools, per
tool and for the tools array in C's order, checked against what `verify --model` observed."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from helpers import ROOT, cli, fixture

from catalogaudit.verify import prompt_clients

OBSERVED = json.loads(fixture("model", "root-combinators.observed.json").read_text())
SCHEMA = json.loads(
    (ROOT / "src" / "catalogaudit" / "formatters" / "schemas" / "hash.schema.json").read_text()
)
#: `verify --model` on server-filesystem (whose served input schemas start with `$schema`)
#: and on a tool served `properties` before `type`: Claude Code sends `type`, `properties`,
#: `required` first (the profile's `schema_first`).
FILESYSTEM = json.loads(fixture("model", "server-filesystem.observed.json").read_text())
KEY_ORDER = json.loads(fixture("model", "key-order.observed.json").read_text())


@pytest.fixture(scope="module")
def snap(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("hash") / "rc.json"
    made = cli("snapshot", "--from", fixture("model", "root-combinators-tools.json"), "-o", out)
    assert made.code == 0, str(made)
    return out


def _hashes(snap: Path, *clients: str) -> dict[str, Any]:
    args = [a for c in clients for a in ("--client", c)]
    result = cli("hash", snap, "--format", "json", *args)
    assert result.code == 0, str(result)
    doc: dict[str, Any] = result.json()
    jsonschema.Draft202012Validator(SCHEMA).validate(doc)
    return doc


@pytest.mark.parametrize(
    ("catalog", "observed", "inline"),
    [
        (None, OBSERVED, 25),
        (fixture("real-servers", "server-filesystem.snapshot.json"), FILESYSTEM, 14),
        (fixture("stability", "key-order", "b.json"), KEY_ORDER, 3),
    ],
    ids=["root-combinators", "server-filesystem", "key-order"],
)
def test_claude_code_tool_hashes_equal_what_verify_model_observed(
    snap: Path, catalog: Path | None, observed: dict[str, Any], inline: int
) -> None:
    doc = _hashes(catalog or snap, "claude-code")["clients"]["claude-code"]
    mine = {t["identity"]: t for t in doc["tools"]}
    seen = {n: m.get("tool-search-off", m) for n, m in observed["tools"].items()}
    assert set(mine) == set(seen)
    for name, got in seen.items():
        assert mine[name]["offered"] == got["offered"], name
    hashed = {n for n, got in seen.items() if got["offered"] == "inline"}
    assert len(hashed) == inline
    assert {n: mine[n]["prompt"] for n in hashed} == {
        n: "sha256:" + seen[n]["modelViewSha256"] for n in hashed
    }


def test_prompt_hash_is_the_tools_array_in_the_clients_order(snap: Path) -> None:
    # every object's bytes are known from the observation, and so are the array's
    rec = _hashes(snap, "claude-code")["clients"]["claude-code"]
    inline = [t for t in rec["tools"] if t["offered"] == "inline"]
    names = [t["name"] for t in inline]
    assert names == sorted(names)  # Claude Code sorts its tools array by name
    assert rec["inline"] == len(inline) == 25 and rec["mode"] == "tool-search-off"
    views = [
        m["tool-search-off"]["modelView"]
        for m in OBSERVED["tools"].values()
        if m["tool-search-off"]["offered"] == "inline"
    ]
    texts = [
        json.dumps(v, separators=(",", ":"), ensure_ascii=False)
        for v in sorted(views, key=lambda v: v["name"])
    ]
    digest = hashlib.sha256(("[" + ",".join(texts) + "]").encode()).hexdigest()
    assert rec["prompt"] == "sha256:" + digest


def test_text_rows_and_the_deferral_note(snap: Path) -> None:
    result = cli("hash", snap, "--client", "claude-code")
    assert result.code == 0, str(result)
    rows = [ln for ln in result.stdout.splitlines() if "prompt@claude-code" in ln]
    assert rows[0].split()[1:3] == ["prompt@claude-code", "tools"]
    assert "tokens, mode tool-search-off)" in rows[0]
    assert any("mcp__catalog0__anyof (inline," in r for r in rows)
    assert any(r.startswith("not-offered") and "bad_key" in r for r in rows)
    assert "claude-code defers MCP tools by default" in result.stderr


def test_unknown_client_is_one_error_line(snap: Path) -> None:
    result = cli("hash", snap, "--client", "no-such-client")
    assert result.code == 2 and result.stderr.startswith("error: --client no-such-client:")
    assert len(result.stderr.strip().splitlines()) == 1 and not result.stdout


@pytest.mark.skipif(
    "codex" not in prompt_clients(), reason="the codex profile has no model_view data yet"
)
def test_codex_and_claude_code_differ_where_their_views_differ(snap: Path) -> None:
    doc = _hashes(snap, "claude-code", "codex")["clients"]
    claude, codex = doc["claude-code"], doc["codex"]
    assert claude["prompt"] != codex["prompt"]
    by_id = {t["identity"]: t for t in codex["tools"]}
    for tool in claude["tools"]:
        other = by_id[tool["identity"]]
        if tool["name"] != other["name"]:
            assert tool["prompt"] != other["prompt"]
