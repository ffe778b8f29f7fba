"""Issue 13 item 5: clients meeting a server over Streamable HTTP whose answers are JSON bodies
or SSE streams (`verify --transport http [--sse]`, `serve --http [--sse]`), on the capture of
server-filesystem 2026.8.31 (14 tools).

Codex was reported to drop servers that answer initialize and tools/list as SSE (codex#5619 on
0.47.0, #11284 on 0.98.0, #26983 on 0.137.0; CDX-XPORT-001 covers those versions only). Codex
0.169.0, Inspector 2.12.0 and the TS SDK 1.32.2 were measured here keeping every tool both
ways; the profiles predict that, and each run must say which transport it used.

Run with `pytest -m oracle` (any -m that selects them) or CATALOGAUDIT_ORACLE=1.
"""

from __future__ import annotations

import pytest
from helpers import FIXTURES, ROOT
from helpers.oracle_common import (  # noqa: F401 - asked_for is a fixture
    asked_for,
    not_installed,
    verify_json,
)

pytestmark = pytest.mark.oracle

MODULES = ROOT / "tests" / "node_modules"
SNAP = FIXTURES / "captures" / "server-filesystem-2026.8.31.snapshot.json"
#: client spec -> what must exist under tests/node_modules.
CLIENTS = {
    "codex@0.169.0": ".bin/codex",
    "inspector@2.12.0": ".bin/mcp-inspector",
    "ts-sdk@1.32.2": "@modelcontextprotocol/sdk/package.json",
}


@pytest.mark.parametrize("sse", [False, True], ids=["json", "sse"])
@pytest.mark.parametrize("spec", sorted(CLIENTS))
def test_client_keeps_every_tool_over_http(spec: str, sse: bool) -> None:
    if not (MODULES / CLIENTS[spec]).exists():
        not_installed(spec)
        pytest.skip(f"{spec} is not installed under tests/node_modules")
    args = ["--transport", "http", *(["--sse"] if sse else [])]
    code, doc = verify_json(spec, [SNAP], str(MODULES), extra=args)
    assert doc["transport"] == ("http+sse" if sse else "http")
    rows = doc["observations"]
    tools = [r for r in rows if r["listing"] == "tools" and r["index"] is not None]
    assert len(tools) == 14, rows
    lost = [r for r in rows if r["verdict"] != "kept"]
    assert not lost, lost
    assert code == 0 and all(r["matches"] for r in rows)
