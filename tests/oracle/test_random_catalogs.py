"""The seeded random catalog generator of the differential suite: deterministic, and it really
produces every measured defect (a generator that drifted to clean catalogs would make the
random part of `pytest -m oracle` pass without checking anything)."""

from __future__ import annotations

import json
from pathlib import Path

from helpers.random_catalogs import catalog, write


def test_same_seed_same_bytes(tmp_path: Path) -> None:
    one = [p.read_bytes() for p in write(7, tmp_path / "a")]
    two = [p.read_bytes() for p in write(7, tmp_path / "b")]
    assert one == two and one != [p.read_bytes() for p in write(8, tmp_path / "c")]


def test_every_measured_defect_appears_within_fifty_seeds() -> None:
    texts = [json.dumps(catalog(seed)) for seed in range(50)]
    wanted = {
        "array inputSchema": '"inputSchema": {"type": "array"}',
        "priority 1.0": '"priority": 1.0}',
        "priority 1": '"priority": 1}',
        "priority 2": '"priority": 2}',
        "forbidden ;": "; then",
        "forbidden &&": " && ",
        "csv": "text/csv",
        "dot-dot uri": "/../",
        "+path template": "{+path}",
        "git:commit prompt": '"git:commit"',
        "dotted name": '"name": "ns.',
    }
    missing = [k for k, v in wanted.items() if not any(v in t for t in texts)]
    assert not missing, missing
    no_schema = sum(
        1 for seed in range(50) for t in catalog(seed)["tools"] if "inputSchema" not in t
    )
    no_uri = sum(
        1 for seed in range(50) for r in catalog(seed).get("resources", []) if "uri" not in r
    )
    assert no_schema and no_uri
