"""`diff`: one change, one finding (the gate issue, item 3).

Before, one new required input gave the breaking CA810 and beside it CA864 "required changed
... no contract effect" (CA864 is for reordering only, docs/diff-rules.md), and one `anyOf`
restructuring of server-filesystem's `read_media_file` printed five CA840 lines. Built from a
real `mcp` server in two releases (fixtures/servers/release_server.py) and from captures of
server-filesystem 2026.1.14 and 2026.8.31 (fixtures/captures/README.md).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from helpers import PYTHON, SERVERS, cli, fixture


def changes(old: Path, new: Path) -> list[dict[str, Any]]:
    result = cli("diff", str(old), str(new), "--format", "json")
    found: list[dict[str, Any]] = result.json()["changes"]
    return found


def test_a_new_required_input_is_one_breaking_change(tmp_path: Path) -> None:
    snaps = []
    for release in ("1", "2"):
        snap = tmp_path / f"release{release}.json"
        server = [PYTHON, str(SERVERS / "release_server.py"), release]
        assert cli("snapshot", "-o", str(snap), "--", *server).code == 0
        snaps.append(snap)
    tool = [c for c in changes(*snaps) if c.get("identity") == "search"]
    assert [(c["ruleId"], c["pointer"]) for c in tool] == [
        ("CA810", "/inputSchema/properties/folder")
    ], tool


def test_one_restructuring_is_one_undecidable_change() -> None:
    old = fixture("captures", "server-filesystem-2026.1.14.snapshot.json")
    new = fixture("captures", "server-filesystem-2026.8.31.snapshot.json")
    composed = [c for c in changes(old, new) if c["ruleId"] == "CA840"]
    assert len(composed) == 1, composed
    (change,) = composed
    assert change["identity"] == "read_media_file"
    assert change["pointer"] == "/outputSchema/properties/content/items"
    assert "anyOf" in change["message"] and change["class"] == "unknown"
