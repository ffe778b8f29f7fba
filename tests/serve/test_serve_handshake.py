"""The handshake scenarios of compat-rules.md "Measured with real clients" (G, H, K), played by
`catalogaudit serve` and captured by `snapshot --legacy-probe`.

G: `--protocol dual --cache-hints absent` (discover and initialize, no cache hints); H:
`--protocol modern --cache-hints absent` (2026-only); K: `--protocol legacy
--initialize-version 2026-07-28` (a legacy handshake naming the 2026 version). The probe records
whether a modern server also answers a legacy `initialize`, and a snapshot served as captured
answers the eras its capture saw.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest
from helpers import FIXTURES, PYTHON, cli, validate_snapshot
from helpers.rawservers import snapshot_ok

CATALOG = FIXTURES / "oracle-era" / "catalog"
CAPS = '{"tools":{},"resources":{}}'
SCENARIOS = {
    "G": ("--protocol", "dual", "--cache-hints", "absent"),
    "H": ("--protocol", "modern", "--cache-hints", "absent"),
    "K": ("--protocol", "legacy", "--initialize-version", "2026-07-28"),
}


def serve_argv(snapshot: Path, *opts: str) -> list[str]:
    """`catalogaudit serve` of a static snapshot, declaring the listings it holds."""
    return [
        PYTHON,
        "-m",
        "catalogaudit",
        "serve",
        str(snapshot),
        "--max-seconds",
        "60",
        "--capabilities",
        CAPS,
        *opts,
    ]


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The era scenarios' catalog as a static snapshot."""
    folder = tmp_path_factory.mktemp("era-base")
    inputs = [a for f in sorted(CATALOG.glob("*.json")) for a in ("--from", str(f))]
    snapshot_ok(folder, *inputs, name="base.json")
    return folder / "base.json"


@pytest.fixture(scope="module")
def captured(base: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, Any]]:
    """Each scenario served and captured with the legacy probe."""
    folder = tmp_path_factory.mktemp("era-captured")
    return {
        name: snapshot_ok(
            folder, "--legacy-probe", "--", *serve_argv(base, *opts), name=f"{name}.json"
        )[0]
        for name, opts in SCENARIOS.items()
    }


def exchange(argv: list[str], *messages: dict[str, Any]) -> list[dict[str, Any]]:
    """Send messages to a stdio server and read one answer per request."""
    text = "".join(json.dumps(m) + "\n" for m in messages)
    proc = subprocess.run(argv, input=text, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    return [json.loads(line) for line in proc.stdout.splitlines()]


def initialize(version: str, rid: int = 1) -> dict[str, Any]:
    params = {"protocolVersion": version, "capabilities": {}, "clientInfo": {"name": "t"}}
    return {"jsonrpc": "2.0", "id": rid, "method": "initialize", "params": params}


def test_g_discover_and_initialize_without_hints(captured: dict[str, dict[str, Any]]) -> None:
    proto = captured["G"]["capture"]["protocol"]
    assert (proto["era"], proto["negotiated"], proto["handshake"]) == (
        "modern",
        "2026-07-28",
        "server/discover",
    )
    assert proto["legacy"] == {"answered": True, "offered": "2025-11-25", "version": "2025-11-25"}
    wire = captured["G"]["wire"]
    assert "ttlMs" not in wire["handshake"] and "cacheScope" not in wire["handshake"]
    assert all("ttlMs" not in p for pages in wire["pages"].values() for p in pages)


def test_h_modern_only_refuses_initialize_with_32022(captured: dict[str, dict[str, Any]]) -> None:
    proto = captured["H"]["capture"]["protocol"]
    assert (proto["era"], proto["negotiated"]) == ("modern", "2026-07-28")
    assert proto["legacy"] == {
        "answered": False,
        "offered": "2025-11-25",
        "error": {"code": -32022, "message": "Unsupported protocol version"},
    }


def test_k_initialize_names_2026(captured: dict[str, dict[str, Any]]) -> None:
    doc = captured["K"]
    proto = doc["capture"]["protocol"]
    assert (proto["era"], proto["negotiated"], proto["handshake"]) == (
        "legacy",
        "2026-07-28",
        "initialize",
    )
    assert "legacy" not in proto  # only modern captures are probed
    assert json.loads(doc["wire"]["handshake"])["protocolVersion"] == "2026-07-28"
    assert {"CA522", "CA523"} <= {f["ruleId"] for f in doc["findings"]}


def test_items_and_hashes_do_not_depend_on_the_era(
    base: Path, captured: dict[str, dict[str, Any]]
) -> None:
    """Capture metadata is not hashed: the three scenarios are one catalog."""
    hashes = {json.dumps(doc["hashes"]) for doc in captured.values()}
    assert len(hashes) == 1


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_served_as_captured_the_scenario_is_the_same(
    name: str, captured: dict[str, dict[str, Any]], tmp_path: Path
) -> None:
    """A scenario snapshot served as captured and captured again keeps its handshake facts."""
    path = tmp_path / f"{name}.json"
    path.write_text(json.dumps(captured[name]), encoding="utf-8")
    argv = [PYTHON, "-m", "catalogaudit", "serve", str(path), "--max-seconds", "60"]
    again, _ = snapshot_ok(tmp_path, "--legacy-probe", "--", *argv, name="again.json")
    assert again["capture"]["protocol"] == captured[name]["capture"]["protocol"]
    assert again["wire"] == captured[name]["wire"]


def test_the_probe_replays_a_counter_offer(base: Path, tmp_path: Path) -> None:
    """A dual server whose initialize always names one version is served back that way."""
    doc, _ = snapshot_ok(
        tmp_path,
        "--legacy-probe",
        "--",
        *serve_argv(base, "--protocol", "dual", "--initialize-version", "2025-03-26"),
    )
    assert doc["capture"]["protocol"]["legacy"]["version"] == "2025-03-26"
    path = tmp_path / "s.json"
    argv = [PYTHON, "-m", "catalogaudit", "serve", str(path), "--max-seconds", "60"]
    (answer,) = exchange(argv, initialize("2025-06-18"))
    assert answer["result"]["protocolVersion"] == "2025-03-26"


def test_initialize_version_answers_any_offer(base: Path) -> None:
    argv = serve_argv(base, "--protocol", "dual", "--initialize-version", "2026-07-28")
    answers = exchange(argv, initialize("2025-06-18", 1), initialize("2024-11-05", 2))
    assert [a["result"]["protocolVersion"] for a in answers] == ["2026-07-28", "2026-07-28"]


def test_initialize_version_rewrites_a_captured_handshake_minimally(
    captured: dict[str, dict[str, Any]], tmp_path: Path
) -> None:
    path = tmp_path / "k.json"
    path.write_text(json.dumps(captured["K"]), encoding="utf-8")
    argv = [PYTHON, "-m", "catalogaudit", "serve", str(path), "--max-seconds", "60"]
    (answer,) = exchange([*argv, "--initialize-version", "2025-06-18"], initialize("2025-11-25"))
    assert answer["result"]["protocolVersion"] == "2025-06-18"
    assert answer["result"]["serverInfo"] == {"name": "catalogaudit-serve", "version": "0"}


@pytest.mark.parametrize(
    ("opts", "words"),
    [
        (("--protocol", "modern", "--initialize-version", "2026-07-28"), "--protocol legacy"),
        (("--initialize-version", " "), "must name a version"),
    ],
)
def test_initialize_version_usage_errors(base: Path, opts: tuple[str, ...], words: str) -> None:
    result = cli("serve", str(base), "--max-seconds", "5", *opts)
    assert result.code == 2, str(result)
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and words in lines[0], str(result)


def test_without_the_probe_nothing_is_recorded(base: Path, tmp_path: Path) -> None:
    doc, _ = snapshot_ok(tmp_path, "--", *serve_argv(base, "--protocol", "dual"))
    assert doc["capture"]["protocol"]["era"] == "modern"
    assert "legacy" not in doc["capture"]["protocol"]
    validate_snapshot(doc)


@pytest.mark.parametrize(("protocol", "answered"), [("dual", True), ("modern", False)])
def test_the_probe_over_http(base: Path, tmp_path: Path, protocol: str, answered: bool) -> None:
    """Over Streamable HTTP the probe is a fresh session (an initialize POST, no session id)."""
    from test_serve import serving_http

    with serving_http(base, "--capabilities", CAPS, "--protocol", protocol) as url:
        doc, _ = snapshot_ok(tmp_path, "--legacy-probe", "--url", url)
    legacy = doc["capture"]["protocol"]["legacy"]
    assert legacy["answered"] is answered
    if not answered:
        assert legacy["error"]["code"] == -32022
