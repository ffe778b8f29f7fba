"""`serve` answers each era with the texts the server sent in that era (issue 12, item 4).

mcp-server-time 2026.10.19 speaks both eras and sends other texts in each: its 2026-07-28 pages
carry `cacheScope`/`resultType` first and order schema keys one way, its legacy pages carry no
cache fields and order them another. Before, `serve` answered a legacy session from a
2026-07-28 capture with the modern texts; now `snapshot --legacy-probe` records the legacy
pages (`wire.legacy`) and `serve` replays them, and a capture without them refuses that era.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest
from helpers import PYTHON, cli, free_port, validate_snapshot, wait_port

TIME = [str(Path(PYTHON).parent / "mcp-server-time")]
SERVE = [PYTHON, "-m", "catalogaudit", "serve"]


def snapshot(path: Path, *args: str) -> dict[str, Any]:
    result = cli("snapshot", "-o", str(path), *args, timeout=180)
    assert result.code == 0, str(result)
    doc: dict[str, Any] = json.loads(path.read_text())
    validate_snapshot(doc)
    return doc


@pytest.fixture(scope="module")
def captures(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, Any]]:
    folder = tmp_path_factory.mktemp("eras")
    return {
        "modern": snapshot(folder / "modern.json", "--legacy-probe", "--", *TIME),
        "legacy": snapshot(folder / "legacy.json", "--protocol", "legacy", "--", *TIME),
    }


def test_the_server_sends_other_texts_per_era(captures: dict[str, dict[str, Any]]) -> None:
    modern, legacy = captures["modern"], captures["legacy"]
    assert modern["capture"]["protocol"]["era"] == "modern"
    assert modern["wire"]["pages"]["tools"] != legacy["wire"]["pages"]["tools"]
    assert '"cacheScope"' in modern["wire"]["pages"]["tools"][0]
    assert '"cacheScope"' not in legacy["wire"]["pages"]["tools"][0]
    # The probe's session recorded exactly what a direct legacy capture sees.
    assert modern["wire"]["legacy"]["pages"] == legacy["wire"]["pages"]
    assert modern["wire"]["legacy"]["handshake"] == legacy["wire"]["handshake"]


def test_a_legacy_replay_equals_a_direct_legacy_capture_over_stdio(
    captures: dict[str, dict[str, Any]], tmp_path: Path
) -> None:
    path = tmp_path / "modern.json"
    path.write_text(json.dumps(captures["modern"]))
    again = snapshot(tmp_path / "again.json", "--protocol", "legacy", "--", *SERVE, str(path))
    assert again["wire"]["pages"] == captures["legacy"]["wire"]["pages"]
    assert again["wire"]["handshake"] == captures["legacy"]["wire"]["handshake"]
    assert again["hashes"] == captures["legacy"]["hashes"]
    # And the modern era is still the modern texts.
    modern = snapshot(tmp_path / "m.json", "--protocol", "modern", "--", *SERVE, str(path))
    assert modern["wire"]["pages"] == captures["modern"]["wire"]["pages"]


def test_a_legacy_replay_equals_a_direct_legacy_capture_over_http(
    captures: dict[str, dict[str, Any]], tmp_path: Path
) -> None:
    path = tmp_path / "modern.json"
    path.write_text(json.dumps(captures["modern"]))
    port = free_port()
    proc = subprocess.Popen(
        [*SERVE, "--http", str(port), "--max-seconds", "60", str(path)],
        stderr=subprocess.PIPE,
    )
    try:
        wait_port(port, proc)
        url = f"http://127.0.0.1:{port}/mcp"
        again = snapshot(tmp_path / "again.json", "--protocol", "legacy", "--url", url)
    finally:
        proc.terminate()
        proc.wait(10)
    assert again["wire"]["pages"] == captures["legacy"]["wire"]["pages"]


def test_without_the_legacy_pages_the_era_is_refused(
    captures: dict[str, dict[str, Any]], tmp_path: Path
) -> None:
    doc = json.loads(json.dumps(captures["modern"]))
    del doc["wire"]["legacy"]  # as a --legacy-probe capture made before the pages were kept
    path = tmp_path / "old.json"
    path.write_text(json.dumps(doc))
    init = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {
            "protocolVersion": "2025-11-25",
            "capabilities": {},
            "clientInfo": {"name": "t"},
        },
    }
    proc = subprocess.run(
        [*SERVE, str(path)],
        input=json.dumps(init) + "\n",
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    error = json.loads(proc.stdout)["error"]
    assert error["code"] == -32022 and "--legacy-probe" in error["message"]
    assert "legacy sessions are refused" in proc.stderr
    # Asked for explicitly, the modern texts are served, with a warning that says so.
    proc = subprocess.run(
        [*SERVE, "--protocol", "dual", str(path)],
        input=json.dumps(init) + "\n",
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert json.loads(proc.stdout)["result"]["protocolVersion"] == "2025-11-25"
    assert "2026-07-28 page texts" in proc.stderr


def test_no_wire_probe_keeps_no_legacy_pages(tmp_path: Path) -> None:
    doc = snapshot(tmp_path / "s.json", "--legacy-probe", "--no-wire", "--", *TIME)
    assert doc["capture"]["protocol"]["legacy"]["answered"] is True
    assert "wire" not in doc
