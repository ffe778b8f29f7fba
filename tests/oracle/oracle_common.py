"""What the oracle test modules share: the opt-in gate, scenario snapshots, mismatch lines."""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest
from conftest import FIXTURES, cli


@pytest.fixture(scope="module", autouse=True)
def asked_for(request: pytest.FixtureRequest) -> None:
    """Skip unless a -m expression selected these tests or CATALOGAUDIT_ORACLE=1."""
    if not request.config.getoption("markexpr") and os.environ.get("CATALOGAUDIT_ORACLE") != "1":
        pytest.skip("oracle tests run with `pytest -m oracle` (or CATALOGAUDIT_ORACLE=1)")


def scenario_snapshots(
    base: Path, names: Iterable[str], *, empty_tools: bool = False
) -> dict[str, Path]:
    """One snapshot per scenario of fixtures/oracle/, made by `snapshot --from`; with
    `empty_tools`, a scenario without tools.json also serves an empty tool list."""
    filler = base / "empty-tools.txt"
    filler.write_text('{"tools": []}\n', encoding="utf-8")
    out: dict[str, Path] = {}
    for name in names:
        inputs = sorted((FIXTURES / "oracle" / name).glob("*.json"))
        if empty_tools and not any(p.name == "tools.json" for p in inputs):
            inputs.append(filler)
        args = [a for f in inputs for a in ("--from", str(f))]
        path = base / f"{name}.json"
        result = cli("snapshot", *args, "-o", str(path))
        assert result.code == 0, str(result)
        out[name] = path
    return out


def mismatches(rows: Iterable[dict[str, Any]]) -> list[str]:
    """One line per observation whose verdict differs from the profile's prediction."""
    return [
        f"{r['listing']}[{r['index']}] {r['identity']!r}: predicted {r['predicted']} "
        f"({r['predictedBecause']}), observed {r['verdict']} ({r['message']})"
        for r in rows
        if not r["matches"]
    ]
