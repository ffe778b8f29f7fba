"""CA403 names the same defect on every run (the report of one catalog is byte-stable)."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

from helpers import PYTHON

# NOTE: two defects in one schema; jsonschema's `check_schema` met them in an order that
# followed string hashing, so CA403 named one or the other depending on PYTHONHASHSEED.
TOOL = {
    "name": "measure",
    "description": "Measure a thing.",
    "inputSchema": {
        "type": "object",
        "properties": {
            "a": {"type": "number", "multipleOf": 0},
            "b": {"type": "object", "properties": {"c": {"multipleOf": -1}}},
        },
    },
}


def test_a_schema_with_two_defects_gets_one_finding_on_every_run(tmp_path: Path) -> None:
    source = tmp_path / "tools.json"
    source.write_text(json.dumps({"tools": [TOOL]}), encoding="utf-8")
    reports = set()
    pointers = set()
    for seed in range(1, 7):
        proc = subprocess.run(
            [PYTHON, "-m", "catalogaudit", "audit", "--format", "json", str(source)],
            capture_output=True,
            check=False,
            env={**os.environ, "PYTHONHASHSEED": str(seed)},
        )
        assert proc.returncode == 1, proc.stderr
        reports.add(proc.stdout)
        found = json.loads(proc.stdout)["findings"]
        pointers |= {f["pointer"] for f in found if f["ruleId"] == "CA403"}
    assert pointers == {"/inputSchema/properties/a/multipleOf"}
    assert len(reports) == 1
