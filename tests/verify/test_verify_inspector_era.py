"""`verify --client inspector` on snapshots of a real 2026-07-28 server (issue 33, item 8).

The Inspector CLI (pinned in tests/package.json) never sends `server/discover`: it sends a
legacy `initialize`. A default snapshot does not record whether the server answers one, so
`serve` presents it 2026-07-28-only and refuses that `initialize`; the Inspector then fails
every list ("Unsupported protocol version", as measured on a 2026-only server: oracle scenario
H). The prediction must say so (INSP-ERA-001), not call every item a mismatch; a
`--legacy-probe` snapshot records the legacy answer and its pages, which `serve` plays, and the
Inspector keeps everything."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from helpers import PYTHON, ROOT, SERVERS, cli

MODULES = ROOT / "tests" / "node_modules"

pytestmark = pytest.mark.skipif(
    not (MODULES / ".bin" / "mcp-inspector").is_file(), reason="npm ci --prefix tests"
)


def _verify(tmp_path: Path, *snapshot_options: str) -> list[dict[str, Any]]:
    snap = tmp_path / "server.snapshot.json"
    server = (PYTHON, str(SERVERS / "volatile_server.py"), "stdio")
    done = cli("snapshot", *snapshot_options, "-o", str(snap), "--", *server, timeout=180)
    assert done.code == 0, str(done)
    assert '"negotiated": "2026-07-28"' in snap.read_text()
    result = cli(
        "verify", "--client", "inspector@2.12.0", "--client-path", str(MODULES),
        "--format", "json", str(snap), timeout=600,
    )  # fmt: skip
    assert result.code == 0, str(result)  # 0: every observation matches the prediction
    rows: list[dict[str, Any]] = result.json()["observations"]
    assert rows and all(r["matches"] for r in rows)
    return rows


def test_a_default_snapshot_fails_for_the_inspector_as_predicted(tmp_path: Path) -> None:
    rows = _verify(tmp_path)
    lists = [r for r in rows if r["index"] is None]
    assert {r["verdict"] for r in lists} == {"failed"}
    assert all("Unsupported protocol version" in r["message"] for r in lists)
    assert all(r["predictedBecause"].startswith("INSP-ERA-001") for r in rows)


def test_a_legacy_probe_snapshot_is_kept_by_the_inspector(tmp_path: Path) -> None:
    rows = _verify(tmp_path, "--legacy-probe")
    assert {r["verdict"] for r in rows} == {"kept"}
