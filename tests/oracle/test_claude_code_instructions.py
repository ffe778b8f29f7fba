"""Differential oracle: how much of a server's instructions and tool descriptions Claude Code
2.1.328 sends the model, against CC-DESC-001 (which issues had put at 2,048 characters).

`verify --client claude-code --model` runs `claude -p` against the loopback Messages API
stand-in; every request the stand-in answers is recorded here, so the message where Claude
Code puts server instructions (a system-role message of the request's messages, under
"# MCP Server Instructions") can be read whole. The same catalog is then audited
with the profile at that version: the rule must flag exactly what was cut.

Run with `pytest -m oracle` (any -m that selects them) or CATALOGAUDIT_ORACLE=1.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from helpers import ROOT, cli
from helpers.oracle_common import asked_for, not_installed  # noqa: F401 - a fixture

from catalogaudit.verify import standin

pytestmark = pytest.mark.oracle

MODULES = ROOT / "tests" / "node_modules"
CUT = "\u2026 [truncated]"


def _text(tag: str, size: int) -> str:
    """`size` characters, each run of them numbered, so where a cut falls is visible."""
    words = " ".join(f"{tag}{i:05d}" for i in range(size // 6 + 1))
    return words[:size]


def _strings(node: Any) -> Iterator[str]:
    if isinstance(node, str):
        yield node
    elif isinstance(node, list):
        for v in node:
            yield from _strings(v)
    elif isinstance(node, dict):
        for v in node.values():
            yield from _strings(v)


def test_instructions_and_descriptions_are_cut_at_4096(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    if not (MODULES / ".bin" / "claude").is_file():
        not_installed("claude-code (npm ci --prefix tests)")
        pytest.skip("npm packages not installed: run `npm ci --prefix tests`")
    instructions = _text("i", 5000)
    short, long = _text("s", 3000), _text("l", 9000)
    init = {"protocolVersion": "2025-06-18", "capabilities": {"tools": {}}}
    init |= {"serverInfo": {"name": "instr", "version": "1"}, "instructions": instructions}
    empty = {"type": "object", "properties": {}}
    tools = [
        {"name": "short_desc", "description": short, "inputSchema": empty},
        {"name": "long_desc", "description": long, "inputSchema": empty},
    ]
    lines = [{"jsonrpc": "2.0", "id": 0, "result": init}]
    lines.append({"jsonrpc": "2.0", "id": 1, "result": {"tools": tools}})
    (tmp_path / "in.jsonl").write_text("".join(json.dumps(x) + "\n" for x in lines))
    made = cli("snapshot", "--from", "in.jsonl", "-o", "s.json", cwd=tmp_path)
    assert made.code == 0, str(made)

    seen: list[Any] = []
    take = standin.StandIn.take

    def record(self: standin.StandIn, rec: standin.Recorded) -> standin.Answer | None:
        if rec.route.endswith("/v1/messages"):
            seen.append(rec.json())
        return take(self, rec)

    monkeypatch.setattr(standin.StandIn, "take", record)
    spec = ("--client", "claude-code@2.1.328", "--client-path", str(MODULES), "--model")
    result = cli("verify", *spec, "--format", "json", "s.json", cwd=tmp_path, timeout=600)
    assert result.code == 0, str(result)
    assert seen, "the stand-in saw no model request"
    modes: set[str] = set()

    for body in seen:
        system = [s for s in _strings(body.get("messages")) if instructions[:40] in s]
        assert len(system) == 1, "the instructions are not in the request's messages once"
        assert instructions[:4096] + CUT in system[0]
        assert instructions[:4097] not in system[0]
        for tool in body.get("tools") or []:
            if tool.get("name") not in ("mcp__instr__short_desc", "mcp__instr__long_desc"):
                continue
            # a deferred tool (tool search, the default) carries defer_loading and is sent whole
            how = "deferred" if tool.get("defer_loading") else "inline"
            cut = {"deferred": long, "inline": long[:4096] + CUT}[how]
            expected = short if tool["name"].endswith("short_desc") else cut
            assert tool.get("description") == expected, (how, tool["name"])
            modes.add(how)
    assert modes == {"deferred", "inline"}

    audit = cli(
        "audit", "--profile", "claude-code@2.1.328", "--format", "json", "s.json", cwd=tmp_path
    )
    found = {
        (f["listing"], f.get("identity"), f["pointer"])
        for f in audit.json()["findings"]
        if f["ruleId"] == "CC-DESC-001"
    }
    assert found == {
        ("catalog", None, "/capture/instructions"),
        ("tools", "long_desc", "/description"),
    }
