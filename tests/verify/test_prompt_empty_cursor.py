"""`hash --client claude-code` leaves out the tools Claude Code never lists because of an empty
`nextCursor`, as `verify --model` observed over the lattice (the ledger's `model_runs`): in the
handshake era it stops at a page whose `nextCursor` is "" (the next page's tools are never
sent), and in 2026-07-28 it asks again with "", so a last page ending that way loses the list.
Before, the prompt held every served tool for these catalogs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers import FIXTURES, cli

from catalogaudit.verify.lattice import jsonl, shapes

SHAPES = (
    "tools.pages/two-cursor-empty",
    "tools.pages/two-cursor-empty@modern",
    "tools.page.nextCursor/empty@modern",
)


def _observed(shape_id: str) -> str:
    """How the recorded Claude Code run offered the shape's subject tool, tool search off."""
    ledger = json.loads((FIXTURES / "lattice" / "ledger.json").read_text(encoding="utf-8"))
    (run,) = [r for r in ledger["model_runs"] if r["client"] == "claude-code"]
    return str(run["observations"][shape_id]["tool-search-off"]["offered"])


@pytest.mark.parametrize("shape_id", SHAPES)
def test_the_prompt_holds_only_the_tools_claude_code_lists(shape_id: str, tmp_path: Path) -> None:
    (shape,) = [s for s in shapes() if s.id == shape_id]
    (tmp_path / "in.jsonl").write_text(jsonl(shape), encoding="utf-8")
    protocol = "2026-07-28" if shape.era == "modern" else "auto"
    made = cli(
        "snapshot", "--protocol", protocol, "--from", "in.jsonl", "-o", "s.json", cwd=tmp_path
    )
    assert made.code == 0, str(made)
    result = cli(
        "hash", "--client", "claude-code@2.1.328", "--format", "json", "s.json", cwd=tmp_path
    )
    assert result.code == 0, str(result)
    tools = result.json()["clients"]["claude-code"]["tools"]
    (subject,) = [t for t in tools if t["identity"] == "subject"]
    assert subject["offered"] == _observed(shape_id)
