"""Lattice shapes where a real client dropped a tool or failed the tools list (or the whole
server), per fixtures/lattice/ledger.json (`verify` driving the client), as snapshots: the
cases for the prompt tests that a client's prompt leaves them out (issue 35)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from catalogaudit.verify.lattice import jsonl, shapes
from helpers import FIXTURES, cli

LEDGER = json.loads((FIXTURES / "lattice" / "ledger.json").read_text(encoding="utf-8"))
FAILED = ("list failed", "server failed")


def cases(run: str, sample: int) -> list[tuple[Any, str]]:
    """(shape, ledger verdict) for `client@version`: every legacy tool shape with an item
    dropped, and `sample` of those with the list or server failed, spread over them."""
    client, _, version = run.partition("@")
    (got,) = [r for r in LEDGER["runs"] if (r["client"], r["version"]) == (client, version)]
    seen = got["observations"]
    tools = [s for s in shapes(("legacy",)) if s.id.startswith("tool") and s.id in seen]
    dropped = [s for s in tools if seen[s.id]["verdict"] == "item dropped"]
    failed = [s for s in tools if seen[s.id]["verdict"] in FAILED]
    step = max(1, len(failed) // sample)
    return [(s, seen[s.id]["verdict"]) for s in dropped + failed[::step][:sample]]


def snapshot(shape: Any, where: Path) -> Path:
    """The shape as a snapshot file (`snapshot --from` its JSONL)."""
    raw = where / f"{shape.id.replace('/', '_')}.jsonl"
    raw.write_text(jsonl(shape), encoding="utf-8")
    snap = raw.with_suffix(".snapshot.json")
    made = cli("snapshot", "--from", raw, "-o", snap)
    assert made.code == 0, str(made)
    return snap


def served(shape: Any) -> int:
    """How many tools the shape serves."""
    return sum(len(p.get("tools", [])) for p in shape.pages["tools"])
