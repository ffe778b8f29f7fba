"""One defect, one finding: ContextForge's HTML-tag and script patterns both match one
`<script` (from 0.5.0), and the enforcer rejects the description once (issue 33: CF-DESC-003
reported one `<script>` twice). Patterns that match different places still each report."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers import cli

VERSIONS = ("0.3.1", "0.5.0", "0.9.0", "1.0.0b2", "1.0.7")


def _audit(tmp_path: Path, description: str, version: str) -> list[dict[str, object]]:
    path = tmp_path / "tools.json"
    tool = {"name": "run", "description": description, "inputSchema": {"type": "object"}}
    path.write_text(json.dumps({"tools": [tool]}), encoding="utf-8")
    done = cli(
        "audit", str(path), "--profile", f"context-forge@{version}", "--select", "CF-DESC-003",
        "--format", "json",
    )  # fmt: skip
    assert done.code == 1, done
    found: list[dict[str, object]] = json.loads(done.stdout)["findings"]
    return [f for f in found if f["ruleId"] == "CF-DESC-003"]


@pytest.mark.parametrize("version", VERSIONS)
def test_one_script_tag_is_one_finding(tmp_path: Path, version: str) -> None:
    found = _audit(tmp_path, "Runs <script>x</script> here.", version)
    assert len(found) == 1, [f["message"] for f in found]


def test_two_places_are_two_findings(tmp_path: Path) -> None:
    found = _audit(tmp_path, 'Shows <iframe src="x"> and then a onload=go() call.', "1.0.7")
    assert len(found) == 2, [f["message"] for f in found]
    assert {f["excerpt"] for f in found} != {found[0]["excerpt"]}
