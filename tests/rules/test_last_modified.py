"""CA303 gives the same verdict on every supported Python (the gate issue, item 4).

Before, `datetime.fromisoformat` decided: Python 3.10 flagged `2025-01-12T10:00:00.1Z` (valid
RFC 3339) and 3.11 passed ISO 8601 forms no RFC 3339 reader takes (`20250112T100000Z`,
`2025-W03-1`) and timestamps without an offset. The server is a real `mcp` 2.3.0 server over
stdio (fixtures/servers/timestamps_server.py); `.ci/run` runs this module on Python 3.10 too.
"""

from __future__ import annotations

import json
from pathlib import Path

from helpers import PYTHON, SERVERS, cli

FLAGGED = {"basic", "week", "naive", "feb30", "words"}
PASSING = {"utc", "tenth", "offset", "lower-t", "date"}


def test_ca303_is_rfc_3339_on_a_real_server(tmp_path: Path) -> None:
    snap = tmp_path / "stamps.json"
    server = [PYTHON, str(SERVERS / "timestamps_server.py"), "stdio"]
    result = cli("snapshot", "-o", str(snap), "--", *server)
    assert result.code == 0, str(result)
    served = {r["name"] for r in json.loads(snap.read_text())["listings"]["resources"]["items"]}
    assert served == FLAGGED | PASSING
    result = cli("audit", str(snap), "--select", "CA303", "--format", "json")
    found = result.json()["findings"]
    assert {f["identity"].removeprefix("stamps://") for f in found} == FLAGGED, str(result)
    assert all(f["severity"] == "warning" for f in found)
    assert result.code == 0  # warnings only
