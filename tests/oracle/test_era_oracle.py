"""Differential oracle (issue 6): the handshake and cache-hint era scenarios G, H and K.

G: a server answering `server/discover` and `initialize`, whose 2026-07-28 results lack
`ttlMs`/`cacheScope`; H: a 2026-only server without cache hints; K: an `initialize` answered
with protocolVersion 2026-07-28 (compat-rules.md "Measured with real clients"); and R, found by
`verify` (Python mcp 2.3.0 also requires `resultType`): a 2026-07-28 tool list with `ttlMs` and
`cacheScope` but no `resultType`. Each is `catalogaudit serve` of a small catalog
(fixtures/oracle-era/) with the options that play it, captured by `catalogaudit snapshot
--legacy-probe`, so the snapshot records the era,
version and handshake a real client meets, and whether the server also answers a legacy
`initialize`. Served as captured, each snapshot plays its scenario again, so `verify` needs no
extra serve options.

For every client with a verify driver, one `catalogaudit verify` run covers the three
scenarios; the profile's prediction must equal the observation for every list and item, and
the list verdicts must equal the measured table, quoting the client's own message, so a profile
and a driver wrong the same way still fail.

Run with `pytest -m oracle` (any -m that selects them) or CATALOGAUDIT_ORACLE=1.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from helpers import FIXTURES, PYTHON, ROOT, cli
from helpers.oracle_common import (  # noqa: F401 - asked_for is a fixture
    asked_for,
    not_installed,
    observed,
    predicted_rows,
    verify_json,
)

from catalogaudit.model.protocol import CAPABILITY_OF
from catalogaudit.verify import DRIVERS

pytestmark = pytest.mark.oracle

MODULES = ROOT / "tests" / "node_modules"
ERA = FIXTURES / "oracle-era"
ALL = ("tools", "resources", "resourceTemplates")
#: scenario -> (catalog folder, its `snapshot --from` revision, the `serve` options that play
#: it, the listings it serves).
SCENARIOS: dict[str, tuple[str, str, tuple[str, ...], tuple[str, ...]]] = {
    "G": ("catalog", "auto", ("--protocol", "dual", "--cache-hints", "absent"), ALL),
    "H": ("catalog", "auto", ("--protocol", "modern", "--cache-hints", "absent"), ALL),
    "K": ("catalog", "auto", ("--protocol", "legacy", "--initialize-version", "2026-07-28"), ALL),
    "R": ("no-result-type", "2026-07-28", ("--protocol", "dual"), ("tools",)),
}
KEPT, FAILED = "kept", "failed"


def _bin(name: str) -> Callable[[], bool]:
    return lambda: (MODULES / ".bin" / name).is_file()


def _everywhere(verdict: str, client: str, scenario: str) -> dict[str, str]:
    served = SCENARIOS[scenario][3]
    return dict.fromkeys((n for n in CLIENTS[client][3] if n in served), verdict)


#: Its driver reads tools with `claude mcp get`, prompts and resources from a `claude -p` session
#: (no route shows templates).
OBSERVED_BY_CLAUDE_CODE = ("tools", "prompts", "resources")
#: client -> (`--client` spec, `--client-path`, installed?, the lists its driver observes,
#: per scenario the measured list verdict and the words a failed list's message must quote).
CLIENTS: dict[str, tuple[str, str | None, Callable[[], bool], tuple[str, ...]]] = {
    "codex": ("codex@0.169.0", str(MODULES), _bin("codex"), ALL),
    "claude-code": ("claude-code@2.1.328", str(MODULES), _bin("claude"), OBSERVED_BY_CLAUDE_CODE),
    "ts-sdk": (
        "ts-sdk@1.32.2",
        str(MODULES),
        lambda: (MODULES / "@modelcontextprotocol" / "sdk").is_dir(),
        ALL,
    ),
    "ts-sdk-v2": (
        "ts-sdk-v2@2.4.0",
        str(MODULES),
        lambda: (MODULES / "@modelcontextprotocol" / "client").is_dir(),
        ALL,
    ),
    "python-sdk": ("python-sdk@2.3.0", None, lambda: True, ALL),
    "opencode": ("opencode@1.18.33", str(MODULES), _bin("opencode"), ("tools", "resources")),
    "inspector": ("inspector@2.12.0", str(MODULES), _bin("mcp-inspector"), ALL),
    "gemini-cli": ("gemini-cli@0.61.0", str(MODULES), _bin("gemini"), ("tools", "resources")),
}
#: (client, scenario) -> (measured verdict of every list it reads, quotes from its message).
MEASURED: dict[tuple[str, str], tuple[str, tuple[str, ...]]] = {
    # Codex never sends discover: initialize 2025-06-18 works on G; K's 2026-07-28 is accepted.
    ("codex", "G"): (KEPT, ()),
    ("codex", "H"): (FAILED, ("MCP startup failed", "-32022", "Unsupported protocol version")),
    ("codex", "K"): (KEPT, ()),
    ("codex", "R"): (KEPT, ()),
    # Claude Code sends discover first, adopts 2026-07-28 and tolerates missing hints.
    ("claude-code", "G"): (KEPT, ()),
    ("claude-code", "H"): (KEPT, ()),
    ("claude-code", "K"): (FAILED, ("protocol version is not supported: 2026-07-28",)),
    ("claude-code", "R"): (KEPT, ()),
    # The TS SDK speaks initialize only.
    ("ts-sdk", "G"): (KEPT, ()),
    ("ts-sdk", "H"): (FAILED, ("-32022", "Unsupported protocol version")),
    ("ts-sdk", "K"): (FAILED, ("Server's protocol version is not supported: 2026-07-28",)),
    ("ts-sdk", "R"): (KEPT, ()),
    # The TS SDK v2 (versionNegotiation auto) sends discover first, adopts 2026-07-28 and
    # then requires resultType, ttlMs and cacheScope (issue 32).
    ("ts-sdk-v2", "G"): (FAILED, ("missing required resultType",)),
    ("ts-sdk-v2", "H"): (FAILED, ("missing required resultType",)),
    ("ts-sdk-v2", "K"): (FAILED, ("Server's protocol version is not supported: 2026-07-28",)),
    ("ts-sdk-v2", "R"): (FAILED, ("missing required resultType",)),
    # Python mcp 2.3.0 accepts a discover result without hints, then every list call fails.
    ("python-sdk", "G"): (FAILED, ("ttlMs", "cacheScope", "Field required")),
    ("python-sdk", "H"): (FAILED, ("ttlMs", "cacheScope", "Field required")),
    ("python-sdk", "K"): (FAILED, ("Unsupported protocol version from the server: 2026-07-28",)),
    # Found by verify (2026-11-30): resultType is required too.
    ("python-sdk", "R"): (FAILED, ("resultType", "Field required")),
    # opencode never sends discover.
    ("opencode", "G"): (KEPT, ()),
    ("opencode", "H"): (FAILED, ("-32022",)),
    ("opencode", "K"): (FAILED, ()),
    ("opencode", "R"): (KEPT, ()),
    # Inspector --cli: legacy only; H and K exit 1.
    ("inspector", "G"): (KEPT, ()),
    ("inspector", "H"): (FAILED, ()),
    ("inspector", "K"): (FAILED, ()),
    ("inspector", "R"): (KEPT, ()),
    # Gemini CLI 0.61.0 never sends discover, and its bundled TS SDK speaks up to 2025-06-18
    # (SUPPORTED_PROTOCOL_VERSIONS in its bundle): it asks for 2025-06-18. G's and R's servers
    # echoed the probe's 2025-11-25, so serve echoes its 2025-06-18 too, as the real servers
    # measured do (serve/replay.py `_echoed`); before that echo, both failed with "Server's
    # protocol version is not supported: 2025-11-25".
    ("gemini-cli", "G"): (KEPT, ()),
    ("gemini-cli", "H"): (FAILED, ("-32022",)),
    ("gemini-cli", "K"): (FAILED, ()),
    ("gemini-cli", "R"): (KEPT, ()),
}
CASES = [
    pytest.param(c, s)
    for c in CLIENTS
    if c in DRIVERS
    for s in sorted(SCENARIOS)
    if (c, s) in MEASURED
]


@pytest.fixture(scope="module")
def snapshots(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Each scenario served from its catalog and captured with the legacy probe."""
    base = tmp_path_factory.mktemp("era-oracle")
    out: dict[str, Path] = {}
    for name, (folder, revision, opts, served) in SCENARIOS.items():
        inputs = [a for f in sorted((ERA / folder).glob("*.json")) for a in ("--from", str(f))]
        static = base / f"{name}-static.json"
        made = cli("snapshot", *inputs, "--protocol", revision, "-o", str(static))
        assert made.code == 0, str(made)
        caps = json.dumps({CAPABILITY_OF[n]: {} for n in served})
        serve = [PYTHON, "-m", "catalogaudit", "serve", str(static)]
        serve += ["--max-seconds", "60", "--capabilities", caps, *opts]
        path = base / f"{name}.json"
        made = cli("snapshot", "--legacy-probe", "-o", str(path), "--", *serve)
        assert made.code == 0, str(made)
        out[name] = path
    return out


@pytest.fixture(scope="module")
def verdicts(snapshots: dict[str, Path]) -> dict[str, tuple[int, dict[str, Any]]]:
    """Each installed client's `verify --format json` over G, H and K in one run."""
    out: dict[str, tuple[int, dict[str, Any]]] = {}
    for cid in sorted({case.values[0] for case in CASES}):
        spec, path, installed, _ = CLIENTS[cid]
        if not installed():
            not_installed(f"{cid} (npm ci --prefix tests)")
            continue
        out[cid] = verify_json(spec, [snapshots[n] for n in sorted(SCENARIOS)], path)
    return out


def test_the_snapshots_record_what_a_client_meets(snapshots: dict[str, Path]) -> None:
    """G and H are 2026-07-28 captures that differ only in the legacy answer; K is legacy;
    R is 2026-07-28 with both cache hints and no resultType."""
    proto = {n: json.loads(p.read_text())["capture"]["protocol"] for n, p in snapshots.items()}
    assert (proto["G"]["era"], proto["G"]["legacy"]["answered"]) == ("modern", True)
    assert (proto["H"]["era"], proto["H"]["legacy"]["answered"]) == ("modern", False)
    assert proto["H"]["legacy"]["error"]["code"] == -32022
    assert (proto["K"]["era"], proto["K"]["negotiated"]) == ("legacy", "2026-07-28")
    assert (proto["R"]["era"], proto["R"]["legacy"]["answered"]) == ("modern", True)
    page = json.loads(snapshots["R"].read_text())["listings"]["tools"]["pages"][0]["fields"]
    assert (page.get("ttlMs"), page.get("cacheScope"), "resultType" in page) == (
        0,
        "private",
        False,
    )


@pytest.mark.parametrize(("client", "scenario"), CASES)
def test_profile_predicts_the_client(
    client: str,
    scenario: str,
    snapshots: dict[str, Path],
    verdicts: dict[str, tuple[int, dict[str, Any]]],
) -> None:
    """Per list and item the prediction equals the observation, and the measured verdict."""
    if client not in verdicts:
        pytest.skip("npm packages not installed: run `npm ci --prefix tests`")
    _, doc = verdicts[client]
    rows = predicted_rows(doc, snapshots[scenario], client)
    verdict, quotes = MEASURED[(client, scenario)]
    lists = {r["listing"]: r["verdict"] for r in rows if r["index"] is None}
    assert lists == _everywhere(verdict, client, scenario), lists
    for r in rows:
        if r["index"] is None and r["verdict"] == FAILED:
            assert r["message"], "a failed list must quote the client's own message"
            for quote in quotes:
                assert quote in r["message"], r["message"]
            items = [o for o in rows if o["listing"] == r["listing"] and o["index"] is not None]
            assert items and all(o["verdict"] == "dropped" for o in items)


def test_every_client_with_a_driver_has_measured_era_verdicts() -> None:
    """A new driver must bring its G/H/K cases (or the era matrix silently shrinks).
    ContextForge is fed the catalog through its discovery code, with no handshake at all."""
    missing = set(DRIVERS) - {"context-forge"} - set(CLIENTS)
    assert not missing, f"no era scenarios for {sorted(missing)}"
    for client in CLIENTS:
        assert all((client, s) in MEASURED for s in SCENARIOS), client


def test_exit_code_says_whether_everything_matched(
    verdicts: dict[str, tuple[int, dict[str, Any]]],
) -> None:
    """`verify` exits 0 exactly when every observation matched its prediction."""
    for code, doc in verdicts.values():
        assert code == (0 if doc["matches"] else 1)
