"""A sample of the lattice's tool shapes as one catalog, for the model-view oracles: every
legacy-era `tool.inputSchema` and `tool.description` shape whose tool the client's ledger run
says was kept, its subject tool renamed `s<N>`, so one session shows the model view of each.
The `tool.name` shapes are left out: their names collide once a client renames them (`a.b`,
`a b`, `a/b` all become `a_b`), and which of the colliding tools a call then reaches is not
modelled; the probe catalog covers renaming."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from catalogaudit.verify.lattice import shapes
from helpers import FIXTURES

KINDS = ("tool.inputSchema", "tool.description")


def sample(run: str, every: int = 1) -> list[tuple[str, dict[str, Any]]]:
    """(shape id, subject tool) for the kept shapes of ledger run `client@version`, every
    `every`-th one."""
    ledger = json.loads((FIXTURES / "lattice" / "ledger.json").read_text(encoding="utf-8"))
    client, _, version = run.partition("@")
    (got,) = [r for r in ledger["runs"] if (r["client"], r["version"]) == (client, version)]
    seen = got["observations"]
    out: list[tuple[str, dict[str, Any]]] = []
    for shape in shapes(("legacy",)):
        if shape.id.split("/")[0] not in KINDS or seen.get(shape.id, {}).get("verdict") != "kept":
            continue
        tools = shape.pages["tools"][0]["tools"]
        subject = next((t for t in tools if isinstance(t, dict) and t.get("name") != "ok"), None)
        if not isinstance(subject, dict):
            continue
        out.append((shape.id, {**subject, "name": f"s{len(out)}"}))
    return out[::every]


def write(run: str, where: Path, every: int = 1) -> Path:
    """The sample as a tools/list result file (`snapshot --from` reads it)."""
    raw = where / f"sample-{run.replace('@', '-')}.json"
    raw.write_text(json.dumps({"tools": [t for _, t in sample(run, every)]}), encoding="utf-8")
    return raw
